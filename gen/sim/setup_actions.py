"""Scene-setup actions of the `lite` simulator: Initialize, spawning and restoring object states.

These are the actions ALFRED's generator and its replay use to build a scene instance:
``Initialize``; ``InitialRandomSpawn`` (random placement from a seed); ``SetObjectPoses`` (restore
the recorded ``object_poses``); ``SetObjectToggles`` and ``SetStateOfAllObjects`` (restore
``object_toggles`` and ``dirty_and_empty``).

Spawning gives objects new ids from where they land, as THOR 2.1 does: the ids in released ALFRED
trajectories are the positions in their ``object_poses``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from alfred_gen.domains import catalogue
from alfred_gen.domains.catalogue import ObjectType
from alfred_gen.sim.actions import ActionFailed, flag, number
from alfred_gen.sim.pose_roll import set_roll
from alfred_gen.sim.scene import GRID_SIZE
from alfred_gen.sim.seat_settle import settle_on_seats
from alfred_gen.sim.start_falls import fallen_zone
from alfred_gen.sim.world import INSIDE_RECEPTACLES, World, WorldObject, spawn_id, turned_about, yaw_residual

if TYPE_CHECKING:
    from alfred_gen.sim.lite import LiteController


def _int_arg(args: dict[str, Any], key: str, default: int) -> int:
    value = args.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionFailed(f"argument {key!r} must be an integer, got {value!r}")
    return value


def _string_list(args: dict[str, Any], key: str) -> list[str]:
    value = args.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ActionFailed(f"argument {key!r} must be a list of strings")
    return value


# --- Initialize ---------------------------------------------------------------------------------
_RENDER_FLAGS = {
    "renderImage": "render_image",
    "renderDepthImage": "render_depth_image",
    "renderObjectImage": "render_object_image",
    "renderInstanceSegmentation": "render_object_image",
    "renderClassImage": "render_class_image",
    "renderSemanticSegmentation": "render_class_image",
    "renderNormalsImage": None,
    "renderFlowImage": None,
    "makeAgentsVisible": None,
    "continuousMode": None,
    "snapToGrid": None,
}


def initialize(sim: LiteController, args: dict[str, Any]) -> None:
    """Set agent and camera options. Values lite cannot honour fail rather than being ignored."""
    grid = number(args, "gridSize", sim.grid_size)
    if abs(grid - GRID_SIZE) > 1e-9:
        raise ActionFailed(f"lite supports gridSize {GRID_SIZE} only, got {grid:g}")
    keys = [k for k in ("visibilityDistance", "visibility_distance") if k in args]
    distance = number(args, keys[0]) if keys else sim.visibility_distance
    if distance <= 0:
        raise ActionFailed(f"visibilityDistance must be positive, got {distance:g}")
    camera_y = number(args, "cameraY", sim.world.camera_y_offset)
    if not 0.0 < camera_y < 2.0:
        raise ActionFailed(f"cameraY must be in (0, 2) metres above the agent, got {camera_y:g}")
    fov = number(args, "fieldOfView", sim.field_of_view)
    if not 10.0 <= fov <= 170.0:
        raise ActionFailed(f"fieldOfView must be in [10, 170], got {fov:g}")
    step = number(args, "rotateStepDegrees", 90.0)
    if abs(step - 90.0) > 1e-9:
        raise ActionFailed(f"lite rotates in 90 degree steps, got rotateStepDegrees {step:g}")
    if _int_arg(args, "agentCount", 1) != 1:
        raise ActionFailed("lite simulates a single agent")
    mode = args.get("agentMode", "default")
    if mode not in ("default", "bot", "tall"):
        raise ActionFailed(f"unsupported agentMode {mode!r}")
    if args.get("agentType", "stochastic") not in ("stochastic", "physics"):
        raise ActionFailed(f"unsupported agentType {args.get('agentType')!r}")
    sizes = {}
    for key in ("width", "height"):
        if key in args:
            value = _int_arg(args, key, 0)
            if value <= 0:
                raise ActionFailed(f"{key} must be a positive integer, got {value}")
            sizes[key] = value
    flags = {key: flag(args, key, False) for key in _RENDER_FLAGS if key in args}
    # All checked: apply. A room that declares its camera (one imported from ALFRED, whose frames
    # show THOR 2.1's camera whatever cameraY said) keeps its camera height.
    sim.visibility_distance = distance
    if "fieldOfView" in args:
        sim.configured_field_of_view = fov
    sim.field_of_view = fov
    if "cameraY" in args:
        sim.configured_camera_y_offset = camera_y
    if sim.scene.camera is None:
        sim.camera_y_offset = camera_y
        sim.world.camera_y_offset = camera_y
    sim.world.follow_hand()
    sim.width = sizes.get("width", sim.width)
    sim.height = sizes.get("height", sim.height)
    for key, value in flags.items():
        attribute = _RENDER_FLAGS[key]
        if attribute is not None:
            setattr(sim, attribute, value)


INITIALIZE_ARGS = frozenset(
    {
        "gridSize", "visibilityDistance", "visibility_distance", "cameraY", "fieldOfView", "rotateStepDegrees",
        "agentCount", "agentMode", "agentType", "width", "height", "quality", "fastActionEmit", *_RENDER_FLAGS,
    }
)


# --- InitialRandomSpawn -------------------------------------------------------------------------
def _movable(world: World, obj: WorldObject) -> bool:
    return obj.present and not obj.is_sliced and obj.otype.pickupable and not world.is_held_family(obj)


def _copy_object(world: World, original: WorldObject, index: int) -> WorldObject:
    """A duplicate of an object (same type, name and size) to be placed by the caller."""
    box = original.box()
    temp_id = f"{original.object_id}|copy{index}"
    x, y, z = original.position
    copy = WorldObject(temp_id, original.type_name, original.name, (x, y, z), original.rotation, box)
    copy.offset = original.offset
    copy.position = [copy.center[i] + copy.offset[i] for i in range(3)]
    world.add_object(copy)
    return copy


def _reassign_spawn_ids(world: World, objects: list[WorldObject]) -> None:
    """Give spawned objects the ids of where they now are, nudging exact duplicates apart."""
    others = {o.object_id for o in world.objects if o.present and o not in objects}
    wanted: list[str] = []
    taken = set(others)
    for obj in objects:
        new_id = spawn_id(obj, world.scene.float32_ids)
        nudge = 0
        while new_id in taken:  # two objects of one type in the same centimetre: keep ids unique
            nudge += 1
            world.move_to(obj, (obj.center[0] + 0.01, obj.center[1], obj.center[2]))
            new_id = spawn_id(obj, world.scene.float32_ids)
            if nudge > 100:
                raise RuntimeError(f"cannot find a unique id for {obj.object_id}")
        taken.add(new_id)
        wanted.append(new_id)
    for i, obj in enumerate(objects):  # two phases so swapped ids never collide midway
        world.rename(obj, f"\x00spawn{i}")
    for obj, new_id in zip(objects, wanted):
        world.rename(obj, new_id)


def initial_random_spawn(sim: LiteController, args: dict[str, Any]) -> None:
    """Scatter every pickupable object over receptacles allowed by the catalogue, from a seed."""
    world = sim.world
    seed = _int_arg(args, "randomSeed", 0)
    attempts = max(1, _int_arg(args, "numPlacementAttempts", 5), _int_arg(args, "numRepeats", 1))
    min_free = _int_arg(args, "minFreePerReceptacleType", 0)
    if min_free < 0:
        raise ActionFailed("minFreePerReceptacleType must not be negative")
    flag(args, "forceVisible", False)
    flag(args, "placeStationary", True)
    excluded_types = set(_string_list(args, "excludedReceptacles"))
    excluded_ids = set(_string_list(args, "excludedObjectIds"))
    duplicates = args.get("numDuplicatesOfType", [])
    if not isinstance(duplicates, list):
        raise ActionFailed("numDuplicatesOfType must be a list of {objectType, count}")
    wanted_counts: list[tuple[str, int]] = []
    for spec in duplicates:
        if not isinstance(spec, dict) or set(spec) != {"objectType", "count"}:
            raise ActionFailed(f"numDuplicatesOfType entries are {{objectType, count}}, got {spec!r}")
        count = _int_arg(spec, "count", 0)
        kind = spec["objectType"]
        if not any(o.type_name == kind and _movable(world, o) for o in world.objects):
            raise ActionFailed(f"numDuplicatesOfType: no pickupable {kind!r} in the scene to duplicate")
        if count < 0:
            raise ActionFailed("numDuplicatesOfType counts must not be negative")
        wanted_counts.append((kind, count))
    for unknown in sorted(excluded_ids - set(world.by_id)):
        raise ActionFailed(f"excludedObjectIds names an unknown object {unknown}")

    rng = random.Random(seed)
    movers = [o for o in world.objects if _movable(world, o) and o.object_id not in excluded_ids]
    for kind, count in wanted_counts:
        originals = [o for o in movers if o.type_name == kind]
        for i in range(count - len(originals)):
            movers.append(_copy_object(world, originals[0], i))
    old_places = {o.object_id: (o.parent, tuple(o.center)) for o in movers}
    for obj in movers:
        world.detach(obj)
    targets = [
        r for r in world.objects
        if r.present and r.otype.receptacle and not r.otype.pickupable and r.type_name not in excluded_types
        and r.otype.capacity > 0
    ]
    order = list(movers)
    rng.shuffle(order)
    for obj in order:
        options = [
            r for r in targets
            if catalogue.can_place(obj.type_name, r.type_name) and len(r.children) + 1 + min_free <= r.otype.capacity
        ]
        placed = False
        for _ in range(attempts):
            if not options:
                break
            receptacle = options[rng.randrange(len(options))]
            spots = world.free_spots(receptacle, obj)
            if not spots:
                options.remove(receptacle)
                continue
            world.place_at_spot(obj, receptacle, spots[rng.randrange(len(spots))])
            placed = True
            break
        if not placed:
            parent_id, center = old_places[obj.object_id]
            world.move_to(obj, center)  # type: ignore[arg-type]  # the saved centre is the object's own [x, y, z] list
            if parent_id is not None and world.get(parent_id) is not None:
                world.attach(obj, world.by_id[parent_id])
    _reassign_spawn_ids(world, movers)
    world.sight_changed()


SPAWN_ARGS = frozenset(
    {
        "randomSeed", "forceVisible", "numPlacementAttempts", "placeStationary", "numRepeats",
        "minFreePerReceptacleType", "numDuplicatesOfType", "excludedReceptacles", "excludedObjectIds",
    }
)


# --- SetObjectPoses -----------------------------------------------------------------------------
def _xyz_arg(value: Any, what: str) -> tuple[float, float, float]:
    if not isinstance(value, dict) or set(value) - {"x", "y", "z"}:
        raise ActionFailed(f"{what} must be {{x, y, z}}, got {value!r}")
    return tuple(number(value, k, 0.0) for k in ("x", "y", "z"))  # type: ignore[return-value]  # tuple() over three coordinates: mypy sees tuple[float, ...]


class SupportCandidate(Protocol):
    """What the support rule reads of an object: a live WorldObject, or a fitting rule's stand-in."""

    @property
    def object_id(self) -> str: ...
    @property
    def type_name(self) -> str: ...
    @property
    def otype(self) -> ObjectType: ...
    @property
    def center(self) -> Sequence[float]: ...
    @property
    def size(self) -> Sequence[float]: ...


Candidate = TypeVar("Candidate", bound=SupportCandidate)


#: How deep two boxes must overlap on every axis to count as touching (metres).
TOUCHING = 0.005
#: Movable receptacles with walls standing on the surface they rest on: what touches one from outside
#: with its origin less than :data:`STANDS_BESIDE` over the receptacle's bottom stands beside it on
#: the same surface, not in it (metres). A mug beside a cardboard box on FloorPlan313's shelf touches
#: the box's side with its base at the box's base; a fork lying on a counter with its tines over a
#: mug's low rim is in the mug, as THOR counts it.
WALLED_RECEPTACLES = frozenset({"Box"})
STANDS_BESIDE = 0.02
#: How far outside a fixed receptacle's footprint an object's middle may lie and still rest on or in
#: it (metres): a thing at a counter's or cabinet's edge.
FIXED_FOOTPRINT_SLACK = 0.02
#: How far above or below a container's box an object's middle may lie and still be in it (metres).
CONTAINER_BAND = 0.02


def _leans_in(obj: SupportCandidate, receptacle: SupportCandidate, origin: Sequence[float], yaw: float) -> bool:
    """Whether ``obj`` (origin at ``origin``, turned ``yaw`` degrees) touches ``receptacle``'s box from
    inside its height range: THOR counts it in.

    Boxes turn in whole quarters, so a fork lying at 225 degrees has a box square to the axes; its
    footprint is turned back by what the quarter left out (about its origin) before the two are
    compared, on the axes of both (a fork across a cup's rim diagonally touches it; its square box
    may not).
    """
    (ox, oy, oz), (rx, ry, rz), r_size = obj.center, receptacle.center, receptacle.size
    if min(oy + obj.size[1] / 2, ry + r_size[1] / 2) - max(oy - obj.size[1] / 2, ry - r_size[1] / 2) < TOUCHING:
        return False
    bottom = ry - r_size[1] / 2
    lowest = bottom + STANDS_BESIDE if receptacle.type_name in WALLED_RECEPTACLES else bottom - 0.02
    if not lowest <= origin[1] <= bottom + r_size[1]:
        return False
    rest = yaw_residual(yaw)
    cos, sin = math.cos(math.radians(rest)), math.sin(math.radians(rest))
    centre = turned_about((ox, oz), (origin[0], origin[2]), rest)
    u, v = (cos, -sin), (sin, cos)  # the box's x and z axes, turned
    half_u, half_v = obj.size[0] / 2, obj.size[2] / 2
    for ax, az in ((1.0, 0.0), (0.0, 1.0), u, v):
        reach = (half_u * abs(u[0] * ax + u[1] * az) + half_v * abs(v[0] * ax + v[1] * az)
                 + r_size[0] / 2 * abs(ax) + r_size[2] / 2 * abs(az))
        if reach - abs((centre[0] - rx) * ax + (centre[1] - rz) * az) < TOUCHING:
            return False
    return True


def _support(world: World | None, obj: SupportCandidate, candidates: Sequence[Candidate],
             origin: Sequence[float] | None = None, yaw: float = 0.0) -> Candidate | None:
    """The innermost receptacle an object rests on or in, judged from boxes.

    A container (fridge, drawer, bowl, sink basin...) holds the object if the object's centre is
    inside its box; a surface (table, counter top, bed, shelf...) holds it if the object's bottom
    is near the surface's top. Among several, one that may hold the object's type wins (THOR's
    spawns put objects only where its placement rules allow: a phone on the counter beside a burner
    lies on the counter), then the smallest footprint (a plate on a table).

    ``origin`` (the object's THOR position, when known) also places it in a movable receptacle whose
    footprint holds it: a spoon leaning in a mug has its origin in the mug and the middle of its
    long box outside. THOR counted such objects in: 16 of ALFRED's 6,574 train demos never pick up
    the object their movable receptacle must hold, as it was in there from the start; the box
    centre puts 4 of them in, the origin 5 (FloorPlan28's spoon in a mug is the fifth).

    THOR's containment is contact with the receptacle's trigger volume, so an object that leans in
    or lies across a movable receptacle (a fork whose tines are in a mug, a knife across a plate's
    rim) is in it though neither its middle nor its origin is over it (9 more such demos, replayed
    in rooms built without them, reach their goal this way): with ``origin`` known, a
    movable receptacle that may hold the object's type also holds it when its box overlaps the
    receptacle's and its origin is no lower than the receptacle's bottom nor higher than its top
    (:func:`_leans_in`; a pot whose box reaches over a pan's on the next burner stays where it is).
    """
    x, y, z = obj.center  # read once: a property on simulator objects, and this runs per candidate
    bottom = y - obj.size[1] / 2
    best: tuple[bool, float, str, Candidate] | None = None
    for r in candidates:
        if r is obj:
            continue
        fits = catalogue.can_place(obj.type_name, r.type_name)
        leans = origin is not None and r.otype.pickupable and fits and _leans_in(obj, r, origin, yaw)
        if not leans and not _rests_on_or_in(r, (x, y, z), bottom, origin):
            continue
        size = r.size
        key = (not fits, size[0] * size[2], r.object_id)
        if best is None or key < best[:3]:
            best = (key[0], key[1], key[2], r)
    return best[3] if best else None


def _rests_on_or_in(r: Candidate, center: tuple[float, float, float], bottom: float,
                    origin: Sequence[float] | None) -> bool:
    """Whether an object with this box centre and bottom is inside container ``r`` or on surface ``r``.

    Over the footprint means the centre is (a fixed receptacle's box gets
    :data:`FIXED_FOOTPRINT_SLACK` for a thing at its edge), or, for a movable receptacle, the THOR
    origin is.
    """
    x, y, z = center
    (rx, ry, rz), size = r.center, r.size
    margin = 0.0 if r.otype.pickupable else FIXED_FOOTPRINT_SLACK
    if abs(x - rx) > size[0] / 2 + margin or abs(z - rz) > size[2] / 2 + margin:
        held_by_origin = (r.otype.pickupable and origin is not None
                          and abs(origin[0] - rx) <= size[0] / 2 and abs(origin[2] - rz) <= size[2] / 2)
        if not held_by_origin:
            return False
    rlo_y = ry - size[1] / 2
    rhi_y = ry + size[1] / 2
    if r.type_name in INSIDE_RECEPTACLES:
        inside = rlo_y - CONTAINER_BAND <= y <= rhi_y + CONTAINER_BAND
        return inside and not (r.otype.pickupable and rlo_y >= bottom + 0.02)
    return -0.02 <= bottom - rhi_y <= 0.08  # resting on the top, not beside it


def set_object_poses(sim: LiteController, args: dict[str, Any]) -> None:
    """Place pickupable objects at recorded poses (ALFRED's ``object_poses``).

    Poses name objects by ``name``; a name listed twice makes a duplicate; pickupable objects not
    listed are removed, as THOR 2.1 does. Each posed object lands in the receptacle whose box it
    rests on or in, and takes the id of its new position.

    A pose repeated exactly (same name, position and rotation) makes no duplicate. THOR instantiates a
    copy there, inside the first; where the copy ends up no record says, but its masks show it does
    not stay at the pose: FloorPlan22's potato is listed 2 to 4 times at one pose in 64 train demos,
    and after the agent slices it THOR's masks show the slices, which a whole potato left in place
    would hide. Lite's copies, nudged 1 cm apart for ids of their own, hid the posed potato instead
    (THOR's mask of it found a copy at the SliceObject).
    """
    world = sim.world
    poses = args.get("objectPoses")
    if not isinstance(poses, list):
        raise ActionFailed("objectPoses must be a list of {objectName, position, rotation}")
    by_name: dict[str, list[WorldObject]] = {}
    for o in world.objects:
        if o.present and not o.is_sliced and (o.otype.pickupable or o.otype.moveable):
            by_name.setdefault(o.name, []).append(o)
    parsed: list[tuple[str, tuple[float, float, float], float, float]] = []
    for pose in poses:
        if not isinstance(pose, dict) or "objectName" not in pose or "position" not in pose:
            raise ActionFailed(f"objectPoses entries need objectName and position, got {pose!r}")
        if set(pose) - {"objectName", "position", "rotation"}:
            unknown = sorted(set(pose) - {"objectName", "position", "rotation"})
            raise ActionFailed(f"unknown keys in objectPoses entry: {unknown}")
        name = pose["objectName"]
        if name not in by_name:
            raise ActionFailed(f"objectPoses: no object named {name!r} in the scene")
        position = _xyz_arg(pose["position"], "position")
        rotation = _xyz_arg(pose.get("rotation", {"x": 0.0, "y": 0.0, "z": 0.0}), "rotation")
        parsed.append((name, position, rotation[1], rotation[2]))

    # Decide which object takes each pose; duplicates are created for repeated names.
    if world.held is not None:
        world.touch_family(world.by_id[world.held])
        world.held = None
    used: dict[str, int] = {}
    posed: list[tuple[WorldObject, tuple[float, float, float], float]] = []
    rolls: dict[int, float] = {}
    poses_taken: set[tuple[str, tuple[float, float, float], float, float]] = set()
    for entry in parsed:
        if entry in poses_taken:  # a pose repeated exactly: no copy at it in THOR's frames (see above)
            continue
        poses_taken.add(entry)
        name, position, yaw, roll = entry
        k = used.get(name, 0)
        used[name] = k + 1
        group = by_name[name]
        obj = group[k] if k < len(group) else _copy_object(world, group[0], k)
        posed.append((obj, position, yaw))
        rolls[id(obj)] = roll
    posed_ids = {id(o) for o, _, _ in posed}
    for o in list(world.objects):
        if o.present and not o.is_sliced and o.otype.pickupable and id(o) not in posed_ids:
            world.detach(o)
            for child in list(o.children):
                world.detach(world.by_id[child])
            o.present = False
            world.touch(o)
    for obj, _, _ in posed:
        world.detach(obj)
        for child in list(obj.children):
            world.detach(world.by_id[child])
    for obj, position, yaw in posed:
        set_roll(world, obj, rolls[id(obj)])
        world.set_rotation(obj, yaw)
        world.move_to(obj, tuple(p - off for p, off in zip(position, obj.offset)))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
        obj.position = list(position)
        world.touch(obj)
    receptacles = [r for r in world.objects if r.present and not r.is_sliced and r.otype.receptacle]
    # Furniture stands on the floor or on a surface, never inside a container: a dresser's middle
    # lies inside one of its own drawers, and put in it, the dresser was hidden while that drawer
    # was shut and drawn sliding out with it when opened.
    surfaces = [r for r in receptacles if r.type_name not in INSIDE_RECEPTACLES]
    for obj, position, yaw in sorted(posed, key=lambda p: (p[0].center[1] - p[0].size[1] / 2, p[0].index)):
        support = _support(world, obj, receptacles if obj.otype.pickupable else surfaces, origin=position, yaw=yaw)
        if support is not None and not world.is_held_family(support) and obj not in world.parent_chain(support):
            world.attach(obj, support)
    _reassign_spawn_ids(world, [o for o, _, _ in posed])
    settle_on_seats(world, [o for o, _, _ in posed])
    _let_fall(world, posed)
    world.sight_changed()


def _let_fall(world: World, posed: list[tuple[WorldObject, tuple[float, float, float], float]]) -> None:
    """Put each object posed in one of the room's fall zones on the floor where it landed: THOR's
    physics drops it there before the demo first sees it (:mod:`alfred_gen.sim.start_falls`; only
    imported rooms have zones). It keeps the id of its pose, as THOR's object does. A zone that is
    no fall pushes the object along its support, at its posed height and on the same support."""
    zones = world.scene.falls
    if not zones:
        return
    for obj, position, _ in posed:
        zone = fallen_zone(zones, obj.name, position)
        if zone is None:
            continue
        shift = zone.shift
        if zone.to_floor:
            world.detach(obj)
            centre = (obj.center[0] + shift[0], world.scene.floor_y + obj.size[1] / 2, obj.center[2] + shift[1])
        else:
            centre = (obj.center[0] + shift[0], obj.center[1], obj.center[2] + shift[1])
        world.move_to(obj, centre)


# --- toggles and states -------------------------------------------------------------------------
def set_object_toggles(sim: LiteController, args: dict[str, Any]) -> None:
    """Switch every toggleable object of the listed types on or off (ALFRED's ``object_toggles``)."""
    world = sim.world
    toggles = args.get("objectToggles")
    if not isinstance(toggles, list):
        raise ActionFailed("objectToggles must be a list of {objectType, isOn}")
    plan: list[tuple[str, bool]] = []
    for spec in toggles:
        if not isinstance(spec, dict) or set(spec) != {"objectType", "isOn"}:
            raise ActionFailed(f"objectToggles entries are {{objectType, isOn}}, got {spec!r}")
        kind = spec["objectType"]
        entry = catalogue.OBJECT_TYPES.get(kind) if isinstance(kind, str) else None
        if entry is None or not entry.toggleable:
            raise ActionFailed(f"objectToggles: {kind!r} is not a toggleable object type")
        plan.append((kind, flag(spec, "isOn", False)))
    for kind, value in plan:
        for o in world.objects:
            if o.present and o.type_name == kind and o.is_toggled != value:
                o.is_toggled = value
                world.touch(o)


_STATE_CHANGES = {
    "CanBeDirty": ("dirtyable", "is_dirty"),
    "CanBeFilled": ("can_fill_with_liquid", "is_filled"),
    "CanToggleOnOff": ("toggleable", "is_toggled"),
    "CanOpen": ("openable", "is_open"),
}


def set_state_of_all_objects(sim: LiteController, args: dict[str, Any]) -> None:
    """Set one state on every object that has it; ``forceAction`` is the value, as ALFRED uses it.

    ALFRED's ``dirty_and_empty`` restores with (CanBeDirty, true) then (CanBeFilled, false).
    """
    world = sim.world
    change = args.get("StateChange")
    if change not in _STATE_CHANGES:
        raise ActionFailed(f"StateChange must be one of {sorted(_STATE_CHANGES)}, got {change!r}")
    value = flag(args, "forceAction", False)
    capability, attribute = _STATE_CHANGES[change]
    for o in world.objects:
        if o.present and getattr(o.otype, capability) and getattr(o, attribute) != value:
            setattr(o, attribute, value)
            world.touch(o)
    if change == "CanOpen":
        world.sight_changed()


#: ai2thor 5.x SetObjectStates' ``stateChange`` -> (capability, attribute, the state key it reads).
_OBJECT_STATES = {
    "toggleable": ("toggleable", "is_toggled", "isToggled"),
    "dirtyable": ("dirtyable", "is_dirty", "isDirty"),
    "canFillWithLiquid": ("can_fill_with_liquid", "is_filled", "isFilledWithLiquid"),
    "openable": ("openable", "is_open", "isOpen"),
}


def set_object_states(sim: LiteController, args: dict[str, Any]) -> None:
    """ai2thor 5.x's replacement for SetObjectToggles and SetStateOfAllObjects: one state on every
    object of one type, ``{"SetObjectStates": {"objectType", "stateChange", <state>: value}}``.

    The thor backend speaks ALFRED's restore actions to 5.x this way (one call per type), so lite
    answers it too and a lite THOR build restores a scene as lite does directly.
    """
    world = sim.world
    spec = args.get("SetObjectStates")
    if not isinstance(spec, dict) or not isinstance(spec.get("objectType"), str):
        raise ActionFailed("SetObjectStates needs {objectType, stateChange, <state>: value}")
    change = spec.get("stateChange")
    if change not in _OBJECT_STATES:
        raise ActionFailed(f"stateChange must be one of {sorted(_OBJECT_STATES)}, got {change!r}")
    capability, attribute, key = _OBJECT_STATES[change]
    if key not in spec:
        raise ActionFailed(f"SetObjectStates with stateChange {change} needs {key}")
    value = flag(spec, key, False)
    for o in world.objects:
        if o.present and o.type_name == spec["objectType"] and getattr(o.otype, capability) \
                and getattr(o, attribute) != value:
            setattr(o, attribute, value)
            world.touch(o)
    if change == "openable":
        world.sight_changed()


# --- colours -----------------------------------------------------------------------------------
def set_color_variation(sim: LiteController, args: dict[str, Any]) -> None:
    """Draw objects in per-instance colours (``enabled`` true) or their types' colours (false).

    lite's own setup action, for datasets that ask about colours (EQA): which colour an instance
    gets is a function of its id (:func:`alfred_gen.sim.palette.varied_color`). It changes what
    frames show, never what any action does. Off after every reset, so scenes and trajectories
    that never call it look as they always did.
    """
    sim.world.set_color_variation(flag(args, "enabled", True))


SETUP_ACTIONS = {
    "Initialize": (initialize, INITIALIZE_ARGS),
    "InitialRandomSpawn": (initial_random_spawn, SPAWN_ARGS),
    "SetObjectPoses": (set_object_poses, frozenset({"objectPoses"})),
    "SetObjectToggles": (set_object_toggles, frozenset({"objectToggles"})),
    "SetStateOfAllObjects": (set_state_of_all_objects, frozenset({"StateChange"})),
    "SetObjectStates": (set_object_states, frozenset({"SetObjectStates"})),
    "SetColorVariation": (set_color_variation, frozenset({"enabled"})),
}
