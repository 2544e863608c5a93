"""``alfred-gen derive``: derived trajectories from sources, recorded, vetted and written atomically.

For each source trajectory (ours, or a released ALFRED one in rooms imported with ``scenes
import-alfred``):

1. load it (schema-checked) and replay it from scratch with its own goal check: a source that does
   not replay here is skipped (``source_does_not_replay``), since nothing derived from it could be
   trusted; the replay also gives the agent's pose after every low action (the destinations);
2. make the variant's plan (:mod:`.variants`), or skip the source with the reason the variant does
   not apply (no walk, no earlier destination farther than the threshold, ...);
3. record the plan from the source's start state in a simulator that renders frames: the frames and
   the interaction masks are new, the walks back of ``--reverse shortest`` are planned here;
4. check the goal where the recording ends (REV: a source goal that no longer holds after the walk
   back, a lamp now out of view, is ``goal_lost``), build the trajectory with its ``goal`` and
   ``derived_from`` blocks, write it into a hidden temporary directory, vet the written file by a
   replay from scratch, and only then rename the directory into ALFRED's layout.

Output: ``<out>/<task dir>/<task_id>/`` as the source's (the task id is kept, so that a derived
trajectory pairs with its source; put each variant in its own ``--out``, like ALFRED's splits).
A killed run leaves no partial trajectory, and running the command again skips what exists.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.atomic import AlreadyCommitted, committing_dir
from alfred_gen.demo.expand import end_entry
from alfred_gen.demo.generate import backend_of
from alfred_gen.demo.navigation import NavigationError, NavigationGraph
from alfred_gen.demo.start import StartStateError, reachable_points
from alfred_gen.derive.outcomes import DeriveReason
from alfred_gen.derive.source import Pose
from alfred_gen.derive.variants import (
    DEFAULT_N_BACK,
    DEFAULT_THRESHOLD,
    REVERSE_MODES,
    DerivedPlan,
    MisalignedAnnotation,
    NotApplicable,
    Variant,
    derived_language,
    nav_only,
    walk_back,
)
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.errors import ExitCode, UserError, exit_code_of
from alfred_gen.parallel import run_unordered
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.progress import progress, shown_path
from alfred_gen.replay.goals import (
    EffectTracker,
    GoalStatus,
    PositionGoal,
    TrajectoryGoal,
    goal_block,
    task_from_trajectory,
    trajectory_goal_status,
)
from alfred_gen.replay.record import LowAction, MaskSource, Recorder, RecordingError, on_demand_masks
from alfred_gen.replay.restore import RestoreError, completed_from_file, restore_trajectory
from alfred_gen.replay.verify import find_trajectories
from alfred_gen.replay.vet import TrialRejected, vet_trajectory, write_vetted_trial
from alfred_gen.scenes.alfred.complete import COMPLETED_OBJECTS_KEY
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.format import (
    RAW_IMAGES_DIR,
    load_trajectory,
    make_trajectory,
    trajectory_dir_name_for,
)

#: Source keys a derived trajectory replaces; every other key of the source is carried over.
REPLACED_KEYS = frozenset({"plan", "images", "template", "turk_annotations", "goal", "derived_from", "generator"})

#: Task ids usable as a directory name (ALFRED's ``trial_T...`` and ours).
_SAFE_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class DeriveOptions:
    """One variant and its settings (``--reverse``, ``--threshold``, ``--n-back``)."""

    variant: Variant
    reverse: str = "replay"
    threshold: float = DEFAULT_THRESHOLD
    n_back: int = DEFAULT_N_BACK

    def __post_init__(self) -> None:
        if self.reverse not in REVERSE_MODES:
            raise UserError(f"--reverse must be one of {', '.join(REVERSE_MODES)}", ExitCode.USAGE)
        if not self.threshold > 0:
            raise UserError(f"--threshold must be a positive distance in metres, got {self.threshold:g}",
                            ExitCode.USAGE)
        if self.variant == Variant.REV_N and self.n_back < 2:
            raise UserError(f"--n-back must be at least 2 for rev-n, got {self.n_back}", ExitCode.USAGE)

    @property
    def walks_back(self) -> int:
        return {Variant.NAV_ONLY: 0, Variant.REV_1: 1, Variant.REV_N: self.n_back}[self.variant]


@dataclass(frozen=True)
class DeriveResult:
    """What became of one source: the reason, the derived directory when written, one line why not."""

    reason: DeriveReason
    path: Path | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.reason == DeriveReason.OK


class _Skip(Exception):
    def __init__(self, reason: DeriveReason, detail: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = " ".join(detail.split())


@dataclass
class Controllers:
    """A process's simulators: one rendering frames (recording), one without (replays; THOR
    uses the same one for both, a second Unity process being costly)."""

    simulator: Simulator
    _render: Controller | None = None
    _replay: Controller | None = None

    def render(self) -> Controller:
        if self._render is None:
            self._render = self.simulator.open(render=True, segmentation=self.simulator.backend != "lite")
        return self._render

    def replay(self) -> Controller:
        if self.simulator.backend != "lite":
            return self.render()
        if self._replay is None:
            self._replay = self.simulator.open()
        return self._replay


# --------------------------------------------------------------------------------------------
# One source


def _plan(traj: Mapping[str, Any], poses: Sequence[Pose], options: DeriveOptions) -> DerivedPlan:
    if options.variant == Variant.NAV_ONLY:
        return nav_only(traj)
    return walk_back(traj, poses, options.walks_back, threshold=options.threshold, reverse=options.reverse,
                     variant=options.variant)


@dataclass
class Recording:
    """The recorded derived plan: ALFRED's plan and images, the final pose, the goal's status."""

    high_pddl: list[dict[str, Any]]
    low_actions: list[dict[str, Any]]
    images: list[dict[str, Any]]
    goal: TrajectoryGoal
    status: GoalStatus
    position_reached: bool  # the final position is within the threshold of the target


def record_plan(
    controller: Controller,
    traj: Mapping[str, Any],
    plan: DerivedPlan,
    task: TaskSpec,
    threshold: float,
    image_dir: Path | None,
    masks: MaskSource | None = None,
) -> Recording:
    """Record ``plan`` from the source's start state on ``controller`` (frames into ``image_dir``).

    Raises _Skip: ``action_failed`` / ``mask_missing`` when the simulator refuses an action or an
    interaction target is not in the frame, ``unreachable`` when no walk leads to a destination.
    """
    try:
        start = restore_trajectory(controller, traj)
    except RestoreError as error:
        raise _Skip(DeriveReason.SOURCE_DOES_NOT_REPLAY, str(error)) from None
    recorder = Recorder(controller, start, image_dir, masks=masks or on_demand_masks(controller))
    tracker = EffectTracker(start.metadata)
    graph: NavigationGraph | None = None
    high_pddl: list[dict[str, Any]] = []
    for high_idx, subgoal in enumerate(plan.subgoals):
        actions = subgoal.actions
        if actions is None:  # a shortest walk back, planned in the state the agent is in now
            assert subgoal.target is not None
            try:
                graph = graph or NavigationGraph(reachable_points(controller))
                moves = graph.path(agent_pose_of(recorder.metadata), subgoal.target.pose)
            except (NavigationError, StartStateError) as error:
                raise _Skip(DeriveReason.UNREACHABLE, f"walk back to {subgoal.target.args}: {error}") from None
            actions = [LowAction(high_idx, move.api_action, move.discrete) for move in moves]
        for action in actions:
            try:
                event = recorder.step(dataclasses.replace(action, high_idx=high_idx))
            except RecordingError as error:
                raise _Skip(DeriveReason(error.reason.value), str(error)) from None
            if "objectId" in action.api_action or "receptacleObjectId" in action.api_action:
                tracker.observe(action.api_action, event.metadata)
        high = {**subgoal.high, "high_idx": high_idx}
        if subgoal.is_new:
            location = alfred_location(location_name(agent_pose_of(recorder.metadata)))
            high["planner_action"] = {**subgoal.high["planner_action"], "location": location}
        high_pddl.append(high)
    high_pddl.append(end_entry(len(high_pddl)))
    if plan.targets:
        target = plan.targets[-1].pose
        position = PositionGoal(target[0], target[1], threshold)
    else:
        final = agent_pose_of(recorder.metadata)
        position = PositionGoal(final[0], final[1], threshold)
    goal = TrajectoryGoal(plan.task_conditions, position)
    status = trajectory_goal_status(goal, task, recorder.metadata, start_metadata=start.metadata,
                                    effects=tracker.effects())
    return Recording(high_pddl, recorder.low_actions, recorder.images(), goal, status,
                     position.holds(recorder.metadata))


def _derived_from(traj: Mapping[str, Any], plan: DerivedPlan, options: DeriveOptions) -> dict[str, Any]:
    block: dict[str, Any] = {
        "task_id": traj["task_id"],
        "task_dir": trajectory_dir_name_for(traj),
        "variant": str(plan.variant),
        "threshold": options.threshold,
        "source_high_idx": [sub.source_high_idx for sub in plan.subgoals],
    }
    if plan.targets:
        block["reverse"] = plan.reverse
        block["destinations"] = [target.high_idx for target in plan.targets]
    if plan.n_back:
        block["n_back"] = plan.n_back
    if "generator" in traj:
        block["source_generator"] = traj["generator"]
    return block


def _source_poses(traj: Mapping[str, Any], controllers: Controllers) -> list[Pose]:
    """Replay the source with its own goal check; the agent's pose after every low action."""
    poses: dict[int, Pose] = {}

    def seen(low_idx: int, api_action: Mapping[str, Any], event: Any) -> None:
        poses[low_idx] = agent_pose_of(event.metadata)

    verdict = vet_trajectory(traj, controller_factory=controllers.replay, check_schema=False, on_step=seen)
    if not verdict.ok:
        raise _Skip(DeriveReason.SOURCE_DOES_NOT_REPLAY, verdict.describe())
    return [poses[i] for i in range(len(traj["plan"]["low_actions"]))]


def _load(path: Path) -> dict[str, Any]:
    try:
        traj = load_trajectory(path)
    except UserError as error:
        raise _Skip(DeriveReason.BAD_SOURCE, str(error)) from None
    if "derived_from" in traj:
        raise _Skip(DeriveReason.BAD_SOURCE, f"already derived ({traj['derived_from'].get('variant')}): "
                                             "derive from the original")
    if not _SAFE_ID.match(str(traj["task_id"])):
        raise _Skip(DeriveReason.BAD_SOURCE, f"task_id {traj['task_id']!r} cannot name a directory")
    return traj


def derive_one(
    path: str | Path, out_root: str | Path, options: DeriveOptions, controllers: Controllers
) -> DeriveResult:
    """Derive ``options.variant`` from the source at ``path`` into ``out_root`` (see the module
    docstring); never raises on bad data, only a UserError saying no simulator can run here."""
    out_root = Path(out_root)
    try:
        traj = _load(Path(path))
        try:
            task_dir = trajectory_dir_name_for(traj)
            task = task_from_trajectory(traj)
        except (ValueError, UserError) as error:
            raise _Skip(DeriveReason.BAD_SOURCE, str(error)) from None
        final_dir = out_root / task_dir / str(traj["task_id"])
        if final_dir.exists():
            return DeriveResult(DeriveReason.EXISTS, final_dir, f"{final_dir} already exists")
        poses = _source_poses(traj, controllers)
        try:
            plan = _plan(traj, poses, options)
        except NotApplicable as why:
            raise _Skip(why.reason, why.detail) from None
        try:
            template, annotations = derived_language(traj, plan, task)
        except MisalignedAnnotation as error:
            raise _Skip(DeriveReason.BAD_SOURCE, str(error)) from None
        with committing_dir(final_dir) as temp_dir:
            _record_and_write(traj, plan, task, template, annotations, options, controllers, temp_dir)
        return DeriveResult(DeriveReason.OK, final_dir)
    except AlreadyCommitted:
        return DeriveResult(DeriveReason.EXISTS, None, f"{final_dir} already exists")
    except _Skip as skip:
        return DeriveResult(skip.reason, None, skip.detail)


def _record_and_write(traj: Mapping[str, Any], plan: DerivedPlan, task: TaskSpec, template: dict, annotations: dict,
                      options: DeriveOptions, controllers: Controllers, temp_dir: Path) -> None:
    """Record the derived plan into ``temp_dir``, write its file and vet it (_Skip saying why not)."""
    controller = controllers.render()
    recording = record_plan(controller, traj, plan, task, options.threshold, temp_dir / RAW_IMAGES_DIR)
    if not recording.status.done:
        if plan.task_conditions and recording.position_reached:
            raise _Skip(DeriveReason.GOAL_LOST, f"after the walk back: {recording.status.describe()}")
        raise _Skip(DeriveReason.VET_FAILED, f"while recording: {recording.status.describe()}")
    base = {key: value for key, value in traj.items() if key not in REPLACED_KEYS}
    completed = completed_from_file(controller, traj)
    if completed:  # the room was completed from the source: say so, and complete it alike on replay
        base[COMPLETED_OBJECTS_KEY] = sorted({*base.get(COMPLETED_OBJECTS_KEY, ()), *completed})
    derived = make_trajectory(
        base=base, backend=backend_of(controller), high_pddl=recording.high_pddl,
        low_actions=recording.low_actions, images=recording.images, template=template,
        derived_from=_derived_from(traj, plan, options), turk_annotations=annotations,
        goal=goal_block(recording.goal.task_conditions, recording.goal.position),
    )
    try:
        write_vetted_trial(derived, temp_dir, controller_factory=controllers.replay)
    except TrialRejected as rejected:
        raise _Skip(DeriveReason.INVALID if rejected.invalid else DeriveReason.VET_FAILED, rejected.detail) from None


# --------------------------------------------------------------------------------------------
# Many sources, in worker processes

_worker: dict[str, Any] = {}


def _init_worker(simulator: Simulator, out_root: str, options: DeriveOptions) -> None:
    _worker.clear()
    _worker.update(controllers=Controllers(simulator), out_root=out_root, options=options)


def _derive_indexed(job: tuple[int, str]) -> tuple[int, DeriveResult | tuple[str, int]]:
    """(index, result); a UserError from the environment comes back as (message, code)."""
    index, path = job
    try:
        return index, derive_one(path, _worker["out_root"], _worker["options"], _worker["controllers"])
    except UserError as error:
        return index, (str(error), int(error.code))


def _results(paths: list[Path], jobs: int, simulator: Simulator, out_root: Path,
             options: DeriveOptions) -> Iterator[tuple[int, Any]]:
    work = [(i, str(p)) for i, p in enumerate(paths)]
    return run_unordered(_derive_indexed, work, jobs, _init_worker, (simulator, str(out_root), options))


def find_sources(sources: Sequence[str | Path], out_root: str | Path) -> list[Path]:
    """Every traj_data.json under ``sources`` (files or directories), sorted, without duplicates
    and without anything under ``out_root`` or a hidden directory (unfinished work).
    UserError(NOT_FOUND) if a source does not exist or none holds a trajectory."""
    out = Path(out_root).resolve()
    found: dict[Path, Path] = {}
    for source in sources:
        for path in find_trajectories(source):
            resolved = path.resolve()
            below = path.relative_to(source).parts[:-1] if Path(source).is_dir() else ()
            if resolved.is_relative_to(out) or any(part.startswith(".") for part in below):
                continue
            found.setdefault(resolved, path)
    if not found:
        raise UserError("no source trajectory outside the output directory", ExitCode.NOT_FOUND)
    return [found[key] for key in sorted(found)]


def summary_line(results: Sequence[DeriveResult], seconds: float | None = None) -> str:
    """``derived 12, skipped 3: no_earlier_destination 2, source_does_not_replay 1 (in 9.1 s)``."""
    counts = Counter(result.reason for result in results)
    made = counts.pop(DeriveReason.OK, 0)
    order = {reason: i for i, reason in enumerate(DeriveReason)}
    text = f"derived {made}, skipped {sum(counts.values())}"
    if counts:
        text += ": " + ", ".join(f"{reason} {counts[reason]}" for reason in sorted(counts, key=order.__getitem__))
    if seconds is not None:
        text += f" (in {seconds:.1f} s)"
    return text


def derive_command(
    variant: str,
    sources: Sequence[str],
    out: str,
    *,
    simulator: Simulator,
    reverse: str = "replay",
    threshold: float = DEFAULT_THRESHOLD,
    n_back: int = DEFAULT_N_BACK,
    jobs: int = 1,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen derive``: derive ``variant`` from every source; one line per skipped source,
    then the summary. Exit code OK when every source was derived or the variant does not apply to
    it (no walk, no earlier destination, ...), FAILED when a source failed otherwise."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    try:
        chosen = Variant(variant)
    except ValueError:
        raise UserError(f"unknown variant {variant!r} (one of {', '.join(v.value for v in Variant)})",
                        ExitCode.USAGE) from None
    options = DeriveOptions(chosen, reverse, float(threshold), int(n_back))
    out_root = Path(out)
    if out_root.exists() and not out_root.is_dir():
        raise UserError(f"{out}: exists and is not a directory", ExitCode.BAD_INPUT)
    paths = find_sources(sources, out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    results: list[DeriveResult | None] = [None] * len(paths)
    began = time.monotonic()
    with progress(f"deriving {chosen}", len(paths), show=show_progress) as bar:
        for index, result in _results(paths, jobs, simulator, out_root, options):
            if isinstance(result, tuple):  # the simulator cannot run here: stop, one line
                message, code = result
                raise UserError(message, ExitCode(code))
            results[index] = result
            bar.update(1)
    done = [result for result in results if result is not None]
    for path, result in zip(paths, results):
        if result is not None and not result.ok:
            echo(f"{shown_path(path)}: {result.reason}: {result.detail}")
    echo(summary_line(done, time.monotonic() - began))
    failed = any(exit_code_of(result.reason) != ExitCode.OK for result in done)
    return ExitCode.FAILED if failed else ExitCode.OK
