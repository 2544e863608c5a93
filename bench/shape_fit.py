"""Which shape lite should draw a type in: lite's masks of it against THOR's, shape by shape.

    python bench/shape_fit.py ALFRED_JSON_DIR --type Kettle [--rooms even|odd|all] [--demos N]
                              [--shapes current,block,narrow:0.4:0.2,post:0.3,bulge,loaf,round,crust]

Replays released demonstrations in rooms built from all of them (in-sample rooms: the poses and
start states are THOR's) and, just before each interaction with an object of the type that has
not been picked up yet (the target of a pickup, open or toggle, the receptacle of a put), draws
the frame lite sees with each shape and compares the object's pixels with the mask the
demonstration recorded. It prints, per shape, the pooled IoU of lite's masks with THOR's and how
many pixels lite draws per pixel THOR showed. Fit on ``--rooms even`` and check the winner on
``--rooms odd``, which the fit did not see (how :mod:`alfred_gen.sim.shapes` chose the kettle's,
the faucet's, the tissue box's, the salt shaker's, the loaf's, the lettuce's and the vase's shapes).

Shapes (each drawn inside the box lite draws the type in, see ``drawn_box``):

- ``current``: what lite draws today;
- ``block``: the whole box;
- ``round``: the core and band fruit are drawn as;
- ``narrow:S:W``: full width up to S of the height, W as wide and deep above;
- ``post:W``: a post W as wide and deep in the middle, the full height;
- ``bulge``, ``loaf``: the tiers lettuces and vases, and loaves, are drawn in;
- ``crust``: a block with a narrower crust on its upper third (the loaf's earlier shape).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np
from round_shapes import (  # bench/ is on sys.path when this file runs as a script
    add_study_arguments,
    demos_of_rooms,
    masks_before_interactions,
    read_evidence,
)

from alfred_gen.fidelity import measure
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.sim import pixels, shapes

Maker = Callable[[Any], list[Any]]


def _block(f: Any) -> list[Any]:
    """The whole box, one part."""
    return shapes._tiers(f, ((0.0, 0.0, 1.0),))


def shape_maker(name: str, object_type: str) -> Maker:
    """The part maker a shape name stands for (see the module's docstring)."""
    kind, *args = name.split(":")
    values = [float(a) for a in args]
    if kind == "current":
        if object_type in shapes._OPENABLE:
            closed = shapes._OPENABLE[object_type]
            return lambda f: closed(f, False)
        return shapes._FIXED.get(object_type, _block)
    if kind == "block":
        return _block
    if kind == "round":
        return shapes._round
    if kind == "narrow" and len(values) == 2:
        return lambda f: shapes._narrow_top(f, values[0], values[1], shapes.BODY, shapes.BODY)
    if kind == "post" and len(values) == 1:
        return lambda f: shapes._post(f, values[0])
    if kind == "bulge":
        return lambda f: shapes._tiers(f, shapes.BULGE_TIERS)
    if kind == "loaf":
        return lambda f: shapes._tiers(f, shapes.LOAF_TIERS)
    if kind == "crust":
        return lambda f: [(f.part(0, 1, 0, 0.65, 0, 1), shapes.BODY),
                          (f.part(0.08, 0.92, 0.65, 1, 0.06, 0.94), shapes.BODY)]
    raise ValueError(f"unknown shape {name!r}")


def _table(object_type: str) -> dict[str, Any]:
    """The table of part makers lite looks ``object_type`` up in: openable shapes or fixed ones."""
    return shapes._OPENABLE if object_type in shapes._OPENABLE else shapes._FIXED


def _set(object_type: str, maker: Any) -> None:
    """Put ``maker`` in the type's table (None: take the type out); the renderers' caches forget
    older shapes."""
    table = _table(object_type)
    if maker is None:
        table.pop(object_type, None)
    else:
        table[object_type] = maker
    pixels.forget_shapes()


def _use(object_type: str, maker: Maker) -> None:
    """Draw ``object_type`` with ``maker`` (closed, for a type with an open form)."""
    _set(object_type, (lambda f, is_open: maker(f)) if object_type in shapes._OPENABLE else maker)


def _target(low: dict[str, Any]) -> str | None:
    api = low["api_action"]
    return api.get("receptacleObjectId") if api.get("action") == "PutObject" else api.get("objectId")


def _observations(traj: dict[str, Any], scene: Any, object_type: str,
                  makers: dict[str, Maker]) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """(shape, lite's mask, THOR's mask) before each interaction with an unmoved object of the type;
    the replay itself runs with lite's own shapes."""
    original = _table(object_type).get(object_type)
    variants = {name: (lambda maker=maker: _use(object_type, maker)) for name, maker in makers.items()}
    found = masks_before_interactions(traj, scene, lambda t: t == object_type, variants,
                                      reset=lambda: _set(object_type, original), target=_target)
    return [(name, lite, thor) for name, _, lite, thor in found]


def _touches(traj: dict[str, Any], object_type: str) -> bool:
    return any(str(_target(low) or "").split("|")[0] == object_type for low in traj["plan"]["low_actions"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_study_arguments(parser, demos=150)
    parser.add_argument("--type", required=True, dest="object_type", help="the object type to measure")
    parser.add_argument("--shapes", default="current,block", help="shapes to compare (default: %(default)s)")
    args = parser.parse_args(argv)
    try:
        makers = {name: shape_maker(name, args.object_type) for name in args.shapes.split(",")}
    except ValueError as error:
        print(f"shape_fit: error: {error}", file=sys.stderr)
        return 2
    evidence = read_evidence(args.json_dir, args.workers, "shape_fit")
    if evidence is None:
        return 3
    pool, rooms, stats = evidence
    order = demos_of_rooms(pool, args.rooms)
    pooled: dict[str, np.ndarray] = defaultdict(lambda: np.zeros(4))
    masks = used = 0
    built: dict[int, Any] = {}
    for demo in order:
        if used >= args.demos:
            break
        traj = measure.load(demo.path)
        if not _touches(traj, args.object_type):
            continue
        used += 1
        if demo.room not in built:
            built[demo.room] = build_scene(rooms[demo.room], None, stats)
        scene = complete_for_start_state(built[demo.room], traj["scene"])
        for name, lite, thor in _observations(traj, scene, args.object_type, makers):
            pooled[name] += [(lite & thor).sum(), (lite | thor).sum(), lite.sum(), thor.sum()]
            masks += name == next(iter(makers))
    print(f"{args.object_type}: {used} demonstrations ({args.rooms} FloorPlans), {masks} masks, in-sample rooms")
    print("| shape | IoU | lite/THOR pixels |")
    print("|---|---|---|")
    for name in makers:
        row = pooled[name]
        print(f"| {name} | {row[0] / max(row[1], 1):.3f} | {row[2] / max(row[3], 1):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
