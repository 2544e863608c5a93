"""Each imported room's own slice row for the wholes whose loaf differs between THOR's kitchens.

Lite lays a whole's slices at ``first + (k - 1) * step`` along its long side, one line per type
(:data:`alfred_gen.sim.actions.SLICE_LAYOUT`, fitted over all train demos). THOR's bread loaves
differ between kitchens, so where the room's own demos show its slices (:class:`SliceFact`), the
room gets its own line: the same fit (:func:`slice_line`) over the room's points, turned into lite's
layout by the refit :data:`SLICE_LAYOUT` was drawn with (:data:`ROOM_SLICE_REFIT`).

Chosen offline on the odd-numbered FloorPlans, checked on the even ones: for every first pickup of a
slice in the 904 train demos that slice a whole (823 cast points), the room's line fitted on its
other 4 of 5 folds against the global line fitted on all, each asked which slice lies nearest the
held-out cast point. Bread, rooms with at least 3 points over 2 slices: odd 38 of 45 right against
26 (global), even 49 of 58 against 33; the room's line lies nearer the point in 29 and 44 against
16 and 14. With 2 points the same on odd (38/26 of 47) and even 53/35 of 63 (FloorPlan28's 2-point
line lost a pick in the wide sample); with 4, odd 35/23 of 42. Other types were not clear on both
halves: lettuce odd 25/19 even 35/33 (nearer: 28 against 35), tomato odd 34/25 even 41/48, potato
odd 42/38 even 58/49.
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.scenes.alfred.slice_facts import SliceFact, slice_line

#: Whole type -> (shift, scale) turning a fit of cast centroids into lite's layout: slice k at
#: ``shift + scale * (first + (k - 1) * step)`` (the refit of :data:`SLICE_LAYOUT`'s docstring; bread
#: +0.02 m, 1.3 turn its centroid fit (-0.0241, -0.0278) into (-0.0112, -0.0364)). Only the types
#: listed get a room's own line.
ROOM_SLICE_REFIT: dict[str, tuple[float, float]] = {"Bread": (0.02, 1.3)}
#: A room's line needs at least this many points over at least :data:`MIN_SLICES` slice numbers.
MIN_POINTS = 3
MIN_SLICES = 2


def room_slice_layouts(facts: Iterable[SliceFact]) -> dict[str, tuple[float, float]]:
    """Whole type -> (first, step) of the room's own slice row, for the types of
    :data:`ROOM_SLICE_REFIT` its ``facts`` show enough of (along the whole's own z)."""
    points: dict[str, list[tuple[int, float]]] = {}
    for fact in facts:
        whole = fact.kind.removesuffix("Sliced")
        if whole in ROOM_SLICE_REFIT:
            points.setdefault(whole, []).append((fact.number, fact.own_z))
    out = {}
    for whole, row in sorted(points.items()):
        if len(row) < MIN_POINTS or len({number for number, _ in row}) < MIN_SLICES:
            continue
        first, step, _ = slice_line(row)
        shift, scale = ROOM_SLICE_REFIT[whole]
        out[whole] = (round(shift + scale * first, 4), round(scale * step, 4))
    return out
