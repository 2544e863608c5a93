"""How much bigger an open drawer of an imported room is drawn than the box of the closed one, by
room type, as THOR's masks of open drawers show.

Lite draws an open drawer as its box, a tray with walls, slid out by 0.6 of its depth
(:func:`alfred_gen.sim.shapes.shape_parts`). Against THOR 2.1's masks of the drawers things are
put into or that are closed (in-sample rooms built from every train demo; masks of the demos
outside the 238 of ``ALFRED_DATA``, which the held-out mask figure is read on), lite's open
drawers are too small and, in bedrooms, drawn low (0.82 of THOR's pixels, 12 px below it):
THOR's dresser drawers are wider than the box the importer fits between their neighbours, and
THOR's drawer fronts stand taller than lite's trays. Fit over the even FloorPlans
(``/work/logs/drawer-tools/fit.py even 100``), pooled IoU of open drawers: bedrooms 0.444 ->
0.514 with the tray 1.4 times as wide and 0.3 of its height taller (71 masks); kitchens 0.479 ->
0.486 (135) and bathrooms 0.520 -> 0.538 (40) with the top 0.2 taller, no wider. Checked on the
odd FloorPlans, which the fit did not see (100 demos): bedrooms 0.413 -> 0.507 (87 masks),
kitchens 0.476 -> 0.489 (66), bathrooms 0.564 -> 0.574 (140). Wider bathroom drawers, best on the
even FloorPlans (0.569), were worse on the odd ones (0.533), so bathrooms only get the taller
top. Living rooms gained nothing that held (21 and 8 masks) and are left as they are. Sliding
further or less did not help: 0.6 of the depth was best in kitchens and bedrooms (0.4 and 0.8 of
the depth, and 0.2-0.4 m, all lower).

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
    "bedroom": (0.2, 0.3),
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
