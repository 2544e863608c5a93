"""A long thing put down partly over a taller loose thing rests on it, leaning.

THOR's physics lets a put object fall onto whatever lies under it: a spoon that comes down partly
over an egg rests with one end on the egg and the other on the basin's floor. Lite's boxes stay
level, so its spoon lay flat through the egg. A put lands where lite counts a spot free
(:meth:`~alfred_gen.sim.world.World.put_spots`: footprints overlapping by no more than
:data:`~alfred_gen.sim.world_objects.PUT_OVERLAP`), except where THOR's own landing says otherwise
(a replayed file's own landing, :func:`~alfred_gen.sim.put_landing.file_landing`, is exact): a long
thing (:data:`LONG_RATIO`) whose footprint then clashes with a taller loose thing's
(:func:`~alfred_gen.sim.world_objects.footprints_clash`) came down on it. :func:`settle` marks it
as leaning on the tallest such thing (:attr:`~alfred_gen.sim.world_objects.WorldObject.lean`): its
end towards that thing raised to the thing's top, the other on its own level; :func:`ramp` draws
its drawing that way, in :data:`~alfred_gen.sim.drawn_steps.STEP` long steps (the renderer draws
axis-aligned boxes). Its box stays level (what it takes of the receptacle, its metadata), and it
lies flat again once it or what it leans on is taken away (:meth:`~alfred_gen.sim.world.World.detach`).

In the in-sample mask eval (session 91) Spoon-None-DiningTable-20 (T20190909_034703, low 41): THOR's
70 px pickup mask runs from the egg's top (its top row level with the egg's) down to the basin's
floor. Laid along the sight as its file shows (:mod:`alfred_gen.scenes.alfred.file_headings`) but
level, lite's spoon lay through the egg, whose drawing covered it: IoU 0.107, the egg's 0.149, and
ALFRED's rule picked the egg; leaning on it, 0.119 (the egg's 0.076), the spoon. It is the only put
of the 238 files of ``../shared/alfred`` that leans (``alfred-gen verify``, completion on), and no
put of the wide held-out sample (every 20th train demo, no file evidence) does: its figures are
unchanged. Imported rooms only: procedural rooms keep their level boxes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from alfred_gen.sim.drawn_steps import STEP, Piece, as_rows
from alfred_gen.sim.world_objects import footprints_clash

if TYPE_CHECKING:
    from alfred_gen.sim.scene import Box
    from alfred_gen.sim.world import World, WorldObject

#: How many times its shorter horizontal side a thing's longer must be to lean on one end (spoons
#: 5.0; knives, forks, ladles, spatulas): a round thing that comes down on another is not a ramp.
LONG_RATIO = 3.0


def long_in_plan(size: Sequence[float]) -> bool:
    """Whether a box of ``size`` (x, y, z) has its longer horizontal side :data:`LONG_RATIO` times
    its shorter."""
    sx, _, sz = size
    return max(sx, sz) >= LONG_RATIO * min(sx, sz)


def support_of(world: World, receptacle: WorldObject, held: WorldObject) -> WorldObject | None:
    """The tallest loose thing in ``receptacle`` whose top stands above ``held``'s and whose
    footprint clashes with ``held``'s where it lies, for a long ``held`` in an imported room; None
    when there is none."""
    if not world.scene.from_alfred or not long_in_plan(held.size):
        return None
    half_x, half_z = held.size[0] / 2, held.size[2] / 2
    under = [world.by_id[c] for c in sorted(receptacle.children) if c != held.object_id]
    taller = [t for t in under if t.otype.pickupable and t.hi[1] > held.hi[1]
              and footprints_clash(t, held.center[0], held.center[2], half_x, half_z)]
    return max(taller, key=lambda t: t.hi[1], default=None)


def settle(world: World, receptacle: WorldObject, held: WorldObject) -> None:
    """Lean ``held``, just put into ``receptacle``, on :func:`support_of` (its end towards it raised
    to its top), or leave it level when there is none."""
    support = support_of(world, receptacle, held)
    if support is None:
        return
    axis = 0 if held.size[0] >= held.size[2] else 2
    towards = 1.0 if support.center[axis] >= held.center[axis] else -1.0
    held.lean = (float(axis), towards, support.hi[1] - held.lo[1])
    held.leans_on = support.object_id
    world.sight_changed()


def ramp(lo: np.ndarray, hi: np.ndarray, colors: np.ndarray, box: Box, lean: tuple[float, ...],
         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Drawing boxes (``lo``, ``hi``, ``colors`` rows) of a thing whose box is ``box`` leaning as
    ``lean`` says (axis 0 or 2, +1 or -1: the end raised, rise in metres): each box cut into
    :data:`~alfred_gen.sim.drawn_steps.STEP` long pieces along the axis, each raised by the rise times
    how far along the box towards the raised end its middle lies."""
    axis, towards, rise = int(lean[0]), lean[1], lean[2]
    start, end = box.lo[axis], box.hi[axis]
    length = max(end - start, 1e-9)
    first, last = min(start, float(lo[:, axis].min())), max(end, float(hi[:, axis].max()))
    edges = np.linspace(first, last, max(1, math.ceil((last - first) / STEP)) + 1)
    pieces: list[Piece] = []
    for row_lo, row_hi, color in zip(lo, hi, colors):
        for a, b in zip(edges[:-1], edges[1:]):
            a, b = max(a, row_lo[axis]), min(b, row_hi[axis])
            if b <= a:
                continue
            share = min(max(((a + b) / 2 - start) / length, 0.0), 1.0)
            lift = rise * (share if towards > 0 else 1.0 - share)
            piece_lo, piece_hi = row_lo.copy(), row_hi.copy()
            piece_lo[axis], piece_hi[axis] = a, b
            piece_lo[1] += lift
            piece_hi[1] += lift
            pieces.append((piece_lo, piece_hi, color))
    return as_rows(pieces, lo, hi, colors)
