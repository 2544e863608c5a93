"""Exported games judged by ALFWorld's own code: its loader, its engine, its handcoded expert.

Skipped only when the ``alfworld`` extra is absent (``pip install '.[alfworld]'``; CI installs it).
Trajectories come from the real generator, in the small fixture rooms (ALFWorld's engine grounds the
whole room, so small rooms keep these tests quick), plus one pick_two in a procedural kitchen. (The
fixture kitchen has no cooling demonstration the generator can make; ``cool`` is translated as
``heat`` is, see test_export_alfworld.py, and the 100-trajectory measurement plays cool games.)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from alfred_gen.demo.generate import generate_trajectory
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.errors import ExitCode
from alfred_gen.export.alfworld.check import check_command, check_games
from alfred_gen.export.alfworld.export import export_command, export_games
from alfred_gen.export.alfworld.outcomes import ExportReason, GameCheckReason
from alfred_gen.export.alfworld.upstream import load_rules
from alfred_gen.scenes.library import simulator
from tests.helpers import run_python
from tests.helpers.replay_scripts import generate_example

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

pytest.importorskip("alfworld", reason="the alfworld extra is not installed")
pytest.importorskip("textworld", reason="the alfworld extra is not installed")

KITCHEN, BEDROOM = "LiteFixtureKitchen", "LiteFixtureBedroom"

#: name -> (room, candidate tasks; the first one the generator makes is used)
EXAMPLES: dict[str, tuple[str, list[TaskSpec]]] = {
    "heat": (KITCHEN, [TaskSpec("pick_heat_then_place_in_recep", "Apple", "CounterTop")]),
    "clean": (KITCHEN, [TaskSpec("pick_clean_then_place_in_recep", "Mug", "CounterTop")]),
    "fridge": (KITCHEN, [TaskSpec("pick_and_place_simple", "Mug", "Fridge")]),
    "look": (BEDROOM, [TaskSpec("look_at_obj_in_light", "CellPhone", toggle_target="DeskLamp")]),
    "movable": (KITCHEN, [TaskSpec("pick_and_place_with_movable_recep", "Apple", "CounterTop", "Bowl")]),
    "sliced": (KITCHEN, [TaskSpec("pick_heat_then_place_in_recep", "Apple", "CounterTop", object_sliced=True)]),
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Trajectories made by the generator (and one unreadable file), exported to ALFWorld games."""
    root = tmp_path_factory.mktemp("alfworld")
    src, games = root / "src", root / "games"
    made: dict[str, Path] = {}
    for n, (name, (room, tasks)) in enumerate(EXAMPLES.items()):
        for task in tasks:
            for seed in range(1, 5):
                result = generate_trajectory(task, room, seed, src, f"trial_T20000101_000000_{n:06d}",
                                             frames=False, time_limit=30)
                if result.ok:
                    made[name] = Path(result.path)
                    break
            if name in made:
                break
        assert name in made, f"the generator made no {name} example"
    pick_two, tried = generate_example("pick_two_obj_and_place", src, frames=False)
    assert pick_two is not None, tried
    made["two"] = Path(pick_two)
    broken = src / "pick_and_place_simple-Mug-None-Fridge-1" / "trial_T20000101_000000_999999"
    broken.mkdir(parents=True)
    (broken / "traj_data.json").write_text('{"task_type": "pick_and')
    results = export_games(src, games, simulator=simulator(), show_progress=False)
    return {"src": src, "games": games, "made": made, "results": {r.source.parent: r for r in results},
            "broken": broken}


def _game(exported: dict, name: str) -> Path:
    trial = exported["made"][name]
    return exported["games"] / trial.parent.name / trial.name


def test_every_exportable_trajectory_exports_and_the_rest_say_why(exported) -> None:
    results = exported["results"]
    reasons = {name: results[path].reason for name, path in exported["made"].items()}
    assert reasons == {"heat": ExportReason.OK, "clean": ExportReason.OK, "fridge": ExportReason.OK,
                       "look": ExportReason.OK, "two": ExportReason.OK,
                       "movable": ExportReason.MOVABLE_RECEPTACLE, "sliced": ExportReason.SLICED}
    assert results[exported["broken"]].reason == ExportReason.BAD_FILE
    assert not (exported["games"] / exported["broken"].parent.name / exported["broken"].name).exists()
    assert not _game(exported, "movable").exists() and not _game(exported, "sliced").exists()
    assert not [p for p in exported["games"].iterdir() if p.name.startswith(".")]  # no temporaries left


def test_alfworlds_loader_collects_every_game_and_every_walkthrough_wins_in_its_engine(exported) -> None:
    report = check_games(exported["games"], show_progress=False)
    assert len(report.games) == 5 and report.collected == 5
    assert [(g.game.parent.name, g.reason, g.detail) for g in report.games if g.reason != GameCheckReason.OK] == []
    assert all(g.walkthrough_steps >= 2 for g in report.games)


def test_the_game_files_are_alfworlds_domain_and_grammar_with_our_problem_and_plan(exported) -> None:
    rules = load_rules()
    game_dir = _game(exported, "fridge")
    assert (game_dir / "traj_data.json").read_bytes() == (exported["made"]["fridge"] / "traj_data.json").read_bytes()
    game = json.loads((game_dir / "game.tw-pddl").read_text())
    assert set(game) == {"pddl_domain", "grammar", "pddl_problem", "solvable", "walkthrough"}
    assert game["solvable"] is True and game["pddl_domain"] == rules.domain
    assert game["pddl_problem"] == (game_dir / "initial_state.pddl").read_text()
    assert "UNKNOWN GOAL" not in game["grammar"]
    sentence = game["grammar"].split("Your task is to: ", 1)[1].split(".", 1)[0]
    assert sentence in ("put a mug in fridge", "put some mug on fridge")
    assert game["grammar"] == rules.grammar.replace("UNKNOWN GOAL", sentence)
    assert "open fridge 1" in game["walkthrough"] and game["walkthrough"][-1] == "move mug 1 to fridge 1"


def _variant(exported: dict, name: str, tmp_path: Path, change) -> Path:
    """A copy of one game under tmp_path with its game.tw-pddl changed by ``change(game)``."""
    source = _game(exported, name)
    target = tmp_path / "games" / source.parent.name / source.name
    shutil.copytree(source, target)
    game = json.loads((target / "game.tw-pddl").read_text())
    change(game)
    (target / "game.tw-pddl").write_text(json.dumps(game))
    return tmp_path / "games"


def test_a_missing_can_contain_is_caught(exported, tmp_path: Path) -> None:
    """Without (canContain CounterTopType AppleType) the apple can never be put where the goal wants
    it; ALFWorld's engine then fails to load the game at all (its translator finds the goal
    unreachable), and the check says so."""
    def drop(game: dict) -> None:
        line = "(canContain CounterTopType AppleType)"
        assert line in game["pddl_problem"]
        game["pddl_problem"] = game["pddl_problem"].replace(line, "")

    report = check_games(_variant(exported, "heat", tmp_path, drop), show_progress=False)
    [verdict] = report.games
    assert verdict.reason == GameCheckReason.LOAD_FAILED and verdict.detail


def test_a_command_out_of_order_is_inadmissible(exported, tmp_path: Path) -> None:
    def swap(game: dict) -> None:
        steps = game["walkthrough"]
        take = next(i for i, command in enumerate(steps) if command.startswith("take "))
        steps[take], steps[-1] = steps[-1], steps[take]  # put the apple down before taking it

    [verdict] = check_games(_variant(exported, "heat", tmp_path, swap), show_progress=False).games
    assert verdict.reason == GameCheckReason.INADMISSIBLE and "move apple 1 to countertop 1" in verdict.detail


def test_a_walkthrough_that_stops_short_is_not_won(exported, tmp_path: Path) -> None:
    report = check_games(_variant(exported, "clean", tmp_path, lambda g: g["walkthrough"].pop()), show_progress=False)
    assert [g.reason for g in report.games] == [GameCheckReason.NOT_WON]


def test_a_game_the_loader_skips_is_reported(exported, tmp_path: Path) -> None:
    report = check_games(_variant(exported, "look", tmp_path, lambda g: g.update(solvable=False)),
                         show_progress=False)
    assert report.collected == 0 and [g.reason for g in report.games] == [GameCheckReason.NOT_COLLECTED]


def test_alfworlds_handcoded_expert_plays_the_games(exported, tmp_path: Path) -> None:
    shutil.copytree(_game(exported, "look"), tmp_path / "games" / "look" / "trial")
    [verdict] = check_games(tmp_path / "games", expert=True, show_progress=False).games
    assert verdict.reason == GameCheckReason.OK and verdict.expert_won is True and verdict.expert_steps > 0


def test_the_same_seed_gives_the_same_bytes_whatever_the_hash_seed(exported, tmp_path: Path) -> None:
    run_python("import sys; from alfred_gen.export.alfworld.export import export_games; "
               "from alfred_gen.scenes.library import simulator; "
               "export_games(sys.argv[1], sys.argv[2], simulator=simulator(), show_progress=False)",
               str(exported["src"]), str(tmp_path / "again"), env={"PYTHONHASHSEED": "12345"}, timeout=600)
    first = {p.relative_to(exported["games"]): p.read_bytes() for p in exported["games"].rglob("*") if p.is_file()}
    again = {p.relative_to(tmp_path / "again"): p.read_bytes() for p in (tmp_path / "again").rglob("*") if p.is_file()}
    assert first == again and len(first) == 15


def test_the_commands_print_reasons_and_summaries_with_their_exit_codes(exported, tmp_path: Path) -> None:
    lines: list[str] = []
    code = export_command(str(exported["src"]), str(tmp_path / "games"), simulator=simulator(), echo=lines.append)
    assert code == ExitCode.FAILED  # the unreadable file
    assert sum(": bad_file: " in line for line in lines) == 1 and sum(": sliced: " in line for line in lines) == 1
    assert lines[-1].startswith("5 exported, 2 skipped: movable_receptacle 1, sliced 1; 1 failed: bad_file 1")
    checked: list[str] = []
    assert check_command(str(tmp_path / "games"), echo=checked.append) == ExitCode.OK
    assert checked[-1].startswith("5 games: collected 5, walkthrough won 5")


def test_released_alfred_demos_export_in_imported_rooms(alfred_data: Path, tmp_path: Path, monkeypatch) -> None:
    """The shared ALFRED demos, in rooms imported from the same data: none fails; every game ALFWorld
    can hold is exported; a few of them (the smallest rooms) are played in ALFWorld's engine."""
    from alfred_gen.scenes.alfred import catalogue_store
    from alfred_gen.scenes.alfred.importer import import_alfred

    catalogue = tmp_path / "alfred.json"
    import_alfred(alfred_data, out=catalogue)
    monkeypatch.setenv(catalogue_store.ENV_VAR, str(catalogue))
    results = export_games(alfred_data / "json_2.1.0", tmp_path / "games", simulator=simulator(), show_progress=False)
    reasons = {r.reason for r in results}
    assert reasons <= {ExportReason.OK, ExportReason.MOVABLE_RECEPTACLE, ExportReason.SLICED,
                       ExportReason.LAMP_WITHOUT_RECEPTACLE, ExportReason.LOOSE_OBJECT}
    for result in results:
        task_dir = result.source.parent.parent.name
        assert (result.reason == ExportReason.MOVABLE_RECEPTACLE) == ("movable" in task_dir)
        assert (result.reason == ExportReason.SLICED) == ("Sliced" in task_dir and "movable" not in task_dir)
    made = [r.game_dir for r in results if r.reason == ExportReason.OK]
    assert len(made) > len(results) / 2
    smallest = sorted(made, key=lambda d: (d / "initial_state.pddl").stat().st_size)[:3]
    for game_dir in smallest:
        shutil.copytree(game_dir, tmp_path / "few" / game_dir.parent.name / game_dir.name)
    report = check_games(tmp_path / "few", show_progress=False)
    assert report.collected == 3 and [g.reason for g in report.games] == [GameCheckReason.OK] * 3
