"""The outside of a sink basin's bowl is drawn as the sink around it, not as the basin.

THOR's instance mask of a ``SinkBasin`` is the inside of the bowl: its floor and the inner faces of
its walls. The outside of the bowl, and the cabinet front or counter under its rim, belong to the
``Sink`` object that holds the basin (or to the counter). Lite draws a basin as an open box
(:func:`~alfred_gen.sim.shapes._basin`), and where no counter slab stands in front of it (a sink
set into a cabinet run whose counter is cut round it, a pedestal sink) the outer face of its front
wall showed as the basin, below THOR's mask: on the wide sample (every 20th train demo, held out
by folds, main at session 79's start) lite drew kitchen basins at 1.75 times THOR's pixels (median
over 62 puts), their middle 3.5 pixels lower.

So in a room imported from ALFRED each basin gets a skirt: a thin box hugging each of its four
walls from outside, from its bottom to its top, drawn with no instance of its own
(:data:`SKIRT_OWNER`), which hides the outside of the walls and leaves the inside, seen over the
rim, to the basin. The skirt is cut where the basin's drawing is (its holes reach past its box),
so it never stands above the rim. Drawing only: placement, physics and reach keep the basin's box.
Procedural rooms draw basins as before. Wide sample, held out: sink basins' IoU 0.525 to 0.609 over
78 puts (kitchens 0.497 to 0.574, bathrooms 0.630 to 0.744), ALFRED's rule unchanged (2,015 of
2,099); measured set, held out: 0.520 to 0.616 over 13. Tried with the openings fitted without
their 2 cm margin (:data:`~alfred_gen.scenes.alfred.basin_openings.MARGIN` 0): basins 0.04 higher
again, but three rule picks lost net (things beside or in a basin lost to it).

Where the importer knows the basin's opening from its masks
(:attr:`~alfred_gen.sim.scene.SceneObject.opening`, which the box outgrows to hold what rests in the
bowl), the skirt also has a deck: a plate just under the rim over the rest of the footprint
(:func:`deck_boxes`), so the basin shows only through the opening THOR's masks show
(:mod:`alfred_gen.scenes.alfred.basin_openings`: basin puts' IoU 0.590 to 0.669 on the wide sample).
THOR's bowls are rounded (kitchens' rounded rectangles, bathrooms' ovals) where the opening is a
rectangle; where the importer gives the opening a roundness (its sixth value,
:data:`~alfred_gen.scenes.alfred.basin_openings.ROUNDNESS`: bathrooms' only), the deck also fills the
opening's four corners outside a quarter ellipse (:func:`corner_boxes`).
"""

from __future__ import annotations

from alfred_gen.sim.scene import Box

#: Types whose bowls get a skirt in imported rooms: THOR's mask of a bathtub basin is the tub's
#: inside too, its rim and outside the ``Bathtub``'s.
SKIRTED = frozenset({"SinkBasin", "BathtubBasin"})
#: The owner name the skirt is drawn under: no ``|``, so it is no instance (THOR's ``Sink``).
SKIRT_OWNER = "Sink"
#: How thick the skirt is (metres): thinner than the holes' margin past the box, so the holes cut it.
SKIRT = 0.008


def skirt_boxes(box: Box, thickness: float = SKIRT) -> list[Box]:
    """Four boxes ``thickness`` thick round the outside of ``box``'s walls, as tall as ``box``."""
    (x0, y0, z0), (x1, y1, z1) = box.lo, box.hi
    t = thickness
    return [
        Box((x0 - t, y0, z0 - t), (x0, y1, z1 + t)),
        Box((x1, y0, z0 - t), (x1 + t, y1, z1 + t)),
        Box((x0, y0, z0 - t), (x1, y1, z0)),
        Box((x0, y0, z1), (x1, y1, z1 + t)),
    ]


#: How thick the deck round a basin's opening is (metres), just under the rim.
DECK = 0.01


#: How many steps each rounded corner of an opening is drawn in (:func:`corner_boxes`).
CORNER_STEPS = 4


def corner_boxes(opening: tuple[float, float, float, float], roundness: float, y0: float,
                 y1: float, steps: int = CORNER_STEPS) -> list[Box]:
    """Boxes from ``y0`` to ``y1`` filling the four corners of the rectangle ``opening`` (x lo,
    x hi, z lo, z hi) outside a quarter ellipse whose radii are ``roundness`` of the rectangle's
    half width and half depth (0: square corners, none; 1: the rectangle's inscribed ellipse), each
    corner in ``steps`` strips along z, each strip reaching the arc at its middle."""
    if roundness <= 0.0:
        return []
    x0, x1, z0, z1 = opening
    rx, rz = roundness * (x1 - x0) / 2.0, roundness * (z1 - z0) / 2.0
    out = []
    for k in range(steps):
        u = 1.0 - (k + 0.5) / steps  # the strip's middle, from the arc's centre, in radii along z
        reach = rx * (1.0 - (1.0 - u * u) ** 0.5)  # how far the corner's fill reaches along x
        if reach <= 1e-6:
            continue
        near, far = rz * k / steps, rz * (k + 1) / steps
        for zs, ze in ((z0 + near, z0 + far), (z1 - far, z1 - near)):
            out.append(Box((x0, y0, zs), (x0 + reach, y1, ze)))
            out.append(Box((x1 - reach, y0, zs), (x1, y1, ze)))
    return out


def deck_boxes(box: Box, opening: tuple[float, ...], thickness: float = DECK) -> list[Box]:
    """The deck round a basin's ``opening`` (x lo, x hi, z lo, z hi, rim height, and optionally the
    roundness of its corners; see :attr:`~alfred_gen.sim.scene.SceneObject.opening`): up to four
    boxes ``thickness`` thick under the rim, covering ``box``'s footprint (and its skirt) outside
    the opening, and the corners of the opening outside its rounding (:func:`corner_boxes`)."""
    if len(opening) not in (5, 6):
        return []
    x0, x1, z0, z1, rim = opening[:5]
    roundness = opening[5] if len(opening) == 6 else 0.0
    t = SKIRT
    (bx0, _, bz0), (bx1, _, bz1) = box.lo, box.hi
    bx0, bz0, bx1, bz1 = bx0 - t, bz0 - t, bx1 + t, bz1 + t
    x0, x1 = max(x0, bx0), min(x1, bx1)
    z0, z1 = max(z0, bz0), min(z1, bz1)
    if x0 >= x1 or z0 >= z1:
        return [Box((bx0, rim - thickness, bz0), (bx1, rim, bz1))]
    y0, y1 = rim - thickness, rim
    strips = [
        ((bx0, y0, bz0), (bx1, y1, z0)),
        ((bx0, y0, z1), (bx1, y1, bz1)),
        ((bx0, y0, z0), (x0, y1, z1)),
        ((x1, y0, z0), (bx1, y1, z1)),
    ]
    return [Box(lo, hi) for lo, hi in strips if all(h - lo_ > 1e-6 for lo_, h in zip(lo, hi))] \
        + corner_boxes((x0, x1, z0, z1), roundness, y0, y1)
