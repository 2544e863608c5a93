"""`alfred-gen export hf`: parquet tables that Hugging Face `datasets` loads with its own loader
(Image features, so a row's image is a PIL image), checked against the source traj_data.json, plus
the dataset card, byte-identical re-runs, and the fields AlfredDataset gives for the same steps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from alfred_gen.data import AlfredDataset
from alfred_gen.errors import ExitCode
from alfred_gen.export.episodes import CACHE_DIR
from tests.helpers.export_data import small_dataset

datasets = pytest.importorskip("datasets", reason="export hf needs the hf extra: pip install 'alfred-gen[hf]'")

from alfred_gen.export.hf import EPISODES_FILE, STEPS_FILE, export_hf  # noqa: E402  # skipped above without datasets
from alfred_gen.scenes.library import simulator  # noqa: E402
from alfred_gen.traj.steps import STOP_ACTION, actions  # noqa: E402

pytestmark = pytest.mark.slow  # fast lane: 31 s on a loaded 2-core machine (session 73 --durations)


def _export(src: Path, out: Path) -> tuple[ExitCode, list[str]]:
    lines: list[str] = []
    return export_hf(src, out, simulator=simulator(), echo=lines.append, show_progress=False), lines


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_dataset(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def exported(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("hf") / "ds"
    code, lines = _export(dataset, out)
    assert code == ExitCode.OK, lines
    return out


def test_datasets_loads_steps_with_pil_images_matching_the_source(dataset: Path, exported: Path) -> None:
    steps = datasets.load_dataset("parquet", data_files=str(exported / STEPS_FILE), split="train")
    episodes = datasets.load_dataset("parquet", data_files=str(exported / EPISODES_FILE), split="train")
    assert isinstance(steps[0]["image"], Image.Image)
    by_episode = {row["episode_index"]: row for row in episodes}
    checked = 0
    for row in steps:
        episode = by_episode[row["episode_index"]]
        trial = dataset / Path(episode["source"]).parent
        traj = json.loads((trial / "traj_data.json").read_text())
        if row["action_name"] == STOP_ACTION:
            assert row["low_idx"] == len(traj["plan"]["low_actions"])
            continue
        low = traj["plan"]["low_actions"][row["low_idx"]]
        assert actions()[row["action"]] == low["api_action"]["action"]
        assert row["mask"] == low["discrete_action"]["args"].get("mask", [])
        if row["step"] < 3:  # pixels: the very JPEG of the frame the action was chosen in
            stem = next(e for e in traj["images"] if e["low_idx"] == row["low_idx"])["image_name"][:-4]
            with Image.open(trial / "raw_images" / f"{stem}.jpg") as source:
                assert np.array_equal(np.asarray(row["image"].convert("RGB")), np.asarray(source.convert("RGB")))
            checked += 1
    assert checked and len(episodes) == len(set(steps["episode_index"]))


def test_the_card_names_counts_balance_and_loads_by_config(dataset: Path, exported: Path) -> None:
    card = (exported / "README.md").read_text()
    sources = sorted(dataset.rglob("traj_data.json"))
    assert f"- trajectories: {len(sources)}" in card and "license:" in card
    for path in sources:
        assert f"| {json.loads(path.read_text())['task_type']} | 1 |" in card
    episodes = datasets.load_dataset(str(exported), "episodes", split="train")
    trajectories = [json.loads(p.read_text()) for p in sources]
    per_annotation = [t["task_type"] for t in trajectories for _ in t["turk_annotations"]["anns"]]
    assert f"- episodes (trajectory x annotation): {len(per_annotation)}" in card
    assert sorted(episodes["task_type"]) == sorted(per_annotation)  # one row per trajectory and annotation


def test_same_input_same_bytes(dataset: Path, exported: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert _export(dataset, again)[0] == ExitCode.OK
    for name in (STEPS_FILE, EPISODES_FILE, "README.md"):
        assert (exported / name).read_bytes() == (again / name).read_bytes(), name
    shutil.rmtree(again / CACHE_DIR)
    assert not (again / CACHE_DIR).exists()


def test_alfred_dataset_gives_the_same_fields_as_the_export(dataset: Path, exported: Path) -> None:
    steps = datasets.load_dataset("parquet", data_files=str(exported / STEPS_FILE), split="train")
    local = AlfredDataset(dataset)
    assert len(local) == len(steps)
    for index in (0, len(local) // 2, len(local) - 1):
        mine, theirs = local[index], steps[index]
        for key in ("episode_id", "step", "low_idx", "high_idx", "action", "action_name", "mask", "bbox",
                    "point", "instruction", "goal"):
            assert mine[key] == theirs[key], key
        assert np.array_equal(mine["image"], np.asarray(theirs["image"].convert("RGB")))
