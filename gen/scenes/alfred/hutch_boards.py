"""A shelf board that THOR draws as part of the furniture it stands in is drawn as that furniture's.

Some of THOR's desks carry a hutch whose boards are ``Shelf`` objects with no drawing of their own:
the desk's mesh draws them, so THOR's mask of the desk covers the hutch. FloorPlan312's desk
``Desk|+02.24|00.00|-01.58``: its put mask is 34,143 pixels, the hutch included; lite drew the hutch's
boards as their own shelves, which took 19,103 of those pixels, so ALFRED's rule picked the shelf
``Shelf|+01.60|+00.77|-01.68`` for a put onto the desk (wide sample, held out: CellPhone-None-Desk-312
@28, IoU 0.11). None of the room's train demos acts on any of those boards, and 28 rays of the desk's
own masks meet one of them before anything else.

So a board whose own masks never show it (no :class:`~alfred_gen.scenes.alfred.sight_facts.SightFact`
names it) while at least :data:`MIN_RAYS` rays of a piece of furniture's masks (:data:`HOST_TYPES`)
meet the board's box before any other fixture's box is drawn as a part of that furniture (its box and
the back :func:`~alfred_gen.scenes.alfred.shelf_backs.back_parts` gives it), and its own drawing is
cut away (:attr:`Block.holes`). Its box stays: what rests on it still rests there. Boards of one unit
seen through each other (FloorPlan20's, FloorPlan7's) are not hosts: a shelf is no host type. Rays are
the other folds' masks only, as every fit of the evidence.

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.shelf_backs import back_parts
from alfred_gen.scenes.alfred.sight_cuts import ray_entry
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box

#: Furniture whose mesh may draw shelf boards standing in it.
HOST_TYPES = frozenset({"Desk", "Dresser", "SideTable", "TVStand"})
#: Rays of a host's masks that must meet a board first before the board is drawn as the host's.
MIN_RAYS = 2
#: How far past a board's drawing (box and back) the hole that hides it reaches (metres).
HOLE_MARGIN = 0.005


def first_hits(blocks: Sequence[Block], sights: Sequence[SightFact]) -> Counter[tuple[str, str]]:
    """(host id, board id) -> how many rays of the host's masks meet that shelf board's box before any
    other fixture's box."""
    hosts = {block.object_id for block in blocks if block.kind in HOST_TYPES}
    lo = [np.asarray(block.lo, dtype=float) for block in blocks]
    hi = [np.asarray(block.hi, dtype=float) for block in blocks]
    hits: Counter[tuple[str, str]] = Counter()
    for fact in sights:
        if fact.loose is not None or fact.target not in hosts:
            continue
        eye = np.asarray(fact.eye, dtype=float)
        for ray in fact.rays:
            r = np.asarray(ray, dtype=float)
            entries = [(t, i) for i in range(len(blocks)) if (t := ray_entry(eye, r, lo[i], hi[i])) is not None]
            if not entries:
                continue
            first = blocks[min(entries)[1]]
            if first.kind == "Shelf":
                hits[(fact.target, first.object_id)] += 1
    return hits


def _hull(boxes: Sequence[Box], margin: float) -> Box:
    lo = tuple(min(b.lo[a] for b in boxes) - margin for a in range(3))
    hi = tuple(max(b.hi[a] for b in boxes) + margin for a in range(3))
    return Box(lo, hi)  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]


def boards_drawn_by_their_host(blocks: Sequence[Block], sights: Sequence[SightFact]) -> dict[str, str]:
    """Draw each shelf board its host's masks cover and no mask of its own shows as part of the host
    (see the module docstring); returns board id -> host id."""
    seen = {fact.target for fact in sights}
    by_id = {block.object_id: block for block in blocks}
    best: dict[str, tuple[int, str]] = {}
    for (host, board), count in first_hits(blocks, sights).items():
        if board in seen or count < MIN_RAYS:
            continue
        if board not in best or (count, host) > best[board]:
            best[board] = (count, host)
    for board_id, (_, host_id) in sorted(best.items()):
        shelf = by_id[board_id]
        drawing = (shelf.box(), *back_parts(shelf, blocks))
        by_id[host_id].drawn_parts.extend(drawing)
        shelf.holes.append(_hull(drawing, HOLE_MARGIN))
    return {board: host for board, (_, host) in best.items()}
