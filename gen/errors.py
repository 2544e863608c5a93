"""Exit codes, outcomes and the user-facing error type: the one table every command and the README share.

Every failure a user can cause (a bad file, an unknown scene, an impossible task, a missing THOR
build) is raised as :class:`UserError` carrying one of these codes; the CLI prints it as a single
line and exits with that code. Anything else escaping a command is a bug: the CLI's one error
boundary (``alfred_gen.cli.main``) prints one line and exits with INTERNAL.

The outcomes of the pipeline's steps are enums, not strings: :class:`PlanStatus` (the planner),
:class:`GenerationReason` (one demonstration), :class:`VetReason` (a replay check),
:class:`JobError` (a sampler job that did not get as far as a reason) and :class:`ScheduleVerdict`
(the sampler's decision for its next job); :data:`OUTCOME_EXIT_CODES` maps every one of them to the
exit code a command ends with when that outcome decides it. The dataset families own theirs, as
:class:`CodedOutcome` enums whose members carry their exit code: ``DeriveReason``
(:mod:`alfred_gen.derive.outcomes`), ``EqaPathReason`` (:mod:`alfred_gen.eqa.outcomes`),
``ExportReason`` and ``GameCheckReason`` (:mod:`alfred_gen.export.alfworld.outcomes`), ``VideoReason``
(:mod:`alfred_gen.export.video`). Every outcome's value is the word written to disk and printed in
summaries; :func:`exit_code_of` gives any outcome's code.
"""

from __future__ import annotations

import errno
from enum import Enum, IntEnum
from typing import Any


class ExitCode(IntEnum):
    """Process exit codes of `alfred-gen` (documented in the README and in `--help`)."""

    OK = 0  #: everything asked for was done
    FAILED = 1  #: the command ran, but some items failed (invalid files, failed replays, ...), or a worker died
    USAGE = 2  #: bad command-line usage (unknown option, missing argument, a malformed or reversed range)
    BAD_INPUT = 3  #: an input file is unreadable, malformed or fails the schema, or an output cannot be written
    NOT_FOUND = 4  #: a named input that does not exist: a path, an empty directory, a scene, object, task, class
    UNSOLVABLE = 5  #: the task is impossible in this scene (no plan exists)
    TIMEOUT = 6  #: the planner or a job ran out of its time limit
    BACKEND_UNAVAILABLE = 7  #: the requested simulator backend cannot start here
    INTERNAL = 8  #: a bug in alfred-gen; please report it with the command line
    BUSY = 9  #: another run is writing the same output (directory and shard); try again when it has ended
    EXECUTOR_UNAVAILABLE = 10  #: ``--executor ray`` without Ray installed, or its cluster cannot be reached
    MISSING_DEPENDENCY = 11  #: an optional package the command needs is not installed (PyAV, alfworld, pyarrow...)
    INTERRUPTED = 130  #: stopped by Ctrl-C / SIGINT or SIGTERM, in any phase; finished work is kept


EXIT_CODE_MEANINGS: dict[int, str] = {
    ExitCode.OK: "success",
    ExitCode.FAILED: "ran, but some items failed (invalid files, failed replays or generations), or a worker "
                     "process died",
    ExitCode.USAGE: "bad command-line usage (also a malformed or reversed range such as --scenes 30-1)",
    ExitCode.BAD_INPUT: "unreadable, malformed or schema-invalid input file, or an output path that cannot be "
                        "written (a file in the way, /dev/null, read-only, disk full)",
    ExitCode.NOT_FOUND: "not found: a missing input path, a directory with nothing to read, an unknown scene, "
                        "object, task type or class, a range naming rooms that do not exist",
    ExitCode.UNSOLVABLE: "task impossible in this scene (no plan)",
    ExitCode.TIMEOUT: "time limit reached",
    ExitCode.BACKEND_UNAVAILABLE: "simulator backend cannot start (e.g. no THOR build)",
    ExitCode.INTERNAL: "internal error (a bug: please report it)",
    ExitCode.BUSY: "the output is in use by another run (same directory and shard)",
    ExitCode.EXECUTOR_UNAVAILABLE: "the executor cannot start (Ray not installed, or its cluster unreachable)",
    ExitCode.MISSING_DEPENDENCY: "an optional package is not installed (PyAV for video, alfworld, pyarrow or datasets "
                                 "for the ALFWorld, LeRobot and HF exports); the message says which extra to install",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C or SIGTERM); finished work is kept",
}


class Outcome(str, Enum):
    """An outcome word: compares equal to its value and prints as it (``f"{reason}"`` is ``ok``)."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


class CodedOutcome(Outcome):
    """An outcome whose members carry the exit code a command ends with when they decide it:
    ``NAME = "word", ExitCode.X`` (FAILED when left out). A dataset family declares its outcomes so,
    in its own package, and the exit-code table stays whole without this leaf knowing the families."""

    exit_code: ExitCode

    def __new__(cls, word: str, code: ExitCode = ExitCode.FAILED) -> CodedOutcome:
        member = str.__new__(cls, word)
        member._value_ = word
        member.exit_code = ExitCode(code)
        return member


class PlanStatus(Outcome):
    """How a planner call ended."""

    SOLVED = "solved"  #: a validated plan was found
    UNSOLVABLE = "unsolvable"  #: proved impossible (or the encoder saw why at once)
    TIMEOUT = "timeout"  #: no plan within the time limit
    ERROR = "error"  #: the planner failed otherwise (malformed PDDL, an internal bug)


class GenerationReason(Outcome):
    """Why one demonstration was or was not made, roughly in pipeline order."""

    OK = "ok"
    EXISTS = "exists"  #: the trajectory directory is already there; it is left untouched
    SPAWN_FAILED = "spawn_failed"  #: InitialRandomSpawn failed for this seed
    RESTORE_FAILED = "restore_failed"  #: the start state could not be rebuilt from its own scene block (a bug)
    UNSOLVABLE = "unsolvable"  #: the planner proved there is no plan (or the encoder saw why at once)
    PLAN_TIMEOUT = "plan_timeout"  #: no plan within the time limit
    PLAN_ERROR = "plan_error"  #: the planner failed otherwise (a planner bug)
    TRIVIAL = "trivial"  #: the goal already holds at the start: nothing to demonstrate
    EXPANSION_FAILED = "expansion_failed"  #: a plan step cannot be turned into actions (no path, no slice in view)
    ACTION_FAILED = "action_failed"  #: the simulator refused a low action while recording
    MASK_MISSING = "mask_missing"  #: an interaction target was not in the frame before the action
    INVALID = "invalid"  #: the trajectory failed the schema (a bug)
    VET_FAILED = "vet_failed"  #: the replay from scratch failed or did not reach the goal


class VetReason(Outcome):
    """Why a replay check failed (``ok`` when it did not), in the order a replay meets them."""

    OK = "ok"
    BAD_FILE = "bad_file"  #: unreadable, truncated, not JSON, fails the schema, or inconsistent indices
    UNKNOWN_TASK = "unknown_task"  #: a task type without a goal check
    UNKNOWN_SCENE = "unknown_scene"  #: floor_plan names no scene we can load
    RESTORE_FAILED = "restore_failed"  #: the scene block does not fit the scene (poses, toggles, start pose)
    UNKNOWN_ACTION = "unknown_action"  #: a low action the simulator interface does not have
    UNKNOWN_OBJECT = "unknown_object"  #: a low action names an object id not in the scene
    ACTION_FAILED = "action_failed"  #: the simulator refused a low action
    GOAL_UNSATISFIED = "goal_unsatisfied"  #: every action succeeded but the goal conditions do not all hold
    SIMULATOR_ERROR = "simulator_error"  #: the simulator raised (a bug, reported rather than crashing)


class JobError(Outcome):
    """A sampler job that ended before the generator could give a reason."""

    USER_ERROR = "user_error"  #: the environment cannot run jobs at all (no THOR build, ...): the run stops
    EXCEPTION = "exception"  #: the pipeline raised (a bug): counted, never blamed on the tuple
    CRASHED = "crashed"  #: the worker process died while running the job


class ScheduleVerdict(Outcome):
    """What the sampler's schedule says when it does not hand out a job."""

    WAIT = "wait"  #: a result the decision depends on is not back yet
    DONE = "done"  #: the target number of trajectories is reached
    EXHAUSTED = "exhausted"  #: no feasible tuple is left to try


#: The exit code a command ends with when an outcome decides it (every member is listed).
OUTCOME_EXIT_CODES: dict[Outcome, ExitCode] = {
    PlanStatus.SOLVED: ExitCode.OK,
    PlanStatus.UNSOLVABLE: ExitCode.UNSOLVABLE,
    PlanStatus.TIMEOUT: ExitCode.TIMEOUT,
    PlanStatus.ERROR: ExitCode.INTERNAL,
    **{reason: ExitCode.FAILED for reason in GenerationReason},
    GenerationReason.OK: ExitCode.OK,
    GenerationReason.UNSOLVABLE: ExitCode.UNSOLVABLE,
    GenerationReason.PLAN_TIMEOUT: ExitCode.TIMEOUT,
    GenerationReason.PLAN_ERROR: ExitCode.INTERNAL,
    **{reason: ExitCode.FAILED for reason in VetReason},
    VetReason.OK: ExitCode.OK,
    JobError.USER_ERROR: ExitCode.FAILED,  # the run re-raises the UserError with its own code
    JobError.EXCEPTION: ExitCode.FAILED,
    JobError.CRASHED: ExitCode.FAILED,
    ScheduleVerdict.WAIT: ExitCode.OK,  # never ends a command; listed so the table is complete
    ScheduleVerdict.DONE: ExitCode.OK,
    ScheduleVerdict.EXHAUSTED: ExitCode.FAILED,
}


def exit_code_of(outcome: Outcome) -> ExitCode:
    """The exit code for ``outcome``: its own (:class:`CodedOutcome`), else :data:`OUTCOME_EXIT_CODES`'s."""
    if isinstance(outcome, CodedOutcome):
        return outcome.exit_code
    return OUTCOME_EXIT_CODES[outcome]


class UserError(Exception):
    """An error caused by the user's input or environment, reported as one line plus an exit code."""

    def __init__(self, message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message)
        self.code = ExitCode(code)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its class, message and code, whatever the subclass's constructor takes: a
        worker process's UserError reaches the parent's error boundary as it was raised (plain
        pickling would call the constructor with the message alone and lose the code)."""
        return _restore_user_error, (type(self), str(self), self.code)


def _restore_user_error(cls: type[UserError], message: str, code: ExitCode) -> UserError:
    error = cls.__new__(cls)
    UserError.__init__(error, message, code)
    return error


def caused_by_interrupt(error: BaseException) -> bool:
    """Whether Ctrl-C or SIGTERM (both raise KeyboardInterrupt) lies under ``error``.

    Python sometimes re-raises an exception as another one that keeps it as its cause or context:
    3.11 wraps any exception raised inside ``__set_name__`` in RuntimeError, so a SIGTERM arriving
    while a lazily imported module defines a class (``ipaddress`` did, in CI) surfaced as "internal
    error". The CLI's boundary asks this before calling an exception a bug."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def describe_os_error(error: OSError) -> str:
    """An OSError (a path that cannot be written or read) as one line: ``<path>: <why>``."""
    reason = error.strerror or type(error).__name__
    if error.errno is not None and error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason += " (read-only?)"
    if error.filename is not None:
        return f"{error.filename}: {reason}"
    return reason


def exit_code_table() -> str:
    """The exit-code table as plain text, for `--help` and the README."""
    return "\n".join(f"{int(code):>4}  {EXIT_CODE_MEANINGS[code]}" for code in ExitCode)
