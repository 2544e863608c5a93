"""Small hand-built scenes for testing the simulator, and a Scene built from a real ALFRED layout.

- :func:`kitchen`: counter top with sink basin + faucet, stove burner, cabinet, drawer,
  microwave, fridge, dining table, garbage can; apple, potato, mug, knife, butter knife, bread,
  lettuce, egg, plate, tomato, bowl, pan, cup.
- :func:`bedroom`: desk with a desk lamp, book, cell phone; bed with a pillow; dresser with a
  drawer, a box and an alarm clock; a safe with a credit card; a floor lamp; a basketball on the
  floor.
- :func:`divided_room`: two halves split by a wall with a doorway, a side table with an object in
  each half (for occlusion tests).

The fixture scenes are named ``LiteFixture*`` so they cannot be mistaken for THOR FloorPlans.
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.domains import catalogue
from alfred_gen.sim.scene import GRID_SIZE, Box, Pose, Scene, SceneObject, format_object_id

WALL_HEIGHT = 2.8
WALL_THICKNESS = 0.1


def box(x0: float, x1: float, y0: float, y1: float, z0: float, z1: float) -> Box:
    """A box from its x, y and z extents."""
    return Box((x0, y0, z0), (x1, y1, z1))


def _on(kind: str, x: float, z: float, surface_y: float, parent: SceneObject | None = None,
        name: str = "") -> SceneObject:
    """A catalogue-sized object standing at (x, z) on a surface at height ``surface_y``."""
    sx, sy, sz = catalogue.object_type(kind).size
    center = (x, surface_y + sy / 2, z)
    return SceneObject(kind, center, Box.from_center(center, (sx, sy, sz)), name=name,
                       parent=parent.object_id if parent else None)


def _furniture(kind: str, b: Box, floor_origin: bool = True, object_id: str = "") -> SceneObject:
    """Furniture: THOR puts the origin of floor-standing furniture at the bottom centre."""
    cx, cy, cz = b.center
    position = (cx, b.lo[1], cz) if floor_origin else (cx, cy, cz)
    return SceneObject(kind, position, b, object_id=object_id)


def room_walls(x0: float, x1: float, z0: float, z1: float) -> list[Box]:
    """Four thin walls just outside the rectangle [x0, x1] x [z0, z1]."""
    t, h = WALL_THICKNESS, WALL_HEIGHT
    return [
        box(x0 - t, x1 + t, 0, h, z1, z1 + t),
        box(x0 - t, x1 + t, 0, h, z0 - t, z0),
        box(x1, x1 + t, 0, h, z0, z1),
        box(x0 - t, x0, 0, h, z0, z1),
    ]


def reachable_grid(x0: float, x1: float, z0: float, z1: float, obstacles: Iterable[Box],
                   radius: float = 0.2) -> tuple[tuple[float, float], ...]:
    """Grid points inside the rectangle whose agent footprint clears every obstacle's footprint."""
    obstacles = [b for b in obstacles if b.lo[1] < 1.5]
    points = []
    i0, i1 = int(round(x0 / GRID_SIZE)), int(round(x1 / GRID_SIZE))
    j0, j1 = int(round(z0 / GRID_SIZE)), int(round(z1 / GRID_SIZE))
    for i in range(i0, i1 + 1):
        for j in range(j0, j1 + 1):
            x, z = i * GRID_SIZE, j * GRID_SIZE
            if x - radius < x0 or x + radius > x1 or z - radius < z0 or z + radius > z1:
                continue
            if any(b.lo[0] - radius < x < b.hi[0] + radius and b.lo[2] - radius < z < b.hi[2] + radius
                   for b in obstacles):
                continue
            points.append((x, z))
    return tuple(points)


def _obstacles(objects: list[SceneObject]) -> list[Box]:
    return [
        o.box for o in objects
        if not catalogue.object_type(o.object_type).pickupable and o.box.lo[1] < 0.3
    ]


def kitchen() -> Scene:
    """A 5 m x 5 m kitchen; the counter runs along the north (+z) wall, the fridge on the east."""
    counter = _furniture("CounterTop", box(-2.4, 1.0, 0.0, 0.9, 1.9, 2.5))
    sink = _furniture("Sink", box(-0.8, -0.2, 0.72, 0.92, 1.95, 2.45), floor_origin=False)
    basin = _furniture("SinkBasin", box(-0.75, -0.25, 0.72, 0.9, 2.0, 2.4), floor_origin=False,
                       object_id=format_object_id("Sink", sink.position) + "|SinkBasin")
    faucet = _furniture("Faucet", box(-0.6, -0.4, 0.92, 1.15, 2.4, 2.5), floor_origin=False)
    burner = _furniture("StoveBurner", box(0.3, 0.55, 0.9, 0.93, 2.05, 2.3), floor_origin=False)
    cabinet = _furniture("Cabinet", box(-2.3, -1.7, 0.1, 0.8, 1.95, 2.45), floor_origin=False)
    drawer = _furniture("Drawer", box(-1.5, -1.0, 0.6, 0.8, 1.95, 2.45), floor_origin=False)
    microwave = _furniture("Microwave", box(-2.3, -1.7, 0.9, 1.25, 2.0, 2.45))
    microwave.parent = counter.object_id
    fridge = _furniture("Fridge", box(1.8, 2.5, 0.0, 1.84, 0.5, 1.5))
    table = _furniture("DiningTable", box(-0.6, 0.6, 0.0, 0.75, -1.0, -0.2))
    garbage = _furniture("GarbageCan", box(2.0, 2.4, 0.0, 0.56, -2.4, -2.0))
    top, table_top = 0.9, 0.75
    objects = [
        counter, sink, basin, faucet, burner, cabinet, drawer, microwave, fridge, table, garbage,
        _on("Apple", -1.2, 2.1, top, counter, "Apple_0a1b2c3d"),
        _on("Mug", 0.0, 2.1, top, counter, "Mug_1a2b3c4d"),
        _on("Bread", 0.8, 2.1, top, counter, "Bread_2a3b4c5d"),
        _on("Pan", 0.43, 2.18, 0.93, burner, "Pan_3a4b5c6d"),
        _on("Potato", 0.2, -0.6, table_top, table, "Potato_4a5b6c7d"),
        _on("Knife", -0.3, -0.5, table_top, table, "Knife_5a6b7c8d"),
        _on("Plate", -0.1, -0.8, table_top, table, "Plate_6a7b8c9d"),
        _on("Tomato", 0.45, -0.35, table_top, table, "Tomato_7a8b9c0d"),
        _on("Lettuce", 2.15, 0.8, 0.02, fridge, "Lettuce_8a9b0c1d"),
        _on("Egg", 2.15, 1.2, 0.02, fridge, "Egg_9a0b1c2d"),
        _on("ButterKnife", -1.25, 2.2, 0.62, drawer, "ButterKnife_0b1c2d3e"),
        _on("Bowl", -2.0, 2.2, 0.12, cabinet, "Bowl_1b2c3d4e"),
        _on("Cup", -0.5, 2.2, 0.74, basin, "Cup_2b3c4d5e"),
    ]
    bounds = (-2.5, 2.5, -2.5, 2.5)
    return Scene(
        name="LiteFixtureKitchen",
        scene_num=1,
        room_type="kitchen",
        walls=tuple(room_walls(*bounds)),
        reachable=reachable_grid(*bounds, _obstacles(objects)),
        objects=objects,
        interaction_poses={
            counter.object_id: Pose(0.0, 1.5, 0, 30),
            basin.object_id: Pose(-0.5, 1.5, 0, 30),
            fridge.object_id: Pose(1.25, 1.0, 90, 0),
            microwave.object_id: Pose(-2.0, 1.5, 0, 0),
            cabinet.object_id: Pose(-2.0, 1.5, 0, 45),
            drawer.object_id: Pose(-1.25, 1.5, 0, 45),
            burner.object_id: Pose(0.5, 1.5, 0, 30),
            table.object_id: Pose(0.0, 0.25, 180, 30),
            garbage.object_id: Pose(2.0, -1.5, 180, 30),
        },
        start=Pose(0.0, 0.5, 0, 30),
    )


def bedroom() -> Scene:
    """A 4 m x 4 m bedroom: desk with a lamp on the north wall, bed east, dresser west."""
    desk = _furniture("Desk", box(-1.0, 0.4, 0.0, 0.75, 1.4, 2.0))
    bed = _furniture("Bed", box(0.8, 2.0, 0.0, 0.6, -1.0, 1.2))
    dresser = _furniture("Dresser", box(-2.0, -1.4, 0.0, 0.97, -0.6, 0.6))
    drawer = _furniture("Drawer", box(-1.95, -1.45, 0.5, 0.7, -0.5, 0.5), floor_origin=False)
    safe = _furniture("Safe", box(1.5, 1.9, 0.0, 0.4, -1.9, -1.5))
    floor_lamp = _furniture("FloorLamp", box(1.5, 1.95, 0.0, 1.87, 1.5, 1.95))
    objects = [
        desk, bed, dresser, drawer, safe, floor_lamp,
        _on("DeskLamp", -0.75, 1.8, 0.75, desk, "DeskLamp_0c1d2e3f"),
        _on("Book", -0.3, 1.6, 0.75, desk, "Book_1c2d3e4f"),
        _on("CellPhone", 0.1, 1.6, 0.75, desk, "CellPhone_2c3d4e5f"),
        _on("Pillow", 1.4, 0.9, 0.6, bed, "Pillow_3c4d5e6f"),
        _on("Box", -1.7, -0.3, 0.97, dresser, "Box_4c5d6e7f"),
        _on("AlarmClock", -1.7, 0.35, 0.97, dresser, "AlarmClock_5c6d7e8f"),
        _on("CreditCard", 1.7, -1.7, 0.02, safe, "CreditCard_6c7d8e9f"),
        _on("KeyChain", -1.7, 0.0, 0.52, drawer, "KeyChain_7c8d9e0f"),
        _on("BasketBall", -0.5, -1.5, 0.0, None, "BasketBall_8c9d0e1f"),
    ]
    bounds = (-2.0, 2.0, -2.0, 2.0)
    return Scene(
        name="LiteFixtureBedroom",
        scene_num=301,
        room_type="bedroom",
        walls=tuple(room_walls(*bounds)),
        reachable=reachable_grid(*bounds, _obstacles(objects)),
        objects=objects,
        interaction_poses={
            desk.object_id: Pose(-0.25, 1.0, 0, 30),
            bed.object_id: Pose(0.25, 0.0, 90, 30),
            dresser.object_id: Pose(-1.0, 0.0, 270, 30),
            safe.object_id: Pose(1.0, -1.5, 90, 45),
        },
        start=Pose(0.0, 0.0, 0, 0),
    )


def divided_room() -> Scene:
    """Two 3 m x 3 m halves split by a wall at x = 0, open only through a doorway at z > 0.5."""
    west_table = _furniture("SideTable", box(-1.0, -0.5, 0.0, 0.66, -1.4, -1.0))
    east_table = _furniture("SideTable", box(0.5, 1.0, 0.0, 0.66, -1.4, -1.0))
    objects = [
        west_table, east_table,
        _on("Statue", -0.75, -1.2, 0.66, west_table, "Statue_0d1e2f3a"),
        _on("Vase", 0.75, -1.2, 0.66, east_table, "Vase_1d2e3f4a"),
    ]
    bounds = (-3.0, 3.0, -1.5, 1.5)
    divider = box(-0.05, 0.05, 0.0, WALL_HEIGHT, -1.5, 0.5)
    return Scene(
        name="LiteFixtureDividedRoom",
        scene_num=201,
        room_type="living_room",
        walls=tuple(room_walls(*bounds) + [divider]),
        reachable=reachable_grid(*bounds, _obstacles(objects) + [divider]),
        objects=objects,
        interaction_poses={
            west_table.object_id: Pose(-0.75, -0.5, 180, 30),
            east_table.object_id: Pose(0.75, -0.5, 180, 30),
        },
        start=Pose(-0.5, -0.5, 90, 30),
    )


FIXTURES = {"LiteFixtureKitchen": kitchen, "LiteFixtureBedroom": bedroom, "LiteFixtureDividedRoom": divided_room}


def fixture_scene(name: str) -> Scene:
    """A fixture by name (usable as a controller's ``scene_resolver``); KeyError if unknown."""
    return FIXTURES[name]()
