"""`alfred-gen eval eqa`: EQA's metrics on a small dataset (houses 4-8, the val split's paths), the
reference agents' figures (the expert at the ceiling, the language-only baseline's accuracy within
its confidence interval of the train prior's), misbehaving agents and bad input (one line, the exit
code), resume; and the pieces without a simulator (fields to a region, ranks, rankings)."""

from __future__ import annotations

import json
import math
import random
import sys
import textwrap
from collections import Counter
from pathlib import Path

import pytest

from alfred_gen.env.actions import BadAction
from alfred_gen.eqa.geodesic import distance_field, navigation_scores, region_field
from alfred_gen.eqa.paths import PathOptions, paths_command
from alfred_gen.eqa.questions import QUESTIONS_FILE, QuestionOptions, questions_command
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.eqa import EqaEvalOptions, eval_eqa
from alfred_gen.eval.eqa_agents import load_eqa_factory, nav_action, prior_ranking, ranking_of
from alfred_gen.eval.eqa_metrics import STARTS, answer_rank
from alfred_gen.scenes.library import simulator

HOMES = tuple(f"LiteHouse{n}" for n in range(4, 9))  # four pass the house filter; LiteHouse5 is val


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("eqa")
    lines: list[str] = []
    # every question: sampled as the paper does, four homes leave too few episodes to score
    assert questions_command(QuestionOptions(HOMES, all_questions=True), str(out), simulator=simulator(), jobs=2,
                             echo=lines.append, show_progress=False) == ExitCode.OK, lines
    assert paths_command(str(out), simulator=simulator(), options=PathOptions(frames=False, splits=("val",)),
                         jobs=2, echo=lines.append, show_progress=False) == ExitCode.OK, lines
    return out


def _run(dataset: Path, agent: str, tmp_path: Path, name: str = "results.json",
         **options) -> tuple[ExitCode, list[str], dict]:
    lines: list[str] = []
    out = tmp_path / name
    code = eval_eqa(str(dataset), EqaEvalOptions(agent, **options), out=str(out), echo=lines.append,
                    show_progress=False)
    return code, lines, json.loads(out.read_text())


@pytest.fixture(scope="module")
def expert(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ExitCode, list[str], dict]:
    return _run(dataset, "expert", tmp_path_factory.mktemp("expert"))


# --- without a simulator -------------------------------------------------------------------------
def test_a_region_field_is_the_nearest_of_its_points() -> None:
    reachable = [(x * 0.25, 0.0) for x in range(9)] + [(2.0, 0.25)]
    field = {(x, z): d for x, z, d in region_field(reachable, [(0.0, 0.0), (2.0, 0.25)])}
    assert field[(0.0, 0.0)] == 0 and field[(2.0, 0.25)] == 0 and field[(2.0, 0.0)] == 0.25
    assert field[(1.0, 0.0)] == 1.0 and field[(1.25, 0.0)] == 1.0 and field[(1.5, 0.0)] == 0.75  # the nearer
    single = region_field(reachable, [(0.0, 0.0)])
    assert single == distance_field(reachable, (0.0, 0.0))
    assert region_field(reachable, [(5.0, 5.0)]) == []  # no goal on the grid
    scores = navigation_scores(region_field(reachable, [(2.0, 0.25)]), [(0.0, 0.0), (1.5, 0.0), (1.0, 0.0)])
    assert scores == {"d_0": 2.25, "d_T": 1.25, "d_delta": 1.0, "d_min": 0.75}


def test_answer_ranks_and_rankings() -> None:
    assert answer_rank(["red", "blue"], "blue", 5) == 2.0
    assert answer_rank(["red"], "blue", 5) == 3.5  # four answers share places 2-5
    assert ranking_of("red", ["blue", "red"]) == ["red"]
    assert ranking_of({"red": 0.2, "blue": 0.7}, ["blue", "red"]) == ["blue", "red"]
    for bad in ("green", ["red", "red"], 3, {"red": "x"}):
        with pytest.raises(BadAction):
            ranking_of(bad, ["blue", "red"])
    assert nav_action("MoveAhead_25") == "MoveAhead" and nav_action(3) == "Stop"
    assert nav_action({"action": "<<stop>>"}) == "Stop"
    with pytest.raises(BadAction):
        nav_action("LookDown")


def test_the_prior_ranking_puts_a_draw_from_the_prior_first() -> None:
    prior = {"a": 0.7, "b": 0.2, "c": 0.1, "d": 0.0}
    rng = random.Random(3)
    firsts = Counter(prior_ranking(prior, sorted(prior), rng)[0] for _ in range(4000))
    assert firsts["d"] == 0
    for answer in "abc":
        assert abs(firsts[answer] / 4000 - prior[answer]) < 0.03
    assert sorted(prior_ranking(prior, sorted(prior), rng)) == sorted(prior)


def test_an_unknown_agent_is_one_line_and_not_found(tmp_path: Path, cli_in_process) -> None:
    for spec in ("oracle", "no_such_module_x:make"):
        with pytest.raises(UserError) as refused:
            load_eqa_factory(spec)
        assert refused.value.code == ExitCode.NOT_FOUND
    result = cli_in_process("eval", "eqa", str(tmp_path), "--agent", "oracle")
    assert result.returncode == ExitCode.NOT_FOUND and len(result.stderr.strip().splitlines()) == 1


def test_what_is_not_an_eqa_dataset_is_refused_in_one_line(tmp_path: Path, cli_in_process) -> None:
    result = cli_in_process("eval", "eqa", str(tmp_path), "--agent", "expert")  # no questions.json
    assert result.returncode == ExitCode.NOT_FOUND and len(result.stderr.strip().splitlines()) == 1
    (tmp_path / QUESTIONS_FILE).write_text("{not json")
    result = cli_in_process("eval", "eqa", str(tmp_path), "--agent", "expert")
    assert result.returncode == ExitCode.BAD_INPUT and len(result.stderr.strip().splitlines()) == 1


# --- on a dataset ---------------------------------------------------------------------------------
@pytest.mark.slow
def test_trajectories_without_an_eqa_block_are_not_an_eqa_dataset(dataset: Path, tmp_path: Path,
                                                                  cli_in_process) -> None:
    traj = json.loads(next((dataset / "paths").rglob("traj_data.json")).read_text())
    del traj["eqa"]  # an ALFRED-format trajectory, but no EQA path
    trial = tmp_path / "other" / "task" / "trial_T20190101_000000_000000"
    trial.mkdir(parents=True)
    (trial / "traj_data.json").write_text(json.dumps(traj))
    (tmp_path / QUESTIONS_FILE).write_text((dataset / QUESTIONS_FILE).read_text())
    result = cli_in_process("eval", "eqa", str(tmp_path), "--paths", str(tmp_path / "other"), "--agent", "expert")
    assert result.returncode == ExitCode.BAD_INPUT and "not an EQA dataset" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_expert_scores_at_the_ceiling(expert: tuple[ExitCode, list[str], dict]) -> None:
    code, lines, results = expert
    assert code == ExitCode.OK, lines
    episodes = list(results["episodes"].values())
    assert episodes and {e["start"] for e in episodes} <= set(STARTS)
    for e in episodes:
        assert e["d_T"] == 0 and e["d_min"] == 0 and e["stop"] and e["correct"] and e["rank"] == 1, e
        assert e["d_delta"] == e["d_0"] >= 0 and e["region_points"] >= 1
    overall = results["metrics"]["all"]["all"]
    assert overall["d_T"] == 0 and overall["stop"] == 1 and overall["accuracy"] == 1 and overall["mean_rank"] == 1
    assert any(e["d_0"] > 0 for e in episodes if e["start"] != "T-10")  # the starts are away from the target
    assert set(results["metrics"]["by_split"]) == {"val"}
    assert lines[0].split()[:4] == ["group", "n", "d_T", "10"] and any(line.startswith("split val") for line in lines)
    assert lines[-1].startswith(f"{len(episodes)} episodes (0 from an earlier run), {len(episodes)} answered right")


@pytest.mark.slow
def test_the_region_is_nearer_than_the_experts_stop(dataset: Path, expert: tuple[ExitCode, list[str], dict]) -> None:
    """Measured to the viewing region, a start is no farther than to the expert's stop, and for some
    starts nearer (the target is seen before the expert's best view)."""
    from alfred_gen.traj.format import load_trajectory

    nearer = 0
    for e in expert[2]["episodes"].values():
        traj = load_trajectory(e["path"])
        pose = traj["eqa"]["spawns"][e["start"]]["pose"]
        to_stop = navigation_scores(traj["eqa"]["geodesic"]["cells"], [(pose[0], pose[1])])["d_0"]
        assert e["d_0"] <= to_stop
        nearer += e["d_0"] < to_stop
    assert nearer > 0


def _prior(data: dict, template: str, question: str) -> dict[str, float]:
    """The train split's answer shares, recomputed here from questions.json."""
    train = [q for q in data["questions"] if q.get("accepted") and q.get("split") == "train"]
    counts = Counter(q["answer"] for q in train if q["template"] == template and q["question"] == question)
    if not counts:
        counts = Counter(q["answer"] for q in train if q["template"] == template)
    if not counts:
        space = {q["answer"] for q in data["questions"] if q.get("accepted") and q["template"] == template}
        counts = Counter(dict.fromkeys(space, 1))
    total = sum(counts.values())
    return {a: c / total for a, c in counts.items()}


@pytest.mark.slow
def test_the_language_only_baseline_answers_at_the_priors_rate(dataset: Path, tmp_path: Path,
                                                               expert: tuple[ExitCode, list[str], dict]) -> None:
    code, lines, results = _run(dataset, "random", tmp_path)
    assert code == ExitCode.OK, lines
    data = json.loads((dataset / QUESTIONS_FILE).read_text())
    episodes = list(results["episodes"].values())
    chances = [_prior(data, e["template"], e["question"]).get(e["answer_true"], 0.0) for e in episodes]
    n = len(episodes)
    expected = sum(chances) / n
    spread = math.sqrt(sum(p * (1 - p) for p in chances)) / n
    accuracy = results["metrics"]["all"]["all"]["accuracy"]
    assert abs(accuracy - expected) <= 3 * spread + 1e-9, (accuracy, expected, spread)
    assert results["metrics"]["all"]["all"]["mean_rank"] >= 1
    walked = [e for e in episodes if e["stop"]]
    assert len(walked) == n and all(e["steps"] == int(e["start"][2:]) for e in episodes)
    assert results["metrics"]["all"]["all"]["d_T"] > expert[2]["metrics"]["all"]["all"]["d_T"]


@pytest.mark.slow
def test_forward_only_walks_straight_and_stops_at_a_wall(dataset: Path, tmp_path: Path) -> None:
    code, lines, results = _run(dataset, "forward", tmp_path)
    assert code == ExitCode.OK, lines
    for e in results["episodes"].values():
        assert e["stop"] and 1 <= e["steps"] <= int(e["start"][2:])


@pytest.fixture()
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "eqa_bad_agents.py").write_text(textwrap.dedent('''
        class Raises:
            needs_rgb = False
            def reset(self, task_info): pass
            def act(self, observation): raise RuntimeError("model exploded")
            def answer(self, observation): return "red"

        class Elsewhere:
            def reset(self, task_info): self.seen = None
            def act(self, observation):
                self.seen = observation["rgb"].shape
                return "Stop"
            def answer(self, observation): return "no such answer"
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("eqa_bad_agents", None)
    return "eqa_bad_agents"


@pytest.mark.slow
def test_an_agent_that_misbehaves_fails_each_episode_in_one_line(dataset: Path, tmp_path: Path,
                                                                 agents_module: str) -> None:
    for n, (agent, reason) in enumerate({"Raises": "agent_error", "Elsewhere": "bad_action"}.items()):
        code, lines, results = _run(dataset, f"{agents_module}:{agent}", tmp_path, name=f"{n}.json")
        count = len(results["episodes"])
        assert code == ExitCode.FAILED and count > 0
        assert len([line for line in lines if f": {reason}: " in line]) == count, lines
        assert results["metrics"]["all"]["all"]["errors"] == count


@pytest.mark.slow
def test_a_rerun_resumes(dataset: Path, tmp_path: Path, expert: tuple[ExitCode, list[str], dict]) -> None:
    out = tmp_path / "results.json"
    first = dict(expert[2])
    keep = dict(list(first["episodes"].items())[:2])
    out.write_text(json.dumps({**first, "episodes": keep}))
    code, lines, results = _run(dataset, "expert", tmp_path)
    assert code == ExitCode.OK and results["episodes"] == first["episodes"]
    assert "(2 from an earlier run)" in lines[-1]
    with pytest.raises(UserError) as refused:  # another agent's results are not resumed
        _run(dataset, "random", tmp_path)
    assert refused.value.code == ExitCode.USAGE
