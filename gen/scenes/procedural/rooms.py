"""Room shells for the procedural scenes: floor outline (a rectangle or an L), walls and a door.

A room is drawn on the x/z floor plane (y is up, THOR's convention). Its floor is a bounding
rectangle, optionally minus one corner rectangle (an L-shaped room). The outline is a counter-
clockwise polygon, so the left-hand normal of every edge points into the room; furniture is
placed against these edges ("wall runs") by :mod:`alfred_gen.scenes.procedural.furnish`.

Walls are boxes standing outside the floor, so the floor area is exactly the room's free area and
the reachable grid never needs to know about wall thickness.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from alfred_gen.sim.scene import Box

#: Thickness of the wall boxes, standing outside the floor outline.
WALL_THICKNESS = 0.15

#: Clear width and height of the doorway.
DOOR_WIDTH = 0.9
DOOR_HEIGHT = 2.1

#: How deep in front of the door furniture must stay away (so the way in is free).
DOOR_CLEARANCE = 1.0


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle on the floor plane: x in [x0, x1], z in [z0, z1]."""

    x0: float
    z0: float
    x1: float
    z1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def depth(self) -> float:
        return self.z1 - self.z0

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.z0 + self.z1) / 2)

    @property
    def area(self) -> float:
        return self.width * self.depth

    def overlaps(self, other: Rect, margin: float = 0.0) -> bool:
        """Whether the interiors overlap (touching edges do not count); ``margin`` grows self."""
        return (
            self.x0 - margin < other.x1 - 1e-9
            and other.x0 < self.x1 + margin - 1e-9
            and self.z0 - margin < other.z1 - 1e-9
            and other.z0 < self.z1 + margin - 1e-9
        )

    def contains(self, other: Rect) -> bool:
        return (
            other.x0 >= self.x0 - 1e-9
            and other.x1 <= self.x1 + 1e-9
            and other.z0 >= self.z0 - 1e-9
            and other.z1 <= self.z1 + 1e-9
        )

    def grown(self, margin: float) -> Rect:
        return Rect(self.x0 - margin, self.z0 - margin, self.x1 + margin, self.z1 + margin)

    def box(self, y0: float, y1: float) -> Box:
        """The 3-D box over this rectangle between heights y0 and y1."""
        return Box((self.x0, y0, self.z0), (self.x1, y1, self.z1))


@dataclass(frozen=True)
class WallEdge:
    """One straight piece of the floor outline, walked counter-clockwise.

    ``normal`` is the unit vector (nx, nz) pointing into the room. Positions along the edge are
    measured from ``start`` (0) to ``end`` (``length``).
    """

    start: tuple[float, float]
    end: tuple[float, float]
    normal: tuple[int, int]

    @property
    def length(self) -> float:
        return abs(self.end[0] - self.start[0]) + abs(self.end[1] - self.start[1])

    @cached_property
    def direction(self) -> tuple[int, int]:
        dx = self.end[0] - self.start[0]
        dz = self.end[1] - self.start[1]
        return (int((dx > 0) - (dx < 0)), int((dz > 0) - (dz < 0)))

    def point(self, along: float, inward: float = 0.0) -> tuple[float, float]:
        """The floor point ``along`` metres from the start and ``inward`` metres into the room."""
        dx, dz = self.direction
        nx, nz = self.normal
        return (self.start[0] + dx * along + nx * inward, self.start[1] + dz * along + nz * inward)

    def footprint(self, along0: float, along1: float, inward0: float, inward1: float) -> Rect:
        """The rectangle spanning [along0, along1] along the edge and [inward0, inward1] into the room."""
        dx, dz = self.direction
        nx, nz = self.normal
        sx, sz = self.start
        ax, az = sx + dx * along0 + nx * inward0, sz + dz * along0 + nz * inward0
        bx, bz = sx + dx * along1 + nx * inward1, sz + dz * along1 + nz * inward1
        return Rect(min(ax, bx), min(az, bz), max(ax, bx), max(az, bz))

    @property
    def facing_rotation(self) -> int:
        """THOR yaw (0 faces +z, 90 faces +x) of something whose back is against this wall."""
        return {(0, 1): 0, (1, 0): 90, (0, -1): 180, (-1, 0): 270}[self.normal]


@dataclass(frozen=True)
class Door:
    """A doorway in one wall edge, centred ``along`` metres from the edge start."""

    edge: int
    along: float
    width: float = DOOR_WIDTH


@dataclass(frozen=True)
class RoomShape:
    """The empty shell of a room: floor outline, height and door.

    A room of a house has more than one doorway: ``door`` is its first, ``more_doors`` the rest,
    and ``window_edges`` the edges on the outside of the house (windows go nowhere else; None:
    any edge, as for a room standing alone). Both default so a single room is what it always was.
    """

    bounds: Rect
    cut: Rect | None
    edges: tuple[WallEdge, ...]
    door: Door
    height: float
    more_doors: tuple[Door, ...] = ()
    window_edges: tuple[int, ...] | None = None

    @property
    def doors(self) -> tuple[Door, ...]:
        """Every doorway of the room, the first door first."""
        return (self.door, *self.more_doors)

    def door_overlaps(self, edge: int, a0: float, a1: float, margin: float = 0.1) -> bool:
        """Whether the stretch [a0, a1] of wall ``edge`` comes within ``margin`` of a doorway there."""
        return any(
            door.edge == edge
            and a0 < door.along + door.width / 2 + margin
            and a1 > door.along - door.width / 2 - margin
            for door in self.doors
        )

    def floor_rects(self) -> tuple[Rect, ...]:
        """Disjoint rectangles that tile the floor (one for a plain room, two for an L)."""
        b, c = self.bounds, self.cut
        if c is None:
            return (b,)
        # Split along z at the cut's inner z-edge: a full-width strip and a partial strip.
        if c.z0 > b.z0 + 1e-9:  # cut touches z1
            full = Rect(b.x0, b.z0, b.x1, c.z0)
            part = Rect(b.x0, c.z0, c.x0, b.z1) if c.x0 > b.x0 + 1e-9 else Rect(c.x1, c.z0, b.x1, b.z1)
        else:  # cut touches z0
            full = Rect(b.x0, c.z1, b.x1, b.z1)
            part = Rect(b.x0, b.z0, c.x0, c.z1) if c.x0 > b.x0 + 1e-9 else Rect(c.x1, b.z0, b.x1, c.z1)
        return (full, part)

    @property
    def floor_area(self) -> float:
        return sum(r.area for r in self.floor_rects())

    def contains(self, rect: Rect) -> bool:
        """Whether a rectangle lies entirely on the floor."""
        if not self.bounds.contains(rect):
            return False
        return self.cut is None or not rect.overlaps(self.cut)

    def door_zone(self) -> Rect:
        """The floor in front of the door that furniture must leave free."""
        return self._zone(self.door)

    def door_zones(self) -> tuple[Rect, ...]:
        """The floor in front of every doorway that furniture must leave free."""
        return tuple(self._zone(door) for door in self.doors)

    def _zone(self, door: Door) -> Rect:
        edge = self.edges[door.edge]
        half = door.width / 2 + 0.1
        return edge.footprint(door.along - half, door.along + half, 0.0, DOOR_CLEARANCE)

    def wall_boxes(self) -> tuple[Box, ...]:
        """Wall boxes outside the outline; the door edge is split around a recessed door leaf."""
        boxes: list[Box] = []
        count = len(self.edges)
        for index, edge in enumerate(self.edges):
            # Extend a wall past a convex corner so corners close; never past a reflex one.
            before = _is_convex(self.edges[index - 1], edge)
            after = _is_convex(edge, self.edges[(index + 1) % count])
            lo = -WALL_THICKNESS if before else 0.0
            hi = edge.length + (WALL_THICKNESS if after else 0.0)
            pieces: list[tuple[float, float, float, float, float, float]] = []
            if index == self.door.edge:
                d0 = self.door.along - self.door.width / 2
                d1 = self.door.along + self.door.width / 2
                pieces.append((lo, d0, -WALL_THICKNESS, 0.0, 0.0, self.height))
                pieces.append((d1, hi, -WALL_THICKNESS, 0.0, 0.0, self.height))
                pieces.append((d0, d1, -WALL_THICKNESS, 0.0, DOOR_HEIGHT, self.height))
                # The closed door leaf, recessed towards the outer face of the wall.
                pieces.append((d0, d1, -WALL_THICKNESS, -0.10, 0.0, DOOR_HEIGHT))
            else:
                pieces.append((lo, hi, -WALL_THICKNESS, 0.0, 0.0, self.height))
            for a0, a1, i0, i1, y0, y1 in pieces:
                boxes.append(edge.footprint(a0, a1, i0, i1).box(y0, y1))
        return tuple(boxes)


def _is_convex(incoming: WallEdge, outgoing: WallEdge) -> bool:
    """Whether the corner between two consecutive counter-clockwise edges turns left (convex)."""
    ax, az = incoming.direction
    bx, bz = outgoing.direction
    return ax * bz - az * bx > 0


def _outline(bounds: Rect, cut: Rect | None) -> list[tuple[float, float]]:
    """Counter-clockwise vertices of the floor outline (x right, z up)."""
    b = bounds
    if cut is None:
        return [(b.x0, b.z0), (b.x1, b.z0), (b.x1, b.z1), (b.x0, b.z1)]
    c = cut
    at_x1 = abs(c.x1 - b.x1) < 1e-9
    at_z1 = abs(c.z1 - b.z1) < 1e-9
    if at_x1 and at_z1:
        return [(b.x0, b.z0), (b.x1, b.z0), (b.x1, c.z0), (c.x0, c.z0), (c.x0, b.z1), (b.x0, b.z1)]
    if not at_x1 and at_z1:
        return [(b.x0, b.z0), (b.x1, b.z0), (b.x1, b.z1), (c.x1, b.z1), (c.x1, c.z0), (b.x0, c.z0)]
    if at_x1 and not at_z1:
        return [(b.x0, b.z0), (c.x0, b.z0), (c.x0, c.z1), (b.x1, c.z1), (b.x1, b.z1), (b.x0, b.z1)]
    return [(c.x1, b.z0), (b.x1, b.z0), (b.x1, b.z1), (b.x0, b.z1), (b.x0, c.z1), (c.x1, c.z1)]


def rect_edges(rect: Rect) -> tuple[WallEdge, ...]:
    """The four counter-clockwise wall edges of a rectangular floor: the edge along z = z0 first,
    then x = x1, z = z1 and x = x0 (each edge's normal points into the room)."""
    return _edges(_outline(rect, None))


def _edges(vertices: list[tuple[float, float]]) -> tuple[WallEdge, ...]:
    edges = []
    for index, start in enumerate(vertices):
        end = vertices[(index + 1) % len(vertices)]
        dx = (end[0] > start[0]) - (end[0] < start[0])
        dz = (end[1] > start[1]) - (end[1] < start[1])
        edges.append(WallEdge(start, end, (-dz, dx)))
    return tuple(edges)


def _snap(value: float, step: float = 0.05) -> float:
    return round(round(value / step) * step, 4)


@dataclass(frozen=True)
class ShapeSpec:
    """Size ranges of one room type (metres) and how often it is L-shaped."""

    width: tuple[float, float]
    depth: tuple[float, float]
    l_shape_share: float
    height: tuple[float, float] = (2.5, 3.0)


def make_room_shape(rng: random.Random, spec: ShapeSpec, large: bool = False) -> RoomShape:
    """A random room shell: size from ``spec`` (upper part of the range when ``large``), maybe an L.

    The room's origin is shifted by a random amount so coordinates (and hence object ids) differ
    between rooms, as THOR's rooms are not centred on the origin either.
    """
    lo_w, hi_w = spec.width
    lo_d, hi_d = spec.depth
    if large:
        lo_w, lo_d = (lo_w + hi_w) / 2, (lo_d + hi_d) / 2
    width = _snap(rng.uniform(lo_w, hi_w))
    depth = _snap(rng.uniform(lo_d, hi_d))
    if rng.random() < 0.5:
        width, depth = depth, width
    x0 = _snap(rng.uniform(-width * 0.7, -width * 0.3))
    z0 = _snap(rng.uniform(-depth * 0.7, -depth * 0.3))
    bounds = Rect(x0, z0, round(x0 + width, 4), round(z0 + depth, 4))
    cut = None
    if rng.random() < spec.l_shape_share and min(width, depth) >= 2.5:
        cw = _snap(width * rng.uniform(0.3, 0.45))
        cd = _snap(depth * rng.uniform(0.3, 0.45))
        corner = rng.randrange(4)
        cx0 = bounds.x1 - cw if corner in (0, 1) else bounds.x0
        cz0 = bounds.z1 - cd if corner in (0, 2) else bounds.z0
        cut = Rect(cx0, cz0, round(cx0 + cw, 4), round(cz0 + cd, 4))
    edges = _edges(_outline(bounds, cut))
    door_edges = [i for i, e in enumerate(edges) if e.length >= DOOR_WIDTH + 0.8]
    door_edge = door_edges[rng.randrange(len(door_edges))]
    margin = DOOR_WIDTH / 2 + 0.3
    along = _snap(rng.uniform(margin, edges[door_edge].length - margin))
    height = _snap(rng.uniform(*spec.height))
    return RoomShape(bounds, cut, edges, Door(door_edge, along), height)
