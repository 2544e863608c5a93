"""Where the pictures of a demonstration come from: its own folders, or a fresh re-render.

A trajectory directory may hold every frame its ``images`` list names (``raw_images/``, and
``depth_images/`` / ``instance_masks/`` after ``alfred-gen replay --depth --seg``), or not: a run
with ``--no-frames``, a released ALFRED file (shipped without images here), or a video asking for
depth that was never written. Then the trajectory is replayed on a simulator
(:func:`alfred_gen.replay.rerender.replay_to_directory`) into a temporary folder that is removed
afterwards; the trajectory's own directory is never written to.

A replay only writes frames when every action succeeded and the goal holds, so a re-rendered
frame shows what the demonstration really does; otherwise :class:`RerenderFailed` says why.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.errors import UserError
from alfred_gen.replay.images import DEPTH_SUFFIX, MASK_SUFFIX, RGB_SUFFIX
from alfred_gen.sim.controller import Controller
from alfred_gen.traj.format import DEPTH_IMAGES_DIR, INSTANCE_MASKS_DIR, RAW_IMAGES_DIR

#: kind -> (folder, file suffix) of the three frame kinds.
KINDS: dict[str, tuple[str, str]] = {
    "rgb": (RAW_IMAGES_DIR, RGB_SUFFIX),
    "depth": (DEPTH_IMAGES_DIR, DEPTH_SUFFIX),
    "seg": (INSTANCE_MASKS_DIR, MASK_SUFFIX),
}


class RerenderFailed(Exception):
    """Frames were missing and replaying the trajectory to render them failed (the message says why)."""


@dataclass(frozen=True)
class FrameFiles:
    """The folders holding every needed frame, by kind (``rgb``, ``depth``, ``seg``), and whether
    they were re-rendered for this call."""

    folders: Mapping[str, Path]
    rerendered: bool

    def path(self, kind: str, stem: str) -> Path:
        return self.folders[kind] / f"{stem}{KINDS[kind][1]}"


def present_kinds(trajectory_dir: Path, stems: Sequence[str]) -> set[str]:
    """The kinds whose folder under ``trajectory_dir`` holds a file for every stem."""
    found = set()
    for kind, (folder, suffix) in KINDS.items():
        base = trajectory_dir / folder
        if base.is_dir() and all((base / f"{stem}{suffix}").is_file() for stem in stems):
            found.add(kind)
    return found


@contextlib.contextmanager
def frame_files(
    trajectory_dir: Path,
    traj: Mapping[str, Any],
    stems: Sequence[str],
    kinds: set[str],
    controller_factory: Callable[..., Controller],
) -> Iterator[FrameFiles]:
    """Folders with every frame of ``kinds`` for ``stems``: the trajectory's own when complete,
    else a temporary re-render (removed on exit). ``controller_factory(depth=, segmentation=)``
    makes a rendering controller. RerenderFailed when the replay fails."""
    wanted = set(kinds) | {"rgb"}
    if wanted <= present_kinds(trajectory_dir, stems):
        yield FrameFiles({kind: trajectory_dir / KINDS[kind][0] for kind in wanted}, False)
        return
    from alfred_gen.replay.rerender import replay_to_directory

    scratch = Path(tempfile.mkdtemp(prefix="alfred-gen-frames-"))
    try:
        try:
            controller = controller_factory(depth="depth" in wanted, segmentation="seg" in wanted)
            outcome = replay_to_directory(traj, scratch, controller, depth="depth" in wanted, seg="seg" in wanted)
        except UserError as error:
            raise RerenderFailed(str(error)) from None
        if not outcome.ok:
            why = outcome.failures[0].describe() if outcome.failures else f"goal {outcome.goal.describe()}"
            raise RerenderFailed(f"frames are missing and the replay that would render them failed: {why}")
        yield FrameFiles({kind: scratch / KINDS[kind][0] for kind in wanted}, True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
