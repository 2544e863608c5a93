"""Plan tidying after search: fewer walks, actions done where and when they are needed.

FF's hill-climbing on a navigation domain commits early to anything that shortens the relaxed
plan: raw plans walk to the microwave first "because it is needed eventually", open the microwave
long before anything goes in, carry an apple to the counter only to slice it there after fetching a
knife from where the apple was, or put the knife down wherever they stand next. Such plans are
valid but make long, unnatural demonstrations. This pass keeps the plan's non-walking actions,
re-derives the walks between them (one GotoLocation whenever the next action happens elsewhere),
and improves greedily, first improvement first:

- drop one action, or a pick-up and the next put-down of the same object (a pointless carry), or
  a put-down and the next pick-up of the same object (a pointless put-down);
- put something down at a place the plan stands at anyway (the knife back on the table);
- move an action next to another action done at the same place.

An action that no longer applies may be replaced by the same action on the same object and tool
at another receptacle (slice the apple on the table rather than on the counter it is no longer
carried to). A candidate is accepted only if executing it on the grounded task reaches the goal
and it is shorter, walks included; so the result is always valid, and the fixed candidate order
makes it deterministic.
"""

from __future__ import annotations

from alfred_gen.planner.domain import role_positions
from alfred_gen.planner.grounding import GroundTask

_MAX_ROUNDS = 30


class _Plans:
    """Executes candidate action lists on the task, inserting walks and substituting receptacles."""

    def __init__(self, task: GroundTask):
        self.task = task
        location_mask = 0
        for i, (pred, _) in enumerate(task.fact_keys):
            if pred == "atlocation":
                location_mask |= 1 << i
        here = task.init & location_mask
        self.start = here.bit_length() - 1 if here and not here & (here - 1) else -1
        self.goal_mask = task.goal_mask
        n = len(task.schema)
        self.is_walk = [False] * n
        self.place = [-1] * n  # the (atlocation ?l) fact an operator needs, or -1
        self.pre_rest = list(task.pre_mask)  # preconditions other than where the agent stands
        self.walk: dict[tuple[int, int], int] = {}
        self.by_schema: dict[str, list[int]] = {}
        pre_mask, add_mask = task.pre_mask, task.add_mask
        for op, schema in enumerate(task.schema):
            at = pre_mask[op] & location_mask
            single = at and not at & (at - 1)
            if schema == "gotolocation":
                self.is_walk[op] = True
                dst = add_mask[op] & location_mask
                if single and dst and not dst & (dst - 1):
                    self.walk[(at.bit_length() - 1, dst.bit_length() - 1)] = op
                continue
            if single:
                self.place[op] = at.bit_length() - 1
                self.pre_rest[op] &= ~at
            self.by_schema.setdefault(schema, []).append(op)
        self.schema = task.schema
        self._keys: dict[int, tuple[str, ...]] = {}
        self._groups: dict[tuple[str, ...], list[int]] = {}
        self._sorted: set[str] = set()  # schemas whose operators are in their groups

    def key(self, op: int) -> tuple[str, ...]:
        """What must stay the same when an action is replaced: the action, its object and tool
        (any instance, for a goal action)."""
        key = self._keys.get(op)
        if key is None:
            schema = self.task.schema[op]
            roles = role_positions(schema)
            if roles is None:
                key = (schema,)
            else:
                args, where = self.task.args[op], roles[1]
                key = (
                    schema,
                    args[where["object"]] if "object" in where else "",
                    args[where["tool"]] if "tool" in where else "",
                )
            self._keys[op] = key
        return key

    def alfred(self, op: int) -> str:
        """ALFRED's name of an action ("" for goal actions)."""
        roles = role_positions(self.task.schema[op])
        return roles[0] if roles is not None else ""

    def subject(self, op: int) -> str:
        """The object an action acts on ("" for goal actions)."""
        key = self.key(op)
        return key[1] if len(key) > 1 else ""

    def group(self, key: tuple[str, ...]) -> list[int]:
        """Every operator with this key, in index order. The operators of a schema are sorted into
        their groups all at once, the first time one of them is asked for."""
        group = self._groups.get(key)
        if group is None:
            schema = key[0]
            if schema not in self._sorted:
                self._sorted.add(schema)
                for op in self.by_schema.get(schema, ()):
                    self._groups.setdefault(self.key(op), []).append(op)
            group = self._groups.setdefault(key, [])
        return group

    def run(self, actions: list[int], limit: int = 1 << 30) -> tuple[list[int], list[int]] | None:
        """(plan with walks, actions as executed) if ``actions`` can be executed to the goal in at
        most ``limit`` steps, walks included."""
        task = self.task
        pre_rest, place, walks = self.pre_rest, self.place, self.walk
        del_mask, add_mask = task.del_mask, task.add_mask
        state = task.init
        here = self.start
        walks_left = limit - len(actions)  # walks that still fit within the limit
        plan: list[int] = []
        done: list[int] = []
        for op in actions:
            m = pre_rest[op]
            if state & m != m:
                for alternative in self.group(self.key(op)):
                    m = pre_rest[alternative]
                    if state & m == m:
                        op = alternative
                        break
                else:
                    return None
            need = place[op]
            if need >= 0 and need != here:
                walk = walks.get((here, need))
                if walk is None:
                    return None
                state = (state & ~del_mask[walk]) | add_mask[walk]
                plan.append(walk)
                here = need
                walks_left -= 1
                if walks_left < 0:
                    return None
            state = (state & ~del_mask[op]) | add_mask[op]
            plan.append(op)
            done.append(op)
        if state & self.goal_mask != self.goal_mask:
            return None
        return plan, done


def _candidates(plans: _Plans, actions: list[int]):
    """Changed action lists to try, in a fixed order."""
    n = len(actions)
    place = plans.place
    for i in range(n):  # drop one action
        yield actions[:i] + actions[i + 1 :]
    alfred = [plans.alfred(op) for op in actions]
    # Drop a pointless carry (pick X up ... put X down) or a pointless put-down (put X down ...
    # pick X up again).
    for first, second in (("PickupObject", "PutObject"), ("PutObject", "PickupObject")):
        for i in range(n):
            if alfred[i] == first:
                subject = plans.subject(actions[i])
                for j in range(i + 1, n):
                    if alfred[j] == second and plans.subject(actions[j]) == subject:
                        yield actions[:i] + actions[i + 1 : j] + actions[j + 1 :]
                        break
    places = {place[op] for op in actions}
    for i in range(n):  # put down where the plan goes anyway
        if alfred[i] == "PutObject":
            for alternative in plans.group(plans.key(actions[i])):
                if alternative != actions[i] and place[alternative] in places:
                    yield actions[:i] + [alternative] + actions[i + 1 :]
    visits = [place[op] for op in actions if place[op] >= 0]
    runs = [p for k, p in enumerate(visits) if k == 0 or visits[k - 1] != p]
    if len(runs) == len(set(runs)):
        return  # every place is visited once: moving actions cannot save a walk
    for i in range(n):  # move next to an action at the same place
        p = place[actions[i]]
        rest = actions[:i] + actions[i + 1 :]
        for j, other in enumerate(rest):
            if place[other] == p and other != actions[i]:
                for k in (j, j + 1):
                    if k != i:
                        yield rest[:k] + [actions[i]] + rest[k:]


def tidy_plan(task: GroundTask, plan: list[int]) -> list[int]:
    """A valid plan no longer than ``plan`` (operator indices), tidied as described above; ``plan``
    itself if nothing better is found."""
    plans = _Plans(task)
    if not any(plans.is_walk) or plans.start < 0:
        return plan
    actions = [op for op in plan if not plans.is_walk[op]]
    start = plans.run(actions)
    if start is None or len(start[0]) > len(plan):
        return plan
    best, actions = start
    for _ in range(_MAX_ROUNDS):
        for candidate in _candidates(plans, actions):
            result = plans.run(candidate, len(best) - 1)
            if result is not None and len(result[0]) < len(best):
                best, actions = result
                break
        else:
            break
    return best
