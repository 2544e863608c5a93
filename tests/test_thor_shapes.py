"""Types drawn as THOR's meshes cover their box, in rooms imported from ALFRED only.

A spatula's head lies at one end of its handle, turning with the spatula; a watch is a ring; a
faucet a neck under a spout (:mod:`alfred_gen.sim.thor_shapes`). Procedural rooms draw every
type as before.
"""

from __future__ import annotations

import math

import pytest

from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.sim import thor_shapes
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, Scene, SceneObject
from alfred_gen.sim.shapes import shape_parts
from alfred_gen.sim.thor_drawn import DRAWN_SCALE
from alfred_gen.sim.thor_shapes import (
    HEAD_AT,
    HEAD_SHAPES,
    has_thor_shape,
    head_on_handle,
    lying_flat,
    neck_and_spout,
    ring,
    slab_pattern,
    thor_parts,
)
from alfred_gen.sim.world_objects import WorldObject
from tests.helpers.small_rooms import walled_room

COUNTER_TOP = 0.9
#: A spatula's box lying along x (yaw 0 or 180) and along z (yaw 90 or 270).
ALONG_X = Box((0.0, 0.9, 0.0), (0.3, 0.92, 0.06))
ALONG_Z = Box((0.0, 0.9, 0.0), (0.06, 0.92, 0.3))


def _heads(box: Box, yaw: int, head_at: tuple[int, int]) -> Box:
    parts = head_on_handle(box, yaw, head_at, 0.35, 0.3)
    assert parts is not None
    return parts[0][0]


def test_the_head_lies_at_the_end_the_yaw_turns_it_to() -> None:
    # Own +x is world +x at yaw 0, -z at 90, -x at 180, +z at 270 (THOR: yaw 90 turns +z to +x).
    assert _heads(ALONG_X, 0, (1, 0)).lo[0] == pytest.approx(0.195)
    assert _heads(ALONG_X, 180, (1, 0)).hi[0] == pytest.approx(0.105)
    assert _heads(ALONG_Z, 90, (1, 0)).hi[2] == pytest.approx(0.105)
    assert _heads(ALONG_Z, 270, (1, 0)).lo[2] == pytest.approx(0.195)
    # The other end when the model's head is at its own -x.
    assert _heads(ALONG_X, 0, (-1, 0)).hi[0] == pytest.approx(0.105)


def test_the_handle_is_narrow_and_fills_the_rest_of_the_length() -> None:
    parts = head_on_handle(ALONG_X, 0, (1, 0), 0.35, 0.3)
    assert parts is not None
    (head, _), (handle, _) = parts
    assert head.size[2] == pytest.approx(0.06)
    assert handle.size[2] == pytest.approx(0.018)
    assert handle.lo[0] == pytest.approx(0.0) and handle.hi[0] == pytest.approx(head.lo[0])
    assert handle.center[2] == pytest.approx(ALONG_X.center[2])


def test_a_head_turned_across_the_long_side_falls_back_to_lites_shape() -> None:
    assert head_on_handle(ALONG_X, 90, (1, 0), 0.35, 0.3) is None


def test_a_ring_leaves_its_middle_open() -> None:
    box = Box((0.0, 0.0, 0.0), (0.08, 0.04, 0.05))
    parts = [part for part, _ in ring(box, 0.15, 0.5)]
    middle = box.center
    assert len(parts) == 4
    assert not any(p.lo[0] <= middle[0] <= p.hi[0] and p.lo[2] <= middle[2] <= p.hi[2] for p in parts)
    assert max(p.hi[1] for p in parts) == pytest.approx(0.02)


@pytest.mark.parametrize("facing", [0, 90, 180, 270])
def test_a_spout_reaches_from_the_neck_towards_the_front(facing: int) -> None:
    box = Box((-0.1, 0.9, -0.1), (0.1, 1.1, 0.1))
    (neck, _), (spout, _) = neck_and_spout(box, facing, 0.15, 0.45, 0.3, 0.9, 0.2, 0.2)
    front = {0: (2, 1), 90: (0, 1), 180: (2, -1), 270: (0, -1)}[facing]
    axis, sign = front
    assert sign * (spout.center[axis] - neck.center[axis]) > 0
    assert spout.lo[1] == pytest.approx(1.06)


def test_types_without_a_thor_shape_keep_lites(monkeypatch: pytest.MonkeyPatch) -> None:
    assert thor_parts("Fridge", ALONG_X, 0) is None
    assert not has_thor_shape("Fridge")
    monkeypatch.setitem(HEAD_AT, "Spatula", (1, 0))
    monkeypatch.setitem(HEAD_SHAPES, "Spatula", (0.35, 0.3))
    assert has_thor_shape("Spatula")
    assert thor_parts("Spatula", ALONG_X, 0) is not None


def test_every_head_shape_says_where_its_head_is() -> None:
    assert set(HEAD_SHAPES) <= set(HEAD_AT)
    for table in (thor_shapes.HEAD_SHAPES, thor_shapes.RING_SHAPES, thor_shapes.SPOUT_SHAPES):
        for values in table.values():
            assert all(0.0 < v <= 1.0 for v in values)


def _room(imported: bool) -> Scene:
    counter = SceneObject("CounterTop", (0.0, COUNTER_TOP, 1.0), Box((-1.0, 0.0, 0.7), (1.0, COUNTER_TOP, 1.3)))
    watch = SceneObject("Watch", (0.0, COUNTER_TOP, 1.0),
                        Box((-0.06, COUNTER_TOP, 0.94), (0.06, COUNTER_TOP + 0.04, 1.06)),
                        name="Watch_1", parent=counter.object_id)
    return walled_room([counter, watch], Pose(0.0, 0.25, 0, 30), name="FloorPlan3" if imported else "LitePlan3",
                       camera=ALFRED_CAMERA if imported else None)


def _watch_pixels(imported: bool) -> int:
    from alfred_gen.sim import pixels

    pixels.forget_shapes()
    sim = LiteController(_room(imported), render_image=False, render_object_image=True)
    event = sim.last_event
    target = next(o["objectId"] for o in event.metadata["objects"] if o["objectType"] == "Watch")
    return int(event.instance_masks[target].sum())


def test_an_imported_room_draws_the_ring_and_a_procedural_room_the_box(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(thor_shapes.RING_SHAPES, "Watch", raising=False)
    whole_imported, whole_procedural = _watch_pixels(True), _watch_pixels(False)
    monkeypatch.setitem(thor_shapes.RING_SHAPES, "Watch", (0.15, 0.5))
    assert 0 < _watch_pixels(True) < whole_imported
    assert _watch_pixels(False) == whole_procedural



def test_a_pans_body_is_drawn_hollow_at_its_end_and_its_handle_beyond() -> None:
    box = Box((0.0, 0.9, 0.0), (0.28, 0.95, 0.43))
    parts = head_on_handle(box, 0, (0, 1), 0.65, 0.15, "Pan")
    assert parts is not None
    *body, (handle, _) = parts
    assert len(body) > 1  # a basin's floor and walls, so what lies in the pan is seen
    assert min(p.lo[2] for p, _ in body) >= 0.43 * 0.35 - 1e-9
    assert handle.hi[2] == pytest.approx(0.43 * 0.35)


@pytest.mark.parametrize("yaw", [0, 180])
def test_a_knife_is_drawn_flat_short_of_thors_tapered_ends(yaw: int) -> None:
    # THOR's knife spans own x -0.18 to +0.12 m of its origin, narrowing to its tip and handle: the
    # slab stops short of both ends, and covers 3.5 cm each side it may have fallen to.
    box = loose_box("Knife", (0.0, COUNTER_TOP, 0.0), float(yaw), 0.0)
    parts = thor_parts("Knife", box, yaw)
    assert parts is not None and len(parts) == 1
    drawn = parts[0][0]
    own_lo, own_hi = (drawn.lo[0], drawn.hi[0]) if yaw == 0 else (-drawn.hi[0], -drawn.lo[0])
    assert own_lo == pytest.approx(-0.157, abs=0.005) and own_hi == pytest.approx(0.110, abs=0.005)
    assert drawn.lo[2] == pytest.approx(-0.035) and drawn.hi[2] == pytest.approx(0.035)
    # From 1.5 cm under the box (THOR's knife lies below its origin) to 5 mm over its bottom.
    assert drawn.lo[1] == pytest.approx(COUNTER_TOP - 0.015) and drawn.hi[1] == pytest.approx(COUNTER_TOP + 0.005)


def test_a_flat_slab_turned_across_its_box_falls_back_to_lites_shape() -> None:
    assert lying_flat(ALONG_X, 90, 0.0, 1.0, 0.01, 0.01) is None


def _knife_columns(imported: bool, across: tuple[float, ...] = ()) -> tuple[int, int]:
    """First and last image column of a knife lying along the agent's view (yaw 90: own x along z,
    own +z along +x, to the right in the frame), straight ahead of it (column 150), in an imported
    or a procedural room; ``across``: its room's fitted band (:attr:`SceneObject.blade_across`)."""
    from alfred_gen.sim import pixels

    pixels.forget_shapes()
    room = _room(imported)
    counter = room.objects[0]
    at = (0.0, COUNTER_TOP, 1.0)
    knife = SceneObject("Knife", at, loose_box("Knife", at, 90.0, 0.0), name="Knife_1", parent=counter.object_id,
                        rotation=(0.0, 90.0, 0.0), blade_across=across)
    room.objects[1:] = [knife]
    sim = LiteController(room, render_image=False, render_object_image=True)
    event = sim.last_event
    target = next(o["objectId"] for o in event.metadata["objects"] if o["objectType"] == "Knife")
    columns = event.instance_masks[target].any(axis=0).nonzero()[0]
    return int(columns.min()), int(columns.max())


def test_an_imported_room_draws_the_knife_over_both_sides_it_may_have_fallen_to() -> None:
    # THOR lets a knife posed on its edge fall flat 3-7 cm to either side of its origin. The knife
    # here rests on the counter (as lite puts one down): the slab's top still shows above it.
    lo, hi = _knife_columns(True)
    assert lo <= 145 and hi >= 155
    lo, hi = _knife_columns(False)
    assert lo > 145 and hi < 155


def test_a_knife_whose_room_shows_its_side_is_drawn_lying_there_and_only_in_an_imported_room() -> None:
    # Own +z turns to world +x at yaw 90: right of the middle column; own -z to its left.
    lo, hi = _knife_columns(True, (0.02, 0.07))
    assert lo > 150 and hi >= 155
    lo, hi = _knife_columns(True, (-0.07, -0.02))
    assert hi < 150 and lo <= 145
    lo, hi = _knife_columns(True, (-0.01, 0.01))
    assert lo > 145 and hi < 155
    assert _knife_columns(False, (0.02, 0.07)) == _knife_columns(False)


@pytest.mark.parametrize("yaw", [0, 90, 180, 270])
def test_a_blades_band_turns_with_its_yaw(yaw: int) -> None:
    box = loose_box("Knife", (0.0, COUNTER_TOP, 0.0), float(yaw), 0.0)
    parts = thor_parts("Knife", box, yaw, (0.02, 0.07))
    assert parts is not None
    drawn = parts[0][0]
    # Own +z is world +z at yaw 0, +x at 90, -z at 180, -x at 270.
    axis, sign = {0: (2, 1), 90: (0, 1), 180: (2, -1), 270: (0, -1)}[yaw]
    middle = (box.lo[axis] + box.hi[axis]) / 2.0
    near, far = sorted((sign * (drawn.lo[axis] - middle), sign * (drawn.hi[axis] - middle)))
    assert near == pytest.approx(0.02) and far == pytest.approx(0.07)


def test_each_type_has_one_thor_shape_at_most() -> None:
    """thor_parts draws a type by the first table that names it: a type in two would lose one."""
    from itertools import combinations

    from alfred_gen.sim import thor_shapes

    tables = (thor_shapes.HEAD_SHAPES, thor_shapes.RING_SHAPES, thor_shapes.FLAT_SHAPES, thor_shapes.SPOUT_SHAPES,
              thor_shapes.SLICE_FACES, thor_shapes.THIN_SHAPES, thor_shapes.NARROW_TOPS,
              thor_shapes.FRUIT_HEIGHTS, thor_shapes.LAMP_SHAPES, thor_shapes.TABLE_BODIES)
    assert not [kind for a, b in combinations(tables, 2) for kind in set(a) & set(b)]


def test_a_faucet_fitted_to_its_masks_is_drawn_as_its_slab_and_an_unfitted_one_as_a_spout() -> None:
    slab = Box((0.0, 0.9, 0.0), (0.2, 1.2, 0.03))
    parts = thor_parts("Faucet", slab, 0)
    assert parts is not None and [p for p, _ in parts] == [slab]
    whole = Box((0.0, 0.9, 0.0), (0.25, 1.2, 0.25))
    assert thor_parts("Faucet", whole, 0) == neck_and_spout(whole, 0, *thor_shapes.SPOUT_SHAPES["Faucet"])
    assert slab_pattern(whole, thor_shapes.SLAB_PATTERNS["Faucet"]) is None


def test_a_faucet_s_own_pattern_draws_the_parts_of_its_slab_its_masks_fill() -> None:
    slab = Box((0.0, 0.9, 0.0), (0.2, 1.2, 0.03))
    parts = thor_parts("Faucet", slab, 0, (), (0.0, 1.0, 0.0, 0.2, 0.8, 1.0, 0.2, 1.0))
    assert parts is not None
    boxes = [p for p, _ in parts]
    assert boxes[0].lo == pytest.approx((0.0, 0.9, 0.0)) and boxes[0].hi == pytest.approx((0.2, 0.96, 0.03))
    assert boxes[1].lo == pytest.approx((0.16, 0.96, 0.0)) and boxes[1].hi == pytest.approx((0.2, 1.2, 0.03))


def test_a_slice_face_keeps_its_thickness_and_trims_across_and_in_height() -> None:
    # A tomato's slice cut along z: thin in z, its face across x.
    slice_box = Box((0.0, 0.9, 0.0), (0.12, 1.0, 0.02))
    [(part, _)] = thor_shapes.slice_face(slice_box, 0.8, 0.15, 0.7)
    assert part.lo[2] == slice_box.lo[2] and part.hi[2] == slice_box.hi[2]
    assert part.lo[0] == pytest.approx(0.012) and part.hi[0] == pytest.approx(0.108)
    assert part.lo[1] == pytest.approx(0.915) and part.hi[1] == pytest.approx(0.97)


def _slice_pixels(imported: bool, as_cut: bool) -> int:
    """Pixels of a tomato's first slice, cut on a counter straight ahead of the agent, lying in its
    row (``as_cut``) or not."""
    from alfred_gen.sim import pixels
    from alfred_gen.sim.actions import make_slices

    pixels.forget_shapes()
    room = _room(imported)
    at = (0.0, COUNTER_TOP, 1.0)
    tomato = SceneObject("Tomato", at, Box((-0.06, COUNTER_TOP, 0.94), (0.06, COUNTER_TOP + 0.1, 1.06)),
                         name="Tomato_1", parent=room.objects[0].object_id)
    room.objects[1:] = [tomato]
    sim = LiteController(room, render_image=False, render_object_image=True)
    world = sim.world
    first = make_slices(world, world.by_id[sim.last_event.metadata["objects"][1]["objectId"]])[0]
    assert first.lies_as_cut
    first.lies_as_cut = as_cut
    world.touch(first)
    event = sim.step({"action": "Pass"})
    return int(event.instance_masks[first.object_id].sum())


def test_an_imported_room_draws_a_slice_in_its_row_as_the_part_thor_shows_and_a_moved_one_whole() -> None:
    # THOR's masks of a slice still in its row cover the middle of lite's slab (a tomato's cap);
    # once picked up and put down alone, a slice shows whole.
    in_row, moved = _slice_pixels(True, True), _slice_pixels(True, False)
    assert 0 < in_row < moved
    assert _slice_pixels(False, True) == _slice_pixels(False, False)


def test_picking_up_a_slice_takes_it_out_of_its_row() -> None:
    from alfred_gen.sim.actions import make_slices

    room = _room(True)
    at = (0.0, COUNTER_TOP, 1.0)
    room.objects[1:] = [SceneObject("Tomato", at, Box((-0.06, COUNTER_TOP, 0.94), (0.06, COUNTER_TOP + 0.1, 1.06)),
                                    name="Tomato_1", parent=room.objects[0].object_id)]
    sim = LiteController(room, render_image=False, render_object_image=True)
    pieces = make_slices(sim.world, next(o for o in sim.world.objects if o.type_name == "Tomato"))
    event = sim.step({"action": "PickupObject", "objectId": pieces[0].object_id, "forceAction": True})
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    assert not pieces[0].lies_as_cut and all(p.lies_as_cut for p in pieces[1:])


def test_a_pencil_lying_is_drawn_its_whole_length_and_low() -> None:
    # THOR's masks of a pencil run the box's whole length: lite's pencil shrunk about its middle
    # fell short of both ends.
    pencil = Box((0.0, 0.9, 0.0), (0.2, 0.92, 0.02))
    parts = thor_parts("Pencil", pencil, 0)
    assert parts is not None
    [(strip, _)] = parts
    assert strip.lo[0] == pytest.approx(0.0) and strip.hi[0] == pytest.approx(0.2)
    assert strip.lo[2] == pytest.approx(0.001) and strip.hi[2] == pytest.approx(0.019)
    assert strip.lo[1] == pytest.approx(0.89) and strip.hi[1] == pytest.approx(0.90)
    assert "Pencil" not in DRAWN_SCALE


def test_a_lying_pen_or_pencil_is_drawn_under_its_origin() -> None:
    # THOR's origin of a lying pen sits about 1 cm over the body its masks show: the strip starts
    # THIN_SHAPES' last value under the box's bottom, and a standing pen keeps its box.
    for object_type in ("Pen", "Pencil"):
        below = thor_shapes.THIN_SHAPES[object_type][3]
        assert below > 0.0
        [(strip, _)] = thor_parts(object_type, Box((0.0, 0.9, 0.0), (0.2, 0.91, 0.01)), 0) or []
        assert strip.lo[1] == pytest.approx(0.9 - below)
    standing = Box((0.0, 0.9, 0.0), (0.01, 1.04, 0.01))
    assert [p for p, _ in thor_parts("Pen", standing, 0) or []] == [standing]


def test_a_pen_standing_in_a_cup_keeps_its_height() -> None:
    pen = Box((0.0, 0.9, 0.0), (0.01, 1.04, 0.01))
    parts = thor_parts("Pen", pen, 0)
    assert parts is not None and [p for p, _ in parts] == [pen]
    lying = thor_parts("Pen", Box((0.0, 0.9, 0.0), (0.14, 0.91, 0.01)), 90)
    assert lying is not None and lying[0][0].hi[1] == pytest.approx(0.902 - thor_shapes.THIN_SHAPES["Pen"][3])


def test_a_key_chain_is_drawn_low_in_its_box_and_a_spatula_its_full_height() -> None:
    # THOR's key chain lies flat: drawn its box's full height, its sides covered pixels round it.
    box = Box((0.0, 0.9, 0.0), (0.1, 0.94, 0.05))
    for object_type in ("KeyChain", "Spatula"):
        parts = thor_parts(object_type, box, 0)
        assert parts is not None and all(p.lo[1] == pytest.approx(0.9) for p, _ in parts)
        top = max(p.hi[1] for p, _ in parts)
        assert (top < 0.94) == (object_type == "KeyChain")


@pytest.mark.parametrize(("object_type", "height"), [("Spoon", 0.5), ("Ladle", 0.25)])
def test_a_spoon_or_a_ladle_is_drawn_low_in_its_box(object_type: str, height: float) -> None:
    # THOR's spoon and ladle lie flat, lower than their boxes: drawn their full height, their
    # sides covered pixels round THOR's masks.
    box = Box((0.0, 0.9, 0.0), (0.2, 0.98, 0.06))
    parts = thor_parts(object_type, box, 0)
    assert parts is not None and all(p.lo[1] == pytest.approx(0.9) for p, _ in parts)
    assert max(p.hi[1] for p, _ in parts) == pytest.approx(0.9 + 0.08 * height)


def test_a_watchs_ring_is_drawn_low_with_thick_walls() -> None:
    box = Box((0.0, 0.9, 0.0), (0.08, 0.94, 0.05))
    parts = thor_parts("Watch", box, 0)
    assert parts is not None and len(parts) == 4
    assert max(p.hi[1] for p, _ in parts) == pytest.approx(0.912)
    assert min(p.size[0] for p, _ in parts) == pytest.approx(0.02)


def test_an_apple_is_drawn_in_its_round_shape_lower_than_its_box() -> None:
    box = Box((0.0, 0.9, 0.0), (0.1, 1.0, 0.1))
    parts = thor_parts("Apple", box, 0)
    assert parts is not None and {tone for _, tone in parts} == {tone for _, tone in shape_parts("Apple", box)}
    lo = [min(p.lo[k] for p, _ in parts) for k in range(3)]
    hi = [max(p.hi[k] for p, _ in parts) for k in range(3)]
    assert lo[1] == pytest.approx(0.9) and 0.9 < hi[1] < 1.0
    assert (lo[0] + hi[0]) / 2.0 == pytest.approx(0.05) and (lo[2] + hi[2]) / 2.0 == pytest.approx(0.05)


def test_a_spray_bottle_is_drawn_full_below_and_narrow_above_about_its_middle() -> None:
    # THOR's spray bottle is a narrow body under a trigger reaching out to its box's side; its foot
    # stays as wide as lite drew it, so a bottle seen only by its foot stays in view.
    from alfred_gen.sim.shapes import drawn_box

    bottle = Box((0.0, 0.9, 0.0), (0.1, 1.2, 0.2))
    parts = thor_parts("SprayBottle", bottle, 0)
    assert parts is not None
    (foot, _), (top, _) = sorted(parts, key=lambda part: part[0].lo[1])
    assert foot == Box(drawn_box("SprayBottle", bottle).lo, (foot.hi[0], foot.hi[1], foot.hi[2]))
    assert foot.lo[1] == pytest.approx(0.9) and foot.hi[1] == pytest.approx(top.lo[1])
    assert top.hi[1] == pytest.approx(1.2)
    assert (top.lo[0] + top.hi[0]) / 2.0 == pytest.approx(0.05)
    assert (top.lo[2] + top.hi[2]) / 2.0 == pytest.approx(0.1)
    assert top.size[0] < foot.size[0] and top.size[2] < foot.size[2]
    assert has_thor_shape("SprayBottle")


def test_a_scrub_brush_is_a_low_holder_under_a_thin_handle() -> None:
    # A roll lying on THOR's holder (FloorPlan423) must not be hidden by the brush's whole box.
    brush = Box((0.0, 0.0, 0.0), (0.132, 0.476, 0.134))
    parts = thor_parts("ScrubBrush", brush, 0)
    assert parts is not None
    (holder, _), (handle, _) = sorted(parts, key=lambda part: part[0].lo[1])
    assert holder.lo == brush.lo and holder.hi[1] < 0.111
    assert handle.hi[1] == pytest.approx(0.476) and handle.size[0] < 0.05 and handle.size[2] < 0.05
    assert (handle.lo[0] + handle.hi[0]) / 2.0 == pytest.approx(0.066)


def test_a_tomato_slice_in_its_row_is_drawn_short_of_its_bottom_and_top() -> None:
    # THOR's masks of a tomato slice in its row cover a band of its face, not its rim below or above.
    slice_box = Box((0.0, 0.9, 0.0), (0.12, 1.0, 0.02))
    parts = thor_parts("TomatoSliced", slice_box, 0)
    assert parts is not None
    [(face, _)] = parts
    assert face.lo[1] == pytest.approx(0.915) and face.hi[1] == pytest.approx(0.985)


@pytest.mark.parametrize(("whole_type", "last"), [("Tomato", 6), ("Lettuce", 7)])
def test_a_last_slice_is_drawn_as_a_lower_cap_than_the_slices_before_it(whole_type: str, last: int) -> None:
    # THOR's last tomato slice is the end cap: seen from its end it covers a third of the face lite
    # drew; a lettuce's is its heel, over which THOR's agents see and pick slice 6.
    slice_box = Box((0.0, 0.9, 0.0), (0.12, 1.0, 0.02))
    whole = f"{whole_type}|+00.10|+00.90|+00.20"
    sliced = f"{whole_type}Sliced"
    [(middle, _)] = thor_parts(sliced, slice_box, 0, object_id=f"{whole}|{sliced}_{last - 1}") or []
    [(cap, _)] = thor_parts(sliced, slice_box, 0, object_id=f"{whole}|{sliced}_{last}") or []
    assert cap.lo[1] == pytest.approx(middle.lo[1], abs=0.01)  # it still stands on the board
    assert cap.size[0] == pytest.approx(middle.size[0])  # as wide: narrower, it hid behind slice 5
    assert cap.hi[1] < middle.hi[1] - 0.01
    assert (cap.lo[2], cap.hi[2]) == (middle.lo[2], middle.hi[2])  # as thick along the row


@pytest.mark.parametrize("lamp", ["DeskLamp", "FloorLamp"])
def test_a_lamp_is_drawn_as_a_shade_narrower_than_its_box_over_a_stem_and_base(lamp: str) -> None:
    # THOR's lamp shades are narrower than their boxes (lite's masks of them had 1.2-1.8 times THOR's
    # pixels); a desk lamp's shade also ends below its box's top and narrows towards it.
    box = Box((0.0, 0.7, 0.0), (0.3, 1.2, 0.3))
    parts = thor_parts(lamp, box, 90)
    assert parts is not None and has_thor_shape(lamp)
    boxes = sorted((p for p, _ in parts), key=lambda b: b.lo[1])
    assert boxes[0].lo[1] == pytest.approx(0.7)  # the base stands on the box's bottom
    shades = [b for b in boxes if b.size[0] > 0.2 * 0.3 + 1e-9 and b.lo[1] > 0.75]
    assert shades and all(b.size[0] < 0.3 * 0.9 and b.size[2] < 0.3 * 0.9 for b in shades)
    for b in boxes:  # centred in the footprint, inside the box
        assert (b.lo[0] + b.hi[0]) / 2.0 == pytest.approx(0.15) and (b.lo[2] + b.hi[2]) / 2.0 == pytest.approx(0.15)
        assert b.hi[1] <= 1.2 + 1e-9
    widths = [b.size[0] for b in sorted(shades, key=lambda b: b.lo[1])]
    assert widths == sorted(widths, reverse=True)  # no wider above than below


def _whole_on_counter(imported: bool, whole: str, half: tuple[float, float], height: float,
                      yaw: float | None = None, images: bool = False) -> tuple[LiteController, WorldObject]:
    """A room with one ``whole`` (its box ``half`` (x, z) about (0, 1), ``height`` tall) on the middle
    of its counter, turned to ``yaw`` when given: the room's controller and the whole."""
    room = _room(imported)
    box = Box((-half[0], COUNTER_TOP, 1.0 - half[1]), (half[0], COUNTER_TOP + height, 1.0 + half[1]))
    room.objects[1:] = [SceneObject(whole, (0.0, COUNTER_TOP, 1.0), box, name=f"{whole}_1",
                                    parent=room.objects[0].object_id)]
    sim = LiteController(room, render_image=False, render_object_image=images)
    obj = next(o for o in sim.world.objects if o.type_name == whole)
    if yaw is not None:
        sim.world.set_rotation(obj, yaw)
    return sim, obj


def _apple_slice_middles(imported: bool, yaw: float) -> list[tuple[float, float]]:
    """(x, z) of each slice of an apple on the middle of a counter at (0, 1), turned to ``yaw`` (its
    own x a little longer than its own z: its row runs along its own x)."""
    from alfred_gen.sim.actions import make_slices

    sim, apple = _whole_on_counter(imported, "Apple", (0.051, 0.05), 0.1, yaw)
    return [(p.center[0], p.center[2]) for p in make_slices(sim.world, apple)]


def test_an_imported_rooms_apple_slices_lie_off_its_middle_to_its_own_minus_z() -> None:
    # THOR's apple halves lie 0.015 m to the apple's own -z (the masks' centroids); the row runs
    # along its own x, and the offset turns with the apple. Procedural rooms lay them on the middle.
    plain = _apple_slice_middles(False, 0.0)
    assert all(z == pytest.approx(1.0) for _, z in plain)
    assert all(z == pytest.approx(0.985) for _, z in _apple_slice_middles(True, 0.0))
    assert [x for x, _ in _apple_slice_middles(True, 0.0)][:2] == pytest.approx([0.0255, -0.0255])
    # A quarter turn takes own -z to world -x; the row then runs along world z.
    assert all(x == pytest.approx(-0.015) for x, _ in _apple_slice_middles(True, 90.0))


def test_an_imported_rooms_apple_is_cut_into_two_halves_with_its_other_slices_inside() -> None:
    # THOR's slices 1 and 2 of an apple are its halves (no demo picks up slices 3-8): in an imported
    # room slice 1 fills the apple's own +x half and slice 2 its -x half; the others lie at the
    # middle, inside them. A procedural room keeps 8 slabs spread along the row.
    from alfred_gen.sim.actions import make_slices

    def pieces(imported: bool) -> list[WorldObject]:
        room = _room(imported)
        room.objects[1:] = [SceneObject("Apple", (0.0, COUNTER_TOP, 1.0),
                                        Box((-0.051, COUNTER_TOP, 0.95), (0.051, COUNTER_TOP + 0.1, 1.05)),
                                        name="Apple_1", parent=room.objects[0].object_id)]
        sim = LiteController(room, render_image=False, render_object_image=False)
        return make_slices(sim.world, next(o for o in sim.world.objects if o.type_name == "Apple"))

    def span(piece: WorldObject) -> tuple[float, float]:
        return piece.center[0] - piece.size[0] / 2, piece.center[0] + piece.size[0] / 2

    first, second, *inner = pieces(True)
    assert span(first) == pytest.approx((0.0, 0.051))
    assert span(second) == pytest.approx((-0.051, 0.0))
    assert all(abs(p.center[0]) + p.size[0] / 2 < 0.051 for p in inner)
    assert all(p.size[0] == pytest.approx(0.102 / 8) for p in pieces(False))


def test_a_round_slice_face_is_a_cross_without_the_rectangles_corners() -> None:
    # An apple's slice cut along z: thin in z, its face across x (0.1 wide, 0.1 tall).
    slice_box = Box((0.0, 0.9, 0.0), (0.1, 1.0, 0.0125))
    [(face, _)] = thor_shapes.slice_face(slice_box, 0.8, 0.15, 1.0)
    tall, wide = (part for part, _ in thor_shapes.slice_face(slice_box, 0.8, 0.15, 1.0, 0.6))
    assert tall.lo[1] == face.lo[1] and tall.hi[1] == face.hi[1]
    assert tall.lo[0] == pytest.approx(0.026) and tall.hi[0] == pytest.approx(0.074)
    assert wide.lo[0] == face.lo[0] and wide.hi[0] == face.hi[0]
    assert wide.lo[1] == pytest.approx(0.932) and wide.hi[1] == pytest.approx(0.983)
    assert all(p.lo[2] == slice_box.lo[2] and p.hi[2] == slice_box.hi[2] for p in (tall, wide))
    parts = thor_parts("AppleSliced", slice_box, 0, object_id="Apple|1|2|3|AppleSliced_1")
    assert parts is not None and len(parts) == 2


def test_a_side_table_is_drawn_with_a_body_under_its_top_and_a_dining_table_on_legs_alone() -> None:
    box = Box((0.0, 0.0, 0.0), (0.5, 0.7, 0.5))
    parts = thor_parts("SideTable", box, 0)
    assert parts is not None
    share = thor_shapes.TABLE_BODIES["SideTable"]
    bodies = [p for p, _ in parts if p.lo[0] == 0.0 and p.hi[0] == 0.5 and p.lo[2] == 0.0 and p.hi[2] == 0.5
              and p.hi[1] == pytest.approx(0.7) and p.lo[1] == pytest.approx(0.7 * (1 - share))]
    assert len(bodies) == 1  # the whole footprint, from the top down the body's share
    assert len(parts) == len(shape_parts("SideTable", box)) + 1  # lite's top and legs stay
    assert thor_parts("DiningTable", box, 0) is None


def test_a_whole_round_thing_is_drawn_without_its_boxs_vertical_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ROUND_WHOLES type keeps its drawn box's extent and height but not the corners of its
    footprint; its box (what it rests on, what rests on it) is not this drawing's to change."""
    monkeypatch.setitem(thor_shapes.ROUND_WHOLES, "Mug", 0.6)
    box = Box((0.0, 0.9, 0.0), (0.1, 1.0, 0.1))
    parts = thor_parts("Mug", box, 0)
    assert parts is not None
    whole = shape_parts("Mug", box)
    for k in range(3):
        assert min(p.lo[k] for p, _ in parts) == pytest.approx(min(p.lo[k] for p, _ in whole))
        assert max(p.hi[k] for p, _ in parts) == pytest.approx(max(p.hi[k] for p, _ in whole))
    corner = (0.011, 0.95, 0.011)  # inside the drawn box's footprint, 0.1 of it from two sides
    assert any(all(p.lo[k] <= corner[k] <= p.hi[k] for k in range(3)) for p, _ in whole)
    assert not any(all(p.lo[k] <= corner[k] <= p.hi[k] for k in range(3)) for p, _ in parts)
    assert has_thor_shape("Mug")


def test_an_end_cap_put_down_is_drawn_as_a_cap_and_other_slices_as_their_slab(monkeypatch: pytest.MonkeyPatch) -> None:
    # THOR's last slice of a tomato is a small cap wherever it lies: picked up and put down, lite
    # draws it trimmed by LONE_CAPS, where any other slice put down is drawn as its whole slab.
    monkeypatch.setitem(thor_shapes.LONE_CAPS, "TomatoSliced", (0.5, 0.0, 0.5))
    slab = Box((0.0, 0.9, 0.0), (0.1, 1.0, 0.02))
    cap, middle = "Tomato|+00.84|+00.95|+00.53|TomatoSliced_6", "Tomato|+00.84|+00.95|+00.53|TomatoSliced_5"
    assert thor_shapes.thor_shaped("TomatoSliced", False, cap)
    assert not thor_shapes.thor_shaped("TomatoSliced", False, middle)
    parts = thor_parts("TomatoSliced", slab, 0, object_id=cap, alone=True)
    assert parts is not None and len(parts) == 1
    drawn = parts[0][0]
    assert drawn.lo == pytest.approx((0.025, 0.9, 0.0)) and drawn.hi == pytest.approx((0.075, 0.95, 0.02))
    # In its row the cap keeps END_CAPS' and SLICE_FACES' trim.
    assert thor_parts("TomatoSliced", slab, 0, object_id=cap) != parts


def _bread_slice_middles(imported: bool, yaw: float, whole: str = "Bread") -> list[tuple[float, float]]:
    """(x, z) of each slice of a loaf (or another ``whole`` in its box) on the middle of a counter at
    (0, 1), turned to ``yaw`` (its row along its own z)."""
    from alfred_gen.sim.actions import make_slices

    sim, loaf = _whole_on_counter(imported, whole, (0.08, 0.15), 0.14, yaw)
    return [(p.center[0], p.center[2]) for p in make_slices(sim.world, loaf)]


def test_an_imported_rooms_slices_lie_along_the_wholes_own_yaw_not_its_nearest_quarter_turn() -> None:
    # THOR lays slices along the whole's yaw: FloorPlan12's loaf at yaw 302.5 has its slice 4 at own
    # (-0.07, -0.13) once the quarter turn is undone, (0.01, -0.15) once the whole yaw is. Lite's boxes
    # keep the quarter turn; the slices' middles turn about the origin by the rest (32.5 degrees).
    square = _bread_slice_middles(True, 0.0)
    assert all(x == pytest.approx(0.0) for x, _ in square)
    turned = _bread_slice_middles(True, 32.5)
    for (x0, z0), (x, z) in zip(square, turned):
        assert math.hypot(x, z - 1.0) == pytest.approx(math.hypot(x0, z0 - 1.0))
        if z0 < 1.0:  # towards own -z: turned towards world -x
            assert x < 0 and x / (z - 1.0) == pytest.approx(math.tan(math.radians(32.5)))
    # A procedural room keeps its slices on the quarter turn's row.
    plain = [c for middle in _bread_slice_middles(False, 0.0) for c in middle]
    assert [c for middle in _bread_slice_middles(False, 32.5) for c in middle] == pytest.approx(plain)


def test_an_imported_rooms_slices_of_every_type_turn_and_are_drawn_turned_until_picked_up() -> None:
    # Every whole's row turns with its yaw (s97's cast centroids), and each slab is drawn turned by the
    # rest (cut_turn): left axis-aligned, overlapping slabs laid along a diagonal hid one another
    # (FloorPlan22's potato slice 2, FloorPlan6's tomato slice 6).
    from alfred_gen.sim.actions import make_slices

    for whole in ("Tomato", "Potato", "Lettuce", "Bread"):
        square = _bread_slice_middles(True, 0.0, whole)
        turned = _bread_slice_middles(True, 32.5, whole)
        for (x0, z0), (x, z) in zip(square, turned):
            assert math.hypot(x, z - 1.0) == pytest.approx(math.hypot(x0, z0 - 1.0))
        assert any(abs(x) > 0.005 for x, _ in turned)
    sim, tomato = _whole_on_counter(True, "Tomato", (0.06, 0.06), 0.1, 40.0, images=True)
    pieces = make_slices(sim.world, tomato)
    assert all(p.cut_turn == pytest.approx(40.0) for p in pieces)
    event = sim.step({"action": "PickupObject", "objectId": pieces[0].object_id, "forceAction": True})
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    assert pieces[0].cut_turn == 0.0 and all(p.cut_turn == pytest.approx(40.0) for p in pieces[1:])
    # A procedural room keeps its quarter turn's row, drawn unturned.
    plain = [c for middle in _bread_slice_middles(False, 0.0, "Tomato") for c in middle]
    assert [c for middle in _bread_slice_middles(False, 32.5, "Tomato") for c in middle] == pytest.approx(plain)


def test_a_slice_lying_as_cut_is_drawn_turned_by_its_cut_turn() -> None:
    from alfred_gen.sim.actions import make_slices
    from alfred_gen.sim.pixels import PixelSight

    sim, loaf = _whole_on_counter(True, "Bread", (0.08, 0.15), 0.14, images=True)
    piece = make_slices(sim.world, loaf)[3]

    def drawn() -> tuple[int, float]:
        sim.world.touch(piece)
        boxes = PixelSight().layers(sim.world).scene_boxes
        mine = boxes.owner == boxes.owners.index(piece.object_id)
        return int(mine.sum()), float(((boxes.hi - boxes.lo)[mine][:, [0, 2]].prod(axis=1)).sum())

    count, area = drawn()
    piece.cut_turn = 30.0
    turned_count, turned_area = drawn()
    assert turned_count > count and turned_area == pytest.approx(area, rel=0.1)
