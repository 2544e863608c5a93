"""A microwave's drawing is fitted to the top and bottom of THOR's masks of it shut (issue 69)."""

from __future__ import annotations

import math
from dataclasses import replace

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.microwave_fronts import MAX_MOVE, outlines_to_their_masks
from alfred_gen.scenes.alfred.sight_facts import SightFact
from tests.helpers.sight_rays import ray_to

MICROWAVE = "Microwave|+00.00|+00.90|+01.20"
EYE = (0.0, 1.5, 0.0)


def _microwave(bottom: float) -> Block:
    """0.5 m wide, the catalogue's 0.35 m tall from ``bottom``, 0.4 m deep, its front at z 1.0 facing
    :data:`EYE` (looking along +z)."""
    return Block(MICROWAVE, "Microwave", (0.0, bottom, 1.2), [-0.25, bottom, 1.0], [0.25, bottom + 0.35, 1.4],
                 True, 180)


def _shut(top: tuple[float, float, float], bottom: tuple[float, float, float]) -> SightFact:
    """A mask of the microwave shut (recorded with its OpenObject) whose outline's topmost and
    bottommost pixels look at ``top`` and ``bottom``; its sides reach the frame's border."""
    return SightFact(MICROWAVE, EYE, (ray_to(EYE, (0.0, 1.1, 1.0)),), None, (),
                     (None, None, ray_to(EYE, top), ray_to(EYE, bottom)), action="OpenObject")


def test_a_counter_microwave_is_drawn_as_low_as_its_shut_masks_top_and_its_floor_stays() -> None:
    # THOR's counter microwave is 0.26 m tall where lite's box is 0.35 m (FloorPlan14's: lite's top
    # 14 px above THOR's). Seen from above, the topmost ray leaves the top at its back edge; the
    # bottommost grazes the front's foot, which here lies above the box's bottom.
    block = _microwave(0.94)
    shut = _shut((0.0, 1.23, 1.4), (0.0, 0.98, 1.0))
    outlines_to_their_masks([block], [shut])
    assert block.drawn_margins == ()  # one mask is too few
    outlines_to_their_masks([block], [replace(shut, action="CloseObject")] * 2)
    assert block.drawn_margins == ()  # an open microwave's mask shows its door
    outlines_to_their_masks([block], [shut] * 2)
    assert block.lo == [-0.25, 0.94, 1.0] and block.hi == [0.25, 1.29, 1.4]  # drawing only: landings stay
    assert math.isclose(block.drawn_margins[4], -0.06, abs_tol=1e-6)  # the top comes down
    assert block.drawn_margins[1] == 0.0  # the floor is not drawn over what rests on it


def test_a_hung_microwave_is_drawn_as_low_as_its_shut_masks_show_it() -> None:
    # Hung above the eye (FloorPlan28's: lite's bottom row 16 px above THOR's): the bottommost ray
    # leaves the underside at its back edge, the topmost grazes the front's top edge.
    block = _microwave(1.6)
    outlines_to_their_masks([block], [_shut((0.0, 1.9, 1.0), (0.0, 1.55, 1.4))] * 3)
    assert math.isclose(block.drawn_margins[1], 0.05, abs_tol=1e-6)  # the bottom goes down
    assert math.isclose(block.drawn_margins[4], -0.05, abs_tol=1e-6)
    far = _microwave(1.6)
    outlines_to_their_masks([far], [_shut((0.0, 1.9, 1.0), (0.0, 1.3, 1.4))] * 3)
    assert math.isclose(far.drawn_margins[1], MAX_MOVE, abs_tol=1e-6)  # at most MAX_MOVE


def test_other_types_are_not_fitted() -> None:
    block = replace(_microwave(0.94), kind="Fridge")
    outlines_to_their_masks([block], [_shut((0.0, 1.23, 1.4), (0.0, 0.98, 1.0))] * 3)
    assert block.drawn_margins == ()


def test_a_microwave_s_sides_are_drawn_where_its_shut_masks_outline_ends_left_and_right() -> None:
    # The leftmost ray grazes the front's left edge 0.05 m inside the box, the rightmost its right
    # edge 0.05 m outside it: the drawing narrows on the left and widens on the right, its top and
    # bottom (cut by the frame here) unchanged.
    block = _microwave(0.94)
    sides = (ray_to(EYE, (-0.2, 1.1, 1.0)), ray_to(EYE, (0.3, 1.1, 1.0)), None, None)
    shut = replace(_shut((0.0, 1.23, 1.4), (0.0, 0.98, 1.0)), sides=sides)
    outlines_to_their_masks([block], [shut])
    assert block.drawn_margins == ()  # one mask is too few
    outlines_to_their_masks([block], [shut] * 2)
    assert block.lo == [-0.25, 0.94, 1.0] and block.hi == [0.25, 1.29, 1.4]  # drawing only
    margins = block.drawn_margins
    assert math.isclose(margins[0], -0.05, abs_tol=1e-6) and math.isclose(margins[3], 0.05, abs_tol=1e-6)
    assert margins[1] == margins[2] == margins[4] == margins[5] == 0.0
    far = _microwave(0.94)
    wide = (ray_to(EYE, (-0.6, 1.1, 1.0)), None, None, None)
    outlines_to_their_masks([far], [replace(shut, sides=wide)] * 2)
    assert math.isclose(far.drawn_margins[0], MAX_MOVE, abs_tol=1e-6)  # at most MAX_MOVE
