"""One way to run independent jobs over worker processes: results as they finish
(:func:`run_unordered`) or in the order of the work (:func:`run_ordered`).

`verify`, `replay`, `derive`, `video`, `view`, `eqa` and `export alfworld-check` all do the same thing:
each file is an independent job, a worker process opens its own simulator once (the initializer)
and reuses it, results come back in whatever order they finish (callers carry an index when they
need the input's order back), and a failure or Ctrl-C must leave no worker behind. This module is
that loop, once. With one job (or one item) it runs inline, in this process, with no pool at all:
a traceback then points at the real frame, and small runs pay no start-up.

The ALFRED importer reads thousands of released trajectories and fits a hundred rooms with
:func:`run_ordered`: its results must not depend on the number of workers, so they come back in
input order.

The sampler does not use it: its workers must survive being killed one by one and be replaced
(see `alfred_gen.sample.workers`), which a multiprocessing pool cannot do.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def run_unordered(job: Callable[[Item], Result], work: Sequence[Item], jobs: int,
                  initializer: Callable[..., Any] | None = None, initargs: tuple[Any, ...] = (),
                  chunksize: int = 1) -> Iterator[Result]:
    """Yield ``job(item)`` for every item of ``work``, in the order the results finish.

    ``jobs`` processes at most (never more than there are items); each runs ``initializer(*initargs)``
    once before its first item, and so does this process when the work runs inline (``jobs <= 1``
    or a single item). Processes are forked where the platform can (so they share what the parent
    has loaded). If the consumer stops early or anything raises, the pool is terminated."""
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
    pool = multiprocessing.get_context(method).Pool(min(jobs, len(work)), initializer=initializer,
                                                    initargs=initargs)
    try:
        take = pool.imap if ordered else pool.imap_unordered
        yield from take(job, work, chunksize=max(1, chunksize))
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()
