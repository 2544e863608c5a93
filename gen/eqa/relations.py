"""Spatial relations between objects' boxes, as EQA's ``relate`` uses them: the geometry lives in
:mod:`alfred_gen.sim.relations` (one rung down, so that a demonstration's language says "next to"
exactly when EQA would); this module keeps EQA's import path."""

from alfred_gen.sim.relations import (
    ABOVE_REACH,
    LEVEL_GAP,
    NEXT_TO_GAP,
    RELATIONS,
    TOUCH_GAP,
    Box,
    floor_distance,
    is_above,
    is_below,
    is_next_to,
    is_on,
    related,
)

__all__ = ["ABOVE_REACH", "LEVEL_GAP", "NEXT_TO_GAP", "RELATIONS", "TOUCH_GAP", "Box", "floor_distance", "is_above",
           "is_below", "is_next_to", "is_on", "related"]
