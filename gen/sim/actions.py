"""Agent and interaction actions of the `lite` simulator, with THOR 2.1's preconditions.

Every handler first checks everything that could make the action fail and raises
:class:`ActionFailed` with THOR-like wording before it changes anything, so a failed action leaves
the world exactly as it was. A handler returns the value THOR puts in ``actionReturn``.

The scene-setup actions (Initialize, InitialRandomSpawn, SetObjectPoses, ...) live in
:mod:`alfred_gen.sim.setup_actions`; dropping, throwing, pushing, breaking, dirtying, filling and
the scripted setup of ACT-Thor's collection in :mod:`alfred_gen.sim.physics_actions`.
``forceAction: true`` skips the reach check of PickupObject, Open/CloseObject and
ToggleObjectOn/Off (THOR's forced interaction), never of PutObject.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.sim import put_landing, put_lean, put_yaw
from alfred_gen.sim.pixels import render_camera
from alfred_gen.sim.scene import Box
from alfred_gen.sim.visibility import reach_distances
from alfred_gen.sim.world import (
    HORIZON_MAX,
    HORIZON_MIN,
    World,
    WorldObject,
    quarter_turns,
    segments_hit_boxes,
    turn_horizontal,
    turned_about,
    yaw_residual,
)

if TYPE_CHECKING:
    from alfred_gen.sim.lite import LiteController

Handler = Callable[["LiteController", dict[str, Any]], Any]


class ActionFailed(Exception):
    """An action's precondition does not hold; the message becomes ``errorMessage``."""


#: Keys ALFRED's recorder writes into interaction api_actions for its own bookkeeping; THOR ignored
#: them and so does lite.
ALFRED_BOOKKEEPING = frozenset({"coordinateObjectId", "coordinateReceptacleObjectId", "forceVisible", "cleanObjectId"})

_EPS = 1e-3



# --- argument helpers ---------------------------------------------------------------------------
def number(args: dict[str, Any], key: str, default: float | None = None) -> float:
    """A numeric argument (bools are not numbers here); ActionFailed if missing or malformed."""
    value = args.get(key, default)
    if value is None:
        raise ActionFailed(f"missing argument {key!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ActionFailed(f"argument {key!r} must be a finite number, got {value!r}")
    return float(value)


def flag(args: dict[str, Any], key: str, default: bool) -> bool:
    value = args.get(key, default)
    if not isinstance(value, bool):
        raise ActionFailed(f"argument {key!r} must be true or false, got {value!r}")
    return value


def object_arg(world: World, args: dict[str, Any], key: str = "objectId") -> WorldObject:
    """The live object an argument names; ActionFailed for a missing, unknown or sliced-away id."""
    object_id = args.get(key)
    if not isinstance(object_id, str) or not object_id:
        raise ActionFailed(f"missing argument {key!r}")
    obj = world.get(object_id)
    if obj is None:
        raise ActionFailed(f"Object ID appears to be invalid: {object_id}")
    if obj.is_sliced:
        raise ActionFailed(f"{object_id} has been sliced and no longer exists as a whole")
    return obj


def require_in_reach(sim: LiteController, obj: WorldObject) -> None:
    """THOR's interactable check: visible, which includes being within the visibility distance."""
    visible, distance = sim.visibility_state()
    if visible[obj.index]:
        return
    world = sim.world
    if world.enclosed(obj):
        raise ActionFailed(f"{obj.object_id} is inside a closed receptacle")
    if distance[obj.index] > sim.visibility_distance:
        raise ActionFailed(
            f"{obj.object_id} is not interactable: {distance[obj.index]:.2f} m away, "
            f"beyond {sim.visibility_distance:g} m"
        )
    raise ActionFailed(f"{obj.object_id} is not visible")


def require_in_reach_unless_forced(sim: LiteController, obj: WorldObject, args: dict[str, Any]) -> None:
    """:func:`require_in_reach`, skipped when the action says ``forceAction: true`` (THOR's forced
    interaction, which scripted collections use to set a scene up).

    PutObject does not call this: every ALFRED demonstration sends its PutObject with
    ``forceAction: true`` and was made under the reach rule, which must keep holding for them.
    """
    if args.get("forceAction") is True:
        return
    require_in_reach(sim, obj)


def in_sight(sim: LiteController, points: list[tuple[float, float, float]]) -> list[bool]:
    """Whether each point is in the agent's view, within the visibility distance and not hidden
    behind anything drawn (the held object aside).

    THOR's PutObject only uses the receptacle spawn points the agent can see, so an object put
    into a sink lands where the agent looks, not behind the basin's front wall.

    Distance is measured as for reach (:func:`~alfred_gen.sim.visibility.reach_distances`: from the
    agent's vertical axis, not from the eye): the floor of a bin at the agent's feet is 1.5 m from
    the eye but within reach, and THOR puts things there.
    """
    if not points:
        return []
    world = sim.world
    agent_camera = sim.camera()
    camera = render_camera(agent_camera)
    pts = np.asarray(points, dtype=np.float64)
    u, v, depth = camera.project(pts)
    eye = np.asarray(agent_camera.position, dtype=np.float64)
    dist = reach_distances(world, agent_camera, pts, pts)
    ok = (
        (depth > 0) & (u >= 0) & (u < camera.width) & (v >= 0) & (v < camera.height) & (dist <= sim.visibility_distance)
    )
    if sim.pixels is not None:
        boxes = sim.pixels.layers(world).scene_boxes
        lo, hi = boxes.lo, boxes.hi
    else:
        drawn = [
            b
            for oid, parts, _ in world.render_boxes()
            if oid is None or not world.is_held_family(world.by_id[oid])
            for b in parts
        ]
        lo = np.array([b.lo for b in drawn], float).reshape(-1, 3)
        hi = np.array([b.hi for b in drawn], float).reshape(-1, 3)
    if len(lo) and ok.any():
        idx = np.flatnonzero(ok)
        blocked = segments_hit_boxes(np.repeat(eye[None, :], len(idx), axis=0), pts[idx], lo, hi, margin=0.005)
        ok[idx[blocked]] = False
    return ok.tolist()


# --- navigation ---------------------------------------------------------------------------------
def _heading(rotation: float) -> tuple[float, float]:
    rad = math.radians(rotation)
    return (round(math.sin(rad), 9), round(math.cos(rad), 9))


def _move(sim: LiteController, args: dict[str, Any], turn: int) -> None:
    world = sim.world
    grid = sim.grid_size
    magnitude = number(args, "moveMagnitude", grid)
    steps = magnitude / grid
    if magnitude <= 0 or abs(steps - round(steps)) > 1e-6:
        raise ActionFailed(f"moveMagnitude must be a positive multiple of the grid size {grid:g}, got {magnitude:g}")
    dx, dz = _heading(world.agent.rotation + turn)
    a = world.agent
    x, z = a.x, a.z
    eye_y = a.y + world.camera_y_offset * 0.5
    blockers = world.floor_blockers()
    for _ in range(int(round(steps))):
        nx, nz = round(x + dx * grid, 6), round(z + dz * grid, 6)
        point = world.navigable(nx, nz, blockers)
        if point is None:
            raise ActionFailed(f"cannot move to ({nx:.2f}, {nz:.2f}): " + (
                "blocked by an object" if world.navigable(nx, nz, []) is not None else "not a reachable position"))
        if world.crosses_wall((x, eye_y, z), (point[0], eye_y, point[1])):
            raise ActionFailed(f"cannot move to ({nx:.2f}, {nz:.2f}): a wall is in the way")
        x, z = point
    a.x, a.z = x, z
    world.follow_hand()


def move_ahead(sim: LiteController, args: dict[str, Any]) -> None:
    _move(sim, args, 0)


def move_back(sim: LiteController, args: dict[str, Any]) -> None:
    _move(sim, args, 180)


def move_left(sim: LiteController, args: dict[str, Any]) -> None:
    _move(sim, args, 270)


def move_right(sim: LiteController, args: dict[str, Any]) -> None:
    _move(sim, args, 90)


def _quarter_turns(degrees: float) -> int:
    turns = degrees / 90.0
    if abs(turns - round(turns)) > 1e-6:
        raise ActionFailed(f"lite rotates in multiples of 90 degrees, got {degrees:g}")
    return int(round(turns))


def _rotate(sim: LiteController, args: dict[str, Any], sign: int) -> None:
    turns = _quarter_turns(number(args, "degrees", 90.0))
    world = sim.world
    world.agent.rotation = (world.agent.rotation + sign * 90 * turns) % 360
    world.follow_hand()


def rotate_left(sim: LiteController, args: dict[str, Any]) -> None:
    _rotate(sim, args, -1)


def rotate_right(sim: LiteController, args: dict[str, Any]) -> None:
    _rotate(sim, args, 1)


def _look(sim: LiteController, args: dict[str, Any], sign: int) -> None:
    degrees = number(args, "degrees", 15.0)
    if degrees < 0:
        raise ActionFailed(f"degrees must not be negative, got {degrees:g}")
    a = sim.world.agent
    horizon = a.horizon + sign * degrees
    if horizon < HORIZON_MIN - _EPS or horizon > HORIZON_MAX + _EPS:
        direction = "down" if sign > 0 else "up"
        raise ActionFailed(
            f"cannot look {direction} to horizon {horizon:g}: limits are [{HORIZON_MIN:g}, {HORIZON_MAX:g}]"
        )
    a.horizon = float(round(horizon, 6))


def look_up(sim: LiteController, args: dict[str, Any]) -> None:
    _look(sim, args, -1)


def look_down(sim: LiteController, args: dict[str, Any]) -> None:
    _look(sim, args, 1)


def _yaw_arg(value: Any) -> float:
    if isinstance(value, dict):
        if set(value) - {"x", "y", "z"}:
            raise ActionFailed(f"rotation must be a number or {{x, y, z}}, got {value!r}")
        value = value.get("y", 0.0)
    return number({"rotation": value}, "rotation")


def _teleport(sim: LiteController, args: dict[str, Any], full: bool) -> None:
    world = sim.world
    x = number(args, "x")
    z = number(args, "z")
    if "y" in args:
        number(args, "y")  # accepted and checked; the agent stays on the floor, as THOR snaps it
    rotate = flag(args, "rotateOnTeleport", True)
    rotation = world.agent.rotation
    if full or "rotation" in args:
        if "rotation" not in args:
            raise ActionFailed("missing argument 'rotation'")
        yaw = _yaw_arg(args["rotation"])
        if rotate:
            rotation = (_quarter_turns(yaw) * 90) % 360
    horizon = world.agent.horizon
    if full or "horizon" in args:
        horizon = number(args, "horizon")
        if horizon < HORIZON_MIN - _EPS or horizon > HORIZON_MAX + _EPS:
            raise ActionFailed(f"horizon {horizon:g} is outside [{HORIZON_MIN:g}, {HORIZON_MAX:g}]")
    if not flag(args, "standing", True):
        raise ActionFailed("the lite agent cannot crouch (standing=false)")
    point = world.navigable(x, z)
    if point is None:
        raise ActionFailed(f"cannot teleport to ({x:g}, {z:g}): not a reachable position or blocked by an object")
    a = world.agent
    a.x, a.z = point
    a.rotation = rotation
    a.horizon = float(round(horizon, 6))
    world.follow_hand()


def teleport_full(sim: LiteController, args: dict[str, Any]) -> None:
    _teleport(sim, args, True)


def teleport(sim: LiteController, args: dict[str, Any]) -> None:
    _teleport(sim, args, False)


def get_reachable_positions(sim: LiteController, args: dict[str, Any]) -> list[dict[str, float]]:
    y = sim.world.agent.y
    return [{"x": x, "y": y, "z": z} for x, z in sim.world.reachable_points()]


def pass_action(sim: LiteController, args: dict[str, Any]) -> None:
    return None


# --- state changes ------------------------------------------------------------------------------
def heat(world: World, obj: WorldObject) -> None:
    """A microwave running with ``obj`` inside: hot, and cooked if it can be."""
    obj.temperature = "Hot"
    if obj.otype.cookable:
        obj.is_cooked = True
    world.touch(obj)
    if obj.object_id not in world.heated:
        world.heated.append(obj.object_id)


def cool(world: World, obj: WorldObject) -> None:
    obj.temperature = "Cold"
    world.touch(obj)
    if obj.object_id not in world.cooled:
        world.cooled.append(obj.object_id)


def wash(world: World, obj: WorldObject) -> None:
    if obj.otype.dirtyable and obj.is_dirty:
        obj.is_dirty = False
    world.touch(obj)
    if obj.object_id not in world.cleaned:
        world.cleaned.append(obj.object_id)


def running_faucets_over(world: World, basin: WorldObject) -> bool:
    return any(world.by_id[f].is_toggled for f, b in world.basin_of_faucet.items() if b == basin.object_id)


def apply_container_effects(world: World, obj: WorldObject) -> None:
    """Effects of the receptacles an object (and its contents) now sits in."""
    family = [obj, *world.descendants(obj)]
    for recep in world.parent_chain(obj):
        if recep.type_name in catalogue.HEAT_SOURCES and recep.is_toggled:
            for o in family:
                heat(world, o)
        if recep.type_name in catalogue.WASH_BASINS and running_faucets_over(world, recep):
            for o in family:
                wash(world, o)


# --- interactions -------------------------------------------------------------------------------
def pickup_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if not obj.otype.pickupable:
        raise ActionFailed(f"{obj.object_id} is not pickupable")
    if obj.is_broken:
        raise ActionFailed(f"{obj.object_id} is broken")
    if world.held is not None:
        raise ActionFailed(f"Agent is already holding {world.held}")
    require_in_reach_unless_forced(sim, obj, args)
    world.detach(obj)
    obj.lies_as_cut = False
    obj.cut_turn = 0.0
    world.held = obj.object_id
    world.sight_changed()
    world.touch_family(obj)
    world.move_to(obj, world.hand_center())


def put_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    if world.held is None:
        raise ActionFailed("Agent is not holding anything")
    held = world.by_id[world.held]
    if "receptacleObjectId" in args:
        if "objectId" in args and args["objectId"] != held.object_id:
            raise ActionFailed(f"Agent is holding {held.object_id}, not {args['objectId']}")
        receptacle = object_arg(world, args, "receptacleObjectId")
    else:
        receptacle = object_arg(world, args, "objectId")
    flag(args, "placeStationary", True)
    if not receptacle.otype.receptacle:
        raise ActionFailed(f"{receptacle.object_id} is not a receptacle")
    if receptacle is held or world.is_held_family(receptacle):
        raise ActionFailed(f"cannot put {held.object_id} into itself")
    require_in_reach(sim, receptacle)
    if receptacle.otype.openable and receptacle.otype.encloses and not receptacle.is_open:
        raise ActionFailed(f"{receptacle.object_id} is closed")
    if not catalogue.thor_accepts(held.type_name, receptacle.type_name):
        raise ActionFailed(f"{held.type_name} cannot be placed in/on {receptacle.type_name}")
    spots = put_yaw.turn_for_put(world, receptacle, held)  # THOR turns it to the receptacle's axes first
    if spots is None:
        spots = world.put_spots(receptacle, held)
    if not spots:
        raise ActionFailed(f"No valid positions to place object found: {receptacle.object_id} is full")
    # Every spot on every level (a fridge's floor and the shelves its contents show); which of
    # them the agent counts as seen, and which point the seen ones are ranked by, is the
    # receptacle's landing rule (:mod:`alfred_gen.sim.put_landing`): the hand's nearest seen spot
    # in procedural rooms, and in imported rooms for receptacles THOR's masks gave no better rule.
    # Nearest the eye, an apple put on a counter landed at the bottom edge of the frame and its
    # first slice out of it; THOR's mask of that slice is mid-frame, 0.5 m ahead, where the hand is
    # (FloorPlan14). THOR 2.1 itself sorts a receptacle's visible spawn points by distance to the
    # agent's body (its metadata position, 0.675 m under the eye), not to the hand. In lite that
    # rule, and a hand that tilts with the horizon, fit worse: over 105 pickups of an object a
    # PutObject of the same demo had placed (107 train demos outside the 238, rooms held out by
    # folds) the hand's nearest spot gives the right object under THOR's mask 45 times, the tilted
    # hand 43, the body 39. The body picks fridge shelves too low: lite knows fewer shelves than
    # THOR's fridges have and draws none between them (session 75, issue 69).
    rule = put_landing.rule_for(world, receptacle, sim.landing_rules)
    x, y, z = put_landing.land(rule, world, receptacle, held, spots, lambda points: in_sight(sim, points))
    world.held = None
    world.touch_family(held)
    world.sight_changed()
    world.place_at_spot(held, receptacle, (x, z), y - held.size[1] / 2)
    put_lean.settle(world, receptacle, held)
    apply_container_effects(world, held)


def open_object(sim: LiteController, args: dict[str, Any]) -> None:
    _set_open(sim, args, True)


def close_object(sim: LiteController, args: dict[str, Any]) -> None:
    _set_open(sim, args, False)


def _set_open(sim: LiteController, args: dict[str, Any], value: bool) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if "moveMagnitude" in args:
        openness = number(args, "moveMagnitude")
        if not 0.0 < openness <= 1.0:
            raise ActionFailed(f"moveMagnitude (openness) must be in (0, 1], got {openness:g}")
    if not obj.otype.openable:
        raise ActionFailed(f"{obj.object_id} is not openable")
    require_in_reach_unless_forced(sim, obj, args)
    if obj.is_open == value:
        raise ActionFailed(f"{obj.object_id} is already {'open' if value else 'closed'}")
    obj.is_open = value
    world.touch(obj)
    world.sight_changed()
    if not value and obj.type_name in catalogue.COLD_SOURCES:
        for inside in world.descendants(obj):
            cool(world, inside)


def toggle_object_on(sim: LiteController, args: dict[str, Any]) -> None:
    _set_toggle(sim, args, True)


def toggle_object_off(sim: LiteController, args: dict[str, Any]) -> None:
    _set_toggle(sim, args, False)


def _set_toggle(sim: LiteController, args: dict[str, Any], value: bool) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if not obj.otype.toggleable:
        raise ActionFailed(f"{obj.object_id} is not toggleable")
    require_in_reach_unless_forced(sim, obj, args)
    if obj.is_toggled == value:
        raise ActionFailed(f"{obj.object_id} is already {'on' if value else 'off'}")
    obj.is_toggled = value
    world.touch(obj)
    if not value:
        return
    if obj.type_name in catalogue.HEAT_SOURCES:
        for inside in world.descendants(obj):
            heat(world, inside)
    basin_id = world.basin_of_faucet.get(obj.object_id)
    if basin_id is not None and world.get(basin_id) is not None:
        for inside in world.descendants(world.by_id[basin_id]):
            wash(world, inside)


def slice_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if not obj.otype.sliceable:
        raise ActionFailed(f"{obj.object_id} is not sliceable")
    held = world.by_id[world.held] if world.held is not None else None
    if held is None or held.type_name not in catalogue.SLICING_TOOLS:
        raise ActionFailed("SliceObject requires holding a Knife or ButterKnife")
    require_in_reach(sim, obj)
    make_slices(world, obj)


#: Where THOR 2.1 lays slices along the whole's own long side, from the whole's middle (metres):
#: slice k's middle at ``first + (k - 1) * step``. THOR's sliced models start where the whole's
#: origin is and run towards its own -z, so the slices lie off the middle the whole lay round.
#: Fitted to the 823 first pickups of a slice in the 6,574 train demos whose mask the frame does
#: not cut (the mask's centroid cast onto the plane through the whole's origin, in its own frame;
#: :mod:`alfred_gen.fidelity.slice_fit`): bread's slice 1 lies 0.024 m off the origin and slice 8
#: 0.19 m, where slices spread over the whole length from its +z end put them at +0.13 and -0.07.
#: Apples, whose first two slices lie on either side of the middle, keep the even spread
#: (:data:`SLICE_PLACES` says which slice takes which place).
#:
#: Refitted on what ALFRED's rule picks rather than on cast centroids (the cast puts a mask's middle
#: on the plane through the origin, where lite draws its slice faces lower or higher): before every
#: first pickup of a slice in the 904 train demos that slice a whole (each in its room built from
#: the other 4 of 5 folds), the whole's slices re-laid at ``shift + scale * offset`` of the centroid
#: fit (shift -0.04 to +0.04 m by 0.01, scale 0.7 to 1.3 by 0.15) and lite's frame re-drawn. Chosen
#: on the odd-numbered demos, reported on the even ones (which hold the wide sample): bread +0.02 m,
#: 1.3 (52 to 57 of 81 right; held out 47 to 52 of 78), lettuce -0.01 m, 0.85 (45 to 46 of 69; 37 to
#: 41 of 65), tomato -0.01 m, 0.7 (66 to 70 of 93; 68 to 71 of 94); potatoes' fit was not bettered
#: (61 of 99; 65 of 100). Bread's slices spread further from nearer the origin, a tomato's and a
#: lettuce's start further from it and lie closer together.
SLICE_LAYOUT: dict[str, tuple[float, float]] = {
    "Bread": (-0.0112, -0.0364), "Lettuce": (-0.0245, -0.0187), "Potato": (-0.008, -0.011),
    "Tomato": (-0.0233, -0.0063),
}
#: Which place of the even spread (0: the own positive end) each slice takes, for a whole THOR does
#: not number from one end: slice k takes ``SLICE_PLACES[kind][k - 1]``. THOR cuts an apple into two
#: sides: of the first pickups of a slice in the 6,574 train demos whose mask the frame does not cut
#: (:mod:`alfred_gen.fidelity.slice_fit`, cast along the apple's own x), slice 1 lies on its own +x
#: side in 84 of 85 (median +0.029 m) and slice 2 on its own -x side in 93 of 96 (median -0.030 m);
#: slices 3 to 8 are never the first picked and keep their order between. Numbered from the +x end,
#: lite drew slice 2 next to slice 1, where THOR's masks of slice 2 found lite's slice 8 instead
#: (7 of the 14 pickups of slice 2 in the wide sample, held out by folds; all 7 now pick slice 2).
SLICE_PLACES: dict[str, tuple[int, ...]] = {"Apple": (0, 7, 1, 2, 3, 4, 5, 6)}
#: Share of the whole's length the even spread covers, about its middle, for a whole not in
#: :data:`SLICE_LAYOUT` (else 1): THOR's apple slices lie closer together than spread over the whole
#: apple. Chosen as :data:`SLICE_LAYOUT`'s refit was (first slice pickups re-drawn, odd-numbered train
#: demos): 0.85 picked 70 of 91 right where the whole length picked 67 (0.7: 66, 1.15: 52); on the
#: even-numbered demos 73 to 78 of 98.
SLICE_SPREAD: dict[str, float] = {"Apple": 0.85}
#: Where an imported room's slices of a whole lie off its middle besides their places along the row,
#: in the whole's own frame (x, z metres; procedural rooms: none). THOR's apple halves lie towards
#: the apple's own -z: the mask centroids of the first pickups of an apple slice (the 904 train
#: demos that slice, :mod:`alfred_gen.fidelity.slice_fit`, cast on the plane through the apple's
#: origin) lie a median 0.015 m to its own -z, slice 1 (85) and slice 2 (96) alike, in either half
#: of the demos (-0.013 to -0.017), where lite laid them on the middle; seen face on, THOR's disc
#: lay a few pixels to one side of lite's slice in 7 of the wide sample's 10 first pickups.
#: Re-drawn before every first pickup of a slice (rooms from the other 4 of 5 folds), apple slices'
#: IoU with THOR's masks: wide sample (10) 0.416 to 0.479 at -0.01 m, 0.497 at -0.015, 0.492 at
#: -0.02, 0.346 at +0.01; every 20th train demo from the 5th, 10th and 15th (27, not chosen on)
#: 0.297 to 0.325, 0.329 and 0.329, no pick lost (-0.02 won one); other kinds unchanged.
SLICE_SHIFT: dict[str, tuple[float, float]] = {"Apple": (0.0, -0.015)}
#: Wholes an imported room cuts into two halves: slice 1 fills the whole's own positive half along
#: its row and slice 2 the negative half, the other slices lying inside them at the middle. ALFRED's
#: 6,574 train demos pick up only an apple's slices 1 and 2 (492 and 588 references, none of 3-8),
#: and THOR's mask of slice 2 seen across the row covers the apple's whole -x half, where lite drew
#: it as one of 8 slabs (AppleSliced-None-Microwave-7 @115: 304 px against lite's 84, ALFRED's rule
#: picking slice 8 beside it). Chosen on the wide sample's apple-slicing demos (every 20th train
#: demo, rooms built from the other 4 of 5 folds) of odd FloorPlans: 8 slabs 46/48 right, IoU 0.743;
#: halves 47/48, 0.753 (halves over 0.85 of the length 0.751, over 0.7 0.748); checked on the even
#: ones: 84 to 85 of 86 right, IoU 0.779 to 0.771 (face-on views lose: lite's half is a box where
#: THOR's is round).
SLICE_HALVES: frozenset[str] = frozenset({"Apple"})


def slice_offsets(kind: str, length: float, count: int,
                  room_layouts: Mapping[str, tuple[float, float]] | None = None) -> list[float]:
    """Where each of a ``kind``'s ``count`` slices lies off the whole's middle along its own long side
    (``length`` metres), towards that side's positive end: the room's own line (``room_layouts``,
    :attr:`~alfred_gen.sim.scene.Scene.slice_layouts`) or :data:`SLICE_LAYOUT`'s, or spread evenly over
    :data:`SLICE_SPREAD`'s share of the length from the positive end (in :data:`SLICE_PLACES`' order
    where it has one for ``count`` slices)."""
    layout = (room_layouts or {}).get(kind) or SLICE_LAYOUT.get(kind)
    if layout is not None:
        first, step = layout
        return [first + i * step for i in range(count)]
    t = length * SLICE_SPREAD.get(kind, 1.0) / count
    spread = [count * t / 2 - (i + 0.5) * t for i in range(count)]
    places = SLICE_PLACES.get(kind)
    if places is None or sorted(places) != list(range(count)):
        return spread
    return [spread[place] for place in places]


def make_slices(world: World, obj: WorldObject) -> list[WorldObject]:
    """Replace a whole object by its slices, laid along its own longest horizontal side, turned with
    it.

    Slice 1 lies towards the positive end of that side in the object's own frame and the last slice
    towards the negative end, as in THOR, whose slices turn with the object: in the 6,574 train
    demos, agents standing on a tomato's own -z side (its yaw undone) pick up slice 5.0 on average
    and on its +z side slice 1.3 (108 of 117 pick slice 1); by the world's z, 3.2 and 1.6. Potatoes,
    bread and lettuce agree; an apple's slices run along its own x (slice 1.2 from +x, 1.9 from -x).
    Where along that side they lie is the room's own line or :data:`SLICE_LAYOUT`'s; others spread over the
    whole length.
    """
    sliced_type = catalogue.SLICED_TYPES[obj.type_name]
    count = catalogue.SLICE_COUNTS[obj.type_name]
    parent = world.by_id[obj.parent] if obj.parent is not None else None
    world.detach(obj)
    obj.is_sliced = True
    world.touch(obj)
    world.sight_changed()
    sx, sy, sz = obj.size
    cx, cy, cz = obj.center
    turns = quarter_turns(obj.rotation[1])
    own_x, own_z = (sz, sx) if turns % 2 else (sx, sz)
    ux, uz = turn_horizontal(*((1.0, 0.0) if own_x >= own_z else (0.0, 1.0)), turns)
    along_x = abs(ux) > 0.5
    sign = ux if along_x else uz
    length = sx if along_x else sz
    suffix = obj.name.rsplit("_", 1)[-1]
    offsets = slice_offsets(obj.type_name, length, count, world.scene.slice_layouts)
    shift = SLICE_SHIFT.get(obj.type_name, (0.0, 0.0)) if world.scene.from_alfred else (0.0, 0.0)
    sx_off, sz_off = turn_horizontal(*shift, turns)
    halved = world.scene.from_alfred and obj.type_name in SLICE_HALVES and count > 2
    # THOR's slices lie along the whole's own yaw, not its nearest quarter turn (an imported room's
    # wholes stand at any yaw): each slice's middle turns about the whole's origin by the rest, and
    # its slab is drawn turned by it too (cut_turn), or slabs that overlap along the row (a
    # tomato's, a potato's, a lettuce's) would hide one another laid along a diagonal.
    rest = yaw_residual(obj.rotation[1]) if world.scene.from_alfred else 0.0
    pivot = (obj.position[0], obj.position[2])
    pieces = []
    for i in range(count):
        if count == 1:
            size = catalogue.object_type(sliced_type).size
            center = (cx, cy - sy / 2 + size[1] / 2, cz)
        else:
            t = length / count
            offset = sign * offsets[i]
            if halved:
                t = length / 2 if i < 2 else t
                offset = sign * (length / 4 if i == 0 else -length / 4 if i == 1 else 0.0)
            size = (t, sy, sz) if along_x else (sx, sy, t)
            center = (cx + offset, cy, cz) if along_x else (cx, cy, cz + offset)
            center = (center[0] + sx_off, center[1], center[2] + sz_off)
            if rest:
                turned = turned_about((center[0], center[2]), pivot, rest)
                center = (turned[0], center[1], turned[1])
        box = Box.from_center(center, size)
        piece = WorldObject(
            f"{obj.object_id}|{sliced_type}_{i + 1}",
            sliced_type,
            f"{sliced_type}_{i + 1}_{suffix}",
            (center[0], center[1], center[2]),
            obj.rotation,
            box,
        )
        piece.lies_as_cut = True
        piece.cut_turn = rest
        piece.temperature = obj.temperature
        piece.is_cooked = obj.is_cooked and piece.otype.cookable
        world.add_object(piece)
        if parent is not None:
            world.attach(piece, parent)
        pieces.append(piece)
    world.sight_changed()
    return pieces


def clean_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if not obj.otype.dirtyable:
        raise ActionFailed(f"{obj.object_id} is not dirtyable")
    require_in_reach(sim, obj)
    if not obj.is_dirty:
        raise ActionFailed(f"{obj.object_id} is already clean")
    obj.is_dirty = False
    world.touch(obj)


#: action name -> (handler, accepted argument names besides "action" and "forceAction").
AGENT_ACTIONS: dict[str, tuple[Handler, frozenset[str]]] = {
    "MoveAhead": (move_ahead, frozenset({"moveMagnitude"})),
    "MoveBack": (move_back, frozenset({"moveMagnitude"})),
    "MoveLeft": (move_left, frozenset({"moveMagnitude"})),
    "MoveRight": (move_right, frozenset({"moveMagnitude"})),
    "RotateLeft": (rotate_left, frozenset({"degrees"})),
    "RotateRight": (rotate_right, frozenset({"degrees"})),
    "LookUp": (look_up, frozenset({"degrees"})),
    "LookDown": (look_down, frozenset({"degrees"})),
    "TeleportFull": (teleport_full, frozenset({"x", "y", "z", "rotation", "horizon", "rotateOnTeleport", "standing"})),
    "Teleport": (teleport, frozenset({"x", "y", "z", "rotation", "horizon", "rotateOnTeleport", "standing"})),
    "GetReachablePositions": (get_reachable_positions, frozenset()),
    "Pass": (pass_action, frozenset()),
    "PickupObject": (pickup_object, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
    "PutObject": (put_object, frozenset({"objectId", "receptacleObjectId", "placeStationary"}) | ALFRED_BOOKKEEPING),
    "OpenObject": (open_object, frozenset({"objectId", "moveMagnitude"}) | ALFRED_BOOKKEEPING),
    "CloseObject": (close_object, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
    "ToggleObjectOn": (toggle_object_on, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
    "ToggleObjectOff": (toggle_object_off, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
    "SliceObject": (slice_object, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
    "CleanObject": (clean_object, frozenset({"objectId"}) | ALFRED_BOOKKEEPING),
}
