"""An imported armchair or sofa is drawn with its back rest and arms above its seat.

A seat's box in an imported room is only as tall as where things rest on it (the learnt surface
height, :data:`~alfred_gen.scenes.alfred.fixture_sizing.SEATS`), so that the simulator's support
rule puts a pillow or a remote on the cushion, not on top of the back rest. Drawn in that box, an
armchair or a sofa is a low block: THOR's masks of them at the puts onto them also cover the back
rest and the arms above the seat. On the wide sample (every 20th train demo, held out by folds,
main at session 86's end) lite drew armchairs at 0.72 and sofas at 0.82 of THOR's pixels (median),
their masks' middles 30 pixels lower than THOR's (IoU 0.522 over 17 puts, 0.620 over 12).

So each :data:`BACKED_SEATS` fixture standing on the floor gets drawing parts
(:attr:`~alfred_gen.sim.scene.SceneObject.parts`, not its box: nothing rests on them) above its
box: a back rest :data:`BACK_DEPTH` deep along its back, up to its type's catalogue height over its
bottom, and an arm :data:`ARM_WIDTH` wide at each end, up to :data:`ARM_TOP`. The seat stays
where things rest (raising the whole drawing to the catalogue height drew the seat at 0.45 m and
buried a credit card lying on FloorPlan227's sofa at 0.28 m). What rests on the seat carves the
parts, up and out through the seat's front (:data:`~alfred_gen.sim.pixels.CARVED_AS_DRAWN`): drawn
uncarved, the back rest and arms hid a credit card, a book and a newspaper lying on the seat from
the pickups of the wide sample (fidelity 90.4% on its 42 demos in living rooms); carved only above
what rests there, a card still lay behind the back rest; with arms up to 0.65 m a card lying
against FloorPlan216's armchair's arm was hidden (THOR: 164 pixels, lite 11), at 0.6 m it is seen.

Wide sample, held out by folds: armchairs 0.522 -> 0.683, sofas 0.620 -> 0.773 (mean IoU of the
puts onto them), all interactions 0.6625 -> 0.6644, ALFRED's rule 2,037 of 2,104 kept (no pick won
or lost), ``fidelity_heldout`` 100%. On the measured set (not tuned on) 0.6359 -> 0.6394, rule
330 of 336 kept.

The back rest stands at the back of the seat's front, which the pose the agent uses it from gives
(:func:`~alfred_gen.scenes.alfred.fixture_sizing.facing_of`). Nothing rests under a back rest, but
FloorPlan203's armchair had 23 of the 52 things its train demos start on its seat under it (7 at the
other end), and THOR's masks of a remote, a key chain and a credit card lying there fell on lite's
back rest, which faced the wrong way. So the back rest turns to
the other end when :data:`BACK_EVIDENCE` or more of the things starting on the seat, and a third
(:data:`BACK_SHARE`) of them or more, lie under it and fewer at the other end (:func:`back_side`).
Over the 76 seats of the catalogue built from every train demo with things on them, the share under
the back rest is 0.44 for that armchair and 0.20 or less for every other; FloorPlan211's sofa has
18 of 121 under it (0.15), and turned, its masks said no (IoU of puts onto it 0.92 to 0.43, held out
by folds), so a small share does not turn it. Held out by folds over every demo of FloorPlan203 and
211: 3 more demos replay (``fidelity_heldout`` 96.3% to 100% over their 83), and ALFRED's rule picks
221 of 228 interactions before and 229 of 233 after (the 3 pickups from the armchair won, and the
5 interactions of the replays that had stopped), mean IoU 0.628 to 0.636.

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import Box

#: Seats drawn with their back rest and arms.
BACKED_SEATS = frozenset({"ArmChair", "Sofa"})
#: How deep the back rest is, and the most of the seat's depth it takes (metres, share).
BACK_DEPTH = (0.22, 0.35)
#: How wide each arm is, and the most of the seat's width it takes (metres, share).
ARM_WIDTH = (0.16, 0.2)
#: How high over the seat's bottom the arms reach (metres).
ARM_TOP = 0.6
#: How many things' start positions must lie under a seat's back rest, and at least what share of
#: all those on its seat, for the back rest to turn round (:func:`back_side`; see the module docstring).
BACK_EVIDENCE, BACK_SHARE = 5, 1 / 3
#: How far under and over a seat's top (metres) a thing's origin may lie and the thing rest on the
#: seat: a cushion gives a little, and a tall thing's origin stands above its bottom.
ON_SEAT = (0.05, 0.3)

Point = tuple[float, float, float]


def back_height(kind: str) -> float:
    """How high over its bottom a :data:`BACKED_SEATS` seat's back rest reaches: its catalogue height."""
    return float(catalogue.object_type(kind).size[1])


def _part(block: Block, spans: dict[int, tuple[float, float]]) -> Box:
    lo, hi = list(block.lo), list(block.hi)
    for axis, (a, b) in spans.items():
        lo[axis], hi[axis] = a, b
    return Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


def _back_depth(block: Block, axis: int) -> float:
    """How deep a seat's back rest is along its depth ``axis`` (:data:`BACK_DEPTH`)."""
    return min(BACK_DEPTH[0], BACK_DEPTH[1] * (block.hi[axis] - block.lo[axis]))


def _back_span(block: Block, axis: int, sign: int, back: float) -> tuple[float, float]:
    return (block.lo[axis], block.lo[axis] + back) if sign > 0 else (block.hi[axis] - back, block.hi[axis])


def _under(span: tuple[float, float], axis: int, points: Sequence[Point]) -> int:
    return sum(1 for p in points if span[0] <= p[axis] <= span[1])


def back_side(block: Block, resting: Sequence[Point]) -> int:
    """Which way along its depth axis a seat's front faces for its back rest (+1: the front faces
    the axis' high end and the back rest stands at the low end; -1 the other way round): the seat's
    own front, unless the start positions of things resting on its seat (``resting``: their
    origins; those over the seat are counted) put at least :data:`BACK_EVIDENCE` of them, and
    :data:`BACK_SHARE` of all on the seat, where that back rest would stand, and fewer at the other
    end: nothing rests under a back rest, so the front is the other way."""
    axis, sign = block.front_axis
    across = 2 - axis
    back = _back_depth(block, axis)
    below, above = ON_SEAT
    seat = block.hi[1]
    on_seat = [p for p in resting if block.lo[across] <= p[across] <= block.hi[across]
               and block.lo[axis] <= p[axis] <= block.hi[axis] and seat - below <= p[1] <= seat + above]
    here = _under(_back_span(block, axis, sign, back), axis, on_seat)
    there = _under(_back_span(block, axis, -sign, back), axis, on_seat)
    if here >= BACK_EVIDENCE and here >= BACK_SHARE * len(on_seat) and there < here:
        return -sign
    return sign


def rest_parts(block: Block, resting: Sequence[Point] = ()) -> tuple[Box, ...]:
    """The back rest and arms drawn above a floor-standing :data:`BACKED_SEATS` seat's box, the
    back rest at :func:`back_side` (``resting``: where things resting in the room start); ()
    for other fixtures or where the box already reaches as high."""
    if block.kind not in BACKED_SEATS or not block.floor_origin:
        return ()
    axis, _ = block.front_axis
    sign = back_side(block, resting)
    across = 2 - axis
    seat = block.hi[1]
    width = block.hi[across] - block.lo[across]
    back = _back_depth(block, axis)
    arm = min(ARM_WIDTH[0], ARM_WIDTH[1] * width)
    back_span = _back_span(block, axis, sign, back)
    parts = []
    top = block.lo[1] + back_height(block.kind)
    if top > seat:
        parts.append(_part(block, {1: (seat, top)} | {axis: back_span}))
    arm_top = block.lo[1] + ARM_TOP
    if arm_top > seat:
        for end in ((block.lo[across], block.lo[across] + arm), (block.hi[across] - arm, block.hi[across])):
            parts.append(_part(block, {1: (seat, arm_top), across: end}))
    return tuple(parts)
