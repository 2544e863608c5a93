"""The static description of a room that every simulator piece shares.

A :class:`Scene` is what a scene source (the procedural library, the ALFRED importer, a test
fixture) hands to the `lite` simulator: the room's walls, the reachable agent grid, every object
with its THOR id and box, and one interaction pose per receptacle (as ALFRED's `openable.json`).
It holds no dynamic state: where objects are *now*, what is open or hot, lives in the simulator's
world state, which starts from a Scene on every reset.

Conventions (THOR's): y is up; x and z span the floor; agent rotation 0 faces +z, 90 faces +x;
positive horizon looks down. Lengths are metres.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property
from typing import Any

from alfred_gen.sim.start_falls import FallZone

#: Room types, in ALFRED's scene-number order (kitchens 1-30, living rooms 201-230, ...).
ROOM_TYPES = ("kitchen", "living_room", "bedroom", "bathroom")

#: Room types a house's rooms may have: the single rooms', and the dining room, gym and garage that
#: EQA's questions name besides them (houses only).
HOUSE_ROOM_TYPES = (*ROOM_TYPES, "dining_room", "gym", "garage")

#: The ``room_type`` of a scene of several rooms (a house); each of its rooms has its own type.
HOUSE = "house"

#: Grid step of agent positions and MoveAhead, in metres.
GRID_SIZE = 0.25

#: THOR's agent (body origin) height above the floor, as in ALFRED's init_action teleports.
AGENT_Y = 0.9009997

#: Camera height above the agent's y: ALFRED's ``Initialize(cameraY=0.75)``. Shared by the
#: simulator, the renderer, the scene library's visibility checks and the THOR adapter. Rooms
#: imported from ALFRED declare the camera ALFRED's frames were taken with instead (:data:`ALFRED_CAMERA`).
CAMERA_Y_OFFSET = 0.75


@dataclass(frozen=True)
class SceneCamera:
    """The camera a room is seen with when it declares its own: vertical field of view (degrees)
    and height of the camera above the agent's reported y (metres)."""

    field_of_view: float
    height: float

    def to_list(self) -> list[float]:
        return [self.field_of_view, self.height]

    @staticmethod
    def from_list(data: list[float]) -> SceneCamera:
        return SceneCamera(float(data[0]), float(data[1]))


#: The camera of ALFRED's frames (ai2thor 2.1.0's default), settled from the released masks by
#: ``bench/alfred_camera.py`` (:mod:`alfred_gen.fidelity.camera_fit`): projecting the start position
#: of every unmoved pickupable object a demo first touches (3,205 interactions in every third train
#: demo), a 60 degree camera 0.675 m above the agent's y lands within 0.8 px of the mask's centroid
#: horizontally (median) and inside the mask's box for 94.7% of them; a 90 degree camera at the
#: 0.75 m of ALFRED's ``cameraY`` misses by 9.5 px, inside the box for 43.7%. The least-squares
#: focal length gives 58 degrees. THOR 2.1 kept the camera there whatever ``cameraY`` said.
ALFRED_CAMERA = SceneCamera(60.0, 0.675)


def room_type_of(scene_num: int) -> str:
    """ALFRED's numbering: 1-30 kitchen, 201-230 living room, 301-330 bedroom, 401-430 bathroom."""
    hundreds = scene_num // 100
    if hundreds == 0 and 1 <= scene_num <= 30:
        return "kitchen"
    if hundreds in (2, 3, 4) and 1 <= scene_num % 100 <= 30:
        return ROOM_TYPES[hundreds - 1]
    raise ValueError(f"scene number {scene_num} is outside ALFRED's ranges 1-30, 201-230, 301-330, 401-430")


def plan_room_type(floor_plan: str) -> str | None:
    """:func:`room_type_of` for a scene named ``FloorPlanN``; None for a name outside ALFRED's
    numbering (a procedural room), which type-level rules for ALFRED's rooms then leave alone."""
    try:
        return room_type_of(int(floor_plan.removeprefix("FloorPlan")))
    except ValueError:
        return None


_HUNDREDTH = Decimal("0.01")


def format_coordinate(value: float, single_precision: bool = False) -> str:
    """One coordinate of a THOR object id: sign and two decimals, e.g. ``+01.15``, ``-00.08``.

    A small negative value that rounds to zero loses its sign in THOR (``Spoon|00.00|...`` for
    x = -0.0037), while zero and small positive values keep a plus (``Cloth|+01.27|+00.00|...``
    for y = 0.0, ``+00.00`` for x = 0.000411): both forms appear in ALFRED's released demos.

    Halves round away from zero on the decimal value THOR reports, not on its binary double:
    ``Box|+01.27|+00.16|-00.29`` for y = 0.155 and ``Bowl|-04.30|...`` for x = -4.295 in the
    released demos, where Python's ``round`` (0.155 is stored as 0.15499...) would give 0.15 and
    -4.29. ``single_precision``: the value is a position THOR reported (a single-precision float,
    whose digits beyond the seventh significant one are noise), and it is first rounded to 7
    significant digits (``SprayBottle|...|+00.41`` for z = 0.404999971, read as 0.4050000). Over the
    6,574 train demos, 181 recorded coordinates round differently with and without that first step;
    10 of them name an object an action uses, and all 10 ids agree with it. Rooms imported from
    ALFRED name their objects so (:attr:`Scene.float32_ids`); the procedural rooms keep the plain rule.
    """
    hundredths = abs(float(value)) * 100.0
    if abs(hundredths - math.floor(hundredths) - 0.5) > 1e-3 and hundredths < 1e4:
        # Far from a half: the binary value rounds as its decimal one does (7 significant digits
        # of a value under 100 move it by less than 1e-3 hundredths).
        rounded = round(float(value), 2)
        if rounded == 0:
            return "00.00" if value < 0 else "+00.00"
        return f"{rounded:+06.2f}"
    exact = Decimal(repr(float(value)))
    if single_precision and exact != 0:
        exact = exact.quantize(Decimal(1).scaleb(exact.adjusted() - 6), rounding=ROUND_HALF_UP)
    rounded = float(exact.quantize(_HUNDREDTH, rounding=ROUND_HALF_UP))
    if rounded == 0:
        return "00.00" if value < 0 else "+00.00"
    return f"{rounded:+06.2f}"


def format_object_id(object_type: str, position: tuple[float, float, float], single_precision: bool = False) -> str:
    """THOR 2.1's object id ``Type|+x.xx|+y.yy|+z.zz`` from the position where it was spawned
    (``single_precision``: a position THOR reported, see :func:`format_coordinate`)."""
    return "|".join([object_type, *(format_coordinate(c, single_precision) for c in position)])


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in world coordinates: ``lo`` and ``hi`` corners as (x, y, z)."""

    lo: tuple[float, float, float]
    hi: tuple[float, float, float]

    @staticmethod
    def from_center(center: tuple[float, float, float], size: tuple[float, float, float]) -> Box:
        """The box of the given size centred on ``center``."""
        half = [s / 2 for s in size]
        return Box(
            tuple(c - h for c, h in zip(center, half)),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
            tuple(c + h for c, h in zip(center, half)),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
        )

    @cached_property
    def center(self) -> tuple[float, float, float]:
        """The box's centre, computed once (a box never changes; fitting a room reads centres
        millions of times)."""
        lo, hi = self.lo, self.hi
        return ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)

    @property
    def size(self) -> tuple[float, float, float]:
        lo, hi = self.lo, self.hi
        return (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])

    def over_footprint(self, x: float, z: float) -> bool:
        """Whether the point (x, z) lies over the box's footprint, edges included: the question an
        importer asks of an object's position against a fixture, whatever its height."""
        return self.lo[0] <= x <= self.hi[0] and self.lo[2] <= z <= self.hi[2]

    def overlaps(self, other: Box, eps: float = 0.0) -> bool:
        """Whether the two boxes' insides overlap by more than ``eps`` on every axis (touching faces
        do not count)."""
        return all(self.lo[k] < other.hi[k] - eps and other.lo[k] < self.hi[k] - eps for k in range(3))

    def translated(self, dx: float, dy: float, dz: float) -> Box:
        """The same box moved by (dx, dy, dz)."""
        d = (dx, dy, dz)
        return Box(
            tuple(a + o for a, o in zip(self.lo, d)),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
            tuple(b + o for b, o in zip(self.hi, d)),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
        )

    def to_list(self) -> list[list[float]]:
        return [list(self.lo), list(self.hi)]

    @staticmethod
    def from_list(data: list[list[float]]) -> Box:
        return Box(tuple(data[0]), tuple(data[1]))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]


def margins_of(box: Box, lo: Sequence[float], hi: Sequence[float]) -> tuple[float, ...]:
    """The drawn margins (:attr:`SceneObject.drawn_margins`: low x, y, z, then high x, y, z) of a
    drawing ``lo``..``hi`` of ``box``."""
    return tuple(round(a - b, 4) for a, b in zip((*box.lo, *hi), (*lo, *box.hi)))


def with_margins(box: Box, margins: Sequence[float]) -> Box:
    """The drawing of ``box`` whose drawn margins are ``margins``: each side moved out by its margin
    (the inverse of :func:`margins_of`); ``box`` itself for no margins (an undrawn fixture)."""
    if not margins:
        return box
    lo = tuple(v - m for v, m in zip(box.lo, margins[:3]))
    hi = tuple(v + m for v, m in zip(box.hi, margins[3:]))
    return Box(lo, hi)  # type: ignore[arg-type]  # three coordinates each


def drawing_margins(drawn: Sequence[float], shut_extra: Sequence[float], shut: bool) -> tuple[float, ...]:
    """The margins a fixture is drawn with: its :attr:`SceneObject.drawn_margins`, and while it is
    ``shut`` its :attr:`SceneObject.shut_margins` added. The simulator's drawing and the importer's
    votes on a shut drawing both read them here, so they cannot drift apart."""
    if shut and shut_extra:
        return tuple(a + b for a, b in zip(drawn or (0.0,) * 6, shut_extra))
    return tuple(drawn)


@dataclass(frozen=True)
class Pose:
    """An agent pose on the grid: position (x, z), rotation in degrees, camera horizon in degrees."""

    x: float
    z: float
    rotation: int
    horizon: int

    def to_list(self) -> list[float]:
        """ALFRED's ``openable.json`` order: [x, z, rotation, horizon]."""
        return [self.x, self.z, self.rotation, self.horizon]

    @staticmethod
    def from_list(data: list[float]) -> Pose:
        return Pose(float(data[0]), float(data[1]), int(data[2]) % 360, int(data[3]))


@dataclass
class SceneObject:
    """One object of a room as it is at scene load, before any random spawn.

    ``position`` is THOR's object origin and gives the id; ``box`` is its world axis-aligned box.
    ``parent`` names the receptacle (by object id) a pickupable starts in or on. ``parts`` are
    extra boxes for drawing only (table legs, a fridge door), in world coordinates.
    """

    object_type: str
    position: tuple[float, float, float]
    box: Box
    name: str = ""
    object_id: str = ""
    parent: str | None = None
    rotation: tuple[float, float, float] = (0.0, 0.0, 0.0)
    parts: tuple[Box, ...] = ()
    #: Boxes cut out of the drawing (not the box): where a fixture of an imported room is proven
    #: not to be, though its box, which must stay whole to hold what lies on it, reaches there.
    holes: tuple[Box, ...] = ()
    #: Heights (world y) of the shelves inside a receptacle whose contents may rest above its
    #: floor (a fridge of an imported room: where its demos showed things resting).
    shelves: tuple[float, ...] = ()
    #: How much wider (metres, each side) and taller (metres, above its top) an open drawer of an
    #: imported room is drawn than its box: THOR's open drawers show more than the box of the
    #: closed one (:mod:`alfred_gen.scenes.alfred.drawer_trays`). Drawing only; empty: the box.
    open_tray: tuple[float, ...] = ()
    #: Which end of its front (its world axis across the front) a side-hinged door hangs at, where
    #: an imported room's evidence says (:mod:`alfred_gen.scenes.alfred.door_hinges`): +1 the high
    #: end, -1 the low end; 0 (every other object) leaves it to
    #: :func:`~alfred_gen.sim.shapes.hinged_at_high_end`. Drawing only.
    hinge: int = 0
    #: Whether this cabinet of an imported room is a double door under one id, a leaf at each end of
    #: its front swinging out from the middle (:mod:`alfred_gen.scenes.alfred.double_doors`). Drawing only.
    double_door: bool = False
    #: Where THOR put things into this receptacle (a fridge of an imported room), by the object's
    #: type ("" for any type) and the pose put from: (type, (x, z, rotation, horizon, then the
    #: point x, y, z)), read from its demos' masks (:mod:`alfred_gen.scenes.alfred.put_points`).
    #: Empty: lite's own rule.
    put_points: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: Where THOR put things into this receptacle in the episode being replayed, read from that
    #: file's own masks (:mod:`alfred_gen.scenes.alfred.file_landings`), as :attr:`put_points` but
    #: typed points only; they come before :attr:`put_points` for their type and pose. Empty: none.
    file_put_points: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: Where THOR put things into this receptacle (a sink basin or fridge of an imported room) when its demos
    #: show a type put from one pose at more than one place
    #: (:func:`~alfred_gen.scenes.alfred.put_points.put_places_by_pose`): (type, (x, z, rotation,
    #: horizon, then x, y, z of each place)). Empty: none.
    put_places: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: Where THOR put a type into this fridge or microwave of an imported room from one pose, with what
    #: lay near the landing then (:func:`~alfred_gen.scenes.alfred.put_points.put_matches_by_pose`):
    #: ("<type>|<near types>", (x, z, rotation, horizon, x, y, z of the landing, x, y, z of each near
    #: thing)). Empty: none.
    put_matches: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: Which way THOR laid a long thing put into this receptacle in the episode being replayed, read
    #: from that file's own masks (:mod:`alfred_gen.scenes.alfred.file_headings`): (type, (x, z,
    #: rotation, horizon of the put, then the heading: THOR's yaw of the world direction its long
    #: side, or its head, points to)). Empty: none.
    file_put_headings: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: Which way this receptacle (a sink basin of an imported room) lays a long thing of each type,
    #: the majority of its demos' masks (:mod:`alfred_gen.scenes.alfred.put_headings`): (type,
    #: (quarter turns from the way the agent faces,)). Empty: none known.
    put_headings: tuple[tuple[str, tuple[float, ...]], ...] = ()
    #: How far each side of a fixture's drawing lies outside its box (low x, y, z, then high x, y,
    #: z; negative: inside), where an imported room's masks show another extent than its box
    #: (:mod:`alfred_gen.scenes.alfred.fixture_extents`). Kept as margins, so a box a start-state
    #: fit cuts keeps them. Drawing only; empty: its box.
    drawn_margins: tuple[float, ...] = ()
    #: How much farther out each side of a shut door's drawing lies than its drawing's
    #: (:attr:`drawn_margins`; same order, never negative): where THOR's masks of it shut run off
    #: the frame's border there but show its face that far
    #: (:func:`~alfred_gen.scenes.alfred.fixture_extents.front_reaches`). The open drawing (its
    #: leaf's hinge, the inside) keeps :attr:`drawn_margins`. Drawing only; empty: none.
    shut_margins: tuple[float, ...] = ()
    #: (low, high) own z, metres off its origin, across which a blade THOR lets fall flat to one
    #: side is drawn in an imported room, where its room's masks show the side
    #: (:mod:`alfred_gen.scenes.alfred.blade_sides`). Turns with the object's yaw. Drawing only;
    #: empty: its type's shape (:data:`~alfred_gen.sim.thor_shapes.FLAT_SHAPES`).
    blade_across: tuple[float, ...] = ()
    #: The parts of a fixture drawn as a slab (:func:`~alfred_gen.sim.thor_shapes.slab_pattern`)
    #: in an imported room, where its room's masks show what of the slab THOR draws
    #: (:func:`~alfred_gen.scenes.alfred.faucet_fits.fill_pattern`): flat (from, to) across the
    #: slab and (from, to) up it, fractions, 4 per part. Drawing only; empty: its type's
    #: (:data:`~alfred_gen.sim.thor_shapes.SLAB_PATTERNS`).
    drawn_pattern: tuple[float, ...] = ()
    #: For a sink basin of an imported room: the part of its rim's level plane THOR's masks of it
    #: show open (x lo, x hi, z lo, z hi, then the rim's height, and optionally how round its corners
    #: are: :func:`~alfred_gen.sim.basin_skirts.corner_boxes`); the rest of its footprint is drawn
    #: as the sink's deck there (:func:`~alfred_gen.sim.basin_skirts.deck_boxes`;
    #: :func:`~alfred_gen.scenes.alfred.basin_openings.basins_to_their_masks`). Drawing only;
    #: empty: no deck.
    opening: tuple[float, ...] = ()

    def __post_init__(self) -> None:
        if not self.object_id:
            self.object_id = format_object_id(self.object_type, self.position)
        if not self.name:
            self.name = f"{self.object_type}_{abs(hash_str(self.object_id)) % 16**8:08x}"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "objectType": self.object_type,
            "objectId": self.object_id,
            "name": self.name,
            "position": list(self.position),
            "rotation": list(self.rotation),
            "box": self.box.to_list(),
        }
        if self.parent:
            data["parent"] = self.parent
        if self.parts:
            data["parts"] = [part.to_list() for part in self.parts]
        if self.holes:
            data["holes"] = [hole.to_list() for hole in self.holes]
        if self.shelves:
            data["shelves"] = list(self.shelves)
        if self.open_tray:
            data["open_tray"] = list(self.open_tray)
        if self.hinge:
            data["hinge"] = self.hinge
        if self.double_door:
            data["double_door"] = True
        if self.put_points:
            data["put_points"] = [[kind, list(p)] for kind, p in self.put_points]
        if self.file_put_points:
            data["file_put_points"] = [[kind, list(p)] for kind, p in self.file_put_points]
        if self.put_places:
            data["put_places"] = [[kind, list(p)] for kind, p in self.put_places]
        if self.put_matches:
            data["put_matches"] = [[kind, list(p)] for kind, p in self.put_matches]
        if self.file_put_headings:
            data["file_put_headings"] = [[kind, list(p)] for kind, p in self.file_put_headings]
        if self.put_headings:
            data["put_headings"] = [[kind, list(p)] for kind, p in self.put_headings]
        if self.drawn_margins:
            data["drawn_margins"] = list(self.drawn_margins)
        if self.shut_margins:
            data["shut_margins"] = list(self.shut_margins)
        if self.blade_across:
            data["blade_across"] = list(self.blade_across)
        if self.drawn_pattern:
            data["drawn_pattern"] = list(self.drawn_pattern)
        if self.opening:
            data["opening"] = list(self.opening)
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> SceneObject:
        return SceneObject(
            object_type=data["objectType"],
            position=tuple(data["position"]),
            box=Box.from_list(data["box"]),
            name=data.get("name", ""),
            object_id=data.get("objectId", ""),
            parent=data.get("parent"),
            rotation=tuple(data.get("rotation", (0.0, 0.0, 0.0))),
            parts=tuple(Box.from_list(p) for p in data.get("parts", ())),
            holes=tuple(Box.from_list(h) for h in data.get("holes", ())),
            shelves=tuple(float(y) for y in data.get("shelves", ())),
            open_tray=tuple(float(v) for v in data.get("open_tray", ())),
            hinge=int(data.get("hinge", 0)),
            double_door=bool(data.get("double_door", False)),
            put_points=_put_points(data.get("put_points", ())),
            file_put_points=_put_points(data.get("file_put_points", ())),
            put_places=_put_points(data.get("put_places", ())),
            put_matches=_put_points(data.get("put_matches", ())),
            file_put_headings=_put_points(data.get("file_put_headings", ())),
            put_headings=_put_points(data.get("put_headings", ())),
            drawn_margins=tuple(float(v) for v in data.get("drawn_margins", ())),
            shut_margins=tuple(float(v) for v in data.get("shut_margins", ())),
            blade_across=tuple(float(v) for v in data.get("blade_across", ())),
            drawn_pattern=tuple(float(v) for v in data.get("drawn_pattern", ())),
            opening=tuple(float(v) for v in data.get("opening", ())),
        )


def _put_points(data: Any) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """Put points as :meth:`SceneObject.to_dict` stores them ([type, [x, z, rotation, horizon, x, y, z]])."""
    return tuple((str(kind), tuple(float(v) for v in p)) for kind, p in data)


@dataclass(frozen=True)
class Room:
    """One room of a house: its id (``kitchen_1``, ``bedroom_2``: type and a count within the
    type), its type, and its floor polygon, counter-clockwise (x, z) vertices.

    The floor is the free floor inside the room's walls, so a point on it belongs to exactly one
    room; a doorway's floor (inside the wall between two rooms) belongs to none.

    ``also`` holds the room's other types when it is an open-plan room (a kitchen that is also a
    dining room, as SUNCG's homes have; :mod:`alfred_gen.scenes.houses.open_plan`). Its id counts
    it under its own type only; a room without other types is written as before.
    """

    room_id: str
    room_type: str
    floor: tuple[tuple[float, float], ...]
    also: tuple[str, ...] = ()

    @property
    def types(self) -> tuple[str, ...]:
        """Every type of the room, its own first."""
        return (self.room_type, *self.also)

    @property
    def area(self) -> float:
        """Floor area in square metres (shoelace formula)."""
        total = 0.0
        for (x0, z0), (x1, z1) in zip(self.floor, self.floor[1:] + self.floor[:1]):
            total += x0 * z1 - x1 * z0
        return abs(total) / 2.0

    @property
    def center(self) -> tuple[float, float]:
        """The centre of the floor polygon's bounding rectangle (where a map puts its label)."""
        xs = [x for x, _ in self.floor]
        zs = [z for _, z in self.floor]
        return ((min(xs) + max(xs)) / 2.0, (min(zs) + max(zs)) / 2.0)

    def contains(self, x: float, z: float, eps: float = 1e-6) -> bool:
        """Whether floor point (x, z) lies on this room's floor (its boundary included)."""
        inside = False
        vertices = self.floor
        for (x0, z0), (x1, z1) in zip(vertices, vertices[1:] + vertices[:1]):
            # On an edge counts as inside (the floor polygons are axis-aligned, edges exact).
            if min(x0, x1) - eps <= x <= max(x0, x1) + eps and min(z0, z1) - eps <= z <= max(z0, z1) + eps:
                if abs((x1 - x0) * (z - z0) - (z1 - z0) * (x - x0)) <= eps * max(1.0, abs(x1 - x0) + abs(z1 - z0)):
                    return True
            if (z0 > z) != (z1 > z) and x < x0 + (z - z0) * (x1 - x0) / (z1 - z0):
                inside = not inside
        return inside

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.room_id, "type": self.room_type, "floor": [list(p) for p in self.floor]}
        if self.also:
            entry["also"] = list(self.also)
        return entry

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Room:
        return Room(str(data["id"]), str(data["type"]), tuple((float(x), float(z)) for x, z in data["floor"]),
                    tuple(str(t) for t in data.get("also", ())))


@dataclass(frozen=True)
class Doorway:
    """An open doorway between two rooms of a house: the ids of the rooms it joins and ``box``, the
    opening in the wall (wall thickness by door width, floor to lintel). Walls occlude; a doorway
    is a gap in them, so the agent walks and sees through it."""

    rooms: tuple[str, str]
    box: Box

    @property
    def center(self) -> tuple[float, float]:
        """The doorway's centre on the floor plane (x, z)."""
        cx, _, cz = self.box.center
        return (cx, cz)

    def to_dict(self) -> dict[str, Any]:
        return {"rooms": list(self.rooms), "box": self.box.to_list()}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Doorway:
        first, second = data["rooms"]
        return Doorway((str(first), str(second)), Box.from_list(data["box"]))


def hash_str(text: str) -> int:
    """A stable (PYTHONHASHSEED-independent) 64-bit hash of a string, for names and colours."""
    value = 1469598103934665603
    for byte in text.encode():
        value = ((value ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return value


@dataclass
class Scene:
    """A room, or a house of rooms: walls, reachable grid, objects and receptacle interaction poses.

    ``name`` is what trajectories store as ``floor_plan``: ``LitePlanN`` for procedural rooms (so
    they cannot be mistaken for THOR's), ``FloorPlanN`` for rooms imported from ALFRED data,
    ``LiteHouseN`` for procedural houses. A house (``room_type`` :data:`HOUSE`) lists its
    ``rooms`` (type and floor polygon each) and the ``doorways`` joining them; a single room lists
    none, and is one room of type ``room_type``.
    """

    name: str
    scene_num: int
    room_type: str
    walls: tuple[Box, ...]
    reachable: tuple[tuple[float, float], ...]
    objects: list[SceneObject]
    interaction_poses: dict[str, Pose] = field(default_factory=dict)
    start: Pose | None = None
    floor_y: float = 0.0
    agent_y: float = AGENT_Y
    #: The camera this room is seen with, when it is not the simulator's (rooms imported from
    #: ALFRED: :data:`ALFRED_CAMERA`); None for the procedural rooms.
    camera: SceneCamera | None = None
    #: Whether object ids are made as THOR makes them from its single-precision positions (rooms
    #: imported from ALFRED; see :func:`format_coordinate`).
    float32_ids: bool = False
    #: Grid points the agent may also step onto although nothing proves them floor: for rooms
    #: imported from ALFRED, the points next to the proven floor where no fixture stands (THOR's
    #: agent often reaches them; ALFRED's layouts stop short). Not offered by GetReachablePositions.
    margin: tuple[tuple[float, float], ...] = ()
    rooms: tuple[Room, ...] = ()
    doorways: tuple[Doorway, ...] = ()
    #: Where THOR's physics lets a posed object fall before the demo sees it (rooms imported from
    #: ALFRED, :mod:`alfred_gen.sim.start_falls`); none for procedural rooms.
    falls: tuple[FallZone, ...] = ()
    #: Whole type -> (first, step) of this room's own slice row, where its demos show THOR's loaf
    #: to differ from :data:`alfred_gen.sim.actions.SLICE_LAYOUT`'s (rooms imported from ALFRED,
    #: :mod:`alfred_gen.scenes.alfred.slice_layouts`); none for procedural rooms.
    slice_layouts: dict[str, tuple[float, float]] = field(default_factory=dict)

    def object(self, object_id: str) -> SceneObject:
        """The object with this id; KeyError if there is none."""
        for obj in self.objects:
            if obj.object_id == object_id:
                return obj
        raise KeyError(object_id)

    @property
    def from_alfred(self) -> bool:
        """Whether this room was imported from ALFRED's THOR rooms: it declares the camera of
        ALFRED's frames, which no procedural room does. Lets lite draw such rooms as THOR drew them
        (:mod:`alfred_gen.sim.thor_drawn`) and leave procedural rooms as they are."""
        return self.camera is not None

    @property
    def is_house(self) -> bool:
        """Whether this scene is a house of several rooms."""
        return bool(self.rooms)

    def room_at(self, x: float, z: float) -> Room | None:
        """The room of a house whose floor holds point (x, z); None in a doorway, outside, or in a
        single-room scene (which has no Room records: its one room is the scene)."""
        for room in self.rooms:
            if room.contains(x, z):
                return room
        return None

    def room_of(self, object_id: str) -> Room | None:
        """The room an object of the scene is in, by the centre of its box (see :meth:`room_at`)."""
        cx, _, cz = self.object(object_id).box.center
        return self.room_at(cx, cz)

    def room_type_at(self, x: float, z: float) -> str | None:
        """The type of the room at (x, z): a house's room's, or a single room's own type."""
        if not self.rooms:
            return self.room_type
        room = self.room_at(x, z)
        return room.room_type if room is not None else None

    def room(self, room_id: str) -> Room:
        """The room with this id; KeyError if there is none."""
        for room in self.rooms:
            if room.room_id == room_id:
                return room
        raise KeyError(room_id)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (used by scene catalogues on disk)."""
        data: dict[str, Any] = {
            "name": self.name,
            "scene_num": self.scene_num,
            "room_type": self.room_type,
            "floor_y": self.floor_y,
            "agent_y": self.agent_y,
            "walls": [w.to_list() for w in self.walls],
            "reachable": [list(p) for p in self.reachable],
            "objects": [o.to_dict() for o in self.objects],
            "interaction_poses": {k: p.to_list() for k, p in sorted(self.interaction_poses.items())},
            "start": self.start.to_list() if self.start else None,
            **({"camera": self.camera.to_list()} if self.camera is not None else {}),
            **({"margin": [list(p) for p in self.margin]} if self.margin else {}),
            **({"float32_ids": True} if self.float32_ids else {}),
            **({"falls": [f.to_list() for f in self.falls]} if self.falls else {}),
            **({"slice_layouts": {k: list(v) for k, v in sorted(self.slice_layouts.items())}}
               if self.slice_layouts else {}),
        }
        if self.rooms:  # only houses carry these keys, so a single room's dict is what it always was
            data["rooms"] = [r.to_dict() for r in self.rooms]
            data["doorways"] = [d.to_dict() for d in self.doorways]
        return data

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Scene:
        return Scene(
            name=data["name"],
            scene_num=int(data["scene_num"]),
            room_type=data["room_type"],
            walls=tuple(Box.from_list(w) for w in data["walls"]),
            reachable=tuple((float(x), float(z)) for x, z in data["reachable"]),
            objects=[SceneObject.from_dict(o) for o in data["objects"]],
            interaction_poses={k: Pose.from_list(v) for k, v in data.get("interaction_poses", {}).items()},
            start=Pose.from_list(data["start"]) if data.get("start") else None,
            floor_y=float(data.get("floor_y", 0.0)),
            agent_y=float(data.get("agent_y", AGENT_Y)),
            camera=SceneCamera.from_list(data["camera"]) if data.get("camera") else None,
            margin=tuple((float(x), float(z)) for x, z in data.get("margin", ())),
            float32_ids=bool(data.get("float32_ids", False)),
            rooms=tuple(Room.from_dict(r) for r in data.get("rooms", ())),
            doorways=tuple(Doorway.from_dict(d) for d in data.get("doorways", ())),
            falls=tuple(FallZone.from_list(f) for f in data.get("falls", ())),
            slice_layouts={k: (float(v[0]), float(v[1])) for k, v in data.get("slice_layouts", {}).items()},
        )


#: Cells beyond this many from the origin are all one cell, far outside any room: a pose read from a
#: file (1e308, say) then names no grid point instead of overflowing.
_FAR_CELL = 10**9


def _cell(value: float) -> int:
    cells = value / GRID_SIZE + 0.5
    if not -_FAR_CELL < cells < _FAR_CELL:  # also NaN
        return _FAR_CELL
    return int(math.floor(cells))


def grid_key(x: float, z: float) -> tuple[int, int]:
    """Integer grid cell of a position, robust to float noise (0.25 m cells)."""
    return (_cell(x), _cell(z))
