"""``alfred-gen validate PATH...``: check traj_data.json files against the trajectory format.

Files are checked whatever their name. Directories are searched recursively for files named
``traj_data.json``, in sorted order, so the output is the same on every run; hidden directories
(a ``.tmp-trial_*`` still being written or left by a killed run, a sampler's ``.alfred-gen``) are
not trajectories and are not looked into. Output goes to ``echo``, one line per problem, then a
summary:

    <file>: <json path>: <message>          a file that parses but breaks the format
    <file>: not valid JSON (line L col C: ...)   a truncated or garbage file
    <path>: no such file or directory        an argument that does not exist
    <dir>: no traj_data.json found under this directory
    <trial dir>: trial directory without traj_data.json
    N valid, M invalid[, K paths with no traj_data.json]

A missing path or a directory with no trajectory is reported like an invalid file: it gets its
own line and the command goes on to check the rest. It is not raised as an error that would
stop the run, because one bad argument in a long list should not hide the results for the others.
It makes the exit code non-zero. The return value is ExitCode.OK only when at least one file was
checked and every file and path was fine, else ExitCode.FAILED.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory, trajectories_under


def find_trajectory_files(
    paths: Iterable[str | os.PathLike],
) -> tuple[list[Path], list[str]]:
    """Files to check, in argument order (each directory's finds sorted), and path problems
    (a missing path, a directory without trajectories, a trial directory without its file).

    Hidden directories (``.tmp-trial_*`` of a run still writing or killed, ``.alfred-gen``) are
    not looked into. A file named twice (directly or through overlapping directories) is checked once.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    path_problems: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found, missing = trajectories_under(path)
            path_problems.extend(f"{trial}: trial directory without {TRAJ_FILE_NAME}" for trial in missing)
            if not found and not missing:
                path_problems.append(f"{path}: no {TRAJ_FILE_NAME} found under this directory")
        elif path.exists():
            found = [path]
        else:
            path_problems.append(f"{path}: no such file or directory")
            found = []
        for file in found:
            key = file.resolve()
            if key not in seen:
                seen.add(key)
                files.append(file)
    return files, path_problems


def check_file(file: Path) -> str | None:
    """The one line saying why ``file`` is not a valid trajectory, or None. Never raises: one file
    that cannot be checked must not stop the check of the others."""
    try:
        load_trajectory(file)
    except UserError as error:
        return " ".join(str(error).split())
    except Exception as error:  # a bug in a check: report it on this file's line and go on
        return f"{file}: could not be checked ({type(error).__name__}: {' '.join(str(error).split())[:200]})"
    return None


def validate_paths(
    paths: Iterable[str | os.PathLike], echo: Callable[[str], None] = print
) -> ExitCode:
    """Check every traj_data.json under ``paths``, print problems and a summary, return the code:
    FAILED when a file is invalid; UserError NOT_FOUND (after the others are checked) when a given
    path does not exist or is a directory with nothing to check, as every command does."""
    paths = list(paths)
    if not paths:
        raise UserError("validate: give at least one file or directory", ExitCode.USAGE)
    files, path_problems = find_trajectory_files(paths)
    for line in path_problems:
        echo(line)
    valid = invalid = 0
    for file in files:
        problem = check_file(file)
        if problem is None:
            valid += 1
        else:
            invalid += 1
            echo(problem)
    summary = f"{valid} valid, {invalid} invalid"
    if path_problems:
        noun = "path" if len(path_problems) == 1 else "paths"
        summary += f", {len(path_problems)} {noun} with no {TRAJ_FILE_NAME}"
    echo(summary)
    not_found = _not_found(paths)
    if not_found:  # the same code as every command's for a missing or empty input, after the others are checked
        more = f" (and {len(not_found) - 1} more paths)" if len(not_found) > 1 else ""
        raise UserError(not_found[0] + more, ExitCode.NOT_FOUND)
    if invalid or path_problems or not files:
        return ExitCode.FAILED
    return ExitCode.OK


def _not_found(paths: Iterable[str | os.PathLike]) -> list[str]:
    """A line for each given path that does not exist or is a directory with nothing to check."""
    lines = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found, missing = trajectories_under(path)
            if not found and not missing:
                lines.append(f"{path}: no {TRAJ_FILE_NAME} found under this directory")
        elif not path.exists():
            lines.append(f"{path}: no such file or directory")
    return lines
