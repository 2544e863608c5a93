"""ALFRED's split files: which trajectory (and which of its annotations) belongs to which split.

The shape is ALFRED's ``data/splits/oct21.json``: five lists, ``train``, ``valid_seen``,
``valid_unseen``, ``tests_seen`` and ``tests_unseen``, whose entries are
``{"task": "<task dir>/<trial>", "repeat_idx": r}``: one entry per annotation of a trajectory.

:func:`make_splits` builds one for a directory of trajectories. Rooms of the unseen splits are held
out of the others: for imported ALFRED rooms (``FloorPlanN``) they are ALFRED's own unseen rooms
(:data:`ALFRED_UNSEEN_ROOMS`: the twelve rooms no released train demo uses; four for validation and
eight for test); for other rooms they are drawn with the seed until each unseen split holds about
its share of trajectories. The seen trajectories are then shuffled with the seed and cut in the
shares asked for. By default the shares are ALFRED's (trajectories per split in its release:
6,574 / 251 / 255 / 483 / 488). Same directory and seed, same file.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError

#: The splits of a split file, in ALFRED's order.
SPLITS = ("train", "valid_seen", "valid_unseen", "tests_seen", "tests_unseen")
SEEN_SPLITS = ("valid_seen", "tests_seen")
UNSEEN_SPLITS = ("valid_unseen", "tests_unseen")

#: Trajectories per split in ALFRED's release (oct21.json): the default proportions.
ALFRED_SIZES: dict[str, int] = {
    "train": 6574, "valid_seen": 251, "valid_unseen": 255, "tests_seen": 483, "tests_unseen": 488,
}

#: ALFRED's unseen rooms (FloorPlan numbers) by split: the rooms no released train demo is in.
ALFRED_UNSEEN_ROOMS: dict[str, frozenset[int]] = {
    "valid_unseen": frozenset({10, 219, 308, 424}),
    "tests_unseen": frozenset({9, 29, 215, 226, 315, 325, 404, 425}),
}


def task_name(path: Path, root: Path) -> str:
    """A split entry's ``task``: the trial directory relative to the data root (``<task dir>/<trial>``)."""
    return path.parent.relative_to(root).as_posix()


def parse_sizes(text: str | None) -> dict[str, float]:
    """``--sizes`` (``valid_seen=0.05,tests_seen=0.1,...``: shares of the trajectories, train
    taking what is left) as a dict; ALFRED's shares when None. Raises UserError(USAGE)."""
    total = sum(ALFRED_SIZES.values())
    shares = {name: count / total for name, count in ALFRED_SIZES.items() if name != "train"}
    if not text:
        return shares
    for part in text.split(","):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in shares:
            raise UserError(f"--sizes: unknown split {name!r} (one of {', '.join(SPLITS[1:])})", ExitCode.USAGE)
        try:
            share = float(value)
        except ValueError:
            raise UserError(f"--sizes: {name} needs a share between 0 and 1, got {value!r}", ExitCode.USAGE) from None
        if not 0.0 <= share <= 1.0:
            raise UserError(f"--sizes: {name} needs a share between 0 and 1, got {value!r}", ExitCode.USAGE)
        shares[name] = share
    if sum(shares.values()) > 1.0 + 1e-9:
        raise UserError("--sizes: the shares add up to more than 1", ExitCode.USAGE)
    return shares


def _room_of(floor_plan: str) -> tuple[str, int | None]:
    digits = "".join(ch for ch in floor_plan if ch.isdigit())
    return floor_plan, int(digits) if digits else None


def make_splits(trials: Sequence[tuple[str, str, int]], *, seed: int = 0,
                shares: Mapping[str, float] | None = None) -> dict[str, list[dict[str, Any]]]:
    """The split file for ``trials``: (task name, floor_plan, number of annotations) each.

    Every annotation of a trajectory is one entry (``repeat_idx`` 0..n-1; a trajectory without
    annotations still gives one entry, ``repeat_idx`` 0). See the module docstring for the rules.
    """
    shares = dict(shares) if shares is not None else parse_sizes(None)
    rng = random.Random(seed)
    by_room: dict[str, list[tuple[str, str, int]]] = {}
    for trial in sorted(trials):
        by_room.setdefault(trial[1], []).append(trial)
    assigned: dict[str, list[tuple[str, str, int]]] = {name: [] for name in SPLITS}
    seen_rooms: list[str] = []
    free_rooms: list[str] = []
    for room in sorted(by_room):
        name, number = _room_of(room)
        split = None
        if name.startswith("FloorPlan") and number is not None:
            split = next((s for s, rooms in ALFRED_UNSEEN_ROOMS.items() if number in rooms), None)
            if split is None:
                seen_rooms.append(room)
                continue
            assigned[split] += by_room[room]
        else:
            free_rooms.append(room)
    rng.shuffle(free_rooms)
    total = len(trials)
    for split in UNSEEN_SPLITS:
        target = shares.get(split, 0.0) * total
        while len(free_rooms) > 1 and len(assigned[split]) < target:  # a room is always left to train
            assigned[split] += by_room[free_rooms.pop()]
    seen = [trial for room in sorted(seen_rooms + free_rooms) for trial in by_room[room]]
    rng.shuffle(seen)
    for split in SEEN_SPLITS:
        count = min(len(seen), int(round(shares.get(split, 0.0) * total)))
        assigned[split], seen = seen[:count], seen[count:]
    assigned["train"] = seen
    return {split: [{"task": task, "repeat_idx": r}
                    for task, _room, annotations in sorted(assigned[split])
                    for r in range(max(1, annotations))]
            for split in SPLITS}


def read_splits(path: str | os.PathLike[str]) -> dict[str, list[dict[str, Any]]]:
    """A split file, checked: an object of lists of ``{"task": str, "repeat_idx": int}``.
    Raises UserError (NOT_FOUND, BAD_INPUT) in one line."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file", ExitCode.NOT_FOUND) from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UserError(f"{path}: not a split file ({' '.join(str(error).split())})", ExitCode.BAD_INPUT) from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: a split file is a JSON object of lists", ExitCode.BAD_INPUT)
    for split, entries in data.items():
        if not isinstance(entries, list) or not all(
                isinstance(e, dict) and isinstance(e.get("task"), str)
                and isinstance(e.get("repeat_idx", 0), int) for e in entries):
            raise UserError(f"{path}: split {split!r} is not a list of {{task, repeat_idx}} entries",
                            ExitCode.BAD_INPUT)
    return data


def splits_command(root: str | os.PathLike[str], out: str | os.PathLike[str], *, seed: int = 0,
                   sizes: str | None = None, echo: Any = print) -> int:
    """``alfred-gen splits DIR --out splits.json``: write the split file of every trajectory under
    DIR and print the size of each split (trajectories, entries, rooms)."""
    from alfred_gen.atomic import write_text
    from alfred_gen.traj.format import parse_trajectory_json, trajectories_under

    shares = parse_sizes(sizes)
    base = Path(root)
    if not base.is_dir():
        raise UserError(f"{root}: no such directory", ExitCode.NOT_FOUND)
    files, _missing = trajectories_under(base)
    if not files:
        raise UserError(f"{root}: no traj_data.json found under this directory", ExitCode.NOT_FOUND)
    trials = []
    for path in files:
        data = parse_trajectory_json(path)
        scene = data.get("scene") if isinstance(data, dict) else None
        floor_plan = scene.get("floor_plan") if isinstance(scene, dict) else None
        if not isinstance(floor_plan, str):
            raise UserError(f"{path}: no scene.floor_plan", ExitCode.BAD_INPUT)
        anns = ((data.get("turk_annotations") or {}).get("anns") or []) if isinstance(data, dict) else []
        trials.append((task_name(path, base), floor_plan, len(anns) if isinstance(anns, list) else 0))
    splits = make_splits(trials, seed=seed, shares=shares)
    write_text(out, json.dumps(splits, indent=2, sort_keys=True) + "\n")
    rooms = {task: room for task, room, _n in trials}
    for split in SPLITS:
        tasks = {entry["task"] for entry in splits[split]}
        echo(f"{split:13s} {len(tasks):6d} trajectories {len(splits[split]):6d} entries "
             f"{len({rooms[t] for t in tasks}):4d} rooms")
    echo(f"wrote {out}")
    return int(ExitCode.OK)
