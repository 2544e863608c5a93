"""Which camera made ALFRED's frames: its field of view and height, settled from the released masks.

ALFRED never set THOR's ``fieldOfView``, so its frames have whatever ai2thor 2.1.0's default camera
was; sources disagree on whether that is 60 or 90 degrees (DESIGN.md, "Field of view"). The masks
decide it. Every interaction a released demonstration records carries the target's instance mask
in the 300x300 frame, and for the first interaction with a pickupable object that has not been
moved yet, the object's position is exact: its recorded start pose (its id is made from it). The
agent's pose at that step follows from the start teleport and the actions before it (dead
reckoning on the 0.25 m grid). So each such interaction is a point of known world position seen
at a known pose: project it with a candidate camera and see how far from the mask it lands.

A pickupable object's THOR origin is at (or, for a few types, near) the middle of its footprint,
so horizontally it projects onto the middle of its mask; vertically it is at the object's base,
or its middle for some types, so the vertical error is larger for every camera alike.
:func:`camera_fit` gives, per candidate (field of view, camera height above the agent's y), the
median horizontal and vertical distance between the projected origin and the mask's centroid,
and how often the origin lands inside the mask's bounding box; :func:`focal_from_masks` fits the
focal length by least squares on the horizontal coordinates alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.scenes.alfred.evidence import type_of_name
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import GRID_SIZE, format_object_id
from alfred_gen.traj.rle import decode_mask

#: Moves and the heading offset (degrees) each walks along.
_MOVES = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}


@dataclass(frozen=True)
class MaskObservation:
    """A pickupable object at a known position, seen in a released frame at a known agent pose."""

    agent: tuple[float, float, float]  # x, y, z of the agent (THOR's reported position)
    rotation: float
    horizon: float
    target: tuple[float, float, float]  # the object's origin
    centroid: tuple[float, float]  # (u, v) of the mask's pixel centres, averaged
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 of the mask, inclusive
    object_id: str = ""
    yaw: float = 0.0  # the object's recorded yaw (degrees)


def mask_observations(traj: Mapping[str, Any]) -> list[MaskObservation]:
    """The observations one released demonstration gives (see the module docstring)."""
    start = start_id_poses(traj)
    moved: set[str] = set()
    out = []
    for low, agent, rotation, horizon in interactions(traj):
        object_id = low["api_action"]["objectId"]
        runs = (low.get("discrete_action") or {}).get("args", {}).get("mask")
        if object_id in start and object_id not in moved and runs:
            mask = decode_mask(runs)
            rows, cols = np.nonzero(mask)
            if len(rows):
                position, yaw = start[object_id]
                out.append(MaskObservation(
                    agent, rotation, horizon, position,
                    (float(cols.mean()) + 0.5, float(rows.mean()) + 0.5),
                    (int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max())), object_id, yaw))
        if low["api_action"].get("action") == "PickupObject":
            moved.add(object_id)
    return out


def start_id_poses(traj: Mapping[str, Any]) -> dict[str, tuple[tuple[float, float, float], float]]:
    """THOR object id -> (origin, yaw) of each object a demonstration's start state poses; of two
    poses under one id (4 of the 6,574 train demos), the last wins, where
    :func:`~alfred_gen.scenes.alfred.evidence.start_ids_of` keeps the first: the fit was taken so."""
    start = {}
    for pose in traj["scene"].get("object_poses") or ():
        p = pose["position"]
        position = (float(p["x"]), float(p["y"]), float(p["z"]))
        yaw = float((pose.get("rotation") or {}).get("y", 0.0))
        start[format_object_id(type_of_name(str(pose["objectName"])), position, True)] = (position, yaw)
    return start


#: A low action with the agent's position, rotation and horizon when it was taken.
Interaction = tuple[Mapping[str, Any], tuple[float, float, float], float, float]


def interactions(traj: Mapping[str, Any]) -> Iterator[Interaction]:
    """Each low action of a released demonstration that names an object, with the agent's position,
    rotation (0-360) and horizon when it was taken: dead reckoning from the start teleport."""
    init = traj["scene"]["init_action"]
    x, y, z = float(init["x"]), float(init["y"]), float(init["z"])
    rotation, horizon = float(init.get("rotation", 0.0)), float(init.get("horizon", 0.0))
    for low in traj["plan"]["low_actions"]:
        api = low.get("api_action") or {}
        name = api.get("action")
        if name == "RotateRight":
            rotation += 90.0
        elif name == "RotateLeft":
            rotation -= 90.0
        elif name == "LookDown":
            horizon += 15.0
        elif name == "LookUp":
            horizon -= 15.0
        elif name in _MOVES:
            heading = math.radians(rotation + _MOVES[name])
            x, z = x + round(math.sin(heading)) * GRID_SIZE, z + round(math.cos(heading)) * GRID_SIZE
        elif isinstance(api.get("objectId"), str):
            yield low, (x, y, z), rotation % 360.0, horizon


@dataclass(frozen=True)
class CameraFit:
    """How well one candidate camera projects the observations onto their masks."""

    field_of_view: float
    height: float
    observations: int
    median_du: float  # pixels, horizontal
    median_dv: float  # pixels, vertical
    inside_box: float  # share of origins projected within the mask's bounding box (2 px margin)


def camera_fit(observations: Sequence[MaskObservation], field_of_view: float, height: float) -> CameraFit:
    """Project every observation with a (field of view, camera height above the agent) camera."""
    du, dv, inside = [], [], 0
    for o in observations:
        camera = Camera(o.agent[0], o.agent[1] + height, o.agent[2], o.rotation, o.horizon, field_of_view)
        u, v, depth = camera.project(np.asarray(o.target, dtype=float))
        if depth <= 0:
            du.append(math.inf)
            dv.append(math.inf)
            continue
        du.append(abs(float(u) - o.centroid[0]))
        dv.append(abs(float(v) - o.centroid[1]))
        x1, y1, x2, y2 = o.box
        inside += int(x1 - 2 <= u <= x2 + 3 and y1 - 2 <= v <= y2 + 3)
    n = len(observations)
    return CameraFit(field_of_view, height, n, float(np.median(du)) if n else math.nan,
                     float(np.median(dv)) if n else math.nan, inside / n if n else math.nan)


def focal_from_masks(observations: Iterable[MaskObservation], height: float) -> tuple[float, float]:
    """(focal length in pixels, the field of view it means) fitted by least squares to the
    horizontal mask centroids of a 300-pixel-wide frame: ``u - 150 = f * x_cam / z_cam``."""
    xs, ys = [], []
    for o in observations:
        camera = Camera(o.agent[0], o.agent[1] + height, o.agent[2], o.rotation, o.horizon)
        right, _, forward = camera.basis()
        rel = np.asarray(o.target, dtype=float) - camera.position
        depth = float(rel @ forward)
        if depth > 0.05:
            xs.append(float(rel @ right) / depth)
            ys.append(o.centroid[0] - 150.0)
    x, y = np.asarray(xs), np.asarray(ys)
    focal = float((x * y).sum() / (x * x).sum()) if len(x) else math.nan
    return focal, math.degrees(2.0 * math.atan(150.0 / focal)) if focal > 0 else math.nan
