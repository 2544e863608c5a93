"""A shelf board whose own masks show it bare is drawn without the back of a compartment.

:mod:`~alfred_gen.scenes.alfred.shelf_backs` draws every imported shelf board with the back of its
compartment, up to the board above, because some of THOR's shelves are compartments whose mask is
that back panel (FloorPlan330's, FloorPlan401's). Many others are bare boards, whose masks cover the
board and nothing above it. Lite's masks of those were 3 to 18 times THOR's pixels on the samples
held out by folds (FloorPlan316's, 319's low board, 429's three), and on FloorPlan316 the back stood
where THOR's mask of the desk beside it is.

The rays of a board's own masks (:class:`~alfred_gen.scenes.alfred.sight_facts.SightFact`, other
folds' demos only, as every fit of the evidence) tell the two apart: a ray to a pixel of a
compartment's back passes over the board and meets the drawn back first; a ray to a bare board meets
the board. A board whose masks' rays meet its drawing :data:`MIN_BOARD_RAYS` times or more and its
back never is drawn without the back (:attr:`~alfred_gen.scenes.alfred.fixture_block.Block.drawn_back`);
a board no mask shows keeps it. Drawing only: the box, which holds what rests on the board, stays.

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.shelf_backs import back_parts
from alfred_gen.scenes.alfred.sight_cuts import ray_entry
from alfred_gen.scenes.alfred.sight_facts import SightFact, fixture_rays
from alfred_gen.sim.scene import Box

#: Rays of a board's own masks that must meet its drawing, and its back never, before the back is
#: taken away (two masks' worth: :data:`~alfred_gen.scenes.alfred.sight_facts.RAYS_PER_MASK` each).
MIN_BOARD_RAYS = 10


def board_and_back_hits(board: Block, back: Sequence[Box], sights: Sequence[SightFact]) -> tuple[int, int]:
    """(rays of the board's own masks meeting its drawing first, rays meeting its drawn back first)."""
    drawn = board.drawn_box()
    lo, hi = np.asarray(drawn.lo, dtype=float), np.asarray(drawn.hi, dtype=float)
    parts = [(np.asarray(p.lo, dtype=float), np.asarray(p.hi, dtype=float)) for p in back]
    on_board = on_back = 0
    for eye, r in fixture_rays(board.object_id, sights):
        t_board = ray_entry(eye, r, lo, hi)
        t_back = min((t for p_lo, p_hi in parts if (t := ray_entry(eye, r, p_lo, p_hi)) is not None), default=None)
        if t_back is not None and (t_board is None or t_back < t_board):
            on_back += 1
        elif t_board is not None:
            on_board += 1
    return on_board, on_back


def backs_its_masks_miss(blocks: Sequence[Block], sights: Sequence[SightFact]) -> list[str]:
    """Draw without its back each shelf board whose own masks' rays meet its drawing
    :data:`MIN_BOARD_RAYS` times or more and its back never (see the module docstring); returns
    their ids."""
    bare = []
    for board in blocks:
        back = back_parts(board, blocks)
        if not back:
            continue
        on_board, on_back = board_and_back_hits(board, back, sights)
        if on_back == 0 and on_board >= MIN_BOARD_RAYS:
            board.drawn_back = False  # no other board's back depends on it: backs read drawn heights only
            bare.append(board.object_id)
    return bare
