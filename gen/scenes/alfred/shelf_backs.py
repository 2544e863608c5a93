"""An imported shelf board is drawn with the back of its compartment, up to the board above.

THOR's ``Shelf`` is one compartment of a shelving unit, not a bare board: its mask in a put is the
back panel above the board, up to the board over it (or out of the frame), around what stands on
it (FloorPlan330's ``Shelf|-01.70|+01.63|-02.06``: 28,809 pixels, lite's bare board 5,364 and no
overlap; FloorPlan401's ``Shelf|-02.59|+01.53|+03.91``). Lite drew the board alone, so the wall
behind what stands on it belonged to nothing and ALFRED's rule picked the alarm clock or candle
standing in front of THOR's panel (2 misses of the held-out mask figure at session 76's start).

So each board gets a drawing part (:attr:`~alfred_gen.sim.scene.SceneObject.parts`, not its box:
nothing rests on it and nothing is held by it), :data:`THICKNESS` thin at the back of its box,
across its width, from its top up to the bottom of the next board of its unit (boards whose ids
share x and z to the centimetre, as :func:`~alfred_gen.scenes.alfred.fixture_sizing.one_shelving_unit`
groups them), or :data:`TOP_BACK` above a top board, and no higher than the bottom of any other
fixture over the board; a board with a fixture's box around its top (a shelf under a table top,
inside a cupboard) gets none: FloorPlan326's low ``Shelf|+03.04|+00.53|-02.26`` stood its back up
through the table beside it and hid half of a bowl on that table.

A board whose own masks show it bare is drawn without its back
(:mod:`~alfred_gen.scenes.alfred.bare_boards`: :attr:`Block.drawn_back`).

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import Box

#: How thin the drawn back is (metres).
THICKNESS = 0.01
#: How far above a unit's top board its back reaches (metres).
TOP_BACK = 0.4
#: The least gap to a board above for a back to be drawn (metres).
MIN_GAP = 0.05


def unit_of(block: Block) -> tuple[float, float]:
    """The shelving unit a board belongs to: its id's x and z to the centimetre."""
    return (round(block.position[0], 2), round(block.position[2], 2))


def _drawn_heights(block: Block) -> tuple[float, float]:
    """Bottom and top of ``block``'s drawing (:attr:`Block.drawn_margins`): a unit drawn a compartment
    lower (:mod:`~alfred_gen.scenes.alfred.shelf_levels`) draws its boards, and so their backs, there."""
    drawn = block.drawn_box()
    return drawn.lo[1], drawn.hi[1]


def back_parts(block: Block, blocks: Sequence[Block]) -> tuple[Box, ...]:
    """The drawn back of a shelf board's compartment (see the module docstring); () for other types."""
    if block.kind != "Shelf" or not block.drawn_back:
        return ()
    _, board_top = _drawn_heights(block)
    above = [low for b in blocks if b.kind == "Shelf" and b is not block and unit_of(b) == unit_of(block)
             and (low := _drawn_heights(b)[0]) > board_top]
    top = min(above) if above else board_top + TOP_BACK
    for other in blocks:
        if other is block or other.kind == "Shelf" or not block.overlaps(other, (0, 2)) \
                or other.hi[1] <= board_top:
            continue
        if other.lo[1] < board_top:
            return ()  # under a table top or inside a cupboard: no open space above the board
        top = min(top, other.lo[1])
    if top - board_top < MIN_GAP:
        return ()
    axis, sign = block.front_axis
    lo, hi = list(block.lo), list(block.hi)
    lo[1], hi[1] = board_top, top
    if sign > 0:
        hi[axis] = block.lo[axis] + THICKNESS
    else:
        lo[axis] = block.hi[axis] - THICKNESS
    return (Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])),)
