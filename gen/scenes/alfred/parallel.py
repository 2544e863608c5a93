"""One function over many items in worker processes, results in input order: what the importer uses
to read thousands of released trajectories and fit a hundred rooms on every core.

With one worker (or one item) everything runs in this process. Results never depend on the
number of workers: each item is handled alone and results come back in the order of the items.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def ordered_map(fn: Callable[[Item], Result], items: Sequence[Item], workers: int = 1,
                chunksize: int = 1) -> Iterator[Result]:
    """``fn`` of each item, in order, computed in ``workers`` processes (a generator: results are
    yielded as they come in, so a caller can show progress)."""
    if workers <= 1 or len(items) <= 1:
        yield from map(fn, items)
        return
    pool = multiprocessing.get_context("fork").Pool(min(workers, len(items)))
    try:
        yield from pool.imap(fn, items, chunksize=max(1, chunksize))
    finally:
        pool.close()
        pool.join()


def peak_memory_mb() -> tuple[float, float]:
    """(this process, its largest finished worker): peak resident memory in MB."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    return own, children
