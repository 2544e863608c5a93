"""The stamps of trials that passed the resume check, kept in the run state so a resumed run skips
the check of a trial nobody has touched since (see :mod:`alfred_gen.sample.trial_check`).

Each run writes its own file, ``<out>/.alfred-gen/checked-<I>of<M>.json`` (so shards running at once
never write one file), atomically, when it ends; it reads every run's file when it starts. A stamp
holds only if every file it covers is as it was, so a stamp from any run, shard or older file is
safe to use, and a stale one only costs a full check. The cache therefore never changes what a
run keeps: a missing, damaged or foreign file is simply not used, and a run that cannot write it
says nothing (it saves time, nothing else). Its contents depend on the machine (file times), so it
is not part of the dataset's bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from alfred_gen.atomic import write_text
from alfred_gen.sample.trial_check import Stamp

#: Format of the stamp files (another format is ignored).
FORMAT = 1

#: ``checked-<I>of<M>.json`` in the run state directory.
PREFIX = "checked-"


def cache_path(state: Path, shard_label: str) -> Path:
    """The stamp file a run of shard ``shard_label`` (``IofM``) writes."""
    return state / f"{PREFIX}{shard_label}.json"


def _stamp(value: object) -> Stamp | None:
    """A stamp from its JSON form ``[spawn, frames, [[first, count], ...], digest]``; None if malformed."""
    if not (isinstance(value, list) and len(value) == 4):
        return None
    spawn, frames, runs, digest = value
    if not (isinstance(spawn, int) and isinstance(frames, bool) and isinstance(digest, str)
            and isinstance(runs, list)):
        return None
    if not all(isinstance(r, list) and len(r) == 2 and all(isinstance(x, int) and x >= 0 for x in r)
               for r in runs):
        return None
    return Stamp(spawn, frames, tuple((first, count) for first, count in runs), digest)


def load_stamps(state: Path) -> dict[str, Stamp]:
    """Every run's stamps, by ``<task dir>/<trial id>`` (unreadable files are skipped)."""
    stamps: dict[str, Stamp] = {}
    try:
        paths = sorted(state.glob(f"{PREFIX}*.json"))
    except OSError:
        return stamps
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or not isinstance(data.get("trials"), dict):
                continue
        except (OSError, ValueError, AttributeError, RecursionError):
            continue
        for key, value in data["trials"].items():
            stamp = _stamp(value)
            if stamp is not None:
                stamps[key] = stamp
    return stamps


def save_stamps(state: Path, shard_label: str, stamps: Mapping[str, Stamp]) -> None:
    """Write this run's stamps atomically; a failure is ignored (the next run checks in full)."""
    lines = ",\n".join(
        f"{json.dumps(key)}: {json.dumps([s.spawn, s.frames, [list(r) for r in s.frame_runs], s.digest])}"
        for key, s in sorted(stamps.items()))
    try:
        write_text(cache_path(state, shard_label), f'{{"format": {FORMAT}, "trials": {{\n{lines}\n}}}}\n',
                   durable=False)
    except OSError:
        pass
