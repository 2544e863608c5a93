"""The ``high_level`` mode: ALFRED's high-level PDDL actions, expanded by our own expansion.

An action names one of :data:`~alfred_gen.env.actions.HIGH_ACTIONS` and its arguments the way
ALFRED's ``plan.high_pddl[i].planner_action`` does:

=============  ==============================================================================
GotoLocation   ``location``: ALFRED's ``loc|x|z|r|h`` (x, z in 0.25 m grid steps, r in quarter
               turns, h the camera horizon in degrees), or an object id or class (also as
               ``object_id``/``receptacle_id``): the walk ends where the generator would stand
               to act on it, the nearest reachable pose from which it is in view
PickupObject   ``object_id`` (``receptacle_id`` optional: where it lies)
PutObject      ``receptacle_id`` (``object_id``, the held object, optional)
HeatObject     ``receptacle_id``: the microwave (or ``object_id`` naming it); the held object is heated
CoolObject     ``receptacle_id``: the fridge, likewise
CleanObject    ``receptacle_id``: the sink basin, likewise
SliceObject    ``object_id``: what to cut (a knife must be held)
ToggleObject   ``object_id``: the lamp to switch on
=============  ==============================================================================

Object arguments are THOR object ids, or object classes (``Apple``), which mean the visible
instance nearest the agent (else the nearest one). The step is expanded from the live state by
:class:`alfred_gen.demo.expand.Expander` (the same code that made the demonstrations: walks on the
reachable grid, opening and closing receptacles around a pickup, the microwave cycle...) and its
low-level actions are executed one by one; each counts as a step of ALFRED's 1,000, and the first
one that fails ends the high-level action, which counts as one failed action.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from alfred_gen.demo.drive import destination_by_probes
from alfred_gen.demo.expand import Expander, ExpansionError, held_id
from alfred_gen.demo.navigation import NavigationGraph, cell_of
from alfred_gen.env.actions import BadAction
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.planner.result import PlanStep
from alfred_gen.replay.record import LowAction
from alfred_gen.sim.controller import Controller


def _objects(metadata: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(metadata.get("objects") or ())


def resolve_object(name: str, metadata: Mapping[str, Any]) -> tuple[str, bool]:
    """(object id, sliced) that ``name`` (an id or a class) means now; ``sliced`` when the id names
    an object that has been cut (its slices stand for it). ExpansionError if nothing matches."""
    if not name:
        return "", False
    objects = _objects(metadata)
    ids = {o["objectId"] for o in objects}
    if "|" in name:
        if name in ids:
            return name, False
        if any(i.startswith(name + "|") for i in ids):
            return name, True
        raise ExpansionError(f"no object {name} in the scene")
    of_class = [o for o in objects if str(o.get("objectType", "")).lower() == name.lower()]
    if not of_class:
        raise ExpansionError(f"no {name} in the scene")
    best = min(of_class, key=lambda o: (not o.get("visible"), float(o.get("distance", 0.0) or 0.0), o["objectId"]))
    return best["objectId"], False


def parse_location(text: str) -> tuple[float, float, float, float]:
    """ALFRED's ``loc|x|z|r|h`` as a pose [x, z, rotation, horizon]; BadAction if malformed."""
    fields = text.split("|")
    if len(fields) != 5 or fields[0] != "loc":
        raise BadAction(f"a location is loc|x|z|r|h, got {text!r}")
    try:
        x, z, quarter, horizon = (int(float(f)) for f in fields[1:])
    except ValueError:
        raise BadAction(f"a location is loc|x|z|r|h with integers, got {text!r}") from None
    return (x * 0.25, z * 0.25, (quarter % 4) * 90.0, float(horizon))


def plan_step(name: str, action: Mapping[str, Any], metadata: Mapping[str, Any]) -> PlanStep:
    """The PlanStep the expansion needs for one high-level action in the state ``metadata``."""
    object_arg = str(action.get("object_id") or "")
    receptacle_arg = str(action.get("receptacle_id") or "")
    if name == "GotoLocation":
        location = str(action.get("location") or "")
        try:
            pose = parse_location(location)
        except BadAction as error:  # any text is in the action space: a place that is none fails the step
            raise ExpansionError(str(error)) from None
        return PlanStep("GotoLocation", location=pose, location_name=location)
    if name in ("HeatObject", "CoolObject", "CleanObject"):
        appliance, _ = resolve_object(receptacle_arg or object_arg, metadata)
        return PlanStep(name, object_id=held_id(metadata), receptacle_id=appliance)
    if name == "PutObject":
        receptacle, _ = resolve_object(receptacle_arg or object_arg, metadata)
        held = held_id(metadata)
        return PlanStep(name, object_id=held, receptacle_id=receptacle)
    target, sliced = resolve_object(object_arg, metadata)
    if not target:
        raise ExpansionError(f"{name} needs an object_id")
    receptacle = resolve_object(receptacle_arg, metadata)[0] if receptacle_arg else ""
    if name == "SliceObject":
        return PlanStep(name, object_id=target, receptacle_id=receptacle, tool_id=held_id(metadata))
    return PlanStep(name, object_id=target, receptacle_id=receptacle, sliced=sliced)


def reachable_destination(navigation: NavigationGraph, here: Sequence[float],
                          pose: Sequence[float]) -> tuple[float, float, float, float]:
    """Where a walk to ``pose`` ends: ``pose`` itself when the agent can walk there from ``here``,
    else the cell it can reach nearest to it, facing it, at its horizon.

    ALFRED's planner names places on THOR's grid that a walk cannot always reach (a cell cut off
    from the rest of the floor); its demonstrations then stop on the nearest cell the agent can
    reach, turned towards the named place (``loc|-2|-10|2|15`` in FloorPlan418 ends at x -1.5,
    facing +x). The env's ``GotoLocation`` does the same, so such a step is not a failure."""
    x, z, rotation, horizon = (float(v) for v in pose[:4])
    connected = navigation.connected_cells(here[:2])
    target = cell_of(x, z, navigation.grid)
    if not connected or target in connected:
        return x, z, rotation, horizon
    best = min(connected, key=lambda cell: ((cell[0] - target[0]) ** 2 + (cell[1] - target[1]) ** 2, cell))
    dx, dz = target[0] - best[0], target[1] - best[1]
    facing = (round(math.degrees(math.atan2(dx, dz)) / 90.0) * 90) % 360
    return best[0] * navigation.grid, best[1] * navigation.grid, float(facing), horizon


def goto_target(action: Mapping[str, Any]) -> str:
    """The object a GotoLocation names instead of a ``loc|...`` place ("" when it names a place)."""
    location = str(action.get("location") or "")
    if location.startswith("loc|"):
        return ""
    return location or str(action.get("object_id") or action.get("receptacle_id") or "")


def walk_to_object(controller: Controller, navigation: NavigationGraph, name: str,
                   metadata: Mapping[str, Any]) -> PlanStep:
    """The walk to where ``name`` (an object id or class) is in view: where the agent stands if it
    sees it already, else the pose the generator would choose to act on it (probed by teleporting
    there and back, which leaves no trace). ExpansionError if no reachable pose sees it."""
    try:
        target, sliced = resolve_object(name, metadata)
    except ExpansionError as error:
        raise ExpansionError(f"a location is loc|x|z|r|h or an object: {error}") from None
    found = {o["objectId"]: o for o in _objects(metadata)}.get(target)
    if found is not None and found.get("receptacle") and not found.get("pickupable"):
        following = [PlanStep("PutObject", receptacle_id=target)]
    else:
        following = [PlanStep("PickupObject", object_id=target, sliced=sliced)]
    here = agent_pose_of(metadata)
    walk = PlanStep("GotoLocation", location=here, location_name=alfred_location(location_name(here)))
    return destination_by_probes(controller, walk, following, metadata, navigation)


def expand_action(expander: Expander, name: str, action: Mapping[str, Any], metadata: Mapping[str, Any],
                  high_idx: int, controller: Controller | None = None) -> list[LowAction]:
    """The low-level actions of one high-level action; ExpansionError when it cannot be done here.
    ``controller`` (the env's simulator) is needed for a walk to an object, to probe where it is in view."""
    target = goto_target(action) if name == "GotoLocation" else ""
    if target:
        if controller is None:
            raise ExpansionError("a GotoLocation to an object needs the simulator")
        return expander.expand(walk_to_object(controller, expander.navigation, target, metadata), high_idx,
                               metadata).low
    step = plan_step(name, action, metadata)
    if name == "GotoLocation":
        destination = reachable_destination(expander.navigation, agent_pose_of(metadata), step.location)
        step = PlanStep("GotoLocation", location=destination, location_name=step.location_name)
    return expander.expand(step, high_idx, metadata).low
