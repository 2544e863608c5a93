"""The ledger: what is known about each attempt, from the output directory and from this run.

An attempt (a tuple and its attempt number) has succeeded when its trial is on disk and matches the
plan (checked the first time the schedule asks, :class:`alfred_gen.sample.disk_state.TrialProbe`), has failed when the
failure log says so, and is unknown otherwise. An unknown attempt is simply run: its outcome is a
function of the attempt alone, so running it again says what a record lost to a kill would have
said. The log therefore only saves work; it never changes what the dataset is.

Only the tuple's own failures are recorded (a :class:`~alfred_gen.errors.GenerationReason`); a
pipeline exception or a worker that died says nothing about the tuple and is not remembered
across runs. Records name the seed, backend and scene set they were made with, and only records
of this run's ones are used.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from alfred_gen.errors import GenerationReason, JobError
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.options import SampleOptions

Attempt = tuple[TaskTuple, int]


def succeeded(outcome: Outcome) -> bool:
    """Whether an outcome puts its trial in the tree: made now, or found already there."""
    return outcome.ok or outcome.reason == GenerationReason.EXISTS


class Ledger:
    """Known outcomes of attempts, and the failure records this run has not saved yet."""

    def __init__(self, options: SampleOptions, failures: Iterable[dict[str, Any]] = (),
                 on_disk: Callable[[TaskTuple, int], bool] | None = None) -> None:
        self.options = options
        self.on_disk = on_disk  #: checks whether an attempt's trial is on disk (asked once per attempt)
        self._probed: set[Attempt] = set()
        self.found = 0  #: trials found on disk (and checked) so far
        self.succeeded: set[Attempt] = set()
        self.failed: dict[Attempt, str] = {}
        for record in failures:
            attempt = self._attempt_of(record)
            if attempt is not None:
                self.failed[attempt] = str(record.get("reason", ""))
        self.unsaved: list[dict[str, Any]] = []
        self.saved_at = float("-inf")  #: time.monotonic() of the last save

    def _attempt_of(self, record: dict[str, Any]) -> Attempt | None:
        """The attempt a failure record is about, if it was made with this run's seed, backend and scene set."""
        task = TaskTuple.from_dir_name(str(record.get("task", "")))
        attempt = record.get("attempt")
        if task is None or isinstance(attempt, bool) or not isinstance(attempt, int):
            return None
        same = (record.get("seed") == self.options.seed and record.get("backend") == self.options.backend
                and record.get("scene_set") == self.options.scene_set)
        return (task, attempt) if same else None

    def known(self, task: TaskTuple, attempt: int) -> bool | None:
        """True (on disk), False (recorded as failed) or None (unknown: to be run)."""
        key = (task, attempt)
        if key not in self._probed:
            self._probed.add(key)
            if self.on_disk is not None and self.on_disk(task, attempt):
                self.succeeded.add(key)
                self.found += 1
        if key in self.succeeded:
            return True
        if (task, attempt) in self.failed:
            return False
        return None

    def apply(self, job: Job, outcome: Outcome) -> None:
        """Remember a result; a failure of the tuple's own is queued for the failure log."""
        key = (job.task, job.attempt)
        if succeeded(outcome):
            self.succeeded.add(key)
        elif outcome.reason not in JobError._value2member_map_:
            self.failed[key] = str(outcome.reason)
            self.unsaved.append(self.record(job, str(outcome.reason)))

    def record(self, job: Job, reason: str) -> dict[str, Any]:
        """The failure log's entry for a failed job."""
        return {"attempt": job.attempt, "backend": self.options.backend, "reason": reason,
                "scene_set": self.options.scene_set, "seed": self.options.seed, "task": job.task.dir_name()}

    def take_unsaved(self) -> list[dict[str, Any]]:
        """The records not saved yet (and forget them: the caller saves them)."""
        records, self.unsaved = self.unsaved, []
        self.saved_at = time.monotonic()
        return records
