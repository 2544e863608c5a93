"""The procedural houses: house number -> a Scene of several furnished rooms joined by doorways.

Which rooms a house has (6-10, of lite's four room types and the houses' dining room, gym and
garage) is drawn once from its number, and then whether two of them are one open-plan room (a
kitchen that is also the dining room, ...; :mod:`alfred_gen.scenes.houses.open_plan`,
:func:`house_rooms`). The house is then drawn in four
steps, all from ``random.Random`` seeded by the house number and attempt:

1. the floor plan (:mod:`alfred_gen.scenes.houses.layout`): rooms, the walls between them, doorways;
2. every room furnished and populated by its type's code, as the single rooms are
   (:mod:`alfred_gen.scenes.procedural`; a kitchen then loses the microwave, coffee machine or
   toaster that SUNCG's kitchens would not have, :mod:`alfred_gen.scenes.houses.kitchen_appliances`),
   through a room shell that knows all its doorways (their floor is kept free) and its outside
   walls (windows go there only). Which optional things a room holds follows the single rooms'
   spread (:class:`~alfred_gen.scenes.procedural.vocab.Contents`)
   at a slot fixed by the house and room number;
3. the walls (outer walls, and each inner wall cut around its doorways with a lintel above) and the
   reachable grid over all floors and doorway openings, with walls and furniture as obstacles,
   THOR's largest 4-connected component: each
   room must keep its type's minimum of reachable points in it, which is only possible when every
   room is reachable from every other;
4. an interaction pose per fixed receptacle, faucet and lamp, chosen as in the single rooms.

A room whose furnishing fails is furnished again from the next seed (up to :data:`ROOM_TRIES`);
anything else that fails drops the attempt and the house is drawn again from the next attempt's
seed, so the result is still a function of the number alone.

The Scene records each room's type and floor polygon (``Scene.rooms``) and the doorways
(``Scene.doorways``); an object's room is the room holding its box centre (``Scene.room_of``).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np

from alfred_gen.scenes.grid import (
    AGENT_HEIGHT,
    VISIBILITY_DISTANCE,
    best_interaction_pose,
    occluder_arrays,
    reachable_grid,
)
from alfred_gen.scenes.houses import dining_room, garage, gym
from alfred_gen.scenes.houses.corners import CORNERS
from alfred_gen.scenes.houses.kitchen_appliances import leave_out_appliances
from alfred_gen.scenes.houses.layout import (
    HousePlan,
    PlanFailed,
    PlannedDoor,
    PlannedRoom,
    choose_room_types,
    plan_house,
)
from alfred_gen.scenes.houses.names import HOUSE_NUMBERS, house_name, house_scene_num
from alfred_gen.scenes.houses.open_plan import join_rooms, open_plan_pair
from alfred_gen.scenes.procedural.build import (
    MIN_REACHABLE,
    ROOM_FURNISHERS,
    SceneBuildError,
    front_of,
    needs_pose,
    obstacle_footprints,
    occluders_for,
    wants_pose,
)
from alfred_gen.scenes.procedural.furnish import BuildFailed, RoomBuilder
from alfred_gen.scenes.procedural.populate import place_pickupables
from alfred_gen.scenes.procedural.rooms import DOOR_HEIGHT, WALL_THICKNESS, Door, Rect, RoomShape, WallEdge, rect_edges
from alfred_gen.scenes.procedural.vocab import ROOMS_PER_TYPE, Contents
from alfred_gen.sim.scene import HOUSE, Box, Doorway, Pose, Room, Scene, SceneObject, hash_str

#: Attempts per house number before giving up (a bug if ever reached). Most floor plans of eight
#: or more rooms break a size rule and cost next to nothing (LiteHouse5, eight rooms, builds on
#: attempt 278; before issue 67 every house of 1-999, 2-8 rooms, built within 257). An open-plan
#: room takes two rooms' area and leaves its neighbours narrower: LiteHouse576 (nine rooms, the
#: living room also the dining room) first builds on attempt 1813, about 20 s of mostly rejected
#: plans. Raising the cap changes no house that built within the old one (attempt seeds are fixed).
MAX_ATTEMPTS = 4000

#: Seeds tried for one room's furnishing before the attempt is dropped.
ROOM_TRIES = 6

#: Scene numbers of the single rooms whose contents spread a house's rooms borrow (slot 0 is 1, 201, ...).
_FIRST_SCENE = {"kitchen": 1, "living_room": 201, "bedroom": 301, "bathroom": 401}

#: The rooms only houses have, each a module with ``furnish``, ``pickupables`` (its own choice of
#: pickupables) and ``CONTENTS_OF`` (whose contents spread it borrows).
_OWN_ROOMS = {"dining_room": dining_room, "gym": gym, "garage": garage}

#: How each room type of a house is furnished: the single rooms' code, and the houses' own rooms'.
HOUSE_FURNISHERS = {**ROOM_FURNISHERS, **{room_type: room.furnish for room_type, room in _OWN_ROOMS.items()}}

#: Fewest reachable points a room of each type keeps: the single rooms', and the houses' own rooms'.
HOUSE_MIN_REACHABLE = {**MIN_REACHABLE, "dining_room": 30, "gym": 30, "garage": 40}

#: The pickupables of a room type with its own choice of them (default: its contents').
_PICKUPABLES_OF = {room_type: room.pickupables for room_type, room in _OWN_ROOMS.items()}

#: Whose contents spread a room type borrows (a dining room: a living room's; a gym, a garage: a bedroom's).
_CONTENTS_OF = {room_type: room.CONTENTS_OF for room_type, room in _OWN_ROOMS.items()}


def build_house(house: int) -> Scene:
    """The procedural house ``LiteHouse<house>`` (ValueError outside :data:`HOUSE_NUMBERS`)."""
    if house not in HOUSE_NUMBERS:
        raise ValueError(f"house number {house} is outside {HOUSE_NUMBERS.start}-{HOUSE_NUMBERS.stop - 1}")
    # Which rooms a house has is drawn once; a failed attempt redraws where they are, not what they are.
    types = house_rooms(house)
    reasons = []
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(hash_str(f"{house_name(house)}/attempt {attempt}"))
        try:
            return _attempt(house, attempt, types, rng)
        except (PlanFailed, BuildFailed) as failure:
            reasons.append(str(failure))
    raise SceneBuildError(f"house {house}: no valid house in {MAX_ATTEMPTS} attempts: {reasons[-3:]}")


def house_rooms(house: int) -> list[tuple[str, ...]]:
    """Each room's types of house ``house`` (own type first; two for an open-plan room), in plan
    order: drawn from its number alone, before (and so without the cost of) building it."""
    drawn = choose_room_types(random.Random(hash_str(f"{house_name(house)}/rooms")))
    return join_rooms(drawn, open_plan_pair(house))


def house_room_types(house: int) -> list[str]:
    """Each room's own type of house ``house``, in plan order (an open-plan room's first type)."""
    return [types[0] for types in house_rooms(house)]


def _attempt(house: int, attempt: int, types: list[tuple[str, ...]], rng: random.Random) -> Scene:
    plan = plan_house(rng, types)
    height = round(round(rng.uniform(2.5, 3.0) / 0.05) * 0.05, 4)
    objects: list[SceneObject] = []
    for room in plan.rooms:
        objects.extend(furnish_room(house, attempt, room, room_shell(plan, room, height)))
    ids = Counter(o.object_id for o in objects)
    if any(count > 1 for count in ids.values()):
        raise BuildFailed("two objects of the house share an id")
    walls = wall_boxes(plan, height)
    floors = [_floor(r.rect) for r in plan.rooms] + [_floor(d.opening) for d in plan.doors]
    # The walls between rooms are thinner than the agent: checking the floor under the body's edge
    # (as a single room's grid does) would let it straddle one, so they are obstacles too.
    wall_feet = [(w.lo[0], w.lo[2], w.hi[0], w.hi[2]) for w in walls if w.lo[1] < AGENT_HEIGHT]
    reachable = reachable_grid(floors, obstacle_footprints(objects) + wall_feet)
    records = room_records(plan)
    grid = np.asarray(reachable, dtype=float).reshape(-1, 2)
    for record, room in zip(records, plan.rooms):
        # Room.contains for a rectangle: its edges included, within 1e-6.
        r, eps = room.rect, 1e-6
        xs, zs = grid[:, 0], grid[:, 1]
        inside = (xs >= r.x0 - eps) & (xs <= r.x1 + eps) & (zs >= r.z0 - eps) & (zs <= r.z1 + eps)
        points = int(inside.sum())
        if points < sum(HOUSE_MIN_REACHABLE[t] for t in record.types):
            raise BuildFailed(f"only {points} reachable points in {record.room_id}")
    poses = house_interaction_poses(objects, walls, reachable, stop_unposed=True)
    unposed = [o.object_id for o in objects if needs_pose(o) and o.object_id not in poses]
    if unposed:
        raise BuildFailed(f"no interaction pose for {unposed[:3]}")
    x, z = reachable[rng.randrange(len(reachable))]
    return Scene(
        name=house_name(house),
        scene_num=house_scene_num(house),
        room_type=HOUSE,
        walls=walls,
        reachable=tuple(reachable),
        objects=objects,
        interaction_poses=poses,
        start=Pose(x, z, rng.choice((0, 90, 180, 270)), 30),
        rooms=records,
        doorways=tuple(doorway_record(plan, records, d) for d in plan.doors),
    )


def _floor(rect: Rect) -> tuple[float, float, float, float]:
    return (rect.x0, rect.z0, rect.x1, rect.z1)


def room_contents(house: int, room: PlannedRoom, room_type: str | None = None) -> Contents:
    """The optional contents of a house's room: those of a single room of its type at a slot fixed
    by the house and room number (so the house's rooms differ as the 30 single rooms do).
    ``room_type``: an open-plan room's other type, whose contents its second type's pieces follow."""
    slot = hash_str(f"{house_name(house)}/room {room.index}") % ROOMS_PER_TYPE
    own = room_type or room.room_type
    kind = _CONTENTS_OF.get(own, own)
    return Contents(_FIRST_SCENE[kind] + slot, kind)


def _pickupables(room_type: str, contents: Contents) -> list[tuple[str, int]]:
    """The pickupables a room of this type holds: its own module's choice, else its contents'."""
    own = _PICKUPABLES_OF.get(room_type)
    return own(contents) if own is not None else contents.pickupables()


def furnish_room(house: int, attempt: int, room: PlannedRoom, shell: RoomShape) -> list[SceneObject]:
    """The objects of one room (furniture, decor, pickupables), from the first seed that works.

    An open-plan room is furnished as its own type, then gets its other types' own pieces
    (:data:`~alfred_gen.scenes.houses.corners.CORNERS`) and then those types' pickupables, as many
    as find a place once its own type's have theirs (its own type's must all find one)."""
    spec_furnish = HOUSE_FURNISHERS[room.room_type]
    contents = room_contents(house, room)
    others = [(t, room_contents(house, room, t)) for t in room.also]
    failure = ""
    for trial in range(ROOM_TRIES):
        rng = random.Random(hash_str(f"{house_name(house)}/attempt {attempt}/room {room.index}/try {trial}"))
        builder = RoomBuilder(shell, rng)
        try:
            spec_furnish(builder, contents)
            for other, other_contents in others:
                CORNERS[other](builder, other_contents)
            if room.room_type == "kitchen":
                # Counter appliances only as often as SUNCG's kitchens hold them, per fridge.
                leave_out_appliances(builder, house, room.index)
            missing = place_pickupables(builder, _pickupables(room.room_type, contents))
            for other, other_contents in others:
                place_pickupables(builder, _pickupables(other, other_contents))
        except BuildFailed as error:
            failure = str(error)
            continue
        if missing:
            failure = f"no place for {sorted(set(missing))}"
            continue
        return builder.objects
    raise BuildFailed(f"{room.room_type} {room.index}: {failure}")


def room_shell(plan: HousePlan, room: PlannedRoom, height: float) -> RoomShape:
    """The shell the furnishing code works in: the room's rectangle, its doorways (first one as
    ``door``), and its walls on the outside of the house as the only ones for windows."""
    edges = rect_edges(room.rect)
    doors = []
    for planned in plan.doors:
        if room.index in planned.rooms:
            doors.append(_door_on(edges, planned))
    if not doors:
        raise PlanFailed(f"room {room.index} has no doorway")
    outer = tuple(i for i, edge in enumerate(edges) if _on_outline(edge.start, edge.end, plan.bounds))
    bounds = room.rect
    return RoomShape(bounds, None, edges, doors[0], height, tuple(doors[1:]), outer)


def _door_on(edges: tuple[WallEdge, ...], planned: PlannedDoor) -> Door:
    """The room's Door for a planned doorway: the edge lying on the doorway's wall face, and how
    far along that edge the doorway's centre is."""
    cx, cz = planned.center
    o = planned.opening
    for index, edge in enumerate(edges):
        (sx, sz), (ex, ez) = edge.start, edge.end
        if planned.axis == 0 and abs(sx - ex) < 1e-9 and (abs(sx - o.x0) < 1e-6 or abs(sx - o.x1) < 1e-6):
            if min(sz, ez) - 1e-6 <= cz <= max(sz, ez) + 1e-6:
                return Door(index, round(abs(cz - sz), 4))
        if planned.axis == 2 and abs(sz - ez) < 1e-9 and (abs(sz - o.z0) < 1e-6 or abs(sz - o.z1) < 1e-6):
            if min(sx, ex) - 1e-6 <= cx <= max(sx, ex) + 1e-6:
                return Door(index, round(abs(cx - sx), 4))
    raise PlanFailed(f"doorway {planned.rooms} lies on no wall of its room")


def _on_outline(start: tuple[float, float], end: tuple[float, float], bounds: Rect) -> bool:
    """Whether a wall edge lies on the house's outline (so it is an outside wall)."""
    if abs(start[0] - end[0]) < 1e-9:
        return abs(start[0] - bounds.x0) < 1e-6 or abs(start[0] - bounds.x1) < 1e-6
    return abs(start[1] - bounds.z0) < 1e-6 or abs(start[1] - bounds.z1) < 1e-6


def wall_boxes(plan: HousePlan, height: float) -> tuple[Box, ...]:
    """Outer walls around the house's floor, and each inner wall cut around its doorways, with a
    lintel from :data:`DOOR_HEIGHT` to the ceiling over each doorway."""
    b = plan.bounds
    t = WALL_THICKNESS
    rects = [
        Rect(b.x0 - t, b.z0 - t, b.x1 + t, b.z0),
        Rect(b.x0 - t, b.z1, b.x1 + t, b.z1 + t),
        Rect(b.x0 - t, b.z0, b.x0, b.z1),
        Rect(b.x1, b.z0, b.x1 + t, b.z1),
    ]
    boxes = [r.box(0.0, height) for r in rects]
    for slab in plan.slabs:
        s = slab.rect
        openings = sorted(
            (d.opening for d in plan.doors if s.contains(d.opening)),
            key=lambda o: (o.z0 if slab.axis == 0 else o.x0),
        )
        cursor = s.z0 if slab.axis == 0 else s.x0
        end = s.z1 if slab.axis == 0 else s.x1
        for opening in openings:
            o0, o1 = (opening.z0, opening.z1) if slab.axis == 0 else (opening.x0, opening.x1)
            if o0 > cursor + 1e-9:
                boxes.append(_slab_piece(s, slab.axis, cursor, o0).box(0.0, height))
            boxes.append(opening.box(DOOR_HEIGHT, height))
            cursor = o1
        if end > cursor + 1e-9:
            boxes.append(_slab_piece(s, slab.axis, cursor, end).box(0.0, height))
    return tuple(boxes)


def _slab_piece(slab: Rect, axis: int, a0: float, a1: float) -> Rect:
    return Rect(slab.x0, a0, slab.x1, a1) if axis == 0 else Rect(a0, slab.z0, a1, slab.z1)


def room_records(plan: HousePlan) -> tuple[Room, ...]:
    """The Scene's room records: ids ``<type>_<k>`` (k counting from 1 within the type, in plan
    order, an open-plan room counted under its own type), types (``also``: an open-plan room's
    others) and floor rectangles as counter-clockwise polygons."""
    seen: Counter[str] = Counter()
    records = []
    for room in plan.rooms:
        seen[room.room_type] += 1
        r = room.rect
        floor = ((r.x0, r.z0), (r.x1, r.z0), (r.x1, r.z1), (r.x0, r.z1))
        records.append(Room(f"{room.room_type}_{seen[room.room_type]}", room.room_type, floor, room.also))
    return tuple(records)


def doorway_record(plan: HousePlan, records: tuple[Room, ...], door: PlannedDoor) -> Doorway:
    """The Scene's record of a doorway: the ids of the rooms it joins and its opening, floor to lintel."""
    first, second = door.rooms
    o = door.opening
    return Doorway((records[first].room_id, records[second].room_id), o.box(0.0, DOOR_HEIGHT))


def house_interaction_poses(objects: list[SceneObject], walls: tuple[Box, ...],
                            reachable: list[tuple[float, float]], *,
                            stop_unposed: bool = False) -> dict[str, Pose]:
    """One pose per object that wants one, as the single rooms choose them
    (:func:`alfred_gen.scenes.procedural.build.interaction_poses`), with the occluders cut down to
    the boxes near the target first: a pose stands within the visibility distance of the target,
    so nothing farther can be in the way, and the result is the same as with every box.

    The boxes near a target are found with one numpy test over every box of the house (a house of
    eight rooms has about 300 objects, and a test per pair in Python was most of its build time).
    ``stop_unposed``: return as soon as an object that needs a pose has none (the attempt is lost
    anyway, so the poses of the objects after it are not worth their cost)."""
    poses: dict[str, Pose] = {}
    reach = VISIBILITY_DISTANCE + 0.1
    owners, feet = _footprints(objects)
    wall_feet = np.array([(w.lo[0], w.lo[2], w.hi[0], w.hi[2]) for w in walls], dtype=float).reshape(-1, 4)
    points = np.asarray(reachable, dtype=float)
    for index, obj in enumerate(objects):
        if not wants_pose(obj):
            continue
        near = obj.box
        window = (near.lo[0] - reach, near.lo[2] - reach, near.hi[0] + reach, near.hi[2] + reach)
        close = set(owners[_overlapping(feet, window)].tolist())
        nearby = [o for i, o in enumerate(objects) if i == index or i in close]
        near_walls = tuple(w for w, hit in zip(walls, _overlapping(wall_feet, window)) if hit)
        occluders = occluder_arrays(occluders_for(obj, nearby, near_walls))
        pose = best_interaction_pose(obj.box, points, occluders, front=front_of(obj))  # type: ignore[arg-type]  # an N x 2 array, read as the sequence of points
        if pose is not None:
            poses[obj.object_id] = pose
        elif stop_unposed and needs_pose(obj):
            break
    return poses


def _footprints(objects: list[SceneObject]) -> tuple[np.ndarray, np.ndarray]:
    """(owner index, floor rectangle x0 z0 x1 z1) of every box of every object, parts included."""
    owners = [i for i, o in enumerate(objects) for _ in (o.box, *o.parts)]
    feet = [(b.lo[0], b.lo[2], b.hi[0], b.hi[2]) for o in objects for b in (o.box, *o.parts)]
    return np.array(owners, dtype=int), np.array(feet, dtype=float).reshape(-1, 4)


def _overlapping(feet: np.ndarray, window: tuple[float, float, float, float]) -> np.ndarray:
    """Which floor rectangles overlap the window, by :meth:`Rect.overlaps`' rule."""
    x0, z0, x1, z1 = window
    return (x0 < feet[:, 2] - 1e-9) & (feet[:, 0] < x1 - 1e-9) & (z0 < feet[:, 3] - 1e-9) & (feet[:, 1] < z1 - 1e-9)
