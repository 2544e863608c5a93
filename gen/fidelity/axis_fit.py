"""Which way THOR 2.1's long thin objects lie, settled from the released masks.

The catalogue's sizes come from later THOR assets, and some long thin models changed axis on the
way: at yaw 0 THOR 2.1's butter knife runs along x, the catalogue's along z. A box a quarter turn
off is drawn where the frame shows counter top, and lite refuses the pickup as not visible.

The masks decide it, as they decided the camera (:mod:`alfred_gen.fidelity.camera_fit`): at the
first interaction with an object not yet moved, its origin, its yaw and the agent's pose are known.
The corners of the mask's bounding box, cast with ALFRED's camera onto the horizontal plane through
the origin, span more along the model's long axis than across it. :func:`lying_votes` counts, per
type, the observations whose mask runs along the box the importer gives it and those that run
across it (:data:`alfred_gen.scenes.alfred.loose.LYING_ACROSS` is the result for ALFRED's train set).

The same cast corners say where a flat model's origin sits: their middle, turned into the object's
own frame, lies off the origin where the model's middle does: a spatula's origin sits 7 cm off its
middle along its length, a pan's 8 cm along its handle's axis. :func:`origin_offsets` takes the
median per type (:data:`alfred_gen.scenes.alfred.loose.DEFAULT_SHIFT` is the result for ALFRED's
train set).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.fidelity.camera_fit import MaskObservation
from alfred_gen.scenes.alfred.loose import own_size, pickupable_size
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.world import quarter_turns, turn_horizontal

#: A type counts when its footprint is this many times longer than wide (and it is at most half as
#: tall as long), and a mask when its cast span along one axis is this many times the other.
ELONGATION = 2.5
MASK_ELONGATION = 1.5
#: Yaws within this many degrees of a quarter turn (boxes are axis-aligned).
YAW_TOLERANCE = 15.0
#: ALFRED's frames are this many pixels square; a mask touching their edge may be cut.
FRAME_SIZE = 300


def cast_corners(observation: MaskObservation) -> np.ndarray | None:
    """The mask's bounding-box corners cast onto the horizontal plane through the origin (4 x 3)."""
    camera = Camera(observation.agent[0], observation.agent[1] + ALFRED_CAMERA.height, observation.agent[2],
                    observation.rotation, observation.horizon, ALFRED_CAMERA.field_of_view)
    x1, y1, x2, y2 = observation.box
    points = []
    for u, v in ((x1, y1), (x2 + 1, y1), (x1, y2 + 1), (x2 + 1, y2 + 1)):
        point = camera.on_plane(u, v, observation.target[1])
        if point is None:
            return None  # a corner at or above the horizon never meets the plane below the eye
        points.append(point)
    return np.asarray(points)


def cast_spans(observation: MaskObservation) -> tuple[float, float] | None:
    """(x span, z span) of the mask's bounding-box corners cast onto the plane through the origin."""
    cast = cast_corners(observation)
    if cast is None:
        return None
    return float(np.ptp(cast[:, 0])), float(np.ptp(cast[:, 2]))


def _pickupable_square_to_the_axes(observation: MaskObservation) -> str | None:
    """The observed object's type if it is a pickupable at a yaw near a quarter turn, else None."""
    kind = catalogue.type_of_id(observation.object_id) if observation.object_id else ""
    if kind not in catalogue.OBJECT_TYPES or not catalogue.object_type(kind).pickupable:
        return None
    if not near_quarter_turn(observation.yaw):
        return None
    return kind


def near_quarter_turn(yaw: float) -> bool:
    """Whether ``yaw`` (degrees) lies within :data:`YAW_TOLERANCE` of a quarter turn."""
    return abs(yaw / 90.0 - round(yaw / 90.0)) * 90.0 <= YAW_TOLERANCE


def lying_votes(observations: Iterable[MaskObservation]) -> dict[str, tuple[int, int]]:
    """Object type -> (masks along the importer's box, masks across it), for long thin types."""
    along: Counter[str] = Counter()
    across: Counter[str] = Counter()
    for observation in observations:
        kind = _pickupable_square_to_the_axes(observation)
        if kind is None:
            continue
        sx, sy, sz = pickupable_size(kind, observation.yaw)
        if max(sx, sz) < ELONGATION * min(sx, sz) or sy > max(sx, sz) / 2:
            continue  # not long and flat: a standing bottle's mask is cast long by its height
        spans = cast_spans(observation)
        if spans is None or max(spans) < MASK_ELONGATION * min(spans):
            continue
        if (spans[0] > spans[1]) == (sx > sz):
            along[kind] += 1
        else:
            across[kind] += 1
    return {kind: (along[kind], across[kind]) for kind in sorted(set(along) | set(across))}


def whole_in_frame(observation: MaskObservation) -> bool:
    """Whether the mask's bounding box stays off the frame's edges (the frame cut no part of it)."""
    x1, y1, x2, y2 = observation.box
    last = FRAME_SIZE - 1
    return x1 > 0 and y1 > 0 and x2 < last and y2 < last


def origin_offsets(observations: Iterable[MaskObservation]) -> dict[str, tuple[float, float, int]]:
    """Object type -> (x, z) of its cast mask's middle off its origin in the object's own frame
    (median, metres) and how many masks say so, for flat pickupables (at most half as tall as
    long) at a quarter-turn yaw whose mask the frame's edge does not cut."""
    offsets: dict[str, list[tuple[float, float]]] = {}
    for observation in observations:
        kind = _pickupable_square_to_the_axes(observation)
        if kind is None:
            continue
        sx, sy, sz = own_size(kind)
        if sy > max(sx, sz) / 2 or not whole_in_frame(observation):
            continue  # a standing object's mask is cast long by its height, away from the camera
        cast = cast_corners(observation)
        if cast is None:
            continue
        middle_x = (cast[:, 0].min() + cast[:, 0].max()) / 2 - observation.target[0]
        middle_z = (cast[:, 2].min() + cast[:, 2].max()) / 2 - observation.target[2]
        undo = (4 - quarter_turns(observation.yaw)) % 4
        offsets.setdefault(kind, []).append(turn_horizontal(float(middle_x), float(middle_z), undo))
    return {kind: (float(np.median([x for x, _ in found])), float(np.median([z for _, z in found])), len(found))
            for kind, found in sorted(offsets.items())}
