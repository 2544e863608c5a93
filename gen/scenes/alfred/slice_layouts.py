"""Each imported room's own slice row for the wholes whose loaf differs between THOR's kitchens.

Lite lays a whole's slices at ``first + (k - 1) * step`` along its long side, one line per type
(:data:`alfred_gen.sim.actions.SLICE_LAYOUT`, fitted over all train demos). THOR's bread loaves
differ between kitchens, so where the room's own demos show its slices (:class:`SliceFact`), the
room gets its own line: the same fit (:func:`slice_line`) over the room's points, turned into lite's
layout by the refit :data:`SLICE_LAYOUT` was drawn with (:data:`ROOM_SLICE_REFIT`).

Chosen on the odd-numbered FloorPlans, checked on the even ones. First, which rooms have enough
evidence, offline on cast points: for every first pickup of a slice in the 904 train demos that
slice a whole (823 cast points), the room's line fitted on its other 4 of 5 folds against the global
line, each asked which slice lies nearest the held-out cast point. Bread, rooms with at least 3
points over 2 slices: odd 38 of 45 right against 26, even 49 of 58 against 33 (2 points: the same
on odd, 38/26 of 47; 4: 35/23 of 42). Other types were not clear on both halves (lettuce odd 25/19,
even 35/33; tomato 34/25, 41/48; potato 42/38, 58/49) and keep the global line.

Then on what ALFRED's rule picks: every one of the 155 bread-slicing train demos replayed in its
room built from the other 4 of 5 folds, THOR's masks against lite's frames. Every room line with
enough points: first slice pickups odd 49 to 50 of 66 right (9 won, 8 lost), even 57 to 60 of 89
(10 won, 7 lost); the losses were rooms whose line starts far from the global one
(:data:`MAX_FIRST_OFF`, chosen on odd: 0.03 m won 9 lost 5, 0.02 9/2, 0.015 8/0, 0.01 2/0). With
it: odd 49 to 57 of 66 (8 won, none lost), even 57 to 63 of 89 (7 won, 1 lost: FloorPlan6's
slice 4); no other pick of those demos moved (odd 763 of 770, even 1074 of 1080 right either way).
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.scenes.alfred.slice_facts import SliceFact, slice_line
from alfred_gen.sim.actions import SLICE_LAYOUT

#: Whole type -> (shift, scale) turning a fit of cast centroids into lite's layout: slice k at
#: ``shift + scale * (first + (k - 1) * step)`` (the refit of :data:`SLICE_LAYOUT`'s docstring; bread
#: +0.02 m, 1.3 turn its centroid fit (-0.0241, -0.0278) into (-0.0112, -0.0364)). Only the types
#: listed get a room's own line.
ROOM_SLICE_REFIT: dict[str, tuple[float, float]] = {"Bread": (0.02, 1.3)}
#: A room's line needs at least this many points over at least :data:`MIN_SLICES` slice numbers.
MIN_POINTS = 3
MIN_SLICES = 2
#: A room's line whose first slice lies farther than this from :data:`SLICE_LAYOUT`'s (metres, in
#: lite's layout) keeps the global row: such lines rest on slices THOR let tip over or roll rather
#: than on the loaf (the cast takes a mask's centroid to lie in the row, on the plane through the
#: whole's origin). On the bread-slicing train demos (rooms from the other folds) the lines it holds
#: back start 2.2 to 6.8 cm short of the global one (FloorPlan1, 11, 19) or 1.6 to 4.9 cm beyond it
#: (FloorPlan2, 16, 17, 21, 24), and won 4 first slice pickups where they lost 14.
MAX_FIRST_OFF = 0.015


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
        first, step = round(shift + scale * first, 4), round(scale * step, 4)
        if abs(first - SLICE_LAYOUT[whole][0]) <= MAX_FIRST_OFF:
            out[whole] = (first, step)
    return out
