"""Fixtures fitted to what a released trajectory's start state puts in and on them.

A room imported from ALFRED's evidence sizes its fixtures from the demos that walked it, or, where
none did, from what other rooms show of the type. A trajectory's ``scene`` block then poses THOR's
objects where they rest in that room, and those poses are evidence the sizes must agree with: an
object lies on a top, in a basin or in a cabinet, never inside a slab. Each rule here moves a
fixture's box to agree with the poses; none is keyed to a room.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.fixture_block import BUILT_IN_CONTAINERS, Block
from alfred_gen.scenes.alfred.fixture_cuts import (
    cut_away,
    cut_off_what_lies_under,
    free_what_they_cannot_hold,
    resting_on,
)
from alfred_gen.scenes.alfred.support_fit import (
    KNEE_SPACE,
    grow_nearest_to_hold,
    on_the_floor_past_its_end,
    top_holds_things,
)
from alfred_gen.sim.scene import Box, SceneObject
from alfred_gen.sim.setup_actions import CONTAINER_BAND, FIXED_FOOTPRINT_SLACK
from alfred_gen.sim.shapes import inner_floor


def fit_to_start_state(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                       without: frozenset[str] = frozenset()) -> dict[str, SceneObject]:
    """The fixtures of ``objects`` whose boxes change to agree with the start state's ``posed``
    (type, box) objects, by id: the passes of :data:`~alfred_gen.scenes.alfred.passes.START_PASSES`
    in order (cut back from what they cannot hold, counter slabs off what lies under them, basins'
    floors down to what lies in them, drawers and cabinets below what lies over them, tops down to
    what rests on them, open tops out to what rests just past their edge, desks ending before what
    lies on the floor past them), but those named in ``without``."""
    # The table lists this module's rules, so it is imported here, not at the top.
    from alfred_gen.scenes.alfred.passes import START_PASSES, StartContext, check_without, run_passes

    return run_passes(START_PASSES, StartContext(list(objects), posed), check_without(without)).fitted


def _of_kinds(objects: Iterable[SceneObject], kinds: frozenset[str],
              changed: Mapping[str, SceneObject]) -> Iterator[tuple[SceneObject, SceneObject]]:
    """The objects of these types, each with its box as an earlier rule left it (``changed``)."""
    for obj in objects:
        if obj.object_type in kinds:
            yield obj, changed.get(obj.object_id, obj)


def _block(obj: SceneObject) -> Block:
    return Block(obj.object_id, obj.object_type, obj.position, list(obj.box.lo), list(obj.box.hi), False)


def slabs_off_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                    changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Counter tops cut away from the posed objects lying under them outside a drawer or cabinet.

    The importer cuts a slab off what a room's demos show lying under it
    (:func:`~alfred_gen.scenes.alfred.fixture_cuts.cut_around`); a start state is the same evidence.
    In a room known only from its layout files, FloorPlan8's second counter top (its id at 1.2 m)
    was drawn as wide as a kitchen's counter, 20 cm over the one at 0.95 m, and hid the knives and
    tomatoes the start state lays there.
    """
    current = [changed.get(o.object_id, o) for o in objects
               if not catalogue.object_type(o.object_type).pickupable]
    blocks = [_block(o) for o in current]
    boxes = [box for _, box in posed]
    out: dict[str, SceneObject] = {}
    for obj, slab in zip(current, blocks):
        if slab.kind != "CounterTop":
            continue
        cut_off_what_lies_under(slab, boxes, blocks, resting_on(slab, boxes))
        if slab.box() != obj.box:
            out[obj.object_id] = replace(obj, box=slab.box())
    return out


def _over_footprint(box: Box, fixture: Box, slack: float = 0.0) -> bool:
    """Whether ``box``'s middle lies over ``fixture``'s footprint (x and z, strictly inside it, or
    within ``slack`` metres outside)."""
    c = box.center
    return all(fixture.lo[a] - slack < c[a] < fixture.hi[a] + slack for a in (0, 2))


#: Open basins whose floor a posed object lying in them brings down to it.
_BASINS = frozenset({"SinkBasin", "BathtubBasin"})
#: Basins nothing lies under. In the rooms built from their layout files only, 101 distinct objects
#: of the train demos' start states lie over a tub's footprint below its box (their bottoms 4-19 cm
#: over the floor: in THOR's tub), against 382 inside it; under sink basins lie 2,512 (in the
#: cabinets beneath), so sinks keep the box's bottom as the limit.
_STANDING_BASINS = frozenset({"BathtubBasin"})


def floors_under_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                       changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Basins whose floor lies above what the start state puts in them, lowered to hold it.

    THOR's start poses are where its objects rest: a knife in a sink basin lies on the basin's
    floor. A basin sized from its sink's id and other demos can have its floor a few centimetres
    higher; drawn there, the floor buries the knife and the agent cannot see it (FloorPlan1's sink).
    A tub stands on the room's floor, so what lies over its footprint below its rim is in it, even
    under the box a room known only from its layout files gave it (:data:`_STANDING_BASINS`).
    """
    out: dict[str, SceneObject] = {}
    for obj, current in _of_kinds(objects, _BASINS, changed):
        lo, hi = current.box.lo, current.box.hi
        floor = inner_floor(obj.object_type, hi[1] - lo[1])
        bottom = lo[1]
        lowest = -math.inf if obj.object_type in _STANDING_BASINS else lo[1]
        for _, box in posed:
            inside = _over_footprint(box, current.box) and lowest < box.center[1] < hi[1]
            if inside and box.lo[1] < bottom + floor:
                bottom = min(bottom, box.lo[1] - floor)
        if bottom < lo[1]:
            out[obj.object_id] = replace(current, box=Box((lo[0], bottom, lo[2]), hi))
    return out


#: Furniture whose box top is the surface things rest on. Seats count: an imported room sizes a
#: seat's box up to where things rest on it, not to its back rest
#: (:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`), and THOR reports things on beds
#: 0.4-0.9 m over the floor, on sofas 0.3-0.8 m, on armchairs 0.2-0.8 m, by room. A toilet's top
#: is its tank's lid: THOR reports what rests on a toilet 1.03-1.09 m above its id in 19 rooms
#: (FloorPlan401-420) and 0.93-0.95 m in 8 (421-430), two models, so a toilet sized from other
#: rooms' demos can stand 9 cm over the soap on its tank.
_TOPS = frozenset({"CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand", "Shelf",
                   "Toilet", "Bed", "Sofa", "ArmChair", "Ottoman", "Cart", "BathtubBasin"})
#: Tops drawn down to the lowest level the start state puts things on, not the highest, so that what
#: lies on every level is in view, as in THOR. A cart is an open metal rack 1.28 m tall (THOR's
#: asset database) with shelves near its foot and near its top: THOR reported things on
#: FloorPlan430's cart 0.2 m (5 times) and 0.9 m (6 times) over its id, and a solid box hid the
#: lower shelf. A tub's basin is drawn, in rooms its demos show, with its top where THOR reported
#: things lying in it (:func:`~alfred_gen.scenes.alfred.support_fit.fit_surface_tops`); a room
#: known from its layout files alone drew it with the rim other rooms' tubs have over their ids,
#: 0.6 m above the sponge lying on the tub's floor in FloorPlan430, out of view. A tub set into a
#: platform (a counter slab round it, FloorPlan411) keeps its rim at the slab.
_LOWEST_LEVEL = frozenset({"Cart", "BathtubBasin"})
#: How far under a top the bottom of what rests on it may lie, and still be resting on it (metres):
#: deeper, it is inside the furniture (a drawer), not on it.
_RESTING_DEPTH = 0.1
#: A bottom this close under a top is on it already (metres).
_ON_TOP = 0.005
#: Two objects whose bottoms are this close rest at one level (metres).
_ALIKE = 0.02
#: A bottom up to this far over a top rests on it (metres): THOR's start poses put things on a top
#: a little above the top its room's demos fitted, by as much as the loose boxes' rest heights
#: miss (FloorPlan313's side table: two credit cards and an alarm clock 1.3 cm over it).
_ON_TOP_ABOVE = 0.03
#: A lowered table's or desk's top keeps at least this thickness (a counter's slab moves down whole),
#: metres.
_MIN_TOP = 0.02
#: A drawer or cabinet under a top lowered over it keeps this much height at least, and stays this
#: far below the top (metres).
_MIN_PART, _BELOW_TOP = 0.05, 0.01


def tops_under_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                      changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Tables, desks, counters, shelves, seats, toilets, carts and tubs whose top lies above what the
    start state puts on them, brought down to it.

    A top's height comes from its room's demos or, where it has none, from what other rooms show of
    the type: a dining table in a room known only from its layout files stood 3 cm above the butter
    knife lying on it, or as tall as a kitchen's where THOR's is a low living-room table. THOR's
    start poses say where its objects rest: the top comes down to the lowest bottom lying within
    :data:`_RESTING_DEPTH` under it, or, with none there, to the highest level at which two objects
    rest alike further down (a phone and a pen both at 0.62 m); a cart's or a tub's comes down to the
    lowest bottom of all (:data:`_LOWEST_LEVEL`). Objects inside a drawer or cabinet in the
    furniture's footprint are in it, not on the top.

    A top the start state puts things on (:func:`_holds_posed`) is where THOR has it: it comes down
    only to what lies just under it, never to a level shared further down. FloorPlan313's side table
    holds a credit card, another and an alarm clock on its top and a CD and a key chain on the shelf
    inside it; taken for the top's level, the shelf's brought the top down 0.21 m onto the shelf,
    the things on it floating and the table drawn 1,127 pixels where THOR's mask of it had 10,121.
    """
    current = {o.object_id: changed.get(o.object_id, o) for o in objects}
    built_in = [o for o in current.values() if o.object_type in BUILT_IN_CONTAINERS]
    out: dict[str, SceneObject] = {}
    slabs = [o.box for o in current.values() if o.object_type == "CounterTop"]
    for obj in list(current.values()):
        if obj.object_type not in _TOPS:
            continue
        if obj.object_type == "BathtubBasin":
            tub = _block(obj)
            if any(tub.overlaps_box(slab) for slab in slabs):
                continue
        lo, hi = obj.box.lo, obj.box.hi
        bottoms = []
        for _, box in posed:
            if not lo[1] + _ON_TOP < box.lo[1] < hi[1] - _ON_TOP or not _over_footprint(box, obj.box):
                continue
            if any(_lies_in(box, i) for i in built_in):
                continue
            bottoms.append(box.lo[1])
        near = [b for b in bottoms if b > hi[1] - _RESTING_DEPTH]
        if obj.object_type in _LOWEST_LEVEL:
            top = min(bottoms, default=hi[1])
        elif near:
            top = min(near)
        else:
            top = hi[1] if _holds_posed(obj.box, posed) else _highest_shared_level(bottoms, hi[1])
        if top >= hi[1]:
            continue
        drop = hi[1] - top
        bottom = lo[1] - drop if obj.object_type == "CounterTop" else min(lo[1], top - _MIN_TOP)
        out[obj.object_id] = current[obj.object_id] = replace(obj, box=Box((lo[0], bottom, lo[2]), (hi[0], top, hi[2])))
        # The drawers and cabinets under the top stay below it (as the importer keeps them).
        for part in built_in:
            part = current[part.object_id]
            p_lo, p_hi = part.box.lo, part.box.hi
            under = all(p_lo[a] < hi[a] and lo[a] < p_hi[a] for a in (0, 2)) and p_lo[1] < top - _MIN_PART < p_hi[1]
            if under:
                out[part.object_id] = current[part.object_id] = replace(
                    part, box=Box(p_lo, (p_hi[0], top - _BELOW_TOP, p_hi[2])))
    return out


def desks_end_before_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                           changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Desks cut back from what the start state lays on the floor inside their box past the end
    their id stands over, when their top holds something the start state puts on it: the rule the
    importer applies to what the demos show at rest
    (:func:`~alfred_gen.scenes.alfred.support_fit.fit_resting_objects`), applied to the start state.
    In FloorPlan320 known only from its layout files, the catalogue desk reached over the
    basketball lying on the floor past its near end and hid it from the five demos that pick it up.
    """
    out: dict[str, SceneObject] = {}
    for obj, current in _of_kinds(objects, KNEE_SPACE, changed):
        desk = _block(current)
        if not top_holds_things(desk, posed):
            continue
        for _, box in posed:
            c = box.center
            inside = desk.lo[0] < c[0] < desk.hi[0] and desk.lo[2] < c[2] < desk.hi[2] and desk.lo[1] <= box.lo[1]
            if inside and on_the_floor_past_its_end(desk, box):
                cut_away(desk, box)
        if desk.box() != current.box:
            out[obj.object_id] = replace(current, box=desk.box())
    return out


#: Tops :func:`tops_reach_posed` leaves as built: a counter top's slab is cut round the fixtures,
#: floor and things its room's demos show (:mod:`~alfred_gen.scenes.alfred.fixture_cuts`), and a
#: built room does not keep where, so grown again it reached back over them. What rests on a
#: counter is still held by it (no other top grows for it).
_CUT_SLABS = frozenset({"CounterTop"})


def tops_reach_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                     changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Open tops grown to hold what the start state rests just past their edge.

    The importer grows a receptacle to hold what its room's demos show at rest beside it, within
    0.3 m across and 0.1 m up or down (:func:`~alfred_gen.scenes.alfred.support_fit.fit_resting_objects`);
    a start state is the same evidence. A room built without the demos that showed those things
    lacks the growth: FloorPlan402's toilet, built from the other folds' demos, ended 3 cm short of
    the candle and 10 cm short of the toilet paper a start state stands on its tank, and drawn there
    it lay beside THOR's mask of it (IoU 0.001, the candle picked). Only open tops grow here (a
    basin's floor comes down to what lies in it: :func:`floors_under_posed`); what no top within
    reach can hold at its height stays where it is posed (no top moves here: tops come down to what
    rests on them in :func:`tops_under_posed`).
    """
    current = sorted((changed.get(o.object_id, o) for o in objects
                      if not catalogue.object_type(o.object_type).pickupable), key=lambda o: o.object_id)
    blocks = [_block(o) for o in current]
    first = {b.object_id: (tuple(b.lo), tuple(b.hi)) for b in blocks}
    for kind, box in posed:
        grow_nearest_to_hold(kind, box, blocks, first, posed, containers=False, move_tops=False, kept=_CUT_SLABS)
    out: dict[str, SceneObject] = {}
    for obj, block in zip(current, blocks):
        if block.box() != obj.box:
            out[obj.object_id] = replace(obj, box=block.box())
    return out


def _lies_in(box: Box, part: SceneObject) -> bool:
    """Whether an object rests inside a drawer or cabinet: its middle in the box and its bottom below
    the part's id. Of the objects THOR reported inside a cabinet when first picked up in the 6,574
    train demos, all 377 lie 0.1-1.4 m below the cabinet's id; in a drawer, all 26 below its id."""
    c = box.center
    return all(part.box.lo[a] <= c[a] <= part.box.hi[a] for a in (0, 1, 2)) and box.lo[1] < part.position[1]


def parts_under_posed(objects: Iterable[SceneObject], posed: list[tuple[str, Box]],
                       changed: Mapping[str, SceneObject]) -> dict[str, SceneObject]:
    """Drawers and cabinets whose box reaches over what the start state puts above their id, cut down
    below it: it lies on the counter or shelf over them (:func:`_lies_in`), and a closed cabinet
    sized from the catalogue in a room no demo showed had swallowed the knives lying on the counter,
    or held the plate lying on its top. "Over" is judged as the simulator puts an object in a
    fixture (:data:`~alfred_gen.sim.setup_actions.FIXED_FOOTPRINT_SLACK` outside the footprint
    included): a potato on FloorPlan8's counter, its middle 1 cm beside a cabinet's box that reached
    over the counter, was left in the closed cabinet and could not be sliced."""
    out: dict[str, SceneObject] = {}
    for obj, current in _of_kinds(objects, BUILT_IN_CONTAINERS, changed):
        lo, hi = current.box.lo, current.box.hi
        top = hi[1]
        for _, box in posed:
            held = (_over_footprint(box, current.box, FIXED_FOOTPRINT_SLACK)
                    and lo[1] < box.center[1] < hi[1] + CONTAINER_BAND)
            if held and box.lo[1] >= obj.position[1]:
                top = min(top, box.lo[1] - CONTAINER_BAND)
        if top < hi[1] and top > max(lo[1], obj.position[1]) + _MIN_PART / 2:
            out[obj.object_id] = replace(current, box=Box(lo, (hi[0], top, hi[2])))
    return out


def _holds_posed(top: Box, posed: Iterable[tuple[str, Box]]) -> bool:
    """Whether something of ``posed`` rests on ``top`` as it is: its middle over the footprint and
    its bottom at the top, from :data:`_ON_TOP` under it to :data:`_ON_TOP_ABOVE` over it."""
    return any(_over_footprint(box, top) and top.hi[1] - _ON_TOP <= box.lo[1] <= top.hi[1] + _ON_TOP_ABOVE
               for _, box in posed)


def _highest_shared_level(bottoms: list[float], default: float) -> float:
    """The lowest bottom of the highest run of bottoms each within :data:`_ALIKE` of the next (two
    or more objects resting at one level), or ``default`` when no two rest alike."""
    levels = sorted(bottoms, reverse=True)
    for i in range(len(levels) - 1):
        if levels[i] - levels[i + 1] <= _ALIKE:
            j = i + 1
            while j + 1 < len(levels) and levels[j] - levels[j + 1] <= _ALIKE:
                j += 1
            return levels[j]
    return default


def free_posed_objects(objects: Iterable[SceneObject], posed: list[tuple[str, Box]]) -> dict[str, SceneObject]:
    """Fixtures cut back from the posed objects they cannot hold, by id (only those that changed)."""
    fixtures = [o for o in objects if not catalogue.object_type(o.object_type).pickupable]
    blocks = [_block(o) for o in fixtures]
    if not free_what_they_cannot_hold(blocks, posed):
        return {}
    return {o.object_id: replace(o, box=b.box()) for o, b in zip(fixtures, blocks) if b.box() != o.box}
