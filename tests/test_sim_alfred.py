"""lite against the released ALFRED demonstrations (needs ALFRED_DATA).

Each released trajectory is replayed from scratch on a Scene built from its real layout
(receptacle ids and interaction poses from the layout files, objects from its ``object_poses``,
boxes sized from the catalogue): restore with SetObjectToggles / SetStateOfAllObjects /
SetObjectPoses as ALFRED does, TeleportFull to the start, then every recorded ``api_action``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from alfred_gen.scenes.alfred.importer import alfred_layout_scene
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import format_object_id
from alfred_gen.sim.visibility import GeometricVisibility


def _visited(traj: dict) -> list[tuple[float, float]]:
    """Grid points the demo walks through, by dead reckoning (ALFRED's layout files miss some)."""
    init = traj["scene"]["init_action"]
    x, z, rotation = init["x"], init["z"], init["rotation"]
    points = [(x, z)]
    for low in traj["plan"]["low_actions"]:
        name = low["api_action"]["action"]
        if name == "RotateRight":
            rotation = (rotation + 90) % 360
        elif name == "RotateLeft":
            rotation = (rotation - 90) % 360
        elif name == "MoveAhead":
            x += 0.25 * round(math.sin(math.radians(rotation)))
            z += 0.25 * round(math.cos(math.radians(rotation)))
            points.append((x, z))
    return points


def _restore(root: Path, traj: dict, **options) -> LiteController:
    scene_info = traj["scene"]
    ids = [low["api_action"][k] for low in traj["plan"]["low_actions"]
           for k in ("objectId", "receptacleObjectId") if k in low["api_action"]]
    scene = alfred_layout_scene(root, scene_info["scene_num"], scene_info["object_poses"], ids,
                                         agent_y=scene_info["init_action"]["y"], extra_reachable=_visited(traj))
    sim = LiteController(scene, **options)
    # ALFRED's Initialize, frames off: image flags never change what succeeds (test_sim_render.py).
    setup = [{"action": "Initialize", "gridSize": 0.25, "cameraY": 0.75, "renderImage": False,
              "renderDepthImage": False, "renderClassImage": False, "renderObjectImage": False,
              "visibility_distance": 1.5, "makeAgentsVisible": False}]
    if scene_info["object_toggles"]:
        setup.append({"action": "SetObjectToggles", "objectToggles": scene_info["object_toggles"]})
    if scene_info["dirty_and_empty"]:
        setup.append({"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty", "forceAction": True})
        setup.append({"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled", "forceAction": False})
    setup.append({"action": "SetObjectPoses", "objectPoses": scene_info["object_poses"]})
    setup.append(scene_info["init_action"])
    for action in setup:
        event = sim.step(action)
        assert event.metadata["lastActionSuccess"], (action["action"], event.metadata["errorMessage"])
    return sim


@pytest.fixture(scope="module")
def trajectories(released_trajectory_files: list[Path]) -> list[tuple[str, dict]]:
    return [(p.parent.parent.name, json.loads(p.read_text())) for p in released_trajectory_files]


@pytest.mark.slow  # one of the slowest (--durations, issue 61)
def test_navigation_reaches_the_planners_locations(alfred_data: Path, trajectories: list) -> None:
    """After each GotoLocation, the agent's pose is the planner's ``loc|x|z|rotation|horizon``."""
    checked, wrong, blocked = 0, [], []
    for name, traj in trajectories:
        sim = _restore(alfred_data, traj)
        last_pose: dict[int, tuple] = {}
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            if api["action"] in ("MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown"):
                event = sim.step(api)
                if not event.metadata["lastActionSuccess"]:
                    # Objects skipped here (not picked up) may lie in the way on the floor.
                    assert "blocked" in event.metadata["errorMessage"], (name, api, event.metadata["errorMessage"])
                    blocked.append(name)
                    break
                agent = event.metadata["agent"]
                last_pose[low["high_idx"]] = (
                    round(agent["position"]["x"] / 0.25), round(agent["position"]["z"] / 0.25),
                    int(agent["rotation"]["y"]) // 90, int(agent["cameraHorizon"]),
                )
        for high in traj["plan"]["high_pddl"]:
            action = high["planner_action"]
            if action["action"] == "GotoLocation" and high["high_idx"] in last_pose:
                _, x, z, rotation, horizon = action["location"].split("|")
                if last_pose[high["high_idx"]] != (int(x), int(z), int(rotation) % 4, int(horizon)):
                    wrong.append((name, high["high_idx"]))
                checked += 1
    assert checked > len(trajectories)
    # One released demo (pick_and_place_simple-Candle-None-Toilet-418) stops short of its planner
    # location by dead reckoning too: a quirk of the data, not of the simulator.
    assert len(wrong) <= 0.01 * checked, wrong
    assert len(blocked) <= 0.02 * len(trajectories), blocked


@pytest.mark.slow  # ~14 s each on a busy 2-core machine (the fast lane's --durations)
def test_restored_ids_are_the_ids_the_demos_use(alfred_data: Path, trajectories: list) -> None:
    """SetObjectPoses names objects by their pose, as THOR did: demo ids resolve after a restore."""
    found = missing = 0
    for _name, traj in trajectories:
        sim = _restore(alfred_data, traj)
        present = {o["objectId"] for o in sim.last_event.metadata["objects"]}
        for pose in traj["scene"]["object_poses"]:
            p = pose["position"]
            assert format_object_id(pose["objectName"].split("_")[0], (p["x"], p["y"], p["z"]), True) in present
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            if api["action"] == "PickupObject" and api["objectId"].count("|") == 3:
                if api["objectId"] in present:
                    found += 1
                else:
                    missing += 1
    # The few misses are objects THOR's physics nudged after naming them (and exact zeros, see
    # format_object_id); they are documented, not silently accepted: keep them under 3%.
    assert missing <= 0.03 * (found + missing), (found, missing)


@pytest.mark.slow  # one of the slowest (--durations, issue 61)
def test_released_demos_replay_in_lite(alfred_data: Path, trajectories: list) -> None:
    """Every recorded action of most demos succeeds in lite, state changes included.

    Twice: with lite's pixel visibility (its behaviour), and with the geometric stand-in, which
    separates the action semantics from the imported geometry: these rooms are ALFRED layouts
    with approximated boxes, and objects sunk into or hidden under an approximated box fail the
    pixel test where THOR saw them (pixels: 214 of 238 demos complete, geometric: 230, when
    pixel visibility came in).
    """
    models = {"pixels": ({}, 0.85), "geometric": ({"visibility": GeometricVisibility()}, 0.9)}
    for model, (options, share) in models.items():
        complete, failures = 0, []
        interactions = 0
        for name, traj in trajectories:
            sim = _restore(alfred_data, traj, **options)
            ok = True
            for low in traj["plan"]["low_actions"]:
                event = sim.step(low["api_action"])
                if not event.metadata["lastActionSuccess"]:
                    failures.append((name, low["api_action"]["action"], event.metadata["errorMessage"]))
                    ok = False
                    break
                interactions += "objectId" in low["api_action"]
            if ok:
                complete += 1
                meta = sim.last_event.metadata
                task = traj["task_type"]
                world = sim.world
                if task == "pick_heat_then_place_in_recep":
                    assert world.heated, name
                if task == "pick_cool_then_place_in_recep":
                    assert world.cooled, name
                if task == "pick_clean_then_place_in_recep":
                    assert world.cleaned, name
                if task == "look_at_obj_in_light":
                    assert any(o["objectType"] in ("DeskLamp", "FloorLamp") and o["isToggled"] for o in meta["objects"])
        assert interactions > 1000, model
        assert complete >= share * len(trajectories), (model, complete, failures)
