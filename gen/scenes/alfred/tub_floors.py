"""A bathtub's floor is drawn where things rest in it, never under the room's floor.

The importer sizes a tub's basin from its id, and in seven bathrooms of the rooms built from every
train demo (FloorPlan406, 414, 419, 422, 423, 426 and 429) that put the bottom of its box 0.09-0.72 m
under the room's floor, while what the demos show at rest in the tub lies 0.04-0.22 m over it.
Lite draws the room's floor everywhere, so it hid the tub's inside: where THOR's mask of a put into
the tub is the tub's inside, lite drew floor, and only the walls above the floor were the basin's.
Held out by folds, on the samples of every 20th train demo from the 1st, 2nd, 3rd, 5th, 10th and
15th, puts into six of those tubs had a mean IoU of 0.05-0.41 by room (lite drew 0.18-0.6 of THOR's
pixels), against 0.34-0.73 in the tubs whose floor lies over the room's (but FloorPlan405's, 0.11);
in the seventh, FloorPlan429's, whose rim was also fitted at the box's bottom
(:func:`~alfred_gen.scenes.alfred.basin_openings.centred_rim`), lite drew none of the tub, ALFRED's
rule picked a cloth lying in it, and the replay stopped there.

So such a tub is drawn with its floor's top at the lowest bottom of what the demos show at rest in
it, or :data:`CLEARANCE` over the room's floor when nothing is; its rim is then fitted over that
floor. Drawing only (:attr:`Block.drawn_margins`): the box that holds things stays as it is. Tubs
whose floor lies over the room's keep their drawing. Only imported rooms are built here, so
procedural rooms are untouched.
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.scenes.alfred.basin_openings import resting_in
from alfred_gen.scenes.alfred.fixture_block import Block, drawn_floor, inner_floor
from alfred_gen.sim.scene import Box

#: How far over the room's floor a tub's floor is drawn when nothing is shown resting in it (metres).
CLEARANCE = 0.01


def tub_floors_in_view(blocks: Iterable[Block], resting: Iterable[Box], floor_y: float) -> None:
    """Each bathtub basin whose drawn floor lies under the room's floor (``floor_y``) is drawn with
    its floor at the lowest bottom of what rests in it (``resting``: the boxes of what the demos show
    at rest), else :data:`CLEARANCE` over the room's floor."""
    resting = list(resting)
    for basin in blocks:
        if basin.kind != "BathtubBasin" or drawn_floor(basin) >= floor_y:
            continue
        held = [box.lo[1] for box in resting_in(basin, resting, basin.hi[1]) if box.lo[1] > floor_y]
        top = min(min(held) if held else floor_y + CLEARANCE, basin.hi[1] - inner_floor(basin.kind))
        margins = basin.margin_list()
        margins[1] = round(basin.lo[1] - (top - inner_floor(basin.kind)), 4)
        basin.drawn_margins = tuple(margins)
