"""`alfred-gen plan` and its pipeline function on the lite simulator and the procedural scenes."""

from __future__ import annotations

from pathlib import Path

import pytest

from alfred_gen.cli import main
from alfred_gen.demo.plan import domain_path_for, plan_task
from alfred_gen.demo.start import interaction_poses, make_start_state
from alfred_gen.domains.tasks import make_task
from alfred_gen.errors import ExitCode
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.planner.grounding import parse_problem
from alfred_gen.scenes.library import get_scene, simulator

KITCHEN = 1


@pytest.fixture(scope="module")
def kitchen_state():
    """(metadata, interaction poses, agent pose) of the start state ``generate`` uses for seed 0."""
    scene = get_scene(KITCHEN)
    start = make_start_state(simulator().open(), scene, make_task("pick_and_place_simple", "Apple", "Fridge"), 0)
    return start.metadata, interaction_poses(scene.interaction_poses, start.metadata), agent_pose_of(start.metadata)


def _first_present(metadata, types):
    present = {o["objectType"] for o in metadata["objects"]}
    for t in types:
        if t in present:
            return t
    pytest.fail(f"none of {types} in procedural kitchen {KITCHEN}")


def test_plan_task_solves_a_heat_task_with_ids_of_the_scene(kitchen_state) -> None:
    metadata, poses, agent = kitchen_state
    food = _first_present(metadata, ["Apple", "Potato", "Tomato", "Bread", "Egg"])
    encoded, result = plan_task(KITCHEN, 0, make_task("pick_heat_then_place_in_recep", food, "CounterTop"))
    assert result.status == "solved", result.reason
    ids = {o["objectId"] for o in metadata["objects"]}
    heated = [s for s in result.plan if s.action == "HeatObject"]
    assert heated and heated[0].object_id in ids
    assert {o["objectId"]: o["objectType"] for o in metadata["objects"]}[heated[0].receptacle_id] == "Microwave"
    # The start location is the agent's pose after the spawn; every other pose is an interaction pose.
    assert encoded.locations[encoded.start_location] == [float(v) for v in agent]
    known = {tuple(float(v) for v in p) for p in poses.values()}
    assert all(tuple(s.location) in known for s in result.plan)


def test_plan_task_is_reproducible(kitchen_state) -> None:
    metadata = kitchen_state[0]
    food = _first_present(metadata, ["Apple", "Potato", "Tomato", "Bread"])
    task = make_task("pick_cool_then_place_in_recep", food, "CounterTop", object_sliced=True)
    first = plan_task(KITCHEN, 0, task)
    second = plan_task(KITCHEN, 0, task)
    assert first[0].problem_text == second[0].problem_text
    assert first[1].operators == second[1].operators and first[1].solved


def test_cli_prints_a_numbered_plan_and_writes_parseable_pddl(tmp_path: Path, capsys, kitchen_state) -> None:
    food = _first_present(kitchen_state[0], ["Apple", "Potato", "Tomato", "Bread", "Egg"])
    out = tmp_path / "problem.pddl"
    with pytest.raises(SystemExit) as done:
        main(["plan", "--scene", str(KITCHEN), "--seed", "0", "--task", "pick_heat_then_place_in_recep",
              "--object", food, "--receptacle", "CounterTop", "--pddl-out", str(out)])
    assert done.value.code == ExitCode.OK
    lines = capsys.readouterr().out.splitlines()
    numbered = [line for line in lines if line.strip()[:1].isdigit()]
    assert numbered[0].strip().startswith("1. GotoLocation")
    assert any("HeatObject" in line for line in numbered)
    problem = parse_problem(domain_path_for(out).read_text(), out.read_text())
    assert problem.goal and problem.goal[0].name == "goalreached"


@pytest.mark.parametrize(
    "args, code",
    [
        (["--task", "pick_heat_then_place_in_recep", "--object", "Apple", "--receptacle", "Safe"], ExitCode.UNSOLVABLE),
        (["--task", "pick_and_juggle", "--object", "Apple", "--receptacle", "CounterTop"], ExitCode.NOT_FOUND),
        (["--task", "pick_heat_then_place_in_recep", "--object", "Apple"], ExitCode.USAGE),
        (
            ["--task", "look_at_obj_in_light", "--object", "Apple", "--receptacle", "DeskLamp", "--sliced"],
            ExitCode.USAGE,
        ),
    ],
)
def test_cli_exit_codes(args, code, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["plan", "--scene", str(KITCHEN), "--seed", "0", *args])
    assert done.value.code == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_unknown_scene_is_not_found(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(
            ["plan", "--scene", "99", "--task", "pick_and_place_simple", "--object", "Apple", "--receptacle", "Fridge"]
        )
    assert done.value.code == ExitCode.NOT_FOUND
