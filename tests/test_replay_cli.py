"""`alfred-gen replay` (frames written from a replay) and `alfred-gen verify` (a directory vetted)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.replay import images
from alfred_gen.replay.goals import GoalStatus
from alfred_gen.replay.rerender import frame_schedule, frames_by_low_idx, replay_to_directory
from alfred_gen.replay.verify import find_trajectories, summary_line, verify_directory
from alfred_gen.replay.vet import VetResult
from alfred_gen.scenes.library import find_scene, simulator
from alfred_gen.sim.controller import Simulator
from alfred_gen.sim.lite import LiteController
from alfred_gen.traj.format import save_trajectory
from tests.helpers import replay_scripts as scripts

ALFRED_GEN = [sys.executable, "-c", "from alfred_gen.cli import main; main()"]


@pytest.fixture(scope="module")
def heat_traj() -> dict:
    return scripts.heat_mug_trajectory()


def _save(root: Path, name: str, traj: dict) -> Path:
    folder = root / name / "trial_T20000101_000000_000000"
    folder.mkdir(parents=True)
    save_trajectory(traj, folder / "traj_data.json")
    return folder / "traj_data.json"


# --- replay -------------------------------------------------------------------------------------
def test_frame_schedule_first_entry_is_before_the_action_others_after():
    traj = {"images": [{"low_idx": 0, "high_idx": 0, "image_name": "000000000.png"},
                       {"low_idx": 1, "high_idx": 0, "image_name": "000000001.png"},
                       {"low_idx": 1, "high_idx": 0, "image_name": "000000002.png"},
                       {"low_idx": 3, "high_idx": 1, "image_name": "000000003.png"},
                       {"low_idx": 3, "high_idx": 1, "image_name": "000000004.png"}],
            "plan": {"low_actions": [{}] * 4}}
    # The frame after the last action is the next number, unlisted (ALFRED's and E.T.'s rule).
    assert frames_by_low_idx(traj) == {0: ["000000000"], 1: ["000000001", "000000002"],
                                       3: ["000000003", "000000004", "000000005"]}
    at_start, after = frame_schedule(traj)
    assert at_start == ["000000000"]
    assert after == {0: ["000000001"], 1: ["000000002"], 2: ["000000003"], 3: ["000000004", "000000005"]}


@pytest.mark.slow  # fast lane: 11 s on a loaded 2-core machine (session 73 --durations)
def test_replay_writes_the_named_frames_byte_identically(tmp_path, heat_traj):
    first, second = tmp_path / "first", tmp_path / "second"
    for out in (first, second):
        outcome = replay_to_directory(heat_traj, out, scripts.rendering_controller(), depth=True, seg=True)
        assert outcome.ok and outcome.frames == len(heat_traj["images"]) + 1  # and the unlisted final frame
        assert outcome.written == ["depth_images", "instance_masks", "raw_images"]
    names = sorted(p.name for p in (first / "raw_images").iterdir())
    assert names == [f"{i:09d}.jpg" for i in range(len(heat_traj["plan"]["low_actions"]) + 1)]
    for folder in ("raw_images", "depth_images", "instance_masks"):
        a = sorted((first / folder).iterdir())
        b = sorted((second / folder).iterdir())
        assert [p.name for p in a] == [p.name for p in b]
        assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))
    assert not [p for p in first.iterdir() if p.name.startswith(".")]  # no staging left behind
    # Frames differ along the way (the agent moves), so byte equality above means something.
    rgb = sorted((first / "raw_images").iterdir())
    assert rgb[0].read_bytes() != rgb[2].read_bytes()


def test_replay_image_i_shows_the_state_before_low_action_i(tmp_path, heat_traj):
    from alfred_gen.replay.restore import restore_scene

    replay_to_directory(heat_traj, tmp_path, scripts.rendering_controller())
    sim = scripts.rendering_controller()
    events = [restore_scene(sim, heat_traj["scene"])]
    for low in heat_traj["plan"]["low_actions"]:
        events.append(sim.step(low["api_action"]))
    files = sorted((tmp_path / "raw_images").iterdir())
    assert len(files) == len(events)  # start, then after each action (the last one is the stop frame)
    for file, event in zip(files, events):
        assert file.read_bytes() == images.encode_rgb(event.frame)


def test_replay_depth_and_mask_formats(tmp_path, heat_traj):
    from alfred_gen.replay.restore import restore_scene

    replay_to_directory(heat_traj, tmp_path, scripts.rendering_controller(), depth=True, seg=True)
    start = restore_scene(scripts.rendering_controller(), heat_traj["scene"])
    with Image.open(tmp_path / "depth_images" / "000000000.png") as depth:
        assert depth.mode in ("I;16", "I") and depth.size == (300, 300)
        millimetres = np.asarray(depth)
    assert np.array_equal(millimetres, images.depth_millimetres(start.depth_frame))
    assert millimetres.min() > 0 and millimetres.max() <= 20000
    with Image.open(tmp_path / "instance_masks" / "000000000.png") as mask:
        assert mask.mode == "RGB"
        assert np.array_equal(np.asarray(mask), start.instance_segmentation_frame)
    colors = json.loads((tmp_path / "instance_masks" / images.COLOR_MAP_FILE).read_text())
    assert colors == {images.color_key(c): oid for c, oid in start.color_to_object_id.items()}
    assert scripts.MUG in colors.values()


def test_depth_png_round_trips_millimetres():
    depth = np.array([[0.0, 0.0004, 1.2344], [9.99, 70.0, np.nan]], dtype=np.float32)
    assert images.decode_depth(images.encode_depth(depth)).tolist() == [[0, 0, 1234], [9990, 65535, 0]]


def test_failed_replay_reports_every_failing_step_and_writes_nothing(tmp_path, heat_traj):
    broken = scripts.without_action(heat_traj, scripts.OPEN_MICROWAVE_IDX)
    old = tmp_path / "raw_images" / "000000000.jpg"
    old.parent.mkdir()
    old.write_bytes(b"the frame recorded at generation")
    outcome = replay_to_directory(broken, tmp_path, scripts.rendering_controller())
    assert not outcome.ok
    # Put into the closed microwave, close it again, pick up the mug still in hand.
    assert [(f.low_idx, f.action) for f in outcome.failures] == [
        (13, "PutObject"), (14, "CloseObject"), (18, "PickupObject")]
    assert outcome.failures[0].describe().startswith(f"low_idx 13 PutObject {scripts.MUG}: ")
    assert old.read_bytes() == b"the frame recorded at generation"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw_images"]


def test_replay_without_frames_is_backend_unavailable(tmp_path, heat_traj):
    no_frames = LiteController(scene_lookup=find_scene, render_image=False)
    with pytest.raises(UserError) as caught:
        replay_to_directory(heat_traj, tmp_path, no_frames)
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE
    assert not list(tmp_path.iterdir())


@pytest.mark.slow  # fast lane: 9 s on a loaded 2-core machine (session 73 --durations)
def test_replay_command_bad_file_exits_bad_input(tmp_path):
    bad = tmp_path / "traj_data.json"
    bad.write_text('{"task_id": "trial_T1", "task_ty')
    run = subprocess.run([*ALFRED_GEN, "replay", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == ExitCode.BAD_INPUT
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


# --- verify -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mixed_dir(tmp_path_factory, heat_traj) -> Path:
    root = tmp_path_factory.mktemp("verify")
    _save(root, "a_ok", heat_traj)
    deleted = scripts.without_action(heat_traj, scripts.OPEN_MICROWAVE_IDX)
    _save(root, "b_deleted_action", deleted)
    wrong = copy.deepcopy(heat_traj)
    wrong["plan"]["low_actions"][0]["api_action"]["objectId"] = "Mug|+09.99|+00.95|+02.10"
    _save(root, "c_wrong_object", wrong)
    truncated = _save(root, "d_truncated", heat_traj)
    data = truncated.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    _save(root, "e_ok", heat_traj)
    return root


@pytest.mark.slow  # fast lane: 29 s on a loaded 2-core machine (session 73 --durations)
def test_verify_cli_reports_each_failure_with_its_reason(mixed_dir):
    run = subprocess.run([*ALFRED_GEN, "verify", str(mixed_dir)], capture_output=True, text=True, timeout=300)
    assert run.returncode == ExitCode.FAILED, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 4
    assert "b_deleted_action" in lines[0] and ": action_failed: low_idx 13 PutObject " in lines[0]
    assert "c_wrong_object" in lines[1] and ": unknown_object: low_idx 0 PickupObject " in lines[1]
    assert "d_truncated" in lines[2] and ": bad_file: not valid JSON" in lines[2]
    assert lines[3].startswith("2 ok, 3 failed: bad_file 1, unknown_object 1, action_failed 1 (in ")


@pytest.mark.slow  # fast lane: 12 s on a loaded 2-core machine (session 73 --durations)
def test_verify_in_parallel_prints_the_same(mixed_dir):
    outputs = []
    for jobs in (1, 2):
        lines: list[str] = []
        code = verify_directory(mixed_dir, simulator=simulator(), jobs=jobs, echo=lines.append, show_progress=False)
        assert code == ExitCode.FAILED
        outputs.append([line.split(" (in ")[0] for line in lines])
    assert outputs[0] == outputs[1]


def test_verify_all_ok_exits_zero(tmp_path, heat_traj):
    for name in ("one", "two"):
        _save(tmp_path, name, heat_traj)
    lines: list[str] = []
    assert verify_directory(tmp_path, simulator=simulator(), echo=lines.append, show_progress=False) == ExitCode.OK
    assert lines[-1].startswith("2 ok, 0 failed (in ")


@pytest.mark.slow  # fast lane: 9 s on a loaded 2-core machine (session 73 --durations)
def test_verify_missing_or_empty_directory_is_one_line(tmp_path):
    run = subprocess.run([*ALFRED_GEN, "verify", str(tmp_path / "nowhere")], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == ExitCode.NOT_FOUND and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    with pytest.raises(UserError):
        find_trajectories(tmp_path)


def test_summary_line_orders_reasons_as_a_replay_meets_them():
    def result(reason: str) -> VetResult:
        return VetResult(reason == "ok", reason, None, "", GoalStatus(0, 0, []))

    reasons = ["goal_unsatisfied", "ok", "bad_file", "goal_unsatisfied", "action_failed"]
    assert summary_line(map(result, reasons)) == "1 ok, 4 failed: bad_file 1, action_failed 1, goal_unsatisfied 2"


def test_verify_stops_with_one_error_when_no_simulator_can_run(tmp_path, heat_traj):
    _save(tmp_path, "one", heat_traj)
    no_build = Simulator("thor", {"thor_build": str(tmp_path / "no-such-build")})
    lines: list[str] = []
    with pytest.raises(UserError) as caught:
        verify_directory(tmp_path, simulator=no_build, echo=lines.append, show_progress=False)
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE and not lines


def test_verify_released_alfred_files_fail_cleanly_as_unknown_scene(released_trajectory_files, tmp_path):
    # Real THOR FloorPlans need an imported scene catalogue: the files read fine and every one
    # fails with the same, right reason.
    import shutil

    for n, path in enumerate(released_trajectory_files[:3]):
        target = tmp_path / f"t{n}" / "traj_data.json"
        target.parent.mkdir()
        shutil.copy(path, target)
    lines: list[str] = []
    assert verify_directory(tmp_path, simulator=simulator(), echo=lines.append, show_progress=False) == ExitCode.FAILED
    assert all(": unknown_scene: unknown scene 'FloorPlan" in line for line in lines[:-1])
    assert lines[-1].startswith("0 ok, 3 failed: unknown_scene 3")


def test_replay_command_output_and_exit_codes(tmp_path, heat_traj, monkeypatch, capsys):
    from alfred_gen.cli import main

    good = _save(tmp_path, "good", heat_traj)
    bad = _save(tmp_path, "bad", scripts.without_action(heat_traj, scripts.OPEN_MICROWAVE_IDX))
    with pytest.raises(SystemExit) as done:
        main(["replay", str(good.parent), "--seg", "--depth"])
    out = capsys.readouterr().out.splitlines()
    assert done.value.code == ExitCode.OK
    assert out[0] == "goal: 3/3 goal conditions" and out[1].startswith("replay ok: 30 actions, 31 frames written")
    assert len(list((good.parent / "instance_masks").glob("*.png"))) == 31
    with pytest.raises(SystemExit) as done:
        main(["replay", str(bad), "--out", str(tmp_path / "elsewhere")])
    out = capsys.readouterr().out.splitlines()
    assert done.value.code == ExitCode.FAILED
    assert out[0].startswith(f"low_idx 13 PutObject {scripts.MUG}: ") and len(out) == 5
    assert out[3].startswith("goal: 1/3 goal conditions (missing: ")
    assert out[4].startswith("replay FAILED: 3 failed steps, 1/3 goal conditions; nothing written")
    assert not (tmp_path / "elsewhere" / "raw_images").exists()
