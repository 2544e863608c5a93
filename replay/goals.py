"""Goal conditions of a task type, counted over simulator metadata as ALFRED does.

ALFRED's evaluation (its ``env/tasks.py``) scores an episode by *goal conditions*: each task type
has a fixed number of conditions (plus one per required slice), and a task is done when all hold.
A task type's conditions are data, in the same registry entry as its PDDL goal
(``domains/tasks.json``, ``conditions``): each names one of a few tests (``inside``, ``held``,
``switched_on_visible``, ``changed``, ``changed_inside``, ``stacked``) over the task's slots, and
:func:`goal_conditions` runs them. For ALFRED's seven task types they give ALFRED's counts:

=================================  =====  ==========================================================
task type                          total  conditions (``+1`` "a slice exists" when sliced; pick_two: +2)
=================================  =====  ==========================================================
pick_and_place_simple              1      an object in a parent receptacle
pick_two_obj_and_place             2      two objects in the *same* parent receptacle (one each)
look_at_obj_in_light               2      holding an object; a lamp of the class switched on and visible
pick_heat_then_place_in_recep      3      an object in place; an object heated; one object both
pick_cool_then_place_in_recep      3      an object in place; an object cooled; one object both
pick_clean_then_place_in_recep     3      an object in place; an object cleaned; one object both
pick_and_place_with_movable_recep  3      an object in an mrecep; an mrecep in a parent; one stack both
=================================  =====  ==========================================================

"An object" means any object of the task's class; for a sliced task, a slice (``AppleSliced``).

Two deliberate differences from ALFRED's code, both so that the check cannot be fooled:

* Classes are matched on ``objectType`` exactly. ALFRED matched a class name as a *substring of the
  object id*, so ``Pot`` also matched ``Potato|...``, ``Knife`` matched ``ButterKnife|...`` and an
  unsliced ``Apple`` target matched ``Apple|...|AppleSliced_1``.
* Heated / cooled / cleaned. ALFRED's environment does not read these from the state: it keeps
  three lists while stepping (objects inside a microwave when it is switched on; inside a fridge
  when it is closed; inside the sink basin under a faucet when the faucet is switched on), and the
  goal asks whether the placed object is in the list. That matters for cleaning: most objects of
  clean tasks (Lettuce, Apple, Potato, ...) are not ``dirtyable``, so no state flag ever says
  "washed". We keep the same lists in :class:`EffectTracker` (fed by the replay, backend
  independent: it reads only actions and metadata), and also count an observed state change
  (temperature becoming ``Hot``/``Cold``, ``isDirty`` becoming false) since some simulators apply
  effects outside those three actions (putting an object into a running microwave). We do not
  copy ALFRED's bug that emptied a list when the toggled appliance was empty.

  Without a tracker (``effects=None``, e.g. when only a final state is at hand), the state decides:
  heated = temperature ``Hot``, cooled = ``Cold``, cleaned = dirtyable and not ``isDirty``; with
  ``start_metadata`` an object must also not have been so at the start (a lettuce that starts in
  the fridge is cold but was not cooled). A non-dirtyable object can then never count as cleaned:
  metadata alone cannot say it was washed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.domains.tasks import GoalCondition, TaskSpec, TaskType, get_task_type, task_type_names
from alfred_gen.errors import ExitCode, UserError

#: Appliances whose action ALFRED's environment books as heating / cooling / washing.
HEATERS = frozenset({"Microwave"})
COOLERS = frozenset({"Fridge"})
WASH_BASINS = frozenset({"SinkBasin", "BathtubBasin"})


@dataclass(frozen=True)
class GoalStatus:
    """How many of the task's goal conditions hold, and which do not (short phrases)."""

    satisfied: int
    total: int
    missing: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.total > 0 and self.satisfied == self.total

    def describe(self) -> str:
        """``3/4 goal conditions (missing: AppleSliced heated)``."""
        text = f"{self.satisfied}/{self.total} goal conditions"
        return text + (f" (missing: {'; '.join(self.missing)})" if self.missing else "")


@dataclass(frozen=True)
class Effects:
    """Object ids ALFRED's environment would have booked as heated, cooled and cleaned."""

    heated: frozenset[str] = frozenset()
    cooled: frozenset[str] = frozenset()
    cleaned: frozenset[str] = frozenset()


def task_from_trajectory(traj: Mapping[str, Any]) -> TaskSpec:
    """The task of a traj_data.json: its ``task_type`` and ``pddl_params``.

    Raises UserError(BAD_INPUT) if either is missing or malformed.
    """
    task_type = traj.get("task_type") if isinstance(traj, Mapping) else None
    params = traj.get("pddl_params") if isinstance(traj, Mapping) else None
    if not isinstance(task_type, str) or not task_type:
        raise UserError("trajectory has no task_type", ExitCode.BAD_INPUT)
    if not isinstance(params, Mapping) or not isinstance(params.get("object_target"), str):
        raise UserError("trajectory has no pddl_params.object_target", ExitCode.BAD_INPUT)
    return TaskSpec.from_pddl_params(task_type, dict(params))


# --------------------------------------------------------------------------------------------
# Effects bookkeeping


def _by_id(metadata: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {o["objectId"]: o for o in metadata.get("objects") or ()}


def _contents(obj: Mapping[str, Any] | None) -> list[str]:
    return list((obj or {}).get("receptacleObjectIds") or ())


def _horizontal_distance(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    pa, pb = a.get("position") or {}, b.get("position") or {}
    return math.hypot(pa.get("x", 0.0) - pb.get("x", 0.0), pa.get("z", 0.0) - pb.get("z", 0.0))


def _state_of(obj: Mapping[str, Any]) -> tuple[Any, Any]:
    return obj.get("temperature"), obj.get("isDirty")


class EffectTracker:
    """ALFRED's heated / cooled / cleaned lists, kept from actions and metadata while replaying.

    Call :meth:`observe` after every *successful* step that may change object states (any action
    with an ``objectId``; navigation cannot). ``start`` is the metadata after the scene restore.
    """

    def __init__(self, start: Mapping[str, Any]) -> None:
        self._states = {oid: _state_of(o) for oid, o in _by_id(start).items()}
        self._heated: set[str] = set()
        self._cooled: set[str] = set()
        self._cleaned: set[str] = set()

    def observe(self, action: Mapping[str, Any], metadata: Mapping[str, Any]) -> None:
        objects = _by_id(metadata)
        name = action.get("action")
        object_id = action.get("objectId")
        target = objects.get(object_id) if isinstance(object_id, str) else None
        if target is not None:
            kind = target.get("objectType")
            if name == "ToggleObjectOn" and kind in HEATERS:
                self._heated.update(_contents(target))
            elif name == "CloseObject" and kind in COOLERS:
                self._cooled.update(_contents(target))
            elif name == "ToggleObjectOn" and kind == "Faucet":
                basins = [o for o in objects.values() if o.get("objectType") in WASH_BASINS]
                if basins:
                    nearest = min(basins, key=lambda b: (_horizontal_distance(b, target), b["objectId"]))
                    self._cleaned.update(_contents(nearest))
        for oid, obj in objects.items():
            before = self._states.get(oid)
            now = _state_of(obj)
            if before is not None and before != now:
                if now[0] == "Hot" and before[0] != "Hot":
                    self._heated.add(oid)
                if now[0] == "Cold" and before[0] != "Cold":
                    self._cooled.add(oid)
                if before[1] is True and now[1] is False:
                    self._cleaned.add(oid)
            self._states[oid] = now

    def effects(self) -> Effects:
        return Effects(frozenset(self._heated), frozenset(self._cooled), frozenset(self._cleaned))


def _is_hot(obj: Mapping[str, Any]) -> bool:
    return obj.get("temperature") == "Hot"


def _is_cold(obj: Mapping[str, Any]) -> bool:
    return obj.get("temperature") == "Cold"


def _is_clean(obj: Mapping[str, Any]) -> bool:
    return bool(obj.get("dirtyable")) and obj.get("isDirty") is False


def effects_from_state(metadata: Mapping[str, Any], start_metadata: Mapping[str, Any] | None = None) -> Effects:
    """Best guess of the effects from states alone (see the module docstring).

    With ``start_metadata``, an object counts only if it was not already so at the start.
    """
    start = _by_id(start_metadata) if start_metadata is not None else {}
    objects = _by_id(metadata)

    def booked(test) -> frozenset[str]:
        return frozenset(
            oid for oid, obj in objects.items() if test(obj) and not (oid in start and test(start[oid]))
        )

    return Effects(heated=booked(_is_hot), cooled=booked(_is_cold), cleaned=booked(_is_clean))


# --------------------------------------------------------------------------------------------
# Counting


def has_goal_check(task_type: str) -> bool:
    """Whether :func:`goal_conditions` can count ``task_type``'s conditions (it is in the registry)."""
    return task_type in task_type_names()


def _of_class(objects: Iterable[Mapping[str, Any]], cls: str, prop: str) -> list[Mapping[str, Any]]:
    return [o for o in objects if cls and o.get("objectType") == cls and o.get(prop)]


def _target_class(task: TaskSpec) -> str:
    return task.object_target + ("Sliced" if task.object_sliced else "")


#: The flag an object of a slot must have to count (ALFRED's ``get_objects_with_name_and_prop``).
_SLOT_FLAGS = {"object": "pickupable", "mrecep": "pickupable", "parent": "receptacle", "toggle": "toggleable"}

_NUMBER_WORDS = {1: "a", 2: "two", 3: "three", 4: "four"}


class _Count:
    def __init__(self) -> None:
        self.satisfied = 0
        self.total = 0
        self.missing: list[str] = []

    def add(self, holds: bool, what: str, weight: int = 1, got: int | None = None) -> None:
        self.total += weight
        gained = weight if holds else 0 if got is None else min(got, weight)
        self.satisfied += gained
        if gained < weight:
            self.missing.append(what)

    def status(self) -> GoalStatus:
        return GoalStatus(self.satisfied, self.total, self.missing)


@dataclass(frozen=True)
class _State:
    """What the condition tests read: the task, the state's objects and the booked effects."""

    task: TaskSpec
    metadata: Mapping[str, Any]
    objects: list[Mapping[str, Any]]
    effects: Effects

    def cls(self, slot: str) -> str:
        """The class of a slot as the goal names it (a slice class for a sliced object)."""
        return _target_class(self.task) if slot == "object" else self.task.slot(slot)

    def of(self, slot: str) -> list[Mapping[str, Any]]:
        """The objects of a slot's class that have the slot's flag."""
        return _of_class(self.objects, self.cls(slot), _SLOT_FLAGS[slot])

    def ids(self, slot: str) -> list[str]:
        return [o["objectId"] for o in self.of(slot)]

    def booked(self, effect: str) -> frozenset[str]:
        return getattr(self.effects, effect)

    def placed(self, what: str, into: str) -> list[str]:
        """Ids of `what` objects in/on some `into` object."""
        intos = self.of(into)
        return [oid for oid in self.ids(what) if any(_inside(oid, r) for r in intos)]


def _inside(obj_id: str, receptacle: Mapping[str, Any]) -> bool:
    return obj_id in _contents(receptacle)


def _test_inside(state: _State, c: GoalCondition, count: _Count) -> None:
    whats = state.ids(c.what)
    best = max((sum(_inside(oid, r) for oid in whats) for r in state.of(c.into)), default=0)
    what, into = state.cls(c.what), state.cls(c.into)
    says = f"{what} in/on {into}" if c.count == 1 else f"{_NUMBER_WORDS.get(c.count, c.count)} {what} in/on one {into}"
    count.add(best >= c.count, says, weight=c.weight, got=best)


def _test_held(state: _State, c: GoalCondition, count: _Count) -> None:
    held = [item.get("objectId") for item in state.metadata.get("inventoryObjects") or ()]
    count.add(bool(held) and held[0] in state.ids(c.what), f"holding {state.cls(c.what)}")


def _test_switched_on_visible(state: _State, c: GoalCondition, count: _Count) -> None:
    count.add(any(o.get("isToggled") and o.get("visible") for o in state.of(c.what)),
              f"a {state.cls(c.what)} switched on and visible")


def _test_changed(state: _State, c: GoalCondition, count: _Count) -> None:
    booked = state.booked(c.effect)
    count.add(any(oid in booked for oid in state.ids(c.what)), f"{state.cls(c.what)} {c.effect}")


def _test_changed_inside(state: _State, c: GoalCondition, count: _Count) -> None:
    booked = state.booked(c.effect)
    count.add(any(oid in booked for oid in state.placed(c.what, c.into)),
              f"the {c.effect} {state.cls(c.what)} in/on {state.cls(c.into)}")


def _test_stacked(state: _State, c: GoalCondition, count: _Count) -> None:
    # ALFRED's third mrecep condition reads where the movable sits from its parentReceptacles.
    whats = state.ids(c.what)
    into_ids = {r["objectId"] for r in state.of(c.into)}
    count.add(
        any(any(_inside(oid, m) for oid in whats) and any(p in into_ids for p in (m.get("parentReceptacles") or ()))
            for m in state.of(c.on)),
        f"{state.cls(c.on)} holding {state.cls(c.what)} in/on {state.cls(c.into)}",
    )


#: The condition tests of ``domains/tasks.py:CONDITION_TESTS``, by name.
CONDITION_CHECKS = {
    "inside": _test_inside,
    "held": _test_held,
    "switched_on_visible": _test_switched_on_visible,
    "changed": _test_changed,
    "changed_inside": _test_changed_inside,
    "stacked": _test_stacked,
}


def _registered(name: str) -> TaskType:
    if not has_goal_check(name):
        raise UserError(f"no goal check for task type {name!r}", ExitCode.NOT_FOUND)
    return get_task_type(name)


def goal_conditions(
    task: TaskSpec,
    metadata: Mapping[str, Any],
    *,
    start_metadata: Mapping[str, Any] | None = None,
    effects: Effects | None = None,
) -> GoalStatus:
    """The task's goal conditions over a state's metadata, counted as ALFRED's evaluation does:
    one "a slice exists" per object the goal names when the task is sliced, then the task type's
    ``conditions`` from the registry, in order.

    ``effects`` are the heated/cooled/cleaned objects booked during the episode (from an
    :class:`EffectTracker`); without them they are judged from the state (and ``start_metadata``),
    see the module docstring. Raises UserError(NOT_FOUND) for a task type without a goal check.
    """
    task_type = _registered(task.task_type)
    if effects is None:
        effects = effects_from_state(metadata, start_metadata)
    state = _State(task, metadata, list(metadata.get("objects") or ()), effects)
    count = _Count()
    if task.object_sliced:
        need, cls = task_type.instances_needed, _target_class(task)
        slices = len(state.of("object"))
        exist = "exists" if need == 1 else "exist"
        count.add(slices >= need, f"{_NUMBER_WORDS.get(need, need)} {cls} {exist} (slice a {task.object_target})",
                  weight=need, got=slices)
    for condition in task_type.conditions:
        CONDITION_CHECKS[condition.test](state, condition, count)
    return count.status()


# --------------------------------------------------------------------------------------------
# Goals stored in the trajectory (derived tasks: ALFRED-L's NAV-ONLY, REV-1, REV-n; EQA's paths)

#: The key of a trajectory's own goal block (optional; absent in ALFRED's and sample's files).
GOAL_KEY = "goal"

#: Slack on the distance threshold, so that a pose exactly on the threshold (five 0.25 m steps for
#: 1.25 m) counts as within it whatever the float noise of the simulator's positions.
DISTANCE_SLACK = 1e-6


@dataclass(frozen=True)
class PositionGoal:
    """The agent must end with its position within ``within`` metres (horizontally) of (x, z)."""

    x: float
    z: float
    within: float

    def distance(self, metadata: Mapping[str, Any]) -> float:
        """Horizontal distance of the agent in ``metadata`` from the target (x, z)."""
        position = (metadata.get("agent") or {}).get("position") or {}
        return math.hypot(float(position.get("x", math.inf)) - self.x, float(position.get("z", math.inf)) - self.z)

    def holds(self, metadata: Mapping[str, Any]) -> bool:
        return within_threshold(self.distance(metadata), self.within)

    def describe(self) -> str:
        return f"agent within {self.within:g} m of ({self.x:.2f}, {self.z:.2f})"


def within_threshold(distance: float, threshold: float) -> bool:
    """ALFRED-L's success test for a position: ``distance <= threshold`` (metres), the threshold
    itself included (the agent five 0.25 m steps away from the target succeeds at 1.25 m)."""
    return distance <= threshold + DISTANCE_SLACK


#: How far (degrees) the agent's final rotation and camera horizon may be from a view goal's.
ANGLE_SLACK = 1e-3


@dataclass(frozen=True)
class ViewGoal:
    """The agent must end turned to ``rotation`` with its camera at ``horizon`` (degrees). With a
    position within 0 m this pins the final pose: EQA's expert ends at the pose that best shows
    the question's target, so the last frame is that view."""

    rotation: float
    horizon: float

    def holds(self, metadata: Mapping[str, Any]) -> bool:
        agent = metadata.get("agent") or {}
        rotation = float((agent.get("rotation") or {}).get("y", math.nan))
        horizon = float(agent.get("cameraHorizon", math.nan))
        turn = abs((rotation - self.rotation + 180.0) % 360.0 - 180.0)
        return turn <= ANGLE_SLACK and abs(horizon - self.horizon) <= ANGLE_SLACK

    def describe(self) -> str:
        return f"agent turned to {self.rotation:g} with horizon {self.horizon:g}"


@dataclass(frozen=True)
class TrajectoryGoal:
    """What a trajectory must reach: the task type's goal conditions (unless a derived task drops
    them, NAV-ONLY) and, for derived tasks, a final position; for EQA's paths also a final view."""

    task_conditions: bool = True
    position: PositionGoal | None = None
    view: ViewGoal | None = None


def trajectory_goal(traj: Mapping[str, Any]) -> TrajectoryGoal:
    """The goal of a trajectory: its ``goal`` block, or (without one) the task's conditions alone.

    The block (written by ``alfred-gen derive``, checked by the schema)::

        "goal": {"task_conditions": false, "agent_position": {"x": 1.0, "z": -2.5, "within": 1.25}}

    and, written by ``alfred-gen eqa paths``, ``"agent_view": {"rotation": 90, "horizon": 30}``.
    Raises UserError(BAD_INPUT) for a malformed block (data not checked by the schema).
    """
    block = traj.get(GOAL_KEY) if isinstance(traj, Mapping) else None
    if block is None:
        return TrajectoryGoal()
    if not isinstance(block, Mapping) or not isinstance(block.get("task_conditions"), bool):
        raise UserError("goal block: needs a boolean task_conditions", ExitCode.BAD_INPUT)
    view = _view_goal(block.get("agent_view"))
    position = block.get("agent_position")
    if position is None:
        return TrajectoryGoal(block["task_conditions"], None, view)
    try:
        target = PositionGoal(float(position["x"]), float(position["z"]), float(position["within"]))
    except (TypeError, KeyError, ValueError):
        raise UserError("goal block: agent_position needs numbers x, z and within", ExitCode.BAD_INPUT) from None
    if not (math.isfinite(target.x) and math.isfinite(target.z) and target.within >= 0):
        raise UserError("goal block: agent_position must be finite with within >= 0", ExitCode.BAD_INPUT)
    return TrajectoryGoal(block["task_conditions"], target, view)


def _view_goal(view: Any) -> ViewGoal | None:
    if view is None:
        return None
    try:
        goal = ViewGoal(float(view["rotation"]), float(view["horizon"]))
    except (TypeError, KeyError, ValueError):
        raise UserError("goal block: agent_view needs numbers rotation and horizon", ExitCode.BAD_INPUT) from None
    if not (math.isfinite(goal.rotation) and math.isfinite(goal.horizon)):
        raise UserError("goal block: agent_view must be finite", ExitCode.BAD_INPUT)
    return goal


def goal_block(task_conditions: bool, position: PositionGoal | None, view: ViewGoal | None = None) -> dict[str, Any]:
    """The ``goal`` block :func:`trajectory_goal` reads back (what ``derive`` and ``eqa paths`` write)."""
    block: dict[str, Any] = {"task_conditions": task_conditions}
    if position is not None:
        block["agent_position"] = {"x": position.x, "z": position.z, "within": position.within}
    if view is not None:
        block["agent_view"] = {"rotation": view.rotation, "horizon": view.horizon}
    return block


def needs_task_check(goal: TrajectoryGoal) -> bool:
    """Whether the task type's own conditions are part of the goal (so it must have a goal check)."""
    return goal.task_conditions or (goal.position is None and goal.view is None)


def trajectory_goal_status(
    goal: TrajectoryGoal,
    task: TaskSpec,
    metadata: Mapping[str, Any],
    *,
    start_metadata: Mapping[str, Any] | None = None,
    effects: Effects | None = None,
) -> GoalStatus:
    """The goal conditions of a trajectory in a state: the task's (:func:`goal_conditions`) when
    the goal keeps them, plus one condition for the final position when it has one."""
    if needs_task_check(goal):
        status = goal_conditions(task, metadata, start_metadata=start_metadata, effects=effects)
    else:
        status = GoalStatus(0, 0, [])
    if goal.position is None and goal.view is None:
        return status
    count = _Count()
    count.satisfied, count.total, count.missing = status.satisfied, status.total, list(status.missing)
    if goal.position is not None:
        distance = goal.position.distance(metadata)
        count.add(goal.position.holds(metadata), f"{goal.position.describe()} (it is {distance:.2f} m away)")
    if goal.view is not None:
        count.add(goal.view.holds(metadata), goal.view.describe())
    return count.status()
