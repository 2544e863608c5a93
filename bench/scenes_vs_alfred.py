"""Compare the 120 procedural rooms with ALFRED's 120 THOR rooms, per room type.

Prints, for each room type, ours vs ALFRED's:
- reachable grid points per room (ALFRED: rows of FloorPlanN-layout.npy), min / median / max;
- receptacles with an interaction pose per room (ALFRED: entries of FloorPlanN-openable.json),
  counting only receptacle types that appear in ALFRED's openable.json files, min / median / max;
- object types and receptacle types that ALFRED's rooms of that type contain and ours lack.
It also prints how long building all 120 rooms takes, and the build time per room.

Exits 1 if any type is missing (coverage incomplete), 0 otherwise.

    python bench/scenes_vs_alfred.py [--alfred PATH]     (default: $ALFRED_DATA)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from alfred_gen.scenes.procedural import build_scene
from alfred_gen.scenes.library import scene_numbers
from alfred_gen.sim.catalogue import type_of_id
from alfred_gen.sim.scene import ROOM_TYPES, room_type_of


def alfred_rooms(root: Path) -> dict[str, list[dict]]:
    """Per room type: for each ALFRED FloorPlan, its object types, openable receptacle types and counts."""
    rooms: dict[str, list[dict]] = defaultdict(list)
    layouts = root / "layouts"
    for number in scene_numbers():
        stem = layouts / f"FloorPlan{number}"
        objects = json.loads(Path(f"{stem}-objects.json").read_text())
        openable = json.loads(Path(f"{stem}-openable.json").read_text())
        points = np.load(f"{stem}-layout.npy")
        rooms[room_type_of(number)].append(
            {
                "objects": set(objects),
                "receptacle_types": {type_of_id(k) for k in openable},
                "receptacles": len(openable),
                "reachable": int(points.shape[0]),
            }
        )
    return rooms


def our_rooms(openable_vocabulary: set[str]) -> tuple[dict[str, list[dict]], list[float]]:
    rooms: dict[str, list[dict]] = defaultdict(list)
    times = []
    for number in scene_numbers():
        start = time.perf_counter()
        scene = build_scene(number)
        times.append(time.perf_counter() - start)
        posed = [type_of_id(k) for k in scene.interaction_poses]
        rooms[scene.room_type].append(
            {
                "objects": {o.object_type for o in scene.objects},
                "receptacle_types": {t for t in posed if t in openable_vocabulary},
                "receptacles": sum(1 for t in posed if t in openable_vocabulary),
                "reachable": len(scene.reachable),
            }
        )
    return rooms, times


def spread(values: list[int]) -> str:
    return f"{min(values):4d} {statistics.median(values):6.1f} {max(values):4d}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--alfred", default=os.environ.get("ALFRED_DATA"), help="ALFRED data folder (has layouts/)")
    args = parser.parse_args(argv)
    if not args.alfred or not (Path(args.alfred) / "layouts").is_dir():
        print("need the ALFRED data: --alfred PATH or ALFRED_DATA (a folder holding layouts/)", file=sys.stderr)
        return 2
    theirs = alfred_rooms(Path(args.alfred))
    vocabulary = set().union(*(r["receptacle_types"] for rooms in theirs.values() for r in rooms))
    ours, times = our_rooms(vocabulary)

    incomplete = False
    print(f"{'room type':12s} {'measure':24s} {'ours: min median max':>22s}   {'ALFRED: min median max':>24s}")
    for room_type in ROOM_TYPES:
        for key, label in (("reachable", "reachable points"), ("receptacles", "receptacles (posed)")):
            print(
                f"{room_type:12s} {label:24s} {spread([r[key] for r in ours[room_type]]):>22s}   "
                f"{spread([r[key] for r in theirs[room_type]]):>24s}"
            )
        for key, label in (("objects", "object types"), ("receptacle_types", "receptacle types")):
            mine = set().union(*(r[key] for r in ours[room_type]))
            alfred = set().union(*(r[key] for r in theirs[room_type]))
            missing = sorted(alfred - mine)
            extra = sorted(mine - alfred)
            print(f"{room_type:12s} {label:24s} ours {len(mine)}, ALFRED {len(alfred)}; missing: {', '.join(missing) or 'none'}")
            if extra:
                print(f"{'':12s} {'':24s} ours only: {', '.join(extra)}")
            incomplete |= bool(missing)
    total = sum(times)
    print(
        f"build: 120 rooms in {total:.2f} s, per room median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )
    print("coverage: INCOMPLETE" if incomplete else "coverage: complete")
    return 1 if incomplete else 0


if __name__ == "__main__":
    sys.exit(main())
