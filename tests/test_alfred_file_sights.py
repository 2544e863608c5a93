"""A replayed file's own masks clear its lines of sight (gen/scenes/alfred/file_sights.py): a loose
object standing in front of a target on the rays of the target's recorded mask is drawn no taller
than where they cross it, only when the room is completed from the file."""

from __future__ import annotations

from typing import Any

import numpy as np

from alfred_gen.scenes.alfred.file_sights import MIN_LEFT, clear_file_sights
from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.scenes.alfred.sight_cuts import CUT_MARGIN, SHORT_OF_TARGET
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject, format_object_id
from alfred_gen.traj.rle import encode_mask

AGENT_Y = 0.9
EYE = (0.0, AGENT_Y + ALFRED_CAMERA.height, 0.0)
TABLE = "CoffeeTable|+00.00|+00.00|+01.00"
VASE = ("Vase_00000001", (0.0, 0.45, 1.25))
STATUE = ("Statue_00000002", (0.0, 0.45, 0.85))  # 0.4 m in front of the vase, on the agent's way to it
ASIDE = ("Statue_00000003", (0.4, 0.45, 1.3))  # on the table, on no ray to the vase


def _loose(name: str, position: tuple[float, float, float]) -> SceneObject:
    kind = name.split("_")[0]
    return SceneObject(kind, position, loose_box(kind, position, 0.0, 0.0), name=name,
                       object_id=format_object_id(kind, position, True))


def _room(statue: tuple[str, tuple[float, float, float]] = STATUE) -> Scene:
    table = SceneObject("CoffeeTable", (0.0, 0.0, 1.0), Box((-0.6, 0.0, 0.6), (0.6, 0.45, 1.6)), object_id=TABLE)
    objects = [table, *(_loose(n, p) for n, p in (VASE, statue, ASIDE))]
    return Scene("FloorPlan9", 9, "Kitchen", (), ((0.0, 0.0),), objects, floor_y=0.0, agent_y=AGENT_Y,
                 camera=ALFRED_CAMERA)


def _rays() -> np.ndarray:
    """Unit directions of every pixel of the frame the agent sees from (0, 0) facing +z, 30 down."""
    camera = Camera(EYE[0], EYE[1], EYE[2], 0.0, 30.0, ALFRED_CAMERA.field_of_view)
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    rays = forward[None, None, :] + cols[None, :, None] * right + rows[:, None, None] * up
    return rays / np.linalg.norm(rays, axis=2, keepdims=True)


def _hits(rays: np.ndarray, box: Box) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel: whether its ray meets ``box``, and where it enters it."""
    eye = np.asarray(EYE)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(rays) < 1e-12, 1e-12, rays)
    t1, t2 = (np.asarray(box.lo) - eye) * inv, (np.asarray(box.hi) - eye) * inv
    near, far = np.minimum(t1, t2).max(axis=2), np.maximum(t1, t2).min(axis=2)
    return far >= np.maximum(near, 0.0), near


def _file(statue_height: float, at: tuple[str, tuple[float, float, float]] = STATUE) -> tuple[dict[str, Any], float]:
    """A file picking up the vase, its mask the vase's pixels THOR would show over a statue
    ``statue_height`` tall standing ``at``; and the lowest height its rays cross lite's statue
    footprint at, short of the vase."""
    rays = _rays()
    statue = _loose(*at).box
    vase, _ = _hits(rays, _loose(*VASE).box)
    short = Box(statue.lo, (statue.hi[0], statue.lo[1] + statue_height, statue.hi[2]))
    blocked, _ = _hits(rays, short)
    mask = vase & ~blocked
    over, t = _hits(rays, Box((statue.lo[0], -9.0, statue.lo[2]), (statue.hi[0], 9.0, statue.hi[2])))
    crossing = EYE[1] + t * rays[..., 1]  # where each ray enters the statue's column
    _, entry = _hits(rays, _loose(*VASE).box)
    leaves = np.minimum((statue.hi[2] - EYE[2]) / rays[..., 2], entry - SHORT_OF_TARGET)
    lowest = float(np.minimum(crossing, EYE[1] + leaves * rays[..., 1])[mask & over].min())
    poses = [{"objectName": n, "position": dict(zip("xyz", p)), "rotation": {"x": 0.0, "y": 0.0, "z": 0.0}}
             for n, p in (VASE, at, ASIDE)]
    low = {"api_action": {"action": "PickupObject", "objectId": format_object_id("Vase", VASE[1], True)},
           "discrete_action": {"action": "PickupObject", "args": {"mask": encode_mask(mask)}}}
    scene = {"floor_plan": "FloorPlan9", "scene_num": 9, "object_poses": poses,
             "init_action": {"action": "TeleportFull", "x": 0.0, "y": AGENT_Y, "z": 0.0, "rotation": 0, "horizon": 30}}
    return {"scene": scene, "plan": {"low_actions": [low], "high_pddl": []}}, lowest


def _top(scene: Scene, name: str) -> float:
    return next(o.box.hi[1] for o in scene.objects if o.name == name)


def test_a_statue_in_front_of_a_targets_recorded_rays_is_drawn_no_taller_than_they_cross_it() -> None:
    room = _room()
    traj, lowest = _file(0.08)
    base = _loose(*STATUE).box.lo[1]
    assert lowest > base + 0.07 and _top(room, STATUE[0]) > lowest  # lite's 0.35 m statue hides the vase
    cleared, lowered = clear_file_sights(room, traj)
    top = _top(cleared, STATUE[0])
    assert set(lowered) == {STATUE[0]}
    assert lowest - 0.01 < top <= lowest  # down to where the lowest ray crosses it, no further
    for name in (VASE[0], ASIDE[0]):  # the target and what stands on no ray keep their heights
        assert _top(cleared, name) == _top(room, name)
    assert cleared.object(TABLE) == room.object(TABLE)


def test_an_object_the_rays_cross_at_its_base_keeps_its_height() -> None:
    touching = (STATUE[0], (0.0, 0.45, 1.088))  # right in front of the vase, THOR's statue 1 cm tall
    room = _room(touching)
    traj, lowest = _file(0.01, touching)  # THOR's rays pass where lite's statue stands at its base
    assert lowest < _loose(*touching).box.lo[1] + MIN_LEFT + CUT_MARGIN
    cleared, lowered = clear_file_sights(room, traj)
    assert lowered == {} and cleared is room


def test_only_a_room_completed_from_the_file_is_cleared_by_it() -> None:
    room = _room()
    traj, lowest = _file(0.08)
    on = SceneLibrary(extra=(room,)).for_start_state("FloorPlan9", traj["scene"], traj)
    assert _top(on, STATUE[0]) <= lowest
    off = SceneLibrary(extra=(room,), complete=False).for_start_state("FloorPlan9", traj["scene"], traj)
    assert _top(off, STATUE[0]) == _top(room, STATUE[0])  # --no-complete: the room as the catalogue has it
