"""A mask read on the upright plane that faces the camera's heading, not in the frame's pixels.

A faucet is drawn as a thin upright slab facing the agent (:mod:`~alfred_gen.scenes.alfred.faucet_fits`),
its parts at even fractions of its width and height. The camera looks down at it (ALFRED's horizon
is 30 to 60 degrees), so the slab's image is a keystone, not a rectangle: its lower rows lie
farther along the camera's axis than its upper ones and are drawn narrower and closer together
(about a fifth, top to bottom, for a kitchen faucet 0.8 m away). A grid laid over a mask's
bounding box in the frame, evenly in pixels, therefore puts each cell at the wrong height and side
of the slab: a leaning neck came out bent, up to a few pixels off THOR's in its middle rows while
its ends matched (FloorPlan14's, 17's, 22's at session 95).

On an upright plane facing the heading, at unit distance along it, a frame point has the
coordinates ``(across, up)``: the ratio of its ray's components to the right of the heading and
up to its component along the heading. Those are the same for the plane at any distance (they
scale with it), so a mask's extent and its grid can be read in them from the frame alone, before
anyone knows how far the faucet stands; the slab drawn at the fractions they give lands where the
mask has it. A frame row is a level line on the plane; a column is not (it leans with the keystone).
"""

from __future__ import annotations

import numpy as np

from alfred_gen.sim.camera import Camera


def _axes(camera: Camera) -> tuple[np.ndarray, np.ndarray]:
    """The heading (level, unit) and the level direction to its right, in the world."""
    right, _, _ = camera.basis()  # level: the camera has no roll
    return np.array([-right[2], 0.0, right[0]]), right


def to_plane(camera: Camera, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(across, up)`` of frame points (``u`` columns, ``v`` rows, a pixel's middle at +0.5) on
    the upright plane one metre along the camera's heading: across to the right, up from the eye."""
    heading, level_right = _axes(camera)
    right, up, forward = camera.basis()
    f = camera.focal
    du = (np.asarray(u, dtype=float) - camera.width / 2.0) / f
    dv = (camera.height / 2.0 - np.asarray(v, dtype=float)) / f
    rays = forward[None] + du[:, None] * right[None] + dv[:, None] * up[None]
    along = rays @ heading
    return (rays @ level_right) / along, rays[:, 1] / along


def to_frame(camera: Camera, across: np.ndarray, up_: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The frame points (``u``, ``v``) of plane points ``(across, up)`` (the inverse of :func:`to_plane`)."""
    heading, level_right = _axes(camera)
    right, up, forward = camera.basis()
    rays = heading[None] + np.asarray(across, dtype=float)[:, None] * level_right[None] \
        + np.asarray(up_, dtype=float)[:, None] * np.array([0.0, 1.0, 0.0])[None]
    depth = rays @ forward
    f = camera.focal
    return camera.width / 2.0 + f * (rays @ right) / depth, camera.height / 2.0 - f * (rays @ up) / depth


def ray_of(camera: Camera, across: float, up_: float) -> tuple[float, float, float]:
    """The unit world direction from the eye through the plane point ``(across, up)``, rounded as
    the catalogue keeps rays."""
    heading, level_right = _axes(camera)
    ray = heading + across * level_right + np.array([0.0, up_, 0.0])
    unit = ray / float(np.linalg.norm(ray))
    return (round(float(unit[0]), 5), round(float(unit[1]), 5), round(float(unit[2]), 5))


def extent(camera: Camera, mask: np.ndarray) -> tuple[float, float, float, float]:
    """(left, right, top, bottom) of a mask on the plane: the outer edges of its pixels (THOR's
    outline lies between a mask's outermost pixel's middle and the next one's, at the edge on
    average, and lite draws a pixel whose middle its shape covers)."""
    rows, cols = np.nonzero(mask)
    left, _ = to_plane(camera, cols.astype(float), rows + 0.5)
    right, _ = to_plane(camera, cols + 1.0, rows + 0.5)
    _, top = to_plane(camera, cols + 0.5, rows.astype(float))
    _, bottom = to_plane(camera, cols + 0.5, rows + 1.0)
    return float(left.min()), float(right.max()), float(top.max()), float(bottom.min())


#: Points sampled across and up each cell of :func:`plane_fill` (squared per cell).
SAMPLES = 4


def plane_fill(camera: Camera, mask: np.ndarray, grid: int) -> np.ndarray:
    """How ``mask`` fills its :func:`extent` on the plane: a ``grid`` x ``grid`` array (rows from
    the top, each from the left) of the share of :data:`SAMPLES` squared points evenly spread over
    each cell that fall in the mask's pixels (points past the frame read its nearest border pixel)."""
    left, right, top, bottom = extent(camera, mask)
    steps = (np.arange(grid * SAMPLES) + 0.5) / (grid * SAMPLES)
    across, up_ = np.meshgrid(left + steps * (right - left), top - steps * (top - bottom))
    u, v = to_frame(camera, across.ravel(), up_.ravel())
    height, width = mask.shape
    cols = np.clip(np.floor(u).astype(np.int64), 0, width - 1)
    rows = np.clip(np.floor(v).astype(np.int64), 0, height - 1)
    return np.asarray(mask[rows, cols].reshape(grid, SAMPLES, grid, SAMPLES).mean(axis=(1, 3)))
