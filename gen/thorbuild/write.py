"""Writing a lite THOR build: the executable ai2thor launches and the marker that names it.

The executable is a shell script rather than a copy of anything: it ``exec``s the interpreter
that wrote it (``sys.executable``) on ``-m alfred_gen.thorbuild``, passing ai2thor's command-line
arguments through, so the build always runs the installed alfred-gen and its scene library.
``thor-lite-<line>`` is the name :func:`alfred_gen.sim.thor.find_thor_build` finds in a directory.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.thor import LITE_BUILD_FORMAT, LITE_BUILD_MARKER

#: The ai2thor lines a lite build can speak, as ``--version`` spells them -> the wire it uses.
LINES = {"5": "fifo", "2.1.0": "http"}


def line_of(version: str) -> str:
    """The ai2thor line a ``--version`` names ("5", "5.0.0" -> "5"; "2.1", "2.1.0" -> "2.1.0")."""
    text = str(version).strip()
    if text.split(".")[0] == "5":
        return "5"
    if text in ("2.1", "2.1.0"):
        return "2.1.0"
    raise UserError(f"--version must be 5 or 2.1.0 (the ai2thor lines a lite build speaks), got {version!r}",
                    ExitCode.USAGE)


#: Folder of a 2.1.0 build holding a stand-in ``xdpyinfo`` (see :func:`_write_display_check`).
DISPLAY_CHECK_DIR = "no-display"


def _write_display_check(folder: Path) -> None:
    """ai2thor 2.1.0's ``start()`` runs ``xdpyinfo`` (when installed) and refuses to launch any build
    without a working X display; a lite build draws on none. Code that starts the build itself
    (ALFRED's ThorEnv) can put this folder first on PATH so that check passes; alfred-gen's own
    thor backend skips the check instead."""
    folder.mkdir(exist_ok=True)
    stand_in = folder / "xdpyinfo"
    write_text(stand_in, "#!/bin/sh\n# a lite THOR build needs no X display (alfred-gen thor-build)\nexit 0\n")
    stand_in.chmod(0o755)


def write_build(version: str, out: str | os.PathLike[str], python: str | None = None) -> Path:
    """Write a lite THOR build for ai2thor ``version`` into directory ``out``; the executable's path."""
    line = line_of(version)
    directory = Path(out)
    if directory.exists() and not directory.is_dir():
        raise UserError(f"--out {directory} exists and is not a directory", ExitCode.BAD_INPUT)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        executable = directory / f"thor-lite-{line}"
        interpreter = python or sys.executable
        script = (
            "#!/bin/sh\n"
            f"# lite as an AI2-THOR build for ai2thor {line} (written by alfred-gen thor-build)\n"
            f"exec {shlex.quote(interpreter)} -m alfred_gen.thorbuild --ai2thor {line} \"$@\"\n"
        )
        write_text(executable, script)
        executable.chmod(0o755)
        if line == "2.1.0":
            _write_display_check(directory / DISPLAY_CHECK_DIR)
        marker = {"format": LITE_BUILD_FORMAT, "ai2thor": line, "executable": executable.name,
                  "python": interpreter}
        write_text(directory / LITE_BUILD_MARKER, json.dumps(marker, indent=1) + "\n")
    except OSError as error:
        raise UserError(f"cannot write the build into {directory}: {error.strerror or error}",
                        ExitCode.BAD_INPUT) from None
    return executable


def build_command(version: str, out: str | os.PathLike[str], echo: Callable[[str], None] = print) -> int:
    """``alfred-gen thor-build``: write the build and say how ai2thor starts it; the exit code."""
    executable = write_build(version, out)
    line = line_of(version)
    echo(f"wrote a lite THOR build for ai2thor {line}: {executable}")
    if line == "5":
        echo(f"  ai2thor:  Controller(local_executable_path={str(executable)!r}, x_display=':0', scene='LitePlan1')")
    else:
        echo(f"  ai2thor:  controller.local_executable_path = {str(executable)!r}; controller.start()")
        echo(f"  (2.1.0 checks for an X display with xdpyinfo: PATH={Path(out) / DISPLAY_CHECK_DIR}:$PATH passes it)")
    echo(f"  alfred-gen: --backend thor --thor-build {Path(out)}")
    return int(ExitCode.OK)
