"""A raised bed in a room known from its layout files (gen/scenes/alfred/fixture_sizing.py)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.fixture_sizing import initial_block
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats

POINTS = [(x * 0.25, z * 0.25) for x in range(-8, 9) for z in range(-12, -3)]
POSE = [[0.0, -1.0, 0, 30]]


def test_a_raised_bed_is_its_platform_with_the_space_under_it_open() -> None:
    stats = SurfaceStats({"Bed|raised": 0.21, "Bed|floor": 0.6}, {"Bed|raised": 12, "Bed|floor": 12})
    raised = initial_block("Bed|+00.00|+01.65|+00.00", 0.0, "FloorPlan318", None, stats, POSE, POINTS)
    assert raised.lo[1] == pytest.approx(1.65) and raised.hi[1] == pytest.approx(1.65 + 0.21)
    on_floor = initial_block("Bed|+00.00|+00.00|+00.00", 0.0, "FloorPlan318", None, stats, POSE, POINTS)
    assert on_floor.lo[1] == pytest.approx(0.0) and on_floor.hi[1] > 0.5  # a bed on the floor: as before
    unknown = initial_block("Bed|+00.00|+01.65|+00.00", 0.0, "FloorPlan318", None, None, POSE, POINTS)
    assert unknown.hi[1] - unknown.lo[1] > 0.21 + 0.1  # without statistics: the catalogue's height, as before
