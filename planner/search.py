"""Searches over integer-indexed tasks: FF's enforced hill-climbing and greedy best-first search.

A search is a function ``search(task, heuristic, deadline) -> SearchOutcome``. ``ff`` (the default)
is FF's strategy: enforced hill-climbing with breadth-first plateau escape over helpful actions,
and, if that gets stuck, greedy best-first search with preferred operators from the start.

Enforced hill-climbing first tries a lookahead, as YAHSP does (Vidal 2004): it executes the
relaxed plan's operators, in layer order, as long as one of them applies, and jumps to the state
reached if that state is better. On these tasks the relaxed plan is often nearly a real plan (walk,
pick up, walk, put), so one evaluation replaces several breadth-first steps: the median task
needs half the heuristic evaluations.

Determinism: states are ints, successors are tried in operator index order (operators are sorted
by name), and ties in the open lists break by insertion counter, so a problem gives the same plan
whatever PYTHONHASHSEED is.
"""

from __future__ import annotations

import heapq
import time
from collections import deque
from collections.abc import Callable

from alfred_gen.planner.grounding import GroundTask
from alfred_gen.planner.heuristic import INF, Estimate, Heuristic

#: How many heuristic evaluations between two looks at the clock.
_CLOCK_EVERY = 32


class SearchTimeout(Exception):
    """The deadline passed during search."""


class SearchOutcome:
    """What a search found: ``plan`` (operator indices) or None; ``exhausted`` means the whole
    reachable space was searched without reaching the goal, i.e. the task is unsolvable."""

    def __init__(self, plan: list[int] | None, expanded: int = 0, evaluated: int = 0, exhausted: bool = False,
                 search: str = "", notes: list[str] | None = None) -> None:
        self.plan = plan
        self.expanded = expanded
        self.evaluated = evaluated
        self.exhausted = exhausted
        self.search = search
        self.notes: list[str] = notes if notes is not None else []


class _Counter:
    """Counts evaluations and checks the deadline every few of them."""

    def __init__(self, heuristic: Heuristic, deadline: float | None):
        self.heuristic = heuristic
        self.deadline = deadline
        self.evaluated = 0
        self.expanded = 0

    def __call__(self, state: int) -> Estimate:
        self.evaluated += 1
        if self.deadline is not None and self.evaluated % _CLOCK_EVERY == 1 and time.perf_counter() > self.deadline:
            raise SearchTimeout()
        return self.heuristic(state)


def _successors(task: GroundTask, state: int, ops: list[int] | None = None):
    """(op, successor state) for the operators applicable in ``state``, in index order."""
    pre_mask = task.pre_mask
    add_mask = task.add_mask
    del_mask = task.del_mask
    for op in range(len(pre_mask)) if ops is None else ops:
        m = pre_mask[op]
        if state & m == m:
            yield op, (state & ~del_mask[op]) | add_mask[op]


def _lookahead(task: GroundTask, state: int, relaxed_plan: list[int]) -> tuple[int, list[int]]:
    """Execute the relaxed plan's operators from ``state``, each time the first one (in layer order)
    that applies, until none does; the state reached and the operators executed."""
    pre_mask, add_mask, del_mask = task.pre_mask, task.add_mask, task.del_mask
    pending = list(relaxed_plan)
    executed: list[int] = []
    progress = True
    while progress:
        progress = False
        for i, op in enumerate(pending):
            pre = pre_mask[op]
            if state & pre == pre:
                state = (state & ~del_mask[op]) | add_mask[op]
                executed.append(op)
                del pending[i]
                progress = True
                break
    return state, executed


def enforced_hill_climbing(task: GroundTask, heuristic: Heuristic, deadline: float | None = None) -> SearchOutcome:
    """FF's enforced hill-climbing: from the current state, first the relaxed plan lookahead, then
    breadth-first over helpful actions until a state with a strictly better heuristic value; commit
    to it; repeat until the goal."""
    evaluate = _Counter(heuristic, deadline)
    state = task.init
    h, helpful, relaxed_plan = evaluate(state)
    plan: list[int] = []
    outcome = SearchOutcome(None, search="ehc")
    if h >= INF:
        outcome.exhausted = True  # the goal is unreachable even ignoring deletes
        return outcome
    while h > 0:
        if len(relaxed_plan) > 1:  # a single step is the breadth-first search's first try anyway
            ahead, executed = _lookahead(task, state, relaxed_plan)
            if len(executed) > 1:
                h_ahead, helpful_ahead, relaxed_ahead = evaluate(ahead)
                if h_ahead < h:
                    plan.extend(executed)
                    state, h, helpful, relaxed_plan = ahead, h_ahead, helpful_ahead, relaxed_ahead
                    continue
        parents: dict[int, tuple[int, int]] = {state: (-1, -1)}
        queue = deque([(state, helpful)])
        found = None
        while queue and found is None:
            current, current_helpful = queue.popleft()
            evaluate.expanded += 1
            for op, succ in _successors(task, current, current_helpful):
                if succ in parents:
                    continue
                parents[succ] = (current, op)
                h_succ, helpful_succ, relaxed_succ = evaluate(succ)
                if h_succ < h:
                    found = (succ, h_succ, helpful_succ, relaxed_succ)
                    break
                if h_succ < INF:
                    queue.append((succ, helpful_succ))
        if found is None:
            outcome.expanded, outcome.evaluated = evaluate.expanded, evaluate.evaluated
            outcome.notes.append(f"enforced hill-climbing stuck at h={h}")
            return outcome
        succ, h, helpful, relaxed_plan = found
        path = []
        walk = succ
        while walk != state:
            walk, op = parents[walk]
            path.append(op)
        plan.extend(reversed(path))
        state = succ
    outcome.plan = plan
    outcome.expanded, outcome.evaluated = evaluate.expanded, evaluate.evaluated
    return outcome


def greedy_best_first(task: GroundTask, heuristic: Heuristic, deadline: float | None = None) -> SearchOutcome:
    """Greedy best-first search with preferred operators (FF's helpful actions).

    Two open lists, all successors and successors by a helpful action, popped in turn; eager
    evaluation; duplicates are dropped on generation. Complete: if it runs out of states, the task
    has no plan.
    """
    evaluate = _Counter(heuristic, deadline)
    init = task.init
    h0, helpful0, _ = evaluate(init)
    outcome = SearchOutcome(None, search="gbfs")
    if h0 >= INF:
        outcome.exhausted = True
        return outcome
    parents: dict[int, tuple[int, int]] = {init: (-1, -1)}
    info: dict[int, list[int]] = {init: helpful0}
    if h0 == 0:
        outcome.plan = []
        return outcome
    counter = 0
    regular: list[tuple[int, int, int]] = [(h0, counter, init)]
    preferred: list[tuple[int, int, int]] = []
    turn = 0
    goal_state = None
    while (regular or preferred) and goal_state is None:
        use_preferred = preferred and (turn % 2 == 0 or not regular)
        turn += 1
        _, _, state = heapq.heappop(preferred if use_preferred else regular)
        helpful = info.pop(state, None)
        if helpful is None:
            continue  # already expanded from the other list
        evaluate.expanded += 1
        helpful_set = set(helpful)
        for op, succ in _successors(task, state):
            if succ in parents:
                continue
            parents[succ] = (state, op)
            h, succ_helpful, _ = evaluate(succ)
            if h >= INF:
                continue
            if h == 0:
                goal_state = succ
                break
            counter += 1
            info[succ] = succ_helpful
            heapq.heappush(regular, (h, counter, succ))
            if op in helpful_set:
                heapq.heappush(preferred, (h, counter, succ))
    outcome.expanded, outcome.evaluated = evaluate.expanded, evaluate.evaluated
    if goal_state is None:
        outcome.exhausted = True
        return outcome
    path = []
    walk = goal_state
    while walk != init:
        walk, op = parents[walk]
        path.append(op)
    outcome.plan = list(reversed(path))
    return outcome


def ff_search(task: GroundTask, heuristic: Heuristic, deadline: float | None = None) -> SearchOutcome:
    """FF: enforced hill-climbing, and greedy best-first search from scratch if it gets stuck."""
    first = enforced_hill_climbing(task, heuristic, deadline)
    if first.plan is not None or (first.exhausted and first.evaluated <= 1):
        return first
    second = greedy_best_first(task, heuristic, deadline)
    second.expanded += first.expanded
    second.evaluated += first.evaluated
    second.notes = first.notes + second.notes
    return second


#: Searches by name, as pyperplan's registry.
SEARCHES: dict[str, Callable[[GroundTask, Heuristic, float | None], SearchOutcome]] = {
    "ff": ff_search,
    "ehc": enforced_hill_climbing,
    "gbfs": greedy_best_first,
}
