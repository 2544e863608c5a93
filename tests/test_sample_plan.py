"""The plan of a dataset and the chain rule: what job j is depends on (seed, N, options, j) only.

The chain rule is checked against its definition (the first prefix of attempts holding `need`
successes or `max_failures` failures), for any outcomes and any order in which results arrive.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alfred_gen.domains.tasks import task_type_names
from alfred_gen.sample.feasibility import feasible_tuples
from alfred_gen.sample.plan import LOOKAHEAD, DatasetPlan, PlanKey, groups_for
from alfred_gen.sample.schedule import ChainState, walk_chain
from alfred_gen.sample.trial_ids import spawn_seed, trial_id

SCENES = (1, 2, 3, 201, 202, 301, 302, 401, 402)


@pytest.fixture(scope="module")
def space():
    return feasible_tuples(None, SCENES)


def key(seed: int = 0, demos: int = 3) -> PlanKey:
    return PlanKey(seed, (), SCENES, "lite", demos)


def plan_of(space, n: int, seed: int = 0, demos: int = 3) -> DatasetPlan:
    plan = DatasetPlan(key(seed, demos), space)
    plan.extend(groups_for(n, demos))
    return plan


def test_the_stream_of_primaries_does_not_depend_on_n(space) -> None:
    small, large = plan_of(space, 9), plan_of(space, 60)
    assert len(small.primaries) == 3 and len(large.primaries) == 20
    assert large.primaries[:3] == small.primaries
    assert len(set(large.primaries)) == 20  # a tuple is the primary of one group only
    assert plan_of(space, 60, seed=1).primaries != large.primaries
    grown = plan_of(space, 9)
    grown.extend(20)
    assert grown.primaries == large.primaries


def test_balancing_is_decided_from_the_plan(space) -> None:
    """Fourteen groups of one trial: two of each of the seven task types, before any job ran."""
    plan = plan_of(space, 14, demos=1)
    assert Counter(t.task_type for t in plan.primaries) == Counter({name: 2 for name in task_type_names()})


@pytest.mark.parametrize("n, shards", [(10, 3), (14, 2), (3, 5), (31, 4)])
def test_shards_split_the_groups_of_one_plan(space, n: int, shards: int) -> None:
    plan = plan_of(space, n)
    parts = [plan.shard_groups(n, (i, shards)) for i in range(shards)]
    assert sorted(g for part in parts for g in part) == list(range(groups_for(n, 3)))
    assert sum(plan.shard_share(n, (i, shards)) for i in range(shards)) == n
    assert [plan.group_size(g, n) for g in range(groups_for(n, 3))][-1] == n - 3 * (groups_for(n, 3) - 1)


def test_replacements_avoid_the_plan_and_do_not_depend_on_n(space) -> None:
    plan = plan_of(space, 30 + 3 * LOOKAHEAD)
    chosen = {}
    for group in range(10):
        tried = [plan.primaries[group]]
        for _ in range(3):
            replacement = plan.replacement(group, tried)
            assert replacement is not None and replacement not in tried
            assert replacement not in plan.primaries[: group + 1 + LOOKAHEAD]
            tried.append(replacement)
        chosen[group] = tried[1:]
    # The same question gets the same answer, in a plan for another N read back from its saved form.
    other = plan_of(space, 3 * 200)
    again = DatasetPlan.from_json(other.to_json(), key())
    assert again is not None and again.primaries == other.primaries[: len(again.primaries)]
    assert all(again.replacement(g, [plan.primaries[g]]) == chosen[g][0] for g in chosen)


def test_a_replacement_keeps_the_failed_tuples_task_type(space) -> None:
    """So the plan's balance of task types survives failed tuples."""
    n = 14
    plan = plan_of(space, n + LOOKAHEAD, demos=1)
    assert all(plan.replacement(g, [plan.primaries[g]]).task_type == plan.primaries[g].task_type for g in range(n))


def test_in_a_small_space_a_replacement_is_a_later_groups_tuple_with_its_own_trial_ids() -> None:
    small = feasible_tuples(["pick_heat_then_place_in_recep"], [1])
    plan = DatasetPlan(PlanKey(0, ("pick_heat_then_place_in_recep",), (1,), "lite", 3), small)
    plan.extend(len(small) + 1)
    assert plan.complete and sorted(plan.primaries, key=lambda t: t.sort_key()) == small
    replacement = plan.replacement(0, [plan.primaries[0]])
    assert replacement in plan.primaries[1:]
    assert plan.replacement(0, small) is None  # every tuple tried: the group stays short
    # Its attempts for group 0 never share a trial id or spawn seed with its own group's attempts.
    assert trial_id(0, replacement, 0, salt="g0r1") != trial_id(0, replacement, 0)
    assert spawn_seed(0, replacement, 0, salt="g0r1") != spawn_seed(0, replacement, 0)


def test_a_saved_plan_for_other_options_is_not_used(space) -> None:
    data = plan_of(space, 6).to_json()
    assert DatasetPlan.from_json(data, key(seed=1)) is None
    assert DatasetPlan.from_json({**data, "primaries": ["not-a-tuple"]}, key()) is None
    assert DatasetPlan.from_json({"format": 99}, key()) is None


# --------------------------------------------------------------------------------------------
# The chain rule


def prefix(outcomes: list[bool], need: int, max_failures: int) -> list[int] | None:
    """The definition: successes of the first prefix with `need` successes or `max_failures` failures."""
    successes, failures = [], 0
    for attempt, ok in enumerate(outcomes):
        if ok:
            successes.append(attempt)
        else:
            failures += 1
        if len(successes) >= need or failures >= max_failures:
            return successes
    return None


@settings(max_examples=300, deadline=None)
@given(
    outcomes=st.lists(st.booleans(), min_size=12, max_size=12),
    need=st.integers(1, 4),
    max_failures=st.integers(1, 4),
    capacity=st.integers(1, 5),
    order_seed=st.integers(0, 2**32 - 1),
)
def test_the_chain_rule_gives_the_prefix_whatever_order_results_arrive_in(outcomes, need, max_failures, capacity,
                                                                           order_seed) -> None:
    expected = prefix(outcomes, need, max_failures)
    if expected is None:
        return
    last_needed = (expected[-1] if len(expected) >= need else None)
    known: dict[int, bool] = {}
    running: list[int] = []
    started: list[int] = []
    order = random.Random(order_seed)
    while True:
        walk = walk_chain(known.get, set(running), need, max_failures)
        free = capacity - len(running)
        for attempt in walk.start[:max(0, free)]:
            running.append(attempt)
            started.append(attempt)
        if walk.state != ChainState.RUNNING:
            break
        assert running, "a running chain with nothing running and nothing to start"
        done = running.pop(order.randrange(len(running)))
        known[done] = outcomes[done]
    assert walk.successes == expected
    assert (walk.state == ChainState.FILLED) == (len(expected) >= need)
    # Never an attempt the prefix does not hold: no trial made beyond the group's slots.
    stop = len(outcomes)
    seen_s = seen_f = 0
    for attempt, ok in enumerate(outcomes):
        seen_s, seen_f = seen_s + ok, seen_f + (not ok)
        if seen_s >= need or seen_f >= max_failures:
            stop = attempt + 1
            break
    assert sorted(started) == list(range(stop))
    if last_needed is not None:
        assert max(started) >= last_needed


def test_known_outcomes_from_disk_are_used_and_gaps_are_run() -> None:
    """A resumed chain: attempt 0 unknown (its failure record was lost), 1 and 2 on disk."""
    known = {1: True, 2: True}
    walk = walk_chain(known.get, set(), 3, 3)
    assert walk.start == [0] and walk.state == ChainState.RUNNING
    known[0] = False  # it fails again, as it did before
    walk = walk_chain(known.get, set(), 3, 3)
    assert walk.start == [3] and walk.successes == [1, 2]
