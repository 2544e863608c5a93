"""Where a fixture's box lies above its id, by room type, as THOR's own masks of it show.

A fixture that is not a THOR asset and not a surface is centred on its id
(:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`). For a kitchen faucet that is
right, but THOR 2.1's bathroom faucets hang their mesh above their origin: projected with ALFRED's
camera (:data:`~alfred_gen.sim.scene.ALFRED_CAMERA`) from the pose the demo acted from, the
middle of THOR's mask of a bathroom faucet being switched on or off lies 0.082 m above the id
(median of 253 masks in 25 bathrooms; quartiles 0.055 and 0.147; positive in 21 of the 25 rooms),
its top 0.197 m and its bottom 0.035 m above and below; over 614 kitchen faucet masks (26
kitchens) the middle is 0.002 m above the id. Measured over the train demos of clean tasks, leaving
out the 238 the mask figure of ``bench/alfred_fidelity.py --masks`` is read on. Centred on its id,
lite's bathroom faucet half sank into the counter slab and THOR's mask fell above it (IoU 0 in
FloorPlan408, 422 and 428, and the switch resolved to the counter top).

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import room_type_of

#: (type, room type) -> height of the box's middle above the id, metres (see the module docstring).
MIDDLE_ABOVE_ID: dict[tuple[str, str], float] = {("Faucet", "bathroom"): 0.08}


def raise_to_masks(block: Block, floor_plan: str) -> None:
    """Move a centred fixture's box up so its middle is :data:`MIDDLE_ABOVE_ID` above its id."""
    try:
        room_type = room_type_of(int(floor_plan.removeprefix("FloorPlan")))
    except ValueError:
        return
    rise = MIDDLE_ABOVE_ID.get((block.kind, room_type))
    if rise is None:
        return
    middle = block.position[1] + rise
    half = (block.hi[1] - block.lo[1]) / 2.0
    block.lo[1], block.hi[1] = middle - half, middle + half
