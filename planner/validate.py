"""Plan validation, at two levels.

``check_on_task`` executes a plan on the grounded task it was found for (bit-set states, each
operator's preconditions checked, effects applied, goal checked at the end). It costs a few
microseconds and runs on every plan the planner returns: a search or tidying bug can never hand out
an invalid plan.

``validate_plan`` executes a plan on the parsed task, instantiating each action schema afresh. It is
deliberately independent of grounding and search: nothing here uses the grounded operators, the
integer facts or the pruning (only the parsed problem's facts, as tuples). Each step's action schema
is looked up in the parsed domain, its arguments are type-checked against the problem's objects, every
precondition (static ones included) is checked against the full current state and the effects are
applied with STRIPS semantics (an
atom both added and deleted stays true, as pyperplan and Fast Downward have it). The goal must hold
at the end.
"""

from __future__ import annotations

from typing import NamedTuple

from pyperplan.pddl.pddl import Problem

from alfred_gen.planner.grounding import GroundTask, problem_facts

Fact = tuple[str, tuple[str, ...]]  # (predicate, args)


class Validation(NamedTuple):
    """The outcome: ``ok``, what went wrong (``message``), and the state before each step plus the
    final state, as frozensets of facts ``(predicate, args)``."""

    ok: bool
    message: str
    states: list[frozenset[Fact]]


class TaskCheck(NamedTuple):
    """The outcome of :func:`check_on_task`: ``ok``, what went wrong (``message``), and the state
    before each step plus the final state, as bit sets of the task's facts."""

    ok: bool
    message: str
    states: list[int]


def check_on_task(task: GroundTask, plan: list[int]) -> TaskCheck:
    """Execute ``plan`` (operator indices) on the grounded task from its initial state: every
    step's preconditions must hold, and the goal at the end."""
    state = task.init
    states = [state]
    for step, op in enumerate(plan, start=1):
        if not 0 <= op < len(task.pre_mask):
            return TaskCheck(False, f"step {step}: no operator {op}", states)
        pre = task.pre_mask[op]
        if state & pre != pre:
            missing = " ".join(task.state_facts(pre & ~state))
            return TaskCheck(False, f"step {step}: {task.operator_name(op)} needs {missing}", states)
        state = (state & ~task.del_mask[op]) | task.add_mask[op]
        states.append(state)
    unmet = [task.facts[g] for g in task.goals if not state >> g & 1]
    if unmet:
        return TaskCheck(False, f"goal not reached: {' '.join(unmet)} missing", states)
    return TaskCheck(True, "", states)


def fact_text(fact: Fact) -> str:
    return "(" + " ".join((fact[0], *fact[1])) + ")"


def _refs(predicate, position: dict[str, int]) -> tuple:
    """An atom's arguments as parameter indices (ints) or constants (strs)."""
    return predicate.name, tuple([position.get(arg, arg) for arg, _ in predicate.signature])


def _is_a(typ, wanted: frozenset[str]) -> bool:
    while typ is not None:
        if typ.name in wanted:
            return True
        typ = typ.parent
    return False


_SCHEMAS: dict[int, tuple] = {}


def _schema(action) -> tuple:
    """The action's parameter types and its precondition, add and delete atoms over parameter
    indices; read once per action object (the domain is parsed once and cached), so a step binds
    arguments by position instead of re-reading pyperplan's predicates."""
    cached = _SCHEMAS.get(id(action))
    if cached is not None and cached[0] is action:
        return cached[1]
    position = {name: i for i, (name, _) in enumerate(action.signature)}
    compiled = (
        [frozenset(t.name for t in types) for _, types in action.signature],
        [_refs(p, position) for p in action.precondition],
        [_refs(p, position) for p in action.effect.addlist],
        [_refs(p, position) for p in action.effect.dellist],
    )
    _SCHEMAS[id(action)] = (action, compiled)
    return compiled


def _bind(atoms: list[tuple], args: list[str]) -> list[Fact]:
    return [(pred, tuple([args[r] if r.__class__ is int else r for r in refs])) for pred, refs in atoms]


def validate_plan(problem: Problem, operators: list[str]) -> Validation:
    """Execute ``operators`` (``(action arg ...)``, as planners print them) from the initial state
    of ``problem``; every step must be a well-typed instance of a domain action whose preconditions
    hold, and the goal must hold at the end."""
    actions = problem.domain.actions
    objects = dict(problem.objects)
    objects.update(problem.domain.constants or {})
    init, goal = problem_facts(problem)
    state = frozenset(init)
    states = [state]
    for step, text in enumerate(operators, start=1):
        words = text.strip().strip("()").lower().split()
        if not words or words[0] not in actions:
            return Validation(False, f"step {step}: {text} names no action of the domain", states)
        action = actions[words[0]]
        args = words[1:]
        if len(args) != len(action.signature):
            return Validation(
                False, f"step {step}: {text} has {len(args)} arguments, not {len(action.signature)}", states
            )
        wanted, pre_atoms, add_atoms, del_atoms = _schema(action)
        for types, arg in zip(wanted, args):
            if arg not in objects or not _is_a(objects[arg], types):
                return Validation(False, f"step {step}: {text}: {arg} is not a {'/'.join(sorted(types))}", states)
        missing = [fact for fact in _bind(pre_atoms, args) if fact not in state]
        if missing:
            return Validation(False, f"step {step}: {text} needs {' '.join(sorted(map(fact_text, missing)))}", states)
        add = set(_bind(add_atoms, args))
        delete = set(_bind(del_atoms, args)) - add
        state = (state - delete) | add
        states.append(state)
    unmet = [fact for fact in goal if fact not in state]
    if unmet:
        return Validation(False, f"goal not reached: {' '.join(sorted(map(fact_text, unmet)))} missing", states)
    return Validation(True, "", states)
