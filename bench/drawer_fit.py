"""How lite should draw an open drawer: its masks of drawers against THOR's, variant by variant.

    python bench/drawer_fit.py ALFRED_JSON_DIR [--rooms even|odd|all] [--demos N]
                               [--built in_sample|heldout] [--leave-out DIR]
                               [--variants 0.6:0:0,0.6:0:0.2,0.7:0.2:0]

Replays released demonstrations that act on a drawer and, just before each interaction with one
(the target of an open or close, the receptacle of a put), draws the frame lite sees with each
variant and compares the drawer's pixels with the mask the demonstration recorded. A variant
``S:W:H`` slides an open drawer out by S of its depth and draws its tray W of its width wider on
each side and H of its height taller (:attr:`alfred_gen.sim.scene.SceneObject.open_tray`, set
here on every drawer, whatever the importer set); closed drawers are drawn alike in every variant
and reported for comparison. It prints the pooled IoU, lite's pixels per THOR pixel and the median
of how far lite's mask's middle lies below THOR's (rows), per room type, open and closed.

``--built in_sample``: rooms built from every demonstration (the demo's own evidence shaped them);
``heldout``: the room of each demonstration built without its fold, as the held-out mask figure
of ``bench/alfred_fidelity.py --masks`` builds it. ``--leave-out DIR``: demonstrations whose trial
directory is also under DIR are not measured (the 238 of ``ALFRED_DATA``, which that figure is
read on). Fit on ``--rooms even`` and check on ``--rooms odd``
(how :mod:`alfred_gen.scenes.alfred.drawer_trays` was chosen).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from round_shapes import add_study_arguments, demos_of_rooms, read_evidence  # bench/ is on sys.path as a script

from alfred_gen.fidelity import held_out, measure
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.alfred.fixture_block import front_axis_of
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.sim import pixels, shapes
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import room_type_of
from alfred_gen.traj.format import TRAJ_FILE_NAME
from alfred_gen.traj.rle import decode_mask

Variant = tuple[float, float, float]


def parse_variant(text: str) -> Variant:
    """``S:W:H`` as three numbers (see the module docstring)."""
    parts = text.split(":")
    try:
        slide, wider, taller = (float(p) for p in parts)
    except ValueError:
        raise ValueError(f"unknown variant {text!r} (want SLIDE:WIDER:TALLER, e.g. 0.6:0:0.2)") from None
    return slide, wider, taller


def _target(low: dict[str, Any]) -> str | None:
    api = low["api_action"]
    return api.get("receptacleObjectId") if api.get("action") == "PutObject" else api.get("objectId")


def _set_up(sim: LiteController, variant: Variant) -> None:
    """Draw every drawer of the sim's world as ``variant`` says."""
    slide, wider, taller = variant
    shapes._drawer_slide = lambda f: slide * f.depth
    pixels.forget_shapes()
    for obj in sim.world.objects:
        if obj.type_name == "Drawer":
            axis, _ = front_axis_of(int(obj.rotation[1]))
            obj.open_tray = (wider * obj.size[2 - axis], taller * obj.size[1])
    sim.visibility._world = None  # rebuild the box lists with the shapes just set


def masks_of_drawers(traj: dict[str, Any], scene: Any, variants: dict[str, Variant]
                     ) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
    """(variant, action, lite's mask, THOR's mask) just before each interaction with a drawer; the
    replay itself runs with the drawers as the scene has them."""
    lows = traj["plan"]["low_actions"]
    found: list[tuple[str, str, np.ndarray, np.ndarray]] = []
    held: dict[str, LiteController] = {}
    original = shapes._drawer_slide
    trays: dict[str, tuple[float, ...]] = {}

    def factory() -> LiteController:
        held["sim"] = LiteController(scene_lookup=measure.SceneLibrary(extra=(scene,)), render_image=False)
        return held["sim"]

    def on_step(low_idx: int, _api: dict[str, Any], _event: Any) -> None:
        if low_idx + 1 >= len(lows):
            return
        following = lows[low_idx + 1]
        object_id = _target(following)
        runs = (following.get("discrete_action") or {}).get("args", {}).get("mask")
        if not object_id or not object_id.startswith("Drawer|") or not runs:
            return
        sim = held["sim"]
        if not trays:
            trays.update({o.object_id: o.open_tray for o in sim.world.objects if o.type_name == "Drawer"})
        thor = decode_mask(runs)
        camera = pixels.render_camera(sim.camera(), (thor.shape[1], thor.shape[0]))
        for name, variant in variants.items():
            _set_up(sim, variant)
            layers = sim.visibility.layers(sim.world)
            if object_id in layers.owners:
                owner = pixels.render_state(layers, camera, rgb=False, depth=False).owner
                found.append((name, following["api_action"]["action"], owner == layers.owners.index(object_id), thor))
        shapes._drawer_slide = original
        pixels.forget_shapes()
        for obj in sim.world.objects:
            if obj.object_id in trays:
                obj.open_tray = trays[obj.object_id]
        sim.visibility._world = None

    try:
        vet_trajectory(traj, controller_factory=factory, check_schema=False, on_step=on_step)
    finally:
        shapes._drawer_slide = original
        pixels.forget_shapes()
    return found


def _room_type(traj: dict[str, Any]) -> str:
    return room_type_of(int(traj["scene"]["floor_plan"].removeprefix("FloorPlan")))


def _scenes(args: argparse.Namespace, evidence: Any, left_out: set[str]) -> Iterator[tuple[dict[str, Any], Any]]:
    """(demonstration, the scene it is replayed in) for the demonstrations to measure, in a fixed
    order, rooms built as ``--built`` says."""
    pool, rooms, stats = evidence
    order = demos_of_rooms(pool, args.rooms)
    wanted = {str(d.path) for d in order if Path(d.path).parent.name not in left_out}
    if args.built == "heldout":
        jobs = [(job, [p for p in job.paths if str(p) in wanted]) for job in held_out.held_out_jobs(pool, None, 5)]
        for job, paths in jobs:
            room = None
            for path in paths:
                traj = measure.load(path)
                if not any(str(_target(low) or "").startswith("Drawer|") for low in traj["plan"]["low_actions"]):
                    continue
                room = room or held_out.build_job_room(job)[0]
                if room is not None:
                    yield traj, complete_for_start_state(room, traj["scene"], job.without)
        return
    built: dict[int, Any] = {}
    for demo in order:
        if str(demo.path) not in wanted:
            continue
        traj = measure.load(demo.path)
        if not any(str(_target(low) or "").startswith("Drawer|") for low in traj["plan"]["low_actions"]):
            continue
        if demo.room not in built:
            built[demo.room] = build_scene(rooms[demo.room], None, stats)
        yield traj, complete_for_start_state(built[demo.room], traj["scene"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_study_arguments(parser, demos=100)
    parser.add_argument("--built", choices=("in_sample", "heldout"), default="in_sample",
                        help="how the rooms are built (default: %(default)s)")
    parser.add_argument("--leave-out", type=Path, default=None,
                        help="do not measure demonstrations whose trial directory is also under this one")
    parser.add_argument("--variants", default="0.6:0:0,0.6:0:0.2", help="variants to compare (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        variants = {name: parse_variant(name) for name in args.variants.split(",")}
    except ValueError as error:
        print(f"drawer_fit: error: {error}", file=sys.stderr)
        return 2
    evidence = read_evidence(args.json_dir, args.workers, "drawer_fit")
    if evidence is None:
        return 3
    left_out = {p.parent.name for p in args.leave_out.rglob(TRAJ_FILE_NAME)} if args.leave_out else set()
    pooled: dict[tuple[str, str, str], np.ndarray] = defaultdict(lambda: np.zeros(4))
    below: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    used = 0
    for traj, scene in _scenes(args, evidence, left_out):
        if used >= args.demos:
            break
        used += 1
        room_type = _room_type(traj)
        for name, action, lite, thor in masks_of_drawers(traj, scene, variants):
            key = (room_type, "open" if action in ("PutObject", "CloseObject") else "closed", name)
            pooled[key] += [(lite & thor).sum(), (lite | thor).sum(), lite.sum(), thor.sum()]
            if lite.any() and thor.any():
                below[key].append(float(np.argwhere(lite)[:, 0].mean() - np.argwhere(thor)[:, 0].mean()))
    print(f"drawers: {used} demonstrations ({args.rooms} FloorPlans, rooms built {args.built})")
    print("| room type | drawer | variant | masks | IoU | lite/THOR pixels | lite below THOR (rows, median) |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted(pooled):
        row, rows = pooled[key], below[key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {len(rows)} | {row[0] / max(row[1], 1):.3f} | "
              f"{row[2] / max(row[3], 1):.2f} | {np.median(rows) if rows else 0.0:+.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
