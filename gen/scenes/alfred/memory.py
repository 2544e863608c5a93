"""Peak memory of an import, for its summary line: importing all 6,574 released train demos must
stay within what a laptop has, so the import reports what it took (its own and its workers')."""

from __future__ import annotations

import resource


def peak_memory_mb() -> tuple[float, float]:
    """(this process, its largest finished worker): peak resident memory in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0
    return own, children
