"""The parent's loop: start the jobs the schedule asks for on the executor, take outcomes back, stop
cleanly on any exit.

Outcomes feed the summary and the progress bar as they arrive and the schedule (and through it the
ledger) at once: the schedule's decisions never depend on arrival order (see
:mod:`alfred_gen.sample.schedule`), so no reordering is needed. The failure log on disk is kept
current (every few seconds and at the end), and on an interrupt or crash the workers are stopped
and every result that came back is saved first.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, JobError, UserError
from alfred_gen.sample.disk_state import save_failures
from alfred_gen.sample.jobs import Job
from alfred_gen.sample.ledger import Ledger, succeeded
from alfred_gen.sample.report import RunSummary
from alfred_gen.sample.schedule import Schedule
from alfred_gen.sample.workers import Executor

#: Exceptions (pipeline bugs) tolerated before a run that makes fewer trajectories than it crashes stops.
CRASH_LIMIT = 5

#: Seconds between saves of the failure log during a run (it is always saved at the end).
FAILURE_LOG_SECONDS = 2.0

#: Seconds one wait for outcomes lasts at most (Ctrl-C and dead workers are seen at least this often).
WAIT_SECONDS = 0.5


class Crashed(Exception):
    """Generation keeps raising: stop rather than mark every tuple as failed."""


def drive_jobs(schedule: Schedule, start_executor: Callable[[], Executor], out: Path,
               summary: RunSummary, bar: Any) -> Executor | None:
    """Run the schedule's jobs until every group is done, updating ``summary`` and ``bar``; the
    executor is started by ``start_executor`` when the first job is known, so a run with nothing
    left to do starts no worker (nor connects to a cluster), and is kept at its capacity. Returns
    the executor (None if none was needed).

    Raises UserError when a worker reports one (e.g. the backend cannot start), :class:`Crashed`
    when generation keeps raising, and lets KeyboardInterrupt through; in every case the workers
    are stopped and the failure log is saved first.
    """
    ledger = schedule.ledger
    running: dict[int, Job] = {}
    found = 0  # trials of earlier runs counted on the bar so far
    executor: Executor | None = None
    try:
        while True:
            if executor is None:
                first = schedule.next_jobs(1)
                if first:
                    executor = start_executor()
                    running[first[0].index] = first[0]
                    executor.submit(first[0])
            if executor is not None:
                for job in schedule.next_jobs(max(0, executor.capacity() - executor.running())):
                    running[job.index] = job
                    executor.submit(job)
            if ledger.found > found:  # the schedule found (and checked) trials of an earlier run
                bar.update(ledger.found - found)
                found = ledger.found
            if executor is None or executor.running() == 0:
                break  # nothing runs and nothing can start: every group is done
            for outcome in executor.wait(WAIT_SECONDS):
                job = running.pop(outcome.index)
                if outcome.reason == JobError.USER_ERROR:
                    raise UserError(outcome.detail, ExitCode(outcome.code))
                schedule.apply(job, outcome)
                _count(summary, bar, outcome)
            flush_failure_log(ledger, out)
            crashes = summary.failures[JobError.EXCEPTION]
            if crashes >= CRASH_LIMIT and crashes > summary.made_now:
                summary.crashed = True
                raise Crashed
    except BaseException:
        if executor is not None:
            executor.stop()
        flush_failure_log(ledger, out, force=True)
        raise
    if executor is not None:
        executor.close()
    flush_failure_log(ledger, out, force=True)
    return executor


def _count(summary: RunSummary, bar: Any, outcome: Any) -> None:
    for phase, seconds in outcome.timings:
        summary.phase_seconds[phase] += seconds
    if succeeded(outcome):
        summary.made_now += 1
        bar.update(1)
    elif outcome.reason == JobError.CRASHED:
        pass  # not an attempt's outcome: the job runs again (the summary counts the deaths)
    else:
        summary.failures[outcome.reason] += 1
        summary.examples.setdefault(str(outcome.reason), outcome.detail)


def flush_failure_log(ledger: Ledger, out: Path, force: bool = False) -> None:
    """Save the failures recorded since the last save, at most every FAILURE_LOG_SECONDS unless
    ``force``. A failure lost to a kill is merely tried again (with the same outcome)."""
    if not ledger.unsaved:
        return
    if not force and time.monotonic() - ledger.saved_at < FAILURE_LOG_SECONDS:
        return
    save_failures(out, ledger.take_unsaved())
