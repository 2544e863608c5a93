"""Living rooms: a sofa facing a television, a coffee table, armchairs, side tables, a floor lamp,
shelves, a dresser, sometimes a dining table; a window, a painting and a plant."""

from __future__ import annotations

from alfred_gen.scenes.procedural.furnish import (
    BuildFailed,
    RoomBuilder,
    WallSpot,
    add_cabinet_pair_by_a_wall,
    add_chairs_around,
    add_dresser,
    add_floor_lamp,
    add_floor_standing,
    add_garbage_can,
    add_light_switch,
    add_shelves_by_a_wall,
    add_side_table,
    add_table,
    add_table_somewhere,
    add_wall_item,
    add_window,
)
from alfred_gen.scenes.procedural.populate import place_decor
from alfred_gen.scenes.procedural.rooms import ShapeSpec
from alfred_gen.scenes.procedural.vocab import Contents
from alfred_gen.sim.scene import SceneObject

SHAPE = ShapeSpec(width=(3.6, 6.6), depth=(3.8, 7.4), l_shape_share=0.3)


def furnish(b: RoomBuilder, contents: Contents) -> None:
    rng = b.rng
    sofa = add_sofa_group(b, contents)
    opposite = [i for i, e in enumerate(b.shape.edges) if e.facing_rotation == (int(sofa.rotation[1]) + 180) % 360]
    if contents.has("TVStand"):
        width = round(rng.uniform(1.0, 1.6), 2)
        stand_spot = b.wall_spot(width, 0.45, access=0.6, edges=opposite) or b.wall_spot(width, 0.45, access=0.6)
        if stand_spot is None:
            raise BuildFailed("no room for the TV stand")
        height = round(rng.uniform(0.45, 0.6), 2)
        b.add("TVStand", stand_spot.box(0.0, width, 0.0, 0.45, 0.0, height), rotation=stand_spot.rotation)
        if contents.has("Drawer"):
            for u0 in (0.05, width - 0.5):
                b.add(
                    "Drawer",
                    stand_spot.box(u0, u0 + 0.45, 0.0, 0.47, height - 0.2, height - 0.04),
                    rotation=stand_spot.rotation,
                )
        tv_width = round(min(width - 0.1, rng.uniform(0.9, 1.2)), 2)
        u0 = (width - tv_width) / 2
        b.add(
            "Television",
            stand_spot.box(u0, u0 + tv_width, 0.1, 0.3, height, height + round(rng.uniform(0.55, 0.72), 2)),
            rotation=stand_spot.rotation,
        )
    else:
        tv = add_wall_item(
            b, "Television", round(rng.uniform(0.9, 1.3), 2), 1.0, 1.65, thickness=0.08, edges=opposite
        ) or add_wall_item(b, "Television", round(rng.uniform(0.9, 1.3), 2), 1.0, 1.65, thickness=0.08)
        if tv is None:
            raise BuildFailed("no wall for the television")

    armchairs = 1 + contents.has("SecondArmChair") if contents.has("ArmChair") else 0
    for _ in range(armchairs):
        width = round(rng.uniform(0.8, 0.95), 2)
        spot = b.wall_spot(width, 0.85, access=0.6)
        if spot is not None:
            cx, cz = spot.footprint.center
            b.add(
                "ArmChair",
                spot.box(0.0, width, 0.0, 0.85, 0.0, round(rng.uniform(0.8, 0.95), 2)),
                rotation=spot.rotation,
                position=(cx, 0.0, cz),
            )
    if contents.has("Dresser"):
        spot = b.wall_spot(round(rng.uniform(0.9, 1.4), 2), 0.5, access=0.6)
        if spot is not None:
            add_dresser(b, spot, rng.choice([1, 2]), rng.choice([3, 4]))
    if contents.has("Shelf"):
        add_shelves_by_a_wall(b, rng)
    if contents.has("Cabinet"):
        add_cabinet_pair_by_a_wall(b)
    if contents.has("Desk"):
        spot = b.wall_spot(round(rng.uniform(1.0, 1.4), 2), 0.6, access=0.8)
        if spot is not None:
            b.add("Desk", spot.box(0.0, spot.width, 0.0, 0.6, 0.0, 0.76), rotation=spot.rotation)
    if contents.has("DiningTable"):
        rect = add_table_somewhere(
            b,
            "DiningTable",
            round(rng.uniform(1.0, 1.6), 2),
            round(rng.uniform(0.75, 1.0), 2),
            round(rng.uniform(0.72, 0.8), 2),
            clearance=0.6,
        )
        if rect is not None and contents.has("Chair"):
            add_chairs_around(b, rect, rng.randint(2, 4))
    if contents.has("Chair") and not any(o.object_type == "Chair" for o in b.objects):
        add_floor_standing(b, "Chair", 0.45, 0.5, 0.9, access=0.5)
    if contents.has("Ottoman"):
        rect = b.free_spot(round(rng.uniform(0.6, 0.85), 2), round(rng.uniform(0.45, 0.55), 2), clearance=0.5)
        if rect is not None:
            b.claim(rect)
            b.add("Ottoman", rect.box(0.0, round(rng.uniform(0.38, 0.45), 2)))
    if contents.has("Safe"):
        add_floor_standing(b, "Safe", 0.4, 0.45, 0.4, access=0.6)
    if add_floor_lamp(b) is None:
        raise BuildFailed("no corner for the floor lamp")
    if contents.has("Lamp"):
        add_floor_lamp(b, "Lamp")
    if contents.has("DeskLamp"):
        if place_decor(b, "DeskLamp", ("SideTable", "Dresser", "Desk")) is None:
            spot = b.wall_spot(0.5, 0.42)
            if spot is not None:
                add_side_table(b, spot, with_drawer=contents.has("Drawer"))
                place_decor(b, "DeskLamp", ("SideTable",))
    if contents.has("Drawer") and not any(o.object_type == "Drawer" for o in b.objects):
        spot = b.wall_spot(0.5, 0.42)
        if spot is not None:
            add_side_table(b, spot, with_drawer=True)
    add_floor_standing(b, "HousePlant", 0.4, 0.4, round(rng.uniform(0.6, 1.1), 2), access=0.4, corner=True)
    if add_garbage_can(b) is None:
        raise BuildFailed("no room for the garbage can")
    if contents.has("Window"):
        add_window(b, blinds=contents.has("Blinds"), curtains=contents.has("Curtains"), sill=0.8)
    add_wall_item(b, "Painting", round(rng.uniform(0.6, 1.0), 2), 1.3, 1.9)
    if contents.has("Mirror"):
        add_wall_item(b, "Mirror", 0.6, 1.0, 1.9)
    add_light_switch(b)


def add_sofa_group(b: RoomBuilder, contents: Contents) -> SceneObject:
    """The sofa against a wall, the coffee table in front of it and side tables at its ends."""
    rng = b.rng
    width = round(rng.uniform(1.7, 2.4), 2)
    depth = round(rng.uniform(0.85, 0.95), 2)
    spot = b.wall_spot(width, depth, access=0.0)
    if spot is None:
        raise BuildFailed("no wall for the sofa")
    cx, cz = spot.footprint.center
    sofa = b.add(
        "Sofa",
        spot.box(0.0, width, 0.0, depth, 0.0, round(rng.uniform(0.85, 0.95), 2)),
        rotation=spot.rotation,
        position=(cx, 0.0, cz),
    )
    front = depth + 0.55
    if contents.has("CoffeeTable"):
        table_width = round(min(width - 0.3, rng.uniform(0.9, 1.3)), 2)
        table_depth = round(rng.uniform(0.5, 0.7), 2)
        gap = round(rng.uniform(0.4, 0.55), 2)
        u0 = round((width - table_width) / 2, 2)
        rect = spot.rect(u0, u0 + table_width, depth + gap, depth + gap + table_depth)
        if b.fits(rect) and b.shape.contains(rect.grown(0.55)):
            b.claim(rect)
            add_table(b, "CoffeeTable", rect, round(rng.uniform(0.4, 0.48), 2))
            front = depth + gap + table_depth + 0.55
    b.keep_free.append(spot.rect(0.0, width, depth, min(front, depth + 2.0)))
    if contents.has("SideTable"):
        for u0 in [-0.55, width + 0.05] if rng.random() < 0.5 else [width + 0.05, -0.55]:
            side = WallSpot(spot.edge, spot.a0 + u0, 0.5, 0.45)
            strip = side.rect(0.0, 0.5, 0.45, 0.9)
            if b.fits(side.footprint, strip):
                b.claim(side.footprint, strip)
                add_side_table(b, side, with_drawer=contents.has("Drawer"))
    return sofa
