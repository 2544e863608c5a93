"""A kitchen faucet moved onto the lines of sight of THOR's masks of it (gen/scenes/alfred/faucet_fits.py)."""

from __future__ import annotations

import math

import pytest

from alfred_gen.scenes.alfred.faucet_fits import MAX_SHIFT, faucets_to_their_masks
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact

FAUCET = "Faucet|+00.00|+00.93|-00.80"
EYE = (0.0, 1.58, 0.0)


def _faucet() -> Block:
    return Block(FAUCET, "Faucet", (0.0, 0.93, -0.8), [-0.05, 0.88, -0.85], [0.05, 0.98, -0.75], False, 0)


def _fact(point: tuple[float, float, float]) -> SightFact:
    d = [point[i] - EYE[i] for i in range(3)]
    n = math.sqrt(sum(v * v for v in d))
    return SightFact(FAUCET, EYE, ((d[0] / n, d[1] / n, d[2] / n),) * 5)


def test_a_kitchen_faucet_moves_onto_its_masks_line_of_sight_keeping_its_depth() -> None:
    block = _faucet()
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))] * 2, "FloorPlan17")
    middle = [(lo + hi) / 2 for lo, hi in zip(block.lo, block.hi)]
    assert middle[0] == pytest.approx(0.06, abs=0.01) and middle[1] == pytest.approx(1.05, abs=0.01)
    assert middle[2] == pytest.approx(-0.8, abs=0.03)
    assert block.hi[0] - block.lo[0] == pytest.approx(0.1)


def test_one_mask_a_bathroom_and_a_far_line_of_sight() -> None:
    block = _faucet()
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))], "FloorPlan17")
    assert block.lo == _faucet().lo
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))] * 2, "FloorPlan417")
    assert block.lo == _faucet().lo
    faucets_to_their_masks([block], [_fact((1.0, 0.93, -0.8))] * 2, "FloorPlan17")
    assert block.lo[0] - _faucet().lo[0] == pytest.approx(MAX_SHIFT)
