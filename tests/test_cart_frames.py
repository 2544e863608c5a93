"""An imported cart's drawn end frames (gen/scenes/alfred/cart_frames.py)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.cart_frames import RACK_HEIGHT, THICKNESS, frame_parts
from alfred_gen.scenes.alfred.fixture_block import Block


def test_a_cart_gets_two_end_frames_up_to_the_racks_height() -> None:
    # Facing +x (90): its front is along x, its ends across it at z 1.2 and 1.8.
    cart = Block("Cart|+00.00|+00.01|+01.50", "Cart", (0.0, 0.01, 1.5), [-0.25, 0.01, 1.2], [0.25, 0.21, 1.8], True, 90)
    low, high = frame_parts(cart)
    for part in (low, high):
        assert part.lo[1] == pytest.approx(0.01) and part.hi[1] == pytest.approx(0.01 + RACK_HEIGHT)
        assert (part.lo[0], part.hi[0]) == pytest.approx((-0.25, 0.25))
    assert (low.lo[2], low.hi[2]) == pytest.approx((1.2, 1.2 + THICKNESS))
    assert (high.lo[2], high.hi[2]) == pytest.approx((1.8 - THICKNESS, 1.8))


def test_other_types_and_tall_boxes_get_none() -> None:
    shelf = Block("Shelf|+00.00|+00.50|+00.00", "Shelf", (0.0, 0.5, 0.0), [-0.5, 0.48, -0.2], [0.5, 0.5, 0.2], False, 0)
    assert frame_parts(shelf) == ()
    tall = Block("Cart|+00.00|+00.00|+00.00", "Cart", (0.0, 0.0, 0.0), [-0.3, 0.0, -0.3], [0.3, 1.4, 0.3], True, 0)
    assert frame_parts(tall) == ()
