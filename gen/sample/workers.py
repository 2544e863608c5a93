"""Running jobs: in this process (one worker) or in a pool of worker processes, each with its own simulator.

Workers only run the generator on the job they are given and report an :class:`Outcome`; they
decide nothing, so the worker count never changes what is made. A worker ignores Ctrl-C (the parent
stops the pool) and dies with its parent, so a killed run leaves no writer behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import multiprocessing
import queue
import signal
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from alfred_gen.errors import GenerationReason, JobError, UserError
from alfred_gen.sample.feasibility import scene_name
from alfred_gen.sample.jobs import Generator, Job, Outcome
from alfred_gen.sample.options import SampleOptions
from alfred_gen.scenes.library import simulator
from alfred_gen.sim.controller import Controller


@dataclass
class JobContext:
    """What every job of a run shares; each worker process holds its own copy (and simulator)."""

    generate: Generator
    out: str
    options: SampleOptions
    controller_factory: Callable[[], Controller] | None = None
    _controller: Controller | None = None

    def controller(self) -> Any:
        """This process's recording simulator, made once and reused; None lets generate_trajectory
        make its own lite controller per job."""
        factory = self.controller_factory
        if factory is None and self.options.backend != "lite":
            recipe = simulator(self.options.backend, dict(self.options.backend_options))
            # THOR needs instance segmentation for the interaction masks.
            factory = functools.partial(recipe.open, render=self.options.frames, segmentation=True)
        if factory is None:
            return None
        if self._controller is None:
            self._controller = factory()
        return self._controller


_WORKER: dict[str, JobContext] = {}


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when its parent dies, so a killed run leaves no writer behind."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _init_worker(context: JobContext) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # pool.terminate() ends a worker quietly
    _die_with_parent()
    _WORKER["context"] = context


def run_job(job: Job, context: JobContext) -> Outcome:
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
        return Outcome(job.index, bool(result.ok), GenerationReason.OK if result.ok else result.reason,
                       str(getattr(result, "detail", "") or ""), timings=timings)
    except UserError as error:
        return Outcome(job.index, False, JobError.USER_ERROR, str(error), int(error.code))
    except Exception as error:  # a bug in the pipeline: report it, keep the run going
        detail = "".join(traceback.format_exception_only(type(error), error)).strip()
        return Outcome(job.index, False, JobError.EXCEPTION, detail)


def _worker_run(job: Job) -> Outcome:
    return run_job(job, _WORKER["context"])


class InlineRunner:
    """Runs jobs in this process, one at a time (workers=1): same decisions, no pool."""

    def __init__(self, context: JobContext) -> None:
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


class PoolRunner:
    """A pool of worker processes (each builds its own simulator); results come back via a queue."""

    def __init__(self, context: JobContext) -> None:
        methods = multiprocessing.get_all_start_methods()
        processes = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        options = context.options
        self.pool = processes.Pool(options.workers, initializer=_init_worker, initargs=(context,))
        self.results: queue.Queue = queue.Queue()
        self.workers = options.workers
        self.in_flight = 0

    def submit(self, job: Job) -> None:
        self.in_flight += 1
        def failed(error: BaseException, index: int = job.index) -> None:
            self.results.put(Outcome(index, False, JobError.EXCEPTION, f"{type(error).__name__}: {error}"))

        self.pool.apply_async(_worker_run, (job,), callback=self.results.put, error_callback=failed)

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

