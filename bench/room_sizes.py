"""How big a fixture type is in one kind of room: lite's masks of it against THOR's, size by size.

    python bench/room_sizes.py ALFRED_JSON_DIR [--type GarbageCan] [--room-type bathroom]
                               [--rooms even|odd|all] [--demos N] [--scales 1,0.8,0.65,0.5]

Replays released demonstrations of one kind of room in rooms built from all of them (in-sample
rooms: the poses and start states are THOR's) and, just before each put into a fixture of the given
type, draws the frame lite sees and compares the fixture's pixels with the mask the demonstration
recorded. Per scale of the type's size in that kind of room
(:data:`alfred_gen.scenes.alfred.fixture_sizing.ROOM_SCALE`), it prints the pooled IoU of lite's
masks with THOR's and how many pixels lite draws per pixel THOR showed. ``--rooms even`` (FloorPlans
with even numbers) is what a scale is fit on; ``--rooms odd`` checks it on rooms the fit did not
see. Compare scale 1 (the catalogue's size) with the others side by side.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

import numpy as np
from round_shapes import add_study_arguments, read_evidence  # bench/ is on sys.path when run as a script

from alfred_gen.fidelity import measure
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.alfred import fixture_sizing
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.sim import pixels
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ROOM_TYPES, room_type_of
from alfred_gen.traj.rle import decode_mask


def _put_masks(traj: dict[str, Any], scene: Any, fixture_type: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """(lite's mask, THOR's mask) of the receptacle just before each put into a ``fixture_type``."""
    lows = traj["plan"]["low_actions"]
    found: list[tuple[np.ndarray, np.ndarray]] = []
    held: dict[str, LiteController] = {}

    def factory() -> LiteController:
        held["sim"] = LiteController(scene_lookup=measure.SceneLibrary(extra=(scene,)), render_image=False)
        return held["sim"]

    def on_step(low_idx: int, _api_action: dict[str, Any], _event: Any) -> None:
        if low_idx + 1 >= len(lows):
            return
        following = lows[low_idx + 1]
        api = following["api_action"]
        receptacle = api.get("receptacleObjectId") if api.get("action") == "PutObject" else None
        runs = (following.get("discrete_action") or {}).get("args", {}).get("mask")
        if not receptacle or receptacle.split("|")[0] != fixture_type or not runs:
            return
        sim = held["sim"]
        thor_mask = decode_mask(runs)
        camera = pixels.render_camera(sim.camera(), (thor_mask.shape[1], thor_mask.shape[0]))
        layers = sim.visibility.layers(sim.world)
        owner = pixels.render_state(layers, camera, rgb=False, depth=False).owner
        lite_mask = (owner == layers.owners.index(receptacle)) if receptacle in layers.owners \
            else np.zeros_like(thor_mask)
        found.append((lite_mask, thor_mask))

    vet_trajectory(traj, controller_factory=factory, check_schema=False, on_step=on_step)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_study_arguments(parser, demos=25, per="scale")
    parser.add_argument("--type", dest="fixture_type", default="GarbageCan", help="fixture type (default: %(default)s)")
    parser.add_argument("--room-type", choices=ROOM_TYPES, default="bathroom",
                        help="kind of room (default: %(default)s)")
    parser.add_argument("--scales", default="1,0.8,0.65,0.5", help="scales to compare (default: %(default)s)")
    args = parser.parse_args(argv)
    scales = [float(x) for x in args.scales.split(",")]
    evidence = read_evidence(args.json_dir, args.workers, "room_sizes")
    if evidence is None:
        return 3
    pool, rooms, stats = evidence
    demos = [d for d in pool.demos if room_type_of(d.room) == args.room_type
             and (args.rooms == "all" or d.room % 2 == (args.rooms == "odd"))]
    random.Random(0).shuffle(demos)
    chosen = [d for d in demos if args.fixture_type in d.path.read_text()][:args.demos]
    key = (args.fixture_type, args.room_type)
    print(f"{len(chosen)} demonstrations ({args.room_type}, {args.rooms} FloorPlans), in-sample rooms")
    print("| scale | masks | IoU | lite/THOR pixels |")
    print("|---|---|---|---|")
    for scale in scales:
        fixture_sizing.ROOM_SCALE[key] = scale  # the study sets the table it measures
        pooled = np.zeros(4)
        masks = 0
        built: dict[int, Any] = {}
        for demo in chosen:
            traj = measure.load(demo.path)
            if demo.room not in built:
                built[demo.room] = build_scene(rooms[demo.room], None, stats)
            scene = complete_for_start_state(built[demo.room], traj["scene"])
            for lite, thor in _put_masks(traj, scene, args.fixture_type):
                pooled += [(lite & thor).sum(), (lite | thor).sum(), lite.sum(), thor.sum()]
                masks += 1
        print(f"| {scale:g} | {masks} | {pooled[0] / max(pooled[1], 1):.3f} | {pooled[2] / max(pooled[3], 1):.2f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
