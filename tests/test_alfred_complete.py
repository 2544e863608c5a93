"""Completing an imported room from the replayed file: fixtures the file acts on and the room lacks
(gen/scenes/alfred/complete.py), through the one restore every replaying command shares."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from alfred_gen.cli import cli
from alfred_gen.replay.restore import completed_from_file
from alfred_gen.replay.vet import VetReason, vet_trajectory
from alfred_gen.scenes.alfred import catalogue_store
from alfred_gen.scenes.alfred.complete import COMPLETED_OBJECTS_KEY, complete_from_file, named_fixtures
from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position, trajectory_facts
from alfred_gen.scenes.alfred.importer import build_scene, read_layout
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Scene
from alfred_gen.traj.format import load_trajectory

#: A released demo turning on a desk lamp that FloorPlan303's layout files do not name.
LAMP_DEMO = "look_at_obj_in_light-AlarmClock-None-DeskLamp-303"
LAMP = "DeskLamp|-01.85|+00.59|-00.79"


def _demo(alfred_data: Path) -> Path:
    paths = sorted((alfred_data / "json_2.1.0" / "train" / LAMP_DEMO).glob("*/traj_data.json"))
    assert paths, f"{LAMP_DEMO} is missing from {alfred_data}"
    return paths[0]


def _layout_room(alfred_data: Path, number: int, traj: dict | None = None) -> Scene:
    """FloorPlan``number`` from its layout files only (plus ``traj``'s facts when given)."""
    evidence = SceneEvidence(number)
    read_layout(alfred_data / "layouts", number, evidence)
    if traj is not None:
        evidence.add_trajectory(trajectory_facts(traj))
    return build_scene(evidence)


def _vet(traj: dict, room: Scene, complete: bool):  # type: ignore[no-untyped-def]
    def factory() -> LiteController:
        return LiteController(scene_lookup=SceneLibrary(extra=(room,), complete=complete), render_image=False)

    return vet_trajectory(traj, controller_factory=factory, check_schema=False)


def test_a_demo_in_a_room_from_layouts_only_fails_without_completion_and_passes_with_it(alfred_data: Path) -> None:
    traj = load_trajectory(_demo(alfred_data))
    room = _layout_room(alfred_data, 303)
    assert LAMP not in {o.object_id for o in room.objects}
    off = _vet(traj, room, complete=False)
    assert not off.ok and off.reason == VetReason.UNKNOWN_OBJECT and LAMP in off.error
    assert off.completed == ()
    on = _vet(traj, room, complete=True)
    assert on.ok, on.describe()
    assert on.completed == (LAMP,)


def test_the_completed_fixture_stands_at_its_id_with_its_types_size_resting_on_what_is_below(
        alfred_data: Path) -> None:
    traj = load_trajectory(_demo(alfred_data))
    room = _layout_room(alfred_data, 303)
    completed, ids = complete_from_file(room, traj)
    assert ids == (LAMP,)
    lamp = next(o for o in completed.objects if o.object_id == LAMP)
    x, y, z = id_position(LAMP)
    assert lamp.object_type == "DeskLamp" and lamp.position == (x, y, z)
    assert lamp.box.lo[0] < x < lamp.box.hi[0] and lamp.box.lo[2] < z < lamp.box.hi[2]
    assert abs(lamp.box.lo[1] - y) <= 0.15  # its base at (or rested just below) its id
    assert LAMP in completed.interaction_poses  # where the file stood to use it: planning can go there
    assert [o.object_id for o in completed.objects[: len(room.objects)]] == [o.object_id for o in room.objects]


def test_a_room_that_holds_every_fixture_the_file_names_is_returned_unchanged(alfred_data: Path) -> None:
    traj = load_trajectory(_demo(alfred_data))
    room = _layout_room(alfred_data, 303, traj)  # built from the demo itself: it knows the lamp
    assert LAMP in {o.object_id for o in room.objects}
    completed, ids = complete_from_file(room, traj)
    assert completed is room and ids == ()


def test_a_malformed_file_names_nothing_and_a_derived_file_names_what_its_source_completed() -> None:
    assert named_fixtures({"plan": "nonsense"}) == ([], {})
    ids, _ = named_fixtures({"scene": {"scene_num": 1, "init_action": {"x": 0, "y": 0.9, "z": 0}, "object_poses": []},
                             "plan": {"low_actions": [], "high_pddl": []},
                             COMPLETED_OBJECTS_KEY: [LAMP, "Apple|+00.10|+00.90|+00.20", 7]})
    assert ids == [LAMP]  # a fixture's id; the apple is pickupable (its pose completes it), 7 is no id


def _walking_off(traj: dict) -> dict:
    """``traj`` with forty steps ahead first: dead reckoning walks them far off any room's floor."""
    out = json.loads(json.dumps(traj))
    low = out["plan"]["low_actions"]
    step = next(a for a in low if a["api_action"]["action"] == "MoveAhead")
    out["plan"]["low_actions"] = [json.loads(json.dumps(step)) for _ in range(40)] + low
    return out


def test_a_catalogue_room_built_with_demos_gains_no_walked_floor_one_from_layouts_only_does(
        alfred_data: Path, tmp_path: Path) -> None:
    traj = _walking_off(load_trajectory(_demo(alfred_data)))
    room = _layout_room(alfred_data, 303)
    assert len(complete_from_file(room, traj)[0].reachable) > len(room.reachable)
    strict, ids = complete_from_file(room, traj, walked_floor=False)
    assert ids == (LAMP,) and strict.reachable == room.reachable
    reachable = {}
    for trajectories in (0, 5):
        data = catalogue_store.empty_catalogue()
        data["scenes"][room.name] = {"scene": room.to_dict(), "info": {"trajectories": trajectories}, "evidence": {}}
        catalogue = tmp_path / f"scenes{trajectories}.json"
        catalogue.write_text(json.dumps(data))
        catalogue_store.use_catalogue(catalogue)
        try:
            assert catalogue_store.floor_known(room.name) == bool(trajectories)
            scene = SceneLibrary().for_start_state(room.name, traj["scene"], traj)
        finally:
            catalogue_store.use_catalogue(None)
        assert LAMP in {o.object_id for o in scene.objects}  # the fixture is completed either way
        reachable[trajectories] = len(scene.reachable)
    assert reachable[0] > reachable[5]


def test_the_lookup_reports_completions_only_when_completing(alfred_data: Path) -> None:
    traj = load_trajectory(_demo(alfred_data))
    room = _layout_room(alfred_data, 303)
    on = LiteController(scene_lookup=SceneLibrary(extra=(room,)), render_image=False)
    off = LiteController(scene_lookup=SceneLibrary(extra=(room,), complete=False), render_image=False)
    assert completed_from_file(on, traj) == (LAMP,)
    assert completed_from_file(off, traj) == ()
    assert completed_from_file(on, {"scene": "bad"}) == ()


def test_verify_completes_by_default_says_so_and_no_complete_reproduces_the_failure(
        alfred_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = _demo(alfred_data)
    room = _layout_room(alfred_data, 303)
    data = catalogue_store.empty_catalogue()
    data["scenes"][room.name] = {"scene": room.to_dict(), "info": {}, "evidence": {}}
    catalogue = tmp_path / "scenes.json"
    catalogue.write_text(json.dumps(data))
    trial = tmp_path / "data" / LAMP_DEMO / source.parent.name
    trial.mkdir(parents=True)
    shutil.copy(source, trial / "traj_data.json")
    monkeypatch.setenv(catalogue_store.ENV_VAR, str(catalogue))
    catalogue_store.use_catalogue(catalogue)
    try:
        runner = CliRunner()
        done = runner.invoke(cli, ["verify", str(tmp_path / "data")])
        assert done.exit_code == 0, done.output
        assert f"completed from the file: {LAMP}" in done.output
        assert "1 ok, 0 failed" in done.output and "1 room completed from the file (1 object" in done.output
        bare = runner.invoke(cli, ["verify", str(tmp_path / "data"), "--no-complete"])
        assert bare.exit_code == 1, bare.output
        assert "unknown_object" in bare.output and LAMP in bare.output and "completed" not in bare.output
    finally:
        catalogue_store.use_catalogue(None)


# --------------------------------------------------------------------------------------------
# Fixtures by rule (gen/scenes/alfred/fixture_rules.py)


@pytest.fixture(scope="module")
def subset_rooms() -> dict[int, SceneEvidence]:
    import os

    from alfred_gen.scenes.alfred.importer import find_sources, gather_evidence

    if not os.environ.get("ALFRED_DATA"):
        pytest.skip("ALFRED_DATA is not set")
    return gather_evidence(find_sources(os.environ["ALFRED_DATA"]))


@pytest.mark.slow  # fast lane: 13 s on a loaded 2-core machine (session 73 --durations)
def test_rules_put_a_faucet_behind_a_sink_basin_and_keep_their_counts(subset_rooms: dict[int, SceneEvidence],
                                                                        alfred_data: Path) -> None:
    from alfred_gen.scenes.alfred.fixture_rules import learn_fixture_rules, with_rule_fixtures

    with_demos = {n: e for n, e in subset_rooms.items() if n != 1}  # FloorPlan1's faucet is what we predict
    rules = learn_fixture_rules(with_demos.values())
    faucet = rules["Faucet"]
    basin = next(p for p in faucet.placements if p.host == "SinkBasin")  # a pedestal sink's is its own host label
    assert basin.support >= 5 and basin.share > 0.5 and all(p.host.startswith("SinkBasin") or p.share < basin.share
                                                             for p in faucet.placements)
    assert faucet.rooms >= 5 and "SinkBasin x" in faucet.describe()
    layout_only = SceneEvidence(1)
    read_layout(alfred_data / "layouts", 1, layout_only)
    placed, ids = with_rule_fixtures(layout_only, rules)
    faucets = [i for i in ids if i.startswith("Faucet|")]
    assert len(faucets) == 1 and faucets[0] in placed.static_ids
    truth = (-2.07, 1.13, -1.51)  # the id FloorPlan1's demos name
    assert all(abs(a - b) < 0.15 for a, b in zip(id_position(faucets[0]), truth))
    room = build_scene(placed)
    assert faucets[0] in {o.object_id for o in room.objects}


@pytest.mark.slow  # fast lane: 1 s on a loaded 2-core machine (session 73 --durations)
def test_rules_leave_a_room_with_demonstrations_as_it_is_but_for_twin_sink_faucets(
        subset_rooms: dict[int, SceneEvidence]) -> None:
    from alfred_gen.scenes.alfred.fixture_rules import learn_fixture_rules, with_rule_fixtures
    from alfred_gen.scenes.alfred.fixture_twins import twin_faucets

    rules = learn_fixture_rules(subset_rooms.values())
    twinned = []
    for evidence in subset_rooms.values():
        if evidence.trajectories:
            twins = twin_faucets(evidence)
            placed, ids = with_rule_fixtures(evidence, rules)
            assert ids == twins and placed.static_ids == evidence.static_ids | set(twins)
            assert (placed is evidence) == (not twins)
            twinned += twins
    assert "Faucet|-01.93|+00.72|+02.28" in twinned  # FloorPlan416's second sink


def test_the_catalogue_changes_only_rooms_without_demonstrations(subset_rooms: dict[int, SceneEvidence]) -> None:
    from alfred_gen.scenes.alfred.fixture_rules import learn_fixture_rules
    from alfred_gen.scenes.alfred.importer import build_catalogue

    rules = learn_fixture_rules(subset_rooms.values())
    bare = next(n for n, e in sorted(subset_rooms.items()) if not e.trajectories and "Faucet" in e.types_present)
    some = {n: subset_rooms[n] for n in (1, 303, bare)}
    ruled = build_catalogue(some, None, {}, rules=rules)
    plain = build_catalogue(some, None, {}, rules={})
    for name in ("FloorPlan1", "FloorPlan303"):
        assert json.dumps(ruled["scenes"][name], sort_keys=True) == json.dumps(plain["scenes"][name], sort_keys=True)
    placed = ruled["scenes"][f"FloorPlan{bare}"]["info"]["rule_fixtures"]
    assert any(i.startswith("Faucet|") for i in placed)
    assert "rule_fixtures" not in plain["scenes"][f"FloorPlan{bare}"]["info"]


def test_retargeting_points_actions_on_a_missing_fixture_at_the_nearest_of_its_type_only() -> None:
    from alfred_gen.fidelity.retarget import retargeted
    from alfred_gen.sim.scene import Box, SceneObject

    near = SceneObject("DeskLamp", (1.0, 0.8, 1.0), Box((0.9, 0.8, 0.9), (1.1, 1.2, 1.1)))
    far = SceneObject("DeskLamp", (3.0, 0.8, 3.0), Box((2.9, 0.8, 2.9), (3.1, 1.2, 3.1)))
    room = Scene("FloorPlan999", 999, "Bedroom", (), ((0.0, 0.0),), [near, far])
    mug = "Mug|+00.10|+00.90|+00.20"
    traj = {"plan": {"low_actions": [{"api_action": {"action": "ToggleObjectOn", "objectId": LAMP}},
                                     {"api_action": {"action": "ToggleObjectOn", "objectId": far.object_id}},
                                     {"api_action": {"action": "PickupObject", "objectId": mug}}],
                     "high_pddl": [{"planner_action": {"action": "ToggleObject", "objectId": LAMP}}]}}
    out, mapping = retargeted(traj, room)
    assert mapping == {LAMP: near.object_id}
    lows = [low["api_action"]["objectId"] for low in out["plan"]["low_actions"]]
    assert lows == [near.object_id, far.object_id, mug]
    assert out["plan"]["high_pddl"][0]["planner_action"]["objectId"] == near.object_id
    assert traj["plan"]["low_actions"][0]["api_action"]["objectId"] == LAMP  # the file itself is untouched


def test_a_floor_fixture_box_reaching_over_a_completed_floor_fixture_is_cut_back_on_its_ids_side() -> None:
    from alfred_gen.scenes.alfred.complete import _cut_back
    from alfred_gen.sim.scene import Box

    can = Box((-0.55, 0.0, 0.32), (-0.17, 0.56, 0.76))  # FloorPlan11's completed garbage can
    cabinet = Box((-0.65, 0.05, 0.13), (-0.18, 0.75, 0.73))  # a layout-only cabinet, id at its corner
    cut = _cut_back(cabinet, can, (-0.18, 0.40, 0.15))
    assert cut == Box((-0.65, 0.05, 0.13), (-0.18, 0.75, 0.32))
    assert _cut_back(cabinet, can, (-0.36, 0.40, 0.50)) is None  # its id over the can: left alone
    thin = Box((-0.65, 0.05, 0.30), (-0.18, 0.75, 0.73))
    assert _cut_back(thin, can, (-0.18, 0.40, 0.30)) is None  # 2 cm would be left of it


def test_the_mask_figure_completes_a_held_out_room_from_the_file_only_when_its_job_says_so(
        alfred_data: Path) -> None:
    """A demo acting on a fixture its room lacks: as the held-out figure replays it, lite draws
    nothing of the fixture and the replay stops there; with the job's ``complete``
    (``bench/alfred_fidelity.py --complete-heldout``), the room is completed from the file first, as
    ``alfred-gen replay`` completes it, lite draws the fixture where THOR's mask is and the replay
    goes on."""
    from alfred_gen.fidelity.evidence_pool import learnt_stats
    from alfred_gen.fidelity.held_out import RoomJob
    from alfred_gen.fidelity.masks import mask_job

    evidence = SceneEvidence(303)
    read_layout(alfred_data / "layouts", 303, evidence)
    path = _demo(alfred_data)
    job = RoomJob(evidence, learnt_stats({303: evidence}), None, (path,))
    (plain,) = mask_job(job)
    (completed,) = mask_job(replace(job, complete=True))
    lamp = {a.target: a for a in plain.measured}[LAMP]
    assert lamp.lite_pixels == 0 and not lamp.right and LAMP in plain.error
    lamp = {a.target: a for a in completed.measured}[LAMP]
    assert lamp.lite_pixels > 0 and lamp.right and lamp.iou > 0.3 and completed.error == ""
