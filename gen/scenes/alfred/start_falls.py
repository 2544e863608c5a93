"""Where THOR's physics lets a posed object fall, as the masks of its first pickups show.

THOR loads a demo's ``scene.object_poses`` and then runs its physics: an object posed where THOR's
surface does not hold it (a knife's blade over the front edge of FloorPlan25's counter) falls, and
the demo's first interaction with it sees it where it landed. Lite honours the pose, so its mask of
the object lies 80-105 px above THOR's (IoU 0) and ALFRED's rule picks whatever lite draws there.

The first interaction with an object at its recorded start pose (a loose
:class:`~alfred_gen.scenes.alfred.sight_facts.SightFact`) is the evidence: its mask's mean ray,
from the known eye, passes far below the pose (:data:`FALL_BELOW_PX`) and meets the floor near it
(:data:`LANDING_REACH`) where the object fell; it passes near the pose (:data:`STAYED_WITHIN_PX`)
where the object stayed. Of the 10,601 loose first sights of every train demo, 9,101 stayed and 39
fell: 24 toilet rolls in 13 bathrooms (straight down), 6 knives (FloorPlan16, 20 and 25; in 25 the
mask's floor point lies 0.10-0.25 m in front of the counter, towards the agent), 3 watches, 2 pens,
2 candles, a pencil and a soap bar. Hand towels hang below their origin (their rays meet the floor
metres away) and are no falls.

A room's :class:`~alfred_gen.sim.start_falls.FallZone` s are made from these facts, per object
(by name: THOR's asset): the poses at least as far out as the falls of that object at that level
show the surface's edge to be, along the way they fell (the edge is straight: falls the same way
within 2 x :data:`ALONG_EDGE` along it share it), within :data:`ALONG_EDGE` either side of each
fall and up to :data:`PAST_FALL` beyond it, unless a stay of that object lies as far out; a
straight-down fall makes a zone of its own spot only. Each zone moves the object as far as its fall
did. Held out by folds over every train demo (zones from the room's other folds; each fold's first
sights predicted): 22 falls predicted, no stay predicted to fall, 17 falls no other fold shows.
Alternatives, same check: each fall its own edge, 20 falls (FloorPlan25's knives at z 0.539 missed
where the other knives fell from 0.549 and 0.539); an edge half way between the farthest stay and
the nearest fall, 22 falls and a stay wrongly (a knife of FloorPlan25 at z 0.529, between a stay at
0.508 and a fall at 0.549); zones per type rather than per object, 5 stays wrongly (one of
FloorPlan421's two toilet rolls at one spot falls, the other stays; a butter knife at FloorPlan25's
z 0.549 stays where the knife falls).

At restore time (:func:`alfred_gen.sim.setup_actions.set_object_poses`), an object of an imported
room posed in a zone is put where it landed, on the floor, keeping the id of its pose (THOR gives
ids at the pose). Procedural rooms have no zones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.start_falls import FallZone
from alfred_gen.traj.rle import FRAME_HEIGHT

#: How far (pixels of ALFRED's 300 px frame, near its middle) the mask's mean ray must pass below
#: the pose for the object to have fallen: FloorPlan25's fallen knives 89-117 px, its knives that
#: stayed at most 17 px (their masks' middles off the origin along the blade).
FALL_BELOW_PX = 40.0
#: How far above or below the pose the mean ray may pass for the object to have stayed (pixels).
STAYED_WITHIN_PX = 25.0
#: Pixels of ALFRED's frame per radian near its middle.
PIXELS_PER_RADIAN = FRAME_HEIGHT / 2 / math.tan(math.radians(ALFRED_CAMERA.field_of_view / 2))
#: How high above the floor a pose must be for a fall to show (metres): a plate, pan or cloth on
#: the floor or a low shelf has its mask's middle nearer the agent than its origin, and a ray
#: through it meets the floor before the pose (15 such first pickups, all under 0.25 m high).
FALL_HEIGHT = 0.3
#: How near the pose (horizontally) the mask's mean ray must meet the floor for the object to have
#: landed there (metres): FloorPlan25's knives 0.10-0.25, FloorPlan203's pencil 0.22, toilet paper
#: under 0.15; hand towels, hanging below their origin, 0.5-7 m.
LANDING_REACH = 0.35
#: Poses of one level: their heights differ by no more than this (metres).
SAME_LEVEL = 0.03
#: How far along the edge (either side of a fall) its zone reaches (metres): FloorPlan25's fallen
#: knives span 0.50 m of its counter's front, x -2.04 to -1.54.
ALONG_EDGE = 0.30
#: How far past a fall, away from the edge, its zone reaches (metres).
PAST_FALL = 0.15
#: A fall moves the object at least this far horizontally to have a direction (metres); less is
#: straight down, and the zone is the fall's own spot (:data:`SPOT`).
DIRECTED = 0.08
#: Half the side of a straight-down fall's zone (metres): ALFRED's poses repeat to the centimetre.
SPOT = 0.02
#: How far short of a fall its zone starts (metres): half the 1 cm step FloorPlan25's poses along
#: its counter's front come in (z 0.508, 0.519, 0.529, 0.539, 0.549).
SHORT = 0.005


@dataclass(frozen=True)
class _Seen:
    object_name: str
    pose: tuple[float, float, float]
    #: Where it landed on the floor (x, z); None: it stayed at its pose.
    landed: tuple[float, float] | None


def _elevation(direction: tuple[float, float, float]) -> float:
    return math.atan2(direction[1], math.hypot(direction[0], direction[2]))


def _seen(fact: SightFact, floor_y: float) -> _Seen | None:
    """What a loose first sight shows: the object stayed, fell (and where), or neither clearly."""
    if fact.loose is None or not fact.rays:
        return None
    name, pose, _ = fact.loose
    if pose[1] - floor_y < FALL_HEIGHT:
        return None
    mx, my, mz = (sum(r[i] for r in fact.rays) / len(fact.rays) for i in range(3))
    ex, ey, ez = fact.eye
    if my >= 0.0:
        return None
    to_pose = (pose[0] - ex, pose[1] - ey, pose[2] - ez)
    below = PIXELS_PER_RADIAN * (_elevation(to_pose) - _elevation((mx, my, mz)))
    if abs(below) <= STAYED_WITHIN_PX:
        return _Seen(name, pose, None)
    if below < FALL_BELOW_PX:
        return None
    t = (floor_y - ey) / my
    hit = (ex + mx * t, ez + mz * t)
    if math.hypot(hit[0] - pose[0], hit[1] - pose[2]) > LANDING_REACH:
        return None
    return _Seen(name, pose, hit)


def fall_zones(sights: Iterable[SightFact], floor_y: float) -> tuple[FallZone, ...]:
    """The zones a room's loose first sights prove objects fall from (see the module docstring)."""
    seen = [s for s in (_seen(f, floor_y) for f in sights) if s is not None]
    zones: list[FallZone] = []
    for fall in seen:
        if fall.landed is None:
            continue
        level = [s for s in seen if s.object_name == fall.object_name and abs(s.pose[1] - fall.pose[1]) <= SAME_LEVEL]
        zone = _zone(fall, [s.pose for s in level if s.landed is None], [s for s in level if s.landed is not None])
        if zone is not None and zone not in zones:
            zones.append(zone)
    return tuple(zones)


def _direction(fall: _Seen) -> tuple[int, float] | None:
    """(axis, sign) of the way a fall moved the object, None for straight down."""
    assert fall.landed is not None
    dx, dz = fall.landed[0] - fall.pose[0], fall.landed[1] - fall.pose[2]
    if max(abs(dx), abs(dz)) < DIRECTED:
        return None
    return (0, math.copysign(1.0, dx)) if abs(dx) >= abs(dz) else (2, math.copysign(1.0, dz))


def _zone(fall: _Seen, stays: list[tuple[float, float, float]], falls: list[_Seen]) -> FallZone | None:
    """The zone of one fall: ``stays`` and ``falls`` are the poses of the same object at its level
    that stayed and the falls there (this one among them)."""
    assert fall.landed is not None
    (x, y, z), (lx, lz) = fall.pose, fall.landed
    way = _direction(fall)
    if way is None:
        if any(abs(s[0] - x) <= SPOT and abs(s[2] - z) <= SPOT for s in stays):
            return None
        return FallZone(fall.object_name, (x - SPOT, y - SAME_LEVEL, z - SPOT), (x + SPOT, y + SAME_LEVEL, z + SPOT),
                        (0.0, 0.0))
    axis, sign = way
    side = 2 - axis
    # The edge is straight: the falls the same way along it show where it is.
    peers = [f for f in falls if _direction(f) == way and abs(f.pose[side] - fall.pose[side]) <= 2 * ALONG_EDGE]
    edge = min(sign * f.pose[axis] for f in peers) - SHORT
    near = [s for s in stays if abs(s[side] - fall.pose[side]) <= ALONG_EDGE]
    if any(sign * s[axis] >= edge for s in near):
        return None  # a stay as far out as a fall: no edge between them
    lo_a, hi_a = sorted((sign * edge, sign * (sign * fall.pose[axis] + PAST_FALL)))
    lo = [0.0, y - SAME_LEVEL, 0.0]
    hi = [0.0, y + SAME_LEVEL, 0.0]
    lo[axis], hi[axis] = lo_a, hi_a
    lo[side], hi[side] = fall.pose[side] - ALONG_EDGE, fall.pose[side] + ALONG_EDGE
    shift = (lx - x, 0.0) if axis == 0 else (0.0, lz - z)
    return FallZone(fall.object_name, (lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]),
                    (round(shift[0], 4), round(shift[1], 4)))
