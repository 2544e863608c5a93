"""Where things go on or in a receptacle, derived from its type, box and facing alone.

A receptacle's box is its whole extent (THOR's axis-aligned bounds; the `lite` renderer draws the
type's shape inside it, see ``alfred_gen.sim.shapes``). Where an object may rest follows from the
shape: the seat of a sofa, not the top of its backrest; the mattress of a bed; the floor inside a
cabinet, fridge, drawer or basin; the top of a table. Holders (towel bars, toilet-paper hangers)
carry their item hanging centred below them. The scene library places its initial objects
with these surfaces, and a spawner can use the same function to move objects around.

Figures match the render shapes (seat 0.45 m, chair seat 0.47 m, mattress 0.55 m, backrest
0.22 m deep, sofa arms 0.16 m, toilet tank 0.2 m deep) so that placed objects look right.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.sim.scene import Box

#: Receptacles whose contents lie inside, on their inner floor (open-top or closed by a door).
INSIDE_TYPES = frozenset(
    {"Fridge", "Cabinet", "Microwave", "Safe", "Drawer", "SinkBasin", "BathtubBasin", "GarbageCan",
     "LaundryHamper", "Bowl", "Pot", "Pan", "Mug", "Cup", "Box"}
)

#: Receptacles whose item hangs from them.
HANGING_TYPES = frozenset({"TowelHolder", "HandTowelHolder", "ToiletPaperHanger"})

#: Wall thickness of enclosing receptacles (metres), as drawn.
_WALL = {"Fridge": 0.04, "Safe": 0.04, "Microwave": 0.03, "BathtubBasin": 0.05, "SinkBasin": 0.03}


@dataclass
class Surface:
    """A rectangle (x0, z0, x1, z1) at height ``y`` where objects up to ``max_height`` tall may rest.

    ``hang``: the item hangs centred under the holder, its top at ``y`` (the holder's bottom). ``used`` lists footprints
    (x0, z0, x1, z1) already taken, filled in by whoever places objects.
    """

    x0: float
    z0: float
    x1: float
    z1: float
    y: float
    max_height: float
    hang: bool = False
    used: list[tuple[float, float, float, float]] = field(default_factory=list)

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def depth(self) -> float:
        return self.z1 - self.z0


def _local_rect(
    box: Box, facing: float, w0: float, w1: float, d0: float, d1: float
) -> tuple[float, float, float, float]:
    """Floor rectangle given as metres across the front (w) and from the back (d) of a box."""
    quarter = int(round(facing / 90.0)) % 4
    lo, hi = box.lo, box.hi
    if quarter in (0, 2):  # front faces +z (0) or -z (2): width along x
        x0, x1 = lo[0] + w0, hi[0] - w1
        z0, z1 = (lo[2] + d0, hi[2] - d1) if quarter == 0 else (lo[2] + d1, hi[2] - d0)
    else:  # front faces +x (1) or -x (3): width along z
        z0, z1 = lo[2] + w0, hi[2] - w1
        x0, x1 = (lo[0] + d0, hi[0] - d1) if quarter == 1 else (lo[0] + d1, hi[0] - d0)
    return (x0, z0, x1, z1)


def surfaces_of(object_type: str, box: Box, facing: float = 0.0) -> list[Surface]:
    """The surfaces of a receptacle (empty for a non-receptacle type)."""
    entry = OBJECT_TYPES.get(object_type)
    if entry is None or not entry.receptacle or object_type == "Floor":
        return []
    lo, hi = box.lo, box.hi
    height = hi[1] - lo[1]
    if object_type in HANGING_TYPES:
        return [Surface(lo[0], lo[2], hi[0], hi[2], lo[1], 1.0, hang=True)]
    if object_type in INSIDE_TYPES:
        wall = _WALL.get(object_type, 0.02)
        return [Surface(lo[0] + wall, lo[2] + wall, hi[0] - wall, hi[2] - wall, lo[1] + wall, height - 2 * wall)]
    if object_type in ("Sofa", "ArmChair"):
        seat = min(0.45, 0.6 * height)
        arm = min(0.16, 0.2 * _width(box, facing))
        rect = _local_rect(box, facing, arm, arm, min(0.22, 0.35 * _depth(box, facing)), 0.02)
        return [Surface(*rect, lo[1] + seat, 0.6)]
    if object_type == "Chair":
        seat = min(0.47, 0.6 * height)
        rect = _local_rect(box, facing, 0.02, 0.02, min(0.06, 0.25 * _depth(box, facing)), 0.02)
        return [Surface(*rect, lo[1] + seat, 0.5)]
    if object_type == "Bed":
        mattress = min(0.55, 0.75 * height)
        rect = _local_rect(box, facing, 0.05, 0.05, min(0.07, 0.2 * _depth(box, facing)) + 0.05, 0.05)
        return [Surface(*rect, lo[1] + mattress, 0.6)]
    if object_type == "Toilet":
        tank = min(0.2, 0.45 * _depth(box, facing))
        rect = _local_rect(box, facing, 0.02, 0.02, 0.01, _depth(box, facing) - tank)
        return [Surface(*rect, hi[1], 0.4)]
    inset = 0.02 if min(hi[0] - lo[0], hi[2] - lo[2]) > 0.2 else 0.0
    return [Surface(lo[0] + inset, lo[2] + inset, hi[0] - inset, hi[2] - inset, hi[1], 0.6)]


def _width(box: Box, facing: float) -> float:
    quarter = int(round(facing / 90.0)) % 4
    return box.size[0] if quarter in (0, 2) else box.size[2]


def _depth(box: Box, facing: float) -> float:
    quarter = int(round(facing / 90.0)) % 4
    return box.size[2] if quarter in (0, 2) else box.size[0]
