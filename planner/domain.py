"""The full PDDL domain: ``domains/household.pddl`` plus goal actions compiled from the task templates.

Every task type (and its ``_slice`` variant) becomes one goal action, switched on for a problem by a
static guard fact over classes, e.g. ``(task_pick_heat_then_place_in_recep c_apple c_counter_top)``.
The domain text is therefore the same for every problem: other planners (pyperplan, Fast Downward)
can be run on one domain file and any of our problem files.
"""

from __future__ import annotations

import json
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import alfred_gen.domains

if TYPE_CHECKING:
    from alfred_gen.domains.tasks import TaskType

_PREDICATES_MARK = "; @task-predicates"
_ACTIONS_MARK = "; @goal-actions"


def _read_data(name: str) -> str:
    """A data file of ``domains/`` (read beside the package's own file: importlib.resources would
    cost a one-shot planner process more time than its search)."""
    folder = Path(alfred_gen.domains.__file__).parent
    return (folder / name).read_text(encoding="utf-8")


def class_variable(slot: str) -> str:
    """The goal action parameter standing for a task slot's class."""
    return f"?class_{slot}"


def compile_goal_action(task_type: TaskType, sliced: bool) -> tuple[str, str]:
    """(guard predicate declaration, goal action text) for one task type / variant."""
    goal = task_type.goal
    slot_vars = [class_variable(slot) for slot in task_type.slots]
    parameters = " ".join(f"{var} - {typ}" for var, typ in goal.parameters)
    parameters += "".join(f" {var} - class" for var in slot_vars)
    guard = task_type.guard_predicate(sliced)
    conditions = [f"({guard} {' '.join(slot_vars)})"]
    for atom in goal.precondition:
        conditions.append(re.sub(r"\{(\w+)\}", lambda m: class_variable(m.group(1)), atom))
    if sliced:
        conditions.extend(f"(isSliced {var})" for var in goal.sliced)
    declaration = f"({guard} {' '.join(f'{var} - class' for var in slot_vars)})"
    action = (
        f"  (:action {task_type.goal_action_name(sliced)}\n"
        f"    :parameters ({parameters})\n"
        f"    :precondition (and {' '.join(conditions)})\n"
        f"    :effect (goalReached))\n"
    )
    return declaration, action


def domain_text() -> str:
    """The complete domain, base actions plus one goal action per task type and variant."""
    from alfred_gen.domains.tasks import task_types  # only the encoder needs the task registry

    return _compiled_domain(tuple(task_types()))


@lru_cache(maxsize=2)
def _compiled_domain(types: tuple[TaskType, ...]) -> str:
    """The domain for these task types (cached per registry: ``$ALFRED_GEN_TASKS`` may add some)."""
    base = _read_data("household.pddl")
    if _PREDICATES_MARK not in base or _ACTIONS_MARK not in base:
        raise ValueError("household.pddl lacks the markers where goal actions are compiled in")
    declarations: list[str] = []
    actions: list[str] = []
    for task_type in types:
        for sliced in (False, True) if task_type.slice_variant else (False,):
            declaration, action = compile_goal_action(task_type, sliced)
            declarations.append(f"    {declaration}\n")
            actions.append(action)
    text = base.replace(_PREDICATES_MARK, "".join(declarations).strip() + "\n    " + _PREDICATES_MARK, 1)
    text = text.replace(_ACTIONS_MARK, "\n".join(actions).strip() + "\n\n  " + _ACTIONS_MARK, 1)
    return text


class ActionReading(NamedTuple):
    """How one domain action reads as an ALFRED step (see ``domains/actions.json``)."""

    alfred: str
    roles: dict[str, str]  # role (object, receptacle, tool, location) -> PDDL variable


@lru_cache(maxsize=1)
def action_readings() -> dict[str, ActionReading]:
    """Domain action name (lower case, as planners print it) -> its ALFRED reading."""
    data: dict[str, Any] = json.loads(_read_data("actions.json"))
    readings = {}
    for name, entry in data.items():
        if name.startswith("_"):
            continue
        roles = {role: var for role, var in entry.items() if role != "alfred"}
        readings[name.lower()] = ActionReading(entry["alfred"], roles)
    return readings


@lru_cache(maxsize=1)
def action_parameters() -> dict[str, tuple[str, ...]]:
    """Base action name (lower case) -> its parameter variables in order, read from
    ``household.pddl`` (the goal actions compiled in from the task registry have no ALFRED reading,
    so reading a plan back never needs the registry)."""
    params: dict[str, tuple[str, ...]] = {}
    pattern = re.compile(r"\(:action\s+(\S+)\s*:parameters\s*\(([^)]*)\)", re.IGNORECASE)
    for match in pattern.finditer(_read_data("household.pddl")):
        tokens = match.group(2).split()
        params[match.group(1).lower()] = tuple(t.lower() for t in tokens if t.startswith("?"))
    return params


@cache
def role_positions(action: str) -> tuple[str, dict[str, int]] | None:
    """(ALFRED action name, role -> argument position) of a domain action (lower case); None for
    goal actions. Read once per action from ``domains/actions.json`` and the domain's parameters."""
    reading = action_readings().get(action)
    if reading is None:
        return None
    parameters = action_parameters()[action]
    return reading.alfred, {role: parameters.index(var.lower()) for role, var in reading.roles.items()}
