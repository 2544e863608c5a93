"""The figures of one house that its listing and the houses bench print (EQA reports the same ones
for its homes: rooms, area, objects, unique objects)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.scenes.houses.filter import coverage, internal_area
from alfred_gen.scenes.houses.names import house_of_scene_num
from alfred_gen.sim.scene import HOUSE_ROOM_TYPES, Scene


@dataclass(frozen=True)
class HouseFigures:
    """``objects`` counts every object instance; ``unique_objects`` the distinct object types;
    ``pickupables`` the instances that can be picked up. ``room_types`` has every type of every
    room (an open-plan room's two included); ``open_plan`` counts the rooms with more than one."""

    house: int
    name: str
    rooms: int
    room_types: tuple[str, ...]
    area: float
    coverage: float
    doorways: int
    reachable: int
    objects: int
    unique_objects: int
    pickupables: int
    open_plan: int = 0

    def room_summary(self) -> str:
        """``kitchen, living_room, 2 bedroom, bathroom``: the rooms by type, in HOUSE_ROOM_TYPES order."""
        counts = Counter(self.room_types)
        parts = []
        for room_type in HOUSE_ROOM_TYPES:
            n = counts[room_type]
            if n:
                parts.append(room_type if n == 1 else f"{n} {room_type}")
        return ", ".join(parts)


def house_figures(scene: Scene) -> HouseFigures:
    """The figures of a house (a Scene with rooms)."""
    pickupable = sum(1 for o in scene.objects if getattr(OBJECT_TYPES.get(o.object_type), "pickupable", False))
    return HouseFigures(
        house=house_of_scene_num(scene.scene_num) or 0,
        name=scene.name,
        rooms=len(scene.rooms),
        room_types=tuple(t for r in scene.rooms for t in r.types),
        area=round(internal_area(scene), 2),
        coverage=round(coverage(scene), 3),
        doorways=len(scene.doorways),
        reachable=len(scene.reachable),
        objects=len(scene.objects),
        unique_objects=len({o.object_type for o in scene.objects}),
        pickupables=pickupable,
        open_plan=sum(1 for r in scene.rooms if r.also),
    )
