"""An imported shelf board's drawn back (gen/scenes/alfred/shelf_backs.py), left off a board its masks show
bare (bare_boards.py)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.bare_boards import MIN_BOARD_RAYS, backs_its_masks_miss
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.shelf_backs import THICKNESS, TOP_BACK, back_parts
from alfred_gen.scenes.alfred.sight_facts import SightFact
from tests.helpers.sight_rays import ray_to


def _board(y: float, x: float = 0.0) -> Block:
    """A board 1 m wide facing +z (its back at z 0), its top at ``y``, its id at (x, y, 0.2)."""
    return Block(f"Shelf|{x:+06.2f}|{y:+06.2f}|+00.20", "Shelf", (x, y, 0.2), [x - 0.5, y - 0.02, 0.0],
                 [x + 0.5, y, 0.4], False, 0)


def test_a_back_reaches_from_the_board_to_the_board_above_at_the_back() -> None:
    low, high = _board(0.5), _board(0.9)
    (back,) = back_parts(low, [low, high])
    assert back.lo[1] == pytest.approx(0.5) and back.hi[1] == pytest.approx(high.lo[1])
    assert back.lo[2] == pytest.approx(0.0) and back.hi[2] == pytest.approx(THICKNESS)
    assert (back.lo[0], back.hi[0]) == pytest.approx((-0.5, 0.5))


def test_a_top_board_gets_a_fixed_back_unless_a_fixture_stands_over_or_around_it() -> None:
    top = _board(0.9)
    (back,) = back_parts(top, [top])
    assert back.hi[1] == pytest.approx(0.9 + TOP_BACK)
    over = Block("Cabinet|+00.00|+01.10|+00.20", "Cabinet", (0.0, 1.1, 0.2), [-0.3, 1.1, 0.0], [0.3, 1.5, 0.4],
                 False, 0)
    (capped,) = back_parts(top, [top, over])
    assert capped.hi[1] == pytest.approx(1.1)
    table = Block("DiningTable|+00.00|+00.00|+00.20", "DiningTable", (0.0, 0.0, 0.2), [-0.6, 0.0, -0.1],
                  [0.6, 1.0, 0.5], True, 0)
    assert back_parts(top, [top, table]) == ()


def test_a_board_of_another_unit_or_type_is_not_a_ceiling() -> None:
    low, elsewhere = _board(0.5), _board(0.7, x=3.0)
    (back,) = back_parts(low, [low, elsewhere])
    assert back.hi[1] == pytest.approx(0.5 + TOP_BACK)
    cabinet = Block("Cabinet|+00.00|+00.40|+00.20", "Cabinet", (0.0, 0.4, 0.2), [-0.5, 0.0, 0.0], [0.5, 0.8, 0.4],
                    True, 0)
    assert back_parts(cabinet, [cabinet]) == ()


EYE = (0.0, 1.6, 1.5)  # in front of the board (it faces +z), above it


def _mask(board: Block, points: list[tuple[float, float, float]]) -> SightFact:
    """A mask of ``board`` whose rays go to these points."""
    return SightFact(board.object_id, EYE, tuple(ray_to(EYE, p) for p in points), None, action="PutObject")


def _on_board(count: int) -> list[tuple[float, float, float]]:
    """Points on the board's top, across it."""
    return [(-0.4 + 0.8 * i / max(count - 1, 1), 0.5, 0.25) for i in range(count)]


def test_a_board_whose_masks_meet_it_and_never_its_back_is_drawn_bare() -> None:
    low, high = _board(0.5), _board(0.9)
    assert backs_its_masks_miss([low, high], [_mask(low, _on_board(MIN_BOARD_RAYS))]) == [low.object_id]
    assert back_parts(low, [low, high]) == () and not low.drawn_back
    assert low.lo == [-0.5, 0.48, 0.0] and low.hi == [0.5, 0.5, 0.4]  # its box, which holds things, stays
    assert back_parts(high, [low, high])  # a board no mask shows keeps its back


def test_a_board_whose_masks_reach_its_back_or_too_few_keeps_it() -> None:
    low, high = _board(0.5), _board(0.9)
    on_back = _on_board(MIN_BOARD_RAYS) + [(0.0, 0.7, 0.005)]  # one ray passes over the board to the back
    assert backs_its_masks_miss([low, high], [_mask(low, on_back)]) == []
    assert backs_its_masks_miss([low, high], [_mask(low, _on_board(MIN_BOARD_RAYS - 1))]) == []
    assert low.drawn_back and back_parts(low, [low, high])
