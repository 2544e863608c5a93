"""Start poses THOR's physics does not hold: an imported room's zones where a posed object falls.

THOR runs its physics after SetObjectPoses, so an object posed past the edge of the surface under it
falls to the floor before the demo's first look at it; lite places objects where they are posed. An
imported room carries the zones its demos' masks show such falls in (built by
:mod:`alfred_gen.scenes.alfred.start_falls`, which gives the figures);
:func:`alfred_gen.sim.setup_actions.set_object_poses` moves an object posed in one to where it
landed. Procedural rooms have none.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FallZone:
    """The object named ``object_name``, posed with its origin inside ``lo``-``hi`` (metres), falls
    ``shift`` (dx, dz) to the floor; with ``to_floor`` False it is pushed ``shift`` along its support
    instead, at its posed height (:mod:`alfred_gen.scenes.alfred.file_pushes`)."""

    object_name: str
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]
    shift: tuple[float, float]
    to_floor: bool = True

    def holds(self, object_name: str, position: Sequence[float]) -> bool:
        return object_name == self.object_name and all(
            lo <= p <= hi for lo, p, hi in zip(self.lo, position, self.hi))

    def to_list(self) -> list[Any]:
        pushed = [] if self.to_floor else [False]  # a fall keeps its four fields (catalogue bytes)
        return [self.object_name, list(self.lo), list(self.hi), list(self.shift), *pushed]

    @staticmethod
    def from_list(data: Sequence[Any]) -> FallZone:
        lo, hi, shift = data[1], data[2], data[3]
        return FallZone(str(data[0]), (float(lo[0]), float(lo[1]), float(lo[2])),
                        (float(hi[0]), float(hi[1]), float(hi[2])), (float(shift[0]), float(shift[1])),
                        bool(data[4]) if len(data) > 4 else True)


def fallen_zone(zones: Sequence[FallZone], object_name: str, position: Sequence[float]) -> FallZone | None:
    """The zone whose fall of the object named ``object_name`` posed at ``position`` lies nearest;
    None when no zone holds it."""
    holding = [z for z in zones if z.holds(object_name, position)]
    if not holding:
        return None
    def centre_distance(zone: FallZone) -> float:
        return math.hypot((zone.lo[0] + zone.hi[0]) / 2 - position[0], (zone.lo[2] + zone.hi[2]) / 2 - position[2])
    return min(holding, key=centre_distance)

