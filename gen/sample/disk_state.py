"""What a run finds and keeps in its output directory: the source of truth for resuming.

The tree of finished trajectories says what was made; ``<out>/.alfred-gen/failures-<shard>.json``
says which attempts failed (rewritten atomically; a failure lost to a kill is simply tried again);
a lock per shard stops two runs from writing the same shard of one directory at once; temporary
directories of killed jobs are removed on start. Keeping all of it here makes the resume semantics
readable in one file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.options import SampleOptions
from alfred_gen.traj.format import TRAJ_FILE_NAME

#: Where run state lives inside the output directory (ignored by every reader of trajectories).
STATE_DIR = ".alfred-gen"

#: Prefix of the temporary directories generate_trajectory writes into.
TEMP_PREFIX = ".tmp-"


@dataclass
class TreeState:
    """Finished trajectories per tuple (trial directory names) found in the output directory."""

    trials: dict[TaskTuple, list[str]] = field(default_factory=dict)
    incomplete: dict[TaskTuple, list[str]] = field(default_factory=dict)


def scan_tree(out: Path) -> TreeState:
    """Every ``<task dir>/trial_*`` under ``out``; complete ones hold traj_data.json."""
    state = TreeState()
    if not out.is_dir():
        return state
    for task_dir in sorted(out.iterdir()):
        task = TaskTuple.from_dir_name(task_dir.name) if task_dir.is_dir() else None
        if task is None:
            continue
        for trial in sorted(task_dir.iterdir()):
            if not (trial.is_dir() and trial.name.startswith("trial_")):
                continue
            target = state.trials if (trial / TRAJ_FILE_NAME).is_file() else state.incomplete
            target.setdefault(task, []).append(trial.name)
    return state


def _state_dir(out: Path) -> Path:
    return out / STATE_DIR


def failures_path(out: Path, options: SampleOptions) -> Path:
    """This shard's failure log (one file per shard, so shards sharing a directory never race)."""
    return _state_dir(out) / f"failures-{options.shard_label()}.json"


def load_failures(path: Path) -> list[dict[str, Any]]:
    """Recorded failed attempts: dicts with ``task`` (dir name), ``seed``, ``attempt``, ``reason``."""
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        records = data["failures"]
        return [r for r in records if isinstance(r, dict) and TaskTuple.from_dir_name(str(r.get("task", "")))]
    except (OSError, ValueError, KeyError, TypeError):
        raise UserError(f"{path} is unreadable: delete it to forget the recorded failures",
                        ExitCode.BAD_INPUT) from None


def save_failures(path: Path, records: list[dict[str, Any]]) -> None:
    """Write the failure log atomically."""
    # One record per line: readable, and cheap to write for thousands of records.
    lines = ",\n".join(json.dumps(record, sort_keys=True) for record in records)
    payload = '{"format": 1, "failures": [\n' + lines + ("\n" if records else "") + "]}\n"
    write_text(path, payload)


@contextlib.contextmanager
def run_lock(out: Path, options: SampleOptions, wait_seconds: float = 10.0) -> Iterator[None]:
    """Hold an exclusive lock per (output directory, shard) so two runs never interleave jobs.

    The lock dies with the process (and with its workers, which die with it), so a run killed by
    kill -9 never blocks the next one for longer than its workers take to exit.
    """
    path = _state_dir(out) / f"lock-{options.shard_label()}"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise UserError(
                        f"another `alfred-gen sample` is writing shard {options.shard[0]}/{options.shard[1]} "
                        f"of {out}", ExitCode.FAILED,
                    ) from None
                time.sleep(0.2)
        yield
    finally:
        os.close(handle)


def clean_stale_temp(out: Path, own_trial_ids: Callable[[], set[str]] | None) -> int:
    """Remove temporary directories left by killed jobs; returns how many.

    Unsharded (``own_trial_ids`` None) every ``.tmp-trial_*`` is stale (the run lock excludes other
    writers); a shard only removes those whose trial id is one of its own.
    """
    if not out.is_dir():
        return 0
    stale = [p for p in sorted(out.iterdir()) if p.name.startswith(TEMP_PREFIX + "trial_") and p.is_dir()]
    if stale and own_trial_ids is not None:
        own = own_trial_ids()
        stale = [p for p in stale if p.name[len(TEMP_PREFIX):] in own]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return len(stale)

