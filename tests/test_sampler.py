"""Task-tuple feasibility, active balancing, trial ids and shards.

The feasibility rules are checked against an independent re-statement written here straight from
the scene's objects and the catalogue tables, so a bug in gen/feasibility.py cannot hide itself.
"""

from __future__ import annotations

import datetime
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alfred_gen.domains import catalogue
from alfred_gen.domains.tasks import task_type_names, task_types
from alfred_gen.sample.balance import BalancedSampler, normalised_entropy, slot_balance, uniform_sample
from alfred_gen.sample.feasibility import (
    SceneContents,
    TaskTuple,
    candidate_tuples,
    feasible_tuples,
    recorded_scene,
    scene_contents,
    scene_name,
    why_infeasible,
)
from alfred_gen.sample.trial_ids import spawn_seed, trial_id
from alfred_gen.scenes import get_scene

# ALFRED's heatable / coolable / cleanable classes (VAL_ACTION_OBJECTS), restated for the check.
HEAT = {"Apple", "AppleSliced", "Bread", "BreadSliced", "Cup", "Egg", "Mug", "Plate", "Potato", "PotatoSliced",
        "Tomato", "TomatoSliced"}
COOL = HEAT | {"Bowl", "Lettuce", "LettuceSliced", "Pan", "Pot", "WineBottle"}
CLEAN = {"Apple", "AppleSliced", "Bowl", "ButterKnife", "Cloth", "Cup", "DishSponge", "Egg", "Fork", "Kettle",
         "Knife", "Ladle", "Lettuce", "LettuceSliced", "Mug", "Pan", "Plate", "Pot", "Potato", "PotatoSliced",
         "SoapBar", "Spatula", "Spoon", "Tomato", "TomatoSliced"}
ROOMS = {
    "pick_and_place_simple": {"kitchen", "living_room", "bedroom", "bathroom"},
    "pick_two_obj_and_place": {"kitchen", "living_room", "bedroom", "bathroom"},
    "look_at_obj_in_light": {"living_room", "bedroom"},
    "pick_clean_then_place_in_recep": {"kitchen", "bathroom"},
    "pick_heat_then_place_in_recep": {"kitchen"},
    "pick_cool_then_place_in_recep": {"kitchen"},
    "pick_and_place_with_movable_recep": {"kitchen", "living_room", "bedroom"},
}
TOOL = {"pick_heat_then_place_in_recep": ("Microwave", HEAT), "pick_cool_then_place_in_recep": ("Fridge", COOL),
        "pick_clean_then_place_in_recep": ("SinkBasin", CLEAN)}


def independent_problems(t: TaskTuple) -> list[str]:
    """Every rule a tuple breaks, judged from the built scene's objects and the catalogue alone."""
    scene = get_scene(scene_name(t.scene))  # the tuple holds the scene_num files record (10000 + N)
    counts = Counter(o.object_type for o in scene.objects)
    problems = []
    base = t.object[:-6] if t.object.endswith("Sliced") else t.object
    placed = catalogue.SLICED_TYPES[base] if t.object.endswith("Sliced") else t.object
    if scene.room_type not in ROOMS[t.task_type]:
        problems.append("room type")
    if counts[base] < (2 if t.task_type == "pick_two_obj_and_place" else 1):
        problems.append("object missing")
    if not catalogue.OBJECT_TYPES[base].pickupable:
        problems.append("not pickupable")
    if t.object.endswith("Sliced"):
        if not catalogue.OBJECT_TYPES[base].sliceable or counts["Knife"] + counts["ButterKnife"] == 0:
            problems.append("cannot slice")
        if t.task_type == "look_at_obj_in_light":
            problems.append("no sliced variant")
    if counts[t.receptacle] == 0:
        problems.append("receptacle missing")
    if t.task_type == "look_at_obj_in_light":
        if t.receptacle not in ("DeskLamp", "FloorLamp"):
            problems.append("not a lamp")
        return problems
    if catalogue.OBJECT_TYPES[t.receptacle].pickupable:
        problems.append("receptacle is movable")
    if t.task_type in TOOL:
        tool, allowed = TOOL[t.task_type]
        if counts[tool] == 0 or t.object not in allowed or not catalogue.can_place(placed, tool):
            problems.append("tool")
        if t.receptacle == tool:
            problems.append("receptacle is the tool")
    if t.task_type == "pick_and_place_with_movable_recep":
        if counts[t.mrecep] == 0 or t.mrecep not in catalogue.MOVABLE_RECEPTACLES:
            problems.append("mrecep missing")
        if not (catalogue.can_place(placed, t.mrecep) and catalogue.can_place(t.mrecep, t.receptacle)):
            problems.append("mrecep placement")
    else:
        if t.mrecep:
            problems.append("unexpected mrecep")
        if not catalogue.can_place(placed, t.receptacle):
            problems.append("placement")
    if t.task_type == "pick_two_obj_and_place" and catalogue.OBJECT_TYPES[t.receptacle].capacity < 2:
        problems.append("room for two")
    return problems


@pytest.fixture(scope="module")
def everything() -> list[TaskTuple]:
    return feasible_tuples()


@pytest.fixture(scope="module")
def balanced_300(everything: list[TaskTuple]) -> tuple[BalancedSampler, list[TaskTuple]]:
    sampler = BalancedSampler(everything)
    made: list[TaskTuple] = []
    for i in range(300):
        t = sampler.sample(made, set(made), seed=i)
        assert t is not None
        made.append(t)
    return sampler, made


def test_feasible_set_covers_every_task_type_and_room(everything: list[TaskTuple]) -> None:
    assert {t.task_type for t in everything} == set(task_type_names())
    assert {scene_contents(t.scene).room_type for t in everything} == {"kitchen", "living_room", "bedroom",
                                                                     "bathroom"}
    assert any(t.sliced for t in everything)
    assert everything == sorted(set(everything))


def test_balanced_sampling_beats_uniform_in_every_slot(balanced_300, everything) -> None:
    sampler, made = balanced_300
    possible = sampler.possible_values()
    balanced = slot_balance(made, possible)
    uniform = slot_balance(uniform_sample(everything, 300, seed=0), possible)
    for slot in balanced:
        assert balanced[slot] > uniform[slot], (slot, balanced, uniform)
    # The skewed slots of the raw task space are where balancing matters most.
    for slot in ("task_type", "receptacle", "scene"):
        assert balanced[slot] > uniform[slot] + 0.05, (slot, balanced, uniform)
    task_counts = Counter(t.task_type for t in made)
    assert max(task_counts.values()) - min(task_counts.values()) <= 0.1 * len(made), task_counts


def test_sampled_tuples_are_feasible_by_an_independent_check(balanced_300) -> None:
    _, made = balanced_300
    assert len(set(made)) == len(made)  # excluded tuples never come back
    for t in made:
        assert independent_problems(t) == [], t


def test_every_feasible_tuple_passes_the_independent_check_in_sample_scenes() -> None:
    for t in feasible_tuples(scenes=[1, 2, 205, 310, 415]):
        assert independent_problems(t) == [], t


def test_the_task_space_is_every_candidate_why_infeasible_passes() -> None:
    # feasible_tuples asks the object rules once per object (a speed-up): the same set as asking
    # why_infeasible of each candidate, infeasible candidates included in the comparison.
    scenes = [1, 2, 205, 310, 415]
    asked = set()
    for scene in scenes:
        contents = scene_contents(recorded_scene(scene))
        for spec_type in task_types():
            if contents.allows(spec_type):
                asked |= {t for t in candidate_tuples(spec_type, contents) if why_infeasible(t, contents) is None}
    found = feasible_tuples(scenes=scenes)
    assert found == sorted(asked, key=TaskTuple.sort_key)
    assert 0 < len(found) < sum(1 for scene in scenes for spec_type in task_types()
                                for _ in candidate_tuples(spec_type, scene_contents(recorded_scene(scene))))


def test_infeasible_tuples_are_named_with_a_reason() -> None:
    assert "not sampled in kitchen" in why_infeasible(TaskTuple("look_at_obj_in_light", 1, "Apple", "DeskLamp"))
    assert "tool" in why_infeasible(TaskTuple("pick_heat_then_place_in_recep", 1, "Apple", "Microwave"))
    assert why_infeasible(TaskTuple("pick_cool_then_place_in_recep", 1, "Knife", "CounterTop"))
    counts = scene_contents(1).counts
    single = next(c for c in ("Bread", "Egg", "Lettuce", "Potato", "Tomato") if counts.get(c) == 1)
    assert "fewer than 2" in why_infeasible(TaskTuple("pick_two_obj_and_place", 1, single, "CounterTop"))
    no_knife = SceneContents(1, "kitchen", {"Apple": 1, "CounterTop": 1})
    assert "slice" in why_infeasible(TaskTuple("pick_and_place_simple", 1, "AppleSliced", "CounterTop"), no_knife)
    with_knife = SceneContents(1, "kitchen", {"Apple": 1, "CounterTop": 1, "Knife": 1})
    assert why_infeasible(TaskTuple("pick_and_place_simple", 1, "AppleSliced", "CounterTop"), with_knife) is None
    assert "cannot hold" in why_infeasible(
        TaskTuple("pick_and_place_with_movable_recep", 1, "Apple", "CounterTop", "Cup"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    scenes=st.lists(st.sampled_from([1, 2, 3, 201, 202, 301, 302, 401, 402]), min_size=1, max_size=4, unique=True),
    types=st.lists(st.sampled_from(task_type_names()), min_size=1, max_size=3, unique=True),
    drop=st.floats(0, 1),
    seed=st.integers(0, 2**31),
)
def test_constraint_propagation_never_yields_an_excluded_or_infeasible_tuple(scenes, types, drop, seed) -> None:
    feasible = feasible_tuples(types, scenes)
    sampler = BalancedSampler(feasible)
    excluded = {t for i, t in enumerate(feasible) if (i * 7919 + seed) % 1000 < drop * 1000}
    made: list[TaskTuple] = []
    for step in range(5):
        t = sampler.sample(made, excluded | set(made), seed=seed + step)
        if t is None:
            assert set(feasible) <= excluded | set(made)
            break
        assert t in feasible and t not in excluded and t not in made
        assert t.task_type in types and t.scene - 10000 in scenes  # LitePlanN's files record 10000 + N
        assert why_infeasible(t) is None
        made.append(t)


def test_sampler_stops_when_every_tuple_is_excluded() -> None:
    feasible = feasible_tuples(["pick_heat_then_place_in_recep"], [1])
    sampler = BalancedSampler(feasible)
    assert sampler.sample([], set(feasible), seed=0) is None
    assert sampler.sample([], set(feasible[1:]), seed=0) == feasible[0]


def test_same_history_and_seed_give_the_same_tuple(everything) -> None:
    sampler = BalancedSampler(everything)
    history = everything[::997]
    assert sampler.sample(history, set(history), seed=5) == sampler.sample(history, set(history), seed=5)


@pytest.mark.parametrize("overused", ["Mug", "Bowl"])
def test_a_class_common_in_another_slot_is_avoided_as_movable_receptacle(overused: str) -> None:
    """The prior counts a class in every slot: a class used a lot as the object is not picked as m."""
    other = {"Mug": "Bowl", "Bowl": "Mug"}[overused]
    feasible = [t for t in feasible_tuples(["pick_and_place_with_movable_recep"], [1])
                if t.object == "Fork" and t.receptacle == "CounterTop" and t.mrecep in ("Mug", "Bowl")]
    assert {t.mrecep for t in feasible} == {"Mug", "Bowl"}
    sampler = BalancedSampler(feasible, noise=0)
    history = [TaskTuple("pick_and_place_simple", 1, overused, "CounterTop")] * 3
    for seed in range(5):
        assert sampler.sample(history, (), seed=seed).mrecep == other


def test_normalised_entropy() -> None:
    assert normalised_entropy({"a": 5, "b": 5}) == pytest.approx(1.0)
    assert normalised_entropy({"a": 10}) == 1.0
    assert normalised_entropy({"a": 10}, n_values=4) == 0.0
    assert normalised_entropy([9, 1]) < normalised_entropy([6, 4]) < 1.0
    assert normalised_entropy({"a": 5, "b": 5}, n_values=4) == pytest.approx(0.5)


def test_task_tuple_names_match_released_alfred_directories(released_trajectory_files) -> None:
    import json

    for path in released_trajectory_files:
        data = json.loads(path.read_text())
        from alfred_gen.domains.tasks import TaskSpec

        spec = TaskSpec.from_pddl_params(data["task_type"], data["pddl_params"])
        parsed = TaskTuple.from_dir_name(path.parent.parent.name)
        assert parsed == TaskTuple.from_task_spec(spec, data["scene"]["scene_num"]), path
        assert parsed.to_task_spec() == spec
        assert parsed.dir_name() == path.parent.parent.name


def test_trial_ids_have_alfreds_shape_and_come_from_the_seed() -> None:
    t = TaskTuple("pick_and_place_simple", 1, "Apple", "CounterTop")
    ids = {trial_id(0, t, a) for a in range(50)}
    assert len(ids) == 50
    for value in ids:
        assert re.fullmatch(r"trial_T\d{8}_\d{6}_\d{6}", value)
        datetime.datetime.strptime(value[len("trial_T"):], "%Y%m%d_%H%M%S_%f")
    assert trial_id(0, t, 3) == trial_id(0, t, 3) != trial_id(1, t, 3)
    assert spawn_seed(0, t, 3) == spawn_seed(0, t, 3) != spawn_seed(0, t, 4)
    assert 0 <= spawn_seed(7, t, 0) < 2**31
    # Scene 1 of the imported ALFRED rooms has lite scene 1's directory names, never its trial ids.
    assert trial_id(0, t, 3, "alfred") != trial_id(0, t, 3) == trial_id(0, t, 3, "lite")
