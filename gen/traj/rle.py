"""Interaction masks as ALFRED stores them: run-length encoding, bounding box and click point.

Every interaction in ALFRED's ``plan.low_actions[i].discrete_action.args`` carries three views of
the target's instance mask in the 300x300 egocentric frame:

``mask``
    ``[[start, length], ...]``: runs of mask pixels over the row-major flattened image (pixel
    ``(row, col)`` has index ``row * 300 + col``), in increasing order, each run maximal (two runs
    never touch), ``length >= 1`` and ``start + length <= 90000``.
``bbox``
    ``[x1, y1, x2, y2]``, x = column, y = row.
``point``
    ``[x, y]``, a pixel of the mask.

How ``bbox`` and ``point`` relate to ``mask`` was measured on the released sample (238 train
trajectories under ``$ALFRED_DATA/json_2.1.0``, 1172 masks, 158955 runs; tests/test_rle.py checks
it again on every run of the suite):

* Runs: in all 1172 masks they are sorted, non-overlapping and maximal, so decoding then
  re-encoding gives back the stored list exactly.
* bbox, the off-by-one in y: in all 1172 masks ``x1``/``x2`` are the leftmost/rightmost mask
  columns (both inclusive) while ``y1``/``y2`` are the topmost/bottommost mask rows **plus one**:
  the box sits one pixel lower than the mask. So ``y1`` is never on the mask's top row, and ``y2``
  is 300 (outside the image) for the 141 masks that touch the bottom row. We reproduce it rather
  than fix it, so that our files mean the same thing to ALFRED's loaders and models.
* point: in all 1172 masks it is a mask pixel in mask coordinates (no y shift). Take the centre of
  the mask's extent, ``((xmin + xmax) // 2, (ymin + ymax) // 2)``. In 1002 masks that pixel is on
  the mask and is the point. In the other 170 (concave or hollow shapes) the point is the mask pixel
  nearest to that centre in Euclidean distance; 23 of them have several equally near pixels, and
  in all 23 the point is the first of them in row-major order. This rule gives the released point
  for all 1172 masks.

All functions are vectorised with numpy: a 300x300 mask is 90000 pixels and the generator encodes
one per interaction.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

FRAME_HEIGHT = 300  #: ALFRED frame height in pixels (rows)
FRAME_WIDTH = 300  #: ALFRED frame width in pixels (columns)
FRAME_PIXELS = FRAME_HEIGHT * FRAME_WIDTH  #: length of the flattened frame that runs index into

Runs = list[list[int]]


def encode_mask(mask: np.ndarray) -> Runs:
    """Run-length encode a boolean HxW mask as ALFRED does: ``[[start, length], ...]``.

    Runs cover the True pixels of the row-major flattened mask, sorted and maximal. Any 2-D shape
    is accepted; ALFRED's frames are 300x300. Returns plain Python ints, ready for json.
    """
    pixels = np.asarray(mask)
    if pixels.ndim != 2:
        raise ValueError(f"mask must be 2-D (height x width), got shape {pixels.shape}")
    flat = pixels.astype(bool, copy=False).ravel()
    # Pad with False on both sides so every run has a rising and a falling edge.
    edges = np.diff(np.concatenate(([False], flat, [False])).view(np.int8))
    starts = np.flatnonzero(edges == 1)
    lengths = np.flatnonzero(edges == -1) - starts
    return np.stack((starts, lengths), axis=1).tolist()


def decode_mask(
    runs: Sequence[Sequence[int]], height: int = FRAME_HEIGHT, width: int = FRAME_WIDTH
) -> np.ndarray:
    """Decode ``[[start, length], ...]`` runs into a boolean ``height x width`` mask.

    Raises ValueError when a run is not a ``[start, length]`` pair of integers with
    ``start >= 0``, ``length >= 1`` and ``start + length <= height * width``. Overlapping or
    unsorted runs decode to their union (the schema check reports them; decoding stays lenient).
    """
    total = height * width
    try:
        pairs = np.asarray(runs) if len(runs) else np.zeros((0, 2), np.int64)
    except (TypeError, ValueError):  # ragged nesting
        pairs = np.zeros(0)
    if pairs.ndim != 2 or pairs.shape[1] != 2 or pairs.dtype.kind not in "iu":
        raise ValueError("mask runs must be a list of [start, length] pairs of integers")
    pairs = pairs.astype(np.int64, copy=False)
    starts, lengths = pairs[:, 0], pairs[:, 1]
    ends = starts + lengths
    bad = (starts < 0) | (lengths < 1) | (ends > total)
    if bad.any():
        index = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"mask run {index} [{starts[index]}, {lengths[index]}] is outside the "
            f"{height}x{width} image ({total} pixels) or empty"
        )
    # +1 where a run starts, -1 where it ends; the running sum is >0 exactly on mask pixels.
    delta = np.bincount(starts, minlength=total + 1) - np.bincount(ends, minlength=total + 1)
    return (np.cumsum(delta[:total]) > 0).reshape(height, width)


def _extent(mask: np.ndarray) -> tuple[int, int, int, int]:
    """(xmin, ymin, xmax, ymax) of the True pixels, inclusive; ValueError for an empty mask."""
    pixels = np.asarray(mask, dtype=bool)
    if pixels.ndim != 2:
        raise ValueError(f"mask must be 2-D (height x width), got shape {pixels.shape}")
    rows = np.flatnonzero(pixels.any(axis=1))
    if rows.size == 0:
        raise ValueError("mask is empty: an interaction target must cover at least one pixel")
    cols = np.flatnonzero(pixels.any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1]), int(rows[-1])


def bbox_from_mask(mask: np.ndarray) -> list[int]:
    """ALFRED's ``bbox`` for a mask: ``[xmin, ymin + 1, xmax, ymax + 1]`` (see module docstring).

    x is inclusive on both ends; y is shifted one pixel down, as in every released mask.
    """
    xmin, ymin, xmax, ymax = _extent(mask)
    return [xmin, ymin + 1, xmax, ymax + 1]


def point_from_mask(mask: np.ndarray) -> list[int]:
    """ALFRED's ``point`` ``[x, y]`` for a mask (see module docstring).

    The centre of the mask's extent if it lies on the mask, else the nearest mask pixel to it
    (Euclidean), the first in row-major order among equally near pixels.
    """
    pixels = np.asarray(mask, dtype=bool)
    xmin, ymin, xmax, ymax = _extent(pixels)
    cx, cy = (xmin + xmax) // 2, (ymin + ymax) // 2
    if pixels[cy, cx]:
        return [cx, cy]
    ys, xs = np.nonzero(pixels)  # row-major order, so argmin keeps the first of equals
    nearest = int(np.argmin((xs - cx) ** 2 + (ys - cy) ** 2))
    return [int(xs[nearest]), int(ys[nearest])]


def interaction_args(mask: np.ndarray) -> dict[str, list]:
    """The ``mask``, ``bbox`` and ``point`` entries ALFRED stores for an interaction target."""
    return {"mask": encode_mask(mask), "bbox": bbox_from_mask(mask), "point": point_from_mask(mask)}
