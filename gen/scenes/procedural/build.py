"""The procedural rooms: scene number -> a furnished, populated Scene with its reachable grid and
interaction poses. Deterministic per scene number (random.Random seeded from the number only).

A room is drawn, furnished and populated; then its reachable grid is computed and every fixed
receptacle, faucet and lamp gets an interaction pose. If anything required does not fit, is not
reachable or cannot be seen, the attempt is dropped and the room is drawn again from the next seed
of the same scene number (``num * 1000 + attempt``), so the result is still a function of the
number alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from alfred_gen.domains.catalogue import LAMPS, OBJECT_TYPES
from alfred_gen.scenes.grid import AGENT_HEIGHT, best_interaction_pose, front_normal, occluder_arrays, reachable_grid
from alfred_gen.scenes.procedural import bathroom, bedroom, kitchen, living_room
from alfred_gen.scenes.procedural.furnish import BuildFailed, RoomBuilder
from alfred_gen.scenes.procedural.populate import place_pickupables
from alfred_gen.scenes.procedural.rooms import ShapeSpec, make_room_shape
from alfred_gen.scenes.procedural.vocab import Contents
from alfred_gen.sim.scene import Box, Pose, Scene, SceneObject, room_type_of

#: How procedural scenes are named (never THOR's ``FloorPlanN``).
NAME_PREFIX = "LitePlan"

#: Attempts per scene number before giving up (a bug if ever reached).
MAX_ATTEMPTS = 40

#: Fewest reachable points a room must keep (ALFRED's smallest rooms have about 25).
MIN_REACHABLE = {"kitchen": 30, "living_room": 70, "bedroom": 45, "bathroom": 24}

#: Object types that need an interaction pose besides the fixed receptacles.
POSED_FIXTURES = frozenset({"Faucet"} | set(LAMPS))

#: Toggleable fixtures that get a pose when one can be found (not required).
OPTIONAL_POSED = frozenset({"LightSwitch", "StoveKnob", "Television", "ShowerHead", "Lamp"})

Furnisher = Callable[[RoomBuilder, Contents], None]

_ROOMS: dict[str, tuple[ShapeSpec, Furnisher]] = {
    "kitchen": (kitchen.SHAPE, kitchen.furnish),
    "living_room": (living_room.SHAPE, living_room.furnish),
    "bedroom": (bedroom.SHAPE, bedroom.furnish),
    "bathroom": (bathroom.SHAPE, bathroom.furnish),
}

#: Each room type's furnishing code (also what furnishes the rooms of a house).
ROOM_FURNISHERS: dict[str, Furnisher] = {room_type: furnish for room_type, (_, furnish) in _ROOMS.items()}


class SceneBuildError(RuntimeError):
    """No attempt produced a valid room (a bug in the generator, not a user error)."""


def scene_name(scene_num: int) -> str:
    return f"{NAME_PREFIX}{scene_num}"


def build_scene(scene_num: int) -> Scene:
    """The procedural room for an ALFRED-range scene number (ValueError outside the ranges)."""
    room_type = room_type_of(scene_num)
    contents = Contents(scene_num, room_type)
    spec, furnish = _ROOMS[room_type]
    reasons = []
    for attempt in range(MAX_ATTEMPTS):
        rng = random.Random(scene_num * 1000 + attempt)
        try:
            return _attempt(scene_num, room_type, spec, furnish, contents, rng, large=attempt % 4 == 3)
        except BuildFailed as failure:
            reasons.append(str(failure))
    raise SceneBuildError(f"scene {scene_num}: no valid room in {MAX_ATTEMPTS} attempts: {reasons[-3:]}")


def _attempt(
    scene_num: int, room_type: str, spec: ShapeSpec, furnish: Furnisher, contents: Contents,
    rng: random.Random, large: bool,
) -> Scene:
    shape = make_room_shape(rng, spec, large=large)
    builder = RoomBuilder(shape, rng)
    furnish(builder, contents)
    missing = place_pickupables(builder, contents.pickupables())
    if missing:
        raise BuildFailed(f"no place for {sorted(set(missing))}")
    walls = shape.wall_boxes()
    floor = [(r.x0, r.z0, r.x1, r.z1) for r in shape.floor_rects()]
    reachable = reachable_grid(floor, obstacle_footprints(builder.objects))
    if len(reachable) < MIN_REACHABLE[room_type]:
        raise BuildFailed(f"only {len(reachable)} reachable points")
    poses = interaction_poses(builder.objects, walls, reachable)
    unposed = [o.object_id for o in builder.objects if needs_pose(o) and o.object_id not in poses]
    if unposed:
        raise BuildFailed(f"no interaction pose for {unposed[:3]}")
    x, z = reachable[rng.randrange(len(reachable))]
    start = Pose(x, z, rng.choice((0, 90, 180, 270)), 30)
    return Scene(
        name=scene_name(scene_num),
        scene_num=scene_num,
        room_type=room_type,
        walls=walls,
        reachable=tuple(reachable),
        objects=builder.objects,
        interaction_poses=poses,
        start=start,
    )


def obstacle_footprints(objects: list[SceneObject]) -> list[tuple[float, float, float, float]]:
    """Floor footprints of everything that stops the agent: furniture and floor items below head height."""
    feet = []
    for obj in objects:
        entry = OBJECT_TYPES.get(obj.object_type)
        if entry is not None and entry.pickupable and obj.parent is not None:
            continue  # small things on furniture never block
        for box in (obj.box, *obj.parts):
            if box.lo[1] < AGENT_HEIGHT:
                feet.append((box.lo[0], box.lo[2], box.hi[0], box.hi[2]))
    return feet


def needs_pose(obj: SceneObject) -> bool:
    """Fixed receptacles, faucets and lamps must have an interaction pose."""
    entry = OBJECT_TYPES.get(obj.object_type)
    if entry is None or entry.pickupable:
        return False
    return entry.receptacle or obj.object_type in POSED_FIXTURES


def wants_pose(obj: SceneObject) -> bool:
    """Objects that get an interaction pose: the required ones plus switchable fixtures."""
    return needs_pose(obj) or obj.object_type in OPTIONAL_POSED


def occluders_for(target: SceneObject, objects: list[SceneObject], walls: tuple[Box, ...]) -> list[Box]:
    """Boxes that may hide ``target``: walls and every fixed object except the target itself and
    what contains it (a bathtub around its basin). Pickupables never count: they move."""
    boxes = list(walls)
    tb = target.box
    for obj in objects:
        if obj is target:
            continue
        entry = OBJECT_TYPES.get(obj.object_type)
        if entry is not None and entry.pickupable:
            continue
        for box in (obj.box, *obj.parts):
            contains = all(box.lo[k] <= tb.lo[k] + 1e-6 and tb.hi[k] <= box.hi[k] + 1e-6 for k in range(3))
            if not contains:
                boxes.append(box)
    return boxes


def front_of(obj: SceneObject) -> tuple[float, float, float] | None:
    """The outward normal of the face an openable fixture is opened from; None for the rest."""
    entry = OBJECT_TYPES.get(obj.object_type)
    if entry is not None and entry.openable and entry.encloses:
        return front_normal(obj.rotation[1])
    return None


def interaction_poses(objects: list[SceneObject], walls: tuple[Box, ...],
                      reachable: list[tuple[float, float]]) -> dict[str, Pose]:
    """One pose per object that wants one and can be seen from somewhere (see grid.best_interaction_pose)."""
    poses: dict[str, Pose] = {}
    for obj in objects:
        if not wants_pose(obj):
            continue
        occluders = occluder_arrays(occluders_for(obj, objects, walls))
        pose = best_interaction_pose(obj.box, reachable, occluders, front=front_of(obj))
        if pose is not None:
            poses[obj.object_id] = pose
    return poses


def interaction_pose_for(scene: Scene, box: Box, ignore: tuple[str, ...] = ()) -> Pose | None:
    """A pose on ``scene``'s grid from which a box (e.g. an object where it lies now) is seen.

    For callers that need a pose for something that moved (a pickupable after InitialRandomSpawn):
    occluders are the walls and the fixed objects, minus those named in ``ignore`` and those
    containing the box. None when no grid point sees it within reach (a tiny thing under a low
    shelf, a fruit at the bottom of a garbage can): use its receptacle's pose then.
    """
    probe = SceneObject(object_type="Probe", position=tuple(np.round(box.center, 4)), box=box, object_id="Probe|probe")
    others = [o for o in scene.objects if o.object_id not in ignore]
    occluders = occluder_arrays(occluders_for(probe, others, scene.walls))
    return best_interaction_pose(box, list(scene.reachable), occluders, agent_y=scene.agent_y)
