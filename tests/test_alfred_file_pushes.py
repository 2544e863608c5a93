"""A replayed file's own pushes (gen/scenes/alfred/file_pushes.py): a pencil posed through a statue
is drawn where the file's first sight of it shows THOR pushed it, only when the room is completed
from the file; a pencil posed through nothing stays where it was posed."""

from __future__ import annotations

from typing import Any

from alfred_gen.scenes.alfred.file_pushes import file_pushes
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject, format_object_id
from alfred_gen.traj.rle import encode_mask
from tests.test_alfred_file_sights import AGENT_Y, TABLE, _hits, _loose, _rays

PENCIL = ("Pencil_00000004", (0.0, 0.45, 1.2))
STATUE = ("Statue_00000005", (0.12, 0.45, 1.2))  # its foot crosses the pencil's end
SHIFT = (-0.03, 0.08)


def _room(statue: tuple[str, tuple[float, float, float]]) -> Scene:
    table = SceneObject("CoffeeTable", (0.0, 0.0, 1.0), Box((-0.6, 0.0, 0.6), (0.6, 0.45, 1.6)), object_id=TABLE)
    return Scene("FloorPlan9", 9, "Kitchen", (), ((0.0, 0.0),), [table, *(_loose(n, p) for n, p in (PENCIL, statue))],
                 floor_y=0.0, agent_y=AGENT_Y, camera=ALFRED_CAMERA)


def _file(statue: tuple[str, tuple[float, float, float]]) -> dict[str, Any]:
    """A file picking up the pencil, its mask the pencil's pixels ``SHIFT`` off its pose."""
    box = _loose(*PENCIL).box
    lo = (box.lo[0] + SHIFT[0], box.lo[1], box.lo[2] + SHIFT[1])
    moved = Box(lo, (box.hi[0] + SHIFT[0], box.hi[1], box.hi[2] + SHIFT[1]))
    mask, _ = _hits(_rays(), moved)
    poses = [{"objectName": n, "position": dict(zip("xyz", p)), "rotation": {"x": 0.0, "y": 0.0, "z": 0.0}}
             for n, p in (PENCIL, statue)]
    low = {"api_action": {"action": "PickupObject", "objectId": format_object_id("Pencil", PENCIL[1], True)},
           "discrete_action": {"action": "PickupObject", "args": {"mask": encode_mask(mask)}}}
    scene = {"floor_plan": "FloorPlan9", "scene_num": 9, "object_poses": poses,
             "init_action": {"action": "TeleportFull", "x": 0.0, "y": AGENT_Y, "z": 0.0, "rotation": 0, "horizon": 30}}
    return {"scene": scene, "plan": {"low_actions": [low], "high_pddl": []}}


def test_a_pencil_posed_through_a_statue_is_pushed_where_its_first_sight_shows_it() -> None:
    room, traj = _room(STATUE), _file(STATUE)
    [zone] = file_pushes(room, traj)
    assert zone.object_name == PENCIL[0] and zone.holds(PENCIL[0], PENCIL[1]) and not zone.to_floor
    assert abs(zone.shift[0] - SHIFT[0]) < 0.02 and abs(zone.shift[1] - SHIFT[1]) < 0.02


def test_a_pencil_posed_through_nothing_is_not_pushed() -> None:
    aside = (STATUE[0], (0.4, 0.45, 1.4))
    assert file_pushes(_room(aside), _file(aside)) == []


def test_only_a_room_completed_from_the_file_is_pushed_by_it() -> None:
    room, traj = _room(STATUE), _file(STATUE)
    on = SceneLibrary(extra=(room,)).for_start_state("FloorPlan9", traj["scene"], traj)
    assert [z.object_name for z in on.falls if not z.to_floor] == [PENCIL[0]]
    off = SceneLibrary(extra=(room,), complete=False).for_start_state("FloorPlan9", traj["scene"], traj)
    assert not off.falls
