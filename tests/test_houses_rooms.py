"""The room types of houses: every type EQA's house filter and questions name is one a house can
have and one the question vocabulary has words for, and a house with each of the houses' own rooms
(dining room, gym, garage) builds with that room furnished as its type and walkable from the start."""

from __future__ import annotations

from collections import Counter

import pytest

from alfred_gen.demo.navigation import NavigationGraph, cell_of
from alfred_gen.eqa.vocabulary import load_vocabulary
from alfred_gen.scenes import get_house
from alfred_gen.scenes.houses import garage, gym
from alfred_gen.scenes.houses.build import HOUSE_MIN_REACHABLE, house_room_types
from alfred_gen.scenes.houses.filter import DEFAULT_REQUIRED
from alfred_gen.scenes.library import simulator
from alfred_gen.sim.scene import AGENT_Y, HOUSE_ROOM_TYPES, ROOM_TYPES

#: The room types only houses have, and what a room of each always holds (from its module).
OWN_ROOMS = {
    "dining_room": {"DiningTable", "Chair"},
    "gym": {"Mirror", "Ottoman", "SideTable", "TowelHolder", *(t for t, _ in gym.SPORTS)},
    "garage": {"Shelf", "Cart", *(t for t, _ in garage.ALWAYS)},
}

#: House numbers whose room types are drawn (cheap: no house is built) to see every type turn up.
DRAWN = range(1, 301)


def _first_house_with(room_type: str) -> int:
    return next(n for n in DRAWN if room_type in house_room_types(n))


def test_the_filter_and_the_questions_name_only_house_room_types() -> None:
    assert set(DEFAULT_REQUIRED) <= set(HOUSE_ROOM_TYPES)
    # Questions name a room by its vocabulary word: every house room type has one, and no other.
    assert set(load_vocabulary().rooms) == set(HOUSE_ROOM_TYPES)
    # EQA's questions name 7 room types (its homes: kitchens, living and dining rooms, bedrooms,
    # bathrooms, gyms, garages).
    assert len(HOUSE_ROOM_TYPES) >= 7
    assert set(OWN_ROOMS) == set(HOUSE_ROOM_TYPES) - set(ROOM_TYPES)


def test_every_house_room_type_is_drawn() -> None:
    drawn = Counter(t for n in DRAWN for t in set(house_room_types(n)))
    assert set(drawn) == set(HOUSE_ROOM_TYPES)
    # The required types are in nearly every house; the rest are not rarities either.
    for room_type in HOUSE_ROOM_TYPES:
        assert drawn[room_type] >= len(DRAWN) // 10, (room_type, drawn)


@pytest.mark.parametrize("room_type", sorted(OWN_ROOMS))
def test_a_house_of_each_own_room_type_has_it_furnished_and_walkable(room_type: str) -> None:
    scene = get_house(_first_house_with(room_type))
    rooms = [r for r in scene.rooms if r.room_type == room_type]
    assert rooms, scene.name
    graph = NavigationGraph(scene.reachable)
    assert scene.start is not None
    walkable = graph.connected_cells((scene.start.x, scene.start.z))
    controller = simulator().open(render=False)
    for room in rooms:
        held = {o.object_type for o in scene.objects if scene.room_of(o.object_id) == room}
        assert OWN_ROOMS[room_type] <= held, (scene.name, room.room_id, sorted(OWN_ROOMS[room_type] - held))
        points = [p for p in scene.reachable if room.contains(*p)]
        assert len(points) >= HOUSE_MIN_REACHABLE[room_type]
        # Every point of the room is walked to from where the house starts the agent ...
        assert {cell_of(*p) for p in points} <= walkable, (scene.name, room.room_id)
        # ... and in the simulator, step by step, to every piece of the room that has a pose.
        posed = sorted(o.object_id for o in scene.objects
                       if scene.room_of(o.object_id) == room and o.object_id in scene.interaction_poses)
        assert posed, (scene.name, room.room_id)
        controller.reset(scene.name)
        for object_id in posed:
            pose = scene.interaction_poses[object_id]
            start = scene.start
            event = controller.step({"action": "TeleportFull", "x": start.x, "y": AGENT_Y, "z": start.z,
                             "rotation": start.rotation, "horizon": start.horizon})
            for action in graph.path((start.x, start.z, start.rotation, start.horizon),
                                     (pose.x, pose.z, pose.rotation, pose.horizon)):
                event = controller.step(action.api_action)
                assert event.metadata["lastActionSuccess"], (scene.name, object_id, event.metadata["errorMessage"])
            where = event.metadata["agent"]["position"]
            assert (where["x"], where["z"]) == pytest.approx((pose.x, pose.z)), (scene.name, object_id)
