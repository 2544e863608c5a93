"""A finished trial moved as bytes: packed where it was made, committed where the dataset lives.

An executor whose workers do not share the output's file system (Ray on a cluster) runs the
generator into a scratch directory on the worker, sends the trial's files back as bytes, and the
driver writes them into a hidden temporary directory of the output and renames it into place. That
is the same commit (one rename) generate_trajectory makes when it writes the output itself, so a
killed driver leaves complete trials only, and the bytes on disk are the generator's own: the tree
is the one a local run makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from alfred_gen.atomic import AlreadyCommitted, committing_dir


@dataclass(frozen=True)
class PackedTrial:
    """One trial directory as data: ``<task dir>/<trial id>`` and its entries, relative to it
    (``payload`` None for a directory, so empty directories travel too)."""

    task_dir: str
    trial_id: str
    entries: tuple[tuple[str, bytes | None], ...]

    def size(self) -> int:
        return sum(len(payload) for _, payload in self.entries if payload is not None)


def pack_trial(root: Path, trial_id: str) -> PackedTrial | None:
    """The trial ``<task dir>/<trial_id>`` written under ``root`` (None if there is not exactly one)."""
    found = [path for path in root.glob(f"*/{trial_id}") if path.is_dir()]
    if len(found) != 1:
        return None
    trial = found[0]
    entries = tuple(
        (path.relative_to(trial).as_posix(), path.read_bytes() if path.is_file() else None)
        for path in sorted(trial.rglob("*"))
        if path.is_file() or path.is_dir()
    )
    return PackedTrial(trial.parent.name, trial_id, entries)


def _single_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\0" not in name


def _safe_relative(name: str) -> bool:
    path = PurePosixPath(name)
    return bool(name) and not path.is_absolute() and ".." not in path.parts and "\0" not in name


def commit_trial(out: Path, packed: PackedTrial) -> bool:
    """Write ``packed`` into its staging directory (:func:`alfred_gen.atomic.committing_dir`), then
    rename it to ``out/<task dir>/<trial id>``.

    Returns False (writing nothing) when the trial is already there, as generate_trajectory does.
    A failure (or Ctrl-C) while writing removes the temporary directory; OSError goes to the caller.
    """
    if not (_single_name(packed.task_dir) and _single_name(packed.trial_id)
            and all(_safe_relative(name) for name, _ in packed.entries)):
        raise ValueError(f"a packed trial names a path outside its directory: {packed.task_dir}/{packed.trial_id}")
    final = out / packed.task_dir / packed.trial_id
    if final.exists():
        return False
    try:
        with committing_dir(final) as temp:
            for name, payload in packed.entries:
                path = temp / name
                if payload is None:
                    path.mkdir(parents=True, exist_ok=True)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(payload)
    except AlreadyCommitted:
        return False
    return True
