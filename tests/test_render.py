"""Tests of the `lite` renderer: geometry, depth, segmentation, visibility, shapes, determinism.

A few frames of a small furnished kitchen are written to tests/_artifacts/ (RGB, depth, instance
segmentation) for people to look at.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.palette import object_color, owner_colors, type_color
from alfred_gen.sim.render import (
    FAR_DEPTH,
    BoxList,
    BoxListBuilder,
    box_distances,
    instance_outputs,
    render,
    segmentation_frame,
    shell_as_boxes,
    visible_owners,
    visible_pixel_counts,
)
from alfred_gen.sim.scene import AGENT_Y, Box, format_object_id
from alfred_gen.sim.shapes import DOOR, OPENABLE_SHAPES, content_offset, hinged_at_high_end, shape_boxes, shape_parts

ARTIFACTS = Path(__file__).parent / "_artifacts"
EYE = AGENT_Y + 0.675

FRIDGE = Box((0.10, 0.0, 3.20), (0.85, 1.80, 3.95))
LETTUCE_IN_FRIDGE = Box((0.38, 0.60, 3.45), (0.56, 0.76, 3.63))
COUNTER = Box((1.00, 0.0, 3.35), (3.00, 0.90, 4.00))
APPLE = Box((1.40, 0.90, 3.60), (1.48, 0.99, 3.68))
TABLE = Box((1.50, 0.0, 1.20), (2.50, 0.75, 2.00))
MUG = Box((1.70, 0.75, 1.50), (1.80, 0.85, 1.60))
BREAD = Box((2.05, 0.75, 1.45), (2.30, 0.87, 1.57))
CHAIR = Box((1.80, 0.0, 0.65), (2.20, 0.95, 1.05))


def oid(object_type: str, box: Box) -> str:
    return format_object_id(object_type, box.center)


def kitchen(fridge_open: bool = False, extra: list[tuple[str, Box]] = ()) -> BoxList:
    """A 4 x 4 m kitchen: fridge (lettuce inside), counter with an apple, table with mug and bread."""
    builder = BoxListBuilder()
    builder.set_room(Box((0.0, 0.0, 0.0), (4.0, 2.6, 4.0)))
    builder.add_object("Fridge", oid("Fridge", FRIDGE), FRIDGE, is_open=fridge_open, facing=180)
    builder.add_object("CounterTop", oid("CounterTop", COUNTER), COUNTER, facing=180)
    builder.add_object("DiningTable", oid("DiningTable", TABLE), TABLE)
    builder.add_object("Chair", oid("Chair", CHAIR), CHAIR, facing=0)
    for object_type, box in [("Lettuce", LETTUCE_IN_FRIDGE), ("Apple", APPLE), ("Mug", MUG), ("Bread", BREAD), *extra]:
        builder.add_object(object_type, oid(object_type, box), box)
    return builder.build()


# ---------------------------------------------------------------------------------------------
# A brute-force reference: every box against every pixel's ray, in float64.


def reference_render(camera: Camera, boxes: BoxList) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Depth (FAR where nothing), owner (-1 where nothing), and a mask of pixels with a depth tie."""
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    dirs = forward + cols[None, :, None] * right + rows[:, None, None] * up
    origin = camera.position
    with np.errstate(divide="ignore"):
        inverse = 1.0 / dirs
    best = np.full(dirs.shape[:2], np.inf)
    second = np.full(dirs.shape[:2], np.inf)
    owner = np.full(dirs.shape[:2], -1)
    for k in range(len(boxes)):
        with np.errstate(invalid="ignore"):
            t1 = (boxes.lo[k] - origin) * inverse
            t2 = (boxes.hi[k] - origin) * inverse
        enter = np.minimum(t1, t2).max(axis=2)
        leave = np.maximum(t1, t2).min(axis=2)
        hit = (enter <= leave) & (enter >= 0.1) & (enter <= 20.0)
        depth = np.where(hit, enter, np.inf)
        nearer = depth < best
        second = np.where(nearer, best, np.minimum(second, depth))
        best = np.where(nearer, depth, best)
        owner = np.where(nearer, boxes.owner[k], owner)
    tie = np.isclose(best, second, rtol=1e-6, atol=1e-6) & np.isfinite(best)
    return np.where(np.isfinite(best), best, FAR_DEPTH), owner, tie


POSES = [
    (2.0, 2.5, 0, 30), (2.0, 2.5, 0, 0), (2.0, 2.5, 0, 60), (1.0, 2.75, 0, 30), (0.5, 2.25, 0, 15),
    (3.0, 2.5, 270, 30), (2.0, 0.5, 0, 45), (3.5, 1.5, 270, 0), (2.0, 3.0, 180, 30), (1.0, 1.0, 90, -30),
    (0.25, 0.25, 90, 0), (3.75, 3.75, 180, 60),
]


@pytest.mark.slow  # ~10 s each on a busy 2-core machine (the fast lane's --durations)
@pytest.mark.parametrize("fridge_open, size", [(False, (160, 120)), (True, (160, 120)), (True, (75, 51))])
def test_renderer_agrees_with_brute_force_reference(fridge_open, size):
    """Exact depth and owner of every pixel, from many poses; ties may go either way.

    Odd sizes have a centre row/column whose ray runs exactly along a plane's axis.
    """
    boxes = kitchen(fridge_open)
    reference_boxes = shell_as_boxes(boxes, thickness=0.2)
    for x, z, rotation, horizon in POSES:
        camera = Camera(x, EYE, z, rotation, horizon, width=size[0], height=size[1])
        frames = render(camera, boxes)
        depth, owner, tie = reference_render(camera, reference_boxes)
        assert np.allclose(frames.depth, depth, rtol=2e-7, atol=1e-6), (x, z, rotation, horizon)
        differ = (frames.owner != owner) & ~tie
        assert not differ.any(), ((x, z, rotation, horizon), int(differ.sum()))


@pytest.mark.slow  # ~11 s each on a busy 2-core machine (the fast lane's --durations)
def test_random_boxes_agree_with_reference():
    """Random overlapping boxes, some straddling the camera's planes and the near plane."""
    rng = np.random.default_rng(7)
    builder = BoxListBuilder()
    for k in range(60):
        centre = rng.uniform([-3, -1, -3], [3, 3, 3])
        size = rng.uniform(0.02, 1.5, size=3)
        builder.add(centre - size / 2, centre + size / 2, (100, 100, 100), f"Thing|{k}")
    builder.add((-0.3, 1.0, -0.3), (0.3, 1.2, 0.3), (1, 2, 3), "AroundCamera")  # camera inside
    builder.add((0.04, 0.0, -1.0), (0.5, 3.0, 1.0), (1, 2, 3), "GrazingNear")  # 4 cm to the side
    boxes = builder.build()
    for rotation in (0, 90, 180, 270):
        for horizon in (-30, 0, 30, 60):
            camera = Camera(0.0, 1.1, 0.0, rotation, horizon, width=120, height=90)
            frames = render(camera, boxes)
            depth, owner, tie = reference_render(camera, boxes)
            near_plane = depth < 0.2  # within a few cm of the near plane, clipping is approximate
            assert np.allclose(frames.depth[~near_plane], depth[~near_plane], rtol=2e-7, atol=1e-6)
            assert not ((frames.owner != owner) & ~tie & ~near_plane).any(), (rotation, horizon)


# ---------------------------------------------------------------------------------------------
# Depth


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_depth_of_a_face_at_known_distance(rotation):
    """A wall 2 m ahead reads 2.0 m at the centre pixel and over the whole face: z-depth."""
    forward = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}[rotation]
    face_x, face_z = 5.0 + 2.0 * forward[0], 5.0 + 2.0 * forward[1]
    half = np.array([1.5 if forward[0] == 0 else 0.0, 0.0, 1.5 if forward[1] == 0 else 0.0])
    centre = np.array([face_x, 1.0, face_z])
    depth_dir = np.array([forward[0], 0.0, forward[1]])
    lo = np.minimum(centre - half, centre - half + 0.5 * depth_dir) - np.array([0, 1.0, 0])
    hi = np.maximum(centre + half, centre + half + 0.5 * depth_dir) + np.array([0, 1.0, 0])
    builder = BoxListBuilder()
    builder.add(lo, hi, (200, 200, 200), "Wall")
    camera = Camera(5.0, 1.0, 5.0, rotation, 0.0)
    frames = render(camera, builder.build())
    assert frames.depth[149, 149] == np.float32(2.0)
    assert frames.depth[150, 150] == np.float32(2.0)
    on_face = frames.owner == 0
    # The face spans 3 m at 2 m distance: about 3/4 of the width at 90 degrees FOV.
    assert 0.7 < on_face[150].mean() < 0.8
    assert (frames.depth[on_face] == np.float32(2.0)).all()
    assert (frames.depth[~on_face] == FAR_DEPTH).all()


def test_depth_is_along_the_view_axis_not_the_ray_when_looking_down():
    """With a pitched camera, each hit point rebuilt from depth lies on the surface it hit."""
    boxes = kitchen()
    camera = Camera(2.0, EYE, 2.5, 0, 30)
    frames = render(camera, boxes)
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    floor = frames.owner == boxes.owners.index("Floor")
    assert floor.sum() > 5000
    r, c = np.nonzero(floor)
    points = camera.position + frames.depth[r, c, None].astype(np.float64) * (
        forward + cols[c, None] * right + rows[r, None] * up
    )
    assert np.abs(points[:, 1]).max() < 1e-5  # the floor is y = 0
    # And project() sends those points back to their pixels at the same depth.
    u, v, depth = camera.project(points)
    assert np.allclose(u, c + 0.5, atol=1e-3) and np.allclose(v, r + 0.5, atol=1e-3)
    assert np.allclose(depth, frames.depth[r, c], rtol=1e-6)


@pytest.mark.parametrize("horizon", [30, 60])
def test_looking_down_the_floor_is_nearer_at_the_bottom(horizon):
    builder = BoxListBuilder()
    builder.set_room(Box((0.0, 0.0, 0.0), (6.0, 2.6, 6.0)))
    camera = Camera(3.0, EYE, 1.0, 0, horizon)
    frames = render(camera, builder.build())
    column = frames.depth[:, 150]
    floor_rows = np.flatnonzero(frames.owner[:, 150] == frames.owners.index("Floor"))
    assert len(floor_rows) > 100 and floor_rows[-1] == 299
    assert (np.diff(column[floor_rows]) < 0).all()
    assert column[299] < column[floor_rows[0]]


def test_camera_conventions():
    """Rotation 0 looks along +z, 90 along +x; the right of the image is +x at rotation 0;
    positive horizon looks down."""
    camera = Camera(0.0, 1.5, 0.0, 0, 0)
    u, v, depth = camera.project(np.array([[0, 1.5, 2.0], [1.0, 1.5, 2.0], [0.0, 1.0, 2.0]]))
    assert np.allclose(depth, 2.0) and np.allclose(u[0], 150) and u[1] > 150 and v[2] > 150
    side = Camera(0.0, 1.5, 0.0, 90, 0)
    u, v, depth = side.project(np.array([[2.0, 1.5, 0.0], [2.0, 1.5, 1.0]]))
    assert np.allclose(depth, 2.0) and np.allclose(u[0], 150) and u[1] < 150  # +z is to the left
    down = Camera(0.0, 1.5, 0.0, 0, 30)
    _, v_level, _ = camera.project(np.array([0.0, 0.0, 2.0]))
    _, v_down, _ = down.project(np.array([0.0, 0.0, 2.0]))
    assert v_down < v_level  # looking down brings the floor spot up towards the centre


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_each_face_is_painted_with_the_shade_of_its_world_normal(rotation):
    """Rebuild each pixel's hit point from depth, find the face it lies on, check its colour."""
    from alfred_gen.sim.palette import SHADE_BY_NORMAL

    base = np.array([200, 120, 60])
    builder = BoxListBuilder()
    lo, hi = np.array([4.6, 0.0, 4.6]), np.array([5.4, 1.0, 5.4])
    builder.add(lo, hi, base, "Block|1")
    # Stand off to one side of the box's front, above it, looking down at it.
    back = {0: (-0.6, -1.6), 90: (-1.6, 0.6), 180: (0.6, 1.6), 270: (1.6, -0.6)}[rotation]
    camera = Camera(5.0 + back[0], 1.6, 5.0 + back[1], rotation, 30)
    frames = render(camera, builder.build())
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    r, c = np.nonzero(frames.owner == 0)
    points = camera.position + frames.depth[r, c, None].astype(np.float64) * (
        forward + cols[c, None] * right + rows[r, None] * up
    )
    interior = np.ones(len(r), bool)  # skip outline pixels (one pixel wide, darker by design)
    for dr, dc in ((-1, 0), (0, -1)):
        rr, cc = np.clip(r + dr, 0, 299), np.clip(c + dc, 0, 299)
        same = frames.owner[rr, cc] == 0
        interior &= same
    seen = set()
    for axis in range(3):
        for high, plane in ((0, lo[axis]), (1, hi[axis])):
            on_face = (np.abs(points[:, axis] - plane) < 1e-4) & interior
            if on_face.sum() < 30:
                continue
            seen.add((axis, high))
            expected = np.rint(base * SHADE_BY_NORMAL[axis][high]).astype(np.uint8)
            colors = frames.rgb[r[on_face], c[on_face]]
            # All but the pixels next to the face's own edges (outlines) carry the face colour.
            assert (colors == expected).all(axis=1).mean() > 0.85, (axis, high)
    assert (1, 1) in seen and len(seen) == 3  # the top and two side faces


def test_yaw_off_the_90_degree_grid_is_refused():
    with pytest.raises(ValueError, match="90-degree"):
        render(Camera(1.0, EYE, 1.0, 45, 0), kitchen())


# ---------------------------------------------------------------------------------------------
# Segmentation, masks, detections


def test_every_mask_equals_the_pixels_of_its_colour():
    boxes = kitchen(fridge_open=True)
    frames = render(boxes=boxes, camera=Camera(1.0, EYE, 2.25, 0, 30))
    out = instance_outputs(frames.owner, boxes.owners)
    seg = out.instance_segmentation_frame
    expected = {oid("Fridge", FRIDGE), oid("Lettuce", LETTUCE_IN_FRIDGE), oid("Apple", APPLE),
                oid("CounterTop", COUNTER)}
    assert expected <= set(out.instance_masks)
    for object_id, mask in out.instance_masks.items():
        color = np.array(out.object_id_to_color[object_id], np.uint8)
        assert (mask == (seg == color).all(axis=2)).all(), object_id
        assert out.color_to_object_id[tuple(color.tolist())] == object_id
    # Structure has colours but, as in THOR, no instance masks.
    assert "Floor" in out.object_id_to_color and "Floor" not in out.instance_masks
    colors = list(out.object_id_to_color.values())
    assert len(set(colors)) == len(colors)


def test_detections_are_thor_boxes_of_the_masks():
    boxes = kitchen(fridge_open=True)
    frames = render(Camera(1.0, EYE, 2.25, 0, 30), boxes)
    out = instance_outputs(frames.owner, boxes.owners)
    assert set(out.instance_detections2D) == set(out.instance_masks)
    for object_id, mask in out.instance_masks.items():
        rows, cols = np.nonzero(mask)
        assert out.instance_detections2D[object_id] == [cols.min(), rows.min() + 1, cols.max(), rows.max() + 1]


def _decompress(runs: list[list[int]], size: int = 300 * 300) -> np.ndarray:
    mask = np.zeros(size, bool)
    for start, length in runs:
        mask[start : start + length] = True
    return mask.reshape(300, 300)


def test_thor_detection_convention_holds_in_released_alfred_data():
    """The +1 on y in detections is THOR's; ALFRED's bboxes (from instance_detections2D) show it."""
    root = os.environ.get("ALFRED_DATA")
    if not root:
        pytest.skip("ALFRED_DATA is not set")
    files = sorted(glob.glob(os.path.join(root, "json_2.1.0", "train", "*", "*", "traj_data.json")))
    assert files, f"ALFRED_DATA={root} has no json_2.1.0/train/*/*/traj_data.json"
    checked = 0
    for path in files[:40]:
        with open(path) as handle:
            traj = json.load(handle)
        for action in traj["plan"]["low_actions"]:
            args = action["discrete_action"]["args"]
            if args.get("mask") and args.get("bbox"):
                rows, cols = np.nonzero(_decompress(args["mask"]))
                assert args["bbox"] == [cols.min(), rows.min() + 1, cols.max(), rows.max() + 1], path
                checked += 1
    assert checked > 50


def test_segmentation_frame_and_pixel_counts():
    owner = np.array([[0, 0, -1], [2, 2, 2]], np.int32)
    colors = np.array([[10, 20, 30], [40, 50, 60], [70, 80, 90]], np.uint8)
    seg = segmentation_frame(owner, colors)
    assert seg[0, 0].tolist() == [10, 20, 30] and seg[0, 2].tolist() == [0, 0, 0]
    assert seg[1, 1].tolist() == [70, 80, 90]
    assert visible_pixel_counts(owner, 3).tolist() == [2, 0, 3]
    assert visible_pixel_counts(owner).tolist() == [2, 0, 3]


def test_owner_colors_distinct_stable_and_never_black():
    ids = [f"Apple|{k:+06.2f}|+00.90|-01.00" for k in range(12000)] + ["Floor", "Wall", "Ceiling"]
    colors = owner_colors(ids)
    as_tuples = [tuple(c) for c in colors.tolist()]
    assert len(set(as_tuples)) == len(ids)
    assert (colors.astype(int).sum(axis=1) >= 24).all()
    # Collisions happen at this size and were resolved (some ids moved off their own hash).
    moved = sum(1 for name, color in zip(ids, as_tuples) if color != object_color(name))
    assert moved > 0
    # The resolution depends on the set of ids, not their order.
    reordered = owner_colors(ids[::-1])[::-1]
    assert (reordered == colors).all()


@pytest.mark.slow  # fast lane: 35 s on a loaded 2-core machine (session 73 --durations)
def test_frames_do_not_depend_on_python_hash_seed():
    code = (
        "import hashlib, numpy as np\n"
        "from tests.test_render import kitchen, EYE\n"
        "from alfred_gen.sim.camera import Camera\n"
        "from alfred_gen.sim.render import render, instance_outputs\n"
        "b = kitchen(True); f = render(Camera(1.0, EYE, 2.25, 0, 30), b)\n"
        "o = instance_outputs(f.owner, b.owners)\n"
        "h = hashlib.sha256(f.rgb.tobytes() + f.depth.tobytes() + o.instance_segmentation_frame.tobytes())\n"
        "h.update(repr(sorted(o.instance_detections2D.items())).encode())\n"
        "print(h.hexdigest())\n"
    )
    root = Path(__file__).parent.parent
    digests = set()
    for seed in ("0", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
        )
        digests.add(result.stdout.strip())
    assert len(digests) == 1


def test_rendering_is_deterministic_and_switches_work():
    boxes = kitchen(fridge_open=True)
    camera = Camera(2.0, EYE, 2.5, 0, 30)
    first, second = render(camera, boxes), render(camera, boxes)
    for a, b in ((first.rgb, second.rgb), (first.depth, second.depth), (first.owner, second.owner)):
        assert a.tobytes() == b.tobytes()
    assert first.rgb.shape == (300, 300, 3) and first.rgb.dtype == np.uint8
    assert first.depth.dtype == np.float32 and first.owner.dtype == np.int32
    seg_only = render(camera, boxes, rgb=False, depth=False, seg=True)
    assert seg_only.rgb is None and seg_only.depth is None
    assert (seg_only.owner == first.owner).all()
    rgb_only = render(camera, boxes, rgb=True, depth=False, seg=False)
    assert rgb_only.owner is None and (rgb_only.rgb == first.rgb).all()


def test_other_image_sizes():
    camera = Camera(2.0, EYE, 2.5, 0, 30, width=160, height=120)
    frames = render(camera, kitchen())
    assert frames.rgb.shape == (120, 160, 3) and frames.depth.shape == (120, 160)
    assert (frames.owner >= 0).all()  # a closed room: every pixel sees something


# ---------------------------------------------------------------------------------------------
# Visibility


def test_object_behind_a_wall_is_not_visible_and_in_front_it_is():
    camera = Camera(2.0, EYE, 0.5, 0, 30)
    partition = Box((1.0, 0.0, 1.55), (3.0, 2.6, 1.65))
    apple_behind = Box((1.96, 0.75, 1.70), (2.04, 0.84, 1.78))  # on the table, behind the partition
    apple_front = Box((1.96, 0.60, 1.30), (2.04, 0.69, 1.38))

    def counts_with(apple: Box, wall: bool):
        builder = BoxListBuilder()
        builder.set_room(Box((0.0, 0.0, 0.0), (4.0, 2.6, 4.0)))
        if wall:
            builder.add_box(partition, type_color("Wall", "Wall"), "Wall|partition")
        builder.add_object("Apple", "Apple|+02.00|+00.80|+01.74", apple)
        boxes = builder.build()
        frames = render(camera, boxes)
        counts = visible_pixel_counts(frames.owner, len(boxes.owners))
        distances = box_distances(camera.position, np.array([apple.lo]), np.array([apple.hi]))
        k = boxes.owners.index("Apple|+02.00|+00.80|+01.74")
        return counts[k], visible_owners(counts[[k]], distances)[0]

    assert counts_with(apple_behind, wall=False)[0] >= 10  # the camera does look that way
    assert counts_with(apple_behind, wall=True) == (0, False)
    count, visible = counts_with(apple_front, wall=True)
    assert count >= 10 and visible


def test_visibility_needs_distance_as_well_as_pixels():
    counts = np.array([50, 50, 9])
    distances = np.array([1.2, 1.6, 0.5])
    assert visible_owners(counts, distances).tolist() == [True, False, False]
    assert box_distances(
        (0, 0, 0), np.array([[1.0, -1, -1], [-1, -1, -1]]), np.array([[2.0, 1, 1], [1, 1, 1]])
    ).tolist() == [1.0, 0.0]


def test_closed_fridge_hides_its_contents_and_open_shows_them():
    camera = Camera(0.5, EYE, 2.25, 0, 30)  # ALFRED-like interaction pose in front of the fridge
    lettuce = oid("Lettuce", LETTUCE_IN_FRIDGE)
    fridge = oid("Fridge", FRIDGE)
    seen = {}
    for is_open in (False, True):
        boxes = kitchen(fridge_open=is_open)
        frames = render(camera, boxes)
        counts = visible_pixel_counts(frames.owner, len(boxes.owners))
        seen[is_open] = (counts[boxes.owners.index(lettuce)], counts[boxes.owners.index(fridge)])
    assert seen[False][0] == 0 and seen[False][1] > 1000
    assert seen[True][0] >= 10 and seen[True][1] > 1000


# ---------------------------------------------------------------------------------------------
# Shapes and colours

ALL_SHAPED = sorted(
    {
        "Fridge",
        "Cabinet",
        "Microwave",
        "Safe",
        "Drawer",
        "Laptop",
        "Box",
        "DiningTable",
        "CoffeeTable",
        "SideTable",
        "Desk",
        "Chair",
        "Sofa",
        "ArmChair",
        "Bed",
        "CounterTop",
        "Toilet",
        "FloorLamp",
        "HousePlant",
        "Apple",
        "Bread",
        "Knife",
        "Television",
        "SinkBasin",
        "Bowl",
        "Pot",
        "Mug",
    }
)


@pytest.mark.parametrize("object_type", ALL_SHAPED)
@pytest.mark.parametrize("facing", [0, 90, 180, 270])
def test_closed_shapes_stay_inside_their_box(object_type, facing):
    box = Box((1.0, 0.5, 2.0), (1.8, 1.4, 2.6))
    parts = shape_boxes(object_type, box, is_open=False, facing=facing)
    assert parts
    for part in parts:
        assert all(low < high for low, high in zip(part.lo, part.hi)), (object_type, part)
        assert all(pl >= bl - 0.03 and ph <= bh + 0.03 for pl, ph, bl, bh in zip(part.lo, part.hi, box.lo, box.hi))


@pytest.mark.parametrize("facing", [0, 90, 180, 270])
def test_open_fridge_door_swings_out_of_its_front(facing):
    box = Box((1.0, 0.0, 2.0), (1.8, 1.8, 2.7))
    closed = shape_boxes("Fridge", box, is_open=False, facing=facing)
    opened = shape_boxes("Fridge", box, is_open=True, facing=facing)
    front = {0: (2, 1), 90: (0, 1), 180: (2, -1), 270: (0, -1)}[facing]
    axis, sign = front
    outside = [p for p in opened if (p.hi[axis] > box.hi[axis] + 0.1 if sign > 0 else p.lo[axis] < box.lo[axis] - 0.1)]
    assert len(outside) == 2  # both doors stand out in front
    assert not [
        p for p in closed if (p.hi[axis] > box.hi[axis] + 0.03 if sign > 0 else p.lo[axis] < box.lo[axis] - 0.03)
    ]


@pytest.mark.parametrize("facing", [0, 90])
def test_an_open_box_is_drawn_inside_its_flaps(facing):
    # THOR's open box is a carton whose flaps splay out to its bounding box: its masks cover about
    # as many pixels as a body 0.1 of its width inside that box on each side, not the whole box.
    box = Box((1.0, 0.5, 2.0), (1.4, 0.78, 2.4))
    drawn = {}
    for is_open in (False, True):
        builder = BoxListBuilder()
        builder.add_object("Box", oid("Box", box), box, is_open=is_open, facing=facing)
        frames = render(Camera(1.2, EYE, 1.3, 0, 45), builder.build())
        drawn[is_open] = int((frames.owner == frames.owners.index(oid("Box", box))).sum())
    assert 0.55 < drawn[True] / drawn[False] < 0.75
    body = shape_boxes("Box", box, is_open=True)
    assert min(p.lo[0] for p in body) == pytest.approx(1.04) and max(p.hi[2] for p in body) == pytest.approx(2.36)


@pytest.mark.parametrize("facing", [0, 90])
def test_a_mirrored_cabinet_hangs_its_door_at_the_other_end(facing):
    # Imported rooms draw a cabinet mirrored when its hinge (THOR's origin) is at the high end.
    box = Box((1.0, 0.5, 2.0), (1.5, 1.2, 2.5))
    across = 0 if facing == 0 else 2
    for mirrored, end in ((False, box.lo[across]), (True, box.hi[across])):
        parts = shape_parts("Cabinet", box, is_open=True, facing=facing, mirrored=mirrored)
        door = [part for part, tone in parts if tone is DOOR]
        assert door and all(abs((p.lo[across] + p.hi[across]) / 2 - end) < 0.02 for p in door)
    origin_high = (1.45, 0.5, 2.45)
    assert hinged_at_high_end("Cabinet", box, origin_high, facing)
    assert not hinged_at_high_end("Cabinet", box, origin_high, facing, paired=True)
    assert not hinged_at_high_end("Cabinet", box, box.center, facing)  # procedural rooms: as before
    assert not hinged_at_high_end("Fridge", box, origin_high, facing)


def test_drawer_slides_out_with_its_contents_offset():
    box = Box((0.0, 0.5, 0.0), (0.6, 0.7, 0.5))
    assert content_offset("Drawer", box, is_open=False, facing=0) == (0.0, 0.0, 0.0)
    dx, dy, dz = content_offset("Drawer", box, is_open=True, facing=0)
    assert dx == 0 and dy == 0 and dz == pytest.approx(0.3)
    opened = shape_boxes("Drawer", box, is_open=True, facing=0)
    assert max(p.hi[2] for p in opened) == pytest.approx(0.8)
    assert content_offset("Fridge", box, is_open=True) == (0.0, 0.0, 0.0)
    assert "Drawer" in OPENABLE_SHAPES


def test_type_colours_keep_their_family_and_vary_per_instance():
    apples = [type_color("Apple", f"Apple|{k}") for k in range(40)]
    lettuces = [type_color("Lettuce", f"Lettuce|{k}") for k in range(40)]
    fridges = [type_color("Fridge", f"Fridge|{k}") for k in range(40)]
    assert all(r > 2 * g and r > 2 * b for r, g, b in apples)
    assert all(g > r and g > b for r, g, b in lettuces)
    assert all(min(c) > 200 for c in fridges)
    assert len(set(apples)) > 10  # instances differ a little
    assert type_color("Apple", "Apple|1") == type_color("Apple", "Apple|1")
    assert type_color("NoSuchType", "NoSuchType|1") == type_color("NoSuchType", "NoSuchType|1")


def test_parts_are_painted_in_fixed_and_scaled_tones():
    parts = shape_parts("Fridge", FRIDGE, is_open=False, facing=180)
    base = type_color("Fridge", "Fridge|x")
    painted = {tone.apply(base) for _, tone in parts}
    assert base in painted and len(painted) >= 3  # body, door, handle, seam


def test_concat_shifts_owners_and_keeps_the_room():
    static = BoxListBuilder()
    static.set_room(Box((0.0, 0.0, 0.0), (4.0, 2.6, 4.0)))
    static.add_object("CounterTop", oid("CounterTop", COUNTER), COUNTER, facing=180)
    dynamic = BoxListBuilder()
    dynamic.add_object("Apple", oid("Apple", APPLE), APPLE)
    merged = BoxList.concat(static.build(), dynamic.build())
    assert merged.owners[-1] == oid("Apple", APPLE)
    assert merged.owner[-1] == len(merged.owners) - 1
    assert merged.room is not None and merged.owners[merged.room.owner[2]] == "Floor"
    with pytest.raises(ValueError):
        BoxList.concat(dynamic.build(), dynamic.build())


# ---------------------------------------------------------------------------------------------
# Frames for people


def depth_image(depth: np.ndarray, far: float = 5.0) -> np.ndarray:
    scaled = np.clip(depth / far, 0.0, 1.0)
    return (255 * (1.0 - scaled)).astype(np.uint8)


def test_write_frames_for_people_to_look_at():
    from PIL import Image

    ARTIFACTS.mkdir(exist_ok=True)
    views = {
        "kitchen_fridge_closed": (kitchen(False), Camera(1.25, EYE, 2.0, 0, 30)),
        "kitchen_fridge_open": (kitchen(True), Camera(1.25, EYE, 2.0, 0, 30)),
        "fridge_open_close_up": (kitchen(True), Camera(0.5, EYE, 2.25, 0, 30)),
        "table_from_the_door": (kitchen(False), Camera(2.0, EYE, 0.25, 0, 45)),
    }
    for name, (boxes, camera) in views.items():
        frames = render(camera, boxes)
        out = instance_outputs(frames.owner, boxes.owners)
        strip = np.concatenate(
            [frames.rgb, np.repeat(depth_image(frames.depth)[:, :, None], 3, axis=2), out.instance_segmentation_frame],
            axis=1,
        )
        path = ARTIFACTS / f"{name}.png"
        tmp = path.with_suffix(".tmp.png")
        Image.fromarray(strip).save(tmp)
        os.replace(tmp, path)
        assert Image.open(path).size == (900, 300)
        digest = hashlib.sha256(strip.tobytes()).hexdigest()
        assert digest == hashlib.sha256(np.asarray(Image.open(path)).tobytes()).hexdigest()
