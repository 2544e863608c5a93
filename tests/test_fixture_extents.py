"""Fixtures of imported rooms drawn as wide (tables: as deep) as THOR's masks of them show, drawing only."""

from __future__ import annotations

import math
from dataclasses import replace

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import (
    MAX_MOVE,
    SLAB_MIN_KEEP,
    extents_to_their_masks,
    lateral_bound,
)
from alfred_gen.scenes.alfred.fridge_fronts import fronts_to_their_masks
from alfred_gen.scenes.alfred.sight_facts import SightFact, side_rays
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, SceneObject
from alfred_gen.sim.world_objects import WorldObject
from tests.helpers.sight_rays import ray_to

TABLE = "SideTable|+00.00|+00.75|+01.75"
EYE = (0.0, 1.5, 0.0)


def _table(kind: str = "SideTable", object_id: str = TABLE) -> Block:
    """x -0.5..0.5, top 0.75, z 1.5..2.0, in front of :data:`EYE` (looking along +z)."""
    return Block(object_id, kind, (0.0, 0.75, 1.75), [-0.5, 0.0, 1.5], [0.5, 0.75, 2.0], True, 180)


def _ray(point: tuple[float, float, float], eye: tuple[float, float, float] = EYE) -> tuple[float, float, float]:
    return ray_to(eye, point)


def _mask(left: float | None, right: float | None, far: float | None, target: str = TABLE,
          eye: tuple[float, float, float] = EYE) -> SightFact:
    """A mask of a table whose left and right edges lie at x ``left`` and ``right`` on its near
    face and whose top's far edge lies at z ``far`` (None: the mask reaches the frame's border there)."""
    sides = (_ray((left, 0.4, 1.5), eye) if left is not None else None,
             _ray((right, 0.4, 1.5), eye) if right is not None else None,
             _ray((0.0, 0.75, far), eye) if far is not None else None,
             None)
    return SightFact(target, eye, (_ray((0.0, 0.5, 1.75), eye),), None, (), sides)


def test_side_rays_leave_out_the_sides_a_mask_meets_the_frame_s_border_on() -> None:
    camera = Camera(0.0, 1.5, 0.0, 0.0, 30.0, ALFRED_CAMERA.field_of_view)
    runs = [[row * 300, 120] for row in range(200, 300)]  # columns 0-119, rows 200-299: left and bottom border
    sides = side_rays(runs, camera)
    assert len(sides) == 4
    assert sides[0] is None and sides[3] is None
    assert sides[1] is not None and sides[2] is not None


def test_the_drawing_grows_to_a_wider_table_its_masks_show_and_the_box_stays() -> None:
    table = _table()
    extents_to_their_masks([table], [_mask(-0.8, 0.5, 2.2), _mask(-0.8, 0.5, 2.2)])
    assert table.lo == [-0.5, 0.0, 1.5] and table.hi == [0.5, 0.75, 2.0]  # drawing only
    lo_x, _, _, hi_x, _, hi_z = table.drawn_margins
    assert math.isclose(lo_x, 0.3, abs_tol=0.01)  # 0.3 m further left
    assert abs(hi_x) < 0.01
    assert math.isclose(hi_z, 0.2, abs_tol=0.01)  # its top reaches 0.2 m further back


def test_one_mask_or_masks_cut_by_the_border_move_nothing() -> None:
    table = _table()
    extents_to_their_masks([table], [_mask(-0.8, 0.5, 2.2)])
    assert table.drawn_margins == ()
    extents_to_their_masks([table], [_mask(None, None, None), _mask(None, None, None)])
    assert table.drawn_margins == ()


def test_a_mask_cut_short_by_something_in_front_does_not_shrink_the_drawing() -> None:
    table = _table()
    # one mask shows the table's left end, the other stops short of it (an object in front)
    extents_to_their_masks([table], [_mask(-0.5, 0.5, None), _mask(-0.2, 0.5, None)])
    assert table.drawn_margins == ()
    # both agree it is narrower: it shrinks, by no more than both show
    extents_to_their_masks([table], [_mask(-0.3, 0.5, None), _mask(-0.2, 0.5, None)])
    assert math.isclose(table.drawn_margins[0], -0.2, abs_tol=0.01)


def test_moves_are_bounded_and_doors_are_left_alone() -> None:
    table = _table()
    extents_to_their_masks([table], [_mask(-2.0, 0.5, None), _mask(-2.0, 0.5, None)])
    assert math.isclose(table.drawn_margins[0], MAX_MOVE, abs_tol=1e-6)
    cabinet = _table("Cabinet", "Cabinet|+00.00|+00.75|+01.75")
    extents_to_their_masks([cabinet], [_mask(-0.8, 0.5, 2.2, cabinet.object_id)] * 2)
    assert cabinet.drawn_margins == ()


def test_a_counter_slab_shrinks_to_its_masks_far_edge_past_the_cap_but_grows_no_more_than_it() -> None:
    counter_id = "CounterTop|+00.00|+00.90|+02.00"
    # a counter box 1.5 m deep (z 1.5..3.0), top at 0.9; every mask's top leaves it at z 2.1
    counter = Block(counter_id, "CounterTop", (0.0, 0.9, 2.0), [-0.5, 0.86, 1.5], [0.5, 0.9, 3.0], True, 180)
    far = SightFact(counter_id, EYE, (_ray((0.0, 0.88, 2.0)),), None, (), (None, None, _ray((0.0, 0.9, 2.1)), None))
    extents_to_their_masks([counter], [far, far])
    assert math.isclose(counter.drawn_margins[5], -0.9, abs_tol=0.01)  # 0.9 m in: no MAX_MOVE inward
    # never thinner than SLAB_MIN_KEEP of its box
    extents_to_their_masks([counter], [replace(far, sides=(None, None, _ray((0.0, 0.9, 1.55)), None))] * 2)
    assert math.isclose(counter.drawn_margins[5], -(1 - SLAB_MIN_KEEP) * 1.5, abs_tol=0.01)
    # outward it moves no more than MAX_MOVE, as any fixture
    extents_to_their_masks([counter], [replace(far, sides=(None, None, _ray((0.0, 0.9, 4.0)), None))] * 2)
    assert math.isclose(counter.drawn_margins[5], MAX_MOVE, abs_tol=1e-6)
    # a table as deep, its masks the same, still moves at most MAX_MOVE inward
    table = Block(TABLE, "SideTable", (0.0, 0.9, 2.0), [-0.5, 0.0, 1.5], [0.5, 0.9, 3.0], True, 180)
    extents_to_their_masks([table], [replace(far, target=TABLE)] * 2)
    assert math.isclose(table.drawn_margins[5], -MAX_MOVE, abs_tol=1e-6)


def test_a_table_seen_facing_minus_x_is_fitted_along_z() -> None:
    # Eye at +x looking along -x: the table's z extent is its width on screen, screen-left is -z.
    eye = (3.0, 1.5, 0.0)
    block = Block(TABLE, "SideTable", (1.75, 0.75, 0.0), [1.5, 0.0, -0.5], [2.0, 0.75, 0.5], True, 90)
    screen_left = _ray((2.0, 0.4, -0.8), eye)  # looking along -x, screen-left is -z
    screen_right = _ray((2.0, 0.4, 0.5), eye)
    fact = SightFact(TABLE, eye, (_ray((1.75, 0.5, 0.0), eye),), None, (), (screen_left, screen_right, None, None))
    extents_to_their_masks([block], [fact, fact])
    assert math.isclose(block.drawn_margins[2], 0.3, abs_tol=0.01)
    assert abs(block.drawn_margins[5]) < 0.01


def test_a_ray_that_misses_the_box_s_slab_says_nothing() -> None:
    up = (0.0, 1.0, 0.0)
    assert lateral_bound(EYE, up, [-0.5, 0.0, 1.5], [0.5, 0.75, 2.0], 2, 0, 1.0, True) is None


def test_the_drawn_margins_survive_the_scene_file_and_draw_the_world_object() -> None:
    box = Box((-0.5, 0.0, 1.5), (0.5, 0.75, 2.0))
    obj = SceneObject("SideTable", (0.0, 0.75, 1.75), box, drawn_margins=(0.3, 0.0, 0.0, 0.0, 0.0, 0.2))
    again = SceneObject.from_dict(obj.to_dict())
    assert again.drawn_margins == obj.drawn_margins
    world = WorldObject(again.object_id, again.object_type, again.name, again.position, again.rotation, again.box,
                        drawn_margins=again.drawn_margins)
    assert world.box() == box
    drawn = world.drawn_box()
    assert math.isclose(drawn.lo[0], -0.8) and math.isclose(drawn.hi[2], 2.2)
    plain = SceneObject("SideTable", (0.0, 0.75, 1.75), box)
    assert "drawn_margins" not in plain.to_dict()


def test_a_counter_top_is_drawn_to_the_band_its_masks_show() -> None:
    counter = _table("CounterTop", "CounterTop|+00.00|+00.75|+01.75")
    counter.lo[1] = 0.71  # a slab
    eye = EYE
    near, far = _ray((0.0, 0.75, 1.6), eye), _ray((0.0, 0.75, 1.85), eye)
    fact = SightFact(counter.object_id, eye, (_ray((0.0, 0.75, 1.75), eye),), None, (), (None, None, far, near))
    extents_to_their_masks([counter], [fact, fact])
    _, _, lo_z, _, _, hi_z = counter.drawn_margins
    assert math.isclose(lo_z, -0.1, abs_tol=0.01) and math.isclose(hi_z, -0.15, abs_tol=0.01)


def test_a_sofa_s_near_side_is_where_its_lowest_ray_meets_the_floor() -> None:
    # a sofa's mask's bottommost ray leaves it where its front meets the floor, 0.1 m behind the
    # box's near face here
    sofa_id = "Sofa|+00.00|+00.00|+01.75"
    foot = _ray((0.0, 0.0, 1.6))
    fact = SightFact(sofa_id, EYE, (_ray((0.0, 0.4, 1.75)),), None, (), (None, None, None, foot))
    sofa = _table("Sofa", sofa_id)
    extents_to_their_masks([sofa], [fact, fact])
    assert math.isclose(sofa.drawn_margins[2], -0.1, abs_tol=0.01)
    # a mask cut short by something in front says less: inward only as far as every mask agrees
    hidden = replace(fact, sides=(None, None, None, _ray((0.0, 0.0, 1.8))))
    sofa = _table("Sofa", sofa_id)
    extents_to_their_masks([sofa], [fact, hidden])
    assert math.isclose(sofa.drawn_margins[2], -0.1, abs_tol=0.01)
    # a side table's near edge is its front legs', under a top that overhangs them: not fitted so
    table = _table()
    extents_to_their_masks([table], [replace(fact, target=TABLE)] * 2)
    assert table.drawn_margins == () or table.drawn_margins[2] == 0.0


def test_a_dining_table_s_near_edge_moves_in_to_where_its_lowest_ray_leaves_the_top_never_out() -> None:
    table_id = "DiningTable|+00.00|+00.75|+01.75"

    def lowest(point: tuple[float, float, float]) -> SightFact:
        return SightFact(table_id, EYE, (_ray((0.0, 0.7, 1.75)),), None, (), (None, None, None, _ray(point)))

    # THOR's top ends 0.2 m behind the box's near side (z 1.5): every mask's lowest pixel is that edge
    table = _table("DiningTable", table_id)
    extents_to_their_masks([table], [lowest((0.0, 0.75, 1.7))] * 2)
    assert math.isclose(table.drawn_margins[2], -0.2, abs_tol=0.01)
    assert table.lo == [-0.5, 0.0, 1.5]  # drawing only
    # one mask shows a leg's foot below the top (its ray meets the top's plane nearer the eye):
    # the edge may lie where the box says, so the side stays
    table = _table("DiningTable", table_id)
    extents_to_their_masks([table], [lowest((0.0, 0.75, 1.7)), lowest((0.0, 0.0, 1.55))])
    assert table.drawn_margins == () or abs(table.drawn_margins[2]) < 1e-6
    # legs in every mask never draw the top out toward the eye
    table = _table("DiningTable", table_id)
    extents_to_their_masks([table], [lowest((0.0, 0.0, 1.55))] * 2)
    assert table.drawn_margins == () or abs(table.drawn_margins[2]) < 1e-6


def _board(facing: int) -> Block:
    board_id = "Shelf|+00.00|+00.50|+01.75"
    return Block(board_id, "Shelf", (0.0, 0.5, 1.75), [-0.5, 0.46, 1.5], [0.5, 0.5, 2.0], False, facing)


def _board_mask(near_z: float, eye: tuple[float, float, float] = EYE) -> SightFact:
    """A mask of :func:`_board` whose lowest pixel is the underside of its edge at z ``near_z``."""
    return SightFact("Shelf|+00.00|+00.50|+01.75", eye, (_ray((0.0, 0.5, 1.75), eye),), None, (),
                     (None, None, None, _ray((0.0, 0.46, near_z), eye)))


def test_a_shelf_board_seen_from_its_side_reaches_where_its_lowest_ray_meets_its_underside() -> None:
    # FloorPlan7's middle board seen from beside the unit: its masks' lowest pixels put its near
    # edge 0.11 m nearer the eye than the box's side; 0.1 m here
    board = _board(90)  # its front faces +x, the eye looks along +z at its side
    extents_to_their_masks([board], [_board_mask(1.4)] * 2)
    assert math.isclose(board.drawn_margins[2], 0.1, abs_tol=0.01)
    # seen from in front, THOR's board mask reaches down past the edge: not fitted so
    board = _board(180)
    extents_to_their_masks([board], [_board_mask(1.4)] * 2)
    assert board.drawn_margins == () or board.drawn_margins[2] == 0.0
    # seen from below the board, the lowest ray says nothing about its near edge
    board = _board(90)
    low = (0.0, 0.3, 0.0)
    extents_to_their_masks([board], [_board_mask(1.4, low)] * 2)
    assert board.drawn_margins == () or board.drawn_margins[2] == 0.0


def test_a_drawer_is_fitted_across_its_front_only() -> None:
    # FloorPlan8's and FloorPlan13's drawers, seen from along their counter row: the axis across the
    # view was the drawer's depth, the masks of it open spanned the tray pulled out, and the shut
    # drawing stood 0.2 m out of the row (THOR's mask of it shut is a sliver in the row's front).
    masks = [_mask(-0.8, 0.5, None), _mask(-0.8, 0.5, None)]
    side_on = Block("Drawer|+00.00|+00.75|+01.75", "Drawer", (0.0, 0.75, 1.75), [-0.5, 0.0, 1.5], [0.5, 0.75, 2.0],
                    False, 90)
    extents_to_their_masks([side_on], [replace(m, target=side_on.object_id) for m in masks])
    assert all(abs(m) < 1e-3 for m in side_on.drawn_margins)
    facing = Block("Drawer|+00.00|+00.75|+01.75", "Drawer", (0.0, 0.75, 1.75), [-0.5, 0.0, 1.5], [0.5, 0.75, 2.0],
                   False, 180)
    extents_to_their_masks([facing], [replace(m, target=facing.object_id) for m in masks])
    assert facing.drawn_margins and abs(facing.drawn_margins[0]) > 0.01  # its width is still fitted


def test_a_fridge_s_front_is_drawn_where_its_shut_masks_meet_the_floor_and_its_box_stays() -> None:
    # Lite's fridge box is the catalogue's 0.723 m deep; THOR's front stands 0.1 m further back
    # (FloorPlan30's shallow fridge: lite's masks of it lay 17 px below THOR's). Only the bottom of a
    # shut fridge's mask is inside the frame; its ray meets the floor at THOR's front.
    fridge_id = "Fridge|+00.00|+00.00|+01.36"
    fridge = Block(fridge_id, "Fridge", (0.0, 0.0, 1.36), [-0.5, 0.0, 1.0], [0.5, 1.842, 1.723], True, 180)
    shut = SightFact(fridge_id, EYE, (_ray((0.0, 1.0, 1.1)),), None, (), (None, None, None, _ray((0.0, 0.0, 1.1))),
                     action="OpenObject")
    fronts_to_their_masks([fridge], [shut, shut])
    assert fridge.drawn_margins == ()  # two masks are too few
    fronts_to_their_masks([fridge], [replace(shut, action="CloseObject")] * 3)
    assert fridge.drawn_margins == ()  # an open fridge's mask shows its door, not its front
    fronts_to_their_masks([fridge], [shut] * 3)
    assert fridge.lo == [-0.5, 0.0, 1.0] and fridge.hi == [0.5, 1.842, 1.723]  # drawing only: landings stay
    assert math.isclose(fridge.drawn_margins[2], -0.1, abs_tol=0.005)
    assert all(abs(m) < 1e-6 for i, m in enumerate(fridge.drawn_margins) if i != 2)


def test_a_fridge_is_drawn_at_least_as_wide_as_its_shut_masks_reach() -> None:
    # THOR's fridge is 1.2 m wide (FloorPlan7's is 1.17 m), lite's box the catalogue's 1.0 m: the
    # rays through a shut mask that fills the frame reach 0.1 m past either side of the box.
    fridge_id = "Fridge|+00.00|+00.00|+01.36"
    fridge = Block(fridge_id, "Fridge", (0.0, 0.0, 1.36), [-0.5, 0.0, 1.0], [0.5, 1.842, 1.723], True, 180)
    door = tuple(_ray((x, y, 1.0)) for x in (-0.6, -0.3, 0.0, 0.3, 0.6) for y in (0.3, 1.0, 1.6))
    shut = SightFact(fridge_id, EYE, (_ray((0.0, 1.0, 1.0)),), None, (), (None, None, None, _ray((0.0, 0.0, 1.0))),
                     door, "OpenObject")
    fronts_to_their_masks([fridge], [shut] * 3)
    assert fridge.lo == [-0.5, 0.0, 1.0] and fridge.hi == [0.5, 1.842, 1.723]  # drawing only
    assert math.isclose(fridge.drawn_margins[0], 0.1, abs_tol=0.005)
    assert math.isclose(fridge.drawn_margins[3], 0.1, abs_tol=0.005)
    # a narrower reach does not shrink it: the frame, not the fridge, may have ended the mask
    narrow = replace(shut, door_rays=tuple(_ray((x, 1.0, 1.0)) for x in (-0.2, 0.2)))
    fridge.drawn_margins = ()
    fronts_to_their_masks([fridge], [narrow] * 3)
    assert all(abs(m) < 1e-6 for m in fridge.drawn_margins)


def test_a_fridge_is_drawn_no_wider_than_its_masks_uncut_sides_open_ones_away_from_the_door() -> None:
    # THOR's fridge is 0.9 m wide (FloorPlan25's ends 0.13 m inside lite's 1.0 m box at its high end):
    # a mask whose right edge the frame does not cut ends at x 0.4 on the front, so the drawing comes
    # in to it there; the left edge, cut by the frame, says nothing.
    fridge_id = "Fridge|+00.00|+00.00|+01.36"

    def fridge(hinge: int) -> Block:
        block = Block(fridge_id, "Fridge", (0.0, 0.0, 1.36), [-0.5, 0.0, 1.0], [0.5, 1.842, 1.723], True, 180)
        block.hinge = hinge
        return block

    sides = (None, _ray((0.4, 1.0, 1.0)), None, _ray((0.0, 0.0, 1.0)))
    shut = SightFact(fridge_id, EYE, (_ray((0.0, 1.0, 1.0)),), None, (), sides, (), "OpenObject")
    block = fridge(0)
    fronts_to_their_masks([block], [shut] * 3)
    assert block.lo == [-0.5, 0.0, 1.0] and block.hi == [0.5, 1.842, 1.723]  # drawing only
    assert math.isclose(block.drawn_margins[3], -0.1, abs_tol=0.005)
    assert abs(block.drawn_margins[0]) < 1e-6
    # masks of it open (CloseObject's) count at the end away from the door's hinge only
    # (with three shut masks whose sides the frame cuts: the front's foot is read from them)
    opened = [replace(shut, action="CloseObject")] * 3 + [replace(shut, sides=(None, None, None, sides[3]))] * 3
    away, at_door, unknown = fridge(-1), fridge(1), fridge(0)
    fronts_to_their_masks([away, at_door, unknown], opened)
    assert math.isclose(away.drawn_margins[3], -0.1, abs_tol=0.005)
    assert abs(at_door.drawn_margins[3]) < 1e-6 and abs(unknown.drawn_margins[3]) < 1e-6
    # a one-door fridge's hinge end stays as drawn even where its shut masks end inside it
    hinged = fridge(1)
    fronts_to_their_masks([hinged], [shut] * 3)
    assert abs(hinged.drawn_margins[3]) < 1e-6


CABINET = "Cabinet|-00.25|+00.40|+01.50"


def _cabinet() -> Block:
    """A base cabinet, x -0.25..0.25, its front at z 1.5 facing :data:`EYE` (looking along +z)."""
    return Block(CABINET, "Cabinet", (-0.25, 0.4, 1.5), [-0.25, 0.0, 1.5], [0.25, 0.75, 2.0], True, 180)


def _shut_mask_cut_on_the_right(reach: float) -> SightFact:
    """A mask of the cabinet shut whose left edge lies at x -0.25 and which runs off the frame's
    right border (no right side ray), its door rays meeting the front up to x ``reach``."""
    sides = (_ray((-0.25, 0.4, 1.5)), None, _ray((0.0, 0.75, 1.5)), _ray((0.0, 0.0, 1.5)))
    door = tuple(_ray((x, 0.4, 1.5)) for x in (-0.2, 0.0, reach))
    return SightFact(CABINET, EYE, (_ray((0.0, 0.4, 1.5)),), None, (), sides, door, "OpenObject")


def test_a_door_whose_shut_masks_run_off_the_frame_is_drawn_shut_as_far_as_they_reach() -> None:
    cabinet = _cabinet()
    extents_to_their_masks([cabinet], [_shut_mask_cut_on_the_right(0.4)] * 2)
    assert cabinet.lo == [-0.25, 0.0, 1.5] and cabinet.hi == [0.25, 0.75, 2.0]  # drawing only
    assert cabinet.drawn_margins == ()  # open, as before
    assert math.isclose(cabinet.shut_margins[3], 0.15, abs_tol=0.01)  # shut, 0.15 m further right
    assert cabinet.shut_margins[0] == 0.0


def test_masks_cut_by_the_frame_never_shrink_a_door_and_one_moves_nothing() -> None:
    cabinet = _cabinet()
    extents_to_their_masks([cabinet], [_shut_mask_cut_on_the_right(0.1)] * 2)  # reaches inside its box
    assert cabinet.drawn_margins == () and cabinet.shut_margins == ()
    lone = _cabinet()
    extents_to_their_masks([lone], [_shut_mask_cut_on_the_right(0.4)])
    assert lone.drawn_margins == () and lone.shut_margins == ()


def test_a_door_s_shut_margins_draw_it_wider_only_while_it_is_shut_and_are_kept_in_the_catalogue() -> None:
    so = SceneObject("Cabinet", (-0.25, 0.4, 1.5), Box((-0.25, 0.0, 1.5), (0.25, 0.75, 2.0)), object_id=CABINET,
                     shut_margins=(0.0, 0.0, 0.0, 0.15, 0.0, 0.0))
    assert SceneObject.from_dict(so.to_dict()).shut_margins == so.shut_margins
    obj = WorldObject(CABINET, "Cabinet", "cabinet", so.position, so.rotation, so.box, shut_margins=so.shut_margins)
    assert math.isclose(obj.drawn_box().hi[0], 0.4)
    obj.is_open = True
    assert obj.drawn_box() == obj.box()
