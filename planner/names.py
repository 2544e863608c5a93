"""PDDL-safe names for THOR ids, classes and agent poses, and the way back.

THOR ids (``Apple|-01.70|+01.52|+00.20``, ``Sink|+00.10|+00.90|-01.20|SinkBasin``) contain
characters PDDL names may not (``|``, ``.``, ``+``), and PDDL is case-insensitive (pyperplan and
Fast Downward lower-case everything). The escape below is therefore all lower-case and invertible
on its own, so a plan read back from any planner's output maps to THOR ids without a side table:

- ``a``-``z`` and ``0``-``9`` stay;
- an upper-case letter becomes ``_`` plus its lower-case form (``Apple`` -> ``_apple``);
- ``|`` ``.`` ``+`` ``-`` ``_`` become ``-b`` ``-d`` ``-p`` ``-m`` ``-u``;
- anything else becomes ``-x`` + 6 hex digits of its code point;
- a kind prefix (``o`` for objects, ``c`` for classes) makes the name start with a letter.

Example: ``Apple|-01.70|+01.52|+00.20`` -> ``o_apple-b-m01-d70-b-p01-d52-b-p00-d20``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache

OBJECT_PREFIX = "o"
CLASS_PREFIX = "c"

_SPECIAL = {"|": "-b", ".": "-d", "+": "-p", "-": "-m", "_": "-u"}
_UNSPECIAL = {code[1]: char for char, code in _SPECIAL.items()}


@lru_cache(maxsize=4096)
def escape(text: str) -> str:
    """The invertible, lower-case, PDDL-safe form of ``text`` (without a kind prefix)."""
    out: list[str] = []
    for char in text:
        if "a" <= char <= "z" or "0" <= char <= "9":
            out.append(char)
        elif "A" <= char <= "Z":
            out.append("_" + char.lower())
        elif char in _SPECIAL:
            out.append(_SPECIAL[char])
        else:
            out.append(f"-x{ord(char):06x}")
    return "".join(out)


# What escape() writes: a-z, 0-9 and the two-letter codes, or -x with 6 hex digits.
_ESCAPED = re.compile(r"(?:[a-z0-9]|_[a-z]|-[bdpmu]|-x[0-9a-f]{6})*")
_CODE = re.compile(r"_[a-z]|-[bdpmu]|-x[0-9a-f]{6}")
# The two-letter codes to undo with str.replace, "-m" last: the "-" it makes must not start a code.
_UNSPECIAL_ORDERED = sorted(((code, char) for char, code in _SPECIAL.items()), key=lambda pair: pair[1] == "-")


@lru_cache(maxsize=4096)
def unescape(name: str) -> str:
    """Inverse of :func:`escape`; ValueError on text :func:`escape` never produces.

    Plans are read back name by name, so this is on the planner's path: after one check of the
    whole name, the common codes are undone with ``str.split`` and ``str.replace`` (C loops)."""
    if _ESCAPED.fullmatch(name) is None:
        raise ValueError(f"not an escaped name: {name!r}")
    if "-x" in name:  # a rare character: undo every code in one pass
        return _CODE.sub(_uncode, name)
    if "_" in name:  # "_a" -> "A"; "-u" (an escaped "_") holds no "_"
        first, *rest = name.split("_")
        name = first + "".join([piece[0].upper() + piece[1:] for piece in rest])
    if "-" in name:  # every "-" starts a code; "-m" (which makes a "-") goes last
        for code, char in _UNSPECIAL_ORDERED:
            name = name.replace(code, char)
    return name


def _uncode(match: re.Match[str]) -> str:
    """The character one code of :func:`escape` stands for."""
    code = match.group()
    if code[0] == "_":
        return code[1].upper()
    if code[1] == "x":
        return chr(int(code[2:], 16))
    return _UNSPECIAL[code[1]]


def object_name(object_id: str) -> str:
    """PDDL name of a THOR object id."""
    return OBJECT_PREFIX + escape(object_id)


def object_id(name: str) -> str:
    """THOR object id of a PDDL object name made by :func:`object_name`."""
    if not name.startswith(OBJECT_PREFIX):
        raise ValueError(f"not an object name: {name!r}")
    return unescape(name[len(OBJECT_PREFIX) :])


def class_name(object_class: str) -> str:
    """PDDL name of a THOR class (object type), e.g. ``CounterTop`` -> ``c_counter_top``."""
    return CLASS_PREFIX + escape(object_class)


def class_of(name: str) -> str:
    """THOR class of a PDDL class name made by :func:`class_name`."""
    if not name.startswith(CLASS_PREFIX):
        raise ValueError(f"not a class name: {name!r}")
    return unescape(name[len(CLASS_PREFIX) :])


def _signed(value: int) -> str:
    return f"m{-value}" if value < 0 else str(value)


def location_name(pose: Sequence[float], grid: float = 0.25) -> str:
    """PDDL name of an agent pose [x, z, rotation, horizon], in ALFRED's ``loc|x|z|r|h`` spirit.

    x and z count grid steps and rotation counts quarter turns, as ALFRED's location names do:
    [-1.0, 0.25, 270, 30] -> ``loc_m4_1_3_30``. Poses off the grid round to the nearest step; the
    encoder disambiguates such collisions and keeps the exact pose in its name map.
    """
    x, z, rotation, horizon = (float(v) for v in pose[:4])
    xi = int(math.floor(x / grid + 0.5))
    zi = int(math.floor(z / grid + 0.5))
    quarter = int(math.floor(rotation / 90.0 + 0.5)) % 4
    return f"loc_{_signed(xi)}_{_signed(zi)}_{quarter}_{_signed(int(round(horizon)))}"


@lru_cache(maxsize=4096)
def alfred_location(name: str) -> str:
    """ALFRED's ``planner_action.location`` string for a location name (``loc|-4|1|3|30``)."""
    return "loc|" + "|".join(name.split("_")[1:5]).replace("m", "-")  # the fields' only "m" is a sign


@lru_cache(maxsize=4096)
def _grid_pose(name: str, grid: float) -> tuple[float, ...]:
    fields = name.split("_")
    if len(fields) < 5 or fields[0] != "loc":
        raise ValueError(f"not a location name: {name!r}")
    try:
        x, z, quarter, horizon = [int(f.replace("m", "-")) for f in fields[1:5]]
    except ValueError:
        raise ValueError(f"not a location name: {name!r}") from None
    return (x * grid, z * grid, quarter * 90, horizon)


def pose_of_location(name: str, grid: float = 0.25) -> list[float]:
    """The grid pose a location name stands for (exact for on-grid poses); ValueError for a name
    :func:`location_name` never makes."""
    return list(_grid_pose(name, grid))


def clear_caches() -> None:
    """Forget the memoized names. The caches pay off when one process plans many tasks in the same
    scenes; a benchmark that solves one problem several times clears them before each run, so that
    every run costs what a new problem costs."""
    for memoized in (escape, unescape, alfred_location, _grid_pose):
        memoized.cache_clear()
