"""The ledger: per-tuple counts of made and failed attempts, and the choice of the next job.

A started tuple is continued until it has ``demos_per_task`` trajectories or ``max_failures`` failed
attempts (then it is recorded as failed and never sampled again); otherwise the balanced sampler
picks a new tuple. Each attempt gets its own spawn seed and a trial id hashed from (run seed, tuple,
attempt), so no two jobs ever write the same directory. The ledger only changes through results
applied in job order, which is what makes runs reproducible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from alfred_gen.errors import GenerationReason, JobError
from alfred_gen.sample.balance import BalancedSampler
from alfred_gen.sample.disk_state import TreeState
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.trial_ids import derive_int, spawn_seed, trial_id

#: Outcomes that say nothing about the tuple (not recorded as its failures).
_NOT_THE_TUPLES_FAULT = frozenset({GenerationReason.EXISTS, JobError.EXCEPTION})


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
        """Count what an earlier run left: the finished trials on disk and the recorded failures of
        tuples in this run's space (``in_space``); every recorded failure is kept in the log."""
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
            failed = TaskTuple.from_dir_name(entry["task"])
            if failed is None or not in_space(failed):
                continue
            task = failed
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
        """Tuples that spent their failure budget without one trajectory (for the summary)."""
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

