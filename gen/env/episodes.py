"""Episodes: one trajectory file and one of its annotations, from a file, a directory or a split file.

An episode is what ALFRED's evaluator runs: a trajectory's start state and goal, with the language
of one annotation (``repeat_idx``). :func:`episodes_from` lists them for

* a traj_data.json: every annotation of it;
* a directory: every traj_data.json under it (sorted by path), every annotation of each;
* a split file (``alfred-gen splits``, or ALFRED's ``oct21.json``): the entries of ``split``, the
  task directories found under ``data_root`` (default: the split file's directory), either directly
  (``<root>/<task>``) or under the split's name (ALFRED's ``<root>/<split>/<task>``).

A trajectory without annotations (``turk_annotations.anns`` empty) gives one episode whose language
is its template (``template.task_desc`` / ``high_descs``), if any.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import TRAJ_FILE_NAME, parse_trajectory_json, trajectories_under


@dataclass(frozen=True)
class Episode:
    """One trajectory file and the annotation to read its language from."""

    path: str
    repeat_idx: int = 0
    split: str = ""

    @property
    def key(self) -> str:
        """``<path>#<repeat_idx>``: how results files name the episode."""
        return f"{self.path}#{self.repeat_idx}"


def _anns(traj: Mapping[str, Any]) -> Any:
    block = traj.get("turk_annotations")
    return block.get("anns") if isinstance(block, Mapping) else None


def annotation_count(traj: Mapping[str, Any]) -> int:
    """How many annotations a trajectory has (0 if none)."""
    anns = _anns(traj)
    return len(anns) if isinstance(anns, list) else 0


def language(traj: Mapping[str, Any], repeat_idx: int) -> tuple[str, list[str]]:
    """(goal, step-by-step instructions) of annotation ``repeat_idx``, else of the template."""
    anns = _anns(traj)
    source: Any = None
    if isinstance(anns, list) and anns:
        if not 0 <= repeat_idx < len(anns):
            raise UserError(f"annotation {repeat_idx} out of range (the file has {len(anns)})", ExitCode.BAD_INPUT)
        source = anns[repeat_idx]
    elif isinstance(traj.get("template"), Mapping):
        source = traj["template"]
    if not isinstance(source, Mapping):
        return "", []
    goal = str(source["task_desc"]) if isinstance(source.get("task_desc"), str) else ""
    steps = [str(s) for s in source.get("high_descs") or () if isinstance(s, str)]
    return goal, steps


def _file_episodes(path: Path, split: str = "") -> list[Episode]:
    try:
        traj = parse_trajectory_json(path)
    except UserError:
        return [Episode(str(path), 0, split)]  # the run reports it as a bad file
    count = annotation_count(traj) if isinstance(traj, Mapping) else 0
    return [Episode(str(path), r, split) for r in range(max(1, count))]


def _split_episodes(splits_path: Path, split: str | None, data_root: str | os.PathLike[str] | None) -> list[Episode]:
    from alfred_gen.traj.splits import SPLITS, read_splits

    splits = read_splits(splits_path)
    names = [split] if split else [name for name in SPLITS if name in splits and not name.startswith("train")]
    root = Path(data_root) if data_root is not None else splits_path.parent
    episodes = []
    for name in names:
        if name not in splits:
            raise UserError(f"{splits_path}: no split {name!r} (it has {', '.join(splits) or 'none'})",
                            ExitCode.NOT_FOUND)
        for entry in splits[name]:
            candidates = [root / entry["task"] / TRAJ_FILE_NAME, root / name / entry["task"] / TRAJ_FILE_NAME]
            path = next((c for c in candidates if c.is_file()), candidates[0])
            episodes.append(Episode(str(path), int(entry.get("repeat_idx", 0)), name))
    return episodes


def episodes_from(source: str | os.PathLike[str], *, split: str | None = None,
                  data_root: str | os.PathLike[str] | None = None) -> list[Episode]:
    """Every episode ``source`` holds (see the module docstring). Raises UserError(NOT_FOUND)
    when it names nothing."""
    path = Path(source)
    if path.is_file() and path.name != TRAJ_FILE_NAME and path.suffix == ".json":
        return _split_episodes(path, split, data_root)
    if path.is_file():
        return _file_episodes(path, split or "")
    if not path.is_dir():
        raise UserError(f"{source}: no such file or directory", ExitCode.NOT_FOUND)
    files, _missing = trajectories_under(path)
    if not files:
        raise UserError(f"{source}: no {TRAJ_FILE_NAME} found under this directory", ExitCode.NOT_FOUND)
    return [episode for file in files for episode in _file_episodes(file, split or "")]
