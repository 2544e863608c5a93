"""``alfred-gen export alfworld-check GAMES``: ALFWorld's own code judges the exported games.

Three checks, all with ALFWorld's code and none of ours (no text-game engine or player lives here):

1. **Loader**: ALFWorld's training loader (``AlfredTWEnv.collect_game_files``, all six task types)
   walks GAMES; every game directory (one holding ``game.tw-pddl``) must be collected.
2. **Walkthrough**: each game is loaded in ALFWorld's engine as its training loop loads it
   (textworld's environment for ``.tw-pddl`` files, i.e. ``PddlEnv``, wrapped in ``AlfredDemangler``
   and ``AlfredInfos``); every walkthrough command must be among the admissible commands when it is
   issued, and the game must be won after the last one.
3. **Expert** (``--expert``, for information): ALFWorld's scripted ``handcoded`` expert plays each
   game through ALFWorld's ``AlfredExpert`` wrapper, with Python's ``random`` seeded per game, up
   to its own 200-step limit; the games it wins are counted (also those won within 50 steps).

Output: one line per game that fails a check, with ``--expert`` one line per game the expert did
not win and its wins by task type, then
``N games: collected N, walkthrough won N; handcoded expert won K of N (J within 50 steps)``.
Exit code FAILED if any game is not collected or its walkthrough does not win.
"""

from __future__ import annotations

import contextlib
import io
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.export.alfworld.game import GAME_FILE
from alfred_gen.export.alfworld.outcomes import GameCheckReason
from alfred_gen.export.alfworld.upstream import INSTALL_HINT
from alfred_gen.parallel import run_unordered
from alfred_gen.progress import progress, shown_path
from alfred_gen.sim.scene import hash_str

#: The handcoded expert's own step limit in ALFWorld (AlfredExpert makes it with max_steps=200).
EXPERT_STEP_LIMIT = 200
#: ALFWorld's episode limit in its configs (base_config.yaml, max_nb_steps_per_episode), reported beside it.
SHORT_EPISODE = 50


@dataclass
class GameCheck:
    """One game's verdict: ``reason`` (``ok`` or what failed), ``detail``, and the expert's play."""

    game: Path
    reason: GameCheckReason = GameCheckReason.OK
    detail: str = ""
    expert_won: bool | None = None
    expert_steps: int = 0
    walkthrough_steps: int = 0


@dataclass
class CheckReport:
    """All games under a directory: their checks and how many ALFWorld's loader collected."""

    games: list[GameCheck] = field(default_factory=list)
    collected: int = 0


def _alfworld() -> Any:
    try:
        import textworld
        from alfworld.agents.environment import alfred_tw_env
        from textworld.envs.wrappers import GenericEnvironment
    except ImportError as error:
        raise UserError(f"checking ALFWorld games needs the alfworld package ({error.name or error}): "
                        f"{INSTALL_HINT}", ExitCode.MISSING_DEPENDENCY) from None
    return textworld, alfred_tw_env, GenericEnvironment


def find_games(root: str | Path) -> list[Path]:
    """Every ``game.tw-pddl`` under ``root``, sorted; UserError(NOT_FOUND) if there is none."""
    root = Path(root)
    if not root.is_dir():
        raise UserError(f"{root}: no such directory", ExitCode.NOT_FOUND)
    found = sorted(path for path in root.rglob(GAME_FILE) if path.is_file())
    if not found:
        raise UserError(f"{root}: no {GAME_FILE} found under this directory", ExitCode.NOT_FOUND)
    return found


def collected_by_loader(root: str | Path) -> set[Path]:
    """The game files ALFWorld's training loader collects under ``root`` (all six task types)."""
    _, alfred_tw_env, _ = _alfworld()
    config = {
        "dataset": {"data_path": str(root), "num_train_games": -1},
        "env": {"task_types": sorted(alfred_tw_env.TASK_TYPES), "goal_desc_human_anns_prob": 0.0},
    }
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        env = alfred_tw_env.AlfredTWEnv(config, train_eval="train")
    return {Path(path).resolve() for path in env.game_files}


def make_env(expert: bool = False) -> Any:
    """ALFWorld's engine as its training loop builds it (without the gym batching): textworld's
    environment for the game file, ``AlfredDemangler`` (unshuffled), ``AlfredInfos``, and with
    ``expert`` the ``AlfredExpert`` wrapper running the handcoded expert."""
    textworld, alfred_tw_env, generic = _alfworld()
    infos = textworld.EnvInfos(won=True, admissible_commands=True, extras=["gamefile"])
    env = generic(infos)
    wrappers = [alfred_tw_env.AlfredDemangler(shuffle=False), alfred_tw_env.AlfredInfos]
    if expert:
        wrappers.append(alfred_tw_env.AlfredExpert(alfred_tw_env.AlfredExpertType.HANDCODED))
    for wrapper in wrappers:
        env = wrapper(env)
    return env


def play_walkthrough(env: Any, game_file: Path, commands: list[str]) -> tuple[GameCheckReason, str]:
    """Play ``commands`` in ``env``: each must be admissible when issued; the game must be won."""
    env.load(str(game_file))
    state = env.reset()
    for index, command in enumerate(commands):
        if command not in state["admissible_commands"]:
            return GameCheckReason.INADMISSIBLE, f"step {index}: {command!r} is not admissible"
        state, _, _ = env.step(command)
    if not state["won"]:
        return GameCheckReason.NOT_WON, f"not won after the {len(commands)} walkthrough commands"
    return GameCheckReason.OK, ""


def play_expert(env: Any, game_file: Path, seed: int) -> tuple[bool, int]:
    """(won, steps) of ALFWorld's handcoded expert on the game, ``random`` seeded for the game."""
    random.seed(hash_str(f"alfred-gen alfworld expert {seed} {game_file.parent.parent.name}/{game_file.parent.name}"))
    env.load(str(game_file))
    steps = 0
    try:
        state = env.reset()
        while steps < EXPERT_STEP_LIMIT:
            state, _, done = env.step(state["extra.expert_plan"][0])
            steps += 1
            if done:
                return bool(state["won"]), steps
    except Exception:  # the expert gives up by raising (HandCodedAgentTimeout, HandCodedAgentFailed)
        return False, steps
    return False, steps


#: This process's engines (walkthrough player, expert player), made on first use.
_engines: dict[bool, Any] = {}


def _engine(expert: bool) -> Any:
    if expert not in _engines:
        _engines[expert] = make_env(expert=expert)
    return _engines[expert]


def check_game(game_file: Path, collected: bool, expert: bool = False, seed: int = 0) -> GameCheck:
    """The walkthrough check (and with ``expert`` the expert's play) of one game; never raises on a
    game ALFWorld's engine refuses (that is the verdict ``load_failed``)."""
    import json

    check = GameCheck(game_file)
    try:
        commands = list(json.loads(game_file.read_text(encoding="utf-8")).get("walkthrough") or [])
        check.walkthrough_steps = len(commands)
        check.reason, check.detail = play_walkthrough(_engine(False), game_file, commands)
    except UserError:
        raise
    except Exception as error:  # ALFWorld's engine refused the game: report it, go on
        check.reason, check.detail = GameCheckReason.LOAD_FAILED, " ".join(f"{type(error).__name__}: {error}".split())
    if check.reason == GameCheckReason.OK and not collected:
        check.reason, check.detail = GameCheckReason.NOT_COLLECTED, "ALFWorld's loader did not collect it"
    if expert and check.reason != GameCheckReason.LOAD_FAILED:
        check.expert_won, check.expert_steps = play_expert(_engine(True), game_file, seed)
    return check


def _check_indexed(job: tuple[int, str, bool, bool, int]) -> tuple[int, GameCheck | tuple[str, int]]:
    """(index, verdict) for a worker; a UserError comes back as (message, code)."""
    index, path, collected, expert, seed = job
    try:
        return index, check_game(Path(path), collected, expert, seed)
    except UserError as error:
        return index, (str(error), int(error.code))


def _verdicts(jobs: list[tuple[int, str, bool, bool, int]], workers: int) -> Iterator[tuple[int, Any]]:
    return run_unordered(_check_indexed, jobs, workers)


def check_games(root: str | Path, *, expert: bool = False, seed: int = 0, jobs: int = 1,
                show_progress: bool = True) -> CheckReport:
    """Run the checks of the module docstring on every game under ``root``, in ``jobs`` processes."""
    games = find_games(root)
    collected = collected_by_loader(root)
    report = CheckReport(collected=sum(1 for g in games if g.resolve() in collected))
    work = [(i, str(g), g.resolve() in collected, expert, seed) for i, g in enumerate(games)]
    verdicts: list[GameCheck | None] = [None] * len(games)
    with progress("checking", len(games), show=show_progress) as bar:
        for index, verdict in _verdicts(work, jobs):
            if isinstance(verdict, tuple):
                message, code = verdict
                raise UserError(message, ExitCode(code))
            verdicts[index] = verdict
            bar.update(1)
    report.games = [v for v in verdicts if v is not None]
    return report


def summary_line(report: CheckReport, seconds: float | None = None) -> str:
    """``N games: collected N, walkthrough won N[; handcoded expert won K (J within 50 steps)]``."""
    won = sum(1 for g in report.games if g.reason == GameCheckReason.OK)
    text = f"{len(report.games)} games: collected {report.collected}, walkthrough won {won}"
    played = [g for g in report.games if g.expert_won is not None]
    if played:
        expert_won = [g for g in played if g.expert_won]
        short = sum(1 for g in expert_won if g.expert_steps <= SHORT_EPISODE)
        text += f"; handcoded expert won {len(expert_won)} of {len(played)} ({short} within {SHORT_EPISODE} steps)"
    if seconds is not None:
        text += f" (in {seconds:.1f} s)"
    return text


def check_command(games: str, *, expert: bool = False, jobs: int = 1, seed: int = 0,
                  echo: Callable[[str], Any] = print) -> ExitCode:
    """``alfred-gen export alfworld-check``: print failing games, the expert's results by task type
    (with ``expert``), and the summary; FAILED if any game fails."""
    began = time.monotonic()
    report = check_games(games, expert=expert, seed=seed, jobs=jobs)
    seconds = time.monotonic() - began
    for check in report.games:
        if check.reason != GameCheckReason.OK:
            echo(f"{shown_path(check.game.parent)}: {check.reason}: {check.detail}")
    for check in report.games:
        if check.expert_won is False:
            echo(f"{shown_path(check.game.parent)}: the handcoded expert did not win ({check.expert_steps} steps)")
    if expert:
        by_type: dict[str, list[int]] = {}
        for check in report.games:
            if check.expert_won is not None:
                counts = by_type.setdefault(check.game.parent.parent.name.split("-")[0], [0, 0])
                counts[0] += int(bool(check.expert_won))
                counts[1] += 1
        echo("handcoded expert by task type: " + ", ".join(
            f"{task} {won}/{played}" for task, (won, played) in sorted(by_type.items())))
    echo(summary_line(report, seconds))
    return ExitCode.OK if all(g.reason == GameCheckReason.OK for g in report.games) else ExitCode.FAILED
