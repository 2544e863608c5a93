"""Sink basins of imported rooms: the footprint is THOR's opening, where the masks' edge rays cross the rim."""

from __future__ import annotations

import numpy as np

from alfred_gen.scenes.alfred.basin_openings import (
    KEEP_INSIDE,
    MARGIN,
    MIN_MASKS,
    MIN_OPENING,
    OPEN_MARGIN,
    OPEN_MARGIN_DEEP,
    basins_to_their_masks,
    centred_rim,
    mask_extents,
    rim_height,
    tubs_to_their_masks,
)
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact, edge_rays
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Box
from tests.helpers.sight_rays import ray_to

BASIN = "Sink|-01.39|+00.98|+00.44|SinkBasin"
EYE = (-1.4, 1.65, -0.25)


def _basin(kind: str = "SinkBasin", object_id: str = BASIN) -> Block:
    """A basin's first box as the importer makes it: 0.3 m to either side, 0.25 m in front, 0.2 m behind."""
    x, y, z = -1.39, 0.98, 0.44
    return Block(object_id, kind, (x, y, z), [x - 0.3, y - 0.2, z - 0.2], [x + 0.3, y + 0.01, z + 0.25], False, 180)


def _counter(top: float) -> Block:
    return Block("CounterTop|-01.00|+01.00|+00.50", "CounterTop", (-1.0, 1.0, 0.5), [-2.5, top - 0.04, 0.0],
                 [0.5, top, 1.0], False, 180)


def _sight(hits: list[tuple[float, float, float]], target: str = BASIN) -> SightFact:
    """A mask whose edge rays go from :data:`EYE` through the points ``hits``."""
    rays = tuple(ray_to(EYE, point) for point in hits)
    return SightFact(target, EYE, rays[:1], None, rays)


def test_edge_rays_go_through_the_mask_s_outermost_pixels() -> None:
    camera = Camera(0.0, 1.65, 0.0, 0.0, 45.0, ALFRED_CAMERA.field_of_view)
    # A wide, shallow band: rows 120-129, columns 40-259 (runs of [start, length] in row-major order).
    runs = [[row * 300 + 40, 220] for row in range(120, 130)]
    edges = edge_rays(runs, camera)
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()

    def through(row: int, col: int) -> np.ndarray:
        d = forward + cols[col] * right + rows[row] * up
        return d / np.linalg.norm(d)

    assert len(edges) == 4
    left, right_edge, top, bottom = (np.array(e) for e in edges)
    # The leftmost and rightmost rays point near columns 40 and 259, the top and bottom ones near rows 120 and 129.
    assert float(np.dot(left, through(125, 44))) > 0.9999 and float(np.dot(right_edge, through(125, 255))) > 0.9999
    assert abs(float(np.dot(top, up)) - float(np.dot(through(120, 150), up))) < 0.01
    assert abs(float(np.dot(bottom, up)) - float(np.dot(through(129, 150), up))) < 0.01
    assert edge_rays([], camera) == ()


def test_an_edge_ray_crosses_the_rim_where_it_passes_it_whatever_depth_it_reaches() -> None:
    # A ray to the bowl's floor 0.2 m under the rim crosses the rim's plane nearer the eye.
    (x0, x1, z0, z1), = mask_extents([_sight([(-1.4, 0.79, 0.61), (-1.2, 0.99, 0.5)])], BASIN, 0.99)
    assert abs(x0 + 1.4) < 1e-3 and abs(x1 + 1.2) < 1e-3
    assert abs(z0 - (-0.25 + (0.61 + 0.25) * (1.65 - 0.99) / (1.65 - 0.79))) < 1e-3 and abs(z1 - 0.5) < 1e-3
    assert mask_extents([_sight([(-1.4, 0.79, 0.61), (-1.2, 0.99, 0.5)], target="Other")], BASIN, 0.99) == []


def test_the_rim_is_the_counter_the_basin_is_set_into() -> None:
    basin = _basin()
    assert rim_height(basin, [basin]) == basin.hi[1]
    basin.hi[1] = 1.2  # grown to hold a bottle's middle
    assert rim_height(basin, [basin, _counter(1.1)]) == 1.1


def test_a_basin_takes_the_footprint_its_masks_show_on_the_side_they_show_it() -> None:
    # THOR's opening lies behind the id and to its right, partly outside the first box.
    sights = [_sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)]), _sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)])]
    basin = _basin()
    height = (basin.lo[1], basin.hi[1])
    basins_to_their_masks([basin], sights, [])
    assert abs(basin.lo[0] - (-1.30 - MARGIN)) < 1e-3 and abs(basin.hi[0] - (-1.05 + MARGIN)) < 1e-3
    assert abs(basin.lo[2] - (0.50 - MARGIN)) < 1e-3 and abs(basin.hi[2] - (0.72 + MARGIN)) < 1e-3
    assert basin.hi[2] > 0.44 + 0.25  # beyond the first box: the masks say so
    assert (basin.lo[1], basin.hi[1]) == height


def test_what_rests_in_the_bowl_stays_over_it_and_what_stands_beside_it_does_not() -> None:
    sights = [_sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)])] * MIN_MASKS
    in_bowl = Box((-1.62, 0.80, 0.25), (-1.56, 0.86, 0.31))  # in the first box, bottom in the bowl
    on_counter = Box((-1.66, 0.99, 0.60), (-1.60, 1.05, 0.66))  # in the first box's footprint, on the counter
    basin = _basin()
    basins_to_their_masks([basin], sights, [in_bowl, on_counter])
    assert abs(basin.lo[0] - (-1.59 - KEEP_INSIDE)) < 1e-3 and abs(basin.lo[2] - (0.28 - KEEP_INSIDE)) < 1e-3
    assert abs(basin.hi[2] - (0.72 + MARGIN)) < 1e-3
    basin = _basin()
    basin.keep.append((-1.0, 0.9, 0.45))  # a support fact's object
    basins_to_their_masks([basin], sights, [])
    assert abs(basin.hi[0] - (-1.0 + KEEP_INSIDE)) < 1e-3


def test_the_drawn_opening_is_what_the_masks_show_not_what_the_box_keeps() -> None:
    # The box grows over what rests in the bowl and keeps a margin; the opening drawn open at the
    # rim is the masks' own extent (the rest of the footprint is drawn as the sink's deck).
    sights = [_sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)])] * MIN_MASKS
    in_bowl = Box((-1.62, 0.80, 0.25), (-1.56, 0.86, 0.31))
    basin = _basin()
    basins_to_their_masks([basin], sights, [in_bowl])
    x0, x1, z0, z1, rim = basin.opening[:5]  # a sixth value, the corners' roundness, for a rounded bowl
    assert abs(x0 - (-1.30 - OPEN_MARGIN)) < 1e-3 and abs(x1 - (-1.05 + OPEN_MARGIN)) < 1e-3
    # Facing 180 (along z): front to back the opening follows the masks closer than across.
    assert abs(z0 - (0.50 - OPEN_MARGIN_DEEP)) < 1e-3 and abs(z1 - (0.72 + OPEN_MARGIN_DEEP)) < 1e-3
    assert OPEN_MARGIN_DEEP < OPEN_MARGIN
    assert rim == basin.hi[1]
    assert basin.lo[0] < x0 - 0.15 and basin.lo[2] < z0 - 0.15  # the box still holds the bowl's contents
    narrow = _basin()
    basins_to_their_masks([narrow], [_sight([(-1.40, 0.99, 0.50), (-1.38, 0.99, 0.51)])] * MIN_MASKS, [])
    assert narrow.opening[1] - narrow.opening[0] < MIN_OPENING  # the box's least width is not drawn open
    assert _basin().opening == ()


def test_a_narrow_spread_keeps_the_smallest_opening_round_its_middle() -> None:
    basin = _basin()
    basins_to_their_masks([basin], [_sight([(-1.40, 0.99, 0.50), (-1.38, 0.99, 0.51)])] * MIN_MASKS, [])
    for axis, middle in ((0, -1.39), (2, 0.505)):
        assert abs(basin.hi[axis] - basin.lo[axis] - MIN_OPENING) < 1e-6
        assert abs((basin.hi[axis] + basin.lo[axis]) / 2 - middle) < 1e-3


def test_too_few_masks_or_other_fixtures_keep_their_box() -> None:
    hits = [(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)]
    basin = _basin()
    first = (list(basin.lo), list(basin.hi))
    basins_to_their_masks([basin], [_sight(hits)] * (MIN_MASKS - 1), [])
    assert (basin.lo, basin.hi) == first
    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    first = (list(tub.lo), list(tub.hi))
    basins_to_their_masks([tub], [_sight(hits, target=tub.object_id)] * MIN_MASKS, [])
    assert (tub.lo, tub.hi) == first


def test_the_sink_basins_pass_leaves_tubs_to_their_own_pass() -> None:
    hits = [(-1.50, 0.85, 0.40), (-1.28, 0.85, 0.53)]
    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    basins_to_their_masks([tub], [_sight(hits, target=tub.object_id)] * MIN_MASKS, [])
    assert tub.opening == ()
    tubs_to_their_masks([tub], [_sight(hits, target=tub.object_id)] * MIN_MASKS)
    assert tub.opening != ()


def test_a_tub_is_drawn_open_where_its_masks_show_its_inside_and_keeps_its_box() -> None:
    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    first = (list(tub.lo), list(tub.hi))
    rim = 0.85  # under the box's top (0.99), over its bottom (0.78)
    hits = [(-1.50, rim, 0.40), (-1.28, rim, 0.53)]  # centred on the box's footprint (-1.39, 0.465)
    tubs_to_their_masks([tub], [_sight(hits, target=tub.object_id)] * MIN_MASKS)
    x0, x1, z0, z1, at = tub.opening
    assert abs(at - rim) < 1e-6
    assert abs(x0 - (-1.50 - OPEN_MARGIN)) < 1e-3 and abs(x1 - (-1.28 + OPEN_MARGIN)) < 1e-3
    assert abs(z0 - (0.40 - OPEN_MARGIN)) < 1e-3 and abs(z1 - (0.53 + OPEN_MARGIN)) < 1e-3
    assert (tub.lo, tub.hi) == first  # drawing only
    few = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    tubs_to_their_masks([few], [_sight(hits, target=few.object_id)] * (MIN_MASKS - 1))
    sink = _basin()
    tubs_to_their_masks([sink], [_sight(hits)] * MIN_MASKS)
    assert few.opening == () and sink.opening == ()


def test_a_tub_s_rim_is_where_its_masks_opening_is_centred_on_it() -> None:
    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    sights = [_sight([(-1.50, 0.85, 0.40), (-1.28, 0.85, 0.53)], target=tub.object_id)] * MIN_MASKS
    fitted = centred_rim(tub, sights)
    assert fitted is not None and abs(fitted[0] - 0.85) < 1e-6
    # At the box's top the same rays cross nearer the eye: that opening lies off the tub's middle.
    (x0, x1, z0, z1), middle = fitted[1], (-1.39, 0.465)
    assert abs((x0 + x1) / 2 - middle[0]) < 1e-3 and abs((z0 + z1) / 2 - middle[1]) < 1e-3
    assert centred_rim(tub, sights[:1]) is None


def test_a_basin_sight_round_trips_with_its_edges_and_others_keep_their_form() -> None:
    fact = _sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)])
    assert SightFact.from_list(fact.to_list()) == fact
    plain = SightFact("Fridge|+01.00|+00.00|+01.00", EYE, ((0.0, -1.0, 0.0),))
    assert len(plain.to_list()) == 4 and SightFact.from_list(plain.to_list()) == plain


def test_a_bathroom_bowl_is_shallow_and_a_kitchen_s_keeps_its_depth() -> None:
    from alfred_gen.scenes.alfred.basin_openings import MIN_BOWL_DEPTH, bathroom_bowls_shallow
    from alfred_gen.scenes.alfred.fixture_block import inner_floor

    for room_type, deep in (("bathroom", False), ("kitchen", True)):
        basin = _basin()
        basin.hi[1] = 1.0  # its rim at the counter's top (basins_reach_counters)
        first = basin.lo[1]
        bathroom_bowls_shallow([basin, _counter(1.0)], [], room_type)
        if deep:
            assert basin.lo[1] == first
        else:
            # The id is at 0.98, 0.02 m under the counter's top: the floor is MIN_BOWL_DEPTH under the rim.
            assert abs(basin.lo[1] + inner_floor("SinkBasin") - (1.0 - MIN_BOWL_DEPTH)) < 1e-6
    # What rests in the bowl keeps the floor under it; a pedestal sink keeps its bowl.
    basin = _basin()
    basin.hi[1] = 1.0
    soap = Box((-1.42, 0.84, 0.40), (-1.36, 0.87, 0.49))
    bathroom_bowls_shallow([basin, _counter(1.0)], [soap], "bathroom")
    assert abs(basin.lo[1] - (0.84 - inner_floor("SinkBasin"))) < 1e-6
    pedestal = _basin()
    pedestal.floor_origin = True
    first = pedestal.lo[1]
    bathroom_bowls_shallow([pedestal], [], "bathroom")
    assert pedestal.lo[1] == first


def test_a_bathroom_basin_s_opening_carries_its_room_type_s_roundness() -> None:
    from alfred_gen.scenes.alfred.basin_openings import ROUNDNESS

    sights = [_sight([(-1.30, 0.99, 0.50), (-1.05, 0.99, 0.72)])] * MIN_MASKS
    kitchen, bathroom = _basin(), _basin()
    basins_to_their_masks([kitchen], sights, [], "kitchen")
    basins_to_their_masks([bathroom], sights, [], "bathroom")
    assert bathroom.opening[:5] == kitchen.opening[:5]
    assert bathroom.opening[5:] == ((ROUNDNESS["bathroom"],) if ROUNDNESS["bathroom"] > 0 else ())
    assert kitchen.opening[5:] == ((ROUNDNESS["kitchen"],) if ROUNDNESS["kitchen"] > 0 else ())


def test_a_tub_whose_opening_reaches_past_its_box_is_drawn_to_hold_it() -> None:
    from alfred_gen.scenes.alfred.basin_openings import drawn_over_opening
    from alfred_gen.scenes.alfred.fixture_block import inner_floor

    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")  # z 0.24 to 0.69
    first = (list(tub.lo), list(tub.hi))
    tub.opening = (-1.55, -1.23, 0.30, 1.10, 0.85)  # runs 0.41 m past the box's high z
    drawn_over_opening(tub)
    drawn = tub.drawn_box()
    assert abs(drawn.hi[2] - (1.10 + inner_floor("BathtubBasin"))) < 1e-6
    assert drawn.lo == tuple(first[0]) and drawn.hi[:2] == tuple(first[1][:2])  # only that side grows
    assert (tub.lo, tub.hi) == first  # drawing only
    inside = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")
    inside.opening = (-1.55, -1.23, 0.30, 0.60, 0.85)
    drawn_over_opening(inside)
    assert inside.drawn_margins == ()


def test_a_tub_s_drawing_does_not_grow_over_a_thing_resting_under_its_floor() -> None:
    from alfred_gen.scenes.alfred.basin_openings import drawn_over_opening

    tub = _basin("BathtubBasin", "Bathtub|-01.39|+00.98|+00.44|BathtubBasin")  # z 0.24 to 0.69, floor 0.83
    tub.opening = (-1.55, -1.23, 0.30, 1.10, 0.85)
    cloth = Box((-1.45, 0.60, 0.90), (-1.30, 0.62, 1.00))  # past the box's end, under the tub's floor
    drawn_over_opening(tub, [cloth])
    assert tub.drawn_margins == ()
    above = Box((-1.45, 0.86, 0.90), (-1.30, 0.88, 1.00))  # lying in the opening, over the floor
    drawn_over_opening(tub, [above])
    assert tub.drawn_margins != ()
