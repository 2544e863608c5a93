"""Seeds and trial ids derived from the run seed: no clock, no process state.

ALFRED named each trajectory ``trial_T<yyyymmdd>_<hhmmss>_<microseconds>`` from the wall clock, so
two runs never gave the same tree. Here every number comes from a hash of (run seed, tuple,
attempt): the same command writes the same directories and the same spawn seeds, and a resumed run
recomputes exactly the ids a killed run would have used. The digits keep ALFRED's shape (a valid
date and time, so loaders that parse them keep working) but say nothing about when a file was made:
the date is a hash, always a day of 2000-2019 (never in the future, so sorting by it puts nothing
after today), and the time of day and microseconds are hashes too.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from dataclasses import replace

from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.traj.scene_nums import lite_room_of_scene_num

_EPOCH = _dt.datetime(2000, 1, 1)
_DAYS = 7305  # 2000-01-01 to 2019-12-31: always in the past, before ALFRED's own 2019 demos
TRIAL_PREFIX = "trial_T"


def _hashed_name(task: TaskTuple) -> str:
    """The tuple's name in the hashes: its task directory name, with a lite room's scene as the room
    number (``...-205``, not ``...-10205``), as before lite rooms' files recorded 10000 + N: so the
    same run seed keeps making the same demonstrations."""
    room = lite_room_of_scene_num(task.scene)
    return task.dir_name() if room is None else replace(task, scene=room).dir_name()


def derive_int(*parts: object) -> int:
    """A stable 64-bit integer from the parts' text (independent of PYTHONHASHSEED and platform)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def spawn_seed(run_seed: int, task: TaskTuple, attempt: int, salt: str = "") -> int:
    """InitialRandomSpawn seed (and start-pose seed) of one attempt at a tuple: a non-negative int32.
    ``salt`` tells apart attempts at one tuple made for different groups of a plan (replacements)."""
    parts: tuple[object, ...] = ("spawn", int(run_seed), _hashed_name(task), int(attempt))
    return derive_int(*parts, *((salt,) if salt else ())) % (2**31 - 1)


def trial_id(run_seed: int, task: TaskTuple, attempt: int, scene_set: str = "lite", salt: str = "") -> str:
    """The trial directory name (ALFRED's ``task_id``) of one attempt at a tuple.

    Another scene set than lite's rooms is part of the hash: scene 1 of the imported ALFRED rooms
    has the task directory names of lite's scene 1, and the two must never share a trial id. So is
    ``salt`` (see :func:`spawn_seed`)."""
    parts: tuple[object, ...] = ("trial", int(run_seed), _hashed_name(task), int(attempt))
    if scene_set != "lite":
        parts += (scene_set,)
    if salt:
        parts += (salt,)
    value = derive_int(*parts)
    moment = _EPOCH + _dt.timedelta(
        days=value % _DAYS, seconds=(value >> 16) % 86400, microseconds=(value >> 40) % 1_000_000
    )
    return TRIAL_PREFIX + moment.strftime("%Y%m%d_%H%M%S_%f")
