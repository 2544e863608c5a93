"""``alfred-gen eqa paths DIR``: the expert's trajectory for every accepted single-target question.

For each accepted question of EQA v1's templates (location, color, color_room, preposition) in
``DIR/questions.json``, with its home's facts from ``DIR/facts/``:

1. the goal pose: the target's best view (:mod:`.views`, the pose showing most of its pixels);
2. the spawn: a reachable point at least ``--min-spawn-distance`` metres from the goal along the
   grid, chosen by the question's hash (:func:`~alfred_gen.eqa.geodesic.choose_spawn`), any of
   the four headings, camera at ALFRED's start horizon;
3. the path: a shortest one by breadth-first search over (grid cell, heading) with MoveAhead,
   RotateLeft and RotateRight (:class:`~alfred_gen.demo.navigation.NavigationGraph`), then the
   camera tilts to the goal's horizon; the expert stops there (ALFRED's closing NoOp step, whose
   frame is the last image);
4. recorded on the simulator from a start state restored from the trajectory's own scene block
   (the home as built, lite's per-instance colours on: ``color_variation``), checked to end with
   at least :data:`~alfred_gen.eqa.views.MIN_VIEW_PIXELS` of the target in view;
5. written in ALFRED's format with the question as the task description, a ``goal`` block (end at
   the goal's position, rotation and horizon: what ``verify`` and ``replay`` check) and an ``eqa``
   block: template, question, answer, program, target, entropy, split, the spawn, the
   T-10 / T-30 / T-50 starts (the low action index and pose 10, 30 and 50 actions before the end;
   null when the path is shorter), and the geodesic distance to the goal from every reachable
   point (for d_T, d_Δ and d_min);
6. vetted by a replay of the written file from scratch, and only then (frames, and depth and
   segmentation when asked for, rendered by that replay) renamed into
   ``<out>/eqa_<template>-<TargetType>-None-None-<scene_num>/<trial id>/``.

A killed run leaves no partial trajectory; running again skips what exists.
"""

from __future__ import annotations

import datetime as _dt
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import AlreadyCommitted, committing_dir
from alfred_gen.demo.expand import end_entry
from alfred_gen.demo.generate import backend_of
from alfred_gen.demo.navigation import NavigationError, NavigationGraph, apply
from alfred_gen.demo.start import START_HORIZON, object_poses_of
from alfred_gen.eqa.facts import FactsError, HomeFacts, open_home
from alfred_gen.eqa.geodesic import MIN_SPAWN_DISTANCE, choose_spawn, distance_field
from alfred_gen.eqa.homes import read_facts
from alfred_gen.eqa.outcomes import EqaPathReason
from alfred_gen.eqa.programs import SINGLE_TARGET
from alfred_gen.eqa.questions import load_questions
from alfred_gen.eqa.splits import SPLITS
from alfred_gen.eqa.views import MIN_VIEW_PIXELS, View
from alfred_gen.errors import ExitCode, UserError, exit_code_of
from alfred_gen.parallel import run_unordered
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.progress import progress
from alfred_gen.replay.goals import PositionGoal, ViewGoal, goal_block
from alfred_gen.replay.record import LowAction, Recorder, RecordingError
from alfred_gen.replay.rerender import replay_to_directory
from alfred_gen.replay.restore import COLOR_VARIATION_KEY, RestoreError, restore_scene
from alfred_gen.replay.vet import TrialRejected, write_vetted_trial
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.sim.scene import GRID_SIZE, hash_str
from alfred_gen.traj.format import (
    make_trajectory,
    trajectory_dir_name,
)
from alfred_gen.traj.scene_nums import scene_num_for

#: Where the trajectories go inside DIR unless ``--out`` says otherwise.
PATHS_DIR = "paths"

#: EQA's evaluation starts the agent this many actions before the end of the expert's path.
SPAWN_OFFSETS = (10, 30, 50)

#: The trajectory's task_type: ``eqa_<template>``.
TASK_PREFIX = "eqa_"


@dataclass(frozen=True)
class PathOptions:
    """What ``eqa paths`` writes: frames, depth, segmentation, how far the spawn is, and for which
    splits' questions (a dataset's test split can be made first, or alone)."""

    frames: bool = True
    depth: bool = False
    seg: bool = False
    min_spawn_distance: float = MIN_SPAWN_DISTANCE
    splits: tuple[str, ...] = SPLITS

    def __post_init__(self) -> None:
        unknown = sorted(set(self.splits) - set(SPLITS))
        if unknown or not self.splits:
            raise UserError(f"--split must name splits among {', '.join(SPLITS)}, got {', '.join(self.splits)}",
                            ExitCode.USAGE)
        if not self.min_spawn_distance >= 0:
            raise UserError(f"--min-spawn-distance must be at least 0 metres, got {self.min_spawn_distance:g}",
                            ExitCode.USAGE)
        if (self.depth or self.seg) and not self.frames:
            raise UserError("--depth and --seg come with frames: drop --no-frames", ExitCode.USAGE)


def parse_splits(text: str | None) -> tuple[str, ...]:
    """``--split``: comma-separated split names (all three when empty; PathOptions checks them)."""
    names = [p.strip() for p in (text or "").split(",") if p.strip()]
    return tuple(dict.fromkeys(names)) if names else SPLITS


@dataclass(frozen=True)
class PathResult:
    """What became of one question: the reason, the directory when written, one line why not, and
    (when made) the path's length in actions and the spawn's geodesic distance."""

    reason: EqaPathReason
    path: Path | None = None
    detail: str = ""
    actions: int = 0
    geodesic: float = 0.0

    @property
    def ok(self) -> bool:
        return self.reason == EqaPathReason.OK


class _Skip(Exception):
    def __init__(self, reason: EqaPathReason, detail: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = " ".join(detail.split())


_EPOCH = _dt.datetime(2000, 1, 1)


def trial_id_of(question_id: str) -> str:
    """ALFRED's ``trial_T<date>_<time>_<microseconds>`` shape, from the question's stable hash (the
    same question always gets the same directory; the digits say nothing about when)."""
    value = hash_str(f"alfred-gen eqa trial {question_id}")
    moment = _EPOCH + _dt.timedelta(days=value % 7305, seconds=(value >> 16) % 86400,  # 2000-2019: never ahead
                                    microseconds=(value >> 40) % 1_000_000)
    return "trial_T" + moment.strftime("%Y%m%d_%H%M%S_%f")


def recorded_scene_num(facts: HomeFacts) -> int:
    """The ``scene_num`` a path of this home records (:mod:`alfred_gen.traj.scene_nums`)."""
    number = scene_num_for(facts.scene)
    return facts.scene_num if number is None else number


def question_key(question: Mapping[str, Any]) -> str:
    return f"{question['home']}|{question['template']}|{question['question']}"


def task_dir_of(question: Mapping[str, Any], scene_num: int) -> str:
    """``eqa_<template>-<TargetType>-None-None-<scene_num>`` (ALFRED's layout; no receptacle)."""
    target = question["targets"][0]
    return trajectory_dir_name(TASK_PREFIX + question["template"], target["objectType"], None, "None", scene_num)


@dataclass
class Controllers:
    """A worker's simulators: one without frames (record, vet), one rendering (frames)."""

    simulator: Simulator
    options: PathOptions
    _plain: Controller | None = None
    _render: Controller | None = None

    def plain(self) -> Controller:
        if self.simulator.backend != "lite":
            return self.render()
        if self._plain is None:
            self._plain = self.simulator.open()
        return self._plain

    def render(self) -> Controller:
        if self._render is None:
            self._render = self.simulator.open(render=True, depth=self.options.depth,
                                               segmentation=self.options.seg or self.simulator.backend != "lite")
        return self._render

    _home: str | None = None
    _home_parts: tuple[NavigationGraph, list[dict[str, Any]]] | None = None

    def home(self, facts: HomeFacts) -> tuple[NavigationGraph, list[dict[str, Any]]]:
        """The home's navigation graph and its objects' initial poses, kept for the home at hand:
        questions come grouped by home, and building both costs more than a path's search."""
        if self._home != facts.scene or self._home_parts is None:
            try:
                event = open_home(self.plain(), facts.scene, color_variation=facts.color_variation)
            except FactsError as error:
                raise _Skip(EqaPathReason.ACTION_FAILED, f"restoring the start: {error}") from None
            self._home_parts = (NavigationGraph(facts.reachable), pickupable_poses(event.metadata))
            self._home = facts.scene
        return self._home_parts


def pickupable_poses(metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The scene block's ``object_poses``: the pickupable objects only. SetObjectPoses removes the
    pickupable objects it is not given, so they must be listed; furniture that is merely moveable
    stays as the home was built when left out, and is left out because lite re-posing a piece of
    furniture with parts (a dresser and its drawers) draws it differently from the home as built,
    where the facts' best views and colours were taken (the target then showed 0 pixels)."""
    pickupable = {obj["name"] for obj in metadata.get("objects") or () if obj.get("pickupable")}
    return [pose for pose in object_poses_of(metadata) if pose["objectName"] in pickupable]


def _scene_block(facts: HomeFacts, object_poses: Sequence[Mapping[str, Any]],
                 spawn: tuple[float, float, int]) -> dict[str, Any]:
    x, z, rotation = spawn
    block: dict[str, Any] = {
        "dirty_and_empty": False,
        "floor_plan": facts.scene,
        "init_action": {"action": "TeleportFull", "horizon": START_HORIZON, "rotateOnTeleport": True,
                        "rotation": rotation, "x": x, "y": facts.agent_y, "z": z},
        "object_poses": [dict(pose) for pose in object_poses],
        "object_toggles": [],
        "random_seed": 0,
        "scene_num": recorded_scene_num(facts),
    }
    if facts.color_variation:
        block[COLOR_VARIATION_KEY] = True
    return block


def _start_poses(spawn: tuple[float, float, int], low_actions: Sequence[Mapping[str, Any]]) -> list[list[float]]:
    """The agent's pose before each low action and after the last (navigation only)."""
    from alfred_gen.demo.navigation import NavAction

    pose: tuple[float, float, float, float] = (spawn[0], spawn[1], float(spawn[2]), float(START_HORIZON))
    poses = [list(pose)]
    for low in low_actions:
        pose = apply(pose, NavAction(dict(low["api_action"]), low["discrete_action"]["action"]))
        poses.append(list(pose))
    return poses


def spawn_points(spawn: tuple[float, float, int], low_actions: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """EQA's T-k starts: for k in :data:`SPAWN_OFFSETS`, the low action index k actions before the
    end and the agent's pose there; None when the path is shorter than k actions."""
    poses = _start_poses(spawn, low_actions)
    total = len(low_actions)
    return {f"T-{k}": ({"low_idx": total - k, "pose": poses[total - k]} if total >= k else None)
            for k in SPAWN_OFFSETS}


def _target_pixels(controller: Controller, object_id: str) -> int | None:
    """Pixels of the target in the current frame (lite's renderer; None for another backend)."""
    pixels = getattr(controller, "pixels", None)
    if pixels is None or not hasattr(controller, "camera"):
        return None
    mask, _ = pixels.object_view(controller.world, controller.camera(), object_id)  # type: ignore[attr-defined]  # lite's controller, checked above
    return int(mask.sum())


def record_path(controllers: Controllers, facts: HomeFacts, question: Mapping[str, Any], view: View,
                spawn: tuple[float, float, int]) -> tuple[dict[str, Any], list[dict[str, Any]], Recorder, int | None]:
    """Restore the start (spawn) and walk the shortest path to ``view``; (scene block, high_pddl,
    recorder, target pixels at the end). Raises _Skip."""
    graph, object_poses = controllers.home(facts)
    controller = controllers.plain()
    try:
        block = _scene_block(facts, object_poses, spawn)
        start = restore_scene(controller, block)
    except RestoreError as error:
        raise _Skip(EqaPathReason.ACTION_FAILED, f"restoring the start: {error}") from None
    try:
        moves = graph.path([spawn[0], spawn[1], spawn[2], START_HORIZON], view.pose.to_list())
    except NavigationError as error:
        raise _Skip(EqaPathReason.NO_PATH, str(error)) from None
    recorder = Recorder(controller, start, None)
    for move in moves:
        try:
            recorder.step(LowAction(0, move.api_action, move.discrete))
        except RecordingError as error:
            raise _Skip(EqaPathReason.ACTION_FAILED, str(error)) from None
    target = question["targets"][0]
    pixels = _target_pixels(controller, target["objectId"])
    if pixels is not None and pixels < MIN_VIEW_PIXELS:
        raise _Skip(EqaPathReason.TARGET_NOT_SEEN, f"{pixels} pixels of {target['objectId']} in the last frame")
    high = [{
        "high_idx": 0,
        "planner_action": {"action": "GotoLocation", "location": alfred_location(location_name(view.pose.to_list()))},
        "discrete_action": {"action": "GotoLocation", "args": [target["word"]]},
    }, end_entry(1)]
    return block, high, recorder, pixels


def build_trajectory(question: Mapping[str, Any], answers: Mapping[str, int], facts: HomeFacts, view: View,
                     spawn: tuple[float, float, int, float], block: dict[str, Any], high: list[dict[str, Any]],
                     recorder: Recorder, pixels: int | None, backend: tuple[str, str]) -> dict[str, Any]:
    """The trajectory dict (module docstring, 5)."""
    target = question["targets"][0]
    low_actions = recorder.low_actions
    key = question_key(question)
    moves = sum(1 for low in low_actions if low["api_action"]["action"] == "MoveAhead")
    eqa = {
        "question_id": key,
        "template": question["template"],
        "question": question["question"],
        "answer": question["answer"],
        "answers": dict(answers),
        "program": list(question["program"]),
        "room": question.get("room"),
        "target": {k: target[k] for k in ("objectId", "objectType", "word", "room", "box")},
        "answer_ids": list(question.get("answer_ids", [])),
        "detail": dict(question.get("detail", {})),
        "entropy": question["entropy"],
        "homes": question["homes"],
        "split": question["split"],
        "view": view.to_dict(),
        "target_pixels": pixels,
        "spawn": {"pose": [spawn[0], spawn[1], spawn[2], START_HORIZON], "geodesic": spawn[3]},
        "spawns": spawn_points(spawn[:3], low_actions),
        "path": {"actions": len(low_actions), "moves": moves, "metres": round(moves * GRID_SIZE, 4)},
        "geodesic": {"step": GRID_SIZE, "to": [view.pose.x, view.pose.z],
                     "cells": distance_field(facts.reachable, (view.pose.x, view.pose.z))},
    }
    return make_trajectory(
        backend=backend, high_pddl=high, low_actions=low_actions, images=recorder.images(),
        template={"task_desc": question["question"], "high_descs": [f"Go to where you can see the {target['word']}."]},
        task_id=trial_id_of(key), task_type=TASK_PREFIX + question["template"], scene=block,
        pddl_params={"object_target": target["objectType"], "object_sliced": False, "parent_target": "",
                     "toggle_target": "", "mrecep_target": ""},
        goal=goal_block(False, PositionGoal(view.pose.x, view.pose.z, 0.0),
                        ViewGoal(float(view.pose.rotation), float(view.pose.horizon))),
        eqa=eqa,
    )


def make_path(question: Mapping[str, Any], answers: Mapping[str, int], facts: HomeFacts, out_root: Path,
              options: PathOptions, controllers: Controllers) -> PathResult:
    """One question's trajectory (module docstring); never raises on data, only a UserError saying
    no simulator can run here."""
    key = question_key(question)
    final_dir = out_root / task_dir_of(question, recorded_scene_num(facts)) / trial_id_of(key)
    if final_dir.exists():
        return PathResult(EqaPathReason.EXISTS, final_dir, f"{final_dir} already exists")
    try:
        target_id = question["targets"][0]["objectId"]
        try:
            view = facts.object(target_id).view
        except KeyError:
            view = None
        if view is None:
            raise _Skip(EqaPathReason.NO_VIEW, f"{target_id} has no best view in the facts")
        spawn = choose_spawn(key, facts.reachable, (view.pose.x, view.pose.z), options.min_spawn_distance)
        if spawn is None:
            raise _Skip(EqaPathReason.NO_FAR_SPAWN, f"no point {options.min_spawn_distance:g} m from the view")
        block, high, recorder, pixels = record_path(controllers, facts, question, view, spawn[:3])
        traj = build_trajectory(question, answers, facts, view, spawn, block, high, recorder, pixels,
                                backend_of(controllers.plain()))
        with committing_dir(final_dir) as temp_dir:
            try:
                written = write_vetted_trial(traj, temp_dir, controller_factory=controllers.plain)
            except TrialRejected as rejected:
                raise _Skip(EqaPathReason.INVALID if rejected.invalid else EqaPathReason.VET_FAILED,
                            rejected.detail) from None
            if options.frames:
                outcome = replay_to_directory(written, temp_dir, controllers.render(), depth=options.depth,
                                              seg=options.seg)
                if not outcome.ok:
                    raise _Skip(EqaPathReason.VET_FAILED, f"replay with frames: {outcome.goal.describe()}")
        return PathResult(EqaPathReason.OK, final_dir, "", len(recorder.low_actions), spawn[3])
    except AlreadyCommitted:
        return PathResult(EqaPathReason.EXISTS, final_dir, f"{final_dir} already exists")
    except _Skip as skip:
        return PathResult(skip.reason, None, f"{key}: {skip.detail}")


# --------------------------------------------------------------------------------------------
# The command

_worker: dict[str, Any] = {}


def _init_worker(simulator: Simulator, directory: str, out_root: str, options: PathOptions) -> None:
    _worker.clear()
    _worker.update(controllers=Controllers(simulator, options), directory=Path(directory), out=Path(out_root),
                   options=options, facts={})


def _facts(home: str) -> HomeFacts | None:
    cache: dict[str, HomeFacts | None] = _worker["facts"]
    if home not in cache:
        cache.clear()  # questions come grouped by home: keep one home's facts at a time
        cache[home] = read_facts(_worker["directory"], home)
    return cache[home]


def _path_job(job: tuple[int, dict[str, Any], dict[str, int]]) -> tuple[int, PathResult | tuple[str, int]]:
    index, question, answers = job
    try:
        facts = _facts(question["home"])
        if facts is None:
            return index, PathResult(EqaPathReason.NO_VIEW, None,
                                     f"{question_key(question)}: no facts for {question['home']} (run eqa questions)")
        return index, make_path(question, answers, facts, _worker["out"], _worker["options"], _worker["controllers"])
    except UserError as error:
        return index, (str(error), int(error.code))


def _results(jobs_list: list[tuple[int, dict[str, Any], dict[str, int]]], jobs: int, simulator: Simulator,
             directory: Path, out_root: Path, options: PathOptions) -> Iterator[tuple[int, Any]]:
    return run_unordered(_path_job, jobs_list, jobs, _init_worker,
                         (simulator, str(directory), str(out_root), options), chunksize=4)


@dataclass
class PathsSummary:
    """Counts of one ``eqa paths`` run."""

    results: list[PathResult] = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        counts = Counter(r.reason for r in self.results)
        made = counts.pop(EqaPathReason.OK, 0)
        text = f"made {made} trajectories, skipped {sum(counts.values())}"
        if counts:
            order = {reason: i for i, reason in enumerate(EqaPathReason)}
            text += ": " + ", ".join(f"{r} {counts[r]}" for r in sorted(counts, key=order.__getitem__))
        made_results = [r for r in self.results if r.ok]
        if made_results:
            actions = [r.actions for r in made_results]
            text += (f"; actions per path {sum(actions) / len(actions):.1f} ({min(actions)}-{max(actions)}), "
                     + ", ".join(f"T-{k} {sum(1 for a in actions if a >= k)}" for k in SPAWN_OFFSETS))
        return text + f" (in {self.seconds:.1f} s)"


def accepted_single_target(data: Mapping[str, Any],
                           splits: Sequence[str] = SPLITS) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """(question, its answer counts) of every accepted single-target question of ``splits``, by
    home then order."""
    table = data.get("answer_counts", {})
    chosen = [q for q in data["questions"] if q.get("accepted") and q["template"] in SINGLE_TARGET and q["targets"]
              and q.get("split") in splits]
    return [(q, dict(table.get(q["template"], {}).get(q["question"], {}))) for q in chosen]


def paths_command(directory: str, out: str | None = None, *, simulator: Simulator, options: PathOptions = PathOptions(),
                  jobs: int = 1, echo: Callable[[str], None] = print, show_progress: bool = True) -> ExitCode:
    """``alfred-gen eqa paths``: one trajectory per accepted single-target question of DIR; one line
    per question skipped for a failure, then the summary. Exit code FAILED when one failed."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    data = load_questions(directory)
    out_root = Path(out) if out else Path(directory) / PATHS_DIR
    if out_root.exists() and not out_root.is_dir():
        raise UserError(f"{out_root}: exists and is not a directory", ExitCode.BAD_INPUT)
    out_root.mkdir(parents=True, exist_ok=True)
    work = [(i, q, answers) for i, (q, answers) in enumerate(accepted_single_target(data, options.splits))]
    summary = PathsSummary()
    results: list[PathResult | None] = [None] * len(work)
    began = time.monotonic()
    with progress("eqa: paths", len(work), show=show_progress) as bar:
        for index, result in _results(work, jobs, simulator, Path(directory), out_root, options):
            if isinstance(result, tuple):
                message, code = result
                raise UserError(message, ExitCode(code))
            results[index] = result
            bar.update(1)
    summary.results = [r for r in results if r is not None]
    summary.seconds = time.monotonic() - began
    for result in summary.results:
        if exit_code_of(result.reason) != ExitCode.OK:
            echo(f"{result.reason}: {result.detail}")
    echo(summary.line())
    failed = any(exit_code_of(r.reason) != ExitCode.OK for r in summary.results)
    return ExitCode.FAILED if failed else ExitCode.OK
