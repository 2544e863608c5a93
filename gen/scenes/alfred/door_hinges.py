"""Where a double-door cabinet's doors hang, where THOR's own masks of the open doors show it.

THOR puts a single cabinet's id at its door's hinge edge and the two ids of a double door at the
carcass's middle (:func:`~alfred_gen.sim.shapes.door_pair`), and lite hangs a pair's doors at the
outer ends (:func:`~alfred_gen.sim.shapes.hinged_at_high_end`). Some of THOR's "pairs" are two
single cabinets hinged at the wall they share, so both doors swing out from the middle:
FloorPlan19's ``Cabinet|-01.38|+00.39|-03.51`` and FloorPlan428's ``Cabinet|-01.48|+00.35|+03.17``
open with their leaves at the pair's middle in THOR's masks, and lite's leaf, swung out at the
outer end, hid the inside THOR showed; ALFRED's rule then picked the partner behind THOR's mask
(4 misses of the held-out mask figure at session 76's start).

Every interaction with a door recorded THOR's mask of it, and the evidence keeps a few rays from
the camera through each mask (:mod:`~alfred_gen.scenes.alfred.sight_facts`). A ray of an open
door's mask either passes through the opening (the front of the door's half) or meets the leaf,
which stands square to the front at the hinge end, as deep as the door is wide. Per mask, each
hinge end explains the rays that reach the opening or its leaf; a mask votes for the end that
explains more of them (a shut door's mask explains as many either way and does not vote). A pair
whose masks (both doors', each against its own half) vote :data:`MIN_VOTES` or more and at least
:data:`SHARE` of them for the middle hangs both doors there (:attr:`Block.hinge`).

A fridge is one door (or two rows of doors) hinged at either end of its front, or a pair of
French doors, one at each end, by THOR's model: lite draws a door at each end unless the room's
masks show one end (:data:`~alfred_gen.sim.thor_shapes.THOR_SWINGS`). Each mask of a fridge
(its :attr:`~alfred_gen.scenes.alfred.sight_facts.SightFact.door_rays` and the rays through its
outermost pixels) that miss the opening votes for the end whose leaf, square to the front, they
meet, or for a door at each end when they meet both ends' leaves; a fridge whose masks vote
:data:`MIN_VOTES` or more and more than :data:`SINGLE_SHARE` of them for one end hangs its door
there (:func:`hinge_single_doors_at_their_masks`). A single cabinet (no door of a pair) hangs its
door by the same masks: each votes for the end whose leaf more of its rays meet (:func:`end_vote`),
and :data:`MIN_VOTES` and :data:`SHARE` of the votes for one end hang it there
(:data:`SINGLE_CABINETS`); a cabinet whose shut masks moved its drawing votes again on the drawn box,
where its door is drawn (:func:`hinge_drawn_cabinets_at_their_masks`).

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_sizing import door_pairs, door_partner
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import drawing_margins, with_margins

#: Masks voting for the middle before a pair's doors hang there.
MIN_VOTES = 2
#: Share of the voting masks that must name the middle.
SHARE = 0.75
#: How far past the opening's edges (and in front of the leaf's plane) a ray still counts (metres).
SLACK = 0.03


def _crossing(eye: Sequence[float], ray: Sequence[float], axis: int, value: float) -> float | None:
    """How far along ``ray`` from ``eye`` it crosses the plane where world axis ``axis`` is
    ``value``; None when it runs parallel to that plane or crossed it behind the eye."""
    if abs(ray[axis]) < 1e-9:
        return None
    t = (value - eye[axis]) / ray[axis]
    return t if t > 0.0 else None


def _within_height(eye: Sequence[float], ray: Sequence[float], t: float, block: Block) -> bool:
    y = eye[1] + t * ray[1]
    return block.lo[1] - SLACK <= y <= block.hi[1] + SLACK


def hits_opening(eye: Sequence[float], ray: Sequence[float], block: Block, lo: float, hi: float) -> bool:
    """Whether the ray from ``eye`` passes through ``block``'s front between ``lo`` and ``hi`` across it
    (within :data:`SLACK`), at the block's height: it looks into the opening, past any leaf."""
    axis, _ = block.front_axis
    across = 2 - axis
    t = _crossing(eye, ray, axis, block.front())
    if t is None:
        return False
    return lo - SLACK <= eye[across] + t * ray[across] <= hi + SLACK and _within_height(eye, ray, t, block)


def hits_leaf(eye: Sequence[float], ray: Sequence[float], block: Block, hinge: float, width: float) -> bool:
    """Whether the ray from ``eye`` meets a leaf ``width`` wide standing square to ``block``'s front at
    ``hinge`` (across it), out of the front (within :data:`SLACK`), at the block's height."""
    axis, sign = block.front_axis
    t = _crossing(eye, ray, 2 - axis, hinge)
    if t is None:
        return False
    out = (eye[axis] + t * ray[axis] - block.front()) * sign
    return -SLACK <= out <= width + SLACK and _within_height(eye, ray, t, block)


def mask_vote(fact: SightFact, block: Block, middle: float) -> int:
    """+1 when ``fact``'s mask is better explained by ``block``'s door hanging at the pair's
    ``middle``, -1 at its outer end, 0 when neither explains more rays."""
    across = block.across_axis
    lo, hi = block.lo[across], block.hi[across]
    width = hi - lo
    inner, outer = (lo, hi) if abs(lo - middle) <= abs(hi - middle) else (hi, lo)
    at_middle = at_outer = 0
    for ray in fact.rays:
        opening = hits_opening(fact.eye, ray, block, lo, hi)
        at_middle += opening or hits_leaf(fact.eye, ray, block, inner, width)
        at_outer += opening or hits_leaf(fact.eye, ray, block, outer, width)
    return (at_middle > at_outer) - (at_outer > at_middle)


def pair_votes(block: Block, partner: Block, sights: Sequence[SightFact]) -> tuple[int, int]:
    """(masks of the pair's doors voting for the middle, voting for the outer ends)."""
    across = block.across_axis
    middle = (block.position[across] + partner.position[across]) / 2.0
    votes = [mask_vote(fact, door, middle) for door in (block, partner)
             for fact in sights if fact.target == door.object_id]
    return votes.count(1), votes.count(-1)


def hinge_pairs_at_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """Each double door whose open masks show its leaves at the middle hangs them there (see the
    module docstring): :attr:`Block.hinge` is set to the end of each box at the middle."""
    for block, partner in door_pairs([b for b in blocks if b.kind == "Cabinet"]):
        middle_votes, outer_votes = pair_votes(block, partner, sights)
        _hang_pair_by_votes(block, partner, middle_votes, outer_votes)


def _hang_pair_by_votes(block: Block, partner: Block, middle_votes: int, outer_votes: int) -> None:
    """Hang both doors of a pair at its middle (:attr:`Block.hinge`) when :data:`MIN_VOTES` or more
    masks and :data:`SHARE` of the voting ones name it; leave them as they are otherwise."""
    if middle_votes >= MIN_VOTES and middle_votes >= SHARE * (middle_votes + outer_votes):
        across = block.across_axis
        middle = (block.position[across] + partner.position[across]) / 2.0
        for door in (block, partner):
            centre = (door.lo[across] + door.hi[across]) / 2.0
            door.hinge = 1 if middle > centre else -1


#: Types whose door the masks may hang at one end (else drawn as THOR's type rule says).
SINGLE_DOOR_TYPES = frozenset({"Fridge"})
#: Share of a fridge's voting masks one end must pass to hang its door there: a majority. With
#: all of each kitchen's train demos, the fridges of 19 of the 26 kitchens have masks voting for one
#: end only (or nearly: FloorPlan7's 205 for the high end, 125 for both, 11 for the low end), and in
#: each lite's drawing with the door at that end matches THOR's held-out masks of the open fridge
#: best of the three layouts (or within 0.002 of the best); those of FloorPlan4, 14, 19 and 24 vote
#: for both ends (279 of 320 masks, 180 of 289, 191 of 310, 182 of 312), where a door at each end
#: matches best or within 0.003. FloorPlan23's split (64 high, 57 both, 14 low) keeps both ends.
SINGLE_SHARE = 0.5
#: Single-door types whose masks may hang the door at the other end than the one its id names
#: (:func:`~alfred_gen.sim.shapes.hinged_at_high_end`); they need :data:`SHARE` of the voting masks
#: (:func:`end_vote`). THOR's single cabinet does not always hang its door at its id: on the wide
#: sample (every 20th train demo, each room built from the other 4 of 5 folds), FloorPlan2's
#: ``Cabinet|-00.50|+00.48|-01.15`` and FloorPlan24's ``Cabinet|-01.14|+00.39|+03.52`` open with
#: their leaf at the far end of lite's box from the id (drawn with the leaf at the other end, their
#: masks scored 0.37-0.46 against 0.20-0.32). The rule was set on the odd FloorPlans (54 masks of
#: cabinets opened, put into or closed; no odd cabinet's masks vote, 37.01 units of IoU before and
#: after, at a share of 0.5, 0.67 or 0.8 alike) and checked on the even ones (42 masks, 23.21 -> 24.12;
#: those 6 masks gain, none loses). Voting needs :data:`~alfred_gen.scenes.alfred.sight_facts.RAYS_PER_DOOR_MASK`
#: rays per mask: with :data:`~alfred_gen.scenes.alfred.sight_facts.RAYS_PER_MASK`, a majority of
#: the few votes moved FloorPlan1's ``Cabinet|-01.55|+00.50|+00.38`` to the wrong end (0.33 -> 0.05).
SINGLE_CABINETS = frozenset({"Cabinet"})
#: A single door's layouts, in the order :func:`layout_vote` counts them.
LOW_END, HIGH_END, BOTH_ENDS = 0, 1, 2


def leaf_hits(fact: SightFact, block: Block) -> tuple[int, int]:
    """How many of ``fact``'s door rays (and the rays through its outermost pixels) that miss
    ``block``'s opening meet an open leaf square to the front at its low end, and at its high end:
    what both a fridge's layout vote and a cabinet's end vote count."""
    across = block.across_axis
    lo, hi = block.lo[across], block.hi[across]
    width = hi - lo
    low = high = 0
    for ray in (*(fact.door_rays or fact.rays), *(side for side in fact.sides if side is not None)):
        if hits_opening(fact.eye, ray, block, lo, hi):
            continue
        low += hits_leaf(fact.eye, ray, block, lo, width)
        high += hits_leaf(fact.eye, ray, block, hi, width)
    return low, high


def layout_vote(fact: SightFact, block: Block) -> int | None:
    """The layout of ``block``'s open door that ``fact``'s mask shows: of its door rays (and the
    rays through its outermost pixels) that miss the opening, :data:`LOW_END` when some meet a leaf
    square to the front at the low end and none the high end's, :data:`HIGH_END` the other way
    round, :data:`BOTH_ENDS` when some meet each; None when none meets either (a shut door)."""
    low, high = leaf_hits(fact, block)
    if low and high:
        return BOTH_ENDS
    if low or high:
        return LOW_END if low else HIGH_END
    return None


def single_door_votes(block: Block, sights: Sequence[SightFact],
                      vote: Callable[[SightFact, Block], int | None] = layout_vote) -> list[int]:
    """Masks of ``block`` voting for each layout by ``vote`` (a fridge's :func:`layout_vote`, a
    cabinet's :func:`end_vote`, which never names both ends), by layout."""
    votes = [vote(fact, block) for fact in sights if fact.target == block.object_id]
    return [votes.count(layout) for layout in (LOW_END, HIGH_END, BOTH_ENDS)]


def end_vote(fact: SightFact, block: Block) -> int | None:
    """The end of ``block``'s front whose open leaf (square to the front) more of ``fact``'s rays
    that miss the opening meet: :data:`LOW_END` or :data:`HIGH_END`; None on a tie (a shut door)."""
    low, high = leaf_hits(fact, block)
    if low == high:
        return None
    return LOW_END if low > high else HIGH_END


def hinge_single_doors_at_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """Each fridge, and each cabinet that is no door of a pair (:func:`door_partner`), whose masks
    show its door at one end hangs it there (see the module docstring): :attr:`Block.hinge` is -1
    at the low end of its front, +1 at the high end."""
    cabinets = [b for b in blocks if b.kind == "Cabinet"]
    for block in blocks:
        if block.kind in SINGLE_CABINETS and door_partner(block, cabinets) is None:
            share, votes = SHARE, single_door_votes(block, sights, end_vote)
        elif block.kind in SINGLE_DOOR_TYPES:
            share, votes = SINGLE_SHARE, single_door_votes(block, sights)
        else:
            continue
        _hang_by_votes(block, votes, share)


def _hang_by_votes(block: Block, votes: Sequence[int], share: float) -> None:
    """Hang ``block``'s door at the end :data:`MIN_VOTES` or more masks and more than ``share`` of
    the voting masks name (:attr:`Block.hinge`); leave it as it is otherwise."""
    for layout, hinge in ((LOW_END, -1), (HIGH_END, 1)):
        if votes[layout] >= MIN_VOTES and votes[layout] > share * sum(votes):
            block.hinge = hinge


def drawn_block(block: Block, shut: bool = False) -> Block:
    """A copy of ``block`` whose box is the one it is drawn in (:attr:`Block.drawn_margins`); with
    ``shut``, the one it is drawn in shut (:attr:`Block.shut_margins` added)."""
    margins = drawing_margins(block.drawn_margins, block.shut_margins, shut)
    out = copy.copy(block)
    drawn = with_margins(block.box(), margins)
    out.lo, out.hi = list(drawn.lo), list(drawn.hi)
    return out


def hinge_drawn_cabinets_at_their_masks(blocks: list[Block], sights: Sequence[SightFact]) -> None:
    """A single cabinet whose drawing its shut masks moved
    (:func:`~alfred_gen.scenes.alfred.fixture_extents.extents_to_their_masks`) votes again on the
    box it is drawn in, where lite draws its door (:func:`end_vote`, :data:`MIN_VOTES`,
    :data:`SHARE`); where that vote names an end, it wins over the vote on its box.

    The box vote reads the leaf at the ends of the box the importer built from the id. Where the
    shut masks moved the drawing across its front, the door is drawn at an end of the drawn box,
    and the box's ends can read the open masks the other way round: FloorPlan13's
    ``Cabinet|-03.19|+00.39|+02.09``, its drawing 0.2-0.3 m to the low side of its box, got 8 votes
    for the low end on its box (held out by folds, as the mask figure builds it) and 9 for the high
    end on its drawing, where THOR's images show the leaf."""
    cabinets = [b for b in blocks if b.kind in SINGLE_CABINETS]
    for block in cabinets:
        if not block.drawn_margins or door_partner(block, cabinets) is not None:
            continue
        _hang_by_votes(block, single_door_votes(drawn_block(block), sights, end_vote), SHARE)
    hinge_reached_pairs_at_their_masks(cabinets, sights)
    for block in cabinets:
        open_free_end_to_its_reach(block)


def hinge_reached_pairs_at_their_masks(cabinets: list[Block], sights: Sequence[SightFact]) -> None:
    """A double door whose shut masks, cut by the frame's border, widened its shut drawing
    (:attr:`Block.shut_margins`) votes again on that drawing (:func:`pair_votes`, :data:`MIN_VOTES`,
    :data:`SHARE`), and hangs its leaves at the middle where that vote names it.

    The pair vote on the boxes reads each leaf as wide as its box. FloorPlan403's
    ``Cabinet|-01.36|+00.43|+02.87`` is one door twice the width of its box held out (0.27 m): its
    open leaf, hung at the pair's middle in THOR's masks, reaches past where the narrow box's leaf
    ends, so on its box the folds without the wide sample's demos voted 6 for the middle and 14 for
    the outer end; on its shut drawing, 0.23 m wider where its cut masks reach, 14 and 0."""
    for block, partner in door_pairs(cabinets):
        if not (block.shut_margins or partner.shut_margins):
            continue
        middle_votes, outer_votes = pair_votes(drawn_block(block, shut=True), drawn_block(partner, shut=True), sights)
        _hang_pair_by_votes(block, partner, middle_votes, outer_votes)


def open_free_end_to_its_reach(block: Block) -> None:
    """A cabinet hung at one end (:attr:`Block.hinge`) is drawn open too as far as its shut drawing
    reaches at the other, free end (that part of :attr:`Block.shut_margins` moves to
    :attr:`Block.drawn_margins`); its hinge end's reach stays shut only.

    The masks the frame cuts show the door's face reaching farther
    (:func:`~alfred_gen.scenes.alfred.fixture_extents.front_reaches`); open, the leaf hangs at the
    hinge end, as wide as the drawing, so a wider drawing at the free end
    widens the opening and the leaf as THOR draws them (FloorPlan403's ``Cabinet|-01.36|+00.43|+02.87``,
    THOR's door twice its box's width). Moving the hinge end moves the leaf off where its open masks
    put it: on the wide sample, widened at both ends, FloorPlan2's and FloorPlan24's sink cabinets,
    grown 0.05 m at their hinge end, lost 0.25 units over 6 open masks (session 95)."""
    if not block.hinge or not block.shut_margins:
        return
    free = block.across_axis + (3 if block.hinge < 0 else 0)
    if block.shut_margins[free] > 0.0:
        block.draw_shut_sides([free])
