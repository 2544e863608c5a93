"""Outcomes are enums with one exit-code table (gen/errors.py): every outcome has a code, and the
words they print and write are the words ALFRED-era files and summaries use."""

from __future__ import annotations

import json

from alfred_gen.errors import (
    OUTCOME_EXIT_CODES,
    DeriveReason,
    EqaPathReason,
    ExitCode,
    ExportReason,
    GameCheckReason,
    GenerationReason,
    JobError,
    Outcome,
    PlanStatus,
    ScheduleVerdict,
    VetReason,
    VideoReason,
    exit_code_of,
)

ENUMS = (PlanStatus, GenerationReason, VetReason, JobError, ScheduleVerdict, VideoReason, DeriveReason, ExportReason,
         GameCheckReason, EqaPathReason)


def test_every_outcome_has_an_exit_code() -> None:
    members = [member for enum in ENUMS for member in enum]
    assert set(OUTCOME_EXIT_CODES) == set(members)
    assert all(isinstance(exit_code_of(member), ExitCode) for member in members)


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
