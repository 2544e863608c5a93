"""An object's colour name from the pixels the agent sees of it (EQA's questions, demo language).

EQA asks "What color is the sofa?" and answers with a basic colour name. Ours is read from a frame:
every pixel under the object's instance mask (at its best view, :mod:`.views`) is converted from
sRGB to CIELAB (D65) and given the name of the nearest prototype by ΔE*ab (CIE 1976, Euclidean in
Lab); the object's colour is the name most of its pixels get, when that name covers at least
:data:`DOMINANT_SHARE` of them. Otherwise no colour dominates and the question has no answer
(the program returns "ambiguous").

The names are the eleven basic colour terms. Each has prototypes at three levels of light, since a
face is drawn lit from above (tops at full light, sides between 0.7 and 0.88 of it): its colour as
lite paints it (:data:`alfred_gen.sim.palette.FINISHES`) at full light, at 0.85 and at 0.7. So a
red sofa's shaded front is still red rather than brown, and a white fridge's side still white.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from alfred_gen.sim.palette import FINISHES

#: The basic colour names, in the order charts list them.
COLOR_NAMES: tuple[str, ...] = tuple(FINISHES)

#: Light levels of each name's prototypes (fractions of full light).
PROTOTYPE_SHADES = (1.0, 0.85, 0.7)

#: The most frequent name must cover at least this share of an object's pixels to be its colour.
DOMINANT_SHARE = 0.5

# sRGB (D65) -> XYZ, and the D65 white point.
_RGB_TO_XYZ = np.array([
    [0.4124564, 0.3575761, 0.1804375],
    [0.2126729, 0.7151522, 0.0721750],
    [0.0193339, 0.1191920, 0.9503041],
])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours: (..., 3) uint8 or 0-255 floats -> (..., 3) floats L*, a*, b*."""
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    xyz = linear @ _RGB_TO_XYZ.T / _WHITE
    epsilon, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > epsilon, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def _prototypes() -> tuple[np.ndarray, tuple[str, ...]]:
    names: list[str] = []
    colors: list[list[float]] = []
    for name in COLOR_NAMES:
        for shade in PROTOTYPE_SHADES:
            names.append(name)
            colors.append([min(255.0, max(0.0, round(c * shade))) for c in FINISHES[name]])
    return srgb_to_lab(np.array(colors)), tuple(names)


_PROTOTYPE_LAB, _PROTOTYPE_NAMES = _prototypes()


def pixel_names(pixels: np.ndarray) -> list[str]:
    """The colour name of each pixel ((N, 3) sRGB): its nearest prototype by ΔE*ab."""
    lab = srgb_to_lab(np.asarray(pixels).reshape(-1, 3))
    distance = ((lab[:, None, :] - _PROTOTYPE_LAB[None, :, :]) ** 2).sum(axis=2)
    return [_PROTOTYPE_NAMES[i] for i in distance.argmin(axis=1).tolist()]


@dataclass(frozen=True)
class ColorReading:
    """What an object's pixels say: the dominant name (None when none dominates) and the share of
    pixels each name got, largest first."""

    name: str | None
    shares: tuple[tuple[str, float], ...]

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "shares": [[n, s] for n, s in self.shares]}


def read_color(pixels: np.ndarray, dominant: float = DOMINANT_SHARE) -> ColorReading:
    """The colour of an object from its pixels ((N, 3) sRGB, N > 0), see the module docstring.

    Equal colours are named once (a box-rendered object has few distinct colours), so this is cheap
    whatever the pixel count.
    """
    flat = np.asarray(pixels, dtype=np.uint8).reshape(-1, 3)
    if len(flat) == 0:
        return ColorReading(None, ())
    distinct, counts = np.unique(flat, axis=0, return_counts=True)
    tally: Counter[str] = Counter()
    for name, count in zip(pixel_names(distinct), counts.tolist()):
        tally[name] += count
    total = float(len(flat))
    ranked = sorted(tally.items(), key=lambda item: (-item[1], COLOR_NAMES.index(item[0])))
    shares = tuple((name, round(count / total, 4)) for name, count in ranked)
    top_name, top_count = ranked[0]
    return ColorReading(top_name if top_count / total >= dominant else None, shares)
