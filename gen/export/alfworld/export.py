"""``alfred-gen export alfworld SRC --out GAMES``: every trajectory under SRC as an ALFWorld game.

For each traj_data.json under SRC (sorted by path): the task is checked against what ALFWorld's
games can hold, the start state is restored in ``lite`` from the file's ``scene`` block (our rooms,
or ALFRED's released demos in rooms imported with ``alfred-gen scenes import-alfred``), and the
game's files (:mod:`.game`) are written to ``GAMES/<task dir>/<trial>/``, ALFRED's layout, which
ALFWorld's loader walks. A game directory is written whole in a hidden temporary directory and
renamed into place, so a killed run leaves no half game (and the stale temporary directories of a
killed run are removed by the next one); an existing game is replaced.

Output: a progress bar (stderr), one line per trajectory skipped or failed, in path order::

    <path>: <reason>: <detail>

then the games made by task type and the summary ``N exported, M skipped: sliced 6, ...; K failed:
... (in 3.2 s)``. Skips (the task does not fit ALFWorld) are not failures; the exit code is FAILED
only if a trajectory could not be read or restored.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.atomic import TEMP_DIR_PREFIX, committing_dir, write_bytes, write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.export.alfworld.game import GAME_FILE, PROBLEM_FILE, build_game, check_task, task_of
from alfred_gen.export.alfworld.outcomes import EXPORT_SKIPS, ExportReason
from alfred_gen.export.alfworld.upstream import AlfworldRules, load_rules
from alfred_gen.export.alfworld.walkthrough import NotExportable
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.progress import progress, shown_path
from alfred_gen.replay.restore import RestoreError, restore_scene
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.sim.lite import LiteController
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory

#: Prefix of the staging directories a game is written in before it is renamed into place (the one
#: scheme of :func:`alfred_gen.atomic.committing_dir`); ``.tmp-alfworld-`` ones of older runs share it.
TEMP_PREFIX = TEMP_DIR_PREFIX
#: Words ALFWorld's loader skips every path containing (its movable-receptacle and slice tasks).
LOADER_SKIPS = ("movable", "Sliced")


@dataclass(frozen=True)
class ExportResult:
    """What became of one trajectory: ``reason`` OK and the game's directory, or why not."""

    source: Path
    reason: ExportReason
    task_type: str
    game_dir: Path | None = None
    detail: str = ""

    @property
    def skipped(self) -> bool:
        return self.reason in EXPORT_SKIPS


def find_trajectories(root: str | Path) -> list[Path]:
    """Every traj_data.json under ``root`` (or ``root`` itself), sorted; UserError(NOT_FOUND) if none."""
    root = Path(root)
    if root.is_file():
        return [root]
    if root.is_dir() and (root / TRAJ_FILE_NAME).is_file():
        return [root / TRAJ_FILE_NAME]
    if not root.is_dir():
        raise UserError(f"{root}: no such file or directory", ExitCode.NOT_FOUND)
    found = sorted(path for path in root.rglob(TRAJ_FILE_NAME) if path.is_file())
    if not found:
        raise UserError(f"{root}: no {TRAJ_FILE_NAME} found under this directory", ExitCode.NOT_FOUND)
    return found


def game_dir_for(source: Path, out_root: Path) -> Path:
    """ALFRED's layout: ``<out>/<task dir>/<trial>`` from the trajectory's two enclosing folders."""
    trial_dir = source.parent
    return out_root / trial_dir.parent.name / trial_dir.name


def _write_game(final_dir: Path, raw_traj: bytes, problem: str, game: str) -> None:
    """The three files committed as one directory (a game exported again replaces the old one)."""
    with committing_dir(final_dir, replace=True) as temp_dir:
        write_bytes(temp_dir / TRAJ_FILE_NAME, raw_traj, durable=False)
        write_text(temp_dir / PROBLEM_FILE, problem, durable=False)
        write_text(temp_dir / GAME_FILE, game, durable=False)


def export_trajectory(source: Path, out_root: Path, controller: Controller, rules: AlfworldRules,
                      seed: int = 0) -> ExportResult:
    """Export one trajectory file; never raises on bad data (the reason says what was wrong)."""
    try:
        raw = source.read_bytes()
        traj = load_trajectory(source)
    except (UserError, OSError) as error:
        return ExportResult(source, ExportReason.BAD_FILE, "", None, _one_line(error, source))
    task_type = str(traj.get("task_type", ""))
    try:
        check_task(task_of(traj), rules)  # before restoring: most skips need no room
        try:
            event = restore_scene(controller, traj["scene"])
        except RestoreError as error:
            return ExportResult(source, ExportReason.RESTORE_FAILED, task_type, None, _one_line(error, source))
        except UserError as error:
            reason = ExportReason.UNKNOWN_SCENE if error.code == ExitCode.NOT_FOUND else ExportReason.RESTORE_FAILED
            return ExportResult(source, reason, task_type, None, _one_line(error, source))
        metadata = event.metadata
        scene = controller.scene if isinstance(controller, LiteController) else None
        poses = {oid: pose.to_list() for oid, pose in (scene.interaction_poses if scene else {}).items()}
        boxes = {obj.object_id: (obj.box.lo, obj.box.hi) for obj in (scene.objects if scene else ())}
        game = build_game(traj, metadata, poses, agent_pose_of(metadata), rules, seed, boxes)
    except NotExportable as skip:
        return ExportResult(source, skip.reason, task_type, None, skip.detail)
    final_dir = game_dir_for(source, out_root)
    _write_game(final_dir, raw, game.problem, game.game)
    return ExportResult(source, ExportReason.OK, task_type, final_dir)


def _one_line(error: BaseException, source: Path) -> str:
    message = " ".join(str(error).split())
    prefix = f"{source}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def remove_stale_temporaries(out_root: Path) -> None:
    """Temporary game directories a killed run left behind (ALFWorld's loader would walk them)."""
    if out_root.is_dir():
        for entry in out_root.iterdir():
            if entry.name.startswith(TEMP_PREFIX) and entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)


def export_games(
    src: str | Path,
    out: str | Path,
    *,
    simulator: Simulator,
    seed: int = 0,
    show_progress: bool = True,
) -> list[ExportResult]:
    """Export every trajectory under ``src`` into ``out``; one result per trajectory, in path order.

    UserError NOT_FOUND if ``src`` holds no trajectory, USAGE for an ``out`` whose path ALFWorld's
    loader would skip, MISSING_DEPENDENCY without ``alfworld``."""
    sources = find_trajectories(src)
    out_root = Path(out)
    if out_root.exists() and not out_root.is_dir():
        raise UserError(f"{out_root}: not a directory", ExitCode.BAD_INPUT)
    for word in LOADER_SKIPS:
        if word in str(out_root.resolve()):
            raise UserError(f"{out_root}: ALFWorld's loader skips every path containing {word!r}; "
                            "choose another output directory", ExitCode.USAGE)
    rules = load_rules()
    remove_stale_temporaries(out_root)
    controller = simulator.open()
    results = []
    try:
        with progress("exporting", len(sources), show=show_progress) as bar:
            for source in sources:
                results.append(export_trajectory(source, out_root, controller, rules, seed))
                bar.update(1)
    finally:
        controller.stop()
    return results


def summary_lines(results: Iterable[ExportResult], seconds: float | None = None) -> list[str]:
    """The games made by task type, and ``N exported, M skipped: ...; K failed: ... (in S s)``."""
    results = list(results)
    order = {reason: i for i, reason in enumerate(ExportReason)}

    def counted(reasons: Counter[ExportReason]) -> str:
        return ", ".join(f"{reason} {reasons[reason]}" for reason in sorted(reasons, key=order.__getitem__))

    made = Counter(r.task_type for r in results if r.reason == ExportReason.OK)
    skipped = Counter(r.reason for r in results if r.skipped)
    failed: Counter[ExportReason] = Counter(r.reason for r in results if r.reason != ExportReason.OK and not r.skipped)
    lines = []
    if made:
        lines.append("games by task type: " + ", ".join(f"{t} {made[t]}" for t in sorted(made)))
    text = f"{sum(made.values())} exported, {sum(skipped.values())} skipped"
    if skipped:
        text += ": " + counted(skipped)
    text += f"; {sum(failed.values())} failed"
    if failed:
        text += ": " + counted(failed)
    if seconds is not None:
        text += f" (in {seconds:.1f} s)"
    lines.append(text)
    return lines


def export_command(src: str, out: str, *, simulator: Simulator, seed: int = 0,
                   echo: Callable[[str], Any] = print) -> ExitCode:
    """``alfred-gen export alfworld``: export, print skips and failures, then the summary."""
    began = time.monotonic()
    results = export_games(src, out, simulator=simulator, seed=seed)
    seconds = time.monotonic() - began
    for result in results:
        if result.reason != ExportReason.OK:
            echo(f"{shown_path(result.source)}: {result.reason}: {result.detail}")
    for line in summary_lines(results, seconds):
        echo(line)
    failed = any(r.reason != ExportReason.OK and not r.skipped for r in results)
    return ExitCode.FAILED if failed else ExitCode.OK
