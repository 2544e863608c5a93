"""The agent's pinhole camera, with THOR's conventions, for the `lite` renderer.

THOR (Unity) is left-handed with y up: rotation 0 looks along +z, 90 along +x; the camera's right
is then +x (rotation 0) or -z (rotation 90). Horizon is the pitch and positive horizon looks DOWN.
The field of view is vertical (Unity's ``fieldOfView``), 90 degrees by default, pixels are square.

Pixel ``(row, col)`` covers ``[col, col+1) x [row, row+1)`` in image coordinates (row 0 at the
top); its ray goes through the centre ``(col + 0.5, row + 0.5)``. Depth is THOR's: the distance
along the camera's forward axis (Unity's linear eye depth), not the length of the ray.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: Unity's default clip planes, as THOR's camera uses them (metres).
NEAR_PLANE = 0.1
FAR_PLANE = 20.0


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at a world position, yawed by ``rotation_deg`` and pitched by ``horizon_deg``."""

    x: float
    y: float
    z: float
    rotation_deg: float
    horizon_deg: float
    fov_deg: float = 90.0
    width: int = 300
    height: int = 300

    def __post_init__(self) -> None:
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"camera size must be positive, got {self.width}x{self.height}")
        if not 0.0 < self.fov_deg < 180.0:
            raise ValueError(f"field of view must be in (0, 180) degrees, got {self.fov_deg}")

    @property
    def position(self) -> np.ndarray:
        return np.array([self.x, self.y, self.z], dtype=np.float64)

    @property
    def focal(self) -> float:
        """Focal length in pixels: half the image height over tan(half the vertical FOV)."""
        return _focal(self.height, self.fov_deg)

    def basis(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """World-space unit vectors (right, up, forward) of the camera."""
        return _basis(float(self.rotation_deg), float(self.horizon_deg))

    def ray(self, u: float, v: float) -> np.ndarray:
        """The world direction (not unit) through the frame point (``u``, ``v``): pixels from the
        frame's left and top edges, a pixel's middle at +0.5."""
        right, up, forward = self.basis()
        return forward + ((u - self.width / 2) / self.focal) * right - ((v - self.height / 2) / self.focal) * up

    def on_plane(self, u: float, v: float, plane_y: float) -> np.ndarray | None:
        """Where the ray through the frame point (``u``, ``v``) meets the horizontal plane at
        ``plane_y``; None when the ray does not go down (it never meets a plane below the eye)."""
        ray = self.ray(u, v)
        if ray[1] >= -1e-6:
            return None
        return np.asarray(self.position + ((plane_y - self.y) / ray[1]) * ray)

    @property
    def yaw_quadrant(self) -> int | None:
        """0-3 when the yaw is a multiple of 90 degrees (the renderer's fast path), else None."""
        quarter = self.rotation_deg / 90.0
        nearest = round(quarter)
        if abs(quarter - nearest) > 1e-9:
            return None
        return int(nearest) % 4

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Image coordinates ``(u, v)`` (columns, rows; pixel centres at +0.5) and depth of points.

        ``points`` is (N, 3) or (3,). ``u``/``v`` are meaningful only where ``depth > 0``.
        """
        pts = np.asarray(points, dtype=np.float64)
        single = pts.ndim == 1
        pts = pts.reshape(-1, 3)
        right, up, forward = self.basis()
        rel = pts - self.position
        xc = rel @ right
        yc = rel @ up
        zc = rel @ forward
        f = self.focal
        with np.errstate(divide="ignore", invalid="ignore"):
            u = self.width / 2.0 + f * xc / zc
            v = self.height / 2.0 - f * yc / zc
        if single:
            return u[0], v[0], zc[0]
        return u, v, zc

    def pixel_offsets(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-column ``u'`` and per-row ``v'`` of pixel centres on the image plane at depth 1.

        The ray of pixel (row, col) is ``forward + u'[col] * right + v'[row] * up``; its forward
        component is 1, so the ray parameter of a hit IS THOR's depth.
        """
        return _pixel_offsets(self.width, self.height, float(self.fov_deg))


@lru_cache(maxsize=64)
def _focal(height: int, fov_deg: float) -> float:
    return (height / 2.0) / math.tan(math.radians(fov_deg) / 2.0)


@lru_cache(maxsize=256)
def _basis(rotation_deg: float, horizon_deg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    yaw = math.radians(rotation_deg)
    pitch = math.radians(horizon_deg)
    sy, cy = _exact_sin_cos(yaw, rotation_deg)
    sp, cp = _exact_sin_cos(pitch, horizon_deg)
    right = np.array([cy, 0.0, -sy])
    forward = np.array([sy * cp, -sp, cy * cp])
    up = np.array([sy * sp, cp, cy * sp])
    for vec in (right, up, forward):
        vec.setflags(write=False)
    return right, up, forward


def _exact_sin_cos(radians: float, degrees: float) -> tuple[float, float]:
    """sin/cos that are exactly 0/±1 at multiples of 90 degrees (so axis-aligned depths are exact)."""
    quarter = degrees / 90.0
    if abs(quarter - round(quarter)) < 1e-12:
        return ((0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0))[int(round(quarter)) % 4]
    return math.sin(radians), math.cos(radians)


@lru_cache(maxsize=64)
def _pixel_offsets(width: int, height: int, fov_deg: float) -> tuple[np.ndarray, np.ndarray]:
    f = _focal(height, fov_deg)
    cols = (np.arange(width, dtype=np.float64) + 0.5 - width / 2.0) / f
    rows = (height / 2.0 - (np.arange(height, dtype=np.float64) + 0.5)) / f
    cols.setflags(write=False)
    rows.setflags(write=False)
    return cols, rows
