"""A fixture's first box in an imported THOR room: size, orientation, front and height (steps 1 and 2
of :mod:`alfred_gen.scenes.alfred.geometry`).

ALFRED gives a fixture's id (type and origin) and where the agent stood to use it, never its
extent. The size comes from THOR's asset database or the catalogue; the box is turned to cover
fewer reachable points; where the box lies above and below the origin depends on what kind of
fixture it is and on the learnt surface heights (:mod:`alfred_gen.scenes.alfred.surface_stats`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import id_position
from alfred_gen.scenes.alfred.fixture_block import (
    AGENT_CLEARANCE,
    BUILT_IN_CONTAINERS,
    COUNTER_SLAB,
    Block,
    inner_floor,
    origin_on_floor,
)
from alfred_gen.scenes.alfred.mask_heights import lift_to_masks, raise_to_masks
from alfred_gen.scenes.alfred.shelf_backs import unit_of
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import Box, plan_room_type
from alfred_gen.sim.shapes import door_pair
from alfred_gen.sim.world import quarter_turns, turn_horizontal

#: Structural receptacles whose THOR origin sits at (about) the top surface when above the floor.
SURFACE_ORIGIN = frozenset({"CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand",
                            "Shelf", "StoveBurner"})
#: Furniture of :data:`SURFACE_ORIGIN` that stands on the floor whatever its height: its box reaches
#: down to the floor. Placed by its top alone (the learnt height over its id) with the type's height
#: below it, FloorPlan28's side table (THOR's asset 0.69 m tall, the catalogue type's 0.5 m) floated
#: 0.17 m over the floor, its legs drawn short of THOR's and its put masks met by floor pixels (wide
#: sample, held out by folds: side table puts +0.25 IoU units over 27, nothing else changed).
FLOOR_STANDING = frozenset({"DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand"})
#: Furniture whose bounding box top is a back rest or head board, not the surface things lie on.
SEATS = frozenset({"Sofa", "ArmChair", "Bed", "Chair", "Ottoman", "DogBed"})
#: Furniture whose id, when above the floor, is at a raised platform with open space under it.
RAISED_PLATFORMS = frozenset({"Bed"})
#: How far a pedestal sink's rim stands above where things rest in its basin (metres).
PEDESTAL_RIM = 0.1
#: How far off a cabinet's id, across its front, the agent must stand to use it for its side to
#: say where the cabinet lies (metres): 266 of 295 cabinets' first poses stand farther off.
HINGE_SIDE_EVIDENCE = 0.1


#: How big a fixture type is, in rooms of one kind, against its catalogue or asset size: THOR 2.1's
#: bathrooms and bedrooms have smaller garbage cans than its kitchens. Fit to THOR's masks of
#: garbage cans at the puts into them (in-sample rooms; the whole box scaled by 1, 0.8, 0.65, 0.5):
#: in bathrooms with even FloorPlan numbers, IoU 0.29 at full size and 0.51 at 0.65 (23 masks),
#: checked on the odd ones 0.25 and 0.50 (19); in bedrooms 0.70 at 0.8 against 0.41 (10 even) and
#: 0.75 against 0.41 (10 odd). Kitchens (0.64 at full size, 0.51 at 0.8; 23 masks) and living
#: rooms (0.59 and 0.54; 15) fit the full size.
ROOM_SCALE = {("GarbageCan", "bathroom"): 0.65, ("GarbageCan", "bedroom"): 0.8}


def room_scale(kind: str, floor_plan: str) -> float:
    """:data:`ROOM_SCALE` for a fixture type in ``FloorPlanN``; 1 outside ALFRED's numbering."""
    return ROOM_SCALE.get((kind, plan_room_type(floor_plan) or ""), 1.0)


#: Fixtures the agent must face square to use: a drawer slides straight out towards it, a
#: microwave's door swings open on its left (:data:`~alfred_gen.sim.shapes.LEFT_HINGED`).
FACED_SQUARE = frozenset({"Drawer", "Microwave"})


def front_pose(object_id: str, poses: Sequence[list[float]]) -> list[float] | None:
    """The interaction pose that shows a fixture's front, or None without poses: the first recorded
    (for a fixture in ``openable.json``, the pose given there); for a drawer (:data:`FACED_SQUARE`),
    the one from which its id lies most nearly straight ahead (the earliest of equally good ones).

    Measured against THOR's masks of the fixture (in-sample rooms, up to 8 masks each) wherever
    the two head different ways: for drawers the straighter pose's facing fits better 9 times in 10
    (FloorPlan30's drawer: IoU 0.07 with the first pose's facing, 0.69 with the straighter one's);
    for cabinets, toilets, a shelf and a sink the first pose's 8 times in 8, as the agent stands
    off to the side of a door it swings open or of a toilet it puts things on (a toilet whose demos
    stand things on its tank is faced away from the tank instead,
    :mod:`~alfred_gen.scenes.alfred.toilet_tanks`: 12 of 27 first poses faced one off). Desks (2 of 3 for
    the straighter) and a dresser are too few to say. Of the microwaves, only FloorPlan4's has a
    first pose (from its side) other than its straighter one; with the door hung on the left, as
    THOR's masks of open microwaves show, the straighter pose's facing fits its masks (IoU 0.76
    against 0.45 with the first pose's).
    """
    if not poses:
        return None
    if catalogue.type_of_id(object_id) not in FACED_SQUARE:
        return poses[0]
    x, _, z = id_position(object_id)

    def off_axis(i: int) -> float:
        hx, hz = turn_horizontal(0.0, 1.0, quarter_turns(float(poses[i][2])))  # the agent's forward
        dx, dz = x - float(poses[i][0]), z - float(poses[i][1])
        return round(math.atan2(abs(dx * hz - dz * hx), dx * hx + dz * hz), 9)

    return poses[min(range(len(poses)), key=lambda i: (off_axis(i), i))]


#: Fixtures whose front faces the nearest point of the room's layout whatever their poses say: of
#: the 30 microwaves of the train rooms, the nearest layout point lies on the side each faces from
#: the pose it lies straightest ahead of, in all 30; FloorPlan4's ``openable.json`` pose, the only
#: one a room built from its layout files has, looks at its side. (The nearest walked point would
#: turn 3 of the 30 towards a side the demos walk past.)
FACES_NEAREST_FLOOR = frozenset({"Microwave"})


#: Cabinets (or drawers and cabinets) whose ids share x (or z) to :data:`ROW_ALIGNMENT`, lie within
#: :data:`ROW_LEVEL` of one height and within :data:`ROW_REACH` of each other along the line stand
#: in one row (metres).
ROW_ALIGNMENT = 0.02
ROW_LEVEL = 0.1
ROW_REACH = 1.5


def _row_axis(object_id: str, cabinet_ids: Iterable[str]) -> int | None:
    """The axis (0: x, 2: z) a cabinet's (or drawer's) front faces along if its id lines up with
    another of ``cabinet_ids`` (the row runs across it); None in no row or at the crossing of two."""
    here = id_position(object_id)
    lined = []
    for axis in (0, 2):
        lined.append(any(
            other != object_id and abs(there[axis] - here[axis]) < ROW_ALIGNMENT and abs(there[1] - here[1]) < ROW_LEVEL
            and abs(there[2 - axis] - here[2 - axis]) < ROW_REACH
            for other, there in ((o, id_position(o)) for o in cabinet_ids)))
    if lined[0] == lined[1]:
        return None
    return 0 if lined[0] else 2


def facing_pose(pose: Sequence[float], object_id: str, axis: int) -> list[float]:
    """``pose`` turned to look at the line through ``object_id`` across ``axis`` from where it stands."""
    stood, line = float(pose[0 if axis == 0 else 1]), id_position(object_id)[axis]
    yaw = {(0, True): 270.0, (0, False): 90.0, (2, True): 180.0, (2, False): 0.0}[(axis, stood > line)]
    return [float(pose[0]), float(pose[1]), yaw, *pose[3:]]


def _holds_either_side(block: Block, point: Sequence[float]) -> bool:
    """Whether ``point`` lies within the cabinet's height and depth and one width either side of its
    hinge (which side its box reaches to is decided later)."""
    axis, _ = block.front_axis
    across = 2 - axis
    width = block.hi[across] - block.lo[across]
    return (block.lo[1] <= point[1] <= block.hi[1] and block.lo[axis] <= point[axis] <= block.hi[axis]
            and abs(point[across] - block.position[across]) <= width)


def drawers_face_their_rows(poses_of: Mapping[str, list[list[float]]]) -> dict[str, list[list[float]]]:
    """Each drawer's poses, replaced by its front pose turned to face across its row when its id lines
    up with other drawers' or cabinets' ids at its height (:func:`_row_axis`) and the pose faces it
    along that row.

    A drawer faces the agent of the pose it lies straightest ahead of (:func:`front_pose`), but
    ALFRED's generator often opens a drawer from beside it: FloorPlan1's drawer by the sink is
    opened from 0.56 m to its side, and a room built from that pose turned the drawer to face along
    the counter, where its box stood over the cabinet under it and hid the cabinet from the pose
    that opens it. In the rooms built from every train demo, 77 of 474 drawers have a straightest
    pose facing them along their row; over THOR's masks of them (opened or closed in a demo), lite's
    drawer overlaps THOR's better facing across the row: pooled IoU 0.164 -> 0.430 over 36 masks in
    the even FloorPlans, 0.269 -> 0.511 over 8 in the odd ones; better in 31 of the 44, worse in none.
    """
    out = dict(poses_of)
    built_in = [oid for oid in poses_of if catalogue.type_of_id(oid) in BUILT_IN_CONTAINERS]
    for oid in sorted(built_in):
        if catalogue.type_of_id(oid) != "Drawer":
            continue
        axis = _row_axis(oid, built_in)
        pose = front_pose(oid, poses_of[oid])
        if axis is None or pose is None:
            continue
        faces_along_x = quarter_turns(float(pose[2])) % 2 == 1
        if faces_along_x != (axis == 0):
            out[oid] = [facing_pose(pose, oid, axis)]
    return out


def faced_by_contents(poses_of: Mapping[str, list[list[float]]], contents: Mapping[str, Sequence[Sequence[float]]],
                      block_for: Callable[[str, list[list[float]]], Block]) -> dict[str, list[list[float]]]:
    """Each cabinet's poses, reordered so the first faces it the way that holds the most of what THOR
    reported in it (``contents``: cabinet id -> the reported objects' middles).

    A cabinet's front is first taken from the first pose it was used from (:func:`facing_of`), but
    the agent often opens one from the side, and a room built from fewer demos may have only such a
    pose: FloorPlan412's corner cabinet, faced by a pose from beside it, turned its box into the
    next cabinet and hid the cloth inside. The candidates are the facings its poses give and, for a
    cabinet whose id lines up with other cabinets' (a row: fronts face across it), the first pose
    turned to face the row's line; the one holding most reported contents (within the depth, the
    height and a width either side of the hinge, :func:`_holds_either_side`) wins, the first pose on
    a tie. Corner cabinets share a line with a row but face along it (FloorPlan7, 20, 27): without
    contents to say so, the first pose stands.
    """
    cabinet_ids = [oid for oid in poses_of if catalogue.type_of_id(oid) == "Cabinet"]
    out = dict(poses_of)
    for oid in sorted(cabinet_ids):
        poses, inside = poses_of[oid], contents.get(oid, ())
        if not poses or not inside:
            continue
        candidates = [poses]
        seen = {quarter_turns(float(poses[0][2]))}
        for pose in poses[1:]:
            if quarter_turns(float(pose[2])) not in seen:
                seen.add(quarter_turns(float(pose[2])))
                candidates.append([pose, *(p for p in poses if p is not pose)])
        axis = _row_axis(oid, cabinet_ids)
        if axis is not None:
            turned = facing_pose(poses[0], oid, axis)
            if quarter_turns(turned[2]) not in seen:
                candidates.append([turned, *poses])
        blocks = [block_for(oid, candidate) for candidate in candidates]
        scores = [sum(_holds_either_side(block, point) for point in inside) for block in blocks]
        out[oid] = candidates[scores.index(max(scores))]
    return out


def facing_of(object_id: str, poses: Sequence[list[float]], reachable: Sequence[tuple[float, float]],
              layout: Sequence[tuple[float, float]] = ()) -> int:
    """The yaw a fixture's front faces: opposite the agent's heading at its :func:`front_pose`;
    without one, towards the nearest reachable point; for :data:`FACES_NEAREST_FLOOR`, towards the
    nearest ``layout`` point (the reachable ones without a layout)."""
    if catalogue.type_of_id(object_id) in FACES_NEAREST_FLOOR:
        pose, reachable = None, layout or reachable
    else:
        pose = front_pose(object_id, poses)
    if pose is not None:
        return (int(round(float(pose[2]) / 90.0)) % 4 * 90 + 180) % 360
    x, _, z = id_position(object_id)
    if not reachable:
        return 0
    px, pz = min(reachable, key=lambda p: ((p[0] - x) ** 2 + (p[1] - z) ** 2, p))
    dx, dz = px - x, pz - z
    if abs(dx) > abs(dz):
        return 90 if dx > 0 else 270
    return 0 if dz >= 0 else 180


def _covered(lo_x: float, hi_x: float, lo_z: float, hi_z: float, points: list[tuple[float, float]],
             inset: float) -> int:
    return sum(1 for x, z in points if lo_x + inset < x < hi_x - inset and lo_z + inset < z < hi_z - inset)


def _span_from_hinge(block: Block, position: tuple[float, float, float], poses: list[list[float]]) -> None:
    """Move a cabinet's box across its front so its id is at one end: at the door's hinge.

    THOR's cabinet id is at the hinge edge of its door, not at its middle. In the train demos'
    start states, what lies in a cabinet sits 0.19 m (median over 295 cabinets) to one side of
    its id; only 45 have their contents centred on it. The agent opens a cabinet from in front of
    its door, off to the side away from the hinge: where it stands more than
    :data:`HINGE_SIDE_EVIDENCE` to one side, the contents lie on its side in 162 cabinets and on
    the other in 64. So the box reaches from the id across its width towards the agent's side;
    without such a pose it stays centred on the id. Of 180 places the train demos pick something
    up from right after opening such a cabinet (100 single cabinets), a box so placed holds 139
    (with 3 cm to spare), one reaching 5 or 10 cm past the id 133 or 128, one centred on it 81.
    """
    if not poses:
        return
    axis, _ = block.front_axis
    across = 2 - axis
    lateral = float(poses[0][0] if across == 0 else poses[0][1]) - position[across]
    if abs(lateral) <= HINGE_SIDE_EVIDENCE:
        return
    reach_to(block, 1 if lateral > 0 else -1)


#: A middle this close to a cabinet's hinge line (across its front) lies on neither side of it (metres).
AT_THE_HINGE = 0.05
#: A thing whose bottom lies this far below a cabinet's box stands outside it, under it (metres).
UNDER_THE_BOX = 0.05
#: A thing resting this far above the lowest of a cabinet's candidate contents lies on another
#: floor: in the cabinet beside or above it, not on this one's (metres).
ABOVE_ITS_FLOOR = 0.1


def side_of_contents(block: Block, resting: Iterable[Box]) -> int:
    """Which side of a cabinet's id, across its front, more of ``resting`` lie on (+1 or -1; 0 on a
    tie): counting those whose middle is within the box's depth and height and within one width
    of the id, but not within :data:`AT_THE_HINGE` of it, and only those resting on the cabinet's
    floor: their bottom no more than :data:`UNDER_THE_BOX` below the box and no more than
    :data:`ABOVE_ITS_FLOOR` above the lowest such bottom.

    THOR's id is at the door's hinge, where the carcass's side wall stands: a thing whose middle
    lies a centimetre or two from that line sits across the wall or against it, on neither side.
    FloorPlan3's cabinet under the counter had six start positions 1 cm past its hinge outvote the
    things well inside on the other side, and its box reached away from the kettle a demo took out
    of it. Over the 290 pickups right after opening a cabinet in the held-out demos (each room built
    from the other folds, final boxes), the box lies on the pickup's side 279 times, 278 without the
    margin (FloorPlan3's; none lost; any margin from 3 to 8 cm gives the same, chosen on those
    same pickups): ``python bench/cabinet_sides.py ALFRED_TRAIN_JSON --workers 2``.

    What a cabinet holds rests on its floor. FloorPlan12's wall cabinet over the counter
    (Cabinet|+01.22|+01.39|+00.59, its catalogue box 0.6 m deep) met, on its +z side, tall things
    standing on the counter under it (bottoms 0.937, the box's 1.04) and the cups and bowls on the
    floor of the cabinet beside it (bottoms 1.50; a support fact puts one of them in
    Cabinet|+01.50|+02.11|+01.16); they outvoted the salt shakers and mugs on
    its own floor (bottoms 1.07) on its -z side. Its box reached to +z, out of the agent's view, and
    the held-out replay stopped at opening it (not visible). Counting only things on its floor:
    the box on the pickup's side 280 of those 290 times (was 279; spans the pickup 245, was 244),
    and that replay goes on to its end.
    """
    axis, _ = block.front_axis
    across = 2 - axis
    hinge, width = block.position[across], block.hi[across] - block.lo[across]
    inside = [box for box in resting
              if block.lo[1] <= box.center[1] <= block.hi[1] and block.lo[axis] <= box.center[axis] <= block.hi[axis]
              and abs(box.center[across] - hinge) <= width and box.lo[1] >= block.lo[1] - UNDER_THE_BOX]
    floor = min((box.lo[1] for box in inside), default=0.0)
    votes = 0
    for box in inside:
        offset = box.center[across] - hinge
        if abs(offset) <= AT_THE_HINGE or box.lo[1] > floor + ABOVE_ITS_FLOOR:
            continue
        votes += (offset > 0) - (offset < 0)
    return (votes > 0) - (votes < 0)


#: A cabinet's box reaching to one side is barred there by a fixture it would overlap over more than
#: this share of its width (in depth anywhere, and not hanging over the fixture's middle).
BARRED_SHARE = 0.5


def _overlap(a: Box, b: Box, axis: int) -> float:
    """How far two boxes overlap along ``axis`` (negative: the gap between them)."""
    return min(a.hi[axis], b.hi[axis]) - max(a.lo[axis], b.lo[axis])


def span_side(block: Block, contents: Iterable[Box], barring: Iterable[Box]) -> int:
    """Which side of a single cabinet's id, across its front, its box reaches to (+1 or -1; 0 when
    the evidence does not say): away from the one side where something it cannot hold stands (a box
    of ``barring`` the box reaching that side would overlap over more than :data:`BARRED_SHARE` of
    its width, the cabinet's bottom below the box's middle), or else the side of its contents
    (:func:`side_of_contents`).

    Overlap, not where the fixture's middle is, decides: a fridge is taller than a base cabinet and
    its middle lies above the cabinet's top. FloorPlan6's cabinet beside its fridge, built from the
    layout files alone, reached from its hinge into the fridge (its opening pose stood on that side)
    and the bowl THOR put in it, on the other side, lay out of any box, in view of nothing. A wall
    cabinet hangs over a fridge, its bottom above the fridge's middle, and is not barred by it
    (FloorPlan30's, whose learnt boxes share 0.35 m of height).
    """
    axis, _ = block.front_axis
    across = 2 - axis
    width = block.hi[across] - block.lo[across]
    beside = [box for box in barring if block.lo[1] < box.center[1]]
    barred = set()
    for side in (1, -1):
        turned = reaching(block, side)
        if any(_overlap(turned, box, across) > BARRED_SHARE * width and _overlap(turned, box, axis) > 0
               and _overlap(turned, box, 1) > 0 for box in beside):
            barred.add(side)
    if len(barred) == 1:
        return -barred.pop()
    return side_of_contents(block, contents)


def reach_to(block: Block, side: int) -> None:
    """Set a cabinet's box to reach from its id across its front to ``side``, its width kept."""
    axis, _ = block.front_axis
    across = 2 - axis
    hinge, width = block.position[across], block.hi[across] - block.lo[across]
    block.lo[across], block.hi[across] = sorted((hinge, hinge + side * width))


#: Fixtures standing on the floor whose box may meet a cabinet's (they do not bar its side).
_BUILT_INTO_ROWS = frozenset({"Cabinet", "Drawer", "CounterTop", "Sink", "SinkBasin"})


def spans_toward_contents(blocks: list[Block], resting: Sequence[tuple[str, Box]]) -> None:
    """A single cabinet's box reaches from its id to the side the evidence proves (:func:`span_side`).

    The agent's side (:func:`_span_from_hinge`) is a weaker witness than what lies in the cabinet.
    Measured on the train demos' pickups right after opening a single cabinet (303), each room
    built from the other four fifths of its demos: where other start states put pickupable objects
    within one width of the id, the side this rule gives is the pickup's side 192 times in 201,
    where the agent's side is right 171 times; where the agent gave no side (the box centred),
    20 times in 22. What lies inside another cabinet's box is that cabinet's, not evidence for
    this one, and a box does not move over another cabinet's middle (a row's contents had pulled a
    box over its neighbour's inside and hidden a cup there; with them counted, 189 of 202). Nor is
    what rests on a surface's top (:func:`_rests_on`): FloorPlan414's cabinet standing on its
    counter reached over the bottles on the counter beside it, away from what lay on its own
    floor; the rays to the bottles then cut it to a 2 cm sliver and the hand towel put into it
    resolved to the counter. A fixture standing on the floor that a cabinet cannot hold (a garbage
    can) bars its side. A door of a pair keeps its half (:func:`split_door_pairs`).
    """
    cabinets = [b for b in blocks if b.kind == "Cabinet"]
    surfaces = [b for b in blocks if b.surface]
    contents = [box for kind, box in resting if catalogue.object_type(kind).pickupable
                and not any(_rests_on(box, s) for s in surfaces)]
    barring = [b.box() for b in blocks if b.floor_origin and b.kind not in _BUILT_INTO_ROWS
               and not catalogue.thor_accepts(b.kind, "Cabinet")]
    # Which contents lie in each cabinet's box, kept up to date as boxes move (a later cabinet sees
    # the earlier ones where they now are).
    holds = [_held(contents, c.box()) for c in cabinets]
    for i, block in enumerate(cabinets):
        if door_partner(block, cabinets) is not None:
            continue
        claimed = set().union(*(held for j, held in enumerate(holds) if j != i))
        own = [box for k, box in enumerate(contents) if k not in claimed]
        side = span_side(block, own, barring)
        others = [c.box() for c in cabinets if c is not block]
        if side and not any(middle_inside(other, reaching(block, side)) for other in others):
            reach_to(block, side)
            holds[i] = _held(contents, block.box())


#: Cabinets side by side share at least this fraction of the lower one's height (a wall cabinet over
#: a base cabinet shares none) and ids at least this far apart across their fronts (metres).
ROW_SHARE = 0.5
MIN_NEIGHBOUR_GAP = 0.2
#: A box's end this close to its id reaches out from it (metres).
_AT_ID = 0.01


def neighbours_meet(blocks: list[Block]) -> None:
    """Two cabinets side by side in one row whose boxes overlap are cut apart between them.

    Each box reaches a catalogue width from where its door hangs: a single cabinet's id (THOR puts
    it at the hinge), a double door's pair middle (:func:`split_door_pairs`). THOR's cabinets are
    often narrower: two doors hinged at the outer ends of a sink's carcass, 0.71 m apart, reach
    0.5 m each and overlap by 0.29 m, and a cup inside one was drawn inside both and hidden behind
    the other's door. Solid cabinets do not overlap, so where they reach towards each other they
    meet halfway between where their doors hang; where both reach the same way, the one behind
    stops where the other's door hangs (its hinge edge). The two doors of one pair are left to
    :func:`split_door_pairs`.

    A pair's middle counts as a door's hanging point as a single's id does. In the bathrooms' vanity
    rows (FloorPlan408, 412, 413, 428: a single door at each end, a double door between) the
    singles reached 0.5 m over the pair's halves, and a soap bar inside an end cabinet was drawn
    inside its neighbour too, hidden behind the neighbour's shut door. Over the rooms built from all
    the train demos, 35 pairs of cabinets overlapped by more than 2 cm each way with pairs' middles
    left out; 10 do with them counted (ids too close to part, or boxes not reaching from them).
    """
    cabinets = [b for b in blocks if b.kind == "Cabinet"]
    partner_of = {id(b): door_partner(b, cabinets) for b in cabinets}

    def hangs_at(block: Block, across: int) -> float:
        partner = partner_of[id(block)]
        if partner is None:
            return block.position[across]
        return (block.position[across] + partner.position[across]) / 2.0

    for i, one in enumerate(cabinets):
        for other in cabinets[i + 1:]:
            if one.facing != other.facing or partner_of[id(one)] is other or not _side_by_side(one, other):
                continue
            across = one.across_axis
            low, high = sorted((one, other), key=lambda c: (hangs_at(c, across), c.object_id))
            low_at, high_at = hangs_at(low, across), hangs_at(high, across)
            if high_at - low_at < MIN_NEIGHBOUR_GAP or low.hi[across] <= high.lo[across]:
                continue
            low_reaches_up = abs(low.lo[across] - low_at) <= _AT_ID
            high_reaches_down = abs(high.hi[across] - high_at) <= _AT_ID
            if low_reaches_up and high_reaches_down:
                cut = (low_at + high_at) / 2.0
            elif low_reaches_up and abs(high.lo[across] - high_at) <= _AT_ID:
                cut = high_at
            elif high_reaches_down and abs(low.hi[across] - low_at) <= _AT_ID:
                cut = low_at
            else:
                continue
            low.hi[across] = min(low.hi[across], cut)
            high.lo[across] = max(high.lo[across], cut)


def _side_by_side(one: Block, other: Block) -> bool:
    """Whether two boxes of one facing stand in one row: their depths overlap and they share
    :data:`ROW_SHARE` of the lower one's height."""
    if not one.overlaps(other, (one.front_axis[0],)):
        return False
    shared = min(one.hi[1], other.hi[1]) - max(one.lo[1], other.lo[1])
    return shared >= ROW_SHARE * min(one.hi[1] - one.lo[1], other.hi[1] - other.lo[1])


#: A thing whose bottom lies this close to a surface's top, its middle over the surface, rests on it (metres).
ON_SURFACE = 0.02


def _rests_on(box: Box, surface: Block) -> bool:
    """Whether ``box`` rests on ``surface``'s top: its middle over the surface's footprint, its
    bottom within :data:`ON_SURFACE` of the top."""
    cx, _, cz = box.center
    return (surface.lo[0] <= cx <= surface.hi[0] and surface.lo[2] <= cz <= surface.hi[2]
            and abs(box.lo[1] - surface.hi[1]) <= ON_SURFACE)


def _held(contents: Sequence[Box], box: Box) -> set[int]:
    """Indices of the ``contents`` whose middle lies inside ``box``."""
    return {k for k, content in enumerate(contents) if middle_inside(content, box)}


def reaching(block: Block, side: int) -> Box:
    """The box ``block`` would have reaching from its id to ``side`` (:func:`reach_to`)."""
    moved = Block(block.object_id, block.kind, block.position, list(block.lo), list(block.hi), block.floor_origin,
                  block.facing)
    reach_to(moved, side)
    return moved.box()


def middle_inside(box: Box, other: Box) -> bool:
    """Whether ``box``'s middle lies strictly inside ``other``."""
    c = box.center
    return all(other.lo[a] < c[a] < other.hi[a] for a in (0, 1, 2))


def hinge_side(block: Block) -> int:
    """Which way a cabinet's box reaches across its front from its id: +1 or -1 when one end hangs
    at the id (:func:`reach_to`), 0 when neither does (a door of a pair, a box grown past its id)."""
    axis, _ = block.front_axis
    across = 2 - axis
    hinge = block.position[across]
    if abs(block.lo[across] - hinge) <= _AT_ID:
        return 1
    if abs(block.hi[across] - hinge) <= _AT_ID:
        return -1
    return 0


def door_partner(block: Block, cabinets: Iterable[Block]) -> Block | None:
    """The other door of a double-door cabinet (:func:`~alfred_gen.sim.shapes.door_pair`); None for
    a single door."""
    for other in cabinets:
        if other is not block and other.facing == block.facing and door_pair(other.position, block.position):
            return other
    return None


def door_pairs(cabinets: Sequence[Block]) -> Iterator[tuple[Block, Block]]:
    """Each double-door cabinet's two doors once (:func:`door_partner`), the one met first in
    ``cabinets`` first, in the order of ``cabinets``."""
    done: set[str] = set()
    for block in cabinets:
        partner = door_partner(block, cabinets)
        if partner is None or block.object_id in done:
            continue
        done |= {block.object_id, partner.object_id}
        yield block, partner


def split_door_pairs(blocks: list[Block]) -> None:
    """Each door of a double-door cabinet gets the half of the carcass on its own side.

    The two ids of a pair lie at the carcass's middle, and what THOR's start states put behind one
    door lies on the side away from the other door's id: in all 21 pair doors the train demos
    pick something up from right after opening it (the agent's side agrees in only 14). So each
    box reaches, across its width, from the midpoint of the two ids away from the partner.
    """
    cabinets = [b for b in blocks if b.kind == "Cabinet"]
    for block in cabinets:
        partner = door_partner(block, cabinets)
        if partner is None:
            continue
        axis, _ = block.front_axis
        across = 2 - axis
        middle = (block.position[across] + partner.position[across]) / 2.0
        # Ids level across the front (none in ALFRED's layouts) still part: the later id goes up.
        ahead = (block.position[across], block.object_id) > (partner.position[across], partner.object_id)
        away = 1.0 if ahead else -1.0
        width = block.hi[across] - block.lo[across]
        block.lo[across], block.hi[across] = sorted((middle, middle + away * width))


def one_shelving_unit(blocks: list[Block], evidence_of: Mapping[str, int]) -> None:
    """Give the boards of one shelving unit one footprint and one front.

    THOR names each board of a shelving unit by the unit's x and z and the board's own height, so
    boards whose ids share x and z (to the centimetre:
    :func:`~alfred_gen.scenes.alfred.shelf_backs.unit_of`) stand one above the other in one frame.
    Each board's front is first taken from its own interaction pose, which may be beside the unit (the
    agent reaching the top board from the side): in the in-sample builds 6 of the 49 such units had
    a board turned a quarter from the others, its catalogue box 0.8 m deep instead of 0.35 m, hiding
    the board below from where the released demos pick things up (FloorPlan5's mugs and plate). The
    front most boards have wins; a tie goes to the boards with more interaction poses
    (``evidence_of``: object id -> poses), then to the lowest board.
    """
    units: dict[tuple[float, float], list[Block]] = {}
    for block in blocks:
        if block.kind == "Shelf":
            units.setdefault(unit_of(block), []).append(block)
    for boards in units.values():
        if len(boards) < 2:
            continue
        votes: dict[int, int] = {}
        poses: dict[int, int] = {}
        for board in boards:
            votes[board.facing] = votes.get(board.facing, 0) + 1
            poses[board.facing] = poses.get(board.facing, 0) + evidence_of.get(board.object_id, 0)
        model = min(boards, key=lambda b: (-votes[b.facing], -poses[b.facing], b.position[1]))
        for board in boards:
            board.facing = model.facing
            for axis in (0, 2):
                board.lo[axis], board.hi[axis] = model.lo[axis], model.hi[axis]


def initial_block(object_id: str, floor_y: float, floor_plan: str, sizes: ThorSizes | None,
                  stats: SurfaceStats | None, poses: list[list[float]], reachable: list[tuple[float, float]],
                  layout: Sequence[tuple[float, float]] = ()) -> Block:
    """A fixture's first box: size, orientation, front and vertical placement (steps 1 and 2).

    Sizes are (width across the front, height, depth); a cabinet's id is at its door, so its box
    reaches back from there, and at its hinge, so it reaches across from there to the agent's side
    (:func:`_span_from_hinge`); other fixtures are centred on their id. ``layout`` (the room's
    layout points) decides which way a microwave faces (:func:`facing_of`).
    """
    kind = catalogue.type_of_id(object_id)
    position = id_position(object_id)
    x, y, z = position
    asset = sizes.size(kind, floor_plan) if sizes is not None else None
    width, sy, depth = asset or catalogue.object_type(kind).size
    scale = room_scale(kind, floor_plan)
    width, sy, depth = width * scale, sy * scale, depth * scale
    facing = facing_of(object_id, poses, reachable, layout)
    along_x = facing in (90, 270)  # depth runs along x
    sx, sz = (depth, width) if along_x else (width, depth)
    if abs(sx - sz) > 1e-6:
        plain = _covered(x - sx / 2, x + sx / 2, z - sz / 2, z + sz / 2, reachable, AGENT_CLEARANCE)
        turned = _covered(x - sz / 2, x + sz / 2, z - sx / 2, z + sx / 2, reachable, AGENT_CLEARANCE)
        if turned < plain:
            sx, sz = sz, sx
    block = Block(object_id, kind, position, [x - sx / 2, 0.0, z - sz / 2], [x + sx / 2, 0.0, z + sz / 2],
                  origin_on_floor(y, floor_y), facing)
    if kind == "SinkBasin":
        # Demos find things in a basin from 0.2 m behind its sink's id to 0.25 m in front of it and
        # 0.3 m to either side, resting 0.05-0.15 m below it: the basin's rim is at the id.
        axis, sign = block.front_axis
        other = 2 - axis
        block.lo[other], block.hi[other] = position[other] - 0.3, position[other] + 0.3
        front, back = position[axis] + sign * 0.25, position[axis] - sign * 0.2
        block.lo[axis], block.hi[axis] = min(front, back), max(front, back)
    if kind == "Cabinet":
        axis, sign = block.front_axis
        extent = sx if axis == 0 else sz
        block.set_front(position[axis] + sign * 0.02)
        if sign > 0:
            block.lo[axis] = position[axis] + 0.02 - extent
        else:
            block.hi[axis] = position[axis] - 0.02 + extent
        _span_from_hinge(block, position, poses)
    learnt = stats.offset(kind, block.floor_origin) if stats is not None else None
    asset_type = not catalogue.object_type(kind).structural
    if block.floor_origin and kind == "SinkBasin" and learnt is not None:
        # A pedestal sink's id stands on the floor; its basin is the bowl at the top, where other
        # rooms' demos show things resting (the learnt height above the id, 0.91 m over the train set).
        block.lo[1], block.hi[1] = y + learnt - 0.03, y + learnt + PEDESTAL_RIM
    elif block.floor_origin:
        height = sy
        if block.surface and learnt is not None and (asset is None or kind in SEATS):
            height = max(learnt, 0.05)
        block.lo[1], block.hi[1] = y, y + height
    elif kind in RAISED_PLATFORMS and learnt is not None and learnt > 0:
        # A raised bed (a bunk's upper bed, a loft over a desk): its id is at its platform, and what
        # lies on it rests the learnt height above (FloorPlan304's lower bunk: 0.21 m), so the box is
        # that platform; a bed's whole height under it hid the desk and dresser below (FloorPlan318).
        block.lo[1], block.hi[1] = y, y + learnt
    elif kind in SURFACE_ORIGIN or (block.surface and learnt is not None):
        top = y + (learnt if learnt is not None else 0.0)
        block.lo[1], block.hi[1] = (floor_y if kind in FLOOR_STANDING else max(floor_y, top - sy)), top
    elif asset_type:
        block.lo[1], block.hi[1] = y, y + sy  # assets (appliances on counters, a loft bed): origin at the base
        lift_to_masks(block)  # microwaves: where THOR's masks show them
    elif kind == "SinkBasin":
        block.lo[1], block.hi[1] = min(y - 0.15, y + (learnt if learnt is not None else -0.1)) - 0.03, y + 0.01
    else:
        block.lo[1], block.hi[1] = y - sy / 2, y + sy / 2
        raise_to_masks(block, floor_plan)  # bathroom faucets: where THOR's masks show them
        if block.container and learnt is not None:
            block.lo[1] = min(block.lo[1], y + learnt - inner_floor(kind))
    if kind == "CounterTop":
        block.lo[1] = block.hi[1] - COUNTER_SLAB
    return block
