"""`alfred-gen eqa` on the command line: bad input is one line and a documented exit code."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from alfred_gen.eqa.homes import parse_homes
from alfred_gen.eqa.paths import PathOptions, accepted_single_target, parse_splits
from alfred_gen.eqa.questions import QuestionOptions
from alfred_gen.errors import ExitCode, UserError

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    script = Path(sys.executable).parent / "alfred-gen"
    return subprocess.run([str(script), *args], capture_output=True, text=True, cwd=cwd, timeout=300)


@pytest.mark.parametrize(("args", "code", "words"), [
    (["eqa", "questions", "--out", "{tmp}/q"], ExitCode.USAGE, "name the homes"),
    (["eqa", "questions", "--houses", "1-2", "--templates", "colour", "--out", "{tmp}/q"], ExitCode.USAGE,
     "unknown template"),
    (["eqa", "questions", "--houses", "100000", "--out", "{tmp}/q"], ExitCode.NOT_FOUND, "100000"),
    (["eqa", "questions", "--rooms", "31", "--out", "{tmp}/q"], ExitCode.NOT_FOUND, "31"),
    (["eqa", "questions", "--houses", "2", "--backend", "thor", "--out", "{tmp}/q"], ExitCode.USAGE, "lite backend"),
    (["eqa", "questions", "--houses", "2", "--min-entropy", "1.5", "--out", "{tmp}/q"], ExitCode.USAGE,
     "--min-entropy"),
    (["eqa", "stats", "{tmp}/missing"], ExitCode.NOT_FOUND, "no such file"),
    (["eqa", "stats", "{tmp}/garbage"], ExitCode.BAD_INPUT, "not readable JSON"),
    (["eqa", "paths", "{tmp}/missing"], ExitCode.NOT_FOUND, "no such file"),
    (["eqa", "paths", "{tmp}/garbage", "--no-frames", "--depth"], ExitCode.USAGE, "--depth"),
    (["eqa", "paths", "{tmp}/garbage", "--split", "tst"], ExitCode.USAGE, "--split"),
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
    with pytest.raises(UserError):
        QuestionOptions(("LiteHouse1",), backend="thor")  # houses are lite's: refused before THOR starts
    assert parse_splits(None) == ("train", "val", "test") and parse_splits("test, val,test") == ("test", "val")


def test_paths_take_the_accepted_single_target_questions_of_the_splits_asked() -> None:
    def question(home: str, template: str, split: str, accepted: bool = True) -> dict:
        return {"home": home, "template": template, "question": f"{template} in {home}?", "split": split,
                "accepted": accepted, "targets": [{"objectId": "Sofa|1"}]}
    data = {"questions": [question("H1", "color", "train"), question("H2", "color", "test"),
                          question("H2", "location", "test", accepted=False), question("H3", "existence", "test"),
                          question("H4", "preposition", "val")],
            "answer_counts": {"color": {"color in H2?": {"red": 3, "blue": 2}}}}
    assert [q["home"] for q, _ in accepted_single_target(data)] == ["H1", "H2", "H4"]
    chosen = accepted_single_target(data, ("test",))
    assert [(q["home"], answers) for q, answers in chosen] == [("H2", {"red": 3, "blue": 2})]


def _interrupt_after_first_home(args: list[str], facts: Path) -> subprocess.CompletedProcess:
    """Run the CLI and press Ctrl-C once the first home's facts are on disk (the run must have homes
    enough left to still be working then, even on a loaded machine: a home of facts takes about
    0.5 s). The child takes Ctrl-C as a terminal gives it even when pytest runs in the background,
    where SIGINT is ignored and children inherit that."""
    script = Path(sys.executable).parent / "alfred-gen"
    process = subprocess.Popen([str(script), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline and not any(facts.glob("*.json")):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def test_a_single_room_run_from_the_command_line_interrupted_and_resumed(tmp_path: Path) -> None:
    out = tmp_path / "rooms"
    args = ["eqa", "questions", "--rooms", "1-12", "--min-homes", "2", "--out", str(out)]
    stopped = _interrupt_after_first_home(args, out / "facts")
    assert stopped.returncode == ExitCode.INTERRUPTED, stopped.stderr
    assert "Traceback" not in stopped.stderr and stopped.stderr.strip().splitlines() == ["alfred-gen: interrupted"]
    assert not (out / "questions.json").exists()
    kept = sorted((out / "facts").iterdir())
    assert kept and [p.suffix for p in kept] == [".json"] * len(kept)  # no temporary file left behind
    for path in kept:
        json.loads(path.read_text())  # each one whole
    written = {p.name: p.stat().st_mtime_ns for p in kept}
    result = run_cli(*args)
    assert result.returncode == ExitCode.OK, result.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (out / "facts").iterdir() if p.name in written} == written
    fresh = tmp_path / "fresh"
    assert run_cli("eqa", "questions", "--rooms", "1-12", "--min-homes", "2", "--out", str(fresh)).returncode == 0
    assert (fresh / "questions.json").read_bytes() == (out / "questions.json").read_bytes()
    data = json.loads((out / "questions.json").read_text())
    assert {q["template"] for q in data["questions"]} <= {"location", "color"}
    assert {q["answer"] for q in data["questions"] if q["template"] == "location"} == {"kitchen"}
    assert not any(q["accepted"] for q in data["questions"] if q["template"] == "location")  # one answer: H = 0
    assert "12 homes" in result.stdout
    every = tmp_path / "every"  # --all-questions reaches the run: the file keeps its old settings
    every.mkdir()
    (every / "facts").symlink_to(out / "facts")
    assert run_cli("eqa", "questions", "--rooms", "1-12", "--min-homes", "2", "--all-questions",
                   "--out", str(every)).returncode == 0
    assert data["settings"]["sampling"] == "paper"
    assert "sampling" not in json.loads((every / "questions.json").read_text())["settings"]
    stats = run_cli("eqa", "stats", str(out), "--no-charts")
    assert stats.returncode == ExitCode.OK and "EQA v1" in stats.stdout
