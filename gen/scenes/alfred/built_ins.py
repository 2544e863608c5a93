"""Drawers, cabinets and sink basins fitted to the furniture they are built into (part of step 3 of
:mod:`alfred_gen.scenes.alfred.geometry`: what cannot overlap).

ALFRED's ids put a drawer at its middle and a dresser at its top, each sized on its own; left so,
a dresser's box swallows its drawers, a card on the dresser counts as inside its top drawer, and
a counter slab hides the basin set into it. These rules make the parts and the furniture agree:
stacked parts no bigger than their spacing, tops just above the drawers, parts below the surface
they are under, fronts uncovered, basin rims at the counter's top.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.scenes.alfred.evidence import SupportFact
from alfred_gen.scenes.alfred.fixture_block import BUILT_IN_CONTAINERS, SET_IN_BASINS, Block, set_top
from alfred_gen.sim.scene import Box


def limit_stacks(blocks: list[Block]) -> None:
    """Drawers and cabinets in one column are no taller than their spacing; drawers side by side in
    one row no wider than theirs (their ids sit at their middles)."""
    for block in blocks:
        if block.kind not in BUILT_IN_CONTAINERS:
            continue
        x, y, z = block.position
        vertical = [
            abs(o.position[1] - y)
            for o in blocks
            if o is not block
            and o.kind == block.kind
            and abs(o.position[0] - x) < 0.05
            and abs(o.position[2] - z) < 0.05
            and abs(o.position[1] - y) >= 0.1
        ]
        if vertical:
            half = (min(vertical) - 0.01) / 2
            block.lo[1] = max(block.lo[1], y - half)
            block.hi[1] = min(block.hi[1], y + half)
        if block.kind != "Drawer":
            continue
        for axis, other in ((0, 2), (2, 0)):
            gaps = [
                abs(o.position[axis] - block.position[axis])
                for o in blocks
                if o is not block
                and o.kind == "Drawer"
                and abs(o.position[1] - y) < 0.05
                and abs(o.position[other] - block.position[other]) < 0.05
                and abs(o.position[axis] - block.position[axis]) >= 0.2
            ]
            if gaps:
                half = (min(gaps) - 0.01) / 2
                block.lo[axis] = max(block.lo[axis], block.position[axis] - half)
                block.hi[axis] = min(block.hi[axis], block.position[axis] + half)


#: How far a drawer's front may stand out of the door of the cabinet above or below it (metres).
DRAWER_FLUSH = 0.01
#: How much of a drawer's width a cabinet above or below it must span to be of its run. A quarter:
#: in FloorPlan4, built from its layout files alone, the drawers beside the sink's cabinet overlap
#: it by 0.17 of their 0.45 m; left standing 0.1 m proud of its door, they carried the counter's
#: overhang over the cabinet holding the cup and bowl the agent takes out of it. Of the drawers and
#: cabinets the quarter (instead of half) moves in the rooms built from every train demo (4 drawers,
#: 1 cabinet), THOR's 9 masks of them overlap lite's better (pooled IoU 0.232 -> 0.316, 6 better, 3 worse).
FLUSH_SHARE = 0.25


def flush_drawer_fronts(blocks: list[Block]) -> None:
    """A drawer over or under a cabinet of the same run is flush with the cabinet's door.

    A cabinet's id is at its door, so its box reaches back from there; a drawer is centred on its
    id. THOR puts most drawer ids at their middle: of 39 drawers over or under a cabinet in the
    rooms built from all 6,574 train demos, 32 (15 rooms) have their id 0.11-0.43 m behind the
    door. Some rooms put it at the front (FloorPlan2, 5, 8 and 16: within 0.06 m of the door), and
    there a drawer centred on its id stood up to 0.3 m out of the run, over the open cabinet below
    it, and hid what lay inside. The things THOR's start states put in FloorPlan8's drawers all lie
    behind the id, as the door says. So a drawer standing out of such a door moves back, keeping
    its depth, to the door's plane (but never behind its own id); 14 of the 39 stood out by more
    than 5 cm.
    """
    cabinets = [b for b in blocks if b.kind == "Cabinet"]
    for drawer in blocks:
        if drawer.kind != "Drawer":
            continue
        axis, sign = drawer.front_axis
        other = 2 - axis
        width = drawer.hi[other] - drawer.lo[other]
        doors = [
            c.front() for c in cabinets
            if c.facing == drawer.facing
            and min(c.hi[other], drawer.hi[other]) - max(c.lo[other], drawer.lo[other]) >= width * FLUSH_SHARE
            and max(drawer.lo[1] - c.hi[1], c.lo[1] - drawer.hi[1]) <= 0.15
            and abs(c.front() - drawer.front()) <= 0.5
        ]
        if not doors:
            continue
        door = max(doors) if sign > 0 else min(doors)
        limit = door + sign * DRAWER_FLUSH
        limit = max(limit, drawer.position[axis]) if sign > 0 else min(limit, drawer.position[axis])
        out = (drawer.front() - limit) * sign
        if out > 0:
            drawer.lo[axis] -= sign * out
            drawer.hi[axis] -= sign * out


#: A drawer whose id lies up to this far above a piece of furniture's first top, within its
#: footprint, is still one of its drawers (its top is higher than the learnt height), metres.
DRAWER_OVER_TOP = 0.3


#: Surfaces whose top drawers never raise them (:func:`tops_over_drawers`).
_LOWERED_ONLY = frozenset({"CounterTop"})


def tops_over_drawers(blocks: list[Block], evidenced: set[str]) -> None:
    """A dresser, desk or table top lies just above the drawers built into it: furniture with
    drawers under its top (and no demo evidence of its surface) has its top 3 cm above its highest
    drawer, whatever the catalogue's height says (dressers come 0.8 to 1.3 m tall).

    The drawers' ids say where they are; the first top comes from other rooms' furniture of the
    type (a median), so a tall dresser's drawers can stand above it: a top drawer's id up to
    :data:`DRAWER_OVER_TOP` above it raises the top over it (FloorPlan217's and 322's dressers and
    312's side table, built from their layouts alone, had their top drawers drawn on top of them,
    hiding the top the demos put things on from every pose). A counter slab is only ever lowered,
    as it was before dressers were raised: raising slabs too has not been measured."""
    drawers = [b for b in blocks if b.kind == "Drawer"]
    for block in blocks:
        if not block.surface or block.object_id in evidenced:
            continue
        may_rise = block.kind not in _LOWERED_ONLY
        highest_drawer = block.hi[1] + (DRAWER_OVER_TOP if may_rise else 0.0)
        inside = [
            d
            for d in drawers
            if block.lo[0] - 0.05 <= d.position[0] <= block.hi[0] + 0.05
            and block.lo[2] - 0.05 <= d.position[2] <= block.hi[2] + 0.05
            and d.position[1] < highest_drawer
        ]
        if inside:
            top = max(d.hi[1] for d in inside) + 0.03
            if (top < block.hi[1] or may_rise) and top - block.lo[1] >= 0.05:
                set_top(block, top)


#: How far a drawer or cabinet under a surface stays below it: more than the support rule's 2 cm
#: margin above a container, so a card lying on a dresser is never counted inside its top drawer.
NESTED_GAP = 0.05


def separate_nested(blocks: list[Block]) -> None:
    """Drawers and cabinets inside or under furniture stay below its surface; cabinets hanging over
    a counter stay above it: what lies on a surface is never inside a closed drawer."""
    surfaces = [b for b in blocks if b.surface and not b.container]
    for block in blocks:
        if block.kind not in BUILT_IN_CONTAINERS:
            continue
        cx, cy, cz = block.position
        for s in surfaces:
            if not (s.lo[0] - 0.05 <= cx <= s.hi[0] + 0.05 and s.lo[2] - 0.05 <= cz <= s.hi[2] + 0.05):
                continue
            top = s.hi[1]
            if cy < top + 0.02 and block.hi[1] > top - NESTED_GAP and top - NESTED_GAP - block.lo[1] >= 0.04:
                block.hi[1] = top - NESTED_GAP
            elif cy > top + 0.02 and block.lo[1] < top + 0.03 and block.hi[1] - (top + 0.03) >= 0.05:
                block.lo[1] = top + 0.03


#: How much of a cabinet's height below a basin stays drawn, at least, for it to count as under it (metres).
MIN_SOLID = 0.04


def bowls_cut_out_of_cabinets(blocks: list[Block]) -> None:
    """A drawer or cabinet under a sink basin is drawn open round the basin's bowl.

    THOR's sink cabinet stands under the sink, its door up to the counter, and the basin's bowl
    sinks into its top. Lite's boxes are whole, so a cabinet box reaching up round the bowl hid what
    lies in the basin (a soap bar put in to be cleaned). Cutting the cabinet's box down below the
    bowl instead lost its inside: a spray bottle or a cup kept in it lay above the new top, in
    nothing, and the agent opening the cabinet did not see it. So the box stays whole (it still
    holds what is kept in the cabinet) and only its drawing loses the bowl's footprint from
    :data:`NESTED_GAP` below the bowl's floor up (:attr:`Block.holes`), where a drawer's or
    cabinet's footprint overlaps a basin's by more than :data:`NESTED_GAP` both ways, and at least
    :data:`MIN_SOLID` of it stays drawn below the cut (a drawer level with the bowl is beside it,
    not under it).
    """
    basins = [b for b in blocks if b.kind == "SinkBasin"]
    for block in blocks:
        if block.kind not in BUILT_IN_CONTAINERS:
            continue
        for basin in basins:
            hole = bowl_hole(block.lo, block.hi, basin)
            if hole is not None:
                block.holes.append(hole)


def bowl_hole(lo: Sequence[float], hi: Sequence[float], basin: Block) -> Box | None:
    """The hole :func:`bowls_cut_out_of_cabinets` cuts round ``basin``'s bowl out of the drawing of a
    drawer or cabinet spanning ``lo``..``hi``; None when that box is not under the basin."""
    overlap = [min(hi[a], basin.hi[a]) - max(lo[a], basin.lo[a]) for a in (0, 2)]
    bottom = basin.lo[1] - NESTED_GAP
    if min(overlap) > NESTED_GAP and hi[1] > bottom and bottom - lo[1] >= MIN_SOLID:
        return Box((basin.lo[0] - HOLE_MARGIN, bottom, basin.lo[2] - HOLE_MARGIN),
                   (basin.hi[0] + HOLE_MARGIN, hi[1] + HOLE_MARGIN, basin.hi[2] + HOLE_MARGIN))
    return None


#: Something kept in a cupboard resting at least this far below a basin's id lies under the basin's
#: bowl, not in it: demos find things in a basin resting 0.05-0.15 m below its id (metres).
UNDER_BOWL = 0.2
#: The thinnest bowl a basin keeps when the cupboard contents below it raise its floor (metres).
MIN_BOWL = 0.05


def bowls_above_cupboard_contents(blocks: list[Block], resting: list[Box]) -> None:
    """A sink basin's bowl lies above what is kept in the cupboard under it.

    A basin's first box reaches 0.15 m and more below its id, and in a vanity (FloorPlan422) that
    is down into the cabinet beneath it, where demos show tissue boxes and candles resting on a
    shelf. The basin then held them (a soap bar put in to be cleaned fell to that shelf, 0.3 m
    below the rim, out of sight) or was cut back from them. So a basin's floor is raised above the
    top of every object resting inside a drawer or cabinet within its footprint at least
    :data:`UNDER_BOWL` below its id, keeping a bowl at least :data:`MIN_BOWL` deep.
    """
    cupboards = [b for b in blocks if b.kind in BUILT_IN_CONTAINERS]
    for basin in blocks:
        if basin.kind != "SinkBasin":
            continue
        tops = [box.hi[1] for box in resting if under_bowl(basin, box, cupboards)]
        if tops:
            basin.lo[1] = min(max(basin.lo[1], max(tops) + 0.005), basin.hi[1] - MIN_BOWL)


def under_bowl(basin: Block, box: Box, cupboards: list[Block]) -> bool:
    """Whether an object lies in a drawer or cabinet under a sink basin's footprint, at least
    :data:`UNDER_BOWL` below the basin's id (so under its bowl, not in it)."""
    c = box.center
    return (box.lo[1] <= basin.position[1] - UNDER_BOWL
            and basin.lo[0] < c[0] < basin.hi[0] and basin.lo[2] < c[2] < basin.hi[2]
            and any(all(k.lo[a] <= c[a] <= k.hi[a] for a in (0, 1, 2)) for k in cupboards))


#: How far below a counter's top a basin's rim may be and still be set in that counter.
BASIN_SET_IN = 0.15


def basins_reach_counters(blocks: list[Block]) -> None:
    """A sink's or tub's basin set into a counter has its rim at the counter's top, not below the slab.

    A basin's height comes from its sink's id, which can sit a few centimetres below the counter
    around it; left there, the slab would be drawn over the whole opening and hide what lies in it.
    """
    counters = [b for b in blocks if b.kind == "CounterTop"]
    for basin in blocks:
        if basin.kind not in SET_IN_BASINS:
            continue
        tops = [
            c.hi[1]
            for c in counters
            if basin.overlaps(c, axes=(0, 2)) and basin.hi[1] < c.hi[1] <= basin.hi[1] + BASIN_SET_IN
        ]
        if tops:
            basin.hi[1] = max(tops)


#: How deep a sink basin is at most, below its rim (metres). Over the 6,574 train demos, objects
#: rest in sink basins at most 0.31 m under the basin's top (FloorPlan419's pedestal sink), and
#: 0.03-0.2 m under it in most rooms.
SINK_BASIN_DEPTH = 0.35


def basins_are_bowls(blocks: list[Block]) -> None:
    """A sink basin is a bowl under its rim, not a box down to the floor.

    A pedestal sink's id stands on the floor, so its basin was sized from there up, and objects
    lying under the sink (on the floor, in a cabinet below) pulled a basin's floor further down;
    an object put into such a basin fell to the floor, out of the agent's view.
    """
    for basin in blocks:
        if basin.kind == "SinkBasin":
            basin.lo[1] = max(basin.lo[1], basin.hi[1] - SINK_BASIN_DEPTH)


def rims_at_counters(blocks: list[Block]) -> None:
    """A sink basin set into a counter is drawn no higher than the counter's top around it (the
    lowest counter top within :data:`COUNTER_BESIDE` of it, below the basin's top).

    A basin's box grows to hold the middle of what stands in it (a soap bottle's middle is above
    the rim), and THOR's support rule, which lite shares, needs that box; but the basin's walls
    stop at the counter, where the slab's hole is. Drawn up to the grown box they hid a spoon, a
    knife or an egg lying in the basin from where the released demos picked them up. The part above
    the counter's top is cut out of the basin's drawing only (:attr:`Block.holes`).
    """
    counters = [b for b in blocks if b.kind == "CounterTop"]
    for basin in blocks:
        if basin.kind != "SinkBasin":
            continue
        tops = [c.hi[1] for c in counters
                if basin.overlaps(c, axes=(0, 2), margin=COUNTER_BESIDE)
                and basin.lo[1] + RIM_ABOVE_FLOOR < c.hi[1] < basin.hi[1]]
        if tops:
            top = min(tops)
            basin.holes.append(Box((basin.lo[0] - HOLE_MARGIN, top, basin.lo[2] - HOLE_MARGIN),
                                   (basin.hi[0] + HOLE_MARGIN, basin.hi[1] + HOLE_MARGIN, basin.hi[2] + HOLE_MARGIN)))


#: A counter this close to a basin's footprint is the one it is set into: the slab may have been cut
#: back from the basin's box (metres).
COUNTER_BESIDE = 0.5
#: A basin's drawn rim stays at least this far above its box's bottom (metres).
RIM_ABOVE_FLOOR = 0.05
#: How far a hole reaches past the box it is cut from, so no sliver of wall is left (metres).
HOLE_MARGIN = 0.01


def expose_fronts(blocks: list[Block]) -> None:
    """Drawers and cabinets are the fronts of the furniture around them: a dresser, desk or counter
    box that would cover a drawer's front is cut back behind it, and a counter top reaching over
    the drawers and cabinets below it overhangs them by 3 cm at most, so they can be seen and used."""
    for inner in blocks:
        if inner.kind not in BUILT_IN_CONTAINERS:
            continue
        axis, sign = inner.front_axis
        front = inner.front()
        for outer in blocks:
            if outer is inner or outer.kind in BUILT_IN_CONTAINERS or outer.container:
                continue
            other = 2 - axis
            if not (outer.lo[other] < inner.hi[other] and inner.lo[other] < outer.hi[other]):
                continue
            covers = outer.hi[axis] > front - 0.01 if sign > 0 else outer.lo[axis] < front + 0.01
            if not covers:
                continue
            if outer.overlaps(inner, (1,)):
                limit = front - sign * 0.01
            elif outer.lo[1] >= inner.hi[1] - 0.01 and outer.lo[1] - inner.hi[1] < 0.3:
                limit = front + sign * 0.03  # a slab just above: a small overhang
                if (outer.hi[axis] <= limit) if sign > 0 else (outer.lo[axis] >= limit):
                    continue
            else:
                continue
            behind = (limit - outer.lo[axis]) if sign > 0 else (outer.hi[axis] - limit)
            keeps_id = outer.position[axis] <= limit + 0.01 if sign > 0 else outer.position[axis] >= limit - 0.01
            if behind >= 0.05 and keeps_id:  # a fixture never loses its own origin
                if sign > 0:
                    outer.hi[axis] = min(outer.hi[axis], limit)
                else:
                    outer.lo[axis] = max(outer.lo[axis], limit)


def tubs_cover_their_contents(blocks: dict[str, Block], facts: list[tuple[SupportFact, str, Box]]) -> None:
    """A tub's basin reaches over everything THOR reported lying in it, before any fixture is cut
    back from what lies under it.

    FloorPlan411's tub is set into a platform (a CounterTop) whose slab runs round it 0.58 m up:
    demos put candles and soap on it at both ends, 3.4 m apart, and THOR reported cloths and soap
    lying in the tub up to 0.3 m beyond the tub's catalogue box. Taken for things lying under the
    slab outside any basin, those cloths cut the slab back to its east end, and every demo putting
    something on its west end failed, 1.9 m from the slab. The basin, grown first to what lies in
    it, marks them as in its opening; the slab then keeps running round it (a basin set into a
    counter is not cut out of the slab, :data:`~alfred_gen.scenes.alfred.fixture_block.SET_IN_BASINS`,
    and the renderer cuts the slab's drawing round the basin). Sink basins are left to grow later,
    as before: grown first, they reshaped the counters round them in five kitchens.
    """
    margin = 0.03
    for _, target, box in facts:
        basin = blocks[target]
        if basin.kind != "BathtubBasin":
            continue
        c = box.center
        for axis in (0, 2):
            basin.lo[axis] = min(basin.lo[axis], c[axis] - margin)
            basin.hi[axis] = max(basin.hi[axis], c[axis] + margin)
