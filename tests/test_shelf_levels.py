"""A shelving unit whose masks show each compartment one board lower is drawn so
(gen/scenes/alfred/shelf_levels.py), its boxes and what rests on them unchanged."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.shelf_backs import back_parts
from alfred_gen.scenes.alfred.shelf_levels import shelves_to_their_compartments
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import with_margins
from tests.helpers.sight_rays import ray_to

EYE = (0.0, 1.576, 1.2)
TOPS = (0.16, 0.54, 0.87)  # FloorPlan20's kitchen unit


def _board(top: float) -> Block:
    """A board 1 m wide and 0.4 m deep facing +z (its back at z 0), 2 cm thick, its top at ``top``."""
    return Block(f"Shelf|+00.00|{top:+06.2f}|+00.20", "Shelf", (0.0, top, 0.2), [-0.5, top - 0.02, 0.0],
                 [0.5, top, 0.4], False, 0)


def _mask(board: Block, on_top_at: float) -> SightFact:
    """A mask of ``board`` whose rays come down on a board top at height ``on_top_at``, near its front
    (what the board above leaves in sight)."""
    rays = tuple(ray_to(EYE, (x, on_top_at, z)) for x in (-0.3, 0.0, 0.3) for z in (0.3, 0.38))
    return SightFact(board.object_id, EYE, rays, None, action="PutObject")


def _drawn_top(board: Block) -> float:
    return with_margins(board.box(), board.drawn_margins).hi[1]


def test_a_unit_whose_masks_land_a_compartment_lower_is_drawn_a_board_lower() -> None:
    low, middle, top = unit = [_board(y) for y in TOPS]
    boxes = [board.box() for board in unit]
    shelves_to_their_compartments(list(unit), [_mask(middle, 0.16), _mask(middle, 0.16), _mask(top, 0.54)], 0.0)
    assert [board.box() for board in unit] == boxes  # what rests on them stays where it rests
    assert _drawn_top(middle) == pytest.approx(0.16) and _drawn_top(top) == pytest.approx(0.54)
    assert _drawn_top(low) == pytest.approx(0.87)  # a board's spacing lower is under the floor: the bare top
    (back,) = back_parts(middle, unit)  # the back follows the drawing: the lowest compartment's
    assert (back.lo[1], back.hi[1]) == pytest.approx((0.16, 0.52))


@pytest.mark.parametrize("landing", ["top board's masks on the board below", "lowest board's masks a spacing lower"])
def test_the_lowest_board_goes_a_spacing_lower_when_the_floor_allows(landing: str) -> None:
    """FloorPlan1's unit: no board at 0.21 m, where THOR's masks of its lowest board lie."""
    middle, top = unit = [_board(0.54), _board(0.87)]
    masks = [_mask(top, 0.54)] * 2 if landing.startswith("top") else [_mask(middle, 0.21)] * 2
    shelves_to_their_compartments(list(unit), masks, 0.0)
    assert _drawn_top(top) == pytest.approx(0.54)
    assert _drawn_top(middle) == pytest.approx(0.54 - 0.33)


@pytest.mark.parametrize("masks", [
    pytest.param(lambda middle: [_mask(middle, 0.54), _mask(middle, 0.54)], id="masks on their own board"),
    pytest.param(lambda middle: [_mask(middle, 0.16)], id="one mask"),
])
def test_a_unit_stays_at_its_ids_unless_enough_masks_show_it_lower(masks) -> None:
    unit = [_board(y) for y in TOPS]
    shelves_to_their_compartments(list(unit), masks(unit[1]), 0.0)
    assert all(not board.drawn_margins for board in unit)
    (back,) = back_parts(unit[1], unit)
    assert (back.lo[1], back.hi[1]) == pytest.approx((0.54, 0.85))
