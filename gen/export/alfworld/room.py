"""A start state as ALFWorld sees a room: receptacles at locations, objects in receptacles.

ALFWorld's text world knows two kinds of things. A *receptacle* is a fixed thing of one of its
receptacle classes (a counter top, a fridge, a sink basin) standing at a location: the agent's pose
from which it is used, ``loc|x|z|rotation|horizon`` in grid units (x and z in 0.25 m steps,
rotation in quarter turns, horizon in degrees), as ALFRED names poses. An *object* is anything else
ALFWorld names (movable receptacles such as bowls included); it is in the receptacles its THOR
metadata lists as parents, and at their location. An object inside a movable receptacle (a pen in
a bowl on a desk) is in the bowl's receptacles as well, which is how ALFWorld can take it.

The agent starts at a location of its own: an ALFWorld game begins "in the middle of a room" with
the list of receptacles (its handcoded expert, and any agent, learns the room from it), while a
start at a receptacle's location would begin facing that receptacle and list nothing else. When the
start pose is also a receptacle's interaction pose, the start location's name ends in ``|start``.

What ALFWorld does not name, or cannot place, is left out of the room and said in ``left_out``: a
class missing from its lists, or a receptacle without an interaction pose (it would have no
location to go to).

An object whose metadata names no receptacle (``lite`` may not know what an object in an imported
ALFRED room rests on) can be given one from the trajectory's own record: ALFRED's ``PickupObject``
steps record, in ``coordinateReceptacleObjectId``, the class and position of the receptacle THOR
picked the object up from (:func:`recorded_receptacles`). And a fixed object (a desk lamp) that
metadata leaves without a receptacle gets the receptacle it stands on in the room's geometry, as
THOR's ``parentReceptacles`` would list it (:func:`standing_on`): the receptacle whose top is where
the object's bottom is, under its centre. Metadata that names a receptacle wins over both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.export.alfworld.upstream import AlfworldRules

#: Grid step of ALFRED's location names (metres).
GRID = 0.25

#: How far (metres, on the floor plane) a recorded receptacle may be from the one it names.
RECORD_TOLERANCE = 1.0
#: How far (metres) a fixed object's bottom may be from the top of the receptacle it stands on.
SUPPORT_TOLERANCE = 0.05

#: Added to the start location's name when the start pose is also a receptacle's interaction pose.
START_SUFFIX = "|start"

#: An axis-aligned box as ((x, y, z) low corner, (x, y, z) high corner).
Box = tuple[Sequence[float], Sequence[float]]


def location_name(pose: Sequence[float]) -> str:
    """ALFRED's name of an agent pose [x, z, rotation, horizon]: ``loc|-4|12|0|45``."""
    x, z, rotation, horizon = (float(value) for value in list(pose)[:4])
    return f"loc|{round(x / GRID)}|{round(z / GRID)}|{round(rotation / 90.0) % 4}|{round(horizon)}"


@dataclass(frozen=True)
class Receptacle:
    """A fixed receptacle: its THOR id and class, its location, whether it opens and is open."""

    thor_id: str
    object_class: str
    location: str
    openable: bool
    opened: bool


@dataclass(frozen=True)
class Item:
    """An object: its THOR id and class, the receptacles (THOR ids) it is in, the movable receptacle
    it lies in (or ""), its location (or "" when it is in no receptacle) and its THOR state."""

    thor_id: str
    object_class: str
    receptacles: tuple[str, ...]
    inside: str
    location: str
    pickupable: bool
    toggleable: bool
    is_on: bool


@dataclass
class Room:
    """The room of one start state as ALFWorld sees it (see the module docstring)."""

    receptacles: dict[str, Receptacle]
    items: dict[str, Item]
    locations: dict[str, list[float]]  # location name -> the pose [x, z, rotation, horizon]
    agent_location: str
    left_out: list[str] = field(default_factory=list)

    def holders(self, thor_id: str) -> tuple[str, ...]:
        """The receptacles an object is in at the start (THOR ids, sorted)."""
        item = self.items.get(thor_id)
        return item.receptacles if item is not None else ()


def recorded_receptacles(high_pddl: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, tuple[float, float]]]:
    """object id -> (receptacle class, its (x, z)) for every object a ``PickupObject`` step of the
    plan takes before any step puts it somewhere, as ALFRED records it: ``coordinateReceptacleObjectId``
    is ``[class, [4x, 4x, 4z, 4z, 4y, 4y]]`` (positions in 0.25 m units)."""
    recorded: dict[str, tuple[str, tuple[float, float]]] = {}
    moved: set[str] = set()
    for step in high_pddl:
        action = step.get("planner_action") or {}
        oid = str(action.get("objectId", ""))
        if action.get("action") == "PutObject":
            moved.add(oid)
        if action.get("action") != "PickupObject" or oid in moved or oid in recorded:
            continue
        record = action.get("coordinateReceptacleObjectId")
        if isinstance(record, list) and len(record) == 2 and isinstance(record[1], list) and len(record[1]) >= 4:
            recorded[oid] = (str(record[0]), (float(record[1][0]) * GRID, float(record[1][2]) * GRID))
    return recorded


def _recorded_holder(record: tuple[str, tuple[float, float]], receptacles: Mapping[str, Receptacle],
                     objects: Mapping[str, Mapping[str, Any]]) -> str:
    """The receptacle of the room a record names: the nearest of its class, if near enough."""
    cls, (x, z) = record
    best, best_distance = "", RECORD_TOLERANCE
    for rid, recep in sorted(receptacles.items()):
        if recep.object_class != cls:
            continue
        position = objects[rid].get("position") or {}
        distance = math.hypot(float(position.get("x", 0.0)) - x, float(position.get("z", 0.0)) - z)
        if distance <= best_distance:
            best, best_distance = rid, distance
    return best


def standing_on(box: Box, receptacle_boxes: Mapping[str, Box]) -> str:
    """The receptacle (id) a fixed object with ``box`` stands on: the one whose top lies within
    :data:`SUPPORT_TOLERANCE` of the object's bottom and whose footprint holds the object's centre
    (the highest such top); "" if there is none (a floor lamp stands on the floor)."""
    (x0, y0, z0), (x1, _, z1) = box
    cx, cz = (float(x0) + float(x1)) / 2, (float(z0) + float(z1)) / 2
    best, best_top = "", -math.inf
    for rid, (lo, hi) in sorted(receptacle_boxes.items()):
        top = float(hi[1])
        inside = lo[0] <= cx <= hi[0] and lo[2] <= cz <= hi[2]
        if inside and abs(top - float(y0)) <= SUPPORT_TOLERANCE and top > best_top:
            best, best_top = rid, top
    return best


def _parents(metadata: Mapping[str, Any]) -> dict[str, set[str]]:
    """object id -> ids of the things holding it; THOR lists containment both ways
    (``parentReceptacles`` and ``receptacleObjectIds``), so both are read."""
    objects = {obj["objectId"]: obj for obj in metadata.get("objects") or ()}
    parents: dict[str, set[str]] = {oid: set() for oid in objects}
    for oid, obj in objects.items():
        for parent in obj.get("parentReceptacles") or ():
            if parent in objects and parent != oid:
                parents[oid].add(parent)
        for child in obj.get("receptacleObjectIds") or ():
            if child in objects and child != oid:
                parents[child].add(oid)
    return parents


def read_room(
    metadata: Mapping[str, Any],
    poses: Mapping[str, Sequence[float]],
    agent_pose: Sequence[float],
    rules: AlfworldRules,
    recorded: Mapping[str, tuple[str, tuple[float, float]]] | None = None,
    boxes: Mapping[str, Box] | None = None,
) -> Room:
    """The room of THOR ``metadata``: ``poses`` maps receptacle ids to interaction poses
    [x, z, rotation, horizon], ``agent_pose`` is where the agent starts; ``recorded`` gives the
    receptacles the trajectory records for objects (:func:`recorded_receptacles`), ``boxes`` the
    room's boxes of fixed things by id (for :func:`standing_on`)."""
    objects = {obj["objectId"]: obj for obj in metadata.get("objects") or ()}
    left_out: list[str] = []
    locations: dict[str, list[float]] = {}
    receptacles: dict[str, Receptacle] = {}
    for oid, obj in sorted(objects.items()):
        cls = obj["objectType"]
        if cls not in rules.receptacle_classes or obj.get("pickupable"):
            continue
        if oid not in poses:
            left_out.append(f"{oid}: no interaction pose")
            continue
        location = location_name(poses[oid])
        locations.setdefault(location, [float(v) for v in list(poses[oid])[:4]])
        openable = bool(obj.get("openable")) and cls in rules.openable_classes
        receptacles[oid] = Receptacle(oid, cls, location, openable, openable and bool(obj.get("isOpen")))

    parents = _parents(metadata)
    movers = {oid for oid, obj in objects.items() if obj["objectType"] in rules.movable_receptacles}
    items: dict[str, Item] = {}
    for oid, obj in sorted(objects.items()):
        cls = obj["objectType"]
        if oid in receptacles or cls in rules.receptacle_classes:
            continue
        if cls not in rules.object_classes:
            left_out.append(f"{oid}: class {cls} unknown to ALFWorld")
            continue
        holders = {p for p in parents[oid] if p in receptacles}
        inside = sorted(p for p in parents[oid] if p in movers)
        for mover in inside:  # a pen in a bowl on a desk is on the desk too
            holders |= {p for p in parents[mover] if p in receptacles}
        if not holders and recorded and oid in recorded:
            holder = _recorded_holder(recorded[oid], receptacles, objects)
            if holder:
                holders.add(holder)
        if not holders and boxes and not obj.get("pickupable") and oid in boxes:
            holder = standing_on(boxes[oid], {rid: boxes[rid] for rid in receptacles if rid in boxes})
            if holder:
                holders.add(holder)
        ordered = tuple(sorted(holders))
        items[oid] = Item(
            thor_id=oid,
            object_class=cls,
            receptacles=ordered,
            inside=inside[0] if inside else "",
            location=receptacles[ordered[0]].location if ordered else "",
            pickupable=bool(obj.get("pickupable")),
            toggleable=bool(obj.get("toggleable")),
            is_on=bool(obj.get("toggleable")) and bool(obj.get("isToggled")),
        )

    agent_location = location_name(agent_pose)
    if agent_location in locations:  # its own location, so the game starts "in the middle of a room"
        agent_location += START_SUFFIX
    locations[agent_location] = [float(v) for v in list(agent_pose)[:4]]
    return Room(receptacles, items, dict(sorted(locations.items())), agent_location, left_out)
