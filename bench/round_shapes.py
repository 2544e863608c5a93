"""How far inside its box lite should draw a type THOR models round: lite's masks against THOR's.

    python bench/round_shapes.py ALFRED_JSON_DIR [--rooms even|odd|all] [--demos N]
                                 [--types Cup,Mug,...] [--insets 0,0.05,0.1,0.15,0.2]

Replays released demonstrations in rooms built from all of them (in-sample rooms: the poses and
start states are THOR's) and, just before each interaction with an object of the given types that
has not been picked up yet, draws the frame lite sees and compares the object's pixels with the
mask the demonstration recorded. Per type and per inset (the fraction of the box's width and depth
left undrawn on each side, :data:`alfred_gen.sim.shapes.ROUND_INSET`), it prints the pooled IoU of
lite's masks with THOR's and how many pixels lite draws per pixel THOR showed. ``--rooms even``
(FloorPlans with even numbers) is what the inset was fit on; ``--rooms odd`` checks it on rooms the
fit did not see. Compare inset 0 (the whole box) with the others side by side.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.fidelity import measure
from alfred_gen.fidelity.evidence_pool import EvidencePool, learnt_stats
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.sim import pixels, shapes
from alfred_gen.sim.lite import LiteController
from alfred_gen.traj.format import TRAJ_FILE_NAME
from alfred_gen.traj.rle import decode_mask


def _touches(traj: dict[str, Any], types: set[str]) -> bool:
    return any(str(low["api_action"].get("objectId", "")).split("|")[0] in types
               for low in traj["plan"]["low_actions"])


def _set_inset(types: frozenset[str], inset: float) -> None:
    """Draw ``types`` ``inset`` inside their boxes (the renderers' caches forget older shapes)."""
    shapes.ROUND_IN_PLAN = types  # type: ignore[misc]  # a study rebinds the module's table on purpose
    shapes.ROUND_INSET = inset  # type: ignore[misc]
    pixels.forget_shapes()


def masks_before_interactions(traj: dict[str, Any], scene: Any, wanted: Callable[[str], bool],
                              variants: dict[Any, Callable[[], None]], reset: Callable[[], None],
                              target: Callable[[dict[str, Any]], Any] | None = None
                              ) -> list[tuple[Any, str, np.ndarray, np.ndarray]]:
    """(variant, object type, lite's mask, THOR's mask) just before each interaction with an object
    not picked up yet whose type ``wanted`` accepts, lite's frame drawn once per variant.

    ``variants`` maps a name to a function that sets lite's shapes up for it; ``reset`` sets up the
    shapes the replay itself runs with, before it and after each frame. ``target`` names the object
    of a low action whose mask is compared (default: its ``objectId``)."""
    lows = traj["plan"]["low_actions"]
    found: list[tuple[Any, str, np.ndarray, np.ndarray]] = []
    held: dict[str, LiteController] = {}
    picked: set[str] = set()
    target_of = target or (lambda low: low["api_action"].get("objectId"))

    def factory() -> LiteController:
        held["sim"] = LiteController(scene_lookup=measure.SceneLibrary(extra=(scene,)), render_image=False)
        return held["sim"]

    def on_step(low_idx: int, api_action: dict[str, Any], _event: Any) -> None:
        if api_action.get("action") == "PickupObject":
            picked.add(str(api_action.get("objectId")))
        if low_idx + 1 >= len(lows):
            return
        following = lows[low_idx + 1]
        object_id = target_of(following)
        runs = (following.get("discrete_action") or {}).get("args", {}).get("mask")
        if not object_id or not wanted(object_id.split("|")[0]) or object_id in picked or not runs:
            return
        sim = held["sim"]
        thor_mask = decode_mask(runs)
        camera = pixels.render_camera(sim.camera(), (thor_mask.shape[1], thor_mask.shape[0]))
        for name, set_up in variants.items():
            set_up()
            sim.visibility._world = None  # rebuild the box lists with the shapes just set
            layers = sim.visibility.layers(sim.world)
            owner = pixels.render_state(layers, camera, rgb=False, depth=False).owner
            if object_id in layers.owners:
                found.append((name, object_id.split("|")[0], owner == layers.owners.index(object_id), thor_mask))
        reset()
        sim.visibility._world = None

    reset()
    vet_trajectory(traj, controller_factory=factory, check_schema=False, on_step=on_step)
    return found


def _observations(traj: dict[str, Any], scene: Any, types: set[str],
                  insets: Sequence[float]) -> list[tuple[str, float, np.ndarray, np.ndarray]]:
    """(type, inset, lite's mask, THOR's mask) before each interaction with an unmoved object."""
    all_round = frozenset(types)
    variants = {inset: (lambda inset=inset: _set_inset(all_round, inset)) for inset in insets}
    found = masks_before_interactions(traj, scene, lambda t: t in types, variants,
                                      reset=lambda: _set_inset(all_round, insets[0]))
    return [(object_type, inset, lite, thor) for inset, object_type, lite, thor in found]


def demos_of_rooms(pool: EvidencePool, rooms: str) -> list[Any]:
    """The pool's demonstrations from the FloorPlans ``rooms`` names (``even``, ``odd`` or ``all``),
    in a fixed shuffled order, so a run of N demos samples every room alike."""
    order = [d for d in pool.demos if rooms == "all" or d.room % 2 == (rooms == "odd")]
    random.Random(0).shuffle(order)
    return order


def add_study_arguments(parser: argparse.ArgumentParser, demos: int, per: str = "run") -> None:
    """The arguments the mask studies share: the released demos' directory, which FloorPlans to
    take demonstrations from, how many (``demos`` per ``per`` by default), and reading workers."""
    parser.add_argument("json_dir", type=Path, help="directory holding released traj_data.json files")
    parser.add_argument("--rooms", choices=("even", "odd", "all"), default="all",
                        help="FloorPlans to take demonstrations from (default: all)")
    parser.add_argument("--demos", type=int, default=demos, help=f"demonstrations per {per} (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="processes reading the evidence (default: 1)")


def read_evidence(json_dir: Path, workers: int, script: str) -> tuple[EvidencePool, dict[int, Any], Any] | None:
    """The released demonstrations under ``json_dir``, each room's evidence from all of them and the
    statistics learnt over those rooms (for in-sample rooms); None, after one error line naming
    ``script``, when there are none."""
    files = sorted(json_dir.rglob(TRAJ_FILE_NAME))
    if not files:
        print(f"{script}: error: no {TRAJ_FILE_NAME} under {json_dir}", file=sys.stderr)
        return None
    pool = EvidencePool.read(measure.sources_for(files, None), files, workers)
    rooms = pool.rooms()
    return pool, rooms, learnt_stats(rooms)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_study_arguments(parser, demos=120)
    parser.add_argument("--types", default=",".join(sorted(shapes.ROUND_IN_PLAN)),
                        help="object types to measure (default: the types lite draws round)")
    parser.add_argument("--insets", default="0,0.05,0.1,0.15,0.2", help="insets to compare (default: %(default)s)")
    args = parser.parse_args(argv)
    types = set(args.types.split(","))
    insets = [float(x) for x in args.insets.split(",")]
    evidence = read_evidence(args.json_dir, args.workers, "round_shapes")
    if evidence is None:
        return 3
    pool, rooms, stats = evidence
    order = demos_of_rooms(pool, args.rooms)
    pooled: dict[tuple[str, float], np.ndarray] = defaultdict(lambda: np.zeros(4))
    seen: Counter[str] = Counter()
    used = 0
    built: dict[int, Any] = {}
    for demo in order:
        if used >= args.demos:
            break
        traj = measure.load(demo.path)
        if not _touches(traj, types):
            continue
        used += 1
        if demo.room not in built:
            built[demo.room] = build_scene(rooms[demo.room], None, stats)
        scene = complete_for_start_state(built[demo.room], traj["scene"])
        for object_type, inset, lite, thor in _observations(traj, scene, types, insets):
            pooled[(object_type, inset)] += [(lite & thor).sum(), (lite | thor).sum(), lite.sum(), thor.sum()]
            seen[object_type] += inset == insets[0]
    print(f"{used} demonstrations ({args.rooms} FloorPlans), in-sample rooms")
    print("| type | masks | " + " | ".join(f"IoU at {x:g}" for x in insets) + " | lite/THOR pixels at each |")
    print("|---|---|" + "---|" * len(insets) + "---|")
    for object_type in sorted(seen):
        rows = [pooled[(object_type, x)] for x in insets]
        ious = " | ".join(f"{r[0] / max(r[1], 1):.3f}" for r in rows)
        ratios = " ".join(f"{r[2] / max(r[3], 1):.2f}" for r in rows)
        print(f"| {object_type} | {seen[object_type]} | {ious} | {ratios} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
