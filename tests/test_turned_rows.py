"""Drawing boxes turned about a vertical axis as a staircase of axis-aligned columns."""

from __future__ import annotations

import math

import numpy as np
import pytest

from alfred_gen.sim.turned_rows import STEP, turned


def _slab(lo: tuple[float, float, float], hi: tuple[float, float, float]) -> tuple[np.ndarray, ...]:
    return np.array([lo], float), np.array([hi], float), np.array([[10, 20, 30]], np.uint8)


def test_an_unturned_box_is_drawn_as_it_is() -> None:
    lo, hi, colors = _slab((-0.05, 0.0, -0.01), (0.05, 0.1, 0.01))
    out = turned(lo, hi, colors, (0.0, 0.0), 0.0)
    assert out[0] is lo and out[1] is hi and out[2] is colors


@pytest.mark.parametrize("degrees", [30.0, -30.0, 45.0, -12.5])
def test_a_turned_box_keeps_its_area_height_and_colour_in_columns_along_its_long_side(degrees: float) -> None:
    lo, hi, colors = _slab((-0.05, 0.9, -0.01), (0.05, 1.0, 0.01))
    out_lo, out_hi, out_colors = turned(lo, hi, colors, (0.0, 0.0), degrees)
    assert len(out_lo) > 1
    widths = out_hi - out_lo
    assert (widths[:, 0] <= STEP + 1e-9).all()  # columns along x, the long side's nearest axis
    assert (widths[:, 0] * widths[:, 2]).sum() == pytest.approx(0.1 * 0.02, rel=0.05)
    assert (out_lo[:, 1] == 0.9).all() and (out_hi[:, 1] == 1.0).all()
    assert (out_colors == colors[0]).all()


def test_a_turned_box_turns_as_thor_turns_a_yaw_about_the_pivot() -> None:
    # 90 degrees of THOR yaw takes +z to +x and +x to -z: at 30 degrees the box's +x end lies at -z.
    lo, hi, colors = _slab((-0.05, 0.0, -0.01), (0.05, 0.1, 0.01))
    out_lo, out_hi, _ = turned(lo, hi, colors, (0.0, 0.0), 30.0)
    # The +x half's middle (area-weighted over its columns) lies on the turned long axis.
    plus = out_lo[:, 0] >= 0
    area = ((out_hi - out_lo)[:, 0] * (out_hi - out_lo)[:, 2])[plus]
    middle = (((out_lo + out_hi) / 2)[plus] * area[:, None]).sum(axis=0) / area.sum()
    assert middle[2] < 0 and middle[2] / middle[0] == pytest.approx(-math.tan(math.radians(30.0)), rel=0.1)
    # About another pivot the whole drawing moves with the turned middle.
    moved_lo, moved_hi, _ = turned(lo + [1.0, 0, 0], hi + [1.0, 0, 0], colors, (1.0, 0.0), 30.0)
    assert moved_lo == pytest.approx(out_lo + [1.0, 0, 0]) and moved_hi == pytest.approx(out_hi + [1.0, 0, 0])


def test_two_turned_slabs_side_by_side_do_not_overlap() -> None:
    # Slabs 0.02 thick, 0.03 apart along z, turned together about the middle between them: no column
    # of one reaches into a column of the other (an axis-aligned slab on the turned row would).
    lo = np.array([[-0.05, 0.0, -0.025], [-0.05, 0.0, 0.005]])
    hi = np.array([[0.05, 0.1, -0.005], [0.05, 0.1, 0.025]])
    colors = np.array([[1, 1, 1], [2, 2, 2]], np.uint8)
    out_lo, out_hi, out_colors = turned(lo, hi, colors, (0.0, 0.0), 40.0)
    first, second = out_colors[:, 0] == 1, out_colors[:, 0] == 2
    for a_lo, a_hi in zip(out_lo[first], out_hi[first]):
        for b_lo, b_hi in zip(out_lo[second], out_hi[second]):
            overlap = [min(a_hi[k], b_hi[k]) - max(a_lo[k], b_lo[k]) for k in (0, 2)]
            assert min(overlap) <= 1e-9
