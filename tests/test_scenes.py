"""The 120 procedural rooms: deterministic, well-formed, reachable, and every receptacle posed."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

from alfred_gen.domains.catalogue import OBJECT_TYPES, can_place
from alfred_gen.scenes import get_scene, scene_numbers
from alfred_gen.scenes.grid import (
    AGENT_HEIGHT,
    AGENT_RADIUS,
    CAMERA_OFFSET,
    HORIZONS,
    ROTATIONS,
    camera_position,
    is_visible,
    occluder_arrays,
)
from alfred_gen.scenes.procedural.build import (
    MIN_REACHABLE,
    build_scene,
    front_of,
    interaction_pose_for,
    needs_pose,
    occluders_for,
)
from alfred_gen.scenes.procedural.surfaces import surfaces_of
from alfred_gen.scenes.procedural.vocab import FLOOR_ITEMS
from alfred_gen.sim.scene import GRID_SIZE, Box, Scene, format_object_id, grid_key, room_type_of

NUMBERS = scene_numbers()


@pytest.fixture(scope="module")
def scenes() -> dict[int, Scene]:
    return {n: get_scene(n) for n in NUMBERS}


def _digest(scene: Scene) -> str:
    return hashlib.sha256(json.dumps(scene.to_dict(), sort_keys=True).encode()).hexdigest()


def test_there_are_30_rooms_of_each_type_in_alfreds_ranges(scenes: dict[int, Scene]) -> None:
    assert len(NUMBERS) == 120 and len(set(NUMBERS)) == 120
    by_type: dict[str, int] = {}
    for number, scene in scenes.items():
        assert scene.scene_num == number
        assert scene.name == f"LitePlan{number}"
        assert scene.room_type == room_type_of(number)
        by_type[scene.room_type] = by_type.get(scene.room_type, 0) + 1
    assert by_type == {"kitchen": 30, "living_room": 30, "bedroom": 30, "bathroom": 30}


@pytest.mark.slow  # one of the slowest (--durations, issue 61)
def test_every_scene_builds_the_same_twice(scenes: dict[int, Scene]) -> None:
    for number in NUMBERS:
        assert build_scene(number).to_dict() == scenes[number].to_dict(), number


@pytest.mark.slow  # fast lane: 11 s on a loaded 2-core machine (session 73 --durations)
def test_scenes_do_not_depend_on_the_hash_seed(scenes: dict[int, Scene]) -> None:
    sample = (1, 14, 215, 322, 417)
    code = (
        "import hashlib, json, sys\n"
        "from alfred_gen.scenes.procedural.build import build_scene\n"
        "for n in map(int, sys.argv[1:]):\n"
        "    d = build_scene(n).to_dict()\n"
        "    print(n, hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest())\n"
    )
    expected = {str(n): _digest(scenes[n]) for n in sample}
    for seed in ("1", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = subprocess.run(
            [sys.executable, "-c", code, *map(str, sample)], capture_output=True, text=True, env=env, check=True
        )
        got = dict(line.split() for line in result.stdout.splitlines())
        assert got == expected, f"PYTHONHASHSEED={seed}"


def test_scene_survives_a_dict_round_trip_and_get_scene_returns_copies(scenes: dict[int, Scene]) -> None:
    scene = scenes[5]
    assert Scene.from_dict(json.loads(json.dumps(scene.to_dict()))).to_dict() == scene.to_dict()
    mutated = get_scene(5)
    mutated.objects.clear()
    mutated.interaction_poses.clear()
    assert get_scene(5).to_dict() == scene.to_dict()


def test_object_ids_are_unique_and_thor_shaped(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        ids = [o.object_id for o in scene.objects]
        assert len(ids) == len(set(ids)), scene.name
        by_id = {o.object_id: o for o in scene.objects}
        for obj in scene.objects:
            assert obj.object_type in OBJECT_TYPES, (scene.name, obj.object_type)
            if obj.object_type in ("SinkBasin", "BathtubBasin"):
                parent_id, _, child = obj.object_id.rpartition("|")
                assert child == obj.object_type
                assert by_id[parent_id].object_type == {"SinkBasin": "Sink", "BathtubBasin": "Bathtub"}[child]
                continue
            # The id is the type and the (rounded) position, and the position is in the box.
            assert obj.object_id.split("|")[0] == obj.object_type
            assert format_object_id(obj.object_type, obj.position) == obj.object_id
            for k in range(3):
                assert obj.box.lo[k] - 1e-6 <= obj.position[k] <= obj.box.hi[k] + 1e-6, obj.object_id
            assert all(obj.box.hi[k] > obj.box.lo[k] for k in range(3)), obj.object_id


def test_walls_stand_on_the_floor_and_enclose_the_grid(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        heights = {round(w.hi[1], 3) for w in scene.walls if w.lo[1] == 0.0}
        assert heights and all(2.0 <= h <= 3.0 for h in heights), scene.name
        assert scene.floor_y == 0.0
        points = np.asarray(scene.reachable)
        for wall in scene.walls:
            if wall.lo[1] > AGENT_HEIGHT:
                continue  # lintel over the door
            near_x = np.clip(points[:, 0], wall.lo[0], wall.hi[0])
            near_z = np.clip(points[:, 1], wall.lo[2], wall.hi[2])
            gap = np.hypot(points[:, 0] - near_x, points[:, 1] - near_z)
            assert gap.min() >= AGENT_RADIUS - 1e-6, scene.name


def test_pickupables_rest_on_receptacles_that_may_hold_them(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        by_id = {o.object_id: o for o in scene.objects}
        children: dict[str, int] = {}
        for obj in scene.objects:
            entry = OBJECT_TYPES[obj.object_type]
            if not entry.pickupable:
                assert obj.parent is None, obj.object_id
                continue
            if obj.object_type in FLOOR_ITEMS:
                assert obj.parent is None and abs(obj.box.lo[1] - scene.floor_y) < 1e-6, obj.object_id
                continue
            host = by_id[obj.parent]
            assert can_place(obj.object_type, host.object_type), (obj.object_id, host.object_id)
            children[host.object_id] = children.get(host.object_id, 0) + 1
            # It rests on (or hangs from) one of the host's surfaces, within its footprint.
            rests = False
            for surface in surfaces_of(host.object_type, host.box, host.rotation[1]):
                level = obj.box.hi[1] if surface.hang else obj.box.lo[1]
                if abs(level - surface.y) < 1e-3 and (
                    surface.hang
                    or (surface.x0 - 1e-3 <= obj.box.lo[0] and obj.box.hi[0] <= surface.x1 + 1e-3
                        and surface.z0 - 1e-3 <= obj.box.lo[2] and obj.box.hi[2] <= surface.z1 + 1e-3)
                ):
                    rests = True
            assert rests, (scene.name, obj.object_id, host.object_id)
        for host_id, count in children.items():
            assert count <= OBJECT_TYPES[by_id[host_id].object_type].capacity, host_id


def test_pickupables_do_not_overlap_each_other(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        boxes = [o.box for o in scene.objects if OBJECT_TYPES[o.object_type].pickupable]
        lo = np.array([b.lo for b in boxes])
        hi = np.array([b.hi for b in boxes])
        overlap = np.all((lo[:, None, :] < hi[None, :, :] - 1e-4) & (lo[None, :, :] < hi[:, None, :] - 1e-4), axis=2)
        np.fill_diagonal(overlap, False)
        assert not overlap.any(), scene.name


def test_reachable_grid_is_on_the_lattice_clear_and_connected(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        points = list(scene.reachable)
        assert len(points) >= MIN_REACHABLE[scene.room_type], scene.name
        assert points == sorted(set(points)), scene.name
        for x, z in points:
            assert abs(x / GRID_SIZE - round(x / GRID_SIZE)) < 1e-9 and abs(z / GRID_SIZE - round(z / GRID_SIZE)) < 1e-9
        keys = {grid_key(x, z) for x, z in points}
        graph = nx.Graph()
        graph.add_nodes_from(keys)
        graph.add_edges_from((k, (k[0] + 1, k[1])) for k in keys if (k[0] + 1, k[1]) in keys)
        graph.add_edges_from((k, (k[0], k[1] + 1)) for k in keys if (k[0], k[1] + 1) in keys)
        assert nx.is_connected(graph), scene.name
        # The agent's body clears every piece of furniture (and anything on the floor).
        feet = []
        for obj in scene.objects:
            if OBJECT_TYPES[obj.object_type].pickupable and obj.parent is not None:
                continue
            feet.extend(b for b in (obj.box, *obj.parts) if b.lo[1] < AGENT_HEIGHT)
        lo = np.array([[b.lo[0], b.lo[2]] for b in feet])
        hi = np.array([[b.hi[0], b.hi[2]] for b in feet])
        p = np.asarray(points)
        nearest = np.clip(p[:, None, :], lo[None], hi[None])
        gap = np.linalg.norm(p[:, None, :] - nearest, axis=2)
        assert gap.min() >= AGENT_RADIUS - 1e-6, scene.name


def test_every_receptacle_lamp_and_faucet_is_visible_from_its_pose(scenes: dict[int, Scene]) -> None:
    for scene in scenes.values():
        grid = {grid_key(x, z) for x, z in scene.reachable}
        assert scene.start is not None and grid_key(scene.start.x, scene.start.z) in grid
        needed = [o for o in scene.objects if needs_pose(o)]
        assert any(OBJECT_TYPES[o.object_type].receptacle for o in needed)
        for obj in scene.objects:
            pose = scene.interaction_poses.get(obj.object_id)
            if pose is None:
                assert not needs_pose(obj), (scene.name, obj.object_id)
                continue
            assert grid_key(pose.x, pose.z) in grid, (scene.name, obj.object_id)
            assert pose.rotation in ROTATIONS and pose.horizon in HORIZONS
            occluders = occluder_arrays(occluders_for(obj, scene.objects, scene.walls))
            assert is_visible(pose, obj.box, occluders, scene.agent_y, front_of(obj)), (scene.name, obj.object_id)
            # Within reach: camera to the nearest point of the box.
            camera = camera_position(pose.x, pose.z, scene.agent_y)
            nearest = np.clip(camera, obj.box.lo, obj.box.hi)
            assert np.linalg.norm(camera - nearest) <= 1.5 + 1e-9


@pytest.mark.parametrize(("x", "z", "over"), [(0.5, 0.5, True), (0.0, 1.0, True), (1.01, 0.5, False),
                                               (0.5, -0.01, False)])
def test_a_point_is_over_a_boxs_footprint_edges_included_whatever_the_height(x: float, z: float, over: bool) -> None:
    box = Box((0.0, 2.0, 0.0), (1.0, 3.0, 1.0))
    assert box.over_footprint(x, z) is over


def test_scene_builder_uses_the_simulators_camera_height() -> None:
    world = pytest.importorskip("alfred_gen.sim.world")
    assert CAMERA_OFFSET == world.CAMERA_Y_OFFSET


@pytest.mark.parametrize("number", [1, 17, 205, 226, 309, 330, 402, 425])
def test_interaction_poses_show_their_target_in_the_rendered_frame(scenes: dict[int, Scene], number: int) -> None:
    """By pixels, as THOR decides: at least 10 pixels of the target in the instance frame."""
    pytest.importorskip("alfred_gen.sim.render")
    from alfred_gen.scenes.view import scene_boxes, target_pixels

    scene = scenes[number]
    boxes = scene_boxes(scene)
    for object_id, pose in sorted(scene.interaction_poses.items()):
        assert target_pixels(scene, pose, object_id, boxes) >= 10, (scene.name, object_id, pose)


def test_poses_for_objects_where_they_lie(scenes: dict[int, Scene]) -> None:
    """interaction_pose_for finds a grid pose seeing a loose object on an open surface, nearly always."""
    found = tried = 0
    for number in NUMBERS[::10]:
        scene = scenes[number]
        grid = {grid_key(x, z) for x, z in scene.reachable}
        by_id = {o.object_id: o for o in scene.objects}
        for obj in scene.objects:
            if obj.parent is None or OBJECT_TYPES[by_id[obj.parent].object_type].encloses:
                continue
            surfaces = ("CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "Bed")
            if by_id[obj.parent].object_type not in surfaces:
                continue
            tried += 1
            pose = interaction_pose_for(scene, obj.box)
            if pose is None:
                continue
            found += 1
            assert grid_key(pose.x, pose.z) in grid
            occluders = occluder_arrays(occluders_for(obj, scene.objects, scene.walls))
            assert is_visible(pose, obj.box, occluders, scene.agent_y), (scene.name, obj.object_id)
    assert tried >= 50 and found >= 0.9 * tried, (found, tried)
