"""A replayed file's own masks clear its lines of sight: loose objects drawn no taller than THOR saw over.

Every pixel of the target's mask an ALFRED interaction recorded is a ray from the agent's camera
that reached the target with nothing in front of it (THOR drew the target there). Replaying that
very file, the start state is the one those masks were taken in, so a loose object of the start
state that lite's box puts on such a ray, in front of the target, is drawn too tall: lite sizes a
statue by its type (0.35 m), while THOR's statues run from a lying hand (0.145 m) to a stone figure
(0.586 m), their pivots all at their bottoms, so neither the file nor the catalogue tells them
apart (:file:`notes/issue-69-s88-statues.md`). At FloorPlan206's ``Vase-None-CoffeeTable-206``
(low action 21) every one of the vase's 1,086 mask rays passes over lite's statue footprint at
0.818 m or more, 0.065 m over its base, and lite's 0.35 m statue took 807 of those pixels; at
FloorPlan229's ``Pencil-None-CoffeeTable-229`` (low 71) the side table's statue hid the whole
pencil. (Lowered, the vase's demo passes the in-sample mask eval; the pencil is drawn, but 20
pixels off THOR's, which this does not change.)

So, at restore (:meth:`~alfred_gen.scenes.library.SceneLibrary.for_start_state`, when the room is
completed from the file), each interaction of the file with a mask is cast again (pose by dead
reckoning, :func:`~alfred_gen.scenes.alfred.evidence.interaction_steps`; the camera of ALFRED's
frames), through every pixel of its mask (:func:`~alfred_gen.scenes.alfred.sight_facts.mask_ray_array`),
up to where the ray enters lite's box of the target
(:data:`~alfred_gen.scenes.alfred.sight_cuts.SHORT_OF_TARGET` short of it, as the importer's
:func:`~alfred_gen.scenes.alfred.sight_cuts.clear_sight_lines` does for fixtures). A loose object
still at its start pose then (not the target, not picked up before), that such a ray passes
through, has its top brought down to the lowest height at which those rays cross its footprint
(less :data:`~alfred_gen.scenes.alfred.sight_cuts.CUT_MARGIN`). Only its top moves: what the mask
does not cover may be hidden by the object (a mask cut by what stands in front of the target), and
a ray through a mask pixel says nothing of the pixels beside it. Left as it is:

- a receptacle (what rests on or in it would lose its support);
- an object an interaction's rays cross lower than :data:`MIN_LEFT` over its base, by that
  interaction: there lite's footprint is wrong, not its height, and a cut that low would leave a
  sliver (other interactions may still lower it);
- an object posed twice in the start state (which copy stands where is not known);
- rays that pass farther than :data:`TARGET_SLACK` from lite's target box (boxes are
  approximations: they say nothing).

The held-out figures never see this (:mod:`alfred_gen.fidelity.masks` replays with the room not
completed, ``held_out`` fits rooms with
:func:`~alfred_gen.scenes.alfred.importer.complete_for_start_state` directly): a file's mask would be
measured against a room cut by that same mask. ``--no-complete`` turns it off with the rest of the
completion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import MALFORMED, interaction_steps, is_static_id, type_of_name
from alfred_gen.scenes.alfred.sight_cuts import CUT_MARGIN, SHORT_OF_TARGET
from alfred_gen.scenes.alfred.sight_facts import mask_ray_array
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject, format_object_id
from alfred_gen.sim.world import quarter_turns, turn_horizontal

#: The least an object lowered by its file's masks keeps over its base (m). An interaction whose
#: rays cross lite's footprint of an object lower than this says its footprint is wrong there, not
#: its height (THOR's object did not stand there), and says nothing of its height. Over the 238
#: demos of ALFRED's checkout, of 137 crossings (an interaction's rays through an object) 118 lie
#: within 2 cm of the base or under it (things beside the target, touching its box), 9 at 2-5 cm,
#: 10 higher (to 0.2 m). At 0.02, 7 objects were lowered to 2-4 cm (no episode of the in-sample
#: mask eval changed by it); 0.05 leaves them, and keeps FloorPlan206's statue (6.6 cm left) and
#: FloorPlan229's (14 cm).
MIN_LEFT = 0.05
#: The most pixels of one mask cast as rays (evenly spread over the mask). Fewer rays can only
#: leave an object taller (the lowest crossing of a subset is no lower); the bound only keeps a
#: fridge's or a bed's mask (tens of thousands of pixels) cheap. The vase at FloorPlan206 has
#: 1,086 pixels, all cast.
MAX_RAYS = 4000
#: How far a mask's ray may pass from lite's box of its target and still count as reaching it (m):
#: the box is the type's, about the recorded origin, and a thin target's rays miss it (none of the
#: 73 rays of FloorPlan229's pencil at low action 71 meets its 9 mm box; 56 pass within 0.08 m,
#: all within 0.1 m). The ray is free only up to the grown box, so a wider slack only shortens it.
TARGET_SLACK = 0.1


def posed_box(obj: SceneObject, position: Sequence[float], yaw: float) -> Box:
    """``obj``'s box when lite poses it at ``position`` turned ``yaw`` (what ``SetObjectPoses`` does:
    the box turns in quarter turns about the origin, and keeps its offset from it)."""
    turns = (quarter_turns(yaw) - quarter_turns(obj.rotation[1])) % 4
    (lx, ly, lz), (hx, hy, hz) = obj.box.lo, obj.box.hi
    size = (hx - lx, hy - ly, hz - lz)
    if turns % 2:
        size = (size[2], size[1], size[0])
    centre = obj.box.center
    ox, oy, oz = (obj.position[i] - centre[i] for i in range(3))
    ox, oz = turn_horizontal(ox, oz, turns)
    cx, cy, cz = position[0] - ox, position[1] - oy, position[2] - oz
    return Box((cx - size[0] / 2, cy - size[1] / 2, cz - size[2] / 2),
               (cx + size[0] / 2, cy + size[1] / 2, cz + size[2] / 2))


def _slabs(eye: np.ndarray, rays: np.ndarray, lo: Sequence[float] | np.ndarray, hi: Sequence[float] | np.ndarray,
           axes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per ray (rows of ``rays``), where it enters and leaves box [lo, hi] counting only ``axes``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(rays) < 1e-12, 1e-12, rays)
    index = list(axes)
    t1 = (np.asarray(lo, dtype=float)[index] - eye[index]) * inv[:, index]
    t2 = (np.asarray(hi, dtype=float)[index] - eye[index]) * inv[:, index]
    return np.minimum(t1, t2).max(axis=1), np.maximum(t1, t2).min(axis=1)


def crossing_height(eye: Sequence[float], rays: np.ndarray, target: Box, box: Box) -> float | None:
    """The lowest height at which any of ``rays`` (unit directions from ``eye``) crosses ``box``'s
    footprint on its way to ``target``'s box, among the rays passing through ``box`` before it; None
    when none does. A ray that misses the box ends where it enters it grown by
    :data:`TARGET_SLACK` (only such rays: grown, a table's box would end every ray 0.1 m over its
    top, and a vase's would swallow the statue 1.3 cm in front of it); one missing that too says
    nothing."""
    origin = np.asarray(eye, dtype=float)
    near, far = _slabs(origin, rays, target.lo, target.hi, (0, 1, 2))
    grown = _slabs(origin, rays, np.asarray(target.lo) - TARGET_SLACK, np.asarray(target.hi) + TARGET_SLACK,
                   (0, 1, 2))
    misses = far < np.maximum(near, 0.0)  # these end where they come within the slack instead
    near, far = np.where(misses, grown[0], near), np.where(misses, grown[1], far)
    meets = (far >= np.maximum(near, 0.0)) & (near - SHORT_OF_TARGET > 0.0)
    if not meets.any():
        return None
    rays, length = rays[meets], near[meets] - SHORT_OF_TARGET
    a, b = _slabs(origin, rays, box.lo, box.hi, (0, 2))  # the footprint's column
    a, b = np.maximum(a, 0.0), np.minimum(b, length)
    low = origin[1] + np.minimum(a * rays[:, 1], b * rays[:, 1])  # the ray is straight: lowest at an end
    through = (b > a) & (low < box.hi[1]) & (origin[1] + np.maximum(a * rays[:, 1], b * rays[:, 1]) > box.lo[1])
    if not through.any():
        return None
    return float(low[through].min())


def start_poses_by_name(traj: Mapping[str, Any]) -> dict[str, list[tuple[tuple[float, float, float], float]]]:
    """Object name -> its start poses (position, yaw): more than one for a name ``SetObjectPoses``
    copies."""
    seen: dict[str, list[tuple[tuple[float, float, float], float]]] = {}
    for pose in (traj.get("scene") or {}).get("object_poses") or ():
        p = pose["position"]
        position = (float(p["x"]), float(p["y"]), float(p["z"]))
        yaw = float((pose.get("rotation") or {}).get("y", 0.0))
        seen.setdefault(str(pose["objectName"]), []).append((position, yaw))
    return seen


def sight_crossings(scene: Scene, traj: Mapping[str, Any]) -> dict[str, list[tuple[int, float]]]:
    """Object name -> (low action index, lowest height its rays cross the object's footprint at) for
    every interaction of the file whose mask's rays pass through a loose object of the start state
    (posed once, not a receptacle, still at its start pose) in front of the target."""
    poses = start_poses_by_name(traj)
    loose: dict[str, tuple[str, Box]] = {}  # start id -> (name, posed box)
    for obj in scene.objects:
        entry = catalogue.OBJECT_TYPES.get(obj.object_type)
        if entry is None or not (entry.pickupable or entry.moveable):
            continue
        for position, yaw in poses.get(obj.name, ()):
            loose[format_object_id(type_of_name(obj.name), position, True)] = (obj.name, posed_box(obj, position, yaw))
    fixtures = {o.object_id: o.box for o in scene.objects if is_static_id(o.object_id)}
    eye_y = float(traj["scene"]["init_action"].get("y", scene.agent_y)) + ALFRED_CAMERA.height
    lows = (traj.get("plan") or {}).get("low_actions") or []
    picked = [(i, (low.get("api_action") or {}).get("objectId")) for i, low in enumerate(lows)
              if (low.get("api_action") or {}).get("action") == "PickupObject"]
    out: dict[str, list[tuple[int, float]]] = {}
    for index, target, (x, z, rotation, horizon) in interaction_steps(traj["scene"], lows)[1]:
        moved = {str(o) for i, o in picked if i < index}
        target_box = fixtures.get(target) if is_static_id(target) else \
            (loose[target][1] if target in loose and target not in moved else None)
        runs = ((lows[index].get("discrete_action") or {}).get("args") or {}).get("mask")
        if target_box is None or not runs:
            continue
        camera = Camera(x, eye_y, z, rotation, horizon, ALFRED_CAMERA.field_of_view)
        try:
            pixels = int(np.asarray(runs, dtype=np.int64).reshape(-1, 2)[:, 1].sum())
            rays = mask_ray_array(runs, camera, min(pixels, MAX_RAYS))
        except (ValueError, TypeError):
            continue
        if not len(rays):
            continue
        for object_id, (name, box) in loose.items():
            if (object_id == target or object_id in moved or len(poses[name]) > 1
                    or catalogue.OBJECT_TYPES[type_of_name(name)].receptacle):
                continue
            low = crossing_height((x, eye_y, z), rays, target_box, box)
            if low is not None:
                out.setdefault(name, []).append((index, low))
    return out


def clear_file_sights(scene: Scene, traj: Mapping[str, Any]) -> tuple[Scene, dict[str, float]]:
    """``scene`` with every loose object its file's masks see over drawn no taller than they allow,
    and the lowering of each (name -> metres); ``scene`` itself when none is (or the file is
    malformed: its replay reports what is wrong with it)."""
    try:
        crossings = sight_crossings(scene, traj)
    except MALFORMED:
        return scene, {}
    poses = start_poses_by_name(traj)
    lowered: dict[str, float] = {}
    objects = []
    for obj in scene.objects:
        if crossings.get(obj.name):
            box = posed_box(obj, *poses[obj.name][0])
            tops = [low - CUT_MARGIN for _, low in crossings[obj.name] if low - CUT_MARGIN - box.lo[1] >= MIN_LEFT]
            drop = box.hi[1] - min(tops, default=box.hi[1])
            if drop > 0.0:
                lowered[obj.name] = drop
                top = obj.box.hi[1] - drop
                obj = replace(obj, box=Box(obj.box.lo, (obj.box.hi[0], top, obj.box.hi[2])))
        objects.append(obj)
    if not lowered:
        return scene, {}
    return replace(scene, objects=objects), lowered
