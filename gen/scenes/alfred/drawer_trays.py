"""How much taller an open drawer of an imported room is drawn than the box of the closed one, by
room type, as THOR's masks of open drawers show.

Lite draws an open drawer as its box, a tray with walls, slid out by 0.6 of its depth
(:func:`alfred_gen.sim.shapes.shape_parts`). It was measured against THOR 2.1's masks of the
drawers things are put into or that are closed, in the demos outside the 238 of ``ALFRED_DATA``
(which the held-out mask figure is read on), fit over the even FloorPlans and checked on the odd
ones, which the fit did not see (``bench/drawer_fit.py``), in two kinds of room:

- rooms built from every train demo (in-sample: the demo's own evidence shaped the boxes), 100
  demos each half: the tray drawn 0.2 of its height taller lifts the pooled IoU of open drawers
  in kitchens 0.479 -> 0.486 (135 masks, even) and 0.476 -> 0.489 (66, odd), in bathrooms
  0.520 -> 0.538 (40) and 0.564 -> 0.574 (140);
- rooms built without the demo's fold, as the held-out figure builds them (100 even, 60 odd
  demos): kitchens 0.468 -> 0.461 (131) and 0.515 -> 0.517 (50), bathrooms 0.470 -> 0.478 (56)
  and 0.527 -> 0.518 (66): no better, no worse.

So kitchens and bathrooms get the taller tray (THOR's drawer fronts stand above their trays'
walls). Bedrooms do not: wider and taller trays (1.4 times as wide, 0.3 taller) fit the
in-sample bedrooms (0.444 -> 0.514 even, 0.413 -> 0.507 odd) but lost in the held-out ones
(0.543 -> 0.447 odd), whose drawer boxes are already as big as THOR's masks (1.00 of their
pixels); 0.2 taller alone lost there too (0.452 -> 0.443 even, 0.543 -> 0.532 odd). Living rooms
have few masks (15 and 4) and are left as they are. Sliding further or less did not help in
kitchens and bedrooms (0.5 and 0.7 of the depth in the held-out rooms, 0.4 and 0.8 and 0.2-0.4 m
in-sample, all lower).

The drawer's box, its contents and where they are drawn when it is open do not change (the tray
keeps its depth, so it slides out as far). Only imported rooms are built here, so procedural
rooms are untouched.
"""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import room_type_of

#: Room type -> (how much wider, as a fraction of the width, each side; how much taller, as a
#: fraction of the height, above) an open drawer's tray is drawn (fit and check: the module docstring).
OPEN_TRAYS: dict[str, tuple[float, float]] = {
    "kitchen": (0.0, 0.2),
    "bathroom": (0.0, 0.2),
}


def open_tray(block: Block, floor_plan: str) -> tuple[float, ...]:
    """(metres each side, metres above) the block's open tray is drawn bigger than its box
    (:attr:`alfred_gen.sim.scene.SceneObject.open_tray`); empty for other types and rooms."""
    if block.kind != "Drawer":
        return ()
    try:
        room_type = room_type_of(int(floor_plan.removeprefix("FloorPlan")))
    except ValueError:
        return ()
    fractions = OPEN_TRAYS.get(room_type)
    if fractions is None:
        return ()
    axis, _sign = block.front_axis
    across = 2 - axis
    width = block.hi[across] - block.lo[across]
    height = block.hi[1] - block.lo[1]
    return (round(fractions[0] * width, 4), round(fractions[1] * height, 4))
