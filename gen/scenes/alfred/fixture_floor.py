"""Where a fixture standing on the floor goes in a room no demonstration names it in.

A garbage can or a floor lamp stands on the floor by a wall, beyond the floor the agent walks
(:mod:`~alfred_gen.scenes.alfred.fixture_rules` learns how far). Which stretch of wall is the
question. Two kinds of ways are tried on the rooms with evidence:

- **far**: beyond the walked points furthest from the room's middle (a corner of the room);
- **by a host type**: beyond the corner of the walked floor nearest a layout receptacle of that
  type (a garbage can by the toilet, or by the kitchen's cabinets).

Each way keeps how many of the rooms it could be tried in it puts the fixture within
:data:`HIT` of an id the room's demos name, and how many of those rooms the far way did: a way by a
host type is kept only where it found more than the far way in the same rooms, so the evidence,
not a guess, says whether a garbage can is better looked for by the toilet or in the far corner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import id_position
from alfred_gen.sim.scene import GRID_SIZE

#: The label of the far way.
FAR = "Floor"
#: The label of a way by a host type: this prefix, then the type.
BY = "Floor by "
#: A placement this close (horizontally) to a fixture's id found it (m): the agent, standing where
#: the demo stood for the real one, still reaches the placed one (1.5 m).
HIT = 1.0
#: Floor fixtures placed by rule stand at least this far apart (m): a garbage can and a floor lamp
#: both sent to a living room's far corner would otherwise stand in each other.
APART = 1.0

Point = tuple[float, float]


def corners(points: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The walked points with at least two of their four grid neighbours off the walked floor
    (corners of the floor), each with the unit vector towards the missing ones (the walls)."""
    grid = {(round(x / GRID_SIZE), round(z / GRID_SIZE)) for x, z in points}
    out = []
    for x, z in sorted(points):
        i, k = round(x / GRID_SIZE), round(z / GRID_SIZE)
        missing = [(dx, dz) for dx, dz in ((1, 0), (-1, 0), (0, 1), (0, -1)) if (i + dx, k + dz) not in grid]
        if len(missing) < 2:
            continue
        ux, uz = sum(d[0] for d in missing), sum(d[1] for d in missing)
        norm = math.hypot(ux, uz)
        out.append(((x, z), (ux / norm, uz / norm) if norm > 1e-9 else (0.0, 0.0)))
    return out


def _free(spot: Point, taken: Sequence[Point]) -> bool:
    return all(math.hypot(spot[0] - t[0], spot[1] - t[1]) >= APART for t in taken)


def far_positions(points: Sequence[Point], reach: float, count: int, taken: Sequence[Point] = ()) -> list[Point]:
    """Beyond the walked points furthest from the room's middle, ``reach`` further out, :data:`APART`
    from each other and from the floor fixtures already ``taken`` there."""
    cx = sum(x for x, _ in points) / len(points)
    cz = sum(z for _, z in points) / len(points)
    out: list[Point] = []
    for x, z in sorted(points, key=lambda p: (-math.hypot(p[0] - cx, p[1] - cz), p)):
        if len(out) >= count:
            break
        dx, dz = x - cx, z - cz
        norm = math.hypot(dx, dz) or 1.0
        spot = (x + reach * dx / norm, z + reach * dz / norm)
        if _free(spot, [*out, *taken]):
            out.append(spot)
    return out


def by_position(points: Sequence[Point], openable: Sequence[str], host_type: str, reach: float,
                taken: Sequence[Point] = ()) -> Point | None:
    """Beyond the floor's corner nearest a receptacle of ``host_type``, ``reach`` further out, and
    :data:`APART` from the floor fixtures already ``taken`` (None without such a receptacle or corner)."""
    hosts = [id_position(i) for i in sorted(openable) if catalogue.type_of_id(i) == host_type]
    spots = [((x + reach * ux, z + reach * uz), (x, z)) for (x, z), (ux, uz) in corners(points)]
    spots = [(spot, corner) for spot, corner in spots if _free(spot, taken)]
    if not hosts or not spots:
        return None
    return min((min(math.hypot(c[0] - h[0], c[1] - h[2]) for h in hosts), spot) for spot, c in spots)[1]


def floor_position(way: str, points: Sequence[Point], openable: Sequence[str], reach: float, count: int,
                   taken: Sequence[Point] = ()) -> list[Point]:
    """Where the way labelled ``way`` puts ``count`` fixtures (a way by a host type puts one), clear
    of the floor fixtures already ``taken``."""
    if not points:
        return []
    if way == FAR:
        return far_positions(points, reach, count, taken)
    spot = by_position(points, openable, way.removeprefix(BY), reach, taken)
    return [spot] if spot is not None else []


def score_ways(rooms: Sequence[tuple[Sequence[Point], Sequence[str], Sequence[tuple[float, float, float]]]],
               reach: float, count: int) -> dict[str, tuple[int, int, int]]:
    """Way label -> (rooms where it put a fixture within :data:`HIT` of one of the room's ids,
    rooms it could be tried in, rooms of those where the far way did), over ``rooms`` given as
    (walked points, receptacle ids, the fixture's id positions)."""
    scores: dict[str, tuple[int, int, int]] = {}
    for points, openable, truth in rooms:
        ways = [FAR] + sorted({BY + catalogue.type_of_id(i) for i in openable})
        hits = {}
        for way in ways:
            spots = floor_position(way, points, openable, reach, count)
            if spots:
                hits[way] = any(math.hypot(s[0] - t[0], s[1] - t[2]) <= HIT for s in spots for t in truth)
        for way, hit in hits.items():
            found, tried, far = scores.get(way, (0, 0, 0))
            scores[way] = (found + hit, tried + 1, far + hits.get(FAR, False))
    return scores
