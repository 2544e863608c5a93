"""The Ray executor: each job a Ray task, on this machine or on a cluster, the same dataset.

A second implementation of :class:`~alfred_gen.sample.workers.Executor` next to the local ones, so
the schedule, ledger, resume, failure log, progress bar, summary and exit codes are the same code
whichever runs the jobs. Only *where* a job runs changes:

- A job is a Ray task (one CPU) that runs :func:`~alfred_gen.sample.workers.run_job` in a Ray worker
  process, into a scratch directory on that worker's machine, and returns the outcome with the
  finished trial as bytes (:mod:`~alfred_gen.sample.trial_files`). The driver (this process) commits
  it into the output with one rename, as generate_trajectory does locally: no shared file system is
  needed, and a killed driver leaves complete trials only.
- Each Ray worker process keeps the run's :class:`~alfred_gen.sample.workers.JobContext` (and so its
  simulator) across the tasks it runs, like a local worker.
- Ray does not retry a task itself (``max_retries=0``): a worker or node that dies gives a
  ``crashed`` outcome, and the schedule starts the job again, as it does when a local worker is
  killed. A job's bytes depend on the job alone, so where and how often it ran never shows.

Ray is imported here only, and only when this executor is asked for: it is an optional extra
(``pip install 'alfred-gen[ray]'``), heavy to import, and the CLI must stay fast without it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, GenerationReason, JobError, UserError
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.trial_files import PackedTrial, commit_trial, pack_trial
from alfred_gen.sample.workers import JobContext, run_job

#: Seconds to wait for a TCP connection to ``--ray-address HOST:PORT`` before saying it cannot be
#: reached (ray.init itself retries an unreachable address for minutes).
CONNECT_SECONDS = 5.0

#: Scratch directories of Ray workers: ``<tmp>/alfred-gen-ray-<pid>``, one per worker process.
SCRATCH_PREFIX = "alfred-gen-ray-"

INSTALL_HINT = "pip install 'alfred-gen[ray]'"


# --------------------------------------------------------------------------------------------
# Before the run: is Ray there, is the cluster reachable?


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` -> (host, port); UserError USAGE otherwise."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UserError(f"--ray-address must be auto or HOST:PORT, got {address!r}", ExitCode.USAGE)
    return host.strip("[]"), int(port)


def preflight(options: SampleOptions) -> None:
    """Fail in one line before any work when the address is malformed (a usage error, whether or not
    Ray is installed), Ray is not installed (or does not import) or the address is unreachable."""
    address = options.ray_address
    host_port = None if address in (None, "auto") else split_address(address)
    try:
        import ray  # noqa: F401  (only whether it imports: the executor uses it later)
    except ImportError as error:
        raise UserError(f"--executor ray needs Ray, which does not import here ({error}): {INSTALL_HINT}",
                        ExitCode.EXECUTOR_UNAVAILABLE) from None
    if host_port is None:
        return
    host, port = host_port
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as error:
        raise UserError(f"cannot reach the Ray cluster at {address}: {error.strerror or error}",
                        ExitCode.EXECUTOR_UNAVAILABLE) from None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Ray's C++ core logs every retry of an address that answers but is not a Ray head (a line a
    second, for about twenty seconds) straight to file descriptor 2; while joining a cluster that is
    sent to a scratch file, so a failure stays one line. (Not while starting a Ray here: its
    processes would inherit the scratch file as their stderr.)"""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as scratch:
            os.dup2(scratch.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
    finally:
        os.close(saved)


def _connect(ray: Any, options: SampleOptions) -> bool:
    """Connect this process to Ray (True), unless it already is (False: the caller's Ray is used).

    No address (and no RAY_ADDRESS) starts a Ray on this machine with ``--workers`` CPUs (all if
    unset); ``auto`` or ``HOST:PORT`` joins a running cluster.
    """
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"address": options.ray_address, "logging_level": logging.WARNING,
                              "log_to_driver": False}
    if options.ray_address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs.update(num_cpus=options.workers or None, include_dashboard=False)
    # ray.init installs a SIGTERM handler that exits the process; the run's own one (SIGTERM stops
    # the run like Ctrl-C, finished work kept) must stay in place.
    previous = signal.getsignal(signal.SIGTERM)
    joining = "num_cpus" not in kwargs
    try:
        with _quiet_stderr() if joining else contextlib.nullcontext():
            ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as error:
        # ConnectionError: no cluster there; RuntimeError: one of another Ray or Python version;
        # ValueError: an address Ray cannot parse.
        where = options.ray_address or os.environ.get("RAY_ADDRESS") or "auto"
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        verb = "reach" if isinstance(error, ConnectionError) else "use"
        raise UserError(f"cannot {verb} the Ray cluster at {where}: {first_line}",
                        ExitCode.EXECUTOR_UNAVAILABLE) from None
    finally:
        with contextlib.suppress(ValueError, TypeError):  # not the main thread / no Python handler
            signal.signal(signal.SIGTERM, previous)
    return True


# --------------------------------------------------------------------------------------------
# In a Ray worker process

#: The run this worker process last served: (run token, its context with this worker's simulator).
_served: dict[str, JobContext] = {}


def _scratch_dir() -> Path:
    return Path(tempfile.gettempdir()) / f"{SCRATCH_PREFIX}{os.getpid()}"


def _remove_dead_scratch() -> None:
    """Scratch directories of worker processes that died mid-job (killed, OOM) are removed by the
    next worker on the same machine."""
    for path in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*"):
        pid = path.name[len(SCRATCH_PREFIX):]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:  # alive, another user's
            pass


def run_remote(token: str, context: JobContext, job: Job) -> tuple[Outcome, PackedTrial | None]:
    """A Ray task: run one job into this worker's scratch directory and return its outcome and, when
    it made a trial, the trial as bytes. The context (and the simulator it makes) is kept for the
    run's next tasks in this process."""
    served = _served.get(token)
    if served is None:
        _remove_dead_scratch()
        _served.clear()  # an earlier run's context is not needed any more
        served = _served[token] = dataclasses.replace(context, out=str(_scratch_dir()), stamp_trials=False)
    scratch = Path(served.out)
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        outcome = run_job(job, served)
        packed = pack_trial(scratch, job.trial_id) if outcome.ok else None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if outcome.ok and packed is None:
        outcome = Outcome(job.index, False, JobError.EXCEPTION, "the generator said ok but wrote no trial directory")
    return outcome, packed


# --------------------------------------------------------------------------------------------
# In the driver


class RayExecutor:
    """Jobs as Ray tasks; ``--workers`` of them at once (default: the cluster's CPUs)."""

    def __init__(self, context: JobContext) -> None:
        preflight(context.options)
        import ray  # the optional extra, imported only by this executor

        self._ray = ray
        self.context = context
        self.out = Path(context.out)
        self.deaths = 0  #: tasks whose worker process (or node) died
        self._owns_connection = _connect(ray, context.options)
        self._task = ray.remote(num_cpus=1, max_retries=0)(run_remote)
        self._token = uuid.uuid4().hex
        self._context_ref = ray.put(context)
        self._running: dict[Any, Job] = {}
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self._capacity = context.options.workers or max(1, cpus)

    def capacity(self) -> int:
        return self._capacity

    def running(self) -> int:
        return len(self._running)

    def submit(self, job: Job) -> None:
        self._running[self._task.remote(self._token, self._context_ref, job)] = job

    def wait(self, timeout: float) -> list[Outcome]:
        if not self._running:
            return []
        ray = self._ray
        ready, rest = ray.wait(list(self._running), num_returns=1, timeout=timeout)
        if ready and rest:
            ready += ray.wait(rest, num_returns=len(rest), timeout=0)[0]
        return [self._finish(self._running.pop(ref), ref) for ref in ready]

    def _finish(self, job: Job, ref: Any) -> Outcome:
        """The job's outcome, its trial committed into the output."""
        exceptions = self._ray.exceptions
        try:
            outcome, packed = self._ray.get(ref)
        except exceptions.RayTaskError as error:  # raised outside run_job, e.g. alfred-gen missing on a node
            lines = str(error).strip().splitlines()
            return Outcome(job.index, False, JobError.EXCEPTION, lines[-1] if lines else type(error).__name__)
        except exceptions.RayError as error:  # the worker process or its node died, or the result was lost
            self.deaths += 1
            return Outcome(job.index, False, JobError.CRASHED, f"the Ray worker died ({type(error).__name__})")
        if not outcome.ok or packed is None:
            return outcome
        try:
            committed = commit_trial(self.out, packed)
        except (OSError, ValueError) as error:
            return Outcome(job.index, False, JobError.EXCEPTION, f"cannot write {packed.trial_id}: {error}")
        if not committed:
            return Outcome(job.index, False, GenerationReason.EXISTS, f"{packed.trial_id} already exists")
        return outcome

    def _disconnect(self) -> None:
        self._running.clear()
        if self._owns_connection:
            self._owns_connection = False
            self._ray.shutdown()

    def stop(self) -> None:
        for ref in self._running:
            with contextlib.suppress(Exception):
                self._ray.cancel(ref, force=True)
        self._disconnect()

    def close(self) -> None:
        self._disconnect()
