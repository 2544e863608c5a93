"""Navigation in the `lite` world: which grid points the agent may stand on (the room's reachable
points less those loose floor objects block) and whether a straight line crosses a wall."""

from __future__ import annotations

import numpy as np

from alfred_gen.sim.scene import grid_key
from alfred_gen.sim.world_containment import Containment
from alfred_gen.sim.world_objects import (
    BLOCKING_HEIGHT,
    FLOOR_CONTACT,
    WorldObject,
    footprint_meets,
)


class Navigation(Containment):
    """Where the agent may stand, and what walls are in the way."""

    def floor_blockers(self) -> list[WorldObject]:
        """Loose objects lying on the floor (no receptacle), tall enough to block the agent."""
        return [
            o for o in self.objects
            if o.present and not o.is_sliced and o.parent is None and o.otype.pickupable
            and o.object_id != self.held and not self.is_held_family(o) and o.size[1] >= BLOCKING_HEIGHT
            and o.center[1] - o.size[1] / 2 < self.scene.floor_y + FLOOR_CONTACT
        ]

    def navigable(self, x: float, z: float, blockers: list[WorldObject] | None = None) -> tuple[float, float] | None:
        """The exact reachable point at (x, z), or None if off the grid or blocked by an object."""
        point = self.reachable.get(grid_key(x, z))
        if point is None or abs(point[0] - x) > 1e-3 or abs(point[1] - z) > 1e-3:
            return None
        for o in self.floor_blockers() if blockers is None else blockers:
            if footprint_meets(o.box(), point[0], point[1], turn=o.footprint_turn()):
                return None
        return point

    def reachable_points(self) -> list[tuple[float, float]]:
        """Reachable grid points not blocked by objects, in the scene's order (the scene's margin
        points are not among them: nothing proves them floor)."""
        blockers = self.floor_blockers()
        out = []
        seen = set()
        for x, z in self.scene.reachable:
            key = grid_key(x, z)
            if key in seen:
                continue
            seen.add(key)
            if self.navigable(x, z, blockers) is not None:
                out.append(self.reachable[key])
        return out

    def crosses_wall(self, a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
        """Whether the straight segment a->b passes through a wall box."""
        if len(self.wall_lo) == 0:
            return False
        return bool(segments_hit_boxes(np.array([a], float), np.array([b], float), self.wall_lo, self.wall_hi)[0])


def segments_hit_boxes(
    starts: np.ndarray, ends: np.ndarray, lo: np.ndarray, hi: np.ndarray, margin: float = 0.02
) -> np.ndarray:
    """For K segments and W boxes: whether each segment enters a box before its last ``margin``.

    Slab test, vectorised. The margin lets a segment end on a box's surface (an object standing
    against a wall) without counting the wall as in the way.
    """
    d = ends - starts
    length = np.sqrt((d * d).sum(axis=1))
    d = np.where(np.abs(d) < 1e-12, 1e-12, d)
    inv = 1.0 / d
    t1 = (lo[None, :, :] - starts[:, None, :]) * inv[:, None, :]
    t2 = (hi[None, :, :] - starts[:, None, :]) * inv[:, None, :]
    tmin = np.minimum(t1, t2).max(axis=2)
    tmax = np.maximum(t1, t2).min(axis=2)
    limit = 1.0 - margin / np.maximum(length, 1e-9)
    hit = (tmax >= tmin) & (tmax > 0.0) & (tmin < limit[:, None])
    return hit.any(axis=1)
