"""Outcomes are enums, each with its exit code: the pipeline's in gen/errors.py's table, the dataset
families' carried by their members (CodedOutcome, in the family's package); and the words they print
and write are the words ALFRED-era files and summaries use."""

from __future__ import annotations

import json

from alfred_gen.derive.outcomes import DERIVE_NOT_APPLICABLE, DeriveReason
from alfred_gen.eqa.outcomes import EqaPathReason
from alfred_gen.errors import (
    OUTCOME_EXIT_CODES,
    CodedOutcome,
    ExitCode,
    GenerationReason,
    JobError,
    Outcome,
    PlanStatus,
    ScheduleVerdict,
    VetReason,
    exit_code_of,
)
from alfred_gen.export.alfworld.outcomes import EXPORT_SKIPS, ExportReason, GameCheckReason
from alfred_gen.export.video import VideoReason

ENUMS = (PlanStatus, GenerationReason, VetReason, JobError, ScheduleVerdict, VideoReason, DeriveReason, ExportReason,
         GameCheckReason, EqaPathReason)


CORE = (PlanStatus, GenerationReason, VetReason, JobError, ScheduleVerdict)
FAMILIES = (VideoReason, DeriveReason, ExportReason, GameCheckReason, EqaPathReason)


def test_every_outcome_has_an_exit_code() -> None:
    assert set(OUTCOME_EXIT_CODES) == {member for enum in CORE for member in enum}
    assert all(issubclass(enum, CodedOutcome) and enum.__module__ != "alfred_gen.errors" for enum in FAMILIES)
    assert all(isinstance(exit_code_of(member), ExitCode) for enum in ENUMS for member in enum)


def test_a_family_outcome_ends_a_command_with_the_code_it_always_did() -> None:
    succeeding = {member for enum in FAMILIES for member in enum if exit_code_of(member) == ExitCode.OK}
    assert succeeding == {
        VideoReason.OK, DeriveReason.OK, ExportReason.OK, GameCheckReason.OK, EqaPathReason.OK,
        DeriveReason.EXISTS, DeriveReason.NO_NAVIGATION, DeriveReason.NO_EARLIER_DESTINATION,
        DeriveReason.NOT_REVERSIBLE, DeriveReason.UNREACHABLE, DeriveReason.GOAL_LOST,  # not applicable
        ExportReason.MOVABLE_RECEPTACLE, ExportReason.SLICED, ExportReason.UNKNOWN_TASK, ExportReason.NO_POSE,
        ExportReason.LAMP_WITHOUT_RECEPTACLE, ExportReason.UNPLACEABLE, ExportReason.LOOSE_OBJECT,  # skips
        EqaPathReason.EXISTS, EqaPathReason.NO_FAR_SPAWN,
    }
    assert all(exit_code_of(m) == ExitCode.FAILED for enum in FAMILIES for m in enum if m not in succeeding)
    assert succeeding & set(DeriveReason) - {DeriveReason.OK} == DERIVE_NOT_APPLICABLE
    assert succeeding & set(ExportReason) - {ExportReason.OK} == EXPORT_SKIPS
    assert (DeriveReason.EXISTS, EqaPathReason.EXISTS) == ("already_derived", "already_made")  # words as before


def test_what_decides_a_command_maps_to_its_documented_code() -> None:
    assert exit_code_of(PlanStatus.SOLVED) == exit_code_of(GenerationReason.OK) == ExitCode.OK
    assert exit_code_of(PlanStatus.UNSOLVABLE) == exit_code_of(GenerationReason.UNSOLVABLE) == ExitCode.UNSOLVABLE
    assert exit_code_of(PlanStatus.TIMEOUT) == exit_code_of(GenerationReason.PLAN_TIMEOUT) == ExitCode.TIMEOUT
    assert exit_code_of(PlanStatus.ERROR) == ExitCode.INTERNAL
    assert exit_code_of(VetReason.ACTION_FAILED) == exit_code_of(GenerationReason.MASK_MISSING) == ExitCode.FAILED


def test_outcomes_print_and_serialise_as_their_words() -> None:
    assert f"{GenerationReason.MASK_MISSING}" == str(GenerationReason.MASK_MISSING) == "mask_missing"
    assert f"{VetReason.OK:>4}" == "  ok"
    assert json.dumps({"status": PlanStatus.SOLVED}) == '{"status": "solved"}'
    assert VetReason("bad_file") is VetReason.BAD_FILE and GenerationReason.OK == "ok"
    assert all(isinstance(member, Outcome) for enum in ENUMS for member in enum)
