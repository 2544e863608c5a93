"""``alfred-gen video TRAJ...``: an annotated H.264 MP4 per demonstration, as ALFRED ships ``video.mp4``.

One video frame per entry of the trajectory's ``images`` (so the video has as many frames as the
trajectory has images, and lasts frames / fps seconds), drawn by :mod:`alfred_gen.export.annotate`:
the RGB frame (with ``--depth`` and ``--seg`` the depth and segmentation panels beside it), the
running subgoal's instruction, the low action, and the subgoal timeline; with ``--masks`` the
interaction mask outlined where it is used. Frames come from the trajectory's folders, or from a
re-render when they are missing (:mod:`alfred_gen.export.frame_source`), so released ALFRED demos
work too once their rooms are imported.

Where videos go: ``--out FILE.mp4`` for a single trajectory; ``--out DIR`` puts each video at
``DIR/<task dir>/<trial>.mp4``; without ``--out`` each goes beside its file as ``video.mp4``.
``--jobs N`` shares the trajectories among N processes. Output: a progress bar, one line per
failure, then ``N made, M failed: rerender_failed 1 (in 3.2 s)``; exit FAILED if any failed. A
damaged trajectory or frame fails that trajectory only (its line names the file); the batch goes on.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.errors import CodedOutcome, ExitCode, UserError
from alfred_gen.export import annotate, storyboard
from alfred_gen.export.frame_source import FrameFiles, RerenderFailed, frame_files
from alfred_gen.parallel import run_unordered
from alfred_gen.progress import progress
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.format import TRAJ_FILE_NAME

#: Name of a video written beside its trajectory (ALFRED's name).
VIDEO_FILE_NAME = "video.mp4"


class VideoReason(CodedOutcome):
    """Why ``alfred-gen video`` made or did not make one trajectory's video (exit code 1 unless ok)."""

    OK = "ok", ExitCode.OK
    BAD_FILE = "bad_file"  #: unreadable, truncated, not JSON or fails the schema
    RERENDER_FAILED = "rerender_failed"  #: frames are missing and the replay that would render them failed
    BAD_FRAME = "bad_frame"  #: a frame on disk does not decode (cut short, not an image) or has another size


@dataclass(frozen=True)
class VideoOptions:
    """What goes into a video: frames per second, mask outlines, depth and segmentation panels."""

    fps: int = 5
    masks: bool = False
    depth: bool = False
    seg: bool = False

    @property
    def kinds(self) -> set[str]:
        return {"rgb"} | ({"depth"} if self.depth else set()) | ({"seg"} if self.seg else set())


@dataclass(frozen=True)
class VideoResult:
    """One trajectory's video: where it went, how it ended, how many frames, and whether the frames
    had to be re-rendered."""

    source: Path
    out: Path
    reason: VideoReason
    message: str = ""
    frames: int = 0
    rerendered: bool = False

    @property
    def ok(self) -> bool:
        return self.reason is VideoReason.OK


class BadFrame(Exception):
    """A frame file that does not decode; the message names it."""


def _panel(files: FrameFiles, kind: str, stem: str) -> np.ndarray:
    from PIL import Image

    from alfred_gen.replay.images import decode_depth

    path = files.path(kind, stem)
    try:
        if kind == "depth":
            return annotate.depth_to_rgb(decode_depth(path.read_bytes()))
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"))
    except (OSError, ValueError, SyntaxError) as error:  # PIL: UnidentifiedImageError, "truncated", ...
        why = " ".join(str(getattr(error, "strerror", None) or error or type(error).__name__).split())
        raise BadFrame(f"{path}: does not decode ({why})") from None


def annotated_frames(traj: Mapping[str, Any], files: FrameFiles, options: VideoOptions) -> Iterator[np.ndarray]:
    """The composed frames of a trajectory, one per ``images`` entry, in order."""
    steps = storyboard.frame_steps(traj)
    words = storyboard.language(traj)
    lows = traj["plan"]["low_actions"]
    labels = [storyboard.low_action_label(low) for low in lows]
    spans = storyboard.subgoal_spans(steps, len(words.subgoals))
    for step in steps:
        rgb = _panel(files, "rgb", step.stem)
        if options.masks and step.before_action and step.low_idx < len(lows):
            mask = storyboard.interaction_mask(lows[step.low_idx])
            if mask is not None and mask.shape == rgb.shape[:2]:
                rgb = annotate.outline_mask(rgb, mask)
        panels = [rgb] + [_panel(files, kind, step.stem) for kind in ("depth", "seg") if kind in options.kinds]
        high = min(max(step.high_idx, 0), len(words.subgoals) - 1)
        label = labels[step.low_idx] if step.low_idx < len(labels) else ""
        caption = annotate.Caption(
            task_desc=words.task_desc,
            subgoal=high,
            subgoal_count=len(words.subgoals),
            instruction=words.subgoals[high],
            action=f"action {step.low_idx + 1}/{len(lows)}  {label}",
            spans=spans,
            frame=step.position,
            frames=len(steps),
        )
        yield annotate.compose(panels, caption)


def make_video(
    traj_path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    options: VideoOptions,
    controller_factory: Callable[..., Controller],
) -> VideoResult:
    """Write the video of one trajectory file to ``out``; never raises on bad data (the result says
    why). ``controller_factory(depth=, segmentation=)`` is only called when frames must be re-rendered."""
    from alfred_gen.export.mp4 import write_mp4
    from alfred_gen.traj.format import load_trajectory

    source, target = Path(traj_path), Path(out)
    try:
        traj = load_trajectory(source)
    except UserError as error:
        return VideoResult(source, target, VideoReason.BAD_FILE, _one_line(error))
    except OSError as error:
        return VideoResult(source, target, VideoReason.BAD_FILE, f"cannot read ({error.strerror or error})")
    stems = [step.stem for step in storyboard.frame_steps(traj)]
    try:
        with frame_files(source.parent, traj, stems, options.kinds, controller_factory) as files:
            count = write_mp4(annotated_frames(traj, files, options), target, options.fps)
            return VideoResult(source, target, VideoReason.OK, "", count, files.rerendered)
    except RerenderFailed as error:
        return VideoResult(source, target, VideoReason.RERENDER_FAILED, _one_line(error))
    except BadFrame as error:
        return VideoResult(source, target, VideoReason.BAD_FRAME, _one_line(error))
    except ValueError as error:  # write_mp4: frames of different sizes
        return VideoResult(source, target, VideoReason.BAD_FRAME, _one_line(error))


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def output_paths(trajectories: Sequence[Path], out: str | os.PathLike[str] | None) -> list[Path]:
    """Where each trajectory's video goes (see the module doc); UserError USAGE for ``--out X.mp4``
    with several trajectories."""
    if out is None:
        return [path.parent / VIDEO_FILE_NAME for path in trajectories]
    target = Path(out)
    if target.suffix.lower() == ".mp4":
        if len(trajectories) != 1:
            raise UserError(f"--out {out}: a single .mp4 file, but {len(trajectories)} trajectories were found; "
                            "give a directory instead", ExitCode.USAGE)
        return [target]
    return [target / path.parent.parent.name / f"{path.parent.name}.mp4" for path in trajectories]


def find_trajectory_files(paths: Sequence[str | os.PathLike[str]]) -> list[Path]:
    """Every traj_data.json named by ``paths`` (files, trajectory directories or trees), in order,
    without repeats. UserError NOT_FOUND for a path that holds none."""
    from alfred_gen.replay.verify import find_trajectories

    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir() and (path / TRAJ_FILE_NAME).is_file():
            candidates = [path / TRAJ_FILE_NAME]
        else:
            candidates = find_trajectories(path)
        found.extend(candidate for candidate in candidates if candidate not in found)
    return found


# --- the command: one controller per worker process, made when a re-render first needs it -----------
_simulator = Simulator()
_controllers: dict[tuple[bool, bool], Controller] = {}


def _worker_controller(depth: bool = False, segmentation: bool = False) -> Controller:
    key = (depth, segmentation)
    if key not in _controllers:
        _controllers[key] = _simulator.open(render=True, depth=depth, segmentation=segmentation)
    return _controllers[key]


def _init_worker(simulator: Simulator) -> None:
    global _simulator
    _simulator = simulator
    _controllers.clear()


def _video_job(job: tuple[int, str, str, VideoOptions]) -> tuple[int, VideoResult | tuple[str, int]]:
    """(index, result); a UserError from the environment (no codec) comes back as (message, code)."""
    index, source, out, options = job
    try:
        return index, make_video(source, out, options, _worker_controller)
    except UserError as error:
        return index, (str(error), int(error.code))


def _results(work: list[tuple[int, str, str, VideoOptions]], jobs: int,
             simulator: Simulator) -> Iterator[tuple[int, Any]]:
    return run_unordered(_video_job, work, jobs, _init_worker, (simulator,))


def summary_line(results: Sequence[VideoResult], seconds: float | None = None) -> str:
    """``N made, M failed: rerender_failed 1 (in 3.2 s)``; reasons in VideoReason's order."""
    counts = Counter(result.reason for result in results)
    made = counts.pop(VideoReason.OK, 0)
    text = f"{made} made, {sum(counts.values())} failed"
    if counts:
        text += ": " + ", ".join(f"{reason} {counts[reason]}" for reason in VideoReason if reason in counts)
    rerendered = sum(1 for result in results if result.ok and result.rerendered)
    if rerendered:
        text += f"; {rerendered} re-rendered"
    if seconds is not None:
        text += f" (in {seconds:.1f} s)"
    return text


def video_command(
    paths: Sequence[str | os.PathLike[str]],
    out: str | os.PathLike[str] | None,
    options: VideoOptions,
    *,
    simulator: Simulator,
    jobs: int = 1,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen video``: a video per trajectory found under ``paths``; failures, then a summary."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    if options.fps < 1:
        raise UserError(f"--fps must be at least 1, got {options.fps}", ExitCode.USAGE)
    from alfred_gen.export.mp4 import require_av

    require_av()  # a missing PyAV is one line before any work, whatever the trajectories hold
    sources = find_trajectory_files(paths)
    targets = output_paths(sources, out)
    work = [(i, str(source), str(target), options) for i, (source, target) in enumerate(zip(sources, targets))]
    results: list[VideoResult | None] = [None] * len(work)
    began = time.monotonic()
    with progress("videos", len(work), show=show_progress) as bar:
        for index, result in _results(work, jobs, simulator):
            if isinstance(result, tuple):  # the environment cannot make videos (no PyAV): one line, stop
                message, code = result
                raise UserError(message, ExitCode(code))
            results[index] = result
            bar.update(1)
    done = [result for result in results if result is not None]
    for result in done:
        if not result.ok:
            echo(f"{_shown(result.source)}: {result.reason}: {result.message}")
    if len(done) == 1 and done[0].ok:
        echo(f"wrote {_shown(done[0].out)} ({done[0].frames} frames at {options.fps} fps)")
    echo(summary_line(done, time.monotonic() - began))
    return ExitCode.OK if all(result.ok for result in done) else ExitCode.FAILED


def _shown(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
