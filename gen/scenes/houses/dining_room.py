"""Dining rooms, which only houses have (EQA requires one in every home; ALFRED's single rooms have
none): a dining table with four to six chairs, a sideboard of cabinets or shelves, a plant, a
window, a painting and a light switch.

Optional pieces and the pickupables follow a living room's spread (the room's
:class:`~alfred_gen.scenes.procedural.vocab.Contents` is a living room's at the house's slot), so no
single room's tables change and ``LitePlanN`` stays as it was.
"""

from __future__ import annotations

from alfred_gen.domains.catalogue import PLACEMENT
from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    add_cabinet_pair_by_a_wall,
    add_chairs_around,
    add_floor_standing,
    add_light_switch,
    add_shelves_by_a_wall,
    add_table_somewhere,
    add_wall_item,
    add_window,
)
from alfred_gen.scenes.procedural.populate import FLOOR_ITEMS
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents

#: Size range (metres) of a dining room: between a kitchen's and a living room's.
SHAPE = ShapeSpec(width=(3.0, 5.0), depth=(3.2, 5.6), l_shape_share=0.0)

#: Whose optional contents and pickupables a dining room borrows.
CONTENTS_OF = "living_room"


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    furnish_corner(b, contents)
    if contents.has("Window"):
        add_window(b, blinds=contents.has("Blinds"), curtains=contents.has("Curtains"), sill=0.8)
    add_wall_item(b, "Painting", round(rng.uniform(0.6, 1.0), 2), 1.3, 1.9)
    add_light_switch(b)


def furnish_corner(b: RoomBuilder, contents: Contents) -> None:
    """A dining room's own pieces: the table and its chairs, the sideboard, the plant. An open-plan
    room that is also a dining room gets these after its own room's furniture (its window, painting
    and light switch are its own room's)."""
    rng = b.rng
    rect = add_table_somewhere(
        b, "DiningTable", round(rng.uniform(1.2, 1.9), 2), round(rng.uniform(0.8, 1.05), 2),
        round(rng.uniform(0.72, 0.78), 2), clearance=0.6,
    )
    if rect is None:
        raise BuildFailed("no room for the dining table")
    add_chairs_around(b, rect, rng.randint(4, 6))
    if contents.has("Cabinet") or not contents.has("Shelf"):
        add_cabinet_pair_by_a_wall(b)
    if contents.has("Shelf"):
        add_shelves_by_a_wall(b, rng)
    add_floor_standing(b, "HousePlant", 0.4, 0.4, round(rng.uniform(0.6, 1.1), 2), access=0.4, corner=True)


def pickupables(contents: Contents) -> list[tuple[str, int]]:
    """The living room's pickupables that a dining room can hold: what goes on a dining table
    (or on the floor); a pillow, which wants a seat, stays out."""
    table = PLACEMENT["DiningTable"]
    return [(t, n) for t, n in contents.pickupables() if t in table or t in FLOOR_ITEMS]
