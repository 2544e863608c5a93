"""How large THOR draws a held object, in a room imported from ALFRED.

THOR keeps a held object at the agent's hand at its real size, so a pot, pan or plate fills the
lower part of the view, and THOR's mask of the counter or table it is then put on has a
dome-shaped hole there. Lite draws a held object at most
:data:`~alfred_gen.sim.pixels.HAND_MAX_SPAN` of the frame high, so in imported rooms its masks of
those receptacles were far too large (pot puts: 1.60x THOR's pixels). Here, per held type, is the
share of the image height THOR's drawing of it covers, read off THOR's receptacle masks at puts
(the hole's width). Procedural rooms keep the small drawing: it hides no target there.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.sim.world import WorldObject

#: Largest extent of the held object as a share of the image height, per held type.
HELD_SPAN: dict[str, float] = {"Pot": 0.95, "Pan": 0.9, "Plate": 0.75}


def held_span(held: Sequence[WorldObject]) -> float | None:
    """The share of the height THOR's drawing of the held group covers, by the type of the object
    held (the one whose parent is not in the group); None when THOR's size is not known."""
    ids = {o.object_id for o in held}
    for obj in held:
        if obj.parent not in ids:
            return HELD_SPAN.get(obj.type_name)
    return None
