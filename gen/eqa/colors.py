"""Colour names from pixels, as EQA asks about them: the naming lives in :mod:`alfred_gen.sim.colors`
(one rung down, so that a demonstration's language names colours the same way); this module keeps
EQA's import path."""

from alfred_gen.sim.colors import (
    COLOR_NAMES,
    DOMINANT_SHARE,
    PROTOTYPE_SHADES,
    ColorReading,
    pixel_names,
    read_color,
    srgb_to_lab,
)

__all__ = ["COLOR_NAMES", "DOMINANT_SHARE", "PROTOTYPE_SHADES", "ColorReading", "pixel_names", "read_color",
           "srgb_to_lab"]
