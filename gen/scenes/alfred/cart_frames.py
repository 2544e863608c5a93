"""An imported cart is drawn with the end frames of THOR's rack, up to the rack's height.

THOR's ``Cart`` is an open metal rack :data:`RACK_HEIGHT` tall (THOR's asset database) with shelves
near its foot and near its top, and its mask takes in the two X-braced end frames from the floor
to the top: FloorPlan430's cart, put on from 0.7 m away, is 20,972 pixels in THOR and 9,324 in
lite, whose box stops at the lowest level things rest on
(:data:`~alfred_gen.scenes.alfred.start_fit._LOWEST_LEVEL`, so that what lies on it stays in view);
ALFRED's rule picked the basin behind it (IoU 0.174 against the cart's 0.159; 1 miss of the
held-out mask figure at session 76's start).

So each end of an imported cart (across its front) gets a drawing part
(:attr:`~alfred_gen.sim.scene.SceneObject.parts`, not its box: nothing rests on it),
:data:`THICKNESS` thin, its whole depth, from the box's bottom to :data:`RACK_HEIGHT` above the id.

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import Box

#: THOR's cart's height over its id (metres).
RACK_HEIGHT = 1.28
#: How thin a drawn end frame is (metres).
THICKNESS = 0.03


def frame_parts(block: Block) -> tuple[Box, ...]:
    """The drawn end frames of a cart (see the module docstring); () for other types."""
    if block.kind != "Cart":
        return ()
    top = block.position[1] + RACK_HEIGHT
    if top <= block.hi[1]:
        return ()
    across = block.across_axis
    parts = []
    for end in (block.lo[across], block.hi[across] - THICKNESS):
        lo, hi = list(block.lo), list(block.hi)
        lo[across], hi[across] = end, end + THICKNESS
        hi[1] = top
        parts.append(Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2])))
    return tuple(parts)
