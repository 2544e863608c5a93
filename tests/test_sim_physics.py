"""Lite's ACT-Thor actions: each one's state change, its visible change, its mechanics, its
failures (which change nothing), and the looks of the new states."""

from __future__ import annotations

import math

import numpy as np
import pytest

from alfred_gen.sim import fixtures, forces, kinematics
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.physics_actions import object_mass
from alfred_gen.sim.thor_adapt import adapt_action
from alfred_gen.sim.thor_versions import NATIVE_5X_ACTIONS, THOR_5
from tests.helpers.sim_actions import fails, go, obj, oid, ok

#: The agent faces the dining table (z from -1.0 to -0.2, top at 0.75) from 0.7 m, looking down.
VIEW = (0.0, 0.5, 180, 45)
#: A free point on the table, in the middle of the view.
SPOT = {"x": 0.0, "y": 0.76, "z": -0.45}


def kitchen(show_dirt: bool = False) -> LiteController:
    sim = LiteController(fixtures.kitchen(), render_object_image=True, show_dirt=show_dirt)
    go(sim, *VIEW)
    return sim


def on_table(sim: LiteController, kind: str) -> str:
    """The object of that type, moved to SPOT on the dining table."""
    object_id = oid(sim, kind)
    ok(sim, "PickupObject", objectId=object_id, forceAction=True)
    ok(sim, "PlaceObjectAtPoint", objectId=object_id, position=SPOT)
    return object_id


def frame(sim: LiteController) -> np.ndarray:
    return np.array(sim.last_event.frame)


def changed(a: np.ndarray, b: np.ndarray) -> int:
    return int(np.count_nonzero((a != b).any(axis=2)))


def center(sim: LiteController, object_id: str) -> tuple[float, float, float]:
    c = obj(sim, object_id)["axisAlignedBoundingBox"]["center"]
    return (c["x"], c["y"], c["z"])


def bottom(sim: LiteController, object_id: str) -> float:
    box = obj(sim, object_id)["axisAlignedBoundingBox"]
    return box["center"]["y"] - box["size"]["y"] / 2


def pixels(sim: LiteController, object_id: str) -> int:
    mask = sim.last_event.instance_masks.get(object_id)
    return 0 if mask is None else int(mask.sum())


def test_place_object_at_point_puts_it_on_the_surface_below_and_refuses_an_occupied_spot() -> None:
    sim = kitchen()
    mug = on_table(sim, "Mug")
    table = oid(sim, "DiningTable")
    assert obj(sim, mug)["parentReceptacles"] == [table] and not obj(sim, mug)["isPickedUp"]
    assert bottom(sim, mug) == pytest.approx(0.75)
    assert center(sim, mug)[0] == pytest.approx(0.0) and center(sim, mug)[2] == pytest.approx(-0.45)
    assert pixels(sim, mug) >= 10
    ok(sim, "RemoveFromScene", objectId=mug)
    potato = on_table(sim, "Potato")
    tomato = oid(sim, "Tomato")  # not a receptacle: it cannot rest where the potato is
    fails(sim, {"action": "PlaceObjectAtPoint", "objectId": tomato, "position": SPOT}, "no room")
    assert obj(sim, potato)["parentReceptacles"] == [table]
    fails(sim, {"action": "PlaceObjectAtPoint", "objectId": table, "position": SPOT}, "not pickupable")


def test_forced_pickup_reaches_anything_but_put_keeps_alfreds_reach_rule() -> None:
    sim = kitchen()
    egg = oid(sim, "Egg")  # shut in the fridge behind the agent
    fails(sim, {"action": "PickupObject", "objectId": egg}, "closed receptacle")
    ok(sim, "PickupObject", objectId=egg, forceAction=True)
    assert obj(sim, egg)["isPickedUp"]
    fridge = oid(sim, "Fridge")
    fails(sim, {"action": "PutObject", "objectId": egg, "receptacleObjectId": fridge, "forceAction": True})


def test_drop_shows_the_object_where_it_fell() -> None:
    sim = kitchen()
    mug = oid(sim, "Mug")
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    held = frame(sim)
    ok(sim, "DropHandObject")
    assert obj(sim, mug)["parentReceptacles"] is None and bottom(sim, mug) == pytest.approx(0.0)
    assert changed(held, frame(sim)) > 50 and pixels(sim, mug) >= 10


def _steps(metres: float) -> float:
    """A travel in whole 0.01 m steps (kinematics.travel moves step by step)."""
    return math.floor(metres / kinematics.STEP + 1e-9) * kinematics.STEP


def test_forces_move_light_objects_further_and_twice_the_force_four_times_as_far() -> None:
    speed = forces.launch_speed(10.0, 0.25)
    assert speed == pytest.approx(2 * forces.launch_speed(10.0, 0.5))
    assert speed == pytest.approx(2 * forces.launch_speed(5.0, 0.25))
    assert forces.slide_distance(forces.launch_speed(20.0, 1.0)) == pytest.approx(
        4 * forces.slide_distance(forces.launch_speed(10.0, 1.0)))
    assert forces.flight_distance(speed, 0.8) > forces.flight_distance(speed, 0.2) > 0.0
    assert forces.flight_distance(speed, 0.0) == 0.0
    assert forces.slide_distance(1e6) == forces.MAX_METRES
    with pytest.raises(ValueError):
        forces.launch_speed(10.0, 0.0)


def test_throw_flies_along_the_heading_lands_slides_and_goes_further_than_a_put() -> None:
    sim = kitchen()
    mug = oid(sim, "Mug")
    table = oid(sim, "DiningTable")
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    hand, hand_bottom = center(sim, mug), bottom(sim, mug)
    held = frame(sim)
    ok(sim, "ThrowObject", moveMagnitude=10)
    speed = forces.launch_speed(10, object_mass(sim.world.by_id[mug]))
    flight = forces.flight_distance(speed, hand_bottom)  # the floor is below the hand
    x, _, z = center(sim, mug)
    assert hand_bottom > 0.75  # above the table it lands on
    assert x == pytest.approx(hand[0])  # heading 180 is -z
    assert z == pytest.approx(hand[2] - _steps(flight) - _steps(forces.slide_distance(speed)))
    assert obj(sim, mug)["parentReceptacles"] == [table] and bottom(sim, mug) == pytest.approx(0.75)
    assert changed(held, frame(sim)) > 50 and pixels(sim, mug) >= 10
    thrown = z
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    ok(sim, "PutObject", objectId=mug, receptacleObjectId=table)
    assert center(sim, mug)[2] > thrown  # a put lands nearer the agent than the throw


def test_the_same_throw_carries_a_light_object_further_than_a_heavy_one() -> None:
    landed = {}
    for kind in ("Potato", "Tomato"):  # 0.17 kg and 0.40 kg
        sim = kitchen()
        thing = oid(sim, kind)
        ok(sim, "PickupObject", objectId=thing, forceAction=True)
        start = center(sim, thing)
        ok(sim, "ThrowObject", moveMagnitude=8)
        landed[kind] = start[2] - center(sim, thing)[2]
    assert landed["Potato"] > landed["Tomato"] > 0.1


def test_throw_stops_at_a_wall_and_falls() -> None:
    sim = kitchen()
    mug = oid(sim, "Mug")
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    go(sim, -1.5, 0.0, 270)  # facing the x = -2.5 wall, nothing on the floor between
    ok(sim, "ThrowObject", moveMagnitude=300)
    box = obj(sim, mug)["axisAlignedBoundingBox"]
    assert box["center"]["x"] - box["size"]["x"] / 2 >= -2.5 - 1e-6  # not into the wall
    assert box["center"]["x"] < -2.3  # but all the way to it
    assert bottom(sim, mug) == pytest.approx(0.0)
    fails(sim, {"action": "ThrowObject"}, "not holding")


def test_push_slides_by_force_over_mass_until_friction_stops_it() -> None:
    sim = kitchen()
    mug = on_table(sim, "Mug")
    mass = object_mass(sim.world.by_id[mug])
    start = center(sim, mug)
    before = frame(sim)
    ok(sim, "DirectionalPush", objectId=mug, moveMagnitude=15, pushAngle=0)
    pushed = center(sim, mug)
    away = _steps(forces.slide_distance(forces.launch_speed(15, mass)))
    assert 0.1 < away < 0.18  # short of the plate
    assert pushed[2] == pytest.approx(start[2] - away)  # away: -z
    assert pushed[0] == pytest.approx(start[0]) and pushed[1] == pytest.approx(start[1])
    assert changed(before, frame(sim)) > 20
    after_push = frame(sim)
    ok(sim, "DirectionalPush", objectId=mug, moveMagnitude=6, pushAngle=180)
    closer = _steps(forces.slide_distance(forces.launch_speed(6, mass)))
    assert center(sim, mug)[2] == pytest.approx(pushed[2] + closer) and 0 < closer < away / 4  # closer: +z
    assert changed(after_push, frame(sim)) > 5


def test_the_same_push_slides_a_heavy_object_less_far() -> None:
    slid = {}
    for kind in ("Mug", "Pan"):  # 0.24 kg and 1.18 kg
        sim = kitchen()
        thing = on_table(sim, kind)
        start = center(sim, thing)
        ok(sim, "DirectionalPush", objectId=thing, moveMagnitude=30, pushAngle=180)  # towards the agent
        slid[kind] = center(sim, thing)[2] - start[2]
    assert slid["Mug"] > 4 * slid["Pan"] > 0


def test_push_stops_against_an_object_and_off_the_edge_falls() -> None:
    sim = kitchen()
    mug = on_table(sim, "Mug")
    plate = oid(sim, "Plate")  # x -0.22..0.02, z -0.92..-0.68: in the way
    ok(sim, "DirectionalPush", objectId=mug, moveMagnitude=250, pushAngle=0)
    mug_box = obj(sim, mug)["axisAlignedBoundingBox"]
    plate_box = obj(sim, plate)["axisAlignedBoundingBox"]
    gap = (mug_box["center"]["z"] - mug_box["size"]["z"] / 2) - (plate_box["center"]["z"] + plate_box["size"]["z"] / 2)
    assert 0.0 <= gap < 0.011  # stopped in the last step before touching it
    ok(sim, "DirectionalPush", objectId=mug, moveMagnitude=250, pushAngle=180)  # back over the near edge
    assert obj(sim, mug)["parentReceptacles"] is None and bottom(sim, mug) == pytest.approx(0.0)


def test_push_refuses_furniture_held_objects_and_unseen_objects() -> None:
    sim = kitchen()
    table = oid(sim, "DiningTable")
    fails(sim, {"action": "DirectionalPush", "objectId": table, "moveMagnitude": 50}, "furniture")
    mug = oid(sim, "Mug")
    fails(sim, {"action": "DirectionalPush", "objectId": mug, "moveMagnitude": 50}, "not interactable")
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    fails(sim, {"action": "DirectionalPush", "objectId": mug, "moveMagnitude": 50}, "hand")
    fails(sim, {"action": "DirectionalPush", "objectId": oid(sim, "Potato"), "moveMagnitude": -1}, "positive")


def test_break_leaves_shards_that_cannot_be_picked_up() -> None:
    sim = kitchen()
    mug = on_table(sim, "Mug")
    ok(sim, "FillObjectWithLiquid", objectId=mug, fillLiquid="wine")
    before = frame(sim)
    ok(sim, "BreakObject", objectId=mug)
    state = obj(sim, mug)
    assert state["isBroken"] and state["breakable"] and not state["isFilledWithLiquid"]
    assert changed(before, frame(sim)) > 20
    fails(sim, {"action": "BreakObject", "objectId": mug}, "already broken")
    fails(sim, {"action": "PickupObject", "objectId": mug}, "broken")
    fails(sim, {"action": "FillObjectWithLiquid", "objectId": mug}, "broken")
    fails(sim, {"action": "BreakObject", "objectId": oid(sim, "Potato")}, "not breakable")


def test_an_object_breaking_in_the_hand_falls_from_it() -> None:
    sim = kitchen()
    plate = oid(sim, "Plate")
    ok(sim, "PickupObject", objectId=plate, forceAction=True)
    ok(sim, "BreakObject", objectId=plate)
    assert sim.last_event.metadata["inventoryObjects"] == []
    assert obj(sim, plate)["isBroken"] and bottom(sim, plate) == pytest.approx(0.0)


def test_dirt_shows_only_when_asked_so_alfreds_frames_stay_as_recorded() -> None:
    for show in (False, True):
        sim = kitchen(show_dirt=show)
        mug = on_table(sim, "Mug")
        before = frame(sim)
        ok(sim, "DirtyObject", objectId=mug)
        assert obj(sim, mug)["isDirty"]
        assert (changed(before, frame(sim)) > 20) is show
        fails(sim, {"action": "DirtyObject", "objectId": mug}, "already dirty")
        ok(sim, "CleanObject", objectId=mug)
        assert changed(before, frame(sim)) == 0
    fails(sim, {"action": "DirtyObject", "objectId": oid(sim, "Potato")}, "not dirtyable")


def test_fill_shows_the_liquid_and_empty_takes_it_away() -> None:
    sim = kitchen()
    cup = on_table(sim, "Cup")
    before = frame(sim)
    fails(sim, {"action": "FillObjectWithLiquid", "objectId": cup, "fillLiquid": "milk"}, "fillLiquid")
    ok(sim, "FillObjectWithLiquid", objectId=cup, fillLiquid="coffee")
    assert obj(sim, cup)["isFilledWithLiquid"]
    filled = frame(sim)
    assert changed(before, filled) > 10
    fails(sim, {"action": "FillObjectWithLiquid", "objectId": cup}, "already filled")
    ok(sim, "EmptyLiquidFromObject", objectId=cup)
    assert not obj(sim, cup)["isFilledWithLiquid"] and changed(before, frame(sim)) == 0
    fails(sim, {"action": "EmptyLiquidFromObject", "objectId": cup}, "already empty")
    fails(sim, {"action": "FillObjectWithLiquid", "objectId": oid(sim, "Plate")}, "cannot be filled")


def test_a_held_object_can_be_filled_and_shows_it_in_the_hand() -> None:
    sim = kitchen()
    mug = oid(sim, "Mug")
    ok(sim, "PickupObject", objectId=mug, forceAction=True)
    before = frame(sim)
    ok(sim, "FillObjectWithLiquid", objectId=mug)  # the hand is within reach without forceAction
    assert changed(before, frame(sim)) > 10


def test_remove_from_scene_takes_the_object_and_its_contents_away() -> None:
    sim = kitchen()
    bowl = on_table(sim, "Bowl")
    apple = oid(sim, "Apple")
    ok(sim, "PickupObject", objectId=apple, forceAction=True)
    ok(sim, "PlaceObjectAtPoint", objectId=apple, position={"x": 0.0, "y": 0.9, "z": -0.45})
    assert obj(sim, apple)["parentReceptacles"][0] == bowl
    before = frame(sim)
    ok(sim, "RemoveFromScene", objectId=bowl)
    ids = {o["objectId"] for o in sim.last_event.metadata["objects"]}
    assert bowl not in ids and apple not in ids
    assert changed(before, frame(sim)) > 50 and bowl not in sim.last_event.instance_masks
    fails(sim, {"action": "RemoveFromScene", "objectId": oid(sim, "CounterTop")}, "part of the room")


def test_an_open_book_looks_open() -> None:
    sim = LiteController(fixtures.bedroom(), render_object_image=True)
    book = oid(sim, "Book")
    go(sim, 0.0, 0.0, 0, 45)
    ok(sim, "PickupObject", objectId=book, forceAction=True)
    before = frame(sim)
    ok(sim, "OpenObject", objectId=book, forceAction=True)
    assert obj(sim, book)["isOpen"] and changed(before, frame(sim)) > 10
    ok(sim, "CloseObject", objectId=book, forceAction=True)
    assert changed(before, frame(sim)) == 0


def test_a_lit_candle_has_a_flame_and_a_laptop_switched_on_a_lit_screen() -> None:
    from alfred_gen.sim.scene import Box
    from alfred_gen.sim.shapes import state_parts

    candle = Box((0.0, 0.8, 0.0), (0.05, 0.97, 0.05))
    flame = state_parts("Candle", candle, lit=True)
    assert len(flame) == 1 and flame[0][0].lo[1] >= candle.hi[1] - 1e-9 and flame[0][1].part == "flame"
    assert state_parts("Candle", candle, lit=False) == []
    laptop = Box((0.0, 0.8, 0.0), (0.4, 1.09, 0.3))
    screen = state_parts("Laptop", laptop, lit=True, is_open=True)
    assert [tone.part for _, tone in screen] == ["screen_on"]
    assert state_parts("Laptop", laptop, lit=True, is_open=False) == []  # a closed lid hides it


def test_the_same_actions_give_the_same_state_and_frames() -> None:
    runs = []
    for _ in range(2):
        sim = kitchen(show_dirt=True)
        mug = on_table(sim, "Mug")
        for action in ({"action": "DirectionalPush", "objectId": mug, "moveMagnitude": 30, "pushAngle": 90},
                       {"action": "DirtyObject", "objectId": mug},
                       {"action": "PickupObject", "objectId": mug},
                       {"action": "ThrowObject", "moveMagnitude": 80},
                       {"action": "BreakObject", "objectId": mug, "forceAction": True}):
            ok(sim, action)
        runs.append((sim.last_event.metadata["objects"], frame(sim).tobytes()))
    assert runs[0] == runs[1]


def test_thor5_takes_the_act_thor_actions_as_they_are() -> None:
    for name in NATIVE_5X_ACTIONS:
        action = {"action": name, "objectId": "Mug|+00.00|+00.95|+02.10", "forceAction": True}
        assert adapt_action(THOR_5, action, {"objects": [], "agent": {}}) == [action]
