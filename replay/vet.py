"""Vetting: a trajectory is kept only if it replays from scratch and reaches its goal.

:func:`vet_trajectory` restores the start state from the file's ``scene`` block in a fresh
simulator episode, steps every ``low_actions[i].api_action``, and checks the goal at the end: the
task's goal conditions, or the trajectory's own ``goal`` block when it has one (tasks derived by
``alfred-gen derive``: a final position, with or without the task's conditions; see
:func:`alfred_gen.replay.goals.trajectory_goal`). It never raises on bad data: whatever is wrong
becomes one of a small, fixed set of reasons (:class:`~alfred_gen.errors.VetReason`) that
``alfred-gen verify`` summarises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError, VetReason
from alfred_gen.replay.execute import StepCallback, execute_low_actions
from alfred_gen.replay.goals import (
    GoalStatus,
    has_goal_check,
    needs_task_check,
    task_from_trajectory,
    trajectory_goal,
    trajectory_goal_status,
)
from alfred_gen.replay.restore import RestoreError, file_evidence, restore_trajectory
from alfred_gen.sim.controller import Controller

#: Gives the simulator to vet with (a fresh one, or this process's own: the restore resets it).
ControllerFactory = Callable[[], Controller]

#: UserError codes that say the environment cannot replay anything (no THOR build, a bad option):
#: vet_trajectory raises those instead of blaming the file.
ENVIRONMENT_CODES = frozenset({ExitCode.BACKEND_UNAVAILABLE, ExitCode.USAGE})


@dataclass(frozen=True)
class VetResult:
    """The outcome of replaying one trajectory."""

    ok: bool
    reason: VetReason
    failed_low_idx: int | None = None  # the first low action that failed, if one did
    error: str = ""  # one line: what went wrong
    goal: GoalStatus = field(default_factory=lambda: GoalStatus(0, 0, []))
    #: Ids of the objects the room was completed with from the file itself (a room known from
    #: evidence lacking fixtures the file acts on: :func:`~alfred_gen.replay.restore.restore_trajectory`).
    completed: tuple[str, ...] = ()
    #: What else the room took from the file's own masks (:meth:`~alfred_gen.sim.controller.FileEvidence.uses`).
    used: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: ``ok (4/4 goal conditions)`` or ``action_failed: low_idx 12 ...``."""
        if self.ok:
            return f"ok ({self.goal.describe()})"
        return f"{self.reason}: {self.error}"


def _failed(reason: VetReason, error: str, low_idx: int | None = None,
            goal: GoalStatus | None = None) -> VetResult:
    return VetResult(False, reason, low_idx, " ".join(error.split()), goal or GoalStatus(0, 0, []))


def _index_problem(traj: Mapping[str, Any]) -> str | None:
    """Cross-references the schema cannot check (high_idx and images.low_idx in range), as
    ``validate`` checks them: the first one broken, as ``<json path>: <message>``."""
    from alfred_gen.traj.format import index_problems

    problems = index_problems(traj)
    return f"{problems[0].json_path}: {problems[0].message}" if problems else None


def vet_trajectory(
    traj: Any,
    *,
    controller_factory: ControllerFactory,
    check_schema: bool = True,
    on_step: StepCallback | None = None,
) -> VetResult:
    """Replay ``traj`` (a parsed traj_data.json) from scratch and check its goal.

    ``controller_factory()`` gives the simulator (``simulator.open`` for a fresh one without
    frames); it is reset by the restore, so a factory may hand back one controller per process.
    ``check_schema`` validates the data against the trajectory schema first (cheap when valid).
    The goal is the task type's conditions, or the file's own ``goal`` block when it has one (derived
    tasks: a final position, with or without the task's conditions). ``on_step(low_idx, api_action,
    event)`` sees every step (``derive`` reads the agent's poses from it).

    Whatever is wrong with the data is a failed VetResult. Only a UserError saying no simulator
    can run here (BACKEND_UNAVAILABLE, USAGE) is raised: that is no trajectory's fault.
    """
    from alfred_gen.traj.format import first_problem

    if not isinstance(traj, Mapping):
        return _failed(VetReason.BAD_FILE, f"a trajectory is a JSON object, got {type(traj).__name__}")
    if check_schema:
        problem = first_problem(traj)
        if problem is not None:
            return _failed(VetReason.BAD_FILE, f"{problem.json_path}: {problem.message}")
    try:
        index_problem = _index_problem(traj)
    except (KeyError, TypeError, AttributeError):
        index_problem = "plan.high_pddl, plan.low_actions or images malformed"
    if index_problem is not None:
        return _failed(VetReason.BAD_FILE, index_problem)
    try:
        task = task_from_trajectory(traj)
        goal_spec = trajectory_goal(traj)
    except UserError as error:
        return _failed(VetReason.BAD_FILE, str(error))
    if needs_task_check(goal_spec) and not has_goal_check(task.task_type):
        return _failed(VetReason.UNKNOWN_TASK, f"no goal check for task type {task.task_type!r}")
    low_actions = traj.get("plan", {}).get("low_actions") if isinstance(traj.get("plan"), Mapping) else None
    if not isinstance(low_actions, list):
        return _failed(VetReason.BAD_FILE, "trajectory has no plan.low_actions list")
    try:
        controller = controller_factory()
    except UserError as error:
        if error.code in ENVIRONMENT_CODES:
            raise  # not this file's fault: no simulator to replay with at all
        return _failed(VetReason.SIMULATOR_ERROR, str(error))
    except Exception as error:
        return _failed(VetReason.SIMULATOR_ERROR, f"{type(error).__name__}: {error}")
    try:
        try:
            start = restore_trajectory(controller, traj)
        except RestoreError as error:
            return _failed(VetReason.RESTORE_FAILED, str(error))
        except UserError as error:
            if error.code in ENVIRONMENT_CODES:
                raise
            reason = VetReason.UNKNOWN_SCENE if error.code == ExitCode.NOT_FOUND else VetReason.BAD_FILE
            return _failed(reason, str(error))
        run = execute_low_actions(controller, low_actions, start, on_step=on_step)
        goal = trajectory_goal_status(goal_spec, task, run.last_event.metadata, start_metadata=start.metadata,
                                      effects=run.tracker.effects())
    except UserError as error:
        if error.code in ENVIRONMENT_CODES:
            raise
        return _failed(VetReason.SIMULATOR_ERROR, str(error))
    except Exception as error:
        return _failed(VetReason.SIMULATOR_ERROR, f"{type(error).__name__}: {error}")
    evidence = file_evidence(controller, traj)
    if run.failure is not None:
        return replace(_failed(run.failure.reason, run.failure.describe(), run.failure.low_idx, goal),
                       completed=evidence.completed, used=evidence.uses())
    if not goal.done:
        return replace(_failed(VetReason.GOAL_UNSATISFIED, goal.describe(), None, goal),
                       completed=evidence.completed, used=evidence.uses())
    return VetResult(True, VetReason.OK, None, "", goal, evidence.completed, evidence.uses())


class TrialRejected(Exception):
    """:func:`write_vetted_trial` refused a trajectory: ``invalid`` (it fails the schema: a bug of the
    family that built it) or its vetting failed; ``detail`` says how, in one line."""

    def __init__(self, invalid: bool, detail: str) -> None:
        super().__init__(detail)
        self.invalid, self.detail = invalid, detail


def write_vetted_trial(
    traj: Mapping[str, Any], trial_dir: Path, *, controller_factory: ControllerFactory | None
) -> dict[str, Any]:
    """Write ``traj`` as ``trial_dir/traj_data.json`` and vet what was written: the one way every
    family (generate, derive, perturb, eqa paths) puts a trajectory into the directory it is about
    to commit (:func:`alfred_gen.atomic.committing_dir`).

    The file is checked against the schema as it is saved, read back, and that parse, not the dict,
    is replayed from scratch with ``controller_factory``, so the bytes kept are the bytes vetted
    (None: nothing to vet, as a language-only perturbation or a benchmark's unvetted run). Returns
    the parsed file; :class:`TrialRejected` when the schema or the replay refuses it, which each
    family counts as its own outcome."""
    from alfred_gen.traj.format import TRAJ_FILE_NAME, InvalidTrajectoryError, parse_trajectory_json, save_trajectory

    try:
        save_trajectory(traj, trial_dir / TRAJ_FILE_NAME)
    except InvalidTrajectoryError as error:
        raise TrialRejected(True, str(error)) from None
    if controller_factory is None:
        return dict(traj)
    written = parse_trajectory_json(trial_dir / TRAJ_FILE_NAME)
    verdict = vet_trajectory(written, controller_factory=controller_factory, check_schema=False)
    if not verdict.ok:
        raise TrialRejected(False, verdict.describe())
    return written
