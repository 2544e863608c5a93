"""Plan validation: execute a plan's operators on the grounded task, as sets of fact strings.

This deliberately shares nothing with the search's bit-set machinery: it runs on every grounded
operator before any pruning (``GroundTask.all_operators``) and on the full initial state, checks
each precondition and applies each effect, and finally checks the goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from alfred_gen.planner.grounding import GroundTask


@dataclass
class Validation:
    """The outcome: ``ok``, what went wrong (``message``) and the state before each step (plus the
    final state), as sorted lists of fact strings."""

    ok: bool
    message: str
    states: list[frozenset[str]]


def validate_plan(task: GroundTask, operators: list[str]) -> Validation:
    """Execute ``operators`` (grounded names such as ``(pickupobject o_... o_... loc_...)``) from the
    initial state; every precondition must hold and the goal must hold at the end."""
    state = frozenset(task.init_facts)
    states = [state]
    for step, name in enumerate(operators, start=1):
        op = task.all_operators.get(name.lower())
        if op is None:
            return Validation(False, f"step {step}: {name} is not an operator of the task", states)
        missing = sorted(op.pre - state)
        if missing:
            return Validation(False, f"step {step}: {name} needs {' '.join(missing)}", states)
        state = (state - op.delete) | op.add
        states.append(state)
    unmet = sorted(task.goal_facts - state)
    if unmet:
        return Validation(False, f"goal not reached: {' '.join(unmet)} missing", states)
    return Validation(True, "", states)
