"""``pixel-diff``: a training-free ACT-Thor baseline that reads where the image changed.

ACT-Thor's images are taken from one spot per room, facing the surface, with the held object in the
lower half of the frame and the surface ahead in the upper half. So where a candidate after-image
differs from the before-image says what kind of thing happened, and each action says what it
should change:

* leaving the hand and appearing ahead (``put``, ``throw``) or leaving the surface and appearing in
  the hand (``pickup``): a change in both halves, scored ``min(upper, lower)``;
* ``drop``: the hand empties and the object falls below the view, nothing appears ahead:
  ``lower - upper``;
* ``push``, ``pull``: the object slides on the surface, the hand stays empty: ``upper - lower``;
* a change of state in place (``open``, ``close``, ``toggle``, ``dirty``, ``fill``, ``break``):
  only some of the object's own pixels change, less than any move: ``-(upper + lower)``.

``upper`` and ``lower`` are the shares of the frame's pixels in each half whose colour changed by
more than :data:`CHANGE` (summed over R, G, B; JPEG noise stays below it). A candidate that changed
more than :data:`FOREIGN` of the frame cannot come from the same before-image (the fourth candidate
of a four-image set is from another room) and is never chosen unless every candidate is so. The
candidate with the highest score wins; ties go to the first. Nothing is fitted: the rules are
read off what the actions do, and the thresholds are the only numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

#: A pixel changed when its |R| + |G| + |B| difference exceeds this.
CHANGE = 40
#: A candidate changing more than this share of the frame shows another place.
FOREIGN = 0.25

MOVES_BOTH = frozenset({"put", "throw", "pickup"})
SLIDES = frozenset({"push", "pull"})


def changed_halves(before: np.ndarray, after: np.ndarray) -> tuple[float, float]:
    """(share of the upper half, share of the lower half) of pixels that changed."""
    a = np.asarray(before, dtype=np.int16)
    b = np.asarray(after, dtype=np.int16)
    if a.shape != b.shape:
        return 1.0, 1.0  # another camera: nothing in common
    changed = np.abs(a - b).sum(axis=2) > CHANGE
    middle = changed.shape[0] // 2
    return float(changed[:middle].mean()), float(changed[middle:].mean())


def action_score(action: str, upper: float, lower: float) -> float:
    """How well a change in the upper and lower halves fits ``action`` (module docstring)."""
    if action in MOVES_BOTH:
        return min(upper, lower)
    if action == "drop":
        return lower - upper
    if action in SLIDES:
        return upper - lower
    return -(upper + lower)


class PixelDiffPredictor:
    """The baseline as an ``eval actthor`` agent."""

    def predict(self, before: np.ndarray, action: str, candidates: Sequence[np.ndarray],
                info: Mapping[str, Any]) -> int:
        halves = [changed_halves(before, c) for c in candidates]
        local = [(upper + lower) / 2 <= FOREIGN for upper, lower in halves]
        pool = [k for k in range(len(candidates)) if local[k]] or list(range(len(candidates)))
        return max(pool, key=lambda k: (action_score(action, *halves[k]), -k))
