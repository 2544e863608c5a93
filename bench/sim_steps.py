"""Steps per second of the `lite` simulator without images: a seeded 1000-step random walk with
interactions, on the hand-built kitchen and, when ALFRED_DATA is set, on a real ALFRED kitchen.

"Without images" is not "without rendering": lite decides visibility on pixels, so every state in
which some object is within reach costs a segmentation-only render (``render_image=False``, no
depth or object image: nothing else is drawn). For comparison the same walk runs with the
render-free geometric visibility (``visibility=GeometricVisibility()``, ``renderer`` returning
nothing), which is NOT what lite does by default and accepts a few actions pixels refuse; its
success count is printed so the difference shows. Frames per step are measured by
``bench/render.py``.

Two figures per scene and mode: stepping alone, and stepping plus reading ``event.metadata`` every
step (what a recorder or planner does). Time is the process's CPU time (``time.process_time``), so the
figure is per core and does not depend on how busy the machine is; best of ``--repeat`` runs.
Interactions target a random *visible* object (70% of steps navigate, 30% interact), so most of them
succeed and change the world.

    python bench/sim_steps.py [--steps 1000] [--seed 0] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path

from alfred_gen.scenes.alfred.importer import alfred_layout_scene
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Scene
from alfred_gen.sim.visibility import GeometricVisibility

NAVIGATION = [
    "MoveAhead",
    "MoveAhead",
    "MoveAhead",
    "MoveBack",
    "MoveLeft",
    "MoveRight",
    "RotateLeft",
    "RotateRight",
    "LookUp",
    "LookDown",
]
INTERACTIONS = [
    "PickupObject",
    "PutObject",
    "OpenObject",
    "CloseObject",
    "ToggleObjectOn",
    "ToggleObjectOff",
    "SliceObject",
]


#: Controller options per mode: lite's default (pixel visibility, images off) and the stand-in.
MODES = {
    "pixel visibility": lambda: {"render_image": False},
    "geometric (stand-in)": lambda: {
        "render_image": False,
        "visibility": GeometricVisibility(),
        "renderer": lambda sim: {},
    },
}


def random_walk(scene: Scene, steps: int, seed: int, read_metadata: bool, **options) -> tuple[float, int]:
    """Seconds for ``steps`` actions and how many of them succeeded."""
    sim = LiteController(scene, **options)
    sim.step(action="InitialRandomSpawn", randomSeed=seed)
    rng = random.Random(seed)
    succeeded = 0
    start = time.process_time()
    for _ in range(steps):
        if rng.random() < 0.7:
            action = {"action": rng.choice(NAVIGATION)}
        else:
            visible, _ = sim.visibility_state()
            seen = [o.object_id for o, v in zip(sim.world.objects, visible.tolist()) if v]
            target = rng.choice(seen) if seen else "Nothing|+00.00|+00.00|+00.00"
            name = rng.choice(INTERACTIONS)
            action = {"action": name, "objectId": target}
            if name == "PutObject":
                action = {"action": name, "objectId": target, "forceAction": True, "placeStationary": True}
        event = sim.step(action)
        if read_metadata:
            succeeded += event.metadata["lastActionSuccess"]
        else:
            succeeded += sim.last_event is event  # keep the loop honest without reading metadata
    return time.process_time() - start, succeeded


def scenes() -> list[Scene]:
    out = [fixtures.kitchen()]
    root = os.environ.get("ALFRED_DATA")
    if root:
        traj = sorted(Path(root, "json_2.1.0").glob("*/pick_heat_then_place_in_recep-*-1*/*/traj_data.json"))
        if traj:
            data = json.loads(traj[0].read_text())
            ids = [
                a["api_action"][k]
                for a in data["plan"]["low_actions"]
                for k in ("objectId", "receptacleObjectId")
                if k in a["api_action"]
            ]
            out.append(alfred_layout_scene(root, data["scene"]["scene_num"], data["scene"]["object_poses"], ids))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args()
    for scene in scenes():
        figures = {}
        for mode, options in MODES.items():
            for read in (False, True):
                best = min(random_walk(scene, args.steps, args.seed, read, **options())[0] for _ in range(args.repeat))
                _, ok = random_walk(scene, args.steps, args.seed, True, **options())
                figures[mode, read] = args.steps / best
                label = "step + metadata" if read else "step only      "
                print(
                    f"{scene.name:24s} objects={len(scene.objects):3d} {mode:20s} {label}: "
                    f"{args.steps / best:8.0f} steps/s  ({ok}/{args.steps} actions succeeded)"
                )
        ratio = figures["pixel visibility", True] / figures["geometric (stand-in)", True]
        print(f"{scene.name:24s} pixel visibility / geometric stand-in (step + metadata): {ratio:.3f}x")


if __name__ == "__main__":
    main()
