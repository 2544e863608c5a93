"""Fixtures of an imported THOR room cut back from what they cannot cover (part of step 3 of
:mod:`alfred_gen.scenes.alfred.geometry`: what cannot overlap).

A box sized from a catalogue is often bigger than the space the fixture has in the room. What the
demos prove is free wins over the size: the points the agent stood on, the fixtures a counter slab
or a cabinet would swallow, and the objects resting under, on or in a fixture.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.built_ins import under_bowl
from alfred_gen.scenes.alfred.fixture_block import (
    AGENT_CLEARANCE,
    BUILT_IN_CONTAINERS,
    SET_IN_BASINS,
    Block,
    inner_floor,
    set_top,
)
from alfred_gen.sim.scene import GRID_SIZE, Box

#: Boxes starting higher than this above the floor hang over the agent (wall cabinets, shelves).
OVERHEAD = 1.0
#: Fixtures drawn as a slab that THOR stands on cabinets or legs reaching the floor: in the agent's
#: way whatever the slab's height. A bar counter's slab starts 1.02-1.16 m over the floor in 8 of
#: ALFRED's rooms; taken as overhead there, it was left reaching over points the agent stands on
#: and hid the cabinets under it from the pose that opens them.
ON_THE_FLOOR_SLABS = frozenset({"CounterTop"})
#: An object whose bottom is this close to a surface's first (catalogue) top is taken as resting
#: on it when a cut chooses which side to keep (metres).
ON_TOP_GAP = 0.1


def in_the_agents_way(block: Block, floor_y: float) -> bool:
    """Whether the agent cannot stand where ``block`` is: it starts less than :data:`OVERHEAD` over
    the floor, or it is a slab on the floor's furniture (:data:`ON_THE_FLOOR_SLABS`)."""
    return block.lo[1] <= floor_y + OVERHEAD or block.kind in ON_THE_FLOOR_SLABS


def clear_reachable(blocks: list[Block], reachable: list[tuple[float, float]], floor_y: float,
                    resting: Sequence[Box] = ()) -> None:
    """Cut every box standing in the agent's way back from every reachable point (AGENT_CLEARANCE).

    Of the two ways to cut (across x or across z), the one losing the fewest objects demos show
    resting on the fixture wins, then the one losing the least area: a catalogue box is often the
    bounding box of an L-shaped counter, and a walked point in the L's inner corner must cut away
    the empty corner, not the arm that holds the bread.
    """
    for block in blocks:
        if not in_the_agents_way(block, floor_y):
            continue
        on_top = [b.center for b in resting if block.surface and abs(b.lo[1] - block.hi[1]) < ON_TOP_GAP
                  and block.lo[0] < b.center[0] < block.hi[0] and block.lo[2] < b.center[2] < block.hi[2]]
        for px, pz in reachable:
            c = AGENT_CLEARANCE
            if not (block.lo[0] - c < px < block.hi[0] + c and block.lo[2] - c < pz < block.hi[2] + c):
                continue
            options = []
            width_x, width_z = block.hi[0] - block.lo[0], block.hi[2] - block.lo[2]
            for axis, p, span in ((0, px, width_z), (2, pz, width_x)):
                centre = block.position[axis]
                if p >= centre and p - c - block.lo[axis] >= 0.05:
                    lost = sum(1 for k in on_top if k[axis] > p - c)
                    options.append((lost, (block.hi[axis] - (p - c)) * span, axis, "hi", p - c))
                if p <= centre and block.hi[axis] - (p + c) >= 0.05:
                    lost = sum(1 for k in on_top if k[axis] < p + c)
                    options.append((lost, ((p + c) - block.lo[axis]) * span, axis, "lo", p + c))
            if not options:
                continue
            _, _, axis, side, value = min(options)
            if side == "hi":
                block.hi[axis] = value
            else:
                block.lo[axis] = value
            on_top = [k for k in on_top if block.lo[axis] < k[axis] < block.hi[axis]]


#: Radius of THOR 2.1's agent, whose capsule no fixture enters round a point it stood on (0.175 m,
#: ai2thor's maintainers on 2.1.0: allenai/ai2thor#732).
AGENT_RADIUS = 0.175


def open_over_walked_floor(blocks: list[Block], reachable: Sequence[tuple[float, float]], floor_y: float) -> None:
    """Cut the floor the agent walks out of the drawing of every fixture in its way whose box a
    later fit grew back over it (:attr:`Block.holes`).

    :func:`clear_reachable` cuts boxes back from the points the agent stood on, but fitting them to
    what rests on them can grow them back: an L-shaped counter is one box, its bounding box, grown
    to hold what lies on both arms, and then covers the empty corner the agent walks in, hiding the
    cabinets under its far arm from where THOR's agent opened them. The box keeps what it holds;
    its drawing opens :data:`AGENT_RADIUS` round each point whose :data:`AGENT_CLEARANCE` square it
    overlaps (rows of neighbouring points join into one opening, as do equal rows one step apart).
    """
    c, r = AGENT_CLEARANCE, AGENT_RADIUS
    for block in blocks:
        if not in_the_agents_way(block, floor_y):
            continue
        rows: dict[float, list[float]] = {}
        for px, pz in reachable:
            if block.lo[0] < px + c and px - c < block.hi[0] and block.lo[2] < pz + c and pz - c < block.hi[2]:
                rows.setdefault(pz, []).append(px)
        openings: list[list[float]] = []  # [x_lo, x_hi, z_lo, z_hi] of points' centres
        for pz in sorted(rows):
            for x_lo, x_hi in _runs(sorted(rows[pz])):
                below = next((o for o in openings if o[:2] == [x_lo, x_hi] and abs(pz - o[3] - GRID_SIZE) < 1e-6), None)
                if below is not None:
                    below[3] = pz
                else:
                    openings.append([x_lo, x_hi, pz, pz])
        for x_lo, x_hi, z_lo, z_hi in openings:
            block.holes.append(Box((x_lo - r, block.lo[1] - c, z_lo - r), (x_hi + r, block.hi[1] + c, z_hi + r)))


def _runs(xs: Sequence[float]) -> list[tuple[float, float]]:
    """Runs of sorted grid coordinates one step apart: (first, last) of each."""
    runs: list[tuple[float, float]] = []
    for x in xs:
        if runs and x - runs[-1][1] <= GRID_SIZE + 1e-6:
            runs[-1] = (runs[-1][0], x)
        else:
            runs.append((x, x))
    return runs


#: The smallest piece of a fixture a cut may leave, metres.
MIN_PIECE = 0.25
#: Fixtures that live under a counter top (the slab may cover them).
_UNDER_COUNTER = BUILT_IN_CONTAINERS | {"CounterTop"}
#: Fixtures THOR mounts on a counter's top, behind its sink: their box is centred on an id some
#: centimetres above the top, so it reaches down into the slab, but they do not pass through it.
MOUNTED_ON_COUNTERS = frozenset({"Faucet"})
#: Objects lying further than this below a counter slab are in the cabinets under it (their boxes
#: are often missing or too small in a room's evidence), not in a gap the slab must leave (metres).
UNDER_SLAB_DEPTH = 0.4
#: A fixture whose base is at most this far below a slab's top stands on it (a coffee machine, a
#: toaster: their ids give their base to a few centimetres), so the slab is not cut away (metres).
STANDS_ON = 0.03


def cut_away(block: Block, box: Box, keep: Sequence[Box] = ()) -> None:
    """Cut ``block``'s footprint back from ``box`` along one side: the side away from the block's
    id; if the id lies over the box, the side keeping the most of ``keep`` (objects seen resting on
    it), then the larger piece. A cut that would leave less than 25 cm is not made."""
    block.forbid.append(box)
    options = []
    for axis in (0, 2):
        p = block.position[axis]
        if p <= box.lo[axis]:
            options.append((0, block.hi[axis] - box.lo[axis], axis, "hi", box.lo[axis]))
        if p >= box.hi[axis]:
            options.append((0, box.hi[axis] - block.lo[axis], axis, "lo", box.hi[axis]))
    if not options:
        for axis in (0, 2):
            lost_hi = sum(1 for k in keep if k.center[axis] > box.lo[axis])
            lost_lo = sum(1 for k in keep if k.center[axis] < box.hi[axis])
            options.append((lost_hi, block.hi[axis] - box.lo[axis], axis, "hi", box.lo[axis]))
            options.append((lost_lo, box.hi[axis] - block.lo[axis], axis, "lo", box.hi[axis]))
    for _, _, axis, side, value in sorted(options):
        if side == "hi" and value - block.lo[axis] >= MIN_PIECE:
            block.hi[axis] = value
            return
        if side == "lo" and block.hi[axis] - value >= MIN_PIECE:
            block.lo[axis] = value
            return


def inside_built_in(box: Box, blocks: Sequence[Block]) -> bool:
    """Whether an object lies inside a drawer or cabinet, or under a sink's opening (a basin's
    first box may not yet reach down to what lies in it: its footprint is enough)."""
    c = box.center
    return any((b.kind in BUILT_IN_CONTAINERS and all(b.lo[a] <= c[a] <= b.hi[a] for a in (0, 1, 2)))
               or (b.kind in SET_IN_BASINS and all(b.lo[a] <= c[a] <= b.hi[a] for a in (0, 2)))
               for b in blocks)


#: An object whose bottom is this close to a slab's top rests on it (metres).
ON_SLAB = 0.05


def rests_on(slab: Block, box: Box) -> bool:
    """Whether ``box``'s footprint meets the slab's and its bottom is at the slab's top."""
    return slab.overlaps_box(box) and abs(box.lo[1] - slab.hi[1]) < ON_SLAB


def resting_on(slab: Block, boxes: Iterable[Box]) -> list[Box]:
    """The boxes resting on the slab (:func:`rests_on`)."""
    return [b for b in boxes if rests_on(slab, b)]


def cut_off_what_lies_under(slab: Block, boxes: Iterable[Box], blocks: Sequence[Block],
                            on_top: Sequence[Box] = ()) -> None:
    """Cut a counter slab away from every box lying up to :data:`UNDER_SLAB_DEPTH` under it outside a
    drawer, a cabinet or a sink's opening (:func:`cut_away`, keeping ``on_top`` where it can)."""
    for box in boxes:
        if slab.lo[1] - UNDER_SLAB_DEPTH < box.hi[1] < slab.lo[1] and slab.overlaps_box(box) \
                and not inside_built_in(box, blocks):
            cut_away(slab, box, on_top)


#: How far under the lowest thing THOR reported in a cabinet another resting thing may stand and
#: still count as lying in it, not under it (metres; :func:`cut_around`).
CONTENTS_SLACK = 0.02


def cut_around(blocks: list[Block], resting: list[Box], facts: Sequence[tuple[object, str, Box]] = ()) -> None:
    """Counter tops and cabinets hang over nothing but what belongs under them.

    A counter top slab covers only drawers and cabinets: it is cut away from every other fixture
    that passes through it or lies under it (fridges, side tables, garbage cans; not the sink basins
    set into it nor the faucets mounted on it, :data:`MOUNTED_ON_COUNTERS`) and from
    every object demos show lying under it outside a drawer or cabinet (THOR's counter has a hole
    for the sink; a box cannot, so the slab keeps the part on its id's side). A cabinet is cut away
    from every other fixture it would swallow (a towel holder beside it) and from objects resting
    up to 60 cm under it (a sponge on the counter beside a tall cabinet), but not from what rests no
    lower than the bottom of the lowest thing THOR reported in it (``facts``: support facts with their
    fixture's id and the object's box), less :data:`CONTENTS_SLACK`: that lies in it.

    A wall cabinet centred on its id (or one of a stack cut to its spacing) can stand above its own
    inner floor: FloorPlan28's ``Cabinet|-00.34|+01.89|-01.29`` was 1.785-1.995 m where THOR
    reported a mug in it at 1.50 m, and the mugs, cups and shakers other demos start there were
    taken for things under it, so the cabinet was cut away from them and could not grow back to
    hold the mug (:func:`~alfred_gen.scenes.alfred.support_fit.fit_support_facts` never grows a box
    over what it was cut away from). When the demo opened it, lite drew it above the frame while
    THOR's mask showed it across the frame's upper half, and ALFRED's rule picked the mug behind it.
    """
    held_from: dict[str, float] = {}
    for _, target, box in facts:
        held_from[target] = min(held_from.get(target, box.lo[1]), box.lo[1])
    for slab in blocks:
        if slab.kind == "CounterTop":
            on_top = resting_on(slab, resting)
            for other in blocks:
                if other is slab or other.kind in _UNDER_COUNTER or other.kind in SET_IN_BASINS \
                        or other.kind in MOUNTED_ON_COUNTERS:
                    continue
                if other.lo[1] < slab.hi[1] - STANDS_ON and slab.overlaps(other, (0, 2)):
                    cut_away(slab, other.box(), on_top)
            cut_off_what_lies_under(slab, resting, blocks, on_top)
        elif slab.kind == "Cabinet":
            for other in blocks:
                if other is slab or other.kind in BUILT_IN_CONTAINERS or other.surface:
                    continue
                if slab.overlaps(other) and not (other.lo[0] <= slab.position[0] <= other.hi[0]
                                                 and other.lo[2] <= slab.position[2] <= other.hi[2]):
                    cut_away(slab, other.box())
            lowest = held_from.get(slab.object_id, float("inf")) - CONTENTS_SLACK
            for box in resting:
                c = box.center
                inside = all(slab.lo[a] <= c[a] <= slab.hi[a] for a in (0, 1, 2))
                if not inside and slab.overlaps_box(box) and box.hi[1] <= slab.lo[1] + 0.01 \
                        and slab.lo[1] - box.hi[1] < 0.6 and box.lo[1] < lowest:
                    cut_away(slab, box)


def settle_objects(blocks: list[Block], objects: list[Box]) -> None:
    """No object demos show resting in a room is buried in a fixture's top or floor.

    A surface whose top is above the bottom of an object standing within its footprint, by at most
    8 cm, is lowered beneath it (THOR's physics had the object resting there); a container whose
    inner floor would cut through an object inside it is deepened (a sink basin not by what is kept
    in the cupboard under it: :func:`~alfred_gen.scenes.alfred.built_ins.under_bowl`).
    """
    basins = [b for b in blocks if b.kind in SET_IN_BASINS]
    cupboards = [b for b in blocks if b.kind in BUILT_IN_CONTAINERS]
    for block in blocks:
        if block.surface:
            for box in objects:
                cx, cz = box.center[0], box.center[2]
                if not (block.lo[0] < cx < block.hi[0] and block.lo[2] < cz < block.hi[2]):
                    continue
                if block.kind == "CounterTop" and _in_basin(box, basins):
                    continue  # in the sink set into the slab, below its top
                bottom = box.lo[1]
                if bottom - 0.005 < block.hi[1] < bottom + 0.08:
                    set_top(block, bottom - 0.005)
        elif block.container:
            floor = inner_floor(block.kind)
            for box in objects:
                c = box.center
                if not (block.lo[0] < c[0] < block.hi[0] and block.lo[2] < c[2] < block.hi[2]
                        and block.lo[1] - 0.1 < box.lo[1] < block.hi[1] - 0.01):
                    continue
                if block.kind == "SinkBasin" and under_bowl(block, box, cupboards):
                    continue  # kept in the cupboard under the sink, not in its bowl
                if box.lo[1] - floor < block.lo[1]:
                    block.lo[1] = box.lo[1] - floor - 0.005


def _in_basin(box: Box, basins: Sequence[Block]) -> bool:
    c = box.center
    return any(b.lo[0] < c[0] < b.hi[0] and b.lo[2] < c[2] < b.hi[2] and box.lo[1] < b.hi[1] for b in basins)


def free_what_they_cannot_hold(blocks: list[Block], resting: Sequence[tuple[str, Box]]) -> int:
    """A fixture does not contain an object at rest that it cannot hold: a plunger standing beside
    a toilet is not inside it, whatever the toilet's catalogue size says. A fixture whose box holds
    the centre of such an object (THOR's placement rules: it may not go in or on that fixture) is
    cut back from the object's footprint (:func:`cut_away`). Returns how many objects were freed.

    An object resting on the fixture's top (:func:`rests_on`) is left there, whatever THOR's
    placement rules say (the scenes' designers put things there): a dish sponge on top of
    FloorPlan12's fridge, its middle 2 mm under the catalogue fridge's top, cut the fridge back on
    two sides and left the potato inside it out. The fridge keeps its top; a surface's top is
    lowered under what rests on it by :func:`settle_objects`.

    A fixture of :data:`LOWERED_TYPES` whose box holds such an object's bottom in its top
    :data:`TOP_SHARE` has its top brought down to that bottom (:func:`lower_top_under`) rather than
    its footprint cut back."""
    freed = 0
    for kind, box in resting:
        c = box.center
        for block in blocks:
            if catalogue.thor_accepts(kind, block.kind) or rests_on(block, box):
                continue
            if all(block.lo[a] < c[a] < block.hi[a] for a in (0, 1, 2)):
                if not lower_top_under(block, box):
                    cut_away(block, box)
                freed += not all(block.lo[a] < c[a] < block.hi[a] for a in (0, 1, 2))
    return freed


#: The share of a fixture box's height, from its top, in which the bottom of an object it cannot
#: hold shows the fixture is lower than its catalogue size (:func:`lower_top_under`).
TOP_SHARE = 0.2
#: Fixture types whose top :func:`free_what_they_cannot_hold` brings down under an object it cannot
#: hold (:func:`lower_top_under`). Measured with ``{"Fridge"}`` (session 83), the import changes two
#: fridges, FloorPlan30's (0.27 x 0.22 m wide and deep -> 1.00 x 0.72 m, its top 1.87 -> 1.67 m) and
#: FloorPlan24's (top 1.83 -> 1.63 m). In-sample mask eval 716 -> 719/757 (the 3 episodes of
#: Tomato-None-SinkBasin-30 won, none lost; cool tasks 68.9% -> 75.6%); landing bench, fridges,
#: every 5th demo: 101 -> 102/179 (1 won, none lost); unseen rooms 24 and 30 unchanged. On the wide
#: sample's rooms 24 and 30 (held out) IoU 0.616 -> 0.668 (the fridge's own masks 0.37 -> 0.79 in
#: FloorPlan30) and rule picks 144 -> 143/148: a tomato THOR put at the right of the now wide
#: fridge's lower shelf, where the other folds' point is at its left, had been picked only by luck
#: in the 27 cm fridge (IoU 0.013). Kept: a fridge a quarter of its size was wrong, not a rule.
#: For every fixture type the import also changed cabinets in 8 other rooms and TV stands in 2
#: (not measured), so only fridges are lowered.
LOWERED_TYPES: frozenset[str] = frozenset({"Fridge"})


def lower_top_under(block: Block, box: Box, types: frozenset[str] = LOWERED_TYPES) -> bool:
    """Bring ``block``'s top down to ``box``'s bottom when the block is of one of ``types`` and that
    bottom lies in the top :data:`TOP_SHARE` of the block's height, at least :data:`MIN_PIECE` over
    its bottom; say whether it did.

    FloorPlan30's fridge stands under a shelf: its start states rest soap bottles, kettles, ladles
    and pepper shakers 1.62-1.70 m up, inside the catalogue fridge's box (0.03-1.87 m) but over
    THOR's fridge. Cut back along its footprint, the fridge shrank from 1.00 x 0.72 m to 0.27 x
    0.22 m, and objects THOR put into it are drawn outside it (THOR's pickup masks lie beside lite's
    fridge)."""
    height = block.hi[1] - block.lo[1]
    if block.kind not in types or box.lo[1] < block.hi[1] - TOP_SHARE * height \
            or box.lo[1] - block.lo[1] < MIN_PIECE:
        return False
    block.hi[1] = box.lo[1]
    return True


#: How far THOR's counter tops reach past the fronts of the cupboards under them (metres): the
#: median over the cabinets and drawers under a counter in ALFRED's 30 kitchens, built from every
#: demo, is 2.6 cm.
COUNTER_OVERHANG = 0.05
#: How far under a counter slab's bottom a cupboard's top may lie to count as under it (metres).
UNDER_COUNTER = 0.3


def open_over_cupboard_fronts(blocks: Sequence[Block], resting: Sequence[Box]) -> None:
    """Cut what a counter slab's box reaches past the cupboards under it out of its drawing.

    A door or drawer opens where THOR's counter top ends (:data:`COUNTER_OVERHANG` past its front);
    a slab that is the bounding box of an L-shaped counter, or was grown to hold things on another
    arm, reaches further and hides the open cupboard's inside from the pose that opened it. In
    front of each cabinet or drawer under it, across that cupboard's width, the slab is drawn only
    to the overhang; the box keeps what it holds, and no opening is cut under a thing resting on it.
    """
    for slab in blocks:
        if slab.kind != "CounterTop":
            continue
        on_top = resting_on(slab, resting)
        for cupboard in blocks:
            if cupboard.kind not in BUILT_IN_CONTAINERS or not slab.overlaps(cupboard, (0, 2)):
                continue
            if not slab.lo[1] - UNDER_COUNTER <= cupboard.hi[1] <= slab.lo[1] + STANDS_ON:
                continue
            axis, sign = cupboard.front_axis
            edge = cupboard.front() + sign * COUNTER_OVERHANG
            reach = slab.hi[axis] if sign > 0 else slab.lo[axis]
            if (reach - edge) * sign <= 0:
                continue
            across = 2 - axis
            lo, hi = [0.0] * 3, [0.0] * 3
            lo[axis], hi[axis] = min(edge, reach), max(edge, reach)
            lo[across], hi[across] = cupboard.lo[across], cupboard.hi[across]
            lo[1], hi[1] = slab.lo[1] - STANDS_ON, slab.hi[1] + STANDS_ON
            opening = Box(tuple(lo), tuple(hi))  # type: ignore[arg-type]  # three coordinates
            if any(all(opening.lo[a] <= b.center[a] <= opening.hi[a] for a in (0, 2)) for b in on_top):
                continue
            slab.holes.append(opening)
