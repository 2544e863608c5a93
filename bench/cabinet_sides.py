"""Which side of its hinge a cabinet's box reaches, checked on pickups the rooms were not built from.

    python bench/cabinet_sides.py ALFRED_JSON_DIR [--folds K] [--margins 0,0.05] [--alfred-dir DIR]
                                  [--workers N]

A released demonstration that opens a cabinet and, as its next interaction, picks something up took
that thing out of the cabinet: the pickup's position says which side of the cabinet's id (THOR's
hinge) the cabinet lies on. Each room is built as ``bench/alfred_fidelity.py`` builds it for the
held-out figure (from the other K-1 folds of its demonstrations), and for every such pickup in the
held-out fold the script checks the cabinet's final box: whether its middle lies on the pickup's
side of the hinge, and whether it spans the pickup across its front. Pickups within 2 cm of the
hinge line say nothing and are counted apart.

The rooms are built once per value of ``--margins``
(:data:`alfred_gen.scenes.alfred.fixture_sizing.AT_THE_HINGE`, the band around the hinge line whose
contents do not vote for a side), side by side in one run; the default compares no margin with the
project's.
Exit codes: 0 printed, 2 bad arguments or no trajectories, 3 no layouts beside the trajectories.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from alfred_gen.errors import UserError
from alfred_gen.fidelity import held_out
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool
from alfred_gen.scenes.alfred import fixture_sizing
from alfred_gen.scenes.alfred.evidence import id_position
from alfred_gen.scenes.alfred.fixture_block import front_axis_of
from alfred_gen.scenes.alfred.geometry import room_geometry
from alfred_gen.traj.format import TRAJ_FILE_NAME

#: Low actions that only move or turn the agent (not interactions).
MOVES = frozenset({"MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown"})
#: A pickup this close to the hinge line (across the cabinet's front) tells no side (metres).
AT_THE_LINE = 0.02


def pickups_after_opening(path: Path) -> list[tuple[str, tuple[float, float, float]]]:
    """(cabinet id, picked object's start position) for each cabinet a demo opens and then picks from."""
    with open(path) as handle:
        low = json.load(handle)["plan"]["low_actions"]
    acts = [a["api_action"] for a in low if a["api_action"]["action"] not in MOVES]
    return [(opened["objectId"], id_position(picked["objectId"]))
            for opened, picked in zip(acts, acts[1:])
            if opened["action"] == "OpenObject" and opened["objectId"].startswith("Cabinet|")
            and picked["action"] == "PickupObject"]


def count_sides(jobs: Sequence[held_out.RoomJob]) -> Counter[str]:
    """Build each job's room and count how its cabinets' boxes sit against the pickups."""
    counts: Counter[str] = Counter()
    for job in jobs:
        wanted = [pair for path in job.paths for pair in pickups_after_opening(path)]
        if not wanted:
            continue
        boxes = {o.object_id: o for o in room_geometry(job.evidence, job.sizes, job.stats).objects}
        for cabinet, picked in wanted:
            obj = boxes.get(cabinet)
            if obj is None:
                counts["cabinet not in the room"] += 1
                continue
            across = 2 - front_axis_of(int(round(obj.rotation[1])))[0]
            hinge = id_position(cabinet)[across]
            offset = picked[across] - hinge
            if abs(offset) < AT_THE_LINE:
                counts["pickup on the hinge line"] += 1
                continue
            middle = (obj.box.lo[across] + obj.box.hi[across]) / 2
            counts["box on the pickup's side" if (middle - hinge) * offset > 0 else "box on the other side"] += 1
            spans = obj.box.lo[across] <= picked[across] <= obj.box.hi[across]
            counts["box spans the pickup" if spans else "box misses the pickup"] += 1
    return counts


def _fail(message: str, code: int = 2) -> int:
    print(f"cabinet_sides: error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("json_dir", type=Path, help="directory holding traj_data.json files (searched recursively)")
    parser.add_argument("--folds", type=int, default=5, help="folds per room, as for the held-out figure (default 5)")
    parser.add_argument("--margins", default=f"0,{fixture_sizing.AT_THE_HINGE}",
                        help="comma-separated hinge-line margins to compare, metres (default: none and the project's)")
    parser.add_argument("--alfred-dir", help="ALFRED checkout with gen/layouts or layouts")
    parser.add_argument("--workers", type=int, default=1, help="processes reading the demonstrations (default 1)")
    args = parser.parse_args(argv)
    if args.folds < 2:
        return _fail("--folds must be at least 2")
    try:
        margins = [float(m) for m in args.margins.split(",")]
    except ValueError:
        return _fail(f"--margins: not a comma-separated list of numbers: {args.margins!r}")
    files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file()) if args.json_dir.is_dir() else []
    if not files:
        return _fail(f"{args.json_dir}: no traj_data.json found")
    try:
        sources = fidelity.sources_for(files, args.alfred_dir)
    except UserError as error:
        return _fail(str(error), int(error.code))
    jobs = held_out.held_out_jobs(EvidencePool.read(sources, files, workers=args.workers), None, args.folds)
    project_margin = fixture_sizing.AT_THE_HINGE
    try:
        for margin in margins:
            fixture_sizing.AT_THE_HINGE = margin
            counts = count_sides(jobs)
            right = counts["box on the pickup's side"]
            judged = right + counts["box on the other side"]
            print(f"margin {margin:.3f} m: box on the pickup's side {right}/{judged}, "
                  f"spans the pickup {counts['box spans the pickup']}/{judged}; "
                  f"pickups on the hinge line {counts['pickup on the hinge line']}, "
                  f"cabinets not in the room {counts['cabinet not in the room']}")
    finally:
        fixture_sizing.AT_THE_HINGE = project_margin
    return 0


if __name__ == "__main__":
    sys.exit(main())
