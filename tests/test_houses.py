"""The procedural houses: deterministic, well-formed, every room reachable through doorways, rooms
and doorways recorded in the Scene; the house filter; house names and numbers."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import networkx as nx
import numpy as np
import pytest

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes import get_house, get_scene
from alfred_gen.scenes.grid import AGENT_HEIGHT, AGENT_RADIUS, grid_graph, is_visible, occluder_arrays
from alfred_gen.scenes.houses.build import HOUSE_MIN_REACHABLE, build_house, house_interaction_poses
from alfred_gen.scenes.houses.filter import HouseFilter, coverage, internal_area, rooms_connected
from alfred_gen.scenes.houses.layout import MAX_ROOMS, MIN_ROOMS
from alfred_gen.scenes.houses.names import (
    HOUSE_NUMBERS,
    house_of_name,
    house_of_scene_num,
    house_scene_num,
    parse_house_numbers,
)
from alfred_gen.scenes.library import resolve_house_number
from alfred_gen.scenes.procedural.build import (
    front_of,
    interaction_poses,
    needs_pose,
    occluders_for,
)
from alfred_gen.scenes.procedural.rooms import DOOR_HEIGHT, DOOR_WIDTH
from alfred_gen.sim.scene import HOUSE, HOUSE_ROOM_TYPES, Box, Doorway, Room, Scene, SceneObject, grid_key
from alfred_gen.sim.world import segments_hit_boxes

#: A spread of houses: six to ten rooms (7, 9, 6, 8, 10 and 10 since issue 67).
HOUSES = (1, 2, 4, 5, 13, 28)


@pytest.fixture(scope="module")
def houses() -> dict[int, Scene]:
    return {n: get_house(n) for n in HOUSES}


def _digest(scene: Scene) -> str:
    return hashlib.sha256(json.dumps(scene.to_dict(), sort_keys=True).encode()).hexdigest()


def _overlap(a: Box, b: Box, eps: float = 1e-6) -> bool:
    return all(a.lo[k] < b.hi[k] - eps and b.lo[k] < a.hi[k] - eps for k in range(3))


# --- determinism and records ---------------------------------------------------------------------


@pytest.mark.slow  # one of the slowest (--durations, issue 61)
def test_a_house_is_a_function_of_its_number(houses: dict[int, Scene]) -> None:
    assert build_house(4).to_dict() == houses[4].to_dict()
    assert _digest(houses[1]) != _digest(houses[2])
    code = (
        "import hashlib, json, sys\n"
        "from alfred_gen.scenes.houses.build import build_house\n"
        "for n in map(int, sys.argv[1:]):\n"
        "    print(n, hashlib.sha256(json.dumps(build_house(n).to_dict(), sort_keys=True).encode()).hexdigest())\n"
    )
    expected = {str(n): _digest(houses[n]) for n in (1, 4)}
    for seed in ("0", "977"):
        result = subprocess.run([sys.executable, "-c", code, "1", "4"], capture_output=True, text=True,
                                env=dict(os.environ, PYTHONHASHSEED=seed), check=True)
        assert dict(line.split() for line in result.stdout.splitlines()) == expected, seed


@pytest.mark.slow  # one of the slowest (--durations, issue 61)
def test_a_house_that_needs_hundreds_of_draws_still_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """LiteHouse21 (ten rooms) finds no valid plan and furnishing in its first 300 draws (counted
    here): the attempt limit must leave room for such houses."""
    from alfred_gen.scenes.houses import build

    attempts: list[int] = []
    first_try = build._attempt

    def counted(house: int, attempt: int, *args: Any) -> Scene:
        attempts.append(attempt)
        return first_try(house, attempt, *args)

    monkeypatch.setattr(build, "_attempt", counted)
    scene = build_house(21)
    assert len(attempts) > 200 and len(scene.rooms) == MAX_ROOMS and rooms_connected(scene)


@pytest.mark.slow  # about 20 s: 1813 draws, most rejected at the floor plan
def test_a_house_with_an_open_plan_room_that_needs_more_than_a_thousand_draws_builds() -> None:
    """LiteHouse576 (nine rooms, the living room also the dining room) failed every one of the old
    cap's 1000 draws: the cap must leave room for the narrower plans open-plan rooms make."""
    scene = build_house(576)
    assert [room.also for room in scene.rooms if room.also] == [("dining_room",)]
    assert rooms_connected(scene)


def test_names_numbers_and_records(houses: dict[int, Scene]) -> None:
    for number, scene in houses.items():
        assert scene.name == f"LiteHouse{number}" and scene.scene_num == 1000 + number
        assert scene.room_type == HOUSE and scene.is_house
        # The drawn room types: an open-plan room is two of them in one room.
        assert MIN_ROOMS <= sum(len(room.types) for room in scene.rooms) <= MAX_ROOMS
        assert all(t in HOUSE_ROOM_TYPES for room in scene.rooms for t in room.types)
        # Ids are the type and a count from 1 within the type.
        by_type = Counter()
        for room in scene.rooms:
            by_type[room.room_type] += 1
            assert room.room_id == f"{room.room_type}_{by_type[room.room_type]}"
    assert {sum(len(r.types) for r in s.rooms) for s in houses.values()} >= {MIN_ROOMS, MAX_ROOMS}
    assert any(r.room_type == "dining_room" for s in houses.values() for r in s.rooms)
    assert any(r.also for s in houses.values() for r in s.rooms)


def test_a_house_survives_a_dict_round_trip_and_a_single_room_dict_is_unchanged(houses: dict[int, Scene]) -> None:
    scene = houses[5]
    data = json.loads(json.dumps(scene.to_dict()))
    again = Scene.from_dict(data)
    assert again.to_dict() == scene.to_dict()
    assert again.rooms == scene.rooms and again.doorways == scene.doorways
    room = get_scene(5).to_dict()
    assert "rooms" not in room and "doorways" not in room
    mutated = get_house(5)
    mutated.objects.clear()
    assert get_house(5).to_dict() == scene.to_dict()


def test_rooms_tile_the_house_apart_and_every_object_has_a_room(houses: dict[int, Scene]) -> None:
    for scene in houses.values():
        rects = [(min(x for x, _ in r.floor), min(z for _, z in r.floor), max(x for x, _ in r.floor),
                  max(z for _, z in r.floor)) for r in scene.rooms]
        for i, a in enumerate(rects):
            for b in rects[i + 1:]:
                assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), scene.name
        # Walls stand outside the floors: no wall below head height cuts into a room.
        for wall in scene.walls:
            for x0, z0, x1, z1 in rects:
                inside_x = wall.lo[0] < x1 - 1e-6 and x0 < wall.hi[0] - 1e-6
                inside_z = wall.lo[2] < z1 - 1e-6 and z0 < wall.hi[2] - 1e-6
                assert not (inside_x and inside_z), (scene.name, wall)
        ids = [o.object_id for o in scene.objects]
        assert len(ids) == len(set(ids)), scene.name
        for obj in scene.objects:
            room = scene.room_of(obj.object_id)
            assert room is not None, (scene.name, obj.object_id)
            assert sum(r.contains(obj.box.center[0], obj.box.center[2]) for r in scene.rooms) == 1


def test_doorways_are_open_gaps_in_the_wall_between_two_rooms(houses: dict[int, Scene]) -> None:
    for scene in houses.values():
        rooms = {r.room_id: r for r in scene.rooms}
        graph = nx.Graph()
        graph.add_nodes_from(rooms)
        for doorway in scene.doorways:
            first, second = doorway.rooms
            graph.add_edge(first, second)
            box = doorway.box
            width = max(box.size[0], box.size[2])
            assert width == pytest.approx(DOOR_WIDTH) and box.hi[1] == pytest.approx(DOOR_HEIGHT)
            # Nothing of the walls is in the opening below the lintel, and the lintel closes it above.
            assert not any(_overlap(w, box) for w in scene.walls), (scene.name, doorway)
            lintel = Box((box.lo[0], DOOR_HEIGHT, box.lo[2]), (box.hi[0], DOOR_HEIGHT + 0.1, box.hi[2]))
            assert any(_overlap(w, lintel) for w in scene.walls), (scene.name, doorway)
            # The two rooms lie on the two sides of the opening, across its thin axis.
            axis = 0 if box.size[0] < box.size[2] else 2
            cx, cz = doorway.center
            step = box.size[axis] / 2 + 0.05
            sides = [(cx - step, cz), (cx + step, cz)] if axis == 0 else [(cx, cz - step), (cx, cz + step)]
            assert {scene.room_at(*p).room_id for p in sides} == {first, second}, (scene.name, doorway)
            assert scene.room_at(cx, cz) is None  # a doorway's floor belongs to no room
        assert nx.is_connected(graph), scene.name


def test_every_room_is_reached_through_doorways_and_no_step_passes_a_wall(houses: dict[int, Scene]) -> None:
    for scene in houses.values():
        points = list(scene.reachable)
        assert points == sorted(set(points))
        graph = grid_graph(points)
        assert nx.is_connected(graph), scene.name
        per_room = Counter(scene.room_at(x, z).room_id for x, z in points if scene.room_at(x, z) is not None)
        for room in scene.rooms:
            assert per_room[room.room_id] >= HOUSE_MIN_REACHABLE[room.room_type], (scene.name, room.room_id)
        # The body (a 0.2 m circle) clears every wall and every piece of furniture.
        feet = [w for w in scene.walls if w.lo[1] < AGENT_HEIGHT]
        for obj in scene.objects:
            if not (OBJECT_TYPES[obj.object_type].pickupable and obj.parent is not None):
                feet.extend(b for b in (obj.box, *obj.parts) if b.lo[1] < AGENT_HEIGHT)
        lo = np.array([[b.lo[0], b.lo[2]] for b in feet])
        hi = np.array([[b.hi[0], b.hi[2]] for b in feet])
        p = np.asarray(points)
        gap = np.linalg.norm(p[:, None, :] - np.clip(p[:, None, :], lo[None], hi[None]), axis=2)
        assert gap.min() >= AGENT_RADIUS - 1e-6, scene.name
        # A MoveAhead between neighbouring points never goes through a wall (the simulator refuses it).
        wall_lo = np.array([w.lo for w in scene.walls])
        wall_hi = np.array([w.hi for w in scene.walls])
        starts, ends = [], []
        for a, b in graph.edges:
            starts.append((a[0] * 0.25, 1.2, a[1] * 0.25))
            ends.append((b[0] * 0.25, 1.2, b[1] * 0.25))
        assert not segments_hit_boxes(np.array(starts), np.array(ends), wall_lo, wall_hi).any(), scene.name


def test_every_receptacle_lamp_and_faucet_is_posed_and_seen(houses: dict[int, Scene]) -> None:
    for scene in houses.values():
        grid = {grid_key(x, z) for x, z in scene.reachable}
        assert scene.start is not None and grid_key(scene.start.x, scene.start.z) in grid
        for obj in scene.objects:
            pose = scene.interaction_poses.get(obj.object_id)
            if pose is None:
                assert not needs_pose(obj), (scene.name, obj.object_id)
                continue
            assert grid_key(pose.x, pose.z) in grid
            # Seen with every box of the house as a possible occluder, not only the nearby ones.
            occluders = occluder_arrays(occluders_for(obj, scene.objects, scene.walls))
            assert is_visible(pose, obj.box, occluders, scene.agent_y, front_of(obj)), (scene.name, obj.object_id)


def test_the_nearby_occluders_shortcut_picks_the_poses_every_box_would() -> None:
    scene = get_house(4)
    reachable = list(scene.reachable)
    assert house_interaction_poses(scene.objects, scene.walls, reachable) == interaction_poses(
        scene.objects, scene.walls, reachable)


# --- rooms and doorways as data -----------------------------------------------------------------


def test_room_polygons_contain_their_floor_and_boundary_only() -> None:
    ell = Room("kitchen_1", "kitchen", ((0.0, 0.0), (4.0, 0.0), (4.0, 2.0), (2.0, 2.0), (2.0, 3.0), (0.0, 3.0)))
    assert ell.area == pytest.approx(10.0)
    assert ell.contains(1.0, 2.5) and ell.contains(3.0, 1.0)
    assert ell.contains(4.0, 1.0) and ell.contains(2.0, 2.5) and ell.contains(0.0, 0.0)  # on the outline
    assert not ell.contains(3.0, 2.5) and not ell.contains(-0.1, 1.0) and not ell.contains(1.0, 3.01)
    other = Room("bedroom_1", "bedroom", ((4.15, 0.0), (6.0, 0.0), (6.0, 3.0), (4.15, 3.0)))
    door = Doorway(("kitchen_1", "bedroom_1"), Box((4.0, 0.0, 0.5), (4.15, 2.1, 1.4)))
    lamp = SceneObject("FloorLamp", (5.0, 0.0, 2.0), Box((4.8, 0.0, 1.8), (5.2, 1.6, 2.2)))
    scene = Scene("T", 1, HOUSE, (), ((1.0, 1.0),), [lamp], rooms=(ell, other), doorways=(door,))
    assert scene.room_of(lamp.object_id) == other
    assert scene.room_at(*door.center) is None
    assert scene.room_type_at(1.0, 1.0) == "kitchen"
    assert scene.room("bedroom_1") == other
    with pytest.raises(KeyError):
        scene.room("bathroom_1")
    single = get_scene(301)
    assert single.room_type_at(0.0, 0.0) == "bedroom" and single.room_at(0.0, 0.0) is None


# --- the house filter -----------------------------------------------------------------------------


def test_house_filter_applies_each_rule(houses: dict[int, Scene]) -> None:
    everything = HouseFilter(min_area=0.0, max_area=1e6, required=(), min_coverage=0.0)
    for scene in houses.values():
        assert everything.accepts(scene), scene.name
        assert rooms_connected(scene)
        area = internal_area(scene)
        assert area == pytest.approx(sum(r.area for r in scene.rooms))
        assert 1 / 3 <= coverage(scene) <= 1.0
        assert HouseFilter(min_area=area + 1, max_area=area + 2, required=()).why_rejected(scene).startswith("area")
        assert HouseFilter(min_area=0, max_area=area - 1, required=()).why_rejected(scene).startswith("area")
        types = {t for r in scene.rooms for t in r.types}
        # An open-plan room counts as each of its types (a kitchen that is also the dining room).
        assert all(HouseFilter(min_area=0, max_area=1e6, required=r.types).accepts(scene) for r in scene.rooms)
        missing = [t for t in HOUSE_ROOM_TYPES if t not in types]
        if missing:
            reason = HouseFilter(min_area=0, max_area=1e6, required=(missing[0],)).why_rejected(scene)
            assert reason == f"no {missing[0]}"
        assert HouseFilter(min_area=0, max_area=1e6, required=(), min_coverage=1.0).accepts(scene) is (
            coverage(scene) >= 1.0)
    # issue 67: about eight rooms of ALFRED's size fall in SUNCG's 300-800 m2 scaled by 17.6/69
    # LiteHouse1: six rooms (127 m2), its kitchen also the dining room; LiteHouse28: ten (150 m2).
    for number in (1, 28):
        assert HouseFilter().accepts(houses[number]), number
    assert HouseFilter(max_area=140.0).why_rejected(houses[28]).startswith("area")


def test_house_filter_rejects_a_house_whose_rooms_are_cut_apart(houses: dict[int, Scene]) -> None:
    scene = get_house(1)
    # Take away the grid points in and next to the doorways: the rooms fall apart.
    near = [d.center for d in scene.doorways]
    kept = tuple(p for p in scene.reachable if all(abs(p[0] - x) + abs(p[1] - z) > 0.6 for x, z in near))
    cut = Scene.from_dict({**scene.to_dict(), "reachable": [list(p) for p in kept]})
    assert not rooms_connected(cut)
    assert HouseFilter(min_area=0, max_area=1e6, required=()).why_rejected(cut) == "rooms not connected"
    assert HouseFilter().why_rejected(get_scene(1)) == "not a house"


@pytest.mark.parametrize("kwargs", [{"min_area": 50, "max_area": 10}, {"min_area": -1}, {"required": ("balcony",)},
                                    {"min_coverage": 1.5}])
def test_house_filter_refuses_impossible_values(kwargs: dict) -> None:
    with pytest.raises(UserError) as raised:
        HouseFilter(**kwargs)
    assert raised.value.code == ExitCode.USAGE


# --- names and numbers ----------------------------------------------------------------------------


def test_house_names_and_numbers() -> None:
    assert len(HOUSE_NUMBERS) >= 10_000 and HOUSE_NUMBERS.start == 1  # EQA's 750 homes fit many times (#67)
    assert house_scene_num(5) == 1005 and house_of_scene_num(1005) == 5
    assert house_of_scene_num(2000) == 1000 and house_scene_num(8999) == 9999
    # From house 9000 on, past lite's rooms' 10001-10430: every number names one house, none a room.
    last = HOUSE_NUMBERS.stop - 1
    assert house_scene_num(9000) == 109000 and house_scene_num(last) == 100000 + last
    assert house_of_scene_num(109000) == 9000 and house_of_scene_num(100000 + last) == last
    assert all(house_of_scene_num(n) is None for n in (5, 10000, 10205, 10430, 108999, 100000 + HOUSE_NUMBERS.stop))
    assert house_of_scene_num(9000 + 1000) is None  # 10000: 1000 + 9000 is not house 9000's number
    assert house_of_name("litehouse12") == 12 and house_of_name("LiteHouse0") is None
    assert house_of_name("LitePlan12") is None
    for ref in (5, "5", "LiteHouse5", " litehouse5 "):
        assert resolve_house_number(ref) == 5
    assert parse_house_numbers("3-5, 9,LiteHouse2") == (2, 3, 4, 5, 9)


@pytest.mark.parametrize(("text", "code"), [("0", ExitCode.NOT_FOUND), ("99998-100000", ExitCode.NOT_FOUND),
                                            ("5-3", ExitCode.USAGE), ("house", ExitCode.USAGE),
                                            (",", ExitCode.USAGE)])
def test_bad_house_numbers_are_reported(text: str, code: int) -> None:
    with pytest.raises(UserError) as raised:
        parse_house_numbers(text)
    assert raised.value.code == code


@pytest.mark.parametrize("ref", ["LiteHouse0", "LiteHouse100000", 0, True])
def test_unknown_houses_are_not_found(ref) -> None:
    with pytest.raises(UserError) as raised:
        get_house(ref) if not isinstance(ref, str) else get_scene(ref)
    assert raised.value.code == ExitCode.NOT_FOUND
