"""The results file of an `eval` command: every episode's record and the metrics, rewritten
atomically after each episode, so a rerun with the same ``--out`` resumes where the last one
stopped. A file made by another command, or with other settings (agent, mode, limits), is refused:
its records would not be comparable, and mixing them would corrupt both."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError


def _shown(settings: Mapping[str, Any]) -> str:
    return ", ".join(f"{key} {value!r}" for key, value in settings.items())


def read_episodes(path: Path, fmt: str, command: str, settings: Mapping[str, Any],
                  absent: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The episode records of the results file ``path`` (none when it does not exist yet).

    ``fmt`` is the file's ``format`` word, ``settings`` what must be the same as when it was written;
    ``absent`` gives the value a setting had when files did not record it yet. UserError: BAD_INPUT
    when ``path`` is not a results file of ``command``, USAGE when its settings differ."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UserError(f"{path}: not a results file ({' '.join(str(error).split())})", ExitCode.BAD_INPUT) from None
    if not isinstance(data, dict) or data.get("format") != fmt or not isinstance(data.get("episodes"), dict):
        raise UserError(f"{path}: not a results file of `{command}`", ExitCode.BAD_INPUT)
    defaults = absent or {}
    held = {key: data.get(key, defaults.get(key)) for key in settings}
    if held != dict(settings):
        raise UserError(f"{path}: holds results of {_shown(held)}, not {_shown(settings)}: choose another --out",
                        ExitCode.USAGE)
    return {key: record for key, record in data["episodes"].items() if isinstance(record, dict)}


def write_results(path: Path, fmt: str, settings: Mapping[str, Any], figures: Mapping[str, Any],
                  records: Mapping[str, Mapping[str, Any]]) -> None:
    """Write the results file: its format word, settings, ``figures`` (the metrics) and every record."""
    from alfred_gen.atomic import write_text

    payload = {"format": fmt, **settings, **figures, "episodes": dict(sorted(records.items()))}
    write_text(path, json.dumps(payload, indent=1, sort_keys=True) + "\n", durable=False)
