"""What a demonstration lets us say truly: its path, the room around it, and what sets an object apart.

Everything here is computed from what the generator knows exactly: the start state's objects (type,
box, receptacle), the agent's start pose and the recorded low actions (every one succeeded, so the
pose after each is the pose before it moved by one grid step or turned by 90 degrees). Each fact is
a :class:`Claim` as well as words: the claim is what a checker recomputes from the simulator to
refuse a line that says something false (``tests/test_language_truth.py``).

Conventions are THOR's: rotation 0 faces +z, 90 faces +x; the agent's right, facing +z, is +x.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from alfred_gen.sim.relations import Box, is_next_to

#: One MoveAhead, in metres (lite's and ALFRED's grid).
GRID_STEP = 0.25

#: How close (metres, agent to the nearest point of the footprint) a landmark must come for the
#: agent to have walked past it.
PASS_REACH = 0.8

#: Large, static furniture a person would steer by. Only those of a type the room holds once are
#: named ("the sofa" must single it out).
LANDMARK_TYPES = frozenset({
    "Fridge", "Sofa", "Bed", "DiningTable", "Desk", "Dresser", "Toilet", "Bathtub", "ArmChair", "TVStand",
    "Television", "Microwave", "CoffeeMachine", "GarbageCan", "FloorLamp", "SideTable", "CoffeeTable", "Sink",
    "Shelf", "Ottoman", "Safe", "LaundryHamper", "Toaster", "Stool", "Chair", "Footstool", "Cart", "StoveBurner",
    "Window", "Painting", "Mirror", "HousePlant", "Box", "DeskLamp",
})

#: Types whose instances stand in a row, told apart by position ("the second drawer from the left").
ROW_TYPES = frozenset({"Drawer", "Cabinet"})

#: A size word ("the large bowl") needs the object's box to be at least this many times the volume
#: of every other object of its type in the room (or at most its inverse, "the small bowl"): a
#: difference people see at a glance, not a measurement.
SIZE_RATIO = 1.5

#: Turn amounts (degrees clockwise) and the word for each.
_TURN_WORDS = {90: "right", 180: "around", 270: "left"}

#: Low actions that turn the agent, in degrees clockwise.
_TURNS = {"RotateRight": 90, "RotateLeft": -90}


@dataclass(frozen=True)
class Claim:
    """One checkable statement a line makes.

    ``kind`` and ``args`` are plain data (what the checker recomputes); ``words`` are the words of
    the line that carry it (the checker finds every directional, numeric and colour word of a line
    inside some claim's words).
    """

    kind: str
    args: tuple[Any, ...]
    words: str


@dataclass(frozen=True)
class Pose:
    x: float
    z: float
    rotation: int

    def forward(self) -> tuple[float, float]:
        angle = math.radians(self.rotation)
        return math.sin(angle), math.cos(angle)

    def after(self, action: str) -> Pose:
        """The pose after a successful low action ``action`` (the api action's name)."""
        if action in _TURNS:
            return Pose(self.x, self.z, (self.rotation + _TURNS[action]) % 360)
        moves = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}
        if action in moves:
            angle = math.radians(self.rotation + moves[action])
            return Pose(round(self.x + GRID_STEP * math.sin(angle), 4), round(self.z + GRID_STEP * math.cos(angle), 4),
                        self.rotation)
        return self


def poses_along(start: Pose, actions: Sequence[str]) -> list[Pose]:
    """The pose before each action, and after the last: ``len(actions) + 1`` poses."""
    out = [start]
    for action in actions:
        out.append(out[-1].after(action))
    return out


@dataclass(frozen=True)
class Leg:
    """One piece of a route: a turn (``left``, ``right``, ``around``) or a walk of ``steps``."""

    kind: str
    turn: str = ""
    steps: int = 0


def legs_of(actions: Sequence[str]) -> list[Leg] | None:
    """The route of a navigation subgoal: turns merged (two rights are "around"), walks counted;
    looking up or down is not part of the route. None when the subgoal moves other than ahead."""
    legs: list[Leg] = []
    turning = 0
    walking = 0

    def flush_turn() -> None:
        nonlocal turning
        if turning % 360:
            legs.append(Leg("turn", turn=_TURN_WORDS[turning % 360]))
        turning = 0

    for action in actions:
        if action in _TURNS:
            if walking:
                legs.append(Leg("walk", steps=walking))
                walking = 0
            turning += _TURNS[action]
        elif action == "MoveAhead":
            flush_turn()
            walking += 1
        elif action.startswith("Look"):
            continue
        else:
            return None
    flush_turn()
    if walking:
        legs.append(Leg("walk", steps=walking))
    return legs


def side_of(pose: Pose, point: tuple[float, float], margin: float = 0.15) -> str | None:
    """Where ``point`` (x, z) lies for an agent at ``pose``: ``ahead``, ``behind``, ``left`` or
    ``right``; None when it is near the diagonal between two of them (``margin`` of the distance)."""
    dx, dz = point[0] - pose.x, point[1] - pose.z
    fx, fz = pose.forward()
    ahead = dx * fx + dz * fz
    right = dx * fz - dz * fx
    distance = math.hypot(dx, dz)
    if distance < 1e-6 or abs(abs(ahead) - abs(right)) < margin * distance:
        return None
    if abs(ahead) > abs(right):
        return "ahead" if ahead > 0 else "behind"
    return "right" if right > 0 else "left"


@dataclass(frozen=True)
class Thing:
    """An object of the start state, as the language needs it."""

    object_id: str
    object_type: str
    box: Box
    pickupable: bool
    receptacle_ids: tuple[str, ...]

    @property
    def center(self) -> tuple[float, float]:
        (lo, hi) = self.box
        return (lo[0] + hi[0]) / 2.0, (lo[2] + hi[2]) / 2.0


def box_of(obj: Mapping[str, Any]) -> Box:
    """An object's axis-aligned box (lo, hi) from THOR metadata."""
    aabb = obj.get("axisAlignedBoundingBox") or {}
    corners = aabb.get("cornerPoints")
    if corners:
        xs, ys, zs = zip(*corners)
        return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))
    center, size = aabb.get("center") or obj["position"], aabb.get("size") or {"x": 0, "y": 0, "z": 0}
    lo = tuple(center[k] - size[k] / 2.0 for k in "xyz")
    hi = tuple(center[k] + size[k] / 2.0 for k in "xyz")
    return lo, hi


def things_of(metadata: Mapping[str, Any]) -> dict[str, Thing]:
    """The start state's objects by id."""
    out = {}
    for obj in metadata.get("objects") or ():
        out[obj["objectId"]] = Thing(obj["objectId"], obj["objectType"], box_of(obj), bool(obj.get("pickupable")),
                                     tuple(obj.get("parentReceptacles") or ()))
    return out


def footprint_distance(point: tuple[float, float], box: Box) -> float:
    """Distance on the floor from a point (x, z) to a box's footprint (0 inside it)."""
    (lo, hi) = box
    dx = max(lo[0] - point[0], 0.0, point[0] - hi[0])
    dz = max(lo[2] - point[1], 0.0, point[1] - hi[2])
    return math.hypot(dx, dz)


def footprint_side(pose: Pose, box: Box) -> str | None:
    """``left`` or ``right`` when the whole footprint lies on that side of the agent's heading."""
    (lo, hi) = box
    fx, fz = pose.forward()
    sides = set()
    for x in (lo[0], hi[0]):
        for z in (lo[2], hi[2]):
            right = (x - pose.x) * fz - (z - pose.z) * fx
            sides.add("right" if right > 1e-6 else "left" if right < -1e-6 else "on")
    return sides.pop() if len(sides) == 1 and "on" not in sides else None


def type_counts(things: Iterable[Thing]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for thing in things:
        counts[thing.object_type] = counts.get(thing.object_type, 0) + 1
    return counts


def passed_landmark(poses: Sequence[Pose], things: Mapping[str, Thing], exclude_types: Iterable[str],
                    moved: Iterable[str] = ()) -> tuple[Thing, str] | None:
    """The landmark the walk goes past (nearest first): a static object of a type the room holds
    once, within :data:`PASS_REACH` of a pose before the last, wholly on one side there, and not
    reached (the walk goes on past that pose). None when nothing qualifies."""
    counts = type_counts(things.values())
    skip = set(exclude_types)
    gone = set(moved)
    best: tuple[float, str, Thing, str] | None = None
    for thing in things.values():
        if (thing.object_type not in LANDMARK_TYPES or counts[thing.object_type] != 1 or thing.pickupable
                or thing.object_type in skip or thing.object_id in gone):
            continue
        for pose in poses[1:-1]:
            distance = footprint_distance((pose.x, pose.z), thing.box)
            if distance > PASS_REACH:
                continue
            side = footprint_side(pose, thing.box)
            if side is None:
                continue
            key = (round(distance, 6), thing.object_id, thing, side)
            if best is None or key[:2] < best[:2]:
                best = key
    return (best[2], best[3]) if best else None


def unique_neighbour(target: Thing, things: Mapping[str, Thing], moved: Iterable[str] = (),
                     types: frozenset[str] = LANDMARK_TYPES) -> Thing | None:
    """A neighbour that tells ``target`` apart from the others of its type: an object of a type the
    room holds once, next to ``target`` (:func:`~alfred_gen.sim.relations.is_next_to`) and next to no
    other object of ``target``'s type. Objects in ``moved`` (they moved before) are left out."""
    counts = type_counts(things.values())
    gone = set(moved)
    if target.object_id in gone:
        return None
    peers = [t for t in things.values() if t.object_type == target.object_type and t.object_id not in gone]
    if len(peers) != sum(1 for t in things.values() if t.object_type == target.object_type):
        return None  # a peer moved: where it stands now is not in the start state
    candidates = sorted((t for t in things.values() if t.object_type in types and counts[t.object_type] == 1
                         and t.object_id not in gone and t.object_type != target.object_type
                         and is_next_to(target.box, t.box)), key=lambda t: t.object_id)
    for neighbour in candidates:
        if not any(is_next_to(peer.box, neighbour.box) for peer in peers if peer.object_id != target.object_id):
            return neighbour
    return None


def row_position(target: Thing, pose: Pose, things: Mapping[str, Thing]) -> tuple[int, str, int] | None:
    """Where ``target`` stands in its row as the agent at ``pose`` sees it: (ordinal from the side,
    side, row length) for the side it is nearer to, or None. A row is the objects of its type
    (:data:`ROW_TYPES`) at the same height as ``target``, whose footprints are all in front of the
    agent within 2 m, ordered by their position across the agent's view."""
    if target.object_type not in ROW_TYPES:
        return None
    fx, fz = pose.forward()
    lo_y, hi_y = target.box[0][1], target.box[1][1]
    row = []
    for thing in things.values():
        if thing.object_type != target.object_type:
            continue
        if abs(thing.box[0][1] - lo_y) > 0.05 or abs(thing.box[1][1] - hi_y) > 0.05:
            continue
        cx, cz = thing.center
        ahead = (cx - pose.x) * fx + (cz - pose.z) * fz
        if not 0.0 < ahead <= 2.0:
            continue
        across = (cx - pose.x) * fz - (cz - pose.z) * fx
        row.append((round(across, 6), thing.object_id))
    if len(row) < 2 or len(row) > 5:
        return None
    row.sort()
    acrosses = [a for a, _ in row]
    if len(set(acrosses)) != len(acrosses):
        return None
    index = [i for i, (_, object_id) in enumerate(row) if object_id == target.object_id]
    if not index:
        return None
    i = index[0]
    from_left, from_right = i + 1, len(row) - i
    return (from_left, "left", len(row)) if from_left <= from_right else (from_right, "right", len(row))


def box_volume(box: Box) -> float:
    """Volume of an axis-aligned box, in cubic metres."""
    (lo, hi) = box
    return max(hi[0] - lo[0], 0.0) * max(hi[1] - lo[1], 0.0) * max(hi[2] - lo[2], 0.0)


def size_among_peers(target: Thing, things: Mapping[str, Thing], moved: Iterable[str] = ()) -> str | None:
    """``large`` when ``target`` is clearly the biggest of its type in the room, ``small`` when it is
    clearly the smallest (by :data:`SIZE_RATIO` of box volume against every other), else None. Only
    objects that have not moved count: a carried object's box turns with it."""
    gone = set(moved)
    peers = [t for t in things.values() if t.object_type == target.object_type and t.object_id != target.object_id]
    if not peers or target.object_id in gone or any(p.object_id in gone for p in peers):
        return None
    volume = box_volume(target.box)
    others = [box_volume(p.box) for p in peers]
    if volume >= SIZE_RATIO * max(others) > 0:
        return "large"
    if 0 < volume * SIZE_RATIO <= min(others):
        return "small"
    return None
