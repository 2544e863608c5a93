"""``AlfredEnv``: a Gymnasium environment over ALFRED-style trajectories, driven as ALFRED's evaluator
drives THOR.

An episode is a trajectory's start state, goal and language (one annotation): ``reset`` rebuilds the
start state from the file's ``scene`` block exactly as ``replay`` and ``verify`` do
(:func:`alfred_gen.replay.restore.restore_scene`), and the goal conditions are counted as
``verify`` counts them (:mod:`alfred_gen.replay.goals`, with ALFRED's heated / cooled / cleaned
bookkeeping kept while stepping).

Modes (the action space):

``mask``
    ALFRED's interface: ``{"action": i, "mask": 300x300}`` with ``i`` indexing
    :data:`~alfred_gen.env.actions.LOW_ACTIONS`; for interactions the mask is resolved to an object
    as ALFRED's ``va_interact`` does (:mod:`alfred_gen.env.masks`; constructor ``mask_rule``:
    ``"affordance"``, the first candidate by IoU that accepts the action, or ``"alfred"``, the first
    that accepts any action, as ALFRED's code has it).
``object_id``
    ``{"action": i, "object_id": "Apple|+00.10|+00.93|-01.20"}``: privileged perception.
``high_level``
    ``{"action": i, "object_id": ..., "receptacle_id": ..., "location": ...}`` with ``i`` indexing
    :data:`~alfred_gen.env.actions.HIGH_ACTIONS` (:mod:`alfred_gen.env.high_level`).

Actions may also name the action as a string (``"PickupObject"``, ``"MoveAhead_25"``,
``"<<stop>>"``) and give ``mask`` as any 300x300 array of booleans or 0/1.

Observation: ``rgb`` (300x300x3 uint8; constructor ``rgb=False`` drops it), ``depth`` (300x300
float32 metres, clipped to 100) and ``segmentation`` (300x300x3 uint8 instance colours) when asked
for, ``goal`` and ``instructions`` (the annotation's task description and its step-by-step descriptions, one per
line; printable ASCII, other characters become spaces), and in ``high_level`` mode ``high_idx``, the
number of high-level actions done so far.

Episode rules are ALFRED's (``models/eval/eval_task.py``): ``Stop`` ends the episode
(``terminated``) and is not counted as a step; every other action is a step, failed or not; the
episode is ``truncated`` after 1,000 steps or 10 failed actions. The reward is the change in the
share of goal conditions met. ``info`` has ``goal_conditions_met``, ``goal_conditions_total``,
``goal_condition_success`` (their ratio), ``success`` (all met), ``steps``, ``failed_actions``,
``last_action_success``, ``errorMessage``, ``target`` (the object an interaction acted on),
``goal_distance`` (metres to a derived task's destination, else None) and, after reset, the
episode's ``task_id``, ``task_type``, ``repeat_idx``, ``path`` and ``expert_length``.

Derived trajectories (ALFRED-L's NAV-ONLY, REV-1, REV-n from ``alfred-gen derive``) carry a goal
block: the goal conditions are then the ones ``verify`` checks (:func:`~alfred_gen.replay.goals.
trajectory_goal_status`: the task's conditions unless NAV-ONLY drops them, plus ending within the
block's distance of the destination); the constructor's ``within`` sets that distance for every
episode (ALFRED-L's 1.25 m is what ``derive`` stores).
"""

from __future__ import annotations

import dataclasses
import math
import os
import string
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from alfred_gen.env.actions import (
    HIGH_ACTIONS,
    INTERACTIONS,
    LOW_ACTIONS,
    NO_KNIFE,
    BadAction,
    action_name,
    holds_knife,
    low_api_action,
)
from alfred_gen.env.episodes import Episode, episodes_from, language
from alfred_gen.env.masks import BAD_MASK, MASK_RULES, resolve_mask
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.replay.goals import (
    EffectTracker,
    GoalStatus,
    TrajectoryGoal,
    task_from_trajectory,
    trajectory_goal,
    trajectory_goal_status,
)
from alfred_gen.replay.restore import restore_trajectory
from alfred_gen.sim.controller import Controller, Simulator

#: The modes, in the order the docs list them.
MODES = ("mask", "object_id", "high_level")

#: ALFRED's episode limits (``eval_task.py``: max_steps, max_fails).
MAX_STEPS = 1000
MAX_FAILS = 10

#: Frame size of ALFRED's observations.
FRAME = 300

#: Depth beyond this (metres) is given as this: nothing in a room is farther.
MAX_DEPTH = 100.0

#: Characters of the language fields (printable ASCII); others are replaced by a space.
CHARSET = frozenset(string.printable)
#: Longest language field (characters); longer text is cut.
MAX_TEXT = 4096
#: Longest object id or location argument (characters).
MAX_ARG = 256


def _text_space(length: int) -> spaces.Text:
    return spaces.Text(max_length=length, min_length=0, charset="".join(sorted(CHARSET)))


def clean_text(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` in the language fields' alphabet and length."""
    return "".join(ch if ch in CHARSET else " " for ch in text)[:limit]


class AlfredEnv(gymnasium.Env):
    """One ALFRED-style episode at a time over the trajectories of ``trajectories`` (a
    traj_data.json, a directory of them, a split file with ``split``, a list of files, or None:
    then every ``reset`` names its trajectory in ``options``). See the module docstring."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 5}  # noqa: RUF012 (gymnasium's own attribute)

    def __init__(
        self,
        trajectories: str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
        *,
        mode: str = "mask",
        split: str | None = None,
        data_root: str | os.PathLike[str] | None = None,
        backend: str = "lite",
        backend_options: Mapping[str, Any] | None = None,
        simulator: Simulator | None = None,
        rgb: bool = True,
        depth: bool = False,
        segmentation: bool = False,
        max_steps: int = MAX_STEPS,
        max_fails: int = MAX_FAILS,
        scenes_catalogue: str | os.PathLike[str] | None = None,
        render_mode: str | None = None,
        mask_rule: str = "affordance",
        within: float | None = None,
    ) -> None:
        if mode not in MODES:
            raise UserError(f"unknown mode {mode!r} (one of {', '.join(MODES)})", ExitCode.USAGE)
        if mask_rule not in MASK_RULES:
            raise UserError(f"unknown mask rule {mask_rule!r} (one of {', '.join(MASK_RULES)})", ExitCode.USAGE)
        self.mask_rule = mask_rule
        if within is not None and not (math.isfinite(within) and within >= 0):
            raise UserError(f"within must be a distance in metres >= 0, got {within!r}", ExitCode.USAGE)
        self.within = within
        if scenes_catalogue is not None:
            from alfred_gen.scenes.alfred.catalogue_store import use_catalogue

            use_catalogue(scenes_catalogue)
        if simulator is None:
            from alfred_gen.scenes.library import simulator as library_simulator

            simulator = library_simulator(backend, backend_options)
        self.mode = mode
        self.simulator = simulator
        self.rgb, self.depth, self.segmentation = rgb, depth, segmentation
        self.max_steps, self.max_fails = max_steps, max_fails
        self.render_mode = render_mode
        self.episodes: list[Episode] = []
        if isinstance(trajectories, (str, os.PathLike)):
            self.episodes = episodes_from(trajectories, split=split, data_root=data_root)
        elif trajectories is not None:
            self.episodes = [e for t in trajectories for e in episodes_from(t)]
        self.observation_space = self._observation_space()
        self.action_space = self._action_space()
        self.controller: Controller | None = None
        self.traj: dict[str, Any] | None = None
        self.episode: Episode | None = None
        self._event: Any = None

    # --- spaces ----------------------------------------------------------------------------------
    def _observation_space(self) -> spaces.Dict:
        fields: dict[str, spaces.Space] = {}
        if self.rgb:
            fields["rgb"] = spaces.Box(0, 255, (FRAME, FRAME, 3), np.uint8)
        if self.depth:
            fields["depth"] = spaces.Box(0.0, MAX_DEPTH, (FRAME, FRAME), np.float32)
        if self.segmentation:
            fields["segmentation"] = spaces.Box(0, 255, (FRAME, FRAME, 3), np.uint8)
        fields["goal"] = _text_space(MAX_TEXT)
        fields["instructions"] = _text_space(MAX_TEXT)
        if self.mode == "high_level":
            fields["high_idx"] = spaces.Discrete(MAX_STEPS + 1)
        return spaces.Dict(fields)

    def _action_space(self) -> spaces.Dict:
        if self.mode == "mask":
            return spaces.Dict({"action": spaces.Discrete(len(LOW_ACTIONS)),
                                "mask": spaces.MultiBinary([FRAME, FRAME])})
        if self.mode == "object_id":
            return spaces.Dict({"action": spaces.Discrete(len(LOW_ACTIONS)), "object_id": _text_space(MAX_ARG)})
        return spaces.Dict({"action": spaces.Discrete(len(HIGH_ACTIONS)), "object_id": _text_space(MAX_ARG),
                            "receptacle_id": _text_space(MAX_ARG), "location": _text_space(MAX_ARG)})

    # --- episodes --------------------------------------------------------------------------------
    def _open(self) -> Controller:
        if self.controller is None:
            self.controller = self.simulator.open(
                render=self.rgb, depth=self.depth, segmentation=self.segmentation or self.mode == "mask")
        return self.controller

    def _choose(self, options: Mapping[str, Any]) -> tuple[Episode, dict[str, Any]]:
        from alfred_gen.traj.format import first_problem, load_trajectory

        chosen = options.get("trajectory")
        if chosen is None:
            if not self.episodes:
                raise UserError("no trajectories: give some to the environment or options={'trajectory': ...}",
                                ExitCode.USAGE)
            if "episode" in options:
                episode = self.episodes[int(options["episode"]) % len(self.episodes)]
            else:
                episode = self.episodes[int(self.np_random.integers(len(self.episodes)))]
            if "annotation" in options:
                episode = Episode(episode.path, int(options["annotation"]), episode.split)
            return episode, load_trajectory(episode.path)
        repeat_idx = int(options.get("annotation", 0))
        if isinstance(chosen, Episode):
            return chosen, load_trajectory(chosen.path)
        if isinstance(chosen, Mapping):
            problem = first_problem(chosen)
            if problem is not None:
                raise UserError(f"trajectory: {problem.json_path}: {problem.message}", ExitCode.BAD_INPUT)
            return Episode(str(chosen.get("task_id", "<dict>")), repeat_idx), dict(chosen)
        path = Path(chosen)
        if path.is_dir():
            path = path / "traj_data.json"
        return Episode(str(path), repeat_idx), load_trajectory(path)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Restore an episode's start state: ``options["trajectory"]`` (a path, a trajectory dict
        or an :class:`~alfred_gen.env.episodes.Episode`) with ``options["annotation"]``, or
        ``options["episode"]`` (an index into the environment's episodes), else one drawn with the
        seed. Raises UserError when the file is bad or its start state cannot be rebuilt."""
        super().reset(seed=seed)
        episode, traj = self._choose(options or {})
        self.episode, self.traj = episode, traj
        self.goal, self.steps_text = language(traj, episode.repeat_idx)
        self.task = task_from_trajectory(traj)
        self.goal_spec = with_threshold(trajectory_goal(traj), self.within)
        controller = self._open()
        start = restore_trajectory(controller, traj)
        self.start_metadata = start.metadata
        self.tracker = EffectTracker(start.metadata)
        self.steps = 0
        self.fails = 0
        self.high_idx = 0
        self.expander = None
        if self.mode == "high_level":
            from alfred_gen.demo.expand import Expander
            from alfred_gen.demo.navigation import NavigationGraph
            from alfred_gen.demo.start import reachable_points

            self.expander = Expander(NavigationGraph(reachable_points(controller)), start.metadata)
        self._event = controller.last_event if controller.last_event is not None else start
        self.status = self._status()
        info = self._info(True, "", "")
        low = (traj.get("plan") or {}).get("low_actions") or []
        info.update(task_id=str(traj.get("task_id", "")), task_type=str(traj.get("task_type", "")),
                    repeat_idx=episode.repeat_idx, path=episode.path, split=episode.split,
                    expert_length=len(low))
        return self._observation(), info

    # --- stepping --------------------------------------------------------------------------------
    def _status(self) -> GoalStatus:
        return trajectory_goal_status(self.goal_spec, self.task, self._event.metadata,
                                      start_metadata=self.start_metadata, effects=self.tracker.effects())

    def _send(self, api_action: dict[str, Any]) -> tuple[bool, str]:
        assert self.controller is not None
        event = self.controller.step(api_action)
        self._event = event
        if self.rgb:  # the frame the observation shows, drawn first: the metadata's visibility then
            _ = event.frame  # counts its pixels instead of drawing a frame of its own (lite)
        metadata = event.metadata
        success = bool(metadata.get("lastActionSuccess", False))
        if success and "objectId" in api_action:
            self.tracker.observe(api_action, metadata)
        return success, "" if success else " ".join(str(metadata.get("errorMessage") or "failed").split())

    def _low_step(self, name: str, action: Mapping[str, Any]) -> tuple[bool, str, str]:
        """(success, errorMessage, target) of one low-level action (a step)."""
        target = ""
        if name in INTERACTIONS:
            if self.mode == "mask":
                mask = action.get("mask")
                if mask is None:
                    return False, "no mask for an interaction", ""
                try:
                    pixels = np.asarray(mask).astype(bool)
                except (TypeError, ValueError):
                    raise BadAction("a mask is an array of booleans or 0/1") from None
                if pixels.shape != (FRAME, FRAME):
                    raise BadAction(f"a mask is {FRAME}x{FRAME}, got shape {pixels.shape}")
                resolved = resolve_mask(pixels, self._event, name, self.mask_rule)
                if resolved is None:
                    return False, BAD_MASK, ""
                target = resolved
            else:
                target = action.get("object_id") or ""
                if not isinstance(target, str):
                    raise BadAction(f"object_id is a string, got {type(target).__name__}")
            if name == "SliceObject" and not holds_knife(self._event.metadata):
                return False, NO_KNIFE, target
        success, error = self._send(low_api_action(name, target))
        return success, error, target

    def _high_step(self, name: str, action: Mapping[str, Any]) -> tuple[bool, str, str]:
        """One high-level action: its low actions, each a step, until one fails."""
        from alfred_gen.demo.expand import ExpansionError
        from alfred_gen.env.high_level import expand_action

        assert self.expander is not None
        try:
            low = expand_action(self.expander, name, action, self._event.metadata, self.high_idx, self.controller)
        except ExpansionError as error:
            self.steps += 1
            return False, " ".join(str(error).split()), ""
        target = str(action.get("object_id") or action.get("receptacle_id") or "")
        if not low:
            self.steps += 1  # a walk to where the agent stands is still an action
        for entry in low:
            self.steps += 1
            success, message = self._send(dict(entry.api_action))
            if not success:
                return False, message, target
            if self.steps >= self.max_steps:
                break
        self.high_idx += 1
        return True, "", target

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.traj is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        fields = action if isinstance(action, Mapping) else {"action": action}
        vocabulary = HIGH_ACTIONS if self.mode == "high_level" else LOW_ACTIONS
        name = action_name(fields.get("action"), vocabulary)
        if name == "Stop":
            return self._observation(), 0.0, True, False, self._info(True, "", "")
        if self.mode == "high_level":
            success, error, target = self._high_step(name, fields)
        else:
            success, error, target = self._low_step(name, fields)
            self.steps += 1
        if not success:
            self.fails += 1
        before = self.status
        self.status = self._status()
        reward = _share(self.status) - _share(before)
        truncated = self.steps >= self.max_steps or self.fails >= self.max_fails
        return self._observation(), float(reward), False, truncated, self._info(success, error, target)

    # --- what the agent sees ---------------------------------------------------------------------
    def _observation(self) -> dict[str, Any]:
        event = self._event
        obs: dict[str, Any] = {}
        if self.rgb:
            obs["rgb"] = _image(getattr(event, "frame", None), (FRAME, FRAME, 3), np.uint8)
        if self.depth:
            obs["depth"] = np.clip(_image(getattr(event, "depth_frame", None), (FRAME, FRAME), np.float32),
                                   0.0, MAX_DEPTH)
        if self.segmentation:
            obs["segmentation"] = _image(getattr(event, "instance_segmentation_frame", None), (FRAME, FRAME, 3),
                                         np.uint8)
        obs["goal"] = clean_text(self.goal)
        obs["instructions"] = clean_text("\n".join(self.steps_text))
        if self.mode == "high_level":
            obs["high_idx"] = min(self.high_idx, MAX_STEPS)
        return obs

    def _info(self, success: bool, error: str, target: str) -> dict[str, Any]:
        status = self.status
        return {
            "goal_conditions_met": status.satisfied,
            "goal_conditions_total": status.total,
            "goal_condition_success": _share(status),
            "success": bool(status.done),
            "steps": self.steps,
            "failed_actions": self.fails,
            "last_action_success": bool(success),
            "errorMessage": error,
            "target": target,
            "goal_distance": self._goal_distance(),
        }

    def _goal_distance(self) -> float | None:
        """Metres from the agent to a derived task's destination (None without one)."""
        position = self.goal_spec.position
        if position is None or self._event is None:
            return None
        return float(position.distance(self._event.metadata))

    @property
    def last_event(self) -> Any:
        """The simulator's Event of the current state (metadata, images)."""
        return self._event

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array" and self._event is not None:
            return _image(getattr(self._event, "frame", None), (FRAME, FRAME, 3), np.uint8)
        return None

    def close(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
        super().close()


def with_threshold(goal: TrajectoryGoal, within: float | None) -> TrajectoryGoal:
    """``goal`` with its destination's success distance set to ``within`` metres (ALFRED-L's
    threshold, 1.25 m in the paper, stored in each derived file's goal block); unchanged when
    ``within`` is None or the goal has no destination."""
    if within is None or goal.position is None:
        return goal
    return dataclasses.replace(goal, position=dataclasses.replace(goal.position, within=float(within)))


def _share(status: GoalStatus) -> float:
    return status.satisfied / status.total if status.total else 0.0


def _image(array: Any, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """A copy of an Event image (the simulator's arrays are shared and read-only), or zeros."""
    if array is None:
        return np.zeros(shape, dtype)
    image = np.array(array, dtype=dtype, copy=True)
    if image.shape != shape:
        raise UserError(f"the simulator renders {image.shape} frames; the environment needs {shape}",
                        ExitCode.USAGE)
    return image
