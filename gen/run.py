"""The `alfred-gen sample` job: N vetted trajectories, balanced, parallel, resumable, reproducible.

How the pieces fit:

- The parent process owns every decision. It samples tuples (:mod:`alfred_gen.sampler`) and turns
  them into jobs ``(tuple, attempt, spawn seed, trial id)``; worker processes, each with its own
  simulator, only run :func:`alfred_gen.generate.generate_trajectory`. A job's trial id is a hash of
  (run seed, tuple, attempt), so no two jobs ever write the same directory, and the rename of a
  finished trajectory into place is the commit.
- Determinism: the next job is decided from the results of earlier jobs, but results arrive in an
  order that depends on timing. So job k is decided from a fixed prefix of results, jobs
  ``0 .. p-1`` with ``p >= k - window`` (waiting for them if needed), counting the jobs in between
  as if they will succeed. Which prefix is used depends only on results, never on when they came,
  so the same seed gives the same jobs, the same trial ids and byte-identical trees; the window
  does not depend on the worker count up to :data:`DEFAULT_WINDOW` workers.
- Exactly N: a job is only started while (trajectories made in the prefix) + (jobs after it) < N,
  so even if every job in flight succeeds the target is never passed.
- Tuples: a started tuple is continued until it has ``demos_per_task`` trajectories or
  ``max_failures`` failed attempts (then it is recorded as failed and never sampled again); each
  attempt has its own spawn seed (which also picks the start pose) and trial id.
- Resumable: the tree of finished trajectories is the source of truth for what was made; failed
  attempts are kept in ``<out>/.alfred-gen/failures-<shard>.json`` (rewritten atomically, at most
  every few seconds and at the end; a failure lost to a kill is simply tried again), and stale
  temporary directories of killed jobs are removed on start. A run killed at any moment leaves
  complete trajectories and nothing partial in the layout; a lock per shard stops two runs from
  writing the same shard of one directory at once.
- ``--shard I/M`` gives each shard the tuples whose hash falls in it and the I-th part of N, so
  shards of a cluster job array never share a tuple, a trial id or a temporary directory.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import json
import multiprocessing
import os
import queue
import shutil
import signal
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.feasibility import SCENE_SETS, TaskTuple, feasible_tuples, scene_name
from alfred_gen.sampler import BalancedSampler
from alfred_gen.trial_ids import derive_int, shard_of, shard_quota, spawn_seed, trial_id

#: Jobs decided ahead of the last result they depend on (see the module docstring).
DEFAULT_WINDOW = 8

#: Failed attempts after which a tuple is closed (ALFRED's "trials before fail").
DEFAULT_MAX_FAILURES = 3

#: Exceptions (pipeline bugs) tolerated before a run that makes fewer trajectories than it crashes stops.
CRASH_LIMIT = 5

#: Seconds between rewrites of the failure log during a run (it is always written at the end).
FAILURE_LOG_SECONDS = 2.0

#: Where run state lives inside the output directory (ignored by every reader of trajectories).
STATE_DIR = ".alfred-gen"

#: Prefix of the temporary directories generate_trajectory writes into.
TEMP_PREFIX = ".tmp-"

#: Outcomes that say nothing about the tuple (not recorded as its failures).
_NOT_THE_TUPLES_FAULT = frozenset({"exists", "exception"})

Generator = Callable[..., Any]


@dataclass(frozen=True)
class SampleOptions:
    """Everything `alfred-gen sample` takes. Empty ``task_types``/``scenes`` mean all."""

    n: int
    out: Path
    seed: int = 0
    workers: int = 1
    task_types: tuple[str, ...] = ()
    scenes: tuple[int, ...] = ()
    demos_per_task: int = 3
    shard: tuple[int, int] = (0, 1)
    backend: str = "lite"
    #: Options for the backend's controller as (name, value) pairs, e.g. (("thor_build", PATH),).
    backend_options: tuple[tuple[str, Any], ...] = ()
    #: "lite": the procedural LitePlanN rooms; "alfred": imported real THOR rooms (FloorPlanN).
    scene_set: str = "lite"
    frames: bool = True
    max_failures: int = DEFAULT_MAX_FAILURES
    window: int = 0  #: 0: max(DEFAULT_WINDOW, workers)

    def effective_window(self) -> int:
        return self.window or max(DEFAULT_WINDOW, self.workers)

    def shard_label(self) -> str:
        return f"{self.shard[0]}of{self.shard[1]}"


@dataclass(frozen=True)
class Job:
    """One attempt at a tuple: what a worker needs to generate (and where it will land)."""

    index: int
    task: TaskTuple
    attempt: int
    seed: int
    trial_id: str


@dataclass(frozen=True)
class Outcome:
    """A worker's answer for a job: ``reason`` is ``ok`` or generate_trajectory's failure reason."""

    index: int
    ok: bool
    reason: str
    detail: str = ""
    code: int = 0  #: the exit code of a ``user_error``
    timings: tuple[tuple[str, float], ...] = ()  #: seconds per pipeline phase, if the generator says


@dataclass
class RunSummary:
    """What a run did, for the final lines and the exit code."""

    target: int
    made_before: int
    made_now: int = 0
    failures: Counter = field(default_factory=Counter)
    failed_tuples: int = 0
    seconds: float = 0.0
    exhausted: bool = False
    interrupted: bool = False
    crashed: bool = False
    examples: dict[str, str] = field(default_factory=dict)  #: first detail seen per failure reason
    phase_seconds: Counter = field(default_factory=Counter)  #: generator time per phase, all jobs

    @property
    def made(self) -> int:
        return self.made_before + self.made_now

    @property
    def per_minute(self) -> float:
        return 60.0 * self.made_now / self.seconds if self.seconds > 0 else 0.0

    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.INTERRUPTED
        if self.crashed:
            return ExitCode.INTERNAL
        return ExitCode.OK if self.made >= self.target else ExitCode.FAILED

    def lines(self) -> list[str]:
        out = [
            f"made {self.made_now} trajectories in {self.seconds:.1f} s ({self.per_minute:.1f} per minute); "
            f"{self.made} of {self.target} in the output"
        ]
        total_failed = sum(self.failures.values())
        if total_failed:
            reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(self.failures.items(),
                                                                                 key=lambda kv: (-kv[1], kv[0])))
            out.append(f"failed {total_failed} attempts: {reasons}")
            if "exception" in self.examples:
                out.append(f"first exception: {self.examples['exception']}")
        else:
            out.append("failed 0 attempts")
        if self.failed_tuples:
            out.append(f"{self.failed_tuples} tuples recorded as failed (not sampled again)")
        if self.crashed:
            out.append("stopped: generation keeps raising exceptions (a bug in alfred-gen; please report it)")
        elif self.interrupted:
            out.append("interrupted: finished trajectories are kept; run the same command to continue")
        elif self.exhausted and self.made < self.target:
            out.append(f"stopped early: no feasible task tuple is left to try ({self.made} of {self.target})")
        return out


# --------------------------------------------------------------------------------------------
# Option parsing (strings from the command line)


def parse_shard(text: str | None) -> tuple[int, int]:
    """``"I/M"`` with 0 <= I < M (0-based, as job-array indices) -> (I, M); UserError USAGE otherwise."""
    if text is None or text == "":
        return (0, 1)
    parts = str(text).strip().split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {text!r}", ExitCode.USAGE)
    index, count = (int(p) for p in parts)
    if count < 1 or not 0 <= index < count:
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {text!r}", ExitCode.USAGE)
    return index, count


def _split_list(values: Sequence[str] | str | None) -> list[str]:
    if not values:
        return []
    if isinstance(values, str):
        values = [values]
    return [part.strip() for value in values for part in str(value).split(",") if part.strip()]


def parse_task_types(values: Sequence[str] | str | None) -> tuple[str, ...]:
    """Comma-separated or repeated task type names, checked (UserError NOT_FOUND for an unknown one)."""
    from alfred_gen.tasks import get_task_type

    names = _split_list(values)
    for name in names:
        get_task_type(name)
    return tuple(dict.fromkeys(names))


def parse_scenes(values: Sequence[str] | str | None) -> tuple[int, ...]:
    """Scenes as numbers, ``LitePlanN`` or ranges ``1-30`` (comma-separated or repeated)."""
    from alfred_gen.scenes import resolve_scene_number

    numbers: list[int] = []
    for part in _split_list(values):
        low, sep, high = part.partition("-")
        if sep and low.strip().isdigit() and high.strip().isdigit():
            first, last = int(low), int(high)
            if first > last:
                raise UserError(f"bad scene range {part!r}", ExitCode.USAGE)
            for number in range(first, last + 1):
                with contextlib.suppress(UserError):
                    numbers.append(resolve_scene_number(number))
            if not any(first <= n <= last for n in numbers):
                raise UserError(f"no scene in range {part!r}", ExitCode.NOT_FOUND)
        else:
            numbers.append(resolve_scene_number(part))
    return tuple(sorted(set(numbers)))


def check_options(options: SampleOptions) -> None:
    """UserError for values no run can use."""
    if options.n < 1:
        raise UserError(f"--n must be at least 1, got {options.n}", ExitCode.USAGE)
    if options.workers < 1:
        raise UserError(f"--workers must be at least 1, got {options.workers}", ExitCode.USAGE)
    if options.demos_per_task < 1:
        raise UserError(f"--demos-per-task must be at least 1, got {options.demos_per_task}", ExitCode.USAGE)
    if options.max_failures < 1:
        raise UserError("the failure limit per tuple must be at least 1", ExitCode.USAGE)
    index, count = options.shard
    if count < 1 or not 0 <= index < count:
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {index}/{count}", ExitCode.USAGE)
    if options.backend not in ("lite", "thor"):
        raise UserError(f"unknown backend {options.backend!r} (lite or thor)", ExitCode.USAGE)
    if options.scene_set not in SCENE_SETS:
        raise UserError(f"unknown scene set {options.scene_set!r} ({' or '.join(SCENE_SETS)})", ExitCode.USAGE)
    if options.out.exists() and not options.out.is_dir():
        raise UserError(f"--out {options.out} exists and is not a directory", ExitCode.BAD_INPUT)


# --------------------------------------------------------------------------------------------
# What is on disk


@dataclass
class TreeState:
    """Finished trajectories per tuple (trial directory names) found in the output directory."""

    trials: dict[TaskTuple, list[str]] = field(default_factory=dict)
    incomplete: dict[TaskTuple, list[str]] = field(default_factory=dict)


def scan_tree(out: Path) -> TreeState:
    """Every ``<task dir>/trial_*`` under ``out``; complete ones hold traj_data.json."""
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
            target = state.trials if (trial / "traj_data.json").is_file() else state.incomplete
            target.setdefault(task, []).append(trial.name)
    return state


def _state_dir(out: Path) -> Path:
    return out / STATE_DIR


def failures_path(out: Path, options: SampleOptions) -> Path:
    return _state_dir(out) / f"failures-{options.shard_label()}.json"


def load_failures(path: Path) -> list[dict[str, Any]]:
    """Recorded failed attempts: dicts with ``task`` (dir name), ``seed``, ``attempt``, ``reason``."""
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        records = data["failures"]
        return [r for r in records if isinstance(r, dict) and TaskTuple.from_dir_name(str(r.get("task", "")))]
    except (OSError, ValueError, KeyError, TypeError):
        raise UserError(f"{path} is unreadable: delete it to forget the recorded failures", ExitCode.BAD_INPUT)


def save_failures(path: Path, records: list[dict[str, Any]]) -> None:
    """Write the failure log atomically."""
    # One record per line: readable, and cheap to write for thousands of records.
    lines = ",\n".join(json.dumps(record, sort_keys=True) for record in records)
    payload = '{"format": 1, "failures": [\n' + lines + ("\n" if records else "") + "]}\n"
    write_text(path, payload)


@contextlib.contextmanager
def run_lock(out: Path, options: SampleOptions, wait_seconds: float = 10.0) -> Iterator[None]:
    """Hold an exclusive lock per (output directory, shard) so two runs never interleave jobs.

    The lock dies with the process (and with its workers, which die with it), so a run killed by
    kill -9 never blocks the next one for longer than its workers take to exit.
    """
    path = _state_dir(out) / f"lock-{options.shard_label()}"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
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
                        f"of {out}", ExitCode.FAILED,
                    ) from None
                time.sleep(0.2)
        yield
    finally:
        os.close(handle)


def clean_stale_temp(out: Path, own_trial_ids: Callable[[], set[str]] | None) -> int:
    """Remove temporary directories left by killed jobs; returns how many.

    Unsharded (``own_trial_ids`` None) every ``.tmp-trial_*`` is stale (the run lock excludes other
    writers); a shard only removes those whose trial id is one of its own.
    """
    if not out.is_dir():
        return 0
    stale = [p for p in sorted(out.iterdir()) if p.name.startswith(TEMP_PREFIX + "trial_") and p.is_dir()]
    if stale and own_trial_ids is not None:
        own = own_trial_ids()
        stale = [p for p in stale if p.name[len(TEMP_PREFIX):] in own]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return len(stale)


# --------------------------------------------------------------------------------------------
# The ledger: per-tuple counts, and the decision of the next job


@dataclass
class _TupleRecord:
    successes: int = 0
    failures: int = 0
    used_trials: set[str] = field(default_factory=set)
    failed_attempts: set[int] = field(default_factory=set)


class Ledger:
    """Counts of made and failed attempts per tuple, from disk plus the accounted results."""

    def __init__(self, options: SampleOptions, sampler: BalancedSampler) -> None:
        self.options = options
        self.sampler = sampler
        self.records: dict[TaskTuple, _TupleRecord] = {}
        # Tuples that may still get jobs, in the order they were first touched (a dict keeps order).
        self.active: dict[TaskTuple, None] = {}
        self.done: set[TaskTuple] = set()  # made their demonstrations or spent their failures
        # The sampler's encoding of every finished trajectory's tuple (rows [:made_rows]), grown
        # by doubling so a run of many thousands never re-encodes its history.
        self._history = np.zeros((256, 5), dtype=np.int64)
        self._history_rows = 0
        self.made = 0
        self.failure_log: list[dict[str, Any]] = []
        self.saved_failures = -1  # length of failure_log when it was last written
        self.saved_at = float("-inf")  # when (time.monotonic) it was last written

    def _record(self, task: TaskTuple) -> _TupleRecord:
        record = self.records.get(task)
        if record is None:
            record = self.records[task] = _TupleRecord()
            self.active[task] = None
        return record

    def _add_history(self, task: TaskTuple, count: int = 1) -> None:
        if count <= 0:
            return
        needed = self._history_rows + count
        if needed > len(self._history):
            grown = np.zeros((max(needed, 2 * len(self._history)), 5), dtype=np.int64)
            grown[: self._history_rows] = self._history[: self._history_rows]
            self._history = grown
        self._history[self._history_rows:needed] = self.sampler.encode([task])[0]
        self._history_rows = needed

    def _update_done(self, task: TaskTuple) -> None:
        record = self.records[task]
        if record.successes >= self.options.demos_per_task or record.failures >= self.options.max_failures:
            self.done.add(task)
            self.active.pop(task, None)

    def load(self, tree: TreeState, failures: list[dict[str, Any]], in_space: Callable[[TaskTuple], bool]) -> None:
        for task in sorted(set(tree.trials) | set(tree.incomplete)):
            if not in_space(task):
                continue
            record = self._record(task)
            record.used_trials.update(tree.trials.get(task, ()))
            record.used_trials.update(tree.incomplete.get(task, ()))
            count = len(tree.trials.get(task, ()))
            record.successes += count
            self._add_history(task, count)
            self.made += count
            self._update_done(task)
        for entry in failures:
            self.failure_log.append(entry)
            task = TaskTuple.from_dir_name(entry["task"])
            if task is None or not in_space(task):
                continue
            record = self._record(task)
            record.failures += 1
            if entry.get("seed") == self.options.seed and isinstance(entry.get("attempt"), int):
                record.failed_attempts.add(entry["attempt"])
            self._update_done(task)
        self.saved_failures = len(self.failure_log)

    def closed(self, task: TaskTuple, pending: int) -> bool:
        """Whether the tuple may get no further job now: its demonstrations are made or running, or
        its remaining failure budget is taken by running attempts (which might all fail)."""
        record = self.records.get(task)
        if record is None:
            return False
        return (record.successes + pending >= self.options.demos_per_task
                or record.failures + pending >= self.options.max_failures)

    def apply(self, job: Job, outcome: Outcome) -> bool:
        """Account a result; True when it changed the failure log."""
        record = self._record(job.task)
        record.used_trials.add(job.trial_id)
        if outcome.ok:
            record.successes += 1
            self._add_history(job.task)
            self.made += 1
            self._update_done(job.task)
            return False
        # Every failure counts towards closing the tuple in this run (so a crashing tuple cannot
        # be retried forever), but only the tuple's own failures are remembered across runs.
        record.failures += 1
        record.failed_attempts.add(job.attempt)
        self._update_done(job.task)
        if outcome.reason in _NOT_THE_TUPLES_FAULT:
            return False
        self.failure_log.append({
            "attempt": job.attempt, "reason": outcome.reason, "seed": self.options.seed,
            "task": job.task.dir_name(),
        })
        return True

    def failed_tuples(self) -> int:
        return sum(1 for r in self.records.values()
                   if r.failures >= self.options.max_failures and r.successes == 0)

    def next_job(self, index: int, pending: Sequence[Job]) -> Job | None:
        """The job to run next given the pending jobs (assumed to succeed), or None if no tuple is left."""
        pending_count = Counter(job.task for job in pending)
        # A started tuple that still needs demonstrations is continued first (as ALFRED does).
        task = next((t for t in self.active if t in self.sampler and not self.closed(t, pending_count[t])), None)
        if task is None:
            excluded = self.done | {t for t in self.active if self.closed(t, pending_count[t])}
            history = self._history[: self._history_rows]
            if pending:
                history = np.concatenate([history, self.sampler.encode([job.task for job in pending])])
            sample_seed = derive_int("sample", self.options.seed, len(history), len(self.done))
            task = self.sampler.sample(history, excluded, seed=sample_seed)
            if task is None:
                return None
        record = self.records.get(task) or _TupleRecord()
        busy = {job.attempt for job in pending if job.task == task}
        attempt = 0
        while True:
            name = trial_id(self.options.seed, task, attempt)
            if attempt not in busy and attempt not in record.failed_attempts and name not in record.used_trials:
                break
            attempt += 1
        self._record(task)
        return Job(index, task, attempt, spawn_seed(self.options.seed, task, attempt), name)


# --------------------------------------------------------------------------------------------
# Workers


@dataclass
class _JobContext:
    """What every job of a run shares; each worker process holds its own copy (and simulator)."""

    generate: Generator
    out: str
    options: SampleOptions
    controller_factory: Callable[[], Any] | None = None
    _controller: Any = None

    def controller(self) -> Any:
        """This process's recording simulator, made once and reused; None lets generate_trajectory
        make its own lite controller per job."""
        factory = self.controller_factory
        if factory is None and self.options.backend != "lite":
            from alfred_gen.sim import make_controller

            backend, backend_options = self.options.backend, dict(self.options.backend_options)
            # THOR needs instance segmentation for the interaction masks.
            factory = lambda: make_controller(backend, render_seg=True, **backend_options)  # noqa: E731
        if factory is None:
            return None
        if self._controller is None:
            self._controller = factory()
        return self._controller


_WORKER: dict[str, _JobContext] = {}


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when its parent dies, so a killed run leaves no writer behind."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _init_worker(context: _JobContext) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() ends a worker quietly
    _die_with_parent()
    _WORKER["context"] = context


def run_job(job: Job, context: _JobContext) -> Outcome:
    """Run one job. A pipeline exception becomes an ``exception`` outcome (never recorded as the
    tuple's fault); a UserError (e.g. the THOR backend cannot start) a ``user_error`` one."""
    try:
        kwargs: dict[str, Any] = {"frames": context.options.frames}
        controller = context.controller()
        if controller is not None:
            kwargs["controller"] = controller
        scene: int | str = job.task.scene
        if context.options.scene_set != "lite":
            scene = scene_name(job.task.scene, context.options.scene_set)
        result = context.generate(job.task.to_task_spec(), scene, job.seed, context.out, job.trial_id, **kwargs)
        timings = tuple(sorted((str(k), float(v)) for k, v in (getattr(result, "timings", None) or {}).items()))
        return Outcome(job.index, bool(result.ok), "ok" if result.ok else str(result.reason),
                       str(getattr(result, "detail", "") or ""), timings=timings)
    except UserError as error:
        return Outcome(job.index, False, "user_error", str(error), int(error.code))
    except Exception as error:  # a bug in the pipeline: report it, keep the run going
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        return Outcome(job.index, False, "exception", detail)


def _worker_run(job: Job) -> Outcome:
    return run_job(job, _WORKER["context"])


class _InlineRunner:
    """Runs jobs in this process, one at a time (workers=1): same decisions, no pool."""

    def __init__(self, context: _JobContext) -> None:
        self.context = context
        self.queue: list[Job] = []

    def submit(self, job: Job) -> None:
        self.queue.append(job)

    def running(self) -> int:
        return len(self.queue)

    def capacity(self) -> int:
        return 1

    def wait(self) -> list[Outcome]:
        job = self.queue.pop(0)
        return [run_job(job, self.context)]

    def stop(self) -> None:
        self.queue.clear()


class _PoolRunner:
    """A pool of worker processes (each builds its own simulator); results come back via a queue."""

    def __init__(self, context: _JobContext) -> None:
        methods = multiprocessing.get_all_start_methods()
        processes = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        options = context.options
        self.pool = processes.Pool(options.workers, initializer=_init_worker, initargs=(context,))
        self.results: queue.Queue = queue.Queue()
        self.workers = options.workers
        self.in_flight = 0

    def submit(self, job: Job) -> None:
        self.in_flight += 1
        self.pool.apply_async(_worker_run, (job,), callback=self.results.put,
                              error_callback=lambda error, index=job.index: self.results.put(
                                  Outcome(index, False, "exception", f"{type(error).__name__}: {error}")))

    def running(self) -> int:
        return self.in_flight

    def capacity(self) -> int:
        return self.workers

    def wait(self) -> list[Outcome]:
        while True:  # a timeout keeps Ctrl-C responsive while waiting
            try:
                outcomes = [self.results.get(timeout=0.5)]
                break
            except queue.Empty:
                continue
        while True:
            try:
                outcomes.append(self.results.get_nowait())
            except queue.Empty:
                break
        self.in_flight -= len(outcomes)
        return outcomes

    def stop(self) -> None:
        self.pool.terminate()
        self.pool.join()

    def close(self) -> None:
        self.pool.close()
        self.pool.join()


# --------------------------------------------------------------------------------------------
# The run


def _default_generate() -> Generator:
    from alfred_gen.generate import generate_trajectory

    return generate_trajectory


class _Crashed(Exception):
    """Generation keeps raising: stop rather than mark every tuple as failed."""


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (a cluster's pre-emption) stops the run like Ctrl-C: finished work is kept."""
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_sample(
    options: SampleOptions,
    generate: Generator | None = None,
    echo: Callable[..., None] | None = None,
    progress: bool = False,
    controller_factory: Callable[[], Any] | None = None,
) -> RunSummary:
    """Make ``options.n`` vetted trajectories (this shard's part of them) under ``options.out``.

    ``generate`` is generate_trajectory or a stand-in with its signature ``(task_spec, scene, seed,
    out_root, trial_id, frames=...) -> result with ok/reason/detail``; with workers > 1 it must be
    picklable (a module-level function). ``echo`` prints notes (e.g. how much was resumed);
    ``progress`` shows a click progress bar on stderr (on a terminal). ``controller_factory`` makes
    each worker's recording simulator, reused across its jobs (default: a new lite controller per job
    made by generate_trajectory, or the ``thor`` backend's controller). Returns the summary;
    KeyboardInterrupt is turned into ``summary.interrupted``.
    """
    check_options(options)
    generate = generate or _default_generate()
    note = echo or (lambda *args, **kwargs: None)
    shard_index, shard_count = options.shard
    feasible = feasible_tuples(options.task_types or None, options.scenes or None, options.scene_set)
    own = [t for t in feasible if shard_of(t, shard_count) == shard_index]
    if not own:
        raise UserError("no feasible task tuple for these task types and scenes"
                        + (f" in shard {shard_index}/{shard_count}" if shard_count > 1 else ""), ExitCode.UNSOLVABLE)
    task_filter = set(options.task_types)
    scene_filter = set(options.scenes)

    def in_space(task: TaskTuple) -> bool:
        return ((not task_filter or task.task_type in task_filter) and (not scene_filter or task.scene in scene_filter)
                and shard_of(task, shard_count) == shard_index)

    def own_trial_ids() -> set[str]:
        attempts = options.demos_per_task + options.max_failures + 1
        return {trial_id(options.seed, t, a) for t in own for a in range(attempts)}

    target = shard_quota(options.n, shard_index, shard_count)
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    with run_lock(out, options):
        removed = clean_stale_temp(out, None if shard_count == 1 else own_trial_ids)
        if removed:
            note(f"removed {removed} unfinished trajectories of an earlier run")
        ledger = Ledger(options, BalancedSampler(own))
        ledger.load(scan_tree(out), load_failures(failures_path(out, options)), in_space)
        summary = RunSummary(target=target, made_before=ledger.made)
        if ledger.made:
            note(f"resuming: {ledger.made} of {target} trajectories already in {out}")
        started = time.perf_counter()
        bar = _progress_bar(target, ledger.made) if progress and sys.stderr.isatty() else None
        try:
            with _sigterm_as_interrupt():
                _loop(options, ledger, target, generate, summary, bar, controller_factory)
        except KeyboardInterrupt:
            summary.interrupted = True
        except _Crashed:
            pass
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
            summary.seconds = time.perf_counter() - started
            summary.failed_tuples = ledger.failed_tuples()
            if summary.interrupted or summary.crashed:
                clean_stale_temp(out, None if shard_count == 1 else own_trial_ids)
    return summary


def _progress_bar(target: int, made: int) -> Any:
    import click

    bar = click.progressbar(length=target, label="sampling", file=sys.stderr, show_pos=True, show_eta=True)
    bar.__enter__()
    bar.update(min(made, target))
    return bar


def _loop(options: SampleOptions, ledger: Ledger, target: int, generate: Generator, summary: RunSummary,
          bar: Any, controller_factory: Callable[[], Any] | None) -> None:
    out = str(options.out)
    context = _JobContext(generate, out, options, controller_factory)
    runner: Any = _InlineRunner(context) if options.workers == 1 else _PoolRunner(context)
    window = options.effective_window()
    jobs: list[Job] = []
    outcomes: dict[int, Outcome] = {}
    accounted = 0  # results of jobs[:accounted] are in the ledger
    log_path = failures_path(options.out, options)
    finished = False
    try:
        while True:
            # Decide and start jobs while the deterministic rule allows.
            while not finished and runner.running() < runner.capacity():
                decision = _decide(len(jobs), jobs, outcomes, ledger, target, window, accounted)
                accounted, verdict = decision
                if verdict == "wait":
                    break
                if verdict in ("done", "exhausted"):
                    summary.exhausted = verdict == "exhausted"
                    finished = True
                    break
                jobs.append(verdict)
                runner.submit(verdict)
            _flush_log(ledger, log_path)
            if runner.running() == 0:
                if finished:
                    break
                continue
            for outcome in runner.wait():
                if outcome.reason == "user_error":
                    raise UserError(outcome.detail, ExitCode(outcome.code))
                outcomes[outcome.index] = outcome
                for phase, seconds in outcome.timings:
                    summary.phase_seconds[phase] += seconds
                if outcome.ok:
                    summary.made_now += 1
                    if bar is not None:
                        bar.update(1)
                else:
                    summary.failures[outcome.reason] += 1
                    summary.examples.setdefault(outcome.reason, outcome.detail)
            crashes = summary.failures["exception"]
            if crashes >= CRASH_LIMIT and crashes > summary.made_now:
                summary.crashed = True
                raise _Crashed
    except BaseException:
        runner.stop()
        # Keep what is known: account every result that came back, in job order.
        for index in range(accounted, len(jobs)):
            if index in outcomes:
                ledger.apply(jobs[index], outcomes[index])
        _flush_log(ledger, log_path, force=True)
        raise
    else:
        if isinstance(runner, _PoolRunner):
            runner.close()
        _flush_log(ledger, log_path, force=True)


def _flush_log(ledger: Ledger, path: Path, force: bool = False) -> None:
    """Write the failure log if it changed, at most every FAILURE_LOG_SECONDS unless ``force``.

    Entries are in job order, so the final file is deterministic. Rewriting the whole file on every
    failure would cost O(failures^2); a failure lost to a kill is merely tried again.
    """
    if ledger.saved_failures == len(ledger.failure_log):
        return
    if not force and time.monotonic() - ledger.saved_at < FAILURE_LOG_SECONDS:
        return
    save_failures(path, ledger.failure_log)
    ledger.saved_failures = len(ledger.failure_log)
    ledger.saved_at = time.monotonic()


def _decide(k: int, jobs: list[Job], outcomes: dict[int, Outcome], ledger: Ledger, target: int, window: int,
            accounted: int) -> tuple[int, Any]:
    """Decide job ``k`` from the smallest usable prefix of results (see the module docstring).

    Returns the new accounted prefix and a Job, ``"wait"`` (a needed result is not back yet),
    ``"done"`` (the target is reached) or ``"exhausted"`` (no tuple left).
    """
    def advance() -> bool:
        nonlocal accounted
        if accounted not in outcomes:
            return False
        ledger.apply(jobs[accounted], outcomes[accounted])
        accounted += 1
        return True

    while accounted < k - window:
        if not advance():
            return accounted, "wait"
    while True:
        in_flight = k - accounted
        if ledger.made + in_flight >= target:
            if in_flight == 0:
                return accounted, "done"
            if not advance():
                return accounted, "wait"
            continue
        job = ledger.next_job(k, jobs[accounted:k])
        if job is not None:
            return accounted, job
        if in_flight == 0:
            return accounted, "exhausted"
        if not advance():
            return accounted, "wait"


# --------------------------------------------------------------------------------------------
# CLI entry


def sample_command(
    n: int,
    out: str,
    seed: int = 0,
    workers: int = 1,
    task_types: Sequence[str] | str | None = None,
    scenes: Sequence[str] | str | None = None,
    demos_per_task: int = 3,
    shard: str | None = None,
    backend: str = "lite",
    frames: bool = True,
    echo: Callable[..., None] = print,
    progress: bool = True,
    backend_options: Mapping[str, Any] | None = None,
    scene_set: str = "lite",
) -> int:
    """`alfred-gen sample`: parse the option strings, run, print the summary; the exit code."""
    options = SampleOptions(
        n=int(n), out=Path(out), seed=int(seed), workers=int(workers), task_types=parse_task_types(task_types),
        scenes=parse_scenes(scenes), demos_per_task=int(demos_per_task), shard=parse_shard(shard), backend=backend,
        backend_options=tuple(sorted((backend_options or {}).items())), frames=frames, scene_set=scene_set,
    )
    summary = run_sample(options, echo=echo, progress=progress)
    for line in summary.lines():
        echo(line)
    code = summary.exit_code()
    if code == ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    return code
