"""Spatial relations from boxes (EQA's relate and distance operations), on hand-made boxes."""

from __future__ import annotations

import pytest

from alfred_gen.eqa.relations import (
    NEXT_TO_GAP,
    TOUCH_GAP,
    floor_distance,
    is_above,
    is_below,
    is_next_to,
    is_on,
    related,
)

TABLE = ((0.0, 0.0, 0.0), (1.0, 0.75, 1.0))


def box(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float):
    return ((x0, y0, z0), (x1, y1, z1))


def test_on_means_resting_on_the_top_over_the_footprint() -> None:
    cup = box(0.4, 0.75, 0.4, 0.5, 0.85, 0.5)
    assert is_on(cup, TABLE) and not is_on(TABLE, cup)
    lifted = box(0.4, 0.75 + TOUCH_GAP + 0.01, 0.4, 0.5, 0.95, 0.5)
    assert not is_on(lifted, TABLE)
    beside = box(1.05, 0.75, 0.4, 1.15, 0.85, 0.5)  # at the table's height, off its footprint
    assert not is_on(beside, TABLE)


def test_above_is_higher_than_resting_and_over_the_footprint() -> None:
    painting = box(0.2, 1.5, 0.9, 0.8, 2.0, 1.0)
    assert is_above(painting, TABLE) and not is_on(painting, TABLE)
    assert not is_above(box(0.4, 0.75, 0.4, 0.5, 0.85, 0.5), TABLE)  # resting is "on", not "above"
    assert not is_above(box(2.0, 1.5, 0.0, 2.5, 2.0, 0.1), TABLE)  # no overlap of footprints
    assert not is_above(box(0.2, 2.4, 0.9, 0.8, 2.6, 1.0), TABLE)  # too far up


def test_below_is_under_the_top_on_the_floor_or_under_something_above() -> None:
    basket = box(0.3, 0.0, 0.3, 0.6, 0.3, 0.6)
    assert is_below(basket, TABLE) and related("below", basket, TABLE)
    assert not is_below(TABLE, basket)
    assert is_below(TABLE, box(0.2, 1.5, 0.9, 0.8, 2.0, 1.0))  # the table is below the painting
    on_a_shelf = box(0.3, 0.4, 0.3, 0.6, 0.6, 0.6)  # inside the table's box, not on the floor
    assert not is_below(on_a_shelf, TABLE)


def test_next_to_is_side_by_side_on_one_level() -> None:
    chair = box(1.0 + NEXT_TO_GAP - 0.05, 0.0, 0.2, 1.6, 0.9, 0.8)
    assert is_next_to(chair, TABLE) and is_next_to(TABLE, chair)
    far_chair = box(1.0 + NEXT_TO_GAP + 0.05, 0.0, 0.2, 1.7, 0.9, 0.8)
    assert not is_next_to(far_chair, TABLE)
    on_the_table = box(0.4, 0.75, 0.4, 0.5, 0.85, 0.5)
    assert not is_next_to(on_the_table, TABLE)  # another level
    overlapping = box(0.9, 0.0, 0.2, 1.5, 0.9, 0.8)
    assert not is_next_to(overlapping, TABLE)


def test_a_relation_at_its_threshold_does_not_flip_on_float_noise() -> None:
    # LiteHouse29: a safe 0.3 m from a dresser, read raw from the metadata and rounded in the facts
    dresser = box(3.35, 0.0, -2.15, 4.54, 0.99, -1.67)
    raw_safe = box(2.6500000000000004, 0.0, -2.15, 3.0500000000000007, 0.4, -1.6999999999999997)
    rounded_safe = box(2.65, 0.0, -2.15, 3.05, 0.4, -1.7)
    assert 3.35 - 3.0500000000000007 < NEXT_TO_GAP < 3.35 - 3.05  # the two readings straddle the threshold
    assert is_next_to(raw_safe, dresser) and is_next_to(rounded_safe, dresser)
    assert not is_next_to(box(2.6, 0.0, -2.15, 3.0499, 0.4, -1.7), dresser)  # 0.1 mm further is not
    vase = box(0.4, 0.75 + TOUCH_GAP + 1e-12, 0.4, 0.5, 0.95, 0.5)
    assert is_on(vase, TABLE) and not is_above(vase, TABLE)


def test_distance_is_between_centres_on_the_floor() -> None:
    assert floor_distance(TABLE, box(3.0, 2.0, 4.0, 4.0, 3.0, 5.0)) == pytest.approx(5.0)
    with pytest.raises(ValueError):
        related("inside", TABLE, TABLE)
