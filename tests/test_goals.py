"""Goal conditions per task type over crafted THOR metadata (alfred_gen.replay.goals)."""

from __future__ import annotations

import pytest

from alfred_gen.domains.tasks import CONDITION_TESTS, TaskSpec, task_type_names
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.replay.goals import (
    CONDITION_CHECKS,
    Effects,
    EffectTracker,
    effects_from_state,
    goal_conditions,
    has_goal_check,
    task_from_trajectory,
)


def thing(kind: str, n: int = 0, *, inside: tuple[str, ...] = (), contents: tuple[str, ...] | None = None,
          x: float = 0.0, **state) -> dict:
    """One object's metadata: pickupable unless it has contents (then a receptacle)."""
    oid = f"{kind}|+0{n}.00|+00.90|+00.00"
    return {
        "objectId": oid, "objectType": kind, "name": f"{kind}_{n}", "position": {"x": x, "y": 0.9, "z": 0.0},
        "pickupable": contents is None or kind in ("Bowl", "Pot", "Plate"),
        "receptacle": contents is not None, "toggleable": kind in ("DeskLamp", "FloorLamp", "Faucet", "Microwave"),
        "dirtyable": kind in ("Mug", "Plate", "Bowl"), "isDirty": False, "isToggled": False, "visible": True,
        "temperature": "RoomTemp", "parentReceptacles": list(inside) or None,
        "receptacleObjectIds": None if contents is None else list(contents), **state,
    }


def oid(kind: str, n: int = 0) -> str:
    return f"{kind}|+0{n}.00|+00.90|+00.00"


def meta(*objects: dict, holding: str | None = None) -> dict:
    inventory = [{"objectId": holding, "objectType": holding.split("|")[0]}] if holding else []
    return {"objects": list(objects), "inventoryObjects": inventory}


def status(task: TaskSpec, metadata: dict, **kw) -> tuple[int, int]:
    result = goal_conditions(task, metadata, **kw)
    return result.satisfied, result.total


def test_every_registry_task_type_has_a_goal_check():
    assert all(has_goal_check(name) for name in task_type_names())
    assert not has_goal_check("juggle")


def test_every_condition_test_the_registry_may_name_is_checked():
    assert set(CONDITION_CHECKS) == set(CONDITION_TESTS)


def test_unknown_task_type_is_not_found():
    with pytest.raises(UserError) as caught:
        goal_conditions(TaskSpec("juggle", "Apple"), meta())
    assert caught.value.code == ExitCode.NOT_FOUND


# --- pick_and_place_simple ----------------------------------------------------------------------
def test_pick_and_place_simple():
    task = TaskSpec("pick_and_place_simple", "Apple", "CounterTop")
    placed = meta(thing("Apple", inside=(oid("CounterTop"),)), thing("CounterTop", contents=(oid("Apple"),)))
    result = goal_conditions(task, placed)
    assert (result.satisfied, result.total, result.missing, result.done) == (1, 1, [], True)
    elsewhere = meta(thing("Apple"), thing("CounterTop", contents=()), thing("DiningTable", contents=(oid("Apple"),)))
    result = goal_conditions(task, elsewhere)
    assert (result.satisfied, result.total, result.missing) == (0, 1, ["Apple in/on CounterTop"])


def test_classes_match_exactly_not_as_id_substrings():
    # ALFRED matched "Pot" inside "Potato|..." ids; we do not.
    task = TaskSpec("pick_and_place_simple", "Pot", "CounterTop")
    assert status(task, meta(thing("Potato"), thing("CounterTop", contents=(oid("Potato"),)))) == (0, 1)
    # An unsliced target is not met by a slice of it.
    task = TaskSpec("pick_and_place_simple", "Apple", "CounterTop")
    slice_ = dict(thing("AppleSliced"), objectId=oid("Apple") + "|AppleSliced_1")
    assert status(task, meta(slice_, thing("CounterTop", contents=(slice_["objectId"],)))) == (0, 1)


def test_sliced_pick_and_place_counts_the_slice():
    task = TaskSpec("pick_and_place_simple", "Apple", "CounterTop", object_sliced=True)
    assert status(task, meta(thing("Apple"), thing("CounterTop", contents=(oid("Apple"),)))) == (0, 2)
    slice_ = dict(thing("AppleSliced"), objectId=oid("Apple") + "|AppleSliced_1")
    assert status(task, meta(slice_, thing("CounterTop", contents=()))) == (1, 2)
    assert status(task, meta(slice_, thing("CounterTop", contents=(slice_["objectId"],)))) == (2, 2)


# --- pick_two_obj_and_place ---------------------------------------------------------------------
def test_pick_two_needs_two_distinct_objects_in_one_receptacle():
    task = TaskSpec("pick_two_obj_and_place", "CD", "Shelf")
    both = meta(thing("CD", 1), thing("CD", 2), thing("Shelf", 1, contents=(oid("CD", 1), oid("CD", 2))))
    assert status(task, both) == (2, 2)
    split = meta(thing("CD", 1), thing("CD", 2), thing("Shelf", 1, contents=(oid("CD", 1),)),
                 thing("Shelf", 2, contents=(oid("CD", 2),)))
    assert status(task, split) == (1, 2)
    assert status(task, meta(thing("CD", 1), thing("Shelf", 1, contents=(oid("CD", 1),)))) == (1, 2)
    assert status(task, meta(thing("CD", 1), thing("CD", 2))) == (0, 2)  # no shelf at all


def test_pick_two_sliced_counts_two_slices():
    task = TaskSpec("pick_two_obj_and_place", "Tomato", "Plate", object_sliced=True)
    s1 = dict(thing("TomatoSliced", 1), objectId=oid("Tomato") + "|TomatoSliced_1")
    s2 = dict(thing("TomatoSliced", 2), objectId=oid("Tomato") + "|TomatoSliced_2")
    assert status(task, meta(s1, thing("Plate", contents=(s1["objectId"],)))) == (2, 4)
    assert status(task, meta(s1, s2, thing("Plate", contents=(s1["objectId"], s2["objectId"])))) == (4, 4)


# --- look_at_obj_in_light -----------------------------------------------------------------------
@pytest.mark.parametrize("holding, lamp_on, lamp_visible, expected", [
    (True, True, True, (2, 2)),
    (False, True, True, (1, 2)),
    (True, False, True, (1, 2)),
    (True, True, False, (1, 2)),  # a lamp switched on out of sight does not count
])
def test_look_at_obj_in_light(holding, lamp_on, lamp_visible, expected):
    task = TaskSpec("look_at_obj_in_light", "AlarmClock", toggle_target="DeskLamp")
    state = meta(thing("AlarmClock", isPickedUp=holding), thing("DeskLamp", isToggled=lamp_on, visible=lamp_visible),
                 holding=oid("AlarmClock") if holding else None)
    assert status(task, state) == expected


def test_look_at_holding_the_wrong_class_or_other_lamp_fails():
    task = TaskSpec("look_at_obj_in_light", "AlarmClock", toggle_target="DeskLamp")
    state = meta(thing("AlarmClock"), thing("Book"), thing("FloorLamp", isToggled=True), holding=oid("Book"))
    result = goal_conditions(task, state)
    assert (result.satisfied, result.missing) == (0, ["holding AlarmClock", "a DeskLamp switched on and visible"])


# --- heat / cool / clean ------------------------------------------------------------------------
STATE_TASKS = [
    ("pick_heat_then_place_in_recep", "heated", {"temperature": "Hot"}),
    ("pick_cool_then_place_in_recep", "cooled", {"temperature": "Cold"}),
]


@pytest.mark.parametrize("task_type, verb, changed_state", STATE_TASKS)
def test_state_tasks_from_booked_effects(task_type, verb, changed_state):
    task = TaskSpec(task_type, "Potato", "CounterTop")
    counter = thing("CounterTop", contents=(oid("Potato", 1),))
    state = meta(thing("Potato", 1), thing("Potato", 2), counter)
    book = lambda *ids: Effects(**{verb: frozenset(ids)})  # noqa: E731 - a one-line factory reads best as a lambda
    assert status(task, state, effects=book(oid("Potato", 1))) == (3, 3)
    # Some potato treated, another placed: two of three (ALFRED's "same object" condition).
    result = goal_conditions(task, state, effects=book(oid("Potato", 2)))
    assert (result.satisfied, result.missing) == (2, [f"the {verb} Potato in/on CounterTop"])
    assert status(task, state, effects=book()) == (1, 3)


@pytest.mark.parametrize("task_type, verb, changed_state", STATE_TASKS)
def test_state_tasks_from_state_alone(task_type, verb, changed_state):
    task = TaskSpec(task_type, "Potato", "CounterTop")
    counter = thing("CounterTop", contents=(oid("Potato"),))
    now = meta(thing("Potato", **changed_state), counter)
    assert status(task, now) == (3, 3)
    assert status(task, now, start_metadata=meta(thing("Potato"), counter)) == (3, 3)
    # Already so at the start (a lettuce that starts in the fridge): not treated during the episode.
    assert status(task, now, start_metadata=now) == (1, 3)


def test_heat_sliced_counts_four():
    task = TaskSpec("pick_heat_then_place_in_recep", "Potato", "CounterTop", object_sliced=True)
    slice_id = oid("Potato") + "|PotatoSliced_1"
    state = meta(dict(thing("PotatoSliced"), objectId=slice_id), thing("CounterTop", contents=(slice_id,)))
    assert status(task, state, effects=Effects(heated=frozenset({slice_id}))) == (4, 4)
    # The whole potato was heated, not the slice that was placed: sliced + in place only.
    assert status(task, state, effects=Effects(heated=frozenset({oid("Potato")}))) == (2, 4)


def test_clean_of_a_non_dirtyable_object_needs_the_booking():
    task = TaskSpec("pick_clean_then_place_in_recep", "Lettuce", "CounterTop")
    state = meta(thing("Lettuce"), thing("CounterTop", contents=(oid("Lettuce"),)))
    assert status(task, state) == (1, 3)  # metadata cannot say a lettuce was washed
    assert status(task, state, effects=Effects(cleaned=frozenset({oid("Lettuce")}))) == (3, 3)


def test_clean_of_a_dirtyable_object_from_state():
    task = TaskSpec("pick_clean_then_place_in_recep", "Mug", "CoffeeMachine")
    machine = thing("CoffeeMachine", contents=(oid("Mug"),))
    assert status(task, meta(thing("Mug", isDirty=False), machine),
                  start_metadata=meta(thing("Mug", isDirty=True), machine)) == (3, 3)
    assert status(task, meta(thing("Mug", isDirty=True), machine)) == (1, 3)


# --- movable receptacle -------------------------------------------------------------------------
def test_movable_recep_counts_object_in_mrecep_in_recep():
    task = TaskSpec("pick_and_place_with_movable_recep", "Pen", "Desk", mrecep_target="Bowl")
    stacked = meta(thing("Pen", inside=(oid("Bowl"), oid("Desk"))),
                   thing("Bowl", contents=(oid("Pen"),), inside=(oid("Desk"),)),
                   thing("Desk", contents=(oid("Bowl"), oid("Pen"))))
    assert status(task, stacked) == (3, 3)
    pen_on_desk = meta(thing("Pen", inside=(oid("Desk"),)), thing("Bowl", contents=(), inside=(oid("Desk"),)),
                       thing("Desk", contents=(oid("Bowl"), oid("Pen"))))
    assert status(task, pen_on_desk) == (1, 3)
    # Pen in one bowl, another (empty) bowl on the desk: the stack condition fails.
    two_bowls = meta(thing("Pen", inside=(oid("Bowl", 1),)), thing("Bowl", 1, contents=(oid("Pen"),)),
                     thing("Bowl", 2, contents=(), inside=(oid("Desk"),)), thing("Desk", contents=(oid("Bowl", 2),)))
    result = goal_conditions(task, two_bowls)
    assert (result.satisfied, result.missing) == (2, ["Bowl holding Pen in/on Desk"])


# --- the effect tracker -------------------------------------------------------------------------
def test_tracker_books_alfreds_three_actions():
    fridge = thing("Fridge", contents=(oid("Apple"),))
    start = meta(thing("Apple"), fridge)
    tracker = EffectTracker(start)
    tracker.observe({"action": "CloseObject", "objectId": oid("Fridge")}, start)
    assert tracker.effects().cooled == {oid("Apple")}
    microwave = thing("Microwave", contents=(oid("Egg"),))
    tracker.observe({"action": "ToggleObjectOn", "objectId": oid("Microwave")}, meta(thing("Egg"), microwave))
    assert tracker.effects().heated == {oid("Egg")}
    # A faucet washes what lies in the nearest basin, dirtyable or not.
    near = thing("SinkBasin", 1, contents=(oid("Lettuce"),), x=0.5)
    far = thing("SinkBasin", 2, contents=(oid("Cup"),), x=4.0)
    state = meta(thing("Lettuce"), thing("Cup"), near, far, thing("Faucet", x=0.4))
    tracker.observe({"action": "ToggleObjectOn", "objectId": oid("Faucet")}, state)
    assert tracker.effects().cleaned == {oid("Lettuce")}


def test_tracker_books_observed_state_changes_only():
    start = meta(thing("Mug", isDirty=True), thing("Bread", temperature="Cold"))
    tracker = EffectTracker(start)
    tracker.observe({"action": "PutObject", "objectId": oid("Mug")},
                    meta(thing("Mug", isDirty=False, temperature="Hot"), thing("Bread", temperature="Cold")))
    effects = tracker.effects()
    assert (effects.heated, effects.cooled, effects.cleaned) == ({oid("Mug")}, set(), {oid("Mug")})


def test_effects_from_state_without_start():
    effects = effects_from_state(meta(thing("Egg", temperature="Hot"), thing("Mug", isDirty=False)))
    assert effects.heated == {oid("Egg")} and effects.cleaned == {oid("Mug")} and not effects.cooled


def test_task_from_trajectory():
    traj = {"task_type": "look_at_obj_in_light",
            "pddl_params": {"object_target": "Book", "object_sliced": False, "parent_target": "",
                            "toggle_target": "DeskLamp", "mrecep_target": ""}}
    assert task_from_trajectory(traj) == TaskSpec("look_at_obj_in_light", "Book", toggle_target="DeskLamp")
    for bad in ({}, {"task_type": "x"}, {"task_type": "x", "pddl_params": {"object_target": 1}}, []):
        with pytest.raises(UserError):
            task_from_trajectory(bad)


def test_released_trajectories_read_as_tasks(released_trajectory_files):
    import json

    for path in released_trajectory_files[::10]:
        traj = json.loads(path.read_text())
        task = task_from_trajectory(traj)
        assert has_goal_check(task.task_type)
        assert path.parent.parent.name.startswith(f"{task.task_type}-{task.object_target}")
