"""`alfred-gen validate`: one line per bad file, a summary, the right exit code, never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import save_trajectory, serialize_trajectory
from alfred_gen.traj.validate import validate_paths
from tests.helpers.trajectories import make_trajectory


def _console_script() -> str:
    """The installed `alfred-gen` of the interpreter running the tests."""
    beside = Path(sys.executable).parent / "alfred-gen"
    found = str(beside) if beside.exists() else shutil.which("alfred-gen")
    if not found:
        pytest.fail("the alfred-gen console script is not installed (pip install -e '.[test]')")
    return found


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_console_script(), *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120
    )


def _validate(*paths) -> tuple[int, list[str]]:
    lines: list[str] = []
    code = validate_paths(paths, echo=lines.append)
    return code, lines


@pytest.fixture()
def tree(tmp_path):
    """good/ with two valid files, bad/ with a truncated, a garbage and a schema-invalid file."""
    payload = serialize_trajectory(make_trajectory())
    for trial in ("trial_b", "trial_a"):
        (tmp_path / "good" / "task" / trial).mkdir(parents=True)
        save_trajectory(make_trajectory(), tmp_path / "good" / "task" / trial / "traj_data.json")
    bad = tmp_path / "bad"
    for name in ("t1", "t2", "t3"):
        (bad / name).mkdir(parents=True)
    (bad / "t1" / "traj_data.json").write_bytes(payload[: len(payload) // 3])
    (bad / "t2" / "traj_data.json").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00garbage")
    schema_bad = make_trajectory()
    del schema_bad["plan"]["low_actions"][1]["api_action"]
    (bad / "t3" / "traj_data.json").write_text(json.dumps(schema_bad))
    return tmp_path


def test_all_valid(tree):
    code, lines = _validate(tree / "good")
    assert code == ExitCode.OK
    assert lines == ["2 valid, 0 invalid"]


def test_invalid_files_one_line_each_in_sorted_order(tree):
    code, lines = _validate(tree)
    assert code == ExitCode.FAILED
    bad = tree / "bad"
    assert len(lines) == 4
    assert lines[0].startswith(f"{bad / 't1' / 'traj_data.json'}: not valid JSON (line ")
    assert lines[1].startswith(f"{bad / 't2' / 'traj_data.json'}: not valid JSON")
    assert lines[2] == (
        f"{bad / 't3' / 'traj_data.json'}: $.plan.low_actions[1].api_action: required key is missing"
    )
    assert lines[3] == "2 valid, 3 invalid"


def test_explicit_file_with_any_name_and_duplicates_counted_once(tree):
    single = tree / "copy.json"
    single.write_bytes((tree / "bad" / "t2" / "traj_data.json").read_bytes())
    good = tree / "good" / "task" / "trial_a" / "traj_data.json"
    code, lines = _validate(single, good, tree / "good", good)
    assert code == ExitCode.FAILED
    assert lines[0].startswith(f"{single}: not valid JSON")
    assert lines[-1] == "2 valid, 1 invalid"


def test_missing_path_is_reported_and_others_still_checked(tree):
    lines: list[str] = []
    with pytest.raises(UserError) as caught:
        validate_paths([tree / "nowhere", tree / "good"], echo=lines.append)
    assert caught.value.code == ExitCode.NOT_FOUND and str(caught.value).endswith("nowhere: no such file or directory")
    assert lines == [
        f"{tree / 'nowhere'}: no such file or directory",
        "2 valid, 0 invalid, 1 path with no traj_data.json",
    ]


def test_directory_without_trajectories(tmp_path):
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    (tmp_path / "empty" / "sub" / "other.json").write_text("{}")
    lines: list[str] = []
    with pytest.raises(UserError) as caught:
        validate_paths([tmp_path / "empty"], echo=lines.append)
    assert caught.value.code == ExitCode.NOT_FOUND and "no traj_data.json found" in str(caught.value)
    assert lines == [
        f"{tmp_path / 'empty'}: no traj_data.json found under this directory",
        "0 valid, 0 invalid, 1 path with no traj_data.json",
    ]


def test_no_paths_is_a_usage_error():
    with pytest.raises(UserError) as excinfo:
        validate_paths([], echo=lambda line: None)
    assert excinfo.value.code == ExitCode.USAGE


# ------------------------------------------------------------------ the real console script


def test_console_script_on_bad_files_no_traceback(tree, tmp_path):
    result = run_cli("validate", tree / "bad", tree / "missing", cwd=tmp_path)
    assert result.returncode == ExitCode.NOT_FOUND
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "missing: no such file or directory" in result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 5  # missing path, three bad files, summary
    assert lines[0].endswith("missing: no such file or directory")
    assert "not valid JSON" in lines[1] and "not valid JSON" in lines[2]
    assert lines[-1] == "0 valid, 3 invalid, 1 path with no traj_data.json"


def test_console_script_on_a_truncated_file(tree, tmp_path):
    truncated = tree / "bad" / "t1" / "traj_data.json"
    result = run_cli("validate", truncated, cwd=tmp_path)
    assert result.returncode != 0
    assert "Traceback" not in result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{truncated}: not valid JSON (line ")
    assert lines[1] == "0 valid, 1 invalid"


@pytest.mark.slow  # fast lane: 17 s on a loaded 2-core machine (session 73 --durations)
def test_console_script_accepts_all_released_files(alfred_data, released_trajectory_files, tmp_path):
    result = run_cli("validate", alfred_data / "json_2.1.0", cwd=tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{len(released_trajectory_files)} valid, 0 invalid"]
    assert result.returncode == ExitCode.OK
