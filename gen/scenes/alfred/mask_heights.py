"""Where a fixture's box lies above its id, and what of it THOR draws, by room type, as THOR's own
masks of it show.

A fixture that is not a THOR asset and not a surface is centred on its id
(:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`). For a kitchen faucet that is
right, but THOR 2.1's bathroom faucets hang their mesh above their origin: projected with ALFRED's
camera (:data:`~alfred_gen.sim.scene.ALFRED_CAMERA`) from the pose the demo acted from, the
middle of THOR's mask of a bathroom faucet being switched on or off lies 0.082 m above the id
(median of 253 masks in 25 bathrooms; quartiles 0.055 and 0.147; positive in 21 of the 25 rooms),
its top 0.197 m and its bottom 0.035 m above and below; over 614 kitchen faucet masks (26
kitchens) the middle is 0.002 m above the id. Measured over the train demos of clean tasks, leaving
out the 238 the mask figure of ``bench/alfred_fidelity.py --masks`` is read on. Centred on its id,
lite's bathroom faucet half sank into the counter slab and THOR's mask fell above it (IoU 0 in
FloorPlan408, 422 and 428, and the switch resolved to the counter top).

THOR 2.1's bathroom faucets are two handles, one at either side of the spout, and THOR's mask of
the faucet is those handles alone: cast onto the upright plane through the id that faces the
camera, the mask spans 0.445 m across (room medians: 0.219 m left and 0.223 m right of the id, 13
of 13 bathrooms; in 9 of 13 it is two pieces with a gap between), each piece 0.11-0.13 m wide,
from 0.05 m below the id to 0.20 m above it (208 masks whole in the frame, train demos of clean
tasks leaving out the 238 of ``ALFRED_DATA``). Lite draws a faucet as a thin spout in the middle
of its box (:func:`alfred_gen.sim.shapes._faucet`), which no bathroom faucet mask touched: ALFRED's
rule then picked the counter top around it (10 of the 36 misses of the held-out mask figure). So
an imported bathroom's faucet also gets the two handles as drawing parts (:func:`handle_parts`),
where the masks put them (:data:`HANDLES`); its box, which the room's other rules read, is unchanged.

A microwave stands on its id, at the counter top, but THOR draws its body higher: what rests in it
(start states of every 4th train demo, 125 poses in 27 kitchens) lies 0.11 m above the id (room
medians 0.094-0.125), and lite's mask of a microwave standing on its id lies a median 8 px below
THOR's (415 masks of the every-20th train sample held out by folds, in each of FloorPlans 1-10,
11-20 and 21-30, open or shut). Raised by :data:`BASE_ABOVE_ID` (:func:`lift_to_masks`), its
height kept, lite's masks of it match THOR's best (see the table's note).

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import Box, plan_room_type

#: (type, room type) -> height of the box's middle above the id, metres (see the module docstring).
MIDDLE_ABOVE_ID: dict[tuple[str, str], float] = {("Faucet", "bathroom"): 0.08}


#: Type -> height of the box's bottom above the id, for a fixture whose id is at its base (metres;
#: see the module docstring). Fit by drawing each microwave's box raised by 0-8 cm (and 0-6 cm
#: shorter or taller, 0-6 cm farther back) before each interaction with it, in-sample rooms, 30
#: demos each of even and odd FloorPlans (train demos; the 238 of ALFRED_DATA not left out): pooled IoU
#: with THOR's masks on the even ones 0.842 as it stood, 0.874 raised 3 cm, 0.876 at 4, 0.859 at 5,
#: 0.834 at 6, 0.778 at 8 (3 cm shorter 0.879 at 4; taller or farther back, lower at 4 cm); on the
#: odd ones 0.790 -> 0.820 at 4 cm, 0.792 at 6.
BASE_ABOVE_ID: dict[str, float] = {"Microwave": 0.04}


@dataclass(frozen=True)
class Handles:
    """Two handles at either side of a fixture's id, across its front (metres): their outer edges
    ``span`` apart, each ``depth`` deep, from ``bottom`` to ``top`` above the id, each a ``stem``
    wide post under a cross bar ``width`` wide and ``bar`` tall at the top."""

    span: float
    width: float
    bottom: float
    top: float
    depth: float
    stem: float
    bar: float


#: (type, room type) -> the handles THOR's masks show (see the module docstring). The depth is not
#: seen from the front; it is the spout's (30% of the catalogue faucet's 0.248 m). THOR's handles
#: are crosses, so each is a 0.04 m stem under a 0.05 m cross bar: fit with ``bench/shape_fit.py
#: --type Faucet --demos 80`` over the train demos of bathroom clean tasks, the 238 left out
#: (in-sample rooms; 160 masks), pooled IoU 0.240 without handles, 0.213 with solid 0.12 m
#: handles, 0.257 with these crosses (0.251-0.256 for stems of 0.03-0.05 m and bars of
#: 0.04-0.06 m); cutting the spout out lowered it to 0.158.
HANDLES: dict[tuple[str, str], Handles] = {
    ("Faucet", "bathroom"): Handles(0.445, 0.12, -0.05, 0.20, 0.075, stem=0.04, bar=0.05)}


def handle_parts(block: Block, floor_plan: str) -> tuple[Box, ...]:
    """The drawing parts of a fixture's handles (:data:`HANDLES`), world boxes at its id across its
    front and at its box's middle in depth; none for other types, rooms and procedural rooms."""
    handles = HANDLES.get((block.kind, plan_room_type(floor_plan) or ""))
    if handles is None:
        return ()
    axis, _sign = block.front_axis
    across = 2 - axis
    middle = (block.lo[axis] + block.hi[axis]) / 2.0
    x, y, z = block.position
    centre = (x, y, z)[across]
    parts = []
    for lo_a, hi_a in ((centre - handles.span / 2, centre - handles.span / 2 + handles.width),
                       (centre + handles.span / 2 - handles.width, centre + handles.span / 2)):
        stem_middle = (lo_a + hi_a) / 2
        for a0, a1, b0, b1 in ((stem_middle - handles.stem / 2, stem_middle + handles.stem / 2,
                                handles.bottom, handles.top - handles.bar),
                               (lo_a, hi_a, handles.top - handles.bar, handles.top)):
            lo, hi = [0.0, y + b0, 0.0], [0.0, y + b1, 0.0]
            lo[across], hi[across] = a0, a1
            lo[axis], hi[axis] = middle - handles.depth / 2, middle + handles.depth / 2
            parts.append(Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])))
    return tuple(parts)


def lift_to_masks(block: Block) -> None:
    """Move a fixture's box, standing on its id, up by :data:`BASE_ABOVE_ID` (its height kept)."""
    lift = BASE_ABOVE_ID.get(block.kind)
    if lift is not None:
        block.lo[1] += lift
        block.hi[1] += lift


def raise_to_masks(block: Block, floor_plan: str) -> None:
    """Move a centred fixture's box up so its middle is :data:`MIDDLE_ABOVE_ID` above its id."""
    room_type = plan_room_type(floor_plan)
    if room_type is None:
        return
    rise = MIDDLE_ABOVE_ID.get((block.kind, room_type))
    if rise is None:
        return
    middle = block.position[1] + rise
    half = (block.hi[1] - block.lo[1]) / 2.0
    block.lo[1], block.hi[1] = middle - half, middle + half
