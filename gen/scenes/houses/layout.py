"""The floor plan of a house: which rooms, where, and the doorways that join them.

A house is a rectangle cut into rooms like a treemap: the rooms (each with a target floor area drawn
from its type's size range, :mod:`alfred_gen.scenes.procedural` ``SHAPE``) are split into two groups
of about equal area, the rectangle is cut across its longer side in that proportion, and each part is
cut again for its group, until every part is one room. Every cut leaves a wall
:data:`~alfred_gen.scenes.procedural.rooms.WALL_THICKNESS` thick between the two parts (a *slab*), so
neighbouring rooms share one wall and the rooms' floors never touch.

Two rooms on either side of a slab are neighbours where their sides overlap by enough for a doorway.
Doorways are chosen as a random spanning tree over the neighbours, grown from the living room (or
the kitchen), so that every room can be reached; a bathroom is entered and never passed through
when that can be avoided, and a few extra doorways between other rooms make loops, as homes have.
Each doorway is an opening :data:`~alfred_gen.scenes.procedural.rooms.DOOR_WIDTH` wide in its slab.

Everything is a function of the ``random.Random`` handed in, so a house is a function of its number.
A plan that breaks a rule (a room too narrow, a room with no possible doorway) raises
:class:`PlanFailed`, and the caller draws another.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from alfred_gen.scenes.houses import dining_room, garage, gym
from alfred_gen.scenes.procedural import bathroom, bedroom, kitchen, living_room
from alfred_gen.scenes.procedural.rooms import DOOR_WIDTH, WALL_THICKNESS, Rect, ShapeSpec

#: Size ranges (metres) of each room type, those of the single rooms.
SHAPES: dict[str, ShapeSpec] = {
    "kitchen": kitchen.SHAPE,
    "living_room": living_room.SHAPE,
    "bedroom": bedroom.SHAPE,
    "bathroom": bathroom.SHAPE,
    "dining_room": dining_room.SHAPE,
    "gym": gym.SHAPE,
    "garage": garage.SHAPE,
}

#: Fewest and most rooms a house has: about 8, as EQA's SUNCG homes (issue 67; 2-8 before it).
MIN_ROOMS = 6
MAX_ROOMS = 10

#: Narrowest side (metres) a room of each type may have after the cuts: a little under the
#: smallest single room of the type, which its furnishing code is made for.
MIN_SIDE = {"kitchen": 2.4, "living_room": 3.2, "bedroom": 2.6, "bathroom": 1.9, "dining_room": 2.8, "gym": 2.8,
            "garage": 3.0}

#: Longest side over shortest side, at most.
MAX_ASPECT = 2.6

#: How far a doorway's edge stays from the corner of either room it joins.
DOOR_MARGIN = 0.3

#: Chance that a pair of neighbouring rooms (neither a bathroom) gets a second way between them
#: in the spanning tree's loop: an extra doorway.
EXTRA_DOOR_SHARE = 0.25

#: Coordinates are snapped to this step (as the single rooms' are).
SNAP = 0.05


class PlanFailed(Exception):
    """This draw of a floor plan breaks a rule; draw another."""


@dataclass(frozen=True)
class PlannedRoom:
    """One room of the plan: its index, type and floor rectangle; ``also`` its other types when it
    is an open-plan room (:mod:`alfred_gen.scenes.houses.open_plan`)."""

    index: int
    room_type: str
    rect: Rect
    also: tuple[str, ...] = ()

    @property
    def types(self) -> tuple[str, ...]:
        """Every type of the room, its own first."""
        return (self.room_type, *self.also)


@dataclass(frozen=True)
class Slab:
    """A wall between two parts of a cut: ``rect`` on the floor plane; ``axis`` 0 when it runs
    along z (a cut across x), 2 when it runs along x."""

    rect: Rect
    axis: int


@dataclass(frozen=True)
class PlannedDoor:
    """A doorway: the two rooms it joins (lower index first) and its opening in the slab."""

    rooms: tuple[int, int]
    opening: Rect
    axis: int

    @property
    def center(self) -> tuple[float, float]:
        return self.opening.center


@dataclass(frozen=True)
class HousePlan:
    """A house's floor plan: the floor rectangle inside the outer walls, rooms, walls, doorways."""

    bounds: Rect
    rooms: tuple[PlannedRoom, ...]
    slabs: tuple[Slab, ...]
    doors: tuple[PlannedDoor, ...]

    def neighbours(self, index: int) -> list[int]:
        """Rooms joined to room ``index`` by a doorway, sorted."""
        out = {b if a == index else a for a, b in (d.rooms for d in self.doors) if index in (a, b)}
        return sorted(out)


def _snap(value: float) -> float:
    return round(round(value / SNAP) * SNAP, 4) + 0.0


def choose_room_types(rng: random.Random) -> list[str]:
    """The room types of a house: 6-10 rooms (about 8, as EQA's homes), usually a kitchen, a living
    room and a dining room, then bedrooms, bathrooms, now and then a garage or a gym (EQA's
    questions name both). Not every draw has a kitchen, a living room, a dining room and a bedroom:
    the house filter (:mod:`alfred_gen.scenes.houses.filter`) decides which houses count, as EQA
    filtered SUNCG's. (Garage and gym took 0.78-0.90 of the bathrooms' 0.55-0.90 in issue 67, so
    a house that drew no room there kept its types.)"""
    count = rng.randint(MIN_ROOMS, MAX_ROOMS)
    types: list[str] = []
    for room_type, share in (("kitchen", 0.95), ("living_room", 0.95), ("dining_room", 0.9)):
        if rng.random() < share:
            types.append(room_type)
    while len(types) < count:
        pick = rng.random()
        if pick < 0.55:
            types.append("bedroom")
        elif pick < 0.78:
            types.append("bathroom")
        elif pick < 0.84:
            types.append("garage")
        elif pick < 0.9:
            types.append("gym")
        elif pick < 0.95:
            types.append("living_room")
        else:
            types.append("kitchen")
    return types


def target_area(rng: random.Random, room_type: str) -> float:
    """A floor area for a room of this type, from its type's size ranges."""
    spec = SHAPES[room_type]
    return rng.uniform(*spec.width) * rng.uniform(*spec.depth)


def plan_house(rng: random.Random, types: Sequence[str | tuple[str, ...]]) -> HousePlan:
    """A floor plan for rooms of these types (see the module docstring); PlanFailed when this draw
    breaks a rule. A room given as a tuple of types is an open-plan room: as large as its types'
    rooms together, and at least as wide as the widest of them needs."""
    kinds = [(t,) if isinstance(t, str) else tuple(t) for t in types]
    areas = [sum(target_area(rng, t) for t in kind) for kind in kinds]
    total = sum(areas)
    aspect = rng.uniform(1.0, 1.7)
    width = (total * aspect) ** 0.5
    depth = total / width
    if rng.random() < 0.5:
        width, depth = depth, width
    # Walls inside the house take floor too: grow the rectangle by a wall per room along each side.
    extra = WALL_THICKNESS * (len(types) ** 0.5)
    width, depth = _snap(width + extra), _snap(depth + extra)
    x0 = _snap(rng.uniform(-width * 0.7, -width * 0.3))
    z0 = _snap(rng.uniform(-depth * 0.7, -depth * 0.3))
    bounds = Rect(x0, z0, round(x0 + width, 4), round(z0 + depth, 4))
    order = list(range(len(types)))
    rng.shuffle(order)
    placed: dict[int, Rect] = {}
    slabs: list[Slab] = []
    _cut(bounds, [(i, areas[i]) for i in order], placed, slabs, rng)
    rooms = tuple(PlannedRoom(i, kinds[i][0], placed[i], kinds[i][1:]) for i in range(len(types)))
    for room in rooms:
        short, long = sorted((room.rect.width, room.rect.depth))
        if short < max(MIN_SIDE[t] for t in room.types) - 1e-9 or long / short > MAX_ASPECT:
            raise PlanFailed(f"{room.room_type} {room.rect.width:.2f} x {room.rect.depth:.2f} m")
    doors = _choose_doors(rooms, slabs, rng)
    return HousePlan(bounds, rooms, tuple(slabs), doors)


def _cut(rect: Rect, rooms: list[tuple[int, float]], placed: dict[int, Rect], slabs: list[Slab],
         rng: random.Random) -> None:
    """Cut ``rect`` among ``rooms`` (index, area), recording each room's rectangle and each wall."""
    if len(rooms) == 1:
        placed[rooms[0][0]] = rect
        return
    total = sum(a for _, a in rooms)
    # The split point in this order that halves the area best.
    running, best, split = 0.0, None, 1
    for k in range(1, len(rooms)):
        running += rooms[k - 1][1]
        gap = abs(running - total / 2)
        if best is None or gap < best - 1e-9:
            best, split = gap, k
    first, second = rooms[:split], rooms[split:]
    share = sum(a for _, a in first) / total
    across_x = rect.width >= rect.depth
    if rect.width == rect.depth:
        across_x = rng.random() < 0.5
    if across_x:
        at = _snap(rect.x0 + (rect.width - WALL_THICKNESS) * share)
        slab = Rect(at, rect.z0, round(at + WALL_THICKNESS, 4), rect.z1)
        parts = (Rect(rect.x0, rect.z0, at, rect.z1), Rect(slab.x1, rect.z0, rect.x1, rect.z1))
        slabs.append(Slab(slab, 0))
    else:
        at = _snap(rect.z0 + (rect.depth - WALL_THICKNESS) * share)
        slab = Rect(rect.x0, at, rect.x1, round(at + WALL_THICKNESS, 4))
        parts = (Rect(rect.x0, rect.z0, rect.x1, at), Rect(rect.x0, slab.z1, rect.x1, rect.z1))
        slabs.append(Slab(slab, 2))
    if min(p.width for p in parts) <= 0 or min(p.depth for p in parts) <= 0:
        raise PlanFailed("a cut left no room")
    _cut(parts[0], first, placed, slabs, rng)
    _cut(parts[1], second, placed, slabs, rng)


def _door_spans(
    rooms: Sequence[PlannedRoom], slabs: Sequence[Slab]
) -> dict[tuple[int, int], tuple[Slab, float, float]]:
    """Neighbouring rooms (i < j) -> (slab, lo, hi): the stretch along the slab where both rooms
    touch it and a doorway fits with :data:`DOOR_MARGIN` to spare on each side."""
    spans: dict[tuple[int, int], tuple[Slab, float, float]] = {}
    need = DOOR_WIDTH + 2 * DOOR_MARGIN
    for slab in slabs:
        s = slab.rect
        low_face, high_face = (s.x0, s.x1) if slab.axis == 0 else (s.z0, s.z1)
        slab_span = _along(s, slab.axis)
        low, high = [], []
        for room in rooms:
            r_lo, r_hi = (room.rect.x0, room.rect.x1) if slab.axis == 0 else (room.rect.z0, room.rect.z1)
            a0, a1 = _along(room.rect, slab.axis)
            if a0 >= slab_span[1] or a1 <= slab_span[0]:
                continue
            if abs(r_hi - low_face) < 1e-6:
                low.append(room)
            elif abs(r_lo - high_face) < 1e-6:
                high.append(room)
        for a in low:
            for b in high:
                lo = max(_along(a.rect, slab.axis)[0], _along(b.rect, slab.axis)[0])
                hi = min(_along(a.rect, slab.axis)[1], _along(b.rect, slab.axis)[1])
                if hi - lo >= need - 1e-9:
                    key = (min(a.index, b.index), max(a.index, b.index))
                    spans[key] = (slab, lo, hi)
    return spans


def _along(rect: Rect, axis: int) -> tuple[float, float]:
    """The extent of a rectangle along a slab's length (z for a slab of axis 0, x for axis 2)."""
    return (rect.z0, rect.z1) if axis == 0 else (rect.x0, rect.x1)


def _choose_doors(rooms: Sequence[PlannedRoom], slabs: Sequence[Slab], rng: random.Random) -> tuple[PlannedDoor, ...]:
    """A spanning tree of doorways over the neighbours, plus a few extra (see the module docstring)."""
    spans = _door_spans(rooms, slabs)
    types = {r.index: r.room_type for r in rooms}
    hubs = [r.index for r in rooms if "living_room" in r.types]
    hubs = hubs or [r.index for r in rooms if "kitchen" in r.types]
    root = min(hubs) if hubs else 0
    joined = {root}
    chosen: list[tuple[int, int]] = []
    while len(joined) < len(rooms):
        frontier = sorted(pair for pair in spans if (pair[0] in joined) != (pair[1] in joined))
        if not frontier:
            raise PlanFailed("a room has no wall long enough for a doorway to the rest")
        # Pass through a bathroom only when nothing else reaches the rest.
        through = [p for p in frontier if types[p[0] if p[0] in joined else p[1]] != "bathroom"]
        pair = rng.choice(through or frontier)
        chosen.append(pair)
        joined.update(pair)
    for pair in sorted(spans):
        if pair in chosen or "bathroom" in (types[pair[0]], types[pair[1]]):
            continue
        if rng.random() < EXTRA_DOOR_SHARE:
            chosen.append(pair)
    doors = []
    for pair in sorted(chosen):
        slab, lo, hi = spans[pair]
        half = DOOR_WIDTH / 2
        center = _snap(rng.uniform(lo + DOOR_MARGIN + half, hi - DOOR_MARGIN - half))
        center = min(max(center, lo + DOOR_MARGIN + half), hi - DOOR_MARGIN - half)
        s = slab.rect
        if slab.axis == 0:
            opening = Rect(s.x0, round(center - half, 4), s.x1, round(center + half, 4))
        else:
            opening = Rect(round(center - half, 4), s.z0, round(center + half, 4), s.z1)
        doors.append(PlannedDoor(pair, opening, slab.axis))
    return tuple(doors)
