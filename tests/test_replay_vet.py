"""Restoring start states and vetting trajectories by replay (alfred_gen.replay.restore / vet)."""

from __future__ import annotations

import copy

import pytest

from alfred_gen.errors import ExitCode, UserError, VetReason
from alfred_gen.replay.restore import RestoreError, restore_scene
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.library import simulator
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from tests.helpers import replay_scripts as scripts
from tests.helpers import run_python

#: A fresh lite controller with the scene library, no frames: what vetting uses.
open_lite = simulator().open


@pytest.fixture(scope="module")
def heat_traj() -> dict:
    return scripts.heat_mug_trajectory()


def _objects(event) -> dict:
    return {o["objectId"]: o for o in event.metadata["objects"]}


# --- restore_scene ------------------------------------------------------------------------------
def test_restore_scene_moves_objects_toggles_and_teleports(heat_traj):
    block = copy.deepcopy(heat_traj["scene"])
    mug_pose = next(p for p in block["object_poses"] if p["objectName"].startswith("Mug_"))
    mug_pose["position"] = {"x": 0.45, "y": mug_pose["position"]["y"], "z": 2.1}  # elsewhere on the counter
    block["object_toggles"] = [{"objectType": "Faucet", "isOn": True}]
    block["init_action"] = dict(block["init_action"], x=-0.5, rotation=90)
    event = restore_scene(open_lite(), block)
    objects = _objects(event)
    mugs = [o for o in objects.values() if o["objectType"] == "Mug"]
    assert len(mugs) == 1 and abs(mugs[0]["position"]["x"] - 0.45) < 1e-6
    assert mugs[0]["objectId"] == "Mug|+00.45|+00.95|+02.10"  # ids follow where objects are spawned
    assert all(o["isToggled"] for o in objects.values() if o["objectType"] == "Faucet")
    agent = event.metadata["agent"]
    assert (agent["position"]["x"], agent["rotation"]["y"], agent["cameraHorizon"]) == (-0.5, 90.0, 30.0)


def test_restore_scene_drops_unlisted_objects_and_dirties(heat_traj):
    block = copy.deepcopy(heat_traj["scene"])
    block["object_poses"] = [p for p in block["object_poses"] if not p["objectName"].startswith("Apple_")]
    block["dirty_and_empty"] = True
    objects = _objects(restore_scene(open_lite(), block))
    assert not any(o["objectType"] == "Apple" for o in objects.values())
    dirtyable = [o for o in objects.values() if o["dirtyable"]]
    assert dirtyable and all(o["isDirty"] for o in dirtyable)


def test_restore_scene_is_repeatable_on_one_controller(heat_traj):
    controller = open_lite()
    first = restore_scene(controller, heat_traj["scene"]).metadata
    controller.step(heat_traj["plan"]["low_actions"][0]["api_action"])  # change something
    second = restore_scene(controller, heat_traj["scene"]).metadata
    assert first["objects"] == second["objects"] and first["agent"] == second["agent"]


def test_restore_scene_unknown_floor_plan_is_not_found(heat_traj):
    block = dict(heat_traj["scene"], floor_plan="LitePlan999")
    with pytest.raises(UserError) as caught:
        restore_scene(open_lite(), block)
    assert caught.value.code == ExitCode.NOT_FOUND
    # A lookup that only raises KeyError (such as a fixtures dict) also gives NOT_FOUND.
    controller = LiteController(scene_lookup=fixtures.fixture_scene)
    with pytest.raises(UserError) as caught:
        restore_scene(controller, dict(heat_traj["scene"], floor_plan="Nowhere"))
    assert caught.value.code == ExitCode.NOT_FOUND and "Nowhere" in str(caught.value)


@pytest.mark.parametrize("breakage", [
    lambda b: b.pop("object_poses"),
    lambda b: b.update(dirty_and_empty="yes"),
    lambda b: b.update(init_action=["TeleportFull"]),
    lambda b: b.update(floor_plan=""),
])
def test_restore_scene_malformed_block_is_bad_input(heat_traj, breakage):
    block = copy.deepcopy(heat_traj["scene"])
    breakage(block)
    with pytest.raises(UserError) as caught:
        restore_scene(open_lite(), block)
    assert caught.value.code == ExitCode.BAD_INPUT and "\n" not in str(caught.value)


def test_restore_scene_pose_of_unknown_object_names_the_step(heat_traj):
    block = copy.deepcopy(heat_traj["scene"])
    block["object_poses"].append({"objectName": "Basketball_00000000", "position": {"x": 0, "y": 0, "z": 0},
                                  "rotation": {"x": 0, "y": 0, "z": 0}})
    with pytest.raises(RestoreError) as caught:
        restore_scene(open_lite(), block)
    assert caught.value.step == "SetObjectPoses" and caught.value.code == ExitCode.BAD_INPUT


# --- vet_trajectory -----------------------------------------------------------------------------
def test_vet_accepts_a_valid_scripted_trajectory(heat_traj):
    result = vet_trajectory(heat_traj, controller_factory=open_lite)
    assert result.ok and result.reason == "ok" and result.failed_low_idx is None
    assert (result.goal.satisfied, result.goal.total) == (3, 3)


def test_vet_deleted_action_fails_at_that_step(heat_traj):
    broken = scripts.without_action(heat_traj, scripts.OPEN_MICROWAVE_IDX)
    result = vet_trajectory(broken, controller_factory=open_lite)
    assert (result.ok, result.reason, result.failed_low_idx) == (False, "action_failed", scripts.OPEN_MICROWAVE_IDX)
    assert result.error.startswith(f"low_idx {scripts.OPEN_MICROWAVE_IDX} PutObject {scripts.MUG}: ")
    assert "closed" in result.error


def test_vet_wrong_object_id_is_unknown_object(heat_traj):
    broken = copy.deepcopy(heat_traj)
    broken["plan"]["low_actions"][0]["api_action"]["objectId"] = "Mug|+09.99|+00.95|+02.10"
    result = vet_trajectory(broken, controller_factory=open_lite)
    assert (result.reason, result.failed_low_idx) == ("unknown_object", 0)
    assert "Mug|+09.99|+00.95|+02.10" in result.error


def test_vet_unknown_action_is_not_sent(heat_traj):
    """The schema names the actions a trajectory may hold (so `validate` refuses the file too);
    a replay that skips the schema still never sends one."""
    broken = copy.deepcopy(heat_traj)
    broken["plan"]["low_actions"][5]["api_action"] = {"action": "Teleport2000"}
    result = vet_trajectory(broken, controller_factory=open_lite)
    assert result.reason == "bad_file" and result.error.startswith("$.plan.low_actions[5].api_action.action:")
    result = vet_trajectory(broken, controller_factory=open_lite, check_schema=False)
    assert (result.reason, result.failed_low_idx) == ("unknown_action", 5)


def test_vet_goal_unsatisfied_when_the_task_differs(heat_traj):
    other = copy.deepcopy(heat_traj)
    other["task_type"] = "pick_cool_then_place_in_recep"
    result = vet_trajectory(other, controller_factory=open_lite)
    assert result.reason == "goal_unsatisfied" and result.failed_low_idx is None
    assert (result.goal.satisfied, result.goal.total) == (1, 3) and "Mug cooled" in result.goal.missing


def test_vet_stopping_short_leaves_the_goal_unsatisfied(heat_traj):
    short = scripts.without_action(heat_traj, len(heat_traj["plan"]["low_actions"]) - 1)  # never puts the mug down
    result = vet_trajectory(short, controller_factory=open_lite)
    assert result.reason == "goal_unsatisfied"
    assert result.goal.missing == ["Mug in/on CounterTop", "the heated Mug in/on CounterTop"]


@pytest.mark.parametrize("mutate, reason", [
    (lambda t: t.pop("plan"), "bad_file"),
    (lambda t: t["images"].append({"low_idx": 999, "high_idx": 0, "image_name": "x.png"}), "bad_file"),
    (lambda t: t["plan"]["low_actions"][0].update(high_idx=7), "bad_file"),
    (lambda t: t.update(task_type="juggle_three_apples"), "unknown_task"),
    (lambda t: t["scene"].update(floor_plan="FloorPlan1"), "unknown_scene"),
    (lambda t: t["scene"].update(init_action=dict(t["scene"]["init_action"], x=40.0)), "restore_failed"),
])
def test_vet_bad_data_is_a_reason_not_a_traceback(heat_traj, mutate, reason):
    broken = copy.deepcopy(heat_traj)
    mutate(broken)
    result = vet_trajectory(broken, controller_factory=open_lite)
    assert (result.ok, result.reason) == (False, reason) and reason in set(VetReason)
    assert result.error and "\n" not in result.error


def test_vet_without_schema_check_survives_garbage():
    for garbage in (None, [], {"task_type": 3}, {"task_type": "pick_and_place_simple", "pddl_params": {}}):
        result = vet_trajectory(garbage, controller_factory=open_lite, check_schema=False)
        assert not result.ok and result.reason == "bad_file"


def test_vet_reports_a_crashing_simulator_as_simulator_error(heat_traj):
    class Exploding:
        def reset(self, scene):
            raise ZeroDivisionError("boom")

    result = vet_trajectory(heat_traj, controller_factory=Exploding)
    assert (result.reason, result.error) == ("simulator_error", "ZeroDivisionError: boom")


def test_vet_uses_the_injected_controller(heat_traj):
    made = []

    def factory():
        controller = LiteController(scene_lookup=fixtures.fixture_scene)
        made.append(controller)
        return controller

    assert vet_trajectory(heat_traj, controller_factory=factory).ok
    assert len(made) == 1 and made[0].scene.name == scripts.SCENE


# --- determinism --------------------------------------------------------------------------------
METADATA_DIGEST = """
import hashlib, json
from tests.helpers import replay_scripts
from alfred_gen.replay.execute import execute_low_actions
from alfred_gen.replay.restore import restore_scene
from alfred_gen.scenes.library import simulator
traj = replay_scripts.heat_mug_trajectory()
digest = hashlib.sha256()
def keep(low_idx, api_action, event):
    digest.update(json.dumps(event.metadata, sort_keys=True).encode())
controller = simulator().open()
start = restore_scene(controller, traj["scene"])
keep(-1, None, start)
execute_low_actions(controller, traj["plan"]["low_actions"], start, on_step=keep)
print(digest.hexdigest())
"""


@pytest.mark.slow  # fast lane: 24 s on a loaded 2-core machine (session 73 --durations)
def test_replay_metadata_is_byte_identical_across_processes_and_hash_seeds():
    digests = {run_python(METADATA_DIGEST, env={"PYTHONHASHSEED": hash_seed}, timeout=120).stdout.strip()
               for hash_seed in ("1", "2")}
    assert len(digests) == 1


def test_vet_raises_only_when_no_simulator_can_run(heat_traj):
    def unavailable():
        raise UserError("no THOR build found", ExitCode.BACKEND_UNAVAILABLE)

    with pytest.raises(UserError) as caught:
        vet_trajectory(heat_traj, controller_factory=unavailable)
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE

    def broken():
        raise UserError("scene library is broken", ExitCode.INTERNAL)

    assert vet_trajectory(heat_traj, controller_factory=broken).reason == "simulator_error"
