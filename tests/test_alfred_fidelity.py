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

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

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


def test_a_figure_is_rounded_down_so_it_never_shows_past_what_was_measured() -> None:
    # 6,505 of 6,574 is 98.95%: below the 99% the held-out figure is read against, so not "99.0%".
    assert fidelity.percent(6505, 6574) == "98.9%"
    assert fidelity.percent(6509, 6574) == "99.0%"
    assert fidelity.percent(238, 238) == "100.0%" and fidelity.percent(0, 0) == "0.0%"
    ok = [fidelity.ReplayOutcome(Path(f"r/t{i}/traj_data.json"), i < 6505, "ok" if i < 6505 else "action_failed")
          for i in range(6574)]
    assert fidelity.fidelity_report(ok, "fidelity_heldout")[-1] == "fidelity_heldout: 98.9%"


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
    assert "same sequence of high-level actions: 2/3 = 66.6%" in lines  # rounded down
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


def test_bench_replays_held_out_in_sample_and_plans_and_ends_with_the_held_out_figure(
        alfred_data: Path, tmp_path: Path) -> None:
    json_dir = _sample_checkout(alfred_data, tmp_path / "alfred")
    done = subprocess.run([sys.executable, str(BENCH), str(json_dir), "--time-limit", "20", "--folds", "2",
                           "--workers", "1", "--subset", str(json_dir)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines.count("trajectories: 7") == 2  # in sample and held out
    in_sample = next(line for line in lines if line.startswith("fidelity_in_sample: "))
    held_out = next(line for line in lines if line.startswith("fidelity_heldout: "))
    assert in_sample == "fidelity_in_sample: 100.0%", done.stdout
    assert lines[-1] == "fidelity: " + held_out.split(": ")[1]
    assert any(line.startswith("plan_coverage: ") and line.endswith("/7 = " + line.split("= ")[1])
               for line in lines)
    assert any(line.startswith("plan_coverage_subset: ") for line in lines)
    assert any(line.startswith("same high-level plan (actions and class arguments): ") for line in lines)


def test_bench_without_layouts_says_so_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "json" / "t").mkdir(parents=True)
    (tmp_path / "json" / "t" / "traj_data.json").write_text("{}")
    done = subprocess.run([sys.executable, str(BENCH), str(tmp_path / "json"), "--no-plans"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 4 and len(done.stderr.strip().splitlines()) == 1
    assert "--alfred-dir" in done.stderr


def test_folds_hold_out_what_only_that_fold_showed(alfred_data: Path) -> None:
    """Each demo is in exactly one fold; a room built for a fold has none of the points only that
    fold's demos walked on its proven floor, while the room built from every demo has them."""
    from alfred_gen.fidelity.evidence_pool import EvidencePool
    from alfred_gen.fidelity.held_out import held_out_jobs
    from alfred_gen.scenes.alfred.importer import build_scene

    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    pool = EvidencePool.read(fidelity.sources_for(files), files)
    folds = pool.folds(2)
    assert sorted(folds) == sorted(files) and set(folds.values()) == {0, 1}
    assert pool.folds(2) == folds  # deterministic
    all_rooms = pool.rooms()
    jobs = held_out_jobs(pool, None, 2)
    assert sorted(p for job in jobs for p in job.paths) == sorted(files)
    for job in jobs:
        number = job.evidence.scene_num
        walked_here: set[tuple[int, int]] = set()
        for path in job.paths:
            traj = fidelity.load(path)
            walked_here |= {grid_key(*p) for p in walked_points(traj["scene"], traj["plan"]["low_actions"])}
        evidence = job.evidence
        known = {grid_key(x, z) for x, z in [*evidence.walked.values(), *evidence.layout_points]}
        known |= {grid_key(p[0], p[1]) for p in evidence.openable.values()}
        known |= {grid_key(p[0], p[1]) for poses in evidence.used_from.values() for p in poses}
        only_here = walked_here - known
        if not only_here:
            continue
        held_out_room = build_scene(job.evidence, None, job.stats)
        full_room = build_scene(all_rooms[number], None, job.stats)
        assert not only_here & {grid_key(x, z) for x, z in held_out_room.reachable}
        assert only_here <= {grid_key(x, z) for x, z in full_room.reachable}
        return
    pytest.fail("no fold walks a point only it shows")


def test_failure_causes_name_what_lite_refused() -> None:
    def outcome(reason: str, error: str) -> fidelity.ReplayOutcome:
        return fidelity.ReplayOutcome(Path("a/b/traj_data.json"), False, reason, "X", error)

    off_floor = outcome("action_failed", "low_idx 3 MoveAhead: cannot move to (1.00, 2.00): not a reachable position")
    assert fidelity.failure_cause(off_floor) == "the point is not on the room's floor"
    blocked = outcome("action_failed", "... blocked by an object")
    assert fidelity.failure_cause(blocked) == "an object stands on the point"
    assert fidelity.failure_cause(outcome("unknown_object", "no object Faucet|+01.00|+01.00|+01.00 in the scene")) \
        == "the room lacks the object"
    assert fidelity.failure_cause(outcome("restore_failed", "restoring the scene: SetObjectPoses failed: x")) \
        == "the start state cannot be restored (SetObjectPoses)"
    table = fidelity.failure_table([outcome("action_failed", "Apple|1|2|3 is not visible")] * 2
                                   + [outcome("goal_unsatisfied", "1/2")])
    assert table[2] == "| the target is not visible | 2 | X 2 |"
    assert table[3] == "| goal unsatisfied | 1 | X 1 |"


def test_bench_offset_measures_the_demos_the_default_sample_leaves_out(alfred_data: Path, tmp_path: Path) -> None:
    """``--every N --offset K`` takes the K-th demo of each N (sorted by path): a second sample, disjoint
    from the default one, on which a figure chosen on the default can be checked. An offset out of
    range is refused in one line (exit 2)."""
    json_dir = _sample_checkout(alfred_data, tmp_path / "alfred")
    files = sorted(json_dir.rglob("traj_data.json"))
    for offset in (0, len(files) - 1):
        records = tmp_path / f"offset{offset}.json"
        done = subprocess.run([sys.executable, str(BENCH), str(json_dir), "--unseen-only", "--workers", "1",
                               "--every", str(len(files)), "--offset", str(offset), "--masks", "--masks-out",
                               str(records)], capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr
        line = next(line for line in done.stdout.splitlines() if line.startswith("measured: "))
        assert line.startswith(f"measured: 1 of them (every {len(files)}th from the {offset}th"), line
        replayed = {Path(r["path"]) for r in json.loads((tmp_path / f"offset{offset}_unseen_rooms.json").read_text())}
        assert replayed == {files[offset]}
    refused = subprocess.run([sys.executable, str(BENCH), str(json_dir), "--every", "2", "--offset", "2"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--offset must be at least 0 and less than --every" in refused.stderr
