"""A trial moved as bytes (what the Ray executor's workers send and its driver commits): the same
bytes land in place with one rename, an existing trial is never overwritten, and a packed trial
cannot write outside its directory. Needs no Ray."""

from __future__ import annotations

from pathlib import Path

import pytest

from alfred_gen.sample.trial_files import PackedTrial, commit_trial, pack_trial

TASK_DIR = "pick_and_place_simple-Apple-None-Fridge-1"
TRIAL = "trial_T20000101_000000_000007"
JSON = '{"task_id": "trial_T20000101_000000_000007"}'


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _made_trial(root: Path) -> Path:
    trial = root / TASK_DIR / TRIAL
    (trial / "raw_images").mkdir(parents=True)
    (trial / "pddl_states").mkdir()  # an empty directory travels too
    (trial / "traj_data.json").write_text(JSON)
    (trial / "raw_images" / "000000000.jpg").write_bytes(bytes(range(256)) * 4)
    return trial


def test_a_packed_trial_is_committed_byte_for_byte(tmp_path: Path) -> None:
    made = _made_trial(tmp_path / "scratch")
    packed = pack_trial(tmp_path / "scratch", TRIAL)
    assert packed is not None and packed.task_dir == TASK_DIR and packed.size() == 1024 + len(JSON)
    out = tmp_path / "out"
    assert commit_trial(out, packed)
    assert _files(out / TASK_DIR / TRIAL) == _files(made)
    assert (out / TASK_DIR / TRIAL / "pddl_states").is_dir()
    assert [p.name for p in out.iterdir()] == [TASK_DIR]  # no temporary directory left


def test_an_existing_trial_is_left_alone(tmp_path: Path) -> None:
    _made_trial(tmp_path / "scratch")
    packed = pack_trial(tmp_path / "scratch", TRIAL)
    assert packed is not None
    out = tmp_path / "out"
    (out / TASK_DIR / TRIAL).mkdir(parents=True)
    (out / TASK_DIR / TRIAL / "traj_data.json").write_text("mine")
    assert not commit_trial(out, packed)
    assert (out / TASK_DIR / TRIAL / "traj_data.json").read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == [TASK_DIR]


def test_no_trial_written_is_none(tmp_path: Path) -> None:
    assert pack_trial(tmp_path, TRIAL) is None


@pytest.mark.parametrize("task_dir, trial, entry", [
    ("..", TRIAL, "traj_data.json"),
    (TASK_DIR, "../escape", "traj_data.json"),
    (TASK_DIR, TRIAL, "../../escape.json"),
    (TASK_DIR, TRIAL, "/etc/escape.json"),
])
def test_a_packed_trial_cannot_write_outside_its_directory(tmp_path: Path, task_dir: str, trial: str,
                                                           entry: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ValueError):
        commit_trial(out, PackedTrial(task_dir, trial, ((entry, b"x"),)))
    assert not list(tmp_path.rglob("escape*")) and not list(out.iterdir())
