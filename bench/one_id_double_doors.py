"""Which single cabinets the double-door rule calls, and how their open masks score drawn both ways.

    python bench/one_id_double_doors.py ALFRED_JSON_DIR [--folds K] [--alfred-dir DIR] [--workers N]
                                        [--out FILE]

Every CloseObject of a cabinet, and every PutObject into one, recorded THOR's mask of it open. Each
room is built as ``bench/alfred_fidelity.py`` builds it for the held-out figure (from the other K-1
folds of its demonstrations); for each such mask of a single cabinet (no door of a pair,
:func:`~alfred_gen.sim.shapes.door_pair`) in the held-out fold, the script draws the open cabinet alone
from the demo's camera as lite draws it with one leaf, and as a double door across its shut front
(:mod:`alfred_gen.scenes.alfred.double_doors`), and scores each against THOR's mask (IoU). A cabinet is
called double in a fold when the masks of the other folds vote for it
(:func:`~alfred_gen.scenes.alfred.double_doors.double_margin`,
:func:`~alfred_gen.scenes.alfred.double_doors.is_double`). Prints, per half (odd and even
FloorPlans), the cabinets called and the mean IoU of their held-out masks drawn each way.

The room is built with the rule switched off (``--without doubles_at_their_masks``), so "one leaf" is
lite's drawing before the rule. Exit codes: 0 printed, 2 bad arguments or no trajectories, 3 no
layouts beside the trajectories.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from alfred_gen.errors import UserError
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool, learnt_stats
from alfred_gen.scenes.alfred.double_doors import double_margin, is_double
from alfred_gen.scenes.alfred.evidence import interaction_steps
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.importer import build_scene
from alfred_gen.scenes.alfred.sight_facts import RAYS_PER_DOOR_MASK, SightFact, mask_rays, outline_rays
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.pixels import scene_facings, scene_mirrored, scene_swings
from alfred_gen.sim.render import BoxList, render
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, SceneObject, drawing_margins, with_margins
from alfred_gen.sim.shapes import Part, Swing, door_pair, shape_parts
from alfred_gen.sim.thor_shapes import DOUBLE_DOOR_SWING, open_parts
from alfred_gen.traj.format import TRAJ_FILE_NAME
from alfred_gen.traj.rle import decode_mask

#: Actions whose mask shows the cabinet open.
OPEN_MASK_ACTIONS = ("CloseObject", "PutObject")
#: The rule's pass, switched off to build the rooms lite drew before it.
RULE = "doubles_at_their_masks"


@dataclass
class OpenMask:
    """One held-out mask of a cabinet open: where from, its vote (:func:`double_margin`) and its IoU drawn
    each way."""

    room: int
    fold: int
    target: str
    margin: int
    one_leaf: float
    double: float


def _parts(box: Box, facing: int, mirrored: bool, swing: Swing | None) -> list[Part]:
    parts = open_parts("Cabinet", box, facing, mirrored, swing)
    return parts if parts is not None else shape_parts("Cabinet", box, is_open=True, facing=facing,
                                                       mirrored=mirrored, swing=swing)


def _drawn_mask(parts: list[Part], camera: Camera) -> np.ndarray:
    lo = np.array([b.lo for b, _ in parts], float)
    hi = np.array([b.hi for b, _ in parts], float)
    boxes = BoxList(lo, hi, np.zeros(len(lo), np.int32), np.zeros((len(lo), 3), np.uint8), ("cabinet",))
    owner = render(camera, boxes, rgb=False, depth=False, seg=True).owner
    return np.asarray(owner == 0)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    union = int((a | b).sum())
    return float((a & b).sum()) / union if union else 0.0


def _is_paired(obj: SceneObject, cabinets: Sequence[SceneObject], facings: dict[str, int]) -> bool:
    return any(other is not obj and facings.get(other.object_id) == facings.get(obj.object_id)
               and door_pair(other.position, obj.position) for other in cabinets)


def open_masks_of(path: Path) -> list[tuple[str, list[float], float, object]]:
    """(cabinet id, pose [x, z, rotation, horizon], agent y, mask runs) of each of a demo's masks of
    a cabinet open."""
    with open(path) as handle:
        traj = json.load(handle)
    low = traj["plan"]["low_actions"]
    _, steps = interaction_steps(traj["scene"], low)
    agent_y = float(traj["scene"]["init_action"].get("y", 0.0))
    out = []
    for index, target, pose in steps:
        runs = ((low[index].get("discrete_action") or {}).get("args") or {}).get("mask")
        if low[index]["api_action"].get("action") in OPEN_MASK_ACTIONS and target.startswith("Cabinet|") and runs:
            out.append((target, pose, agent_y, runs))
    return out


def score_mask(obj: SceneObject, facing: int, mirrored: bool, swing: Swing | None,
               pose: Sequence[float], agent_y: float, runs: object) -> tuple[int, float, float]:
    """(the mask's vote in rays, IoU of lite's one-leaf drawing, IoU of the double door's) for ``obj``."""
    x, z, rotation, horizon = pose
    camera = Camera(x, agent_y + ALFRED_CAMERA.height, z, rotation, horizon, ALFRED_CAMERA.field_of_view)
    thor = np.asarray(decode_mask(runs), bool)
    open_box = with_margins(obj.box, drawing_margins(obj.drawn_margins, obj.shut_margins, False))
    shut_box = with_margins(obj.box, drawing_margins(obj.drawn_margins, obj.shut_margins, True))
    block = Block(obj.object_id, "Cabinet", obj.position, list(shut_box.lo), list(shut_box.hi), False, facing)
    eye = (float(x), agent_y + ALFRED_CAMERA.height, float(z))
    fact = SightFact(obj.object_id, eye, (), sides=outline_rays("Cabinet", runs, camera),
                     door_rays=mask_rays(runs, camera, RAYS_PER_DOOR_MASK))
    one = _iou(_drawn_mask(_parts(open_box, facing, mirrored, swing), camera), thor)
    double = _iou(_drawn_mask(_parts(shut_box, facing, mirrored, DOUBLE_DOOR_SWING), camera), thor)
    return double_margin(fact, block), one, double


def scored_masks(pool: EvidencePool, files: Sequence[Path], folds: int) -> list[OpenMask]:
    """Every held-out mask of a single cabinet open, scored in its room built from the other folds."""
    fold_of = pool.folds(folds)
    room_of = {d.path: d.room for d in pool.demos}
    wanted: dict[tuple[int, int], list[tuple[str, list[float], float, object]]] = {}
    for path in files:
        if path in room_of:
            wanted.setdefault((fold_of[path], room_of[path]), []).extend(open_masks_of(path))
    out = []
    for fold in range(folds):
        rooms = pool.rooms(lambda demo, fold=fold: fold_of[demo.path] != fold)
        stats = learnt_stats(rooms)
        for (held, room), masks in sorted(wanted.items()):
            if held != fold or not masks:
                continue
            scene = build_scene(rooms[room], None, stats, frozenset({RULE}))
            cabinets = [o for o in scene.objects if o.object_type == "Cabinet"]
            by_id = {o.object_id: o for o in cabinets}
            facings = scene_facings(scene)
            mirrored, swings = scene_mirrored(scene, facings), scene_swings(scene)
            for target, pose, agent_y, runs in masks:
                obj = by_id.get(target)
                if obj is None or _is_paired(obj, cabinets, facings):
                    continue
                margin, one, double = score_mask(obj, facings.get(target, 0), target in mirrored, swings.get(target),
                                               pose, agent_y, runs)
                out.append(OpenMask(room, fold, target, margin, one, double))
    return out


def report(masks: Sequence[OpenMask]) -> None:
    """Print, per half, the cabinets called double held out and their masks' mean IoU both ways."""
    for half, name in ((1, "odd"), (0, "even")):
        mine = [m for m in masks if m.room % 2 == half]
        called = []
        for m in mine:
            if is_double([o.margin for o in mine if o.room == m.room and o.target == m.target and o.fold != m.fold]):
                called.append(m)
        cabinets = sorted({(m.room, m.target) for m in called})
        print(f"{name} FloorPlans: {len(mine)} masks of {len({(m.room, m.target) for m in mine})} single cabinets; "
              f"called double: {len(cabinets)} cabinets, {len(called)} masks")
        for room, target in cabinets:
            rows = [m for m in called if (m.room, m.target) == (room, target)]
            print(f"  FloorPlan{room} {target}: folds {sorted({m.fold for m in rows})}, {len(rows)} masks, "
                  f"one leaf {np.mean([m.one_leaf for m in rows]):.3f} -> "
                  f"double {np.mean([m.double for m in rows]):.3f}, "
                  f"{sum(m.double < m.one_leaf for m in rows)} lower")
        if called:
            print(f"  all called: one leaf {np.mean([m.one_leaf for m in called]):.3f} -> "
                  f"double {np.mean([m.double for m in called]):.3f}")


def _fail(message: str, code: int = 2) -> int:
    print(f"one_id_double_doors: error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("json_dir", type=Path, help="directory holding traj_data.json files (searched recursively)")
    parser.add_argument("--folds", type=int, default=5, help="folds per room, as for the held-out figure (default 5)")
    parser.add_argument("--alfred-dir", help="ALFRED checkout with gen/layouts or layouts")
    parser.add_argument("--workers", type=int, default=1, help="processes reading the demonstrations (default 1)")
    parser.add_argument("--out", type=Path, help="write every scored mask here (JSON)")
    args = parser.parse_args(argv)
    if args.folds < 2:
        return _fail("--folds must be at least 2")
    files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file()) if args.json_dir.is_dir() else []
    if not files:
        return _fail(f"{args.json_dir}: no traj_data.json found")
    try:
        sources = fidelity.sources_for(files, args.alfred_dir)
    except UserError as error:
        return _fail(str(error), int(error.code))
    masks = scored_masks(EvidencePool.read(sources, files, workers=args.workers), files, args.folds)
    if args.out:
        args.out.write_text(json.dumps([m.__dict__ for m in masks]))
    report(masks)
    return 0


if __name__ == "__main__":
    sys.exit(main())
