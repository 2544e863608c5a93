"""Putting things on receptacles: pickupable objects where THOR's placement rules allow them, and
decor (a television, a desk lamp, a house plant) on the furniture that carries it.

Pickupables go only onto receptacles that may hold them (``catalogue.can_place``) and within their
capacity, resting on a surface from :mod:`alfred_gen.scenes.procedural.surfaces`, without intersecting any
other object. The few pickupables no receptacle takes (boots, a plunger) stand on the floor by a
wall, as in THOR rooms. The simulator's InitialRandomSpawn moves pickupables around from here.
"""

from __future__ import annotations

from alfred_gen.domains.catalogue import OBJECT_TYPES, can_place
from alfred_gen.scenes.procedural.furnish import RoomBuilder, overlaps3
from alfred_gen.scenes.procedural.surfaces import Surface, surfaces_of
from alfred_gen.scenes.procedural.vocab import FLOOR_ITEMS
from alfred_gen.sim.scene import Box, SceneObject

#: How many random positions to try on one surface before giving up on it.
TRIES_PER_SURFACE = 12


def place_pickupables(b: RoomBuilder, wanted: list[tuple[str, int]]) -> list[str]:
    """Place ``count`` objects of each type; returns the types that found no place."""
    missing = []
    for object_type, count in wanted:
        for _ in range(count):
            if object_type in FLOOR_ITEMS:
                placed = place_on_floor(b, object_type)
            else:
                hosts = [o for o in b.objects if _is_fixed_receptacle(o) and can_place(object_type, o.object_type)]
                placed = place_on_any(b, object_type, hosts, pickupable=True)
            if placed is None:
                missing.append(object_type)
    return missing


def place_decor(
    b: RoomBuilder, object_type: str, host_types: tuple[str, ...], size: tuple[float, float, float] | None = None
) -> SceneObject | None:
    """A non-pickupable thing (television, desk lamp, plant) standing on one of the host types."""
    hosts = [o for o in b.objects if o.object_type in host_types]
    return place_on_any(b, object_type, hosts, pickupable=False, size=size)


def place_on_any(
    b: RoomBuilder,
    object_type: str,
    hosts: list[SceneObject],
    pickupable: bool,
    size: tuple[float, float, float] | None = None,
) -> SceneObject | None:
    """Try the hosts in random order; the first surface with room takes the object."""
    order = list(hosts)
    b.rng.shuffle(order)
    for host in order:
        if pickupable and _children(b, host) >= OBJECT_TYPES[host.object_type].capacity:
            continue
        placed = place_on(b, object_type, host, pickupable, size)
        if placed is not None:
            return placed
    return None


def place_on(
    b: RoomBuilder,
    object_type: str,
    host: SceneObject,
    pickupable: bool = True,
    size: tuple[float, float, float] | None = None,
) -> SceneObject | None:
    """Rest one object on (or in, or hanging from) ``host`` at a free random spot, or None."""
    sx, sy, sz = size or OBJECT_TYPES[object_type].size
    for surface in surfaces_of(host.object_type, host.box, host.rotation[1]):
        lying = False
        if surface.hang:
            box = _hanging_box(surface, (sx, sy, sz))
            candidates = [box]
        else:
            if sy > surface.max_height:
                # Long things (a baseball bat) lie down along their longest side.
                if max(sx, sz) >= sy or min(sx, sz) > surface.max_height:
                    continue
                sx, sy, sz = (sy, sx, sz) if sx <= sz else (sx, sz, sy)
                lying = True
            candidates = []
            for _ in range(TRIES_PER_SURFACE):
                wx, wz = (sx, sz) if b.rng.random() < 0.5 else (sz, sx)
                if wx > surface.width or wz > surface.depth:
                    wx, wz = wz, wx
                if wx > surface.width or wz > surface.depth:
                    break
                x0 = b.rng.uniform(surface.x0, surface.x1 - wx)
                z0 = b.rng.uniform(surface.z0, surface.z1 - wz)
                candidates.append(
                    Box(
                        (round(x0, 4), round(surface.y, 4), round(z0, 4)),
                        (round(x0 + wx, 4), round(surface.y + sy, 4), round(z0 + wz, 4)),
                    )
                )
        for box in candidates:
            if _collides(b, box, host):
                continue
            rotation = 90.0 if _swapped(box, sx, sz) else 0.0
            if pickupable and lying:
                rotation = (90.0, rotation, 0.0)  # type: ignore[assignment]  # a lying object's rotation is a 3-tuple where upright ones give the yaw alone
            return b.add(
                object_type,
                box,
                rotation=(host.rotation[1] + rotation) % 360 if not pickupable else rotation,
                position=box.center,
                parent=host.object_id if pickupable else None,
            )
    return None


def place_on_floor(b: RoomBuilder, object_type: str) -> SceneObject | None:
    """A pickupable that no receptacle takes, standing on the floor against a wall."""
    sx, sy, sz = OBJECT_TYPES[object_type].size
    width, depth = max(sx, sz), min(sx, sz)
    spot = b.wall_spot(round(width + 0.02, 2), round(depth + 0.02, 2), access=0.35)
    if spot is None:
        return None
    box = spot.box(0.01, width + 0.01, 0.01, depth + 0.01, 0.0, sy)
    return b.add(object_type, box, rotation=spot.rotation, position=box.center)


def _hanging_box(surface: Surface, size: tuple[float, float, float]) -> Box:
    """An item hanging from a holder: centred under it, its wide side along the holder, its top at
    the holder's bottom (so the holder itself stays in sight)."""
    sx, sy, sz = size
    wide, thin = max(sx, sz), min(sx, sz)
    cx, cz = (surface.x0 + surface.x1) / 2, (surface.z0 + surface.z1) / 2
    wx, wz = (wide, thin) if surface.width >= surface.depth else (thin, wide)
    return Box(
        (round(cx - wx / 2, 4), round(surface.y - sy, 4), round(cz - wz / 2, 4)),
        (round(cx + wx / 2, 4), round(surface.y, 4), round(cz + wz / 2, 4)),
    )


def _swapped(box: Box, sx: float, sz: float) -> bool:
    return abs((box.hi[0] - box.lo[0]) - sx) > 1e-6 and abs(sx - sz) > 1e-6


def _collides(b: RoomBuilder, box: Box, host: SceneObject) -> bool:
    """Whether ``box`` intersects any object other than its host and the furniture the host is
    part of (a drawer's dresser, a basin's bathtub). Loose objects always count."""
    for other in b.objects:
        if other is host:
            continue
        loose = OBJECT_TYPES[other.object_type].pickupable
        if overlaps3(box, other.box) and (loose or not overlaps3(host.box, other.box)):
            return True
        if any(overlaps3(box, part) for part in other.parts):
            return True
    return False


def _children(b: RoomBuilder, host: SceneObject) -> int:
    return sum(1 for o in b.objects if o.parent == host.object_id)


def _is_fixed_receptacle(obj: SceneObject) -> bool:
    entry = OBJECT_TYPES.get(obj.object_type)
    return entry is not None and entry.receptacle and not entry.pickupable
