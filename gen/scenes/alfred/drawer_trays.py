"""How much wider and taller an open drawer of an imported room is drawn than the box of the
closed one, by room type, as THOR's masks of open drawers show.

Lite draws an open drawer as its box, a tray with walls, slid out by 0.6 of its depth
(:func:`alfred_gen.sim.shapes.shape_parts`). Against THOR 2.1's masks of the drawers things are
put into or that are closed, lite's open drawers are too small (0.7-0.9 of THOR's pixels), most in
bedrooms: THOR's dresser drawers are wider than the box the importer fits between their
neighbours, and THOR's drawer fronts stand taller than lite's tray walls. Measured with
``bench/drawer_fit.py`` over the demos outside the 238 of ``ALFRED_DATA`` (which the held-out mask
figure is read on), fit over the even FloorPlans and checked on the odd ones, which the fit did not
see. Pooled IoU of open drawers, as lite drew them -> as drawn here, in rooms built without the
demo's fold as the held-out figure builds them (80 demos each half), then in rooms built from
every demo (in-sample, 100 demos each half):

- kitchens, the tray 0.2 of its height taller: 0.487 -> 0.498 (104 masks, even), 0.491 -> 0.502
  (66, odd); in-sample 0.479 -> 0.486 (135), 0.476 -> 0.489 (66);
- bathrooms, the same: 0.479 -> 0.497 (40), 0.556 -> 0.559 (98); in-sample 0.520 -> 0.538 (40),
  0.564 -> 0.574 (140). Also wider (0.2 of the width each side, 0.3 taller) was best on the even
  FloorPlans (0.540) and worse on the odd ones (0.542, in-sample 0.533 against 0.564);
- bedrooms, 0.2 of the width wider each side and 0.3 of the height taller: 0.393 -> 0.454 (54),
  0.455 -> 0.528 (59); in-sample 0.444 -> 0.514 (71), 0.413 -> 0.507 (87);
- living rooms, the same: 0.366 -> 0.439 (15), 0.414 -> 0.451 (8); in-sample level on the even
  FloorPlans (0.424 -> 0.422, 21 masks) and 0.450 -> 0.514 (8) on the odd ones. Few masks.

Sliding further or less did not help (0.4, 0.5, 0.7, 0.8 of the depth, and 0.2-0.4 m, all lower
in kitchens and bedrooms). The drawer's box, its contents and where they are drawn when it is open
do not change (the tray keeps its depth, so it slides out as far). Only imported rooms are built
here, so procedural rooms are untouched.
"""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim.scene import plan_room_type

#: Room type -> (how much wider, as a fraction of the width, each side; how much taller, as a
#: fraction of the height, above) an open drawer's tray is drawn (fit and check: the module docstring).
OPEN_TRAYS: dict[str, tuple[float, float]] = {
    "kitchen": (0.0, 0.2),
    "bathroom": (0.0, 0.2),
    "bedroom": (0.2, 0.3),
    "living_room": (0.2, 0.3),
}


def open_tray(block: Block, floor_plan: str) -> tuple[float, ...]:
    """(metres each side, metres above) the block's open tray is drawn bigger than its box
    (:attr:`alfred_gen.sim.scene.SceneObject.open_tray`); empty for other types and rooms."""
    if block.kind != "Drawer":
        return ()
    fractions = OPEN_TRAYS.get(plan_room_type(floor_plan) or "")
    if fractions is None:
        return ()
    axis, _sign = block.front_axis
    across = 2 - axis
    width = block.hi[across] - block.lo[across]
    height = block.hi[1] - block.lo[1]
    return (round(fractions[0] * width, 4), round(fractions[1] * height, 4))
