"""A sink basin's mask is the inside of its bowl in rooms imported from ALFRED (gen/sim/basin_skirts.py)."""

from __future__ import annotations

import numpy as np
import pytest

from alfred_gen.sim.basin_skirts import DECK, SKIRT, deck_boxes, skirt_boxes
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, SceneObject
from tests.helpers.small_rooms import first_mask, walled_room

BASIN = Box((-0.3, 0.6, 0.8), (0.3, 0.9, 1.2))


def test_the_skirt_hugs_each_wall_from_outside_as_tall_as_the_basin() -> None:
    boxes = skirt_boxes(BASIN)
    assert len(boxes) == 4
    for box in boxes:
        assert box.lo[1] == BASIN.lo[1] and box.hi[1] == BASIN.hi[1]
        inside = all(BASIN.lo[a] < (box.lo[a] + box.hi[a]) / 2 < BASIN.hi[a] for a in (0, 2))
        assert not inside  # outside the walls, never in the bowl
        assert min(box.hi[a] - box.lo[a] for a in (0, 2)) == pytest.approx(SKIRT)


def test_the_deck_covers_the_footprint_outside_the_opening_just_under_the_rim() -> None:
    opening = (-0.2, 0.1, 0.9, 1.1, 0.88)
    boxes = deck_boxes(BASIN, opening)
    assert boxes and all(b.hi[1] == 0.88 and b.lo[1] == pytest.approx(0.88 - DECK) for b in boxes)
    area = sum((b.hi[0] - b.lo[0]) * (b.hi[2] - b.lo[2]) for b in boxes)
    whole = (0.6 + 2 * SKIRT) * (0.4 + 2 * SKIRT)
    assert area == pytest.approx(whole - 0.3 * 0.2)
    for b in boxes:  # none reaches into the opening
        assert not (b.lo[0] < 0.1 - 1e-9 and b.hi[0] > -0.2 + 1e-9 and b.lo[2] < 1.1 - 1e-9 and b.hi[2] > 0.9 + 1e-9)
    assert deck_boxes(BASIN, ()) == []
    assert len(deck_boxes(BASIN, (-0.4, 0.4, 0.7, 1.3, 0.88))) == 0  # an opening over the whole box: no deck


def _basin_mask(imported: bool, opening: tuple[float, ...] = (), kind: str = "SinkBasin") -> np.ndarray:
    """The basin's instance mask, seen from its front and above."""
    from alfred_gen.sim import pixels

    pixels.forget_shapes()
    basin = SceneObject(kind, (0.0, 0.85, 1.0), BASIN, opening=opening)
    room = walled_room([basin], Pose(0.0, 0.25, 0, 30), name="FloorPlan3" if imported else "LitePlan3",
                       camera=ALFRED_CAMERA if imported else None)
    return first_mask(room, kind)


def test_an_imported_basin_shows_its_bowl_and_not_the_outside_of_its_front_wall(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    skirted = _basin_mask(True)
    monkeypatch.setattr(pixels, "SKIRTED", frozenset())
    bare = _basin_mask(True)
    # Seen from the front and above, the outside of the front wall lies under the bowl's inside in
    # the frame: without the skirt it is drawn as the basin; with it, only the bowl is.
    assert 0 < skirted.sum() < bare.sum()
    assert skirted.any(axis=1).nonzero()[0].max() < bare.any(axis=1).nonzero()[0].max()
    assert not (skirted & ~bare).any()


def test_a_procedural_room_draws_its_basin_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    with_skirts = _basin_mask(False)
    monkeypatch.setattr(pixels, "SKIRTED", frozenset())
    assert (with_skirts == _basin_mask(False)).all()


def test_an_imported_basin_with_an_opening_is_drawn_only_where_its_opening_shows_it() -> None:
    whole = _basin_mask(True)
    opened = _basin_mask(True, (-0.15, 0.15, 0.9, 1.1, 0.9))
    assert 0 < opened.sum() < 0.7 * whole.sum()
    assert not (opened & ~whole).any()
    cols = opened.any(axis=0).nonzero()[0]
    whole_cols = whole.any(axis=0).nonzero()[0]
    assert cols.min() > whole_cols.min() and cols.max() < whole_cols.max()
    again = SceneObject.from_dict(SceneObject("SinkBasin", (0.0, 0.85, 1.0), BASIN,
                                              opening=(-0.15, 0.15, 0.9, 1.1, 0.9)).to_dict())
    assert again.opening == (-0.15, 0.15, 0.9, 1.1, 0.9)
    assert "opening" not in SceneObject("SinkBasin", (0.0, 0.85, 1.0), BASIN).to_dict()


def test_rounded_corners_fill_each_corner_outside_its_quarter_ellipse() -> None:
    from alfred_gen.sim.basin_skirts import CORNER_STEPS, corner_boxes

    rect = (-0.2, 0.2, 0.9, 1.1)
    assert corner_boxes(rect, 0.0, 0.87, 0.88) == []
    boxes = corner_boxes(rect, 1.0, 0.87, 0.88)
    assert len(boxes) == 4 * CORNER_STEPS
    area = sum((b.hi[0] - b.lo[0]) * (b.hi[2] - b.lo[2]) for b in boxes)
    # An ellipse inscribed in the rectangle leaves 1 - pi/4 of it to the corners (steps approximate it).
    assert area == pytest.approx((1 - np.pi / 4) * 0.4 * 0.2, rel=0.15)
    for b in boxes:  # each box lies in the rectangle, in a corner, outside the ellipse at its own inner corner
        assert rect[0] - 1e-9 <= b.lo[0] < b.hi[0] <= rect[1] + 1e-9
        assert rect[2] - 1e-9 <= b.lo[2] < b.hi[2] <= rect[3] + 1e-9
        x = b.hi[0] if b.lo[0] == rect[0] else b.lo[0]
        z = b.hi[2] if b.lo[2] < 1.0 else b.lo[2]
        assert ((x / 0.2) ** 2 + ((z - 1.0) / 0.1) ** 2) ** 0.5 > 0.85  # the strips meet the arc at their middles
    half = corner_boxes(rect, 0.5, 0.87, 0.88)  # radii half the half-extents: a quarter of the area
    assert max(b.hi[0] - b.lo[0] for b in half) <= 0.5 * 0.2 + 1e-9
    assert sum((b.hi[0] - b.lo[0]) * (b.hi[2] - b.lo[2]) for b in half) == pytest.approx(area / 4, rel=0.01)


def test_a_deck_with_a_roundness_also_fills_the_opening_s_corners() -> None:
    square = deck_boxes(BASIN, (-0.2, 0.1, 0.9, 1.1, 0.88))
    rounded = deck_boxes(BASIN, (-0.2, 0.1, 0.9, 1.1, 0.88, 0.6))
    assert len(rounded) > len(square) and rounded[:len(square)] == square
    assert all(b.hi[1] == 0.88 for b in rounded)


def test_an_imported_basin_with_rounded_corners_shows_less_of_its_bowl() -> None:
    square = _basin_mask(True, (-0.15, 0.15, 0.9, 1.1, 0.9))
    rounded = _basin_mask(True, (-0.15, 0.15, 0.9, 1.1, 0.9, 1.0))
    assert 0 < rounded.sum() < square.sum() and not (rounded & ~square).any()


def test_an_imported_bathtub_basin_is_skirted_and_decked_as_a_sink_basin_is(monkeypatch: pytest.MonkeyPatch) -> None:
    # THOR's mask of a BathtubBasin is the tub's inside: its rim and outer walls are the Bathtub's
    from alfred_gen.sim import pixels

    skirted = _basin_mask(True, kind="BathtubBasin")
    opened = _basin_mask(True, (-0.15, 0.15, 0.9, 1.1, 0.9), kind="BathtubBasin")
    monkeypatch.setattr(pixels, "SKIRTED", frozenset())
    bare = _basin_mask(True, kind="BathtubBasin")
    assert 0 < opened.sum() < skirted.sum() < bare.sum()


def test_a_tub_is_drawn_no_higher_than_its_rim(monkeypatch: pytest.MonkeyPatch) -> None:
    # a tub's rim is fitted where its masks' opening lies, under the top of the box it was given:
    # its walls above the deck are the Bathtub's in THOR, not the basin's
    from alfred_gen.sim import pixels

    low = (-0.15, 0.15, 0.9, 1.1, 0.75)  # under BASIN's top, 0.9
    cut = _basin_mask(True, low, kind="BathtubBasin")
    monkeypatch.setattr(pixels, "CUT_AT_RIM", frozenset())
    uncut = _basin_mask(True, low, kind="BathtubBasin")
    assert 0 < cut.sum() < uncut.sum()
