"""Why one released demonstration does not replay in its room: what lite sees where THOR saw the target.

    python bench/fidelity_why.py ALFRED_JSON_DIR DEMO [--room-from heldout|unseen|in-sample]
                                 [--folds K] [--alfred-dir DIR] [--show TEXT ...] [--image PNG]
                                 [--at LOW_IDX]

``DEMO`` is any part of one demonstration's path (``Mug-None-CoffeeMachine-1/trial_T20190909_134710_542972``
names one). Its room is built exactly as ``bench/alfred_fidelity.py`` builds it for the figure
chosen with ``--room-from`` (default ``heldout``: from the other K-1 folds; ``unseen``: from the
layout files alone; ``in-sample``: from every demonstration, this one included), and the
demonstration is replayed there. When an action fails, lite's instance frame of that moment (a
failed action changes nothing) is laid over the mask THOR recorded for the action, and the script
prints:

- the failing action, lite's refusal, the agent's pose and camera;
- how many pixels of the target lite draws and how many THOR's mask has (lite sees an object
  from 10 pixels on);
- which of lite's objects cover THOR's mask (what hides the target, or stands where THOR drew it);
- the boxes of the target, its receptacles, the covering objects and any object whose id contains
  a ``--show`` text;
- for a move lite refused, where the point stands: among the room's floor points or not, how many
  of its neighbours are, the fixtures standing within the margin's clearance of it (they refuse it
  as margin floor) and the loose objects meeting the agent's footprint there.

``--at LOW_IDX`` explains one interaction of a demonstration that may well replay: why ALFRED's rule
(``va_interact``: the instances under THOR's mask ranked by IoU) picks what it picks in lite's frame
before that action, with the same lines as for a failure, the target's IoU and the rule's ranking: a
miss on the mask figure of ``bench/alfred_fidelity.py --masks`` (its records give ``low_idx``).

``--image PNG`` saves lite's frame (600x600) with THOR's mask in red and lite's target in green.
Exit codes: 0 printed (whether or not the demonstration replays), 2 bad arguments, a DEMO that
names no demonstration or more than one, or an ``--at`` past its last low action, 3 no layouts beside the trajectories.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.fidelity import held_out
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool
from alfred_gen.fidelity.masks import compare
from alfred_gen.replay.execute import execute_low_actions
from alfred_gen.replay.masks import ranked_candidates
from alfred_gen.replay.restore import restore_scene
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.alfred.floor import MARGIN_CLEARANCE, bars_margin, scene_footprints
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.event import Event
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import grid_key
from alfred_gen.sim.world import World, WorldObject, footprint_meets
from alfred_gen.traj.format import TRAJ_FILE_NAME
from alfred_gen.traj.rle import decode_mask

ROOMS_FROM = ("heldout", "unseen", "in-sample")
#: Lite's refusal of a move names the first point it would not step onto.
REFUSED_POINT = re.compile(r"cannot move to \((-?[\d.]+), (-?[\d.]+)\)")


def room_job(pool: EvidencePool, path: Path, rooms_from: str, folds: int) -> held_out.RoomJob:
    """The job ``bench/alfred_fidelity.py`` replays ``path`` in, for the figure ``rooms_from``."""
    if rooms_from == "heldout":
        jobs = held_out.held_out_jobs(pool, None, folds)
    elif rooms_from == "unseen":
        jobs = held_out.unseen_room_jobs(pool, None, folds)
    else:
        jobs = held_out.in_sample_jobs(pool, None)
    return next(job for job in jobs if path in job.paths)


def object_ids_in_frame(event: Event) -> np.ndarray:
    """The object id drawn at each pixel of the event's instance frame ('' where none is)."""
    frame = event.instance_segmentation_frame
    codes = (frame[..., 0].astype(np.int64) << 16) | (frame[..., 1].astype(np.int64) << 8) | frame[..., 2]
    ids = np.full(codes.shape, "", dtype=object)
    for color, object_id in event.color_to_object_id.items():
        ids[codes == ((color[0] << 16) | (color[1] << 8) | color[2])] = object_id
    return ids


def _box_line(obj: WorldObject, role: str) -> str:
    lo = ", ".join(f"{v:.3f}" for v in obj.lo)
    hi = ", ".join(f"{v:.3f}" for v in obj.hi)
    state = " open" if obj.is_open else ""
    return f"  {obj.object_id}: lo ({lo}) hi ({hi}){state}  [{role}]"


def floor_lines(world: World, point: tuple[float, float]) -> list[str]:
    """Lines saying why lite's room has no floor at ``point``, or what stands on it."""
    x, z = point
    key = grid_key(x, z)
    around = [(key[0] + dx, key[1] + dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1) if dx or dz]
    proven = sum(k in world.reachable and k not in world.margin for k in around)
    margin = sum(k in world.margin for k in around)
    where = "margin floor" if key in world.margin else "proven floor" if key in world.reachable else "no floor"
    lines = [f"point: ({x:g}, {z:g}) is {where} (the room has {len(world.reachable) - len(world.margin)} proven "
             f"floor points and {len(world.margin)} margin points one step from them); of its 8 neighbours "
             f"{proven} are proven floor, {margin} margin"]
    scene = world.scene
    footprints = scene_footprints(scene.objects)
    standing = [o for o in world.objects if o.present and o.object_id in footprints
                and bars_margin(footprints[o.object_id], x, z, scene.floor_y)]
    blockers = [o for o in world.floor_blockers() if footprint_meets(o.box(), x, z, turn=o.footprint_turn())]
    lines.append(f"fixtures standing within {MARGIN_CLEARANCE:g} m of it (they refuse it as margin floor): "
                 f"{len(standing)}")
    lines += [_box_line(o, "fixture") for o in standing]
    lines.append(f"loose objects meeting the agent's footprint there: {len(blockers)}")
    lines += [_box_line(o, "blocks") for o in blockers]
    return lines


def explain_failure(traj: Mapping[str, Any], low_idx: int, error: str, controller: LiteController,
                    show: Sequence[str], image: Path | None) -> list[str]:
    """Lines saying what lite sees at the failing low action ``low_idx`` against THOR's mask of it."""
    low = traj["plan"]["low_actions"][low_idx]
    api = low["api_action"]
    event = controller.last_event
    assert event is not None
    world: World = controller.world
    agent = event.metadata["agent"]
    camera = world.camera(fov=controller.field_of_view)
    lines = [f"agent: x {agent['position']['x']:.2f} z {agent['position']['z']:.2f} rotation "
             f"{agent['rotation']['y']:.0f} horizon {agent['cameraHorizon']:.0f}; camera at "
             f"({camera.x:.3f}, {camera.y:.3f}, {camera.z:.3f}), field of view {camera.fov_deg:.0f}"]
    refused = REFUSED_POINT.search(error)
    if refused:
        return lines + floor_lines(world, (float(refused.group(1)), float(refused.group(2))))
    target_id = str(api.get("receptacleObjectId") or api.get("objectId") or "")  # a put's mask is the receptacle's
    ids = object_ids_in_frame(event)
    roles: dict[str, str] = {}
    target = world.get(target_id) if target_id else None
    if target is not None:
        roles[target_id] = "target"
        for parent in world.parent_chain(target):
            roles.setdefault(parent.object_id, "holds the target")
    runs = ((low.get("discrete_action") or {}).get("args") or {}).get("mask")
    mask = decode_mask(runs) if runs else None
    ours = ids == target_id if target_id else np.zeros(ids.shape, dtype=bool)
    lines.append(f"target: {target_id or '-'}: lite draws {int(ours.sum())} pixels of it, THOR's mask has "
                 f"{int(mask.sum()) if mask is not None else 'no'} pixels")
    if mask is not None:
        lines.append("THOR's mask in lite's frame, pixels by what lite draws there:")
        for object_id, count in Counter(ids[mask].tolist()).most_common(8):
            lines.append(f"  {count:6d} {object_id or '(nothing)'}")
            if object_id and object_id != target_id:
                roles.setdefault(object_id, "covers THOR's mask")
    for obj in world.objects:
        if obj.present and any(text in obj.object_id for text in show):
            roles.setdefault(obj.object_id, "shown")
    lines.append("boxes:")
    for obj in world.objects:
        if obj.object_id in roles and obj.present:
            lines.append(_box_line(obj, roles[obj.object_id]))
    if image is not None:
        from PIL import Image

        rgb = event.frame.copy() if event.frame is not None else np.zeros((*ids.shape, 3), np.uint8)
        if mask is not None:
            rgb[mask] = (rgb[mask] * 0.5 + np.array([255, 0, 0]) * 0.5).astype(np.uint8)
        rgb[ours] = (rgb[ours] * 0.5 + np.array([0, 255, 0]) * 0.5).astype(np.uint8)
        Image.fromarray(rgb).resize((600, 600), Image.NEAREST).save(image)
        lines.append(f"image: {image}")
    return lines


#: How many of the rule's candidates ``--at`` lists.
RANKED_SHOWN = 5


def explain_interaction(traj: Mapping[str, Any], path: Path, low_idx: int, scene: Any, show: Sequence[str],
                        image: Path | None) -> list[str]:
    """Lines saying what ALFRED's rule picks with THOR's mask of low action ``low_idx`` in lite's frame
    before it (``traj`` replayed up to there in ``scene``, not completed from the file)."""
    lows = traj["plan"]["low_actions"]
    controller = LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False),
                                render_image=image is not None, render_object_image=True)
    run = execute_low_actions(controller, lows[:low_idx], restore_scene(controller, traj["scene"]))
    lines = [f"replay up to low_idx {low_idx}: {run.failures[0].describe() if run.failures else 'ok'}"]
    event = controller.last_event
    found = compare(path, low_idx, lows[low_idx], event)
    if found is None:
        action = lows[low_idx]["api_action"].get("action")
        return [*lines, f"low_idx {low_idx}: {action} names no object or carries no mask"]
    lines.append(f"{found.action} {found.target}: IoU {found.iou:.3f} (lite {found.lite_pixels} px, THOR "
                 f"{found.thor_pixels} px); ALFRED's rule picks {found.picked or 'nothing'}"
                 f" ({'right' if found.right else 'wrong'})")
    held = {item.get("objectId") for item in event.metadata.get("inventoryObjects") or ()}
    mask = compare_mask(lows[low_idx])
    for object_id, iou, overlap in ranked_candidates(mask, event.instance_masks or {})[:RANKED_SHOWN]:
        skipped = " (held: skipped)" if object_id in held else ""
        lines.append(f"  IoU {iou:.3f} overlap {overlap:5d} {object_id}{skipped}")
    return lines + explain_failure(traj, low_idx, "", controller, show, image)


def compare_mask(low: Mapping[str, Any]) -> np.ndarray:
    """THOR's recorded mask of ``low`` (``compare`` has checked it carries one)."""
    return decode_mask(low["discrete_action"]["args"]["mask"])


def why(pool: EvidencePool, path: Path, rooms_from: str, folds: int, show: Sequence[str],
        image: Path | None, at: int | None = None) -> list[str]:
    """Replay ``path`` in its room for the figure ``rooms_from``; lines saying how it went (with
    ``at``, how ALFRED's rule fares on that interaction's mask)."""
    job = room_job(pool, path, rooms_from, folds)
    traj = fidelity.load(path)
    scene = complete_for_start_state(build_scene(job.evidence, job.sizes, job.stats), traj["scene"])
    if at is not None:
        if not 0 <= at < len(traj["plan"]["low_actions"]):
            raise UserError(f"--at {at}: the demonstration has {len(traj['plan']['low_actions'])} low actions",
                            ExitCode.USAGE)
        return [f"demo: {path}", f"room: FloorPlan{job.evidence.scene_num} built for the {rooms_from} figure",
                *explain_interaction(traj, path, at, scene, show, image)]
    controllers: list[LiteController] = []

    def factory() -> LiteController:
        # The room of the figure, as alfred_fidelity.py replays it: not completed from the file.
        controller = LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False),
                                    render_image=image is not None,
                                    render_object_image=True)
        controllers.append(controller)
        return controller

    result = vet_trajectory(traj, controller_factory=factory, check_schema=False)
    lines = [f"demo: {path}", f"room: FloorPlan{job.evidence.scene_num} built for the {rooms_from} figure"]
    if result.ok:
        return [*lines, f"replay: ok ({len(traj['plan']['low_actions'])} actions, goal satisfied)"]
    lines.append(f"replay: {result.reason}: {result.error}")
    if result.failed_low_idx is None or not controllers:
        return lines
    return lines + explain_failure(traj, result.failed_low_idx, result.error or "", controllers[-1], show,
                                   image)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("json_dir", type=Path, help="directory holding traj_data.json files (searched recursively)")
    parser.add_argument("demo", help="part of one demonstration's path")
    parser.add_argument("--room-from", choices=ROOMS_FROM, default="heldout",
                        help="which figure's room to replay it in (default heldout)")
    parser.add_argument("--folds", type=int, default=5, help="folds per room, as for the held-out figure (default 5)")
    parser.add_argument("--alfred-dir", help="ALFRED checkout with gen/layouts or layouts")
    parser.add_argument("--show", action="append", default=[], metavar="TEXT",
                        help="also print the boxes of objects whose id contains TEXT (repeatable)")
    parser.add_argument("--image", type=Path, help="save lite's frame with THOR's mask over it here (PNG)")
    parser.add_argument("--at", type=int, metavar="LOW_IDX",
                        help="explain ALFRED's rule on this interaction's mask (the replay may pass)")
    args = parser.parse_args(argv)
    if args.folds < 2:
        parser.error("--folds must be at least 2")
    files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file()) if args.json_dir.is_dir() else []
    if not files:
        parser.error(f"{args.json_dir}: no traj_data.json found")
    chosen = [p for p in files if args.demo in str(p)]
    if len(chosen) != 1:
        parser.error(f"{args.demo!r} names {len(chosen)} demonstrations under {args.json_dir}, not one")
    try:
        sources = fidelity.sources_for(files, args.alfred_dir)
    except UserError as error:
        print(f"fidelity_why: error: {error}", file=sys.stderr)
        return int(error.code)
    pool = EvidencePool.read(sources, files, workers=1)
    if chosen[0] in pool.unreadable:
        parser.error(f"{chosen[0]}: not a readable demonstration")
    try:
        lines = why(pool, chosen[0], args.room_from, args.folds, args.show, args.image, args.at)
    except UserError as error:
        print(f"fidelity_why: error: {error}", file=sys.stderr)
        return int(error.code)
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
