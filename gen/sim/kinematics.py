"""Kinematics for lite's physical actions: where a released, thrown or pushed object comes to rest.

THOR simulates these with Unity's physics; lite replaces physics with a few fixed, documented rules
on axis-aligned boxes, so the same action in the same state always gives the same result:

- **Falling**: an object let go of drops straight down (its x and z do not change) onto the first
  support below its centre: the highest surface under that centre lying no higher than the
  object's bottom. Surfaces are the tops of the parts furniture and pickupable receptacles are
  drawn with (:func:`~alfred_gen.sim.shapes.shape_parts`): a sofa's seat, a bed's mattress, a
  table's top, the inner floor of a sink basin, a bowl or a garbage can, the top of a closed
  fridge; with none, the room's floor. The object then lies in that support if it is a receptacle
  (any receptacle: physics ignores ALFRED's placement table), else in nothing. (PutObject keeps
  ALFRED's own support levels, :meth:`~alfred_gen.sim.world.World.spot_bottom_y`.)
- **Moving** (a throw's flight, a push's slide): the object travels in a straight horizontal line
  in steps of :data:`STEP` metres and stops at the last step where its box overlaps no wall and no
  other object's box (boxes it already overlapped where it started do not stop it, and neither
  does what it rests on or contains). A push inside a container stays inside it.

Objects are never tipped over or rotated; only boxes count, never drawing parts.
"""

from __future__ import annotations

import math

import numpy as np

from alfred_gen.sim.pixels import facing_of, scene_facings
from alfred_gen.sim.shapes import shape_parts
from alfred_gen.sim.world import World, WorldObject, overlap_deeper_than

#: Length of one step of a moving object, metres.
STEP = 0.01
#: Two boxes overlapping by less than this (metres, on some axis) are touching, not colliding.
CONTACT = 1e-3
#: Basins built into furniture: the furniture around them is cut away (as the renderer draws it).
OPEN_BASINS = frozenset({"SinkBasin", "BathtubBasin"})


def heading_vector(yaw_degrees: float) -> tuple[float, float]:
    """The horizontal unit vector of a THOR yaw (0 is +z, 90 is +x), rounded so quarter turns are exact."""
    rad = math.radians(yaw_degrees)
    return (round(math.sin(rad), 9), round(math.cos(rad), 9))


def _family_ids(world: World, obj: WorldObject) -> set[str]:
    return {obj.object_id, *(d.object_id for d in world.descendants(obj))}


def _inside(footprint_obj: WorldObject, x: float, z: float) -> bool:
    lo, hi = footprint_obj.lo, footprint_obj.hi
    return lo[0] <= x <= hi[0] and lo[2] <= z <= hi[2]


def surface_height(world: World, support: WorldObject, x: float, z: float, facings: dict[str, int]) -> float | None:
    """The height a falling object's bottom comes to rest at on ``support`` at the point (x, z): the
    top of the highest part of its drawn shape there (a sofa's seat or its backrest, a table's top,
    the inner floor of a basin or a bowl, the top of a closed fridge). None when no part is there."""
    box = support.box()
    parts = shape_parts(support.type_name, box, is_open=support.is_open, facing=facing_of(support, facings))
    tops = [
        part.hi[1] for part, _ in parts
        if part.lo[0] - CONTACT <= x <= part.hi[0] + CONTACT and part.lo[2] - CONTACT <= z <= part.hi[2] + CONTACT
    ]
    return max(tops) if tops else None


def support_below(
    world: World, obj: WorldObject, x: float, z: float, bottom: float
) -> tuple[WorldObject | None, float]:
    """(support, surface height) of the first support below the point (x, z) at height ``bottom``.

    Candidates are present objects other than ``obj`` and what it holds, not held, not shut inside
    a closed receptacle, not broken: fixed furniture (not pickupable) and pickupable receptacles (a
    plate, a bowl). Over an open basin built into furniture (a sink basin in a counter, a bathtub
    basin in its tub), the furniture around it is cut away there, as it is drawn. The highest
    surface (:func:`surface_height`) at or below ``bottom`` wins; ties go to the smaller
    footprint, then the id. ``(None, floor height)`` when nothing is below.
    """
    family = _family_ids(world, obj)
    candidates = [
        other for other in world.objects
        if other.present and not other.is_sliced and other.object_id not in family
        and not world.is_held_family(other) and not world.enclosed(other) and not other.is_broken
        and (other.otype.receptacle or not other.otype.pickupable) and _inside(other, x, z)
    ]
    basins = [c for c in candidates if c.type_name in OPEN_BASINS]
    facings = scene_facings(world.scene)
    best: tuple[float, float, str, WorldObject] | None = None
    for other in candidates:
        if (other not in basins and not other.otype.pickupable
                and any(overlap_deeper_than(other, b, CONTACT) for b in basins)):
            continue  # cut away around the basin
        height = surface_height(world, other, x, z, facings)
        if height is None or height > bottom + CONTACT:
            continue
        key = (-height, other.size[0] * other.size[2], other.object_id)
        if best is None or key < best[:3]:
            best = (key[0], key[1], key[2], other)
    if best is None:
        return None, world.scene.floor_y
    return best[3], -best[0]


def settle(world: World, obj: WorldObject) -> WorldObject | None:
    """Let a parentless object fall from where it is onto the first support below; it is attached to
    that support when it is a receptacle. Returns the receptacle it now lies in (None: the floor or
    furniture that holds nothing)."""
    assert obj.parent is None, obj.object_id
    cx, _, cz = obj.center
    support, height = support_below(world, obj, cx, cz, obj.lo[1])
    world.move_to(obj, (cx, height + obj.size[1] / 2, cz))
    if support is not None and support.otype.receptacle:
        world.attach(obj, support)
        return support
    world.sight_changed()
    return None


def _obstacles(world: World, obj: WorldObject, support: WorldObject | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Boxes that can stop ``obj``: walls, and every drawn object that is not part of its family,
    not what it rests in (its parent chain, or ``support``, its chain and the furniture ``support``
    is built into, such as the tub around a bathtub basin) and not held."""
    family = _family_ids(world, obj)
    chain = {p.object_id for p in world.parent_chain(obj)}
    if support is not None:
        chain |= {support.object_id, *(p.object_id for p in world.parent_chain(support))}
    if support is not None and support.type_name in OPEN_BASINS:
        chain |= {
            o.object_id for o in world.objects
            if o.present and not o.otype.pickupable and o is not support and overlap_deeper_than(o, support, CONTACT)
        }
    boxes = [
        (o.lo, o.hi) for o in world.objects
        if o.present and not o.is_sliced and o.object_id not in family and o.object_id not in chain
        and not world.is_held_family(o) and not world.enclosed(o)
    ]
    lo = np.array([b[0] for b in boxes], float).reshape(-1, 3)
    hi = np.array([b[1] for b in boxes], float).reshape(-1, 3)
    return np.concatenate([world.wall_lo, lo]), np.concatenate([world.wall_hi, hi])


def _overlapping(lo: np.ndarray, hi: np.ndarray, box_lo: np.ndarray, box_hi: np.ndarray) -> np.ndarray:
    return ((np.minimum(hi, box_hi) - np.maximum(lo, box_lo)) > CONTACT).all(axis=1)


def travel(
    world: World, obj: WorldObject, direction: tuple[float, float], distance: float,
    within: WorldObject | None = None,
) -> float:
    """Move ``obj`` (with its contents) up to ``distance`` metres along the horizontal ``direction``
    and return how far it went: it stops before the first step that would make its box overlap a
    new obstacle (see the module docstring) or, with ``within``, leave that container's footprint."""
    lo, hi = _obstacles(world, obj)
    start_lo, start_hi = np.array(obj.lo), np.array(obj.hi)
    ignore = _overlapping(lo, hi, start_lo, start_hi)
    lo, hi = lo[~ignore], hi[~ignore]
    dx, dz = direction
    steps = int(math.floor(distance / STEP + 1e-9))
    moved = 0.0
    for k in range(1, steps + 1):
        offset = np.array([dx * k * STEP, 0.0, dz * k * STEP])
        box_lo, box_hi = start_lo + offset, start_hi + offset
        if len(lo) and _overlapping(lo, hi, box_lo, box_hi).any():
            break
        if within is not None and not (
            within.lo[0] - CONTACT <= box_lo[0] and box_hi[0] <= within.hi[0] + CONTACT
            and within.lo[2] - CONTACT <= box_lo[2] and box_hi[2] <= within.hi[2] + CONTACT
        ):
            break
        moved = k * STEP
    if moved:
        cx, cy, cz = obj.center
        world.move_to(obj, (cx + dx * moved, cy, cz + dz * moved))
    return moved


def fits_at(
    world: World, obj: WorldObject, center: tuple[float, float, float], support: WorldObject | None = None
) -> bool:
    """Whether ``obj``'s box centred at ``center`` overlaps no wall and no other object (its own
    contents, and ``support``, what it would rest in, aside)."""
    lo, hi = _obstacles(world, obj, support)
    half = np.array(obj.size) / 2.0
    c = np.array(center, float)
    box_lo, box_hi = c - half, c + half
    return not (len(lo) and _overlapping(lo, hi, box_lo, box_hi).any())
