"""A fridge is drawn as deep as THOR's masks of it shut show: its front where their foot meets the floor.

Every imported fridge gets the catalogue type's box, 1.001 m wide, 1.842 m tall, 0.723 m deep,
centred on THOR's id; THOR 2.1's kitchens use a dozen fridge models, 0.55-0.95 m deep (ProcTHOR's
asset database, read as a check only). Lite's masks of a fridge then sat above or below THOR's:
over the wide sample (every 20th train demo, held out by folds) the median row offset of lite's
mask of a shut fridge from THOR's was 11-12 px up in FloorPlan4, 7 and 17 (IoU 0.85) and 7-17 px
down in FloorPlan11, 21 and 30 (IoU 0.77-0.90).

The agent opens a fridge from a step or two in front of it, so THOR's mask of the shut fridge
(recorded with its ``OpenObject``) fills the frame's width and top in all but a handful of the
train demos (kitchens 1-30: of 2,777 such masks 29 end inside the frame on the left or right and 4
at the top), and neither the fridge's width nor its height can be read from them. Their bottom
edge is whole in 2,424: the ray through it grazes the fridge's front where it meets the floor, so
where it meets the plane of the box's bottom lies the front's foot (:func:`foot_points`). Per
kitchen the median of these points lies 0.13 m behind lite's front (FloorPlan30) to 0.06 m in
front of it (FloorPlan4), tightly (interquartile range within 0.07 m in each of the 23 kitchens
with 3 or more), and agrees in sign with the asset database's depth against 0.723 m in 17 of 23.

The fridge's back stands against the wall, so only the front's drawing moves to that median, at
most :data:`MAX_MOVE` (:attr:`~alfred_gen.scenes.alfred.fixture_block.Block.drawn_margins`). Drawing
only: the box that holds what is put in the fridge, its shelves, its put points and what the agent
reaches stay as they were, so where things land in it does not change. Only imported rooms are
built here, so procedural rooms are untouched.

Measured (session 85) on the wide sample's kitchens (every 20th train demo, FloorPlans 1-30, each
room built from the other 4 of 5 folds): IoU of the fridge's OpenObject masks 0.895 -> 0.916 (136),
CloseObject 0.855 -> 0.864 (136), PutObject into it 0.845 -> 0.856 (74), no rule pick won or lost
(1,537 interactions, +4.8 IoU units), fidelity_heldout 100%.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import SHUT_ACTION, headed_sights, margins_of
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
    axis, sign = block.front_axis
    out = []
    for fact, (fwd, fsign, _right, _rsign) in headed_sights(block, sights):
        if fact.action != SHUT_ACTION or fwd != axis or fsign != -sign:
            continue
        ray = fact.sides[3]
        if ray is None or ray[1] >= 0.0:
            continue
        t = (block.lo[1] - fact.eye[1]) / ray[1]
        out.append(fact.eye[axis] + t * ray[axis])
    return out


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
    value = front + max(-MAX_MOVE, min(MAX_MOVE, statistics.median(feet) - front))
    lo, hi = list(block.lo), list(block.hi)
    if sign > 0:
        hi[axis] = max(value, lo[axis] + 0.1)
    else:
        lo[axis] = min(value, hi[axis] - 0.1)
    return Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


def fronts_to_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """Each fridge whose shut masks show its foot is drawn with its front there
    (:attr:`Block.drawn_margins`), its box unchanged."""
    for block in blocks:
        drawn = drawn_front(block, sights)
        if drawn is not None:
            block.drawn_margins = margins_of(block.box(), drawn.lo, drawn.hi)
