"""Furnishing a room shell: a builder that places furniture against walls or free-standing, and the
furniture pieces every room type shares (shelving units, dressers, side tables, garbage cans, decor).

Each piece is built in its wall's local frame: ``along`` the wall (metres from the spot's start),
``inward`` from the wall face into the room, and ``y`` up. The builder keeps three kinds of floor
rectangles: ``blocked`` (footprints; they stop the agent and later furniture), ``keep_free`` (the
doorway and the strip in front of each piece, so every piece can be walked up to), and the floor
itself from the room shape.

Every object's box is its whole extent (THOR's bounds; the renderer draws the type's shape in it)
and its rotation's yaw is the direction its front faces. Where things may rest on a receptacle
follows from type, box and facing (:mod:`alfred_gen.scenes.procedural.surfaces`). ``parts`` are used only for
pieces of furniture that are no THOR object (the frame of a shelving unit): drawn and blocking.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from alfred_gen.scenes.procedural.rooms import Rect, RoomShape, WallEdge
from alfred_gen.sim.scene import Box, SceneObject, format_object_id

#: Floor strip in front of a wall piece kept free so the agent can walk up to it.
DEFAULT_ACCESS = 0.55

#: Granularity of positions along walls.
STEP = 0.05


@dataclass(frozen=True)
class WallSpot:
    """A stretch of wall chosen for a piece: ``edge`` from ``a0`` to ``a0 + width``, ``depth`` deep."""

    edge: WallEdge
    a0: float
    width: float
    depth: float

    @property
    def rotation(self) -> int:
        return self.edge.facing_rotation

    @property
    def footprint(self) -> Rect:
        return self.edge.footprint(self.a0, self.a0 + self.width, 0.0, self.depth)

    def rect(self, u0: float, u1: float, v0: float, v1: float) -> Rect:
        """Floor rectangle from ``u0`` to ``u1`` along the spot and ``v0`` to ``v1`` inward."""
        return self.edge.footprint(self.a0 + u0, self.a0 + u1, v0, v1)

    def box(self, u0: float, u1: float, v0: float, v1: float, y0: float, y1: float) -> Box:
        """A box in the spot's local frame (see the module docstring)."""
        return self.rect(u0, u1, v0, v1).box(y0, y1)

    def along_x(self) -> bool:
        """Whether this wall runs along x (so a piece's width is its x size)."""
        return self.edge.normal[0] == 0


class BuildFailed(Exception):
    """This attempt at a room did not work out (something required did not fit); try another."""


def _snap(value: float) -> float:
    return round(round(value / STEP) * STEP, 4)


class RoomBuilder:
    """Collects the objects of one room while keeping pieces apart and reachable."""

    def __init__(self, shape: RoomShape, rng: random.Random) -> None:
        self.shape = shape
        self.rng = rng
        self.objects: list[SceneObject] = []
        self.blocked: list[Rect] = []
        self.keep_free: list[Rect] = list(shape.door_zones())

    # --- free space -------------------------------------------------------------------------

    def fits(self, footprint: Rect, access: Rect | None = None) -> bool:
        """Whether a footprint is on the floor, clear of furniture and of kept-free floor, and its
        access strip (if any) is on the floor and clear of furniture."""
        if not self.shape.contains(footprint):
            return False
        if any(footprint.overlaps(r) for r in self.blocked):
            return False
        if any(footprint.overlaps(r) for r in self.keep_free):
            return False
        if access is not None:
            if not self.shape.contains(access):
                return False
            if any(access.overlaps(r) for r in self.blocked):
                return False
        return True

    def claim(self, footprint: Rect, access: Rect | None = None) -> None:
        self.blocked.append(footprint)
        if access is not None:
            self.keep_free.append(access)

    def wall_spot(
        self,
        width: float,
        depth: float,
        access: float = DEFAULT_ACCESS,
        edges: list[int] | None = None,
        corner: bool | None = None,
    ) -> WallSpot | None:
        """A free stretch of wall for a piece ``width`` wide and ``depth`` deep (claimed), or None.

        Walls (all, or the ``edges`` given) are tried in random order, positions along a wall in
        random order; ``corner=True`` tries the two ends of each wall first. The strip ``access``
        deep in front of the piece must be floor and free of furniture; it is then kept free.
        """
        order = list(edges if edges is not None else range(len(self.shape.edges)))
        self.rng.shuffle(order)
        for index in order:
            edge = self.shape.edges[index]
            span = edge.length - width
            if span < -1e-9:
                continue
            steps = int(span / STEP + 1e-6)
            positions = [round(k * STEP, 4) for k in range(steps + 1)]
            if span - (positions[-1] if positions else 0) > 1e-6:
                positions.append(round(span, 4))
            self.rng.shuffle(positions)
            if corner:
                positions.sort(key=lambda p: min(p, span - p) > 0.01)
            for a0 in positions:
                spot = WallSpot(edge, a0, width, depth)
                strip = spot.rect(0.0, width, depth, depth + access) if access > 0 else None
                if self.fits(spot.footprint, strip):
                    self.claim(spot.footprint, strip)
                    return spot
        return None

    def free_intervals(self, index: int, depth: float, access: float = DEFAULT_ACCESS) -> list[tuple[float, float]]:
        """Maximal stretches along wall ``index`` where a run ``depth`` deep (plus access) fits."""
        edge = self.shape.edges[index]
        slots = int(edge.length / STEP + 1e-6)
        free = []
        for k in range(slots):
            spot = WallSpot(edge, k * STEP, STEP, depth)
            strip = spot.rect(0.0, STEP, depth, depth + access)
            free.append(self.fits(spot.footprint, strip))
        intervals = []
        start = None
        for k, ok in enumerate(free + [False]):
            if ok and start is None:
                start = k
            elif not ok and start is not None:
                intervals.append((round(start * STEP, 4), round(k * STEP, 4)))
                start = None
        return intervals

    def free_spot(self, width: float, depth: float, clearance: float, tries: int = 400) -> Rect | None:
        """A free-standing footprint with ``clearance`` of free floor around it, or None."""
        b = self.shape.bounds
        for _ in range(tries):
            x0 = _snap(self.rng.uniform(b.x0 + clearance, b.x1 - clearance - width))
            z0 = _snap(self.rng.uniform(b.z0 + clearance, b.z1 - clearance - depth))
            rect = Rect(x0, z0, round(x0 + width, 4), round(z0 + depth, 4))
            grown = rect.grown(clearance)
            if self.fits(rect) and self.shape.contains(grown) and not any(grown.overlaps(r) for r in self.blocked):
                return rect
        return None

    # --- objects ----------------------------------------------------------------------------

    def add(
        self,
        object_type: str,
        box: Box,
        *,
        rotation: float | tuple[float, float, float] = 0.0,
        parts: tuple[Box, ...] = (),
        position: tuple[float, float, float] | None = None,
        object_id: str | None = None,
        parent: str | None = None,
    ) -> SceneObject:
        """Add an object. Its id position defaults to the box centre (bottom centre for things
        standing on the floor, as THOR's furniture origins are), made unique within the room.
        ``rotation`` is the yaw its front faces, or a full (x, y, z) rotation."""
        if position is None:
            cx, cy, cz = box.center
            position = (cx, box.lo[1] if box.lo[1] <= 0.001 else cy, cz)
        x, y, z = (round(c, 4) + 0.0 for c in position)
        position = (x, y, z)
        if object_id is None:
            position = self._unique_position(object_type, position)
            object_id = format_object_id(object_type, position)
        obj = SceneObject(
            object_type=object_type,
            position=position,
            box=box,
            object_id=object_id,
            parent=parent,
            rotation=rotation if isinstance(rotation, tuple) else (0.0, float(rotation % 360), 0.0),
            parts=tuple(parts),
        )
        self.objects.append(obj)
        return obj

    def _unique_position(self, object_type: str, position: tuple[float, float, float]) -> tuple[float, float, float]:
        """The position, moved by whole centimetres along x if another object of the type already
        has the id it would give (ids keep two decimals)."""
        taken = {o.object_id for o in self.objects}
        x, y, z = position
        nudge = 0
        while format_object_id(object_type, (round(x + 0.01 * nudge, 4), y, z)) in taken:
            nudge += 1
        return (round(x + 0.01 * nudge, 4) + 0.0, y, z)


# --- pieces shared by several room types -----------------------------------------------------------


def add_drawer_stack(
    builder: RoomBuilder, spot: WallSpot, u0: float, u1: float, front: float, y0: float, y1: float, count: int
) -> list[SceneObject]:
    """``count`` drawers stacked between y0 and y1, their fronts at ``front`` metres from the wall.

    A drawer slides out when opened (the renderer draws it so), so it may sit inside a body.
    """
    drawers = []
    height = (y1 - y0) / count
    depth = min(0.5, front - 0.05)
    for k in range(count):
        bottom, top = y0 + k * height + 0.005, y0 + (k + 1) * height - 0.005
        box = spot.box(u0 + 0.01, u1 - 0.01, front - depth, front, bottom, top)
        drawers.append(builder.add("Drawer", box, rotation=spot.rotation))
    return drawers


def add_cabinet(
    builder: RoomBuilder, spot: WallSpot, u0: float, u1: float, v0: float, v1: float, y0: float, y1: float
) -> SceneObject:
    """A cabinet (a hollow shell with a door at the front) filling the given local box."""
    return builder.add("Cabinet", spot.box(u0 + 0.005, u1 - 0.005, v0, v1, y0, y1), rotation=spot.rotation)


def add_cabinet_pair_by_a_wall(builder: RoomBuilder) -> None:
    """Two waist-high cabinets side by side against a free stretch of wall (living and dining
    rooms), if one is left."""
    spot = builder.wall_spot(1.0, 0.45, access=0.7)
    if spot is not None:
        add_cabinet(builder, spot, 0.0, 0.5, 0.0, 0.45, 0.0, 0.9)
        add_cabinet(builder, spot, 0.5, 1.0, 0.0, 0.45, 0.0, 0.9)


def add_shelves_by_a_wall(builder: RoomBuilder, rng: random.Random) -> None:
    """A shelving unit of 3-4 boards against a free stretch of wall, if one is left."""
    spot = builder.wall_spot(round(rng.uniform(0.7, 1.1), 2), 0.38, access=0.6)
    if spot is not None:
        add_shelving_unit(builder, spot, rng.randint(3, 4), round(rng.uniform(1.2, 1.8), 2))


def add_shelving_unit(builder: RoomBuilder, spot: WallSpot, boards: int, height: float) -> list[SceneObject]:
    """A free-standing shelving unit: its frame (no THOR object) as parts, ``boards`` Shelf receptacles."""
    w, d = spot.width, spot.depth
    frame = (
        spot.box(0.0, 0.03, 0.0, d, 0.0, height),
        spot.box(w - 0.03, w, 0.0, d, 0.0, height),
        spot.box(0.03, w - 0.03, 0.0, 0.02, 0.0, height),
        spot.box(0.03, w - 0.03, 0.02, d, height - 0.03, height),
    )
    shelves = []
    bottom = 0.3 if boards > 1 else 0.5
    gap = (height - bottom - 0.05) / boards
    for k in range(boards):
        y0 = bottom + k * gap
        board = spot.box(0.03, w - 0.03, 0.02, d, y0, y0 + 0.025)
        shelves.append(builder.add("Shelf", board, rotation=spot.rotation, parts=frame if k == 0 else ()))
    return shelves


def add_wall_shelves(
    builder: RoomBuilder, spot: WallSpot, heights: list[float], depth: float = 0.3
) -> list[SceneObject]:
    """Boards fixed to the wall at the given heights (they stand on no floor)."""
    return [
        builder.add("Shelf", spot.box(0.0, spot.width, 0.0, depth, y0, y0 + 0.03), rotation=spot.rotation)
        for y0 in sorted(heights)
    ]


def add_table(builder: RoomBuilder, object_type: str, rect: Rect, height: float, facing: float = 0.0) -> SceneObject:
    """A free-standing table (its box is the whole table; the renderer draws top and legs)."""
    return builder.add(object_type, rect.box(0.0, height), rotation=facing)


def add_table_somewhere(
    builder: RoomBuilder, object_type: str, width: float, depth: float, height: float, clearance: float = 0.55
) -> Rect | None:
    """A table standing free in the room if there is space around it, else pushed against a wall;
    returns its footprint (None if it fits nowhere)."""
    if builder.rng.random() < 0.5:
        width, depth = depth, width
    rect = builder.free_spot(width, depth, clearance)
    if rect is not None:
        builder.claim(rect)
        add_table(builder, object_type, rect, height)
        return rect
    spot = builder.wall_spot(max(width, depth), min(width, depth), access=clearance + 0.1)
    if spot is None:
        return None
    add_table(builder, object_type, spot.footprint, height, facing=spot.rotation)
    return spot.footprint


def add_chairs_around(builder: RoomBuilder, table: Rect, count: int, object_type: str = "Chair") -> list[SceneObject]:
    """Up to ``count`` chairs pulled up to a table's sides, each facing it; skipped where they do not fit."""
    chairs: list[SceneObject] = []
    w, d = 0.45, 0.45
    cx, cz = table.center
    sides = [
        (Rect(cx - w / 2, table.z1 + 0.02, cx + w / 2, table.z1 + 0.02 + d), 180),
        (Rect(cx - w / 2, table.z0 - 0.02 - d, cx + w / 2, table.z0 - 0.02), 0),
        (Rect(table.x1 + 0.02, cz - w / 2, table.x1 + 0.02 + d, cz + w / 2), 270),
        (Rect(table.x0 - 0.02 - d, cz - w / 2, table.x0 - 0.02, cz + w / 2), 90),
    ]
    if table.width > 1.2:  # two chairs on each long side
        offset = table.width / 4
        sides = [
            (Rect(cx - offset - w / 2, table.z1 + 0.02, cx - offset + w / 2, table.z1 + 0.02 + d), 180),
            (Rect(cx + offset - w / 2, table.z0 - 0.02 - d, cx + offset + w / 2, table.z0 - 0.02), 0),
            (Rect(cx + offset - w / 2, table.z1 + 0.02, cx + offset + w / 2, table.z1 + 0.02 + d), 180),
            (Rect(cx - offset - w / 2, table.z0 - 0.02 - d, cx - offset + w / 2, table.z0 - 0.02), 0),
        ] + sides[2:]
    for rect, facing in sides:
        if len(chairs) >= count:
            break
        # Keep room to walk past the chair to the wall behind it.
        if builder.shape.contains(rect.grown(0.45)) and not any(rect.overlaps(r) for r in builder.blocked):
            builder.blocked.append(rect)
            height = round(builder.rng.uniform(0.85, 0.95), 2)
            chairs.append(builder.add(object_type, rect.box(0.0, height), rotation=facing))
    return chairs


def add_side_table(builder: RoomBuilder, spot: WallSpot, with_drawer: bool) -> SceneObject:
    """A small table against a wall, optionally with one drawer under its top."""
    height = round(builder.rng.uniform(0.55, 0.7), 2)
    table = builder.add("SideTable", spot.box(0.0, spot.width, 0.0, spot.depth, 0.0, height), rotation=spot.rotation)
    if with_drawer:
        add_drawer_stack(builder, spot, 0.06, spot.width - 0.06, spot.depth + 0.01, height - 0.17, height - 0.05, 1)
    return table


def add_dresser(builder: RoomBuilder, spot: WallSpot, columns: int, rows: int) -> SceneObject:
    """A dresser: its body (top = surface) with columns x rows drawers on its front, 2 cm proud."""
    height = round(builder.rng.uniform(0.75, 1.0), 2)
    body = spot.box(0.0, spot.width, 0.0, spot.depth - 0.02, 0.0, height)
    dresser = builder.add("Dresser", body, rotation=spot.rotation)
    col_width = (spot.width - 0.04) / columns
    for c in range(columns):
        add_drawer_stack(
            builder, spot, 0.02 + c * col_width, 0.02 + (c + 1) * col_width, spot.depth, 0.08, height - 0.04, rows
        )
    return dresser


def add_laundry_hamper(builder: RoomBuilder) -> None:
    """A laundry hamper and its lid against a wall, where one has room (bedrooms and garages)."""
    spot = builder.wall_spot(0.5, 0.45, access=0.5)
    if spot is not None:
        builder.add("LaundryHamper", spot.box(0.02, 0.48, 0.05, 0.43, 0.0, 0.6), rotation=spot.rotation)
        builder.add("LaundryHamperLid", spot.box(0.02, 0.48, 0.0, 0.04, 0.0, 0.4), rotation=spot.rotation)


def add_garbage_can(builder: RoomBuilder) -> SceneObject | None:
    size = round(builder.rng.uniform(0.3, 0.4), 2)
    spot = builder.wall_spot(size, size, access=0.45, corner=builder.rng.random() < 0.5)
    if spot is None:
        return None
    box = spot.box(0.02, size - 0.02, 0.02, size - 0.02, 0.0, round(builder.rng.uniform(0.4, 0.6), 2))
    return builder.add("GarbageCan", box, rotation=spot.rotation)


def add_floor_lamp(builder: RoomBuilder, object_type: str = "FloorLamp") -> SceneObject | None:
    """A standing lamp in a free corner (or along a wall)."""
    spot = builder.wall_spot(0.45, 0.45, access=0.5, corner=True)
    if spot is None:
        return None
    height = round(builder.rng.uniform(1.5, 1.8), 2)
    box = spot.box(0.03, 0.42, 0.03, 0.42, 0.0, height)
    return builder.add(object_type, box, rotation=spot.rotation)


def add_wall_item(
    builder: RoomBuilder,
    object_type: str,
    width: float,
    y0: float,
    y1: float,
    thickness: float = 0.03,
    edges: list[int] | None = None,
) -> SceneObject | None:
    """Something flat on a wall (window, painting, mirror) where nothing taller than ``y0`` stands."""
    order = list(edges if edges is not None else range(len(builder.shape.edges)))
    builder.rng.shuffle(order)
    for index in order:
        edge = builder.shape.edges[index]
        if edge.length < width + 0.3:
            continue
        for _ in range(12):
            a0 = _snap(builder.rng.uniform(0.15, edge.length - width - 0.15))
            spot = WallSpot(edge, a0, width, thickness)
            if builder.shape.door_overlaps(index, a0, a0 + width):
                continue
            if wall_stretch_clear(builder, spot, y0, y1):
                return builder.add(object_type, spot.box(0.0, width, 0.0, thickness, y0, y1), rotation=spot.rotation)
    return None


def wall_stretch_clear(builder: RoomBuilder, spot: WallSpot, y0: float, y1: float, reach: float = 0.8) -> bool:
    """Whether nothing reaching above ``y0`` stands within ``reach`` of this stretch of wall,
    and no other wall-mounted thing overlaps its height band there."""
    strip = spot.rect(0.0, spot.width, 0.0, reach)
    for obj in builder.objects:
        boxes = (obj.box, *obj.parts)
        for box in boxes:
            foot = Rect(box.lo[0], box.lo[2], box.hi[0], box.hi[2])
            if strip.overlaps(foot) and box.hi[1] > y0 - 0.05 and box.lo[1] < y1 + 0.05:
                return False
    return True


def add_window(
    builder: RoomBuilder, blinds: bool = False, curtains: bool = False, sill: float = 0.95
) -> SceneObject | None:
    """A window (with blinds at its top or curtains at its sides) on a wall with nothing tall before it."""
    width = _snap(builder.rng.uniform(0.8, 1.4))
    top = min(2.2, builder.shape.height - 0.2)
    edges = list(builder.shape.window_edges) if builder.shape.window_edges is not None else None
    window = add_wall_item(builder, "Window", width, sill, top, thickness=0.04, edges=edges)
    if window is None:
        return None
    rotation = window.rotation[1]
    edge = edge_behind(builder, window.box, rotation)
    assert edge is not None, "a wall item stands against its wall"
    along0 = along_of(edge, window.box)
    spot = WallSpot(edge, along0, width, 0.04)
    if blinds:
        builder.add("Blinds", spot.box(-0.03, width + 0.03, 0.04, 0.08, top - 0.22, top), rotation=rotation)
    if curtains:  # a curtain on each side of the window where the wall is clear
        for u0, u1 in ((-0.3, -0.02), (width + 0.02, width + 0.3)):
            side = WallSpot(edge, along0 + u0, u1 - u0, 0.1)
            if builder.shape.contains(side.footprint) and wall_stretch_clear(builder, side, sill - 0.4, top):
                builder.add("Curtains", spot.box(u0, u1, 0.04, 0.12, sill - 0.4, top + 0.05), rotation=rotation)
    return window


def backs_onto(edge: WallEdge, box: Box) -> bool:
    """Whether a box's back face lies on this wall edge's line (within the edge's extent)."""
    (sx, sz), (ex, ez) = edge.start, edge.end
    if edge.normal[0] == 0:  # edge along x at z = sz
        face = box.lo[2] if edge.normal[1] > 0 else box.hi[2]
        return abs(face - sz) < 1e-6 and min(sx, ex) - 1e-6 <= box.lo[0] and box.hi[0] <= max(sx, ex) + 1e-6
    face = box.lo[0] if edge.normal[0] > 0 else box.hi[0]
    return abs(face - sx) < 1e-6 and min(sz, ez) - 1e-6 <= box.lo[2] and box.hi[2] <= max(sz, ez) + 1e-6


def along_of(edge: WallEdge, box: Box) -> float:
    """Where (metres from the edge start) the stretch of wall behind a box begins."""
    dx, dz = edge.direction
    if dx:
        return (box.lo[0] - edge.start[0]) if dx > 0 else (edge.start[0] - box.hi[0])
    return (box.lo[2] - edge.start[1]) if dz > 0 else (edge.start[1] - box.hi[2])


def edge_behind(builder: RoomBuilder, box: Box, rotation: float) -> WallEdge | None:
    """The wall edge a piece facing ``rotation`` stands against, if any."""
    for edge in builder.shape.edges:
        if edge.facing_rotation == int(rotation) % 360 and backs_onto(edge, box):
            return edge
    return None


def overlaps3(a: Box, b: Box, eps: float = 1e-4) -> bool:
    """Whether two boxes' interiors overlap (touching faces do not count), with the furnishing
    passes' default slack (:meth:`Box.overlaps`)."""
    return a.overlaps(b, eps)


def add_light_switch(builder: RoomBuilder) -> SceneObject | None:
    """A light switch beside the door, at THOR's usual height."""
    door = builder.shape.door
    edge = builder.shape.edges[door.edge]
    for along in (door.along + door.width / 2 + 0.2, door.along - door.width / 2 - 0.28):
        if along < 0.05 or along + 0.08 > edge.length - 0.05:
            continue
        spot = WallSpot(edge, along, 0.08, 0.02)
        if wall_stretch_clear(builder, spot, 1.2, 1.33, reach=0.3):
            return builder.add("LightSwitch", spot.box(0.0, 0.08, 0.0, 0.02, 1.2, 1.33), rotation=spot.rotation)
    return None


def add_floor_standing(
    builder: RoomBuilder,
    object_type: str,
    width: float,
    depth: float,
    height: float,
    access: float = DEFAULT_ACCESS,
    corner: bool | None = None,
) -> SceneObject | None:
    """A simple piece standing against a wall (safe, cabinet, cart, lamp): its box is its footprint."""
    spot = builder.wall_spot(width, depth, access=access, corner=corner)
    if spot is None:
        return None
    cx, cz = spot.footprint.center
    return builder.add(
        object_type, spot.box(0.0, width, 0.0, depth, 0.0, height), rotation=spot.rotation, position=(cx, 0.0, cz)
    )
