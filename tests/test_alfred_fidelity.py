"""The fidelity and plan-agreement report (alfred_gen.fidelity.measure, bench/alfred_fidelity.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.fidelity import measure as fidelity
from alfred_gen.scenes.alfred.evidence import walked_points
from alfred_gen.sim.scene import grid_key

BENCH = Path(__file__).resolve().parent.parent / "bench" / "alfred_fidelity.py"


def test_fidelity_report_groups_failures_by_reason_and_action_and_ends_with_the_figure() -> None:
    outcomes = [
        fidelity.ReplayOutcome(Path("a/t1/traj_data.json"), True, "ok"),
        fidelity.ReplayOutcome(Path("b/t2/traj_data.json"), False, "action_failed", "PutObject", "full"),
        fidelity.ReplayOutcome(Path("c/t3/traj_data.json"), False, "action_failed", "PickupObject", "not visible"),
        fidelity.ReplayOutcome(Path("d/t4/traj_data.json"), False, "goal_unsatisfied", "", "1/2"),
    ]
    lines = fidelity.fidelity_report(outcomes)
    assert "every action succeeded: 2/4" in lines
    assert "every action succeeded and goal conditions satisfied: 1/4" in lines
    assert "failures by reason: action_failed 2, goal_unsatisfied 1" in lines
    assert "failures by action type: PickupObject 1, PutObject 1" in lines
    assert "  b/t2: action_failed: full" in lines
    assert lines[-1] == "fidelity: 25.0%"


def test_plan_agreement_compares_discrete_actions_with_their_class_arguments() -> None:
    theirs = [
        {"discrete_action": {"action": "GotoLocation", "args": ["countertop"]}},
        {"discrete_action": {"action": "PickupObject", "args": ["apple"]}},
        {"discrete_action": {"action": "NoOp", "args": []}},
    ]
    assert fidelity.discrete_steps(theirs) == ["GotoLocation(countertop)", "PickupObject(apple)"]
    same = fidelity.PlanOutcome(Path("x"), "solved", True, True, our_low=10, their_low=20)
    renamed = fidelity.PlanOutcome(Path("y"), "solved", False, True, our_low=30, their_low=20)
    lost = fidelity.PlanOutcome(Path("z"), "unsolvable", their_low=5)
    lines = fidelity.agreement_report([same, renamed, lost])
    assert "same high-level plan (actions and class arguments): 1/3 = 33.3%" in lines
    assert "same sequence of high-level actions: 2/3 = 66.7%" in lines
    assert any(line.startswith("expanded length: ours 40 vs ALFRED 40 low actions (ratio 1.00") for line in lines)
    assert "not planned: unsolvable 1" in lines


def _sample_checkout(alfred_data: Path, root: Path, per_type: int = 1) -> Path:
    """A partial ALFRED checkout (layouts + a few trajectories, symlinked) under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "layouts").symlink_to(alfred_data / "layouts")
    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    seen: dict[str, int] = {}
    for path in files:
        task_type = path.parent.parent.name.split("-")[0]
        if seen.get(task_type, 0) >= per_type:
            continue
        seen[task_type] = seen.get(task_type, 0) + 1
        target = root / "json_2.1.0" / "train" / path.parent.parent.name / path.parent.name / path.name
        target.parent.mkdir(parents=True)
        target.symlink_to(path)
    return root / "json_2.1.0"


def test_bench_replays_and_plans_a_sample_and_prints_both(alfred_data: Path, tmp_path: Path) -> None:
    json_dir = _sample_checkout(alfred_data, tmp_path / "alfred")
    done = subprocess.run([sys.executable, str(BENCH), str(json_dir), "--time-limit", "20"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "trajectories: 7" in lines
    assert lines[-1] == "fidelity: 100.0%", done.stdout
    assert any(line.startswith("same high-level plan (actions and class arguments): ") for line in lines)
    assert any(line.startswith("expanded length: ours ") for line in lines)


def test_bench_without_layouts_says_so_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "json" / "t").mkdir(parents=True)
    (tmp_path / "json" / "t" / "traj_data.json").write_text("{}")
    done = subprocess.run([sys.executable, str(BENCH), str(tmp_path / "json"), "--no-plans"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 4 and len(done.stderr.strip().splitlines()) == 1
    assert "--alfred-dir" in done.stderr


def test_held_out_rooms_leave_out_what_only_that_demo_showed(alfred_data: Path) -> None:
    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    rooms = fidelity.rooms_for(files)
    trajectories = [json.loads(p.read_text()) for p in files]
    rooms.remember_facts(trajectories)
    for traj in trajectories:
        name = traj["scene"]["floor_plan"]
        others = set()
        for other in trajectories:
            if other is not traj and other["scene"]["floor_plan"] == name:
                others |= {grid_key(*p) for p in walked_points(other["scene"], other["plan"]["low_actions"])}
        layout = {grid_key(x, z) for x, z in rooms.rooms[traj["scene"]["scene_num"]].layout_points}
        mine = {grid_key(*p) for p in walked_points(traj["scene"], traj["plan"]["low_actions"])[1:]}
        only_mine = mine - others - layout
        if only_mine:
            with_it = {grid_key(x, z) for x, z in rooms.scene(name).reachable}
            without = {grid_key(x, z) for x, z in rooms.scene_without(name, traj).reachable}
            assert only_mine <= with_it
            assert not only_mine & without
            return
    pytest.fail("no demo walks a point only it shows")
