"""What an open-plan room holds of its second type: that type's own pieces, put in after the room's
own type has furnished it (:mod:`alfred_gen.scenes.houses.open_plan` says which rooms are joined).

A kitchen that is also a dining room gets a dining room's table, chairs, sideboard and plant; a room
that is also a living room gets a living room's sofa group (sofa, and the coffee table and side
tables its contents have) and a television on a wall. The window, painting and light switch are the
room's own type's, so none is doubled.
"""

from __future__ import annotations

from collections.abc import Callable

from alfred_gen.scenes.houses import dining_room
from alfred_gen.scenes.procedural.furnish import BuildFailed, RoomBuilder, add_wall_item
from alfred_gen.scenes.procedural.living_room import add_sofa_group
from alfred_gen.scenes.procedural.vocab import Contents


def living_corner(b: RoomBuilder, contents: Contents) -> None:
    """A living room's sofa group and a television on a wall (a living room's defining pieces)."""
    add_sofa_group(b, contents)
    if add_wall_item(b, "Television", round(b.rng.uniform(0.9, 1.3), 2), 1.0, 1.65, thickness=0.08) is None:
        raise BuildFailed("no wall for the television")


#: Second room type -> how its own pieces go into an open-plan room.
CORNERS: dict[str, Callable[[RoomBuilder, Contents], None]] = {
    "dining_room": dining_room.furnish_corner,
    "living_room": living_corner,
}
