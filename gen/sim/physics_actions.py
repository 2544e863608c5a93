"""Lite's actions beyond ALFRED's: dropping, throwing, pushing, breaking, dirtying, filling, and the
setup actions a scripted collection needs (ACT-Thor's procedure), all under THOR's names.

THOR runs these through Unity's physics; lite gives each a deterministic outcome
(:mod:`alfred_gen.sim.kinematics`; pushes and throws by force over mass, :mod:`alfred_gen.sim.forces`),
the same for the same state and arguments:

``DropHandObject``
    The held object falls straight down from the hand onto the first support below it (a table,
    a counter, the floor); it lies in that receptacle if it is one.
``ThrowObject`` (``moveMagnitude``, newtons, default :data:`DEFAULT_THROW_FORCE`)
    The held object leaves the hand along the agent's heading, level, at the speed the force gives
    its mass (:func:`~alfred_gen.sim.forces.launch_speed`; masses: :mod:`alfred_gen.domains.masses`),
    flies for as long as a fall from the hand takes, lands, and slides on at that speed until
    friction stops it; a wall or an object on the way stops it early (then it falls from there).
    So a throw lands further away than a put, and a light object further than a heavy one.
``DirectionalPush`` (``objectId``, ``moveMagnitude`` newtons, ``pushAngle`` degrees)
    A pickupable object that is not held slides along the agent's heading turned clockwise by
    ``pushAngle`` (0 pushes it away, 180 pulls it towards the agent, 90 to the right) at the speed
    the force gives its mass, until friction stops it
    (:func:`~alfred_gen.sim.forces.slide_distance`), stopping early against walls and objects
    (inside a container, against its sides). If its centre ends up off what it stood on, it falls
    to the next support below.
``BreakObject`` (``objectId``)
    A breakable object becomes ``isBroken`` (drawn as shards), loses any liquid, and can no longer
    be picked up or filled; one breaking in the hand falls from it.
``DirtyObject`` / ``FillObjectWithLiquid`` (``fillLiquid``: water, coffee, wine) /
``EmptyLiquidFromObject`` (``objectId``)
    Set ``isDirty`` / ``isFilledWithLiquid`` on an object that can have the state.
``RemoveFromScene`` (``objectId``)
    The object and everything inside it leave the scene.
``PlaceObjectAtPoint`` (``objectId``, ``position`` {x, y, z})
    A pickupable object (held or not) is put with its box's bottom centre above the point and
    falls onto the support below it; fails where it would overlap something there.

As for THOR's own interactions, the target must be within reach (visible) unless the action says
``forceAction: true``; an object in the agent's hand is always within reach of these actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from alfred_gen.domains.masses import mass_of
from alfred_gen.sim import forces, kinematics
from alfred_gen.sim.actions import ActionFailed, apply_container_effects, number, object_arg, require_in_reach
from alfred_gen.sim.world import INSIDE_RECEPTACLES, World, WorldObject

if TYPE_CHECKING:
    from alfred_gen.sim.lite import LiteController

#: A throw's force (newtons) when ``moveMagnitude`` is not given.
DEFAULT_THROW_FORCE = 100.0
#: The liquids THOR's FillObjectWithLiquid knows.
LIQUIDS = ("water", "coffee", "wine")


def forced(args: dict[str, Any]) -> bool:
    """Whether the action asks THOR to skip its reach check (``forceAction: true``)."""
    return args.get("forceAction") is True


def reachable_target(sim: LiteController, args: dict[str, Any]) -> WorldObject:
    """The object ``objectId`` names, checked to be within reach: held, visible, or forced."""
    obj = object_arg(sim.world, args)
    if not forced(args) and not sim.world.is_held_family(obj):
        require_in_reach(sim, obj)
    return obj


def _held(world: World) -> WorldObject:
    if world.held is None:
        raise ActionFailed("Agent is not holding anything")
    return world.by_id[world.held]


def _release(world: World, obj: WorldObject) -> None:
    """Let go of the held object where it is (the hand), then let it fall."""
    world.held = None
    world.touch_family(obj)
    world.sight_changed()
    kinematics.settle(world, obj)
    apply_container_effects(world, obj)


# --- held object ---------------------------------------------------------------------------------
def drop_hand_object(sim: LiteController, args: dict[str, Any]) -> None:
    """Let go of the held object: it falls from the hand onto the first support below it."""
    world = sim.world
    _release(world, _held(world))


def object_mass(obj: WorldObject) -> float:
    """The object's mass (kg), with what it carries: estimated from type and box (THOR's are not
    among the facts kept here; :mod:`alfred_gen.domains.masses`)."""
    return mass_of(obj.type_name, obj.size)


def _family_mass(world: World, obj: WorldObject) -> float:
    return sum(object_mass(o) for o in [obj, *world.descendants(obj)])


def _slide(world: World, obj: WorldObject, direction: tuple[float, float], distance: float) -> bool:
    """Slide a resting object up to ``distance`` along ``direction``; it falls to the next support
    if its centre leaves what it stood on. Whether it was let fall (its container may change)."""
    parent = world.by_id[obj.parent] if obj.parent is not None else None
    contained = parent is not None and parent.type_name in INSIDE_RECEPTACLES
    kinematics.travel(world, obj, direction, distance, within=parent if contained else None)
    if contained:
        return False
    cx, _, cz = obj.center
    if parent is not None and parent.lo[0] <= cx <= parent.hi[0] and parent.lo[2] <= cz <= parent.hi[2]:
        return False  # still on what it stood on
    world.detach(obj)
    kinematics.settle(world, obj)
    return True


def throw_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    held = _held(world)
    force = number(args, "moveMagnitude", DEFAULT_THROW_FORCE)
    if force <= 0:
        raise ActionFailed(f"moveMagnitude must be positive, got {force:g}")
    speed = forces.launch_speed(force, _family_mass(world, held))
    direction = kinematics.heading_vector(world.agent.rotation)
    cx, _, cz = held.center
    _support, below = kinematics.support_below(world, held, cx, cz, held.lo[1])
    flight = forces.flight_distance(speed, held.lo[1] - below)
    world.held = None
    world.touch_family(held)
    world.sight_changed()
    flown = kinematics.travel(world, held, direction, flight)
    kinematics.settle(world, held)
    if flown >= flight - kinematics.STEP:  # landed in the open: it slides on
        _slide(world, held, direction, forces.slide_distance(speed))
    apply_container_effects(world, held)


# --- objects in the room -------------------------------------------------------------------------
def directional_push(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    force = number(args, "moveMagnitude")
    angle = number(args, "pushAngle", 0.0)
    if force <= 0:
        raise ActionFailed(f"moveMagnitude must be positive, got {force:g}")
    if not obj.otype.pickupable:
        raise ActionFailed(f"{obj.object_id} cannot be pushed: lite keeps furniture in place")
    if world.is_held_family(obj):
        raise ActionFailed(f"{obj.object_id} is in the agent's hand")
    if not forced(args):
        require_in_reach(sim, obj)
    distance = forces.slide_distance(forces.launch_speed(force, _family_mass(world, obj)))
    direction = kinematics.heading_vector(world.agent.rotation + angle)
    if _slide(world, obj, direction, distance):
        apply_container_effects(world, obj)


def break_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = reachable_target(sim, args)
    if not obj.otype.breakable:
        raise ActionFailed(f"{obj.object_id} is not breakable")
    if obj.is_broken:
        raise ActionFailed(f"{obj.object_id} is already broken")
    obj.is_broken = True
    obj.is_filled = False
    obj.liquid = None
    world.touch(obj)
    world.sight_changed()
    if world.held == obj.object_id:
        _release(world, obj)


def dirty_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = reachable_target(sim, args)
    if not obj.otype.dirtyable:
        raise ActionFailed(f"{obj.object_id} is not dirtyable")
    if obj.is_dirty:
        raise ActionFailed(f"{obj.object_id} is already dirty")
    obj.is_dirty = True
    world.touch(obj)


def fill_object_with_liquid(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    liquid = args.get("fillLiquid", "water")
    if liquid not in LIQUIDS:
        raise ActionFailed(f"fillLiquid must be one of {', '.join(LIQUIDS)}, got {liquid!r}")
    obj = reachable_target(sim, args)
    if not obj.otype.can_fill_with_liquid:
        raise ActionFailed(f"{obj.object_id} cannot be filled with liquid")
    if obj.is_broken:
        raise ActionFailed(f"{obj.object_id} is broken")
    if obj.is_filled:
        raise ActionFailed(f"{obj.object_id} is already filled")
    obj.is_filled = True
    obj.liquid = liquid
    world.touch(obj)


def empty_liquid_from_object(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = reachable_target(sim, args)
    if not obj.otype.can_fill_with_liquid:
        raise ActionFailed(f"{obj.object_id} cannot be filled with liquid")
    if not obj.is_filled:
        raise ActionFailed(f"{obj.object_id} is already empty")
    obj.is_filled = False
    obj.liquid = None
    world.touch(obj)


# --- scripted setup ------------------------------------------------------------------------------
def remove_from_scene(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    if obj.otype.structural:
        raise ActionFailed(f"{obj.object_id} is part of the room and cannot be removed")
    if world.is_held_family(obj) and world.held is not None:
        held = world.by_id[world.held]
        if held is obj:
            world.held = None
        world.touch_family(held)
    world.detach(obj)
    for gone in [obj, *world.descendants(obj)]:
        gone.present = False
        world.touch(gone)
    world.sight_changed()


def place_object_at_point(sim: LiteController, args: dict[str, Any]) -> None:
    world = sim.world
    obj = object_arg(world, args)
    point = args.get("position")
    if not isinstance(point, dict) or set(point) - {"x", "y", "z"}:
        raise ActionFailed(f"position must be {{x, y, z}}, got {point!r}")
    x, y, z = (number(point, k) for k in ("x", "y", "z"))
    if not obj.otype.pickupable:
        raise ActionFailed(f"{obj.object_id} is not pickupable")
    support, height = kinematics.support_below(world, obj, x, z, y + kinematics.CONTACT)
    center = (x, height + obj.size[1] / 2, z)
    if not kinematics.fits_at(world, obj, center, support):
        raise ActionFailed(f"no room for {obj.object_id} at ({x:.2f}, {y:.2f}, {z:.2f})")
    if world.held == obj.object_id:
        world.held = None
    world.touch_family(obj)
    world.detach(obj)
    world.move_to(obj, center)
    if support is not None and support.otype.receptacle:
        world.attach(obj, support)
    world.sight_changed()
    apply_container_effects(world, obj)


_OBJECT = frozenset({"objectId"})

#: action name -> (handler, accepted argument names besides "action" and "forceAction").
PHYSICS_ACTIONS = {
    "DropHandObject": (drop_hand_object, frozenset()),
    "ThrowObject": (throw_object, frozenset({"moveMagnitude"})),
    "DirectionalPush": (directional_push, _OBJECT | {"moveMagnitude", "pushAngle"}),
    "BreakObject": (break_object, _OBJECT),
    "DirtyObject": (dirty_object, _OBJECT),
    "FillObjectWithLiquid": (fill_object_with_liquid, _OBJECT | {"fillLiquid"}),
    "EmptyLiquidFromObject": (empty_liquid_from_object, _OBJECT),
    "RemoveFromScene": (remove_from_scene, _OBJECT),
    "PlaceObjectAtPoint": (place_object_at_point, _OBJECT | {"position"}),
}
