"""What the `lite` world is made of: its constants, object and agent state, and the geometry helpers
(quarter turns, footprints, overlaps) that :class:`~alfred_gen.sim.world.World`'s parts share.

Kept apart from the world's behaviour so that containment, placement, navigation and metadata
(``world_*.py``) can each import them without importing one another.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.domains.catalogue import ObjectType
from alfred_gen.sim.scene import Box, drawing_margins, with_margins

#: Horizontal and vertical field of view of the square 300x300 camera, degrees.
FIELD_OF_VIEW = 90.0
#: Camera horizon limits, degrees (positive looks down), as THOR 2.1.
HORIZON_MIN, HORIZON_MAX = -30.0, 60.0
#: How far (metres, along every axis) an object must reach into an open receptacle beside the closed
#: one holding it to be seen through it (:meth:`World.enclosed`).
SHARED_INSIDE = 0.01
#: Radius of the agent's footprint when testing whether a floor object blocks a grid point: THOR
#: 2.1's agent collider is a capsule of radius 0.175 m (AI2-THOR's maintainers, allenai/ai2thor#732).
#: Over the 6,574 train demos' walks before their first pickup, the agent stood 0.146-0.175 m from
#: the box of a floor object 15 times (11 of them boxes, whose catalogue size is a typical THOR box,
#: not the room's), and 0.125-0.2 m away by the half-width 0.2 square lite used before 36 times.
AGENT_RADIUS = 0.175
#: A container's contents resting this much (metres) above its floor show a shelf there.
SHELF_MIN_RISE = 0.1
#: Objects lower than this do not block the agent (it steps over a cloth or a credit card).
BLOCKING_HEIGHT = 0.1
#: A loose object whose box bottom is this close to the floor lies on the floor.
FLOOR_CONTACT = 0.15
#: Where a held object sits relative to the camera: ahead (horizontal) and below, metres.
HAND_AHEAD, HAND_BELOW = 0.45, 0.3

#: Receptacles whose contents sit on their inner floor rather than on their top surface.
INSIDE_RECEPTACLES = frozenset(
    {
        "Fridge", "Microwave", "Cabinet", "Drawer", "Safe", "Box", "SinkBasin", "BathtubBasin",
        "GarbageCan", "LaundryHamper", "Bowl", "Cup", "Mug", "Pot", "Toaster", "CoffeeMachine",
    }
)

#: Spacing, metres, of the candidate centres PutObject tries on a receptacle.
PUT_STEP = 0.05
#: How much two footprints' bounding boxes may overlap (fraction of the summed half-extents) and
#: still count as free: THOR collides meshes, which fill less than their bounding boxes.
PUT_OVERLAP = 0.25

#: Openable types that THOR's rooms start open: released demos close a laptop before taking it,
#: and close a cardboard box after putting a remote into it without ever opening it (no released
#: demo opens a box before putting something in).
INITIALLY_OPEN = frozenset({"Laptop", "Box"})

def _r(value: float) -> float:
    """A metadata float: a plain Python float, never ``-0.0``.

    Not rounded: THOR derives ids from the unrounded position (0.524996 -> ``+00.52``, where a
    position rounded to 0.525 first would give ``+00.53``), and ids must be recomputable from
    ``metadata["position"]`` and from recorded ``object_poses``.
    """
    v = float(value)
    return 0.0 if v == 0 else v


def _xyz(v: Iterable[float]) -> dict[str, float]:
    x, y, z = v
    return {"x": _r(x), "y": _r(y), "z": _r(z)}


def quarter_turns(yaw: float) -> int:
    """A THOR yaw as whole quarter turns, 0-3 (boxes stay axis-aligned, so an object turns with its
    nearest quarter)."""
    return round(yaw / 90.0) % 4


def turn_horizontal(dx: float, dz: float, quarter_turns: int) -> tuple[float, float]:
    """A horizontal vector turned by ``quarter_turns`` of THOR yaw (90 degrees takes +z to +x and
    +x to -z): an object's local offsets in the world at its yaw."""
    for _ in range(quarter_turns % 4):
        dx, dz = dz, -dx
    return dx, dz


def yaw_residual(yaw: float) -> float:
    """Degrees (-45 to 45) by which a THOR yaw misses its nearest quarter turn: the part of an
    object's turn its axis-aligned box leaves out."""
    return yaw - 90.0 * round(yaw / 90.0)


def turned_about(point: tuple[float, float], pivot: tuple[float, float], degrees: float) -> tuple[float, float]:
    """A horizontal ``point`` (x, z) turned about ``pivot`` by ``degrees`` of THOR yaw (the way
    :func:`turn_horizontal` turns by quarters: 90 takes +z to +x)."""
    dx, dz = point[0] - pivot[0], point[1] - pivot[1]
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return pivot[0] + dx * c + dz * s, pivot[1] - dx * s + dz * c


#: (pivot x, pivot z, degrees): a box's turn about its object's origin beyond its quarter turns.
Turn = tuple[float, float, float]


def footprint_meets(box: Box, x: float, z: float, margin: float = 0.0, turn: Turn | None = None) -> bool:
    """Whether the agent's round footprint (:data:`AGENT_RADIUS`, plus ``margin``) standing at
    (``x``, ``z``) reaches into ``box`` seen from above.

    ``turn`` turns the box about the object's origin by the rest of its yaw (:func:`yaw_residual`):
    THOR poses objects at any yaw, and a pair of boots at 259.6 degrees is a rectangle turned 10.4
    degrees off the quarter-turned box, whose corner reaches 1 mm into a point two demos walk past.
    The point is turned back instead of the box. Over the train demos' walks past objects on the
    floor before their first pickup, 12 reach into the quarter-turned boxes (2 by the boots, 2 by
    a basketball, 8 by cardboard boxes, whose size is a typical box's, not the room's) and 8 into
    the turned ones (the basketball's 2 and 6 by cardboard boxes)."""
    if turn is not None and turn[2]:
        px, pz, degrees = turn
        x, z = turned_about((x, z), (px, pz), -degrees)
    dx = max(box.lo[0] - x, x - box.hi[0], 0.0)
    dz = max(box.lo[2] - z, z - box.hi[2], 0.0)
    return math.hypot(dx, dz) < AGENT_RADIUS + margin


def overlap_deeper_than(a: WorldObject, b: WorldObject, depth: float) -> bool:
    """Whether the boxes of ``a`` and ``b`` overlap by more than ``depth`` along every axis."""
    a_lo, a_hi, b_lo, b_hi = a.lo, a.hi, b.lo, b.hi
    return all(min(a_hi[k], b_hi[k]) - max(a_lo[k], b_lo[k]) > depth for k in range(3))


def footprints_clash(other: WorldObject, x: Any, z: Any, half_x: float, half_z: float) -> Any:
    """Whether ``other``'s footprint overlaps a footprint ``half_x`` by ``half_z`` either side of
    (``x``, ``z``) (floats, or arrays of centres) by more than :data:`PUT_OVERLAP` of each summed
    half-extent: what a put counts as taken (bounding boxes are looser than THOR's colliders)."""
    keep = 1.0 - PUT_OVERLAP
    return (abs(other.center[0] - x) < (other.size[0] / 2 + half_x) * keep) & (
        abs(other.center[2] - z) < (other.size[2] / 2 + half_z) * keep)


def _middle_over(obj: WorldObject, receptacle: WorldObject) -> bool:
    """Whether ``obj``'s middle lies over ``receptacle``'s footprint (seen from above)."""
    (x, _, z), (lo, hi) = obj.center, (receptacle.lo, receptacle.hi)
    return lo[0] <= x <= hi[0] and lo[2] <= z <= hi[2]


class WorldObject:
    """One object's current state. ``center``/``size`` give its world axis-aligned box."""

    __slots__ = (
        "blade_across",
        "center",
        "children",
        "cut_turn",
        "drawn_margins",
        "drawn_pattern",
        "holes",
        "index",
        "is_broken",
        "is_cooked",
        "is_dirty",
        "is_filled",
        "is_open",
        "is_sliced",
        "is_toggled",
        "lean",
        "leans_on",
        "lies_as_cut",
        "liquid",
        "name",
        "object_id",
        "offset",
        "open_tray",
        "opening",
        "otype",
        "parent",
        "parts",
        "position",
        "present",
        "rotation",
        "shut_margins",
        "size",
        "temperature",
        "type_name",
    )

    def __init__(
        self,
        object_id: str,
        type_name: str,
        name: str,
        position: tuple[float, float, float],
        rotation: tuple[float, float, float],
        box: Box,
        parts: tuple[Box, ...] = (),
        holes: tuple[Box, ...] = (),
        open_tray: tuple[float, ...] = (),
        drawn_margins: tuple[float, ...] = (),
        blade_across: tuple[float, ...] = (),
        drawn_pattern: tuple[float, ...] = (),
        opening: tuple[float, ...] = (),
        shut_margins: tuple[float, ...] = (),
    ) -> None:
        self.object_id = object_id
        self.type_name = type_name
        self.otype: ObjectType = catalogue.object_type(type_name)
        self.name = name
        self.position = [float(c) for c in position]
        rx, ry, rz = rotation
        self.rotation = (float(rx), float(ry), float(rz))
        self.center = [float(c) for c in box.center]
        sx, sy, sz = box.size
        self.size = (float(sx), float(sy), float(sz))
        # THOR's object origin is not the box centre (a fridge's origin is on the floor).
        self.offset = tuple(p - c for p, c in zip(self.position, self.center))
        # Extra drawing boxes, stored relative to the centre so they move with the object.
        self.parts = tuple(
            (tuple(a - c for a, c in zip(p.lo, self.center)), tuple(b - c for b, c in zip(p.hi, self.center)))
            for p in parts
        )
        #: Boxes cut out of the object's drawing where it is not (world coordinates; only fixtures,
        #: which never move, have them): :attr:`alfred_gen.sim.scene.SceneObject.holes`.
        self.holes = tuple(holes)
        #: How much wider and taller its open form is drawn: :attr:`alfred_gen.sim.scene.SceneObject.open_tray`.
        self.open_tray = tuple(open_tray)
        #: How far each side of its drawing lies outside its box:
        #: :attr:`alfred_gen.sim.scene.SceneObject.drawn_margins`.
        self.drawn_margins = tuple(drawn_margins)
        #: How much farther out its drawing lies while it is shut:
        #: :attr:`alfred_gen.sim.scene.SceneObject.shut_margins`.
        self.shut_margins = tuple(shut_margins)
        #: Across which own-z band a fallen blade is drawn:
        #: :attr:`alfred_gen.sim.scene.SceneObject.blade_across`.
        self.blade_across = tuple(blade_across)
        #: The parts of its slab it is drawn as: :attr:`alfred_gen.sim.scene.SceneObject.drawn_pattern`.
        self.drawn_pattern = tuple(drawn_pattern)
        #: The part of a basin's rim plane drawn open: :attr:`alfred_gen.sim.scene.SceneObject.opening`.
        self.opening = tuple(opening)
        self.parent: str | None = None
        self.children: list[str] = []
        self.is_toggled = False
        self.is_sliced = False
        #: A slice still lying in the row its whole was cut into (cleared when it is picked up), or
        #: stood face to the door again by a put (:data:`alfred_gen.sim.put_yaw.FACE_TRIMMED`): an
        #: imported room draws only the part of its face THOR's masks show there
        #: (:data:`alfred_gen.sim.thor_shapes.SLICE_FACES`).
        self.lies_as_cut = False
        #: Degrees of THOR yaw by which a slice lying as cut is drawn turned about its middle beyond
        #: its box (its whole's rest of yaw, :func:`yaw_residual`; :mod:`alfred_gen.sim.turned_rows`);
        #: cleared when it is picked up.
        self.cut_turn = 0.0
        #: How it leans on a taller thing it came down on (:mod:`alfred_gen.sim.put_lean`): (the axis
        #: of its long side, 0 or 2; +1 or -1, the end raised; the rise, metres), drawing only;
        #: empty: level. :attr:`leans_on` is that thing's id.
        self.lean: tuple[float, ...] = ()
        self.leans_on: str | None = None
        self.is_dirty = False
        self.is_cooked = False
        self.is_filled = False
        #: What fills it when ``is_filled`` (THOR's fillLiquid: water, coffee or wine), for the look.
        self.liquid: str | None = None
        self.is_broken = False
        self.temperature = "RoomTemp"
        self.is_open = type_name in INITIALLY_OPEN
        self.present = True
        self.index = -1

    @property
    def lo(self) -> tuple[float, float, float]:
        return tuple(c - s / 2 for c, s in zip(self.center, self.size))  # type: ignore[return-value]  # tuple() over three coordinates: mypy sees tuple[float, ...]

    @property
    def hi(self) -> tuple[float, float, float]:
        return tuple(c + s / 2 for c, s in zip(self.center, self.size))  # type: ignore[return-value]  # tuple() over three coordinates: mypy sees tuple[float, ...]

    def box(self) -> Box:
        return Box(self.lo, self.hi)

    def drawn_box(self) -> Box:
        """The box it is drawn in: its box, each side moved out by :attr:`drawn_margins` (and, while
        it is shut, :attr:`shut_margins` farther)."""
        return with_margins(self.box(), drawing_margins(self.drawn_margins, self.shut_margins, not self.is_open))

    def footprint_turn(self) -> Turn:
        """How its footprint turns beyond its axis-aligned box (:func:`footprint_meets`)."""
        return (self.position[0], self.position[2], yaw_residual(self.rotation[1]))

    def part_boxes(self) -> list[Box]:
        c = self.center
        return [
            Box(tuple(a + o for a, o in zip(lo, c)), tuple(b + o for b, o in zip(hi, c)))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
            for lo, hi in self.parts
        ]


class AgentState:
    """The agent's pose: grid position, yaw (0 faces +z, 90 faces +x) and camera horizon."""

    __slots__ = ("horizon", "rotation", "standing", "x", "y", "z")

    def __init__(self, x: float, y: float, z: float, rotation: int, horizon: float) -> None:
        self.x, self.y, self.z = x, y, z
        self.rotation = rotation
        self.horizon = horizon
        self.standing = True
