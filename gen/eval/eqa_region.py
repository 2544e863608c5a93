"""The target's viewing region: where EQA measures an agent's distances to.

The paper scores navigation by the geodesic distance to the *target*, not to the point where its
shortest-path expert happened to stop: an agent that ends anywhere it can see the target has
d_T = 0. Our region is every reachable grid point from which the target shows at least
:data:`~alfred_gen.eqa.views.MIN_VIEW_PIXELS` pixels (the rule ``eqa paths`` checks its expert's
last frame with) for some heading and camera tilt. The poses tried per point are those the best-view
search tries (:mod:`alfred_gen.eqa.views`): points within :data:`~alfred_gen.eqa.views.VIEW_RADIUS`
of the target's footprint (all of them here, not only the nearest), the headings whose view holds
the target's centre, the tilt nearest the direction of the centre and one step up and down. The
expert's stop point always belongs to it (its frame showed the target when it was recorded).

With lite the pixels are counted on a :data:`REGION_FRAME` x :data:`REGION_FRAME` render of each
view (:class:`SmallLiteViewSource`: a third of the frame's side, each pixel standing for nine, so
the threshold is :data:`MIN_VIEW_PIXELS` / 9 rounded up): a region takes a few hundred views, and
that render costs a third of the full one. On the first two questions measured it found one point
more than full frames did (88 for 87, 108 for 107). With THOR the agent is teleported to each pose
(full frames).

Distances to the region are a breadth-first search from all of its points at once
(:func:`~alfred_gen.eqa.geodesic.region_field`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from alfred_gen.eqa.views import HORIZON_MAX, HORIZON_MIN, HORIZON_STEP, MIN_VIEW_PIXELS, ViewSource, candidate_poses
from alfred_gen.sim.scene import Pose

#: Side of lite's renders for the region (pixels).
REGION_FRAME = 100


class SmallLiteViewSource:
    """lite's renderer at ``size`` x ``size`` from any pose, the agent left where it is."""

    def __init__(self, controller: Any, size: int = REGION_FRAME) -> None:
        self.controller = controller
        self.size = size

    def object_pixels(self, pose: Pose, object_id: str, *, rgb: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        camera = dataclasses.replace(self.controller.camera(), x=float(pose.x), z=float(pose.z),
                                     rotation_deg=float(pose.rotation), horizon_deg=float(pose.horizon),
                                     width=self.size, height=self.size)
        return self.controller.pixels.object_view(self.controller.world, camera, object_id, rgb=rgb)


def small_min_pixels(size: int = REGION_FRAME, frame: int = 300) -> int:
    """:data:`MIN_VIEW_PIXELS` of a ``frame``-pixel frame, in pixels of a ``size``-pixel render."""
    return math.ceil(MIN_VIEW_PIXELS * (size / frame) ** 2)


def viewing_region(source: ViewSource, object_id: str, box: Sequence[Sequence[float]],
                   reachable: Sequence[tuple[float, float]], camera_y: float,
                   stop: tuple[float, float] | None = None,
                   min_pixels: int = MIN_VIEW_PIXELS) -> list[tuple[float, float]]:
    """The reachable points (x, z) from which ``object_id`` (box ``[lo, hi]``) is seen (module
    docstring), sorted; ``stop`` (the expert's stop point) is always among them."""
    lo, hi = box
    seen: set[tuple[float, float]] = set()
    for _distance, pose in candidate_poses(lo, hi, reachable, camera_y, limit=None):
        point = (pose.x, pose.z)
        if point in seen:
            continue
        for horizon in (pose.horizon, pose.horizon - HORIZON_STEP, pose.horizon + HORIZON_STEP):
            if not HORIZON_MIN <= horizon <= HORIZON_MAX:
                continue
            mask, _ = source.object_pixels(Pose(pose.x, pose.z, pose.rotation, horizon), object_id)
            if int(np.count_nonzero(mask)) >= min_pixels:
                seen.add(point)
                break
    if stop is not None:
        seen.add((float(stop[0]), float(stop[1])))
    return sorted(seen)

