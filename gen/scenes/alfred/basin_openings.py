"""A sink basin's footprint is its opening where THOR's own masks of it show it, room by room.

A basin's first box is the same in every room: 0.3 m to either side of its sink's id, 0.25 m in
front and 0.2 m behind (:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`), because
that is where demos of all rooms together find things in basins. THOR's opening of one basin is
smaller and lies on one side of its id or the other: cast onto the level plane of the id from the
pose the demo acted from, THOR's masks of kitchen basins are about 0.5 m across and 0.25 m deep
(median), from 0.21 m in front of the id to 0.04 m behind in most kitchens but 0.06 m in front to
0.19 m behind in FloorPlan4, and 0.15-0.25 m to one side of the id in six kitchens (3, 6, 7, 8, 11,
12); FloorPlan3's reaches 0.27-0.59 m off the id, outside the first box (train demos leaving out the
238 of ``ALFRED_DATA``; session 74 notes). Lite drew basins at 2.5 times THOR's pixels, and a soap
bar or a sponge put in landed at the edge of the first box nearest the hand, off THOR's opening:
its later pickup mask in THOR fell where lite drew the basin (4 of the 28 misses of the held-out
mask figure).

Each of a room's demos that acted on the basin recorded THOR's mask of it; the evidence keeps the
rays from the camera through the mask's leftmost, rightmost, topmost and bottommost pixels
(:func:`~alfred_gen.scenes.alfred.sight_facts.edge_rays`). A ray that sees into a bowl crosses
the rim's level plane inside the opening, and a ray on the rim lies on that plane, so where the
edge rays cross it bounds THOR's opening, whatever depth they reach. The rim is the top of the
counter the basin is set into (:func:`rim_height`), so this runs after the basin's rim is fitted
and after the support fits, and what rests in the bowl (a support fact's object, an object whose
bottom lies under the rim) stays over the footprint. Once :data:`MIN_MASKS` masks say so, the
footprint is the box their crossings span (:data:`MASK_QUANTILE` of the masks' own extents, so
one mask from a wrongly reckoned pose does not stretch it), :data:`MARGIN` wider each way and at
least :data:`MIN_OPENING` across. The drawing, the counter slab's hole and the put spots follow the
box, so they agree with each other.

The box is wider than what the masks show: :data:`MARGIN` each way, and it grows over what rests
in the bowl, which in many kitchens lies 0.1-0.3 m past the masks' opening (FloorPlan14's start
states keep things 0.17 m behind its masks' far edge, FloorPlan8's over 0.75 m where its masks
are 0.17 m wide). Drawn to the box, lite's basin was 1.47 times THOR's pixels (median over the 78
basin puts of the wide sample: every 20th train demo, held out by folds, main 7758865), its
extra mostly the far wall seen above THOR's mask (lite's far edge 7.6 cm past THOR's at the rim,
median over the 57 masks the frame does not cut; 2 cm on the other sides). So the basin also
keeps its drawn opening (:attr:`Block.opening`): the masks' extents at the rim
(:data:`MASK_QUANTILE`) :data:`OPEN_MARGIN` wider each way, with no least width and not grown over
the bowl's contents; the rest of the footprint is drawn as the sink's deck just under the rim
(:func:`~alfred_gen.sim.basin_skirts.deck_boxes`), which hides below the rim what THOR's masks
never show open there. Drawing only. Chosen on the basin puts replayed held out (wide sample:
every 20th train demo, 78 puts; check set: every 20th from the 10th, 69 puts): with the masks'
0.1 quantile, margin 0 / 0.005 / 0.01 / 0.02 / 0.03 / 0.05 m gave IoU 0.778 / 0.795 / 0.783 /
0.727 / 0.706 / 0.669 on the wide sample (from 0.590; check set 0.753 / 0.775 / 0.762 / - from
0.583); the 0.0 / 0.25 quantiles at 0.005 m 0.792 / 0.787 (check 0.771 / 0.768). The margin kept,
:data:`OPEN_MARGIN`, is the least that loses no pick: basin puts 0.590 to 0.669 (lite/THOR pixels
1.47 to 1.31), wide IoU 0.6537 to 0.6566, rule 2,036 of 2,104 as before.

The pan and fork those smaller margins lose lie in the basin and lose to it across its width; along
its depth, front to back, the drawn opening can follow the masks closer (:data:`OPEN_MARGIN_DEEP`).
Re-drawn before every interaction of the wide sample's demos that act on a sink basin (held out by
folds, 539 interactions, 78 basin puts; opening shrunk at draw time, session 87): basin puts' IoU
0.670 to 0.715 with 0.02 m front and back and no pick lost (0.02 m every way 0.727, the pan lost;
the back alone 0.02 / 0.005 / -0.01 m: 0.705 / 0.699, the pan lost / 0.669, pan and fork lost; the
front alone 0.02: 0.679; the sides alone 0.02: 0.683, the pan lost).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from alfred_gen.scenes.alfred.built_ins import COUNTER_BESIDE, RIM_ABOVE_FLOOR
from alfred_gen.scenes.alfred.fixture_block import Block, drawn_floor, inner_floor
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box

#: Masks of a basin a room's demos must have recorded before its footprint is fitted to them.
MIN_MASKS = 2
#: Which of the masks' own extents bound the footprint: this quantile of their low ends and
#: 1 minus it of their high ends, so one mask from a pose dead reckoning got wrong does not.
MASK_QUANTILE = 0.1
#: How much wider than the masks' extents the footprint is, each way (metres).
MARGIN = 0.02
#: How much wider than the masks' extents the drawn opening is, each way (metres). 0.005 fits the
#: basins' own masks best (see the module docstring) but loses two wide-sample pickups after a sink
#: put (Pan-None-CounterTop-22, Fork-None-SideTable-21: lite's pan lands 36 px off THOR's, and the
#: smaller basin then wins ALFRED's rule under THOR's mask); 0.02 / 0.03 / 0.04 still lose the pan.
OPEN_MARGIN = 0.05
#: :data:`OPEN_MARGIN` along the way the basin faces (its depth, front to back): THOR's bowl
#: shows less past its masks there (see the module docstring).
OPEN_MARGIN_DEEP = 0.02
#: The narrowest a fitted footprint is along either axis (metres).
MIN_OPENING = 0.2
#: What rests in the basin (its bottom this far below the rim or more) stays over the footprint,
#: this far inside its edge (metres).
KEEP_INSIDE = 0.02


def rim_height(basin: Block, blocks: list[Block]) -> float:
    """The height of a basin's rim: the top of the counter it is set into (the lowest counter top
    within :data:`~alfred_gen.scenes.alfred.built_ins.COUNTER_BESIDE`, below the box's top, as
    :func:`~alfred_gen.scenes.alfred.built_ins.rims_at_counters` draws it), else its box's top."""
    tops = [c.hi[1] for c in blocks
            if c.kind == "CounterTop" and basin.overlaps(c, axes=(0, 2), margin=COUNTER_BESIDE)
            and basin.lo[1] + RIM_ABOVE_FLOOR < c.hi[1] < basin.hi[1]]
    return min(tops) if tops else basin.hi[1]


def resting_in(basin: Block, resting: Iterable[Box], top: float) -> list[Box]:
    """The objects at rest in a basin: their middle over its footprint, their bottom from
    :data:`KEEP_INSIDE` under its box up to ``top``."""
    return [box for box in resting
            if basin.lo[0] < box.center[0] < basin.hi[0] and basin.lo[2] < box.center[2] < basin.hi[2]
            and basin.lo[1] - KEEP_INSIDE <= box.lo[1] <= top]


def mask_extents(sights: Iterable[SightFact], target: str, rim: float) -> list[tuple[float, float, float, float]]:
    """Per mask of ``target``: (x lo, x hi, z lo, z hi) of where its edge rays cross the level plane
    at height ``rim`` (masks without two such crossings are skipped)."""
    out = []
    for fact in sights:
        if fact.target != target:
            continue
        ex, ey, ez = fact.eye
        points = [(ex + (rim - ey) / dy * dx, ez + (rim - ey) / dy * dz)
                  for dx, dy, dz in fact.edges if dy < 0.0 and ey > rim]
        if len(points) >= 2:
            xs, zs = [p[0] for p in points], [p[1] for p in points]
            out.append((min(xs), max(xs), min(zs), max(zs)))
    return out


#: How round the corners of a basin's drawn opening are, by room type: the radii of each corner's
#: quarter ellipse as a fraction of the opening's half width and half depth
#: (:func:`~alfred_gen.sim.basin_skirts.corner_boxes`; 1 draws the opening as an ellipse). THOR's
#: bathroom basins are ovals and its kitchen ones rounded rectangles, where lite drew the opening a
#: rectangle (basin puts' lite pixels 1.24 times THOR's). Chosen on the basin puts of the wide sample's
#: odd FloorPlans (every 20th train demo, held out by folds; session 94), bathrooms (9 puts): 0 /
#: 0.4 / 0.5 / 0.6 / 0.7 / 0.8 / 1.0 gave IoU 0.731 / 0.747 / 0.753 / 0.757 / 0.755 / 0.749 /
#: 0.720; checked on the even ones (7 puts): 0.816 to 0.838 at 0.6. Kitchens (26 odd puts) gained
#: too, 0.713 to 0.722 / 0.738 / 0.729 / 0.700 at 0.3 / 0.5 / 0.7 / 0.9 (even, 36: 0.703 to 0.723
#: at 0.5), but every kitchen roundness lost ALFRED's pick of FloorPlan22's pan lifted from its sink
#: (Pan-None-CounterTop-22 @20: the pan's IoU under THOR's mask 0.2423, the basin's 0.2412 before,
#: higher once the basin draws fewer pixels). Wide sample, held out: basin puts 0.720 to 0.725
#: (78, bathrooms only), mean IoU 0.6907 to 0.6909, ALFRED's rule 2,043 of 2,104 as before;
#: measured set, held out: basin puts 0.795 to 0.824 (5 in bathrooms), no pick changed. That pan
#: stood out of the basin behind (held handle back, 0.43 m over a bowl 0.38 m deep), where THOR
#: never places a box; once such a put takes THOR's quarter turns
#: (:func:`~alfred_gen.sim.put_yaw.overhangs`) it lies across the bowl as in THOR's mask (IoU 0.24
#: to 0.44) and kitchens take 0.5, the odd half's best.
ROUNDNESS: dict[str, float] = {"kitchen": 0.5, "bathroom": 0.6}


def basins_to_their_masks(blocks: list[Block], sights: list[SightFact], resting: list[Box],
                          room_type: str = "kitchen") -> None:
    """Each sink basin with at least :data:`MIN_MASKS` masks in the room's demos gets the footprint
    its masks show at its rim, keeping over it what rests in the bowl (see the module docstring).
    Bathtub basins are left to :func:`tubs_to_their_masks`, a pass of their own."""
    for basin in blocks:
        if basin.kind != "SinkBasin":
            continue
        rim = rim_height(basin, blocks)
        extents = mask_extents(sights, basin.object_id, rim)
        if len(extents) < MIN_MASKS:
            continue
        kept = [*basin.keep, *(box.center for box in resting_in(basin, resting, rim - KEEP_INSIDE))]
        table = np.asarray(extents)
        opening: list[float] = []
        deep = basin.front_axis[0]
        for axis, (low, high) in ((0, (0, 1)), (2, (2, 3))):
            seen_lo = float(np.quantile(table[:, low], MASK_QUANTILE))
            seen_hi = float(np.quantile(table[:, high], 1.0 - MASK_QUANTILE))
            margin = OPEN_MARGIN_DEEP if axis == deep else OPEN_MARGIN
            opening += [seen_lo - margin, seen_hi + margin]
            lo, hi = seen_lo - MARGIN, seen_hi + MARGIN
            if hi - lo < MIN_OPENING:
                middle = (lo + hi) / 2.0
                lo, hi = middle - MIN_OPENING / 2.0, middle + MIN_OPENING / 2.0
            for point in kept:
                lo, hi = min(lo, point[axis] - KEEP_INSIDE), max(hi, point[axis] + KEEP_INSIDE)
            basin.lo[axis], basin.hi[axis] = lo, hi
        roundness = ROUNDNESS.get(room_type, 0.0)
        basin.opening = (*opening, rim, roundness) if roundness > 0.0 else (*opening, rim)


#: How finely a bathtub's rim height is searched (metres; :func:`centred_rim`).
RIM_STEP = 0.01


def _tub_opening(extents: list[tuple[float, float, float, float]]) -> list[float]:
    """The opening ``extents`` (one per mask) show: each side at its :data:`MASK_QUANTILE`,
    :data:`OPEN_MARGIN` wider each way."""
    table = np.asarray(extents)
    opening: list[float] = []
    for low, high in ((0, 1), (2, 3)):
        opening += [float(np.quantile(table[:, low], MASK_QUANTILE)) - OPEN_MARGIN,
                    float(np.quantile(table[:, high], 1.0 - MASK_QUANTILE)) + OPEN_MARGIN]
    return opening


def centred_rim(basin: Block, sights: list[SightFact]) -> tuple[float, list[float]] | None:
    """The height between the top of ``basin``'s drawn floor (:func:`drawn_floor`: no rim lies under
    it) and the top of its box at which the opening its masks show is centred on its footprint, and
    that opening; None with under :data:`MIN_MASKS` masks.

    The box's top is no rim: the importer gives a tub a box from its id and later lowers it to
    what lies in it. Fitted at a wrong height, the masks' edge rays cross the plane too near or too
    far from the cameras that saw them, and the opening slides off the tub: FloorPlan430's, fitted
    0.6 m over the tub's floor, lay 0.45 m beside its box, and its deck hid the dish sponge lying
    in the tub (wide sample, held out: DishSponge-None-Drawer-430 @20 IoU 0.535 to 0.060). Drawn at
    the height it is fitted at, the opening shows where the masks showed it from those cameras."""
    (x0, bottom, z0), (x1, top, z1) = basin.lo, basin.hi
    middle = ((x0 + x1) / 2.0, (z0 + z1) / 2.0)
    floor = drawn_floor(basin)
    best: tuple[float, float, list[float]] | None = None
    for rim in np.arange(bottom, top + RIM_STEP / 2.0, RIM_STEP):
        if rim < floor:
            continue
        extents = mask_extents(sights, basin.object_id, float(rim))
        if len(extents) < MIN_MASKS:
            continue
        opening = _tub_opening(extents)
        off = float(np.hypot((opening[0] + opening[1]) / 2.0 - middle[0],
                             (opening[2] + opening[3]) / 2.0 - middle[1]))
        if best is None or off < best[0]:
            best = (off, float(rim), opening)
    return None if best is None else (best[1], best[2])


def tubs_to_their_masks(blocks: list[Block], sights: list[SightFact], resting: Iterable[Box] = ()) -> None:
    """Each bathtub basin with at least :data:`MIN_MASKS` masks is drawn open only where its masks
    cross its rim (:attr:`Block.opening`, as a sink basin's drawn opening, :data:`OPEN_MARGIN` wider
    each way), the rim at the height where that opening is centred on the tub (:func:`centred_rim`);
    the rest of its footprint is drawn as a deck under the rim
    (:func:`~alfred_gen.sim.basin_skirts.deck_boxes`), and where the opening reaches past the box the
    drawing grows to hold it (:func:`drawn_over_opening`; ``resting``: the boxes of what the demos
    show at rest). Drawing only: the box that holds things stays.

    THOR's mask of a ``BathtubBasin`` is the tub's inside, the rim and the outside of its walls
    belonging to the ``Bathtub``; lite drew the basin's whole box, walls and rim, at 2.18 times
    THOR's pixels (median of the wide sample's 9 tub puts, held out by folds; IoU 0.277)."""
    resting = list(resting)
    for basin in blocks:
        if basin.kind != "BathtubBasin":
            continue
        fitted = centred_rim(basin, sights)
        if fitted is not None:
            rim, opening = fitted
            basin.opening = (*opening, rim)
            drawn_over_opening(basin, resting)


def drawn_over_opening(basin: Block, resting: Iterable[Box] = ()) -> None:
    """``basin``'s drawing (:attr:`Block.drawn_margins`) grown, on each side where its opening reaches
    past it, to hold the opening with a wall (:func:`~alfred_gen.scenes.alfred.fixture_block.inner_floor`
    thick) round it, unless something at rest (``resting``) lies in that strip under the drawn floor
    (:func:`~alfred_gen.scenes.alfred.fixture_block.drawn_floor`), which the grown drawing would bury;
    drawing only.

    The renderer draws a basin's opening only inside its drawing. A tub's box comes from its id and
    a catalogue size, and THOR's masks show some tubs reaching well past it: FloorPlan422's opening
    runs 0.77 m past its box's end, FloorPlan402's 0.6 m, FloorPlan405's 0.2 m at each end; there
    lite drew the room's floor where THOR's mask is the tub's inside. But FloorPlan402's tub box
    stands 0.36 m over the floor, and a cloth the demos show at rest 0.19 m up lies in the strip its
    opening reaches over: drawn over it, the cloth was out of sight and a replay stopped (held out
    by folds, the sample of every 20th train demo from the 15th)."""
    x0, x1, z0, z1 = basin.opening[:4]
    wall = inner_floor(basin.kind)
    floor = drawn_floor(basin)
    below = [box for box in resting if box.hi[1] < floor]
    margins = basin.margin_list()
    grown = False
    for axis, low, high in ((0, x0, x1), (2, z0, z1)):
        across = 2 - axis
        span = (basin.lo[across] - margins[across] - wall, basin.hi[across] + margins[3 + across] + wall)
        # Each side: its margin's index, the box's face, how far the opening reaches, and outwards.
        for index, face, beyond, out in ((axis, basin.lo[axis], low, -1.0), (3 + axis, basin.hi[axis], high, 1.0)):
            edge = face + out * margins[index]
            if (beyond - edge) * out <= 0:
                continue
            reach = beyond + out * wall
            if any(min(reach, edge) <= b.center[axis] <= max(reach, edge) and span[0] <= b.center[across] <= span[1]
                   for b in below):
                continue
            margins[index], grown = round((reach - face) * out, 4), True
    if grown:
        basin.drawn_margins = tuple(margins)


#: How far above the id a bathroom basin's floor is, at least where demos show it (metres): THOR
#: reported the basin's own position, on which what it holds rests (0.01 m above), 0.01-0.11 m
#: above the id in 11 of the 12 bathrooms whose train demos (leaving out the 238) found something
#: in a set-in basin (median +0.05; 0.07 m below in FloorPlan417); in the 8 kitchens checked it
#: is 0.06-0.21 m below. So a bathroom's floor is put at the id, the low end.
BATHROOM_FLOOR_ABOVE_ID = 0.0
#: The shallowest a bathroom bowl is drawn, below its rim (metres).
MIN_BOWL_DEPTH = 0.05


def bathroom_bowls_shallow(blocks: list[Block], resting: list[Box], room_type: str) -> None:
    """A bathroom's set-in sink basin is a shallow bowl: its floor at the id (no deeper than
    :data:`MIN_BOWL_DEPTH` under its rim, and never above what rests in it), not 0.15 m below.

    Lite sized every set-in basin's bowl as a kitchen's, 0.15 m and more under the id. Seen from
    where the demos stand (45-60 degrees down), a bathroom basin fitted to THOR's opening
    (:func:`basins_to_their_masks`) then hid a soap bar on its floor behind its front wall, where
    THOR's mask shows the bar in view (FloorPlan408: the pickup after cleaning failed). Kitchens and
    pedestal sinks (id on the floor) keep their bowls.
    """
    if room_type != "bathroom":
        return
    for basin in blocks:
        if basin.kind != "SinkBasin" or basin.floor_origin:
            continue
        rim = rim_height(basin, blocks)
        floor = min(basin.position[1] + BATHROOM_FLOOR_ABOVE_ID, rim - MIN_BOWL_DEPTH) - inner_floor(basin.kind)
        held = [box.lo[1] for box in resting_in(basin, resting, rim)]
        if held:
            floor = min(floor, min(held) - inner_floor(basin.kind))
        basin.lo[1] = max(basin.lo[1], floor)
