"""Plan expansion: each high-level plan step becomes ALFRED's low-level simulator actions.

ALFRED's generator turned every step of its PDDL plan into AI2-THOR actions as it went, reading the
simulator's state before each step. We do the same (:class:`Expander` takes the live metadata
before each step), so that what the expansion assumes (is the fridge open, which slice of the apple
can be seen, where the agent stands) is what the simulator says, not a model of it.

What a step becomes (as in the 238 released sample trajectories):

==================  ==========================================================================
GotoLocation        shortest MoveAhead / RotateLeft / RotateRight path on the reachable grid to
                    the step's pose, then LookDown / LookUp to its horizon
                    (:mod:`alfred_gen.demo.navigation`)
PickupObject        [OpenObject] PickupObject [CloseObject]: the receptacle holding the object is
                    opened first and closed after if it is a closed fridge, cabinet, drawer, ...
PutObject           [OpenObject] PutObject [CloseObject], likewise for the destination
HeatObject          OpenObject, PutObject, CloseObject, ToggleObjectOn, ToggleObjectOff,
                    OpenObject, PickupObject, CloseObject on the microwave
CoolObject          OpenObject, PutObject, CloseObject, OpenObject, PickupObject, CloseObject on
                    the fridge
CleanObject         PutObject into the sink basin, ToggleObjectOn / ToggleObjectOff of its
                    faucet, PickupObject
SliceObject         [OpenObject] SliceObject [CloseObject], with a knife already held
ToggleObject        ToggleObjectOn of the lamp
==================  ==========================================================================

The planner's own OpenObject / CloseObject steps are folded away (:func:`fold_plan`): ALFRED's
high-level plans have none; opening and closing live inside the step that needs them, and every
receptacle the expansion opens it closes again.

Each low action records which object's mask goes into its ``discrete_action.args`` (``target``):
the object acted on, the receptacle for PutObject. The recorder takes that mask from the frame
before the action.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.demo.navigation import NavigationError, NavigationGraph, cell_of
from alfred_gen.domains import catalogue
from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.planner.result import PlanStep
from alfred_gen.replay.record import LowAction
from alfred_gen.sim.scene import CAMERA_Y_OFFSET

#: High-level actions ALFRED's plans (and ours, after folding) are made of.
HIGH_ACTIONS = (
    "GotoLocation", "PickupObject", "PutObject", "HeatObject", "CoolObject", "CleanObject",
    "SliceObject", "ToggleObject",
)

#: Planner steps that are folded into the steps that need them.
FOLDED_ACTIONS = ("OpenObject", "CloseObject")

#: ALFRED's closing high-level step.
END_STEP = {"action": "End", "value": 1}
END_DISCRETE = {"action": "NoOp", "args": []}


class ExpansionError(ValueError):
    """A plan step cannot be turned into simulator actions in the current state (one line why).

    ``unseen``: the objects no reachable pose shows, when that is why (a re-plan may choose others).
    """

    def __init__(self, message: str, unseen: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.unseen = unseen


@dataclass
class Expanded:
    """One high-level step: its ``plan.high_pddl`` entry and its low actions."""

    high: dict[str, Any]
    low: list[LowAction] = field(default_factory=list)


def fold_plan(plan: Sequence[PlanStep]) -> list[PlanStep]:
    """The plan as ALFRED writes it: no OpenObject/CloseObject steps, no walk followed by a walk.

    Dropping an open or close step can leave two GotoLocation steps in a row; only the last counts.
    """
    steps = [step for step in plan if step.action not in FOLDED_ACTIONS]
    folded: list[PlanStep] = []
    for step in steps:
        if step.action not in HIGH_ACTIONS:
            raise ExpansionError(f"unknown high-level action {step.action!r}")
        if folded and step.action == "GotoLocation" and folded[-1].action == "GotoLocation":
            folded[-1] = step
        else:
            folded.append(step)
    return folded


def end_entry(high_idx: int) -> dict[str, Any]:
    """ALFRED's final ``{"action": "NoOp"}`` / ``{"action": "End", "value": 1}`` high-level step."""
    return {"high_idx": high_idx, "planner_action": dict(END_STEP), "discrete_action": dict(END_DISCRETE)}


# --------------------------------------------------------------------------------------------
# Reading object ids and metadata


def class_of_id(object_id: str) -> str:
    """The class a task names an object by: a slice is of its whole object's class."""
    object_type = type_of_id(object_id)
    for whole, sliced in catalogue.SLICED_TYPES.items():
        if sliced == object_type:
            return whole
    return object_type


def word_of(object_id: str) -> str:
    """ALFRED's ``discrete_action.args`` word for an object: its class in lower case."""
    return class_of_id(object_id).lower()


def _objects(metadata: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {obj["objectId"]: obj for obj in metadata.get("objects") or ()}


def held_id(metadata: Mapping[str, Any]) -> str:
    """The id of the object in the agent's hand, "" if none."""
    inventory = metadata.get("inventoryObjects") or ()
    return inventory[0]["objectId"] if inventory else ""


def _encloses(obj: Mapping[str, Any]) -> bool:
    """Whether a closed ``obj`` must be opened to reach inside (fridge, microwave, cabinet, ...)."""
    if not obj.get("openable"):
        return False
    entry = catalogue.OBJECT_TYPES.get(obj.get("objectType", ""))
    return entry.encloses if entry is not None else True


def closed_around(container_ids: Sequence[str], metadata: Mapping[str, Any]) -> list[str]:
    """The closed enclosing receptacles among ``container_ids`` and the receptacles holding them
    (a bowl inside a closed cabinet), outermost last, each once, in a fixed order."""
    objects = _objects(metadata)
    chain: list[str] = []
    for container in container_ids:
        if container and container not in chain:
            chain.append(container)
        obj = objects.get(container)
        if obj is not None and obj.get("pickupable"):
            for outer in sorted(obj.get("parentReceptacles") or ()):
                if outer not in chain:
                    chain.append(outer)
    return [oid for oid in chain if oid in objects and _encloses(objects[oid]) and not objects[oid].get("isOpen")]


def _containers_of(object_id: str, metadata: Mapping[str, Any]) -> list[str]:
    obj = _objects(metadata).get(object_id)
    return sorted(obj.get("parentReceptacles") or ()) if obj is not None else []


def nearest_faucet(basin_id: str, metadata: Mapping[str, Any]) -> str:
    """The faucet that runs into a sink or bathtub basin (:func:`catalogue.faucet_basins`; of two,
    the nearest horizontally, ties by id)."""
    objects = _objects(metadata)
    basin = objects.get(basin_id)
    if basin is None:
        raise ExpansionError(f"no basin {basin_id} in the scene")
    pairs = catalogue.faucet_basins_in(objects.values())
    bx, bz = catalogue.middle_xz(basin)
    faucets = [objects[f] for f, b in pairs.items() if b == basin_id]
    if not faucets:
        raise ExpansionError(f"no faucet for {basin_id}")
    return str(min(faucets, key=lambda f: (math.dist(catalogue.middle_xz(f), (bx, bz)), f["objectId"]))["objectId"])


# --------------------------------------------------------------------------------------------
# Low-level action builders (the exact dicts of ALFRED's released files)


def open_action(high_idx: int, receptacle: str) -> LowAction:
    return LowAction(high_idx, {"action": "OpenObject", "objectId": receptacle}, "OpenObject", receptacle)


def close_action(high_idx: int, receptacle: str) -> LowAction:
    return LowAction(high_idx, {"action": "CloseObject", "objectId": receptacle}, "CloseObject", receptacle)


def pickup_action(high_idx: int, object_id: str) -> LowAction:
    return LowAction(high_idx, {"action": "PickupObject", "objectId": object_id}, "PickupObject", object_id)


def put_action(high_idx: int, object_id: str, receptacle: str) -> LowAction:
    api = {
        "action": "PutObject",
        "forceAction": True,
        "objectId": object_id,
        "placeStationary": True,
        "receptacleObjectId": receptacle,
    }
    return LowAction(high_idx, api, "PutObject", receptacle)


def toggle_action(high_idx: int, object_id: str, on: bool, extra: Mapping[str, Any] | None = None) -> LowAction:
    name = "ToggleObjectOn" if on else "ToggleObjectOff"
    return LowAction(high_idx, {"action": name, **dict(extra or {}), "objectId": object_id}, name, object_id)


def slice_action(high_idx: int, object_id: str) -> LowAction:
    return LowAction(high_idx, {"action": "SliceObject", "objectId": object_id}, "SliceObject", object_id)


def _wrapped(high_idx: int, closed: list[str], inner: list[LowAction]) -> list[LowAction]:
    """Open the closed receptacles, do ``inner``, close them again (innermost first)."""
    return (
        [open_action(high_idx, r) for r in reversed(closed)]
        + inner
        + [close_action(high_idx, r) for r in closed]
    )


# --------------------------------------------------------------------------------------------
# The expander


class Expander:
    """Turns plan steps into low-level actions, one step at a time, from the live metadata.

    ``navigation`` is the reachable-grid graph of the scene; ``start_metadata`` is the start state,
    whose object positions give ALFRED's ``coordinateObjectId`` bookkeeping. The expander remembers
    which slice of a sliced object it picked, so later steps act on the same slice.
    """

    def __init__(self, navigation: NavigationGraph, start_metadata: Mapping[str, Any]) -> None:
        self.navigation = navigation
        self.start_positions = {
            obj["objectId"]: dict(obj["position"]) for obj in start_metadata.get("objects") or ()
        }
        self.slice_of: dict[str, str] = {}  # whole object id -> the slice the demonstration uses

    # --- ALFRED's planner bookkeeping -------------------------------------------------------------
    def coordinate(self, object_id: str) -> list[Any]:
        """ALFRED's ``coordinate*ObjectId``: [class, [4x, 4x, 4z, 4z, 4y, 4y]] of the start position.

        A slice is given as its whole object's class and start position, as ALFRED wrote it.
        """
        whole = object_id
        while whole not in self.start_positions and whole.count("|") > 3:
            whole = whole.rsplit("|", 1)[0]
        position = self.start_positions.get(whole)
        if position is None:
            raise ExpansionError(f"{object_id} is not in the start state")
        x, y, z = (round(4.0 * float(position[k]), 8) for k in ("x", "y", "z"))
        return [class_of_id(object_id), [x, x, z, z, y, y]]

    def _receptacle_coordinate(self, object_id: str) -> list[Any]:
        coordinate = self.coordinate(object_id)
        return [type_of_id(object_id), coordinate[1]]

    # --- which object is meant ---------------------------------------------------------------------
    def _held(self, step: PlanStep, metadata: Mapping[str, Any]) -> str:
        held = held_id(metadata)
        if not held:
            raise ExpansionError(f"{step.action} {step.object_id}: the agent holds nothing")
        if held != step.object_id and not held.startswith(step.object_id + "|"):
            raise ExpansionError(f"{step.action} {step.object_id}: the agent holds {held}")
        return held

    def _pickup_target(self, step: PlanStep, metadata: Mapping[str, Any]) -> str:
        if not step.sliced:
            return step.object_id
        chosen = self.slice_of.get(step.object_id)
        if chosen is not None:
            return chosen
        prefix = step.object_id + "|"
        pieces = [o for o in metadata.get("objects") or ()
                  if o["objectId"].startswith(prefix) and o.get("pickupable", True)]
        slices = [o for o in pieces if o.get("visible")]
        if not slices:
            # Slices shut in a fridge (cut there, then the fridge closed after putting the knife
            # away) are seen once the pickup opens it: choose among them.
            slices = [o for o in pieces if closed_around(_containers_of(o["objectId"], metadata), metadata)]
        if not slices:
            raise ExpansionError(f"no slice of {step.object_id} is visible")
        chosen = min(slices, key=lambda o: (float(o.get("distance", 0.0)), o["objectId"]))["objectId"]
        self.slice_of[step.object_id] = chosen
        return chosen

    # --- steps ---------------------------------------------------------------------------------
    def expand(
        self,
        step: PlanStep,
        high_idx: int,
        metadata: Mapping[str, Any],
        next_step: PlanStep | None = None,
    ) -> Expanded:
        """The high_pddl entry and low actions of ``step`` in the state ``metadata``.

        ``next_step`` is the step after a GotoLocation: ALFRED names a walk after where it leads.
        Raises ExpansionError when the step cannot be done from this state.
        """
        handler = _EXPANSIONS.get(step.action)
        if handler is None:
            raise ExpansionError(f"cannot expand high-level action {step.action!r}")
        return handler(self, step, high_idx, metadata, next_step)

    def _goto(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
              next_step: PlanStep | None) -> Expanded:
        if len(step.location) < 4:
            raise ExpansionError("GotoLocation without a destination pose")
        try:
            moves = self.navigation.path(agent_pose_of(metadata), step.location)
        except NavigationError as error:
            raise ExpansionError(f"GotoLocation {step.location_name}: {error}") from None
        high = {
            "high_idx": high_idx,
            "planner_action": {"action": "GotoLocation", "location": step.location_name},
            "discrete_action": {"action": "GotoLocation", "args": destination_words(next_step)},
        }
        return Expanded(high, [LowAction(high_idx, move.api_action, move.discrete) for move in moves])

    def _pickup(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
                next_step: PlanStep | None) -> Expanded:
        if held_id(metadata):
            raise ExpansionError(f"PickupObject {step.object_id}: the hand is not empty ({held_id(metadata)})")
        target = self._pickup_target(step, metadata)
        containers = [step.receptacle_id] if step.receptacle_id else _containers_of(target, metadata)
        closed = closed_around(containers, metadata)
        planner: dict[str, Any] = {"action": "PickupObject", "coordinateObjectId": self.coordinate(target)}
        if step.receptacle_id:
            planner["coordinateReceptacleObjectId"] = self._receptacle_coordinate(step.receptacle_id)
        planner.update({"forceVisible": True, "objectId": target})
        high = _high(high_idx, planner, "PickupObject", [word_of(target)])
        return Expanded(high, _wrapped(high_idx, closed, [pickup_action(high_idx, target)]))

    def _put(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
             next_step: PlanStep | None) -> Expanded:
        held = self._held(step, metadata)
        receptacle = step.receptacle_id
        closed = closed_around([receptacle], metadata)
        planner = {
            "action": "PutObject",
            "coordinateObjectId": self.coordinate(held),
            "coordinateReceptacleObjectId": self._receptacle_coordinate(receptacle),
            "forceVisible": True,
            "objectId": held,
            "receptacleObjectId": receptacle,
        }
        high = _high(high_idx, planner, "PutObject", [word_of(held), word_of(receptacle)])
        return Expanded(high, _wrapped(high_idx, closed, [put_action(high_idx, held, receptacle)]))

    def _appliance_cycle(
        self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any], toggle: bool
    ) -> Expanded:
        """HeatObject and CoolObject: put the held object into a closed appliance (and run it),
        then take it out again."""
        held = self._held(step, metadata)
        appliance = step.receptacle_id
        state = _objects(metadata).get(appliance)
        if state is None:
            raise ExpansionError(f"{step.action}: no {appliance} in the scene")
        is_open = bool(state.get("isOpen"))
        low: list[LowAction] = []
        if not is_open:
            low.append(open_action(high_idx, appliance))
        low += [put_action(high_idx, held, appliance), close_action(high_idx, appliance)]
        if toggle:
            bookkeeping = {
                "coordinateReceptacleObjectId": self._receptacle_coordinate(appliance),
                "forceVisible": True,
            }
            if not state.get("isToggled"):
                low.append(toggle_action(high_idx, appliance, True, bookkeeping))
            low.append(toggle_action(high_idx, appliance, False, bookkeeping))
        low += [
            open_action(high_idx, appliance),
            pickup_action(high_idx, held),
            close_action(high_idx, appliance),
        ]
        planner = {
            "action": step.action,
            "coordinateReceptacleObjectId": self._receptacle_coordinate(appliance),
            "forceVisible": True,
            "objectId": appliance,
        }
        return Expanded(_high(high_idx, planner, step.action, [word_of(held)]), low)

    def _heat(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
              next_step: PlanStep | None) -> Expanded:
        return self._appliance_cycle(step, high_idx, metadata, toggle=True)

    def _cool(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
              next_step: PlanStep | None) -> Expanded:
        return self._appliance_cycle(step, high_idx, metadata, toggle=False)

    def _clean(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
               next_step: PlanStep | None) -> Expanded:
        held = self._held(step, metadata)
        basin = step.receptacle_id
        faucet = nearest_faucet(basin, metadata)
        bookkeeping = {
            "cleanObjectId": held,
            "coordinateObjectId": self.coordinate(held),
            "coordinateReceptacleObjectId": self._receptacle_coordinate(basin),
            "forceVisible": True,
        }
        low = [put_action(high_idx, held, basin)]
        if not _objects(metadata).get(faucet, {}).get("isToggled"):
            low.append(toggle_action(high_idx, faucet, True, bookkeeping))
        low += [toggle_action(high_idx, faucet, False, bookkeeping), pickup_action(high_idx, held)]
        planner = {"action": "CleanObject", **bookkeeping, "objectId": basin}
        return Expanded(_high(high_idx, planner, "CleanObject", [word_of(held)]), low)

    def _slice(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
               next_step: PlanStep | None) -> Expanded:
        knife = held_id(metadata)
        if not knife or (step.tool_id and knife != step.tool_id):
            raise ExpansionError(f"SliceObject {step.object_id}: the agent does not hold {step.tool_id or 'a knife'}")
        containers = [step.receptacle_id] if step.receptacle_id else _containers_of(step.object_id, metadata)
        closed = closed_around(containers, metadata)
        planner = {
            "action": "SliceObject",
            "coordinateObjectId": self.coordinate(step.object_id),
            "forceVisible": True,
            "objectId": step.object_id,
        }
        high = _high(high_idx, planner, "SliceObject", [word_of(step.object_id)])
        return Expanded(high, _wrapped(high_idx, closed, [slice_action(high_idx, step.object_id)]))

    def _toggle(self, step: PlanStep, high_idx: int, metadata: Mapping[str, Any],
                next_step: PlanStep | None) -> Expanded:
        lamp = step.object_id
        state = _objects(metadata).get(lamp)
        if state is None:
            raise ExpansionError(f"ToggleObject: no {lamp} in the scene")
        if state.get("isToggled"):
            raise ExpansionError(f"ToggleObject: {lamp} is already on")
        coordinate = self.coordinate(lamp)
        planner = {
            "action": "ToggleObject",
            "coordinateObjectId": coordinate,
            "coordinateReceptacleObjectId": list(coordinate),
            "forceVisible": True,
            "objectId": lamp,
        }
        high = _high(high_idx, planner, "ToggleObject", [word_of(lamp)])
        return Expanded(high, [toggle_action(high_idx, lamp, True)])


#: How one high-level step is expanded: (expander, step, high_idx, state before, next step).
StepExpansion = Callable[[Expander, PlanStep, int, Mapping[str, Any], "PlanStep | None"], Expanded]

#: High-level action -> the Expander method that turns it into low actions (one per HIGH_ACTIONS).
_EXPANSIONS: dict[str, StepExpansion] = {
    "GotoLocation": Expander._goto,
    "PickupObject": Expander._pickup,
    "PutObject": Expander._put,
    "HeatObject": Expander._heat,
    "CoolObject": Expander._cool,
    "CleanObject": Expander._clean,
    "SliceObject": Expander._slice,
    "ToggleObject": Expander._toggle,
}


def _high(high_idx: int, planner: dict[str, Any], action: str, args: list[str]) -> dict[str, Any]:
    return {"high_idx": high_idx, "planner_action": planner, "discrete_action": {"action": action, "args": args}}


def destination_words(next_step: PlanStep | None) -> list[str]:
    """ALFRED's GotoLocation args: where the walk leads, named by what the next step works at.

    The receptacle for pickups, puts, heating, cooling and cleaning (``["fridge"]``); the object
    itself for slicing and toggling (``["apple"]``, ``["desklamp"]``).
    """
    if next_step is None:
        return []
    if next_step.action in ("SliceObject", "ToggleObject") or not next_step.receptacle_id:
        return [word_of(next_step.object_id)] if next_step.object_id else []
    return [word_of(next_step.receptacle_id)]


# --------------------------------------------------------------------------------------------
# Where to stand: checking, and if need be moving, the destination of a walk

#: Camera horizons an agent may use, in the order of preference when two fit equally.
HORIZONS = (30, 45, 15, 60, 0, -15, -30)

#: How far from its targets a candidate pose may be (metres, horizontally, to their centre).
REACH = 1.75

#: Most candidate poses tried before a walk's destination is given up (over the scan of bench/generate.py
#: tasks, every pose found was among the first 6 tried; a target nobody sees costs them all). Over
#: ALFRED's train tasks planned in their start states, 42 walks found no pose among the first 16: 6
#: of them found one among the first 64, none more among the first 200.
MAX_PROBES = 64

#: ``probe(pose, asked)`` -> what is seen from pose [x, z, rotation, horizon]: the metadata (its
#: ``visible`` flags need not be worked out) and which of the ``asked`` object ids are visible; or None
#: if the agent cannot stand there. The simulator's state must be left as it was. Only the asked
#: objects' visibility is wanted, so a probe can draw just their pixels.
Probe = Callable[[Sequence[float], Collection[str]], "tuple[Mapping[str, Any], Collection[str]] | None"]


def sight_requirements(steps: Sequence[PlanStep], metadata: Mapping[str, Any]) -> list[list[str]]:
    """What must be in view where ``steps`` (those between two walks) are done.

    Each requirement is a group of object ids of which one must be visible: the object to pick up
    or slice (any of its slices for a sliced one), or the closed receptacle it is in; the receptacle
    to put into; the microwave, fridge, sink basin and its faucet, the lamp. Objects the agent holds
    and slices not yet cut are not required (nothing can be checked about them yet).
    """
    objects = _objects(metadata)
    held = held_id(metadata)
    groups: list[list[str]] = []

    def need(ids: Sequence[str]) -> None:
        present = sorted(i for i in ids if i in objects and i != held)
        if present and present not in groups:
            groups.append(present)

    for step in steps:
        if step.action in ("PickupObject", "SliceObject"):
            containers = [step.receptacle_id] if step.receptacle_id else _containers_of(step.object_id, metadata)
            closed = closed_around(containers, metadata)
            if closed:
                need([closed[-1]])
            elif step.sliced and step.action == "PickupObject":
                need([oid for oid in objects if oid.startswith(step.object_id + "|")])
            else:
                need([step.object_id])
        elif step.action == "PutObject":
            closed = closed_around([step.receptacle_id], metadata)
            need([closed[-1]] if closed else [step.receptacle_id])
        elif step.action in ("HeatObject", "CoolObject"):
            need([step.receptacle_id])
        elif step.action == "CleanObject":
            need([step.receptacle_id])
            need([nearest_faucet(step.receptacle_id, metadata)])
        elif step.action == "ToggleObject":
            need([step.object_id])
    return groups


#: Steps that put the object into a receptacle and take it out again from the same pose.
IN_AND_OUT = ("HeatObject", "CoolObject", "CleanObject")


def inside_requirements(steps: Sequence[PlanStep], metadata: Mapping[str, Any]) -> list[str]:
    """Receptacles whose middle must be in the frame where ``steps`` are done: those a step puts the
    object into and takes it out of again (microwave, fridge, sink basin).

    Being visible is not enough there: THOR puts an object only on a spot in the agent's view, and
    the agent must see the object again to take it out. A fridge seen at horizon 0 from an arm's
    length shows its door and upper shelves, not the shelves the object goes on (in ALFRED's train
    set, 193 of our 289 failed plans failed on that PickupObject).
    """
    objects = _objects(metadata)
    wanted: list[str] = []
    for step in steps:
        if step.action in IN_AND_OUT and step.receptacle_id in objects and step.receptacle_id not in wanted:
            wanted.append(step.receptacle_id)
    return wanted


def centred(metadata: Mapping[str, Any] | None, ids: Sequence[str]) -> bool:
    """Whether the middle of each object in ``ids`` lies inside the camera's frame in ``metadata``
    (a square image; ``fov`` is its vertical field of view)."""
    if metadata is None:
        return False
    if not ids:
        return True
    agent = metadata["agent"]
    camera = metadata.get("cameraPosition") or {}
    eye = (float(agent["position"]["x"]), float(camera.get("y", agent["position"]["y"] + CAMERA_Y_OFFSET)),
           float(agent["position"]["z"]))
    yaw = math.radians(float(agent["rotation"]["y"]))
    pitch = math.radians(float(agent.get("cameraHorizon", 0.0)))
    half = math.tan(math.radians(float(metadata.get("fov") or 90.0)) / 2)
    forward = (math.sin(yaw) * math.cos(pitch), -math.sin(pitch), math.cos(yaw) * math.cos(pitch))
    up = (math.sin(yaw) * math.sin(pitch), math.cos(pitch), math.cos(yaw) * math.sin(pitch))
    right = (math.cos(yaw), 0.0, -math.sin(yaw))
    objects = _objects(metadata)
    for oid in ids:
        if oid not in objects:
            return False
        d = [c - e for c, e in zip(_center3(objects[oid]), eye)]
        depth = sum(a * b for a, b in zip(d, forward))
        if depth <= 0:
            return False
        across, upward = (sum(a * b for a, b in zip(d, axis)) for axis in (right, up))
        if abs(across) > half * depth or abs(upward) > half * depth:
            return False
    return True


def sees(metadata: Mapping[str, Any] | None, groups: Sequence[Sequence[str]]) -> bool:
    """Whether every requirement group has a visible object in ``metadata``."""
    if metadata is None:
        return False
    visible = {o["objectId"] for o in metadata.get("objects") or () if o.get("visible")}
    return sees_among(visible, groups)


def sees_among(visible: Collection[str], groups: Sequence[Sequence[str]]) -> bool:
    """Whether every requirement group has an object among the ``visible`` ids."""
    return all(any(oid in visible for oid in group) for group in groups)


def candidate_poses(
    targets: Sequence[Mapping[str, Any]], points: Sequence[Sequence[float]], eye_height: float
) -> list[tuple[float, float, float, float]]:
    """Poses from which ``targets`` (object metadata) may be seen, best first.

    Standing points within :data:`REACH` of the targets' centre, about an arm's length away first;
    facing the centre (to the nearest quarter turn), the horizon nearest the angle down to it.
    ``eye_height`` is the camera's height above the floor's origin (agent y + camera offset).
    """
    centers = [_center3(t) for t in targets]
    cx = sum(c[0] for c in centers) / len(centers)
    cy = sum(c[1] for c in centers) / len(centers)
    cz = sum(c[2] for c in centers) / len(centers)
    ranked = []
    for point in points:
        x, z = float(point[0]), float(point[1])
        dx, dz = cx - x, cz - z
        distance = math.hypot(dx, dz)
        if distance > REACH or distance < 0.25:
            continue
        rotation = (round(math.degrees(math.atan2(dx, dz)) / 90.0) * 90) % 360
        pitch = math.degrees(math.atan2(eye_height - cy, distance))
        horizons = sorted(HORIZONS, key=lambda h: (abs(h - pitch), HORIZONS.index(h)))[:2]
        for rank, horizon in enumerate(horizons):
            key = (rank, round(abs(distance - 0.8), 6), cell_of(x, z))
            ranked.append((key, (x, z, float(rotation), float(horizon))))
    ranked.sort(key=lambda item: item[0])
    return [pose for _, pose in ranked]


def _center3(obj: Mapping[str, Any]) -> tuple[float, float, float]:
    box = obj.get("axisAlignedBoundingBox") or {}
    center = box.get("center") or obj["position"]
    return float(center["x"]), float(center["y"]), float(center["z"])


def choose_destination(
    walk: PlanStep,
    following: Sequence[PlanStep],
    metadata: Mapping[str, Any],
    navigation: NavigationGraph,
    probe: Probe,
    eye_height: float,
    exclude: Collection[tuple[float, ...]] = (),
) -> PlanStep:
    """The walk itself if the planned pose sees what the following steps act on, else the walk to
    the best pose that does (ALFRED's generator likewise chose where to stand by what is in view).
    Only poses the agent can walk to from where it stands count: the planned pose may lie on an
    island of the room's reachable points that no walk enters. Poses in ``exclude`` (tried before,
    and the steps after them failed) are not chosen.

    The planner gives one interaction pose per receptacle; an apple at the far end of a long
    counter top may not be in view from it. ExpansionError if no reachable pose sees everything.
    """
    groups = sight_requirements(following, metadata)
    insides = inside_requirements(following, metadata)
    if not groups or len(walk.location) < 4:
        return walk

    asked = frozenset(oid for group in groups for oid in group)

    def good(seen: tuple[Mapping[str, Any], Collection[str]] | None) -> bool:
        return seen is not None and sees_among(seen[1], groups) and centred(seen[0], insides)

    here = agent_pose_of(metadata)
    walkable = navigation.connected_cells(here)
    tried = {tuple(float(v) for v in pose) for pose in exclude}
    planned = tuple(float(v) for v in walk.location)
    if (planned not in tried and cell_of(planned[0], planned[1], navigation.grid) in walkable
            and good(probe(walk.location, asked))):
        return walk
    objects = _objects(metadata)
    targets = [objects[group[0]] for group in groups]
    points = [(c[0] * navigation.grid, c[1] * navigation.grid) for c in navigation.cells if c in walkable]
    candidates = [pose for pose in candidate_poses(targets, points, eye_height) if pose not in tried]
    for pose in candidates[:MAX_PROBES]:
        if good(probe(pose, asked)):
            return walk._replace(location=pose, location_name=alfred_location(location_name(pose)))
    wanted = tuple(group[0] for group in groups)
    raise ExpansionError(f"no reachable pose sees {', '.join(wanted)}", unseen=wanted)
