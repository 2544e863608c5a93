"""The geometry behind the rooms: reachable grid, visibility check, interaction pose choice, shells."""

from __future__ import annotations

import random

import pytest

from alfred_gen.scenes.grid import (
    best_interaction_pose,
    front_normal,
    is_visible,
    largest_component,
    occluder_arrays,
    reachable_grid,
    visible_points,
)
from alfred_gen.scenes.procedural.rooms import WALL_THICKNESS, Rect, ShapeSpec, make_room_shape
from alfred_gen.scenes.procedural.surfaces import surfaces_of
from alfred_gen.sim.scene import Box, Pose


def test_empty_room_grid_keeps_the_body_off_the_walls() -> None:
    # A 2 m x 1.5 m floor on the lattice: x in [0.25, 1.75] (7 points), z in [0.25, 1.25] (5 points).
    points = reachable_grid([(0.0, 0.0, 2.0, 1.5)], [])
    assert len(points) == 7 * 5
    assert min(p[0] for p in points) == 0.25 and max(p[0] for p in points) == 1.75
    # A wall 0.1 m closer removes a column: 0.15 m is less than the body's radius.
    assert len(reachable_grid([(0.0, 0.0, 1.9, 1.5)], [])) == 6 * 5


def test_obstacles_block_points_within_the_body_radius() -> None:
    free = set(reachable_grid([(0.0, 0.0, 3.0, 3.0)], []))
    blocked = set(reachable_grid([(0.0, 0.0, 3.0, 3.0)], [(1.3, 1.3, 1.7, 1.7)]))
    removed = free - blocked
    # (1.5, 1.5) is under it; (1.0, 1.5) is 0.3 m away (free); (1.25, 1.5) is 0.05 m away (blocked).
    assert (1.5, 1.5) in removed and (1.25, 1.5) in removed and (1.0, 1.5) not in removed
    assert (1.25, 1.25) in removed  # diagonal: 0.05 * sqrt(2) from the corner


def test_only_the_largest_connected_part_is_kept() -> None:
    # A full-height divider splits a 4 m room into a 2.5 m and a 1.4 m part.
    points = reachable_grid([(0.0, 0.0, 4.0, 1.0)], [(2.5, 0.0, 2.6, 1.0)])
    assert points and all(x < 2.5 for x, _ in points)
    assert largest_component([(0.0, 0.0), (0.25, 0.0), (1.0, 1.0)]) == [(0.0, 0.0), (0.25, 0.0)]


def test_l_shaped_floor_keeps_the_body_off_the_inner_corner() -> None:
    # L: the square [0,2]x[0,2] minus the corner [1,2]x[1,2]. The point (1.0+0.125.., ...) near the
    # reflex corner (1, 1) must stay 0.2 m from it.
    points = reachable_grid([(0.0, 0.0, 2.0, 1.0), (0.0, 1.0, 1.0, 2.0)], [])
    assert all((x - 1.0) ** 2 + (z - 1.0) ** 2 >= 0.2**2 - 1e-9 for x, z in points)
    assert (1.5, 1.5) not in points and (0.5, 1.5) in points and (1.5, 0.5) in points


def _occluders(*boxes: Box):
    return occluder_arrays(boxes)


TABLE = Box((1.0, 0.0, 2.0), (1.6, 0.75, 2.6))


def test_visible_in_front_within_reach_and_in_view() -> None:
    pose = Pose(1.25, 1.5, 0, 30)  # facing +z towards the table
    assert is_visible(pose, TABLE, _occluders())
    assert not is_visible(Pose(1.25, 1.5, 180, 30), TABLE, _occluders())  # looking away
    assert not is_visible(Pose(1.25, 0.25, 0, 30), TABLE, _occluders())  # 1.75 m away: out of reach
    assert not is_visible(Pose(1.25, 1.5, 0, -30), TABLE, _occluders())  # looking up over it


def test_a_wall_between_hides_the_target() -> None:
    wall = Box((0.5, 0.0, 1.8), (2.0, 2.5, 1.9))
    seen, _ = visible_points(Pose(1.25, 1.5, 0, 30), TABLE, _occluders(wall))
    assert seen == 0


def test_front_restriction_needs_the_front_face_in_view() -> None:
    cabinet = Box((1.0, 0.0, 2.0), (1.5, 0.8, 2.5))
    # Seen from the -z side: its -z face is the front when it faces 180 degrees, not when it faces 0.
    pose = Pose(1.25, 1.5, 0, 30)
    assert is_visible(pose, cabinet, _occluders(), front=front_normal(180))
    assert not is_visible(pose, cabinet, _occluders(), front=front_normal(0))


def test_best_pose_faces_the_target_from_the_nearest_good_point() -> None:
    grid = [(x * 0.25, z * 0.25) for x in range(0, 9) for z in range(0, 7)]
    pose = best_interaction_pose(TABLE, grid, _occluders())
    assert pose is not None
    assert pose.rotation == 0 and pose.horizon in (30, 45, 60)
    assert is_visible(pose, TABLE, _occluders())
    assert best_interaction_pose(TABLE, [(5.0, 5.0)], _occluders()) is None  # too far from anything


def test_room_shapes_are_closed_and_l_shapes_have_six_sides() -> None:
    spec = ShapeSpec(width=(3.0, 5.0), depth=(3.0, 5.0), l_shape_share=0.5)
    sides = set()
    for seed in range(40):
        shape = make_room_shape(random.Random(seed), spec)
        sides.add(len(shape.edges))
        # Consecutive edges meet, and each turns by 90 degrees.
        for a, b in zip(shape.edges, shape.edges[1:] + shape.edges[:1]):
            assert a.end == b.start
            assert a.direction[0] * b.direction[0] + a.direction[1] * b.direction[1] == 0
        assert abs(sum(r.area for r in shape.floor_rects()) - shape.floor_area) < 1e-9
        # Every floor rectangle lies in the bounds, clear of the cut corner.
        for rect in shape.floor_rects():
            assert shape.contains(rect)
        door = shape.door_zone()
        assert shape.contains(Rect(door.x0, door.z0, door.x1, door.z1))
        # Walls stand outside the floor.
        for wall in shape.wall_boxes():
            foot = Rect(wall.lo[0], wall.lo[2], wall.hi[0], wall.hi[2])
            assert not any(foot.overlaps(r) for r in shape.floor_rects())
        assert WALL_THICKNESS > 0
    assert sides == {4, 6}


@pytest.mark.parametrize(
    ("object_type", "facing", "expected_y"),
    [("Sofa", 0, 0.45), ("Bed", 90, 0.55), ("Cabinet", 180, 0.02), ("CounterTop", 0, 0.9), ("TowelHolder", 0, 1.15)],
)
def test_surfaces_follow_the_shape_of_the_type(object_type: str, facing: int, expected_y: float) -> None:
    box = Box(
        (0.0, 0.0 if object_type != "TowelHolder" else 1.15, 0.0),
        (2.0, 0.9 if object_type != "TowelHolder" else 1.2, 2.0),
    )
    surfaces = surfaces_of(object_type, box, facing)
    assert len(surfaces) == 1 and abs(surfaces[0].y - expected_y) < 1e-9
    assert surfaces_of("Apple", box) == [] and surfaces_of("Television", box) == []
    if object_type == "Sofa":  # the backrest (at the -z side when facing +z) is no seat
        assert surfaces[0].z0 >= 0.2


def test_a_cloth_on_the_floor_is_in_reach_from_the_agents_axis_not_from_its_eye() -> None:
    # A cloth half a metre from the nearest standing point is 1.6 m from the eye: beyond the
    # camera-distance rule the procedural rooms' poses use, within the simulator's (and THOR's)
    # reach measured from the agent's vertical axis.
    cloth = Box((0.5, 0.0, -0.1), (0.7, 0.02, 0.1))
    points = [(-0.25 * i, 0.25 * j) for i in range(0, 5) for j in range(-3, 4)]
    no_walls = occluder_arrays([])
    assert best_interaction_pose(cloth, points, no_walls) is None
    pose = best_interaction_pose(cloth, points, no_walls, axis_reach=True)
    assert pose is not None and pose.x <= 0.0
