"""Delete-relaxation heuristics on integer-indexed tasks: FF's relaxed plan with helpful actions.

A heuristic is a callable ``h(state) -> (value, helpful)``: ``value`` is an int (``INF`` when the
goal is unreachable even ignoring deletes) and ``helpful`` the sorted operator indices worth trying
first (FF's helpful actions; empty for heuristics that have none). States are ints used as bit sets.

The relaxed planning graph is built layer by layer with per-operator counters of unsatisfied
preconditions, over plain lists of ints: no sets of strings in the inner loop. Everything iterates
in index order, so the same state gives the same value and helpful actions on every run.
"""

from __future__ import annotations

from typing import Callable

from alfred_gen.planner.grounding import GroundTask, bits

INF = 1 << 30

Heuristic = Callable[[int], tuple[int, list[int]]]


class _RelaxedGraph:
    """Shared precomputation: who consumes each fact, and the precondition counts."""

    def __init__(self, task: GroundTask):
        self.task = task
        self.n_facts = len(task.fact_keys)
        self.pre = task.pre
        self.add = task.add
        self.pre_count = [len(p) for p in task.pre]
        self.consumers: list[list[int]] = [[] for _ in range(self.n_facts)]
        for op, pre in enumerate(task.pre):
            for fact in pre:
                self.consumers[fact].append(op)
        self.no_pre_ops = [op for op, pre in enumerate(task.pre) if not pre]
        self.goals = task.goals
        self.goal_mask = 0
        for g in task.goals:
            self.goal_mask |= 1 << g

    def layers(self, state: int):
        """Build the relaxed planning graph from ``state`` until every goal appears.

        Returns (fact level list, supporter list, ops applicable in state) or None if a goal is
        unreachable. ``supporter[f]`` is the first operator (in layer, then index order) adding f.
        """
        level = [-1] * self.n_facts
        supporter = [-1] * self.n_facts
        counter = self.pre_count[:]
        consumers = self.consumers
        add = self.add
        frontier = bits(state)
        for fact in frontier:
            level[fact] = 0
        goals_left = sum(1 for g in self.goals if level[g] < 0)
        applicable: list[int] = []
        layer = 0
        while True:
            fired: list[int] = list(self.no_pre_ops) if layer == 0 else []
            for fact in frontier:
                for op in consumers[fact]:
                    c = counter[op] - 1
                    counter[op] = c
                    if c == 0:
                        fired.append(op)
            if layer == 0:
                fired.sort()
                applicable = fired
            if goals_left == 0:
                return level, supporter, applicable
            nxt: list[int] = []
            next_level = layer + 1
            for op in fired:
                for fact in add[op]:
                    if level[fact] < 0:
                        level[fact] = next_level
                        supporter[fact] = op
                        nxt.append(fact)
            if not nxt:
                return None
            for g in self.goals:
                if level[g] == next_level:
                    goals_left -= 1
            frontier = nxt
            layer = next_level


class FFHeuristic:
    """FF's heuristic: the size of a relaxed plan, and its helpful actions.

    Helpful actions (Hoffmann & Nebel 2001): operators applicable in the state that add a fact the
    relaxed plan needs at layer 1.
    """

    name = "hff"

    def __init__(self, task: GroundTask):
        self.graph = _RelaxedGraph(task)

    def __call__(self, state: int) -> tuple[int, list[int]]:
        graph = self.graph
        if state & graph.goal_mask == graph.goal_mask:
            return 0, []
        built = graph.layers(state)
        if built is None:
            return INF, []
        level, supporter, applicable = built
        pre = graph.pre
        top = max(level[g] for g in graph.goals)
        buckets: list[list[int]] = [[] for _ in range(top + 1)]
        marked = bytearray(graph.n_facts)
        for g in graph.goals:
            if level[g] > 0 and not marked[g]:
                marked[g] = 1
                buckets[level[g]].append(g)
        chosen = bytearray(len(pre))
        achieved_at = [-1] * graph.n_facts  # layer at which a chosen operator already adds a fact
        add = graph.add
        size = 0
        for layer in range(top, 0, -1):
            for fact in buckets[layer]:
                if achieved_at[fact] == layer:
                    continue
                op = supporter[fact]
                if chosen[op]:
                    continue
                chosen[op] = 1
                size += 1
                for a in add[op]:
                    achieved_at[a] = layer
                for p in pre[op]:
                    lp = level[p]
                    if lp > 0 and not marked[p]:
                        marked[p] = 1
                        buckets[lp].append(p)
        first = buckets[1] if top >= 1 else []
        if not first:
            return size, []
        wanted = 0
        for fact in first:
            wanted |= 1 << fact
        add_mask = graph.task.add_mask
        helpful = [op for op in applicable if add_mask[op] & wanted]
        return size, helpful


class MaxLevelHeuristic:
    """The deepest goal layer of the relaxed planning graph (h_max with unit costs), no helpful
    actions: cheaper and less informed than FF, kept for comparison."""

    name = "hmax"

    def __init__(self, task: GroundTask):
        self.graph = _RelaxedGraph(task)

    def __call__(self, state: int) -> tuple[int, list[int]]:
        graph = self.graph
        if state & graph.goal_mask == graph.goal_mask:
            return 0, []
        built = graph.layers(state)
        if built is None:
            return INF, []
        level = built[0]
        return max(level[g] for g in graph.goals), []


class BlindHeuristic:
    """0 at the goal, 1 elsewhere: turns the searches into plain (breadth-first-like) search."""

    name = "blind"

    def __init__(self, task: GroundTask):
        self.goal_mask = 0
        for g in task.goals:
            self.goal_mask |= 1 << g

    def __call__(self, state: int) -> tuple[int, list[int]]:
        return (0 if state & self.goal_mask == self.goal_mask else 1), []


#: Heuristics by name, as pyperplan's registry.
HEURISTICS: dict[str, type] = {
    "hff": FFHeuristic,
    "hmax": MaxLevelHeuristic,
    "blind": BlindHeuristic,
}
