"""``alfred-gen replay``: re-execute one trajectory and write its frames (RGB, and depth / masks).

Which frames: those the trajectory's ``images`` list names plus the unlisted frame after the last
action, under ALFRED's convention (:mod:`alfred_gen.traj.frames`): the *first* entry with
``low_idx`` i is the frame in which low action i was chosen, i.e. the state before it (for i = 0,
the start state); any *further* entry with the same ``low_idx`` shows the state after action i
(ALFRED's smooth navigation stored several, and lite, which moves in whole steps, gives them all
the after-frame), and so does the next number after the last entry (E.T.'s final frame). File names are the entries'
``image_name`` stems with each folder's extension (see :mod:`alfred_gen.replay.images`).

Nothing already on disk is touched unless the replay succeeds: frames are written into a staging
folder beside the output, and only after every action succeeded and the goal holds is each file
moved into place with an atomic rename. A failed replay prints why and leaves the old frames as
they were.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.progress import progress
from alfred_gen.replay import images
from alfred_gen.replay.execute import StepFailure, execute_low_actions
from alfred_gen.replay.goals import (
    GoalStatus,
    has_goal_check,
    needs_task_check,
    task_from_trajectory,
    trajectory_goal,
    trajectory_goal_status,
)
from alfred_gen.replay.restore import file_evidence, restore_trajectory
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.format import (
    DEPTH_IMAGES_DIR,
    INSTANCE_MASKS_DIR,
    RAW_IMAGES_DIR,
    TRAJ_FILE_NAME,
    load_trajectory,
)
from alfred_gen.traj.frames import frame_entries

#: Most per-step failures printed by the command before "... and N more".
MAX_FAILURE_LINES = 20


@dataclass
class ReplayOutcome:
    """What re-executing a trajectory gave."""

    failures: list[StepFailure]
    goal: GoalStatus
    frames: int = 0  # files written per folder
    written: list[str] = field(default_factory=list)  # folders written (raw_images, ...)

    @property
    def ok(self) -> bool:
        return not self.failures and self.goal.done


def frames_by_low_idx(traj: Mapping[str, Any]) -> dict[int, list[str]]:
    """low_idx -> the image stems of its frames, in order (the unlisted final frame included)."""
    groups: dict[int, list[str]] = {}
    for entry in frame_entries(traj):
        groups.setdefault(entry.low_idx, []).append(entry.stem)
    return groups


def frame_schedule(traj: Mapping[str, Any]) -> tuple[list[str], dict[int, list[str]]]:
    """Which stems to write when: (at the start, {low_idx i: after action i}).

    The first stem of low action i shows the state before it, which is the state after action
    i - 1 (or the start state for i = 0); the other stems of low action i, and the unlisted frame
    after the last action, show the state after it.
    """
    at_start: list[str] = []
    after: dict[int, list[str]] = {}
    for entry in frame_entries(traj):
        if entry.before_action and entry.low_idx == 0:
            at_start.append(entry.stem)
        else:
            after.setdefault(entry.low_idx - (1 if entry.before_action else 0), []).append(entry.stem)
    return at_start[:1], {i: sorted(stems) for i, stems in after.items() if stems}


class _FrameSink:
    """Encodes an event's frames once and writes them under every name its low action has."""

    def __init__(self, staging: Path, depth: bool, seg: bool) -> None:
        self.folders = {"rgb": staging / RAW_IMAGES_DIR}
        if depth:
            self.folders["depth"] = staging / DEPTH_IMAGES_DIR
        if seg:
            self.folders["seg"] = staging / INSTANCE_MASKS_DIR
        for folder in self.folders.values():
            folder.mkdir(parents=True, exist_ok=True)
        self.colors: dict[str, str] = {}
        self.count = 0

    def write(self, event: Any, stems: list[str]) -> None:
        payloads = {"rgb": (images.encode_rgb(_need(event, "frame")), images.RGB_SUFFIX)}
        if "depth" in self.folders:
            payloads["depth"] = (images.encode_depth(_need(event, "depth_frame")), images.DEPTH_SUFFIX)
        if "seg" in self.folders:
            payloads["seg"] = (images.encode_segmentation(_need(event, "instance_segmentation_frame")),
                               images.MASK_SUFFIX)
            for color, object_id in sorted((event.color_to_object_id or {}).items(), key=lambda kv: str(kv[0])):
                key = color if isinstance(color, str) else images.color_key(color)
                self.colors.setdefault(key, str(object_id))  # first seen wins: colours are stable ids
        for stem in stems:
            for kind, (payload, suffix) in payloads.items():
                images.write_file(self.folders[kind] / f"{stem}{suffix}", payload)
            self.count += 1

    def finish(self) -> None:
        if "seg" in self.folders:
            images.write_file(self.folders["seg"] / images.COLOR_MAP_FILE, images.color_map_json(self.colors))


def _need(event: Any, name: str) -> Any:
    value = getattr(event, name, None)
    if value is None:
        raise UserError(f"this simulator gives no {name} (no renderer attached)", ExitCode.BACKEND_UNAVAILABLE)
    return value


def _move_into_place(staging: Path, out_dir: Path) -> list[str]:
    """Move every staged file to the same place under ``out_dir`` (atomic rename per file)."""
    written = []
    for folder in sorted(p for p in staging.iterdir() if p.is_dir()):
        target = out_dir / folder.name
        target.mkdir(parents=True, exist_ok=True)
        for file in sorted(folder.iterdir()):
            file.replace(target / file.name)
        written.append(folder.name)
    return written


def replay_to_directory(
    traj: Mapping[str, Any],
    out_dir: str | Path,
    controller: Controller,
    *,
    depth: bool = False,
    seg: bool = False,
    on_step: Callable[[int], None] | None = None,
) -> ReplayOutcome:
    """Replay a loaded trajectory on ``controller`` and, if it succeeds, write its frames under
    ``out_dir``. The controller must render RGB, and depth and segmentation when asked for
    (``simulator.open(render=True, depth=depth, segmentation=seg)``).

    Runs every low action even after a failure (a failed action changes nothing) so that every
    failing step is reported. Raises UserError for a task type without a goal check (NOT_FOUND),
    a scene that cannot be restored, or a simulator that gives no frames (BACKEND_UNAVAILABLE).
    ``on_step(low_idx)`` is called after each low action (progress).
    """
    task = task_from_trajectory(traj)
    goal_spec = trajectory_goal(traj)
    if needs_task_check(goal_spec) and not has_goal_check(task.task_type):
        raise UserError(f"no goal check for task type {task.task_type!r}", ExitCode.NOT_FOUND)
    out_dir = Path(out_dir)
    at_start, after = frame_schedule(traj)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".replay-", dir=out_dir))
    except OSError as error:  # a file in the way, a read-only directory
        reason = error.strerror or type(error).__name__
        raise UserError(f"cannot write frames into {out_dir}: {reason}", ExitCode.BAD_INPUT) from None
    try:
        start = restore_trajectory(controller, traj)
        for name, wanted in (("frame", True), ("depth_frame", depth), ("instance_segmentation_frame", seg)):
            if wanted:
                _need(start, name)  # fail before replaying, not at the first frame
        sink = _FrameSink(staging, depth, seg)
        if at_start:
            sink.write(start, at_start)

        def step_done(low_idx: int, api_action: Mapping[str, Any], event: Any) -> None:
            if low_idx in after:
                sink.write(event, after[low_idx])
            if on_step is not None:
                on_step(low_idx)

        run = execute_low_actions(controller, traj["plan"]["low_actions"], start, on_step=step_done,
                                  stop_on_failure=False)
        goal = trajectory_goal_status(goal_spec, task, run.last_event.metadata, start_metadata=start.metadata,
                                      effects=run.tracker.effects())
        outcome = ReplayOutcome(run.failures, goal, sink.count)
        if outcome.ok:
            sink.finish()
            outcome.written = _move_into_place(staging, out_dir)
        return outcome
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _trajectory_path(given: str | Path) -> Path:
    path = Path(given)
    if path.is_dir():
        path = path / TRAJ_FILE_NAME
    if not path.is_file():
        raise UserError(f"{given}: no such trajectory file", ExitCode.NOT_FOUND)
    return path


def replay_command(
    traj_path: str | Path,
    out: str | Path | None = None,
    *,
    simulator: Simulator,
    depth: bool = False,
    seg: bool = False,
    echo: Callable[[str], None] = print,
) -> ExitCode:
    """``alfred-gen replay``: replay one file on a controller ``simulator`` makes, print failures
    and goal conditions, return the code. Frames go to ``out`` (default: the trajectory's own
    directory).
    """
    path = _trajectory_path(traj_path)
    traj = load_trajectory(path)
    out_dir = Path(out) if out is not None else path.parent
    total = len(traj["plan"]["low_actions"])
    began = time.monotonic()
    with progress("replaying", total) as bar:
        controller = simulator.open(render=True, depth=depth, segmentation=seg)
        outcome = replay_to_directory(traj, out_dir, controller, depth=depth, seg=seg,
                                      on_step=lambda _idx: bar.update(1))
    for failure in outcome.failures[:MAX_FAILURE_LINES]:
        echo(failure.describe())
    if len(outcome.failures) > MAX_FAILURE_LINES:
        echo(f"... and {len(outcome.failures) - MAX_FAILURE_LINES} more failed steps")
    echo(f"goal: {outcome.goal.describe()}")
    evidence = file_evidence(controller, traj)
    if evidence.completed:
        echo(f"completed from the file (the room lacked them; --no-complete to replay without): "
             f"{', '.join(evidence.completed)}")
    if evidence.uses():
        echo(f"placed from the file's own masks (--no-complete for the room alone): {', '.join(evidence.uses())}")
    seconds = time.monotonic() - began
    if outcome.ok:
        echo(f"replay ok: {total} actions, {outcome.frames} frames written to "
             f"{', '.join(str(out_dir / name) for name in outcome.written)} in {seconds:.1f} s")
        return ExitCode.OK
    steps = f"{len(outcome.failures)} failed step{'s' if len(outcome.failures) != 1 else ''}"
    echo(f"replay FAILED: {steps}, {outcome.goal.satisfied}/{outcome.goal.total} goal conditions; "
         f"nothing written")
    return ExitCode.FAILED
