"""The compiled inner loop of the renderer draws exactly what the numpy loop draws.

numba is an optional extra (``[fast]``): without it these tests skip, and the renderer uses the
numpy loop. With it, every buffer (depth bits, face codes, RGB, owners) must be identical, or
frames, masks and visibility, and with them the bytes of every dataset, would change.
"""

from __future__ import annotations

import numpy as np
import pytest

from alfred_gen.sim import raster_kernel
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.render import BoxListBuilder, render
from alfred_gen.sim.scene import Box

pytest.importorskip("numba")
KERNEL = raster_kernel.compiled()


def _scene(seed: int):
    """A room with random boxes: overlapping, some around or grazing the camera, some coplanar."""
    rng = np.random.default_rng(seed)
    builder = BoxListBuilder()
    builder.set_room(Box((-4.0, 0.0, -4.0), (4.0, 2.6, 4.0)))
    for k in range(80):
        centre = rng.uniform([-3, 0, -3], [3, 2.4, 3])
        size = rng.uniform(0.02, 1.2, size=3)
        lo = np.round(centre - size / 2, 2)  # rounded: many faces share planes, depths tie exactly
        builder.add(lo, lo + np.round(size, 2) + 0.01, tuple(int(v) for v in rng.integers(0, 255, 3)), f"Thing|{k}")
    builder.add((-0.3, 1.0, -0.3), (0.3, 1.2, 0.3), (1, 2, 3), "AroundCamera")
    builder.add((0.04, 0.0, -1.0), (0.5, 2.0, 1.0), (1, 2, 3), "GrazingNear")
    builder.add((0.0, 0.5, 0.5), (1.0, 1.75, 1.5), (9, 9, 9), "LevelWithCamera")  # a face on the camera's plane
    return builder.build()


def _frames(monkeypatch, compiled: bool, camera: Camera, boxes):
    monkeypatch.setattr(raster_kernel, "compiled", lambda: KERNEL if compiled else None)
    return render(camera, boxes, rgb=True, depth=True, seg=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_compiled_loop_draws_the_numpy_loops_pixels(monkeypatch, seed):
    assert KERNEL is not None, "numba is installed, so the compiled loop must build"
    boxes = _scene(seed)
    for x, z in ((0.0, 0.0), (0.25, -1.0)):
        for rotation in (0, 90, 180, 270):
            for horizon in (-30, 0, 30, 60):
                camera = Camera(x, 1.1, z, rotation, horizon, width=151, height=101)
                numpy_frames = _frames(monkeypatch, False, camera, boxes)
                fast_frames = _frames(monkeypatch, True, camera, boxes)
                where = (seed, x, z, rotation, horizon)
                assert numpy_frames.depth.tobytes() == fast_frames.depth.tobytes(), where
                assert np.array_equal(numpy_frames.owner, fast_frames.owner), where
                assert np.array_equal(numpy_frames.rgb, fast_frames.rgb), where


def test_the_loops_agree_on_nan_and_without_faces():
    """NaN depths never hit; with no RGB wanted every hit is the box's a-face code."""
    height, width = 4, 5
    row_enter = np.array([[0.5, np.nan, 0.5, 0.5]], np.float32)
    row_exit = np.array([[2.0, 2.0, np.nan, 2.0]], np.float32)
    col_enter = np.array([[0.3, 0.6, 0.5, np.nan, 0.05]], np.float32)
    col_exit = np.array([[3.0, 1.0, 0.4, 3.0, 3.0]], np.float32)
    for row_code in (None, np.array([[5, 4, 5, 4]], np.int32)):
        for close in (False, True):
            buffers = []
            assert KERNEL is not None
            for loop in (raster_kernel.fill_numpy, raster_kernel.fill):
                zbuf = np.full((height, width), 1.5, np.float32)
                zbuf[3, 1] = np.nan
                code = np.full((height, width), -1, np.int32)
                loop(zbuf, code, np.array([0]), np.array([[0, height, 0, width]]), row_enter, row_exit, col_enter,
                     col_exit, np.array([close]), np.array([False]), np.array([3], np.int32), row_code, 0.1)
                buffers.append((zbuf.tobytes(), code.tobytes()))
            assert buffers[0] == buffers[1], (row_code is None, close)


def test_the_compiled_paint_gives_the_numpy_colours_outlines_and_owners():
    """Every code (nothing hit: -1, faces, room faces) with and without a boundary above or to
    the left, with RGB and owners together or alone."""
    rng = np.random.default_rng(4)
    lut = rng.integers(0, 256, (20, 3)).astype(np.uint8)
    owner_lookup = rng.integers(-1, 7, 21).astype(np.int32)
    code = rng.integers(-1, 20, (37, 23)).astype(np.int32)
    code[5:15, 3:12] = 7  # a flat patch: no outline inside it
    code[20:30, 10:20] = -1
    assert KERNEL is not None
    for wanted in ((lut, owner_lookup), (lut, None), (None, owner_lookup)):
        numpy_rgb, numpy_owner = raster_kernel.paint_numpy(*wanted[:1], code, wanted[1])
        fast_rgb, fast_owner = raster_kernel.paint(*wanted[:1], code, wanted[1])
        for numpy_array, fast_array in ((numpy_rgb, fast_rgb), (numpy_owner, fast_owner)):
            assert (numpy_array is None) == (fast_array is None)
            if numpy_array is not None:
                assert numpy_array.dtype == fast_array.dtype and numpy_array.shape == fast_array.shape
                assert numpy_array.tobytes() == fast_array.tobytes()


def test_the_compiled_room_shell_gives_the_numpy_depths_and_codes():
    """Random exits with exact ties between a row and a column, and NaN in either."""
    rng = np.random.default_rng(6)
    row_exit = np.round(rng.uniform(0.2, 5.0, 41), 1).astype(np.float32)
    col_exit = np.round(rng.uniform(0.2, 5.0, 29), 1).astype(np.float32)  # rounded: many ties
    row_exit[3], col_exit[7] = np.nan, np.nan
    row_code = rng.integers(0, 100, 41).astype(np.int32)
    col_code = rng.integers(0, 100, 29).astype(np.int32)
    assert KERNEL is not None
    numpy_depth, numpy_code = raster_kernel.shell_numpy(row_exit, col_exit, row_code, col_code)
    fast_depth, fast_code = raster_kernel.shell(row_exit, col_exit, row_code, col_code)
    assert (row_exit[:, None] == col_exit[None, :]).any()  # the ties are there
    assert numpy_depth.tobytes() == fast_depth.tobytes()
    assert numpy_code.tobytes() == fast_code.tobytes()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compiled_slab_arithmetic_gives_the_numpy_arrays_bit_for_bit(seed):
    """Per box, the rows' and columns' entries and exits and which of them can show it: every
    array the same bits (NaN where a ray runs along a face plane, ties, boxes around the camera)."""
    from alfred_gen.sim.render import _extent_numpy, _View

    boxes = _scene(seed)
    checked, nans = 0, 0
    for x, z in ((0.0, 0.0), (0.25, -1.0), (0.04, 0.5)):
        for rotation in (0, 90, 180, 270):
            for horizon in (-30, 0, 30, 60):
                for width, height in ((151, 101), (300, 300)):
                    view = _View(Camera(x, 1.1, z, rotation, horizon, width=width, height=height))
                    lo = np.vstack([boxes.lo, [[x, 0.0, z - 1.0]], [[-1.0, 1.1, -1.0]]])  # faces on the eye
                    hi = np.vstack([boxes.hi, [[x + 1.0, 2.0, z + 1.0]], [[1.0, 1.1, 1.0]]])
                    compiled = raster_kernel.extent(lo, hi, view.origin, (view.b_axis, view.a_axis), view.dir_y,
                                                    view.dir_b, view.dir_a, 0.1)
                    assert compiled is not None
                    references = _extent_numpy(view, lo, hi)
                    nans += int(np.isnan(references[4]).sum())
                    for fast, reference in zip(compiled, references, strict=True):
                        assert fast.dtype == reference.dtype and fast.shape == reference.shape
                        assert fast.tobytes() == reference.tobytes(), (seed, x, z, rotation, horizon, width)
                    checked += 1
    assert checked == 96 and nans > 0
