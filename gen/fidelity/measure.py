"""How faithfully the embedded simulator replays ALFRED's released demonstrations, and how close our
planner's plans come to ALFRED's.

*Fidelity*: every released traj_data.json is restored from its ``scene`` block in the imported
THOR room and its ``low_actions`` are executed; a demo counts when every action succeeds and the
task's goal conditions hold at the end (:func:`alfred_gen.replay.vet.vet_trajectory`). ALFRED's own
replay in THOR reproduces about 99.8% of them.

*Plan agreement*: in the same start state, our planner solves the same task; its high-level plan
(discrete action + class arguments, ALFRED's ``high_pddl[*].discrete_action``) is compared with
ALFRED's, and its expansion into simulator actions with ALFRED's ``low_actions`` in length.

Which rooms a demo is replayed in (built from every demo, from the other folds, or from its room's
layout files alone) is :mod:`alfred_gen.fidelity.held_out`'s business; ``bench/alfred_fidelity.py``
prints the figures.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, GenerationReason, PlanStatus, UserError
from alfred_gen.scenes.alfred.importer import AlfredSources, find_sources
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.scene import Scene
from alfred_gen.traj.format import parse_trajectory_json

# --------------------------------------------------------------------------------------------
# Where the rooms come from


def find_checkout(json_dir: Path) -> AlfredSources | None:
    """The ALFRED checkout a json_2.1.0 directory belongs to (it or one of its parents holds layouts)."""
    for candidate in [json_dir, *json_dir.resolve().parents][:5]:
        try:
            return find_sources(candidate)
        except UserError:
            continue
    return None


def sources_for(files: Sequence[Path], alfred_dir: str | Path | None = None) -> AlfredSources:
    """The layouts to build rooms from (of ``alfred_dir``, or of the checkout holding ``files``),
    with ``files`` as the trajectories; UserError NOT_FOUND when there are none."""
    if alfred_dir is not None:
        sources = find_sources(alfred_dir)
    else:
        found = find_checkout(files[0].parent) if files else None
        if found is None:
            raise UserError("no ALFRED layouts found beside the trajectories: pass --alfred-dir DIR "
                            "(an ALFRED checkout)", ExitCode.NOT_FOUND)
        sources = found
    return AlfredSources(sources.root, sources.layouts, tuple(files))


# --------------------------------------------------------------------------------------------
# Fidelity


@dataclass
class ReplayOutcome:
    """One released trajectory replayed."""

    path: Path
    ok: bool
    reason: str
    action: str = ""  # the failing low action's name, if one failed
    error: str = ""
    actions: int = 0


def replay_one(traj: Mapping[str, Any], scene: Scene, path: Path, geometric: bool = False) -> ReplayOutcome:
    """Restore ``traj`` in ``scene`` and replay it (vet_trajectory on a fresh lite controller;
    ``geometric``: with lite's render-free visibility stand-in instead of its default)."""
    from alfred_gen.replay.vet import vet_trajectory
    from alfred_gen.sim.lite import LiteController
    from alfred_gen.sim.visibility import GeometricVisibility

    def factory() -> LiteController:
        options: dict[str, Any] = {"visibility": GeometricVisibility()} if geometric else {}
        return LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False), render_image=False, **options)

    result = vet_trajectory(traj, controller_factory=factory, check_schema=False)
    action = ""
    if result.failed_low_idx is not None:
        low = traj["plan"]["low_actions"][result.failed_low_idx]
        action = str((low.get("api_action") or {}).get("action", ""))
    return ReplayOutcome(path, result.ok, result.reason, action, result.error, len(traj["plan"]["low_actions"]))


def load(path: Path) -> dict[str, Any]:
    """A released traj_data.json; one without its ``images`` list (the train copy) gets an empty one,
    which replay does not need."""
    traj = parse_trajectory_json(path)
    if isinstance(traj, dict):
        traj.setdefault("images", [])
    return traj


#: Why a replay failed, from lite's error message (first match wins): (text in the message, cause).
_CAUSES = (
    ("not a reachable position", "the point is not on the room's floor"),
    ("blocked by an object", "an object stands on the point"),
    ("a wall is in the way", "a wall is in the way"),
    ("no object ", "the room lacks the object"),
    ("Object ID appears to be invalid", "the room lacks the object"),
    ("inside a closed receptacle", "the target is shut inside a receptacle"),
    ("is not interactable", "the target is beyond reach"),
    ("is not visible", "the target is not visible"),
    ("No valid positions to place object", "no free spot on the receptacle"),
    ("cannot be placed in/on", "the placement table refuses it"),
    ("is already", "the object is already in that state"),
)


def failure_cause(outcome: ReplayOutcome) -> str:
    """A short cause for a failed replay: what lite refused, or what went wrong instead."""
    if outcome.reason in ("action_failed", "unknown_object"):
        for text, cause in _CAUSES:
            if text in outcome.error:
                return cause
        return "other refusal: " + outcome.error.split(": ", 1)[-1][:60]
    if outcome.reason == "restore_failed":
        step = outcome.error.split(" failed", 1)[0].removeprefix("restoring the scene: ")
        return f"the start state cannot be restored ({step})"
    return outcome.reason.replace("_", " ")


def percent(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage to one decimal, rounded down: a figure read against a
    threshold (99% held out) never shows past what was measured (6,505 of 6,574 is 98.9%, not 99.0%)."""
    return f"{(1000 * k // n) / 10 if n else 0.0:.1f}%"


def fidelity_report(outcomes: Sequence[ReplayOutcome], name: str = "fidelity", *,
                    each_failure: bool = True) -> list[str]:
    """Lines: counts, a failure table by cause with the failing actions, each failure (unless
    ``each_failure`` is false), and ``<name>: X%`` last."""
    n = len(outcomes)
    ok = sum(o.ok for o in outcomes)
    actions_ok = sum(o.ok or o.reason == "goal_unsatisfied" for o in outcomes)
    lines = [f"trajectories: {n}",
             f"every action succeeded: {actions_ok}/{n}",
             f"every action succeeded and goal conditions satisfied: {ok}/{n}"]
    failed = [o for o in outcomes if not o.ok]
    if failed:
        by_reason = sorted(Counter(o.reason for o in failed).items())
        lines.append("failures by reason: " + ", ".join(f"{r} {c}" for r, c in by_reason))
        by_action = Counter(o.action for o in failed if o.action)
        if by_action:
            lines.append("failures by action type: " + ", ".join(f"{a} {c}" for a, c in sorted(by_action.items())))
        lines += failure_table(failed)
        if each_failure:
            for o in failed:
                lines.append(f"  {o.path.parent.parent.name}/{o.path.parent.name}: {o.reason}: {o.error}")
    lines.append(f"{name}: {percent(ok, n)}")
    return lines


def failure_table(failed: Sequence[ReplayOutcome]) -> list[str]:
    """``| cause | count | actions |`` rows, most frequent cause first."""
    causes: dict[str, Counter[str]] = {}
    for o in failed:
        causes.setdefault(failure_cause(o), Counter())[o.action or "-"] += 1
    lines = ["| cause | count | failing actions |", "|---|---|---|"]
    for cause, actions in sorted(causes.items(), key=lambda item: (-sum(item[1].values()), item[0])):
        detail = ", ".join(f"{a} {c}" for a, c in sorted(actions.items(), key=lambda x: (-x[1], x[0])))
        lines.append(f"| {cause} | {sum(actions.values())} | {detail} |")
    return lines


# --------------------------------------------------------------------------------------------
# Plan agreement


@dataclass
class PlanOutcome:
    """Our plan for one released trajectory's task, compared with ALFRED's."""

    path: Path
    status: str  # solved, unsolvable, timeout, error, restore_failed, expansion_failed
    same_plan: bool = False
    same_actions: bool = False  # same discrete actions, arguments aside
    ours: list[str] = field(default_factory=list)
    theirs: list[str] = field(default_factory=list)
    our_low: int | None = None
    their_low: int = 0
    detail: str = ""


def discrete_steps(high_pddl: Iterable[Mapping[str, Any]]) -> list[str]:
    """``Action(arg, ...)`` per high-level step, End/NoOp left out."""
    out = []
    for high in high_pddl:
        discrete = high.get("discrete_action") or {}
        action = str(discrete.get("action", ""))
        if action in ("NoOp", "End", ""):
            continue
        out.append(f"{action}({','.join(str(a).lower() for a in discrete.get('args') or [])})")
    return out


def _action_names(steps: Iterable[str]) -> list[str]:
    return [s.split("(")[0] for s in steps]


def plan_one(traj: Mapping[str, Any], scene: Scene, path: Path, time_limit: float = 30.0) -> PlanOutcome:
    """Plan ``traj``'s task from its start state in ``scene``, expand it, compare with ALFRED's."""
    from alfred_gen.demo.drive import NoPlan, plan_and_drive
    from alfred_gen.demo.expand import Expander, ExpansionError, end_entry
    from alfred_gen.demo.navigation import NavigationGraph
    from alfred_gen.demo.start import interaction_poses, without_objects
    from alfred_gen.planner.encode import EncodedProblem, agent_pose_of, encode_problem
    from alfred_gen.replay.goals import goal_conditions, task_from_trajectory
    from alfred_gen.replay.record import RecordingError
    from alfred_gen.replay.restore import restore_trajectory
    from alfred_gen.sim.lite import LiteController

    theirs = discrete_steps(traj["plan"]["high_pddl"])
    outcome = PlanOutcome(path, "error", theirs=theirs, their_low=len(traj["plan"]["low_actions"]))
    sim = LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False), render_image=False)
    try:
        start = restore_trajectory(sim, traj)
    except UserError as error:
        outcome.status, outcome.detail = "restore_failed", str(error)
        return outcome
    task = task_from_trajectory(traj)
    metadata = start.metadata
    poses = interaction_poses(scene.interaction_poses, metadata)
    poses.update(loose_object_poses(scene, metadata, poses))

    def problem_without(hidden: frozenset[str]) -> EncodedProblem:
        return encode_problem(without_objects(metadata, hidden), task, poses, agent_pose_of(metadata),
                              problem_name=scene.name.lower())

    reachable: list[tuple[float, float]] = []

    def make_runner() -> _Runner:
        reachable.extend(  # asked once there is a plan, as the planner's bench always has
            (float(p["x"]), float(p["z"]))
            for p in sim.step({"action": "GetReachablePositions"}).metadata.get("actionReturn") or ())
        return _Runner(sim, start.metadata, lambda: restore_trajectory(sim, traj))

    high: list[dict[str, Any]] = []
    try:
        runner, _ = plan_and_drive(sim, problem_without, time_limit,
                                   lambda: Expander(NavigationGraph(reachable), metadata), make_runner, high)
    except NoPlan as no_plan:
        if no_plan.kind != "trivial":
            outcome.status = "expansion_failed" if no_plan.kind == "unfoldable" else str(no_plan.status)
            outcome.detail = no_plan.detail
            return outcome
        runner, high = make_runner(), [end_entry(0)]  # nothing to do: the start state is judged as it is
    except ExpansionError as error:
        outcome.status, outcome.detail = "expansion_failed", str(error)
        return outcome
    except RecordingError as error:
        outcome.status, outcome.detail = "execution_failed", str(error)
        return outcome
    outcome.status = str(PlanStatus.SOLVED)
    state = runner.metadata
    tracker = runner.tracker
    low = runner.count
    goal = goal_conditions(task, state, start_metadata=metadata, effects=tracker.effects())
    if not goal.done:
        outcome.status, outcome.detail = "goal_unsatisfied", goal.describe()
        return outcome
    outcome.ours = discrete_steps(high)
    outcome.our_low = low
    outcome.same_plan = outcome.ours == theirs
    outcome.same_actions = _action_names(outcome.ours) == _action_names(theirs)
    return outcome


class _Runner:
    """The :class:`~alfred_gen.demo.drive.PlanRunner` of :func:`plan_one`: executes a plan's low
    actions in lite without recording them and follows their effects (the goal check needs them);
    goes back by restarting."""

    def __init__(self, sim: Any, start_metadata: Mapping[str, Any], restart: Any) -> None:
        from alfred_gen.replay.goals import EffectTracker

        self.sim, self.restart = sim, restart
        self.actions: list[Any] = []
        self.metadata: Mapping[str, Any] = start_metadata
        self.tracker = EffectTracker(start_metadata)

    @property
    def count(self) -> int:
        return len(self.actions)

    def run(self, actions: Sequence[Any]) -> None:
        from alfred_gen.replay.record import RecordingError

        for action in actions:
            state = self.sim.step(dict(action.api_action)).metadata
            self.metadata = state
            if not state.get("lastActionSuccess", False):
                raise RecordingError(GenerationReason.ACTION_FAILED,
                                     f"{action.discrete} {action.target}: {state.get('errorMessage')}")
            self.actions.append(action)
            self.tracker.observe(action.api_action, state)

    def rewind(self, count: int) -> None:
        from alfred_gen.replay.goals import EffectTracker

        kept = self.actions[:count]
        self.actions = []
        self.metadata = self.restart().metadata
        self.tracker = EffectTracker(self.metadata)
        self.run(kept)


def loose_object_poses(scene: Scene, metadata: Mapping[str, Any], known: Mapping[str, Any]) -> dict[str, list[float]]:
    """Interaction poses for pickupable objects that have none through a posed receptacle (lying
    on the floor, on a towel holder, in a sink): the scene library's best view of each, as ALFRED's
    planner had a location for every object."""
    from alfred_gen.scenes.grid import best_interaction_pose, occluder_arrays
    from alfred_gen.sim.scene import Box

    fixtures = [o.box for o in scene.objects if o.object_id in scene.interaction_poses]
    occluders = occluder_arrays(fixtures)
    out: dict[str, list[float]] = {}
    for obj in metadata.get("objects") or ():
        if not obj.get("pickupable") or obj["objectId"] in known:
            continue
        box = obj["axisAlignedBoundingBox"]
        center, size = box["center"], box["size"]
        target = Box.from_center((center["x"], center["y"], center["z"]), (size["x"], size["y"], size["z"]))
        reachable = list(scene.reachable)
        pose = best_interaction_pose(target, reachable, occluders, scene.agent_y, camera=scene.camera)
        if pose is None:  # on the floor: in reach as the simulator measures it, not from the eye
            pose = best_interaction_pose(target, reachable, occluders, scene.agent_y, camera=scene.camera,
                                         axis_reach=True)
        if pose is not None:
            out[obj["objectId"]] = pose.to_list()
    return out


def agreement_report(outcomes: Sequence[PlanOutcome]) -> list[str]:
    """Lines: how often our plan matches ALFRED's, and expanded length vs ALFRED's low_actions."""
    n = len(outcomes)
    solved = [o for o in outcomes if o.status == "solved" and o.our_low is not None]
    same = sum(o.same_plan for o in solved)
    same_actions = sum(o.same_actions for o in solved)
    lines = [f"plans: {len(solved)}/{n} solved and expanded"]
    if n:
        lines.append(f"same high-level plan (actions and class arguments): {same}/{n} = {percent(same, n)}")
        lines.append(f"same sequence of high-level actions: {same_actions}/{n} = {percent(same_actions, n)}")
    if solved:
        ours = sum(o.our_low or 0 for o in solved)
        theirs = sum(o.their_low for o in solved)
        ratios = sorted((o.our_low or 0) / o.their_low for o in solved if o.their_low)
        median = ratios[len(ratios) // 2] if ratios else 0.0
        lines.append(
            f"expanded length: ours {ours} vs ALFRED {theirs} low actions "
            f"(ratio {ours / theirs if theirs else 0:.2f}, median per trajectory {median:.2f})"
        )
    failed = Counter(o.status for o in outcomes if o.status != "solved")
    if failed:
        lines.append("not planned: " + ", ".join(f"{k} {v}" for k, v in sorted(failed.items())))
    return lines


def planned(outcome: PlanOutcome) -> bool:
    """Whether our plan for the demo's task was found, expanded, executed and reached the goal."""
    return outcome.status == "solved" and outcome.our_low is not None


def coverage_line(outcomes: Sequence[PlanOutcome], name: str = "plan_coverage") -> str:
    """``<name>: k/n = X%``: demos whose task we planned, expanded, executed and finished."""
    n = len(outcomes)
    k = sum(planned(o) for o in outcomes)
    return f"{name}: {k}/{n} = {percent(k, n)}"


def plan_failures(outcomes: Sequence[PlanOutcome]) -> list[str]:
    """One line per demo we did not plan: its task directory, status and detail."""
    return [f"  {o.path.parent.parent.name}/{o.path.parent.name}: {o.status}: {' '.join(o.detail.split())[:200]}"
            for o in outcomes if not planned(o)]


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    began = time.monotonic()
    value = fn()
    return value, time.monotonic() - began
