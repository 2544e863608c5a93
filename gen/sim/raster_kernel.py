"""The renderer's inner loop (z-buffer each box inside its screen rectangle), in numpy and compiled.

:func:`fill_numpy` is the reference: a handful of whole-array operations per box. When the
optional ``numba`` package is installed (``pip install 'alfred-gen[fast]'``), :func:`fill` runs the
same arithmetic compiled, pixel by pixel, which removes the per-box overhead of a dozen numpy calls
(a frame draws one to two hundred boxes). The two give identical buffers: every operation is a
float32 comparison, ``max`` or ``min`` (exact, no rounding), NaN propagates as in ``np.maximum``
and ``np.minimum``, and a tie takes the second operand as they do; ``tests/test_raster_kernel.py``
checks them against each other on random scenes. ``ALFRED_GEN_NUMBA=0`` switches the compiled loop
off (for comparisons); a missing or broken numba falls back to numpy silently.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np


def fill_numpy(
    zbuf: np.ndarray, code: np.ndarray, drawn: np.ndarray, rects: np.ndarray,
    row_enter: np.ndarray, row_exit: np.ndarray, col_enter: np.ndarray, col_exit: np.ndarray,
    close: np.ndarray, in_a_slab: np.ndarray, base: np.ndarray, row_code: np.ndarray | None, near: float,
) -> None:
    """Draw boxes ``drawn`` (indices into the per-box arrays) into ``zbuf`` and ``code``.

    ``rects[k]`` = (first row, row stop, first column, column stop) of box k; ``row_enter`` etc.
    are float32 (N, H) and (N, W) entry/exit depths; ``close[k]``: box k needs the near-plane test;
    ``in_a_slab[k]``: the camera is level with box k along the camera's right axis (its a-faces are
    never seen); ``base`` the face code of each box's a-face (3k); ``row_code`` (N, H) the code of
    the y- or b-face a row sees, or None to draw every hit as the a-face code (no RGB wanted).
    """
    size = zbuf.shape[0] * zbuf.shape[1]
    enter_buf = np.empty(size, np.float32)
    exit_buf = np.empty(size, np.float32)
    hit_buf = np.empty(size, np.bool_)
    side_buf = np.empty(size, np.bool_)
    code_buf = np.empty(size, np.int32)
    for k in drawn.tolist():
        r0, r1, c0, c1 = (int(v) for v in rects[k])
        shape = (r1 - r0, c1 - c0)
        count = shape[0] * shape[1]
        enter = enter_buf[:count].reshape(shape)
        leave = exit_buf[:count].reshape(shape)
        hit = hit_buf[:count].reshape(shape)
        zsub = zbuf[r0:r1, c0:c1]
        col_in = col_enter[k, None, c0:c1]
        row_in = row_enter[k, r0:r1, None]
        np.maximum(row_in, col_in, out=enter)
        np.minimum(row_exit[k, r0:r1, None], col_exit[k, None, c0:c1], out=leave)
        np.minimum(leave, zsub, out=leave)
        np.less_equal(enter, leave, out=hit)
        if close[k]:
            hit &= enter >= near
        np.copyto(zsub, enter, where=hit)
        if row_code is not None and in_a_slab[k]:
            np.copyto(code[r0:r1, c0:c1], row_code[k, r0:r1, None], where=hit)
        elif row_code is not None:
            face = code_buf[:count].reshape(shape)
            side = side_buf[:count].reshape(shape)
            np.greater_equal(col_in, row_in, out=side)
            np.copyto(face, row_code[k, r0:r1, None])
            np.copyto(face, base[k], where=side)
            np.copyto(code[r0:r1, c0:c1], face, where=hit)
        else:
            np.copyto(code[r0:r1, c0:c1], base[k], where=hit)


def _fill_loops(zbuf: Any, code: Any, drawn: Any, rects: Any, row_enter: Any, row_exit: Any, col_enter: Any,
                col_exit: Any, close: Any, in_a_slab: Any, base: Any, row_code: Any, faces: bool,
                near: Any) -> None:  # pragma: no cover - runs compiled (numba); checked against fill_numpy
    """:func:`fill_numpy`'s arithmetic pixel by pixel (compiled by numba; ``row_code`` unused unless ``faces``)."""
    for i in range(drawn.shape[0]):
        k = drawn[i]
        r0, r1, c0, c1 = rects[k, 0], rects[k, 1], rects[k, 2], rects[k, 3]
        needs_near = close[k]
        level = in_a_slab[k]
        own = base[k]
        for r in range(r0, r1):
            row_in = row_enter[k, r]
            row_out = row_exit[k, r]
            row_face = row_code[k, r] if faces else own
            for c in range(c0, c1):
                col_in = col_enter[k, c]
                # np.maximum / np.minimum: NaN wins, a tie gives the second operand.
                if row_in != row_in or col_in != col_in:
                    continue
                enter = row_in if row_in > col_in else col_in
                col_out = col_exit[k, c]
                if row_out != row_out or col_out != col_out:
                    continue
                leave = row_out if row_out < col_out else col_out
                depth = zbuf[r, c]
                if depth != depth:
                    continue
                if not leave < depth:
                    leave = depth
                if not enter <= leave:
                    continue
                if needs_near and not enter >= near:
                    continue
                zbuf[r, c] = enter
                if not faces:
                    code[r, c] = own
                elif level:
                    code[r, c] = row_face
                elif col_in >= row_in:
                    code[r, c] = own
                else:
                    code[r, c] = row_face


def paint_numpy(lut: np.ndarray | None, code: np.ndarray,
                owner_lookup: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """RGB (with ``lut``) and owners (with ``owner_lookup``) of a face-code frame; the reference.

    RGB: ``lut[code]``, a darker line (``lut * 3 // 4``) on the face further down/right of each
    boundary between two codes, one pixel wide; code -1 (nothing hit) is ``lut[-1]``, never
    darkened. Owners: ``owner_lookup[code]``, code -1 taking ``owner_lookup[-1]``.
    """
    rgb = None
    if lut is not None:
        edge = np.zeros(code.shape, np.bool_)
        np.not_equal(code[1:, :], code[:-1, :], out=edge[1:, :])
        edge[:, 1:] |= code[:, 1:] != code[:, :-1]
        painted = code + edge * np.int32(len(lut))
        darker = (lut.astype(np.uint16) * 3 // 4).astype(np.uint8)
        darker[-1] = lut[-1]  # code -1 (nothing hit) indexes the very last row: the plain background
        rgb = np.take(np.concatenate([lut, darker]), painted, axis=0)
    owner = np.take(owner_lookup, code) if owner_lookup is not None else None
    return rgb, owner


def _paint_loops(lut: Any, darker: Any, code: Any, owner_lookup: Any, rgb: Any, owner: Any, want_rgb: bool,
                 want_owner: bool) -> None:  # pragma: no cover - runs compiled (numba); checked against paint_numpy
    """:func:`paint_numpy` pixel by pixel, into ``rgb`` and ``owner`` (compiled by numba)."""
    height, width = code.shape
    last_colour = lut.shape[0] - 1
    last_owner = owner_lookup.shape[0] - 1
    for r in range(height):
        for c in range(width):
            k = code[r, c]
            if want_owner:
                owner[r, c] = owner_lookup[k if k >= 0 else last_owner]
            if want_rgb:
                if k < 0:
                    for channel in range(3):
                        rgb[r, c, channel] = lut[last_colour, channel]
                elif (r > 0 and code[r - 1, c] != k) or (c > 0 and code[r, c - 1] != k):
                    for channel in range(3):
                        rgb[r, c, channel] = darker[k, channel]
                else:
                    for channel in range(3):
                        rgb[r, c, channel] = lut[k, channel]


def shell_numpy(row_exit: np.ndarray, col_exit: np.ndarray, row_code: np.ndarray,
                col_code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Depth and face code of a room shell seen from inside; the reference.

    A ray leaves the room where its row's exit (floor, ceiling or a b-wall, float32 (H,)) or its
    column's (an a-wall, (W,)) comes first: depth ``min(row, column)``, code the column's where
    the column's exit is strictly nearer, else the row's.
    """
    zbuf = np.empty((len(row_exit), len(col_exit)), np.float32)
    np.minimum(row_exit[:, None], col_exit[None, :], out=zbuf)
    code = np.empty(zbuf.shape, np.int32)
    code[:] = row_code[:, None]
    np.copyto(code, col_code[None, :], where=col_exit[None, :] < row_exit[:, None])
    return zbuf, code


def _shell_loops(row_exit: Any, col_exit: Any, row_code: Any, col_code: Any, zbuf: Any,
                 code: Any) -> None:  # pragma: no cover - runs compiled (numba); checked against shell_numpy
    """:func:`shell_numpy` pixel by pixel (compiled by numba)."""
    for r in range(row_exit.shape[0]):
        row = row_exit[r]
        for c in range(col_exit.shape[0]):
            column = col_exit[c]
            # np.minimum: NaN wins, a tie gives the second operand.
            if row != row:
                zbuf[r, c] = row
            elif column != column:
                zbuf[r, c] = column
            else:
                zbuf[r, c] = row if row < column else column
            code[r, c] = col_code[c] if column < row else row_code[r]


def _extent_loops(lo: Any, hi: Any, origin: Any, axes: Any, inverse_y: Any, inverse_b: Any, inverse_a: Any,
                  runs: Any, near: float, enter_y: Any, enter_b: Any, row_enter: Any, row_exit: Any, col_enter: Any,
                  col_exit: Any, row_ok: Any, col_ok: Any) -> None:  # pragma: no cover - runs compiled (numba)
    """:func:`alfred_gen.sim.render._extent_numpy`'s slab arithmetic box by box (compiled by numba).

    ``axes`` = (b, a): the world axes of the rows' second slab and of the columns; ``inverse_*``
    the inverse ray directions per row (y, b) and column (a); ``runs[i]`` = (first, stop) of the
    rays of axis i (y, b, a) that run towards +axis (entry through the lo plane). Every value is a
    float64 product of the same two numbers as numpy's, so the arrays are the same bit for bit;
    ``max``/``min`` follow np.maximum/np.minimum (NaN wins, a tie gives the second operand).
    """
    b, a = axes[0], axes[1]
    height, width = inverse_y.shape[0], inverse_a.shape[0]
    for k in range(lo.shape[0]):
        near_lo_y, near_hi_y = lo[k, 1] - origin[1], hi[k, 1] - origin[1]
        near_lo_b, near_hi_b = lo[k, b] - origin[b], hi[k, b] - origin[b]
        near_lo_a, near_hi_a = lo[k, a] - origin[a], hi[k, a] - origin[a]
        t_min = np.inf
        t_max = -np.inf
        for r in range(height):
            if runs[0, 0] <= r < runs[0, 1]:
                in_y, out_y = near_lo_y * inverse_y[r], near_hi_y * inverse_y[r]
            else:
                in_y, out_y = near_hi_y * inverse_y[r], near_lo_y * inverse_y[r]
            if runs[1, 0] <= r < runs[1, 1]:
                in_b, out_b = near_lo_b * inverse_b[r], near_hi_b * inverse_b[r]
            else:
                in_b, out_b = near_hi_b * inverse_b[r], near_lo_b * inverse_b[r]
            enter_y[k, r] = in_y
            enter_b[k, r] = in_b
            if in_y != in_y:
                entry = in_y
            elif in_b != in_b:
                entry = in_b
            else:
                entry = in_y if in_y > in_b else in_b
            if out_y != out_y:
                leave = out_y
            elif out_b != out_b:
                leave = out_b
            else:
                leave = out_y if out_y < out_b else out_b
            row_enter[k, r] = entry
            row_exit[k, r] = leave
            ok = entry <= leave and leave >= near
            row_ok[k, r] = ok
            if ok:
                if entry < t_min:
                    t_min = entry
                if leave > t_max:
                    t_max = leave
        for c in range(width):
            if runs[2, 0] <= c < runs[2, 1]:
                entry, leave = near_lo_a * inverse_a[c], near_hi_a * inverse_a[c]
            else:
                entry, leave = near_hi_a * inverse_a[c], near_lo_a * inverse_a[c]
            col_enter[k, c] = entry
            col_exit[k, c] = leave
            col_ok[k, c] = entry <= leave and entry <= t_max and leave >= t_min


def inverse_run(direction: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The inverse of ray directions (-0.0 taken as +0.0, zero giving infinity) and the run
    (first, stop) of those running towards +axis (``direction`` is monotonic: one run)."""
    direction = direction + 0.0  # -0.0 (the centre column of an odd-width image) becomes +0.0
    with np.errstate(divide="ignore"):
        inverse = 1.0 / direction
    positive = np.flatnonzero(direction >= 0)
    if not len(positive):
        return inverse, 0, 0
    return inverse, int(positive[0]), int(positive[-1]) + 1


def extent(lo: np.ndarray, hi: np.ndarray, origin: np.ndarray, axes: tuple[int, int], dir_y: np.ndarray,
           dir_b: np.ndarray, dir_a: np.ndarray, near: float) -> tuple[np.ndarray, ...] | None:
    """The eight arrays of :func:`alfred_gen.sim.render._extent_numpy` in one compiled pass over
    the boxes (same bits), or None without numba (the caller then runs the numpy reference)."""
    kernel = _compiled_extent if compiled() is not None else None
    if kernel is None:
        return None
    inverse_y, *run_y = inverse_run(dir_y)
    inverse_b, *run_b = inverse_run(dir_b)
    inverse_a, *run_a = inverse_run(dir_a)
    n, height, width = len(lo), len(inverse_y), len(inverse_a)
    enter_y, enter_b, row_enter, row_exit = (np.empty((n, height), np.float64) for _ in range(4))
    col_enter, col_exit = np.empty((n, width), np.float64), np.empty((n, width), np.float64)
    row_ok, col_ok = np.empty((n, height), np.bool_), np.empty((n, width), np.bool_)
    kernel(np.ascontiguousarray(lo, np.float64), np.ascontiguousarray(hi, np.float64),
           np.ascontiguousarray(origin, np.float64), np.array(axes, np.int64), inverse_y, inverse_b, inverse_a,
           np.array([run_y, run_b, run_a], np.int64), float(near), enter_y, enter_b, row_enter, row_exit, col_enter,
           col_exit, row_ok, col_ok)
    return enter_y, enter_b, row_enter, row_exit, col_enter, col_exit, row_ok, col_ok


_compiled: Callable[..., None] | None = None
_compiled_paint: Callable[..., None] | None = None
_compiled_shell: Callable[..., None] | None = None
_compiled_extent: Callable[..., None] | None = None
_tried = False


def compiled() -> Callable[..., None] | None:
    """The numba-compiled loop, or None (numba not installed, or switched off by ALFRED_GEN_NUMBA=0)."""
    global _compiled, _compiled_paint, _compiled_shell, _compiled_extent, _tried
    if not _tried:
        _tried = True
        if os.environ.get("ALFRED_GEN_NUMBA", "1") != "0":
            try:
                import numba

                _compiled = numba.njit(cache=True, nogil=True)(_fill_loops)
                _compiled_paint = numba.njit(cache=True, nogil=True)(_paint_loops)
                _compiled_shell = numba.njit(cache=True, nogil=True)(_shell_loops)
                _compiled_extent = numba.njit(cache=True, nogil=True, error_model="numpy")(_extent_loops)
            except Exception:  # no numba, or one that cannot compile here: numpy does the same
                _compiled = _compiled_paint = _compiled_shell = _compiled_extent = None
    return _compiled


def shell(row_exit: np.ndarray, col_exit: np.ndarray, row_code: np.ndarray,
          col_code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`shell_numpy`, compiled when numba is there (same buffers, bit for bit)."""
    kernel = _compiled_shell if compiled() is not None else None
    if kernel is None:
        return shell_numpy(row_exit, col_exit, row_code, col_code)
    zbuf = np.empty((len(row_exit), len(col_exit)), np.float32)
    code = np.empty(zbuf.shape, np.int32)
    kernel(np.ascontiguousarray(row_exit, np.float32), np.ascontiguousarray(col_exit, np.float32),
           np.ascontiguousarray(row_code, np.int32), np.ascontiguousarray(col_code, np.int32), zbuf, code)
    return zbuf, code


def paint(lut: np.ndarray | None, code: np.ndarray,
          owner_lookup: np.ndarray | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """:func:`paint_numpy` in one compiled pass over the frame when numba is there (same arrays)."""
    kernel = _compiled_paint if compiled() is not None else None
    if kernel is None or (lut is None and owner_lookup is None):
        return paint_numpy(lut, code, owner_lookup)
    height, width = code.shape
    rgb = np.empty((height, width, 3), np.uint8) if lut is not None else None
    owner = np.empty((height, width), owner_lookup.dtype) if owner_lookup is not None else None
    colours = lut if lut is not None else np.zeros((1, 3), np.uint8)
    darker = (colours.astype(np.uint16) * 3 // 4).astype(np.uint8)
    darker[-1] = colours[-1]  # as paint_numpy: the last row (the background's) is never darkened
    kernel(colours, darker, code, owner_lookup if owner_lookup is not None else np.zeros(1, np.int32),
           rgb if rgb is not None else np.zeros((1, 1, 3), np.uint8),
           owner if owner is not None else np.zeros((1, 1), np.int32), lut is not None, owner_lookup is not None)
    return rgb, owner


def warm() -> None:
    """Load (or compile) the compiled loop now: a process that forks workers calls this first, so
    each worker inherits it instead of paying numba's import and load (about a second of CPU)."""
    kernel = compiled()
    if kernel is not None:
        paint(np.zeros((2, 3), np.uint8), np.zeros((1, 1), np.int32), np.zeros(2, np.int32))
        shell(np.ones(1, np.float32), np.ones(1, np.float32), np.zeros(1, np.int32), np.zeros(1, np.int32))
        extent(np.zeros((1, 3)), np.ones((1, 3)), np.full(3, 0.5), (2, 0), np.ones(1), np.ones(1), np.ones(1), 0.1)
        one = np.zeros((1, 1), np.float32)
        kernel(one, np.zeros((1, 1), np.int32), np.zeros(0, np.int64), np.zeros((1, 4), np.int64), one, one, one, one,
               np.zeros(1, np.bool_), np.zeros(1, np.bool_), np.zeros(1, np.int32), np.zeros((1, 1), np.int32), True,
               np.float32(0.1))


def fill(
    zbuf: np.ndarray, code: np.ndarray, drawn: np.ndarray, rects: np.ndarray,
    row_enter: np.ndarray, row_exit: np.ndarray, col_enter: np.ndarray, col_exit: np.ndarray,
    close: np.ndarray, in_a_slab: np.ndarray, base: np.ndarray, row_code: np.ndarray | None, near: float,
) -> None:
    """:func:`fill_numpy`, compiled when numba is there (same buffers, bit for bit)."""
    kernel = compiled()
    if kernel is None:
        fill_numpy(zbuf, code, drawn, rects, row_enter, row_exit, col_enter, col_exit, close, in_a_slab, base,
                   row_code, near)
        return
    faces = row_code is not None
    kernel(zbuf, code, drawn.astype(np.int64), rects.astype(np.int64), row_enter, row_exit, col_enter, col_exit,
           close, in_a_slab, base, row_code if faces else np.zeros((1, 1), np.int32), faces, np.float32(near))
