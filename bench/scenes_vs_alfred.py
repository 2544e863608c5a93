"""Compare the 120 procedural rooms with ALFRED's 120 THOR rooms, per room type.

Prints, for each room type, ours vs ALFRED's:
- reachable grid points per room (ALFRED: rows of FloorPlanN-layout.npy), min / median / max;
- receptacles with an interaction pose per room (ALFRED: entries of FloorPlanN-openable.json),
  counting only receptacle types that appear in ALFRED's openable.json files, min / median / max;
- object types and receptacle types that ALFRED's rooms of that type contain and ours lack.
It also prints how long building all 120 rooms takes, and the build time per room. With
``--pixels`` it renders the view from every interaction pose with the `lite` renderer and counts
the poses whose target shows fewer than 10 pixels (THOR's visibility rule); about 2,400 frames.

Exits 1 if any type is missing (coverage incomplete) or a pose fails the pixel check, 0 otherwise.

    python bench/scenes_vs_alfred.py [--alfred PATH] [--pixels]     (default: $ALFRED_DATA)
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

from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.scenes.library import scene_numbers
from alfred_gen.scenes.procedural.build import build_scene
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
    parser.add_argument("--pixels", action="store_true", help="check every interaction pose by rendering it")
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
            print(
                f"{room_type:12s} {label:24s} ours {len(mine)}, ALFRED {len(alfred)}; "
                f"missing: {', '.join(missing) or 'none'}"
            )
            if extra:
                print(f"{'':12s} {'':24s} ours only: {', '.join(extra)}")
            incomplete |= bool(missing)
    total = sum(times)
    print(
        f"build: 120 rooms in {total:.2f} s, per room median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms"
    )
    print("coverage: INCOMPLETE" if incomplete else "coverage: complete")
    failed_pixels = pixel_check() if args.pixels else 0
    return 1 if incomplete or failed_pixels else 0


def pixel_check() -> int:
    """Render every interaction pose; print how many show their target with fewer than 10 pixels."""
    from alfred_gen.scenes import get_scene
    from alfred_gen.scenes.view import scene_boxes, target_pixels

    start = time.perf_counter()
    poses = failed = 0
    smallest = None
    for number in scene_numbers():
        scene = get_scene(number)
        boxes = scene_boxes(scene)
        for object_id, pose in sorted(scene.interaction_poses.items()):
            pixels = target_pixels(scene, pose, object_id, boxes)
            poses += 1
            failed += pixels < 10
            if smallest is None or pixels < smallest[0]:
                smallest = (pixels, object_id, scene.name)
    print(
        f"pixels: {poses} interaction poses rendered in {time.perf_counter() - start:.1f} s; "
        f"{failed} show their target with < 10 pixels; smallest: {smallest[0]} px ({smallest[1]} in {smallest[2]})"
    )
    return failed


if __name__ == "__main__":
    sys.exit(main())
