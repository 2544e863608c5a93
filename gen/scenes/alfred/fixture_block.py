"""A fixture's box while an imported THOR room is being fitted, and the vocabulary every fitting
rule shares.

The fitting steps of :mod:`alfred_gen.scenes.alfred.geometry` each live in their own module and
all move the faces of the same :class:`Block`; what a block is, which fixtures count as built-in,
how thick a container's inner floor is and how a surface's top moves are defined once, here, so the
rules agree on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from alfred_gen.domains import catalogue
from alfred_gen.sim.scene import Box, with_margins
from alfred_gen.sim.world import INSIDE_RECEPTACLES

#: An origin this close to the floor means the object stands on the floor with its origin at its base.
FLOOR_ORIGIN = 0.1


def origin_on_floor(y: float, floor_y: float) -> bool:
    """Whether an id at height ``y`` is that of something standing on the floor (:data:`FLOOR_ORIGIN`)."""
    return y - floor_y < FLOOR_ORIGIN


#: Openable parts of furniture and walls (not assets): stacked in columns and rows.
BUILT_IN_CONTAINERS = frozenset({"Drawer", "Cabinet"})
#: Basins set into a counter top (a sink's, or a tub's in a platform): THOR's slab runs all round
#: them with a hole for the opening, which the renderer cuts out of the slab's drawing
#: (:func:`alfred_gen.sim.pixels._carves`).
SET_IN_BASINS = frozenset({"SinkBasin", "BathtubBasin"})
#: Free space kept between a box and a reachable point's centre (THOR's agent is ~0.2 m in radius).
AGENT_CLEARANCE = 0.1
#: Horizontal unit vectors of the four yaws (0 faces +z, 90 faces +x).
_HEADINGS = {0: (0.0, 1.0), 90: (1.0, 0.0), 180: (0.0, -1.0), 270: (-1.0, 0.0)}
#: Thickness of the floor the renderer draws inside containers (a resting object sits above it).
_INNER_FLOOR = {"Drawer": 0.02, "Cabinet": 0.025, "GarbageCan": 0.02}
_DEFAULT_INNER_FLOOR = 0.05
#: Counter tops are drawn as the slab they are in THOR (the cabinets below are separate objects).
COUNTER_SLAB = 0.04


def inner_floor(kind: str) -> float:
    """Thickness of the floor inside a container of type ``kind`` (what rests in it sits above)."""
    return _INNER_FLOOR.get(kind, _DEFAULT_INNER_FLOOR)


def drawn_floor(block: Block) -> float:
    """The height of the top of the floor drawn inside ``block``: its drawing's bottom
    (:attr:`Block.drawn_margins`) plus :func:`inner_floor` (the renderer draws it thinner in a
    drawing under about 0.11 m tall: at most 45% of its height, ``alfred_gen.sim.shapes``)."""
    return block.drawn_box().lo[1] + inner_floor(block.kind)


def front_axis_of(facing: int) -> tuple[int, int]:
    """(axis, sign) of a front facing the yaw ``facing`` (a multiple of 90): the world axis it faces
    along (0 x, 2 z) and which way."""
    dx, dz = _HEADINGS[facing % 360]
    return (0, int(dx)) if dx else (2, int(dz))


@dataclass
class Block:
    """A fixture's box while it is being fitted: its id, type, origin, extents and front."""

    object_id: str
    kind: str
    position: tuple[float, float, float]
    lo: list[float]
    hi: list[float]
    floor_origin: bool
    #: Yaw the front faces (towards where the agent stands to use it).
    facing: int = 0
    #: Points (object centres) this fixture must keep inside its footprint (its own evidence).
    keep: list[tuple[float, float, float]] = field(default_factory=list)
    #: Footprints it was cut away from; growing back over them is not allowed.
    forbid: list[Box] = field(default_factory=list)
    #: Where it is proven not to be although its box must reach there: cut out of its drawing only.
    holes: list[Box] = field(default_factory=list)
    #: Which end of its front a door hangs at when evidence overrides the drawn rule
    #: (:attr:`~alfred_gen.sim.scene.SceneObject.hinge`): +1 high, -1 low, 0 the rule.
    hinge: int = 0
    #: Whether its one id is a double door, a leaf at each end of its front
    #: (:attr:`~alfred_gen.sim.scene.SceneObject.double_door`).
    double_door: bool = False
    #: How far each side of its drawing lies outside its box where its masks show another extent
    #: (:attr:`~alfred_gen.sim.scene.SceneObject.drawn_margins`); empty: its box. Drawing only.
    drawn_margins: tuple[float, ...] = ()
    #: How much farther out a shut door is drawn than :attr:`drawn_margins`
    #: (:attr:`~alfred_gen.sim.scene.SceneObject.shut_margins`); empty: none. Drawing only.
    shut_margins: tuple[float, ...] = ()
    #: The parts of its drawn slab its masks fill (:attr:`~alfred_gen.sim.scene.SceneObject.drawn_pattern`);
    #: empty: its type's. Drawing only.
    drawn_pattern: tuple[float, ...] = ()
    #: A sink basin's opening where its masks show it (:attr:`~alfred_gen.sim.scene.SceneObject.opening`);
    #: empty: no deck. Drawing only.
    opening: tuple[float, ...] = ()
    #: Boxes drawn as part of it though they are another fixture's (a desk's hutch boards:
    #: :mod:`alfred_gen.scenes.alfred.hutch_boards`). Drawing only.
    drawn_parts: list[Box] = field(default_factory=list)
    #: For a shelf board: whether it is drawn with the back of its compartment
    #: (:func:`~alfred_gen.scenes.alfred.shelf_backs.back_parts`); False where its own masks never
    #: reach that back (:func:`~alfred_gen.scenes.alfred.bare_boards.backs_its_masks_miss`). Drawing only.
    drawn_back: bool = True

    @property
    def container(self) -> bool:
        return self.kind in INSIDE_RECEPTACLES

    @property
    def surface(self) -> bool:
        t = catalogue.OBJECT_TYPES.get(self.kind)
        return bool(t and t.receptacle and not t.pickupable and not self.container)

    @property
    def front_axis(self) -> tuple[int, int]:
        """(axis, sign) of the front: the box face the agent looks at."""
        return front_axis_of(self.facing)

    @property
    def across_axis(self) -> int:
        """The world axis along its front (0 x, 2 z): the horizontal axis the front does not face."""
        return 2 - self.front_axis[0]

    def front(self) -> float:
        axis, sign = self.front_axis
        return self.hi[axis] if sign > 0 else self.lo[axis]

    def set_front(self, value: float) -> None:
        axis, sign = self.front_axis
        if sign > 0:
            self.hi[axis] = value
        else:
            self.lo[axis] = value

    def box(self) -> Box:
        return Box(tuple(self.lo), tuple(self.hi))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]

    def drawn_box(self) -> Box:
        """Its drawing: its box with each side moved out by its :attr:`drawn_margins`."""
        return with_margins(self.box(), self.drawn_margins)

    def margin_list(self) -> list[float]:
        """Its :attr:`drawn_margins` as a list of six (zeros where it has none), for a rule to change
        some of and set back."""
        return list(self.drawn_margins) or [0.0] * 6

    def draw_shut_sides(self, sides: Sequence[int]) -> None:
        """Move the :attr:`shut_margins` of ``sides`` (indices as in :attr:`drawn_margins`) into its
        :attr:`drawn_margins`: open, it is drawn as far out there as shut."""
        drawn, shut = self.margin_list(), list(self.shut_margins)
        for side in sides:
            drawn[side] += shut[side]
            shut[side] = 0.0
        self.drawn_margins = tuple(drawn)
        self.shut_margins = tuple(shut) if any(m > 1e-4 for m in shut) else ()

    def overlaps(self, other: Block, axes: tuple[int, ...] = (0, 1, 2), margin: float = 0.0) -> bool:
        return all(self.lo[a] < other.hi[a] + margin and other.lo[a] < self.hi[a] + margin for a in axes)

    def overlaps_box(self, box: Box) -> bool:
        """Whether the footprints overlap."""
        return all(self.lo[a] < box.hi[a] and box.lo[a] < self.hi[a] for a in (0, 2))

    def support_view(self) -> SupportView:
        """What the simulator's support rule reads of this fixture now (cheap: no simulator object)."""
        lo, hi = self.lo, self.hi
        return SupportView(self.object_id, self.kind, catalogue.OBJECT_TYPES[self.kind],
                           ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2),
                           (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]))


@dataclass(frozen=True)
class SupportView:
    """A fixture as the simulator's support rule sees it (:class:`~alfred_gen.sim.setup_actions.SupportCandidate`)."""

    object_id: str
    type_name: str
    otype: catalogue.ObjectType
    center: tuple[float, ...]
    size: tuple[float, ...]


def set_top(block: Block, top: float) -> None:
    """Move a surface's top; a counter top stays a slab, anything else keeps its bottom."""
    block.hi[1] = top
    if block.kind == "CounterTop":
        block.lo[1] = top - COUNTER_SLAB
    else:
        block.lo[1] = min(block.lo[1], top - 0.02)
