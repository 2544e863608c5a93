"""Which side of its origin a room's knife lies, where THOR's own masks of it show it.

THOR 2.1 poses a knife on its edge and lets it fall flat, to its own +z or -z, or leaves it
standing; no recorded pose says which (its rotation's x and z are 0). Cast onto the plane through
the origin and turned into the knife's own frame, THOR's masks of knives not yet moved (first
interactions at a quarter-turn yaw, every 2nd train demo outside the shared subset) lie 3 to 7 cm
to own +z in 43 of 218, to own -z in 34, and over the origin in 141, and the side is a fact of the
room: FloorPlan2's 5 of 5 to +z, FloorPlan25's 7 of 8, FloorPlan30's 5 of 6; FloorPlan26's 4 of 5
to -z, FloorPlan28's 6 of 10; FloorPlan12, 13, 18, 21 and 24 almost all standing. Lite drew every
knife as a slab 7 cm wide over both sides (:data:`~alfred_gen.sim.thor_shapes.FLAT_SHAPES`), three
times THOR's pixels (wide sample, held out: 1,518 against 507 over 26 first pickups, IoU 0.184).

The evidence keeps a few rays from the camera through each mask
(:mod:`~alfred_gen.scenes.alfred.sight_facts`), and for a loose object at its start pose its
origin and yaw. Each ray cast onto the horizontal plane through the origin and turned into the
own frame says how far to own +z of the origin that pixel lies (:func:`own_across`). A knife whose
room recorded :data:`MIN_MASKS` masks or more is drawn across the band from the :data:`LOW_SHARE`
quantile of its masks' lowest rays to the :data:`HIGH_SHARE` quantile of their highest
(:func:`blade_band`, at least :data:`MIN_WIDTH` wide): a room whose knives fall to one side draws
its knife there, one whose knives stand draws it narrow, a room of both draws both
(:attr:`~alfred_gen.sim.scene.SceneObject.blade_across`). Drawing only; procedural rooms and a
knife no mask saw draw the type's slab.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.evidence import type_of_name
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import SceneObject
from alfred_gen.sim.world import quarter_turns, turn_horizontal

#: Types whose drawing across their long side follows the room's masks.
BLADE_TYPES = frozenset({"Knife"})
#: Masks of the object the room's demos must have recorded before its band is fitted.
MIN_MASKS = 2
#: The band's low edge: this quantile of the masks' lowest own-z rays; high edge likewise.
LOW_SHARE, HIGH_SHARE = 0.25, 0.75
#: The narrowest band drawn (metres): a standing knife's mask is 2 cm across.
MIN_WIDTH = 0.02
#: The farthest a band reaches from the origin (metres): a fallen knife lies within 8 cm.
MAX_REACH = 0.08
#: Yaws further than this off a quarter turn (degrees) are not read: the box does not turn so.
MAX_RESIDUAL = 10.0


def own_across(fact: SightFact) -> list[float]:
    """Own-z (metres off the origin) of each of a loose object's rays where it meets the
    horizontal plane through the object's origin; empty for a fixture, a yaw off the quarter
    turns, or rays that do not come down to that plane."""
    if fact.loose is None:
        return []
    _, origin, yaw = fact.loose
    if abs(yaw - 90.0 * round(yaw / 90.0)) > MAX_RESIDUAL:
        return []
    undo = (4 - quarter_turns(yaw)) % 4
    out = []
    for ray in fact.rays:
        if ray[1] >= -1e-6 or fact.eye[1] <= origin[1]:
            continue
        t = (origin[1] - fact.eye[1]) / ray[1]
        dx, dz = fact.eye[0] + t * ray[0] - origin[0], fact.eye[2] + t * ray[2] - origin[2]
        out.append(turn_horizontal(dx, dz, undo)[1])
    return out


def blade_band(masks: Sequence[Sequence[float]]) -> tuple[float, float] | None:
    """(low, high) own z of the band the masks (each its rays' own z) put the blade in, or None
    with fewer than :data:`MIN_MASKS` masks."""
    masks = [m for m in masks if m]
    if len(masks) < MIN_MASKS:
        return None
    low = float(np.quantile([min(m) for m in masks], LOW_SHARE))
    high = float(np.quantile([max(m) for m in masks], HIGH_SHARE))
    low, high = max(low, -MAX_REACH), min(high, MAX_REACH)
    if high - low < MIN_WIDTH:
        middle = min(max((low + high) / 2.0, -MAX_REACH + MIN_WIDTH / 2.0), MAX_REACH - MIN_WIDTH / 2.0)
        low, high = middle - MIN_WIDTH / 2.0, middle + MIN_WIDTH / 2.0
    return round(low, 4), round(high, 4)


def blade_bands(sights: Sequence[SightFact]) -> dict[str, tuple[float, float]]:
    """Object name -> its blade's band (:func:`blade_band`), for the :data:`BLADE_TYPES` objects
    whose masks fit one."""
    masks: dict[str, list[list[float]]] = {}
    for fact in sights:
        if fact.loose is not None and type_of_name(fact.loose[0]) in BLADE_TYPES:
            masks.setdefault(fact.loose[0], []).append(own_across(fact))
    bands = {name: blade_band(m) for name, m in masks.items()}
    return {name: band for name, band in bands.items() if band is not None and all(map(math.isfinite, band))}


def blades_to_their_masks(objects: list[SceneObject], sights: Sequence[SightFact]) -> None:
    """Each knife whose room's masks fit a band is drawn across it (see the module docstring)."""
    bands = blade_bands(sights)
    for obj in objects:
        if obj.name in bands:
            obj.blade_across = bands[obj.name]
