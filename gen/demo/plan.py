"""The `alfred-gen plan` pipeline: scene + seed + task -> simulator -> metadata -> PDDL -> plan.

:func:`plan_task` is the library function (no printing); :func:`plan_command` is what the CLI
calls: it prints the numbered high-level plan, or the reason there is none, optionally writes the
PDDL files, and returns the exit code.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Mapping

from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.planner.encode import EncodedProblem, agent_pose_of, encode_problem
from alfred_gen.planner.result import ERROR, SOLVED, TIMEOUT, UNSOLVABLE, PlanResult
from alfred_gen.planner.solve import DEFAULT_TIME_LIMIT, solve
from alfred_gen.domains.tasks import TaskSpec, get_task_type, make_task

#: InitialRandomSpawn arguments besides the seed (ALFRED's generator uses the same).
SPAWN_ARGS: dict[str, Any] = {"numPlacementAttempts": 15, "placeStationary": True, "forceVisible": True}


def scene_state(scene_num: int | str, seed: int) -> tuple[dict[str, Any], dict[str, list[float]], list[float], str]:
    """Metadata after InitialRandomSpawn(seed) in a procedural scene, its interaction poses, the
    agent's start pose, and the scene name."""
    from alfred_gen.scenes import get_scene, resolve_scene_number
    from alfred_gen.sim.lite import LiteController

    scene = get_scene(resolve_scene_number(scene_num))
    sim = LiteController(scene, render_image=False)
    event = sim.step({"action": "InitialRandomSpawn", "randomSeed": int(seed), **SPAWN_ARGS})
    if not event.metadata.get("lastActionSuccess", False):
        raise UserError(
            f"InitialRandomSpawn failed in {scene.name} with seed {seed}: {event.metadata.get('errorMessage')}",
            ExitCode.FAILED,
        )
    metadata = event.metadata
    poses = interaction_poses(scene.interaction_poses, metadata)
    return metadata, poses, agent_pose_of(metadata), scene.name


def interaction_poses(scene_poses: Mapping[str, Any], metadata: Mapping[str, Any]) -> dict[str, list[float]]:
    """Receptacle/fixture id -> [x, z, rotation, horizon], plus every pickupable lying directly on a
    posed receptacle mapped to that receptacle's pose (where the agent stands to reach it)."""
    poses = {oid: list(pose.to_list() if hasattr(pose, "to_list") else pose) for oid, pose in scene_poses.items()}
    for obj in metadata.get("objects") or ():
        if obj["objectId"] in poses or not obj.get("pickupable"):
            continue
        for parent in obj.get("parentReceptacles") or ():
            if parent in poses:
                poses[obj["objectId"]] = list(poses[parent])
                break
    return dict(sorted(poses.items()))


def plan_task(
    scene_num: int | str,
    seed: int,
    task: TaskSpec,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> tuple[EncodedProblem, PlanResult]:
    """Plan ``task`` in procedural scene ``scene_num`` after InitialRandomSpawn with ``seed``."""
    get_task_type(task.task_type)  # NOT_FOUND before building anything
    metadata, poses, agent, scene_name = scene_state(scene_num, seed)
    encoded = encode_problem(metadata, task, poses, agent, problem_name=f"{scene_name.lower()}-seed{int(seed)}")
    return encoded, solve(encoded, time_limit=time_limit)


def domain_path_for(problem_path: Path) -> Path:
    """Where ``--pddl-out X.pddl`` writes the domain: ``X.domain.pddl`` beside the problem."""
    return problem_path.with_name(problem_path.stem + ".domain.pddl")


def plan_command(
    scene: str,
    seed: int,
    task_type: str,
    object_target: str,
    parent_target: str = "",
    mrecep_target: str = "",
    toggle_target: str = "",
    sliced: bool = False,
    pddl_out: str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    echo: Callable[..., None] = print,
) -> int:
    """`alfred-gen plan`: print the plan (numbered, THOR ids) or why there is none; exit code."""
    started = time.perf_counter()
    task = make_task(task_type, object_target, parent_target, mrecep_target, toggle_target, sliced)
    encoded, result = plan_task(scene, seed, task, time_limit)
    if pddl_out:
        problem_path = Path(pddl_out)
        write_text(problem_path, encoded.problem_text)
        write_text(domain_path_for(problem_path), encoded.domain_text)
        echo(f"wrote {problem_path} and {domain_path_for(problem_path)}")
    elapsed = time.perf_counter() - started
    if result.status == SOLVED:
        echo(f"{task.describe()} in scene {scene}, seed {seed}: {len(result.plan)} steps "
             f"(planned in {result.time * 1000:.1f} ms, {elapsed:.2f} s in all)")
        for number, step in enumerate(result.plan, start=1):
            where = f"  @ {[round(v, 2) for v in step.location]}" if step.location else ""
            echo(f"{number:3d}. {step.describe()}{where}")
        return ExitCode.OK
    codes = {UNSOLVABLE: ExitCode.UNSOLVABLE, TIMEOUT: ExitCode.TIMEOUT, ERROR: ExitCode.INTERNAL}
    echo(f"alfred-gen: {result.status}: {result.reason}", err=True)
    return codes.get(result.status, ExitCode.INTERNAL)
