"""Every ALFRED task type is feasible in at least 10 rooms of each room type where ALFRED has it.

Feasible here means the room holds what the task needs (the planner and the simulator decide the
rest): an object to pick up and a receptacle that may hold it, plus the task's appliance, lamp,
second instance, movable container or knife.
"""

from __future__ import annotations

from collections import Counter

import pytest

from alfred_gen.domains.catalogue import (
    COLD_SOURCES,
    HEAT_SOURCES,
    LAMPS,
    MOVABLE_RECEPTACLES,
    OBJECT_TYPES,
    SLICING_TOOLS,
    WASH_BASINS,
    can_place,
)
from alfred_gen.scenes import get_scene, scene_numbers
from alfred_gen.sim.scene import Scene

#: Room types where ALFRED has each task type.
ROOMS_OF_TASK = {
    "pick_and_place_simple": ("kitchen", "living_room", "bedroom", "bathroom"),
    "pick_two_obj_and_place": ("kitchen", "living_room", "bedroom", "bathroom"),
    "look_at_obj_in_light": ("living_room", "bedroom"),
    "pick_clean_then_place_in_recep": ("kitchen", "bathroom"),
    "pick_heat_then_place_in_recep": ("kitchen",),
    "pick_cool_then_place_in_recep": ("kitchen",),
    "pick_and_place_with_movable_recep": ("kitchen", "living_room", "bedroom"),
    "slice": ("kitchen",),
}


class Contents:
    """What a room holds, by type."""

    def __init__(self, scene: Scene) -> None:
        self.loose = Counter(o.object_type for o in scene.objects if OBJECT_TYPES[o.object_type].pickupable)
        self.fixed = Counter(o.object_type for o in scene.objects if not OBJECT_TYPES[o.object_type].pickupable)
        self.receptacles = sorted(t for t in self.fixed if OBJECT_TYPES[t].receptacle)

    def places_for(self, object_type: str, exclude: tuple[str, ...] = ()) -> list[str]:
        return [r for r in self.receptacles if r not in exclude and can_place(object_type, r)]


def feasible(task: str, c: Contents) -> bool:
    objects = sorted(c.loose)
    if task == "pick_and_place_simple":
        return any(c.places_for(o) for o in objects)
    if task == "pick_two_obj_and_place":
        return any(
            c.loose[o] >= 2 and any(OBJECT_TYPES[r].capacity >= 2 for r in c.places_for(o)) for o in objects
        )
    if task == "look_at_obj_in_light":
        return bool(LAMPS & set(c.fixed)) and bool(objects)
    if task == "pick_heat_then_place_in_recep":
        return any(
            h in c.fixed and can_place(o, h) and c.places_for(o, exclude=(h,)) for h in HEAT_SOURCES for o in objects
        )
    if task == "pick_cool_then_place_in_recep":
        return any(
            f in c.fixed and can_place(o, f) and c.places_for(o, exclude=(f,)) for f in COLD_SOURCES for o in objects
        )
    if task == "pick_clean_then_place_in_recep":
        return "Faucet" in c.fixed and any(
            b in c.fixed and can_place(o, b) and (OBJECT_TYPES[o].dirtyable or b == "SinkBasin")
            and c.places_for(o, exclude=(b,))
            for b in WASH_BASINS for o in objects
        )
    if task == "pick_and_place_with_movable_recep":
        return any(
            m in c.loose and o != m and can_place(o, m) and c.places_for(m)
            for m in MOVABLE_RECEPTACLES for o in objects
        )
    if task == "slice":
        return bool(SLICING_TOOLS & set(c.loose)) and any(OBJECT_TYPES[o].sliceable for o in objects)
    raise ValueError(task)


@pytest.fixture(scope="module")
def contents_by_type() -> dict[str, list[Contents]]:
    rooms: dict[str, list[Contents]] = {}
    for number in scene_numbers():
        scene = get_scene(number)
        rooms.setdefault(scene.room_type, []).append(Contents(scene))
    return rooms


@pytest.mark.parametrize("task", sorted(ROOMS_OF_TASK))
def test_task_is_feasible_in_ten_rooms_of_each_type_alfred_uses(
    task: str, contents_by_type: dict[str, list[Contents]]
) -> None:
    for room_type in ROOMS_OF_TASK[task]:
        count = sum(feasible(task, c) for c in contents_by_type[room_type])
        assert count >= 10, f"{task} feasible in only {count} {room_type}s"


def test_feasibility_check_can_fail() -> None:
    """The check is not vacuous: an empty room supports nothing, a bare kitchen no heating."""
    empty = Contents(Scene("LitePlanX", 1, "kitchen", (), (), []))
    assert not any(feasible(task, empty) for task in ROOMS_OF_TASK)
    kitchen = Contents(get_scene(1))
    kitchen.fixed.pop("Microwave")
    kitchen.receptacles.remove("Microwave")
    assert not feasible("pick_heat_then_place_in_recep", kitchen)
