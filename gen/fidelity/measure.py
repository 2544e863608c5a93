"""How faithfully the embedded simulator replays ALFRED's released demonstrations, and how close our
planner's plans come to ALFRED's.

*Fidelity*: every released traj_data.json is restored from its ``scene`` block in the imported
THOR room and its ``low_actions`` are executed; a demo counts when every action succeeds and the
task's goal conditions hold at the end (:func:`alfred_gen.replay.vet.vet_trajectory`). ALFRED's own
replay in THOR reproduces about 99.8% of them.

*Plan agreement*: in the same start state, our planner solves the same task; its high-level plan
(discrete action + class arguments, ALFRED's ``high_pddl[*].discrete_action``) is compared with
ALFRED's, and its expansion into simulator actions with ALFRED's ``low_actions`` in length.

Rooms come from an ALFRED checkout imported on the fly (layouts plus the trajectories being
replayed) or from a scene catalogue. ``bench/alfred_fidelity.py`` prints the figures.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, PlanStatus, UserError
from alfred_gen.scenes.alfred import catalogue_store
from alfred_gen.scenes.alfred.evidence import SceneEvidence, trajectory_facts
from alfred_gen.scenes.alfred.importer import (
    AlfredSources,
    build_scene,
    complete_for_start_state,
    find_sources,
    gather_evidence,
)
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.scene import Scene
from alfred_gen.traj.format import parse_trajectory_json

# --------------------------------------------------------------------------------------------
# Rooms


class RoomSource:
    """Scenes by FloorPlan name, built from evidence (rebuilt without one trajectory on request)."""

    def __init__(self, rooms: Mapping[int, SceneEvidence], sizes: ThorSizes | None = None) -> None:
        self.rooms = dict(rooms)
        self.sizes = sizes
        self.stats = SurfaceStats.learn(self.rooms.values())
        self._built: dict[str, Scene] = {}
        self._facts: dict[int, list[Any]] = {}

    @staticmethod
    def from_catalogue(data: Mapping[str, Any]) -> RoomSource:
        """Rooms of a stored catalogue (its evidence; rebuilt exactly as imported)."""
        rooms = {int(e["evidence"]["scene_num"]): SceneEvidence.from_dict(e["evidence"])
                 for e in data["scenes"].values()}
        source = RoomSource(rooms)
        source.stats = SurfaceStats.from_dict(data.get("surface_stats", {}))
        for name, entry in data["scenes"].items():
            source._built[name] = Scene.from_dict(entry["scene"])
        return source

    def scene(self, name: str) -> Scene:
        """The room called ``name``; UserError NOT_FOUND if there is none."""
        if name not in self._built:
            number = _number_of(name)
            if number not in self.rooms:
                raise UserError(f"unknown scene {name!r}: not in the imported ALFRED rooms", ExitCode.NOT_FOUND)
            self._built[name] = build_scene(self.rooms[number], self.sizes, self.stats)
        return Scene.from_dict(self._built[name].to_dict())

    def scene_without(self, name: str, traj: Mapping[str, Any]) -> Scene:
        """The room as if ``traj`` had not been imported (its own walk, objects and facts left out),
        completed only with what its ``scene`` block states: for held-out measurements."""
        number = _number_of(name)
        if number not in self.rooms:
            raise UserError(f"unknown scene {name!r}: not in the imported ALFRED rooms", ExitCode.NOT_FOUND)
        mine = trajectory_facts(traj)
        kept = SceneEvidence(number)
        original = self.rooms[number]
        kept.layout_points, kept.openable, kept.types_present = (
            original.layout_points, original.openable, original.types_present)
        for other in self._facts.get(number, []):
            if other is not mine and not _same_trajectory(other, mine):
                kept.add_trajectory(other)
        return complete_for_start_state(build_scene(kept, self.sizes, self.stats), traj["scene"])

    def remember_facts(self, trajectories: Iterable[Mapping[str, Any]]) -> None:
        """Keep each trajectory's facts so rooms can be rebuilt without one of them."""
        self._facts = {}
        for traj in trajectories:
            facts = trajectory_facts(traj)
            self._facts.setdefault(facts.scene_num, []).append(facts)


def _same_trajectory(a: Any, b: Any) -> bool:
    return a.points == b.points and a.object_poses == b.object_poses


def _number_of(name: str) -> int:
    digits = name[len("FloorPlan"):] if name.startswith("FloorPlan") else ""
    if not digits.isdigit():
        raise UserError(f"unknown scene {name!r}: imported ALFRED rooms are FloorPlanN", ExitCode.NOT_FOUND)
    return int(digits)


def find_checkout(json_dir: Path) -> AlfredSources | None:
    """The ALFRED checkout a json_2.1.0 directory belongs to (it or one of its parents holds layouts)."""
    for candidate in [json_dir, *json_dir.resolve().parents][:5]:
        try:
            return find_sources(candidate)
        except UserError:
            continue
    return None


def rooms_for(files: Sequence[Path], *, alfred_dir: str | Path | None = None, catalogue: str | Path | None = None,
              thor_db: str | Path | None = None) -> RoomSource:
    """The rooms to replay ``files`` in: a stored catalogue, or layouts (of ``alfred_dir`` or the
    checkout holding the files) plus the facts of ``files`` themselves."""
    if catalogue is not None:
        return RoomSource.from_catalogue(catalogue_store.read_catalogue(catalogue))
    if alfred_dir is not None:
        sources = find_sources(alfred_dir)
    else:
        found = find_checkout(files[0].parent) if files else None
        if found is None:
            raise UserError("no ALFRED layouts found beside the trajectories: pass --alfred-dir DIR "
                            "(an ALFRED checkout) or --catalogue FILE", ExitCode.NOT_FOUND)
        sources = found
    sources = AlfredSources(sources.root, sources.layouts, tuple(files))
    sizes = ThorSizes.load(thor_db) if thor_db is not None else None
    return RoomSource(gather_evidence(sources), sizes)


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
        return LiteController(scene_lookup=SceneLibrary(extra=(scene,)), render_image=False, **options)

    result = vet_trajectory(traj, controller_factory=factory, check_schema=False)
    action = ""
    if result.failed_low_idx is not None:
        low = traj["plan"]["low_actions"][result.failed_low_idx]
        action = str((low.get("api_action") or {}).get("action", ""))
    return ReplayOutcome(path, result.ok, result.reason, action, result.error, len(traj["plan"]["low_actions"]))


def load(path: Path) -> dict[str, Any]:
    return parse_trajectory_json(path)


def replay_released(files: Sequence[Path], rooms: RoomSource, *, held_out: bool = False, geometric: bool = False,
                    progress: Callable[[Iterable[Path]], Iterable[Path]] | None = None) -> list[ReplayOutcome]:
    """Replay every file in its room; ``held_out``: each in its room rebuilt without it;
    ``geometric``: with lite's render-free visibility."""
    outcomes = []
    iterable: Iterable[Path] = progress(files) if progress is not None else files
    for path in iterable:
        try:
            traj = load(path)
            name = traj["scene"]["floor_plan"]
            scene = rooms.scene_without(name, traj) if held_out else rooms.scene(name)
        except UserError as error:
            outcomes.append(ReplayOutcome(path, False, "unknown_scene", "", str(error)))
            continue
        except (OSError, ValueError, KeyError, TypeError) as error:
            outcomes.append(ReplayOutcome(path, False, "bad_file", "", f"{type(error).__name__}: {error}"))
            continue
        outcomes.append(replay_one(traj, scene, path, geometric))
    return outcomes


def fidelity_report(outcomes: Sequence[ReplayOutcome]) -> list[str]:
    """Lines: counts, failures by reason and by action type, each failure, and ``fidelity: X%``."""
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
        for o in failed:
            lines.append(f"  {o.path.parent.parent.name}/{o.path.parent.name}: {o.reason}: {o.error}")
    lines.append(f"fidelity: {100.0 * ok / n if n else 0.0:.1f}%")
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
    from alfred_gen.demo.expand import Expander, ExpansionError, end_entry, fold_plan
    from alfred_gen.demo.navigation import NavigationGraph
    from alfred_gen.demo.start import interaction_poses
    from alfred_gen.planner.encode import agent_pose_of, encode_problem
    from alfred_gen.planner.solve import solve
    from alfred_gen.replay.goals import task_from_trajectory
    from alfred_gen.replay.restore import restore_scene
    from alfred_gen.sim.lite import LiteController

    theirs = discrete_steps(traj["plan"]["high_pddl"])
    outcome = PlanOutcome(path, "error", theirs=theirs, their_low=len(traj["plan"]["low_actions"]))
    sim = LiteController(scene_lookup=SceneLibrary(extra=(scene,)), render_image=False)
    try:
        start = restore_scene(sim, traj["scene"])
    except UserError as error:
        outcome.status, outcome.detail = "restore_failed", str(error)
        return outcome
    task = task_from_trajectory(traj)
    metadata = start.metadata
    poses = interaction_poses(scene.interaction_poses, metadata)
    poses.update(loose_object_poses(scene, metadata, poses))
    encoded = encode_problem(metadata, task, poses, agent_pose_of(metadata), problem_name=scene.name.lower())
    result = solve(encoded, time_limit=time_limit)
    outcome.status = str(result.status)
    if result.status != PlanStatus.SOLVED:
        outcome.detail = str(result.reason)
        return outcome
    try:
        steps = fold_plan(result.plan)
        reachable = [
            (float(p["x"]), float(p["z"]))
            for p in sim.step({"action": "GetReachablePositions"}).metadata.get("actionReturn") or ()
        ]
        expander = Expander(NavigationGraph(reachable), metadata)
        high: list[dict[str, Any]] = []
        low = 0
        state = metadata
        for index, step in enumerate(steps):
            following = steps[index + 1] if index + 1 < len(steps) else None
            expanded = expander.expand(step, len(high), state, following)
            if not expanded.low:
                continue
            high.append(expanded.high)
            for action in expanded.low:
                event = sim.step(dict(action.api_action))
                state = event.metadata
                low += 1
                if not state.get("lastActionSuccess", False):
                    outcome.status = "execution_failed"
                    outcome.detail = f"{action.discrete} {action.target}: {state.get('errorMessage')}"
                    return outcome
        high.append(end_entry(len(high)))
    except ExpansionError as error:
        outcome.status, outcome.detail = "expansion_failed", str(error)
        return outcome
    outcome.ours = discrete_steps(high)
    outcome.our_low = low
    outcome.same_plan = outcome.ours == theirs
    outcome.same_actions = _action_names(outcome.ours) == _action_names(theirs)
    return outcome


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
        pose = best_interaction_pose(target, list(scene.reachable), occluders, scene.agent_y)
        if pose is not None:
            out[obj["objectId"]] = pose.to_list()
    return out


def plan_released(
    files: Sequence[Path],
    rooms: RoomSource,
    time_limit: float = 30.0,
    progress: Callable[[Iterable[Path]], Iterable[Path]] | None = None,
) -> list[PlanOutcome]:
    outcomes = []
    iterable: Iterable[Path] = progress(files) if progress is not None else files
    for path in iterable:
        try:
            traj = load(path)
            scene = complete_for_start_state(rooms.scene(traj["scene"]["floor_plan"]), traj["scene"])
        except (UserError, OSError, ValueError, KeyError, TypeError) as error:
            outcomes.append(PlanOutcome(path, "restore_failed", detail=str(error)))
            continue
        outcomes.append(plan_one(traj, scene, path, time_limit))
    return outcomes


def agreement_report(outcomes: Sequence[PlanOutcome]) -> list[str]:
    """Lines: how often our plan matches ALFRED's, and expanded length vs ALFRED's low_actions."""
    n = len(outcomes)
    solved = [o for o in outcomes if o.status == "solved" and o.our_low is not None]
    same = sum(o.same_plan for o in solved)
    same_actions = sum(o.same_actions for o in solved)
    lines = [f"plans: {len(solved)}/{n} solved and expanded"]
    if n:
        lines.append(f"same high-level plan (actions and class arguments): {same}/{n} = {100.0 * same / n:.1f}%")
        lines.append(f"same sequence of high-level actions: {same_actions}/{n} = {100.0 * same_actions / n:.1f}%")
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


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    began = time.monotonic()
    value = fn()
    return value, time.monotonic() - began
