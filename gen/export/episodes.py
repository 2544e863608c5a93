"""What the training-library exports (LeRobot, Hugging Face) read from one trajectory, and the
cache that makes them resume.

Both exports turn a trajectory into the same things: its steps
(:func:`alfred_gen.traj.steps.trajectory_steps`: one frame, action and mask per low action, then a
stop step), its annotations (one exported episode each, as ALFRED's ``repeat_idx``), the metadata
a user filters on (task type, scene, pddl params, trial), and the frame files. Frames come from
the trajectory's own folders, or from a re-render when they are missing
(:mod:`alfred_gen.export.frame_source`), so released ALFRED demos export too.

Why a cache: each trajectory's expensive part (decoding JPEGs, encoding video, re-rendering) is
done once into ``OUT/.alfred-gen-cache/<key>/``, written whole and renamed into place; the key is
a hash of the trajectory's bytes and the options, so a killed export run again redoes only what
was not finished, and a changed trajectory is redone. The final files are assembled from the cache
in source order, which keeps the output's bytes the same however often the run was interrupted.

A trajectory that cannot be expressed is skipped with a reason (:data:`SKIP_REASONS`).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory
from alfred_gen.traj.steps import Annotation, Step, on_disk, trajectory_annotations, trajectory_steps

#: The hidden folder under an export's output that holds the per-trajectory cache.
CACHE_DIR = ".alfred-gen-cache"

#: Why a trajectory is not exported (each is reported on one line with its detail).
SKIP_REASONS = {
    "bad_file": "unreadable, truncated, not JSON, or fails the schema",
    "no_language": "no annotation and no template: no goal text for the episode",
    "no_steps": "the low actions do not line up with the images list",
    "rerender_failed": "frames are missing and the replay that would render them failed",
}


class Skip(Exception):
    """A trajectory that cannot be exported: ``reason`` (a key of SKIP_REASONS) and a detail."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = " ".join(detail.split())


@dataclass(frozen=True)
class Source:
    """One trajectory file, where it came from (``relative`` to the export's SRC), its contents."""

    path: Path
    relative: str
    traj: Mapping[str, Any]
    steps: Sequence[Step]
    annotations: Sequence[Annotation]

    @property
    def directory(self) -> Path:
        return self.path.parent

    def metadata(self) -> dict[str, Any]:
        """The episode metadata a user filters on (the same in every export)."""
        scene = self.traj.get("scene") or {}
        task_dir, trial = _task_and_trial(self.relative)
        return {
            "task_id": str(self.traj.get("task_id", "")),
            "task_type": str(self.traj.get("task_type", "")),
            "scene": str(scene.get("floor_plan", "")),
            "scene_num": int(scene.get("scene_num", -1)),
            "task_dir": task_dir,
            "trial": trial,
            "source": self.relative,
            "pddl_params": json.dumps(self.traj.get("pddl_params") or {}, sort_keys=True),
        }


def _task_and_trial(relative: str) -> tuple[str, str]:
    parts = Path(relative).parts
    if len(parts) >= 3:
        return parts[-3], parts[-2]
    return (parts[-2] if len(parts) >= 2 else ""), ""


def find_sources(src: str | os.PathLike[str]) -> list[tuple[Path, str]]:
    """Every traj_data.json under ``src`` (a tree, a trajectory directory or a file), sorted, with
    its path relative to ``src`` (posix); UserError NOT_FOUND when there is none."""
    root = Path(src)
    if root.is_file():
        return [(root, root.name)]
    if root.is_dir() and (root / TRAJ_FILE_NAME).is_file():
        return [(root / TRAJ_FILE_NAME, f"{root.name}/{TRAJ_FILE_NAME}")]
    if not root.is_dir():
        raise UserError(f"{src}: no such file or directory", ExitCode.NOT_FOUND)
    found = sorted((path for path in root.rglob(TRAJ_FILE_NAME) if path.is_file()
                    and CACHE_DIR not in path.parts), key=lambda path: path.relative_to(root).as_posix())
    if not found:
        raise UserError(f"{src}: no {TRAJ_FILE_NAME} found under this directory", ExitCode.NOT_FOUND)
    return [(path, path.relative_to(root).as_posix()) for path in found]


def read_source(path: Path, relative: str) -> Source:
    """Load and check one trajectory; Skip when it cannot be exported."""
    try:
        traj = load_trajectory(path)
    except UserError as error:
        raise Skip("bad_file", str(error)) from None
    except OSError as error:
        raise Skip("bad_file", f"cannot read ({error.strerror or error})") from None
    words = trajectory_annotations(traj)
    if not words:
        raise Skip("no_language", "the file has no turk_annotations and no template")
    try:
        steps = trajectory_steps(traj, on_disk(path.parent))
    except (ValueError, KeyError, TypeError) as error:
        raise Skip("no_steps", str(error)) from None
    return Source(path, relative, traj, steps, words)


def cache_key(path: Path, options: Mapping[str, Any]) -> str:
    """A hash of the trajectory file's bytes and the export options (what the cached part depends on)."""
    digest = hashlib.sha256(path.read_bytes())
    digest.update(json.dumps(dict(options), sort_keys=True).encode())
    return digest.hexdigest()[:24]


def cached_part(out: Path, key: str, make: Callable[[Path], None]) -> Path:
    """The cache folder for ``key`` under ``out``; made by ``make(folder)`` into a temporary folder
    renamed into place when it is not there yet (so a killed run leaves no half part)."""
    cache = out / CACHE_DIR
    final = cache / key
    if final.is_dir():
        return final
    cache.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".tmp-", dir=cache))
    try:
        make(scratch)
        os.replace(scratch, final)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return final


def clear_stale(out: Path) -> None:
    """Remove the half-made cache parts a killed run left (one export per output at a time)."""
    cache = out / CACHE_DIR
    if cache.is_dir():
        for stale in cache.glob(".tmp-*"):
            shutil.rmtree(stale, ignore_errors=True)


def link_or_copy(source: Path, target: Path) -> None:
    """Put ``source``'s bytes at ``target`` (a hard link when the file system allows: no extra
    space), replacing what is there."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".tmp-{target.name}")
    temp.unlink(missing_ok=True)
    try:
        os.link(source, temp)
    except OSError:
        shutil.copyfile(source, temp)
    os.replace(temp, target)


def write_json(path: Path, data: Any) -> None:
    """JSON with sorted keys, atomically."""
    from alfred_gen.atomic import write_text

    write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n", durable=False)
