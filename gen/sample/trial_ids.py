"""Seeds and trial ids derived from the run seed: no clock, no process state.

ALFRED named each trajectory ``trial_T<yyyymmdd>_<hhmmss>_<microseconds>`` from the wall clock, so
two runs never gave the same tree. Here every number comes from a hash of (run seed, tuple,
attempt): the same command writes the same directories and the same spawn seeds, and a resumed run
recomputes exactly the ids a killed run would have used. The digits keep ALFRED's shape (a valid
date and time, so loaders that parse them keep working) but say nothing about when a file was made.
"""

from __future__ import annotations

import datetime as _dt
import hashlib

from alfred_gen.sample.feasibility import TaskTuple

_EPOCH = _dt.datetime(2000, 1, 1)
_DAYS = 36524  # a century of dates
TRIAL_PREFIX = "trial_T"


def derive_int(*parts: object) -> int:
    """A stable 64-bit integer from the parts' text (independent of PYTHONHASHSEED and platform)."""
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def spawn_seed(run_seed: int, task: TaskTuple, attempt: int, salt: str = "") -> int:
    """InitialRandomSpawn seed (and start-pose seed) of one attempt at a tuple: a non-negative int32.
    ``salt`` tells apart attempts at one tuple made for different groups of a plan (replacements)."""
    parts: tuple[object, ...] = ("spawn", int(run_seed), task.dir_name(), int(attempt))
    return derive_int(*parts, *((salt,) if salt else ())) % (2**31 - 1)


def trial_id(run_seed: int, task: TaskTuple, attempt: int, scene_set: str = "lite", salt: str = "") -> str:
    """The trial directory name (ALFRED's ``task_id``) of one attempt at a tuple.

    Another scene set than lite's rooms is part of the hash: scene 1 of the imported ALFRED rooms
    has the task directory names of lite's scene 1, and the two must never share a trial id. So is
    ``salt`` (see :func:`spawn_seed`)."""
    parts: tuple[object, ...] = ("trial", int(run_seed), task.dir_name(), int(attempt))
    if scene_set != "lite":
        parts += (scene_set,)
    if salt:
        parts += (salt,)
    value = derive_int(*parts)
    moment = _EPOCH + _dt.timedelta(
        days=value % _DAYS, seconds=(value >> 16) % 86400, microseconds=(value >> 40) % 1_000_000
    )
    return TRIAL_PREFIX + moment.strftime("%Y%m%d_%H%M%S_%f")
