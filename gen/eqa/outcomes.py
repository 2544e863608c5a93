"""What became of one accepted question in ``alfred-gen eqa paths``: the family's outcomes, each
with the exit code a command ends with when it decides it (:class:`~alfred_gen.errors.CodedOutcome`)."""

from __future__ import annotations

from alfred_gen.errors import CodedOutcome, ExitCode


class EqaPathReason(CodedOutcome):
    """Why an accepted EQA question did or did not give an expert trajectory (``alfred-gen eqa paths``).
    Exit code 0 for a path made, kept, or a home too small for the spawn distance asked; 1 otherwise."""

    OK = "ok", ExitCode.OK
    EXISTS = "already_made", ExitCode.OK  #: the trajectory's directory is already there; it is left untouched
    NO_VIEW = "no_view"  #: the target has no best view in the home's facts (the facts are stale)
    NO_FAR_SPAWN = "no_far_spawn", ExitCode.OK  #: no reachable point is as far from the target as asked (a small home)
    NO_PATH = "no_path"  #: no walk on the grid from the spawn to the view (a bug: the grid is connected)
    ACTION_FAILED = "action_failed"  #: the simulator refused a step of the walk while recording
    TARGET_NOT_SEEN = "target_not_seen"  #: the last frame does not show the target as the facts said
    INVALID = "invalid"  #: the trajectory failed the schema (a bug)
    VET_FAILED = "vet_failed"  #: the written trajectory failed its replay from scratch (a bug)
