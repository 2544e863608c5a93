"""Which end of a flat model holds its head, settled from the released masks.

A spatula is a wide blade at one end of a thin handle, a pan a round body at one end of its handle.
Seen from above, the pixels of THOR's mask of one gather at the head: the mask's centroid lies off
the middle of its bounding box towards the head. At the first interaction with an object not yet
moved, its origin, its yaw and the agent's pose are known (:mod:`alfred_gen.fidelity.camera_fit`);
the centroid and the bounding box's corners, cast with ALFRED's camera onto the horizontal plane
through the origin (as :func:`alfred_gen.fidelity.axis_fit.cast_corners` casts the corners) and
turned into the object's own frame, say on which side of the middle the head lies.
:func:`head_votes` counts, per type, the masks whose centroid lies towards each end of each own
axis (:data:`alfred_gen.sim.thor_shapes.HEAD_AT` is the result for ALFRED's train set).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from alfred_gen.fidelity.axis_fit import cast_corners, near_quarter_turn, whole_in_frame
from alfred_gen.fidelity.camera_fit import MaskObservation
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.world import quarter_turns, turn_horizontal

#: A centroid this close to the middle (metres) votes for neither end.
DEAD_ZONE = 0.002

#: Per type, masks voting for own (+x, -x, +z, -z).
Votes = tuple[int, int, int, int]


def cast_centroid(observation: MaskObservation) -> np.ndarray | None:
    """The mask's centroid cast onto the horizontal plane through the object's origin."""
    camera = Camera(observation.agent[0], observation.agent[1] + ALFRED_CAMERA.height, observation.agent[2],
                    observation.rotation, observation.horizon, ALFRED_CAMERA.field_of_view)
    u, v = observation.centroid
    return camera.on_plane(u, v, observation.target[1])


def head_offset(observation: MaskObservation) -> tuple[float, float] | None:
    """(own x, own z) of the cast centroid off the cast bounding box's middle, metres; None for a
    yaw off the quarter turns or a mask the frame's edge cuts."""
    if not near_quarter_turn(observation.yaw) or not whole_in_frame(observation):
        return None
    corners = cast_corners(observation)
    centroid = cast_centroid(observation)
    if corners is None or centroid is None:
        return None
    middle = (corners.min(axis=0) + corners.max(axis=0)) / 2.0
    undo = (4 - quarter_turns(observation.yaw)) % 4
    return turn_horizontal(float(centroid[0] - middle[0]), float(centroid[2] - middle[2]), undo)


def head_votes(observations: Iterable[MaskObservation], types: Iterable[str]) -> dict[str, Votes]:
    """Object type -> masks whose centroid lies towards own +x, -x, +z and -z of the middle."""
    wanted = set(types)
    votes: dict[str, list[int]] = {}
    for observation in observations:
        kind = observation.object_id.split("|")[0]
        if kind not in wanted:
            continue
        offset = head_offset(observation)
        if offset is None:
            continue
        row = votes.setdefault(kind, [0, 0, 0, 0])
        for k, value in enumerate(offset):
            if value > DEAD_ZONE:
                row[2 * k] += 1
            elif value < -DEAD_ZONE:
                row[2 * k + 1] += 1
    return {kind: (row[0], row[1], row[2], row[3]) for kind, row in sorted(votes.items())}


def head_direction(votes: Votes, share: float = 0.8) -> tuple[int, int] | None:
    """The own-frame direction (x, z) most masks put the head at, when at least ``share`` of the
    masks deciding that axis agree; None when no axis is that decided."""
    best: tuple[int, int] | None = None
    best_count = 0
    for axis in (0, 1):
        plus, minus = votes[2 * axis], votes[2 * axis + 1]
        total = plus + minus
        if total == 0 or max(plus, minus) < share * total or max(plus, minus) <= best_count:
            continue
        sign = 1 if plus > minus else -1
        best, best_count = ((sign, 0) if axis == 0 else (0, sign)), max(plus, minus)
    return best
