"""The thor backend's controller against a recording fake: released ALFRED trajectories restore and
replay with exactly ALFRED's actions (2.1.0) or their adapted dicts (5.x)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ai2thor")


from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.thor import (
    ThorBackendError,
    ThorController,
)
from tests.helpers.thor_events import (
    APPLE,
    DIRTYABLE,
    FILLABLE,
    alfred_restore_actions,
    recording_factory,
    replay,
    scene_objects,
    thor5_object,
)


@pytest.mark.slow  # fast lane: 34 s on a loaded 2-core machine (session 73 --durations)
def test_2_1_replay_sends_exactly_alfreds_api_actions(released_trajectory_files: list[Path]) -> None:
    """Every released trajectory: the fake receives the api_action dicts verbatim, except that each
    15-degree look is ALFRED's in-place TeleportFull at the new horizon."""
    looks = 0
    for path in released_trajectory_files:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        controller, fake = replay("2.1.0", traj)
        assert fake.calls[0] == ("reset", scene["floor_plan"])
        # ALFRED's ThorEnv.reset Initialize, in 2.1.0 names.
        assert fake.calls[1] == {
            "action": "Initialize",
            "gridSize": 0.25,
            "cameraY": 0.75,
            "renderImage": True,
            "renderClassImage": False,
            "visibilityDistance": 1.5,
            "makeAgentsVisible": False,
            "renderDepthImage": False,
            "renderObjectImage": True,
        }
        assert fake.calls[2:] == alfred_restore_actions(scene), path
        horizon = float(scene["init_action"]["horizon"])
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            before = dict(fake.pose)
            event = controller.step(api)
            sent = fake.calls[-1]
            if api["action"] in ("LookUp", "LookDown"):
                looks += 1
                horizon += 15.0 if api["action"] == "LookDown" else -15.0
                assert sent == {
                    "action": "TeleportFull",
                    "x": before["x"],
                    "y": before["y"],
                    "z": before["z"],
                    "rotation": round(before["rotation"], 4),
                    "horizon": horizon,
                }, path
            else:
                assert sent == api, path
            assert event.metadata["lastAction"] == api["action"]
            assert event.metadata["agent"]["cameraHorizon"] == horizon
    assert looks > 100  # the sample really exercises looks


def expected_5x(api: dict[str, Any]) -> dict[str, Any]:
    """What ai2thor 5.x must receive for one of ALFRED's released api_actions."""
    name = api["action"]
    if name in ("LookUp", "LookDown"):
        return {"action": name, "degrees": 15.0}
    if name == "PutObject":
        return {
            "action": "PutObject",
            "objectId": api["receptacleObjectId"],
            "forceAction": api["forceAction"],
            "placeStationary": api["placeStationary"],
        }
    if name in ("ToggleObjectOn", "ToggleObjectOff"):
        return {"action": name, "objectId": api["objectId"]}
    return api


@pytest.mark.slow  # fast lane: 37 s on a loaded 2-core machine (session 73 --durations)
def test_5x_replay_sends_the_adapted_dicts(released_trajectory_files: list[Path]) -> None:
    seen: set[str] = set()
    for path in released_trajectory_files:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        controller, fake = replay("5.0.0", traj)
        init = scene["init_action"]
        setup = [
            {
                "action": "Initialize",
                "gridSize": 0.25,
                "renderDepthImage": True,
                "renderSemanticSegmentation": True,
                "renderInstanceSegmentation": True,
                "visibilityDistance": 1.5,
            },
            *[
                {
                    "action": "SetObjectStates",
                    "SetObjectStates": {
                        "objectType": t["objectType"],
                        "stateChange": "toggleable",
                        "isToggled": t["isOn"],
                    },
                }
                for t in scene["object_toggles"]
            ],
        ]
        if scene["dirty_and_empty"]:
            types = [o["objectType"] for o in scene_objects(scene)]
            for flag_types, change, state, value in (
                (DIRTYABLE, "dirtyable", "isDirty", True),
                (FILLABLE, "canFillWithLiquid", "isFilledWithLiquid", False),
            ):
                setup += [
                    {
                        "action": "SetObjectStates",
                        "SetObjectStates": {"objectType": t, "stateChange": change, state: value},
                    }
                    for t in types
                    if t in flag_types
                ] or [{"action": "Pass"}]
        setup += [
            {"action": "SetObjectPoses", "objectPoses": scene["object_poses"]},
            {
                "action": "TeleportFull",
                "position": {"x": init["x"], "y": init["y"], "z": init["z"]},
                "rotation": {"x": 0.0, "y": float(init["rotation"]), "z": 0.0},
                "horizon": init["horizon"],
                "standing": True,
            },
        ]
        # 5.x: Initialize parameters go to the Controller; reset() alone re-sends them.
        assert fake.calls == [("reset", scene["floor_plan"]), *setup], path
        assert fake.launch.init_params["renderInstanceSegmentation"] is True
        assert "cameraY" not in fake.launch.init_params
        assert fake.launch.init_params["fieldOfView"] == 60  # ALFRED's 2.1.0 frames
        horizon = float(init["horizon"])
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            event = controller.step(api)
            assert fake.calls[-1] == expected_5x(api), path
            seen.add(api["action"])
            if api["action"] in ("LookUp", "LookDown"):
                horizon += 15.0 if api["action"] == "LookDown" else -15.0
            assert event.metadata["agent"]["cameraHorizon"] == horizon
    assert {"PutObject", "LookDown", "ToggleObjectOn", "MoveAhead"} <= seen


def test_unknown_actions_fail_without_changing_state() -> None:
    factory, made = recording_factory(objects=[thor5_object(APPLE)], reject=("Fly",))
    controller = ThorController(version="5.0.0", controller_factory=factory)
    before = controller.reset("FloorPlan3")
    failed = controller.step("Fly", speed=3)
    assert failed.metadata["lastActionSuccess"] is False
    assert failed.metadata["errorMessage"] == "Invalid action: Fly"
    assert failed.metadata["lastAction"] == "Fly"
    assert failed.metadata["agent"] == before.metadata["agent"]
    assert failed.metadata["objects"] == before.metadata["objects"]
    assert made[0].calls[-1] == {"action": "Fly", "speed": 3}


def test_a_crashing_build_is_one_line_backend_error() -> None:
    factory, made = recording_factory()

    def crash(action: dict[str, Any]) -> None:
        raise RuntimeError("Unity process has exited - check Player.log\nsecond line")

    controller = ThorController(version="5.0.0", controller_factory=factory)
    controller.reset("FloorPlan3")
    made[0].step = crash
    with pytest.raises(ThorBackendError) as caught:
        controller.step({"action": "MoveAhead"})
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE
    assert "\n" not in str(caught.value) and "Unity process has exited" in str(caught.value)


def test_reset_only_loads_thor_floor_plans_and_backend_info_names_the_backend() -> None:
    factory, made = recording_factory()
    controller = ThorController(
        version="2.1.0", controller_factory=factory, build_path="/opt/thor/thor-201909061227-Linux64"
    )
    with pytest.raises(UserError) as caught:
        controller.reset("kitchen_07")  # a lite procedural scene name
    assert caught.value.code == ExitCode.NOT_FOUND
    assert controller.backend_info() == {
        "backend": "thor",
        "ai2thor_version": "2.1.0",
        "build": "/opt/thor/thor-201909061227-Linux64",
        "platform": "Linux64",
        "adapter": "2.1",
    }
    controller.stop()
    assert made[0].stopped


def test_step_accepts_thor_calling_conventions() -> None:
    factory, made = recording_factory()
    controller = ThorController(version="5.0.0", controller_factory=factory)
    controller.reset("FloorPlan3")
    controller.step(action="MoveAhead", moveMagnitude=0.25)
    controller.step("RotateLeft")
    controller.step({"action": "Pass"})
    assert made[0].calls[-3:] == [
        {"action": "MoveAhead", "moveMagnitude": 0.25},
        {"action": "RotateLeft"},
        {"action": "Pass"},
    ]



def test_the_replay_module_drives_the_thor_backend_with_alfreds_actions(
    released_trajectory_files: list[Path],
) -> None:
    """`alfred-gen replay`'s own code path (restore_scene + execute_low_actions) through the thor
    backend in 2.1.0 mode: the fake receives ALFRED's restore steps and every api_action verbatim
    (looks as ALFRED's in-place teleports), and every step succeeds."""
    from alfred_gen.replay.execute import execute_low_actions
    from alfred_gen.replay.restore import restore_scene

    for path in released_trajectory_files[::20]:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        factory, made = recording_factory(objects=scene_objects(scene))
        controller = ThorController(version="2.1.0", controller_factory=factory, render_seg=True)
        start = restore_scene(controller, scene)
        fake = made[0]
        assert fake.calls[0] == ("reset", scene["floor_plan"])
        assert fake.calls[-2:] == [
            {"action": "SetObjectPoses", "objectPoses": scene["object_poses"]},
            scene["init_action"],
        ], path
        restored = len(fake.calls)
        execution = execute_low_actions(controller, traj["plan"]["low_actions"], start)
        assert not execution.failures, path
        sent = fake.calls[restored:]
        assert len(sent) == len(traj["plan"]["low_actions"])
        for low, received in zip(traj["plan"]["low_actions"], sent):
            api = low["api_action"]
            if api["action"] in ("LookUp", "LookDown"):
                assert received["action"] == "TeleportFull", path
            else:
                assert received == api, path
