"""A kitchen faucet moved onto the lines of sight of THOR's masks of it, and drawn as a slab as wide
and as tall as they show it (gen/scenes/alfred/faucet_fits.py)."""

from __future__ import annotations

import numpy as np
import pytest

from alfred_gen.scenes.alfred import faucet_fits, sight_facts
from alfred_gen.scenes.alfred.faucet_fits import (
    FILL_SHARE,
    MAX_SHIFT,
    MAX_SIDE_MOVE,
    SLAB,
    WHOLE_SLAB,
    faucets_drawn_to_their_masks,
    faucets_to_their_masks,
)
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_extents import on_plane
from alfred_gen.scenes.alfred.sight_facts import SightFact, bound_rays, mask_fill
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.traj.rle import encode_mask
from tests.helpers.sight_rays import ray_to

FAUCET = "Faucet|+00.00|+00.93|-00.80"
#: The grid these tests' patterns are drawn on (the importer's was 5 until session 91), so a
#: cell is a fifth of the slab.
FILL_GRID = 5


@pytest.fixture(autouse=True)
def _grid_of_five(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(faucet_fits, "FILL_GRID", FILL_GRID)
EYE = (0.0, 1.58, 0.0)


def _faucet() -> Block:
    return Block(FAUCET, "Faucet", (0.0, 0.93, -0.8), [-0.05, 0.88, -0.85], [0.05, 0.98, -0.75], False, 0)


def _fact(point: tuple[float, float, float]) -> SightFact:
    return SightFact(FAUCET, EYE, (ray_to(EYE, point),) * 5)


def test_a_kitchen_faucet_moves_onto_its_masks_line_of_sight_keeping_its_depth() -> None:
    block = _faucet()
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))] * 2, "FloorPlan17")
    middle = [(lo + hi) / 2 for lo, hi in zip(block.lo, block.hi)]
    assert middle[0] == pytest.approx(0.06, abs=0.01) and middle[1] == pytest.approx(1.05, abs=0.01)
    assert middle[2] == pytest.approx(-0.8, abs=0.03)
    assert block.hi[0] - block.lo[0] == pytest.approx(0.1)


def test_one_mask_a_bathroom_and_a_far_line_of_sight() -> None:
    block = _faucet()
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))], "FloorPlan17")
    assert block.lo == _faucet().lo
    faucets_to_their_masks([block], [_fact((0.06, 1.05, -0.8))] * 2, "FloorPlan417")
    assert block.lo == _faucet().lo
    faucets_to_their_masks([block], [_fact((1.0, 0.93, -0.8))] * 2, "FloorPlan17")
    assert block.lo[0] - _faucet().lo[0] == pytest.approx(MAX_SHIFT)


def _sides_fact(low_x: float, high_x: float, top: float, bottom: float) -> SightFact:
    """A mask of the faucet seen looking along -z from EYE (THOR's frame is left-handed: screen-left
    is +x), its sides where the rays cross z = -0.8."""
    def ray(x: float, y: float) -> tuple[float, float, float]:
        return ray_to(EYE, (x, y, -0.8))
    middle = ray((low_x + high_x) / 2, (top + bottom) / 2)
    return SightFact(FAUCET, EYE, (middle,) * 5, None, (),
                     (ray(high_x, 0.93), ray(low_x, 0.93), ray(0.0, top), ray(0.0, bottom)))


def test_a_kitchen_faucet_is_drawn_as_a_slab_where_its_masks_put_its_sides() -> None:
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_sides_fact(-0.03, 0.04, 1.0, 0.9)] * 2, "FloorPlan17")
    lo = [a - m for a, m in zip(block.lo, block.drawn_margins[:3])]
    hi = [a + m for a, m in zip(block.hi, block.drawn_margins[3:])]
    assert lo[0] == pytest.approx(-0.03, abs=1e-3) and hi[0] == pytest.approx(0.04, abs=1e-3)
    assert lo[1] == pytest.approx(0.9, abs=1e-3) and hi[1] == pytest.approx(1.0, abs=1e-3)
    assert hi[2] - lo[2] == pytest.approx(SLAB) and (lo[2] + hi[2]) / 2 == pytest.approx(-0.8)
    assert block.lo == _faucet().lo and block.hi == _faucet().hi  # drawing only


def test_a_bathroom_faucet_or_one_mask_keeps_its_drawing() -> None:
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_sides_fact(-0.03, 0.04, 1.0, 0.9)], "FloorPlan17")
    faucets_drawn_to_their_masks([block], [_sides_fact(-0.03, 0.04, 1.0, 0.9)] * 2, "FloorPlan417")
    assert block.drawn_margins == ()


def test_a_side_the_frame_cuts_keeps_the_box_and_a_far_one_moves_at_most_the_limit() -> None:
    block = _faucet()
    fact = _sides_fact(-1.0, 0.04, 1.0, 0.9)  # the right ray (low x) 0.95 m off the box
    cut = SightFact(fact.target, fact.eye, fact.rays, None, (), (fact.sides[0], fact.sides[1], None, fact.sides[3]))
    faucets_drawn_to_their_masks([block], [cut] * 2, "FloorPlan17")
    assert block.drawn_margins[0] == pytest.approx(MAX_SIDE_MOVE)  # the low x side moved out by the limit
    assert block.drawn_margins[4] == 0.0  # no top ray: the top stays


def _filled(fact: SightFact, fill: tuple[float, ...]) -> SightFact:
    return SightFact(fact.target, fact.eye, fact.rays, None, (), fact.sides, (), "ToggleObjectOn", fill)


#: A gooseneck seen from the front: the bottom row and the screen-left column of its bounding box.
GOOSENECK = tuple(1.0 if row == FILL_GRID - 1 or col == 0 else 0.1 for row in range(FILL_GRID)
                  for col in range(FILL_GRID))


def test_a_faucet_s_slab_is_drawn_where_its_masks_fill_their_boxes_turned_to_the_world() -> None:
    block = _faucet()
    fact = _filled(_sides_fact(-0.03, 0.04, 1.0, 0.9), GOOSENECK)
    faucets_drawn_to_their_masks([block], [fact] * 2, "FloorPlan17")
    parts = [block.drawn_pattern[k:k + 4] for k in range(0, len(block.drawn_pattern), 4)]
    step = 1.0 / FILL_GRID
    # Looking along -z, screen-left is +x: the column lies at the slab's high-x end.
    assert parts[0] == pytest.approx((0.0, 1.0, 0.0, step))  # the bottom row, whole
    assert [p[2] for p in parts[1:]] == pytest.approx([step * r for r in range(1, FILL_GRID)])
    assert all(p[:2] == pytest.approx((1.0 - step, 1.0)) for p in parts[1:])


def test_no_pattern_without_two_filled_masks_or_when_the_whole_box_is_filled() -> None:
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_filled(_sides_fact(-0.03, 0.04, 1.0, 0.9), GOOSENECK),
                                           _sides_fact(-0.03, 0.04, 1.0, 0.9)], "FloorPlan17")
    assert block.drawn_margins and block.drawn_pattern == ()
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_filled(_sides_fact(-0.03, 0.04, 1.0, 0.9),
                                                   (FILL_SHARE,) * FILL_GRID ** 2)] * 2, "FloorPlan17")
    assert block.drawn_margins and block.drawn_pattern == ()


def test_a_bathroom_faucet_is_drawn_to_its_masks_only_with_a_pattern() -> None:
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_filled(_sides_fact(-0.03, 0.04, 1.0, 0.9), GOOSENECK)] * 2,
                                 "FloorPlan417")
    assert block.drawn_margins and block.drawn_pattern


def test_mask_fill_reads_each_cell_s_share_and_the_frame_s_top_cut_and_skips_unreadable_masks() -> None:
    # A 10 x 10 square at rows 100-109, columns 50-59, with its left half's top 5 rows missing.
    runs = [[row * 300 + (55 if row < 105 else 50), 5 if row < 105 else 10] for row in range(100, 110)]
    fill, cut, side = mask_fill(runs, 2)
    assert fill == (0.0, 1.0, 1.0, 1.0) and cut is None and side is None
    assert mask_fill([[0 * 300, 300]], 2) == ((), None, None)  # both side borders
    assert mask_fill([[299 * 300, 10]], 2) == ((), None, None)  # the frame's bottom border
    fill, cut, side = mask_fill([[row * 300 + 50, 10] for row in range(0, 10)], 2)  # cut by the frame's top
    assert fill == (1.0,) * 4 and cut == 55
    fact = SightFact(FAUCET, EYE, (ray_to(EYE, (0.0, 0.9, -0.8)),), None, (), (None,) * 4, (), "", fill)
    assert SightFact.from_list(fact.to_list()) == fact


def test_the_drawn_pattern_survives_the_scene_file_and_reaches_the_world_object() -> None:
    from alfred_gen.sim.scene import Box, SceneObject
    from alfred_gen.sim.world_objects import WorldObject

    pattern = (0.0, 1.0, 0.0, 0.2)
    obj = SceneObject("Faucet", (0.0, 0.93, -0.8), Box((-0.05, 0.88, -0.85), (0.05, 0.98, -0.75)),
                      drawn_pattern=pattern)
    again = SceneObject.from_dict(obj.to_dict())
    assert again.drawn_pattern == pattern
    assert "drawn_pattern" not in SceneObject("Faucet", obj.position, obj.box).to_dict()
    world = WorldObject(again.object_id, again.object_type, again.name, again.position, again.rotation, again.box,
                        drawn_pattern=again.drawn_pattern)
    assert world.drawn_pattern == pattern


def _top_cut_parts(floor_plan: str) -> list[tuple[float, ...]]:
    """The drawn pattern's parts of a faucet whose two gooseneck masks the frame's top cuts where
    it meets the slab's plane half way up (0.95): the masks' rows lie below it."""
    block = _faucet()
    whole = _sides_fact(-0.03, 0.04, 1.0, 0.9)
    cut = SightFact(FAUCET, EYE, whole.rays, None, (), (whole.sides[0], whole.sides[1], None, whole.sides[3]),
                    (), "ToggleObjectOn", GOOSENECK, ray_to(EYE, (0.0, 0.95, -0.8)))
    faucets_drawn_to_their_masks([block], [cut] * 2, floor_plan)
    return [block.drawn_pattern[k:k + 4] for k in range(0, len(block.drawn_pattern), 4)]


def test_a_mask_the_frame_s_top_cuts_fills_the_slab_only_up_to_where_the_cut_meets_it() -> None:
    parts = _top_cut_parts("FloorPlan417")
    # The top stays the box's (0.98); the bottom 0.9: the cut at 0.95 is 5/8 of the way up, so the
    # slab's bottom 3 rows take the mask's rows, the 2 above are unknown and (in a bathroom) drawn whole.
    step = 1.0 / FILL_GRID
    assert parts[0] == pytest.approx((0.0, 1.0, 0.0, step))
    assert parts[-2:] == [pytest.approx((0.0, 1.0, 3 * step, 4 * step)), pytest.approx((0.0, 1.0, 4 * step, 1.0))]


def test_a_kitchen_faucet_cut_by_the_frame_s_top_goes_on_up_as_its_highest_seen_row() -> None:
    parts = _top_cut_parts("FloorPlan17")
    step = 1.0 / FILL_GRID
    # The slab's 3rd row shows the gooseneck's column alone (looking along -z it lies at the high-x
    # end); the 2 rows above no mask shows go on as that column, not whole rows.
    assert parts[0] == pytest.approx((0.0, 1.0, 0.0, step))
    assert parts[-2:] == [pytest.approx((1.0 - step, 1.0, 3 * step, 4 * step)),
                          pytest.approx((1.0 - step, 1.0, 4 * step, 1.0))]


def test_a_bathroom_faucet_whose_masks_fill_their_whole_box_is_drawn_as_the_whole_slab() -> None:
    # A narrow neck fills its mask's bounding box: the slab is drawn whole, not left to the handles.
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_filled(_sides_fact(-0.03, 0.04, 1.0, 0.9), (1.0,) * FILL_GRID ** 2)] * 2,
                                 "FloorPlan417")
    assert block.drawn_margins and block.drawn_pattern == WHOLE_SLAB


def test_mask_fill_reads_a_mask_the_frame_s_side_cuts() -> None:
    # A 10 x 10 square at rows 100-109 against the frame's left border, its top half 5 wide.
    runs = [[row * 300, 5 if row < 105 else 10] for row in range(100, 110)]
    fill, top, side = mask_fill(runs, 2)
    assert fill == (1.0, 0.0, 1.0, 1.0) and top is None and side == (105 * 300, True)
    right = mask_fill([[row * 300 + 290, 10] for row in range(100, 110)], 2)[2]
    assert right == (105 * 300 + 299, False)
    fact = SightFact(FAUCET, EYE, (ray_to(EYE, (0.0, 0.9, -0.8)),), None, (), (None,) * 4, (), "", fill, None,
                     ray_to(EYE, (0.0, 0.9, -0.8)), True)
    assert SightFact.from_list(fact.to_list()) == fact


def test_a_mask_the_frame_s_side_cuts_fills_the_slab_only_up_to_where_the_cut_meets_it() -> None:
    block = _faucet()
    whole = _sides_fact(-0.05, 0.05, 0.98, 0.88)
    # Looking along -z screen-left is +x: the frame's left border meets the slab's plane at x 0.0,
    # so the mask's columns lie over the slab's low-x half; the columns past the cut are unknown.
    left_column = tuple(1.0 if col == 0 else 0.0 for row in range(FILL_GRID) for col in range(FILL_GRID))
    cut = SightFact(FAUCET, EYE, whole.rays, None, (), (None, whole.sides[1], whole.sides[2], whole.sides[3]),
                    (), "ToggleObjectOn", left_column, None, ray_to(EYE, (0.0, 0.93, -0.8)), True)
    faucets_drawn_to_their_masks([block], [cut] * 2, "FloorPlan17")
    parts = [block.drawn_pattern[k:k + 4] for k in range(0, len(block.drawn_pattern), 4)]
    step = 1.0 / FILL_GRID
    # The mask is empty away from the cut: the slab's two low-x columns, which it shows, are not
    # drawn; the columns from the cut on, which no mask shows, are.
    assert parts and all(p[:2] == pytest.approx((2 * step, 1.0)) for p in parts)


def test_the_importer_s_grid_draws_a_neck_a_tenth_of_the_slab_wide_no_wider(monkeypatch: pytest.MonkeyPatch) -> None:
    # THOR's kitchen necks are about a tenth of their masks' boxes wide; a 5 x 5 grid drew them a
    # fifth wide (session 91: the faucets' extra pixels lay inside THOR's boxes).
    grid = sight_facts.FILL_GRID
    monkeypatch.setattr(faucet_fits, "FILL_GRID", grid)
    neck = tuple(1.0 if row == grid - 1 or col < grid // 10 else 0.0 for row in range(grid) for col in range(grid))
    block = _faucet()
    faucets_drawn_to_their_masks([block], [_filled(_sides_fact(-0.03, 0.04, 1.0, 0.9), neck)] * 2, "FloorPlan17")
    parts = [block.drawn_pattern[k:k + 4] for k in range(0, len(block.drawn_pattern), 4)]
    assert parts[0][:2] == pytest.approx((0.0, 1.0))  # the bottom row, whole
    assert len(parts) == grid and all(p[0] == pytest.approx(0.9) and p[1] == pytest.approx(1.0) for p in parts[1:])


def test_bound_rays_meet_an_upright_plane_at_the_outer_edges_of_the_mask_s_pixels() -> None:
    # A gooseneck's mask: a neck at columns 140-143, rows 100-149, and a spout at rows 100-103 out
    # to column 169, seen looking down. Cast onto any upright plane facing the camera, every pixel
    # middle of the mask lies within the bounding rays, and on each side the next pixel out of an
    # outermost one lies past them: a thin slab drawn there covers the mask's pixels and no more
    # than part of a pixel beyond (lite draws a pixel whose middle its shape covers).
    camera = Camera(0.0, 1.58, 0.0, 180.0, 45.0, 60.0)
    mask = np.zeros((300, 300), dtype=bool)
    mask[100:150, 140:144] = True
    mask[100:104, 140:170] = True
    rays = bound_rays(encode_mask(mask), camera)
    for plane in (-0.6, -1.0):
        ends = [on_plane(camera.position, ray, 2, plane, axis) for ray, axis in zip(rays, (0, 0, 1, 1))]
        left, right, top, bottom = (float(e) for e in ends if e is not None)

        def cast(u: float, v: float, plane: float = plane) -> tuple[float, float]:
            x = on_plane(camera.position, camera.ray(u, v), 2, plane, 0)
            y = on_plane(camera.position, camera.ray(u, v), 2, plane, 1)
            assert x is not None and y is not None
            return x, y

        rows, cols = np.nonzero(mask)
        inside = [cast(c + 0.5, r + 0.5) for r, c in zip(rows, cols)]
        # Looking along -z, screen-left is +x.
        assert all(right < x < left and bottom < y < top for x, y in inside)
        assert any(cast(139.5, r + 0.5)[0] > left for r in range(100, 150))
        assert any(cast(170.5, r + 0.5)[0] < right for r in range(100, 104))
        assert any(cast(c + 0.5, 99.5)[1] > top for c in range(140, 170))
        assert any(cast(c + 0.5, 150.5)[1] < bottom for c in range(140, 144))
    at_border = mask.copy()
    at_border[0:100, 141] = True  # now reaching the frame's top row
    assert bound_rays(encode_mask(at_border), camera)[2] is None
    assert bound_rays([], camera) == ()


def test_a_faucet_mask_s_grid_is_even_on_the_upright_plane_not_in_the_frame() -> None:
    # An upright rectangle on a plane 0.8 m along the heading, seen looking down at 45 degrees, is
    # a keystone in the frame (narrower at the bottom). Read on the plane it fills its whole grid;
    # read over its box in the frame, the bottom corners show empty.
    camera = Camera(0.0, 1.58, 0.0, 180.0, 45.0, 60.0)
    mask = np.zeros((300, 300), dtype=bool)
    for row in range(300):
        for col in range(300):
            x, y = (on_plane(camera.position, camera.ray(col + 0.5, row + 0.5), 2, -0.8, axis) for axis in (0, 1))
            mask[row, col] = x is not None and y is not None and -0.05 < x < 0.05 and 1.0 < y < 1.3
    on_the_plane, _, _ = mask_fill(encode_mask(mask), 4, camera)
    in_the_frame, _, _ = mask_fill(encode_mask(mask), 4)
    assert min(on_the_plane) >= 0.9
    assert in_the_frame[12] < 0.9 and in_the_frame[15] < 0.9  # the bottom row's two corner cells


def test_a_faucet_s_sight_fact_keeps_its_bounding_rays() -> None:
    mask = np.zeros((300, 300), dtype=bool)
    mask[100:150, 140:144] = True
    low = {"api_action": {"action": "ToggleObjectOn", "objectId": FAUCET},
           "discrete_action": {"args": {"mask": encode_mask(mask)}}}
    facts = sight_facts.sight_facts([low], [(0, FAUCET, [0.0, 0.0, 180.0, 30.0])], 0.9, {}, lambda _: True)
    camera = Camera(0.0, 0.9 + ALFRED_CAMERA.height, 0.0, 180.0, 30.0, ALFRED_CAMERA.field_of_view)
    assert len(facts) == 1 and facts[0].sides == bound_rays(encode_mask(mask), camera)


def test_a_microwave_s_and_a_cabinet_s_sight_facts_keep_their_bounding_rays_and_a_fridge_s_its_side_rays() -> None:
    mask = np.zeros((300, 300), dtype=bool)
    mask[100:150, 120:190] = True
    camera = Camera(0.0, 0.9 + ALFRED_CAMERA.height, 0.0, 180.0, 30.0, ALFRED_CAMERA.field_of_view)
    for target, expected in (("Microwave|+00.00|+00.93|-00.80", sight_facts.bound_rays),
                             ("Cabinet|+00.00|+00.93|-00.80", sight_facts.bound_rays),
                             ("Fridge|+00.00|+00.93|-00.80", sight_facts.side_rays)):
        low = {"api_action": {"action": "OpenObject", "objectId": target},
               "discrete_action": {"args": {"mask": encode_mask(mask)}}}
        facts = sight_facts.sight_facts([low], [(0, target, [0.0, 0.0, 180.0, 30.0])], 0.9, {}, lambda _: True)
        assert len(facts) == 1 and facts[0].sides == expected(encode_mask(mask), camera)
    assert bound_rays(encode_mask(mask), camera) != sight_facts.side_rays(encode_mask(mask), camera)


def test_a_microwave_s_bounding_rays_leave_out_a_thin_part_hanging_below_its_body() -> None:
    # FloorPlan12's hung microwave: a body 250 px wide with a part 11 px wide hanging 11 rows below
    # it. A microwave's bottom ray runs along the body's bottom edge; a faucet's (its neck is thin)
    # along the part's.
    mask = np.zeros((300, 300), dtype=bool)
    mask[40:114, 20:270] = True
    mask[114:125, 200:211] = True
    body = np.zeros_like(mask)
    body[40:114, 20:270] = True
    assert (sight_facts.mask_body(mask, sight_facts.BODY_SHARE) == body).all()
    assert (sight_facts.mask_body(body, sight_facts.BODY_SHARE) == body).all()
    camera = Camera(0.0, 0.9 + ALFRED_CAMERA.height, 0.0, 180.0, 0.0, ALFRED_CAMERA.field_of_view)
    facts = {}
    for target in ("Microwave|+00.00|+01.53|-00.80", "Faucet|+00.00|+01.53|-00.80"):
        low = {"api_action": {"action": "OpenObject", "objectId": target},
               "discrete_action": {"args": {"mask": encode_mask(mask)}}}
        facts[target.split("|")[0]] = sight_facts.sight_facts(
            [low], [(0, target, [0.0, 0.0, 180.0, 0.0])], 0.9, {}, lambda _: True)[0]
    assert facts["Microwave"].sides == bound_rays(encode_mask(body), camera)
    assert facts["Faucet"].sides == bound_rays(encode_mask(mask), camera)
    assert facts["Microwave"].sides[3] != facts["Faucet"].sides[3]
