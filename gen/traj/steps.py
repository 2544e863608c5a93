"""A trajectory as training steps: one (frame, action, mask, instruction) per low action, plus a stop.

Every consumer that trains on demonstrations (the LeRobot and Hugging Face exports,
:class:`alfred_gen.data.AlfredDataset`) needs the same answer to "which frame goes with which
action", so it is decided once, here, for both image conventions that exist on disk:

- ALFRED's (and the recorder's from issue 60 on): ``images`` lists the frames taken before or
  during each action, possibly several per ``low_idx`` (released files animate navigation); the
  frame after the last action is on disk as the next number and is not listed.
- the older one of this project: one frame per action plus the final frame, listed as a second
  image of the last action.

Step ``i < n`` pairs low action ``i`` with the first image whose ``low_idx`` is ``i`` (the state it
was chosen in). Step ``n`` is the stop step: the frame after the last action, paired with the
action ``<<stop>>`` (E.T.'s and ALFRED's evaluators end an episode this way). Its frame is the one
numbered one past ``images[-1]`` when that file exists, else ``images[-1]`` when it is an extra
image of the last action (the old convention); with neither there is no stop step.

The action is an index into :data:`ACTIONS` (the schema's low action names, then ``<<stop>>``);
the interaction mask is ALFRED's run-length encoding, with its box and point.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from alfred_gen.traj.format import RAW_IMAGES_DIR, load_schema
from alfred_gen.traj.frames import action_frame_names, frame_stem

#: The action of the last step: the agent says it is done.
STOP_ACTION = "<<stop>>"
#: File suffix of the RGB frames in ``raw_images/``.
RGB_SUFFIX = ".jpg"
#: ``assignment_id`` of the templated annotation the generator writes into ``turk_annotations``.
TEMPLATE_ASSIGNMENT_ID = "template"


@lru_cache(maxsize=1)
def _actions() -> tuple[str, ...]:
    return (*load_schema()["definitions"]["low_action_name"]["enum"], STOP_ACTION)


def actions() -> tuple[str, ...]:
    """The action vocabulary: every low action name the format allows, then ``<<stop>>``; a step's
    ``action`` is an index into it (stable: the schema's order)."""
    return _actions()


@dataclass(frozen=True)
class Step:
    """One training step of a trajectory (annotation-independent)."""

    step: int  #: 0..n (n = number of low actions; step n is the stop step)
    low_idx: int  #: the low action's index (n for the stop step)
    high_idx: int  #: its subgoal
    frame: str  #: stem of the frame file (``000000012``)
    action: int  #: index into :func:`actions`
    action_name: str  #: ALFRED's discrete name (``MoveAhead_25``, ``PickupObject``, ``<<stop>>``)
    mask: tuple[tuple[int, int], ...]  #: ALFRED's runs over the flattened 300x300 frame; empty if none
    bbox: tuple[int, int, int, int] | None  #: [x1, y1, x2, y2] of the mask
    point: tuple[int, int] | None  #: [x, y] of the mask


@dataclass(frozen=True)
class Annotation:
    """One set of words for a trajectory: the goal and one instruction per subgoal."""

    index: int  #: its place in ``turk_annotations.anns`` (ALFRED's ``repeat_idx``)
    task_desc: str
    high_descs: tuple[str, ...]
    source: str  #: ``human`` or ``template``

    def instruction(self, high_idx: int) -> str:
        """The instruction of subgoal ``high_idx``; the goal for the closing NoOp and the stop step."""
        if 0 <= high_idx < len(self.high_descs) and self.high_descs[high_idx].strip():
            return " ".join(self.high_descs[high_idx].split())
        return self.task_desc


def select_frames(traj: Mapping[str, Any], frame_exists: Callable[[str], bool]) -> tuple[list[str], str | None]:
    """(one frame stem per low action, the final frame's stem or None), per the module doc, as
    :mod:`alfred_gen.traj.frames` reads them (both image conventions). ``frame_exists(stem)`` says
    whether the RGB file of an unlisted final frame is on disk. ValueError when a low action has no
    image."""
    *per_action, final = action_frame_names(traj)
    missing = [i for i, name in enumerate(per_action) if name is None]
    if missing:
        raise ValueError(f"low action {missing[0]} has no image in 'images'")
    stems = [frame_stem(str(name)) for name in per_action]
    if final is None:
        return stems, None
    stem = frame_stem(final)
    listed = any(frame_stem(entry["image_name"]) == stem for entry in traj.get("images") or ())
    return stems, stem if listed or frame_exists(stem) else None


def _runs(args: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    mask = args.get("mask") or []
    return tuple((int(start), int(length)) for start, length in mask)


def trajectory_steps(traj: Mapping[str, Any], frame_exists: Callable[[str], bool]) -> list[Step]:
    """The steps of a trajectory (module doc): one per low action, then the stop step when the
    final frame is known."""
    vocabulary = {name: index for index, name in enumerate(actions())}
    lows = traj["plan"]["low_actions"]
    frames, final = select_frames(traj, frame_exists)
    steps: list[Step] = []
    for i, (low, frame) in enumerate(zip(lows, frames)):
        args = low.get("discrete_action", {}).get("args") or {}
        bbox = args.get("bbox")
        point = args.get("point")
        name = str(low["api_action"]["action"])
        if name not in vocabulary:
            raise ValueError(f"low action {i} is {name!r}, not one of the format's actions")
        steps.append(Step(i, i, int(low["high_idx"]), frame, vocabulary[name],
                          str(low.get("discrete_action", {}).get("action", name)), _runs(args),
                          tuple(int(v) for v in bbox) if bbox else None,  # type: ignore[arg-type]
                          tuple(int(v) for v in point) if point else None))  # type: ignore[arg-type]
    if final is not None:
        high = len(traj["plan"]["high_pddl"]) - 1
        steps.append(Step(len(lows), len(lows), high, final, vocabulary[STOP_ACTION], STOP_ACTION, (), None, None))
    return steps


def on_disk(trajectory_dir: str | os.PathLike[str]) -> Callable[[str], bool]:
    """``frame_exists`` for a trajectory directory: whether ``raw_images/<stem>.jpg`` is a file."""
    folder = Path(trajectory_dir) / RAW_IMAGES_DIR
    return lambda stem: (folder / f"{stem}{RGB_SUFFIX}").is_file()


def trajectory_annotations(traj: Mapping[str, Any]) -> list[Annotation]:
    """Every annotation of a trajectory (``turk_annotations.anns``, in order), or the ``template``
    alone when there is none; empty when it has no words at all."""
    anns = (traj.get("turk_annotations") or {}).get("anns") or []
    found = []
    for index, ann in enumerate(anns):
        if isinstance(ann, Mapping):
            source = "template" if ann.get("assignment_id") == TEMPLATE_ASSIGNMENT_ID else "human"
            found.append(Annotation(index, " ".join(str(ann.get("task_desc", "")).split()),
                                    tuple(str(d) for d in ann.get("high_descs") or ()), source))
    if found:
        return found
    template = traj.get("template") or {}
    if template.get("task_desc") or template.get("high_descs"):
        return [Annotation(0, " ".join(str(template.get("task_desc", "")).split()),
                           tuple(str(d) for d in template.get("high_descs") or ()), "template")]
    return []


def mask_json(runs: Sequence[Sequence[int]]) -> str:
    """Runs as compact JSON text (``[[start,length],...]``): how the exports store a mask."""
    return json.dumps([list(run) for run in runs], separators=(",", ":"))
