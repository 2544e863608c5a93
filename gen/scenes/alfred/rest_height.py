"""How high a loose object's THOR origin sits above its base, for the types whose assets disagree,
read from what its recorded poses rest on.

:data:`~alfred_gen.scenes.alfred.loose.ORIGIN_HEIGHT` gives one height per type. A cardboard box's
is not one: each room has its own box asset, with its pivot anywhere from 0.4 to 0.85 of its
height above its base (medians over 29 rooms of the train demos, measured against the thin
objects lying on the same surface). At the type's 0.7, FloorPlan204's box floated 0.1 m over the
dining table it stands on, so nothing lay on it, and the statue a start state puts in it lay under
its floor, outside it: the demos that only carry the box to the coffee table (the statue was in it
from the start) missed their goal.

The poses say more than the type: a box stands on a table top, a shelf or the floor, and the room
knows where those are. Per pose, the origin's height over the highest fixture top (or the floor)
under it; the median of those no more than the box is tall is the object's origin height, capped at
its height (its origin at its top). Poses over nothing the room knows, or too high above it
(on something the room lacks), say nothing. Poses on the floor, when there are any, decide alone:
the floor's height is exact, learnt tops are a few centimetres off, and a box raised off the floor
by a top's error would stop blocking the agent's way. Over the in-sample rooms, a box's poses on
different surfaces agree to 1-2 cm (FloorPlan225's: 0.107-0.110 m over three shelves and a TV
stand), except over a fixture whose learnt top is wrong (its coffee table, 0.1 m too low).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from statistics import median

from alfred_gen.scenes.alfred.loose import pickupable_size
from alfred_gen.sim.scene import Box

#: Loose types whose origin height is fitted per object.
FITTED_TYPES = frozenset({"Box"})

#: A pose may sit this much higher over what is under it than the object is tall (metres): learnt
#: tops are a few centimetres off THOR's, and catalogue sizes off its assets.
REST_TOLERANCE = 0.05

Pose = tuple[tuple[float, float, float], float]


def _top_under(x: float, y: float, z: float, fixtures: Sequence[Box], floor_y: float) -> float:
    """The highest fixture top under (x, z) that is not above ``y``; the floor if none."""
    tops = [b.hi[1] for b in fixtures if b.lo[0] <= x <= b.hi[0] and b.lo[2] <= z <= b.hi[2] and b.hi[1] <= y]
    return max([floor_y, *tops])


def origin_height(kind: str, poses: Iterable[Pose], fixtures: Sequence[Box], floor_y: float) -> float | None:
    """Height of a ``kind`` object's origin over its base that its ``poses`` show (see the module
    docstring); None for other types, or when no pose rests on anything the room knows."""
    if kind not in FITTED_TYPES:
        return None
    tall = pickupable_size(kind)[1]
    on_floor: list[float] = []
    on_tops: list[float] = []
    for (x, y, z), _ in poses:
        top = _top_under(x, y, z, fixtures, floor_y)
        rise = y - top
        if 0.0 <= rise <= tall + REST_TOLERANCE:
            (on_floor if top == floor_y else on_tops).append(rise)
    heights = on_floor or on_tops
    if not heights:
        return None
    return min(median(heights), tall)


def rested(box: Box, position: tuple[float, float, float], height: float | None, floor_y: float) -> Box:
    """``box`` (a loose object's, origin at ``position``) moved up or down so its base is ``height``
    under the origin, never below the floor; unchanged when ``height`` is None."""
    if height is None:
        return box
    bottom = max(position[1] - height, floor_y)
    rise = bottom - box.lo[1]
    return Box((box.lo[0], bottom, box.lo[2]), (box.hi[0], box.hi[1] + rise, box.hi[2]))
