"""Exit codes, outcomes and the user-facing error type: the one table every command and the README share.

Every failure a user can cause (a bad file, an unknown scene, an impossible task, a missing THOR
build) is raised as :class:`UserError` carrying one of these codes; the CLI prints it as a single
line and exits with that code. Anything else escaping a command is a bug: the CLI's one error
boundary (``alfred_gen.cli.main``) prints one line and exits with INTERNAL.

The outcomes of the pipeline's steps are enums, not strings: :class:`PlanStatus` (the planner),
:class:`GenerationReason` (one demonstration), :class:`VetReason` (a replay check),
:class:`JobError` (a sampler job that did not get as far as a reason), :class:`ScheduleVerdict`
(the sampler's decision for its next job), :class:`VideoReason` (one video of ``alfred-gen
video``), :class:`DeriveReason` (deriving one trajectory from another), :class:`ExportReason` and
:class:`GameCheckReason` (one ALFWorld game written, and judged by ALFWorld) and :class:`EqaPathReason`
(one expert trajectory of ``alfred-gen eqa paths``). Their values are the words written to disk and
printed in summaries. :data:`OUTCOME_EXIT_CODES` maps every one of them to the exit code a command
ends with when that outcome decides it, so that mapping lives here and nowhere else.
"""

from __future__ import annotations

import errno
from enum import Enum, IntEnum


class ExitCode(IntEnum):
    """Process exit codes of `alfred-gen` (documented in the README and in `--help`)."""

    OK = 0  #: everything asked for was done
    FAILED = 1  #: the command ran, but some items failed (invalid files, failed replays, ...)
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
    ExitCode.FAILED: "ran, but some items failed (invalid files, failed replays or generations)",
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


class DeriveReason(Outcome):
    """Why a source trajectory did or did not give a derived one (``alfred-gen derive``).

    Some reasons say the variant does not apply to the source (nothing is wrong: NAV-ONLY of a demo
    without navigation, REV of a demo without an earlier destination); the others are failures.
    Values are distinct from the other outcomes' where their exit codes differ (``already_derived``,
    not ``exists``): outcomes are str enums, so equal words would be one key of the table below.
    """

    OK = "ok"
    EXISTS = "already_derived"  #: the derived trajectory's directory is already there; it is left untouched
    BAD_SOURCE = "bad_source"  #: the source is unreadable, not JSON or fails the schema
    SOURCE_DOES_NOT_REPLAY = "source_does_not_replay"  #: the source fails its own replay check here
    NO_NAVIGATION = "no_navigation"  #: the source has no navigation subgoal (GotoLocation)
    NO_EARLIER_DESTINATION = "no_earlier_destination"  #: too few earlier destinations farther than the threshold
    NOT_REVERSIBLE = "not_reversible"  #: a navigation action the reversal rule cannot undo (a teleport)
    UNREACHABLE = "unreachable"  #: no walk on the grid to the earlier destination (--reverse shortest)
    GOAL_LOST = "goal_lost"  #: the source's goal no longer holds where the walk back ends (a lamp out of view)
    ACTION_FAILED = "action_failed"  #: the simulator refused a derived action (a walk back into a blocked spot)
    MASK_MISSING = "mask_missing"  #: an interaction target was not in the re-rendered frame
    INVALID = "invalid"  #: the derived trajectory failed the schema (a bug)
    VET_FAILED = "vet_failed"  #: the derived trajectory failed its replay from scratch (a bug)


class EqaPathReason(Outcome):
    """Why an accepted EQA question did or did not give an expert trajectory (``alfred-gen eqa paths``).

    Words are distinct from the other outcomes' where their exit codes differ (``already_made``,
    ``no_path``): outcomes are str enums, so equal words would be one key of the table below.
    """

    OK = "ok"
    EXISTS = "already_made"  #: the trajectory's directory is already there; it is left untouched
    NO_VIEW = "no_view"  #: the target has no best view in the home's facts (the facts are stale)
    NO_FAR_SPAWN = "no_far_spawn"  #: no reachable point is as far from the target as asked (a small home)
    NO_PATH = "no_path"  #: no walk on the grid from the spawn to the view (a bug: the grid is connected)
    ACTION_FAILED = "action_failed"  #: the simulator refused a step of the walk while recording
    TARGET_NOT_SEEN = "target_not_seen"  #: the last frame does not show the target as the facts said
    INVALID = "invalid"  #: the trajectory failed the schema (a bug)
    VET_FAILED = "vet_failed"  #: the written trajectory failed its replay from scratch (a bug)


#: Derive outcomes that say the variant does not apply to a source: the command still succeeds.
DERIVE_NOT_APPLICABLE = frozenset({
    DeriveReason.EXISTS, DeriveReason.NO_NAVIGATION, DeriveReason.NO_EARLIER_DESTINATION,
    DeriveReason.NOT_REVERSIBLE, DeriveReason.UNREACHABLE, DeriveReason.GOAL_LOST,
})


class ExportReason(Outcome):
    """Why a trajectory was or was not exported as an ALFWorld game (``ok`` when it was).

    The first group are skips (ALFWorld cannot hold the task; not a failure), the second failures."""

    OK = "ok"
    MOVABLE_RECEPTACLE = "movable_receptacle"  #: pick_and_place_with_movable_recep: ALFWorld's loader skips it
    SLICED = "sliced"  #: a slice task: ALFWorld's loader skips it
    UNKNOWN_TASK = "unknown_task"  #: a task type ALFWorld has no goal or game for
    LAMP_WITHOUT_RECEPTACLE = "lamp_without_receptacle"  #: the lamp stands in no receptacle: ALFWorld cannot use it
    UNPLACEABLE = "unplaceable"  #: ALFWorld's tables cannot place or treat an object the plan needs
    LOOSE_OBJECT = "loose_object"  #: the plan takes an object that lies in no receptacle ALFWorld knows
    NO_POSE = "no_pose"  #: a receptacle the plan needs has no interaction pose (no location)
    BAD_FILE = "bad_file"  #: unreadable, truncated, not JSON, or fails the schema
    UNKNOWN_SCENE = "unknown_scene"  #: floor_plan names no scene we can load
    RESTORE_FAILED = "restore_failed"  #: the scene block does not fit the scene
    UNTRANSLATABLE = "untranslatable"  #: a plan step has no ALFWorld command (a high-level action we do not know)


#: The ExportReasons that are skips (the task does not fit ALFWorld), not failures.
EXPORT_SKIPS = frozenset({
    ExportReason.MOVABLE_RECEPTACLE, ExportReason.SLICED, ExportReason.UNKNOWN_TASK,
    ExportReason.LAMP_WITHOUT_RECEPTACLE, ExportReason.UNPLACEABLE, ExportReason.LOOSE_OBJECT, ExportReason.NO_POSE,
})


class GameCheckReason(Outcome):
    """How an exported ALFWorld game fared in ALFWorld's own loader and engine (``ok``: won)."""

    OK = "ok"
    LOAD_FAILED = "load_failed"  #: ALFWorld's engine could not load the game
    INADMISSIBLE = "inadmissible"  #: a walkthrough command was not admissible when issued
    NOT_WON = "not_won"  #: every command was admissible but the game was not won
    NOT_COLLECTED = "not_collected"  #: ALFWorld's training loader did not collect the game


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


class VideoReason(Outcome):
    """Why ``alfred-gen video`` made or did not make one trajectory's video."""

    OK = "ok"
    BAD_FILE = "bad_file"  #: unreadable, truncated, not JSON or fails the schema
    RERENDER_FAILED = "rerender_failed"  #: frames are missing and the replay that would render them failed
    BAD_FRAME = "bad_frame"  #: a frame on disk does not decode (cut short, not an image) or has another size


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
    **{reason: ExitCode.FAILED for reason in DeriveReason},
    **{reason: ExitCode.OK for reason in DERIVE_NOT_APPLICABLE},
    DeriveReason.OK: ExitCode.OK,
    **{reason: ExitCode.FAILED for reason in ExportReason},
    **{reason: ExitCode.OK for reason in EXPORT_SKIPS},  # a skip is a fact about the task, not a failure
    ExportReason.OK: ExitCode.OK,
    **{reason: ExitCode.FAILED for reason in GameCheckReason},
    GameCheckReason.OK: ExitCode.OK,
    JobError.USER_ERROR: ExitCode.FAILED,  # the run re-raises the UserError with its own code
    JobError.EXCEPTION: ExitCode.FAILED,
    JobError.CRASHED: ExitCode.FAILED,
    ScheduleVerdict.WAIT: ExitCode.OK,  # never ends a command; listed so the table is complete
    ScheduleVerdict.DONE: ExitCode.OK,
    ScheduleVerdict.EXHAUSTED: ExitCode.FAILED,
    **{reason: ExitCode.FAILED for reason in EqaPathReason},
    EqaPathReason.OK: ExitCode.OK,
    EqaPathReason.EXISTS: ExitCode.OK,
    EqaPathReason.NO_FAR_SPAWN: ExitCode.OK,  # the home is too small for the spawn distance asked: nothing wrong
    VideoReason.OK: ExitCode.OK,
    VideoReason.BAD_FILE: ExitCode.FAILED,
    VideoReason.RERENDER_FAILED: ExitCode.FAILED,
    VideoReason.BAD_FRAME: ExitCode.FAILED,
}


def exit_code_of(outcome: Outcome) -> ExitCode:
    """The exit code for ``outcome`` (:data:`OUTCOME_EXIT_CODES`)."""
    return OUTCOME_EXIT_CODES[outcome]


class UserError(Exception):
    """An error caused by the user's input or environment, reported as one line plus an exit code."""

    def __init__(self, message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message)
        self.code = ExitCode(code)


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
