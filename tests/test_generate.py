"""The generation pipeline end to end: for each of the seven task types a trajectory is generated,
written atomically in ALFRED's layout, passes the schema and the replay's vetting from disk; the
same inputs give the same bytes; failures leave nothing behind and say why."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from alfred_gen.cli import main
from alfred_gen.demo.generate import (
    GenerationResult,
    default_trial_id,
    generate_trajectory,
)
from alfred_gen.demo.language import TEMPLATE_ASSIGNMENT_ID
from alfred_gen.domains.tasks import TaskSpec, make_task
from alfred_gen.errors import ExitCode, GenerationReason, UserError
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.format import load_trajectory
from alfred_gen.traj.rle import decode_mask
from alfred_gen.traj.scene_nums import lite_room_scene_num, names_thor_room

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

#: Candidate (scene, task) per task type; seeds are tried in order until one generates.
CANDIDATES: dict[str, list[tuple[int, TaskSpec]]] = {
    "pick_and_place_simple": [(1, make_task("pick_and_place_simple", "Apple", "Fridge"))],
    "pick_two_obj_and_place": [(1, make_task("pick_two_obj_and_place", "Apple", "CounterTop"))],
    "look_at_obj_in_light": [(301, make_task("look_at_obj_in_light", "Book", toggle_target="DeskLamp"))],
    "pick_clean_then_place_in_recep": [(1, make_task("pick_clean_then_place_in_recep", "Mug", "CounterTop"))],
    "pick_heat_then_place_in_recep": [
        (1, make_task("pick_heat_then_place_in_recep", "Potato", "CounterTop", object_sliced=True)),
        (1, make_task("pick_heat_then_place_in_recep", "Apple", "CounterTop")),
    ],
    "pick_cool_then_place_in_recep": [
        (1, make_task("pick_cool_then_place_in_recep", "Apple", "CounterTop")),
        (1, make_task("pick_cool_then_place_in_recep", "Tomato", "CounterTop")),
    ],
    "pick_and_place_with_movable_recep": [
        (1, make_task("pick_and_place_with_movable_recep", "Apple", "CounterTop", "Bowl")),
    ],
}
SEEDS = range(8)

NAVIGATION = {"MoveAhead_25", "RotateLeft_90", "RotateRight_90", "LookUp_15", "LookDown_15"}
INTERACTIONS = {"PickupObject", "PutObject", "OpenObject", "CloseObject", "ToggleObjectOn", "ToggleObjectOff",
                "SliceObject"}


def _first_success(root: Path, task_type: str) -> tuple[GenerationResult, int, int, TaskSpec]:
    tried = []
    for scene, task in CANDIDATES[task_type]:
        for seed in SEEDS:
            result = generate_trajectory(task, scene, seed, root, default_trial_id(seed))
            if result.ok:
                return result, scene, seed, task
            assert result.reason in set(GenerationReason)
            tried.append(f"scene {scene} seed {seed}: {result.describe()}")
    pytest.fail(f"no {task_type} trajectory generated:\n" + "\n".join(tried))


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> dict[str, tuple[GenerationResult, int, int, TaskSpec]]:
    root = tmp_path_factory.mktemp("generated")
    return {task_type: _first_success(root, task_type) for task_type in CANDIDATES}


@pytest.mark.parametrize("task_type", list(CANDIDATES))
def test_each_task_type_generates_a_trajectory_that_vets_from_disk(generated, task_type: str) -> None:
    result, scene, seed, task = generated[task_type]
    path = result.path
    assert path is not None and path.name == default_trial_id(seed)
    assert path.parent.name == task.dir_name(lite_room_scene_num(scene))  # ends with the scene_num recorded
    traj = load_trajectory(path / "traj_data.json")  # the schema and the mask rules
    assert traj == result.traj
    verdict = vet_trajectory(traj, controller_factory=simulator().open)
    assert verdict.ok, verdict.describe()
    assert (path / "pddl_states" / "problem_0.pddl").read_text().startswith("(define (problem")
    assert not [p for p in path.parent.parent.iterdir() if p.name.startswith(".tmp-")]
    _check_alfred_shape(traj, path, task, scene, seed)


def _check_alfred_shape(traj: dict[str, Any], path: Path, task: TaskSpec, scene: int, seed: int) -> None:
    high = traj["plan"]["high_pddl"]
    low = traj["plan"]["low_actions"]
    # High-level steps: indices in order, End last with no low actions; every other step has some.
    assert [h["high_idx"] for h in high] == list(range(len(high)))
    assert high[-1]["planner_action"] == {"action": "End", "value": 1}
    assert high[-1]["discrete_action"] == {"action": "NoOp", "args": []}
    assert all(h["discrete_action"]["action"] not in ("OpenObject", "CloseObject") for h in high)
    segment = [a["high_idx"] for a in low]
    assert segment == sorted(segment) and set(segment) == set(range(len(high) - 1))
    # Low actions: ALFRED's names; interactions carry the target's mask, bbox and point.
    for action in low:
        name = action["discrete_action"]["action"]
        args = action["discrete_action"]["args"]
        if name in NAVIGATION:
            assert args == {} and action["api_action"]["forceAction"] is True
        else:
            assert name in INTERACTIONS and name == action["api_action"]["action"]
            mask = decode_mask(args["mask"])
            x, y = args["point"]
            assert mask[y, x]
            assert args["bbox"][0] <= x <= args["bbox"][2]
    # Images: the frame before each action is listed; the frame after the last action is on disk as
    # the next number, unlisted (ALFRED's convention, which E.T.'s loader relies on).
    images = traj["images"]
    assert [im["low_idx"] for im in images] == [*range(len(low))]
    assert all(im["high_idx"] == low[im["low_idx"]]["high_idx"] for im in images)
    assert [im["image_name"] for im in images] == [f"{i:09d}.png" for i in range(len(low))]
    frames = sorted((path / "raw_images").iterdir())
    assert [f.name for f in frames] == [f"{i:09d}.jpg" for i in range(len(low) + 1)]
    assert frames[0].read_bytes()[:2] == b"\xff\xd8"
    # Language, scene block, parameters and provenance.
    assert len(traj["template"]["high_descs"]) == len(high) - 1
    ann = traj["turk_annotations"]["anns"]
    assert [a["assignment_id"] for a in ann] == [TEMPLATE_ASSIGNMENT_ID, "template_1", "template_2"]
    assert all(len(a["high_descs"]) == len(high) - 1 and a["task_desc"] for a in ann)
    assert len({tuple(a["high_descs"]) for a in ann}) == 3  # three realisations, not one thrice
    block = traj["scene"]
    assert block["floor_plan"] == f"LitePlan{scene}" and block["random_seed"] == seed
    assert block["scene_num"] == 10000 + scene and not names_thor_room(block["scene_num"])
    assert block["init_action"]["action"] == "TeleportFull" and block["init_action"]["horizon"] == 30
    assert block["dirty_and_empty"] == (task.task_type == "pick_clean_then_place_in_recep")
    toggles = [{"isOn": False, "objectType": task.toggle_target}] if task.toggle_target else []
    assert block["object_toggles"] == toggles
    assert traj["pddl_params"] == task.pddl_params() and traj["task_type"] == task.task_type
    assert traj["generator"] == {
        "backend": "lite",
        "backend_version": traj["generator"]["backend_version"],
        "name": "alfred-gen",
        "seed": seed,
        "version": traj["generator"]["version"],
    }


def test_validate_and_verify_accept_what_was_generated(generated, capsys) -> None:
    root = next(iter(generated.values()))[0].path.parent.parent
    for command in ("validate", "verify"):
        with pytest.raises(SystemExit) as stop:
            main([command, str(root)])
        assert stop.value.code == 0, (command, capsys.readouterr())


def _tree_bytes(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_same_inputs_give_the_same_bytes(generated, tmp_path) -> None:
    result, scene, seed, task = generated["pick_heat_then_place_in_recep"]
    again = generate_trajectory(task, scene, seed, tmp_path, default_trial_id(seed))
    assert again.ok, again.describe()
    assert _tree_bytes(again.path) == _tree_bytes(result.path)


def test_bytes_do_not_depend_on_the_hash_seed(generated, tmp_path) -> None:
    result, scene, seed, task = generated["pick_clean_then_place_in_recep"]
    arguments = [
        "generate",
        "--scene",
        str(scene),
        "--seed",
        str(seed),
        "--task",
        task.task_type,
        "--object",
        task.object_target,
        "--receptacle",
        task.parent_target,
        "--out",
        str(tmp_path),
    ]
    script = "import sys; from alfred_gen.cli import main; main(sys.argv[1:])"
    run = subprocess.run(
        [sys.executable, "-c", script, *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    copy = tmp_path / result.path.parent.name / result.path.name
    assert _tree_bytes(copy) == _tree_bytes(result.path)


def test_a_replay_renders_the_recorded_frames_byte_for_byte(generated, tmp_path) -> None:
    from alfred_gen.replay.rerender import replay_to_directory

    result = generated["pick_cool_then_place_in_recep"][0]
    outcome = replay_to_directory(result.traj, tmp_path, simulator().open(render=True))
    assert outcome.ok
    assert _tree_bytes(tmp_path / "raw_images") == _tree_bytes(result.path / "raw_images")


def test_without_frames_the_file_is_the_same_and_no_images_are_written(generated, tmp_path) -> None:
    result, scene, seed, task = generated["look_at_obj_in_light"]
    bare = generate_trajectory(task, scene, seed, tmp_path, default_trial_id(seed), frames=False)
    assert bare.ok, bare.describe()
    assert not (bare.path / "raw_images").exists()
    assert (bare.path / "traj_data.json").read_bytes() == (result.path / "traj_data.json").read_bytes()


def test_an_existing_trajectory_is_left_alone(generated) -> None:
    result, scene, seed, task = generated["pick_and_place_simple"]
    before = _tree_bytes(result.path)
    again = generate_trajectory(task, scene, seed, result.path.parent.parent, result.path.name)
    assert (again.ok, again.reason, again.path) == (False, "exists", result.path)
    assert _tree_bytes(result.path) == before


def test_an_impossible_task_is_unsolvable_and_writes_nothing(tmp_path) -> None:
    task = make_task("pick_and_place_simple", "Laptop", "Fridge")  # no laptop in a kitchen
    result = generate_trajectory(task, 1, 0, tmp_path, "trial_T1")
    assert (result.ok, result.reason, result.path) == (False, "unsolvable", None)
    assert "Laptop" in result.detail
    assert list(tmp_path.iterdir()) == []


class _FailingPut:
    """A simulator whose every PutObject fails, to see a failed recording cleaned up."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def reset(self, scene: Any) -> Any:
        return self.inner.reset(scene)

    def step(self, action: dict[str, Any]) -> Any:
        if action.get("action") == "PutObject":
            action = {**action, "receptacleObjectId": "Nowhere|+00.00|+00.00|+00.00"}
        return self.inner.step(action)


def test_a_failed_action_is_reported_and_leaves_nothing(generated, tmp_path) -> None:
    _, scene, seed, task = generated["pick_and_place_simple"]
    controller = _FailingPut(simulator().open(render=True, segmentation=True))
    result = generate_trajectory(task, scene, seed, tmp_path, "trial_T1", controller=controller)
    assert (result.ok, result.reason) == (False, "action_failed")
    assert "PutObject" in result.detail
    assert list(tmp_path.iterdir()) == []


def test_bad_arguments_raise(tmp_path) -> None:
    task = make_task("pick_and_place_simple", "Apple", "Fridge")
    with pytest.raises(ValueError, match="trial id"):
        generate_trajectory(task, 1, 0, tmp_path, "../escape")
    with pytest.raises(UserError) as error:
        generate_trajectory(task, 999, 0, tmp_path, "trial_T1")
    assert error.value.code == ExitCode.NOT_FOUND


def test_the_generate_command_reports_success_and_failure(generated, tmp_path, capsys) -> None:
    _, scene, seed, task = generated["look_at_obj_in_light"]
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "generate",
                "--scene",
                str(scene),
                "--seed",
                str(seed),
                "--task",
                task.task_type,
                "--object",
                task.object_target,
                "--toggle",
                task.toggle_target,
                "--out",
                str(tmp_path),
                "--no-frames",
            ]
        )
    out = capsys.readouterr().out
    assert stop.value.code == 0 and "wrote" in out and default_trial_id(seed) in out
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "generate",
                "--scene",
                "1",
                "--task",
                "pick_and_place_simple",
                "--object",
                "Laptop",
                "--receptacle",
                "Fridge",
                "--out",
                str(tmp_path),
            ]
        )
    assert stop.value.code == ExitCode.UNSOLVABLE
    assert "unsolvable" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(
            [
                "generate",
                "--scene",
                "1",
                "--task",
                "pick_and_place_simple",
                "--object",
                "Apple",
                "--receptacle",
                "Fridge",
                "--out",
                str(tmp_path),
                "--trial",
                "nope",
            ]
        )
    assert stop.value.code == ExitCode.USAGE


def _task_flags(task: TaskSpec) -> list[str]:
    """The command-line options naming ``task`` (as `plan` and `generate` take them)."""
    flags = ["--task", task.task_type, "--object", task.object_target]
    for flag, value in (("--receptacle", task.parent_target), ("--mrecep", task.mrecep_target),
                        ("--toggle", task.toggle_target)):
        if value:
            flags += [flag, value]
    return flags + (["--sliced"] if task.object_sliced else [])


@pytest.mark.parametrize("task_type", list(CANDIDATES))
def test_plan_writes_exactly_the_problem_generate_solved(generated, task_type: str, tmp_path, capsys) -> None:
    """One start state: `plan --pddl-out` for the same scene, seed and task writes the trajectory's
    own pddl_states/problem_0.pddl, byte for byte, and prints a plan for it."""
    result, scene, seed, task = generated[task_type]
    out = tmp_path / "problem.pddl"
    with pytest.raises(SystemExit) as stop:
        main(["plan", "--scene", str(scene), "--seed", str(seed), *_task_flags(task), "--pddl-out", str(out)])
    assert stop.value.code == ExitCode.OK, capsys.readouterr().err
    assert out.read_bytes() == (result.path / "pddl_states" / "problem_0.pddl").read_bytes()
