"""One way to run independent jobs over worker processes: results as they finish
(:func:`run_unordered`) or in the order of the work (:func:`run_ordered`).

`verify`, `replay`, `derive`, `video`, `view`, `eqa` and `export alfworld-check` all do the same thing:
each file is an independent job, a worker process opens its own simulator once (the initializer)
and reuses it, results come back in whatever order they finish (callers carry an index when they
need the input's order back), and a failure or Ctrl-C must leave no worker behind. This module is
that loop, once. With one job (or one item) it runs inline, in this process, with no pool at all:
a traceback then points at the real frame, and small runs pay no start-up.

It is built on :class:`concurrent.futures.ProcessPoolExecutor`, not on ``multiprocessing.Pool``,
because of how each fails: a Pool replaces a worker that was killed (out of memory, a segfault in a
native library) and waits for its lost result for ever, and respawns a worker whose initializer
raises for ever; an executor knows its pool is broken. Here a dead worker ends the run with one
line (:class:`WorkerDied`, exit code FAILED, as a worker's death is in `sample`), and an
initializer's exception is raised again by the first job that worker takes, so it reaches the
caller as any job's exception does (a :class:`UserError` with its own code and message).

The ALFRED importer reads thousands of released trajectories and fits a hundred rooms with
:func:`run_ordered`: its results must not depend on the number of workers, so they come back in
input order.

The sampler does not use it: its workers must survive being killed one by one and be replaced
(see `alfred_gen.sample.workers`), which a multiprocessing pool cannot do.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from alfred_gen.errors import ExitCode, UserError

Item = TypeVar("Item")
Result = TypeVar("Result")


class WorkerDied(UserError):
    """A worker process died before its work was done (killed, out of memory, crashed in native
    code): the results already back were yielded, the rest are lost, and the run stops."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__(
            f"a worker process died (killed, or out of memory?) after {done} of {total} items were done; "
            "free memory or use fewer --jobs, then run the command again (what was written is kept)",
            ExitCode.FAILED,
        )


def run_unordered(job: Callable[[Item], Result], work: Sequence[Item], jobs: int,
                  initializer: Callable[..., Any] | None = None, initargs: tuple[Any, ...] = (),
                  chunksize: int = 1) -> Iterator[Result]:
    """Yield ``job(item)`` for every item of ``work``, in the order the results finish.

    ``jobs`` processes at most (never more than there are items); each runs ``initializer(*initargs)``
    once before its first item, and so does this process when the work runs inline (``jobs <= 1``
    or a single item). Processes are forked where the platform can (so they share what the parent
    has loaded). If the consumer stops early or anything raises, the workers are terminated; if a
    worker dies, :class:`WorkerDied` is raised."""
    return _run(job, work, jobs, initializer, initargs, chunksize, ordered=False)


def run_ordered(job: Callable[[Item], Result], work: Sequence[Item], jobs: int,
                initializer: Callable[..., Any] | None = None, initargs: tuple[Any, ...] = (),
                chunksize: int = 1) -> Iterator[Result]:
    """Yield ``job(item)`` for every item of ``work`` in the order of ``work``, as
    :func:`run_unordered` otherwise (workers run ahead, so a caller can show progress as results
    come in)."""
    return _run(job, work, jobs, initializer, initargs, chunksize, ordered=True)


def _run(job: Callable[[Item], Result], work: Sequence[Item], jobs: int,
         initializer: Callable[..., Any] | None, initargs: tuple[Any, ...], chunksize: int,
         ordered: bool) -> Iterator[Result]:
    if jobs <= 1 or len(work) <= 1:
        if initializer is not None:
            initializer(*initargs)
        yield from map(job, work)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    executor = ProcessPoolExecutor(min(jobs, len(work)), mp_context=multiprocessing.get_context(method),
                                   initializer=_remember_initializer_error, initargs=(initializer, initargs))
    chunks = _chunks(work, max(1, chunksize))
    futures = [executor.submit(_run_chunk, job, chunk) for chunk in chunks]
    done = 0
    finished = False
    try:
        for future in (futures if ordered else as_completed(futures)):
            results = future.result()
            yield from results
            done += len(results)
        finished = True
    except BrokenProcessPool:
        raise WorkerDied(done, len(work)) from None
    finally:
        if finished:
            executor.shutdown(wait=True)
        else:
            _stop(executor)


def _chunks(work: Sequence[Item], size: int) -> list[list[Item]]:
    """``work`` in consecutive runs of ``size`` items: one future each, as a Pool's chunksize."""
    return [list(work[start:start + size]) for start in range(0, len(work), size)]


def _run_chunk(job: Callable[[Item], Result], chunk: Iterable[Item]) -> list[Result]:
    """In a worker: the initializer's exception, if it raised, else ``job`` over the chunk."""
    if _INITIALIZER_ERROR:
        raise _INITIALIZER_ERROR[0]
    return [job(item) for item in chunk]


#: In a worker, the exception its initializer raised (empty when it ran well).
_INITIALIZER_ERROR: list[BaseException] = []


def _remember_initializer_error(initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    """Run the caller's initializer in a worker; keep its exception for the first job to raise. An
    executor whose initializer raises breaks the pool with a traceback on stderr and no word of why."""
    _INITIALIZER_ERROR.clear()
    if initializer is None:
        return
    try:
        initializer(*initargs)
    except Exception as error:  # raised again, with its type and message, by _run_chunk
        _INITIALIZER_ERROR.append(error)


def _stop(executor: ProcessPoolExecutor) -> None:
    """Terminate the workers and wait for the executor to wind down: a consumer that stopped early,
    an exception or Ctrl-C must not wait for jobs nobody will read (a replay or a room fit can take
    minutes). The executor has no public way to terminate its processes, hence ``_processes``; its
    own thread then finds the pool broken and fails every pending future, which nobody reads
    (futures are not cancelled here first: that thread cannot fail a cancelled one, and says so on
    stderr)."""
    workers = dict(getattr(executor, "_processes", None) or {})
    for process in workers.values():
        if process.is_alive():
            process.terminate()
    executor.shutdown(wait=True)
