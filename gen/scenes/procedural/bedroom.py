"""Bedrooms: a bed with its head against a wall and side tables beside it, a desk with a chair and
a desk lamp, a dresser with drawers, shelves, a laundry hamper; a mirror, a window with blinds."""

from __future__ import annotations

from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    WallSpot,
    add_cabinet,
    add_chairs_around,
    add_drawer_stack,
    add_dresser,
    add_floor_lamp,
    add_floor_standing,
    add_garbage_can,
    add_laundry_hamper,
    add_light_switch,
    add_shelving_unit,
    add_side_table,
    add_table_somewhere,
    add_wall_item,
    add_wall_shelves,
    add_window,
    wall_stretch_clear,
)
from alfred_gen.scenes.procedural.populate import place_decor
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents

SHAPE = ShapeSpec(width=(2.7, 4.4), depth=(2.9, 4.8), l_shape_share=0.25)


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    drawers = contents.has("Drawer")
    add_bed_group(b, contents, drawers)
    desk_spot = None
    if contents.has("Desk"):
        width = round(rng.uniform(1.0, 1.5), 2)
        desk_spot = b.wall_spot(width, 0.6, access=0.8)
        if desk_spot is not None:
            b.add("Desk", desk_spot.box(0.0, width, 0.0, 0.6, 0.0, 0.76), rotation=desk_spot.rotation)
            if drawers:
                add_drawer_stack(b, desk_spot, width - 0.45, width - 0.05, 0.6, 0.5, 0.7, 1)
            if contents.has("Chair"):
                mid = width / 2
                seat = desk_spot.rect(mid - 0.23, mid + 0.23, 0.62, 1.1)
                if b.shape.contains(seat.grown(0.3)):
                    b.blocked.append(seat)
                    b.add("Chair", seat.box(0.0, 0.9), rotation=(desk_spot.rotation + 180) % 360)
            if contents.has("Shelf") and rng.random() < 0.5:
                stretch = WallSpot(desk_spot.edge, desk_spot.a0, width, 0.3)
                if wall_stretch_clear(b, stretch, 1.2, 1.75, reach=0.3):
                    add_wall_shelves(b, stretch, [1.25, 1.6])
    if contents.has("Dresser"):
        spot = b.wall_spot(round(rng.uniform(0.9, 1.5), 2), 0.5, access=0.6)
        if spot is not None:
            add_dresser(b, spot, rng.choice([1, 2]), rng.choice([3, 4]))
            if contents.has("Television"):
                place_decor(b, "Television", ("Dresser",), size=(0.8, 0.55, 0.2))
    if contents.has("Television") and not any(o.object_type == "Television" for o in b.objects):
        add_wall_item(b, "Television", 0.9, 1.0, 1.55, thickness=0.08)
    if contents.has("Shelf") and not any(o.object_type == "Shelf" for o in b.objects):
        spot = b.wall_spot(round(rng.uniform(0.6, 1.0), 2), 0.35, access=0.6)
        if spot is not None:
            add_shelving_unit(b, spot, rng.randint(2, 4), round(rng.uniform(1.0, 1.8), 2))
    if contents.has("LaundryHamper"):
        add_laundry_hamper(b)
    if contents.has("ArmChair"):
        spot = b.wall_spot(0.85, 0.85, access=0.6)
        if spot is not None:
            b.add("ArmChair", spot.box(0.0, 0.85, 0.0, 0.85, 0.0, 0.85), rotation=spot.rotation)
    if contents.has("DiningTable"):
        rect = add_table_somewhere(
            b, "DiningTable", round(rng.uniform(0.8, 1.2), 2), round(rng.uniform(0.6, 0.8), 2), 0.75
        )
        if rect is None:
            raise BuildFailed("no room for the table")
        if contents.has("Chair"):
            add_chairs_around(b, rect, 2)
    if contents.has("CoffeeTable") and add_table_somewhere(b, "CoffeeTable", 0.9, 0.55, 0.45) is None:
        raise BuildFailed("no room for the coffee table")
    if contents.has("Cabinet"):
        spot = b.wall_spot(0.5, 0.5, access=0.7)
        if spot is not None:
            add_cabinet(b, spot, 0.0, 0.5, 0.0, 0.5, 0.0, round(rng.uniform(0.8, 1.8), 2))
    if contents.has("CounterTop"):
        spot = b.wall_spot(1.2, 0.6, access=0.6)
        if spot is not None:
            b.add("CounterTop", spot.box(0.0, 1.2, 0.0, 0.6, 0.0, 0.9), rotation=spot.rotation)
    if contents.has("Safe"):
        add_floor_standing(b, "Safe", 0.4, 0.45, 0.4, access=0.6)
    if contents.has("DeskLamp"):
        if place_decor(b, "DeskLamp", ("Desk", "SideTable", "Dresser")) is None:
            spot = b.wall_spot(0.5, 0.42)
            if spot is None:
                raise BuildFailed("no place for the desk lamp")
            add_side_table(b, spot, with_drawer=drawers)
            if place_decor(b, "DeskLamp", ("SideTable",)) is None:
                raise BuildFailed("no place for the desk lamp")
    if drawers and not any(o.object_type == "Drawer" for o in b.objects):
        spot = b.wall_spot(0.5, 0.42)
        if spot is not None:
            add_side_table(b, spot, with_drawer=True)
    if not any(o.object_type in ("Desk", "Dresser") for o in b.objects):
        # Something with a broad top for the books, boxes and clocks every bedroom holds.
        spot = b.wall_spot(0.62, 0.5)
        if spot is None:
            raise BuildFailed("no wall for a side table")
        add_side_table(b, spot, with_drawer=drawers)
    if contents.has("Lamp"):
        add_floor_lamp(b, "Lamp")
    if contents.has("HousePlant"):
        add_floor_standing(b, "HousePlant", 0.4, 0.4, round(rng.uniform(0.6, 1.0), 2), access=0.4, corner=True)
    if add_garbage_can(b) is None:
        raise BuildFailed("no room for the garbage can")
    add_window(b, blinds=contents.has("Blinds"), curtains=contents.has("Curtains"), sill=0.85)
    if add_wall_item(b, "Mirror", 0.5, 0.9, 1.9) is None:
        raise BuildFailed("no wall for the mirror")
    if contents.has("Painting"):
        add_wall_item(b, "Painting", round(rng.uniform(0.5, 0.9), 2), 1.35, 1.9)
    if contents.has("Poster"):
        add_wall_item(b, "Poster", 0.5, 1.2, 1.9)
    add_light_switch(b)


def add_bed_group(b: RoomBuilder, contents: Contents, drawers: bool) -> None:
    """The bed, head against a wall, with side tables at the head if the room has them."""
    rng = b.rng
    width = round(rng.uniform(0.95, 1.8), 2)
    length = round(rng.uniform(1.95, 2.2), 2)
    spot = b.wall_spot(width, length, access=0.6)
    if spot is None:
        raise BuildFailed("no wall for the bed")
    cx, cz = spot.footprint.center
    b.add(
        "Bed",
        spot.box(0.0, width, 0.0, length, 0.0, round(rng.uniform(0.9, 1.2), 2)),
        rotation=spot.rotation,
        position=(cx, 0.0, cz),
    )
    if contents.has("SideTable"):
        sides = [-0.5, width + 0.05]
        rng.shuffle(sides)
        for u0 in sides[: rng.choice([1, 2])]:
            side = WallSpot(spot.edge, spot.a0 + u0, 0.45, 0.42)
            strip = side.rect(0.0, 0.45, 0.42, 0.9)
            if b.fits(side.footprint, strip):
                b.claim(side.footprint, strip)
                add_side_table(b, side, with_drawer=drawers and rng.random() < 0.7)
