"""Is a planned trial on disk whole? The check a resumed run makes before it keeps a trial.

A resumed run keeps a trial only if it is what the writer (generate_trajectory) committed for this
very attempt, and still intact:

- ``traj_data.json`` parses as `alfred-gen validate` parses it and passes the same checks (schema,
  mask ranges, indices: :func:`alfred_gen.traj.format.first_problem`), and names the planned trial
  id, task, scene and spawn seed;
- ``pddl_states/problem_0.pddl`` is there and not empty (the writer writes it with every trial);
- with frames, every frame file the trial must have (:func:`frame_files`: the ``images`` entries and
  the unlisted frame after the last action, :func:`alfred_gen.traj.frames.frame_entries`) is there
  and is a whole JPEG: it starts with the JPEG start-of-image marker and ends with the end-of-image marker. A
  frame cut short or overwritten loses its end marker; decoding every frame instead costs about
  a millisecond a frame (bench/startup.py prints both), which a resumed run of thousands of trials
  would pay before its first job. A renamed frame is a missing one.

Anything else (a damaged file, a missing directory) makes the trial "damaged": the run removes it
and makes it again, and the summary counts it.

The check costs about 0.1 s a trial (parsing and validating traj_data.json), which a finished run
of thousands of trials would pay just to say there is nothing left to do. So a trial that passes
gets a :class:`Stamp`: the stat (size, mtime_ns, ctime_ns, inode) of every file the check read,
taken *before* reading it, hashed. A later run that finds the same stamp on the same files knows
the check would read the same bytes and skips it (:func:`stamp_still_holds`: one stat per file);
any file written, replaced, cut or copied since changes its ctime and is fully checked again.
Where the stamps are kept: :mod:`alfred_gen.sample.check_cache`.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from alfred_gen.errors import UserError
from alfred_gen.replay.images import RGB_SUFFIX
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.traj.format import PDDL_STATES_DIR, RAW_IMAGES_DIR, TRAJ_FILE_NAME, first_problem, parse_trajectory_json
from alfred_gen.traj.frames import frame_entries

#: The PDDL problem the writer saves with every trial.
PROBLEM_FILE = "problem_0.pddl"

_JPEG_START = b"\xff\xd8\xff"
_JPEG_END = b"\xff\xd9"


def frame_files(data: Mapping[str, Any]) -> list[str]:
    """The RGB frame files (in ``raw_images/``) a trial with this traj_data.json must have: one per
    entry of ``images`` and the frame after the last action, which ALFRED's convention keeps on disk
    unlisted (E.T.'s loader drops a demonstration without it), named with the JPEG extension."""
    return list(dict.fromkeys(entry.stem + RGB_SUFFIX for entry in frame_entries(data)))


class Stamp(NamedTuple):
    """What a passed check leaves behind: enough to tell, with one stat per file, that none of the
    files it read has changed since (and the options it was checked with)."""

    spawn: int
    frames: bool
    frame_runs: tuple[tuple[int, int], ...]  #: numbered frame files, as (first, count) runs
    digest: str  #: of every checked file's (name, size, mtime_ns, ctime_ns, inode)


def _stat_key(name: str, info: os.stat_result) -> str:
    """The stat fields a stamp keeps of a file: any write, truncation, rename over or copy changes
    one of them (a program can set mtime back, not ctime)."""
    return f"{name}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\0{info.st_ino}\n"


def _digest(keys: Sequence[str]) -> str:
    return hashlib.blake2b("".join(keys).encode(), digest_size=16).hexdigest()


def _frame_runs(frames: Sequence[str]) -> tuple[tuple[int, int], ...] | None:
    """``000000000.jpg``, ``000000001.jpg``, ... as runs of consecutive numbers, in order; None when
    a name is not the recorder's ``%09d.jpg`` (such a trial is checked in full every time)."""
    runs: list[list[int]] = []
    for name in frames:
        stem = name.removesuffix(RGB_SUFFIX)
        if not (name.endswith(RGB_SUFFIX) and len(stem) == 9 and stem.isdigit()):
            return None
        number = int(stem)
        if runs and runs[-1][0] + runs[-1][1] == number:
            runs[-1][1] += 1
        else:
            runs.append([number, 1])
    return tuple((first, count) for first, count in runs)


def _stamped_files(frame_runs: Sequence[Sequence[int]]) -> list[str]:
    """The files a stamp covers, in the order the check reads them."""
    frames = [f"{RAW_IMAGES_DIR}/{number:09d}{RGB_SUFFIX}" for first, count in frame_runs
              for number in range(first, first + count)]
    return [TRAJ_FILE_NAME, f"{PDDL_STATES_DIR}/{PROBLEM_FILE}", *frames]


def stamp_still_holds(directory: Path, stamp: Stamp, spawn: int, frames: bool) -> bool:
    """Whether a trial stamped by a passed check is, file by file, as it was then (for the same
    spawn seed and frames option): then the check would pass again."""
    if stamp.spawn != spawn or stamp.frames != frames:
        return False
    keys = []
    for name in _stamped_files(stamp.frame_runs):
        try:
            info = os.stat(directory / name)
        except OSError:
            return False
        keys.append(_stat_key(name, info))
    return _digest(keys) == stamp.digest


def jpeg_problem(path: Path, stats: list[os.stat_result] | None = None) -> str | None:
    """Why ``path`` is not a whole JPEG file (cheap: its first and last bytes), or None. ``stats``
    gets the file's stat as it was opened."""
    try:
        with open(path, "rb") as handle:
            if stats is not None:
                stats.append(os.fstat(handle.fileno()))
            head = handle.read(len(_JPEG_START))
            size = handle.seek(0, os.SEEK_END)
            if size >= len(_JPEG_START) + len(_JPEG_END):
                handle.seek(-len(_JPEG_END), os.SEEK_END)
            tail = handle.read(len(_JPEG_END))
    except FileNotFoundError:
        return "is missing"
    except OSError as error:
        return f"cannot be read ({error.strerror or error})"
    if head != _JPEG_START:
        return "is not a JPEG file"
    if tail != _JPEG_END:
        return f"is cut short ({size} bytes)"
    return None


def trial_problem(directory: Path, task: TaskTuple, name: str, spawn: int, frames: bool) -> str | None:
    """Why a planned trial directory does not hold the planned, whole trial (None: it does)."""
    return check_trial(directory, task, name, spawn, frames)[0]


def check_trial(directory: Path, task: TaskTuple, name: str, spawn: int,
                frames: bool) -> tuple[str | None, Stamp | None]:
    """:func:`trial_problem`, and for a trial that passes, its :class:`Stamp` (None if its frame
    names cannot be stamped)."""
    keys: list[str] = []
    path = directory / TRAJ_FILE_NAME
    try:
        info = os.stat(path)  # before reading: a write after this changes what the stamp holds
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        return f"no {TRAJ_FILE_NAME}", None
    keys.append(_stat_key(TRAJ_FILE_NAME, info))
    try:
        data = parse_trajectory_json(path)
    except UserError as error:
        return f"{TRAJ_FILE_NAME} is damaged ({str(error).removeprefix(str(path) + ': ')})", None
    try:
        scene = data["scene"]
        params = data["pddl_params"]
        found = TaskTuple(
            str(data["task_type"]), int(scene["scene_num"]),
            str(params["object_target"]) + ("Sliced" if params["object_sliced"] is True else ""),
            str(params["parent_target"] or params["toggle_target"]), str(params["mrecep_target"] or ""),
        )
        if data["task_id"] != name:
            return f"its task_id is {str(data['task_id'])[:40]!r}", None
        if found != task:
            return f"it holds a trial of {found.dir_name()}", None
        if scene["random_seed"] != spawn:
            return "its spawn seed is not the planned one", None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        return f"{TRAJ_FILE_NAME} does not hold the planned trial", None
    problem = first_problem(data)
    if problem is not None:
        return f"{TRAJ_FILE_NAME} fails validate ({problem.json_path}: {problem.message})"[:200], None
    pddl_name = f"{PDDL_STATES_DIR}/{PROBLEM_FILE}"
    try:
        info = os.stat(directory / pddl_name)
    except OSError:
        return f"no {pddl_name}", None
    if info.st_size == 0:
        return f"{pddl_name} is empty", None
    keys.append(_stat_key(pddl_name, info))
    names: list[str] = []
    if frames:
        try:
            names = frame_files(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            return f"{TRAJ_FILE_NAME} names no frames", None
        for frame in names:
            opened: list[os.stat_result] = []
            why = jpeg_problem(directory / RAW_IMAGES_DIR / frame, opened)
            if why is not None:
                return f"frame {RAW_IMAGES_DIR}/{frame} {why}", None
            keys.append(_stat_key(f"{RAW_IMAGES_DIR}/{frame}", opened[0]))
    runs = _frame_runs(names)
    if runs is None:
        return None, None
    return None, Stamp(int(spawn), bool(frames), runs, _digest(keys))
