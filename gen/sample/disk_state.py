"""What a run finds and keeps in its output directory: the source of truth for resuming.

- The tree of trials says what was made. Every trial the plan expects of this shard is checked
  when the schedule first reaches it (:func:`~alfred_gen.sample.trial_check.trial_problem`:
  validate's checks, the planned task, scene, spawn seed and trial id, the PDDL problem, whole
  frames); a planned trial directory that fails the check is removed and made again. Trial
  directories the plan does not name (another seed, other options, a smaller N) are left alone.
  A trial that passed (or that a worker made and checked) leaves a stamp of its files'
  stats in ``<out>/.alfred-gen/checked-<shard>.json`` (:mod:`~alfred_gen.sample.check_cache`); a
  trial whose files all still match it is not checked again.
- ``<out>/.alfred-gen/plan-<key>.json`` is the plan (:mod:`~alfred_gen.sample.plan`): the task space
  and the primaries, so a resumed run need not rebuild the space (seconds).
- ``<out>/.alfred-gen/failures.json`` says which attempts failed; every shard merges its records
  into it under a lock, sorted, so the file is the same however the work was split or interrupted.
  A record lost to a kill only costs running that attempt again (same outcome).
- ``<out>/.alfred-gen/lock-<shard>`` stops two runs writing one trial at once (exit code BUSY):
  runs whose shards share groups (an unsharded run and any shard included) never write one
  directory together (:func:`run_lock`); temporary directories of killed jobs are removed when
  no other run is writing, and a run removes its own jobs' when it ends.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import math
import os
import shutil
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import TEMP_DIR_PREFIX, remove_stale_writes, staged_trial, write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.check_cache import load_stamps, save_stamps
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.plan import DatasetPlan, PlanKey
from alfred_gen.sample.trial_check import Stamp, check_trial, stamp_still_holds
from alfred_gen.traj.format import TRAJ_FILE_NAME

#: Where run state lives inside the output directory (ignored by every reader of trajectories).
STATE_DIR = ".alfred-gen"

#: Prefix of the staging directories trials are written into (one scheme for every family).
TEMP_PREFIX = TEMP_DIR_PREFIX

FAILURES_FILE = "failures.json"
FAILURES_FORMAT = 2


#: Errors that say the output cannot be written (a full disk or quota, a read-only or forbidden
#: place) rather than that alfred-gen is wrong: anywhere in a run they end it with exit code
#: BAD_INPUT, finished work kept.
UNWRITABLE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


def _user_path(out: Path, filename: Any) -> str | None:
    """The path to show for an error on ``filename``: None when it is a temporary file or directory
    of ours (``.tmp-<trial>``, an atomic write's ``.name.xxxx.tmp``), which means nothing to the user."""
    if not filename:
        return None
    parts = Path(str(filename)).parts
    if any(part.startswith(TEMP_PREFIX) or part.endswith(".tmp") for part in parts):
        return None
    return str(filename)


def output_error(path: Path, error: OSError) -> UserError:
    """An OSError on the output as the one line a user sees (exit code BAD_INPUT), naming the
    output directory (and the user's file, never one of our temporary files)."""
    reason = error.strerror or str(error)
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason += " (is the directory read-only?)"
    elif error.errno in (errno.ENOSPC, errno.EDQUOT):
        reason += " (free some space, then run the same command to continue)"
    where = _user_path(path, error.filename)
    return UserError(f"cannot write the output {path}: {where + ': ' if where else ''}{reason}", ExitCode.BAD_INPUT)


def unwritable_output(out: Path, error: BaseException) -> UserError | None:
    """The one-line UserError for an exception that says the output cannot be written (a full disk,
    a read-only file system, ...); None for any other exception."""
    if isinstance(error, OSError) and error.errno in UNWRITABLE_ERRNOS:
        return output_error(out, error)
    return None


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


#: The directory's mutex: held for a moment while a run registers (or looks for other runs).
MUTEX_FILE = "lock"

#: Prefix of the per-shard lock files a run holds while it writes (``lock-<I>of<M>``).
LOCK_PREFIX = "lock-"


def _shards_overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether shards a = (I, M) and b = (J, K) own a group in common: some g with g = I mod M and
    g = J mod K, i.e. I = J mod gcd(M, K). An unsharded run (0/1) overlaps every shard."""
    return (a[0] - b[0]) % math.gcd(a[1], b[1]) == 0


def _shard_of_lock(name: str) -> tuple[int, int] | None:
    """``lock-IofM`` -> (I, M); None for another file."""
    if not name.startswith(LOCK_PREFIX):
        return None
    index, sep, count = name[len(LOCK_PREFIX):].partition("of")
    if not (sep and index.isdigit() and count.isdigit()) or int(count) < 1:
        return None
    return int(index), int(count)


def _held_by_another(path: Path) -> bool:
    """Whether some process holds the lock file ``path`` (we do not: we only test it)."""
    try:
        handle = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(handle)
    return False


@dataclass
class RunLock:
    """The run's hold on its output directory (see :func:`run_lock`)."""

    out: Path
    shard: tuple[int, int]

    def others(self) -> list[tuple[int, int]]:
        """The shards other live runs on this directory write (call under the mutex)."""
        found = []
        own = f"{LOCK_PREFIX}{self.shard[0]}of{self.shard[1]}"
        for name in sorted(os.listdir(self.out / STATE_DIR)):
            shard = _shard_of_lock(name)
            if shard is not None and name != own and _held_by_another(self.out / STATE_DIR / name):
                found.append(shard)
        return found

    def clean_temp_if_alone(self) -> int:
        """Remove every temporary trial directory, and every temporary file of a write
        (:func:`clean_stale_writes`), when no other run writes this directory (then each is a killed
        run's); returns how many trial directories. Done under the mutex, so no run starts meanwhile."""
        try:
            with _file_lock(self.out / STATE_DIR / MUTEX_FILE):
                if self.others():
                    return 0
                clean_stale_writes(self.out)
                return clean_stale_temp(self.out)
        except OSError as error:
            raise output_error(self.out, error) from None


@contextlib.contextmanager
def run_lock(out: Path, options: SampleOptions, wait_seconds: float = 2.0) -> Iterator[RunLock]:
    """Hold the output directory for this run's shard so that no two runs ever write one trial.

    Each run holds ``lock-<I>of<M>`` exclusively and registers under the directory's mutex, where it
    also checks the other runs' locks: a run whose shard shares groups with a live run's (the same
    shard, an unsharded run and any shard, 0/2 and 0/4, ...) is refused, UserError BUSY after
    ``wait_seconds``. Shards of one layout (0/2 and 1/2) write at once, as a job array does. The
    locks die with the process (worker processes do not inherit them), so a run killed by kill -9
    never blocks the next one.
    """
    state = out / STATE_DIR
    try:
        handle = os.open(state / f"{LOCK_PREFIX}{options.shard_label()}", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise output_error(out, error) from None
    _HELD_LOCKS.add(handle)
    lock = RunLock(out, options.shard)
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            busy = _register(lock, handle)
            if busy is None:
                break
            if time.monotonic() > deadline:
                index, count = busy
                layout = "" if busy == options.shard else (
                    f", which shares trials with shard {options.shard[0]}/{options.shard[1]} "
                    "(runs of different shard layouts cannot write one directory at once)")
                raise UserError(f"another `alfred-gen sample` is writing shard {index}/{count} of {out}{layout}",
                                ExitCode.BUSY)
            time.sleep(0.1)
        yield lock
    finally:
        _HELD_LOCKS.discard(handle)
        os.close(handle)


def _register(lock: RunLock, handle: int) -> tuple[int, int] | None:
    """Take the run's lock if no live run's shard overlaps it; the busy shard otherwise."""
    try:
        with _file_lock(lock.out / STATE_DIR / MUTEX_FILE):
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return lock.shard
            clash = next((shard for shard in lock.others() if _shards_overlap(shard, lock.shard)), None)
            if clash is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)
            return clash
    except OSError as error:
        raise output_error(lock.out, error) from None


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
    fails the check is removed, to be made again; ``removed`` says which and why.

    A trial whose stamp from an earlier check still holds (every file it read unchanged: one stat
    per file) is not checked again; ``stamped`` counts those. :meth:`save` keeps the stamps of the
    trials this run checked or made for the next run."""

    def __init__(self, out: Path, options: SampleOptions, note: Callable[[str], None] = lambda line: None) -> None:
        self.out = out
        self.options = options
        self.note = note
        self.removed: list[str] = []
        self.stamped = 0  #: trials kept on their stamp, without a full check
        self._listings: dict[TaskTuple, frozenset[str]] = {}
        self._stamps: dict[str, Stamp] = load_stamps(out / STATE_DIR)
        self._changed = False

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
        key = f"{task.dir_name()}/{name}"
        directory = self.out / task.dir_name() / name
        stamp = self._stamps.get(key)
        if stamp is not None and stamp_still_holds(directory, stamp, spawn, self.options.frames):
            self.stamped += 1
            return True
        problem, stamp = check_trial(directory, task, name, spawn, self.options.frames)
        self._keep(key, stamp)
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

    def _keep(self, key: str, stamp: Stamp | None) -> None:
        if stamp is None:
            self._changed |= self._stamps.pop(key, None) is not None
        else:
            self._changed |= self._stamps.get(key) != stamp
            self._stamps[key] = stamp

    def made(self, job: Job, outcome: Outcome) -> None:
        """A trial this run made: keep the stamp its worker's check gave it."""
        self._keep(f"{job.task.dir_name()}/{job.trial_id}", outcome.stamp)

    def save(self) -> None:
        """Write the stamps (this shard's file; every run's stamps it read are kept: each is checked
        against the files before it is trusted). Only when something changed."""
        if self._changed:
            save_stamps(self.out / STATE_DIR, self.options.shard_label(), self._stamps)
            self._changed = False


def clean_stale_writes(out: Path) -> None:
    """Remove the temporary files of writes a killed run left in ``out`` and its state directory
    (``.<name>.<random>.tmp`` beside the plan, the stamps or the failure log it was replacing: a
    driver killed by kill -9 mid-write leaves one, and the resumed tree would differ from an
    uninterrupted run's by it). Only for a run alone on ``out``: another run's write may be in
    flight (:meth:`RunLock.clean_temp_if_alone`)."""
    for folder in (out, out / STATE_DIR):
        remove_stale_writes(folder)


def clean_stale_temp(out: Path, trial_ids: Iterable[str] | None = None) -> int:
    """Remove temporary trial directories (:func:`alfred_gen.atomic.staging_dir_for`'s
    ``.tmp-<trial id>-<task dir>``, and an older run's ``.tmp-<trial id>``); returns how many.

    ``trial_ids`` None: every one (the caller knows no other run is writing, see
    :meth:`RunLock.clean_temp_if_alone`); else only those of these trials (a run's own jobs).
    """
    if not out.is_dir():
        return 0
    if trial_ids is None:
        stale = [p for p in sorted(out.iterdir()) if p.name.startswith(TEMP_PREFIX + "trial_") and p.is_dir()]
    else:
        ours = set(trial_ids)
        stale = [p for p in sorted(out.iterdir()) if staged_trial(p.name) in ours and p.is_dir()]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return len(stale)

