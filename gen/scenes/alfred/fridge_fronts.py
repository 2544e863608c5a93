"""A fridge is drawn as deep and at least as wide as THOR's masks of it shut show: its front where their
foot meets the floor, its sides as far as they reach.

Every imported fridge gets the catalogue type's box, 1.001 m wide, 1.842 m tall, 0.723 m deep,
centred on THOR's id; THOR 2.1's kitchens use a dozen fridge models, 0.55-0.95 m deep (ProcTHOR's
asset database, read as a check only). Lite's masks of a fridge then sat above or below THOR's:
over the wide sample (every 20th train demo, held out by folds) the median row offset of lite's
mask of a shut fridge from THOR's was 11-12 px up in FloorPlan4, 7 and 17 (IoU 0.85) and 7-17 px
down in FloorPlan11, 21 and 30 (IoU 0.77-0.90).

The agent opens a fridge from a step or two in front of it, so THOR's mask of the shut fridge
(recorded with its ``OpenObject``) fills the frame's width and top in all but a handful of the
train demos (kitchens 1-30: of 2,777 such masks 29 end inside the frame on the left or right and 4
at the top), and neither the fridge's width nor its height can be read from their outline. Their bottom
edge is whole in 2,424: the ray through it grazes the fridge's front where it meets the floor, so
where it meets the plane of the box's bottom lies the front's foot (:func:`foot_points`). Per
kitchen the median of these points lies 0.13 m behind lite's front (FloorPlan30) to 0.06 m in
front of it (FloorPlan4), tightly (interquartile range within 0.07 m in each of the 23 kitchens
with 3 or more), and agrees in sign with the asset database's depth against 0.723 m in 17 of 23.

The fridge's back stands against the wall, so only the front's drawing moves to that median, at
most :data:`MAX_MOVE` (:attr:`~alfred_gen.scenes.alfred.fixture_block.Block.drawn_margins`).

A shut mask cut by the frame still proves a lower bound on the width: each of its pixels sees the
fridge, so the rays through them (the 60 door rays a fridge's facts keep) met with the front's
plane span no more than THOR's front (:func:`reach_points`). Where the masks reach past a side of
lite's 1.0 m (at :data:`REACH_PERCENTILE` of the masks), that side is drawn out to them; never in,
since the frame, not the fridge, may have ended them. In the rooms built from every train demo this
widens 9 kitchens' fridges, to 1.04-1.23 m; the asset database's fridge is wider than 1.0 m in 6 of
them (FloorPlan4, 7, 13, 15, 16, 17: 1.05-1.17 m) and 0.87-1.00 m in 3 (FloorPlan2, 23, 27, drawn
1.01-1.06 m). Narrower fridges (FloorPlan12, 21, 24, 25, 30: 0.77-0.84 m in the database) cannot be
read from the door rays, as their heights cannot (the top shows in 4 masks).

A side the frame does not cut can: the ray through a mask's leftmost or rightmost pixel meets the
front's plane where the front ends, or farther out when it passes the front to the side face, so
the drawing comes in to the :data:`NARROW_PERCENTILE` of those points (:func:`side_points`). The
fridge open (the masks of CloseObject) shows its interior's side at the end away from its door's
hinge, and those masks count there too. With the fridge drawn open lite's mask of it reached past
THOR's at that end: in FloorPlan25 THOR's mask ends 0.13 m inside lite's 1.0 m box (the wide
sample's Close masks there 0.795, its interior's wall drawn where THOR showed the wall beside it).
In the rooms built from every train demo this narrows 10 kitchens' fridges (FloorPlan1, 2, 5, 6,
15, 16, 21, 25, 26, 30) by 0.05-0.14 m at one end. Wide sample (every 20th train demo, held out by
folds, session 92): IoU 0.6804 -> 0.6819 (Fridge CloseObject 136 masks 0.871 -> 0.885, PutObject 74
0.868 -> 0.884, OpenObject 0.934 -> 0.935), rule picks 2042/2104 as before (none won or lost),
fidelity_heldout 100%. Drawing
only: the box that holds what is put in the fridge, its shelves, its put points and what the agent
reaches stay as they were, so where things land in it does not change. Only imported rooms are
built here, so procedural rooms are untouched.

Measured (session 85) on the wide sample's kitchens (every 20th train demo, FloorPlans 1-30, each
room built from the other 4 of 5 folds; 1,537 interactions, no rule pick won or lost by either step,
fidelity_heldout 100%): IoU of the fridge's OpenObject masks 0.895 -> 0.916 with the front alone ->
0.929 with the widths too (136 masks), CloseObject 0.855 -> 0.864 -> 0.866 (136), PutObject into it
0.845 -> 0.856 -> 0.859 (74); +4.8 then +2.3 IoU units.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import (
    SHUT_ACTION,
    draw_each,
    headed_sights,
    moved_toward,
    on_plane,
    shut_front_sights,
)
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box

#: Types whose drawn front is fitted to the foot of their shut masks.
FOOT_TYPES = frozenset({"Fridge"})
#: Masks whose foot is read before the front's drawing moves.
MIN_MASKS = 3
#: The farthest the front's drawing moves (metres).
MAX_MOVE = 0.25


def foot_points(block: Block, sights: Sequence[SightFact]) -> list[float]:
    """Where along the front's axis each shut mask of ``block`` seen from in front says its front
    stands: its bottommost ray (when the frame does not cut it) met with the plane of the box's bottom."""
    axis, _ = block.front_axis
    out = []
    for fact, _right, _rsign in shut_front_sights(block, sights):
        ray = fact.sides[3]
        if ray is None or ray[1] >= 0.0:
            continue
        foot = on_plane(fact.eye, ray, 1, block.lo[1], axis)
        if foot is not None:
            out.append(foot)
    return out


#: Percentile of the shut masks' reach past each side the drawing grows to (:func:`reach_points`).
#: On the wide sample's kitchens (held out) the 25th gave 0.35 IoU units less than the 10th, the 3rd
#: 0.14 more (Open 0.927 / 0.929 / 0.930), no pick changing: the 10th is kept, less exposed to a
#: mask that shows the fridge's side face past its front.
REACH_PERCENTILE = 10.0


def reach_points(block: Block, sights: Sequence[SightFact], front: float) -> tuple[list[float], list[float]]:
    """Per shut mask of ``block`` seen from in front: how far across its front (the low and the high
    end along the world axis across it) its door rays reach, met with the plane ``front``. Every
    such ray sees the shut fridge, so THOR's front spans at least that far."""
    axis, _ = block.front_axis
    across = 2 - axis
    lows, highs = [], []
    for fact, _right, _rsign in shut_front_sights(block, sights):
        met = (on_plane(fact.eye, ray, axis, front, across) for ray in fact.door_rays)
        points = [point for point in met if point is not None]
        if points:
            lows.append(min(points))
            highs.append(max(points))
    return lows, highs


#: Percentile of the uncut side rays' crossings a side of the drawing comes in to
#: (:func:`side_points`): the 10th from the inside, near the least outward, as :data:`REACH_PERCENTILE`.
NARROW_PERCENTILE = 10.0


def side_points(block: Block, sights: Sequence[SightFact], front: float) -> tuple[list[float], list[float]]:
    """Where the rays through the leftmost and rightmost pixels of ``block``'s masks seen from in
    front (where the frame does not cut them) meet the plane ``front``, by the end of the front they
    lie at (low, high along the world axis across it).

    That pixel sees the fridge at its front's edge, or, seen past the edge, on its side face, which
    the ray reaches after passing the front's plane farther out: THOR's side lies no farther out
    than where the ray meets the plane. A mask of the fridge open (any action but the one that
    opens it) counts only at the end without a door (:attr:`Block.hinge`): the open leaf stands
    out at its hinge. A one-door fridge keeps its hinge end as drawn, shut masks or not: lite's
    open leaf swings from that end, and FloorPlan26's, brought 0.10 m in there by its shut masks,
    lost its open masks 0.18 IoU units (13 masks of the wide sample, 0.889 -> 0.875; it is the one
    fridge narrowed at its hinge end); kept as drawn, they are as before."""
    axis, sign = block.front_axis
    lows: list[float] = []
    highs: list[float] = []
    for fact, (fwd, fsign, right, rsign) in headed_sights(block, sights):
        if fwd != axis or fsign != -sign:
            continue
        for ray, left_side in ((fact.sides[0], True), (fact.sides[1], False)):
            end = int((rsign > 0) != left_side)  # screen-left is the low end when right is +
            at_hinge = bool(block.hinge) and end == int(block.hinge > 0)
            if ray is None or at_hinge or (fact.action != SHUT_ACTION and not block.hinge):
                continue
            point = on_plane(fact.eye, ray, axis, front, right)
            if point is not None:
                (highs if end else lows).append(point)
    return lows, highs


def drawn_front(block: Block, sights: Sequence[SightFact]) -> Box | None:
    """The box ``block`` is drawn in with its front at the median of :func:`foot_points`, at most
    :data:`MAX_MOVE` off; None with fewer than :data:`MIN_MASKS` masks or for other types."""
    if block.kind not in FOOT_TYPES:
        return None
    feet = foot_points(block, sights)
    if len(feet) < MIN_MASKS:
        return None
    axis, sign = block.front_axis
    front = block.front()
    value = moved_toward(front, statistics.median(feet), MAX_MOVE)
    lo, hi = list(block.lo), list(block.hi)
    if sign > 0:
        hi[axis] = max(value, lo[axis] + 0.1)
    else:
        lo[axis] = min(value, hi[axis] - 0.1)
    across = block.across_axis
    lows, highs = reach_points(block, sights, value)
    if len(lows) >= MIN_MASKS:
        low = float(np.percentile(lows, REACH_PERCENTILE))
        high = float(np.percentile(highs, 100.0 - REACH_PERCENTILE))
        lo[across] = max(min(lo[across], low), lo[across] - MAX_MOVE)
        hi[across] = min(max(hi[across], high), hi[across] + MAX_MOVE)
    lows, highs = side_points(block, sights, value)
    if len(lows) >= MIN_MASKS:
        lo[across] = min(max(lo[across], float(np.percentile(lows, 100.0 - NARROW_PERCENTILE))), lo[across] + MAX_MOVE)
    if len(highs) >= MIN_MASKS:
        hi[across] = max(min(hi[across], float(np.percentile(highs, NARROW_PERCENTILE))), hi[across] - MAX_MOVE)
    return Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


def fronts_to_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """Each fridge whose shut masks show its foot is drawn with its front there
    (:attr:`Block.drawn_margins`), its box unchanged."""
    draw_each(blocks, lambda block: drawn_front(block, sights))
