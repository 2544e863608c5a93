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
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

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


def jpeg_problem(path: Path) -> str | None:
    """Why ``path`` is not a whole JPEG file (cheap: its first and last bytes), or None."""
    try:
        with open(path, "rb") as handle:
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
    path = directory / TRAJ_FILE_NAME
    if not path.is_file():
        return f"no {TRAJ_FILE_NAME}"
    try:
        data = parse_trajectory_json(path)
    except UserError as error:
        return f"{TRAJ_FILE_NAME} is damaged ({str(error).removeprefix(str(path) + ': ')})"
    try:
        scene = data["scene"]
        params = data["pddl_params"]
        found = TaskTuple(
            str(data["task_type"]), int(scene["scene_num"]),
            str(params["object_target"]) + ("Sliced" if params["object_sliced"] is True else ""),
            str(params["parent_target"] or params["toggle_target"]), str(params["mrecep_target"] or ""),
        )
        if data["task_id"] != name:
            return f"its task_id is {str(data['task_id'])[:40]!r}"
        if found != task:
            return f"it holds a trial of {found.dir_name()}"
        if scene["random_seed"] != spawn:
            return "its spawn seed is not the planned one"
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
        return f"{TRAJ_FILE_NAME} does not hold the planned trial"
    problem = first_problem(data)
    if problem is not None:
        return f"{TRAJ_FILE_NAME} fails validate ({problem.json_path}: {problem.message})"[:200]
    pddl = directory / PDDL_STATES_DIR / PROBLEM_FILE
    try:
        if pddl.stat().st_size == 0:
            return f"{PDDL_STATES_DIR}/{PROBLEM_FILE} is empty"
    except OSError:
        return f"no {PDDL_STATES_DIR}/{PROBLEM_FILE}"
    if frames:
        try:
            names = frame_files(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            return f"{TRAJ_FILE_NAME} names no frames"
        for frame in names:
            why = jpeg_problem(directory / RAW_IMAGES_DIR / frame)
            if why is not None:
                return f"frame {RAW_IMAGES_DIR}/{frame} {why}"
    return None
