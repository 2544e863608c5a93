"""A shelf board set in furniture is drawn in an opening as tall as its own masks show (board_openings)."""

from __future__ import annotations

from alfred_gen.scenes.alfred.board_openings import GAP, MIN_RAYS, TOP_SLAB, openings_over_boards
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim import pixels
from alfred_gen.sim.scene import ALFRED_CAMERA, Pose, SceneObject
from tests.helpers.sight_rays import ray_to
from tests.helpers.small_rooms import first_mask, walled_room

TABLE = "SideTable|+00.00|+00.00|+02.00"
BOARD = "Shelf|+00.00|+00.30|+02.00"
EYE = (0.0, 1.5, 0.8)  # in front of the table (its front faces -z), looking in


def _room() -> tuple[Block, Block]:
    """A side table 0.7 m tall (x -0.3..0.3, z 1.8..2.2, front at z 1.8) and a board in it at 0.30 m."""
    table = Block(TABLE, "SideTable", (0.0, 0.0, 2.0), [-0.3, 0.0, 1.8], [0.3, 0.7, 2.2], True, 180)
    board = Block(BOARD, "Shelf", (0.0, 0.3, 2.0), [-0.28, 0.28, 1.82], [0.28, 0.32, 2.18], False, 180)
    return table, board


def _board_mask(heights: list[float]) -> SightFact:
    """A mask of the board whose rays cross the table's front at these heights on their way in."""
    rays = tuple(ray_to(EYE, (-0.2 + 0.1 * (i % 5), y, 1.8)) for i, y in enumerate(heights))
    return SightFact(BOARD, EYE, rays, None, action="PutObject")


def test_a_board_seen_through_its_table_s_side_gets_an_opening_up_to_where_the_rays_entered() -> None:
    table, board = _room()
    opened = openings_over_boards([table, board], [_board_mask([0.40, 0.45, 0.50, 0.55, 0.60])])
    assert opened == {BOARD: 0.60}
    (hole,) = table.holes
    assert hole.lo[1] == board.hi[1] and hole.hi[1] == 0.60  # from the board up to the highest entry
    assert hole.lo[2] < table.lo[2] and hole.hi[2] == board.hi[2]  # out through the front, back to the board's back
    assert (hole.lo[0], hole.hi[0]) == (board.lo[0], board.hi[0])
    assert table.lo == [-0.3, 0.0, 1.8] and table.hi == [0.3, 0.7, 2.2]  # the box, which holds things, stays
    assert board.holes == []


def test_no_opening_from_too_few_rays_rays_at_the_board_s_own_height_or_through_the_top() -> None:
    table, board = _room()
    few = _board_mask([0.5] * (MIN_RAYS - 1))
    at_board = _board_mask([board.hi[1] + GAP / 2] * MIN_RAYS)
    through_top = SightFact(BOARD, EYE, tuple(ray_to(EYE, (0.0, 0.7, 1.9 + 0.05 * i)) for i in range(MIN_RAYS)), None)
    for fact in (few, at_board, through_top):
        assert openings_over_boards([table, board], [fact]) == {}
    # Under half the rays entering above the board: no opening either.
    assert openings_over_boards([table, board], [_board_mask([0.5, 0.5, 0.31, 0.31, 0.31])]) == {}
    assert table.holes == []


def test_the_opening_stops_under_the_top_slab_and_under_a_drawer_above() -> None:
    table, board = _room()
    assert openings_over_boards([table, board], [_board_mask([0.69] * MIN_RAYS)]) == {BOARD: table.hi[1] - TOP_SLAB}
    table, board = _room()
    drawer = Block("Drawer|+00.00|+00.55|+01.95", "Drawer", (0.0, 0.55, 1.95), [-0.28, 0.5, 1.8], [0.28, 0.6, 2.1],
                   False, 180)
    assert openings_over_boards([table, board, drawer], [_board_mask([0.65] * MIN_RAYS)]) == {BOARD: 0.5}


def _board_pixels(table: Block, board: Block) -> int:
    """Pixels of the board, seen from the eye at a distance, in an imported room (which carves it a slot)."""
    pixels.forget_shapes()
    objects = [
        SceneObject("SideTable", table.position, table.box(), object_id=TABLE, rotation=(0.0, 180.0, 0.0),
                    holes=tuple(table.holes)),
        SceneObject("Shelf", board.position, board.box(), object_id=BOARD, rotation=(0.0, 180.0, 0.0)),
    ]
    room = walled_room(objects, Pose(0.0, 0.75, 0, 30), name="FloorPlan313", scene_num=313, room_type="bedroom",
                       bounds=(-1.5, 1.5, -0.5, 2.5), blocking=[o.box for o in objects], camera=ALFRED_CAMERA)
    return int(first_mask(room, "Shelf").sum())


def test_the_opening_shows_the_board_where_the_table_hid_it() -> None:
    table, board = _room()
    slot = _board_pixels(table, board)
    openings_over_boards([table, board], [_board_mask([0.5, 0.55, 0.6, 0.62, 0.64])])
    assert _board_pixels(table, board) > 2 * max(slot, 1)


def test_only_the_board_s_own_fixture_masks_open_it() -> None:
    table, board = _room()
    heights = [0.40, 0.45, 0.50, 0.55, 0.60]
    own = _board_mask(heights)
    other = SightFact(TABLE, EYE, own.rays, None, action="PutObject")
    loose = SightFact(BOARD, EYE, own.rays, ("Shelf_00aa11bb", (0.0, 0.3, 2.0), 0.0), action="PickupObject")
    assert openings_over_boards([table, board], [other, loose]) == {}
    assert openings_over_boards([table, board], [other, loose, own]) == {BOARD: 0.60}
