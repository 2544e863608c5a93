"""``AlfredDataset``: trajectories in ALFRED's folder layout as a map-style PyTorch dataset.

Every lab that trains on ALFRED writes this loader again; this one reads the folders as they are
(``<root>/<task dir>/<trial>/traj_data.json`` and ``raw_images/``), or the trajectories a split
file names, and gives items with the same fields as the LeRobot and Hugging Face exports:

- an episode is a trajectory with one annotation (ALFRED's ``repeat_idx``); a directory gives every
  trajectory with every annotation, a split file the pairs it lists;
- steps follow :mod:`alfred_gen.traj.steps` (the frame each low action was chosen in, then the
  final frame with ``<<stop>>``), in both image conventions;
- ``items="step"`` (default): one item per step, a dict with ``image`` (HxWx3 uint8 numpy array),
  ``action`` (index into :func:`alfred_gen.traj.steps.actions`), ``action_name``, ``mask``
  (ALFRED's runs), ``bbox``, ``point``, ``instruction``, ``goal``, ``step``, ``low_idx``,
  ``high_idx``, ``episode_index``, ``episode_id``, ``task_id``;
  ``items="episode"``: one item per episode, the episode's metadata with ``images`` (TxHxWx3) and
  the step fields as lists.

Frames are read when an item is asked for (lazy); the JSON files are read once, when the dataset
is made, to count steps. It is a ``torch.utils.data.Dataset`` when torch is installed (so
``DataLoader`` and samplers take it) and a plain class otherwise; torch is never imported unless
it is installed. Masks vary in length, so batch steps with a ``collate_fn`` that keeps lists.

Split files have ALFRED's shape (``oct21.json``): ``{"train": [{"task": "<task dir>/<trial>",
"repeat_idx": 0}, ...], "valid_seen": [...]}``; a task is looked up under ``root`` and under
``root/<split>`` (ALFRED's ``json_2.1.0/<split>/`` folders).
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import RAW_IMAGES_DIR, TRAJ_FILE_NAME, load_trajectory
from alfred_gen.traj.steps import RGB_SUFFIX, Annotation, Step, on_disk, trajectory_annotations, trajectory_steps

if TYPE_CHECKING:
    _Base = object
elif importlib.util.find_spec("torch") is not None:
    from torch.utils.data import Dataset as _Base
else:
    _Base = object


@dataclass(frozen=True)
class Episode:
    """One trajectory with one annotation."""

    index: int
    directory: Path
    task_id: str
    task_type: str
    scene: str
    task_dir: str
    trial: str
    annotation: Annotation
    steps: tuple[Step, ...]

    @property
    def episode_id(self) -> str:
        return f"{self.task_dir}/{self.trial}/{self.annotation.index}"

    def image(self, step: Step) -> np.ndarray:
        """The RGB frame of ``step`` (HxWx3 uint8), read now."""
        from PIL import Image

        path = self.directory / RAW_IMAGES_DIR / f"{step.frame}{RGB_SUFFIX}"
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"))


def _split_entries(split_file: Path, split: str | None) -> list[tuple[str, str, int]]:
    """(split, task, repeat_idx) of every entry of ``split`` (or of every split) in a split file."""
    try:
        data = json.loads(split_file.read_text())
    except (OSError, ValueError) as error:
        raise UserError(f"{split_file}: cannot read the split file ({error})", ExitCode.BAD_INPUT) from None
    if not isinstance(data, Mapping):
        raise UserError(f"{split_file}: a split file is an object of split name -> entries", ExitCode.BAD_INPUT)
    names = [split] if split is not None else sorted(data)
    entries = []
    for name in names:
        if name not in data:
            raise UserError(f"{split_file}: no split {name!r} (it has {', '.join(sorted(data))})", ExitCode.NOT_FOUND)
        for entry in data[name]:
            try:
                entries.append((name, str(entry["task"]), int(entry.get("repeat_idx", 0))))
            except (KeyError, TypeError, ValueError):
                raise UserError(f"{split_file}: split {name!r} has an entry without 'task': {entry!r}",
                                ExitCode.BAD_INPUT) from None
    return entries


class AlfredDataset(_Base):
    """Map-style dataset over an ALFRED-layout directory or a split file (module doc)."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        split_file: str | os.PathLike[str] | None = None,
        split: str | None = None,
        items: str = "step",
        transform: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        if items not in ("step", "episode"):
            raise ValueError(f"items must be 'step' or 'episode', got {items!r}")
        self.root = Path(root)
        self.items = items
        self.transform = transform
        self.episodes: list[Episode] = []
        if split_file is not None:
            for name, task, repeat in _split_entries(Path(split_file), split):
                directory = self._find(task, name)
                self._add(directory, task, only=repeat)
        else:
            found = sorted(self.root.rglob(TRAJ_FILE_NAME), key=lambda p: p.relative_to(self.root).as_posix())
            if not found:
                raise UserError(f"{self.root}: no {TRAJ_FILE_NAME} under this directory", ExitCode.NOT_FOUND)
            for path in found:
                self._add(path.parent, path.parent.relative_to(self.root).as_posix(), only=None)
        #: (episode, step) of every step item, in order.
        self.index: list[tuple[int, int]] = [(e, s) for e, episode in enumerate(self.episodes)
                                             for s in range(len(episode.steps))]

    def _find(self, task: str, split: str) -> Path:
        for directory in (self.root / task, self.root / split / task):
            if (directory / TRAJ_FILE_NAME).is_file():
                return directory
        raise UserError(f"{self.root}: the split's task {task} has no {TRAJ_FILE_NAME} (looked in "
                        f"{task} and {split}/{task})", ExitCode.NOT_FOUND)

    def _add(self, directory: Path, task: str, only: int | None) -> None:
        traj = load_trajectory(directory / TRAJ_FILE_NAME)
        steps = tuple(trajectory_steps(traj, on_disk(directory)))
        words = trajectory_annotations(traj)
        if only is not None:
            chosen = [ann for ann in words if ann.index == only]
            if not chosen:
                raise UserError(f"{directory}: no annotation with repeat_idx {only} ({len(words)} annotations)",
                                ExitCode.NOT_FOUND)
            words = chosen
        parts = Path(task).parts
        scene = traj.get("scene") or {}
        for annotation in words:
            self.episodes.append(Episode(
                len(self.episodes), directory, str(traj.get("task_id", "")), str(traj.get("task_type", "")),
                str(scene.get("floor_plan", "")), parts[-2] if len(parts) >= 2 else "", parts[-1] if parts else "",
                annotation, steps))

    def __len__(self) -> int:
        return len(self.index) if self.items == "step" else len(self.episodes)

    def step_fields(self, episode: Episode, step: Step) -> dict[str, Any]:
        """The fields of a step, without its image."""
        return {
            "episode_index": episode.index, "episode_id": episode.episode_id, "task_id": episode.task_id,
            "step": step.step, "low_idx": step.low_idx, "high_idx": step.high_idx,
            "action": step.action, "action_name": step.action_name,
            "mask": [list(run) for run in step.mask], "bbox": list(step.bbox or ()), "point": list(step.point or ()),
            "instruction": episode.annotation.instruction(step.high_idx), "goal": episode.annotation.task_desc,
        }

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"index {index} out of range for {len(self)} items")
        if self.items == "step":
            number, position = self.index[index]
            episode = self.episodes[number]
            step = episode.steps[position]
            item: dict[str, Any] = {**self.step_fields(episode, step), "image": episode.image(step)}
        else:
            item = self.episode_item(self.episodes[index])
        return self.transform(item) if self.transform is not None else item

    def episode_item(self, episode: Episode) -> dict[str, Any]:
        """An episode's metadata, its step fields as lists, and ``images`` (TxHxWx3)."""
        fields = [self.step_fields(episode, step) for step in episode.steps]
        columns: dict[str, Any] = {key: [f[key] for f in fields] for key in fields[0]} if fields else {}
        for key in ("episode_index", "episode_id", "task_id", "goal"):
            columns.pop(key, None)
        return {
            "episode_index": episode.index, "episode_id": episode.episode_id, "task_id": episode.task_id,
            "task_type": episode.task_type, "scene": episode.scene, "trial": episode.trial,
            "repeat_idx": episode.annotation.index, "goal": episode.annotation.task_desc,
            "instructions": list(episode.annotation.high_descs),
            "images": np.stack([episode.image(step) for step in episode.steps]) if episode.steps else np.zeros((0,)),
            **columns,
        }

    def steps_of(self, episodes: Sequence[int]) -> list[int]:
        """The step-item indices of the given episodes (for samplers that draw whole episodes)."""
        wanted = set(episodes)
        return [i for i, (number, _) in enumerate(self.index) if number in wanted]
