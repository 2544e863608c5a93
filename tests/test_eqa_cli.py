"""`alfred-gen eqa` on the command line: bad input is one line and a documented exit code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.eqa.homes import parse_homes
from alfred_gen.eqa.paths import PathOptions
from alfred_gen.eqa.questions import QuestionOptions
from alfred_gen.errors import UserError


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).parent / "alfred-gen"
    return subprocess.run([str(script), *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize(("args", "code", "words"), [
    (["eqa", "questions", "--out", "{tmp}/q"], ExitCode.USAGE, "name the homes"),
    (["eqa", "questions", "--houses", "1-2", "--templates", "colour", "--out", "{tmp}/q"], ExitCode.USAGE,
     "unknown template"),
    (["eqa", "questions", "--houses", "1000", "--out", "{tmp}/q"], ExitCode.NOT_FOUND, "1000"),
    (["eqa", "questions", "--rooms", "31", "--out", "{tmp}/q"], ExitCode.NOT_FOUND, "31"),
    (["eqa", "questions", "--houses", "2", "--backend", "thor", "--out", "{tmp}/q"], ExitCode.USAGE, "lite backend"),
    (["eqa", "questions", "--houses", "2", "--min-entropy", "1.5", "--out", "{tmp}/q"], ExitCode.USAGE,
     "--min-entropy"),
    (["eqa", "stats", "{tmp}/missing"], ExitCode.NOT_FOUND, "no such file"),
    (["eqa", "stats", "{tmp}/garbage"], ExitCode.BAD_INPUT, "not readable JSON"),
    (["eqa", "paths", "{tmp}/missing"], ExitCode.NOT_FOUND, "no such file"),
    (["eqa", "paths", "{tmp}/garbage", "--no-frames", "--depth"], ExitCode.USAGE, "--depth"),
])
def test_bad_input_is_one_line_and_its_code(tmp_path: Path, args: list[str], code: ExitCode, words: str) -> None:
    (tmp_path / "garbage").mkdir()
    (tmp_path / "garbage" / "questions.json").write_text("{not json")
    result = run_cli(*[a.format(tmp=tmp_path) for a in args])
    assert result.returncode == code, result.stderr
    assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_homes_and_options() -> None:
    assert parse_homes("3,1-2", "201,LitePlan5") == ["LiteHouse1", "LiteHouse2", "LiteHouse3", "LitePlan201",
                                                      "LitePlan5"]
    assert parse_homes(None, "FloorPlan7") == ["FloorPlan7"]
    with pytest.raises(UserError):
        QuestionOptions(("LiteHouse1",), limit=0)
    with pytest.raises(UserError):
        PathOptions(min_spawn_distance=-1.0)


def test_a_single_room_run_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "rooms"
    result = run_cli("eqa", "questions", "--rooms", "1-4", "--min-homes", "2", "--out", str(out))
    assert result.returncode == ExitCode.OK, result.stderr
    data = json.loads((out / "questions.json").read_text())
    assert {q["template"] for q in data["questions"]} <= {"location", "color"}
    assert {q["answer"] for q in data["questions"] if q["template"] == "location"} == {"kitchen"}
    assert not any(q["accepted"] for q in data["questions"] if q["template"] == "location")  # one answer: H = 0
    assert "4 homes" in result.stdout
    stats = run_cli("eqa", "stats", str(out), "--no-charts")
    assert stats.returncode == ExitCode.OK and "EQA v1" in stats.stdout
