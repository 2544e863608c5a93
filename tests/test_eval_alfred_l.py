"""ALFRED-L in `eval alfred`: derived trajectories scored by their goal blocks (ending within the
threshold of the destination, settable with --within), the perturbed language given to the agent
(--language), and the table per structure and language.

Fast tests derive NAV-ONLY and REV-1 from the fixture kitchen's source (two walks, 2 m apart); the
slow one derives from `sample --n 14` as a user would and checks the expert at the ceiling."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from alfred_gen.derive.perturb import perturb_command, remove_spatial
from alfred_gen.derive.run import derive_command
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.alfred_l import alfred_l_labels, alfred_l_metrics, alfred_l_table
from alfred_gen.eval.run import EvalOptions, eval_alfred
from alfred_gen.scenes.library import simulator
from tests.helpers.derive_sources import ANNOTATIONS, write_source

pytestmark = pytest.mark.slow  # fast lane: 21 s on a loaded 2-core machine (session 73 --durations)


@pytest.fixture(scope="module")
def derived(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``<root>/nav-only``, ``<root>/rev-1`` (derived from the fixture kitchen's source) and
    ``<root>/nav-only-e2`` (its E2 copy)."""
    root = tmp_path_factory.mktemp("alfred-l")
    sources = root / "sources"
    write_source(sources)
    for variant in ("nav-only", "rev-1"):
        code = derive_command(variant, [str(sources)], str(root / variant), simulator=simulator(),
                              echo=lambda line: None, show_progress=False)
        assert code == ExitCode.OK
    assert perturb_command("e2", [str(root / "nav-only")], str(root / "nav-only-e2"), echo=lambda line: None,
                           show_progress=False) == ExitCode.OK
    return root


@pytest.fixture()
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``FirstWalk``: plays the file's first subgoal only (a walk, in NAV-ONLY: to the microwave,
    2 m from where the source ends) and stops; it keeps the language it was given."""
    (tmp_path / "walk_agents.py").write_text(textwrap.dedent('''
        SEEN = []

        class FirstWalk:
            def reset(self, task_info):
                lows = task_info["traj_data"]["plan"]["low_actions"]
                self.queue = [low["discrete_action"]["action"] for low in lows if low["high_idx"] == 0]
                self.queue = ["Stop", *reversed(self.queue)]
                self.first = True

            def act(self, observation):
                if self.first:
                    SEEN.append((observation["goal"], observation["instructions"]))
                    self.first = False
                return {"action": self.queue.pop()}
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("walk_agents", None)
    return "walk_agents"


def _run(source: Path, agent: str, tmp_path: Path, name: str = "results.json",
         **options) -> tuple[ExitCode, list, dict]:
    lines: list[str] = []
    out = tmp_path / name
    code = eval_alfred(str(source), EvalOptions(agent, mode="object_id", **options), out=str(out),
                       echo=lines.append, show_progress=False)
    return code, lines, json.loads(out.read_text())


def test_the_expert_succeeds_on_every_derived_structure(derived: Path, tmp_path: Path) -> None:
    code, lines, results = _run(derived, "expert", tmp_path)
    assert code == ExitCode.OK, lines
    cells = results["alfred_l"]["cells"]
    assert set(cells) == {"alfred", "nav-only", "rev-1"}  # the source is in the tree too
    assert set(cells["nav-only"]) == {"original", "e2"}
    for row in cells.values():
        for cell in row.values():
            assert cell["success_rate"] == 1.0 and cell["episodes"] == len(ANNOTATIONS)
    assert cells["nav-only"]["original"]["mean_goal_distance"] == pytest.approx(0.0, abs=1e-6)
    assert cells["alfred"]["original"]["mean_goal_distance"] is None  # no destination in the source
    table = lines[lines.index("") + 1:]
    assert table[0].startswith("ALFRED-L success rate") and "each file's goal block" in table[0]
    assert table[1].split() == ["structure", "original", "e2"]
    assert [row.split()[0] for row in table[2:5]] == ["alfred", "nav-only", "rev-1"]


def test_success_is_within_the_threshold_and_the_threshold_is_settable(derived: Path, tmp_path: Path,
                                                                        agents_module: str) -> None:
    nav = derived / "nav-only"
    code, lines, results = _run(nav, f"{agents_module}:FirstWalk", tmp_path)
    assert code == ExitCode.OK
    cell = results["alfred_l"]["cells"]["nav-only"]["original"]
    assert cell["success_rate"] == 0.0 and cell["mean_goal_distance"] == pytest.approx(2.0, abs=1e-6)
    code, lines, results = _run(nav, f"{agents_module}:FirstWalk", tmp_path, name="wide.json", within=2.5)
    assert results["alfred_l"]["cells"]["nav-only"]["original"]["success_rate"] == 1.0
    assert "within 2.5 m (--within)" in lines[lines.index("") + 1]
    code, lines, results = _run(nav, f"{agents_module}:FirstWalk", tmp_path, name="exact.json", within=2.0)
    assert results["alfred_l"]["cells"]["nav-only"]["original"]["success_rate"] == 1.0  # the threshold is in
    with pytest.raises(UserError) as refused:  # a results file of another threshold is not resumed
        _run(nav, f"{agents_module}:FirstWalk", tmp_path, name="wide.json")
    assert refused.value.code == ExitCode.USAGE


def test_the_agent_gets_the_perturbed_language(derived: Path, tmp_path: Path, agents_module: str) -> None:
    import walk_agents  # type: ignore[import-not-found]

    nav = derived / "nav-only"
    _run(nav, f"{agents_module}:FirstWalk", tmp_path)
    original = list(walk_agents.SEEN)
    walk_agents.SEEN.clear()
    code, _lines, results = _run(nav, f"{agents_module}:FirstWalk", tmp_path, name="e1.json", language=("e1",))
    assert code == ExitCode.OK
    e1 = list(walk_agents.SEEN)
    assert len(e1) == len(original) == len(ANNOTATIONS)
    for (goal, steps), (goal1, steps1) in zip(original, e1):
        assert goal1 == remove_spatial(goal)
        assert steps1.split("\n") == [remove_spatial(line) for line in steps.split("\n")]
    assert e1 != original  # the source's lines have spatial words ("Turn left and walk forward ...")
    assert set(results["alfred_l"]["cells"]["nav-only"]) == {"e1"}
    walk_agents.SEEN.clear()
    _run(derived / "nav-only-e2", f"{agents_module}:FirstWalk", tmp_path, name="e2.json")
    assert all(set(steps.split("\n")) == {""} for _goal, steps in walk_agents.SEEN)  # E2: no step lines
    with pytest.raises(UserError):
        _run(nav, "expert", tmp_path, name="bad.json", language=("e3",))


def test_labels_metrics_and_table_of_hand_made_records() -> None:
    assert alfred_l_labels({}) == {"variant": "alfred", "language": "original"}
    assert alfred_l_labels({"derived_from": {"variant": "rev-1", "reverse": "shortest"},
                            "language_perturbations": ["e1", "e2"]}) == {"variant": "rev-1:shortest",
                                                                          "language": "e1+e2"}
    records = [{"variant": "rev-n", "language": "e2", "success": True, "goal_distance": 0.5},
               {"variant": "rev-n", "language": "e2", "success": False, "goal_distance": 1.5},
               {"variant": "nav-only", "language": "original", "success": False, "goal_distance": None}]
    metrics = alfred_l_metrics(records)
    assert list(metrics["cells"]) == ["nav-only", "rev-n"] and metrics["derived_episodes"] == 3
    assert metrics["cells"]["rev-n"]["e2"] == {"episodes": 2, "successes": 1, "success_rate": 0.5,
                                               "mean_goal_distance": 1.0}
    lines = alfred_l_table(metrics, 1.25)
    assert lines[1].split() == ["structure", "original", "e2"]
    assert lines[3].startswith("rev-n") and lines[3].endswith("-      50.0 (  2)")


def test_cli_within_and_language(derived: Path, tmp_path: Path, cli_in_process) -> None:
    result = cli_in_process("eval", "alfred", str(derived / "rev-1"), "--agent", "expert", "--mode", "object_id",
                            "--within", "1.25", "--language", "e1", "--out", str(tmp_path / "r.json"))
    assert result.returncode == ExitCode.OK, result
    assert "ALFRED-L success rate" in result.stdout
    assert json.loads((tmp_path / "r.json").read_text())["language"] == ["e1"]
    result = cli_in_process("eval", "alfred", str(derived), "--agent", "expert", "--within", "-1")
    assert result.returncode == ExitCode.USAGE


# --- sample --n 14, then derive ----------------------------------------------------------------------
@pytest.mark.slow
def test_the_expert_is_at_the_ceiling_on_alfred_l_from_sample(tmp_path: Path, cli_in_process) -> None:
    data = tmp_path / "data"
    assert cli_in_process("sample", "--n", "14", "--out", str(data), "--workers", "2", "--demos-per-task", "1",
                          "--no-frames").returncode == ExitCode.OK
    for variant in ("nav-only", "rev-1"):
        result = cli_in_process("derive", variant, str(data), "--out", str(tmp_path / "alfred-l" / variant),
                                "--jobs", "2")
        assert result.returncode == ExitCode.OK, result
    out = tmp_path / "results.json"
    result = cli_in_process("eval", "alfred", str(tmp_path / "alfred-l"), "--agent", "expert", "--mode",
                            "object_id", "--language", "e1", "--jobs", "2", "--out", str(out))
    assert result.returncode == ExitCode.OK, result
    cells = json.loads(out.read_text())["alfred_l"]["cells"]
    assert cells["nav-only"]["e1"]["episodes"] >= 10, cells
    assert all(cell["success_rate"] == 1.0 for row in cells.values() for cell in row.values()), cells
