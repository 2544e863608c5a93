"""One exit code per kind of bad input, the same in every command (README "Exit codes").

Every command that reads an input is run on a missing path and on an empty directory (4); every
command that writes is given an output it cannot write: a file where its directory goes, a
directory where its file goes, ``/dev/null`` where a directory goes (3); every command that takes
a scene or house range gets a malformed one, a reversed one (2) and one naming rooms that do not
exist (4); the commands with an optional package run without it (11). Each time stderr must be one
line and no traceback. Issue 61 found a missing input to be 4, 3 or 1 by command, an empty one 4 or
1, ``--out FILE`` 2 but ``--out /dev/null`` 3, ``--scenes 1-`` 4 but ``30-1`` 2, a missing PyAV 7.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.traj.format import save_trajectory
from tests.helpers import python_env
from tests.helpers.trajectories import make_trajectory

PLAN = ["--scene", "1", "--seed", "3", "--task", "pick_heat_then_place_in_recep", "--object", "Apple",
        "--receptacle", "CounterTop"]

#: Commands that read a path: the command line with {IN} for it (and {OUT} for a fresh output).
READERS = {
    "validate": ["validate", "{IN}"],
    "replay": ["replay", "{IN}"],
    "verify": ["verify", "{IN}"],
    "stats": ["stats", "{IN}"],
    "video": ["video", "{IN}", "--out", "{OUT}"],
    "view": ["view", "{IN}", "--out", "{OUT}"],
    "derive": ["derive", "nav-only", "{IN}", "--out", "{OUT}"],
    "perturb": ["perturb", "e1", "{IN}", "--out", "{OUT}"],
    "export alfworld": ["export", "alfworld", "{IN}", "--out", "{OUT}"],
    "export alfworld-check": ["export", "alfworld-check", "{IN}"],
    "actthor contrast": ["actthor", "contrast", "{IN}"],
    "actthor stats": ["actthor", "stats", "{IN}"],
    "actthor sheets": ["actthor", "sheets", "{IN}", "--out", "{OUT}"],
    "eval actthor": ["eval", "actthor", "{IN}", "--agent", "oracle", "--out", "{OUT}.json"],
    "eqa stats": ["eqa", "stats", "{IN}"],
    "eqa paths": ["eqa", "paths", "{IN}"],
    "scenes import-alfred": ["scenes", "import-alfred", "{IN}", "--out", "{OUT}.json"],
}

#: Commands that write a directory: the command line with {OUT} for it ({TRAJ}: a valid trajectory).
DIRECTORY_WRITERS = {
    "replay": ["replay", "{TRAJ}", "--out", "{OUT}"],
    "stats": ["stats", "{DATA}", "--charts", "{OUT}"],
    "view": ["view", "{DATA}", "--out", "{OUT}"],
    "derive": ["derive", "nav-only", "{TRAJ}", "--out", "{OUT}"],
    "perturb": ["perturb", "e1", "{TRAJ}", "--out", "{OUT}"],
    "export alfworld": ["export", "alfworld", "{TRAJ}", "--out", "{OUT}"],
    "actthor triples": ["actthor", "triples", "--scenes", "1", "--out", "{OUT}"],
    "eqa questions": ["eqa", "questions", "--houses", "1", "--out", "{OUT}"],
    "generate": ["generate", *PLAN, "--out", "{OUT}"],
    "sample": ["sample", "--n", "1", "--out", "{OUT}"],
}

#: Commands that write one file: the command line with {OUT} for it.
FILE_WRITERS = {
    "scenes show": ["scenes", "show", "1", "--out", "{OUT}"],
    "plan --pddl-out": ["plan", *PLAN, "--pddl-out", "{OUT}"],
    "scenes import-alfred": ["scenes", "import-alfred", "{DATA}", "--out", "{OUT}"],
}

#: Commands that take a range of rooms or houses: the command line with {RANGE}.
RANGED = {
    "sample --scenes": ["sample", "--n", "1", "--out", "{OUT}", "--scenes", "{RANGE}"],
    "actthor triples --scenes": ["actthor", "triples", "--scenes", "{RANGE}", "--out", "{OUT}"],
    "scenes list --range": ["scenes", "list", "--houses", "--range", "{RANGE}"],
    "eqa questions --houses": ["eqa", "questions", "--houses", "{RANGE}", "--out", "{OUT}"],
}
#: A range per kind, per command family (rooms or houses), with the code every command gives it.
RANGES = {
    "malformed": ({"rooms": "1-", "houses": "1-"}, ExitCode.USAGE),
    "reversed": ({"rooms": "30-1", "houses": "30-1"}, ExitCode.USAGE),
    "nowhere": ({"rooms": "431-440", "houses": "100000-100001"}, ExitCode.NOT_FOUND),
}
def fill(argv: list[str], **values: str) -> list[str]:
    filled = []
    for word in argv:
        for key, value in values.items():
            word = word.replace("{" + key + "}", value)
        filled.append(word)
    return filled


def one_line_error(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A directory holding one valid (hand-made) trajectory."""
    save_trajectory(make_trajectory(), tmp_path / "data" / "pick_and_place_simple-Apple-None-CounterTop-1"
                    / "trial_T20240101_000000_000001" / "traj_data.json")
    return tmp_path / "data"


@pytest.mark.parametrize("kind", ["missing", "empty"])
@pytest.mark.parametrize("command", sorted(READERS))
def test_a_missing_or_empty_input_is_not_found(tmp_path: Path, cli_in_process, command: str, kind: str) -> None:
    given = tmp_path / "input"
    if kind == "empty":
        given.mkdir()
    result = cli_in_process(*fill(READERS[command], IN=str(given), OUT=str(tmp_path / "out")))
    assert result.returncode == ExitCode.NOT_FOUND, (result.stdout, result.stderr)
    assert str(given) in one_line_error(result.stderr)
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("blocker", ["a file", "/dev/null"])
@pytest.mark.parametrize("command", sorted(DIRECTORY_WRITERS))
def test_an_output_directory_that_cannot_be_written_is_bad_input(tmp_path: Path, data: Path, cli_in_process,
                                                                 command: str, blocker: str) -> None:
    if blocker == "a file":
        out = tmp_path / "in-the-way"
        out.write_text("mine")
    else:
        out = Path("/dev/null")  # a directory is asked for: nothing is ever written to it
    traj = next(data.rglob("traj_data.json"))
    result = cli_in_process(*fill(DIRECTORY_WRITERS[command], OUT=str(out), TRAJ=str(traj), DATA=str(data)))
    assert result.returncode == ExitCode.BAD_INPUT, (result.stdout, result.stderr)
    assert str(out) in one_line_error(result.stderr)
    if blocker == "a file":
        assert out.read_text() == "mine"


@pytest.mark.parametrize("command", sorted(FILE_WRITERS))
def test_an_output_file_where_a_directory_is_is_bad_input(tmp_path: Path, cli_in_process, command: str,
                                                          alfred_layouts: Path) -> None:
    out = tmp_path / "a-directory"
    out.mkdir()
    result = cli_in_process(*fill(FILE_WRITERS[command], OUT=str(out), DATA=str(alfred_layouts)))
    assert result.returncode == ExitCode.BAD_INPUT, (result.stdout, result.stderr)
    assert "a-directory" in one_line_error(result.stderr)
    assert not list(out.iterdir())


@pytest.fixture
def alfred_layouts(tmp_path: Path) -> Path:
    """Where import-alfred would look (it never gets that far: its --out is refused first)."""
    (tmp_path / "alfred" / "layouts").mkdir(parents=True)
    return tmp_path / "alfred"


def _range_cases() -> list[object]:
    cases = []
    for command in sorted(RANGED):
        for kind in RANGES:
            cases.append(pytest.param(command, kind, id=f"{command}-{kind}"))
    return cases


@pytest.mark.parametrize(("command", "kind"), _range_cases())
def test_a_range_is_usage_when_malformed_and_not_found_when_it_names_nothing(
        tmp_path: Path, cli_in_process, command: str, kind: str) -> None:
    family = "houses" if "--houses" in command or "--range" in command else "rooms"
    ranges, code = RANGES[kind]
    result = cli_in_process(*fill(RANGED[command], RANGE=ranges[family], OUT=str(tmp_path / "out")))
    assert result.returncode == code, (result.stdout, result.stderr)
    one_line_error(result.stderr)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.slow  # ~10 s each on a busy 2-core machine (the fast lane's --durations)
@pytest.mark.parametrize(("module", "command"), [
    ("av", ["video", "{TRAJ}", "--out", "{OUT}.mp4"]),
    ("alfworld", ["export", "alfworld", "{TRAJ}", "--out", "{OUT}"]),
    ("pyarrow", ["export", "lerobot", "{TRAJ}", "--out", "{OUT}"]),
    ("datasets", ["export", "hf", "{TRAJ}", "--out", "{OUT}"]),
])
def test_a_missing_optional_package_is_its_own_code(tmp_path: Path, data: Path, module: str,
                                                    command: list[str]) -> None:
    traj = next(data.rglob("traj_data.json"))  # the package is checked before any trajectory is read
    code = (f"import sys\nsys.modules[{module!r}] = None  # as if the extra were not installed\n"
            "from alfred_gen.cli import main\nmain(sys.argv[1:])")
    done = subprocess.run([sys.executable, "-c", code, *fill(command, TRAJ=str(traj), OUT=str(tmp_path / "out"))],
                          capture_output=True, text=True, env=python_env(), timeout=600)
    assert done.returncode == ExitCode.MISSING_DEPENDENCY, (done.stdout, done.stderr)
    assert "pip install 'alfred-gen[" in one_line_error(done.stderr)
