"""Delete-relaxation heuristics on integer-indexed tasks: FF's relaxed plan with helpful actions.

A heuristic is a callable ``h(state) -> (value, helpful, relaxed_plan)``: ``value`` is an int
(``INF`` when the goal is unreachable even ignoring deletes), ``helpful`` the sorted operator
indices worth trying first (FF's helpful actions) and ``relaxed_plan`` the operators of the relaxed
plan, layer by layer (the search's lookahead tries them); both are empty for heuristics that have
none. States are ints used as bit sets.

The relaxed planning graph is kept as bit sets too: one int per layer holding the facts first
reached there, and per layer the operators that fire (become applicable) there. An operator fires
when ``reached & pre == pre``: one integer operation per operator and layer, instead of walking
fact-to-operator lists and counters in Python, which is what made the heuristic the search's main
cost. Operators are scanned in index order, so the same state gives the same value and helpful
actions on every run.
"""

from __future__ import annotations

from collections.abc import Callable

from alfred_gen.planner.grounding import GroundTask, relaxed_step

INF = 1 << 30

Estimate = tuple[int, list[int], list[int]]  # (value, helpful operators, relaxed plan)
Heuristic = Callable[[int], Estimate]

Operator = tuple[int, int, int]  # (index, precondition mask, add mask)


class _RelaxedGraph:
    """The operators as (index, precondition mask, add mask), in index order, and the goal."""

    def __init__(self, task: GroundTask):
        self.operators: list[Operator] = list(zip(range(len(task.pre_mask)), task.pre_mask, task.add_mask))
        self.goal_mask = task.goal_mask

    def layers(self, state: int) -> tuple[list[int], list[list[Operator]]] | None:
        """Build the relaxed planning graph from ``state`` until every goal is reached.

        Returns ``(new_facts, fired)``: ``new_facts[k]`` the facts first reached at layer k
        (``new_facts[0]`` is the state) and ``fired[k]`` the operators first applicable at layer k,
        in index order (``fired[0]``: those applicable in the state); or None if a goal is
        unreachable.
        """
        goal = self.goal_mask
        reached = state
        new_facts = [state]
        fired: list[list[Operator]] = []
        waiting = self.operators
        while reached & goal != goal:
            grown, now, waiting = relaxed_step(reached, waiting)
            if grown == reached:
                return None
            fired.append(now)
            new_facts.append(grown & ~reached)
            reached = grown
        return new_facts, fired


class FFHeuristic:
    """FF's heuristic: the size of a relaxed plan, and its helpful actions.

    The relaxed plan is extracted backwards layer by layer: the facts needed at layer k are each
    achieved by the first operator (in index order) firing at layer k-1 that adds them, and that
    operator's preconditions become needs at the layers where they first appear. Helpful actions
    (Hoffmann & Nebel 2001): operators applicable in the state that add a fact needed at layer 1.
    """

    name = "hff"

    def __init__(self, task: GroundTask):
        self.graph = _RelaxedGraph(task)

    def __call__(self, state: int) -> Estimate:
        graph = self.graph
        goal = graph.goal_mask
        if state & goal == goal:
            return 0, [], []
        built = graph.layers(state)
        if built is None:
            return INF, [], []
        new_facts, fired = built
        top = len(fired)
        need = [goal & facts for facts in new_facts]
        chosen: list[int] = []  # the relaxed plan, last layer first
        for k in range(top, 0, -1):
            todo = need[k]
            if not todo:
                continue
            for op, pre, add in fired[k - 1]:
                if add & todo:
                    chosen.append(op)
                    todo &= ~add
                    for j in range(1, k):
                        need[j] |= pre & new_facts[j]
                    if not todo:
                        break
        wanted = need[1]
        chosen.reverse()
        return len(chosen), [op for op, _, add in fired[0] if add & wanted], chosen


class MaxLevelHeuristic:
    """The deepest goal layer of the relaxed planning graph (h_max with unit costs), no helpful
    actions: cheaper and less informed than FF, kept for comparison."""

    name = "hmax"

    def __init__(self, task: GroundTask):
        self.graph = _RelaxedGraph(task)

    def __call__(self, state: int) -> Estimate:
        graph = self.graph
        if state & graph.goal_mask == graph.goal_mask:
            return 0, [], []
        built = graph.layers(state)
        if built is None:
            return INF, [], []
        return len(built[1]), [], []


class BlindHeuristic:
    """0 at the goal, 1 elsewhere: turns the searches into plain (breadth-first-like) search."""

    name = "blind"

    def __init__(self, task: GroundTask):
        self.goal_mask = task.goal_mask

    def __call__(self, state: int) -> Estimate:
        return (0 if state & self.goal_mask == self.goal_mask else 1), [], []


#: Heuristics by name, as pyperplan's registry.
HEURISTICS: dict[str, type] = {
    "hff": FFHeuristic,
    "hmax": MaxLevelHeuristic,
    "blind": BlindHeuristic,
}
