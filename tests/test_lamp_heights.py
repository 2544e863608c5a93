"""A desk lamp's drawing is as tall as THOR's masks of it show (issue 69)."""

from __future__ import annotations

import math
from dataclasses import replace

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.lamp_heights import MAX_MOVE, lamps_to_their_masks, top_heights
from alfred_gen.scenes.alfred.sight_facts import SightFact
from tests.helpers.sight_rays import ray_to

LAMP = "DeskLamp|+00.00|+00.55|+01.00"
EYE = (0.0, 1.6, 0.0)


def _lamp() -> Block:
    """The catalogue's lamp (0.256 x 0.464 x 0.29 m) standing on its id at y 0.55, 1 m ahead of :data:`EYE`."""
    return Block(LAMP, "DeskLamp", (0.0, 0.55, 1.0), [-0.128, 0.55, 0.855], [0.128, 1.014, 1.145], True, 180)


def _mask(top: tuple[float, float, float] | None, inside: tuple[float, float, float] = (0.0, 0.8, 1.0)) -> SightFact:
    """A mask of the lamp switched on whose topmost pixel looks at ``top`` (None: the frame's top cuts
    the mask) and whose pixels look at ``inside``."""
    sides = (ray_to(EYE, (-0.1, 0.8, 1.0)), ray_to(EYE, (0.1, 0.8, 1.0)),
             None if top is None else ray_to(EYE, top), ray_to(EYE, (0.0, 0.56, 1.0)))
    return SightFact(LAMP, EYE, (ray_to(EYE, inside),), None, (), sides, action="ToggleObjectOn")


def test_a_lamp_is_drawn_as_tall_as_its_masks_tops_and_its_box_stays() -> None:
    # THOR's lamp 0.33 m tall (FloorPlan301's: its masks' tops a median 0.32 m above the id) where
    # lite's box is 0.464 m.
    block = _lamp()
    lamps_to_their_masks([block], [_mask((0.0, 0.88, 1.0))])
    assert block.drawn_margins == ()  # one mask is too few
    lamps_to_their_masks([block], [_mask((0.0, 0.88, 1.0))] * 2)
    assert block.lo == [-0.128, 0.55, 0.855] and block.hi == [0.128, 1.014, 1.145]  # drawing only
    assert math.isclose(block.drawn_margins[4], 0.88 - 1.014, abs_tol=1e-6)  # the top comes down
    assert all(m == 0.0 for i, m in enumerate(block.drawn_margins) if i != 4)


def test_masks_the_frame_cuts_raise_the_top_to_their_highest_pixels() -> None:
    # FloorPlan309's lamp: every mask runs off the frame's top; its pixels reach 0.73 m above the id.
    block = _lamp()
    lamps_to_their_masks([block], [_mask(None, (0.0, 1.28, 1.0))] * 3)
    assert math.isclose(block.drawn_margins[4], 1.28 - 1.014, abs_tol=1e-6)
    # A lower bound never brings the top down.
    low = _lamp()
    lamps_to_their_masks([low], [_mask(None, (0.0, 0.8, 1.0))] * 3)
    assert low.drawn_margins == ()


def test_the_top_moves_at_most_max_move_and_reads_the_lamps_middle() -> None:
    block = _lamp()
    lamps_to_their_masks([block], [_mask((0.0, 1.7, 1.0))] * 2)
    assert math.isclose(block.drawn_margins[4], MAX_MOVE, abs_tol=1e-6)
    # A topmost ray through a point nearer the eye is read where it meets the lamp's middle plane.
    exact, least = top_heights(_lamp(), [_mask((0.0, 1.1, 0.5))])
    assert least == [] and len(exact) == 1 and math.isclose(exact[0], 0.6, abs_tol=1e-6)


def test_other_types_and_other_targets_are_not_fitted() -> None:
    block = replace(_lamp(), kind="FloorLamp")
    lamps_to_their_masks([block], [_mask((0.0, 0.88, 1.0))] * 3)
    assert block.drawn_margins == ()
    other = _lamp()
    lamps_to_their_masks([other], [replace(_mask((0.0, 0.88, 1.0)), target="DeskLamp|+09.00|+00.55|+01.00")] * 3)
    assert other.drawn_margins == ()
