"""Houses in the simulator and the pipeline: seeing through doorways and not through walls, walking
from room to room, and vetted trajectories that carry an object from one room to another."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.cli import main
from alfred_gen.demo.generate import generate_trajectory
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.domains.tasks import get_task_type, make_task
from alfred_gen.errors import ExitCode
from alfred_gen.sample.feasibility import SceneContents, TaskTuple, default_scenes, scene_contents, scene_name
from alfred_gen.sample.house_rooms import task_rooms
from alfred_gen.sample.options import SampleOptions, parse_scenes
from alfred_gen.sample.run import run_sample
from alfred_gen.sample.stats import collect_stats
from alfred_gen.scenes import get_house
from alfred_gen.scenes.library import accepted_houses, simulator
from alfred_gen.scenes.view import render_view, scene_boxes
from alfred_gen.sim.render import FAR_DEPTH
from alfred_gen.sim.scene import AGENT_Y, Pose, Scene

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

#: The heading (THOR rotation) that faces along +x, -x, +z, -z.
FACING = {(1, 0): 90, (-1, 0): 270, (0, 1): 0, (0, -1): 180}


def _through_doorway_views(scene: Scene) -> list[tuple[Pose, float, str]]:
    """(pose facing straight through a doorway from one room, distance to the far face of its
    wall, the room on the other side) for grid points lined up with a doorway's middle."""
    views = []
    for doorway in scene.doorways:
        box = doorway.box
        axis = 0 if box.size[0] < box.size[2] else 2  # the wall's thin axis: the way through
        cx, cz = doorway.center
        for x, z in scene.reachable:
            along = z - cz if axis == 0 else x - cx
            across = x - cx if axis == 0 else z - cz
            if abs(along) > 0.15 or not 0.5 <= abs(across) <= 1.5 or scene.room_at(x, z) is None:
                continue
            sign = -1 if across > 0 else 1
            step = (sign, 0) if axis == 0 else (0, sign)
            far = (box.lo[axis] if sign < 0 else box.hi[axis]) - (x if axis == 0 else z)
            other = [r for r in doorway.rooms if r != scene.room_at(x, z).room_id][0]
            views.append((Pose(x, z, FACING[step], 0), abs(far), other))
    return views


def test_the_agent_sees_through_a_doorway() -> None:
    scene = get_house(1)
    boxes = scene_boxes(scene)
    views = _through_doorway_views(scene)
    assert views
    for pose, far, _ in views:
        frames = render_view(scene, pose, boxes)
        centre = float(frames.depth[150, 150])
        # The middle of the view looks past the wall's far face, into the next room.
        assert far + 0.05 < centre < FAR_DEPTH, (pose, far, centre)


def test_walls_hide_the_next_room() -> None:
    """Facing a wall with no doorway in view, nothing of another room shows, and nothing in the
    middle of the view is farther than the wall."""
    checked = 0
    for number in (1, 2, 5):
        scene = get_house(number)
        boxes = scene_boxes(scene)
        for x, z in scene.reachable[::7]:
            room = scene.room_at(x, z)
            if room is None:
                continue
            xs = [p[0] for p in room.floor]
            zs = [p[1] for p in room.floor]
            for (dx, dz), rotation in FACING.items():
                wall_at = (max(xs) if dx > 0 else min(xs)) if dx else (max(zs) if dz > 0 else min(zs))
                gap = abs(wall_at - (x if dx else z))
                if gap > 0.8:
                    continue
                # No doorway within the view's cone up to that wall (90 degree field of view).
                if any(abs((d.center[1] - z) if dx else (d.center[0] - x)) < gap + 0.6 for d in scene.doorways):
                    continue
                frames = render_view(scene, Pose(x, z, rotation, 0), boxes)
                assert float(frames.depth[150, 150]) <= gap + 0.02  # the wall, or something before it
                seen = {frames.owners[k] for k in np.unique(frames.owner) if k >= 0}
                elsewhere = [o for o in seen if "|" in o and scene.room_of(o) not in (room, None)]
                assert not elsewhere, (scene.name, (x, z, rotation), elsewhere)
                checked += 1
    assert checked >= 10


def test_the_agent_walks_from_room_to_room() -> None:
    """Shortest paths between rooms succeed step by step in the simulator, and every step from one
    room into another goes through a doorway."""
    scene = get_house(2)  # nine rooms
    controller = simulator().open(render=False)
    controller.reset(scene.name)
    graph = NavigationGraph(scene.reachable)
    rooms = {r.room_id: [p for p in scene.reachable if r.contains(*p)] for r in scene.rooms}
    ids = sorted(rooms)
    changes = 0
    for first, second in zip(ids, ids[1:]):
        start, goal = rooms[first][0], rooms[second][-1]
        controller.step({"action": "TeleportFull", "x": start[0], "y": AGENT_Y, "z": start[1], "rotation": 0,
                         "horizon": 30})
        here = start
        for action in graph.path((*start, 0, 30), (*goal, 90, 30)):
            event = controller.step(action.api_action)
            assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
            where = event.metadata["agent"]["position"]
            there = (where["x"], where["z"])
            if scene.room_at(*here) != scene.room_at(*there):
                changes += 1
                middle = ((here[0] + there[0]) / 2, (here[1] + there[1]) / 2)
                assert any(_in_footprint(middle, d.box) or _in_footprint(here, d.box) or _in_footprint(there, d.box)
                           for d in scene.doorways), (here, there)
            here = there
        assert here == pytest.approx(goal)
        assert scene.room_at(*here).room_id == second
    assert changes >= len(ids) - 1


def _in_footprint(point: tuple[float, float], box) -> bool:
    return box.lo[0] - 1e-6 <= point[0] <= box.hi[0] + 1e-6 and box.lo[2] - 1e-6 <= point[1] <= box.hi[2] + 1e-6


def test_task_types_are_allowed_by_any_room_of_a_house() -> None:
    heat = get_task_type("pick_heat_then_place_in_recep")
    look = get_task_type("look_at_obj_in_light")
    with_kitchen = SceneContents(1001, "house", {}, ("bedroom", "kitchen"))
    without = SceneContents(1002, "house", {}, ("bathroom", "bedroom"))
    assert with_kitchen.allows(heat) and not without.allows(heat)
    assert without.allows(look) and not SceneContents(401, "bathroom", {}).allows(look)
    contents = scene_contents(1001, "houses")
    assert contents.room_type == "house"
    assert contents.room_types == tuple(sorted({t for r in get_house(1).rooms for t in r.types}))
    assert scene_name(1005, "houses") == "LiteHouse5"
    assert parse_scenes("3-4,LiteHouse9", "houses") == (1003, 1004, 1009)


def test_the_default_houses_are_those_the_filter_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    import alfred_gen.scenes.library as library

    monkeypatch.setattr(library, "DEFAULT_HOUSES", range(1, 7))
    accepted = accepted_houses()
    assert accepted and set(accepted) < set(range(1, 7))  # LiteHouse6 has no living room
    assert default_scenes("houses") == tuple(1000 + n for n in accepted)


def _cross_room_trajectory(out: Path) -> tuple[dict, Scene]:
    """A vetted trajectory in LiteHouse1 (kitchen, living room, bedroom) that takes an alarm clock to
    a counter top, which only its kitchen has: the first of a few seeds whose spawn leaves the clock
    outside the kitchen."""
    scene = get_house(1)
    task = make_task("pick_and_place_simple", "AlarmClock", "CounterTop")
    for seed in range(8):
        result = generate_trajectory(task, scene.name, seed, out, f"trial_T00000000_000000_{seed:06d}", frames=False)
        if not result.ok:
            continue
        source, destination = task_rooms(result.traj, scene)
        if source is not None and destination is not None and source != destination:
            return result.traj, scene
    raise AssertionError("no vetted cross-room trajectory in eight seeds")


def test_a_vetted_trajectory_carries_an_object_between_rooms(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    traj, scene = _cross_room_trajectory(tmp_path)
    assert traj["scene"]["floor_plan"] == "LiteHouse1" and traj["scene"]["scene_num"] == 1001
    source, destination = task_rooms(traj, scene)
    assert scene.room(destination).room_type == "kitchen" and scene.room(source).room_type != "kitchen"
    stats = collect_stats(tmp_path)
    assert stats.counts["room_type"]["house"] == stats.total >= 1
    assert stats.across_rooms >= 1
    with pytest.raises(SystemExit) as stop:
        main(["verify", str(tmp_path)])
    assert stop.value.code == ExitCode.OK, capsys.readouterr()


def test_task_rooms_of_a_single_room_are_none(tmp_path: Path) -> None:
    task = make_task("pick_and_place_simple", "Apple", "Fridge")
    results = [generate_trajectory(task, 1, seed, tmp_path, f"trial_T00000000_000000_00000{seed}", frames=False)
               for seed in range(3)]
    result = next(r for r in results if r.ok)
    from alfred_gen.scenes import get_scene

    assert task_rooms(result.traj, get_scene(1)) == (None, None)


def test_sample_makes_vetted_house_trajectories(tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = run_sample(SampleOptions(n=2, out=out, scenes=(1001, 1005), scene_set="houses",
                                       demos_per_task=1, frames=False))
    assert summary.made == 2
    files = sorted(out.rglob("traj_data.json"))
    assert len(files) == 2
    for path in files:
        data = json.loads(path.read_text())
        assert data["scene"]["floor_plan"] in ("LiteHouse1", "LiteHouse5")
        task = TaskTuple.from_dir_name(path.parent.parent.name)
        assert task is not None and task.scene == data["scene"]["scene_num"]
    from alfred_gen.replay.verify import verify_directory

    lines: list[str] = []
    assert verify_directory(out, simulator=simulator(), echo=lines.append, show_progress=False) == ExitCode.OK, lines


def test_doorway_views_look_straight_through() -> None:
    """The helper above finds poses lined up with doorways (so the first test checks something)."""
    scene = get_house(5)
    for pose, far, other in _through_doorway_views(scene):
        assert pose.rotation in (0, 90, 180, 270) and 0 < far <= 1.7
        heading = math.radians(pose.rotation)
        ahead = (pose.x + math.sin(heading) * (far + 0.3), pose.z + math.cos(heading) * (far + 0.3))
        assert scene.room_at(*ahead) is not None and scene.room_at(*ahead).room_id == other


def test_carrying_something_across_a_house_rebuilds_no_scene_layers_and_draws_the_same() -> None:
    """Walking with an object in hand moves only the held group, which the scene layers leave out:
    the layers are kept, and the frames equal those of a renderer that builds everything afresh."""
    from alfred_gen.sim.pixels import PixelSight

    scene = get_house(5)
    controller = simulator().open(render=True, depth=True, segmentation=True)
    controller.reset(scene.name)
    graph = NavigationGraph(scene.reachable)
    held = None
    for obj in scene.objects:
        pose = scene.interaction_poses.get(obj.parent or "")
        if pose is None:
            continue
        controller.step({"action": "TeleportFull", "x": pose.x, "y": AGENT_Y, "z": pose.z, "rotation": pose.rotation,
                         "horizon": pose.horizon})
        if controller.step({"action": "PickupObject", "objectId": obj.object_id}).metadata["lastActionSuccess"]:
            held = obj
            break
    assert held is not None
    layers = controller.pixels.layers(controller.world)
    here = (controller.world.agent.x, controller.world.agent.z)
    far = max(scene.reachable, key=lambda p: abs(p[0] - here[0]) + abs(p[1] - here[1]))
    steps = graph.path((*here, controller.world.agent.rotation, 30), (*far, 0, 30))
    moves = 0
    for action in steps[:25]:
        event = controller.step(action.api_action)
        assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
        moves += action.api_action["action"] == "MoveAhead"
        assert controller.pixels.layers(controller.world) is layers
        fresh = PixelSight().images(controller)
        assert np.array_equal(fresh["frame"], event.frame)
        assert np.array_equal(fresh["depth_frame"], event.depth_frame)
        assert np.array_equal(fresh["instance_segmentation_frame"], event.instance_segmentation_frame)
    assert moves >= 5 and event.metadata["inventoryObjects"][0]["objectId"] == held.object_id
