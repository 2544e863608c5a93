"""Garages, which only houses have (EQA's SUNCG homes have them; ALFRED's single rooms do not).

SUNCG's garages hold a car, a garage door and motorcycles above all, then wall lamps, plants,
gym equipment, a washer, chairs, wardrobe cabinets (EQA's ``obj_counts_by_room.json``). THOR has
no car, so a lite garage is what THOR's catalogue can say of one: a free bay of floor where a car
would stand (nothing is put there), a shelving unit and a pair of cabinets along the walls, a
cart, a garbage can and a light switch; sometimes a workbench (a Desk), a second shelving unit, a
laundry hamper (for SUNCG's washer), a safe, a window. Boxes, a watering can, a spray bottle and
boots are what it holds, with a ball or a racket on the workbench now and then.

Optional pieces follow a bedroom's spread (the room's
:class:`~alfred_gen.scenes.procedural.vocab.Contents` is a bedroom's at the house's slot), so no
single room's tables change and ``LitePlanN`` stays as it was.
"""

from __future__ import annotations

from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    add_cabinet_pair_by_a_wall,
    add_floor_standing,
    add_garbage_can,
    add_laundry_hamper,
    add_light_switch,
    add_shelves_by_a_wall,
    add_shelving_unit,
    add_window,
)
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents

#: Size range (metres) of a garage: one car's bay and a strip beside it.
SHAPE = ShapeSpec(width=(3.2, 4.4), depth=(4.6, 6.0), l_shape_share=0.0)

#: Whose optional contents a garage borrows.
CONTENTS_OF = "bedroom"

#: The car's bay (metres, width x depth) kept free on the floor when it fits.
CAR_BAY = (2.0, 3.8)

#: What a garage always holds; the cloth of its borrowed contents it keeps; and what it keeps only
#: with a workbench (no other piece of a garage takes a ball or a racket).
ALWAYS = (("Box", 2), ("WateringCan", 1), ("SprayBottle", 1), ("Boots", 1))
_KEPT = frozenset({"Cloth"})
_ON_THE_BENCH = frozenset({"BasketBall", "TennisRacket"})


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    bay = b.free_spot(*CAR_BAY, clearance=0.3)
    if bay is not None:
        b.keep_free.append(bay)
    spot = b.wall_spot(round(rng.uniform(0.9, 1.3), 2), 0.45, access=0.6)
    if spot is None:
        raise BuildFailed("no wall for the garage's shelving")
    add_shelving_unit(b, spot, rng.randint(3, 4), round(rng.uniform(1.5, 1.9), 2))
    add_cabinet_pair_by_a_wall(b)
    if contents.has("Desk"):
        bench = b.wall_spot(round(rng.uniform(1.2, 1.6), 2), 0.6, access=0.8)
        if bench is None:  # its ball or racket would have nowhere to go
            raise BuildFailed("no wall for the workbench")
        b.add("Desk", bench.box(0.0, bench.width, 0.0, 0.6, 0.0, 0.9), rotation=bench.rotation)
    if contents.has("Shelf"):
        add_shelves_by_a_wall(b, rng)
    if add_floor_standing(b, "Cart", 0.6, 0.45, 0.9, access=0.55) is None:
        raise BuildFailed("no wall for the cart")
    if contents.has("LaundryHamper"):
        add_laundry_hamper(b)
    if contents.has("Safe"):
        add_floor_standing(b, "Safe", 0.4, 0.45, 0.4, access=0.6)
    add_garbage_can(b)
    if contents.has("Blinds"):
        add_window(b, sill=1.2)
    add_light_switch(b)


def pickupables(contents: Contents) -> list[tuple[str, int]]:
    """Two boxes, a watering can, a spray bottle and boots, and the bedroom's cloth when its spread
    has one (and its ball or racket when the garage has a workbench to put them on)."""
    keep = _KEPT | _ON_THE_BENCH if contents.has("Desk") else _KEPT
    kept = [(t, n) for t, n in contents.pickupables() if t in keep]
    return [*ALWAYS, *kept]
