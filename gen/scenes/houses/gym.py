"""Home gyms, which only houses have (EQA's SUNCG homes have them; ALFRED's single rooms do not).

SUNCG's gyms hold gym equipment above all, then a table, chairs, a plant, a rug, a television, a
mirror and loudspeakers (EQA's ``obj_counts_by_room.json``). THOR has no gym equipment, so a
lite gym is what THOR's catalogue can say of one: a long mirror on a wall, a bench to train on
(an Ottoman standing free), a low rack against a wall (a SideTable) holding a basketball, a tennis
racket and a baseball bat, a shelving unit for the small things, a towel on a towel bar, a garbage
can, a plant, and a light switch; sometimes a wall television, a poster, a window with blinds.

Optional pieces follow a bedroom's spread (the room's
:class:`~alfred_gen.scenes.procedural.vocab.Contents` is a bedroom's at the house's slot), so no
single room's tables change and ``LitePlanN`` stays as it was.
"""

from __future__ import annotations

from alfred_gen.scenes.procedural.bathroom import add_holder
from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    add_floor_standing,
    add_garbage_can,
    add_light_switch,
    add_shelves_by_a_wall,
    add_side_table,
    add_wall_item,
    add_window,
)
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents

#: Size range (metres) of a home gym: about a bedroom's.
SHAPE = ShapeSpec(width=(3.0, 4.6), depth=(3.0, 4.8), l_shape_share=0.0)

#: Whose optional contents a gym borrows.
CONTENTS_OF = "bedroom"

#: What a gym always holds, and what of its borrowed contents' pickupables it keeps.
SPORTS = (("BasketBall", 1), ("TennisRacket", 1), ("BaseballBat", 1))
_KEPT = frozenset({"Cloth", "CellPhone", "KeyChain", "Watch", "TissueBox"})


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    if add_wall_item(b, "Mirror", round(rng.uniform(1.0, 1.6), 2), 0.4, 1.9) is None:
        raise BuildFailed("no wall for the gym's mirror")
    rect = b.free_spot(round(rng.uniform(1.1, 1.4), 2), round(rng.uniform(0.35, 0.45), 2), clearance=0.6)
    if rect is None:
        raise BuildFailed("no room for the bench")
    b.claim(rect)
    b.add("Ottoman", rect.box(0.0, round(rng.uniform(0.42, 0.48), 2)))
    rack = b.wall_spot(round(rng.uniform(1.1, 1.5), 2), 0.45, access=0.6)
    if rack is None:
        raise BuildFailed("no wall for the rack")
    add_side_table(b, rack, with_drawer=False)
    if add_holder(b, "TowelHolder", round(rng.uniform(0.45, 0.65), 2), 1.2, hang=0.65) is None:
        raise BuildFailed("no wall for the towel bar")
    add_shelves_by_a_wall(b, rng)  # where the small things go (the rack is the sports gear's)
    if contents.has("Television"):
        add_wall_item(b, "Television", round(rng.uniform(0.8, 1.1), 2), 1.3, 1.9, thickness=0.08)
    if contents.has("Poster"):
        add_wall_item(b, "Poster", 0.5, 1.2, 1.9)
    add_floor_standing(b, "HousePlant", 0.4, 0.4, round(rng.uniform(0.6, 1.1), 2), access=0.4, corner=True)
    add_garbage_can(b)
    add_window(b, blinds=contents.has("Blinds"), curtains=contents.has("Curtains"))
    add_light_switch(b)


def pickupables(contents: Contents) -> list[tuple[str, int]]:
    """A basketball, a tennis racket and a baseball bat, and the bedroom's small things a gym
    plausibly holds (a cloth, a phone, keys, a watch, tissues); then a towel for the bar."""
    kept = [(t, n) for t, n in contents.pickupables() if t in _KEPT]
    return [*SPORTS, *kept, ("Towel", 1)]
