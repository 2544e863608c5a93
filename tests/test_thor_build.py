"""lite as a THOR build (`alfred-gen thor-build`): ai2thor's own Controller starts it and drives it.

Everything here runs the installed ai2thor's real code (its Controller, FIFO or HTTP server and
Event parsing) against the build's end of the protocol, and compares what comes out with lite
called directly. ai2thor 5.x is the project's `thor` extra; the 2.1.0 tests run in an environment
with ai2thor 2.1.0 installed (README: "lite as a THOR build") and skip elsewhere.
"""

from __future__ import annotations

import copy
import filecmp
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.library import SceneLibrary, simulator
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.thor import LITE_BUILD_MARKER, ThorBackendError, ThorController, installed_ai2thor_version
from alfred_gen.sim.thor_adapt import normalise_metadata
from alfred_gen.sim.thor_versions import profile_for_version
from alfred_gen.thorbuild.__main__ import FAULT_ENV
from alfred_gen.thorbuild.write import write_build

INSTALLED = installed_ai2thor_version()
PROFILE = profile_for_version(INSTALLED) if INSTALLED else None
LINE = "5" if PROFILE is not None and PROFILE.name == "5" else "2.1.0"

pytestmark = [
    pytest.mark.skipif(PROFILE is None, reason="ai2thor 2.1.0 or 5.x is not installed"),
    pytest.mark.slow,  # fast lane: 286 s on a loaded 2-core machine (session 73 --durations)
]

#: ALFRED's Initialize (replay/restore.py's INITIALIZE_ACTION) plus the images these tests compare.
INITIALIZE = {"action": "Initialize", "gridSize": 0.25, "cameraY": 0.75, "visibilityDistance": 1.5,
              "makeAgentsVisible": False}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lite build for the installed ai2thor line; its directory."""
    directory = tmp_path_factory.mktemp("thor-lite")
    write_build(LINE, directory)
    return directory


def _thor(build: Path, **options: Any) -> ThorController:
    return ThorController(build_path=build, render_depth=True, render_seg=True, **options)


def _lite() -> LiteController:
    return LiteController(scene_lookup=SceneLibrary(), render_depth_image=True, render_object_image=True)


def _same_images(thor_event: Any, lite_event: Any) -> None:
    """ai2thor's decoded images are lite's frames (depth to 2.1.0's three-byte precision)."""
    assert np.array_equal(thor_event.frame, lite_event.frame)
    assert np.array_equal(thor_event.instance_segmentation_frame, lite_event.instance_segmentation_frame)
    if LINE == "5":
        assert np.array_equal(thor_event.depth_frame, lite_event.depth_frame)
    else:  # 2.1.0's wire: base-256 digits of metres x 25.6, and millimetres capped at 5 m
        assert np.allclose(thor_event.depth_frame, np.minimum(lite_event.depth_frame, 5.0), atol=1e-5)
    lite_colors = {tuple(int(c) for c in color): name for color, name in lite_event.color_to_object_id.items()}
    assert thor_event.color_to_object_id == lite_colors
    assert sorted(thor_event.instance_masks) == sorted(k for k in lite_event.instance_masks if "|" in k)
    for object_id, mask in thor_event.instance_masks.items():
        assert np.array_equal(mask, lite_event.instance_masks[object_id])


def _same_metadata(thor_event: Any, lite_event: Any) -> None:
    """The thor backend's metadata is lite's; a failure's wording may be the adapter's own (a look
    past 60 degrees is refused before it is sent), but both say why."""
    assert PROFILE is not None
    expected = normalise_metadata(lite_event.metadata, PROFILE)
    got = dict(thor_event.metadata)
    if not expected["lastActionSuccess"]:
        assert got["errorMessage"] and expected["errorMessage"]
        got["errorMessage"] = expected["errorMessage"]
    assert got == expected


# --------------------------------------------------------------------------------------------
# The command and ai2thor's own Controller
# --------------------------------------------------------------------------------------------


def test_thor_build_writes_an_executable_ai2thor_can_launch(tmp_path: Path, cli_in_process) -> None:
    result = cli_in_process("thor-build", "--version", "5", "--out", str(tmp_path / "b"))
    assert result.returncode == 0, result.stderr
    executable = tmp_path / "b" / "thor-lite-5"
    assert os.access(executable, os.X_OK)
    assert executable.read_text().startswith("#!/bin/sh")
    marker = json.loads((tmp_path / "b" / LITE_BUILD_MARKER).read_text())
    assert (marker["ai2thor"], marker["executable"]) == ("5", "thor-lite-5")
    assert str(executable) in result.stdout

    (tmp_path / "file").write_text("")
    assert cli_in_process("thor-build", "--out", str(tmp_path / "file")).returncode == ExitCode.USAGE
    blocked = cli_in_process("thor-build", "--out", str(tmp_path / "file" / "b"))  # cannot be made
    assert blocked.returncode == ExitCode.BAD_INPUT
    assert len(blocked.stderr.strip().splitlines()) == 1 and "Traceback" not in blocked.stderr
    assert cli_in_process("thor-build", "--version", "3", "--out", str(tmp_path / "c")).returncode == ExitCode.USAGE


@pytest.mark.skipif(LINE != "5", reason="ai2thor 5.x's Controller signature")
def test_ai2thor_5_controller_launches_the_build_and_decodes_lites_frames(build: Path) -> None:
    from ai2thor.controller import Controller

    controller = Controller(local_executable_path=str(build / "thor-lite-5"), x_display=":0",
                            scene="LiteFixtureKitchen", renderDepthImage=True, renderInstanceSegmentation=True)
    try:
        lite = _lite()
        lite.reset("LiteFixtureKitchen")
        expected = lite.step({"action": "Initialize", "renderDepthImage": True, "renderInstanceSegmentation": True})
        event = controller.last_event
        assert event.metadata["lastActionSuccess"] and event.metadata["sceneName"] == "LiteFixtureKitchen"
        _same_images(event, expected)
        objects = {o["objectId"] for o in event.metadata["objects"]}
        assert objects == {o["objectId"] for o in expected.metadata["objects"]}

        assert {"LitePlan1", "LitePlan430", "LiteFixtureKitchen"} <= controller.scenes_in_build
        with pytest.raises(ValueError, match="Invalid action"):  # THOR's answer to an unknown action
            controller.step(action="FlyAway")
        failed = controller.step(action="PickupObject", objectId="Apple|+09.00|+00.00|+00.00")
        assert not failed.metadata["lastActionSuccess"] and failed.metadata["errorMessage"]
        with pytest.raises(ValueError, match="not contained in build"):
            controller.reset("LitePlan999")
    finally:
        controller.stop()


# --------------------------------------------------------------------------------------------
# The thor backend through the build = lite, step by step
# --------------------------------------------------------------------------------------------


def _alfred_script(meta: dict[str, Any]) -> list[dict[str, Any]]:
    """Scene setup and every interaction ALFRED uses, in ALFRED's dialect, on LiteFixtureKitchen.

    Poses are the fixture's interaction poses; each action's outcome (success or failure) is
    compared, and the test checks that most of them succeed in lite, so it cannot pass vacuously.
    """
    ids = {o["objectType"]: o["objectId"] for o in meta["objects"]}
    y = meta["agent"]["position"]["y"]
    poses = [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]}
             for o in meta["objects"] if o["pickupable"]]

    def at(x: float, z: float, rotation: int, horizon: int) -> dict[str, Any]:
        return {"action": "TeleportFull", "x": x, "y": y, "z": z, "rotation": rotation, "horizon": horizon,
                "rotateOnTeleport": True}

    return [
        dict(INITIALIZE),
        {"action": "SetObjectPoses", "objectPoses": poses},
        {"action": "SetObjectToggles", "objectToggles": [{"objectType": "Faucet", "isOn": False}]},
        {"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty", "forceAction": True},
        {"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled", "forceAction": False},
        at(0.0, 0.25, 180, 30),
        {"action": "LookDown"}, {"action": "LookUp"},
        {"action": "PickupObject", "objectId": ids["Knife"]},
        {"action": "SliceObject", "objectId": ids["Tomato"]},
        {"action": "PutObject", "objectId": ids["Knife"], "receptacleObjectId": ids["DiningTable"],
         "forceAction": True, "placeStationary": True},
        {"action": "PickupObject", "objectId": ids["Potato"]},
        {"action": "RotateLeft"}, {"action": "MoveAhead"}, {"action": "RotateRight"},
        at(1.25, 1.0, 90, 0),
        {"action": "OpenObject", "objectId": ids["Fridge"]},
        {"action": "PutObject", "objectId": ids["Potato"], "receptacleObjectId": ids["Fridge"],
         "forceAction": True, "placeStationary": True},
        {"action": "CloseObject", "objectId": ids["Fridge"]},
        {"action": "OpenObject", "objectId": ids["Fridge"]},
        {"action": "LookDown"}, {"action": "LookDown"},
        {"action": "PickupObject", "objectId": ids["Potato"]},
        {"action": "CloseObject", "objectId": ids["Fridge"]},
        at(-2.0, 1.5, 0, 0),
        {"action": "OpenObject", "objectId": ids["Microwave"]},
        {"action": "PutObject", "objectId": ids["Potato"], "receptacleObjectId": ids["Microwave"],
         "forceAction": True, "placeStationary": True},
        {"action": "CloseObject", "objectId": ids["Microwave"]},
        {"action": "ToggleObjectOn", "objectId": ids["Microwave"]},
        {"action": "ToggleObjectOff", "objectId": ids["Microwave"]},
        {"action": "OpenObject", "objectId": ids["Microwave"]},
        {"action": "PickupObject", "objectId": ids["Potato"]},
        at(-0.5, 1.5, 0, 30),
        {"action": "PutObject", "objectId": ids["Potato"], "receptacleObjectId": ids["SinkBasin"],
         "forceAction": True, "placeStationary": True},
        {"action": "ToggleObjectOn", "objectId": ids["Faucet"]},
        {"action": "ToggleObjectOff", "objectId": ids["Faucet"]},
        {"action": "PickupObject", "objectId": ids["Potato"]},
        {"action": "LookDown"}, {"action": "LookDown"}, {"action": "LookDown"}, {"action": "LookDown"},
        {"action": "GetReachablePositions"},
    ]


def test_every_alfred_action_through_the_build_matches_lite(build: Path) -> None:
    thor = _thor(build)
    try:
        lite = _lite()
        first = lite.reset("LiteFixtureKitchen")
        event = thor.reset("LiteFixtureKitchen")
        script = _alfred_script(first.metadata)
        outcomes = []
        for action in script:
            expected = lite.step(copy.deepcopy(action))
            event = thor.step(copy.deepcopy(action))
            outcomes.append(expected.metadata["lastActionSuccess"])
            assert event.metadata["lastActionSuccess"] == expected.metadata["lastActionSuccess"], (
                action, event.metadata["errorMessage"], expected.metadata["errorMessage"])
            _same_metadata(event, expected)
            _same_images(event, expected)
        assert sum(outcomes) >= len(script) - 4, list(zip([a["action"] for a in script], outcomes))
        held = {o["objectType"] for o in event.metadata["objects"] if o["isPickedUp"]}
        assert held == {"Potato"}
        potato = next(o for o in event.metadata["objects"] if o["objectType"] == "Potato")
        assert potato["isCooked"]  # heated in the microwave, through THOR's wire
    finally:
        thor.stop()


def test_the_build_loads_procedural_rooms_and_answers_lites_room(build: Path) -> None:
    thor = _thor(build)
    try:
        lite = _lite()
        expected = lite.reset("LitePlan201")
        lite.step(dict(INITIALIZE))
        event = thor.reset("LitePlan201")
        assert event.metadata["sceneName"] == "LitePlan201"
        after = thor.step(dict(INITIALIZE))
        _same_images(after, lite.last_event)
        _same_metadata(after, lite.last_event)
        assert expected.metadata["sceneName"] == "LitePlan201"
        with pytest.raises(UserError) as caught:
            thor.reset("LitePlan999")
        assert caught.value.code == ExitCode.NOT_FOUND
    finally:
        thor.stop()


# --------------------------------------------------------------------------------------------
# The pipeline: sample, verify, replay through the build = lite
# --------------------------------------------------------------------------------------------


def _trees_equal_but_the_backend(lite_root: Path, thor_root: Path) -> int:
    """Every file of the two trees equal, traj_data.json apart from its backend fields; how many trajectories."""
    def files(root: Path) -> list[Path]:
        return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file() and ".alfred-gen" not in p.parts)

    lite_files, thor_files = files(lite_root), files(thor_root)
    assert lite_files == thor_files
    count = 0
    for relative in lite_files:
        if relative.name != "traj_data.json":
            assert filecmp.cmp(lite_root / relative, thor_root / relative, shallow=False), relative
            continue
        count += 1
        lite_traj = json.loads((lite_root / relative).read_text())
        thor_traj = json.loads((thor_root / relative).read_text())
        assert (lite_traj["generator"]["backend"], thor_traj["generator"]["backend"]) == ("lite", "thor")
        for traj in (lite_traj, thor_traj):
            traj["generator"].pop("backend")
            traj["generator"].pop("backend_version")
        assert lite_traj == thor_traj
    return count


def test_sample_verify_and_derive_through_the_build_make_lites_trees(build: Path, tmp_path: Path,
                                                                    cli_in_process) -> None:
    common = ["sample", "--n", "2", "--demos-per-task", "1", "--scenes", "1", "--seed", "3"]
    lite = cli_in_process(*common, "--out", str(tmp_path / "lite"))
    assert lite.returncode == 0, lite.stderr
    thor = cli_in_process(*common, "--out", str(tmp_path / "thor"), "--backend", "thor", "--thor-build", str(build))
    assert thor.returncode == 0, thor.stderr
    assert _trees_equal_but_the_backend(tmp_path / "lite", tmp_path / "thor") == 2
    verified = cli_in_process("verify", str(tmp_path / "thor"), "--backend", "thor", "--thor-build", str(build))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    for backend in ("lite", "thor"):
        thor_build = ["--thor-build", str(build)] if backend == "thor" else []
        derived = cli_in_process("derive", "nav-only", str(tmp_path / "lite"), "--out",
                                 str(tmp_path / f"nav-{backend}"), "--backend", backend, *thor_build)
        assert derived.returncode == 0, derived.stdout + derived.stderr
    assert _trees_equal_but_the_backend(tmp_path / "nav-lite", tmp_path / "nav-thor") == 2


@pytest.mark.slow
def test_agents_in_the_environment_score_the_same_through_the_build(build: Path, tmp_path: Path,
                                                                    cli_in_process) -> None:
    """The env of `eval alfred` on ai2thor's Controller driving the build: the expert (masks, and
    high-level actions) and the random agent (whose failed actions exercise THOR's error answers)
    write the same results files as on lite."""
    sampled = cli_in_process("sample", "--n", "2", "--demos-per-task", "1", "--scenes", "1", "--seed", "3",
                             "--out", str(tmp_path / "data"))
    assert sampled.returncode == 0, sampled.stderr
    runs = [("expert", "mask"), ("expert", "high_level"), ("random", "mask")]
    for agent, mode in runs:
        results = {}
        for backend in ("lite", "thor"):
            thor_build = ["--backend", "thor", "--thor-build", str(build)] if backend == "thor" else []
            out = tmp_path / f"{agent}-{mode}-{backend}.json"
            scored = cli_in_process("eval", "alfred", str(tmp_path / "data"), "--agent", agent, "--mode", mode,
                                    "--out", str(out), *thor_build)
            assert scored.returncode == 0, scored.stdout + scored.stderr
            results[backend] = out.read_bytes()
        assert results["lite"] == results["thor"], (agent, mode)
        assert b'"episodes"' in results["lite"]


def test_a_released_demo_in_an_imported_room_replays_through_the_build_as_in_lite(
        build: Path, alfred_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.replay.rerender import replay_command
    from alfred_gen.replay.vet import vet_trajectory
    from alfred_gen.scenes.alfred import catalogue_store
    from alfred_gen.scenes.alfred.importer import import_alfred
    from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory

    catalogue = tmp_path / "alfred.json"
    import_alfred(alfred_data, out=catalogue)
    monkeypatch.setenv(catalogue_store.ENV_VAR, str(catalogue))  # the build, a child, reads it too
    files = sorted((alfred_data / "json_2.1.0").rglob(TRAJ_FILE_NAME))
    lite_sim = simulator()
    thor_sim = simulator("thor", {"thor_build": str(build)})
    source = next(p for p in files if vet_trajectory(load_trajectory(p), controller_factory=lite_sim.open).ok)
    assert vet_trajectory(load_trajectory(source), controller_factory=thor_sim.open).ok
    outs = {}
    for name, sim in (("lite", lite_sim), ("thor", thor_sim)):
        outs[name] = tmp_path / name
        code = replay_command(str(source), str(outs[name]), simulator=sim, depth=True, seg=True, echo=lambda line: None)
        assert code == 0
    frames = sorted(p.relative_to(outs["lite"]) for p in outs["lite"].rglob("*.*") if p.suffix in (".jpg", ".png"))
    assert frames
    for relative in frames:
        if LINE == "2.1.0" and relative.parts[0] == "depth_images":  # 2.1.0's wire rounds depth (and caps it at 5 m)
            from PIL import Image

            lite_mm = np.asarray(Image.open(outs["lite"] / relative), dtype=np.int64)
            thor_mm = np.asarray(Image.open(outs["thor"] / relative), dtype=np.int64)
            assert np.abs(np.minimum(lite_mm, 5000) - thor_mm).max() <= 1, relative
            continue
        assert filecmp.cmp(outs["lite"] / relative, outs["thor"] / relative, shallow=False), relative


# --------------------------------------------------------------------------------------------
# Broken builds: one line and the documented exit code
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fault", "code", "words"), [
    ("exit", ExitCode.BACKEND_UNAVAILABLE, "did not answer"),  # dies before it speaks
    ("silent", ExitCode.BACKEND_UNAVAILABLE, "did not answer"),  # never speaks
    ("crash:7", ExitCode.BACKEND_UNAVAILABLE, "during RotateLeft"),  # dies mid-run
    ("hang:7", ExitCode.TIMEOUT, "did not answer RotateLeft"),  # stops answering mid-run
])
def test_a_broken_build_gives_one_line_and_its_exit_code(build: Path, monkeypatch: pytest.MonkeyPatch,
                                                         fault: str, code: ExitCode, words: str) -> None:
    monkeypatch.setenv(FAULT_ENV, fault)
    with pytest.raises(UserError) as caught:
        thor = _thor(build, startup_timeout=15.0, step_timeout=3.0)
        try:
            thor.reset("LiteFixtureKitchen")
            for _ in range(6):
                thor.step({"action": "RotateLeft"})
        finally:
            thor.stop()
    assert caught.value.code == code
    assert words in str(caught.value) and "\n" not in str(caught.value)
    if fault.startswith("crash"):
        assert "exited" in str(caught.value)
    if code == ExitCode.BACKEND_UNAVAILABLE:
        assert isinstance(caught.value, ThorBackendError)


def test_the_command_line_reports_a_build_that_stops_answering(build: Path, tmp_path: Path, cli_in_process,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FAULT_ENV, "hang:5")
    result = cli_in_process("sample", "--n", "1", "--demos-per-task", "1", "--scenes", "1", "--out",
                            str(tmp_path / "out"), "--backend", "thor", "--thor-build", str(build),
                            "--thor-timeout", "20")  # the start (about 5 s) must fit in it too
    assert result.returncode == ExitCode.TIMEOUT, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_lite_answers_ai2thor_5s_set_object_states_per_type() -> None:
    """5.x restores ALFRED's toggles and dirt with SetObjectStates, one object type at a time."""
    lite = _lite()
    lite.reset("LiteFixtureKitchen")
    event = lite.step({"action": "SetObjectStates",
                       "SetObjectStates": {"objectType": "Mug", "stateChange": "dirtyable", "isDirty": True}})
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    dirty = {o["objectType"] for o in event.metadata["objects"] if o["isDirty"]}
    assert dirty == {"Mug"}
    for bad in ({"objectType": "Mug", "stateChange": "breakable", "isBroken": True},
                {"objectType": "Mug", "stateChange": "dirtyable"},
                {"stateChange": "dirtyable", "isDirty": True}):
        failed = lite.step({"action": "SetObjectStates", "SetObjectStates": bad})
        assert not failed.metadata["lastActionSuccess"] and failed.metadata["errorMessage"]


def test_the_build_answers_like_thor_before_a_scene_and_for_bad_actions() -> None:
    from alfred_gen.thorbuild.session import BuildSession

    session = BuildSession("5")
    assert session.hello().metadata["lastActionSuccess"]
    names = session.handle({"action": "GetScenesInBuild", "sequenceId": 1}).metadata["actionReturn"]
    assert "LitePlan1" in names and "LiteFixtureKitchen" in names
    early = session.handle({"action": "MoveAhead"}).metadata
    assert not early["lastActionSuccess"] and "Reset" in early["errorMessage"]
    assert not session.handle({"action": "Reset", "sceneName": "LitePlan999"}).metadata["lastActionSuccess"]
    loaded = session.handle({"action": "Reset", "sceneName": "LiteFixtureKitchen"})
    assert loaded.metadata["sceneName"] == "LiteFixtureKitchen" and loaded.frame is not None
    unknown = session.handle({"action": "FlyAway"}).metadata
    assert (unknown["lastActionSuccess"], unknown["errorCode"]) == (False, "InvalidAction")
    extra = session.handle({"action": "MoveAhead", "wings": 2}).metadata
    assert (extra["lastActionSuccess"], extra["errorCode"]) == (False, "InvalidArgument")
    resized = session.handle({"action": "ChangeResolution", "x": 200, "y": 150})
    assert (resized.metadata["screenWidth"], resized.metadata["screenHeight"]) == (200, 150)
    assert resized.frame is not None and resized.frame.shape == (150, 200, 3)
