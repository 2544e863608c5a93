"""Where THOR put things into each fridge, sink basin and microwave of an imported room, by the pose put from:
from its demos' :class:`~alfred_gen.scenes.alfred.put_facts.PutFact` s.

Facts are grouped by receptacle, by the pose of the put (x, z, rotation, horizon) and by the object's
type; a group's point is the median of its facts' points, coordinate by coordinate (a fridge's: the
median of its densest cluster, :data:`CLUSTER_TYPES`; a microwave's: the median of the facts that
coincide, and none when none do, :data:`REPEAT_TYPES`), and each pose
also has a point for types no fact shows (:func:`put_points_by_pose`). A point is kept only inside
its receptacle's box, widened by :data:`MARGIN` (:data:`MARGINS` for a basin): the depth read from
a mask's extent is off by a few centimetres, and a point outside a fridge is a mask cut by a
shelf's edge or the door. Lite's PutObject from one of these poses puts the object nearest the
point (:mod:`alfred_gen.sim.put_landing`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import dist
from statistics import median

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.put_facts import PUT_FACT_TYPES, PutFact
from alfred_gen.sim.put_landing import EVERY_PLACE
from alfred_gen.sim.scene import Box, SceneObject

#: Metres a fact's point may lie outside its fridge's box and still count.
MARGIN = 0.05

#: The same for a sink basin's box: its point is only the line of sight through the mask (the
#: landing rules, :mod:`alfred_gen.sim.put_landing`'s ``typed_point`` and ``surface_point``, bring
#: that line down to the basin's floor), and :func:`~alfred_gen.scenes.alfred.put_facts.locate` reads a
#: median 1.15x too far along it, up to 0.2 m past a basin seen 1.3 m away. A microwave's likewise
#: (``cavity_sight_plate`` brings its line down to the plate).
MARGINS = {"SinkBasin": 0.3, "Microwave": 0.3}

#: Receptacle types whose fact outside the widened box still counts when its line of sight comes
#: down inside it: it is brought along the line to the box's bottom (:func:`_onto_floor`), and
#: stands for its type from its pose when no fact of that type from that pose lies inside. A sink
#: basin's landing keeps only the line through its point (``typed_point``), and the depth read from
#: a thin thing's mask is far off: :func:`~alfred_gen.scenes.alfred.put_facts.locate` matches the
#: mask's extent to a box as wide as the type's longer side both ways, and a spoon or knife lying
#: in the basin shows a far narrower extent, so it is read a metre or more past the basin, below
#: the floor. Over the train demos 284 of 883 basin facts lay outside the widened box (knives 34 of
#: 37, spoons 21 of 26, forks 21 of 26, butter knives 15 of 20, ladles 26 of 42), and so those
#: types mostly had no point and landed by the fallback (nearest the body), where THOR's masks lay
#: 25-40 px towards the basin's middle (Spoon-None-DiningTable-20). Session 88, with
#: :data:`THIN_RATIO`: on the wide sample (held out by folds) rule picks 2037 -> 2040/2104 (won two
#: soap bars of FloorPlan429, a knife, a tomato slice; lost the spatula of
#: Spatula-None-DiningTable-24, IoU 0.014 -> 0.008), IoU 0.6714 -> 0.6718, pickups after a sink put
#: 30 -> 33/45 (IoU 0.281 -> 0.299); landing bench (SinkBasin, every 10th demo outside the 238,
#: 87 pairs) 68 -> 69/87, mean IoU 0.320 -> 0.325. Mixing the rescued facts into the medians of a
#: pose's facts inside the box (not only standing in for none) lost a fork there (68/87).
LINE_TYPES = frozenset({"SinkBasin"})

#: How many times its shortest side a type's longest must be for its off-box basin facts to count
#: (:func:`_thin`): knives, forks, spoons, ladles, spatulas, cloths, sponges, soap bars and slices,
#: whose masks are narrower than :func:`~alfred_gen.scenes.alfred.put_facts.locate`'s box. A round
#: thing read off the box (potatoes 21 of 27, lettuces 15 of 32) is a mask cut by the basin's rim
#: or by a thing in front, whose line of sight is off too: with them the landing bench lost two
#: potato pickups (Potato-None-DiningTable-4, Potato-None-Microwave-11; 68/87, one potato won).
#: Chosen on that bench, so the wide sample above is its check.
THIN_RATIO = 3.0

#: A put point: the object's type ("" for any), then the pose put from (x, z, rotation, horizon)
#: and THOR's point (x, y, z).
PutPoint = tuple[str, tuple[float, float, float, float, float, float, float]]

#: A pose's places for a type: the type, then the pose (x, z, rotation, horizon) and x, y, z of each place.
PutPlaces = tuple[str, tuple[float, ...]]

#: One landing and what lay near it (:func:`put_matches_by_pose`).
PutMatch = tuple[str, tuple[float, ...]]

Point = tuple[float, float, float]


#: Receptacle types whose point for a type is its facts' densest cluster (:func:`_densest`), not
#: their median: THOR puts a type from one pose at one of a few places, by what already lies in the
#: fridge (FloorPlan24's bowl on the 0.75 m shelf, or on the 0.99 m one when a loaf takes that
#: place), and the median of facts split between shelves or spots lay between them, where THOR
#: never put it. Session 89, every fridge fact of the train demos outside the 238 and the wide sample
#: whose pose and type have facts in other folds (869; 5 folds, as the held-out rooms are built):
#: the other folds' point lies within 8 cm of the fact 430 times as the median, 504 as the densest
#: cluster (all 928 facts: 459 -> 534; within 5 cm 419 -> 499, 12 cm 548 -> 580); falling back to
#: the median when no two facts share a cluster, 477 of 928 (a real landing beats a point between
#: landings). Basins and microwaves keep the median (their point is a line
#: of sight, :mod:`alfred_gen.sim.put_landing`). Under the fridges' ``point`` rule: landing bench
#: (bench/put_landing.py, Fridge, every 10th demo outside the 238, rooms held out by 5 folds, 89
#: pairs) 51 -> 51/89 right (3 won, 3 lost), mean IoU 0.199 -> 0.207; wide sample (held out) rule
#: picks 2041 -> 2041/2104 (won PotatoSliced-None-CounterTop-20 and -Microwave-11, lost
#: LettuceSliced-None-DiningTable-17 and Mug-None-Shelf-7), IoU 0.6721 -> 0.6723 (the 46 pickups
#: after a fridge put 31/46 as before, IoU 0.227 -> 0.233), fidelity_heldout 100%; in-sample mask
#: eval 736/757 as before (no episode changed). With ``point_exact`` (the point itself when the held
#: object's box clears the contents) else ``point_shelf``, tried and dropped: bench 55/89 (IoU
#: 0.268), wide 2040/2104 (IoU 0.6740), in-sample eval 729/757 (LettuceSliced-None-DiningTable-17
#: and Mug-None-CoffeeMachine-18 lost).
CLUSTER_TYPES = frozenset({"Fridge"})

#: Metres around a fact within which others count towards its cluster (:func:`_densest`). Over the
#: 869 facts above, radii 0.06 / 0.10 / 0.12 / 0.15 / 0.20 / 0.30 m put the point within 8 cm of the
#: held-out fact 484 / 492 / 504 / 502 / 491 / 473 times.
CLUSTER_RADIUS = 0.12


#: Receptacle types whose point for a type from a pose stands only when THOR's landing repeated: at
#: least :data:`REPEATS` of the pose's facts of that type lie within :data:`REPEAT_RADIUS` of one
#: another (:func:`_repeated`); the point is their median. A microwave is put into from one pose,
#: and THOR's landing from it depends on what already lies on the plate: the masks of demos whose
#: plate was alike are identical, and their points coincide to the millimetre. Over the train
#: demos' 898 microwave facts whose pose and type have facts in other folds (5 folds, as the
#: held-out rooms are built), when two or more of the other folds' facts coincide their median lies
#: within 3 cm of the fact 470 times of 650; when none coincide, the median of all does 52 times of
#: 248 (a place between landings). The radius and count were set before any measurement.
REPEAT_TYPES = frozenset({"Microwave"})

#: Metres within which two facts count as one landing repeated (:func:`_repeated`): identical masks
#: give identical points, and a mask one pixel wider moves the point by well under this.
REPEAT_RADIUS = 0.01

#: How many coinciding facts make a repeated landing (:func:`_repeated`).
REPEATS = 2


def _middle(points: list[Point]) -> Point:
    return (round(median(p[0] for p in points), 4), round(median(p[1] for p in points), 4),
            round(median(p[2] for p in points), 4))


def _largest_group(points: list[Point], radius: float) -> list[Point]:
    """The facts within ``radius`` of the fact with the most such neighbours (ties: the one nearest
    the median of all)."""
    middle = _middle(points)

    def near(p: Point) -> list[Point]:
        return [q for q in points if dist(p, q) <= radius]

    return near(max(points, key=lambda p: (len(near(p)), -dist(p, middle))))


def _densest(points: list[Point]) -> Point:
    """The median of the largest group of facts within :data:`CLUSTER_RADIUS` of one of them."""
    return _middle(_largest_group(points, CLUSTER_RADIUS))


def _repeated(points: list[Point]) -> Point | None:
    """The median of the largest group of facts within :data:`REPEAT_RADIUS` of one of them when it
    holds :data:`REPEATS` or more (THOR's landing repeated); else None."""
    group = _largest_group(points, REPEAT_RADIUS)
    return _middle(group) if len(group) >= REPEATS else None


def _thin(kind: str) -> bool:
    """Whether a ``kind``'s longest side is :data:`THIN_RATIO` times its shortest or more."""
    sides = sorted(catalogue.object_type(kind).size)
    return sides[2] >= THIN_RATIO * sides[0]


def _inside(box: Box, margin: float, point: Point) -> bool:
    return all(box.lo[a] - margin <= point[a] <= box.hi[a] + margin for a in range(3))


def _onto_floor(fact: PutFact, box: Box, eye_y: float) -> Point | None:
    """Where the line from the eye of ``fact``'s pose (at ``eye_y``) through its point comes down to
    ``box``'s bottom; None when the line does not fall to it."""
    x, z = fact.pose[0], fact.pose[1]
    px, py, pz = fact.point
    if eye_y - py <= 0 or eye_y <= box.lo[1]:
        return None
    t = (eye_y - box.lo[1]) / (eye_y - py)
    return (round(x + t * (px - x), 4), round(box.lo[1], 4), round(z + t * (pz - z), 4))


Pose = tuple[float, float, float, float]
Groups = dict[str, dict[Pose, dict[str, list[Point]]]]


def _pose_key(pose: Sequence[float]) -> Pose:
    """A put's agent pose (x, z, rotation, horizon) as the key its facts are grouped by: rounded to the
    millimetre and the thousandth of a degree, so sibling demos' poses read alike."""
    x, z, rotation, horizon = pose
    return (round(x, 3), round(z, 3), round(rotation % 360, 3), round(horizon, 3))


def _grouped(objects: Iterable[SceneObject], facts: Iterable[PutFact],
             eye_y: float | None) -> tuple[Groups, dict[str, str]]:
    """The facts :func:`put_points_by_pose` keeps, by receptacle, pose and type, and each object's type."""
    boxes = {o.object_id: (o.box, MARGINS.get(o.object_type, MARGIN))
             for o in objects if o.object_type in PUT_FACT_TYPES}
    types = {o.object_id: o.object_type for o in objects}
    groups: Groups = {}
    rescued: Groups = {}
    for fact in facts:
        box, margin = boxes.get(fact.receptacle, (None, MARGIN))
        if box is None:
            continue
        pose = _pose_key(fact.pose)
        if _inside(box, margin, fact.point):
            groups.setdefault(fact.receptacle, {}).setdefault(pose, {}).setdefault(fact.kind, []).append(fact.point)
        elif eye_y is not None and types.get(fact.receptacle) in LINE_TYPES and _thin(fact.kind):
            floor = _onto_floor(fact, box, eye_y)
            if floor is not None and _inside(box, margin, floor):
                rescued.setdefault(fact.receptacle, {}).setdefault(pose, {}).setdefault(fact.kind, []).append(floor)
    for receptacle, by_pose in rescued.items():
        for pose, by_kind in by_pose.items():
            known = groups.setdefault(receptacle, {}).setdefault(pose, {})
            for kind, found in by_kind.items():
                known.setdefault(kind, found)
    return groups, types


def put_points_by_pose(objects: Iterable[SceneObject], facts: Iterable[PutFact],
                       eye_y: float | None = None, repeated: bool = True) -> dict[str, tuple[PutPoint, ...]]:
    """Fridge (or sink basin, microwave: :data:`~alfred_gen.scenes.alfred.put_facts.PUT_FACT_TYPES`) id -> its
    put points, for each one some fact inside its box (widened by :data:`MARGIN`, a basin's by
    :data:`MARGINS`) names: per pose, one point per object type (the median of that type's facts, a
    :data:`CLUSTER_TYPES` receptacle's :func:`_densest`),
    and one for any type (the median of the types' points, each type one vote: a room's demos put
    some types far more often than others, and THOR puts a tall bottle in the door, a plate on a
    wide shelf). With ``eye_y`` (the camera's height), a :data:`LINE_TYPES` fact of a :func:`_thin` type
    outside the widened box counts at the point where its line of sight meets the box's bottom, when
    that is inside and no fact of its type from its pose lies inside. ``repeated=False`` drops
    :data:`REPEAT_TYPES`' test (one episode's own facts: each is THOR's landing in that episode)."""
    groups, types = _grouped(objects, facts, eye_y)
    return _points_of(groups, types, repeated)


def _points_of(groups: Groups, types: dict[str, str], repeated: bool) -> dict[str, tuple[PutPoint, ...]]:
    """:func:`put_points_by_pose` over facts already grouped by :func:`_grouped`."""
    out: dict[str, tuple[PutPoint, ...]] = {}
    for fridge, by_pose in sorted(groups.items()):
        points: list[PutPoint] = []
        for pose, by_kind in sorted(by_pose.items()):
            if repeated and types.get(fridge) in REPEAT_TYPES:
                landings = {kind: _repeated(found) for kind, found in sorted(by_kind.items())}
                kinds = {kind: point for kind, point in landings.items() if point is not None}
                if not kinds:
                    continue
            else:
                point_of = _densest if types.get(fridge) in CLUSTER_TYPES else _middle
                kinds = {kind: point_of(found) for kind, found in sorted(by_kind.items())}
            for kind, point in [("", _middle(list(kinds.values()))), *kinds.items()]:
                points.append((kind, (*pose, *point)))
        if points:
            out[fridge] = tuple(points)
    return out


#: Metres within which a sink basin's facts of one type from one pose name the same place
#: (:func:`put_places_by_pose`): sibling demos of one start state read one mask alike (to the
#: millimetre), while THOR's next spawn point lies a grid step (several centimetres) away.
PLACE_RADIUS = 0.04

#: Metres within which a fridge's facts of one type from one pose name the same place
#: (:func:`put_places_by_pose`), for grouping and for counting a place as repeated: THOR's masks of
#: a bowl put on one shelf read 6 cm apart along it in FloorPlan24 (z 2.218 / 2.279), so at
#: :data:`PLACE_RADIUS` neither counted as repeated and the shelf below was the only place. Chosen on
#: the even FloorPlans' train fridge facts with :data:`alfred_gen.sim.put_landing.FRIDGE_TAKEN`
#: (0.07 with 0.12 m across: 207 of 375 within 5 cm of THOR's landing, 205 at 0.04 / 0.05; the odd
#: half 232 of 415 either way).
FRIDGE_PLACE_RADIUS = 0.07


def _places(points: list[Point], radius: float = PLACE_RADIUS) -> list[Point]:
    """The distinct places among ``points``: each the median of the points within ``radius`` of the
    first not yet taken (in their sorted order)."""
    left = sorted(points)
    places = []
    while left:
        near = [p for p in left if dist(p, left[0]) <= radius]
        places.append(_middle(near))
        left = [p for p in left if p not in near]
    return places


def put_places_by_pose(objects: Iterable[SceneObject], facts: Iterable[PutFact],
                       eye_y: float | None = None) -> dict[str, tuple[PutPlaces, ...]]:
    """Sink basin (:data:`LINE_TYPES`) or fridge (:data:`CLUSTER_TYPES`) id -> for each pose and type
    whose facts (those :func:`put_points_by_pose` keeps) name more than one place (:func:`_places`;
    a fridge's only the places :data:`REPEATS` or more facts name: a single fact's place may be a
    misread mask, and :func:`alfred_gen.sim.put_landing.fridge_place` would take it whenever it lies
    first and nothing stands there), every place: (type, (x, z, rotation, horizon, then x, y, z of
    each place)). A fridge also keeps, for each pose and type, every place one fact or more names,
    under the type followed by :data:`~alfred_gen.sim.put_landing.EVERY_PLACE`: where
    :func:`~alfred_gen.sim.put_landing.fridge_place` goes when a thing stands at the type's point.

    THOR puts a type from one pose at the first spawn point in its order where the object fits, so
    what already lies in the basin decides between a few places; the median of facts that disagree
    lies between them, where THOR never put it (Apple-None-DiningTable-4, Mug-None-CoffeeMachine-24).
    The landing picks one place by what lies in the basin now
    (:func:`alfred_gen.sim.put_landing.free_place`)."""
    groups, types = _grouped(objects, facts, eye_y)
    return _places_of(groups, types)


def _places_of(groups: Groups, types: dict[str, str]) -> dict[str, tuple[PutPlaces, ...]]:
    """:func:`put_places_by_pose` over facts already grouped by :func:`_grouped`."""
    out: dict[str, tuple[PutPlaces, ...]] = {}
    for receptacle, by_pose in sorted(groups.items()):
        if types.get(receptacle) not in LINE_TYPES | CLUSTER_TYPES:
            continue
        found: list[PutPlaces] = []
        for pose, by_kind in sorted(by_pose.items()):
            for kind, points in sorted(by_kind.items()):
                if types.get(receptacle) in CLUSTER_TYPES:
                    every = _places(points, FRIDGE_PLACE_RADIUS)
                    found.append((kind + EVERY_PLACE, (*pose, *(v for place in every for v in place))))
                    places = [p for p in every if sum(dist(p, q) <= FRIDGE_PLACE_RADIUS for q in points) >= REPEATS]
                else:
                    places = _places(points)
                if len(places) > 1:
                    found.append((kind, (*pose, *(v for place in places for v in place))))
        if found:
            out[receptacle] = tuple(found)
    return out


def put_points_and_places(objects: Iterable[SceneObject], facts: Iterable[PutFact], eye_y: float | None = None
                          ) -> tuple[dict[str, tuple[PutPoint, ...]], dict[str, tuple[PutPlaces, ...]]]:
    """:func:`put_points_by_pose` and :func:`put_places_by_pose` of one room at once: the importer
    needs both, and grouping a room's facts (reading every fact against every box) is the costly part."""
    groups, types = _grouped(objects, facts, eye_y)
    return _points_of(groups, types, True), _places_of(groups, types)


#: Receptacle types whose facts keep what lay near the landing (:func:`put_matches_by_pose`).
MATCH_TYPES = frozenset({"Fridge", "Microwave"})

#: Metres a thing's start position may lie outside the receptacle's box and still count as in it
#: (:func:`put_matches_by_pose`).
CONTENTS_MARGIN = 0.02


def put_matches_by_pose(objects: Iterable[SceneObject], facts: Iterable[PutFact]) -> dict[str, tuple[PutMatch, ...]]:
    """Fridge or microwave (:data:`MATCH_TYPES`) id -> for each fact inside its box (widened by
    :data:`MARGIN`) with something already in the box near its point at the episode's start
    (:attr:`~alfred_gen.scenes.alfred.put_facts.PutFact.near`, inside the box widened by
    :data:`CONTENTS_MARGIN`): ("<type>|<near types, comma-separated>", (x, z, rotation, horizon of
    the put, x, y, z of the point, then x, y, z of each near thing in that order)).

    THOR is deterministic: put from one pose with the same things at the same spots around a
    place, it lands where it landed before, even where no rule over places explains it
    (Egg-None-DiningTable-15: an egg dropped into the bowl standing in the microwave, in two
    demos alike). :func:`alfred_gen.sim.put_landing.matched_landing` takes such a landing when the
    world now holds the same things there."""
    boxes = {o.object_id: o.box for o in objects if o.object_type in MATCH_TYPES}
    out: dict[str, set[PutMatch]] = {}
    for fact in facts:
        box = boxes.get(fact.receptacle)
        if box is None or not fact.near or not _inside(box, MARGIN, fact.point):
            continue
        near = [n for n in fact.near if _inside(box, CONTENTS_MARGIN, (n[1], n[2], n[3]))]
        if not near:
            continue
        pose = _pose_key(fact.pose)
        key = f"{fact.kind}|{','.join(n[0] for n in near)}"
        values = (*pose, *fact.point, *(c for n in near for c in n[1:]))
        out.setdefault(fact.receptacle, set()).add((key, values))
    return {r: tuple(sorted(found)) for r, found in sorted(out.items())}
