"""Which single cabinets THOR draws as a double door under one id, where its own masks of them open show it.

THOR's double-door cabinet is usually two ids, one per leaf (:func:`~alfred_gen.sim.shapes.door_pair`),
but some of its cabinets are a pair of leaves opening outward from the middle under one id: lite drew
them with one leaf, as wide as the front, at one end, where THOR's mask shows a leaf at each end, each
half the front wide. FloorPlan1's ``Cabinet|-01.18|+00.50|-02.20`` is one: THOR's mask of it open
(12,391 px) was twice lite's (6,714 px), and ALFRED's rule picked the neighbouring cabinet behind it.

Every interaction with a cabinet recorded THOR's mask of it, and the evidence keeps 60 rays through
each (:attr:`~alfred_gen.scenes.alfred.sight_facts.SightFact.door_rays`) and its four bounding rays.
Lite draws the open door square to the front at its hinge, as deep as its door is wide; drawn double,
a leaf at each end half as deep. Each ray that passes beside the opening
(:func:`~alfred_gen.scenes.alfred.door_hinges.leaf_hits` reads the same rays) meets the leaves of one
drawing, of the other, of both or of none; a mask votes for the drawing more of its rays meet alone,
the single one at whichever end meets more (a shut cabinet's mask meets none and does not vote).
The votes are read on the cabinet's shut drawing (:attr:`Block.shut_margins` added): THOR's leaves
hang at the ends of its door's face, which the shut masks place. A cabinet whose masks vote
:data:`MIN_VOTES` or more and at least :data:`SHARE` of them for two leaves is drawn so
(:attr:`Block.double_door`), open across its shut drawing's front.

Checked offline on every train demo's masks of single cabinets open (a CloseObject, or a PutObject
into it: 1,177 masks of 192 cabinets that are no door of a pair), each room built from the other 4
of 5 folds and each cabinet's votes read from those folds' masks, lite's open cabinet drawn alone
from the demo's camera against THOR's mask (``bench/one_id_double_doors.py``). The rule (its
constants are :mod:`~alfred_gen.scenes.alfred.door_hinges`' own, untuned) was set on the odd
FloorPlans, where it calls FloorPlan1's cabinet double in all 5 folds and no other: its 18 masks
0.020 -> 0.118. On the even ones it calls FloorPlan2's ``Cabinet|-00.50|+00.48|-01.15`` (3 folds)
and FloorPlan30's ``Cabinet|+02.85|+00.42|+00.41`` (3 folds): 16 masks 0.247 -> 0.348. No mask of
a called cabinet scored less. Drawn double on its open box instead (without the shut drawing's
reach), FloorPlan1's masks scored 0.032; drawn with one leaf across the shut front, 0.082. A mask
needing 2 or 3 more rays for one drawing than the other to vote, or 3 votes, called the same on
the odd FloorPlans and dropped FloorPlan2's cabinet in 2 or 3 folds on the even ones.

A vote can rest on one ray: built from all the evidence, FloorPlan11's wall cabinet
``Cabinet|+01.97|+01.69|-01.65`` had two masks voting for two leaves by a single ray each (1 to 0)
and none against, and was drawn double, while in the rooms built from the other folds its open masks
voted for one leaf (by 6 and 10 rays) or not at all; drawn double, its masks scored 0.519 -> 0.418
(in-sample). So a cabinet is called only when one of its masks, at least, votes by
:data:`STRONG_MARGIN` rays or more. Every cabinet the bench calls held out has such a mask in every
fold (FloorPlan1's votes run 4 to 22 rays, FloorPlan30's 3 to 7, FloorPlan2's 1 or 2), so no held-out
mask changed on either half (odd 0.385, even 0.426 over all single cabinets' masks, as before).
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.scenes.alfred.door_hinges import SINGLE_CABINETS, drawn_block, hits_leaf, hits_opening
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_sizing import door_partner
from alfred_gen.scenes.alfred.sight_facts import SightFact

#: Masks voting for two leaves before a cabinet is drawn with them.
MIN_VOTES = 2
#: Share of the voting masks that must name two leaves.
SHARE = 0.75
#: Rays by which one mask, at least, must vote for two leaves (more rays meeting only them than only
#: one leaf): a 1-ray vote turns on a centimetre of the shut drawing.
STRONG_MARGIN = 2


def leaf_counts(fact: SightFact, block: Block) -> tuple[int, int]:
    """(rays of ``fact``'s mask that pass beside ``block``'s opening and meet only the leaves of a
    double door, half the front wide at each end; that meet only a single leaf as wide as the front,
    at the end where more do)."""
    across = block.across_axis
    lo, hi = block.lo[across], block.hi[across]
    width = hi - lo
    only_double = [0, 0]
    only_single = [0, 0]
    for ray in (*(fact.door_rays or fact.rays), *(side for side in fact.sides if side is not None)):
        if hits_opening(fact.eye, ray, block, lo, hi):
            continue
        halves = hits_leaf(fact.eye, ray, block, lo, width / 2.0) or hits_leaf(fact.eye, ray, block, hi, width / 2.0)
        for end, hinge in enumerate((lo, hi)):
            whole = hits_leaf(fact.eye, ray, block, hinge, width)
            only_double[end] += halves and not whole
            only_single[end] += whole and not halves
    end = 0 if only_single[0] - only_double[0] >= only_single[1] - only_double[1] else 1
    return only_double[end], only_single[end]


def double_margin(fact: SightFact, block: Block) -> int:
    """How many more of ``fact``'s rays meet only a double door's leaves than only the better single
    leaf (:func:`leaf_counts`): above 0 the mask votes for two leaves, below 0 for one."""
    double, single = leaf_counts(fact, block)
    return double - single


def double_margins(block: Block, sights: Sequence[SightFact]) -> list[int]:
    """:func:`double_margin` of each mask of ``block``, read on its shut drawing."""
    shut = drawn_block(block, shut=True)
    return [double_margin(fact, shut) for fact in sights if fact.target == block.object_id]


def is_double(margins: Sequence[int]) -> bool:
    """Whether masks voting by ``margins`` (:func:`double_margin`) draw a cabinet as a double door:
    :data:`MIN_VOTES` and :data:`SHARE` of the votes for two leaves, one of them by
    :data:`STRONG_MARGIN` rays or more."""
    double = sum(m > 0 for m in margins)
    single = sum(m < 0 for m in margins)
    return double >= MIN_VOTES and double >= SHARE * (double + single) and max(margins) >= STRONG_MARGIN


def doubles_at_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """Each single cabinet (no door of a pair) whose open masks show two leaves is drawn as a double
    door (see the module docstring): :attr:`Block.double_door` is set and its open drawing spans its
    shut drawing's front (the across-front :attr:`Block.shut_margins` move into
    :attr:`Block.drawn_margins`)."""
    cabinets = [b for b in blocks if b.kind in SINGLE_CABINETS]
    for block in cabinets:
        if door_partner(block, cabinets) is not None or not is_double(double_margins(block, sights)):
            continue
        block.double_door = True
        if block.shut_margins:
            block.draw_shut_sides([block.across_axis, block.across_axis + 3])
