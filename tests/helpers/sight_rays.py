"""Sight rays for the importer's tests: the unit direction from an eye to a point, the form in
which a :class:`~alfred_gen.scenes.alfred.sight_facts.SightFact` keeps the rays through a mask."""

from __future__ import annotations

import math
from collections.abc import Sequence


def ray_to(eye: Sequence[float], point: Sequence[float]) -> tuple[float, float, float]:
    """The unit vector from ``eye`` towards ``point``."""
    d = [p - e for p, e in zip(point, eye)]
    n = math.sqrt(sum(c * c for c in d))
    return (d[0] / n, d[1] / n, d[2] / n)
