"""Which frame goes with which action (alfred_gen.traj.steps), in both image conventions, and
AlfredDataset over a folder and over a split file (ALFRED's oct21.json shape)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from alfred_gen.data import AlfredDataset
from alfred_gen.errors import UserError
from alfred_gen.traj.rle import decode_mask
from alfred_gen.traj.steps import STOP_ACTION, actions, select_frames, trajectory_annotations, trajectory_steps
from tests.helpers.export_data import small_dataset


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_dataset(tmp_path_factory.getbasetemp())


def _traj(lows: int, images: list[tuple[int, str]]) -> dict:
    return {"plan": {"low_actions": [{"high_idx": 0, "api_action": {"action": "MoveAhead"},
                                      "discrete_action": {"action": "MoveAhead_25", "args": {}}}] * lows,
                     "high_pddl": [{"discrete_action": {"action": "GotoLocation", "args": []}}]},
            "images": [{"low_idx": low, "high_idx": 0, "image_name": name} for low, name in images]}


def test_alfred_convention_takes_the_first_image_per_action_and_the_unlisted_next_number() -> None:
    traj = _traj(2, [(0, "000000000.png"), (0, "000000001.png"), (1, "000000002.png")])
    on_disk = {"000000000", "000000001", "000000002", "000000003"}
    assert select_frames(traj, on_disk.__contains__) == (["000000000", "000000002"], "000000003")


def test_old_convention_takes_the_listed_extra_image_of_the_last_action() -> None:
    traj = _traj(2, [(0, "000000000.png"), (1, "000000001.png"), (1, "000000002.png")])
    on_disk = {"000000000", "000000001", "000000002"}
    assert select_frames(traj, on_disk.__contains__) == (["000000000", "000000001"], "000000002")


def test_no_final_frame_when_neither_convention_holds() -> None:
    traj = _traj(2, [(0, "000000000.png"), (1, "000000001.png")])
    frames, final = select_frames(traj, lambda stem: False)
    assert frames == ["000000000", "000000001"] and final is None
    assert len(trajectory_steps(traj, lambda stem: False)) == 2  # no stop step without its frame


def test_an_action_without_an_image_is_refused() -> None:
    with pytest.raises(ValueError, match="low action 1"):
        select_frames(_traj(2, [(0, "000000000.png")]), lambda stem: True)


def test_steps_of_a_generated_trajectory_match_its_file(dataset: Path) -> None:
    for path in sorted(dataset.rglob("traj_data.json")):
        traj = json.loads(path.read_text())
        steps = trajectory_steps(traj, lambda stem, d=path.parent: (d / "raw_images" / f"{stem}.jpg").is_file())
        lows = traj["plan"]["low_actions"]
        assert len(steps) == len(lows) + 1 and steps[-1].action == actions().index(STOP_ACTION)
        for step, low in zip(steps, lows):
            assert actions()[step.action] == low["api_action"]["action"]
            assert [list(run) for run in step.mask] == low["discrete_action"]["args"].get("mask", [])
            assert step.high_idx == low["high_idx"]


@pytest.mark.slow  # fast lane: 9 s on a loaded 2-core machine (session 73 --durations)
def test_alfred_dataset_steps_carry_the_source_action_mask_and_frame(dataset: Path) -> None:
    data = AlfredDataset(dataset)
    sources = sorted(dataset.rglob("traj_data.json"))
    assert len(data.episodes) == sum(len(trajectory_annotations(json.loads(p.read_text()))) for p in sources)
    seen_mask = False
    for index in range(len(data)):
        item = data[index]
        episode = data.episodes[item["episode_index"]]
        traj = json.loads((episode.directory / "traj_data.json").read_text())
        if item["action_name"] == STOP_ACTION:
            continue
        low = traj["plan"]["low_actions"][item["low_idx"]]
        assert item["action_name"] == low["discrete_action"]["action"]
        first = next(e for e in traj["images"] if e["low_idx"] == item["low_idx"])
        with Image.open(episode.directory / "raw_images" / (first["image_name"][:-4] + ".jpg")) as image:
            assert np.array_equal(item["image"], np.asarray(image.convert("RGB")))
        if item["mask"]:
            seen_mask = True
            assert decode_mask(item["mask"]).any()
            assert item["bbox"] == low["discrete_action"]["args"]["bbox"]
    assert seen_mask


def test_alfred_dataset_episodes_stack_their_frames(dataset: Path) -> None:
    data = AlfredDataset(dataset, items="episode")
    item = data[0]
    assert item["images"].shape == (len(item["action"]), 300, 300, 3)
    assert item["action"][-1] == actions().index(STOP_ACTION)


def test_alfred_dataset_reads_a_split_file_with_repeat_idx(dataset: Path, tmp_path: Path) -> None:
    trials = sorted(p.parent for p in dataset.rglob("traj_data.json"))
    root = tmp_path / "json"
    for trial in trials[:2]:  # ALFRED's json_2.1.0/<split>/<task>/<trial> layout
        shutil.copytree(trial, root / "train" / trial.parent.name / trial.name)
    split = tmp_path / "split.json"
    entries = [{"task": f"{t.parent.name}/{t.name}", "repeat_idx": 0} for t in trials[:2]]
    split.write_text(json.dumps({"train": entries, "valid_seen": []}))
    data = AlfredDataset(root, split_file=split, split="train")
    assert [e.episode_id for e in data.episodes] == [f"{e['task']}/0" for e in entries]
    assert len(data) == sum(len(e.steps) for e in data.episodes) and data[len(data) - 1]["image"].shape == (300, 300, 3)
    entries.append({"task": "missing/trial_T0", "repeat_idx": 0})
    split.write_text(json.dumps({"train": entries}))
    with pytest.raises(UserError, match="missing/trial_T0"):
        AlfredDataset(root, split_file=split, split="train")


def test_alfred_dataset_is_a_torch_dataset_when_torch_is_installed(dataset: Path) -> None:
    torch = pytest.importorskip("torch", reason="AlfredDataset is a plain class without torch")
    assert isinstance(AlfredDataset(dataset), torch.utils.data.Dataset)
