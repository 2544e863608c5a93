"""Spatial relations between objects, from their axis-aligned boxes (EQA's ``relate`` and
``distance`` operations, and the referring expressions of a demonstration's language).

The paper relates objects in SUNCG by their boxes; ours does the same over THOR's boxes, with
small gaps that say when two boxes touch. With A and B two objects (y up):

- **on**: A rests on B: A's bottom is within :data:`TOUCH_GAP` of B's top, and the centre of A's
  footprint lies over B's footprint (a book on a table, a pillow on a sofa);
- **above**: A is higher up over B without resting on it: A's bottom is more than
  :data:`TOUCH_GAP` above B's top, at most :data:`ABOVE_REACH` above it, and their footprints
  overlap (a painting above a bed);
- **below**: B is above A, or A stands on the floor (bottom within :data:`TOUCH_GAP` of it) under
  B: A's top is more than :data:`TOUCH_GAP` below B's top and the centre of A's footprint lies
  under B's footprint (a box under a table);
- **next to**: A and B stand on the same level (bottoms within :data:`LEVEL_GAP`), their
  footprints do not overlap, and the gap between them is at most :data:`NEXT_TO_GAP` (a lamp next
  to a bed, a toaster next to a kettle on a counter).

``distance`` is between box centres on the floor plane, in metres.

Every gap, rise and overlap is compared at micrometre precision (:func:`_um`): lite places
furniture at exact offsets (a safe 0.3 m from a dresser), which floating point makes 0.29999999 or
0.30000001 depending on whether boxes were rounded on the way, and a relation must not flip on that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Two faces this close (metres) touch: one object rests on the other.
TOUCH_GAP = 0.03
#: "Above" reaches at most this far (metres) over the other object's top.
ABOVE_REACH = 1.5
#: Bottoms within this (metres) stand on the same level.
LEVEL_GAP = 0.05
#: "Next to" allows at most this gap (metres) between the footprints.
NEXT_TO_GAP = 0.3

#: The relations, as the preposition template names them.
RELATIONS = ("on", "above", "below", "next to")

Box = tuple[Sequence[float], Sequence[float]]


def _um(value: float) -> float:
    """A length rounded to micrometres, for comparing with a threshold (module docstring)."""
    return round(value, 6)


def _footprint_gap(a: Box, b: Box) -> float:
    """Horizontal gap between two footprints (0 when they touch or overlap)."""
    (alo, ahi), (blo, bhi) = a, b
    dx = max(_um(blo[0] - ahi[0]), _um(alo[0] - bhi[0]), 0.0)
    dz = max(_um(blo[2] - ahi[2]), _um(alo[2] - bhi[2]), 0.0)
    return _um(math.hypot(dx, dz))


def _footprints_overlap(a: Box, b: Box) -> bool:
    (alo, ahi), (blo, bhi) = a, b
    return (_um(bhi[0] - alo[0]) > 0 and _um(ahi[0] - blo[0]) > 0 and _um(bhi[2] - alo[2]) > 0
            and _um(ahi[2] - blo[2]) > 0)


def _center_over(a: Box, b: Box) -> bool:
    """Whether the centre of A's footprint lies within B's footprint."""
    (alo, ahi), (blo, bhi) = a, b
    cx, cz = (alo[0] + ahi[0]) / 2.0, (alo[2] + ahi[2]) / 2.0
    return _um(cx - blo[0]) >= 0 and _um(bhi[0] - cx) >= 0 and _um(cz - blo[2]) >= 0 and _um(bhi[2] - cz) >= 0


def is_on(a: Box, b: Box) -> bool:
    """A rests on B."""
    return abs(_um(a[0][1] - b[1][1])) <= TOUCH_GAP and _center_over(a, b)


def is_above(a: Box, b: Box) -> bool:
    """A is over B, higher than resting on it."""
    rise = _um(a[0][1] - b[1][1])
    return TOUCH_GAP < rise <= ABOVE_REACH and _footprints_overlap(a, b)


def is_below(a: Box, b: Box, floor_y: float = 0.0) -> bool:
    """A is under B: B is above A, or A stands on the floor under B's footprint."""
    if is_above(b, a):
        return True
    on_floor = abs(_um(a[0][1] - floor_y)) <= TOUCH_GAP
    return on_floor and _um(b[1][1] - a[1][1]) > TOUCH_GAP and _center_over(a, b)


def is_next_to(a: Box, b: Box) -> bool:
    """A and B stand side by side on the same level, close together."""
    if abs(_um(a[0][1] - b[0][1])) > LEVEL_GAP or _footprints_overlap(a, b):
        return False
    return _footprint_gap(a, b) <= NEXT_TO_GAP


def related(relation: str, a: Box, b: Box, floor_y: float = 0.0) -> bool:
    """Whether ``a`` is ``relation`` ``b`` (one of :data:`RELATIONS`)."""
    if relation == "on":
        return is_on(a, b)
    if relation == "above":
        return is_above(a, b)
    if relation == "below":
        return is_below(a, b, floor_y)
    if relation == "next to":
        return is_next_to(a, b)
    raise ValueError(f"unknown relation {relation!r} (one of {RELATIONS})")


def floor_distance(a: Box, b: Box) -> float:
    """Distance between the centres of two boxes on the floor plane (metres)."""
    (alo, ahi), (blo, bhi) = a, b
    return math.hypot((alo[0] + ahi[0] - blo[0] - bhi[0]) / 2.0, (alo[2] + ahi[2] - blo[2] - bhi[2]) / 2.0)
