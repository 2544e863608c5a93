"""The parent's loop: start jobs as the schedule allows, collect outcomes, stop cleanly on any exit.

It feeds outcomes into the summary as they arrive (for progress) but into the ledger only in job
order (through the schedule), keeps the failure log on disk current, and on an interrupt or crash
stops the workers and saves every result that came back, so nothing known is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, JobError, ScheduleVerdict, UserError
from alfred_gen.sample.disk_state import failures_path, save_failures
from alfred_gen.sample.jobs import Generator, Job, Outcome
from alfred_gen.sample.ledger import Ledger
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.report import RunSummary
from alfred_gen.sample.schedule import decide_job
from alfred_gen.sample.workers import InlineRunner, JobContext, PoolRunner
from alfred_gen.sim.controller import Controller

#: Exceptions (pipeline bugs) tolerated before a run that makes fewer trajectories than it crashes stops.
CRASH_LIMIT = 5

#: Seconds between rewrites of the failure log during a run (it is always written at the end).
FAILURE_LOG_SECONDS = 2.0


class Crashed(Exception):
    """Generation keeps raising: stop rather than mark every tuple as failed."""


def drive_jobs(options: SampleOptions, ledger: Ledger, target: int, generate: Generator, summary: RunSummary,
               bar: Any, controller_factory: Callable[[], Controller] | None) -> None:
    """Run jobs until the target is reached or no tuple is left, updating ``summary`` and ``bar``.

    Raises UserError when a worker reports one (e.g. the backend cannot start), :class:`Crashed`
    when generation keeps raising, and lets KeyboardInterrupt through; in every case the workers
    are stopped and the failure log is written first.
    """
    out = str(options.out)
    context = JobContext(generate, out, options, controller_factory)
    runner: Any = InlineRunner(context) if options.workers == 1 else PoolRunner(context)
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
                decision = decide_job(len(jobs), jobs, outcomes, ledger, target, window, accounted)
                accounted, verdict = decision
                if verdict == ScheduleVerdict.WAIT:
                    break
                if verdict in (ScheduleVerdict.DONE, ScheduleVerdict.EXHAUSTED):
                    summary.exhausted = verdict == ScheduleVerdict.EXHAUSTED
                    finished = True
                    break
                jobs.append(verdict)
                runner.submit(verdict)
            flush_failure_log(ledger, log_path)
            if runner.running() == 0:
                if finished:
                    break
                continue
            for outcome in runner.wait():
                if outcome.reason == JobError.USER_ERROR:
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
            crashes = summary.failures[JobError.EXCEPTION]
            if crashes >= CRASH_LIMIT and crashes > summary.made_now:
                summary.crashed = True
                raise Crashed
    except BaseException:
        runner.stop()
        # Keep what is known: account every result that came back, in job order.
        for index in range(accounted, len(jobs)):
            if index in outcomes:
                ledger.apply(jobs[index], outcomes[index])
        flush_failure_log(ledger, log_path, force=True)
        raise
    else:
        if isinstance(runner, PoolRunner):
            runner.close()
        flush_failure_log(ledger, log_path, force=True)


def flush_failure_log(ledger: Ledger, path: Path, force: bool = False) -> None:
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

