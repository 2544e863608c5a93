"""Bathrooms: a toilet with its paper hanger, a sink (in a vanity counter or on a pedestal) with a
faucet and a mirror above, a bathtub or a shower, towel holders; cabinets, drawers and shelves."""

from __future__ import annotations

from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    WallSpot,
    add_cabinet,
    add_drawer_stack,
    add_dresser,
    add_floor_lamp,
    add_floor_standing,
    add_garbage_can,
    add_light_switch,
    add_side_table,
    add_wall_item,
    add_wall_shelves,
    add_window,
    wall_stretch_clear,
)
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents
from alfred_gen.sim.scene import SceneObject

SHAPE = ShapeSpec(width=(2.0, 3.4), depth=(2.3, 3.8), l_shape_share=0.1)

VANITY_DEPTH = 0.55
VANITY_TOP = 0.88


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    if contents.has("Bathtub"):
        add_bathtub(b, contents)
    else:
        add_shower(b, contents)
    add_toilet(b)
    sink_spot = add_vanity(b, contents) if contents.has("CounterTop") else add_pedestal_sink(b)
    mirror_stretch = WallSpot(sink_spot.edge, sink_spot.a0 + 0.05, sink_spot.width - 0.1, 0.03)
    if wall_stretch_clear(b, mirror_stretch, 1.2, 1.9, reach=0.3):
        b.add("Mirror", mirror_stretch.box(0.0, mirror_stretch.width, 0.0, 0.03, 1.2, 1.9), rotation=sink_spot.rotation)
    elif add_wall_item(b, "Mirror", 0.5, 1.2, 1.9) is None:
        raise BuildFailed("no wall for the mirror")
    if add_holder(b, "HandTowelHolder", 0.22, 1.15, hang=0.45, near=sink_spot) is None:
        raise BuildFailed("no wall for the hand towel holder")
    if add_holder(b, "TowelHolder", round(rng.uniform(0.45, 0.65), 2), 1.2, hang=0.65) is None:
        raise BuildFailed("no wall for the towel holder")
    if contents.has("Cabinet") and not any(o.object_type == "Cabinet" for o in b.objects):
        # A wall cabinet (medicine cabinet) where the wall is clear.
        for _ in range(10):
            spot = _wall_stretch(b, 0.5, 1.35, 1.95, depth=0.2)
            if spot is not None:
                add_cabinet(b, spot, 0.0, 0.5, 0.0, 0.2, 1.35, 1.95)
                break
    if contents.has("Drawer") and not any(o.object_type == "Drawer" for o in b.objects):
        spot = b.wall_spot(0.45, 0.4, access=0.5)
        if spot is not None:
            add_side_table(b, spot, with_drawer=True)
    if contents.has("Shelf"):
        spot = _wall_stretch(b, 0.6, 1.0, 1.5, depth=0.25)
        if spot is not None:
            add_wall_shelves(b, spot, [1.0, 1.35], depth=0.25)
    if contents.has("Dresser"):
        spot = b.wall_spot(0.8, 0.45, access=0.55)
        if spot is not None:
            add_dresser(b, spot, 1, 3)
    if contents.has("SideTable") and not any(o.object_type == "SideTable" for o in b.objects):
        spot = b.wall_spot(0.45, 0.4, access=0.5)
        if spot is not None:
            add_side_table(b, spot, with_drawer=False)
    if contents.has("Cart"):
        add_floor_standing(b, "Cart", 0.6, 0.45, 0.9, access=0.55)
    if contents.has("FloorLamp"):
        add_floor_lamp(b)
    if contents.has("HousePlant"):
        add_floor_standing(b, "HousePlant", 0.35, 0.35, 0.6, access=0.4, corner=True)
    if add_garbage_can(b) is None:
        raise BuildFailed("no room for the garbage can")
    if contents.has("Window"):
        add_window(b, sill=1.2)
    if contents.has("Painting"):
        add_wall_item(b, "Painting", 0.5, 1.4, 1.9)
    add_light_switch(b)


def add_bathtub(b: RoomBuilder, contents: Contents) -> None:
    """A bathtub in a corner with its basin; a curtain, or glass and a door, along its open side."""
    rng = b.rng
    length = round(rng.uniform(1.5, 1.7), 2)
    depth = 0.75
    spot = b.wall_spot(length, depth, access=0.55, corner=True)
    if spot is None:
        raise BuildFailed("no wall for the bathtub")
    cx, cz = spot.footprint.center
    tub = b.add("Bathtub", spot.box(0.0, length, 0.0, depth, 0.0, 0.55), rotation=spot.rotation, position=(cx, 0.0, cz))
    basin = spot.box(0.08, length - 0.08, 0.08, depth - 0.08, 0.12, 0.56)
    b.add("BathtubBasin", basin, rotation=spot.rotation, object_id=f"{tub.object_id}|BathtubBasin")
    head_end = rng.random() < 0.5
    u_head = 0.05 if head_end else length - 0.3
    if contents.has("ShowerHead"):
        b.add("ShowerHead", spot.box(u_head, u_head + 0.25, 0.0, 0.25, 1.75, 1.95), rotation=spot.rotation)
    if contents.has("ShowerCurtain"):
        u0 = length - 0.25 if head_end else 0.05
        b.add("ShowerCurtain", spot.box(u0, u0 + 0.2, depth - 0.06, depth, 0.6, 2.0), rotation=spot.rotation)
    elif contents.has("ShowerGlass") or contents.has("ShowerDoor"):
        half = length / 2
        glass_u = (0.02, half) if head_end else (half, length - 0.02)
        if contents.has("ShowerGlass"):
            b.add(
                "ShowerGlass",
                spot.box(glass_u[0], glass_u[1], depth - 0.04, depth - 0.02, 0.55, 1.9),
                rotation=spot.rotation,
            )
        if contents.has("ShowerDoor"):
            b.add(
                "ShowerDoor", spot.box(glass_u[0], glass_u[1], depth - 0.02, depth, 0.55, 1.9), rotation=spot.rotation
            )


def add_shower(b: RoomBuilder, contents: Contents) -> None:
    """A shower stall in a corner: a tray, a glass side and a door (or a curtain), a shower head."""
    size = round(b.rng.uniform(0.85, 1.0), 2)
    spot = b.wall_spot(size, size, access=0.5, corner=True)
    if spot is None:
        raise BuildFailed("no corner for the shower")
    tray = spot.box(0.0, size, 0.0, size, 0.0, 0.06)
    enclosure: list[tuple[str, tuple[float, float, float, float]]] = []
    if contents.has("ShowerGlass"):
        enclosure.append(("ShowerGlass", (0.0, 0.03, 0.0, size)))
    if contents.has("ShowerDoor") or not enclosure:
        enclosure.append(("ShowerDoor", (0.0, size, size - 0.03, size)))
    if contents.has("ShowerCurtain"):
        enclosure.append(("ShowerCurtain", (size - 0.2, size - 0.02, 0.05, 0.25)))
    for index, (object_type, (u0, u1, v0, v1)) in enumerate(enclosure):
        b.add(
            object_type,
            spot.box(u0, u1, v0, v1, 0.06, 1.95),
            rotation=spot.rotation,
            parts=(tray,) if index == 0 else (),
        )
    b.add("ShowerHead", spot.box(size / 2 - 0.12, size / 2 + 0.12, 0.0, 0.25, 1.75, 1.95), rotation=spot.rotation)


def add_toilet(b: RoomBuilder) -> None:
    """The toilet against a wall, its paper hanger on the wall beside it."""
    width = round(b.rng.uniform(0.42, 0.52), 2)
    spot = b.wall_spot(width, 0.7, access=0.5)
    if spot is None:
        raise BuildFailed("no wall for the toilet")
    cx, cz = spot.footprint.center
    b.add(
        "Toilet",
        spot.box(0.0, width, 0.0, 0.7, 0.0, round(b.rng.uniform(0.75, 0.85), 2)),
        rotation=spot.rotation,
        position=(cx, 0.0, cz),
    )
    for u0 in (width + 0.1, -0.3, width + 0.3, -0.5):
        hanger = WallSpot(spot.edge, spot.a0 + u0, 0.2, 0.12)
        if (
            hanger.a0 >= 0.0
            and hanger.a0 + 0.2 <= spot.edge.length
            and wall_stretch_clear(b, hanger, 0.55, 0.8, reach=0.12)
        ):
            b.add("ToiletPaperHanger", hanger.box(0.0, 0.2, 0.0, 0.12, 0.68, 0.76), rotation=spot.rotation)
            b.keep_free.append(hanger.rect(0.0, 0.2, 0.0, 0.4))
            return
    if add_holder(b, "ToiletPaperHanger", 0.2, 0.76, hang=0.15) is None:
        raise BuildFailed("no wall for the toilet paper hanger")


def add_vanity(b: RoomBuilder, contents: Contents) -> WallSpot:
    """A counter with a sink basin set in it, cabinets or drawers below; returns where the sink is."""
    rng = b.rng
    width = round(rng.uniform(0.75, 1.5), 2)
    spot = b.wall_spot(width, VANITY_DEPTH, access=0.55)
    if spot is None:
        width = 0.75
        spot = b.wall_spot(width, VANITY_DEPTH, access=0.55)
    if spot is None:
        raise BuildFailed("no wall for the vanity")
    sink_width = round(min(width, rng.uniform(0.55, 0.7)), 2)
    u_sink = round(rng.choice([0.0, (width - sink_width) / 2, width - sink_width]), 2)
    if 0 < u_sink < 0.25 or 0 < width - sink_width - u_sink < 0.25:
        u_sink = round((width - sink_width) / 2, 2) if width - sink_width >= 0.5 else 0.0
    slab = VANITY_TOP - 0.04
    for u0, u1 in ((0.0, u_sink), (u_sink + sink_width, width)):
        if u1 - u0 >= 0.2:
            b.add("CounterTop", spot.box(u0, u1, 0.0, VANITY_DEPTH, slab, VANITY_TOP), rotation=spot.rotation)
    sink_spot = WallSpot(spot.edge, spot.a0 + u_sink, sink_width, VANITY_DEPTH)
    _sink(b, sink_spot, VANITY_TOP)
    # Below: cabinets and/or drawers across the vanity.
    below = slab - 0.01
    under_sink = VANITY_TOP - 0.2
    u = 0.0
    while u < width - 0.2:
        w = min(width - u, 0.5 if width - u - 0.5 >= 0.3 or width - u <= 0.5 else width - u)
        w = round(w, 2)
        in_sink = u < u_sink + sink_width and u + w > u_sink
        top = under_sink - 0.01 if in_sink else below
        if contents.has("Drawer") and not in_sink and rng.random() < 0.6:
            add_drawer_stack(b, spot, u, u + w, VANITY_DEPTH - 0.01, 0.1, top, 3)
        elif contents.has("Cabinet") or in_sink:
            add_cabinet(b, spot, u, u + w, 0.02, VANITY_DEPTH - 0.01, 0.08, top)
        u = round(u + w, 4)
    return sink_spot


def add_pedestal_sink(b: RoomBuilder) -> WallSpot:
    spot = b.wall_spot(0.55, 0.48, access=0.55)
    if spot is None:
        raise BuildFailed("no wall for the sink")
    _sink(b, spot, 0.86, pedestal=True)
    return spot


def _sink(b: RoomBuilder, spot: WallSpot, top: float, pedestal: bool = False) -> None:
    """Sink (its rim at the back, or its pedestal), the hollow SinkBasin and the faucet."""
    w, d = spot.width, spot.depth
    rim = 0.05
    if pedestal:
        sink = b.add(
            "Sink",
            spot.box(w / 2 - 0.1, w / 2 + 0.1, 0.02, 0.2, 0.0, top - 0.18),
            rotation=spot.rotation,
            parts=(spot.box(0.0, w, 0.0, 0.12, top - 0.18, top + 0.01),),
        )
        basin = spot.box(0.02, w - 0.02, 0.12, d, top - 0.18, top + 0.005)
    else:
        sink = b.add(
            "Sink",
            spot.box(0.0, w, 0.0, 0.14, top - 0.04, top + 0.01),
            rotation=spot.rotation,
            parts=(
                spot.box(0.0, rim, 0.14, d, top - 0.04, top + 0.01),
                spot.box(w - rim, w, 0.14, d, top - 0.04, top + 0.01),
                spot.box(rim, w - rim, d - 0.05, d, top - 0.04, top + 0.01),
            ),
        )
        basin = spot.box(rim, w - rim, 0.14, d - 0.05, top - 0.18, top + 0.005)
    b.add("SinkBasin", basin, rotation=spot.rotation, object_id=f"{sink.object_id}|SinkBasin")
    b.add("Faucet", spot.box(w / 2 - 0.05, w / 2 + 0.05, 0.02, 0.12, top + 0.01, top + 0.22), rotation=spot.rotation)


def _wall_stretch(b: RoomBuilder, width: float, y0: float, y1: float, depth: float) -> WallSpot | None:
    """A stretch of wall, anywhere, clear of tall things in front between heights y0 and y1."""
    edges = list(range(len(b.shape.edges)))
    b.rng.shuffle(edges)
    for index in edges:
        edge = b.shape.edges[index]
        if edge.length < width + 0.2:
            continue
        for _ in range(10):
            a0 = round(b.rng.uniform(0.1, edge.length - width - 0.1), 2)
            if b.shape.door_overlaps(index, a0, a0 + width):
                continue
            spot = WallSpot(edge, a0, width, depth)
            if wall_stretch_clear(b, spot, y0, y1, reach=depth + 0.05):
                return spot
    return None


def add_holder(
    b: RoomBuilder, object_type: str, width: float, y: float, hang: float, near: WallSpot | None = None
) -> SceneObject | None:
    """A towel bar / holder on the wall at height ``y`` with ``hang`` metres of clear wall below it."""
    if near is not None:
        for u0 in (near.width + 0.08, -width - 0.08):
            spot = WallSpot(near.edge, near.a0 + u0, width, 0.08)
            if (
                spot.a0 >= 0
                and spot.a0 + width <= near.edge.length
                and wall_stretch_clear(b, spot, y - hang, y + 0.05, reach=0.2)
            ):
                break
        else:
            spot = None
    else:
        spot = None
    spot = spot or _wall_stretch(b, width, y - hang, y + 0.05, depth=0.15)
    if spot is None:
        return None
    # Keep the floor in front free, so nothing is later put where it would hide the holder.
    b.keep_free.append(spot.rect(0.0, width, 0.0, 0.4))
    return b.add(object_type, spot.box(0.0, width, 0.0, 0.08, y - 0.05, y), rotation=spot.rotation)
