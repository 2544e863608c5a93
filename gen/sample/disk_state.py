"""What a run finds and keeps in its output directory: the source of truth for resuming.

- The tree of trials says what was made. On start, every trial the plan expects of this shard is
  checked cheaply (:func:`check_trials`: its traj_data.json parses and names the planned task,
  scene, spawn seed and trial id, and its frames are all there); a planned trial directory that
  fails the check (a damaged or deleted file, missing frames) is removed and made again. Trial
  directories the plan does not name (another seed, other options, a smaller N) are left alone.
- ``<out>/.alfred-gen/plan-<key>.json`` is the plan (:mod:`~alfred_gen.sample.plan`): the task space
  and the primaries, so a resumed run need not rebuild the space (seconds).
- ``<out>/.alfred-gen/failures.json`` says which attempts failed; every shard merges its records
  into it under a lock, sorted, so the file is the same however the work was split or interrupted.
  A record lost to a kill only costs running that attempt again (same outcome).
- ``<out>/.alfred-gen/lock-<shard>`` stops two runs writing one shard of a directory at once (exit
  code BUSY); temporary directories of killed jobs are removed on start.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.plan import DatasetPlan, PlanKey
from alfred_gen.traj.format import RAW_IMAGES_DIR, TRAJ_FILE_NAME

#: Where run state lives inside the output directory (ignored by every reader of trajectories).
STATE_DIR = ".alfred-gen"

#: Prefix of the temporary directories generate_trajectory writes into.
TEMP_PREFIX = ".tmp-"

FAILURES_FILE = "failures.json"
FAILURES_FORMAT = 2


def output_error(path: Path, error: OSError) -> UserError:
    """An OSError on the output as the one line a user sees (exit code BAD_INPUT)."""
    reason = error.strerror or str(error)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason += " (is the directory read-only?)"
    where = error.filename if error.filename else path
    return UserError(f"cannot write the output {path}: {where}: {reason}", ExitCode.BAD_INPUT)


def prepare_output(out: Path) -> None:
    """Create the output directory and its state directory; UserError if that cannot be done."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory", ExitCode.BAD_INPUT)
    try:
        (out / STATE_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise output_error(out, error) from None


# --------------------------------------------------------------------------------------------
# The lock


#: Lock descriptors held by this process; closed in forked children so the lock dies with us.
_HELD_LOCKS: set[int] = set()


def _close_held_locks_in_child() -> None:
    for descriptor in list(_HELD_LOCKS):
        with contextlib.suppress(OSError):
            os.close(descriptor)
    _HELD_LOCKS.clear()


os.register_at_fork(after_in_child=_close_held_locks_in_child)


@contextlib.contextmanager
def run_lock(out: Path, options: SampleOptions, wait_seconds: float = 2.0) -> Iterator[None]:
    """Hold an exclusive lock per (output directory, shard) so two runs never interleave jobs.

    The lock dies with the process (worker processes do not inherit it), so a run killed by
    kill -9 never blocks the next one. A lock held for ``wait_seconds`` is UserError BUSY.
    """
    path = out / STATE_DIR / f"lock-{options.shard_label()}"
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise output_error(out, error) from None
    _HELD_LOCKS.add(handle)
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise UserError(
                        f"another `alfred-gen sample` is writing shard {options.shard[0]}/{options.shard[1]} "
                        f"of {out}", ExitCode.BUSY,
                    ) from None
                time.sleep(0.1)
        yield
    finally:
        _HELD_LOCKS.discard(handle)
        os.close(handle)


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    """A short exclusive lock (shards merging their failure records)."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


# --------------------------------------------------------------------------------------------
# The plan


def plan_path(out: Path, key: PlanKey) -> Path:
    return out / STATE_DIR / f"plan-{key.fingerprint()}.json"


def load_plan(out: Path, key: PlanKey) -> DatasetPlan | None:
    """The plan saved for ``key``, or None (absent, damaged, another format: it is rebuilt)."""
    path = plan_path(out, key)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return DatasetPlan.from_json(data, key)


def save_plan(out: Path, plan: DatasetPlan) -> None:
    """Write the plan atomically (shards of one run write the same bytes)."""
    data = plan.to_json()
    lines = [f'{{"format": {data["format"]}, "key": {json.dumps(data["key"], sort_keys=True)}, '
             f'"complete": {json.dumps(data["complete"])},']
    for name in ("primaries", "space"):
        lines.append(f'"{name}": [' + ",\n".join(json.dumps(v) for v in data[name]) + "]"
                     + ("," if name == "primaries" else "}"))
    try:
        write_text(plan_path(out, plan.key), "\n".join(lines) + "\n")
    except OSError as error:
        raise output_error(out, error) from None


# --------------------------------------------------------------------------------------------
# Failures


def failures_path(out: Path) -> Path:
    """The failure log shared by every shard of the output directory."""
    return out / STATE_DIR / FAILURES_FILE


def load_failures(out: Path) -> list[dict[str, Any]]:
    """Recorded failed attempts: dicts with ``task`` (dir name), ``attempt``, ``trial`` (its trial id),
    ``seed``, ``backend``, ``scene_set`` and ``reason``. UserError BAD_INPUT if the file is damaged."""
    path = failures_path(out)
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        records = data["failures"]
        if data["format"] != FAILURES_FORMAT or not isinstance(records, list):
            raise ValueError("another format")
        return [r for r in records if isinstance(r, dict) and TaskTuple.from_dir_name(str(r.get("task", "")))]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        raise UserError(f"{path} is unreadable: delete it to forget the recorded failures",
                        ExitCode.BAD_INPUT) from None


def _record_key(record: dict[str, Any]) -> tuple[str, ...]:
    """One record per attempt (its trial id names it) and backend; the file is sorted by this."""
    return tuple(str(record.get(k, "")) for k in ("task", "trial", "seed", "backend", "scene_set"))


def save_failures(out: Path, records: Iterable[dict[str, Any]]) -> None:
    """Merge ``records`` into the failure log (under a lock, so shards sharing the directory never
    lose each other's records); the file is sorted, so its bytes depend only on what it holds."""
    records = list(records)
    if not records:
        return
    path = failures_path(out)
    try:
        with _file_lock(out / STATE_DIR / "failures.lock"):
            merged = {_record_key(r): r for r in load_failures(out)}
            merged.update((_record_key(r), r) for r in records)
            ordered = [merged[key] for key in sorted(merged)]
            lines = ",\n".join(json.dumps(record, sort_keys=True) for record in ordered)
            write_text(path, f'{{"format": {FAILURES_FORMAT}, "failures": [\n' + lines + "\n]}\n")
    except OSError as error:
        raise output_error(out, error) from None


# --------------------------------------------------------------------------------------------
# Trials on disk


@dataclass
class TreeState:
    """Trial directories per tuple found in the output directory: complete ones hold traj_data.json."""

    trials: dict[TaskTuple, list[str]] = field(default_factory=dict)
    incomplete: dict[TaskTuple, list[str]] = field(default_factory=dict)

    def count(self) -> int:
        return sum(len(names) for names in self.trials.values())


def scan_tree(out: Path) -> TreeState:
    """Every ``<task dir>/trial_*`` under ``out``."""
    state = TreeState()
    if not out.is_dir():
        return state
    for task_dir in sorted(out.iterdir()):
        task = TaskTuple.from_dir_name(task_dir.name) if task_dir.is_dir() else None
        if task is None:
            continue
        for trial in sorted(task_dir.iterdir()):
            if not (trial.is_dir() and trial.name.startswith("trial_")):
                continue
            target = state.trials if (trial / TRAJ_FILE_NAME).is_file() else state.incomplete
            target.setdefault(task, []).append(trial.name)
    return state


class TrialProbe:
    """Answers "is attempt a of tuple T on disk, whole?" for the ledger, checking each planned
    trial once, when the schedule first asks about it (so a resumed run checks the first groups
    and starts its workers, instead of reading every file first). A planned trial directory that
    fails the check is removed, to be made again; ``removed`` says which and why."""

    def __init__(self, out: Path, options: SampleOptions, note: Callable[[str], None] = lambda line: None) -> None:
        self.out = out
        self.options = options
        self.note = note
        self.removed: list[str] = []
        self._listings: dict[TaskTuple, frozenset[str]] = {}

    def _listing(self, task: TaskTuple) -> frozenset[str]:
        names = self._listings.get(task)
        if names is None:
            try:
                names = frozenset(os.listdir(self.out / task.dir_name()))
            except (FileNotFoundError, NotADirectoryError):
                names = frozenset()
            except OSError as error:
                raise output_error(self.out, error) from None
            self._listings[task] = names
        return names

    def __call__(self, task: TaskTuple, name: str, spawn: int) -> bool:
        if name not in self._listing(task):
            return False
        directory = self.out / task.dir_name() / name
        problem = trial_problem(directory, task, name, spawn, self.options.frames)
        if problem is None:
            return True
        try:
            if directory.is_dir():
                shutil.rmtree(directory)
            else:
                directory.unlink()
        except OSError as error:
            raise output_error(self.out, error) from None
        self.removed.append(f"{task.dir_name()}/{name}: {problem}")
        self.note(f"making again {self.removed[-1]}")
        return False


def trial_problem(directory: Path, task: TaskTuple, name: str, spawn: int, frames: bool) -> str | None:
    """Why a planned trial directory does not hold the planned trial (None: it does).

    Cheap on purpose (no schema, no replay): the file parses and names the planned trial id, task,
    scene and spawn seed, and with frames as many images as it lists are in raw_images/. A file
    that passes was written for this very attempt, after vetting, in one rename.
    """
    path = directory / TRAJ_FILE_NAME
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return f"no {TRAJ_FILE_NAME}"
    except (OSError, ValueError, RecursionError) as error:
        return f"{TRAJ_FILE_NAME} is damaged ({type(error).__name__})"
    try:
        scene = data["scene"]
        params = data["pddl_params"]
        found = TaskTuple(
            str(data["task_type"]), int(scene["scene_num"]),
            str(params["object_target"]) + ("Sliced" if params["object_sliced"] is True else ""),
            str(params["parent_target"] or params["toggle_target"]), str(params["mrecep_target"] or ""),
        )
        if data["task_id"] != name:
            return f"its task_id is {str(data['task_id'])[:40]!r}"
        if found != task:
            return f"it holds a trial of {found.dir_name()}"
        if scene["random_seed"] != spawn:
            return "its spawn seed is not the planned one"
        images = data.get("images") or []
        if frames and images:
            try:
                on_disk = len(os.listdir(directory / RAW_IMAGES_DIR))
            except FileNotFoundError:
                on_disk = 0
            if on_disk < len(images):
                return f"{len(images) - on_disk} of its {len(images)} frames are missing"
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        return f"{TRAJ_FILE_NAME} does not hold the planned trial"
    return None


def clean_stale_temp(out: Path, own_trial_ids: set[str] | None) -> int:
    """Remove temporary directories left by killed jobs; returns how many.

    Unsharded (``own_trial_ids`` None) every ``.tmp-trial_*`` is stale (the run lock excludes other
    writers); a shard only removes those whose trial id is one of its own.
    """
    if not out.is_dir():
        return 0
    stale = [p for p in sorted(out.iterdir()) if p.name.startswith(TEMP_PREFIX + "trial_") and p.is_dir()]
    if own_trial_ids is not None:
        stale = [p for p in stale if p.name[len(TEMP_PREFIX):] in own_trial_ids]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return len(stale)
