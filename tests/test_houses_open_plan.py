"""Open-plan rooms: a house's kitchen that is also its dining room (or living room), or a living room
that is also its dining room, at SUNCG's rates (alfred_gen.scenes.houses.open_plan), built as one
room with two types that holds both types' furniture and counts as both."""

from __future__ import annotations

from collections import Counter

from alfred_gen.eqa.facts import home_rooms
from alfred_gen.scenes import get_house
from alfred_gen.scenes.houses.build import house_room_types, house_rooms
from alfred_gen.scenes.houses.filter import HouseFilter
from alfred_gen.scenes.houses.open_plan import JOINS, SUNCG_COUNTS, join_rooms, open_plan_pair
from alfred_gen.scenes.topdown import ROOM_FLOORS, draw_map
from alfred_gen.sim.scene import Room

#: House numbers whose rooms are drawn (cheap: no house is built).
DRAWN = range(1, 3001)


def test_shares_are_the_engines_counts_under_each_type() -> None:
    assert JOINS[("kitchen", "dining_room")] == SUNCG_COUNTS[("dining room", "refrigerator")] / 576
    assert JOINS[("kitchen", "living_room")] == SUNCG_COUNTS[("living room", "refrigerator")] / 576
    assert JOINS[("living_room", "dining_room")] == SUNCG_COUNTS[("dining room", "sofa")] / 1344
    # One draw picks at most one pair, so the shares must fit in one.
    assert sum(JOINS.values()) <= 1


def test_houses_draw_each_pair_at_its_share() -> None:
    drawn = Counter(open_plan_pair(n) for n in DRAWN)
    for pair, share in JOINS.items():
        spread = 4 * (share * (1 - share) / len(DRAWN)) ** 0.5
        assert abs(drawn[pair] / len(DRAWN) - share) <= spread, (pair, drawn)
    assert open_plan_pair(7) == open_plan_pair(7)


def test_joining_folds_the_second_room_into_the_first_in_its_place() -> None:
    types = ["bedroom", "dining_room", "kitchen", "living_room", "dining_room"]
    assert join_rooms(types, ("kitchen", "dining_room")) == [
        ("bedroom",), ("kitchen", "dining_room"), ("living_room",), ("dining_room",)]
    assert join_rooms(types, None) == [(t,) for t in types]
    assert join_rooms(["kitchen", "bedroom"], ("kitchen", "dining_room")) == [("kitchen",), ("bedroom",)]


def test_room_types_of_a_house_are_its_rooms_own_types() -> None:
    for number in range(1, 50):
        rooms = house_rooms(number)
        assert house_room_types(number) == [r[0] for r in rooms]
        assert sum(len(r) > 1 for r in rooms) <= 1
        pair = open_plan_pair(number)
        if any(len(r) > 1 for r in rooms):
            assert next(r for r in rooms if len(r) > 1) == pair


def test_an_open_plan_room_holds_both_rooms_furniture_and_counts_as_both() -> None:
    number = next(n for n in DRAWN if ("kitchen", "dining_room") in house_rooms(n))
    scene = get_house(number)
    joined = [r for r in scene.rooms if r.also]
    assert [(r.room_id, r.also) for r in joined] == [("kitchen_1", ("dining_room",))], scene.name
    room = joined[0]
    held = Counter(o.object_type for o in scene.objects if scene.room_of(o.object_id) == room)
    assert held["Fridge"] == 1 and held["DiningTable"] >= 1 and held["Chair"] >= 1, held
    assert not any(r.room_type == "dining_room" for r in scene.rooms)
    assert HouseFilter(min_area=0, max_area=1e6, required=("kitchen", "dining_room")).accepts(scene)
    # EQA's facts carry the second type, so the engine's rule for rooms with two names applies.
    facts = {r.room_id: r for r in home_rooms(scene)}
    assert facts["kitchen_1"].types == ("kitchen", "dining_room")
    # The map shows the room's own tint and its stripes of the dining room's.
    colours = {colour for _, colour in draw_map(scene).getcolors(maxcolors=1 << 20)}
    assert {ROOM_FLOORS["kitchen"], ROOM_FLOORS["dining_room"]} <= colours


def test_a_room_record_keeps_its_other_types_and_a_plain_one_writes_as_before() -> None:
    floor = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    joined = Room("kitchen_1", "kitchen", floor, ("dining_room",))
    assert Room.from_dict(joined.to_dict()) == joined and joined.types == ("kitchen", "dining_room")
    plain = Room("bedroom_1", "bedroom", floor)
    assert "also" not in plain.to_dict() and Room.from_dict(plain.to_dict()) == plain
