"""`alfred-gen export lerobot`: a LeRobotDataset v3.0 that LeRobot's own loader reads.

The layout is checked with pyarrow and PyAV (the lerobot extra); LeRobot's ``LeRobotDataset``
itself runs in the Python named by $ALFRED_GEN_LEROBOT_PYTHON (CI makes it with
``.ci/lerobot-venv``), or in this one when lerobot is importable; without either those tests skip
and say how to run them. Every check compares with the source traj_data.json: actions, masks,
instructions, and frame pixels after decoding (PSNR against the source JPEG).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from alfred_gen.errors import ExitCode
from alfred_gen.export.episodes import CACHE_DIR
from tests.helpers.export_data import small_dataset

pa = pytest.importorskip("pyarrow", reason="export lerobot needs the lerobot extra: pip install 'alfred-gen[lerobot]'")
pytest.importorskip("av", reason="export lerobot needs the lerobot extra: pip install 'alfred-gen[lerobot]'")

import pyarrow.parquet as pq  # noqa: E402  # skipped above without pyarrow

from alfred_gen.export.lerobot import LeRobotOptions, export_lerobot  # noqa: E402
from alfred_gen.export.mp4 import read_facts, read_frame  # noqa: E402
from alfred_gen.scenes.library import simulator  # noqa: E402
from alfred_gen.traj.steps import STOP_ACTION, actions  # noqa: E402

pytestmark = pytest.mark.slow  # fast lane: 59 s on a loaded 2-core machine (session 73 --durations)

#: Lowest PSNR (dB) of a decoded frame against its source JPEG (H.264 at CRF 23 gives about 37).
MIN_PSNR = 30.0
LEROBOT_PYTHON_ENV = "ALFRED_GEN_LEROBOT_PYTHON"


def _export(src: Path, out: Path, **options: object) -> tuple[ExitCode, list[str]]:
    lines: list[str] = []
    code = export_lerobot(src, out, LeRobotOptions(**options), simulator=simulator(),  # type: ignore[arg-type]
                          echo=lines.append, show_progress=False)
    return code, lines


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_dataset(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def exported(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lerobot") / "ds"
    code, lines = _export(dataset, out)
    assert code == ExitCode.OK, lines
    return out


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    error = float(((a.astype(np.float64) - b.astype(np.float64)) ** 2).mean())
    return float("inf") if error == 0 else 10.0 * np.log10(255.0 ** 2 / error)


def _episodes(root: Path) -> list[dict]:
    return pq.read_table(root / "meta/episodes/chunk-000/file-000.parquet").to_pylist()


def _source(dataset: Path, episode: dict) -> tuple[dict, Path]:
    path = dataset / episode["alfred.source"]
    return json.loads(path.read_text()), path.parent


def _jpeg(trial: Path, stem: str) -> np.ndarray:
    with Image.open(trial / "raw_images" / f"{stem}.jpg") as image:
        return np.asarray(image.convert("RGB"))


def test_layout_and_info_are_lerobot_v3(exported: Path) -> None:
    info = json.loads((exported / "meta/info.json").read_text())
    assert info["codebase_version"] == "v3.0"
    episodes = _episodes(exported)
    data = pq.read_table(exported / "data/chunk-000/file-000.parquet")
    assert info["total_episodes"] == len(episodes) and info["total_frames"] == data.num_rows
    assert set(info["features"]) == set(data.column_names) | {"observation.images.rgb"}
    for episode in episodes:  # the rows and the video of each episode are where its row says
        rows = data.slice(episode["dataset_from_index"], episode["length"]).to_pydict()
        assert set(rows["episode_index"]) == {episode["episode_index"]}
        assert rows["frame_index"] == list(range(episode["length"]))
        video = exported / info["video_path"].format(
            video_key="observation.images.rgb", chunk_index=episode["videos/observation.images.rgb/chunk_index"],
            file_index=episode["videos/observation.images.rgb/file_index"])
        assert read_facts(video).frames == episode["length"]
    tasks = pq.read_table(exported / "meta/tasks.parquet").to_pydict()
    assert sorted(tasks["task_index"]) == list(range(info["total_tasks"]))
    stats = json.loads((exported / "meta/stats.json").read_text())
    assert np.asarray(stats["observation.images.rgb"]["mean"]).shape == (3, 1, 1)


def test_rows_carry_the_source_actions_masks_and_words(dataset: Path, exported: Path) -> None:
    data = pq.read_table(exported / "data/chunk-000/file-000.parquet").to_pylist()
    checked_masks = 0
    for episode in _episodes(exported):
        traj, _ = _source(dataset, episode)
        ann = traj["turk_annotations"]["anns"][episode["alfred.annotation"]]
        rows = data[episode["dataset_from_index"]: episode["dataset_to_index"]]
        lows = traj["plan"]["low_actions"]
        assert len(rows) == len(lows) + 1 and episode["tasks"] == [ann["task_desc"]]
        for row, low in zip(rows, lows):
            assert actions()[row["action"]] == low["api_action"]["action"]
            args = low["discrete_action"]["args"]
            assert json.loads(row["action.mask"]) == args.get("mask", [])
            assert row["action.bbox"] == args.get("bbox", [-1] * 4)
            checked_masks += bool(args.get("mask"))
            if low["high_idx"] < len(ann["high_descs"]):
                assert row["language.instruction"] == ann["high_descs"][low["high_idx"]]
        assert actions()[rows[-1]["action"]] == STOP_ACTION
        assert json.loads(episode["alfred.pddl_params"]) == traj["pddl_params"]
        assert episode["alfred.task_type"] == traj["task_type"]
    assert checked_masks


def test_decoded_frames_match_the_source_jpegs(dataset: Path, exported: Path) -> None:
    episode = _episodes(exported)[0]
    traj, trial = _source(dataset, episode)
    number = episode["videos/observation.images.rgb/file_index"]
    video = exported / f"videos/observation.images.rgb/chunk-000/file-{number:03d}.mp4"
    first = next(e for e in traj["images"] if e["low_idx"] == 0)["image_name"][:-4]
    assert psnr(read_frame(video, 0), _jpeg(trial, first)) > MIN_PSNR
    third = next(e for e in traj["images"] if e["low_idx"] == 2)["image_name"][:-4]
    assert psnr(read_frame(video, 2), _jpeg(trial, third)) > MIN_PSNR


def test_same_input_same_bytes_and_a_killed_run_resumes(dataset: Path, exported: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    shutil.copytree(exported / CACHE_DIR, again / CACHE_DIR)
    parts = sorted((again / CACHE_DIR).iterdir())
    shutil.rmtree(parts[0])  # as if the run had been killed before this trajectory was done
    (again / CACHE_DIR / ".tmp-half").mkdir()  # and had left a half-written part behind
    assert _export(dataset, again)[0] == ExitCode.OK
    assert not (again / CACHE_DIR / ".tmp-half").exists()
    files = sorted(p.relative_to(exported) for p in exported.rglob("*") if p.is_file() and CACHE_DIR not in p.parts)
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file() and CACHE_DIR not in p.parts)
    for name in files:
        assert (exported / name).read_bytes() == (again / name).read_bytes(), name


def test_an_unreadable_trajectory_is_skipped_with_its_reason(dataset: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(dataset, src)
    bad = sorted(src.rglob("traj_data.json"))[0]
    bad.write_text("{ not json")
    code, lines = _export(src, tmp_path / "out")
    assert code == ExitCode.FAILED
    assert any(line.startswith(f"{bad.relative_to(src).as_posix()}: bad_file: ") for line in lines)
    assert "1 skipped: bad_file 1" in lines[-1]


def test_depth_and_segmentation_videos_are_re_rendered_when_missing(dataset: Path, tmp_path: Path) -> None:
    src = tmp_path / "one"
    trial = sorted(dataset.rglob("traj_data.json"))[0].parent
    shutil.copytree(trial, src / trial.parent.name / trial.name)
    code, lines = _export(src, tmp_path / "out", depth=True, seg=True)
    assert code == ExitCode.OK, lines
    info = json.loads((tmp_path / "out/meta/info.json").read_text())
    assert info["features"]["observation.images.depth"]["info"]["video.is_depth_map"] is True
    frames = info["total_frames"] // len(_episodes(tmp_path / "out"))
    for key in ("observation.images.depth", "observation.images.seg"):
        assert read_facts(tmp_path / f"out/videos/{key}/chunk-000/file-000.mp4").frames == frames


def _lerobot_python() -> str:
    given = os.environ.get(LEROBOT_PYTHON_ENV)
    if given:
        return given
    if importlib.util.find_spec("lerobot") is not None:
        return sys.executable
    pytest.skip(f"LeRobot's loader is not installed: make its venv with `bash .ci/lerobot-venv DIR` and set "
                f"{LEROBOT_PYTHON_ENV}=DIR/bin/python (CI does)")


def test_lerobot_loads_the_export_and_frame_0_matches_the_source(dataset: Path, exported: Path,
                                                                  tmp_path: Path) -> None:
    python = _lerobot_python()
    episodes = _episodes(exported)
    last = episodes[0]["dataset_to_index"] - 1
    helper = Path(__file__).parent / "helpers" / "lerobot_read.py"
    run = subprocess.run([python, str(helper), str(exported), str(tmp_path), "0", "2", str(last)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["episodes"] == len(episodes)
    traj, trial = _source(dataset, episodes[0])
    ann = traj["turk_annotations"]["anns"][episodes[0]["alfred.annotation"]]
    first, third, final = report["items"]
    assert first["task"] == ann["task_desc"] and first["episode_index"] == 0
    for item, low_idx in ((first, 0), (third, 2)):
        low = traj["plan"]["low_actions"][low_idx]
        assert actions()[item["action"]] == low["api_action"]["action"]
        assert json.loads(item["action.mask"]) == low["discrete_action"]["args"].get("mask", [])
        stem = next(e for e in traj["images"] if e["low_idx"] == low_idx)["image_name"][:-4]
        decoded = np.load(tmp_path / f"{low_idx}-observation.images.rgb.npy")  # item i is step i of episode 0
        assert psnr(decoded, _jpeg(trial, stem)) > MIN_PSNR
    assert actions()[final["action"]] == STOP_ACTION
