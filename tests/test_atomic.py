"""Atomic writes as a user sees them: the umask's mode, the user's path in errors, special files left alone.

Issue 61: MP4s came out 0600 (mkstemp's mode), an error named ``.failures.json.m2tnqkeg.tmp``
instead of ``failures.json``, and ``--out /dev/null`` on a file output renamed a regular file over
the device (as root). A FIFO stands in for the device here: the same kind of non-regular file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.atomic import AlreadyCommitted, committing_dir, make_temp_dir, replacing, staged_trial, write_text
from alfred_gen.errors import ExitCode


@pytest.fixture
def umask_027() -> Iterator[None]:
    """Run under umask 027 (neither the 022 default nor mkstemp's 077), then restore it."""
    from alfred_gen import atomic

    old = os.umask(0o027)
    atomic._umask.cache_clear()
    atomic._default_file_mode.cache_clear()
    yield
    os.umask(old)
    atomic._umask.cache_clear()
    atomic._default_file_mode.cache_clear()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, umask_027: None) -> None:
    write_text(tmp_path / "a.json", "{}")
    assert mode(tmp_path / "a.json") == 0o640


def test_a_file_written_through_a_temporary_name_gets_the_umasks_mode(tmp_path: Path, umask_027: None) -> None:
    with replacing(tmp_path / "v.mp4", suffix=".mp4") as temp:
        temp.write_bytes(b"x")
    assert (tmp_path / "v.mp4").read_bytes() == b"x"
    assert mode(tmp_path / "v.mp4") == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["v.mp4"]


def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "v.mp4"
    target.write_bytes(b"old")
    target.chmod(0o604)
    with replacing(target) as temp:
        temp.write_bytes(b"new")
    assert target.read_bytes() == b"new" and mode(target) == 0o604


def test_a_failed_block_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "v.mp4"
    target.write_bytes(b"old")
    with pytest.raises(ValueError), replacing(target) as temp:
        temp.write_bytes(b"half")
        raise ValueError("encoder failed")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["v.mp4"]


def test_a_staging_directory_gets_the_umasks_mode(tmp_path: Path, umask_027: None) -> None:
    made = make_temp_dir(tmp_path / "new", ".site.building-")
    assert made.parent == tmp_path / "new" and mode(made) == 0o750


def test_a_directory_in_the_way_is_named_not_the_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "failures.json").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        write_text(tmp_path / "failures.json", "{}")
    assert caught.value.filename == str(tmp_path / "failures.json")
    assert ".tmp" not in str(caught.value)
    assert [p.name for p in tmp_path.iterdir()] == ["failures.json"]


@pytest.mark.parametrize("via", ["write_text", "replacing"])
def test_a_special_file_is_refused_not_replaced(tmp_path: Path, via: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        if via == "write_text":
            write_text(fifo, "{}")
        else:
            with replacing(fifo):
                pass
    assert caught.value.filename == str(fifo) and "regular file" in str(caught.value)
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_the_cli_refuses_a_special_file_as_an_output_file(tmp_path: Path, cli_in_process) -> None:
    fifo = tmp_path / "map.png"
    os.mkfifo(fifo)
    result = cli_in_process("scenes", "show", "1", "--out", str(fifo))
    assert result.returncode == ExitCode.BAD_INPUT
    assert result.stderr.count("\n") == 1 and str(fifo) in result.stderr and "Traceback" not in result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_an_mp4_gets_the_umasks_mode(tmp_path: Path, umask_027: None) -> None:
    pytest.importorskip("av")
    from alfred_gen.export.mp4 import write_mp4

    frames = [np.full((16, 16, 3), value, dtype=np.uint8) for value in (0, 128, 255)]
    assert write_mp4(frames, tmp_path / "clip.mp4", fps=5) == 3
    assert mode(tmp_path / "clip.mp4") == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["clip.mp4"]


def _tree(root: Path) -> dict[str, bytes | None]:
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def test_a_directory_appears_whole_at_its_commit_or_not_at_all(tmp_path: Path) -> None:
    final = tmp_path / "pick_and_place_simple-Apple-None-Fridge-1" / "trial_T1"
    (tmp_path / ".tmp-trial_T1-pick_and_place_simple-Apple-None-Fridge-1" / "stale").mkdir(parents=True)  # killed run
    with pytest.raises(KeyboardInterrupt), committing_dir(final) as temp:
        (temp / "raw_images").mkdir()
        assert not final.exists()
        raise KeyboardInterrupt
    assert _tree(tmp_path) == {}  # neither the trial, nor its staging, nor what the killed run left
    with committing_dir(final) as temp:
        assert staged_trial(temp.name) == "trial_T1" and temp.parent == tmp_path and not any(temp.iterdir())
        (temp / "traj_data.json").write_text("{}")
    assert _tree(tmp_path) == {final.parent.name: None, f"{final.parent.name}/trial_T1": None,
                               f"{final.parent.name}/trial_T1/traj_data.json": b"{}"}
    with pytest.raises(AlreadyCommitted), committing_dir(final) as temp:
        (temp / "traj_data.json").write_text("[]")  # another run made the trial first: it stays as it was
    assert (final / "traj_data.json").read_text() == "{}" and len(list(tmp_path.iterdir())) == 1
    with committing_dir(final, replace=True) as temp:
        (temp / "other.json").write_text("[]")
    assert sorted(p.name for p in final.iterdir()) == ["other.json"]


@pytest.mark.parametrize(("name", "trial"), [
    (".tmp-trial_T1-pick_and_place_simple-Apple-None-Fridge-1", "trial_T1"),
    (".tmp-trial_T1", "trial_T1"),  # an older run's staging directory: still its trial's
    (".tmp-", None), ("trial_T1", None), (".tmp", None),
])
def test_a_staging_directory_names_its_trial(name: str, trial: str | None) -> None:
    assert staged_trial(name) == trial
