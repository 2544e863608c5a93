"""What became of one source in ``alfred-gen derive`` and ``perturb``: the family's outcomes, each
with the exit code a command ends with when it decides it (:class:`~alfred_gen.errors.CodedOutcome`)."""

from __future__ import annotations

from alfred_gen.errors import CodedOutcome, ExitCode

_OK = ExitCode.OK


class DeriveReason(CodedOutcome):
    """Why a source trajectory did or did not give a derived one (``alfred-gen derive``).

    Some reasons say the variant does not apply to the source (nothing is wrong, exit code 0:
    NAV-ONLY of a demo without navigation, REV of a demo without an earlier destination); the others
    are failures (exit code 1). The words are the ones summaries have always printed.
    """

    OK = "ok", _OK
    EXISTS = "already_derived", _OK  #: the derived trajectory's directory is already there; it is left untouched
    BAD_SOURCE = "bad_source"  #: the source is unreadable, not JSON or fails the schema
    SOURCE_DOES_NOT_REPLAY = "source_does_not_replay"  #: the source fails its own replay check here
    NO_NAVIGATION = "no_navigation", _OK  #: the source has no navigation subgoal (GotoLocation)
    NO_EARLIER_DESTINATION = "no_earlier_destination", _OK  #: too few earlier destinations farther than the threshold
    NOT_REVERSIBLE = "not_reversible", _OK  #: a navigation action the reversal rule cannot undo (a teleport)
    UNREACHABLE = "unreachable", _OK  #: no walk on the grid to the earlier destination (--reverse shortest)
    GOAL_LOST = "goal_lost", _OK  #: the source's goal no longer holds where the walk back ends (a lamp out of view)
    ACTION_FAILED = "action_failed"  #: the simulator refused a derived action (a walk back into a blocked spot)
    MASK_MISSING = "mask_missing"  #: an interaction target was not in the re-rendered frame
    INVALID = "invalid"  #: the derived trajectory failed the schema (a bug)
    VET_FAILED = "vet_failed"  #: the derived trajectory failed its replay from scratch (a bug)


#: Derive outcomes that say the variant does not apply to a source: the command still succeeds.
DERIVE_NOT_APPLICABLE = frozenset(
    reason for reason in DeriveReason if reason is not DeriveReason.OK and reason.exit_code == ExitCode.OK)
