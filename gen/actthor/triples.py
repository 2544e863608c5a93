"""`alfred-gen actthor triples`: collect the triples of many rooms, one room per job.

Rooms are independent (each is reset for every trial), so a run is a pool of workers, each with its
own simulator, taking rooms until none is left; which worker takes which room changes nothing that
is written. A room's ``room.json`` is written last and atomically, so a killed run loses at most
the rooms in flight, and running the command again finishes the others (rooms already done are
kept as they are). A room not done is collected again whole, the temporary files of the writes a
killed run left in its folder removed first, so the resumed tree is the uninterrupted one's. At the
end ``triples.jsonl`` (every triple of every room, rooms in name order) and ``run.json`` (what
produced them: backend, thresholds, forces, counts) are rewritten. One run writes an output
directory at a time.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import multiprocessing
import re
import signal
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen import __version__
from alfred_gen.actthor import actions
from alfred_gen.actthor.cleaning import RULES
from alfred_gen.actthor.collect import ROOM_FILE, ROOMS_DIR, RoomResult, collect_room
from alfred_gen.atomic import remove_stale_writes, write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.progress import progress
from alfred_gen.scenes.library import resolve_scene_number, scene_numbers, scene_range, simulator
from alfred_gen.sim.controller import Simulator

TRIPLES_FILE = "triples.jsonl"
RUN_FILE = "run.json"

#: The scene sets: lite's procedural rooms, or real THOR rooms (imported ALFRED rooms in lite).
SCENE_SETS = {"lite": "LitePlan", "alfred": "FloorPlan"}


def parse_scenes(values: Sequence[str] | str | None, scene_set: str = "lite") -> list[str]:
    """Scene names from numbers, ranges (``1-30``) or names, comma-separated or repeated; all 120
    rooms when empty. UserError for an unknown scene or scene set."""
    if scene_set not in SCENE_SETS:
        raise UserError(f"unknown scene set {scene_set!r} ({' or '.join(SCENE_SETS)})", ExitCode.USAGE)
    items = [values] if isinstance(values, str) else list(values or [])
    parts = [p.strip() for item in items for p in str(item).split(",") if p.strip()]
    numbers: list[int] = []
    for part in parts:
        inside = scene_range(part)
        if inside is None:
            inside = [resolve_scene_number(re.sub(r"^(LitePlan|FloorPlan)", "", part, flags=re.IGNORECASE))]
        numbers.extend(inside)
    chosen = sorted(set(numbers)) if numbers else list(scene_numbers())
    return [f"{SCENE_SETS[scene_set]}{n}" for n in chosen]


@dataclass
class TriplesSummary:
    rooms: int = 0
    existed: int = 0
    triples: int = 0
    kept: int = 0
    skipped: int = 0
    dropped: Counter = field(default_factory=Counter)
    failed_rooms: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, result: RoomResult) -> None:
        if result.existed:
            self.existed += 1
            return
        self.rooms += 1
        self.triples += result.triples
        self.kept += result.kept
        self.skipped += result.skipped
        self.dropped.update(result.dropped)
        if result.error:
            self.failed_rooms[result.scene] = result.error

    def lines(self) -> list[str]:
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items())) or "none"
        out = [
            f"made {self.triples} triples in {self.rooms} rooms in {self.seconds:.1f} s "
            f"({self.kept} kept after cleaning; dropped: {dropped}); {self.existed} rooms were already done",
        ]
        if self.skipped:
            out.append(f"{self.skipped} object trials could not be set up (see skipped in each room.json)")
        if self.failed_rooms:
            reasons = Counter(self.failed_rooms.values())
            out.append("failed rooms: " + "; ".join(f"{why} ({n})" for why, n in sorted(reasons.items())))
        return out


# --- workers --------------------------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _open(recipe: Simulator) -> Any:
    if recipe.backend == "lite":
        return recipe.open(render=True, segmentation=True, show_dirt=True)
    return recipe.open(render=True, segmentation=True)


def _init_worker(recipe: Simulator, out: str) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops the pool
    with contextlib.suppress(Exception):  # die with the parent (Linux), leaving no writer behind
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    _WORKER.update(controller=_open(recipe), out=Path(out), quiet=recipe.backend == "lite")


def _run_room(scene: str) -> RoomResult:
    return collect_room(_WORKER["controller"], scene, _WORKER["out"], quiet_setup=_WORKER["quiet"])


def run_triples(
    scenes: list[str], out: Path, recipe: Simulator, workers: int = 1, show_progress: bool = True
) -> TriplesSummary:
    """Collect every room of ``scenes`` into ``out`` with ``workers`` processes; rewrite the index."""
    if workers < 1:
        raise UserError(f"--workers must be at least 1, got {workers}", ExitCode.USAGE)
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {out} exists and is not a directory", ExitCode.BAD_INPUT)
    out.mkdir(parents=True, exist_ok=True)
    summary = TriplesSummary()
    started = time.monotonic()
    with progress("actthor triples", len(scenes), show=show_progress) as bar:
        if workers == 1:
            _init_worker_inline(recipe, out)
            for scene in scenes:
                summary.add(_run_room(scene))
                bar.update(1)
        else:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            pool = context.Pool(workers, initializer=_init_worker, initargs=(recipe, str(out)))
            try:
                for result in pool.imap_unordered(_run_room, scenes):
                    summary.add(result)
                    bar.update(1)
                pool.close()
            finally:
                pool.terminate()
                pool.join()
    summary.seconds = time.monotonic() - started
    write_index(out, recipe)
    return summary


def _init_worker_inline(recipe: Simulator, out: Path) -> None:
    _WORKER.update(controller=_open(recipe), out=out, quiet=recipe.backend == "lite")


def room_records(out: Path) -> list[dict[str, Any]]:
    """Every finished room's record under ``out``, in scene-name order."""
    rooms = sorted((out / ROOMS_DIR).glob(f"*/{ROOM_FILE}"), key=lambda p: _scene_key(p.parent.name))
    records = []
    for path in rooms:
        try:
            records.append(json.loads(path.read_text()))
        except (OSError, ValueError) as error:
            raise UserError(f"{path}: unreadable room record ({error})", ExitCode.BAD_INPUT) from None
    return records


def _scene_key(name: str) -> tuple[str, int]:
    match = re.fullmatch(r"(\D*)(\d+)", name)
    return (match.group(1), int(match.group(2))) if match else (name, 0)


def write_index(out: Path, recipe: Simulator) -> None:
    """``triples.jsonl`` and ``run.json`` from the rooms on disk (same rooms, same bytes)."""
    remove_stale_writes(out)  # the index a killed run was writing; the rooms are written by now
    records = room_records(out)
    lines = [json.dumps(t, sort_keys=True) for r in records for t in r.get("triples", [])]
    write_text(out / TRIPLES_FILE, "".join(line + "\n" for line in lines))
    run = {
        "generator": f"alfred-gen {__version__}",
        "backend": recipe.backend,
        "rooms": [r["scene"] for r in records],
        "triples": len(lines),
        "cleaning": RULES.as_dict(),
        "forces": {"throw": actions.THROW_FORCE, "push": actions.PUSH_FORCE, "pull": actions.PULL_FORCE},
        "liquid": actions.LIQUID,
    }
    write_text(out / RUN_FILE, json.dumps(run, indent=1, sort_keys=True) + "\n")


def triples_command(
    scenes: Sequence[str], out: str, *, scene_set: str = "lite", workers: int = 1, backend: str = "lite",
    backend_options: dict[str, Any] | None = None, echo: Callable[..., None] = print,
) -> int:
    """`alfred-gen actthor triples`: run, print the summary; the exit code (FAILED if a room failed)."""
    names = parse_scenes(scenes, scene_set)
    summary = run_triples(names, Path(out), simulator(backend, backend_options), workers)
    for line in summary.lines():
        echo(line)
    return int(ExitCode.FAILED if summary.failed_rooms else ExitCode.OK)
