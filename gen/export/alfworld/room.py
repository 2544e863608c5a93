"""A start state as ALFWorld sees a room: receptacles at locations, objects in receptacles.

ALFWorld's text world knows two kinds of things. A *receptacle* is a fixed thing of one of its
receptacle classes (a counter top, a fridge, a sink basin) standing at a location: the agent's pose
from which it is used, ``loc|x|z|rotation|horizon`` in grid units (x and z in 0.25 m steps,
rotation in quarter turns, horizon in degrees), as ALFRED names poses. An *object* is anything else
ALFWorld names (movable receptacles such as bowls included); it is in the receptacles its THOR
metadata lists as parents, and at their location. An object inside a movable receptacle (a pen in
a bowl on a desk) is in the bowl's receptacles as well, which is how ALFWorld can take it.

What ALFWorld does not name, or cannot place, is left out of the room and said in ``left_out``: a
class missing from its lists, or a receptacle without an interaction pose (it would have no
location to go to).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.export.alfworld.upstream import AlfworldRules

#: Grid step of ALFRED's location names (metres).
GRID = 0.25


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
) -> Room:
    """The room of THOR ``metadata``: ``poses`` maps receptacle ids to interaction poses
    [x, z, rotation, horizon], ``agent_pose`` is where the agent starts."""
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
    locations.setdefault(agent_location, [float(v) for v in list(agent_pose)[:4]])
    return Room(receptacles, items, dict(sorted(locations.items())), agent_location, left_out)
