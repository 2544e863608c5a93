"""THOR's word on support made true for the simulator (step 4 of :mod:`alfred_gen.scenes.alfred.geometry`).

The simulator decides what an object lies on or in from boxes alone. Every (object, receptacle)
pair a released demo reports, and every object a demo shows at rest, must come out of that rule
as THOR had it, or replays of the demos fail: receptacles grow to hold what THOR put on them and
shrink away from what they wrongly claim.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SupportFact, type_of_name
from alfred_gen.scenes.alfred.fixture_block import BUILT_IN_CONTAINERS, Block, inner_floor, set_top
from alfred_gen.scenes.alfred.fixture_cuts import cut_away
from alfred_gen.scenes.alfred.fixture_sizing import hinge_side, middle_inside, reach_to, reaching
from alfred_gen.sim.scene import Box
from alfred_gen.sim.setup_actions import _support as simulator_support
from alfred_gen.sim.world import WorldObject


def fit_surface_tops(blocks: dict[str, Block], facts: list[tuple[SupportFact, str, Box]]) -> None:
    """A receptacle's surface is where the objects THOR reported on it have their bottoms."""
    bottoms: dict[str, list[float]] = {}
    for _, target, box in facts:
        bottoms.setdefault(target, []).append(box.lo[1])
    for target, values in sorted(bottoms.items()):
        block = blocks[target]
        if not block.surface:
            continue
        set_top(block, statistics.median(values) - 0.005)


#: A cabinet or drawer may reach under or over what it was cut away from by this much of its
#: height (a vanity's cabinet meets the basin set into the counter above it), metres.
SHARED_HEIGHT = 0.05


def _reaches_over(block: Block, grown: Box, cut: Box) -> bool:
    """Whether ``grown`` reaches back over ``cut``, a box ``block`` was cut away from. A slab's cut
    is a column (what lies under a counter top is under all of it); a cabinet's or drawer's cut is
    the box it would have swallowed, so it may grow beneath or above it: THOR's vanity cabinets
    hold what lies under their sink's basin (FloorPlan408: 9 support facts in the cabinet under a
    basin could not be honoured)."""
    if not all(grown.lo[a] < cut.hi[a] and cut.lo[a] < grown.hi[a] for a in (0, 2)):
        return False
    if block.kind not in BUILT_IN_CONTAINERS:
        return True
    return min(grown.hi[1], cut.hi[1]) - max(grown.lo[1], cut.lo[1]) > SHARED_HEIGHT


@dataclass(frozen=True)
class Floor:
    """Where the agent stood (the proven floor's points) and the height of its camera: no fixture
    reaching below the camera may grow over a point the agent stood on."""

    points: tuple[tuple[float, float], ...] = ()
    camera_y: float = math.inf

    def newly_covered(self, block: Block, grown: Box) -> bool:
        """Whether ``grown`` covers a point of the floor that ``block`` does not cover yet."""
        if block.lo[1] >= self.camera_y:
            return False
        return any(grown.lo[0] < x < grown.hi[0] and grown.lo[2] < z < grown.hi[2]
                   and not (block.lo[0] < x < block.hi[0] and block.lo[2] < z < block.hi[2])
                   for x, z in self.points)


def _grow_to_hold(block: Block, obj: WorldObject, walked: Floor = Floor()) -> bool:
    """Grow a receptacle so the simulator's support rule puts ``obj`` in/on it, unless that would
    reach over something it was cut away from or over where the agent stood (a box grown to hold
    what lies on both arms of an L-shaped counter had covered the floor in the L's corner, and its
    slab hid the drawers under the other arm); whether it grew."""
    margin = 0.03
    lo, hi = list(block.lo), list(block.hi)
    for axis in (0, 2):
        lo[axis] = min(lo[axis], obj.center[axis] - margin)
        hi[axis] = max(hi[axis], obj.center[axis] + margin)
    if block.container:
        floor = inner_floor(block.kind)
        lo[1] = min(lo[1], obj.center[1] - obj.size[1] / 2 - floor - 0.005)
        hi[1] = max(hi[1], obj.center[1] + margin)
    grown = Box(tuple(lo), tuple(hi))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
    if any(_reaches_over(block, grown, f) for f in block.forbid) or walked.newly_covered(block, grown):
        return False
    block.lo, block.hi = lo, hi
    return True


def _swing_to_hold(block: Block, obj: WorldObject, walked: Floor, others: Iterable[Block]) -> bool:
    """Turn a single cabinet's box about its hinge when THOR put ``obj`` in it on the hinge's other
    side; whether it turned.

    A cabinet's box reaches a width from its id (THOR's hinge) to one side, chosen from where the
    agent stood or what lies about (:mod:`~alfred_gen.scenes.alfred.fixture_sizing`). An object THOR
    reported in the cabinet on the other side is better evidence: the box reaches that way instead
    of growing over both (FloorPlan21's cabinet under the sink grew 0.87 m wide, reached over the
    neighbour's inside, and a sight line into the neighbour cut its top off). It turns only when
    the turned box holds everything the cabinet must keep, reaches over nothing it was cut away
    from, over no point the agent stood on and over no other cabinet's middle.
    """
    if block.kind != "Cabinet":
        return False
    side = hinge_side(block)
    across = block.across_axis
    if side == 0 or (obj.center[across] - block.position[across]) * side >= 0:
        return False
    turned = reaching(block, -side)
    if not all(turned.lo[across] <= point[across] <= turned.hi[across] for point in [obj.center, *block.keep]):
        return False
    if any(_reaches_over(block, turned, f) for f in block.forbid) or walked.newly_covered(block, turned):
        return False
    if any(other is not block and other.kind == "Cabinet" and middle_inside(other.box(), turned) for other in others):
        return False
    reach_to(block, -side)
    return True


def _shrink_away(block: Block, obj: WorldObject) -> bool:
    """Move one face of ``block`` past ``obj``'s centre (the cheapest that keeps its own evidence)."""
    margin = 0.03
    axes = (0, 1, 2) if block.container else (0, 2)
    size = [block.hi[i] - block.lo[i] for i in range(3)]
    options = []
    for axis in axes:
        others = [i for i in (0, 1, 2) if i != axis]
        area = size[others[0]] * size[others[1]]
        c = obj.center[axis]
        new_hi, new_lo = c - margin, c + margin
        if new_hi - block.lo[axis] >= 0.05 and all(k[axis] <= new_hi for k in block.keep):
            options.append(((block.hi[axis] - new_hi) * area, axis, "hi", new_hi))
        if block.hi[axis] - new_lo >= 0.05 and all(k[axis] >= new_lo for k in block.keep):
            options.append(((new_lo - block.lo[axis]) * area, axis, "lo", new_lo))
    if not options:
        return False
    _, axis, side, value = min(options)
    if side == "hi":
        block.hi[axis] = value
    else:
        block.lo[axis] = value
    return True


def fit_support_facts(blocks: dict[str, Block], facts: list[tuple[SupportFact, str, Box]], rounds: int = 4,
                      floor: Floor = Floor()) -> int:
    """Make the simulator's support rule agree with every fact, never growing a fixture over
    ``floor``; returns how many still disagree."""
    for _, target, box in facts:
        if blocks[target].container:
            blocks[target].keep.append(box.center)
        else:
            blocks[target].keep.append((box.center[0], box.lo[1], box.center[2]))
    disagreements = 0
    for _ in range(rounds):
        disagreements = 0
        for fact, target, box in facts:
            kind = type_of_name(fact.object_name)
            obj = WorldObject("evidence", kind, fact.object_name, fact.position, (0.0, fact.yaw, 0.0), box)
            for _attempt in range(6):
                candidates = [b.support_view() for b in blocks.values()]
                winner = simulator_support(None, obj, candidates)
                if winner is not None and winner.object_id == target:
                    break
                wanted = blocks[target]
                if winner is None or not _claims(wanted, obj):
                    if not (_swing_to_hold(wanted, obj, floor, blocks.values()) or _grow_to_hold(wanted, obj, floor)):
                        break
                    if winner is None:
                        continue
                if winner is not None and winner.object_id != target:
                    if not _shrink_away(blocks[winner.object_id], obj):
                        break
            else:
                disagreements += 1
                continue
            if winner is None or winner.object_id != target:
                disagreements += 1
        if disagreements == 0:
            break
    return disagreements


#: An object whose bottom is this close under a container's rim rests beside it, on the counter
#: the rim is level with, not in the basin (metres).
RIM_TOLERANCE = 0.02

#: Furniture drawn as a top on legs: what lies on the floor under its top, or on a lower shelf under
#: a top that holds things, is under the table, not inside it (:func:`fit_resting_objects`).
ON_LEGS = frozenset({"DiningTable", "CoffeeTable", "SideTable"})


def _at_its_drawers(block: Block, box: Box, blocks: list[Block]) -> bool:
    """Whether ``box`` rests at the height of a drawer in ``block``'s footprint: it lies in one of
    them (THOR's drawers fill a dresser's front; the boxes we have for them may not). Cabinets do
    not count: one beside a toilet overlaps its footprint, and what lies at its height is on the
    toilet paper hanger, not in the cabinet."""
    for other in blocks:
        if other is block or other.kind != "Drawer":
            continue
        overlaps = all(other.lo[a] < block.hi[a] and block.lo[a] < other.hi[a] for a in (0, 2))
        if overlaps and other.lo[1] - 0.02 <= box.lo[1] <= other.hi[1]:
            return True
    return False


#: How near the top of a surface an object's bottom must be for the object to rest on it (metres):
#: :func:`fit_surface_tops` and :func:`~alfred_gen.scenes.alfred.fixture_cuts.settle_objects`
#: put a top 5 mm under what rests on it.
ON_TOP = 0.01

#: An object whose bottom is this near a floor-standing fixture's bottom lies on the floor (metres).
ON_FLOOR = 0.05

#: How far (metres) an object's bottom may lie off a receptacle's top before
#: :func:`fit_resting_objects` moves the top to it, growing the receptacle to hold the object.
LOWER_TOP = 0.02

#: Furniture drawn as a top over open floor between its sides: what lies under a top that holds
#: things is in the knee space. Carts and sofas are not: what lies inside them below the top is on
#: a lower shelf or seat that the box does not show (FloorPlan430's cart, 218's sofa).
KNEE_SPACE = frozenset({"Desk"})
#: Furniture whose inside is drawers: what lies inside one under a top that holds things lies in a
#: drawer, not on a lower top (:func:`chest_with_a_held_top`). Carts are not: drawn their full
#: height (FloorPlan401's and FloorPlan430's, lowered to 23 and 24 cm without this), held out by
#: folds on the sample of every 20th train demo from the 10th, a replay stopped at FloorPlan430's
#: dish sponge pickup (not visible). With dressers alone, that sample's dresser puts in FloorPlan305
#: went 0.39 -> 0.49 and 0.34 -> 0.47 IoU, and no pick or replay changed.
CHESTS = frozenset({"Dresser"})


def centre_over(block: Block, box: Box) -> bool:
    """Whether ``box``'s centre lies strictly over ``block``'s footprint, whatever the heights."""
    return block.lo[0] < box.center[0] < block.hi[0] and block.lo[2] < box.center[2] < block.hi[2]


def top_holds_things(block: Block, resting: Iterable[tuple[str, Box]]) -> bool:
    """Whether something the demos show at rest lies on ``block``'s top as it is: then the top is
    where THOR has it, and an object lower down inside a desk's box lies under the top, in its knee
    space, not on a lower top."""
    return any(centre_over(block, box) and abs(box.lo[1] - block.hi[1]) <= ON_TOP for _, box in resting)


def chest_with_a_held_top(block: Block, resting: Iterable[tuple[str, Box]]) -> bool:
    """Whether ``block`` is a :data:`CHESTS` type whose top holds what the demos show at rest on it:
    the top is where THOR has it, and whatever lies lower inside lies in a drawer the room may have
    no box for."""
    return block.kind in CHESTS and top_holds_things(block, resting)


def on_the_floor(block: Block, box: Box) -> bool:
    """Whether ``box`` lies on the floor ``block`` stands on."""
    return box.lo[1] - block.lo[1] <= ON_FLOOR


def in_or_on_another(block: Block, box: Box, blocks: Iterable[Block]) -> bool:
    """Whether ``box`` lies inside or on another surface than ``block`` too: then which of them it
    rests on is not clear, and neither top moves for it (FloorPlan220's two-tier dining table is
    two tables, one box inside the other, with things on the lower tier)."""
    return any(other is not block and other.surface and other.lo[1] < box.lo[1] <= other.hi[1] + ON_TOP
               and centre_over(other, box) for other in blocks)


def on_the_floor_past_its_end(block: Block, box: Box) -> bool:
    """Whether ``box``, inside a desk's box under a top that holds things, lies on the floor beyond
    the end of the desk its id stands over: the desk ends before it (a basketball past FloorPlan320's
    desk's near end); what lies under the id is in the knee space, under the top."""
    return on_the_floor(block, box) and not box.over_footprint(block.position[0], block.position[2])


def fit_resting_objects(blocks: dict[str, Block], resting: list[tuple[str, Box]], floor: Floor = Floor()) -> int:
    """Every object a demo shows at rest lies in or on some receptacle (THOR's spawns put them
    there), and never inside solid furniture.

    An object the simulator's support rule finds nothing under is given the nearest open receptacle
    that may hold it (ALFRED's placement table; never a closed cabinet, drawer or fridge on a guess,
    never a basin it lies above, never a one-object holder such as a stove burner, which would creep
    over the counter around it), grown to hold it, within 30 cm across (of its box before this step)
    and 10 cm up or down. An object inside a dresser's or desk's box shows that its top is lower
    (the top comes down to it), unless it lies at the height of one of the drawers there (a book in a
    dresser's bottom drawer brought FloorPlan330's dresser down to 4 cm, and what was put on it lay
    on the floor), or the top holds what the demos show at rest on it: then what lies lower inside a
    dresser lies in drawers the room has no box for (:func:`chest_with_a_held_top`: credit cards,
    pens and key chains at 0.10 and 0.39 m brought FloorPlan305's dresser, under mugs at 0.69 m,
    down to 9 cm; FloorPlan301's and FloorPlan413's dressers, 1.23 and 1.15 m tall in THOR, had come
    down to 0.67 and 0.35 m, FloorPlan303's and FloorPlan318's to 11 and 9 cm), and what lies under
    a desk's top in its knee space (a basketball there brought FloorPlan320's desk down to the
    floor, under the pens the demos show on it at 0.72 m); such a desk is cut back only from what
    lies on the floor beyond its id's end.
    One on the floor under a table top, or on a lower shelf under a top that holds things, shows
    that the table does not reach over it (the table is cut back). One above the floor inside a
    table whose top holds nothing shows that the top is lower, as a dresser's does: FloorPlan221's
    coffee table, drawn 0.55 m tall, was cut to a 35 cm strip by the credit cards, key chains and
    remotes the demos show across it at 0.45 m (its room's other coffee table is 0.41 m tall).
    A table's top that holds what the demos show at rest on it is never brought down to hold another
    object (THOR showed where it is): FloorPlan420's side table, under soap and toilet paper at 0.87 m, had
    come down to 0.72 m for the candles on a ledge the room lacks beyond its end, and cut the drawer
    under it to a sliver. Returns how many stay unsupported."""
    unsupported = 0
    ordered = [blocks[k] for k in sorted(blocks)]
    # Reach is measured from each box as it was before any growth here: a receptacle grown for one
    # object must not reach on to the next (a sink creeping along a counter, plate by plate).
    first = {b.object_id: (tuple(b.lo), tuple(b.hi)) for b in ordered}
    # Whether a table's top holds things is read once, before any cut: cut back from what lies
    # under it, a top no longer reaches under what rests on it (FloorPlan201's coffee table).
    held_tops = {b.object_id for b in ordered if b.kind in ON_LEGS and top_holds_things(b, resting)}
    views = [b.support_view() for b in ordered]  # rebuilt whenever a block changes below
    for kind, box in resting:
        obj = WorldObject("resting", kind, "resting", box.center, (0.0, 0.0, 0.0), box)
        if simulator_support(None, obj, views) is not None:
            continue
        for block in ordered:
            inside = centre_over(block, box) \
                and block.lo[1] < box.lo[1] < block.hi[1] - 0.1
            if not (inside and block.surface and not catalogue.object_type(block.kind).structural):
                continue
            if _at_its_drawers(block, box, ordered) or chest_with_a_held_top(block, resting):
                continue
            if block.kind in ON_LEGS and (block.object_id in held_tops or on_the_floor(block, box)
                                          or in_or_on_another(block, box, ordered)):
                cut_away(block, box)
            elif block.kind in KNEE_SPACE and top_holds_things(block, resting):
                if on_the_floor_past_its_end(block, box):
                    cut_away(block, box)
            elif catalogue.can_place(kind, block.kind):
                set_top(block, box.lo[1] - 0.005)
        unsupported += not grow_nearest_to_hold(kind, box, ordered, first, resting, floor)
        views = [b.support_view() for b in ordered]
    return unsupported


def grow_nearest_to_hold(kind: str, box: Box, ordered: list[Block], first: Mapping[str, tuple[tuple[float, ...], ...]],
                         resting: Iterable[tuple[str, Box]], floor: Floor = Floor(),
                         containers: bool = True, move_tops: bool = True,
                         kept: frozenset[str] = frozenset()) -> bool:
    """Grow the nearest receptacle of ``ordered`` that may hold a ``kind`` at ``box`` (ALFRED's
    placement table, never a closed one on a guess nor a one-object holder) so the simulator's
    support rule puts it there: within 0.3 m across of its box as ``first`` had it and 0.1 m up or
    down, its top moved to the object's bottom; whether it is held now (already held: True).
    ``containers``: basins may be grown too (False: only open tops); ``move_tops``: a top may move
    to the object's bottom (False: only its footprint grows, and only a top the object already rests
    at the height of holds it); ``kept``: types that hold things but are never grown."""
    obj = WorldObject("resting", kind, "resting", box.center, (0.0, 0.0, 0.0), box)
    if simulator_support(None, obj, [b.support_view() for b in ordered]) is not None:
        return True
    options = []
    for block in ordered:
        if not catalogue.can_place(kind, block.kind) or catalogue.object_type(block.kind).encloses:
            continue  # not shut away in a closed cabinet on a guess: a demo may pick it up unopened
        if catalogue.object_type(block.kind).capacity <= 1:
            continue  # a burner, a coffee machine, a hanger holds one thing on its own spot: never grown
        if (block.container and not containers) or block.kind in kept:
            continue
        lo, hi = first[block.object_id]
        x, z = obj.center[0], obj.center[2]
        across = max(0.0, lo[0] - x, x - hi[0], lo[2] - z, z - hi[2])
        if block.container:
            if box.lo[1] >= block.hi[1] - RIM_TOLERANCE:
                continue  # at or above the rim: beside the basin, not in it
            up = max(0.0, block.lo[1] - obj.center[1], obj.center[1] - block.hi[1])
        else:
            up = abs(box.lo[1] - block.hi[1])
            if block.kind in ON_LEGS and box.lo[1] < block.hi[1] - LOWER_TOP and top_holds_things(block, resting):
                continue  # THOR showed things on this table: it is not brought down to another's height
        if across <= 0.3 and up <= 0.1:
            options.append((across + up, block.object_id, block))
    for _, _, block in sorted(options, key=lambda o: o[:2]):
        before = (list(block.lo), list(block.hi))
        if move_tops and not block.container and abs(box.lo[1] - block.hi[1]) > LOWER_TOP:
            set_top(block, box.lo[1] - 0.005)
        if _grow_to_hold(block, obj, floor) and simulator_support(
                None, obj, [b.support_view() for b in ordered]) is not None:
            return True
        block.lo, block.hi = before
    return False


def _claims(block: Block, obj: WorldObject) -> bool:
    return simulator_support(None, obj, [block.support_view()]) is not None
