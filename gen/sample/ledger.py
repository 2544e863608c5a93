"""The ledger: what is known about each attempt, from the output directory and from this run.

An attempt (a tuple, its attempt number and, for a replacement, its group; named by its trial id)
has succeeded when its trial is on disk and matches the plan (checked the first time the schedule
asks, :class:`alfred_gen.sample.disk_state.TrialProbe`), has failed when the failure log says so,
and is unknown otherwise. An unknown attempt is simply run: its outcome is a
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


def succeeded(outcome: Outcome) -> bool:
    """Whether an outcome puts its trial in the tree: made now, or found already there."""
    return outcome.ok or outcome.reason == GenerationReason.EXISTS


class Ledger:
    """Known outcomes of attempts (keyed by trial id: one per attempt of a plan), and the failure
    records this run has not saved yet."""

    def __init__(self, options: SampleOptions, failures: Iterable[dict[str, Any]] = (),
                 on_disk: Callable[[TaskTuple, str, int], bool] | None = None,
                 on_made: Callable[[Job, Outcome], None] | None = None) -> None:
        self.options = options
        #: checks whether an attempt's trial (tuple, trial id, spawn seed) is on disk; asked once per attempt
        self.on_disk = on_disk
        #: told of every trial this run made (e.g. to keep its stamp)
        self.on_made = on_made
        self._probed: set[str] = set()
        self.found = 0  #: trials found on disk (and checked) so far
        self.succeeded: set[str] = set()
        self.failed: dict[str, str] = {}
        for record in failures:
            trial = self._trial_of(record)
            if trial is not None:
                self.failed[trial] = str(record.get("reason", ""))
        self.unsaved: list[dict[str, Any]] = []
        self.saved_at = float("-inf")  #: time.monotonic() of the last save

    def _trial_of(self, record: dict[str, Any]) -> str | None:
        """The trial a failure record is about, if it was made with this run's seed, backend and scene set."""
        trial = record.get("trial")
        same = (record.get("seed") == self.options.seed and record.get("backend") == self.options.backend
                and record.get("scene_set") == self.options.scene_set)
        return trial if same and isinstance(trial, str) else None

    def known(self, task: TaskTuple, trial: str, spawn: int) -> bool | None:
        """True (on disk), False (recorded as failed) or None (unknown: to be run)."""
        if trial not in self._probed:
            self._probed.add(trial)
            if self.on_disk is not None and self.on_disk(task, trial, spawn):
                self.succeeded.add(trial)
                self.found += 1
        if trial in self.succeeded:
            return True
        if trial in self.failed:
            return False
        return None

    def apply(self, job: Job, outcome: Outcome) -> None:
        """Remember a result; a failure of the tuple's own is queued for the failure log."""
        if succeeded(outcome):
            self.succeeded.add(job.trial_id)
            if outcome.ok and self.on_made is not None:
                self.on_made(job, outcome)
        elif outcome.reason not in JobError._value2member_map_:
            self.failed[job.trial_id] = str(outcome.reason)
            self.unsaved.append(self.record(job, str(outcome.reason)))

    def record(self, job: Job, reason: str) -> dict[str, Any]:
        """The failure log's entry for a failed job."""
        return {"attempt": job.attempt, "backend": self.options.backend, "reason": reason,
                "scene_set": self.options.scene_set, "seed": self.options.seed, "task": job.task.dir_name(),
                "trial": job.trial_id}

    def take_unsaved(self) -> list[dict[str, Any]]:
        """The records not saved yet (and forget them: the caller saves them)."""
        records, self.unsaved = self.unsaved, []
        self.saved_at = time.monotonic()
        return records
