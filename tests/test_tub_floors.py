"""A bathtub's floor is drawn where things rest in it, never under the room's floor (tub_floors)."""

from __future__ import annotations

import math

from alfred_gen.scenes.alfred.basin_openings import MIN_MASKS, centred_rim
from alfred_gen.scenes.alfred.fixture_block import Block, drawn_floor
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.scenes.alfred.tub_floors import CLEARANCE, tub_floors_in_view
from alfred_gen.sim import pixels
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, SceneObject
from tests.helpers.sight_rays import ray_to
from tests.helpers.small_rooms import first_mask, walled_room

TUB = "Bathtub|-03.59|+00.11|+01.52|BathtubBasin"
FLOOR_Y = 0.001


def _tub(bottom: float, kind: str = "BathtubBasin") -> Block:
    """A tub's basin as FloorPlan423's: 0.7 by 1.4 m, its box's top 0.31 m over the room's floor."""
    return Block(TUB, kind, (-3.59, 0.11, 1.52), [-3.94, bottom, 0.82], [-3.24, 0.31, 2.22], False, 90)


def _cloth(x: float, bottom: float, z: float) -> Box:
    return Box((x - 0.09, bottom, z - 0.1), (x + 0.09, bottom + 0.02, z + 0.1))


def test_a_tub_sunk_under_the_room_s_floor_is_drawn_with_its_floor_where_things_rest_in_it() -> None:
    tub = _tub(-0.197)
    assert drawn_floor(tub) < FLOOR_Y  # the room's floor would hide its inside
    beside = _cloth(-2.5, FLOOR_Y, 1.5)  # on the room's floor, off the tub's footprint
    tub_floors_in_view([tub], [_cloth(-3.6, 0.19, 1.3), _cloth(-3.5, 0.21, 1.8), beside], FLOOR_Y)
    assert math.isclose(drawn_floor(tub), 0.19, abs_tol=1e-4)
    assert (tub.lo, tub.hi) == ([-3.94, -0.197, 0.82], [-3.24, 0.31, 2.22])  # drawing only
    drawn = tub.drawn_box()
    assert drawn.hi == (-3.24, 0.31, 2.22) and drawn.lo[0] == -3.94 and drawn.lo[2] == 0.82


def test_a_sunk_tub_nothing_rests_in_is_drawn_just_over_the_room_s_floor() -> None:
    tub = _tub(-0.197)
    tub_floors_in_view([tub], [_cloth(-2.5, FLOOR_Y, 1.5)], FLOOR_Y)
    assert math.isclose(drawn_floor(tub), FLOOR_Y + CLEARANCE, abs_tol=1e-4)


def test_a_tub_over_the_room_s_floor_and_other_basins_keep_their_drawing() -> None:
    standing = _tub(-0.007)  # its floor's top 0.043 m over the room's floor
    sink = _tub(-0.197, kind="SinkBasin")
    resting = [_cloth(-3.6, 0.19, 1.3)]
    tub_floors_in_view([standing, sink], resting, FLOOR_Y)
    assert standing.drawn_margins == () and sink.drawn_margins == ()


def _sight(hits: list[tuple[float, float, float]], eye: tuple[float, float, float]) -> SightFact:
    """A mask of the tub whose edge rays go from ``eye`` through the points ``hits``."""
    rays = tuple(ray_to(eye, point) for point in hits)
    return SightFact(TUB, eye, rays[:1], None, rays)


def test_a_tub_s_rim_is_fitted_no_lower_than_its_drawn_floor() -> None:
    eye = (-3.0, 1.577, 0.75)
    # Masks whose opening is centred on the tub where their rays cross 0.05 m over the room's floor.
    sights = [_sight([(-3.80, 0.05, 1.0), (-3.38, 0.05, 2.04)], eye)] * MIN_MASKS
    tub = _tub(-0.197)
    fitted = centred_rim(tub, sights)
    assert fitted is not None and math.isclose(fitted[0], 0.05, abs_tol=0.006)
    tub_floors_in_view([tub], [_cloth(-3.6, 0.19, 1.3)], FLOOR_Y)
    raised = centred_rim(tub, sights)
    assert raised is not None and raised[0] >= drawn_floor(tub) - 1e-9


def _tub_mask(drawn_margins: tuple[float, ...]) -> int:
    """Pixels of a tub sunk 0.2 m under the room's floor, seen from before it and above."""
    pixels.forget_shapes()
    box = Box((-0.35, -0.2, 0.8), (0.35, 0.3, 1.5))
    tub = SceneObject("BathtubBasin", (0.0, 0.05, 1.15), box, opening=(-0.3, 0.3, 0.85, 1.45, 0.25),
                      drawn_margins=drawn_margins)
    room = walled_room([tub], Pose(0.0, 0.25, 0, 60), name="FloorPlan423", scene_num=423, room_type="bathroom",
                       camera=ALFRED_CAMERA)
    return int(first_mask(room, "BathtubBasin").sum())


def test_a_tub_drawn_with_its_floor_where_things_rest_shows_its_inside() -> None:
    # Drawn to its box, its floor lies under the room's, which hides it: only the walls show.
    sunk = _tub_mask(())
    raised = _tub_mask((0.0, -0.35, 0.0, 0.0, 0.0, 0.0))  # its floor's top at 0.2 m
    assert raised > 2 * sunk
