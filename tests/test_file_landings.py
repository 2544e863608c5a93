"""A replayed file's own landings (issue 69): where its own masks show THOR put a thing into a fridge
or a sink basin comes before the room's points, with completion on only."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np

from alfred_gen.replay.restore import file_evidence
from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.file_landings import file_put_facts, with_file_landings, with_put_facts
from alfred_gen.scenes.alfred.importer import build_scene, read_layout
from alfred_gen.scenes.alfred.put_facts import PutFact
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim import fixtures
from alfred_gen.sim.controller import FileEvidence
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Scene, SceneObject
from alfred_gen.traj.format import load_trajectory
from tests.helpers.sim_actions import go
from tests.test_put_points import _put_the_potato as put_the_potato

POSE = (1.0, 1.0, 90.0, 0.0)


def _kitchen(room_point: tuple[float, float, float]) -> tuple[Scene, str]:
    """The kitchen fixture as an imported room whose fridge knows the room's potato point from :data:`POSE`."""
    scene = fixtures.kitchen()
    fridge = next(o for o in scene.objects if o.object_type == "Fridge")
    declared = replace(fridge, put_points=(("", (*POSE, *room_point)), ("Potato", (*POSE, *room_point))))
    objects = [declared if o is fridge else o for o in scene.objects]
    return replace(scene, camera=ALFRED_CAMERA, objects=objects), fridge.object_id


def _put_the_potato(scene: Scene, fridge_id: str) -> tuple[float, float, float]:
    return put_the_potato(LiteController(scene), fridge_id, POSE[0], POSE[1])


def test_a_files_own_fact_comes_before_the_rooms_point_for_its_type_and_pose_only() -> None:
    scene, fridge_id = _kitchen((2.15, 1.3, 1.0))
    fact = PutFact(fridge_id, "Potato", POSE, (2.15, 0.95, 1.0))
    outside = PutFact(fridge_id, "Apple", POSE, (9.0, 0.6, 9.0))  # not inside the fridge: no point
    own = with_put_facts(scene, [fact, outside])
    fridge = own.object(fridge_id)
    assert fridge.put_points == scene.object(fridge_id).put_points  # the room's points stay
    assert fridge.file_put_points == (("Potato", (*POSE, 2.15, 0.95, 1.0)),)  # typed points only
    assert SceneObject.from_dict(json.loads(json.dumps(fridge.to_dict()))) == fridge
    assert with_put_facts(scene, []) is scene and with_put_facts(scene, [outside]) is scene
    sim = LiteController(own)
    world = sim.world
    go(sim, POSE[0], POSE[1], 90, 0)
    box = world.by_id[fridge_id]
    assert world.put_point(box, "Potato") == (2.15, 0.95, 1.0) == world.file_put_point(box, "Potato")
    assert world.put_point(box, "Apple") == (2.15, 1.3, 1.0)  # the room's point for any type
    go(sim, POSE[0], POSE[1], 180, 0)  # another pose: the file says nothing there
    assert world.file_put_point(box, "Potato") is None


def test_a_files_own_microwave_fact_stands_alone() -> None:
    # The room's microwave points need a repeated landing; one episode's own fact is its landing.
    scene = fixtures.kitchen()
    oven = next(o for o in scene.objects if o.object_type == "Microwave")
    point = tuple(round(c, 4) for c in oven.box.center)
    own = with_put_facts(replace(scene, camera=ALFRED_CAMERA), [PutFact(oven.object_id, "Egg", POSE, point)])
    assert own.object(oven.object_id).file_put_points == (("Egg", (*POSE, *point)),)


def test_a_files_own_fact_moves_the_fridge_landing() -> None:
    scene, fridge_id = _kitchen((2.15, 1.3, 1.0))
    room = _put_the_potato(scene, fridge_id)
    assert abs(room[1] - 1.3) < 0.05
    own = _put_the_potato(with_put_facts(scene, [PutFact(fridge_id, "Potato", POSE, (2.15, 0.95, 1.0))]), fridge_id)
    assert abs(own[1] - 0.95) < 0.05
    assert np.hypot(own[0] - 2.15, own[2] - 1.0) < 0.15


#: A released cool demo whose lettuce THOR put on FloorPlan24's fridge's bottom shelf (the room's
#: other demos put lettuces from that pose on the 0.64 m shelf).
LETTUCE_DEMO = "pick_cool_then_place_in_recep-Lettuce-None-DiningTable-24"


def _lettuce_demo_in_its_layout_room(alfred_data: Path) -> tuple[dict, Scene]:
    paths = sorted((alfred_data / "json_2.1.0" / "train" / LETTUCE_DEMO).glob("*/traj_data.json"))
    assert paths, f"{LETTUCE_DEMO} is missing from {alfred_data}"
    evidence = SceneEvidence(24)  # the room from its layout files only: its fridge knows no point
    read_layout(alfred_data / "layouts", 24, evidence)
    return load_trajectory(paths[0]), build_scene(evidence)


def test_the_lookup_gives_a_files_own_landings_only_when_completing(alfred_data: Path) -> None:
    traj, room = _lettuce_demo_in_its_layout_room(alfred_data)
    facts = file_put_facts(traj)
    fridge_facts = [f for f in facts if f.receptacle.startswith("Fridge") and f.kind == "Lettuce"]
    assert fridge_facts
    name = traj["scene"]["floor_plan"]
    on = SceneLibrary(extra=(room,)).for_start_state(name, traj["scene"], traj)
    off = SceneLibrary(extra=(room,), complete=False).for_start_state(name, traj["scene"], traj)
    fact = fridge_facts[0]
    assert ("Lettuce", (*fact.pose, *fact.point)) in on.object(fact.receptacle).file_put_points
    assert off.object(fact.receptacle).file_put_points == ()
    assert file_put_facts({"scene": "bad"}) == []
    assert with_file_landings(off, {"scene": "bad"}) is off


def test_a_replay_reports_the_landings_it_took_from_the_file_only_when_completing(alfred_data: Path) -> None:
    traj, room = _lettuce_demo_in_its_layout_room(alfred_data)
    on = LiteController(scene_lookup=SceneLibrary(extra=(room,)), render_image=False)
    off = LiteController(scene_lookup=SceneLibrary(extra=(room,), complete=False), render_image=False)
    used = file_evidence(on, traj)
    assert used.landings >= 1 and any(words.startswith("put landings") for words in used.uses())
    assert file_evidence(off, traj) == FileEvidence()
    assert file_evidence(on, {"scene": "bad"}) == FileEvidence()


def test_file_evidence_names_only_what_was_used() -> None:
    assert FileEvidence(completed=("DeskLamp|+00.10|+00.80|-01.20",)).uses() == ()
    assert FileEvidence(landings=2, pushes=1).uses() == ("put landings 2", "pushes 1")
