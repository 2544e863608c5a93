"""Atomic file writes: every file alfred-gen writes appears complete or not at all.

A killed run (Ctrl-C, kill -9, a full disk) must never leave a half-written trajectory, frame,
map or log behind. So bytes go to a temporary file in the target's directory, which is then
renamed over the target (os.replace is atomic on POSIX): readers see the old file or the new one.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import tempfile
from pathlib import Path
from typing import Any


@functools.cache
def _default_file_mode() -> int:
    """0o666 minus the process umask: the mode open() would give a new file (mkstemp uses 0o600)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def write_bytes(path: str | os.PathLike, payload: bytes, *, durable: bool = True) -> None:
    """Write ``payload`` to ``path`` atomically; the parent directory is created if needed.

    With ``durable`` the data and the rename are flushed to disk (fsync) before returning, so the
    file survives a power cut too; replays writing hundreds of frames pass ``durable=False``, which
    still never leaves a torn file. An existing file keeps its permissions. On any failure,
    including Ctrl-C, the temporary file is removed and the old file is left untouched. An OSError
    names ``path`` (or the part of it that is a file where a directory should be).
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as error:  # a file where a directory of the path should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), error.filename) from None
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = _default_file_mode()
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as error:  # say which file could not be written, not the temporary name
        raise type(error)(error.errno, error.strerror, str(path)) from None
    try:
        try:
            remaining = memoryview(payload)
            while remaining:
                written = os.write(fd, remaining)
                remaining = remaining[written:]
            if hasattr(os, "fchmod"):
                os.fchmod(fd, mode)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    if durable:
        _fsync_directory(path.parent)


def write_text(path: str | os.PathLike, text: str, *, durable: bool = True) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8"), durable=durable)


def write_png(image: Any, path: str | os.PathLike) -> None:
    """Save a Pillow image as PNG at ``path`` atomically (see :func:`write_bytes`)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    write_bytes(path, buffer.getvalue())


def _fsync_directory(directory: Path) -> None:
    """Make the rename durable; best effort (not every platform can open a directory)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
