"""Parsing (pyperplan's parser) and fast, deterministic grounding into an integer-indexed task.

pyperplan's own grounding enumerates the full cross product of every action's parameter domains,
tests static preconditions with regular expressions over the whole initial state, and builds sets
of strings whose iteration order depends on PYTHONHASHSEED. This module grounds the same parsed
task differently:

- each action schema is compiled once per domain into argument references, so a ground atom is a
  small tuple ``(predicate, args)`` interned to an int, never a formatted string;
- parameters are bound by backtracking, most constrained first, drawing each parameter's
  candidates from an index of the static facts that match the atom's already-bound arguments;
- operators unreachable from the initial state (relaxed exploration with counters) and operators
  irrelevant to the goal (backward fixpoint, as pyperplan) are pruned;
- facts and operators are then numbered in sorted order, so the task is the same whatever order
  sets were iterated in.

Grounded operator names read as pyperplan writes them, ``(name arg ...)``, so plans compare across
planners. States are Python ints used as bit sets.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable

from pyperplan.pddl.parser import Parser
from pyperplan.pddl.pddl import Domain, Problem

Fact = tuple[str, tuple[str, ...]]  # (predicate, args)


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


def fact_string(fact: Fact) -> str:
    """pyperplan's spelling of a ground atom: ``(pred a b)``."""
    pred, args = fact
    return "(" + " ".join((pred, *args)) + ")"


@dataclass
class GroundTask:
    """A STRIPS task with integer facts and operators, both numbered in sorted order.

    ``pre``/``add``/``delete`` are per-operator lists of fact indices, ``*_mask`` the same as bit
    sets; ``schema``/``args`` give each operator's action name and arguments; ``problem`` is the
    parsed problem it came from (plan validation re-instantiates the action schemas from it).
    """

    name: str
    facts: list[str]
    init: int
    goals: list[int]
    operators: list[str]
    schema: list[str]
    args: list[tuple[str, ...]]
    pre: list[list[int]]
    add: list[list[int]]
    delete: list[list[int]]
    pre_mask: list[int]
    add_mask: list[int]
    del_mask: list[int]
    problem: Problem | None = None

    def state_facts(self, state: int) -> list[str]:
        """The facts true in a bit-set state, sorted."""
        return [self.facts[i] for i in bits(state)]


def bits(state: int) -> list[int]:
    """Indices of the set bits of ``state``, ascending."""
    out = []
    while state:
        low = state & -state
        out.append(low.bit_length() - 1)
        state ^= low
    return out


# --------------------------------------------------------------------------------------------
# Action schemas compiled to argument references


Ref = Any  # an int (parameter index) or a str (a constant)


@dataclass
class _Schema:
    name: str
    params: list[str]
    param_types: list[list[str]]
    static: list[tuple[str, list[Ref]]]
    pre: list[tuple[str, Callable[[list[str]], tuple[str, ...]]]]
    add: list[tuple[str, Callable[[list[str]], tuple[str, ...]]]]
    delete: list[tuple[str, Callable[[list[str]], tuple[str, ...]]]]


def _builder(refs: list[Ref]) -> Callable[[list[str]], tuple[str, ...]]:
    """A fast function from parameter values to an atom's argument tuple."""
    if all(isinstance(r, int) for r in refs):
        if not refs:
            return lambda values: ()
        if len(refs) == 1:
            only = refs[0]
            return lambda values: (values[only],)
        return itemgetter(*refs)  # type: ignore[return-value]
    return lambda values: tuple(values[r] if isinstance(r, int) else r for r in refs)


def _refs(predicate, position: dict[str, int]) -> list[Ref]:
    return [position.get(arg, arg) for arg, _ in predicate.signature]


_COMPILED: dict[int, tuple[Domain, list[_Schema], frozenset[str]]] = {}


def compile_domain(domain: Domain) -> tuple[list[_Schema], frozenset[str]]:
    """The domain's action schemas in name order, and its static predicates (in no effect)."""
    cached = _COMPILED.get(id(domain))
    if cached is not None and cached[0] is domain:
        return cached[1], cached[2]
    actions = sorted(domain.actions.values(), key=lambda a: a.name)
    effect_predicates = set()
    for action in actions:
        effect_predicates.update(p.name for p in action.effect.addlist)
        effect_predicates.update(p.name for p in action.effect.dellist)
    statics = frozenset(p.name for p in domain.predicates.values()) - effect_predicates
    schemas = []
    for action in actions:
        params = [name for name, _ in action.signature]
        position = {name: i for i, name in enumerate(params)}
        schemas.append(
            _Schema(
                name=action.name,
                params=params,
                param_types=[[t.name for t in types] for _, types in action.signature],
                static=[(p.name, _refs(p, position)) for p in action.precondition if p.name in statics],
                pre=[(p.name, _builder(_refs(p, position))) for p in action.precondition if p.name not in statics],
                add=[(p.name, _builder(_refs(p, position))) for p in sorted(action.effect.addlist, key=str)],
                delete=[(p.name, _builder(_refs(p, position))) for p in sorted(action.effect.dellist, key=str)],
            )
        )
    _COMPILED[id(domain)] = (domain, schemas, statics)
    return schemas, statics


class _StaticIndex:
    """Static facts by predicate, with projections for candidate generation."""

    def __init__(self, facts: list[Fact]):
        self.tuples: dict[str, set[tuple[str, ...]]] = {}
        for pred, args in facts:
            self.tuples.setdefault(pred, set()).add(args)
        self._lookup: dict[tuple[str, int], dict[Any, set[str]]] = {}

    def holds(self, predicate: str, args: tuple[str, ...]) -> bool:
        return args in self.tuples.get(predicate, ())

    def values(self, predicate: str, position: int, others: tuple[str, ...] | None) -> set[str]:
        """Values at ``position`` of the predicate's facts whose other arguments are ``others``
        (``None``: whatever they are)."""
        key = (predicate, position)
        table = self._lookup.get(key)
        if table is None:
            table = {None: set()}
            for tup in self.tuples.get(predicate, ()):
                rest = tup[:position] + tup[position + 1 :]
                table.setdefault(rest, set()).add(tup[position])
                table[None].add(tup[position])
            self._lookup[key] = table
        return table.get(others, _EMPTY)


_EMPTY: set[str] = set()


def _instantiate(schema: _Schema, type_map: dict[str, set[str]], index: _StaticIndex):
    """Yield the parameter value lists (a reused list: copy it) satisfying the static preconditions.

    Parameters are bound most constrained first. A static atom is checked at the depth where its
    last variable is bound, by drawing that variable's candidates from the static facts matching
    the atom's other (already bound) arguments.
    """
    n = len(schema.params)
    domains: list[set[str]] = []
    for types in schema.param_types:
        values: set[str] = set()
        for typ in types:
            values |= type_map.get(typ, _EMPTY)
        domains.append(values)
    for pred, refs in schema.static:
        for pos, ref in enumerate(refs):
            if isinstance(ref, int):
                domains[ref] = domains[ref] & index.values(pred, pos, None)
    order = sorted(range(n), key=lambda i: (len(domains[i]), i))
    depth_of = [0] * n
    for depth, param in enumerate(order):
        depth_of[param] = depth
    checks: list[list[tuple[str, int, list[Ref]]]] = [[] for _ in range(n)]
    leaf_checks: list[tuple[str, list[Ref]]] = []
    for pred, refs in schema.static:
        variables = [r for r in refs if isinstance(r, int)]
        if not variables or len(set(variables)) != len(variables):
            leaf_checks.append((pred, refs))
            continue
        last = max(variables, key=lambda r: depth_of[r])
        pos = refs.index(last)
        checks[depth_of[last]].append((pred, pos, [r for i, r in enumerate(refs) if i != pos]))
    values_now: list[str] = [""] * n

    def resolve(refs: list[Ref]) -> tuple[str, ...]:
        return tuple(values_now[r] if isinstance(r, int) else r for r in refs)

    def search(depth: int):
        if depth == n:
            for pred, refs in leaf_checks:
                if not index.holds(pred, resolve(refs)):
                    return
            yield values_now
            return
        slot = order[depth]
        candidates = domains[slot]
        for pred, pos, others in checks[depth]:
            allowed = index.values(pred, pos, resolve(others))
            candidates = candidates & allowed
            if not candidates:
                return
        for value in candidates:
            values_now[slot] = value
            yield from search(depth + 1)

    yield from search(0)


def _type_map(problem: Problem) -> dict[str, set[str]]:
    """type name -> objects of that type or a subtype (constants included)."""
    objects = dict(problem.objects)
    objects.update(problem.domain.constants or {})
    members: dict[str, set[str]] = {}
    for name, typ in objects.items():
        while typ is not None:
            members.setdefault(typ.name, set()).add(name)
            typ = typ.parent
    return members


def ground(problem: Problem) -> GroundTask:
    """Ground a parsed problem: statics compiled away, unreachable and irrelevant operators
    pruned, facts and operators numbered in sorted order."""
    schemas, statics = compile_domain(problem.domain)
    init_facts = {(p.name, tuple(a for a, _ in p.signature)) for p in problem.initial_state}
    goal_facts = {(p.name, tuple(a for a, _ in p.signature)) for p in problem.goal}
    index = _StaticIndex([f for f in init_facts if f[0] in statics])
    type_map = _type_map(problem)

    # Intern facts as ints while grounding.
    number: dict[Fact, int] = {}
    fact_keys: list[Fact] = []

    def intern(fact: Fact) -> int:
        i = number.get(fact)
        if i is None:
            i = number[fact] = len(fact_keys)
            fact_keys.append(fact)
        return i

    op_keys: list[tuple[str, tuple[str, ...]]] = []
    op_pre: list[set[int]] = []
    op_add: list[set[int]] = []
    op_del: list[set[int]] = []
    for schema in schemas:
        pre_b, add_b, del_b = schema.pre, schema.add, schema.delete
        for values in _instantiate(schema, type_map, index):
            pre = {intern((p, b(values))) for p, b in pre_b}
            add = {intern((p, b(values))) for p, b in add_b}
            delete = {intern((p, b(values))) for p, b in del_b}
            delete -= add
            add -= pre
            if not add and not delete:
                continue  # a no-op, e.g. GotoLocation from a location to itself
            op_keys.append((schema.name, tuple(values)))
            op_pre.append(pre)
            op_add.append(add)
            op_del.append(delete)
    init_ids = {intern(f) for f in init_facts if f[0] not in statics}
    goal_ids = {intern(f) for f in goal_facts}

    # Forward relaxed reachability, with per-operator counters of unreached preconditions.
    n_facts = len(fact_keys)
    consumers: list[list[int]] = [[] for _ in range(n_facts)]
    for op, pre in enumerate(op_pre):
        for fact in pre:
            consumers[fact].append(op)
    missing = [len(pre) for pre in op_pre]
    reached = bytearray(n_facts)
    queue = list(init_ids)
    for fact in queue:
        reached[fact] = 1
    alive = bytearray(len(op_pre))
    for op, count in enumerate(missing):
        if count == 0:
            alive[op] = 1
            for fact in op_add[op]:
                if not reached[fact]:
                    reached[fact] = 1
                    queue.append(fact)
    while queue:
        fact = queue.pop()
        for op in consumers[fact]:
            missing[op] -= 1
            if missing[op] == 0:
                alive[op] = 1
                for new in op_add[op]:
                    if not reached[new]:
                        reached[new] = 1
                        queue.append(new)

    # Backward relevance, as pyperplan: an operator adding or deleting a relevant fact makes its
    # preconditions relevant; effects on irrelevant facts are dropped, and operators left without
    # effects with them.
    touchers: list[list[int]] = [[] for _ in range(n_facts)]
    for op in range(len(op_pre)):
        if alive[op]:
            for fact in op_add[op]:
                touchers[fact].append(op)
            for fact in op_del[op]:
                touchers[fact].append(op)
    relevant = bytearray(n_facts)
    queue = list(goal_ids)
    for fact in queue:
        relevant[fact] = 1
    used = bytearray(len(op_pre))
    while queue:
        fact = queue.pop()
        for op in touchers[fact]:
            if not used[op]:
                used[op] = 1
                for pre_fact in op_pre[op]:
                    if not relevant[pre_fact]:
                        relevant[pre_fact] = 1
                        queue.append(pre_fact)
    kept = []
    for op in range(len(op_pre)):
        if not alive[op]:
            continue
        add = {f for f in op_add[op] if relevant[f]}
        delete = {f for f in op_del[op] if relevant[f]}
        if add or delete:
            kept.append((op_keys[op], op_pre[op], add, delete))

    # Canonical numbering: facts and operators in sorted order.
    used_facts = set(goal_ids)
    for _, pre, add, delete in kept:
        used_facts |= pre
        used_facts |= add
        used_facts |= delete
    ordered = sorted(used_facts, key=fact_keys.__getitem__)
    renumber = {old: new for new, old in enumerate(ordered)}
    kept.sort(key=lambda entry: entry[0])
    pre_l = [sorted(renumber[f] for f in pre) for _, pre, _, _ in kept]
    add_l = [sorted(renumber[f] for f in add) for _, _, add, _ in kept]
    del_l = [sorted(renumber[f] for f in delete) for _, _, _, delete in kept]

    def mask(indices: list[int]) -> int:
        m = 0
        for i in indices:
            m |= 1 << i
        return m

    return GroundTask(
        name=problem.name,
        facts=[fact_string(fact_keys[f]) for f in ordered],
        init=mask([renumber[f] for f in init_ids if f in renumber]),
        goals=sorted(renumber[f] for f in goal_ids),
        operators=[fact_string(key) for key, _, _, _ in kept],
        schema=[key[0] for key, _, _, _ in kept],
        args=[key[1] for key, _, _, _ in kept],
        pre=pre_l,
        add=add_l,
        delete=del_l,
        pre_mask=[mask(p) for p in pre_l],
        add_mask=[mask(a) for a in add_l],
        del_mask=[mask(d) for d in del_l],
        problem=problem,
    )


def ground_text(domain_text: str, problem_text: str) -> GroundTask:
    """Parse and ground a problem given as PDDL text."""
    return ground(parse_problem(domain_text, problem_text))
