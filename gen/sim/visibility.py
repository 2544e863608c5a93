"""Which objects the agent sees: the visibility-model protocol, reach distances, a geometric model.

The controller asks a *visibility model* — any callable ``model(world, camera, max_distance)``
returning ``(visible, distance)``, two numpy arrays with one row per ``world.objects`` entry — once
per state. The default is pixel visibility (:class:`alfred_gen.sim.pixels.PixelSight`: visible when
at least 10 pixels of the object are in the instance frame and it is within reach).
:class:`GeometricVisibility` is a render-free approximation (frustum and wall tests, no occlusion
by furniture); pass ``visibility=GeometricVisibility()`` to use it, knowing that it accepts some
interactions pixel visibility refuses (a target hidden behind a fridge door, under a table top).

Distance is measured from the agent's vertical axis — the segment from the floor up to the camera
under and through the agent, THOR's visibility capsule — to the nearest point of the object's box;
for anything between floor and eye level that is the horizontal distance to the box's footprint.
Evidence from the released ALFRED demos (objects not moved before the interaction, boxes sized from
the catalogue): all 1,039 interactions lie within 1.35 m by this measure, while 32 of them are more
than 1.5 m from the camera's nearest box point (cloths on the floor, drawers, up to 1.96 m), and
THOR accepted every one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

import numpy as np

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.world import World, segments_hit_boxes


class VisibilityModel(Protocol):
    def __call__(self, world: World, camera: Camera, max_distance: float) -> tuple[np.ndarray, np.ndarray]:
        """(visible bool[N], distance float[N]) over ``world.objects``."""


#: One state's visibility, worked out when called: ``() -> (visible, distance)``. A model may offer
#: ``prepare(world, camera, max_distance) -> Sight`` that reads the live world at once and defers
#: the rest (see :meth:`alfred_gen.sim.pixels.PixelSight.prepare`); the controller then pays for
#: visibility only in states somebody asks about.
Sight = Callable[[], tuple[np.ndarray, np.ndarray]]


def known(visible: np.ndarray, distance: np.ndarray) -> Sight:
    """A :data:`Sight` already worked out."""
    return lambda: (visible, distance)


class PartialSight:
    """A :data:`Sight` that can also work out ``visible`` for some objects only.

    A probe of a pose asks whether two or three objects are in view; drawing only their boxes (and
    what is nearer than them) costs a fraction of drawing every object within reach.
    ``among(rows)`` (bool[N] over ``world.objects``) gives ``visible`` equal to the full answer on
    ``rows`` and False elsewhere.
    """

    __slots__ = ("_full", "_some")

    def __init__(self, full: Sight, some: Callable[[np.ndarray], np.ndarray]) -> None:
        self._full = full
        self._some = some

    def __call__(self) -> tuple[np.ndarray, np.ndarray]:
        return self._full()

    def among(self, rows: np.ndarray) -> np.ndarray:
        return self._some(rows)


def visible_among(sight: Sight, rows: np.ndarray) -> np.ndarray:
    """``visible`` of ``sight`` on ``rows`` (False elsewhere): only those objects' pixels drawn when
    the sight offers :meth:`PartialSight.among`, else the whole answer worked out."""
    among = getattr(sight, "among", None)
    if among is not None:
        return np.asarray(among(rows), dtype=bool)
    return sight()[0] & rows


def prepare(model: VisibilityModel, world: World, camera: Camera, max_distance: float) -> Sight:
    """The model's :data:`Sight` of the current state: deferred when the model offers ``prepare``,
    else worked out now (a model that only reads the world when called would read a later one)."""
    prepare_of = getattr(model, "prepare", None)
    if prepare_of is not None:
        return prepare_of(world, camera, max_distance)
    return known(*model(world, camera, max_distance))


def reach_distances(world: World, camera: Camera, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Distance from the agent's axis (floor to camera, at the camera's x, z) to each box."""
    cx, cy, cz = camera.position
    dx = np.maximum(np.maximum(lo[:, 0] - cx, cx - hi[:, 0]), 0.0)
    dz = np.maximum(np.maximum(lo[:, 2] - cz, cz - hi[:, 2]), 0.0)
    floor = world.scene.floor_y
    dy = np.maximum(np.maximum(lo[:, 1] - cy, floor - hi[:, 1]), 0.0)
    return np.sqrt(dx * dx + dy * dy + dz * dz)


class GeometricVisibility:
    """Visible = eligible (not held, not shut in), within reach, in the view frustum, not behind a wall.

    The frustum test is conservative (a box can pass every plane test while just outside a corner
    of the view); the wall test casts segments from the camera to the box's nearest point and to
    its centre, and the object is seen if either is clear.
    """

    def __call__(self, world: World, camera: Camera, max_distance: float) -> tuple[np.ndarray, np.ndarray]:
        centers, halves, eligible = world.arrays()
        c = np.asarray(camera.position, dtype=float)
        lo, hi = centers - halves, centers + halves
        nearest = np.clip(c, lo, hi)
        distance = reach_distances(world, camera, lo, hi)
        candidates = eligible & (distance <= max_distance)
        if not candidates.any():
            return candidates, distance
        right, up, forward = camera.basis()
        t = math.tan(math.radians(camera.fov_deg) / 2.0)
        # Inward normals of the four side planes and the camera plane; a box is (conservatively)
        # in view unless it lies wholly outside one of them.
        planes = np.stack([t * forward - right, t * forward + right, t * forward - up, t * forward + up, forward])
        reach = (centers - c) @ planes.T + halves @ np.abs(planes).T
        in_view = candidates & (reach >= 0.0).all(axis=1)
        idx = np.nonzero(in_view)[0]
        if len(idx) and len(world.wall_lo):
            ends = np.concatenate([nearest[idx], centers[idx]])
            # Only walls overlapping the region the sight lines span can be in the way.
            span_lo = np.minimum(ends.min(axis=0), c)
            span_hi = np.maximum(ends.max(axis=0), c)
            near_walls = ((world.wall_lo <= span_hi) & (world.wall_hi >= span_lo)).all(axis=1)
            if near_walls.any():
                starts = np.broadcast_to(c, ends.shape)
                blocked = segments_hit_boxes(starts, ends, world.wall_lo[near_walls], world.wall_hi[near_walls])
                occluded = blocked[: len(idx)] & blocked[len(idx):]
                in_view[idx[occluded]] = False
        return in_view, distance
