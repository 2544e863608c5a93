"""The pose that best shows an object: where EQA's expert stops, and where a colour is read.

EQA's shortest paths end where the question's target is in view; ours end at the grid pose that
shows the most pixels of it. Searching every pose of a house is wasteful, so the candidates are the
poses a person would try (:func:`candidate_poses`): the reachable points within
:data:`VIEW_RADIUS` of the object's footprint (the :data:`MAX_VIEW_CELLS` nearest), each turned to
the one or two headings whose view holds the object's centre, and tilted to the 15-degree step
nearest the direction of the centre. The :data:`REFINED` best of those are also tried one step
up and one step down. Of all poses tried, the one with the most pixels of the object wins; ties
go to the nearer point, then to the smaller pose values, so the choice is deterministic. An object
showing fewer than :data:`MIN_VIEW_PIXELS` pixels from every candidate has no best view and is
never asked about.

Pixels come from a :class:`ViewSource`: lite's renderer looks from any pose without moving the
agent (:class:`LiteViewSource`, exact and fast: see
:meth:`alfred_gen.sim.pixels.PixelSight.object_view`); any other controller is teleported to each
pose and its instance masks read (:class:`SteppedViewSource`, THOR's way).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from alfred_gen.eqa.colors import ColorReading, read_color
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.scene import Pose

#: Candidate points stand within this floor distance (metres) of the object's footprint ...
VIEW_RADIUS = 3.0
#: ... and at most this many of the nearest are tried.
MAX_VIEW_CELLS = 32
#: How many of the best centred views are also tried one tilt step up and down.
REFINED = 4
#: A heading is tried when the object's centre is within the half field of view plus this margin.
HEADING_MARGIN = 10.0
#: THOR's camera horizons: -30 (up) to 60 (down) in 15 degree steps.
HORIZON_MIN, HORIZON_MAX, HORIZON_STEP = -30, 60, 15
#: Half the (square, 90 degree) field of view.
HALF_FOV = 45.0
#: An object is seen when at least this many of its pixels (of 300 x 300) are in the frame.
MIN_VIEW_PIXELS = 100


@dataclass(frozen=True)
class View:
    """An object's best view: the agent's pose there and how many of its pixels the frame shows."""

    pose: Pose
    pixels: int

    def to_dict(self) -> dict[str, Any]:
        return {"pose": self.pose.to_list(), "pixels": self.pixels}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> View:
        return View(Pose.from_list(data["pose"]), int(data["pixels"]))


class ViewSource(Protocol):
    """Pixels of one object from a pose: its mask, and (``rgb``) a frame whose colours are right
    under that mask."""

    def object_pixels(self, pose: Pose, object_id: str, *, rgb: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """(H x W bool mask, H x W x 3 uint8 frame or None)."""


class LiteViewSource:
    """lite's renderer, from any pose, with the agent left where it is."""

    def __init__(self, controller: Any) -> None:
        self.controller = controller

    def object_pixels(self, pose: Pose, object_id: str, *, rgb: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        base = self.controller.camera()
        camera = dataclasses.replace(base, x=float(pose.x), z=float(pose.z), rotation_deg=float(pose.rotation),
                                     horizon_deg=float(pose.horizon))
        return self.controller.pixels.object_view(self.controller.world, camera, object_id, rgb=rgb)


class SteppedViewSource:
    """Any controller rendering RGB and instance masks: teleport to the pose, read the event."""

    def __init__(self, controller: Controller, agent_y: float) -> None:
        self.controller = controller
        self.agent_y = agent_y

    def object_pixels(self, pose: Pose, object_id: str, *, rgb: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        event = self.controller.step({"action": "TeleportFull", "x": float(pose.x), "y": self.agent_y,
                                      "z": float(pose.z), "rotation": float(pose.rotation),
                                      "horizon": float(pose.horizon), "rotateOnTeleport": True})
        frame = getattr(event, "frame", None)
        shape = frame.shape[:2] if frame is not None else (300, 300)
        if not event.metadata.get("lastActionSuccess", False):
            return np.zeros(shape, dtype=bool), None
        masks = getattr(event, "instance_masks", None) or {}
        mask = masks.get(object_id)
        if mask is None:
            mask = np.zeros(shape, dtype=bool)
        return np.asarray(mask, dtype=bool), (np.asarray(frame) if rgb and frame is not None else None)


def _floor_distance(x: float, z: float, lo: Sequence[float], hi: Sequence[float]) -> float:
    dx = max(lo[0] - x, 0.0, x - hi[0])
    dz = max(lo[2] - z, 0.0, z - hi[2])
    return math.hypot(dx, dz)


def _turn(a: float, b: float) -> float:
    """The smaller angle between two headings, degrees."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def candidate_poses(lo: Sequence[float], hi: Sequence[float], reachable: Sequence[tuple[float, float]],
                    camera_y: float, limit: int | None = MAX_VIEW_CELLS) -> list[tuple[float, Pose]]:
    """(floor distance, pose) of every centred candidate view of the box ``lo``-``hi`` (module
    docstring), nearest first; from the ``limit`` nearest points (None: every point within
    :data:`VIEW_RADIUS`, as ``eval eqa``'s viewing region needs)."""
    cx, cy, cz = ((a + b) / 2.0 for a, b in zip(lo, hi))
    points = sorted((round(_floor_distance(x, z, lo, hi), 6), x, z) for x, z in reachable)
    chosen = [p for p in points if p[0] <= VIEW_RADIUS][:limit]
    out: list[tuple[float, Pose]] = []
    for distance, x, z in chosen:
        ground = math.hypot(cx - x, cz - z)
        bearing = math.degrees(math.atan2(cx - x, cz - z)) % 360.0
        pitch = math.degrees(math.atan2(camera_y - cy, max(ground, 1e-6)))
        horizon = int(min(HORIZON_MAX, max(HORIZON_MIN, HORIZON_STEP * round(pitch / HORIZON_STEP))))
        for rotation in (0, 90, 180, 270):
            if ground > 1e-6 and _turn(rotation, bearing) > HALF_FOV + HEADING_MARGIN:
                continue
            out.append((distance, Pose(x, z, rotation, horizon)))
    return out


def _tilted(pose: Pose) -> list[Pose]:
    return [Pose(pose.x, pose.z, pose.rotation, pose.horizon + step)
            for step in (-HORIZON_STEP, HORIZON_STEP) if HORIZON_MIN <= pose.horizon + step <= HORIZON_MAX]


def best_view(source: ViewSource, object_id: str, lo: Sequence[float], hi: Sequence[float],
              reachable: Sequence[tuple[float, float]], camera_y: float,
              min_pixels: int = MIN_VIEW_PIXELS) -> View | None:
    """The candidate pose showing the most pixels of the object (module docstring), or None."""
    scored: list[tuple[tuple[Any, ...], View]] = []

    def score(distance: float, pose: Pose) -> None:
        mask, _ = source.object_pixels(pose, object_id)
        pixels = int(np.count_nonzero(mask))
        scored.append(((-pixels, distance, pose.x, pose.z, pose.rotation, pose.horizon), View(pose, pixels)))

    for distance, pose in candidate_poses(lo, hi, reachable, camera_y):
        score(distance, pose)
    centred = sorted(scored)[:REFINED]
    for key, view in centred:
        if view.pixels > 0:
            for pose in _tilted(view.pose):
                score(key[1], pose)
    if not scored:
        return None
    key, view = min(scored)
    return view if view.pixels >= min_pixels else None


def color_at(source: ViewSource, view: View, object_id: str) -> ColorReading:
    """The object's colour as the frame at ``view`` shows it (:func:`~alfred_gen.eqa.colors.read_color`)."""
    mask, frame = source.object_pixels(view.pose, object_id, rgb=True)
    if frame is None or not mask.any():
        return ColorReading(None, ())
    return read_color(frame[mask])
