"""Where THOR 2.1 lays an object's slices, settled from the released masks.

A demo that slices a tomato and then picks up one of its slices records that slice's mask. If the
tomato had not moved before it was sliced, its origin and yaw are its start pose, and the agent's
pose follows from the start teleport (:func:`alfred_gen.fidelity.camera_fit.interactions`). The
mask's centroid, cast with ALFRED's camera onto the horizontal plane through the whole's origin and
turned into the whole's own frame, says where slice k lies along the whole. :func:`slice_positions`
gathers those points and :func:`slice_layout` fits ``first + (k - 1) * step`` to them per type
(:data:`alfred_gen.sim.actions.SLICE_LAYOUT` is the result for ALFRED's train set).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from alfred_gen.fidelity.axis_fit import FRAME_SIZE
from alfred_gen.fidelity.camera_fit import interactions, start_poses
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.world import quarter_turns, turn_horizontal
from alfred_gen.traj.rle import decode_mask

#: (slice number, own x, own z) of one slice's cast mask centroid off the whole's origin (metres).
SlicePoint = tuple[int, float, float]


def _cast_centroid(mask: np.ndarray, agent: tuple[float, float, float], rotation: float, horizon: float,
                   plane_y: float) -> np.ndarray | None:
    rows, cols = np.nonzero(mask)
    last = FRAME_SIZE - 1
    if not len(rows) or cols.min() == 0 or rows.min() == 0 or cols.max() == last or rows.max() == last:
        return None  # the frame's edge cuts the mask: its centroid is not the slice's
    camera = Camera(agent[0], agent[1] + ALFRED_CAMERA.height, agent[2], rotation, horizon,
                    ALFRED_CAMERA.field_of_view)
    return camera.on_plane(float(cols.mean()) + 0.5, float(rows.mean()) + 0.5, plane_y)


def slice_positions(traj: Mapping[str, Any]) -> dict[str, list[SlicePoint]]:
    """Sliced type -> where the first pickup of each of its slices saw it, in one demonstration."""
    start = start_poses(traj)
    moved: set[str] = set()
    sliced: dict[str, tuple[tuple[float, float, float], float]] = {}
    picked: set[str] = set()
    out: dict[str, list[SlicePoint]] = {}
    for low, agent, rotation, horizon in interactions(traj):
        api = low["api_action"]
        object_id, action = api["objectId"], api.get("action")
        if action == "SliceObject" and object_id in start and object_id not in moved:
            sliced[object_id] = start[object_id]
        whole, _, piece = object_id.rpartition("|")
        if action == "PickupObject" and whole in sliced and object_id not in picked and "Sliced_" in piece:
            picked.add(object_id)
            runs = (low.get("discrete_action") or {}).get("args", {}).get("mask")
            origin, yaw = sliced[whole]
            hit = _cast_centroid(decode_mask(runs), agent, rotation, horizon, origin[1]) if runs else None
            if hit is not None:
                kind, number = piece.rsplit("_", 1)
                undo = (4 - quarter_turns(yaw)) % 4
                own = turn_horizontal(float(hit[0] - origin[0]), float(hit[2] - origin[2]), undo)
                out.setdefault(kind, []).append((int(number), own[0], own[1]))
        if action == "PickupObject":
            moved.add(object_id)
    return out


def slice_layout(points: Iterable[SlicePoint], along_x: bool = False) -> tuple[float, float, int]:
    """(first, step, count): the line ``first + (k - 1) * step`` through the per-slice medians of
    ``points`` along the whole's own z (or x), each median weighted by how many points it has."""
    numbers, offsets = [], []
    for number, own_x, own_z in points:
        numbers.append(number)
        offsets.append(own_x if along_x else own_z)
    ks = np.asarray(numbers)
    values = np.asarray(offsets)
    slices = sorted(set(numbers))
    medians = np.array([np.median(values[ks == k]) for k in slices])
    weights = np.sqrt([np.sum(ks == k) for k in slices])
    design = np.vstack([np.ones(len(slices)), np.asarray(slices) - 1.0]).T * weights[:, None]
    first, step = np.linalg.lstsq(design, medians * weights, rcond=None)[0]
    return float(first), float(step), len(values)
