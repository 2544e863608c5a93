"""The top-down map tints each room of a house by its type, for every type a house can have."""

from __future__ import annotations

from alfred_gen.scenes import get_house
from alfred_gen.scenes.houses.build import house_room_types
from alfred_gen.scenes.topdown import FLOOR, ROOM_FLOORS, draw_map
from alfred_gen.sim.scene import HOUSE_ROOM_TYPES


def test_every_house_room_type_has_its_own_floor_tint() -> None:
    assert set(ROOM_FLOORS) == set(HOUSE_ROOM_TYPES)
    tints = list(ROOM_FLOORS.values())
    assert len(set(tints)) == len(tints)
    assert FLOOR not in tints


def test_a_house_map_shows_the_tint_of_each_of_its_rooms() -> None:
    # The first house with a dining room, a gym or a garage (drawing types builds nothing).
    number = next(n for n in range(1, 301) if {"dining_room", "gym", "garage"} & set(house_room_types(n)))
    scene = get_house(number)
    colours = {colour for _, colour in draw_map(scene).getcolors(maxcolors=1 << 20)}
    for room in scene.rooms:
        assert ROOM_FLOORS[room.room_type] in colours, (scene.name, room.room_type)
