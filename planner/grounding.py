"""Parsing (pyperplan's parser) and fast, deterministic grounding into an integer-indexed task.

pyperplan's own grounding enumerates the full cross product of every action's parameter domains
and tests static preconditions with regular expressions over the whole initial state; its sets of
strings also make operator order depend on PYTHONHASHSEED. This module grounds the same parsed
task by backtracking over parameters with indexed static facts (a static atom with all but one
argument bound yields the candidates of the last), keeps every list sorted, then prunes operators
that are not reachable from the initial state (relaxed exploration) or not relevant to the goal
(backward fixpoint, as pyperplan does). Grounded operator names are written as pyperplan writes
them, ``(name arg ...)``, so plans compare across planners.

The result is a :class:`GroundTask` with facts and operators numbered in sorted order and states
as Python ints used as bit sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from pyperplan.pddl.parser import Parser
from pyperplan.pddl.pddl import Domain, Problem

Atom = tuple[str, ...]  # (predicate, arg, ...)


@lru_cache(maxsize=8)
def parse_domain(domain_text: str) -> Domain:
    """pyperplan's parse of a domain text (cached: every problem shares the same domain)."""
    parser = Parser(None)
    parser.domInput = domain_text
    return parser.parse_domain(read_from_file=False)


def parse_problem(domain_text: str, problem_text: str) -> Problem:
    """pyperplan's parse of a problem text against a (cached) domain."""
    domain = parse_domain(domain_text)
    parser = Parser(None)
    parser.probInput = problem_text
    return parser.parse_problem(domain, read_from_file=False)


def fact_string(atom: Atom) -> str:
    """pyperplan's spelling of a ground atom: ``(pred a b)``."""
    return "(" + " ".join(atom) + ")"


@dataclass
class GroundOperator:
    """A ground action with its facts as strings (used for validation and reading plans)."""

    name: str
    pre: frozenset[str]
    add: frozenset[str]
    delete: frozenset[str]


@dataclass
class GroundTask:
    """A STRIPS task with integer facts and operators, both in sorted order.

    ``pre``/``add``/``delete`` are per-operator lists of fact indices; ``*_mask`` the same as bit
    sets. ``all_operators`` keeps every grounded operator before pruning, by name, with string
    facts, and ``init_facts`` the full initial state (statics included), for plan validation.
    """

    name: str
    facts: list[str]
    init: int
    goals: list[int]
    operators: list[str]
    pre: list[list[int]]
    add: list[list[int]]
    delete: list[list[int]]
    pre_mask: list[int]
    add_mask: list[int]
    del_mask: list[int]
    init_facts: frozenset[str] = field(default_factory=frozenset)
    goal_facts: frozenset[str] = field(default_factory=frozenset)
    all_operators: dict[str, GroundOperator] = field(default_factory=dict)

    def state_facts(self, state: int) -> list[str]:
        """The facts true in a bit-set state, sorted."""
        return [self.facts[i] for i in bits(state)]


def bits(state: int) -> list[int]:
    """Indices of the set bits of ``state``, ascending."""
    out = []
    index = 0
    while state:
        low = state & -state
        index = low.bit_length() - 1
        out.append(index)
        state ^= low
    return out


def _type_map(problem: Problem) -> dict[str, list[str]]:
    """type name -> sorted objects of that type or a subtype (constants included)."""
    objects = dict(problem.objects)
    objects.update(problem.domain.constants or {})
    members: dict[str, set[str]] = {}
    for name, typ in objects.items():
        while typ is not None:
            members.setdefault(typ.name, set()).add(name)
            typ = typ.parent
    return {t: sorted(names) for t, names in members.items()}


def _atom(predicate) -> tuple[str, tuple[str, ...]]:
    return predicate.name, tuple(arg for arg, _ in predicate.signature)


class _StaticIndex:
    """Static facts by predicate, with projections for candidate generation."""

    def __init__(self, facts: Iterable[Atom]):
        self.tuples: dict[str, set[tuple[str, ...]]] = {}
        for fact in facts:
            self.tuples.setdefault(fact[0], set()).add(fact[1:])
        self._lookup: dict[tuple[str, int], dict[tuple[str, ...], set[str]]] = {}

    def holds(self, predicate: str, args: tuple[str, ...]) -> bool:
        return args in self.tuples.get(predicate, ())

    def values(self, predicate: str, position: int, others: tuple[str, ...] | None) -> set[str]:
        """Values at ``position`` of the predicate's tuples whose other arguments equal ``others``
        (``others`` None: any other arguments)."""
        key = (predicate, position)
        table = self._lookup.get(key)
        if table is None:
            table = {}
            for tup in self.tuples.get(predicate, ()):
                rest = tup[:position] + tup[position + 1 :]
                table.setdefault(rest, set()).add(tup[position])
                table.setdefault(None, set()).add(tup[position])  # type: ignore[arg-type]
            self._lookup[key] = table
        return table.get(others, set())  # type: ignore[arg-type]


def _ground_action(action, type_map: dict[str, list[str]], statics: set[str], index: _StaticIndex):
    """Yield (args, dynamic pre facts, add facts, del facts) for each assignment of the action's
    parameters that satisfies its static preconditions.

    Parameters are bound most-constrained first. A static atom is checked at the depth where its
    last variable is bound, by drawing that variable's candidates from the static facts that match
    the atom's other (already bound) arguments. The yield order is irrelevant: the caller sorts.
    """
    params = [name for name, _ in action.signature]
    position = {name: i for i, name in enumerate(params)}
    domains: list[set[str]] = []
    for _, types in action.signature:
        values: set[str] = set()
        for typ in types:
            values.update(type_map.get(typ.name, ()))
        domains.append(values)
    static_pre = [_atom(p) for p in action.precondition if p.name in statics]
    # Unary filters: a parameter must occur at its position in some static fact.
    for pred, args in static_pre:
        for pos, arg in enumerate(args):
            if arg in position:
                domains[position[arg]] &= index.values(pred, pos, None)
    order = sorted(range(len(params)), key=lambda i: (len(domains[i]), i))
    depth_of = {param: order.index(i) for i, param in enumerate(params)}
    # checks[d]: static atoms completed at depth d, as (pred, position of the new variable,
    # references of the other arguments: parameter index or constant string).
    checks: list[list[tuple[str, int, list]]] = [[] for _ in params]
    leaf_checks = []  # atoms with a repeated variable, or no variable at all
    for pred, args in static_pre:
        variables = [a for a in args if a in position]
        if not variables or len(set(variables)) != len(variables):
            leaf_checks.append((pred, [position.get(a, a) for a in args]))
            continue
        last = max(variables, key=lambda a: depth_of[a])
        pos = args.index(last)
        others = [position.get(a, a) for i, a in enumerate(args) if i != pos]
        checks[depth_of[last]].append((pred, pos, others))

    def template(atom) -> str:
        pred, args = _atom(atom)
        return "(" + " ".join([pred] + ["{%d}" % position[a] if a in position else a for a in args]) + ")"

    pre_t = [template(p) for p in action.precondition if p.name not in statics]
    add_t = [template(p) for p in action.effect.addlist]
    del_t = [template(p) for p in action.effect.dellist]
    name_t = "(" + " ".join([action.name] + ["{%d}" % i for i in range(len(params))]) + ")"
    values: list[str] = [""] * len(params)
    n = len(params)

    def ref(r) -> str:
        return values[r] if isinstance(r, int) else r

    def search(depth: int):
        if depth == n:
            for pred, refs in leaf_checks:
                if not index.holds(pred, tuple(ref(r) for r in refs)):
                    return
            yield (
                name_t.format(*values),
                [t.format(*values) for t in pre_t],
                [t.format(*values) for t in add_t],
                [t.format(*values) for t in del_t],
            )
            return
        slot = order[depth]
        candidates = domains[slot]
        for pred, pos, others in checks[depth]:
            allowed = index.values(pred, pos, tuple(ref(r) for r in others))
            candidates = candidates & allowed if len(allowed) < len(candidates) else allowed & candidates
            if not candidates:
                return
        for value in candidates:
            values[slot] = value
            yield from search(depth + 1)

    yield from search(0)


def ground(problem: Problem) -> GroundTask:
    """Ground a parsed problem: deterministic, statics compiled away, unreachable and irrelevant
    operators pruned."""
    domain = problem.domain
    actions = sorted(domain.actions.values(), key=lambda a: a.name)
    effect_predicates = set()
    for action in actions:
        effect_predicates.update(p.name for p in action.effect.addlist)
        effect_predicates.update(p.name for p in action.effect.dellist)
    statics = {p.name for p in domain.predicates.values()} - effect_predicates
    init_atoms = sorted({(p.name, *(a for a, _ in p.signature)) for p in problem.initial_state})
    goal_atoms = sorted({(p.name, *(a for a, _ in p.signature)) for p in problem.goal})
    index = _StaticIndex(a for a in init_atoms if a[0] in statics)
    type_map = _type_map(problem)

    all_operators: dict[str, GroundOperator] = {}
    for action in actions:
        for name, pre, add, delete in _ground_action(action, type_map, statics, index):
            pre_s = frozenset(pre)
            add_s = frozenset(add)
            del_s = frozenset(delete) - add_s
            add_s = add_s - pre_s
            if not add_s and not del_s:
                continue  # a no-op, e.g. GotoLocation from a location to itself
            all_operators[name] = GroundOperator(name, pre_s, add_s, del_s)

    init_facts = frozenset(fact_string(a) for a in init_atoms)
    goal_facts = frozenset(fact_string(a) for a in goal_atoms)
    names = sorted(all_operators)
    ops = [all_operators[n] for n in names]

    # Forward relaxed reachability, with per-operator counters of unreached preconditions.
    consumers: dict[str, list[int]] = {}
    for i, op in enumerate(ops):
        for fact in op.pre:
            consumers.setdefault(fact, []).append(i)
    missing = [len(op.pre) for op in ops]
    alive = [m == 0 for m in missing]
    reached = set(init_facts)
    queue = list(init_facts)
    for i, op in enumerate(ops):
        if alive[i]:
            queue.extend(op.add - reached)
            reached |= op.add
    while queue:
        fact = queue.pop()
        for i in consumers.get(fact, ()):
            missing[i] -= 1
            if missing[i] == 0:
                alive[i] = True
                for new in ops[i].add:
                    if new not in reached:
                        reached.add(new)
                        queue.append(new)
    ops = [op for i, op in enumerate(ops) if alive[i]]

    # Backward relevance, as pyperplan: an operator adding or deleting a relevant fact makes its
    # preconditions relevant; effects on irrelevant facts are dropped, and operators left without
    # effects with them.
    touchers: dict[str, list[int]] = {}
    for i, op in enumerate(ops):
        for fact in op.add | op.delete:
            touchers.setdefault(fact, []).append(i)
    relevant = set(goal_facts)
    queue = list(goal_facts)
    used = [False] * len(ops)
    while queue:
        fact = queue.pop()
        for i in touchers.get(fact, ()):
            if not used[i]:
                used[i] = True
                for pre_fact in ops[i].pre:
                    if pre_fact not in relevant:
                        relevant.add(pre_fact)
                        queue.append(pre_fact)
    pruned = []
    for op in ops:
        add = op.add & relevant
        delete = op.delete & relevant
        if add or delete:
            pruned.append(GroundOperator(op.name, op.pre, add, delete))

    fact_set: set[str] = set(goal_facts)
    for op in pruned:
        fact_set |= op.pre | op.add | op.delete
    facts = sorted(fact_set)
    number = {f: i for i, f in enumerate(facts)}

    def mask(indices: list[int]) -> int:
        m = 0
        for i in indices:
            m |= 1 << i
        return m

    pre = [sorted(number[f] for f in op.pre) for op in pruned]
    add = [sorted(number[f] for f in op.add) for op in pruned]
    delete = [sorted(number[f] for f in op.delete) for op in pruned]
    init = mask([number[f] for f in init_facts if f in number])
    return GroundTask(
        name=problem.name,
        facts=facts,
        init=init,
        goals=sorted(number[f] for f in goal_facts),
        operators=[op.name for op in pruned],
        pre=pre,
        add=add,
        delete=delete,
        pre_mask=[mask(p) for p in pre],
        add_mask=[mask(a) for a in add],
        del_mask=[mask(d) for d in delete],
        init_facts=init_facts,
        goal_facts=goal_facts,
        all_operators=all_operators,
    )


def ground_text(domain_text: str, problem_text: str) -> GroundTask:
    """Parse and ground a problem given as PDDL text."""
    return ground(parse_problem(domain_text, problem_text))
