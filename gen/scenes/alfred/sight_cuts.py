"""Fixtures cut back out of the lines of sight the released demos prove clear (a step of
:mod:`alfred_gen.scenes.alfred.geometry`).

A fixture's box comes from a catalogue size and is often bigger than THOR's mesh: a shelf deeper
than the one above the mug, a toilet wider than the plunger beside it allows, a garbage can taller
than the soap inside it lets be seen over. THOR said what it let the agent see
(:mod:`alfred_gen.scenes.alfred.sight_facts`): each ray of an interaction's mask reaches the
target's box with nothing in between. Every other fixture box that ray passes through is cut back
along one face, the one losing the least volume, so the ray misses it; a cut never leaves a
fixture thinner than :data:`MIN_THICKNESS`, never moves a face past what the fixture must keep
(the objects the demos show on or in it: its support evidence), and never lifts a fixture standing
on the floor off it (a sofa cut from below floated over the coffee table in front of it). A fixture
holding the ray's target is seen into through its opening: an open basin (a sink, a garbage can)
has its rim lowered to where the ray crosses it, never below the target's middle; a cabinet,
drawer or fridge is left as it is. A drawer seen open (its mask at a put into it, or at the close
that follows) is seen at its tray, slid out of its box as lite draws it (:func:`seen_box`). A
fixture that cannot be cut back (what rests on it would fall off) gets a window around the ray cut
out of its drawing instead
(:attr:`~alfred_gen.sim.scene.SceneObject.holes`): the box that holds things stays whole, and the
agent sees through where THOR showed nothing is. A cabinet holding things (points to keep) is never
cut, only windowed: one-face cuts keep the box round its contents' middles, not round the contents
or the space the agent reaches into. FloorPlan24's base cabinet Cabinet|+00.58|+00.39|+02.69 was cut
to y -0.01..0.17 and FloorPlan8's Cabinet|-02.24|+00.40|-01.39 to y 0.05..0.28 (FloorPlan414's wall
cabinet, before its side was fixed, to a 2 cm sliver). Over the rooms built from every train demo
this keeps 26 cabinets in 17 rooms whole. On the wide sample (every 20th train demo, held out) no
pick of ALFRED's rule changes (2,037 of 2,104), mean IoU 0.6371 to 0.6378 (cabinets' summed +1.22);
the in-sample mask eval goes 716 to 719 of 757 (CreditCard-None-Drawer-227, none lost). Drawers,
fridges and microwaves are still cut: windowing every container holding things lost 4 held-out picks
(two drawer opens in FloorPlan420, slices taken out of a fridge and a microwave), drawers' IoU
summed -0.96. A desk lamp is never cut either, only windowed (:data:`WINDOWED_KINDS`): THOR's lamp is
a stem under a wide shade, and the rays passing beside the stem cut FloorPlan309's lamp to a sliver
floating over its table; held out, its 9 toggles in the rooms with cut lamps go 0.599 to 0.613, no
pick changed. Rays whose target box they do not meet (boxes are approximations) say nothing and are
skipped.

A target resting on a surface is seen through no fixture but its own basin or container: any other
fixture whose box holds the target's middle is bigger than THOR's mesh there, and gets a window
for the rays. Not a cut, which would take the face past the target and most of the fixture with
it (a toilet's whole bowl). FloorPlan408's toilet paper sits on its holder in front of the toilet's
tank, its middle inside the toilet's box; the demos that took it saw 848 pixels of it where lite's
tank, taken for something the paper lay in, left 9. What lies in a container (a drawer inside a
dresser's box) is still seen through every fixture around it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from alfred_gen.scenes.alfred.evidence import type_of_name
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_sizing import ROW_LEVEL, ROW_REACH
from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box
from alfred_gen.sim.setup_actions import _support as simulator_support
from alfred_gen.sim.shapes import BASIN_WALLS, content_offset
from alfred_gen.sim.world import INSIDE_RECEPTACLES, WorldObject

#: A cut never leaves a fixture thinner than this along any axis (metres).
MIN_THICKNESS = 0.02
#: The free part of a ray stops this short of where it enters its target's box (metres).
SHORT_OF_TARGET = 0.03
#: A cut goes this far past the ray (metres).
CUT_MARGIN = 0.005
#: Half the width of the window cut out of a fixture's drawing around a ray it cannot be cut back
#: from (metres): at the 0.5-1 m the agent interacts from, 15-30 pixels across.
HOLE_HALF_WIDTH = 0.03

#: Fixture types never cut back, only windowed: a lamp is a thin stem under a wide shade, so the rays
#: that pass beside its stem say nothing about its shade (FloorPlan309's desk lamp was cut to a
#: 0.19 m sliver floating over its table, 2,047 of THOR's 25,419 pixels).
WINDOWED_KINDS = frozenset({"DeskLamp"})


def ray_entry(eye: np.ndarray, ray: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float | None:
    """Distance along ``ray`` (unit) from ``eye`` at which it enters box [lo, hi]; None if it misses."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(ray) < 1e-12, 1e-12, ray)
    t1, t2 = (lo - eye) * inv, (hi - eye) * inv
    near, far = float(np.minimum(t1, t2).max()), float(np.maximum(t1, t2).min())
    if far < max(near, 0.0):
        return None
    return max(near, 0.0)


def _span(eye: np.ndarray, ray: np.ndarray, length: float, lo: np.ndarray, hi: np.ndarray
          ) -> tuple[float, float] | None:
    """The part [t0, t1] of the segment eye + t * ray, t in [0, length], inside box [lo, hi]."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(ray) < 1e-12, 1e-12, ray)
    t1, t2 = (lo - eye) * inv, (hi - eye) * inv
    t0, t3 = max(float(np.minimum(t1, t2).max()), 0.0), min(float(np.maximum(t1, t2).min()), length)
    return (t0, t3) if t3 > t0 else None


def _crossed(eye: np.ndarray, ray: np.ndarray, length: float, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per box (rows of ``lo``/``hi``): whether the segment eye + t * ray, t in [0, length], enters it."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(ray) < 1e-12, 1e-12, ray)
    t1, t2 = (lo - eye) * inv, (hi - eye) * inv
    near = np.maximum(np.minimum(t1, t2).max(axis=1), 0.0)
    far = np.minimum(np.maximum(t1, t2).min(axis=1), length)
    return far > near


#: Actions whose mask THOR took with a drawer standing open: a put into it, or the close that
#: follows (it records the mask before acting).
OPEN_MASK_ACTIONS = frozenset({"PutObject", "CloseObject"})


def seen_box(block: Block, action: str) -> Box:
    """Where a fixture's mask at ``action`` shows it: a drawer put into or closed stands open, its
    tray slid out along its front as lite draws it (:func:`~alfred_gen.sim.shapes.content_offset`,
    which moves its contents with it); anything else, its box.

    The rays of an open drawer's mask end at its tray, in front of its shut box. Aimed at the shut
    box, they ran on past the tray into what stands behind it, and the furniture round the drawer,
    whose box holds the shut box's middle, was taken for what the drawer lies in and never cut for
    them. FloorPlan312's side table has two drawers stacked at one spot. In its held-out rooms lite
    drew none of the upper one, which lay behind the table's front, and both demos that open it
    stopped there (THOR's masks of it: a band across the table's front under its top). Aimed at the
    tray, out in front of the table, its rays cut the table's body back under its top, and lite
    draws the drawer where THOR's masks show it (IoU 0 -> 0.56; the table's own masks fit it better
    too). Over the 15 rooms whose drawers stand in columns (5,054 interactions, each room built
    without the demo's fold), ALFRED's rule picks 11 more targets and none fewer, and 2 more demos
    replay: ``python bench/alfred_fidelity.py ALFRED_TRAIN --no-in-sample --no-plans --masks
    --rooms 1,2,30,203,209,220,222,307,309,312,314,316,318,328,330``.
    """
    box = block.box()
    if action not in OPEN_MASK_ACTIONS:
        return box
    return box.translated(*content_offset(block.kind, box, True, block.facing))


def _cut_out(block: Block, eye: np.ndarray, ray: np.ndarray, span: tuple[float, float],
             protected: Sequence[tuple[float, float, float]]) -> bool:
    """Move one face of ``block`` past the segment part ``span``, the option losing the least
    volume that keeps every protected point inside, the block thick enough and a block standing on
    the floor on it; whether it did."""
    a, b = eye + span[0] * ray, eye + span[1] * ray
    size = [block.hi[i] - block.lo[i] for i in range(3)]
    options = []
    for axis in range(3):
        others = [i for i in range(3) if i != axis]
        area = size[others[0]] * size[others[1]]
        new_hi = min(a[axis], b[axis]) - CUT_MARGIN
        new_lo = max(a[axis], b[axis]) + CUT_MARGIN
        if new_hi - block.lo[axis] >= MIN_THICKNESS and all(p[axis] <= new_hi for p in protected):
            options.append(((block.hi[axis] - new_hi) * area, axis, 1, new_hi))
        lifts_off_floor = axis == 1 and block.floor_origin
        if (block.hi[axis] - new_lo >= MIN_THICKNESS and all(p[axis] >= new_lo for p in protected)
                and not lifts_off_floor):
            options.append(((new_lo - block.lo[axis]) * area, axis, 0, new_lo))
    if not options:
        return False
    _, axis, high, value = min(options)
    if high:
        block.hi[axis] = float(value)
    else:
        block.lo[axis] = float(value)
    return True


def _hole(eye: np.ndarray, ray: np.ndarray, span: tuple[float, float]) -> Box:
    """A thin box around the part ``span`` of a ray: the window cut out of a fixture's drawing."""
    a, b = eye + span[0] * ray, eye + span[1] * ray
    lo = np.minimum(a, b) - HOLE_HALF_WIDTH
    hi = np.maximum(a, b) + HOLE_HALF_WIDTH
    return Box((float(lo[0]), float(lo[1]), float(lo[2])), (float(hi[0]), float(hi[1]), float(hi[2])))


def _inside(point: Sequence[float], block: Block) -> bool:
    return all(block.lo[i] <= point[i] <= block.hi[i] for i in range(3))


def clear_sight_lines(blocks: Sequence[Block], sights: Sequence[SightFact], floor_y: float,
                      keep: Mapping[str, Sequence[tuple[float, float, float]]],
                      shifts: Mapping[str, tuple[float, float]]) -> tuple[int, int]:
    """Cut fixtures out of every sight fact's rays (see the module docstring). ``keep``: per fixture
    id, points it must keep inside (what rests on or in it); ``shifts``: the loose objects' box
    shifts. Returns (cuts made, rays still blocked)."""
    by_id = {b.object_id: b for b in blocks}
    index_of = {id(b): i for i, b in enumerate(blocks)}
    lo_all = np.array([b.lo for b in blocks], dtype=float).reshape(-1, 3)
    hi_all = np.array([b.hi for b in blocks], dtype=float).reshape(-1, 3)
    cuts = blocked = 0
    for fact in sights:
        if fact.loose is not None:
            name, position, yaw = fact.loose
            box: Box | None = loose_box(type_of_name(name), position, yaw, floor_y, shifts.get(name))
        else:
            target_block = by_id.get(fact.target)
            box = seen_box(target_block, fact.action) if target_block is not None else None
        if box is None:
            continue
        holder = _holder(blocks, fact, box)
        on_a_surface = holder is not None and not by_id[holder].container
        eye = np.asarray(fact.eye, dtype=float)
        t_lo, t_hi = np.asarray(box.lo, dtype=float), np.asarray(box.hi, dtype=float)
        centre = box.center
        for direction in fact.rays:
            ray = np.asarray(direction, dtype=float)
            entry = ray_entry(eye, ray, t_lo, t_hi)
            if entry is None or entry - SHORT_OF_TARGET <= 0.05:
                continue
            length = entry - SHORT_OF_TARGET
            for i in np.flatnonzero(_crossed(eye, ray, length, lo_all, hi_all)).tolist():
                block = blocks[i]
                if block.object_id == fact.target:
                    continue
                span = _span(eye, ray, length, np.asarray(block.lo), np.asarray(block.hi))
                if span is None:
                    continue
                inside = _inside(centre, block)
                if inside and on_a_surface and not (block.container or block.kind in BASIN_WALLS
                                                    or block.object_id == holder):
                    block.holes.append(_hole(eye, ray, span))  # around what rests on another fixture
                    blocked += 1
                    continue
                if inside:  # the target lies in this fixture: seen through its opening
                    if block.kind not in BASIN_WALLS:
                        continue
                    crossing = float(eye[1] + span[0] * ray[1])  # a basin: seen over its rim
                    if crossing >= block.hi[1] - 1e-4:
                        continue  # the ray comes in over the rim already
                    rim = crossing - CUT_MARGIN
                    if rim >= max(centre[1], block.lo[1] + MIN_THICKNESS):
                        block.hi[1] = rim
                        hi_all[index_of[id(block)], 1] = rim
                        cuts += 1
                    else:
                        blocked += 1
                    continue
                protected = list(keep.get(block.object_id, ())) + list(block.keep)
                if (not (block.kind == "Cabinet" and protected) and block.kind not in WINDOWED_KINDS
                        and _cut_out(block, eye, ray, span, protected)):
                    lo_all[i], hi_all[i] = block.lo, block.hi
                    cuts += 1
                else:
                    block.holes.append(_hole(eye, ray, span))
                    blocked += 1
    return cuts, blocked


def _holder(blocks: Sequence[Block], fact: SightFact, box: Box) -> str | None:
    """The fixture a sight fact's loose target rests on or in by the simulator's support rule (None
    for a fixture target, or a target resting on nothing)."""
    if fact.loose is None:
        return None
    obj = WorldObject("sighted", type_of_name(fact.loose[0]), "sighted", box.center, (0.0, 0.0, 0.0), box)
    winner = simulator_support(None, obj, [b.support_view() for b in blocks])
    return winner.object_id if winner is not None else None


def supported_points(blocks: Sequence[Block], resting: Sequence[tuple[str, Box]]
                     ) -> dict[str, list[tuple[float, float, float]]]:
    """Per fixture id, the points it must keep inside so that every object at rest on or in it (by
    the simulator's support rule) stays there: a container keeps the object's centre, a surface the
    point just under the middle of the object's bottom."""

    views = [b.support_view() for b in blocks]
    out: dict[str, list[tuple[float, float, float]]] = {}
    for kind, box in resting:
        obj = WorldObject("resting", kind, "resting", box.center, (0.0, 0.0, 0.0), box)
        winner = simulator_support(None, obj, views)
        if winner is None:
            continue
        cx, _, cz = box.center
        point = box.center if winner.type_name in INSIDE_RECEPTACLES else (cx, box.lo[1] - 0.01, cz)
        out.setdefault(winner.object_id, []).append(point)
    return out


#: Shelf boards whose footprints lie this close across their width stand in one frame (metres).
SAME_FRAME_GAP = 0.05


def _frames(boards: Sequence[Block]) -> list[list[Block]]:
    """Boards facing one way with ids at one depth (to the centimetre), grouped into runs whose
    spans across the front meet (within :data:`SAME_FRAME_GAP`): the boards of one shelving unit."""
    rows: dict[tuple[int, float], list[Block]] = {}
    for board in boards:
        axis, _ = board.front_axis
        rows.setdefault((board.facing, round(board.position[axis], 2)), []).append(board)
    frames: list[list[Block]] = []
    for row in rows.values():
        across = row[0].across_axis
        run: list[Block] = []
        reach = 0.0  # how far the run reaches across the front
        for board in sorted(row, key=lambda b: (b.lo[across], b.object_id)):
            if run and board.lo[across] <= reach + SAME_FRAME_GAP:
                run.append(board)
                reach = max(reach, board.hi[across])
            else:
                if run:
                    frames.append(run)
                run, reach = [board], board.hi[across]
        frames.append(run)
    return [frame for frame in frames if len(frame) > 1]


def boards_share_their_frame(blocks: Sequence[Block], keep: Mapping[str, Sequence[tuple[float, float, float]]]
                             ) -> int:
    """Bring every board of a shelving unit to the front its most cut-back board has.

    A THOR shelving unit is one frame: its boards are as deep as each other (FloorPlan303's, 319's
    and 324's are 0.15-0.24 m deep, the catalogue's shelf 0.35 m). The sight facts cut back only
    the boards some demo's rays passed, so in rooms built without a demo the board over the thing
    it picks up kept the catalogue's depth and hid it (FloorPlan319's alarm clocks and pencils).
    The board's front goes no further back than what rests on it (``keep``, its own evidence) and
    it stays :data:`MIN_THICKNESS` deep. Returns how many boards moved.
    """
    moved = 0
    for frame in _frames([b for b in blocks if b.kind == "Shelf"]):
        reach = _reach(frame)
        moved += sum(_front_to(board, reach, keep) for board in frame)
    return moved


def _reach(blocks: Sequence[Block]) -> float:
    """How far in front of its id the most cut-back of ``blocks`` (facing one way) reaches."""
    axis, sign = blocks[0].front_axis
    return min(sign * (b.front() - b.position[axis]) for b in blocks)


def _front_to(block: Block, reach: float, keep: Mapping[str, Sequence[tuple[float, float, float]]]) -> bool:
    """Bring ``block``'s front back to ``reach`` in front of its id, no further back than what rests on
    or in it (``keep`` and its own evidence) and leaving it :data:`MIN_THICKNESS` deep; whether it moved."""
    axis, sign = block.front_axis
    back = block.lo[axis] if sign > 0 else block.hi[axis]
    held = [sign * p[axis] for p in [*keep.get(block.object_id, ()), *block.keep]]
    front = max(sign * block.position[axis] + reach, *(h + CUT_MARGIN for h in held), sign * back + MIN_THICKNESS)
    if front < sign * block.front() - 1e-6:
        block.set_front(sign * front)
        return True
    return False


def drawers_share_their_row_front(blocks: Sequence[Block], keep: Mapping[str, Sequence[tuple[float, float, float]]]
                                  ) -> int:
    """Bring every drawer of a row to the front its most cut-back drawer has, as far in front of its id.

    A row of drawers is one piece of furniture, its fronts in one plane, as a shelving unit's boards
    are (:func:`boards_share_their_frame`): drawers facing one way with ids at one depth (to the
    centimetre), within :data:`~alfred_gen.scenes.alfred.fixture_sizing.ROW_LEVEL` of one height
    and :data:`~alfred_gen.scenes.alfred.fixture_sizing.ROW_REACH` of each other, as cabinets make a
    row. The sight facts cut back only the drawers some demo's
    rays passed, so in a room built from fewer demos a drawer kept its catalogue depth beside one
    cut back: FloorPlan216's nightstand drawer stood 0.18 m in front of its id and hid the tissue
    box on the shelf under it, while the drawer beside it had been cut to 0.03 m. Over THOR's masks
    of the drawers this moves in the rooms built from every train demo (27), lite's drawers overlap
    THOR's better: pooled IoU 0.529 -> 0.547 over 57 masks in the even FloorPlans (11 better, 4
    worse), 0.491 -> 0.553 over 131 in the odd ones. A front goes no further back than what rests
    in the drawer (``keep``, its own evidence) and leaves it :data:`MIN_THICKNESS` deep. Returns how
    many drawers moved.
    """
    drawers = [b for b in blocks if b.kind == "Drawer"]
    moved = 0
    for drawer in drawers:
        axis, _ = drawer.front_axis
        across = 2 - axis
        row = [d for d in drawers if d.facing == drawer.facing
               and round(d.position[axis], 2) == round(drawer.position[axis], 2)
               and abs(d.position[1] - drawer.position[1]) < ROW_LEVEL
               and abs(d.position[across] - drawer.position[across]) < ROW_REACH]
        moved += _front_to(drawer, _reach(row), keep)
    return moved
