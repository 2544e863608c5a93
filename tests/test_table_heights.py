"""Tables, desks and dressers stand on the floor in an imported room (gen/scenes/alfred/fixture_sizing.py)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.fixture_sizing import FLOOR_STANDING, initial_block
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats

POINTS = [(x * 0.25, z * 0.25) for x in range(-8, 9) for z in range(-12, -3)]
POSE = [[0.0, -1.0, 0, 30]]


def test_a_side_table_placed_by_its_top_reaches_down_to_the_floor_and_a_shelf_does_not() -> None:
    # FloorPlan28's side table: its id 0.73 m up, things on it 0.05 m below that; the catalogue type
    # is 0.5 m tall, THOR's asset 0.69 m: placed by its top and its type's height it floated.
    stats = SurfaceStats({"SideTable|raised": -0.05, "Shelf|raised": 0.0}, {"SideTable|raised": 12, "Shelf|raised": 12})
    table = initial_block("SideTable|+00.00|+00.73|+00.00", 0.0, "FloorPlan28", None, stats, POSE, POINTS)
    assert "SideTable" in FLOOR_STANDING
    assert table.hi[1] == pytest.approx(0.68) and table.lo[1] == pytest.approx(0.0)
    shelf = initial_block("Shelf|+00.00|+01.30|+00.00", 0.0, "FloorPlan28", None, stats, POSE, POINTS)
    assert shelf.hi[1] == pytest.approx(1.30) and shelf.lo[1] > 1.0  # a shelf board hangs on its wall
