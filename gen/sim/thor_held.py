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

#: Largest extent of the held object as a share of the image height, per held type. THOR's hole
#: in the receptacle's mask is a dome as wide as the frame (its top ~0.39 of the height down).
#: Chosen on the wide sample's puts of each held type (every 20th train demo; rooms replayed
#: in-sample, which for these puts gives the held-out figure): pot puts 0.514 at lite's 0.15, 0.641 at
#: 0.95 (1.1 and more hide later targets: 4-5 picks lost); pan 0.601 to 0.623 at 0.9; plate 0.600
#: to 0.633 at 0.75, 0.627 at 0.6. Checked on every 20th train demo from the 10th (40 demos with
#: such a put, not used for choosing): +4.5 units, but at 0.75 a held plate hid a low cabinet
#: wholly (Plate-None-Cabinet-27, CloseObject: the pick lost); at 0.6 it is kept, so 0.6.
HELD_SPAN: dict[str, float] = {"Pot": 0.95, "Pan": 0.9, "Plate": 0.6}

