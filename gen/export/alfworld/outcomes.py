"""What became of one trajectory in ``alfred-gen export alfworld`` and of one game in
``alfworld-check``: the family's outcomes, each with the exit code a command ends with when it
decides it (:class:`~alfred_gen.errors.CodedOutcome`)."""

from __future__ import annotations

from alfred_gen.errors import CodedOutcome, ExitCode

_SKIP = ExitCode.OK  # a skip is a fact about the task (ALFWorld cannot hold it), not a failure


class ExportReason(CodedOutcome):
    """Why a trajectory was or was not exported as an ALFWorld game (``ok`` when it was).

    The first group are skips (exit code 0), the second failures (exit code 1)."""

    OK = "ok", ExitCode.OK
    MOVABLE_RECEPTACLE = "movable_receptacle", _SKIP  #: pick_and_place_with_movable_recep: ALFWorld's loader skips it
    SLICED = "sliced", _SKIP  #: a slice task: ALFWorld's loader skips it
    UNKNOWN_TASK = "unknown_task", _SKIP  #: a task type ALFWorld has no goal or game for
    LAMP_WITHOUT_RECEPTACLE = "lamp_without_receptacle", _SKIP  #: the lamp stands in no receptacle ALFWorld can use
    UNPLACEABLE = "unplaceable", _SKIP  #: ALFWorld's tables cannot place or treat an object the plan needs
    LOOSE_OBJECT = "loose_object", _SKIP  #: the plan takes an object that lies in no receptacle ALFWorld knows
    NO_POSE = "no_pose", _SKIP  #: a receptacle the plan needs has no interaction pose (no location)
    BAD_FILE = "bad_file"  #: unreadable, truncated, not JSON, or fails the schema
    UNKNOWN_SCENE = "unknown_scene"  #: floor_plan names no scene we can load
    RESTORE_FAILED = "restore_failed"  #: the scene block does not fit the scene
    UNTRANSLATABLE = "untranslatable"  #: a plan step has no ALFWorld command (a high-level action we do not know)


#: The ExportReasons that are skips (the task does not fit ALFWorld), not failures.
EXPORT_SKIPS = frozenset(
    reason for reason in ExportReason if reason is not ExportReason.OK and reason.exit_code == _SKIP)


class GameCheckReason(CodedOutcome):
    """How an exported ALFWorld game fared in ALFWorld's own loader and engine (``ok``: won)."""

    OK = "ok", ExitCode.OK
    LOAD_FAILED = "load_failed"  #: ALFWorld's engine could not load the game
    INADMISSIBLE = "inadmissible"  #: a walkthrough command was not admissible when issued
    NOT_WON = "not_won"  #: every command was admissible but the game was not won
    NOT_COLLECTED = "not_collected"  #: ALFWorld's training loader did not collect the game
