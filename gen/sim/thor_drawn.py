"""How small lite draws a small pickupable in a room imported from ALFRED, against its box.

An imported room gives a pickupable the catalogue's box (:mod:`alfred_gen.scenes.alfred.loose`),
which is the extent of THOR's mesh, not what the mesh covers: a spatula is a blade on a thin
handle, a watch a face on a strap, a key chain a ring and two keys. Drawn as the whole box (or the
type's few-box shape), such objects covered several times the pixels THOR's masks of them cover
in ALFRED's frames, which caps the IoU of lite's mask with THOR's at the inverse of that ratio.

Lite therefore draws these types in a box shrunk by :data:`DRAWN_SCALE` on every axis about the
middle of its bottom (it stays resting where it rests, centred where it was), so that its drawn
area matches THOR's. Only drawing (and so sight) uses the shrunk box; placement, reach, physics
and collisions keep the object's box. Procedural rooms are drawn as before: they have no THOR
meshes to match (:meth:`alfred_gen.sim.scene.Scene.from_alfred` tells the rooms apart).
"""

from __future__ import annotations

from alfred_gen.sim.scene import Box

#: Linear scale, per type, of the box a small pickupable is drawn in within a room imported from
#: ALFRED. Fit from THOR's masks: ``1 / sqrt(r)`` for ``r`` the median ratio of lite's pixels of the
#: target to THOR's, over the first-pass held-out replay (each demo in its room built from the other
#: 4 of 5 folds) of every 12th train demo outside the 238 of the shared subset the held-out bench
#: measures (548 demos, 3,532 interactions), rounded to 0.05. Pickupable types with a median ratio
#: of 1.4 or more over at least 5 interactions; the ratio in brackets, then the interactions:
#: Ladle (3.60, 10), Watch (3.52, 10), KeyChain (3.43, 20), Fork (3.01, 11), Spatula (3.01, 12),
#: Spoon (2.72, 14), Candle (2.58, 13), Knife (2.39, 44), PepperShaker (2.36, 5), Pen (2.00, 15),
#: Book (1.79, 14), Pencil (1.75, 13), Cloth (1.64, 23), AlarmClock (1.41, 10). Left whole: pans
#: (1.47), whose contents would stand outside a shrunk pan, and slices (PotatoSliced 2.31,
#: LettuceSliced 1.62), whose masks miss where the slices lie (IoU 0.13 and 0.23, rule 13 of 29 and
#: 10 of 17), not how big they are drawn; tennis rackets (5.02), baseball bats and basketballs were
#: seen once or twice.
DRAWN_SCALE: dict[str, float] = {
    "Ladle": 0.55, "Watch": 0.55, "KeyChain": 0.55, "Fork": 0.6, "Spatula": 0.6, "Spoon": 0.6,
    "Candle": 0.6, "Knife": 0.65, "PepperShaker": 0.65, "Pen": 0.7, "Book": 0.75, "Pencil": 0.75,
    "Cloth": 0.8, "AlarmClock": 0.85,
}


def drawn_scale(object_type: str, from_alfred: bool) -> float:
    """The linear scale ``object_type`` is drawn at: :data:`DRAWN_SCALE`'s in a room imported from
    ALFRED, else 1."""
    return DRAWN_SCALE.get(object_type, 1.0) if from_alfred else 1.0


def shrunk(box: Box, scale: float) -> Box:
    """``box`` scaled by ``scale`` on every axis about the middle of its bottom."""
    if scale == 1.0:
        return box
    (x0, y0, z0), (x1, y1, z1) = box.lo, box.hi
    cx, cz = (x0 + x1) / 2.0, (z0 + z1) / 2.0
    hx, hz = (x1 - x0) * scale / 2.0, (z1 - z0) * scale / 2.0
    return Box((cx - hx, y0, cz - hz), (cx + hx, y0 + (y1 - y0) * scale, cz + hz))
