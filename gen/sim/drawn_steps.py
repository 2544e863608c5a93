"""Shapes the renderer cannot draw, drawn as steps of the axis-aligned boxes it does draw.

The renderer draws axis-aligned boxes only. A long thing leaning on a taller one
(:func:`alfred_gen.sim.put_lean.ramp`) and a slice turned with its whole
(:func:`alfred_gen.sim.turned_rows.turned`) are each drawn as narrow pieces of their boxes, cut
:data:`STEP` apart along one world axis; this module holds what both share: the step, and how the
pieces become drawing rows again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: Length (metres) of each piece a drawing is cut into: under 2 px at the 1.5 m a basin is seen
#: from (ALFRED's 300 px frame, 60 degrees: 260 px per metre at 1 m).
STEP = 0.01

#: One piece of a drawing: its lo and hi corners and its colour row.
Piece = tuple[np.ndarray, np.ndarray, np.ndarray]


def as_rows(pieces: Sequence[Piece], lo: np.ndarray, hi: np.ndarray, colors: np.ndarray,
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The drawing rows (``lo``, ``hi``, ``colors``) of ``pieces``; the rows given, unchanged, when
    no piece was cut (nothing of the drawing lay on any step)."""
    if not pieces:
        return lo, hi, colors
    return (np.array([p[0] for p in pieces]), np.array([p[1] for p in pieces]),
            np.array([p[2] for p in pieces], dtype=colors.dtype))
