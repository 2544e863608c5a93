"""``alfred-gen verify DIR``: vet every trajectory under a directory, in parallel, with a summary.

Each traj_data.json found under DIR (sorted by path) is loaded and vetted by
:func:`alfred_gen.replay.vet.vet_trajectory`. A file that cannot be read (truncated, not JSON,
failing the schema) is a ``bad_file`` failure like any other, never a traceback. With ``--jobs N``
the files are shared among N worker processes, each with its own simulator, which it reuses from
file to file (every vet starts with a reset, so nothing carries over).

Output: a progress bar (on stderr), then one line per failed trajectory, in path order::

    <path>: <reason>: <details, e.g. low_idx 12 PickupObject Apple|...: not visible>

and the summary ``N ok, M failed: action_failed 2, goal_unsatisfied 1 (in 3.2 s)``. Hidden
directories (``.tmp-trial_*`` of a run still writing or killed, ``.alfred-gen``) are not looked into;
a trial directory without its traj_data.json gets a line of its own and is counted after the
summary. The exit code is FAILED if any trajectory failed or a trial directory has no file, OK if
all passed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError, VetReason
from alfred_gen.parallel import run_unordered
from alfred_gen.progress import progress, shown_path
from alfred_gen.replay.goals import GoalStatus
from alfred_gen.replay.vet import VetResult, vet_trajectory
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.format import TRAJ_FILE_NAME, trajectories_under

# One simulator per worker process, made on first use and reused for every file it vets.
_controller: Controller | None = None
_simulator = Simulator()


def find_trajectories(root: str | Path) -> list[Path]:
    """Every traj_data.json under ``root`` (or ``root`` itself if it is a file), sorted; hidden
    directories (``.tmp-trial_*``, ``.alfred-gen``) are not looked into.

    Raises UserError(NOT_FOUND) if ``root`` does not exist or holds no trajectory.
    """
    return _find(root)[0]


def _find(root: str | Path) -> tuple[list[Path], list[Path]]:
    """The files to vet and the trial directories without a traj_data.json."""
    root = Path(root)
    if root.is_file():
        return [root], []
    if not root.is_dir():
        raise UserError(f"{root}: no such file or directory", ExitCode.NOT_FOUND)
    found, missing = trajectories_under(root)
    if not found and not missing:
        raise UserError(f"{root}: no {TRAJ_FILE_NAME} found under this directory", ExitCode.NOT_FOUND)
    return found, missing


def _worker_controller() -> Controller:
    global _controller
    if _controller is None:
        _controller = _simulator.open()
    return _controller


def _init_worker(simulator: Simulator) -> None:
    global _simulator, _controller
    _simulator, _controller = simulator, None


def vet_file(path: str | Path) -> VetResult:
    """Load and vet one file with this process's simulator; never raises on bad data (one file
    that cannot be checked must not stop the others)."""
    from alfred_gen.traj.format import load_trajectory

    try:
        traj = load_trajectory(path)
    except UserError as error:
        message = " ".join(str(error).split())
        prefix = f"{path}: "
        message = message[len(prefix):] if message.startswith(prefix) else message
        return VetResult(False, VetReason.BAD_FILE, None, message, GoalStatus(0, 0, []))
    except OSError as error:
        return VetResult(False, VetReason.BAD_FILE, None, f"{path}: cannot read ({error.strerror or error})",
                         GoalStatus(0, 0, []))
    except Exception as error:  # a bug in a check: this file's line says so, the others go on
        return VetResult(False, VetReason.SIMULATOR_ERROR, None, f"{type(error).__name__}: {error}",
                         GoalStatus(0, 0, []))
    return vet_trajectory(traj, controller_factory=_worker_controller, check_schema=False)


def _vet_indexed(job: tuple[int, str]) -> tuple[int, VetResult | tuple[str, int]]:
    """(index, result); a UserError from the environment comes back as (message, code), because an
    exception crossing the process boundary would lose its exit code."""
    index, path = job
    try:
        return index, vet_file(path)
    except UserError as error:
        return index, (str(error), int(error.code))


def _results(paths: list[Path], jobs: int, simulator: Simulator) -> Iterator[tuple[int, Any]]:
    """(index, result) pairs as they finish; in-process when jobs == 1."""
    work = [(i, str(p)) for i, p in enumerate(paths)]
    return run_unordered(_vet_indexed, work, jobs, _init_worker, (simulator,))


def summary_line(results: Iterable[VetResult], seconds: float | None = None) -> str:
    """``N ok, M failed: action_failed 2, goal_unsatisfied 1 (in 3.2 s)``; reasons in VetReason's order."""
    counts = Counter(result.reason for result in results)
    ok = counts.pop(VetReason.OK, 0)
    failed = sum(counts.values())
    text = f"{ok} ok, {failed} failed"
    if failed:
        order = {reason: i for i, reason in enumerate(VetReason)}
        text += ": " + ", ".join(f"{reason} {counts[reason]}"
                                 for reason in sorted(counts, key=lambda r: (order.get(r, len(order)), r)))
    if seconds is not None:
        text += f" (in {seconds:.1f} s)"
    return text


def verify_directory(
    root: str | Path,
    *,
    simulator: Simulator,
    jobs: int = 1,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen verify``: vet every trajectory under ``root``, print failures and a summary.

    Each worker process makes its own controller from ``simulator`` and reuses it."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    paths, missing = _find(root)
    results: list[VetResult | None] = [None] * len(paths)
    began = time.monotonic()
    with progress("verifying", len(paths), show=show_progress) as bar:
        for index, result in _results(paths, jobs, simulator):
            if isinstance(result, tuple):  # the simulator cannot run here: stop, one line
                message, code = result
                raise UserError(message, ExitCode(code))
            results[index] = result
            bar.update(1)
    seconds = time.monotonic() - began
    done = [result for result in results if result is not None]
    for trial in missing:
        echo(f"{shown_path(trial)}: trial directory without {TRAJ_FILE_NAME}")
    for path, result in zip(paths, results):
        if result is not None and not result.ok:
            echo(f"{shown_path(path)}: {result.reason}: {result.error}")
        if result is not None and result.completed:
            echo(f"{shown_path(path)}: completed from the file: {', '.join(result.completed)}")
    line = summary_line(done, seconds)
    completed = [result for result in done if result.completed]
    if completed:
        objects = sum(len(result.completed) for result in completed)
        line += (f"; {len(completed)} {'room' if len(completed) == 1 else 'rooms'} completed from the file "
                 f"({objects} object{'s' if objects != 1 else ''} the room lacked; --no-complete to replay without)")
    used = sum(1 for result in done if result.used)
    if used:
        line += (f"; {used} {'replay' if used == 1 else 'replays'} also placed things where the file's own masks "
                 f"show them (--no-complete for the room alone)")
    if missing:
        line += f"; {len(missing)} trial {'directory' if len(missing) == 1 else 'directories'} without {TRAJ_FILE_NAME}"
    echo(line)
    return ExitCode.OK if all(result.ok for result in done) and not missing else ExitCode.FAILED
