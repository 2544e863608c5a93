"""What a person watching a demonstration needs at every frame, read from one ``traj_data.json``.

The video (:mod:`alfred_gen.export.video`) and the browser (:mod:`alfred_gen.export.view`) show
the same things, so both read them here: for each entry of ``images`` (one video frame, one step of
the player), which low action and which subgoal it belongs to, whether it is the frame in which the
action was chosen (then the action's interaction mask belongs on it), the instruction of the
running subgoal, and where the agent stands.

Frames follow ALFRED's convention (:mod:`alfred_gen.traj.frames`): the first image with ``low_idx``
i shows the state before low action i, any further image with the same ``low_idx`` the state after
it, and the unlisted next number after the last entry the state after the last action. Released
ALFRED files have several images per navigation step (smooth animation); ours have one per action
(plus the unlisted final one).

Language: the first human annotation (``turk_annotations.anns`` whose ``assignment_id`` is not
``template``) when there is one, else our ``template``. ``high_descs`` has one line per subgoal
except the closing ``NoOp``; that step is captioned with the task description.

Where the agent stands is dead-reckoned from ``scene.init_action`` through the navigation actions
(MoveAhead 0.25 m along the heading, RotateLeft/Right 90 degrees, LookUp/Down 15 degrees), which is
exact for a vetted trajectory: every action succeeded, and interactions do not move the agent.
Rotation 0 faces +z and 90 faces +x, as in THOR.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from alfred_gen.demo.language import is_generated
from alfred_gen.traj.frames import frame_entries
from alfred_gen.traj.rle import decode_mask

#: Sideways offset (degrees added to the heading) of each move action.
_MOVES = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}


class FrameStep(NamedTuple):
    """One frame (an entry of ``images``, or the unlisted final one): a frame of the video, a step of
    the player."""

    position: int  #: where it is in the frame sequence (the frame number, from 0)
    stem: str  #: file name without extension (``000000012``)
    low_idx: int
    high_idx: int
    before_action: bool  #: the frame in which low action ``low_idx`` was chosen (its mask is drawn here)


class AgentPose(NamedTuple):
    """Where the agent stands and looks: metres on the floor, degrees."""

    x: float
    z: float
    rotation: float
    horizon: float


@dataclass(frozen=True)
class Language:
    """The words shown with a demonstration: ``task_desc``, one instruction per subgoal, and where
    they came from (``human``, ``template`` or ``none``)."""

    task_desc: str
    subgoals: tuple[str, ...]
    source: str


def frame_steps(traj: Mapping[str, Any]) -> list[FrameStep]:
    """The frames of a trajectory in order: its ``images`` entries, then the unlisted frame after the
    last action (:func:`alfred_gen.traj.frames.frame_entries`; the recorder's index if ``images``
    is empty)."""
    return [FrameStep(e.position, e.stem, e.low_idx, e.high_idx, e.before_action) for e in frame_entries(traj)]


def _human_annotation(traj: Mapping[str, Any]) -> Mapping[str, Any] | None:
    anns = (traj.get("turk_annotations") or {}).get("anns") or []
    for ann in anns:
        if isinstance(ann, Mapping) and not is_generated(ann) and ann.get("high_descs"):
            return ann
    return None


def language(traj: Mapping[str, Any]) -> Language:
    """Task description and per-subgoal instructions: human if annotated, else the template, else
    the high-level actions themselves (``GotoLocation countertop``)."""
    high = traj["plan"]["high_pddl"]
    human = _human_annotation(traj)
    template = traj.get("template") or {}
    if human is not None:
        descs, task_desc, source = list(human.get("high_descs") or []), str(human.get("task_desc", "")), "human"
    elif template.get("high_descs"):
        descs, task_desc, source = list(template["high_descs"]), str(template.get("task_desc", "")), "template"
    else:
        descs, task_desc, source = [], "", "none"
    task_desc = " ".join(task_desc.split())
    subgoals = []
    for i, step in enumerate(high):
        if i < len(descs) and str(descs[i]).strip():
            subgoals.append(" ".join(str(descs[i]).split()))
        elif step["discrete_action"]["action"] in ("NoOp", "End"):
            subgoals.append(task_desc or "Done.")
        else:
            subgoals.append(subgoal_label(step))
    return Language(task_desc, tuple(subgoals), source)


def subgoal_label(step: Mapping[str, Any]) -> str:
    """``GotoLocation countertop``: a high-level step in ALFRED's discrete words."""
    discrete = step["discrete_action"]
    return " ".join([str(discrete["action"]), *(str(arg) for arg in discrete.get("args") or [])])


def object_type(object_id: str) -> str:
    """``Apple|+01.00|+00.90|+00.50`` -> ``Apple``; a slice ``...|AppleSliced_1`` -> ``AppleSliced``."""
    parts = str(object_id).split("|")
    if len(parts) > 4:
        return parts[-1].rsplit("_", 1)[0]
    return parts[0]


def low_action_label(low: Mapping[str, Any]) -> str:
    """``MoveAhead_25``, ``PickupObject Apple``, ``PutObject Apple -> CounterTop``."""
    name = str(low["discrete_action"]["action"])
    api = low.get("api_action") or {}
    targets = [object_type(api[key]) for key in ("objectId", "receptacleObjectId") if api.get(key)]
    if not targets:
        return name
    return f"{name} {' -> '.join(targets)}"


def interaction_mask(low: Mapping[str, Any]) -> np.ndarray | None:
    """The HxW bool mask an interaction recorded (None for navigation)."""
    args = low["discrete_action"].get("args")
    if not isinstance(args, Mapping) or not args.get("mask"):
        return None
    return decode_mask(args["mask"])


def agent_poses(traj: Mapping[str, Any]) -> list[AgentPose]:
    """The agent's pose before each low action and after the last: ``n + 1`` poses for ``n`` actions."""
    start = traj["scene"]["init_action"]
    pose = AgentPose(float(start["x"]), float(start["z"]), float(start.get("rotation", 0)) % 360,
                     float(start.get("horizon", 0)))
    poses = [pose]
    for low in traj["plan"]["low_actions"]:
        pose = _after(pose, low["api_action"])
        poses.append(pose)
    return poses


def _after(pose: AgentPose, api: Mapping[str, Any]) -> AgentPose:
    action = str(api.get("action", ""))
    if action in _MOVES:
        heading = math.radians(pose.rotation + _MOVES[action])
        step = float(api.get("moveMagnitude") or 0.25)
        return pose._replace(x=round(pose.x + math.sin(heading) * step, 4),
                             z=round(pose.z + math.cos(heading) * step, 4))
    if action in ("RotateLeft", "RotateRight"):
        sign = 1 if action == "RotateRight" else -1
        return pose._replace(rotation=(pose.rotation + sign * float(api.get("degrees") or 90)) % 360)
    if action in ("LookUp", "LookDown"):
        sign = 1 if action == "LookDown" else -1
        return pose._replace(horizon=pose.horizon + sign * float(api.get("degrees") or 15))
    if action in ("TeleportFull", "Teleport"):
        return AgentPose(float(api.get("x", pose.x)), float(api.get("z", pose.z)),
                         float(api.get("rotation", pose.rotation)) % 360, float(api.get("horizon", pose.horizon)))
    return pose


def frame_pose(poses: Sequence[AgentPose], step: FrameStep) -> AgentPose:
    """Where the agent is in a frame: before its action, or after it for the later frames."""
    return poses[min(step.low_idx + (0 if step.before_action else 1), len(poses) - 1)]


def subgoal_spans(steps: Sequence[FrameStep], subgoals: int) -> list[tuple[int, int]]:
    """For each subgoal, the (first, last) frame index showing it; (-1, -1) if it has no frame
    (the closing ``NoOp`` usually has none)."""
    spans = [(-1, -1)] * subgoals
    for step in steps:
        if 0 <= step.high_idx < subgoals:
            first, _ = spans[step.high_idx]
            spans[step.high_idx] = (step.position if first < 0 else first, step.position)
    return spans
