"""A shelf board set in furniture is drawn in an opening as tall as THOR's masks of it show.

The renderer carves a board set in furniture with a top over it (a side table's inner shelf,
:data:`~alfred_gen.sim.pixels.FRONT_SEEN` in :data:`~alfred_gen.sim.pixels.TOPPED_FURNITURE`) out
through the furniture's front, as tall as the board: a 4 cm slot. That is right for most of THOR's
furniture, whose boards are hidden behind doors or drawers or set deep in a closed body. But
FloorPlan313's side table ``SideTable|+01.56|-00.01|-00.47`` is open over its shelf: THOR's masks of
``Shelf|+01.54|+00.48|-00.47`` (2,373 pixels at one put) are the board seen through an opening up to the
table's top. Lite drew the table's body there, and ALFRED's rule picked the table for four puts onto
the shelf on the samples held out by folds (IoU 0). Opening every such board up to its furniture's
top (stop 112) won that room and lost IoU on closed furniture elsewhere (dressers, desks, side
tables and coffee tables in FloorPlan217, 222, 307, 321 and 326).

So the opening is taken from the board's own masks, as every fit of the evidence: where at least
:data:`MIN_SHARE` of the rays of the masks of a board (at least :data:`MIN_RAYS` of them, other folds'
demos only) enter its furniture's drawing through a side more than :data:`GAP` above the board's
top, they saw the board through an opening there. The furniture's drawing is cut (:attr:`Block.holes`)
over the board's footprint, out through that side, up to the highest such entry, below the
furniture's top slab (:data:`TOP_SLAB`) and any board or drawer of it above. Drawing only: the boxes,
which hold what rests on them, stay.

Over the catalogue built from every train demo, two boards pass: FloorPlan313's (68 of 85 rays
above, up to 0.199 m over a board whose table top is 0.215 m over it) and FloorPlan320's lowest desk
board (30 of 30 rays; opened 0.18 m, up to the board above it). FloorPlan326's dining-table board, 4
of 15 rays, does not; nor do six boards no mask shows (FloorPlan206's, 207's, 216's, 320's two upper
ones and 328's).

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_cuts import ray_entry
from alfred_gen.scenes.alfred.sight_facts import SightFact, fixture_rays
from alfred_gen.sim.pixels import FRONT_SEEN, TOPPED_FURNITURE
from alfred_gen.sim.scene import Box

#: Rays of a board's masks needed before they may open its furniture (one mask's rays).
MIN_RAYS = 5
#: Share of those rays that must enter the furniture through a side above the board.
MIN_SHARE = 0.5
#: How far above a board's top a ray must enter the furniture to have seen it through an opening (metres).
GAP = 0.02
#: How thick the furniture's top stays over an opening (metres).
TOP_SLAB = 0.02
#: How far past the furniture's drawn side the opening is cut, so no sliver of that side is left (metres).
OUT = 0.01
#: Parts of the furniture an opening stops under.
STOPS = frozenset({"Shelf", "Drawer"})


def _host_of(board: Block, blocks: Sequence[Block]) -> Block | None:
    """The topped furniture the board is set in: its middle inside the furniture's footprint, its top
    under the furniture's top."""
    middle = [(board.lo[a] + board.hi[a]) / 2.0 for a in (0, 2)]
    for host in blocks:
        if host.kind in TOPPED_FURNITURE and all(host.lo[a] <= m <= host.hi[a] for a, m in zip((0, 2), middle)) \
                and host.lo[1] - GAP <= board.lo[1] and board.hi[1] < host.hi[1] - GAP:
            return host
    return None


def _side_entries(board: Block, drawn: Box, sights: Sequence[SightFact]) -> tuple[int, list[tuple[int, int, float]]]:
    """(rays of the board's masks, [(axis, sign, height)] of those entering the drawing ``drawn`` through
    a side more than :data:`GAP` above the board's top)."""
    lo, hi = np.asarray(drawn.lo, dtype=float), np.asarray(drawn.hi, dtype=float)
    total, above = 0, []
    for eye, r in fixture_rays(board.object_id, sights):
        total += 1
        t = ray_entry(eye, r, lo, hi)
        if t is None or t <= 0.0:
            continue
        point = eye + t * r
        if point[1] <= board.hi[1] + GAP or point[1] >= hi[1] - 1e-6:
            continue
        axis = min((0, 2), key=lambda a: min(abs(point[a] - lo[a]), abs(point[a] - hi[a])))
        sign = 1 if abs(point[axis] - hi[axis]) < abs(point[axis] - lo[axis]) else -1
        above.append((axis, sign, float(point[1])))
    return total, above


def _ceiling(board: Block, host: Block, blocks: Sequence[Block]) -> float:
    """The highest an opening over ``board`` may reach: under the host's top slab and under the lowest
    board or drawer over the board's footprint."""
    ceiling = host.hi[1] - TOP_SLAB
    for other in blocks:
        if other is not board and other.kind in STOPS and other.lo[1] > board.hi[1] \
                and board.overlaps(other, axes=(0, 2)) and _host_of(other, [host]) is host:
            ceiling = min(ceiling, other.lo[1])
    return ceiling


def openings_over_boards(blocks: Sequence[Block], sights: Sequence[SightFact]) -> dict[str, float]:
    """Cut an opening over each board set in topped furniture where the board's masks show one (see
    the module docstring); returns board id -> the opening's top (world y)."""
    opened: dict[str, float] = {}
    for board in blocks:
        if board.kind not in FRONT_SEEN or (host := _host_of(board, blocks)) is None:
            continue
        drawn = host.drawn_box()
        total, above = _side_entries(board, drawn, sights)
        if total < MIN_RAYS or len(above) < MIN_SHARE * total:
            continue
        (axis, sign), _ = Counter((a, s) for a, s, _ in above).most_common(1)[0]
        top = min(max(h for _, _, h in above), _ceiling(board, host, blocks))
        if top <= board.hi[1] + GAP:
            continue
        lo = [max(board.lo[a], drawn.lo[a]) for a in range(3)]
        hi = [min(board.hi[a], drawn.hi[a]) for a in range(3)]
        lo[1], hi[1] = board.hi[1], top
        if sign > 0:
            hi[axis] = drawn.hi[axis] + OUT
        else:
            lo[axis] = drawn.lo[axis] - OUT
        host.holes.append(Box(tuple(lo), tuple(hi)))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
        opened[board.object_id] = top
    return opened
