"""Benchmark of THOR's protocol on a lite THOR build: steps/s through ai2thor against lite directly.

The same actions run three ways in one process, side by side: lite called directly
(``LiteController``), ai2thor's own ``Controller`` on a lite build written by ``alfred-gen
thor-build`` (the wire, ai2thor's Event parsing), and alfred-gen's thor backend on that build
(``ThorController``: the wire plus the version adapter and normalisation). Each run renders the same
images (RGB, depth, instance segmentation) and steps the same cycle of turns, looks and moves.
What is printed is steps per second and each way's ratio to lite; the wire's cost is the ratio.

    python bench/thor_build.py [--steps 200] [--scene LitePlan1] [--no-images]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from typing import Any

from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.thor import ThorController, installed_ai2thor_version
from alfred_gen.sim.thor_versions import profile_for_version
from alfred_gen.thorbuild.write import write_build

CYCLE = ({"action": "RotateLeft"}, {"action": "LookDown"}, {"action": "MoveAhead"}, {"action": "LookUp"},
         {"action": "RotateRight"}, {"action": "MoveBack"})


def _rate(step: Callable[[dict[str, Any]], Any], steps: int) -> float:
    began = time.perf_counter()
    for i in range(steps):
        step(dict(CYCLE[i % len(CYCLE)]))
    return steps / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--scene", default="LitePlan1")
    parser.add_argument("--no-images", action="store_true", help="RGB only (no depth, no segmentation)")
    args = parser.parse_args()
    images = not args.no_images
    version = installed_ai2thor_version()
    profile = profile_for_version(version) if version else None
    if profile is None:
        raise SystemExit("needs ai2thor 5.x or 2.1.0 installed")
    line = "5" if profile.name == "5" else "2.1.0"
    rates: dict[str, float] = {}

    lite = LiteController(scene_lookup=SceneLibrary(), render_depth_image=images, render_object_image=images)
    lite.reset(args.scene)
    lite.step({"action": "Initialize", "gridSize": 0.25, "visibilityDistance": 1.5})
    rates["lite, called directly"] = _rate(lite.step, args.steps)

    with tempfile.TemporaryDirectory() as directory:
        executable = write_build(line, directory)
        if line == "5":
            from ai2thor.controller import Controller

            controller = Controller(local_executable_path=str(executable), x_display=":0", scene=args.scene,
                                    renderDepthImage=images, renderInstanceSegmentation=images)
            try:
                rates[f"ai2thor {version} Controller on the lite build"] = _rate(
                    lambda action: controller.step(action), args.steps)
            finally:
                controller.stop()
        thor = ThorController(build_path=directory, render_depth=images, render_seg=images)
        try:
            thor.reset(args.scene)
            rates[f"--backend thor (ai2thor {version}) on the lite build"] = _rate(thor.step, args.steps)
        finally:
            thor.stop()

    base = rates["lite, called directly"]
    print(f"{args.steps} steps in {args.scene}, images: {'RGB + depth + segmentation' if images else 'RGB'}")
    for name, rate in rates.items():
        print(f"  {name:<52} {rate:8.1f} steps/s   x{rate / base:.2f} of lite")


if __name__ == "__main__":
    main()
