"""The `alfred-gen plan` pipeline: scene + seed + task -> start state -> PDDL -> plan.

:func:`plan_task` is the library function (no printing); :func:`plan_command` is what the CLI
calls: it prints the numbered high-level plan, or the reason there is none, optionally writes the
PDDL files, and returns the exit code.

The start state is :mod:`alfred_gen.demo.start`'s, the one ``generate`` records from: the same
scene, seed and task give the same problem, and ``--pddl-out`` writes exactly the
``pddl_states/problem_0.pddl`` of the trajectory ``generate`` makes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from alfred_gen.atomic import write_text
from alfred_gen.demo.start import StartStateError, encode_start, find_room, make_start_state
from alfred_gen.domains.tasks import TaskSpec, get_task_type, make_task
from alfred_gen.errors import ExitCode, PlanStatus, UserError, exit_code_of
from alfred_gen.planner.encode import EncodedProblem
from alfred_gen.planner.result import PlanResult
from alfred_gen.planner.solve import DEFAULT_TIME_LIMIT, check_time_limit, solve
from alfred_gen.scenes.library import simulator


def plan_task(
    scene: int | str,
    seed: int,
    task: TaskSpec,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> tuple[EncodedProblem, PlanResult]:
    """Plan ``task`` in ``scene`` in the start state ``generate`` would record from ``seed``."""
    get_task_type(task.task_type)  # NOT_FOUND before building anything
    room = find_room(scene)
    controller = simulator(extra=(room,)).open()
    try:
        start = make_start_state(controller, room, task, seed)
    except StartStateError as error:
        raise UserError(f"no start state in {room.name} with seed {seed}: {error.detail}", ExitCode.FAILED) from None
    encoded = encode_start(start, task)
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
    check_time_limit(time_limit)
    started = time.perf_counter()
    task = make_task(task_type, object_target, parent_target, mrecep_target, toggle_target, sliced)
    encoded, result = plan_task(scene, seed, task, time_limit)
    if pddl_out:
        problem_path = Path(pddl_out)
        write_text(problem_path, encoded.problem_text)
        write_text(domain_path_for(problem_path), encoded.domain_text)
        echo(f"wrote {problem_path} and {domain_path_for(problem_path)}")
    elapsed = time.perf_counter() - started
    if result.status == PlanStatus.SOLVED:
        echo(f"{task.describe()} in scene {scene}, seed {seed}: {len(result.plan)} steps "
             f"(planned in {result.time * 1000:.1f} ms, {elapsed:.2f} s in all)")
        for number, step in enumerate(result.plan, start=1):
            where = f"  @ {[round(v, 2) for v in step.location]}" if step.location else ""
            echo(f"{number:3d}. {step.describe()}{where}")
        return ExitCode.OK
    echo(f"alfred-gen: {result.status}: {result.reason}", err=True)
    return exit_code_of(result.status)
