"""The task-type registry: ALFRED's seven task types, read from ``domains/tasks.json``.

A task type is data, not code: which classes it names (its slots), which room types ALFRED samples
it in, which capabilities it needs (a microwave to heat, a knife to slice), a goal template that
the planner compiles into a goal action, and the goal conditions ALFRED's evaluation counts (which
``replay.goals`` checks over simulator metadata). Adding a task type means adding an entry to the
JSON file; nothing else changes. A JSON file of the same shape named by ``$ALFRED_GEN_TASKS`` adds
its entries to the packaged ones (same name: replaced), so a new task type can be tried without
editing the package.

:class:`TaskSpec` mirrors ALFRED's ``pddl_params`` plus the task type, so a released trajectory's
task reads straight into one (:meth:`TaskSpec.from_pddl_params`).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import trajectory_dir_name

#: The slots a task can name, in the order ALFRED writes them into directory names.
SLOTS = ("object", "mrecep", "parent", "toggle")

#: Room types (as alfred_gen.sim.scene.ROOM_TYPES).
ALL_ROOM_TYPES = ("kitchen", "living_room", "bedroom", "bathroom")

#: Environment variable naming a JSON file of extra task types (the shape of ``tasks.json``).
ENV_VAR = "ALFRED_GEN_TASKS"

#: The tests a goal condition can name (``replay.goals`` implements each over THOR metadata), with
#: the slot roles each needs: ``what`` the objects tested, ``on`` a movable receptacle between them
#: and ``into`` the receptacle (or lamp) they end in.
CONDITION_TESTS: dict[str, tuple[str, ...]] = {
    "inside": ("what", "into"),  # ``count`` objects of `what` in/on one `into` (partial credit)
    "held": ("what",),  # the agent holds an object of `what` (first in its inventory)
    "switched_on_visible": ("what",),  # an object of `what` (a lamp) is on and visible
    "changed": ("what",),  # an object of `what` was heated / cooled / cleaned (``effect``)
    "changed_inside": ("what", "into"),  # one object of `what` both changed and in/on an `into`
    "stacked": ("what", "on", "into"),  # an `on` holding a `what` sits in/on an `into`
}

#: The state changes ALFRED's environment books while stepping (``changed`` conditions).
EFFECTS = ("heated", "cooled", "cleaned")

_INSTANCE_PARAM = re.compile(r"^\(isType (\?\w+) \{object\}\)$")


@dataclass(frozen=True)
class TaskSpec:
    """One task: ALFRED's ``task_type`` plus ``pddl_params``.

    ``object_sliced`` asks for a slice of ``object_target`` (cut with a knife during the
    demonstration); ``toggle_target`` is the lamp class of look_at_obj_in_light.
    """

    task_type: str
    object_target: str
    parent_target: str = ""
    mrecep_target: str = ""
    toggle_target: str = ""
    object_sliced: bool = False

    def dir_name(self, scene_num: int) -> str:
        """ALFRED's ``<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>`` for this task: the
        object with ``Sliced`` when it is cut, the lamp as the receptacle of look_at_obj_in_light."""
        obj = self.object_target + ("Sliced" if self.object_sliced else "")
        return trajectory_dir_name(self.task_type, obj, self.mrecep_target or None,
                                   self.parent_target or self.toggle_target, scene_num)

    def slot(self, name: str) -> str:
        """The class in a slot: ``object``, ``parent``, ``mrecep`` or ``toggle``."""
        return {
            "object": self.object_target,
            "parent": self.parent_target,
            "mrecep": self.mrecep_target,
            "toggle": self.toggle_target,
        }[name]

    def pddl_params(self) -> dict[str, Any]:
        """ALFRED's ``pddl_params`` dict, as stored in traj_data.json."""
        return {
            "mrecep_target": self.mrecep_target,
            "object_sliced": self.object_sliced,
            "object_target": self.object_target,
            "parent_target": self.parent_target,
            "toggle_target": self.toggle_target,
        }

    @staticmethod
    def from_pddl_params(task_type: str, params: dict[str, Any]) -> TaskSpec:
        """The task of a traj_data.json (``task_type`` and its ``pddl_params``)."""
        return TaskSpec(
            task_type=task_type,
            object_target=params.get("object_target") or "",
            parent_target=params.get("parent_target") or "",
            mrecep_target=params.get("mrecep_target") or "",
            toggle_target=params.get("toggle_target") or "",
            object_sliced=bool(params.get("object_sliced", False)),
        )

    def describe(self) -> str:
        """A short human-readable line, e.g. ``pick_heat_then_place_in_recep: sliced Apple -> CounterTop``."""
        what = ("sliced " if self.object_sliced else "") + self.object_target
        parts = [what]
        if self.mrecep_target:
            parts.append(f"in {self.mrecep_target}")
        if self.parent_target:
            parts.append(f"-> {self.parent_target}")
        if self.toggle_target:
            parts.append(f"under {self.toggle_target}")
        return f"{self.task_type}: " + " ".join(parts)


@dataclass(frozen=True)
class GoalTemplate:
    """A goal action over instances: typed parameters and preconditions with class placeholders.

    Placeholders ``{object}``, ``{parent}``, ``{mrecep}``, ``{toggle}`` stand for the task's classes;
    ``sliced`` names the parameters that must be slices in the ``_slice`` variant.
    """

    parameters: tuple[tuple[str, str], ...]
    precondition: tuple[str, ...]
    sliced: tuple[str, ...]


@dataclass(frozen=True)
class GoalCondition:
    """One of ALFRED's goal conditions of a task type: a test (:data:`CONDITION_TESTS`) over the
    task's slots. ``count`` (``inside``) is how many objects one receptacle must hold, each worth one
    condition; ``effect`` (``changed``, ``changed_inside``) is one of :data:`EFFECTS`."""

    test: str
    what: str
    on: str = ""
    into: str = ""
    effect: str = ""
    count: int = 1

    @property
    def weight(self) -> int:
        """How many of the task's goal conditions this one is."""
        return self.count


@dataclass(frozen=True)
class Capability:
    """A static ability some classes have (``canHeat``: Microwave); the domain predicate's name.

    ``holds_object``: the action puts the object into the tool (so the tool must be able to hold it).
    """

    predicate: str
    classes: tuple[str, ...]
    verb: str
    holds_object: bool


@dataclass(frozen=True)
class TaskType:
    """One task type of the registry (see ``domains/tasks.json``)."""

    name: str
    description: str
    slots: tuple[str, ...]
    room_types: tuple[str, ...]
    slice_variant: bool
    tools: tuple[str, ...]
    goal: GoalTemplate
    conditions: tuple[GoalCondition, ...] = ()

    @cached_property
    def instances_needed(self) -> int:
        """How many distinct objects of the object class the goal names (2 for pick_two_obj_and_place):
        its ``(isType ?x {object})`` preconditions."""
        return max(1, sum(1 for pre in self.goal.precondition if _INSTANCE_PARAM.match(pre.strip())))

    def goal_action_name(self, sliced: bool = False) -> str:
        """Name of the compiled goal action in the domain (``Goal_<type>`` or ``Goal_<type>_slice``)."""
        return f"Goal_{self.name}" + ("_slice" if sliced else "")

    def guard_predicate(self, sliced: bool = False) -> str:
        """The static predicate that switches this goal action on for one problem."""
        return f"task_{self.name}" + ("_slice" if sliced else "")

    def needed_tools(self, sliced: bool = False) -> tuple[str, ...]:
        """Capabilities needed, including a slicing tool for the ``_slice`` variant."""
        return self.tools + (("canSlice",) if sliced and "canSlice" not in self.tools else ())

    @property
    def starts_dirty(self) -> bool:
        """Whether ALFRED sets the room up ``dirty_and_empty`` for this type: its scene setup dirties
        the objects and empties the receptacles when a goal condition asks for an object cleaned."""
        return any(condition.effect == "cleaned" for condition in self.conditions)

    def allowed_in(self, room_type: str) -> bool:
        """Whether ALFRED samples this task type in rooms of this type."""
        return room_type in self.room_types


def _load_json(extra: str = "") -> dict[str, Any]:
    """The packaged registry, with the entries of the file ``extra`` (if given) added over it."""
    text = resources.files("alfred_gen.domains").joinpath("tasks.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if extra:
        try:
            more = json.loads(Path(extra).read_text(encoding="utf-8"))
        except OSError as error:
            raise UserError(f"{ENV_VAR}={extra}: cannot read ({error.strerror or error})", ExitCode.NOT_FOUND) from None
        except ValueError as error:
            raise UserError(f"{ENV_VAR}={extra}: not JSON ({error})", ExitCode.BAD_INPUT) from None
        if not isinstance(more, dict):
            raise UserError(f"{ENV_VAR}={extra}: not a task registry (a JSON object)", ExitCode.BAD_INPUT)
        for key in ("capabilities", "task_types"):
            data[key].update(more.get(key) or {})
    return data


def _registry() -> tuple[dict[str, TaskType], dict[str, Capability]]:
    return _registry_with(os.environ.get(ENV_VAR, ""))


@lru_cache(maxsize=4)
def _registry_with(extra: str) -> tuple[dict[str, TaskType], dict[str, Capability]]:
    data = _load_json(extra)
    try:
        return _read_registry(data)
    except (KeyError, TypeError, ValueError) as error:
        where = f"{ENV_VAR}={extra}" if extra else "tasks.json"
        raise UserError(f"{where}: malformed task registry ({error})", ExitCode.BAD_INPUT) from None


def _read_registry(data: dict[str, Any]) -> tuple[dict[str, TaskType], dict[str, Capability]]:
    capabilities = {
        name: Capability(name, tuple(c["classes"]), c["verb"], bool(c["holds_object"]))
        for name, c in data["capabilities"].items()
    }
    types: dict[str, TaskType] = {}
    for name, entry in data["task_types"].items():
        goal = entry["goal"]
        task_type = TaskType(
            name=name,
            description=entry["description"],
            slots=tuple(entry["slots"]),
            room_types=tuple(entry["room_types"]),
            slice_variant=bool(entry["slice_variant"]),
            tools=tuple(entry["tools"]),
            goal=GoalTemplate(
                parameters=tuple((p[0], p[1]) for p in goal["parameters"]),
                precondition=tuple(goal["precondition"]),
                sliced=tuple(goal["sliced"]),
            ),
            conditions=tuple(_condition(c) for c in entry["conditions"]),
        )
        _check_task_type(task_type, capabilities)
        types[name] = task_type
    return types, capabilities


def _check_task_type(task_type: TaskType, capabilities: dict[str, Capability]) -> None:
    """Reject a malformed registry entry at load time rather than producing a broken domain later."""
    unknown_slots = set(task_type.slots) - set(SLOTS)
    unknown_rooms = set(task_type.room_types) - set(ALL_ROOM_TYPES)
    unknown_tools = set(task_type.tools) - set(capabilities)
    if "object" not in task_type.slots or unknown_slots or unknown_rooms or unknown_tools:
        raise ValueError(f"tasks.json: bad entry {task_type.name!r}")
    variables = {name for name, _ in task_type.goal.parameters}
    if not set(task_type.goal.sliced) <= variables:
        raise ValueError(f"tasks.json: {task_type.name!r} slices an unknown variable")
    if task_type.slice_variant != bool(task_type.goal.sliced):
        raise ValueError(f"tasks.json: {task_type.name!r} slice_variant and goal.sliced disagree")
    if not task_type.conditions:
        raise ValueError(f"tasks.json: {task_type.name!r} has no goal conditions")
    for condition in task_type.conditions:
        roles = CONDITION_TESTS.get(condition.test)
        if roles is None:
            raise ValueError(f"tasks.json: {task_type.name!r} has an unknown condition test {condition.test!r}")
        named = {role: getattr(condition, role) for role in ("what", "on", "into")}
        if any(bool(named[role]) != (role in roles) for role in named) or not (
            {slot for slot in named.values() if slot} <= set(task_type.slots)
        ):
            raise ValueError(f"tasks.json: {task_type.name!r}: condition {condition.test!r} names "
                             f"{', '.join(roles)} from the task's slots")
        if (condition.effect in EFFECTS) != condition.test.startswith("changed") or condition.count < 1:
            raise ValueError(f"tasks.json: {task_type.name!r}: bad effect or count in {condition.test!r}")


def _condition(entry: dict[str, Any]) -> GoalCondition:
    """A ``conditions`` item of tasks.json: ``{"test": ..., "what": slot, ...}``."""
    known = {"test", "what", "on", "into", "effect", "count"}
    if not isinstance(entry, dict) or set(entry) - known:
        raise ValueError(f"a goal condition has keys {sorted(known)}, got {entry!r}")
    return GoalCondition(str(entry["test"]), str(entry["what"]), str(entry.get("on", "")),
                         str(entry.get("into", "")), str(entry.get("effect", "")), int(entry.get("count", 1)))


def task_types() -> list[TaskType]:
    """All task types, in the registry's order."""
    return list(_registry()[0].values())


def task_type_names() -> list[str]:
    """The names of all task types, in the registry's order."""
    return list(_registry()[0])


def get_task_type(name: str) -> TaskType:
    """The task type called ``name``; UserError NOT_FOUND if there is none."""
    types = _registry()[0]
    if name not in types:
        raise UserError(
            f"unknown task type {name!r} (known: {', '.join(types)})", ExitCode.NOT_FOUND
        )
    return types[name]


def capabilities() -> dict[str, Capability]:
    """Static abilities the domain knows (canHeat, canCool, canClean, canSlice), by predicate."""
    return dict(_registry()[1])


def make_task(
    task_type: str,
    object_target: str,
    parent_target: str = "",
    mrecep_target: str = "",
    toggle_target: str = "",
    object_sliced: bool = False,
) -> TaskSpec:
    """A checked :class:`TaskSpec`: the task type exists, every slot it needs is named and no other,
    class names are THOR types, and ``object_sliced`` only where the type has a slice variant.

    For look_at_obj_in_light, ALFRED's directory names put the lamp in the receptacle slot; a lamp
    given as ``parent_target`` without ``toggle_target`` is taken as the toggle target.
    """
    spec_type = get_task_type(task_type)
    if "toggle" in spec_type.slots and not toggle_target and parent_target:
        toggle_target, parent_target = parent_target, ""
    given = {"object": object_target, "parent": parent_target, "mrecep": mrecep_target, "toggle": toggle_target}
    for slot in SLOTS:
        if slot in spec_type.slots and not given[slot]:
            raise UserError(f"{task_type} needs a {_SLOT_WORDS[slot]}", ExitCode.USAGE)
        if slot not in spec_type.slots and given[slot]:
            raise UserError(f"{task_type} takes no {_SLOT_WORDS[slot]} (got {given[slot]!r})", ExitCode.USAGE)
    if object_sliced and not spec_type.slice_variant:
        raise UserError(f"{task_type} has no sliced variant", ExitCode.USAGE)
    known = _known_classes()
    for slot in spec_type.slots:
        if known and given[slot] not in known:
            raise UserError(f"unknown object class {given[slot]!r}", ExitCode.NOT_FOUND)
    return TaskSpec(task_type, object_target, parent_target, mrecep_target, toggle_target, bool(object_sliced))


_SLOT_WORDS = {
    "object": "object class (--object)",
    "parent": "receptacle class (--receptacle)",
    "mrecep": "movable receptacle class (--mrecep)",
    "toggle": "lamp class (--toggle)",
}


def _known_classes() -> frozenset[str]:
    """THOR type names from the shared object catalogue (empty if the catalogue is not filled)."""
    from alfred_gen.domains.catalogue import OBJECT_TYPES

    return frozenset(OBJECT_TYPES)
