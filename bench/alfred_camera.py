"""Settle ALFRED's camera (field of view, height above the agent) from the released masks.

    python bench/alfred_camera.py ALFRED_JSON_DIR [--every N]

Projects the start position of every pickupable object a released demonstration first touches
into the frame at the agent's pose, for each candidate camera, and prints how far from the
object's mask it lands (:mod:`alfred_gen.fidelity.camera_fit`): 60 against 90 degrees at the
camera heights in question, a scan around the best, and the least-squares focal length. The
winner is what imported THOR rooms use (``alfred_gen.sim.scene.ALFRED_CAMERA``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from alfred_gen.fidelity.camera_fit import camera_fit, focal_from_masks, mask_observations
from alfred_gen.sim.scene import ALFRED_CAMERA, CAMERA_Y_OFFSET
from alfred_gen.traj.format import TRAJ_FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json_dir", type=Path, help="directory holding released traj_data.json files")
    parser.add_argument("--every", type=int, default=1, help="use every N-th file (default: all)")
    args = parser.parse_args(argv)
    files = sorted(args.json_dir.rglob(TRAJ_FILE_NAME))[:: max(1, args.every)]
    if not files:
        print(f"alfred_camera: error: no {TRAJ_FILE_NAME} under {args.json_dir}", file=sys.stderr)
        return 3
    observations = []
    for path in files:
        try:
            observations += mask_observations(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    print(f"{len(observations)} first interactions with unmoved pickupable objects in {len(files)} demonstrations")
    print("| field of view | camera above agent | median |du| px | median |dv| px | origin in mask box |")
    print("|---|---|---|---|---|")
    candidates = [(fov, h) for fov in (60.0, 90.0) for h in (CAMERA_Y_OFFSET, ALFRED_CAMERA.height)]
    candidates += [(fov, ALFRED_CAMERA.height) for fov in (55.0, 58.0, 62.0, 65.0)]
    candidates += [(60.0, h) for h in (0.65, 0.66, 0.67, 0.68, 0.69, 0.70)]
    for fov, height in sorted(set(candidates)):
        fit = camera_fit(observations, fov, height)
        print(f"| {fov:g} | {height:.3f} | {fit.median_du:.2f} | {fit.median_dv:.2f} | {fit.inside_box:.3f} |")
    focal, fov = focal_from_masks(observations, ALFRED_CAMERA.height)
    print(f"least-squares focal length on horizontal centroids: {focal:.1f} px = {fov:.1f} degrees field of view")
    best = min(((fov, h) for fov in (60.0, 90.0) for h in (CAMERA_Y_OFFSET, ALFRED_CAMERA.height)),
               key=lambda c: camera_fit(observations, *c).median_du)
    print(f"winner of 60 vs 90 degrees: {best[0]:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
