"""A shelving unit whose masks show each compartment one board lower than its id is drawn so.

THOR's ``Shelf`` is a compartment of a shelving unit, named by the unit's x and z and a height
(:mod:`~alfred_gen.scenes.alfred.shelf_backs`). In most units the height is the compartment's board,
and lite draws the board there with the back above it. The kitchen shelving unit of FloorPlan1, 5,
7 and 20 (boards at 0.16, 0.54 and 0.87 m, things at rest at 0.17, 0.55 and 0.88) is named by the
top of the compartment instead: THOR's masks of ``Shelf|+01.55|+00.54|+02.48`` (FloorPlan20) show the
compartment from the 0.16 m board up, and those of FloorPlan1's ``Shelf|+01.80|+00.87|-02.56`` the one
from the 0.54 m board up. Drawn at its id, FloorPlan20's shelf lay 40-50 px above THOR's mask with no
overlap, and ALFRED's rule picked the board below, lite's ``Shelf|+01.55|+00.16|+02.48``: held out by
folds, it picked the right shelf in none of the room's 42 puts onto it (FloorPlan1's top shelf: 0 of 8).

So, per unit (boards whose ids share x and z to the centimetre, at least two), every ray of its
boards' masks (:attr:`~alfred_gen.scenes.alfred.sight_facts.SightFact.rays`, the other folds' masks
only, as every fit of the evidence) is followed to the first board or drawn back of the unit it meets,
which tells the compartment it lands on; under the lowest board, a compartment one spacing lower
(:func:`spaced_below`) is met too where the floor leaves room for it (FloorPlan1's unit has no board
at 0.16 m, where THOR's masks of its lowest one lie). When at least :data:`MIN_MASKS` masks of the unit
were cast and their rays land on the compartment below their own board at least :data:`SHIFT_RATIO`
times as often as on their own, the unit's drawing moves down a compartment: each board is drawn as
the board below it, and the lowest one as that spaced compartment (or, where the floor leaves no
room, as the top board, which the move leaves bare). Its back follows its drawing
(:func:`~alfred_gen.scenes.alfred.shelf_backs.back_parts` reads drawn heights). Drawing only: the
boxes, which hold what rests on them, stay at the ids. FloorPlan7's unit, seen mostly from beside it,
lands its middle board's rays on its own compartment about as often as below (about 50 to 50 per
fold) and stays.

Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.shelf_backs import back_parts, unit_of
from alfred_gen.scenes.alfred.sight_cuts import ray_entry
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import margins_of

#: Masks of a unit's boards needed before its drawing moves.
MIN_MASKS = 2
#: How many times more rays must land on the compartment below their board than on their board's own.
SHIFT_RATIO = 2.0
#: The least clearance over the floor of a lowest board moved a spacing down (metres).
FLOOR_CLEARANCE = 0.02


def shelving_units(blocks: Sequence[Block]) -> list[list[Block]]:
    """The shelf boards of each unit of two or more (ids sharing x and z), lowest board first."""
    units: dict[tuple[float, float], list[Block]] = {}
    for block in blocks:
        if block.kind == "Shelf":
            units.setdefault(unit_of(block), []).append(block)
    return [sorted(boards, key=lambda b: (b.hi[1], b.object_id)) for boards in units.values() if len(boards) > 1]


def spaced_below(boards: Sequence[Block], floor_y: float) -> Block | None:
    """The lowest board moved down by the unit's lowest spacing, where it stays above the floor: the
    compartment a unit drawn a compartment lower draws it as; None under the floor."""
    drop = boards[1].hi[1] - boards[0].hi[1]
    if boards[0].lo[1] - drop < floor_y + FLOOR_CLEARANCE:
        return None
    lo, hi = list(boards[0].lo), list(boards[0].hi)
    lo[1], hi[1] = lo[1] - drop, hi[1] - drop
    return replace(boards[0], object_id=boards[0].object_id + "|below", lo=lo, hi=hi, drawn_margins=())


def surfaces(boards: Sequence[Block], floor_y: float) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Low and high corners of what each board's compartment shows: the board and its drawn back
    (:func:`~alfred_gen.scenes.alfred.shelf_backs.back_parts`), with the compartment each belongs to
    (-1: the one a spacing under the lowest board, :func:`spaced_below`, when the floor leaves room)."""
    below = spaced_below(boards, floor_y)
    unit = [*boards, *([below] if below is not None else [])]
    lo, hi, owner = [], [], []
    for k, board in enumerate(unit):
        for box in (board.box(), *back_parts(board, unit)):
            lo.append(box.lo)
            hi.append(box.hi)
            owner.append(k if k < len(boards) else -1)
    return np.array(lo, dtype=float), np.array(hi, dtype=float), owner


def landings(boards: Sequence[Block], sights: Sequence[SightFact], floor_y: float) -> tuple[int, int, int]:
    """(masks, rays landing on their own board's compartment, rays landing on the one below) over
    the masks of ``boards`` (one unit, lowest first): a ray lands on the first board or back it meets."""
    index = {board.object_id: k for k, board in enumerate(boards)}
    lo, hi, owner = surfaces(boards, floor_y)
    masks = own = below = 0
    for fact in sights:
        k = index.get(fact.target)
        if k is None or fact.loose is not None or not fact.rays:
            continue
        masks += 1
        eye = np.asarray(fact.eye, dtype=float)
        for ray in fact.rays:
            r = np.asarray(ray, dtype=float)
            entries = [(t, owner[j]) for j in range(len(owner)) if (t := ray_entry(eye, r, lo[j], hi[j])) is not None]
            if not entries:
                continue
            first = min(entries)[1]
            own += first == k
            below += first == k - 1
    return masks, own, below


def drawn_a_compartment_lower(boards: Sequence[Block], floor_y: float) -> None:
    """Draw each board of ``boards`` (lowest first) as the board below it (see the module docstring).
    The drawing replaces what :func:`~alfred_gen.scenes.alfred.fixture_extents.extents_to_their_masks`
    fitted across and along the board: its masks were read as the board at its id's height."""
    lowest = spaced_below(boards, floor_y) or boards[-1]
    for k, board in enumerate(boards):
        lo, hi = list(board.lo), list(board.hi)
        under = boards[k - 1] if k > 0 else lowest
        lo[1], hi[1] = under.lo[1], under.hi[1]
        board.drawn_margins = margins_of(board.box(), lo, hi)


def shelves_to_their_compartments(blocks: list[Block], sights: Sequence[SightFact], floor_y: float) -> None:
    """Each shelving unit whose masks show its compartments one board lower is drawn so."""
    for boards in shelving_units(blocks):
        masks, own, below = landings(boards, sights, floor_y)
        if masks >= MIN_MASKS and below > 0 and below >= SHIFT_RATIO * own:
            drawn_a_compartment_lower(boards, floor_y)
