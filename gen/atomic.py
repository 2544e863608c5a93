"""Atomic file writes: every file alfred-gen writes appears complete or not at all.

A killed run (Ctrl-C, kill -9, a full disk) must never leave a half-written trajectory, frame,
map or log behind. So bytes go to a temporary file in the target's directory, which is then
renamed over the target (os.replace is atomic on POSIX): readers see the old file or the new one.

What a user sees of this is the file, never the machinery: a new file gets the mode open() would
give it under the umask (mkstemp's are 0600, mkdtemp's 0700), an error names the user's path, not
the temporary name, and a target that is not a regular file (``--out /dev/null``, a FIFO) is
refused rather than replaced: renaming over /dev/null as root would swap the device for a file.

A directory tree (a trial: its file, frames, PDDL) is committed the same way: it is built in one
hidden staging directory beside the datasets' task directories and renamed into place
(:func:`committing_dir`); every family stages under the one name scheme, so a resumed run or a
cleanup finds what a killed one left whichever command it was.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any


@functools.cache
def _default_file_mode() -> int:
    """0o666 minus the process umask: the mode open() would give a new file (mkstemp uses 0o600)."""
    return 0o666 & ~_umask()


@functools.cache
def _umask() -> int:
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def _named(error: OSError, path: Path) -> OSError:
    """``error`` as the same kind of OSError, naming ``path`` (the user's) instead of a temporary file."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, str(path))


def _refuse_special(path: Path) -> int | None:
    """The mode bits of an existing regular file at ``path`` (None when there is none); an
    OSError naming ``path`` when it is something else: a directory, a device, a FIFO, a socket."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise _named(error, path) from None
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (alfred-gen writes files by replacing them)", str(path))
    return status.st_mode & 0o7777


def _parent_of(path: Path) -> None:
    """Create ``path``'s directory; NotADirectoryError naming the part that is a file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError as error:  # a file where a directory of the path should be
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), error.filename) from None


#: Suffix of the temporary file :func:`write_bytes` and :func:`replacing` write beside its target, named
#: ``.<target name>.<random>.tmp``: a run killed mid-write leaves one (:func:`is_temp_file_name`).
TEMP_FILE_SUFFIX = ".tmp"


def is_temp_file_name(name: str) -> bool:
    """Whether ``name`` is the temporary file of a write (:data:`TEMP_FILE_SUFFIX`), which a run
    killed while writing leaves behind and a later run with the directory to itself removes."""
    return name.startswith(".") and name.endswith(TEMP_FILE_SUFFIX)


def remove_stale_writes(folder: Path) -> None:
    """Remove the temporary files (:func:`is_temp_file_name`) that writes killed mid-way left in
    ``folder`` (not in its subfolders): a run resumed after kill -9 would otherwise leave a tree that
    differs from an uninterrupted run's by them. Only for a caller that knows no other process
    writes in ``folder`` now: another's write in flight would lose its file."""
    if not folder.is_dir():
        return
    for path in sorted(folder.iterdir()):
        if is_temp_file_name(path.name) and path.is_file():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, suffix: str = TEMP_FILE_SUFFIX) -> Iterator[Path]:
    """A temporary file beside ``path`` for a writer that needs a file name (a video muxer that
    seeks back): yields its path; when the block ends without an exception the file gets the mode
    a new file would get (or the old file's) and is renamed over ``path``; otherwise it is removed.
    The same refusals and error names as :func:`write_bytes`."""
    target = Path(path)
    _parent_of(target)
    mode = _refuse_special(target)
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix, dir=target.parent)
    except OSError as error:
        raise _named(error, target) from None
    os.close(fd)
    try:
        yield Path(temp_name)
        os.chmod(temp_name, _default_file_mode() if mode is None else mode)
        try:
            os.replace(temp_name, target)
        except OSError as error:
            raise _named(error, target) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def make_temp_dir(parent: str | os.PathLike[str], prefix: str) -> Path:
    """A new directory in ``parent`` (made if needed) for staging a tree that is later renamed into
    place, with the mode ``mkdir`` would give it under the umask (mkdtemp makes 0700, and the
    renamed tree would keep it). OSError naming ``parent`` on failure."""
    parent = Path(parent)
    try:
        parent.mkdir(parents=True, exist_ok=True)
        made = Path(tempfile.mkdtemp(prefix=prefix, dir=parent))
    except FileExistsError as error:
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), error.filename or str(parent)) from None
    except OSError as error:
        raise _named(error, parent) from None
    os.chmod(made, 0o777 & ~_umask())
    return made


#: Prefix of every temporary directory a tree is staged in before its rename (:func:`committing_dir`);
#: readers of a dataset skip hidden directories, and a run's cleanup removes these.
TEMP_DIR_PREFIX = ".tmp-"


def staging_dir_for(final: Path) -> Path:
    """Where the tree that becomes ``final`` (``<root>/<task dir>/<trial>``) is staged:
    ``<root>/.tmp-<trial>-<task dir>``, one name for every family. It begins ``.tmp-trial_`` for a
    trial, which sample's cleanup and older runs' ``.tmp-<trial>`` directories share, and names the
    task dir so two trials with one id in different task dirs never share a staging directory."""
    return final.parent.parent / f"{TEMP_DIR_PREFIX}{final.name}-{final.parent.name}"


def staged_trial(name: str) -> str | None:
    """The trial a directory called ``name`` stages: ``trial`` for this scheme's ``.tmp-<trial>-<task
    dir>`` and for the ``.tmp-<trial>`` of outputs written before it (trial ids hold no ``-``);
    None for a name that is not a staging directory."""
    if not name.startswith(TEMP_DIR_PREFIX) or len(name) == len(TEMP_DIR_PREFIX):
        return None
    return name[len(TEMP_DIR_PREFIX):].split("-", 1)[0]


class AlreadyCommitted(FileExistsError):
    """The directory :func:`committing_dir` was to make exists already (another run made it first)."""


@contextlib.contextmanager
def committing_dir(final: str | os.PathLike[str], *, replace: bool = False) -> Iterator[Path]:
    """Stage a directory tree and commit it as one rename: ``final`` appears complete or not at all.

    Yields a fresh, empty staging directory (:func:`staging_dir_for`; one a killed run left is
    removed first). When the block ends without an exception the staging directory is renamed to
    ``final`` (its parent made if needed); on any exception, including Ctrl-C, it is removed and
    ``final`` is untouched. An existing ``final`` is :class:`AlreadyCommitted` at the commit, the staging
    directory removed (another worker finished the same trial first), unless ``replace``, which
    removes it first (a re-export)."""
    final = Path(final)
    temp = staging_dir_for(final)
    shutil.rmtree(temp, ignore_errors=True)
    temp.mkdir(parents=True)
    try:
        yield temp
        if final.exists():
            if not replace:
                raise AlreadyCommitted(errno.EEXIST, "already exists", str(final))
            shutil.rmtree(final)
        final.parent.mkdir(parents=True, exist_ok=True)
        os.rename(temp, final)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise


def write_bytes(path: str | os.PathLike, payload: bytes, *, durable: bool = True) -> None:
    """Write ``payload`` to ``path`` atomically; the parent directory is created if needed.

    With ``durable`` the data and the rename are flushed to disk (fsync) before returning, so the
    file survives a power cut too; replays writing hundreds of frames pass ``durable=False``, which
    still never leaves a torn file. An existing file keeps its permissions. On any failure,
    including Ctrl-C, the temporary file is removed and the old file is left untouched. An OSError
    names ``path`` (or the part of it that is a file where a directory should be).
    """
    path = Path(path)
    _parent_of(path)
    existing = _refuse_special(path)
    mode = _default_file_mode() if existing is None else existing
    try:
        fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_FILE_SUFFIX, dir=path.parent)
    except OSError as error:  # say which file could not be written, not the temporary name
        raise _named(error, path) from None
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
    except OSError as error:  # ENOSPC in write, EISDIR in replace: the user's path, not the temporary one
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise _named(error, path) from None
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
