"""`alfred-gen eval alfred`: ALFRED's metrics and formulas, the built-in agents, agents that
misbehave (one line per episode, the run goes on), resume and Ctrl-C, leaderboard action sequences,
split files, and the README's example agent."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.eval.metrics import all_metrics, episode_scores, group_metrics
from alfred_gen.eval.run import EvalOptions, eval_alfred
from alfred_gen.traj.format import load_trajectory
from alfred_gen.traj.splits import ALFRED_UNSEEN_ROOMS, make_splits, parse_sizes, read_splits
from tests.helpers import REPO_ROOT
from tests.helpers.agent_data import agent_dataset, trajectory_files

pytestmark = pytest.mark.slow  # fast lane: 103 s on a loaded 2-core machine (session 73 --durations)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return agent_dataset(tmp_path_factory.getbasetemp())


def _run(source: Path | str, agent: str, tmp_path: Path, name: str = "results.json",
         **kwargs) -> tuple[ExitCode, list[str], dict]:
    lines: list[str] = []
    out = tmp_path / name
    options = EvalOptions(agent, mode=kwargs.pop("mode", "mask"), step_timeout=kwargs.pop("step_timeout", 60.0),
                          actseqs=kwargs.pop("actseqs", None))
    code = eval_alfred(str(source), options, out=str(out), echo=lines.append, show_progress=False, **kwargs)
    return code, lines, json.loads(out.read_text())


@pytest.fixture()
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of misbehaving agents on the import path."""
    (tmp_path / "bad_agents.py").write_text(textwrap.dedent('''
        import time

        class Raises:
            def reset(self, task_info): pass
            def act(self, observation): raise RuntimeError("model exploded")

        class BadAction:
            def reset(self, task_info): pass
            def act(self, observation): return {"action": "Teleport"}

        class Hangs:
            def reset(self, task_info): pass
            def act(self, observation):
                time.sleep(30)

        class Interrupts:
            count = 0
            def reset(self, task_info):
                Interrupts.count += 1
                if Interrupts.count == 2:
                    raise KeyboardInterrupt
            def act(self, observation): return {"action": "Stop"}
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("bad_agents", None)
    return "bad_agents"


def test_alfreds_formulas_per_episode_and_per_group() -> None:
    # Success in 20 steps with an expert of 10: weight 0.5. Failure with 2 of 4 conditions in 5 steps.
    a = {"success": True, "goal_conditions_met": 2, "goal_conditions_total": 2, "task_type": "x", "split": "s",
         **episode_scores(True, 2, 2, expert_length=10, steps=20)}
    b = {"success": False, "goal_conditions_met": 2, "goal_conditions_total": 4, "task_type": "y", "split": "s",
         **episode_scores(False, 2, 4, expert_length=30, steps=5)}
    assert a["success_spl"] == 0.5 and b["postcondition_spl"] == 0.5
    m = group_metrics([a, b])
    assert m["success_rate"] == 0.5
    assert m["goal_condition_success_rate"] == 4 / 6  # summed conditions, not the mean of ratios
    assert m["path_length_weighted_success_rate"] == pytest.approx((0.5 * 10) / 40)
    assert m["path_length_weighted_goal_condition_success_rate"] == pytest.approx((0.5 * 10 + 0.5 * 30) / 40)
    by_type = all_metrics([a, b])["by_task_type"]
    assert by_type["x"]["episodes"] == 1 and by_type["y"]["success_rate"] == 0.0


@pytest.mark.parametrize("mode", ["mask", "object_id", "high_level"])
def test_the_expert_scores_everything_and_random_nothing(dataset: Path, tmp_path: Path, mode: str) -> None:
    code, lines, results = _run(dataset, "expert", tmp_path, mode=mode)
    assert code == ExitCode.OK, lines
    metrics = results["metrics"]["all"]
    assert metrics["episodes"] == 4  # two trajectories, two annotations each
    assert metrics["success_rate"] == metrics["goal_condition_success_rate"] == 1.0
    if mode != "high_level":
        assert metrics["path_length_weighted_success_rate"] == 1.0
    assert set(results["metrics"]["by_task_type"]) == {"pick_heat_then_place_in_recep", "look_at_obj_in_light"}
    if mode == "mask":
        code, lines, results = _run(dataset, "random", tmp_path, name="random.json")
        assert results["metrics"]["all"]["success_rate"] == 0.0 and code == ExitCode.OK


def test_misbehaving_agents_fail_their_episodes_with_one_line_each(dataset: Path, tmp_path: Path,
                                                                   agents_module: str) -> None:
    cases = {"no_such_module:make": "agent_unavailable", f"{agents_module}:Missing": "agent_unavailable",
             f"{agents_module}:Raises": "agent_error", f"{agents_module}:BadAction": "bad_action",
             f"{agents_module}:Hangs": "timeout"}
    for n, (agent, reason) in enumerate(cases.items()):
        code, lines, results = _run(dataset, agent, tmp_path, name=f"{n}.json", step_timeout=0.5)
        assert code == ExitCode.FAILED
        assert len([line for line in lines if f": {reason}: " in line]) == 4, lines  # one per episode
        assert results["metrics"]["all"]["episodes"] == 4 and results["metrics"]["all"]["successes"] == 0
        assert lines[-1].startswith("4 episodes scored"), lines


def test_a_rerun_resumes_and_ctrl_c_keeps_what_was_scored(dataset: Path, tmp_path: Path, agents_module: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        _run(dataset, f"{agents_module}:Interrupts", tmp_path)
    kept = json.loads((tmp_path / "results.json").read_text())
    assert len(kept["episodes"]) == 1
    code, lines, results = _run(dataset, f"{agents_module}:Interrupts", tmp_path)
    assert code == ExitCode.OK and len(results["episodes"]) == 4
    assert "(1 from an earlier run)" in lines[-1]
    assert results["episodes"][next(iter(kept["episodes"]))] == next(iter(kept["episodes"].values()))
    from alfred_gen.errors import UserError

    with pytest.raises(UserError) as refused:  # another agent's results are not resumed
        _run(dataset, "expert", tmp_path)
    assert refused.value.code == ExitCode.USAGE


def test_a_leaderboard_action_sequence_file_is_scored(dataset: Path, tmp_path: Path) -> None:
    dump = {"tests_seen": [], "tests_unseen": []}
    for path in trajectory_files(dataset):
        traj = load_trajectory(path)
        actions = [low["api_action"] for low in traj["plan"]["low_actions"]]
        dump["tests_seen"].append({"task_id": traj["task_id"], "api_actions": actions})
        dump["tests_unseen"].append({"task_id": traj["task_id"], "api_actions": actions[:3]})
    (tmp_path / "dump.json").write_text(json.dumps(dump))
    code, lines, results = _run(dataset, "", tmp_path, actseqs=str(tmp_path / "dump.json"))
    assert code == ExitCode.OK, lines
    by_key = sorted(results["episodes"].values(), key=lambda r: r["key"])
    assert [r["success"] for r in by_key] == [True, False, True, False]  # annotation 0 full, 1 cut short


def test_split_files_hold_out_unseen_rooms() -> None:
    trials = [(f"t-{room}/trial_{i}", room, 3) for room in
              ["FloorPlan1", "FloorPlan2", "FloorPlan10", "FloorPlan9", "FloorPlan301"] for i in range(20)]
    trials += [(f"t-LitePlan{n}/trial_{i}", f"LitePlan{n}", 1) for n in range(1, 21) for i in range(10)]
    splits = make_splits(trials, seed=1)
    assert make_splits(trials, seed=1) == splits and make_splits(trials, seed=2) != splits
    rooms = {split: {e["task"].split("/")[0].split("-")[1] for e in entries} for split, entries in splits.items()}
    assert rooms["valid_unseen"] >= {"FloorPlan10"} and rooms["tests_unseen"] >= {"FloorPlan9"}
    for unseen in ("valid_unseen", "tests_unseen"):
        assert not rooms[unseen] & (rooms["train"] | rooms["valid_seen"] | rooms["tests_seen"])
        assert all(int(r[9:]) in ALFRED_UNSEEN_ROOMS[unseen] for r in rooms[unseen] if r.startswith("FloorPlan"))
    lite = make_splits([t for t in trials if "LitePlan" in t[1]], seed=1)  # other rooms are drawn
    lite_rooms = {split: {e["task"].split("/")[0] for e in entries} for split, entries in lite.items()}
    assert lite_rooms["valid_unseen"] and lite_rooms["tests_unseen"] and lite_rooms["train"]
    assert not lite_rooms["valid_unseen"] & (lite_rooms["train"] | lite_rooms["valid_seen"] | lite_rooms["tests_seen"])
    entries = [e for entries in splits.values() for e in entries]
    assert len(entries) == 100 * 3 + 200  # one entry per annotation
    assert {e["repeat_idx"] for e in entries if e["task"].startswith("t-FloorPlan1/")} == {0, 1, 2}
    shares = parse_sizes("valid_seen=0.2,tests_seen=0")
    assert shares["valid_seen"] == 0.2 and not make_splits(trials, shares=shares)["tests_seen"]


def test_splits_command_and_eval_read_the_split_file(dataset: Path, tmp_path: Path, cli_in_process) -> None:
    out = tmp_path / "splits.json"
    done = cli_in_process("splits", str(dataset), "--out", str(out), "--sizes",
                          "valid_seen=0.5,valid_unseen=0,tests_seen=0,tests_unseen=0")
    assert done.returncode == 0, done.stderr
    splits = read_splits(out)
    assert set(splits) == {"train", "valid_seen", "valid_unseen", "tests_seen", "tests_unseen"}
    assert len(splits["valid_seen"]) == 2 and len(splits["train"]) == 2
    code, _lines, results = _run(out, "expert", tmp_path, split="valid_seen", data_root=str(dataset))
    assert code == ExitCode.OK and results["metrics"]["all"]["episodes"] == 2
    assert set(results["metrics"]["by_split"]) == {"valid_seen"}


def test_the_readme_example_agent_runs(dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      cli_in_process) -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```py\n(# my_agent\.py.*?)```", readme, flags=re.DOTALL)
    assert block, "the README shows no example agent"
    (tmp_path / "my_agent.py").write_text(block.group(1))
    monkeypatch.chdir(tmp_path)
    sys.modules.pop("my_agent", None)
    done = cli_in_process("eval", "alfred", str(dataset), "--agent", "my_agent:make_agent", "--out", "r.json")
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["metrics"]["all"]["episodes"] == 4
    assert all(r["end"] == "stop" and r["steps"] > 0 for r in results["episodes"].values())


def test_eval_cli_needs_one_agent(cli_in_process) -> None:
    assert cli_in_process("eval", "alfred", "nowhere").returncode == ExitCode.USAGE
    assert cli_in_process("eval", "alfred", "nowhere", "--agent", "expert").returncode == ExitCode.NOT_FOUND


def test_a_bad_file_fails_its_episode_and_the_run_goes_on(dataset: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "data"
    shutil.copytree(dataset, root)
    broken = root / "broken-task" / "trial_T20190101_000000_000009" / "traj_data.json"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"task_id": "trial_T2019')  # truncated
    code, lines, results = _run(root, "expert", tmp_path, mode="object_id")
    assert code == ExitCode.FAILED
    assert [line for line in lines if ": bad_file: " in line and "broken-task" in line]
    assert results["metrics"]["all"]["episodes"] == 5 and results["metrics"]["all"]["successes"] == 4
