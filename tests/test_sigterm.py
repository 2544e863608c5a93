"""SIGTERM stops every command as Ctrl-C does, in every phase: exit 130 and one line, no traceback.

Issue 61: SIGTERM during `sample`'s start-up or planning ended the process with 143 (-15) and no
message; only the running phase turned it into 130. A phase is reached by waiting for what shows
it, never for a time: start-up is "the process catches SIGTERM" (read from /proc/PID/status, so the
signal is not sent before the interpreter has reached our code), planning is the run's "planning
the dataset" line, running is the first trial directory (finished or not) on disk.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from tests.helpers import python_env

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")]

#: Generous: these wait for events on a loaded machine; they never measure time.
WAIT_SECONDS = 600


def start(*args: str, cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "alfred_gen.cli", *args], cwd=cwd, env=python_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def catches_sigterm(pid: int) -> bool:
    """Whether the process has a handler for SIGTERM (bit 15 of SigCgt): our main() has begun."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) >> (signal.SIGTERM - 1) & 1)


def wait_until(process: subprocess.Popen[str], ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not ready():
        if process.poll() is not None:
            pytest.fail(f"the command ended before {what}: {process.returncode} {process.stderr.read()}")
        assert time.monotonic() < deadline, f"no {what} within {WAIT_SECONDS} s"
        time.sleep(0.01)


def stop_and_check(process: subprocess.Popen[str]) -> str:
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=WAIT_SECONDS)
    assert process.returncode == ExitCode.INTERRUPTED, (process.returncode, out, err)
    assert "Traceback" not in err + out
    assert err.strip().splitlines()[-1] == "alfred-gen: interrupted" or "interrupted" in out, (out, err)
    return out


def test_sigterm_at_start_up_of_sample(tmp_path: Path) -> None:
    # Houses are built at start-up, before planning: seconds in which only our handler catches SIGTERM.
    run = start("sample", "--n", "2", "--scene-set", "houses", "--out", str(tmp_path / "out"), cwd=tmp_path)
    wait_until(run, lambda: catches_sigterm(run.pid), "start-up")
    out = stop_and_check(run)
    assert "planning the dataset" not in out  # stopped before planning began
    assert not list((tmp_path / "out").glob("*/trial_*"))


def test_sigterm_while_sample_plans(tmp_path: Path) -> None:
    run = start("sample", "--n", "2", "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert run.stdout is not None
    wait_until(run, lambda: "planning the dataset" in run.stdout.readline(), "planning")
    stop_and_check(run)
    assert not list((tmp_path / "out").glob("*/trial_*"))


def test_sigterm_while_sample_runs_keeps_finished_work(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = start("sample", "--n", "6", "--workers", "2", "--demos-per-task", "1", "--task-types",
                "pick_and_place_simple", "--out", str(out), cwd=tmp_path)
    wait_until(run, lambda: any(out.glob("*/trial_*")) or any(out.glob(".tmp-trial_*")), "a trial on disk")
    stop_and_check(run)
    for trial in out.glob("*/trial_*"):
        assert (trial / "traj_data.json").is_file()  # only whole trials are kept


def test_sigterm_in_another_command(tmp_path: Path) -> None:
    run = start("scenes", "list", "--houses", "--range", "1-400", cwd=tmp_path)
    wait_until(run, lambda: catches_sigterm(run.pid), "start-up")
    stop_and_check(run)
