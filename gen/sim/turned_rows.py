"""Drawing boxes turned about a vertical axis, as a staircase of axis-aligned boxes.

The renderer draws axis-aligned boxes only. A slice of a whole standing at a yaw that misses its
quarter turns lies, in THOR, turned with the whole; its axis-aligned slab, laid along the turned
row, overlaps its neighbours' slabs and hides them where THOR's do not (s98: a tomato's, potato's
or lettuce's slices laid along a diagonal hid one another). :func:`turned` draws each box as the
box turned: cut into :data:`~alfred_gen.sim.drawn_steps.STEP` wide columns along the world axis
its long side runs nearest, each column as deep as the turned box is on the column's middle line
(so a column keeps the turned box's area, and two turned slabs that do not overlap give columns
that do not either).
"""

from __future__ import annotations

import math

import numpy as np

from alfred_gen.sim.drawn_steps import STEP, Piece, as_rows


def _span_on_line(center: tuple[float, float], half: tuple[float, float], degrees: float,
                  axis: int, at: float) -> tuple[float, float] | None:
    """Where the line ``world[axis] == at`` crosses the horizontal rectangle with ``center`` (x, z)
    and ``half`` sizes (own x, own z) turned by ``degrees`` of THOR yaw (90 takes +z to +x): the
    other world coordinate's range on it, or None where it misses the rectangle."""
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    # World offset (dx, dz) from own (u, v): dx = u c + v s, dz = -u s + v c; so own
    # u = dx c - dz s, v = dx s + dz c. On the line one world offset is fixed, the other runs free.
    fixed = at - center[axis // 2]
    # dx fixed, dz free: u = fixed c - dz s, v = fixed s + dz c; dz fixed, dx free: u = dx c - fixed s,
    # v = dx s + fixed c. Each is (constant, slope) in the free offset.
    terms = ((fixed * c, -s), (fixed * s, c)) if axis == 0 else ((-fixed * s, c), (fixed * c, s))
    low, high = -math.inf, math.inf
    for (constant, slope), h in zip(terms, half):
        if abs(slope) < 1e-12:
            if abs(constant) > h:
                return None
            continue
        a, b = (-h - constant) / slope, (h - constant) / slope
        low, high = max(low, min(a, b)), min(high, max(a, b))
    if low >= high:
        return None
    other = center[1 - axis // 2]
    return other + low, other + high


def turned(lo: np.ndarray, hi: np.ndarray, colors: np.ndarray, pivot: tuple[float, float],
           degrees: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drawing boxes (``lo``, ``hi``, ``colors`` rows) turned about the vertical line through
    ``pivot`` (x, z) by ``degrees`` (-45 to 45) of THOR yaw, each drawn in
    :data:`~alfred_gen.sim.drawn_steps.STEP` wide axis-aligned columns (see the module)."""
    if not degrees or not len(lo):
        return lo, hi, colors
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    pieces: list[Piece] = []
    for row_lo, row_hi, color in zip(lo, hi, colors):
        half = ((row_hi[0] - row_lo[0]) / 2.0, (row_hi[2] - row_lo[2]) / 2.0)
        mx, mz = (row_lo[0] + row_hi[0]) / 2.0 - pivot[0], (row_lo[2] + row_hi[2]) / 2.0 - pivot[1]
        center = (pivot[0] + mx * c + mz * s, pivot[1] - mx * s + mz * c)
        # Columns along the world axis the long side runs nearest (within 45 degrees of its own).
        axis = 0 if half[0] >= half[1] else 2
        reach = half[0] * abs(c) + half[1] * abs(s) if axis == 0 else half[0] * abs(s) + half[1] * abs(c)
        middle = center[axis // 2]
        count = max(1, math.ceil(2.0 * reach / STEP))
        edges = np.linspace(middle - reach, middle + reach, count + 1)
        for a, b in zip(edges[:-1], edges[1:]):
            span = _span_on_line(center, half, degrees, axis, (a + b) / 2.0)
            if span is None:
                continue
            piece_lo, piece_hi = row_lo.copy(), row_hi.copy()
            other = 2 - axis
            piece_lo[axis], piece_hi[axis] = a, b
            piece_lo[other], piece_hi[other] = span
            pieces.append((piece_lo, piece_hi, color))
    return as_rows(pieces, lo, hi, colors)
