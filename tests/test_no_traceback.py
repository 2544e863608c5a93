"""No traceback on any input: every bad input is one line on stderr and a documented exit code.

The inputs a hostile user tried (issue 17) one by one, then fuzzing: a real trajectory mutated at
random (numbers no field can hold, other values in any place, keys removed, the file cut short)
goes through `validate`, `verify` and `replay`, which must agree on what is a bad file and never
print a traceback.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alfred_gen.cli import main
from alfred_gen.errors import EXIT_CODE_MEANINGS, ExitCode
from tests.helpers import replay_scripts

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

PLAN = ["plan", "--scene", "1", "--seed", "3", "--task", "pick_heat_then_place_in_recep", "--object", "Apple",
        "--receptacle", "CounterTop"]
GENERATE = ["generate", *PLAN[1:]]


@pytest.fixture(scope="module")
def real_trial(tmp_path_factory) -> Path:
    """One trajectory made by the real generator (frames on, so replay has something to write)."""
    trial, tried = replay_scripts.generate_example("pick_heat_then_place_in_recep",
                                                   tmp_path_factory.mktemp("gen"), frames=True)
    assert trial is not None, tried
    return trial


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    captured = capsys.readouterr()
    return int(stop.value.code or 0), captured.out, captured.err


def one_line(err: str) -> str:
    """The stderr of a failed command: exactly one line, no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def put(root: Path, name: str, data: Any = None, text: str | None = None) -> Path:
    path = root / "task" / name / "traj_data.json"
    path.parent.mkdir(parents=True)
    path.write_text(text if text is not None else json.dumps(data, indent=4, sort_keys=True))
    return path


def with_literal(data: dict, path: list, literal: str) -> str:
    """``data`` as JSON text with the value at ``path`` replaced by a raw number literal (one that
    no Python value dumps as: 1e400, a 5000-digit integer)."""
    marked = copy.deepcopy(data)
    holder = marked
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = "@@LITERAL@@"
    return json.dumps(marked, indent=4, sort_keys=True).replace('"@@LITERAL@@"', literal)


@pytest.fixture()
def traj(real_trial: Path) -> dict:
    return json.loads((real_trial / "traj_data.json").read_text())


# --------------------------------------------------------------------------------------------
# The inputs of the issue, one by one


def test_a_huge_pose_is_refused_by_the_schema_so_validate_verify_and_replay_agree(tmp_path, traj, capsys) -> None:
    bad = copy.deepcopy(traj)
    bad["scene"]["init_action"]["x"] = 1e308
    path = put(tmp_path, "trial_pose", bad)
    code, out, err = run(["validate", str(path)], capsys)
    assert code == ExitCode.FAILED and "$.scene.init_action.x" in out and not err
    code, out, err = run(["verify", str(path)], capsys)
    assert code == ExitCode.FAILED and "bad_file: $.scene.init_action.x" in out and "Traceback" not in err
    code, out, err = run(["replay", str(path), "--out", str(tmp_path / "frames")], capsys)
    assert code == ExitCode.BAD_INPUT and "$.scene.init_action.x" in one_line(err)


@pytest.mark.parametrize("literal, words", [
    ("9" * 5000, "number 999999999999...(5000 digits) is out of range"),
    ("-" + "9" * 30, "number -99999999999...(30 digits) is out of range"),
    ("1e400", "number 1e400 is out of range"),
    ("-1e400", "number -1e400 is out of range"),
])
def test_numbers_no_field_can_hold_are_named_by_json_path(tmp_path, traj, capsys, literal: str, words: str) -> None:
    bad = put(tmp_path, "trial_bad", text=with_literal(traj, ["scene", "random_seed"], literal))
    good = put(tmp_path, "trial_good", traj)
    code, out, err = run(["validate", str(tmp_path)], capsys)
    assert code == ExitCode.FAILED and not err
    assert f"{bad}: $.scene.random_seed: {words}" in out
    assert out.strip().splitlines()[-1] == "1 valid, 1 invalid"  # the other file was checked
    code, out, err = run(["verify", str(tmp_path)], capsys)
    assert code == ExitCode.FAILED and "bad_file: $.scene.random_seed" in out and "1 ok, 1 failed" in out
    assert str(good) not in out
    code, out, err = run(["replay", str(bad), "--out", str(tmp_path / "frames")], capsys)
    assert code == ExitCode.BAD_INPUT and "$.scene.random_seed" in one_line(err)


@pytest.mark.parametrize("change, where", [
    (lambda t: t["images"][-1].update(low_idx=len(t["plan"]["low_actions"])), "$.images["),
    (lambda t: t["plan"]["low_actions"][0].update(high_idx=99), "$.plan.low_actions[0].high_idx"),
    (lambda t: t["plan"]["low_actions"][0]["api_action"].update(action="FlyAway"), "$.plan.low_actions[0].api_action"),
    (lambda t: t["scene"]["object_poses"][0]["position"].update(y=-5e6), "$.scene.object_poses[0].position.y"),
    (lambda t: t["scene"].update(scene_num=10**9), "$.scene.scene_num"),
])
def test_validate_refuses_what_verify_refuses(tmp_path, traj, capsys, change, where: str) -> None:
    bad = copy.deepcopy(traj)
    change(bad)
    path = put(tmp_path, "trial_x", bad)
    code, out, _ = run(["validate", str(path)], capsys)
    assert code == ExitCode.FAILED and where in out
    code, out, _ = run(["verify", str(path)], capsys)
    assert code == ExitCode.FAILED and f"bad_file: {where}" in out


def test_hidden_directories_are_not_trajectories_and_a_trial_without_its_file_is_reported(tmp_path, traj,
                                                                                          capsys) -> None:
    put(tmp_path, "trial_good", traj)
    temp = tmp_path / ".tmp-trial_T1"  # left by a killed run
    temp.mkdir()
    (temp / "traj_data.json").write_text(json.dumps(traj))
    frames_only = tmp_path / "task" / "trial_frames_only" / "raw_images"
    frames_only.mkdir(parents=True)
    code, out, _ = run(["validate", str(tmp_path)], capsys)
    assert code == ExitCode.FAILED
    assert f"{frames_only.parent}: trial directory without traj_data.json" in out
    assert out.strip().splitlines()[-1] == "1 valid, 0 invalid, 1 path with no traj_data.json"
    code, out, _ = run(["verify", str(tmp_path)], capsys)
    assert code == ExitCode.FAILED and "1 ok, 0 failed" in out and "1 trial directory without traj_data.json" in out
    shutil.rmtree(frames_only.parent)
    assert run(["validate", str(tmp_path)], capsys)[0] == ExitCode.OK
    assert run(["verify", str(tmp_path)], capsys)[0] == ExitCode.OK


def _a_file(tmp_path: Path) -> Path:
    (tmp_path / "afile").write_text("not a directory")
    return tmp_path / "afile"


@pytest.mark.parametrize("argv", [
    lambda t, trial: ["sample", "--n", "1", "--scenes", "1", "--out", f"{_a_file(t)}/sub"],
    lambda t, trial: ["replay", str(trial), "--out", f"{_a_file(t)}/x"],
    lambda t, trial: [*PLAN, "--pddl-out", f"{_a_file(t)}/p.pddl"],
    lambda t, trial: ["stats", str(trial.parent.parent), "--charts", f"{_a_file(t)}/c"],
    lambda t, trial: [*GENERATE, "--out", f"{_a_file(t)}/g"],
    lambda t, trial: ["scenes", "show", "1", "--out", f"{_a_file(t)}/map.png"],
])
def test_an_output_path_through_a_file_is_one_line_and_exit_3(tmp_path, real_trial, capsys, argv) -> None:
    code, _, err = run(argv(tmp_path, real_trial), capsys)
    assert code == ExitCode.BAD_INPUT
    assert "afile" in one_line(err)
    assert (tmp_path / "afile").read_text() == "not a directory"


def _immutable(path: Path) -> None:
    if shutil.which("chattr") is None:
        pytest.skip("no chattr here")
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot make a directory immutable here: {done.stderr.decode().strip()}")


def _mutable(path: Path) -> None:
    subprocess.run(["chattr", "-i", str(path)], capture_output=True)


@pytest.mark.parametrize("what", ["empty output", "finished tree", "charts", "replay frames"])
def test_a_read_only_output_is_one_line_and_exit_3(tmp_path, real_trial, capsys, what: str) -> None:
    """An immutable directory (chattr +i): read-only even for root, which ignores permission bits."""
    if what == "finished tree":
        out = tmp_path / "tree"
        from alfred_gen.sample.options import SampleOptions
        from alfred_gen.sample.run import run_sample
        from tests.helpers.sample_runs import stand_in_generate

        assert run_sample(SampleOptions(n=2, out=out, scenes=(1,)), generate=stand_in_generate).made == 2
        locked, argv = out / ".alfred-gen", ["sample", "--n", "2", "--scenes", "1", "--out", str(out)]
    elif what == "empty output":
        locked = tmp_path / "ro"
        locked.mkdir()
        argv = ["sample", "--n", "1", "--scenes", "1", "--out", str(locked)]
    elif what == "charts":
        locked = tmp_path / "ro"
        locked.mkdir()
        argv = ["stats", str(real_trial.parent.parent), "--charts", str(locked)]
    else:
        copy_of = tmp_path / "trial"
        shutil.copytree(real_trial, copy_of)
        locked, argv = copy_of, ["replay", str(copy_of)]
    for lock in locked.glob("lock-*"):
        lock.unlink()  # the lock file too: nothing in the directory may be written
    _immutable(locked)
    try:
        code, _, err = run(argv, capsys)
    finally:
        _mutable(locked)
    assert code == ExitCode.BAD_INPUT
    line = one_line(err)
    assert "Operation not permitted" in line or "read-only" in line or "Permission denied" in line


@pytest.mark.parametrize("argv", [
    ["sample", "--n", "1", "--out", ""],
    ["replay", "x.json", "--out", " "],
    [*GENERATE, "--out", ""],
    [*PLAN, "--pddl-out", ""],
    ["stats", ".", "--charts", ""],
    ["scenes", "show", "1", "--out", ""],
    [*PLAN, "--time-limit", "nan"],
    [*PLAN, "--time-limit", "-1"],
    [*PLAN, "--time-limit", "inf"],
    [*GENERATE, "--out", "somewhere", "--time-limit", "nan"],
    ["scenes", "show", "1", "--out", "m.png", "--pose", "1e308,0,0,0"],
])
def test_impossible_option_values_are_usage_errors(tmp_path, capsys, monkeypatch, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run(argv, capsys)
    assert code == ExitCode.USAGE
    assert "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing was written anywhere


def test_the_busy_code_is_documented() -> None:
    assert ExitCode.BUSY in EXIT_CODE_MEANINGS
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for code in ExitCode:
        assert f"| {int(code)} | {EXIT_CODE_MEANINGS[code]} |" in readme, code


# --------------------------------------------------------------------------------------------
# Fuzzing


def _leaves(data: Any, path: list) -> list[tuple[list, Any]]:
    found = [(path, data)]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(_leaves(value, path + [key]))
    elif isinstance(data, list):
        for index, value in enumerate(data[:4]):  # a few items of each list (masks are long)
            found.extend(_leaves(value, path + [index]))
    return found


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
LITERALS = st.sampled_from(["9" * 5000, "-" + "9" * 25, "1e400", "-1e400", "1e308", "-1e308", "1e-400", "-0",
                            "1e6", "-1", "0.5", "123456789012345678"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_trajectories_never_give_a_traceback_and_validate_agrees_with_verify(tmp_path_factory, traj,
                                                                                    capsys, data) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    leaves = _leaves(traj, [])
    kind = data.draw(st.sampled_from(["number", "value", "delete", "truncate"]))
    if kind == "truncate":
        text = json.dumps(traj, indent=4, sort_keys=True)
        text = text[: data.draw(st.integers(0, len(text) - 1))]
    else:
        path, _ = data.draw(st.sampled_from([(p, v) for p, v in leaves if p]))
        if kind == "number":
            text = with_literal(traj, path, data.draw(LITERALS))
        else:
            changed = copy.deepcopy(traj)
            holder = changed
            for key in path[:-1]:
                holder = holder[key]
            if kind == "delete":
                del holder[path[-1]]
            else:
                holder[path[-1]] = data.draw(JSON_VALUES)
            text = json.dumps(changed, indent=4, sort_keys=True)
    file = put(root, "trial_fuzz", text=text)
    v_code, v_out, v_err = run(["validate", str(file)], capsys)
    assert v_code in (ExitCode.OK, ExitCode.FAILED) and not v_err
    valid = v_code == ExitCode.OK
    f_code, f_out, f_err = run(["verify", str(file)], capsys)
    assert f_code in (ExitCode.OK, ExitCode.FAILED) and "Traceback" not in f_err
    reason = f_out.split(": ")[1] if f_code == ExitCode.FAILED else "ok"
    if valid:
        assert reason not in ("bad_file", "unknown_action", "simulator_error"), f_out
    else:
        assert reason == "bad_file", (v_out, f_out)
    r_code, _, r_err = run(["replay", str(file), "--out", str(root / "frames")], capsys)
    assert r_code in (ExitCode.OK, ExitCode.FAILED, ExitCode.BAD_INPUT, ExitCode.NOT_FOUND), r_err
    assert "Traceback" not in r_err and len(r_err.strip().splitlines()) <= 1, r_err
