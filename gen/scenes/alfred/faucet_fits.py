"""A kitchen faucet stands where THOR's own masks of it meet, room by room.

A faucet is centred on its id (:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`),
which is where THOR draws a kitchen faucet's mask in most kitchens (middle 0.002 m above the id
over 614 masks: :mod:`~alfred_gen.scenes.alfred.mask_heights`), but not in all: FloorPlan17's
``Faucet|-00.03|+00.93|-00.81`` is drawn by THOR behind and above its id, lite's faucet under THOR's
mask shrank to one pixel and ALFRED's rule picked the counter top around it (2 misses of the
held-out mask figure at session 76's start).

Every demo that switched the faucet recorded THOR's mask of it, and the evidence keeps a few rays
from the camera through each mask (:mod:`~alfred_gen.scenes.alfred.sight_facts`), which all reach
the faucet. The mean of a mask's rays is its middle line of sight; the faucet's middle is moved
onto those lines: per mask, the point of the line as far from the eye (level, along the line's
heading) as the box's middle, and the median of those points over the masks (most rooms' demos
switch a faucet from one pose, so the rays cannot say how deep it stands, and its depth is kept). Once
:data:`MIN_MASKS` masks say so, the box moves there, at most :data:`MAX_SHIFT` along each axis.
In FloorPlan17 (all its train demos) that is 0.11 m up and 0.03 m along x from the id.

Moved there, a kitchen faucet was still drawn at 2.4 times THOR's pixels (median over 62 switches
of the wide sample: every 20th train demo, held out by folds; IoU 0.246), as a neck under a spout
(:data:`~alfred_gen.sim.thor_shapes.SPOUT_SHAPES`) filling the catalogue's 0.25 m box, while THOR's
kitchen faucets come in many shapes (a gooseneck, a lever on a low base). The evidence also keeps
the rays through each mask's leftmost, rightmost, topmost and bottommost pixels
(:func:`~alfred_gen.scenes.alfred.sight_facts.side_rays`). Cast onto the upright plane through the
faucet's middle that faces the camera, they say where its sides are as THOR drew it
(:func:`plane_sides`); most rooms' demos switch a faucet from one pose, so the masks agree. So a
kitchen faucet whose masks bound a side is drawn (:attr:`Block.drawn_margins`; its box, which
reach and placement read, is unchanged) as a slab :data:`SLAB` deep in that plane, each side at
the median of its masks (:func:`faucets_drawn_to_their_masks`), and the slab is drawn whole
(:data:`~alfred_gen.sim.thor_shapes.SLAB_PATTERNS`): THOR's kitchen faucet masks fill 0.48 of
their bounding box (median of 122 masks whole in the frame, one per demo, every 3rd train demo of
the clean tasks). Wide sample, held out: kitchen faucets IoU 0.246 to 0.396 (62 switches), ALFRED's
rule 62 of 62 before and after. Tried: the box fitted the same way and drawn whole (0.213: its top
and depth show over THOR's mask) or as the neck and spout (0.224, 10 rule picks lost to the counter
top); the slab in the pattern the masks fill most, a body over the lower three quarters 0.75 wide
under a neck 0.25 wide (0.363); bathroom faucets fitted so too (0.242 to 0.209, 28 switches).

A whole slab still drew a kitchen faucet at 2.1 times THOR's pixels (median, 62 switches): THOR's
faucets are goosenecks, levers, a spout with a handle, which fill their bounding boxes in shapes of
their own, one per model and so per room. The evidence keeps how each mask whole in the frame fills
a 5 x 5 grid over its bounding box (:attr:`SightFact.fill`; over all train demos 735 kitchen
faucet masks in 16 of 26 kitchens, 216 bathroom ones in 13 of 25 bathrooms have two or more; the
others' masks all meet the frame's border, mostly its top). The slab is drawn in the cells whose
median share, over the masks looking along the slab's facing axis and turned to the world's way,
is at least :data:`FILL_SHARE` (:func:`fill_pattern`). A mask the frame's top cuts (521 kitchen,
318 bathroom masks) fills the slab only up to where the frame's top row meets the slab's plane
(:attr:`SightFact.fill_top`); the cells above are drawn unless another mask shows them. Grid and
share fit offline on the wide sample's 90 switches (each lite mask cut to the pattern of its
room's other folds' whole masks): 3 x 3 cells 0.400, 4 x 4 0.422, 5 x 5 0.445, 6 x 6 0.425,
8 x 8 0.441, at a share of 0.35 (0.2-0.45: 0.435-0.445 at 5 x 5). Bathroom faucets, whose
handles (:mod:`~alfred_gen.scenes.alfred.mask_heights`) THOR draws in some rooms only
(FloorPlan429's and 401's masks are the spout alone), are drawn so too when their masks show a
pattern (:data:`PATTERN_ONLY_ROOM_TYPES`), without the handles. Wide sample,
held out: faucets IoU 0.347 to 0.523 (kitchens 0.394 to 0.569, bathrooms 0.242 to 0.421; lite's
pixels over THOR's, median, 2.08 to 1.17 and 2.70 to 1.59), ALFRED's rule 90 of 90 before and
after, no other pick changed; whole masks alone gave 0.492 (the cut ones lift FloorPlan1 0.167 to
0.351, 11 0.281 to 0.492, 18 0.268 to 0.407, 407 0.266 to 0.383). Only imported rooms are built
here, so procedural rooms are untouched.

Two kinds of bathroom faucet were still drawn as the neck, spout and handles over their whole box
(lite's pixels 2.6 to 4.4 times THOR's): those whose masks fill their whole bounding box (a narrow
neck, FloorPlan405: no cell left out, so no pattern, and a bathroom drew none), and those whose
masks all meet the frame's left or right border (every switch of FloorPlan406's, 422's, 426's,
427's and 430's), which the fill left out. THOR's masks of both show no handles. So a bathroom
faucet whose masks fill the whole slab is drawn as the whole slab (:data:`WHOLE_SLAB`), and a mask
the frame's side cuts fills the slab as a top-cut one does, across instead of up: its columns
spread over the slab from the other end to where the frame's border meets the slab's plane
(:attr:`SightFact.fill_side`), the columns past it drawn unless another mask shows them. Re-drawn
before every interaction of the wide sample's demos that switch a faucet (held out by folds, 90
switches; tmp scripts of session 87): faucets 0.523 to 0.534 with the whole slab, to 0.561 with
the side cuts (bathrooms 0.421 to 0.459 to 0.544: FloorPlan405 0.35 to 0.87, 423 0.25 to 0.51,
427 0.21 to 0.52, 430 0.14 to 0.45), ALFRED's rule 300 of 300 interactions of those demos before
and after. Tried: the handles left out of every bathroom faucet without a pattern (0.472, and
FloorPlan430's faucet, drawn lower than THOR's, went out of view: its switch failed).

The kitchen faucets still furthest from THOR's masks (FloorPlan4 0.17, 22, 2 and 1 about 0.33-0.35)
are all seen cut by the frame's top, every demo from one pose (FloorPlan1's and 4's faucet masks
all from one eye each). The rows above every mask's cut were drawn whole, a bar across the top of
the slab where THOR shows the neck going on up (FloorPlan1's shot at session 87). So in a kitchen
(:data:`SEEN_UP_ROOM_TYPES`) each such cell is drawn as the highest cell some mask shows in its
column (:func:`_seen_up`). Re-drawn before every interaction of the wide sample's demos that switch
a kitchen faucet (held out by folds, 62 switches, 225 interactions): kitchen faucets 0.568 to
0.579 (FloorPlan1 0.35 to 0.45, 2 0.34 to 0.36, 11 0.49 to 0.51), ALFRED's rule 211 of 211
unchanged. Tried: each mask's grid placed on the slab where its own side rays meet the slab's
plane instead of stretched over it: identical patterns (one pose per room: the masks' extents are
the slab's). FloorPlan4 (0.17) and 22 are unchanged: their masks are thin strokes a 5 x 5 grid
cannot hold.

Those were the faucets' largest misfit of session 90 (90 switches at IoU 0.568, lite's pixels 1.26
times THOR's, the masks' middles 1.8 pixels apart): lite drew a faucet in the right place, too
big, and 0.68-1.0 of each room's extra pixels (lite's but not THOR's) lay inside THOR's mask's
bounding box: a neck a fifth of the slab wide where THOR's is a tenth, a spout's cell drawn whole
under a share of 0.35. So the grid is finer (:data:`~alfred_gen.scenes.alfred.sight_facts.FILL_GRID`
20 x 20). Re-drawn before every faucet switch of the wide sample (held out by folds, each room
built with the grid's own facts; chosen on the odd FloorPlans, 52 switches, checked on the even
ones, 38): 5 x 5 0.615 / 0.504, 10 x 10 0.661 / 0.547, 15 x 15 0.671 / 0.551, 20 x 20 0.682 /
0.558 (all 90: 0.568 to 0.630; kitchens 0.579 to 0.652, bathrooms 0.544 to 0.579), ALFRED's rule
90 of 90 throughout; a share of 0.25 at 10 x 10 0.649 / 0.538, 0.45 0.671 / 0.543 (kitchens
better, bathrooms worse on both halves), so :data:`FILL_SHARE` stays. Finer grids still gained
about 0.01 a step, but each mask keeps FILL_GRID squared shares in the catalogue (400 at 20 x 20).

Session 95 found the rest of that misfit in how a mask is read, not in the grid: lite drew the
faucets' boxes 3 pixels narrower than THOR's masks (median, kitchens) yet 1.2 times their pixels,
its necks bent a few pixels off THOR's in their middle rows. The side rays ran through pixels 2%
in from each end of the mask, where its fill grid spans all of it, and the 3 cm slab showed its
front face's bottom edge under them and its back face's top over them; and the grid lay evenly
over the mask's box in the frame, where the slab's parts lie evenly on an upright plane the camera
looks down at (a keystone in the frame). So a faucet's masks are now read on the upright plane
facing the camera's heading (:mod:`~alfred_gen.scenes.alfred.upright_plane`): their side rays
through the outer edges of their outermost pixels there
(:func:`~alfred_gen.scenes.alfred.sight_facts.bound_rays`), their grids evenly spread over that
extent (:func:`~alfred_gen.scenes.alfred.sight_facts.mask_fill` with the camera), and the slab
:data:`SLAB` is 2 mm deep. Re-drawn before every interaction of the wide sample's demos that switch
a faucet (held out by folds, each room built from facts read so), chosen on the odd FloorPlans (52
switches), checked on the even ones (38): 0.682 / 0.558 before; extents at the pixels' edges with
a 2 mm slab, grid still in the frame, 0.708 / 0.592; the grid on the plane too 0.811 / 0.783
(all 90: 0.630 to 0.799), ALFRED's rule 90 of 90 throughout. With the grid on the plane a
:data:`FILL_SHARE` of 0.45 then beat 0.35 on both halves (0.818 / 0.787, lite's pixels 1.05 times
THOR's where 0.35 drew 1.12), so it is 0.45.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import headed_sights, moved_toward, on_plane
from alfred_gen.scenes.alfred.sight_facts import FILL_GRID, SightFact
from alfred_gen.sim.scene import margins_of, plan_room_type

#: Masks of a faucet the room's demos must have recorded before it moves to them.
MIN_MASKS = 2
#: The farthest the faucet moves along each axis (metres).
MAX_SHIFT = 0.3
#: Room types whose faucets are fitted.
ROOM_TYPES = frozenset({"kitchen"})
#: Room types whose faucets are drawn to their masks' extents.
DRAWN_ROOM_TYPES = frozenset({"kitchen", "bathroom"})
#: Room types whose faucets are drawn to their masks only in the pattern the masks fill
#: (:func:`fill_pattern`): a bathroom faucet drawn as its whole slab matched THOR's masks worse
#: than its handles (see the module docstring).
PATTERN_ONLY_ROOM_TYPES = frozenset({"bathroom"})


def nearest_point(sights: Sequence[SightFact], target: str, prior: Sequence[float]) -> np.ndarray | None:
    """Where ``target``'s masks put it: per mask, the point of its middle line of sight (the mean
    of its rays) as far from the eye, level, as ``prior`` is along the line's heading; the median
    of those over the masks. None with fewer than :data:`MIN_MASKS` masks."""
    middle = np.asarray(prior, dtype=float)
    points = []
    for fact in sights:
        if fact.target != target or not fact.rays:
            continue
        d = np.mean(np.asarray(fact.rays, dtype=float), axis=0)
        norm = float(np.linalg.norm(d))
        if norm < 1e-9:
            continue
        d /= norm
        flat = math.hypot(d[0], d[2])
        if flat < 1e-6:
            continue
        eye = np.asarray(fact.eye, dtype=float)
        # As far along the line as the middle lies, level, in the line's heading: same depth.
        t = ((middle[0] - eye[0]) * d[0] + (middle[2] - eye[2]) * d[2]) / (flat * flat)
        points.append(eye + t * d)
    if len(points) < MIN_MASKS:
        return None
    return np.asarray(np.median(np.asarray(points), axis=0))


def faucets_to_their_masks(blocks: list[Block], sights: Sequence[SightFact], floor_plan: str) -> None:
    """Each faucet of a kitchen whose masks say where it is moves there (see the module docstring)."""
    if plan_room_type(floor_plan) not in ROOM_TYPES:
        return
    for block in blocks:
        if block.kind != "Faucet":
            continue
        middle = [(lo + hi) / 2.0 for lo, hi in zip(block.lo, block.hi)]
        point = nearest_point(sights, block.object_id, middle)
        if point is None:
            continue
        for axis in (0, 1, 2):
            shift = float(np.clip(point[axis] - middle[axis], -MAX_SHIFT, MAX_SHIFT))
            block.lo[axis] += shift
            block.hi[axis] += shift


#: The farthest one side of a faucet's drawing moves to its masks (metres).
MAX_SIDE_MOVE = 0.3
#: The least a fitted faucet is drawn across and tall (metres).
MIN_DRAWN = 0.03
#: How deep a faucet drawn to its masks is, along the way its masks look at it (metres): thin, so
#: that its silhouette is the rectangle its masks' bounding rays (:func:`plane_sides`) meet its
#: plane in. A deeper slab shows its front face's bottom edge under that rectangle and its back
#: face's top edge over it, seen from above (3 cm: a few pixels each). Re-drawn before every
#: interaction of the wide sample's demos that switch a faucet (held out by folds, the masks'
#: bounding rays through their outermost pixels' edges, grids still in the frame), chosen on the odd
#: FloorPlans (52 switches): 3 cm 0.643, 1 cm 0.691, 5 mm 0.7076, 2 mm 0.7079; checked on the even
#: ones (38): 0.552, 0.583, 0.594, 0.592.
SLAB = 0.002


def facing_axis(block: Block, sights: Sequence[SightFact]) -> int | None:
    """The world axis (0 x, 2 z) most of ``block``'s masks look along; None without masks."""
    axes = [heading[0] for _, heading in headed_sights(block, sights)]
    return max(set(axes), key=axes.count) if axes else None


def plane_sides(block: Block, sights: Sequence[SightFact]) -> dict[tuple[int, int], list[float]]:
    """Per (world axis, 0 low end / 1 high end): where each of ``block``'s masks puts that side, its
    side rays (:func:`~alfred_gen.scenes.alfred.sight_facts.side_rays`) cast onto the upright plane
    through the box's middle that faces the camera: the left and right rays give the ends across
    the view, the top and bottom rays the top and the bottom."""
    out: dict[tuple[int, int], list[float]] = {}
    middle = [(lo + hi) / 2.0 for lo, hi in zip(block.lo, block.hi)]
    for fact, (fwd, fsign, right, rsign) in headed_sights(block, sights):
        for ray, side in zip(fact.sides, ("left", "right", "top", "bottom")):
            if ray is None or ray[fwd] * fsign <= 1e-6:
                continue
            across = side in ("left", "right")
            value = on_plane(fact.eye, ray, fwd, middle[fwd], right if across else 1)
            if value is None:
                continue
            key = (right, int((rsign > 0) != (side == "left"))) if across else (1, int(side == "top"))
            out.setdefault(key, []).append(value)
    return out


def faucets_drawn_to_their_masks(blocks: list[Block], sights: Sequence[SightFact], floor_plan: str) -> None:
    """Each kitchen faucet whose masks bound a side (:data:`MIN_MASKS` of them) is drawn as a slab
    :data:`SLAB` deep across the way they look at it (:func:`facing_axis`), each side at the median
    of where they put it, at most :data:`MAX_SIDE_MOVE` off its box (:attr:`Block.drawn_margins`;
    see the module docstring), in the pattern its masks fill (:func:`fill_pattern`); a bathroom
    faucet so only when they show a pattern (:data:`PATTERN_ONLY_ROOM_TYPES`). Its box is unchanged."""
    if plan_room_type(floor_plan) not in DRAWN_ROOM_TYPES:
        return
    for block in blocks:
        if block.kind != "Faucet":
            continue
        lo, hi = list(block.lo), list(block.hi)
        sides = {key: values for key, values in plane_sides(block, sights).items() if len(values) >= MIN_MASKS}
        if not sides:
            continue
        for (axis, end), values in sides.items():
            current = hi[axis] if end else lo[axis]
            value = moved_toward(current, float(np.median(values)), MAX_SIDE_MOVE)
            if end:
                hi[axis] = value
            else:
                lo[axis] = value
        fwd = facing_axis(block, sights)
        if fwd is not None:
            middle = (lo[fwd] + hi[fwd]) / 2.0
            lo[fwd], hi[fwd] = middle - SLAB / 2.0, middle + SLAB / 2.0
        for axis in (0, 1, 2):
            if axis != fwd and hi[axis] - lo[axis] < MIN_DRAWN:
                middle = (lo[axis] + hi[axis]) / 2.0
                lo[axis], hi[axis] = middle - MIN_DRAWN / 2.0, middle + MIN_DRAWN / 2.0
        margins = margins_of(block.box(), lo, hi)
        if any(abs(m) >= 1e-3 for m in margins):
            room_type = plan_room_type(floor_plan)
            pattern_only = room_type in PATTERN_ONLY_ROOM_TYPES
            whole = WHOLE_SLAB if pattern_only else ()
            seen_up = room_type in SEEN_UP_ROOM_TYPES
            pattern = fill_pattern(block, sights, fwd, lo[1], hi[1], whole, (lo[2 - fwd], hi[2 - fwd]), seen_up) \
                if fwd is not None else ()
            if not pattern and pattern_only:
                continue
            block.drawn_margins = margins
            block.drawn_pattern = pattern


#: The least median share of a cell its masks cover for the cell to be drawn (see the module
#: docstring: 0.35 fitted best while the grid lay in the frame; on the upright plane 0.45 does).
FILL_SHARE = 0.45


#: The pattern of a slab drawn whole: one part across its width and up its height.
WHOLE_SLAB = (0.0, 1.0, 0.0, 1.0)

#: Room types whose faucets' cells above every mask's top cut continue the column below them
#: (:func:`_seen_up`) instead of being drawn whole: a kitchen faucet seen cut by the frame's top
#: is a neck or spout going on up (see the module docstring); bathrooms not measured so.
SEEN_UP_ROOM_TYPES = frozenset({"kitchen"})


def _seen_up(keep: np.ndarray, known: np.ndarray, shares: np.ndarray) -> np.ndarray:
    """``keep`` (rows from the bottom) with each cell no mask shows (``known`` False) above a
    shown one in its column drawn as the highest shown cell below it is (share at least
    :data:`FILL_SHARE`): THOR's kitchen faucets cut by the frame's top go on up as the neck or
    spout the frame cut, not as a whole row across. Cells with no shown cell below stay drawn."""
    out = keep.copy()
    for col in range(keep.shape[1]):
        below: bool | None = None
        for row in range(keep.shape[0]):
            if known[row, col]:
                below = bool(shares[row, col] >= FILL_SHARE)
            elif below is not None:
                out[row, col] = below
    return out


def _spread_side(grid: np.ndarray, fact: SightFact, fwd: int, axis: int, middle: float,
                 across: tuple[float, float] | None, cut_low: bool) -> np.ndarray | None:
    """``grid`` (columns from the slab's low end) of a mask the frame's side cut, its columns
    spread over the part of the slab (``across``, metres along ``axis``) the frame shows: from
    where the cut (:attr:`SightFact.fill_side`) meets the slab's plane to the slab's other end;
    the columns past the cut unknown (NaN). None when the cut misses the slab."""
    if across is None or fact.fill_side is None:
        return None
    seen = on_plane(fact.eye, fact.fill_side, fwd, middle, axis)
    low, high = across
    if seen is None or not low < seen < high:
        return None
    start, end = (seen, high) if cut_low else (low, seen)
    return _spread(grid, 1, (low, high), (start, end))


def _spread(grid: np.ndarray, axis: int, slab: tuple[float, float], seen: tuple[float, float]) -> np.ndarray:
    """``grid``'s cells along ``axis`` (0: rows from the bottom, 1: columns from the low end)
    stretched over the part of the slab the frame showed (``seen``, from, to, metres, within the
    slab's ``slab``): each cell of the slab whose middle lies there takes the mask's cell at the
    same share of that part; the cells past it are unknown (NaN). A mask cut by the frame's top
    or side covers only that part of the slab."""
    low, high = slab
    start, end = seen
    spread = np.full(grid.shape, np.nan)
    source, target = (grid, spread) if axis == 0 else (grid.T, spread.T)  # views: rows along ``axis``
    for cell in range(FILL_GRID):
        place = low + (cell + 0.5) / FILL_GRID * (high - low)
        if start <= place < end:
            target[cell] = source[min(FILL_GRID - 1, int((place - start) / (end - start) * FILL_GRID))]
    return spread


def fill_pattern(block: Block, sights: Sequence[SightFact], fwd: int,
                 bottom: float | None = None, top: float | None = None,
                 whole: tuple[float, ...] = (), across: tuple[float, float] | None = None,
                 seen_up: bool = False) -> tuple[float, ...]:
    """Where ``block``'s slab is drawn, from how its masks looking along ``fwd`` fill their
    bounding boxes (:attr:`SightFact.fill`): each cell of the :data:`FILL_GRID` grid whose median
    share is at least :data:`FILL_SHARE`, turned so its columns run from the slab's low end; runs
    of such cells in a row are one part. A mask the frame's top cut (:attr:`SightFact.fill_top`)
    spans the slab (``bottom`` to ``top``, metres) only up to where that cut meets the slab's plane:
    its rows are spread over that height, and says nothing about the cells above it (drawn unless
    another mask says otherwise). Flat (from, to) across the slab, (from, to) up it, fractions, 4
    per part (:attr:`Block.drawn_pattern`); empty with fewer than :data:`MIN_MASKS` masks, ``whole``
    when every cell is drawn (the whole slab). A mask the frame's left or right border cuts
    (:attr:`SightFact.fill_side`) spans the slab across (``across``, metres) only from its other end
    to where that cut meets the slab's plane (:func:`_spread_side`). With ``seen_up``, the cells
    above every mask's top cut are drawn as the highest cell some mask shows in their column
    (:func:`_seen_up`), not whole."""
    middle = (block.lo[fwd] + block.hi[fwd]) / 2.0  # the slab's plane (its middle, as plane_sides)
    grids = []
    for fact, (facing, _fsign, _right, rsign) in headed_sights(block, sights):
        if facing != fwd or len(fact.fill) != FILL_GRID * FILL_GRID:
            continue
        grid = np.asarray(fact.fill, dtype=float).reshape(FILL_GRID, FILL_GRID)[::-1]  # rows from the bottom
        grid = grid if rsign > 0 else grid[:, ::-1]  # columns from the low end of the across axis
        if fact.fill_side is not None:
            cut_low = fact.fill_side_left == (rsign > 0)  # the frame cut the slab's low end
            spread_across = _spread_side(grid, fact, fwd, 2 - fwd, middle, across, cut_low)
            if spread_across is None:
                continue
            grid = spread_across
        if fact.fill_top is not None:
            if bottom is None or top is None:
                continue
            seen = on_plane(fact.eye, fact.fill_top, fwd, middle, 1)
            if seen is None or seen <= bottom:
                continue
            grid = _spread(grid, 0, (bottom, top), (bottom, seen))
        grids.append(grid)
    if len(grids) < MIN_MASKS:
        return ()
    stacked = np.stack(grids)
    known = ~np.isnan(stacked).all(axis=0)
    shares = np.nanmedian(np.where(known[None], stacked, 0.0), axis=0)
    keep = ~known | (shares >= FILL_SHARE)
    if seen_up:
        keep = _seen_up(keep, known, shares)
    if not keep.any():
        return ()
    if keep.all():
        return whole
    out: list[float] = []
    for row in range(FILL_GRID):
        col = 0
        while col < FILL_GRID:
            if not keep[row, col]:
                col += 1
                continue
            end = col
            while end < FILL_GRID and keep[row, end]:
                end += 1
            out += [col / FILL_GRID, end / FILL_GRID, row / FILL_GRID, (row + 1) / FILL_GRID]
            col = end
    return tuple(out)
