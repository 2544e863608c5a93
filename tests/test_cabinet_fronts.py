"""A cabinet is drawn as its door shows in THOR's masks of it shut (the masks of its OpenObject
actions), never grown over its neighbours and never cut through what lies in it."""

from __future__ import annotations

import math

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import (
    FRONT_GROW,
    FRONT_GROW_ACROSS,
    drawings_hold_posed,
    extents_to_their_masks,
)
from alfred_gen.scenes.alfred.passes import START_PASSES
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box, SceneObject
from tests.helpers.sight_rays import ray_to

CABINET = "Cabinet|+00.00|+00.45|+01.50"
EYE = (0.0, 1.5, 0.0)


def _cabinet() -> Block:
    """x -0.5..0.5, y 0.1..0.8, z 1.5..2.0, its front (z 1.5) facing :data:`EYE` (looking along +z)."""
    return Block(CABINET, "Cabinet", (0.0, 0.45, 1.5), [-0.5, 0.1, 1.5], [0.5, 0.8, 2.0], False, 180)


def _ray(point: tuple[float, float, float]) -> tuple[float, float, float]:
    return ray_to(EYE, point)


def _mask(action: str, left: float = -0.3, right: float = 0.4, top: float = 0.7, bottom: float = 0.2) -> SightFact:
    """A mask whose outline meets the cabinet's front plane at x ``left``..``right``, y ``bottom``..``top``."""
    sides = (_ray((left, 0.45, 1.5)), _ray((right, 0.45, 1.5)), _ray((0.0, top, 1.5)), _ray((0.0, bottom, 1.5)))
    return SightFact(CABINET, EYE, (_ray((0.0, 0.45, 1.5)),), None, (), sides, action=action)


def test_a_shut_cabinet_is_drawn_to_its_door_and_its_box_stays() -> None:
    cabinet = _cabinet()
    extents_to_their_masks([cabinet], [_mask("OpenObject"), _mask("OpenObject")])
    assert cabinet.lo == [-0.5, 0.1, 1.5] and cabinet.hi == [0.5, 0.8, 2.0]  # drawing only
    lo_x, lo_y, lo_z, hi_x, hi_y, hi_z = cabinet.drawn_margins
    assert math.isclose(lo_x, -0.2, abs_tol=0.01) and math.isclose(hi_x, -0.1, abs_tol=0.01)
    assert math.isclose(lo_y, -0.1, abs_tol=0.01) and math.isclose(hi_y, -0.1, abs_tol=0.01)
    assert lo_z == 0.0 and hi_z == 0.0


def test_masks_of_it_open_say_nothing() -> None:
    # An open door's mask shows its leaf swung out and the inside, not the front.
    for action in ("CloseObject", "PutObject", ""):
        cabinet = _cabinet()
        extents_to_their_masks([cabinet], [_mask(action), _mask(action)])
        assert cabinet.drawn_margins == ()


def test_a_cabinet_grows_up_no_more_than_front_grow_and_sideways_to_front_grow_across() -> None:
    cabinet = _cabinet()
    extents_to_their_masks([cabinet], [_mask("OpenObject", left=-0.9, top=1.1)] * 2)
    assert FRONT_GROW_ACROSS > FRONT_GROW
    assert math.isclose(cabinet.drawn_margins[0], FRONT_GROW_ACROSS, abs_tol=1e-6)  # 0.4 m shown, capped
    assert math.isclose(cabinet.drawn_margins[4], FRONT_GROW, abs_tol=1e-6)
    wider = _cabinet()
    extents_to_their_masks([wider], [_mask("OpenObject", left=-0.6)] * 2)
    assert math.isclose(wider.drawn_margins[0], 0.1, abs_tol=0.01)  # as far as the masks show


def _basin(x0: float, x1: float) -> Block:
    """A sink basin over the cabinet's row, its bowl's floor at y 0.6, x ``x0``..``x1``."""
    return Block("Sink|+00.00|+00.90|+01.75|SinkBasin", "SinkBasin", (0.5 * (x0 + x1), 0.9, 1.75),
                 [x0, 0.6, 1.55], [x1, 0.92, 1.95], False, 180)


def test_a_cabinet_grows_sideways_no_farther_than_a_sink_bowl_beside_it() -> None:
    # the masks show the door reaching 0.3 m past the box's left end (x -0.8); a bowl stands from x -0.7 on
    cabinet = _cabinet()
    extents_to_their_masks([cabinet, _basin(-1.2, -0.7)], [_mask("OpenObject", left=-0.8)] * 2)
    assert math.isclose(cabinet.drawn_margins[0], 0.2, abs_tol=1e-6)
    # a cabinet already under a bowl grows towards it no more than FRONT_GROW, away from it freely
    under = _cabinet()
    extents_to_their_masks([under, _basin(-0.9, -0.3)], [_mask("OpenObject", left=-0.8, right=0.7)] * 2)
    assert math.isclose(under.drawn_margins[0], FRONT_GROW, abs_tol=1e-6)
    assert math.isclose(under.drawn_margins[3], 0.2, abs_tol=0.01)


def test_the_drawing_keeps_what_lies_in_the_cabinet() -> None:
    cabinet = _cabinet()
    bowl = Box((-0.45, 0.12, 1.6), (-0.25, 0.2, 1.8))
    extents_to_their_masks([cabinet], [_mask("OpenObject")] * 2, [bowl])
    lo_x, lo_y = cabinet.drawn_margins[0], cabinet.drawn_margins[1]
    assert math.isclose(lo_x, -0.05, abs_tol=1e-6)  # its left wall stays left of the bowl
    assert math.isclose(lo_y, -0.02, abs_tol=1e-6)  # its floor stays under it
    # what lies outside the box (on the counter above) is not held
    other = _cabinet()
    extents_to_their_masks([other], [_mask("OpenObject")] * 2, [Box((-0.45, 0.9, 1.6), (-0.25, 1.0, 1.8))])
    assert math.isclose(other.drawn_margins[0], -0.2, abs_tol=0.01)


def test_a_start_state_s_object_in_the_cabinet_is_drawn_round() -> None:
    box = Box((-0.5, 0.1, 1.5), (0.5, 0.8, 2.0))
    cabinet = SceneObject("Cabinet", (0.0, 0.45, 1.5), box, object_id=CABINET,
                          drawn_margins=(-0.2, -0.1, 0.0, -0.1, -0.1, 0.0))
    plate = Box((0.25, 0.11, 1.6), (0.45, 0.14, 1.8))
    fitted = drawings_hold_posed([cabinet], [("Plate", plate)], {})
    lo_x, lo_y, _, hi_x, hi_y, _ = fitted[CABINET].drawn_margins
    assert math.isclose(hi_x, -0.05, abs_tol=1e-6) and math.isclose(lo_y, -0.01, abs_tol=1e-6)
    assert lo_x == -0.2 and hi_y == -0.1
    assert fitted[CABINET].box == box
    # nothing posed in it: nothing changes
    assert drawings_hold_posed([cabinet], [("Plate", Box((2.0, 0.1, 2.0), (2.2, 0.2, 2.2)))], {}) == {}
    assert "drawings_hold_posed" in [p.name for p in START_PASSES]


def test_the_action_survives_the_evidence_file() -> None:
    fact = _mask("OpenObject")
    assert SightFact.from_list(fact.to_list()) == fact
    plain = SightFact(CABINET, EYE, (_ray((0.0, 0.45, 1.5)),))
    assert SightFact.from_list(plain.to_list()) == plain and len(plain.to_list()) == 4
