"""A replayed file's own pushes: a pen or pencil posed through another object lies where THOR's
physics pushed it, read from the file's own first sight of it.

THOR runs its physics after ``SetObjectPoses``: a pen or pencil posed through another object is
pushed out of it before the demo sees it, lite draws it where it was posed. Over the first sights
of pens and pencils in the train demos outside the 238 of ``../shared/alfred`` (323 masks whose
object had not moved; the mask's centroid cast with ALFRED's camera onto the plane through the
pose), the 45 posed through another object's lite box lie a median 0.020 m off their pose, 12 of
them more than :data:`PUSHED` (6 more than 0.1 m); the 278 others 0.008 m, 8 of them (2.9%). Where
it goes is no type-level rule (FloorPlan203's pencil fell 0.22 m to the floor off two remote
controls; FloorPlan229's turned 30 degrees and moved 0.1 m off a statue), so only the file itself
says: in the in-sample mask eval, Pencil-None-CoffeeTable-229 (T20190908, low 71) drew its pencil
28 px at the pose, 20 px right of THOR's 73 px, and ALFRED's rule picked the side table under it.

:func:`with_file_pushes` adds, for each such object whose file's first sight of it (before it is
picked up) lies more than :data:`PUSHED` off its pose, a zone that pushes it there along its support
(:class:`~alfred_gen.sim.start_falls.FallZone` with ``to_floor`` False; its box keeps its yaw: lite's
boxes turn in quarter turns). Only the scene lookup with completion on calls it
(:meth:`~alfred_gen.scenes.library.SceneLibrary.for_start_state`), like the file's sights and
landings; the held-out fidelity bench never does (a mask measured against itself says nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from alfred_gen.scenes.alfred.evidence import MALFORMED, interaction_steps, type_of_name
from alfred_gen.scenes.alfred.file_sights import posed_box, start_poses_by_name
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Scene, format_object_id
from alfred_gen.sim.start_falls import FallZone
from alfred_gen.traj.rle import decode_mask

#: The types pushed: long thin pickupables whose origin is their middle (within 6 mm,
#: :data:`alfred_gen.scenes.alfred.loose.DEFAULT_SHIFT`), so a mask's middle is where the origin went.
PUSHED_TYPES = frozenset({"Pen", "Pencil"})
#: A first sight this far (metres) off the pose says THOR moved it (2.9% of unhindered poses do).
PUSHED = 0.05
#: Half the side of the zone about the pose (metres): it holds that pose only.
ZONE = 0.005


def _cast_centroid(agent: Sequence[float], mask: np.ndarray, plane_y: float) -> np.ndarray | None:
    """Where the ray through ``mask``'s centroid, seen from ``agent`` (x, y, z, rotation, horizon),
    meets the horizontal plane at ``plane_y``; None at or above the eye."""
    camera = Camera(agent[0], agent[1] + ALFRED_CAMERA.height, agent[2], agent[3], agent[4],
                    ALFRED_CAMERA.field_of_view)
    rows, cols = np.nonzero(mask)
    return camera.on_plane(float(cols.mean()) + 0.5, float(rows.mean()) + 0.5, plane_y)


def _first_sights(traj: Mapping[str, Any]) -> list[tuple[str, tuple[float, float, float], np.ndarray, list[float]]]:
    """Each pen or pencil of the start state the file interacts with before it moves: (name, pose,
    mask, agent (x, y, z, rotation, horizon)) at that first interaction."""
    lows = traj["plan"]["low_actions"]
    start = {format_object_id(type_of_name(name), position, True): (name, position)
             for name, found in start_poses_by_name(traj).items() for position, _ in found}
    agent_y = float(traj["scene"]["init_action"]["y"])
    seen: set[str] = set()
    out = []
    for index, target, (x, z, rotation, horizon) in interaction_steps(traj["scene"], lows)[1]:
        runs = ((lows[index].get("discrete_action") or {}).get("args") or {}).get("mask")
        if target in start and target not in seen and runs and target.split("|")[0] in PUSHED_TYPES:
            mask = decode_mask(runs)
            if mask.any():
                out.append((*start[target], mask, [x, agent_y, z, rotation, horizon]))
        seen.add(target)
    return out


def file_pushes(scene: Scene, traj: Mapping[str, Any]) -> list[FallZone]:
    """The pushes ``traj``'s own first sights show (none for a malformed file)."""
    try:
        sights = _first_sights(traj)
        poses = start_poses_by_name(traj)
    except MALFORMED:
        return []
    boxes = [(o.name, position, posed_box(o, position, yaw))
             for o in scene.objects for position, yaw in poses.get(o.name, ())]
    zones = []
    for name, position, mask, agent in sights:
        mine = [box for other, at, box in boxes if other == name and at == position]
        if len(mine) != 1 or not any(other != name and mine[0].overlaps(b) for other, _, b in boxes):
            continue
        seen = _cast_centroid(agent, mask, position[1])
        if seen is None:
            continue
        shift = (float(seen[0] - position[0]), float(seen[2] - position[2]))
        if float(np.hypot(*shift)) <= PUSHED:
            continue
        zones.append(FallZone(name, (position[0] - ZONE, position[1] - ZONE, position[2] - ZONE),
                              (position[0] + ZONE, position[1] + ZONE, position[2] + ZONE), shift, to_floor=False))
    return zones


def with_file_pushes(scene: Scene, traj: Mapping[str, Any]) -> Scene:
    """``scene`` with the pushes of ``traj``'s own first sights before the room's falls."""
    zones = file_pushes(scene, traj)
    return replace(scene, falls=(*zones, *scene.falls)) if zones else scene
