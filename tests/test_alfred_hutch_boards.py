"""A shelf board THOR draws as part of the desk it stands in is drawn as the desk's (hutch_boards)."""

from __future__ import annotations

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.hutch_boards import MIN_RAYS, boards_drawn_by_their_host
from alfred_gen.scenes.alfred.sight_facts import SightFact
from tests.helpers.sight_rays import ray_to

DESK = "Desk|+00.00|00.00|+02.00"
BOARD = "Shelf|+00.00|+01.10|+02.20"
EYE = (0.0, 1.5, 0.0)


def _room() -> tuple[Block, Block]:
    """A desk (x -0.6..0.6, top 0.75, z 1.6..2.4) and a hutch board over its back half at y 1.1."""
    desk = Block(DESK, "Desk", (0.0, 0.0, 2.0), [-0.6, 0.0, 1.6], [0.6, 0.75, 2.4], True, 180)
    board = Block(BOARD, "Shelf", (0.0, 1.1, 2.2), [-0.5, 1.08, 2.0], [0.5, 1.12, 2.4], False, 180)
    return desk, board


def _desk_mask(count: int) -> SightFact:
    """A mask of the desk with ``count`` rays that meet the board first and one that meets the desk's top."""
    rays = tuple(ray_to(EYE, (-0.3 + 0.1 * i, 1.12, 2.1)) for i in range(count)) + (ray_to(EYE, (0.0, 0.75, 1.8)),)
    return SightFact(DESK, EYE, rays, None)


def test_a_board_the_desk_s_masks_cover_and_none_of_its_own_shows_is_drawn_as_the_desk_s() -> None:
    desk, board = _room()
    drawn = boards_drawn_by_their_host([desk, board], [_desk_mask(MIN_RAYS)])
    assert drawn == {BOARD: DESK}
    assert board.box() in desk.drawn_parts  # the desk draws the board
    assert len(desk.drawn_parts) == 2  # and its back, up to TOP_BACK over it
    hole = board.holes[-1]
    assert all(hole.lo[a] < board.lo[a] and hole.hi[a] > board.hi[a] for a in range(3))  # the board's drawing is cut
    assert board.lo == [-0.5, 1.08, 2.0] and board.hi == [0.5, 1.12, 2.4]  # its box, which holds things, stays


def test_a_board_with_a_mask_of_its_own_or_too_few_rays_keeps_its_drawing() -> None:
    desk, board = _room()
    own = SightFact(BOARD, EYE, (ray_to(EYE, (0.0, 1.12, 2.2)),), None)
    assert boards_drawn_by_their_host([desk, board], [_desk_mask(MIN_RAYS), own]) == {}
    assert boards_drawn_by_their_host([desk, board], [_desk_mask(MIN_RAYS - 1)]) == {}
    assert not desk.drawn_parts and not board.holes


def test_boards_seen_through_one_another_are_not_each_other_s() -> None:
    _, board = _room()
    lower = Block("Shelf|+00.00|+00.80|+02.20", "Shelf", (0.0, 0.8, 2.2), [-0.5, 0.78, 2.0], [0.5, 0.82, 2.4],
                  False, 180)
    rays = tuple(ray_to(EYE, (-0.3 + 0.1 * i, 1.12, 2.1)) for i in range(4))
    assert boards_drawn_by_their_host([lower, board], [SightFact(lower.object_id, EYE, rays, None)]) == {}
