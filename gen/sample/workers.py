"""Executors: who runs a job. In this process (one worker) or in worker processes of our own.

An executor takes :class:`~alfred_gen.sample.jobs.Job` s and gives back
:class:`~alfred_gen.sample.jobs.Outcome` s; it decides nothing about what to run (that is the
schedule's), so which executor runs a job never changes what is made. Both here follow one small
protocol (:class:`Executor`), as does the Ray executor (:mod:`~alfred_gen.sample.ray_executor`),
which runs jobs on a cluster.

The process executor supervises its workers itself instead of using ``multiprocessing.Pool``,
which waits forever for the result of a worker killed by a signal or the OOM killer. Each worker has
its own pipe and runs one job at a time, so the parent always knows which job a worker holds; it
waits on the pipes *and* on the processes' sentinels (with a timeout, so Ctrl-C is seen at once),
so a dead worker is noticed within the wait, its job comes back as ``crashed`` and a new worker
takes its place. Stopping never blocks: workers are sent SIGTERM, then SIGKILL after a short grace.
Workers ignore Ctrl-C (the parent stops them) and die with their parent, so a killed run leaves no
writer behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import multiprocessing
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Protocol

from alfred_gen.demo.language import DEFAULT_ANNOTATIONS
from alfred_gen.errors import GenerationReason, JobError, UserError
from alfred_gen.sample.disk_state import unwritable_output
from alfred_gen.sample.feasibility import scene_name
from alfred_gen.sample.jobs import Generator, Job, Outcome
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.trial_check import Stamp, check_trial
from alfred_gen.sim.controller import Controller, Simulator

#: Seconds a stopped worker gets to exit after SIGTERM before it is killed.
STOP_GRACE_SECONDS = 1.0

#: The signals that stop a run (Ctrl-C, and a cluster's pre-emption).
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Executor(Protocol):
    """Runs jobs somewhere and reports their outcomes (any order)."""

    def capacity(self) -> int:
        """How many jobs may run at once."""
        ...

    def running(self) -> int:
        """Jobs submitted whose outcome has not been returned by :meth:`wait` yet."""
        ...

    def submit(self, job: Job) -> None:
        """Start a job (only while running() < capacity())."""
        ...

    def wait(self, timeout: float) -> list[Outcome]:
        """Outcomes that have come in, waiting up to ``timeout`` seconds for the first one."""
        ...

    def stop(self) -> None:
        """End every running job now (Ctrl-C, an error): never blocks for more than a few seconds."""
        ...

    def close(self) -> None:
        """End the workers after the last job (the normal end)."""
        ...


@dataclass
class JobContext:
    """What every job of a run shares; each worker process holds its own copy (and simulator)."""

    generate: Generator
    out: str
    options: SampleOptions
    controller_factory: Callable[[], Controller] | None = None
    #: run the resume check on each made trial where it was written (False where the trial is
    #: written elsewhere first, as Ray's scratch directories: its files' stamps would not hold)
    stamp_trials: bool = True
    _controller: Controller | None = None
    _vetting: Controller | None = None

    def vet_simulator(self) -> Simulator | None:
        """The backend other than lite a run records with, with its options (THOR's build, platform,
        display); None for lite."""
        if self.options.backend == "lite":
            return None
        from alfred_gen.scenes.library import simulator  # imported by the workers that need it

        return simulator(self.options.backend, dict(self.options.backend_options))

    def vet_controller(self) -> Controller:
        """This process's vetting controller for a backend other than lite: a second controller of
        the same build and options, never the recording one, made once and reset to the file's
        scene by every vet (a THOR build is slow to start, and each vet restores from scratch)."""
        recipe = self.vet_simulator()
        if recipe is None:
            raise ValueError("lite runs are vetted by generate_trajectory's own lite simulator")
        if self._vetting is None:
            self._vetting = recipe.open()
        return self._vetting

    def controller(self) -> Any:
        """This process's recording simulator, made once and reused; None lets generate_trajectory
        make its own lite controller per job."""
        factory = self.controller_factory
        recipe = self.vet_simulator()
        if factory is None and recipe is not None:
            # THOR needs instance segmentation for the interaction masks.
            factory = functools.partial(recipe.open, render=self.options.frames, segmentation=True)
        if factory is None:
            return None
        if self._controller is None:
            self._controller = factory()
        return self._controller


def _stamp_made(job: Job, context: JobContext) -> Stamp | None:
    """The resume check, run here on the trial this job just wrote (the worker has its files in the
    page cache; the parent would pay ~0.1 s a trial), so that a resumed run need not check it: its
    stamp. None if the check fails (the next run then checks the trial, and makes it again)."""
    directory = Path(context.out) / job.task.dir_name() / job.trial_id
    try:
        problem, stamp = check_trial(directory, job.task, job.trial_id, job.seed, context.options.frames)
    except Exception:  # the trial is made: a check that cannot run only leaves it to the next run
        return None
    return stamp if problem is None else None


def run_job(job: Job, context: JobContext) -> Outcome:
    """Run one job. A pipeline exception becomes an ``exception`` outcome (never recorded as the
    tuple's fault); a UserError (e.g. the THOR backend cannot start) a ``user_error`` one."""
    try:
        kwargs: dict[str, Any] = {"frames": context.options.frames}
        if context.options.annotations != DEFAULT_ANNOTATIONS:  # stand-in generators of tests need not know it
            kwargs["annotations"] = context.options.annotations
        controller = context.controller()
        if controller is not None:
            kwargs["controller"] = controller
        if context.vet_simulator() is not None:
            kwargs["vet_controller"] = context.vet_controller  # vetted where it was recorded: THOR's in THOR
        scene = scene_name(job.task.scene, context.options.scene_set)
        result = context.generate(job.task.to_task_spec(), scene, job.seed, context.out, job.trial_id, **kwargs)
        timings = tuple(sorted((str(k), float(v)) for k, v in (getattr(result, "timings", None) or {}).items()))
        stamp = _stamp_made(job, context) if result.ok and context.stamp_trials else None
        return Outcome(job.index, bool(result.ok), GenerationReason.OK if result.ok else result.reason,
                       str(getattr(result, "detail", "") or ""), timings=timings, stamp=stamp)
    except UserError as error:
        return Outcome(job.index, False, JobError.USER_ERROR, str(error), int(error.code))
    except Exception as error:  # a bug in the pipeline: report it, keep the run going
        unwritable = unwritable_output(Path(context.out), error)  # a full disk is the user's to fix
        if unwritable is not None:
            return Outcome(job.index, False, JobError.USER_ERROR, str(unwritable), int(unwritable.code))
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        return Outcome(job.index, False, JobError.EXCEPTION, detail)


class InlineExecutor:
    """Runs jobs in this process, one at a time (workers=1): the same outcomes, no processes."""

    def __init__(self, context: JobContext) -> None:
        self.context = context
        self.queue: list[Job] = []

    def capacity(self) -> int:
        return 1

    def running(self) -> int:
        return len(self.queue)

    def submit(self, job: Job) -> None:
        self.queue.append(job)

    def wait(self, timeout: float) -> list[Outcome]:
        if not self.queue:
            return []
        return [run_job(self.queue.pop(0), self.context)]

    def stop(self) -> None:
        self.queue.clear()

    def close(self) -> None:
        self.queue.clear()


# --------------------------------------------------------------------------------------------
# Worker processes


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when its parent dies, so a killed run leaves no writer behind."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _worker_main(connection: Connection, context: JobContext) -> None:
    """A worker: take a job, run it, send the outcome back; until told to stop or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # stop() ends a worker at once, even mid-job
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)  # held by the parent while it forked us
    _die_with_parent()
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        connection.send(run_job(job, context))


@dataclass
class _Worker:
    process: Any  # multiprocessing.Process of the chosen start method
    connection: Connection
    job: Job | None = None


class ProcessExecutor:
    """``workers`` processes of our own, each with its own simulator, one job at a time."""

    def __init__(self, context: JobContext, workers: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        self._processes: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.context = context
        self.workers: list[_Worker] = []
        self.deaths = 0  #: workers that died while running a job
        if self._processes.get_start_method() == "fork":
            from alfred_gen.sim.raster_kernel import warm

            warm()  # forked workers inherit the renderer's compiled loop (numba), loaded once here
        for _ in range(workers):
            self.workers.append(self._start_worker())

    def _start_worker(self) -> _Worker:
        parent_end, child_end = self._processes.Pipe(duplex=True)
        process = self._processes.Process(target=_worker_main, args=(child_end, self.context), daemon=True)
        # Ctrl-C during the fork would land in an at-fork handler, which swallows the exception (and
        # the run would not stop): hold the signals until the worker has started.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        child_end.close()
        return _Worker(process, parent_end)

    def capacity(self) -> int:
        return len(self.workers)

    def running(self) -> int:
        return sum(1 for worker in self.workers if worker.job is not None)

    def submit(self, job: Job) -> None:
        worker = next(w for w in self.workers if w.job is None)
        worker.job = job
        try:
            worker.connection.send(job)
        except OSError:  # the worker died while idle: its replacement takes the job
            self._replace(worker)
            self.submit(job)

    def _replace(self, worker: _Worker) -> None:
        """A new worker in the place of a dead one."""
        self._end(worker, graceful=False)
        worker.process.join(STOP_GRACE_SECONDS)
        self.workers[self.workers.index(worker)] = self._start_worker()

    @staticmethod
    def _receive(worker: _Worker) -> Outcome | None:
        """The outcome a worker sent, or None if it died before (or while) sending it."""
        try:
            outcome = worker.connection.recv()
        except Exception:  # EOF, or a message cut short by the worker's death
            return None
        return outcome if isinstance(outcome, Outcome) else None

    def wait(self, timeout: float) -> list[Outcome]:
        busy = [w for w in self.workers if w.job is not None]
        if not busy:
            return []
        ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy], timeout))
        outcomes: list[Outcome] = []
        for worker in busy:
            job = worker.job
            assert job is not None
            answered = worker.connection in ready
            dead = worker.process.sentinel in ready
            if not (answered or dead):
                continue
            outcome = self._receive(worker) if answered or worker.connection.poll() else None
            if outcome is None:
                if dead:
                    worker.process.join(STOP_GRACE_SECONDS)  # reap it, so that its exit code is known
                code = worker.process.exitcode
                how = f"killed by signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
                outcome = Outcome(job.index, False, JobError.CRASHED, f"the worker process died ({how})")
                self.deaths += 1
                dead = True
            worker.job = None
            outcomes.append(outcome)
            if dead:
                self._replace(worker)
        return outcomes

    def _end(self, worker: _Worker, graceful: bool) -> None:
        if graceful and worker.process.is_alive():
            with contextlib.suppress(OSError):
                worker.connection.send(None)
            worker.process.join(STOP_GRACE_SECONDS)
        if worker.process.is_alive():
            worker.process.terminate()
        with contextlib.suppress(OSError):
            worker.connection.close()

    def _end_all(self, graceful: bool) -> None:
        for worker in self.workers:
            self._end(worker, graceful)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for worker in self.workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
        for worker in self.workers:
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(STOP_GRACE_SECONDS)
            worker.job = None

    def stop(self) -> None:
        self._end_all(graceful=False)

    def close(self) -> None:
        self._end_all(graceful=True)


def make_executor(context: JobContext) -> Executor:
    """The executor the options ask for: Ray tasks for ``--executor ray``; else in this process for
    one worker, worker processes for more."""
    if context.options.executor == "ray":
        from alfred_gen.sample.ray_executor import RayExecutor  # Ray is imported only when asked for

        return RayExecutor(context)
    workers = context.options.workers
    return InlineExecutor(context) if workers == 1 else ProcessExecutor(context, workers)
