"""Plan validation: execute a plan on the parsed task, instantiating each action schema afresh.

Deliberately independent of grounding and search: nothing here uses the grounded operators, the
integer facts or the pruning (only the parsed problem's facts, as tuples). Each step's action schema is looked up in the parsed domain, its
arguments are type-checked against the problem's objects, every precondition (static ones included)
is checked against the full current state and the effects are applied with STRIPS semantics (an
atom both added and deleted stays true, as pyperplan and Fast Downward have it). The goal must hold
at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyperplan.pddl.pddl import Problem

from alfred_gen.planner.grounding import problem_facts

Fact = tuple[str, tuple[str, ...]]  # (predicate, args)


@dataclass
class Validation:
    """The outcome: ``ok``, what went wrong (``message``), and the state before each step plus the
    final state, as frozensets of facts ``(predicate, args)``."""

    ok: bool
    message: str
    states: list[frozenset[Fact]]


def fact_text(fact: Fact) -> str:
    return "(" + " ".join((fact[0], *fact[1])) + ")"


def _fact(predicate, binding: dict[str, str]) -> Fact:
    return predicate.name, tuple([binding.get(arg, arg) for arg, _ in predicate.signature])


def _is_a(typ, wanted: set[str]) -> bool:
    while typ is not None:
        if typ.name in wanted:
            return True
        typ = typ.parent
    return False


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
            return Validation(False, f"step {step}: {text} has {len(args)} arguments, not {len(action.signature)}", states)
        binding = {}
        for (param, types), arg in zip(action.signature, args):
            if arg not in objects or not _is_a(objects[arg], {t.name for t in types}):
                return Validation(False, f"step {step}: {text}: {arg} is not a {'/'.join(t.name for t in types)}", states)
            binding[param] = arg
        missing = [fact for fact in (_fact(p, binding) for p in action.precondition) if fact not in state]
        if missing:
            return Validation(False, f"step {step}: {text} needs {' '.join(sorted(map(fact_text, missing)))}", states)
        add = {_fact(p, binding) for p in action.effect.addlist}
        delete = {_fact(p, binding) for p in action.effect.dellist} - add
        state = (state - delete) | add
        states.append(state)
    unmet = [fact for fact in goal if fact not in state]
    if unmet:
        return Validation(False, f"goal not reached: {' '.join(sorted(map(fact_text, unmet)))} missing", states)
    return Validation(True, "", states)
