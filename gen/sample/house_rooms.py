"""Where a trajectory's task starts and ends in a house: the room of the object it fetches and the
room of the receptacle (or lamp) it ends at.

The *source* is the room of the task's object (the first picked up of its class; for a slice, the
whole object it is cut from) where the start state has it; the *destination* is the room of the
receptacle of the last ``PutObject``, or, for a task that puts nothing down
(``look_at_obj_in_light``), of the lamp it switches on. Both are read from THOR object ids, which
carry the position where the object was spawned (``Type|+x.xx|+y.yy|+z.zz``): the start state's
position of a pickupable (the spawn gives it its id there), and the place of a fixed receptacle.
Rooms are a house's (:meth:`~alfred_gen.sim.scene.Scene.room_at`); a single room has none, so
both are None there. A task whose source and destination differ carries something from one room
into another.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alfred_gen.domains.catalogue import whole_of_id
from alfred_gen.sim.scene import Scene


def _first_pickup(traj: Mapping[str, Any]) -> str | None:
    """The id of the first object of the task's class picked up (for a slice, the whole object it
    was cut from: ``Apple|...|AppleSliced_1`` -> ``Apple|...``); the knife of a slice task is not it."""
    wanted = str((traj.get("pddl_params") or {}).get("object_target") or "")
    for step in traj["plan"]["high_pddl"]:
        action = step.get("planner_action") or {}
        object_id = str(action.get("objectId") or "")
        if action.get("action") == "PickupObject" and object_id.split("|")[0] == wanted:
            return whole_of_id(object_id)
    return None


def _destination_id(traj: Mapping[str, Any]) -> str | None:
    last = None
    for step in traj["plan"]["high_pddl"]:
        action = step.get("planner_action") or {}
        if action.get("action") == "PutObject" and action.get("receptacleObjectId"):
            last = str(action["receptacleObjectId"])
    if last is not None:
        return last
    for low in traj["plan"]["low_actions"]:
        api = low.get("api_action") or {}
        if api.get("action") == "ToggleObjectOn" and api.get("objectId"):
            last = str(api["objectId"])
    return last


def room_of_id(scene: Scene, object_id: str | None) -> str | None:
    """The id of the house room holding the position a THOR object id names, or None."""
    if object_id is None or not scene.rooms:
        return None
    parts = object_id.split("|")
    try:
        x, z = float(parts[1]), float(parts[3])
    except (IndexError, ValueError):
        return None
    room = scene.room_at(x, z)
    return room.room_id if room is not None else None


def task_rooms(traj: Mapping[str, Any], scene: Scene) -> tuple[str | None, str | None]:
    """(source room id, destination room id) of a trajectory recorded in ``scene`` (see the module
    docstring); None for an end that is not known or lies in no room."""
    return room_of_id(scene, _first_pickup(traj)), room_of_id(scene, _destination_id(traj))
