"""Open-plan rooms: a house's kitchen that is also its dining room (or living room), or a living
room that is also its dining room, as often as SUNCG's homes have them.

EQA's engine counts an object once under every type of its room (``obj_counts_by_room``, in the
EQA seed facebookresearch/EmbodiedQA, ``data/question-gen/data/obj_counts_by_room.json`` at commit
cd6660f590718d85bedb11ee9326023f4de95ba4; :data:`SUNCG_COUNTS` holds the entries used here). So an
object one room of each type has shows how often rooms of that type have a second one:

- refrigerators: 576 under kitchen, 269 under dining room, 66 under living room: a kitchen is also
  a dining room for 269/576 = 0.467 of them and also a living room for 66/576 = 0.115
  (microwaves, 201/423 = 0.475, and kettles, 237/475 = 0.499, agree);
- sofas: 1,344 under living room, 376 under dining room: a living room is also a dining room for
  376/1344 = 0.280.

The engine asks nothing by room about a room with two names (docs/eqa.md), which is why these rooms
matter for questions per home.

**How a house gets one.** Once its room types are drawn, a house joins at most one pair, drawn from
a stable hash of its name (not from the room draw, so which rooms a house has is unchanged):
kitchen + dining room with :data:`JOINS`' 0.467, living room + dining room with 0.280, kitchen +
living room with 0.115, none with the rest (0.138). The three are one draw, so no room gets three
types, and each share is the share of houses with that pair (each of our houses has about one
kitchen, one living room and one dining room, and the first of each is joined). The pair becomes
one room at the first one's place in the plan, its type the first one's (the kitchen, else the
living room), ``also`` the second; it is as large as the two would have been, and it holds the
first room's furniture and the second one's own pieces (:mod:`alfred_gen.scenes.houses.build`).
A house without both types of its pair joins nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.scenes.houses.names import house_name
from alfred_gen.sim.scene import hash_str

#: SUNCG's counts (EQA's ``obj_counts_by_room.json``, commit above): (engine room name, class) -> count.
SUNCG_COUNTS = {
    ("kitchen", "refrigerator"): 576,
    ("dining room", "refrigerator"): 269,
    ("living room", "refrigerator"): 66,
    ("living room", "sofa"): 1344,
    ("dining room", "sofa"): 376,
}

#: (first type, second type, the room class both counts are of, the engine's name of the first type,
#: of the second): a room of the first type is also of the second for count(second) / count(first).
_JOIN_SOURCES = (
    ("kitchen", "dining_room", "refrigerator", "kitchen", "dining room"),
    ("living_room", "dining_room", "sofa", "living room", "dining room"),
    ("kitchen", "living_room", "refrigerator", "kitchen", "living room"),
)


def join_shares() -> dict[tuple[str, str], float]:
    """(room type, room type it is also) -> the share of houses with that open-plan room."""
    return {(first, second): SUNCG_COUNTS[(second_name, cls)] / SUNCG_COUNTS[(first_name, cls)]
            for first, second, cls, first_name, second_name in _JOIN_SOURCES}


#: The shares, in draw order (module docstring).
JOINS: dict[tuple[str, str], float] = join_shares()


def open_plan_pair(house: int) -> tuple[str, str] | None:
    """The pair of room types house ``house`` joins into one room, or None: one uniform draw from a
    stable hash of its name, against the cumulative :data:`JOINS`."""
    draw = hash_str(f"{house_name(house)}/open plan") / 2**64
    running = 0.0
    for pair, share in JOINS.items():
        running += share
        if draw < running:
            return pair
    return None


def join_rooms(types: Sequence[str], pair: tuple[str, str] | None) -> list[tuple[str, ...]]:
    """Each planned room's types, own type first: ``types`` with the first room of ``pair[1]`` folded
    into the first room of ``pair[0]`` (which keeps its place); unchanged when either is missing."""
    rooms: list[tuple[str, ...]] = [(t,) for t in types]
    if pair is None or pair[0] not in types or pair[1] not in types:
        return rooms
    first, second = types.index(pair[0]), types.index(pair[1])
    rooms[first] = (pair[0], pair[1])
    del rooms[second]
    return rooms
