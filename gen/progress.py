"""Progress bars for long commands: one helper, so every command shows progress the same way;
and how those commands name a file in their one-line reports (:func:`shown_path`).

A bar is drawn on stderr, and only on a terminal (so logs and captured output stay clean); the
summary line each command prints at the end is what scripts read. :func:`progress` is a context
manager yielding an object with ``update(n)``; on a non-terminal (or ``show=False``) it is a no-op.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any


class _Silent:
    """A bar that draws nothing (not a terminal, or progress turned off)."""

    def update(self, steps: int) -> None:
        pass


@contextlib.contextmanager
def progress(label: str, total: int, *, done: int = 0, show: bool = True) -> Iterator[Any]:
    """A progress bar of ``total`` steps labelled ``label``, starting at ``done``; yields the bar
    (call ``bar.update(n)``). Drawn on stderr when ``show`` and stderr is a terminal."""
    if not (show and sys.stderr.isatty()):
        yield _Silent()
        return
    import click

    with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True) as bar:
        if done:
            bar.update(min(done, total))
        yield bar


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it in a report line: relative to the working directory
    (``../x`` when beside it), or as given where no relative path exists (another drive)."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return os.fspath(path)
