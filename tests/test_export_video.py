"""`alfred-gen video`: annotated H.264 MP4s, checked by decoding them back (frame count equals the
number of images, duration equals frames / fps), on generated trajectories and, with the ALFRED
reference data, on a released demo re-rendered in its imported room."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.export import annotate
from tests.helpers.export_data import alfred_catalogue, run_cli, small_dataset, trial_of

av = pytest.importorskip("av", reason="videos need the video extra: pip install 'alfred-gen[video]'")

from alfred_gen.export.mp4 import read_facts, read_frame, rgb_to_yuv420p, write_mp4, yuv_picture  # noqa: E402  # needs av, skipped above

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_dataset(tmp_path_factory.getbasetemp())


def _images(trial: Path) -> list[dict]:
    return json.loads((trial / "traj_data.json").read_text())["images"]


# --- drawing ---------------------------------------------------------------------------------------
def test_mask_outline_is_the_boundary_of_the_mask() -> None:
    mask = np.zeros((10, 10), bool)
    mask[2:6, 3:8] = True
    edge = annotate.mask_outline(mask)
    assert edge.sum() == 2 * 5 + 2 * 2  # a 4x5 block: its border pixels
    assert not edge[3:5, 4:7].any() and edge[2, 3] and edge[5, 7]
    drawn = annotate.outline_mask(np.zeros((10, 10, 3), np.uint8), mask)
    assert tuple(drawn[2, 3]) == annotate.MASK_OUTLINE
    assert not drawn[0, 0].any()  # outside the mask nothing changes


def test_depth_ramp_runs_from_near_to_far_and_marks_missing_readings_black() -> None:
    depth = np.array([[0, 500, 2500, 5000, 9000]], dtype=np.uint16)
    rgb = annotate.depth_to_rgb(depth)
    assert rgb[0, 0].tolist() == [0, 0, 0]
    assert rgb[0, 3].tolist() == rgb[0, 4].tolist()  # clipped at DEPTH_FAR
    brightness = rgb[0, 1:4].astype(int).sum(axis=1)
    assert list(brightness) == sorted(brightness, reverse=True)  # nearer is brighter


def test_composed_frames_are_even_sized_and_grow_with_panels() -> None:
    caption = annotate.Caption("Put a mug away.", 1, 3, "Pick up the mug. " * 20, "action 2/5  PickupObject Mug",
                               [(0, 1), (2, 3), (-1, -1)], 2, 4)
    one = annotate.compose([np.zeros((300, 300, 3), np.uint8)], caption)
    three = annotate.compose([np.zeros((300, 300, 3), np.uint8)] * 3, caption)
    assert one.shape[:2] == annotate.frame_size(1)[::-1]
    assert three.shape[1] > 2 * one.shape[1] and three.shape[0] == one.shape[0]
    assert one.shape[0] % 2 == 0 and one.shape[1] % 2 == 0 and three.shape[1] % 2 == 0


@pytest.mark.parametrize(("rgb", "yuv"), [
    ((0, 0, 0), (16, 128, 128)), ((255, 255, 255), (235, 128, 128)),
    ((255, 0, 0), (82, 90, 240)), ((0, 0, 255), (41, 240, 110)),
])
def test_rgb_to_yuv420p_uses_bt601_limited_range(rgb: tuple[int, int, int], yuv: tuple[int, int, int]) -> None:
    """The textbook BT.601 values of pure colours, within one level of integer rounding."""
    planes = rgb_to_yuv420p(np.full((4, 6, 3), rgb, dtype=np.uint8))
    assert planes.shape == (6, 6) and planes.dtype == np.uint8
    luma, chroma = planes[:4].ravel(), planes[4:].ravel()
    assert np.all(np.abs(luma.astype(int) - yuv[0]) <= 1)
    assert np.all(np.abs(chroma[:6].astype(int) - yuv[1]) <= 1)  # U: 2x3 half-size samples
    assert np.all(np.abs(chroma[6:].astype(int) - yuv[2]) <= 1)  # then V


def test_rgb_to_yuv420p_averages_each_2x2_block_for_chroma() -> None:
    image = np.zeros((2, 4, 3), dtype=np.uint8)
    image[:, :2] = (255, 0, 0)  # the left block red, the right block black
    planes = rgb_to_yuv420p(image)
    u, v = planes[2].reshape(2, 2)[0], planes[2].reshape(2, 2)[1]
    assert abs(int(u[0]) - 90) <= 1 and u[1] == 128
    assert abs(int(v[0]) - 240) <= 1 and v[1] == 128


def test_yuv_pictures_own_their_planes_and_fill_each_rows_padding() -> None:
    """The encoder gets memory FFmpeg allocated (never the array's), every byte of it set."""
    av = pytest.importorskip("av")
    rgb = np.random.default_rng(0).integers(0, 256, (6, 10, 3), dtype=np.uint8)
    planes = rgb_to_yuv420p(rgb)
    picture = yuv_picture(av, planes)
    assert (picture.width, picture.height) == (10, 6)
    assert np.array_equal(picture.to_ndarray(), planes)
    planes[:] = 0  # the picture keeps its own copy
    luma = np.frombuffer(picture.planes[0], dtype=np.uint8).reshape(-1, picture.planes[0].line_size)[:6]
    assert luma[:, :10].any() and np.array_equal(luma[:, 10:], np.repeat(luma[:, 9:10], luma.shape[1] - 10, axis=1))


def test_write_mp4_round_trips_frame_count_and_duration(tmp_path: Path) -> None:
    frames = [np.full((40, 60, 3), 20 * i, np.uint8) for i in range(7)]
    assert write_mp4(iter(frames), tmp_path / "x.mp4", fps=4) == 7
    facts = read_facts(tmp_path / "x.mp4")
    assert (facts.frames, facts.width, facts.height, facts.codec) == (7, 60, 40, "h264")
    assert facts.seconds == pytest.approx(7 / 4)
    assert abs(int(read_frame(tmp_path / "x.mp4", 5).mean()) - 100) <= 3
    with pytest.raises(ValueError):
        write_mp4(iter([np.zeros((41, 60, 3), np.uint8)]), tmp_path / "odd.mp4", fps=4)
    assert not list(tmp_path.glob(".odd.mp4*")) and not (tmp_path / "odd.mp4").exists()  # nothing half-written


# --- the command on generated trajectories --------------------------------------------------------
def test_video_of_a_generated_trajectory_decodes_with_one_frame_per_image(dataset: Path, tmp_path: Path) -> None:
    trial = trial_of(dataset, "pick_heat_then_place_in_recep")
    run = run_cli("video", str(trial), "--fps", "4", "--masks", "--out", str(tmp_path / "heat.mp4"))
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("1 made, 0 failed")
    facts = read_facts(tmp_path / "heat.mp4")
    frames = len(_images(trial)) + 1  # every image listed, and the unlisted one after the last action
    assert facts.frames == frames
    assert facts.seconds == pytest.approx(frames / 4)
    assert (facts.width, facts.height) == annotate.frame_size(1)
    assert not (trial / "video.mp4").exists()  # --out was given: nothing beside the trajectory


def test_mask_outlines_appear_on_the_interaction_frame_only_with_masks(dataset: Path, tmp_path: Path) -> None:
    from alfred_gen.export.storyboard import frame_steps, interaction_mask

    trial = trial_of(dataset, "pick_and_place_simple")
    traj = json.loads((trial / "traj_data.json").read_text())
    step = next(s for s in frame_steps(traj)
                if s.before_action and interaction_mask(traj["plan"]["low_actions"][s.low_idx]) is not None)
    mask = interaction_mask(traj["plan"]["low_actions"][step.low_idx])
    edge = annotate.mask_outline(mask)
    rows, cols = np.nonzero(edge)
    top = annotate.PAD + annotate.LINE  # where the RGB panel starts in a composed frame
    ys, xs = top + rows * annotate.SCALE, cols * annotate.SCALE
    for flag, out in (("--masks", "with.mp4"), (None, "without.mp4")):
        args = ["video", str(trial), "--out", str(tmp_path / out)] + ([flag] if flag else [])
        assert run_cli(*args).returncode == ExitCode.OK
    with_masks = read_frame(tmp_path / "with.mp4", step.position)[ys, xs].astype(int)
    without = read_frame(tmp_path / "without.mp4", step.position)[ys, xs].astype(int)
    yellow = np.array(annotate.MASK_OUTLINE)
    near_yellow = lambda pixels: np.mean(np.abs(pixels - yellow).max(axis=1) < 60)  # noqa: E731  # H.264 is lossy
    assert near_yellow(with_masks) > 0.6
    assert near_yellow(without) < 0.3


def test_the_same_trajectory_gives_the_same_video_bytes(dataset: Path, tmp_path: Path) -> None:
    trial = trial_of(dataset, "look_at_obj_in_light")
    for name in ("a.mp4", "b.mp4"):
        assert run_cli("video", str(trial), "--masks", "--out", str(tmp_path / name)).returncode == ExitCode.OK
    digests = [hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() for name in ("a.mp4", "b.mp4")]
    assert digests[0] == digests[1]  # digests, not bytes: pytest's diff of two videos takes hours


def test_missing_frames_are_re_rendered_and_depth_and_seg_panels_added(dataset: Path, tmp_path: Path) -> None:
    source = trial_of(dataset, "pick_heat_then_place_in_recep")
    bare = tmp_path / "data" / source.parent.name / source.name
    bare.mkdir(parents=True)
    shutil.copy(source / "traj_data.json", bare / "traj_data.json")  # no raw_images/
    run = run_cli("video", str(bare), "--depth", "--seg", "--out", str(tmp_path / "panels.mp4"))
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert "1 re-rendered" in run.stdout
    facts = read_facts(tmp_path / "panels.mp4")
    assert facts.frames == len(_images(source)) + 1
    assert (facts.width, facts.height) == annotate.frame_size(3)
    assert sorted(p.name for p in bare.iterdir()) == ["traj_data.json"]  # the trajectory is left as it was
    # The re-rendered RGB panel shows what the recorded frame shows (same renderer, same state).
    recorded = run_cli("video", str(source), "--out", str(tmp_path / "recorded.mp4"))
    assert recorded.returncode == ExitCode.OK
    top = annotate.PAD + annotate.LINE
    a = read_frame(tmp_path / "panels.mp4", 3)[top:top + 600, :600].astype(int)
    b = read_frame(tmp_path / "recorded.mp4", 3)[top:top + 600, :600].astype(int)
    assert np.abs(a - b).mean() < 4


def test_many_trajectories_with_jobs_go_beside_each_file_or_into_a_directory(dataset: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(dataset, copy)
    run = run_cli("video", str(copy), "--jobs", "2")
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("3 made, 0 failed")
    videos = sorted(copy.rglob("video.mp4"))
    assert [v.parent for v in videos] == sorted(p.parent for p in copy.rglob("traj_data.json"))
    run = run_cli("video", str(copy), "--out", str(tmp_path / "videos"))
    assert run.returncode == ExitCode.OK
    assert len(list((tmp_path / "videos").glob("*/*.mp4"))) == 3
    run = run_cli("video", str(copy), "--out", str(tmp_path / "one.mp4"))
    assert run.returncode == ExitCode.USAGE and "3 trajectories" in run.stderr


def test_bad_input_is_one_line_and_a_documented_code(dataset: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken" / "pick_and_place_simple-Apple-None-CounterTop-1" / "trial_T1"
    broken.mkdir(parents=True)
    (broken / "traj_data.json").write_text('{"task_id": "trial_T1", "plan": ')  # truncated
    unknown = tmp_path / "broken" / "pick_and_place_simple-Apple-None-CounterTop-1" / "trial_T2"
    unknown.mkdir()
    traj = json.loads((trial_of(dataset, "pick_and_place_simple") / "traj_data.json").read_text())
    traj["scene"]["floor_plan"] = "NoSuchRoom7"
    (unknown / "traj_data.json").write_text(json.dumps(traj))
    run = run_cli("video", str(tmp_path / "broken"), "--out", str(tmp_path / "v"))
    assert run.returncode == ExitCode.FAILED
    lines = run.stdout.strip().splitlines()
    assert lines[-1].startswith("0 made, 2 failed: bad_file 1, rerender_failed 1")
    assert "Traceback" not in run.stderr
    missing = run_cli("video", str(tmp_path / "nothing-here"))
    assert missing.returncode == ExitCode.NOT_FOUND and len(missing.stderr.strip().splitlines()) == 1


# --- a released ALFRED demo -------------------------------------------------------------------------
def test_video_of_a_released_alfred_demo_in_its_imported_room(alfred_data: Path, tmp_path_factory) -> None:
    catalogue = alfred_catalogue(alfred_data, tmp_path_factory.getbasetemp())
    trial = sorted((alfred_data / "json_2.1.0").glob("train/pick_and_place_simple-*/trial_*"))[0]
    out = tmp_path_factory.mktemp("alfred-video") / "alfred.mp4"
    run = run_cli("--scenes-catalogue", str(catalogue), "video", str(trial), "--masks", "--out", str(out))
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert "1 re-rendered" in run.stdout  # released demos ship no frames here
    frames = len(_images(trial)) + 1  # and the unlisted frame after the last action
    facts = read_facts(out)
    assert facts.frames == frames > len(json.loads((trial / "traj_data.json").read_text())["plan"]["low_actions"])
    assert facts.seconds == pytest.approx(frames / 5)


def test_a_damaged_frame_fails_its_trajectory_only_and_names_the_file(dataset: Path, tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(dataset, copy)
    cut = trial_of(copy, "pick_and_place_simple") / "raw_images" / "000000001.jpg"
    cut.write_bytes(cut.read_bytes()[:200])  # cut short
    garbage = trial_of(copy, "look_at_obj_in_light") / "raw_images" / "000000000.jpg"
    garbage.write_text("not an image")
    run = run_cli("video", str(copy), "--out", str(tmp_path / "videos"))
    assert run.returncode == ExitCode.FAILED, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and run.stderr.strip() == ""
    lines = run.stdout.strip().splitlines()
    assert lines[-1].startswith("1 made, 2 failed: bad_frame 2")
    assert any(str(cut) in line and "bad_frame" in line for line in lines)
    assert any(str(garbage) in line and "bad_frame" in line for line in lines)
    made = list((tmp_path / "videos").glob("*/*.mp4"))
    assert [video.parent.name for video in made] == [trial_of(copy, "pick_heat_then_place_in_recep").parent.name]
