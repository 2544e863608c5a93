"""``alfred-gen validate PATH...``: check traj_data.json files against the trajectory format.

Files are checked whatever their name. Directories are searched recursively for files named
``traj_data.json``, in sorted order, so the output is the same on every run. Output goes to
``echo``, one line per problem, then a summary:

    <file>: <json path>: <message>          a file that parses but breaks the format
    <file>: not valid JSON (line L col C: ...)   a truncated or garbage file
    <path>: no such file or directory        an argument that does not exist
    <dir>: no traj_data.json found under this directory
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
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory


def find_trajectory_files(
    paths: Iterable[str | os.PathLike],
) -> tuple[list[Path], list[str]]:
    """Files to check, in argument order (each directory's finds sorted), and path problems.

    A file named twice (directly or through overlapping directories) is checked once.
    """
    files: list[Path] = []
    seen: set[Path] = set()
    path_problems: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found = sorted(match for match in path.rglob(TRAJ_FILE_NAME) if match.is_file())
            if not found:
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


def validate_paths(
    paths: Iterable[str | os.PathLike], echo: Callable[[str], None] = print
) -> ExitCode:
    """Check every traj_data.json under ``paths``, print problems and a summary, return the code."""
    paths = list(paths)
    if not paths:
        raise UserError("validate: give at least one file or directory", ExitCode.USAGE)
    files, path_problems = find_trajectory_files(paths)
    for line in path_problems:
        echo(line)
    valid = invalid = 0
    for file in files:
        try:
            load_trajectory(file)
        except UserError as error:
            invalid += 1
            echo(str(error))
        else:
            valid += 1
    summary = f"{valid} valid, {invalid} invalid"
    if path_problems:
        noun = "path" if len(path_problems) == 1 else "paths"
        summary += f", {len(path_problems)} {noun} with no {TRAJ_FILE_NAME}"
    echo(summary)
    if invalid or path_problems or not files:
        return ExitCode.FAILED
    return ExitCode.OK
