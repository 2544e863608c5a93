"""Where one room's THOR laid a whole's slices, from the masks of its demos' slice pickups.

A demo that slices a tomato and then picks up one of its slices records that slice's mask. If the
tomato had not moved before it was sliced, its origin and yaw are its start pose, and the agent's
pose follows from the start teleport by dead reckoning. The mask's centroid, cast with ALFRED's
camera onto the horizontal plane through the whole's origin and turned into the whole's own frame,
says where slice k lies along the whole (a :class:`SliceFact`). :func:`slice_line` fits
``first + (k - 1) * step`` to such points: over all train demos per type that is
:data:`alfred_gen.sim.actions.SLICE_LAYOUT`'s start (:mod:`alfred_gen.fidelity.slice_fit`); over one
room's demos, that room's own loaf (:mod:`alfred_gen.scenes.alfred.slice_layouts`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.world import quarter_turns, turn_horizontal
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_WIDTH, decode_mask


@dataclass(frozen=True)
class SliceFact:
    """Slice ``number`` of a ``kind`` (``BreadSliced``) seen at (``own_x``, ``own_z``) metres off its
    whole's origin, in the whole's own frame (its start yaw undone)."""

    kind: str
    number: int
    own_x: float
    own_z: float

    def to_list(self) -> list[Any]:
        return [self.kind, self.number, self.own_x, self.own_z]

    @staticmethod
    def from_list(data: Sequence[Any]) -> SliceFact:
        return SliceFact(str(data[0]), int(data[1]), float(data[2]), float(data[3]))


def cast_centroid(mask: np.ndarray, agent: tuple[float, float, float], rotation: float, horizon: float,
                  plane_y: float) -> np.ndarray | None:
    """Where the centroid of ``mask`` lies on the horizontal plane at ``plane_y``, seen by ALFRED's
    camera from the agent at ``agent`` (None where the frame's edge cuts the mask: its centroid is
    not the object's)."""
    rows, cols = np.nonzero(mask)
    if (not len(rows) or cols.min() == 0 or rows.min() == 0 or cols.max() == FRAME_WIDTH - 1
            or rows.max() == FRAME_HEIGHT - 1):
        return None
    camera = Camera(agent[0], agent[1] + ALFRED_CAMERA.height, agent[2], rotation, horizon,
                    ALFRED_CAMERA.field_of_view)
    return camera.on_plane(float(cols.mean()) + 0.5, float(rows.mean()) + 0.5, plane_y)


def slice_facts(low_actions: Sequence[Mapping[str, Any]], steps: Iterable[tuple[int, str, Sequence[float]]],
                agent_y: float, start: Mapping[str, tuple[str, tuple[float, float, float], float]]
                ) -> list[SliceFact]:
    """The first pickup of each slice of a whole sliced where it started, in one demo.

    ``steps``: (low action index, target id, [x, z, rotation, horizon]) of every interaction
    (:func:`alfred_gen.scenes.alfred.evidence.interaction_steps`); ``start``: THOR object id ->
    (name, origin, yaw) of the start state's objects.
    """
    moved: set[str] = set()
    sliced: dict[str, tuple[tuple[float, float, float], float]] = {}
    picked: set[str] = set()
    out: list[SliceFact] = []
    for index, object_id, pose in steps:
        low = low_actions[index]
        action = (low.get("api_action") or {}).get("action")
        if action == "SliceObject" and object_id in start and object_id not in moved:
            sliced[object_id] = start[object_id][1:]
        whole, _, piece = object_id.rpartition("|")
        if action == "PickupObject" and whole in sliced and object_id not in picked and "Sliced_" in piece:
            picked.add(object_id)
            runs = (low.get("discrete_action") or {}).get("args", {}).get("mask")
            origin, yaw = sliced[whole]
            agent = (float(pose[0]), agent_y, float(pose[1]))
            hit = cast_centroid(decode_mask(runs), agent, float(pose[2]), float(pose[3]), origin[1]) if runs else None
            if hit is not None:
                kind, number = piece.rsplit("_", 1)
                undo = (4 - quarter_turns(yaw)) % 4
                own = turn_horizontal(float(hit[0] - origin[0]), float(hit[2] - origin[2]), undo)
                out.append(SliceFact(kind, int(number), own[0], own[1]))
        if action == "PickupObject":
            moved.add(object_id)
    return out


def slice_line(points: Iterable[tuple[int, float]]) -> tuple[float, float, int]:
    """(first, step, count): the line ``first + (k - 1) * step`` through the per-slice medians of
    ``points`` ((slice number, offset along the row) pairs), each median weighted by the square root
    of how many points it has."""
    numbers, offsets = [], []
    for number, offset in points:
        numbers.append(number)
        offsets.append(offset)
    ks = np.asarray(numbers)
    values = np.asarray(offsets)
    slices = sorted(set(numbers))
    medians = np.array([np.median(values[ks == k]) for k in slices])
    weights = np.sqrt([np.sum(ks == k) for k in slices])
    design = np.vstack([np.ones(len(slices)), np.asarray(slices) - 1.0]).T * weights[:, None]
    first, step = np.linalg.lstsq(design, medians * weights, rcond=None)[0]
    return float(first), float(step), len(values)
