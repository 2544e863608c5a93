"""Plan tidying after search: fewer walks, actions done where and when they are needed.

FF's hill-climbing on a navigation domain commits early to any walk that shortens the relaxed plan,
so raw plans walk to the microwave first "because it is needed eventually", open the microwave long
before anything goes in, or walk twice in a row. Such plans are valid but make long, unnatural
demonstrations. This pass keeps the plan's non-walking actions, re-derives the walks between them
(one GotoLocation whenever the next action happens elsewhere), and then improves greedily:

- drop an action if the plan stays valid without it;
- move an action to another position if that makes the plan (walks included) shorter.

Every candidate is checked by executing it on the grounded task, so the result is always valid; the
search order is fixed, so the result is deterministic. Plans here have ~10 actions, so the n^2
candidate moves cost well under a millisecond each.
"""

from __future__ import annotations

from alfred_gen.planner.grounding import GroundTask

_MAX_ROUNDS = 50


class _Walks:
    """Where each operator is done, and the walk operator between two locations."""

    def __init__(self, task: GroundTask):
        self.task = task
        self.index = {name: i for i, name in enumerate(task.operators)}
        self.is_walk = [name.startswith("(gotolocation ") for name in task.operators]
        self.place: list[int] = []  # fact index of the (atlocation ?l) an operator needs, or -1
        location_facts = {i for i, f in enumerate(task.facts) if f.startswith("(atlocation ")}
        self.locations = sorted(location_facts)
        for pre in task.pre:
            at = [f for f in pre if f in location_facts]
            self.place.append(at[0] if len(at) == 1 else -1)
        self.walk: dict[tuple[int, int], int] = {}
        for op, walk in enumerate(self.is_walk):
            if walk:
                (src,) = [f for f in task.pre[op] if f in location_facts]
                (dst,) = [f for f in task.add[op] if f in location_facts]
                self.walk[(src, dst)] = op

    def with_walks(self, actions: list[int]) -> list[int] | None:
        """The actions with the walks they need inserted, if the result is a valid plan."""
        task = self.task
        state = task.init
        plan: list[int] = []
        for op in actions:
            need = self.place[op]
            if need >= 0 and not (state >> need) & 1:
                here = [f for f in self.locations if (state >> f) & 1]
                if len(here) != 1 or (here[0], need) not in self.walk:
                    return None
                walk = self.walk[(here[0], need)]
                state = (state & ~task.del_mask[walk]) | task.add_mask[walk]
                plan.append(walk)
            m = task.pre_mask[op]
            if state & m != m:
                return None
            state = (state & ~task.del_mask[op]) | task.add_mask[op]
            plan.append(op)
        goal = 0
        for g in task.goals:
            goal |= 1 << g
        return plan if state & goal == goal else None


def tidy_plan(task: GroundTask, plan: list[int]) -> list[int]:
    """A valid plan no longer than ``plan``: walks re-derived, useless actions dropped, actions
    moved where they shorten the plan. Returns ``plan`` itself if nothing better is found."""
    walks = _Walks(task)
    if not any(walks.is_walk):
        return plan
    actions = [op for op in plan if not walks.is_walk[op]]
    best = walks.with_walks(actions)
    if best is None or len(best) > len(plan):
        return plan
    for _ in range(_MAX_ROUNDS):
        improved = False
        # Drop an action.
        for i in range(len(actions)):
            candidate = actions[:i] + actions[i + 1 :]
            result = walks.with_walks(candidate)
            if result is not None and len(result) < len(best):
                actions, best, improved = candidate, result, True
                break
        if improved:
            continue
        # Move an action.
        n = len(actions)
        for i in range(n):
            rest = actions[:i] + actions[i + 1 :]
            for j in range(n):
                if j == i:
                    continue
                candidate = rest[:j] + [actions[i]] + rest[j:]
                result = walks.with_walks(candidate)
                if result is not None and len(result) < len(best):
                    actions, best, improved = candidate, result, True
                    break
            if improved:
                break
        if not improved:
            break
    return best
