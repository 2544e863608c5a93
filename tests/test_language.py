"""Templated language: descriptions name the task's classes, one line per subgoal before End,
deterministic per seed, and ALFRED-family loaders find it in turk_annotations."""

from __future__ import annotations

import pytest

from alfred_gen.demo.language import (
    TEMPLATE_ASSIGNMENT_ID,
    class_words,
    describe,
    plural,
    preposition,
    step_description,
    task_description,
    turk_annotations,
)
from alfred_gen.domains.tasks import make_task

TASKS = [
    (make_task("pick_and_place_simple", "Apple", "Fridge"), ["apple", "fridge"]),
    (make_task("pick_two_obj_and_place", "CellPhone", "Bed"), ["phones", "bed"]),
    (make_task("look_at_obj_in_light", "Book", toggle_target="DeskLamp"), ["book", "desk lamp"]),
    (make_task("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine"), ["mug", "coffee machine"]),
    (make_task("pick_heat_then_place_in_recep", "Potato", "CounterTop", object_sliced=True),
     ["slice of potato", "counter"]),
    (make_task("pick_cool_then_place_in_recep", "Tomato", "DiningTable"), ["tomato", "dining table"]),
    (make_task("pick_and_place_with_movable_recep", "Apple", "CounterTop", "Bowl"), ["apple", "bowl", "counter"]),
]


@pytest.mark.parametrize("task,words", TASKS, ids=[t.task_type for t, _ in TASKS])
def test_task_descriptions_name_the_classes(task, words) -> None:
    for seed in range(6):
        text = task_description(task, seed)
        assert text[0].isupper() and text.endswith(".")
        for word in words:
            assert word in text.lower(), (word, text)
        assert task_description(task, seed) == text  # deterministic


def test_phrasing_varies_with_the_seed() -> None:
    task = make_task("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine")
    assert len({task_description(task, seed) for seed in range(40)}) >= 2


def test_class_words_plurals_and_prepositions() -> None:
    assert class_words("CoffeeMachine") == "coffee machine"
    assert class_words("CounterTop") == "counter"
    assert class_words("SinkBasin") == "sink"
    assert class_words("TVStand") == "TV stand"
    assert [plural(w) for w in ("knife", "glass", "box", "tomato", "key chain", "apple")] == [
        "knives", "glasses", "boxes", "tomatoes", "key chains", "apples"]
    assert preposition("Fridge") == "in" and preposition("CounterTop") == "on"


HIGH_PDDL = [
    {"high_idx": 0, "planner_action": {"action": "GotoLocation", "location": "loc|1|2|0|30"},
     "discrete_action": {"action": "GotoLocation", "args": ["sinkbasin"]}},
    {"high_idx": 1, "planner_action": {"action": "PickupObject", "coordinateObjectId": ["Mug", [0, 0, 0, 0, 0, 0]],
                                       "coordinateReceptacleObjectId": ["SinkBasin", [0, 0, 0, 0, 0, 0]],
                                       "forceVisible": True, "objectId": "Mug|1"},
     "discrete_action": {"action": "PickupObject", "args": ["mug"]}},
    {"high_idx": 2, "planner_action": {"action": "GotoLocation", "location": "loc|1|3|0|30"},
     "discrete_action": {"action": "GotoLocation", "args": ["coffeemachine"]}},
    {"high_idx": 3, "planner_action": {"action": "PutObject", "coordinateObjectId": ["Mug", [0, 0, 0, 0, 0, 0]],
                                       "coordinateReceptacleObjectId": ["CoffeeMachine", [0, 0, 0, 0, 0, 0]],
                                       "forceVisible": True, "objectId": "Mug|1", "receptacleObjectId": "CM|1"},
     "discrete_action": {"action": "PutObject", "args": ["mug", "coffeemachine"]}},
    {"high_idx": 4, "planner_action": {"action": "End", "value": 1}, "discrete_action": {"action": "NoOp", "args": []}},
]


def test_one_line_per_subgoal_before_end() -> None:
    task = make_task("pick_and_place_simple", "Mug", "CoffeeMachine")
    template = describe(task, HIGH_PDDL, seed=3)
    assert len(template["high_descs"]) == len(HIGH_PDDL) - 1
    goto, pickup, goto2, put = template["high_descs"]
    assert "sink" in goto.lower() and "sinkbasin" not in goto.lower()
    assert "mug" in pickup.lower() and "sink" in pickup.lower()
    assert "coffee machine" in goto2.lower()
    assert "mug" in put.lower() and "coffee machine" in put.lower()
    assert describe(task, HIGH_PDDL, seed=3) == template


def test_slices_are_described_as_slices() -> None:
    step = {"high_idx": 5, "planner_action": {"action": "PickupObject",
                                              "coordinateObjectId": ["Apple", [0, 0, 0, 0, 0, 0]],
                                              "coordinateReceptacleObjectId": ["CounterTop", [0, 0, 0, 0, 0, 0]],
                                              "objectId": "Apple|1|2|3|AppleSliced_2"},
            "discrete_action": {"action": "PickupObject", "args": ["apple"]}}
    assert "slice of apple" in step_description(step, 0).lower()


def test_turk_annotations_carry_the_template() -> None:
    template = {"task_desc": "Put a mug in the coffee machine.", "high_descs": ["Go to the sink."]}
    anns = turk_annotations(template)["anns"]
    assert anns == [{"assignment_id": TEMPLATE_ASSIGNMENT_ID, "task_desc": template["task_desc"],
                     "high_descs": template["high_descs"], "votes": [1]}]
    assert TEMPLATE_ASSIGNMENT_ID == "template"


def test_heating_a_cut_object_is_said_of_a_slice() -> None:
    task = make_task("pick_heat_then_place_in_recep", "Potato", "CounterTop", object_sliced=True)
    high = [
        {"high_idx": 0, "planner_action": {"action": "SliceObject", "coordinateObjectId": ["Potato", [0] * 6],
                                           "objectId": "Potato|1"},
         "discrete_action": {"action": "SliceObject", "args": ["potato"]}},
        {"high_idx": 1, "planner_action": {"action": "HeatObject", "objectId": "Microwave|1",
                                           "coordinateReceptacleObjectId": ["Microwave", [0] * 6]},
         "discrete_action": {"action": "HeatObject", "args": ["potato"]}},
    ]
    first, second = describe(task, high, seed=0)["high_descs"]
    assert "slice of" not in first.lower()
    assert "slice of potato" in second.lower() and "microwave" in second.lower()


@pytest.mark.slow  # fast lane: 8 s on a loaded 2-core machine (session 73 --durations)
def test_sample_writes_as_many_generated_annotations_as_asked(tmp_path, cli_in_process) -> None:
    from alfred_gen.demo.language import is_generated
    from alfred_gen.traj.format import load_trajectory

    result = cli_in_process("sample", "--n", "1", "--out", str(tmp_path), "--annotations", "2", "--no-frames",
                            "--demos-per-task", "1")
    assert result.returncode == 0, result.stderr
    (path,) = tmp_path.rglob("traj_data.json")
    anns = load_trajectory(path)["turk_annotations"]["anns"]
    assert [a["assignment_id"] for a in anns] == ["template", "template_1"] and all(is_generated(a) for a in anns)
    assert anns[0] != anns[1]
    assert cli_in_process("sample", "--n", "1", "--out", str(tmp_path / "b"), "--annotations", "0").returncode == 2


def test_a_size_word_needs_a_clear_difference_from_every_peer() -> None:
    from alfred_gen.demo.language.facts import Thing, size_among_peers

    def bowl(name: str, side: float) -> Thing:
        return Thing(f"Bowl|{name}", "Bowl", ((0.0, 0.0, 0.0), (side, side, side)), True, ())

    big, mid, tiny = bowl("a", 0.3), bowl("b", 0.2), bowl("c", 0.1)
    room = {t.object_id: t for t in (big, mid, tiny)}
    assert size_among_peers(big, room) == "large"  # 0.027 m³ against at most 0.008
    assert size_among_peers(tiny, room) == "small"
    assert size_among_peers(mid, room) is None  # neither the biggest nor the smallest
    assert size_among_peers(big, {big.object_id: big}) is None  # nothing to compare with
    assert size_among_peers(big, room, moved={mid.object_id}) is None  # a moved peer's box no longer holds
    close = bowl("d", 0.28)
    assert size_among_peers(big, {big.object_id: big, close.object_id: close}) is None  # 1.23x is no "large"
