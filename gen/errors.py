"""Exit codes and the user-facing error type: the one table every command and the README share.

Every failure a user can cause (a bad file, an unknown scene, an impossible task, a missing THOR
build) is raised as :class:`UserError` carrying one of these codes; the CLI prints it as a single
line and exits with that code. Anything else escaping a command is a bug and exits with INTERNAL.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Process exit codes of `alfred-gen` (documented in the README and in `--help`)."""

    OK = 0  #: everything asked for was done
    FAILED = 1  #: the command ran, but some items failed (invalid files, failed replays, ...)
    USAGE = 2  #: bad command-line usage (unknown option, missing argument)
    BAD_INPUT = 3  #: an input file is unreadable, malformed, truncated or fails the schema
    NOT_FOUND = 4  #: an unknown scene, object id, task type or class was named
    UNSOLVABLE = 5  #: the task is impossible in this scene (no plan exists)
    TIMEOUT = 6  #: the planner or a job ran out of its time limit
    BACKEND_UNAVAILABLE = 7  #: the requested simulator backend cannot start here
    INTERNAL = 8  #: a bug in alfred-gen; please report it with the command line
    INTERRUPTED = 130  #: stopped by Ctrl-C / SIGINT; finished work is kept


EXIT_CODE_MEANINGS: dict[int, str] = {
    ExitCode.OK: "success",
    ExitCode.FAILED: "ran, but some items failed (invalid files, failed replays or generations)",
    ExitCode.USAGE: "bad command-line usage",
    ExitCode.BAD_INPUT: "unreadable, malformed or schema-invalid input file",
    ExitCode.NOT_FOUND: "unknown scene, object, task type or class",
    ExitCode.UNSOLVABLE: "task impossible in this scene (no plan)",
    ExitCode.TIMEOUT: "time limit reached",
    ExitCode.BACKEND_UNAVAILABLE: "simulator backend cannot start (e.g. no THOR build)",
    ExitCode.INTERNAL: "internal error (a bug: please report it)",
    ExitCode.INTERRUPTED: "interrupted; finished work is kept",
}


class UserError(Exception):
    """An error caused by the user's input or environment, reported as one line plus an exit code."""

    def __init__(self, message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message)
        self.code = ExitCode(code)


def exit_code_table() -> str:
    """The exit-code table as plain text, for `--help` and the README."""
    return "\n".join(f"{int(code):>4}  {EXIT_CODE_MEANINGS[code]}" for code in ExitCode)
