"""Where the agent may stand in an imported THOR room: the floor the evidence proves, and the margin
one grid step beyond it where no fixture stands.

ALFRED's layout files list the points THOR's ``GetReachablePositions`` gave when the layouts were
made, and the released demos walk many more: of the 13,654 distinct points the 6,574 train demos
stand on, 1,832 are not in their room's layout, and 1,743 of those are one step (8-neighbourhood)
from it. The layouts stop short of the walls and of loose objects that were lying about when they
were made. Counted over every room, the demos stand on 80-92% of the layout's points but on 23% of
the points one step beyond its straight edges and on 0.6% of the points two steps beyond
(52 of 8,830): the floor the agent can reach extends about one step beyond the layout in places,
and the layout cannot say where.

So an imported room has two kinds of standing points:

- the *proven floor* (:func:`proven_floor`): layout points, points a demo walked through, and the
  poses ALFRED's generator and its demos interacted from. Fixtures are cut back from these
  (:func:`~alfred_gen.scenes.alfred.fixture_cuts.clear_reachable`), and ``GetReachablePositions``
  offers only these, so what lite plans on is floor in THOR too;
- the *margin* (:func:`margin_points`): every point one step from the proven floor (8-neighbourhood)
  whose agent footprint, a square reaching :data:`MARGIN_CLEARANCE` each way, overlaps no fixture
  standing on the floor (a drawer only as far as its front, at its id: :func:`margin_footprint`).
  Lite lets the agent step there (THOR often does: walls are not known, fixtures are), so a walk
  no demo of the room has shown can still be replayed. With a fold of every
  room's demos held out, the held-out demos stand on 173 points outside their room's proven floor
  and 4 outside it and its margin. A replayed demo's start is proven floor too, and brings its own
  ring of margin (:func:`~alfred_gen.scenes.alfred.importer.complete_for_start_state`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.fixture_block import Block, front_axis_of
from alfred_gen.scenes.alfred.fixture_cuts import OVERHEAD
from alfred_gen.sim.scene import GRID_SIZE, Box, SceneObject, grid_key

#: Radius of the agent's footprint that must be clear of fixtures on a margin point, metres.
MARGIN_CLEARANCE = 0.1
#: How far in front of its id a drawer's front reaches when it bars margin floor (metres). THOR puts
#: a drawer's origin at its front: of the 357 drawers in ALFRED's ``openable.json`` files with a
#: layout or walked point straight in front (within 0.12 m across), none has one closer to its id
#: than 0.23 m, the agent's radius (0.175 m) and 0.055 m; 83 have one closer than the 0.425 m that
#: a box centred on the id, its front 0.25 m out, leaves the agent. FloorPlan227's drawer kept two
#: held-out demos off the point 0.25 m in front of its id that THOR's agent stood on.
DRAWER_FRONT_REACH = 0.05
#: Slack for float rounding: a point exactly ``clearance`` from a box is clear (-0.35 + 0.1 is
#: -0.24999999999999997, which kept (-0.25, 0.00) of FloorPlan30 out of its margin).
_ROUNDING = 1e-6
#: The 8-neighbourhood on the grid.
_NEIGHBOURS = tuple((dx, dz) for dx in (-1, 0, 1) for dz in (-1, 0, 1) if dx or dz)


def proven_floor(evidence: SceneEvidence) -> list[tuple[float, float]]:
    """Layout points, every point a demo walked through, and every interaction pose, deduplicated
    and sorted by grid cell."""
    seen: dict[tuple[int, int], tuple[float, float]] = {}
    for x, z in evidence.layout_points:
        seen.setdefault(grid_key(x, z), (float(x), float(z)))
    for x, z in evidence.walked.values():
        seen.setdefault(grid_key(x, z), (float(x), float(z)))
    for pose in evidence.openable.values():
        seen.setdefault(grid_key(pose[0], pose[1]), (float(pose[0]), float(pose[1])))
    for key in sorted(evidence.used_from):
        for pose in evidence.used_from[key]:
            seen.setdefault(grid_key(pose[0], pose[1]), (float(pose[0]), float(pose[1])))
    return [seen[k] for k in sorted(seen)]


def ring(points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Grid points one step (8-neighbourhood) from ``points`` and not among them, sorted by cell."""
    cells = {grid_key(x, z) for x, z in points}
    out = {(cx + dx, cz + dz) for cx, cz in cells for dx, dz in _NEIGHBOURS} - cells
    return [(round(cx * GRID_SIZE, 4), round(cz * GRID_SIZE, 4)) for cx, cz in sorted(out)]


def margin_points(floor: Sequence[tuple[float, float]], blocks: Sequence[Block | Box], floor_y: float,
                  clearance: float = MARGIN_CLEARANCE) -> list[tuple[float, float]]:
    """The points one step from ``floor`` whose footprint (a square reaching ``clearance`` each way) is
    clear of every fixture starting less than :data:`~alfred_gen.scenes.alfred.fixture_cuts.OVERHEAD`
    over the floor.

    A raised counter slab, in the agent's way where the agent stood
    (:func:`~alfred_gen.scenes.alfred.fixture_cuts.in_the_agents_way`), does not bar the margin: a
    room built from its layouts alone keeps the slab's catalogue box, which reaches over points
    THOR's agent walks (FloorPlan4 and 5: barring them lost 11 demos of the unseen-room measure)."""
    footprints = [margin_footprint(b.kind, b.position, b.box(), b.facing) if isinstance(b, Block) else b
                  for b in blocks]
    standing = [b for b in footprints if b.lo[1] <= floor_y + OVERHEAD]
    return [(x, z) for x, z in ring(floor) if not any(bars_margin(b, x, z, floor_y, clearance) for b in standing)]


def margin_footprint(kind: str, position: Sequence[float], box: Box, facing: int | None) -> Box:
    """The box a fixture bars margin floor with: its own, but a drawer's reaching no further than
    :data:`DRAWER_FRONT_REACH` in front of its id (``facing``: the yaw its front faces, None if
    unknown)."""
    if kind != "Drawer" or facing is None or facing % 90:
        return box
    axis, sign = front_axis_of(facing)
    lo, hi = list(box.lo), list(box.hi)
    front = position[axis] + sign * DRAWER_FRONT_REACH
    if sign > 0:
        hi[axis] = max(lo[axis], min(hi[axis], front))
    else:
        lo[axis] = min(hi[axis], max(lo[axis], front))
    return Box((lo[0], lo[1], lo[2]), (hi[0], hi[1], hi[2]))


def scene_footprints(objects: Iterable[SceneObject]) -> dict[str, Box]:
    """Object id -> margin footprint (:func:`margin_footprint`) of each of a room's fixtures (every
    object that cannot be picked up), a drawer facing the way it was built to face (its yaw).

    The yaw, not the pose the agent opened it from: the room's own margin was cut with the built
    block's facing (:func:`margin_points`), and the two sources disagreed for 508 of 3,015 drawers
    built across the fidelity bench's rooms, so a replayed demo's start could bar a drawer's front
    on a different side than the room did."""
    out = {}
    for obj in objects:
        if catalogue.object_type(obj.object_type).pickupable:
            continue
        facing = round(obj.rotation[1]) % 360
        out[obj.object_id] = margin_footprint(obj.object_type, obj.position, obj.box, facing)
    return out


def bars_margin(block: Block | Box, x: float, z: float, floor_y: float, clearance: float = MARGIN_CLEARANCE) -> bool:
    """Whether ``block`` keeps (``x``, ``z``) out of the margin: it starts less than
    :data:`~alfred_gen.scenes.alfred.fixture_cuts.OVERHEAD` over the floor and reaches within
    ``clearance`` of the point (a point exactly ``clearance`` away is clear)."""
    reach = clearance - _ROUNDING
    return block.lo[1] <= floor_y + OVERHEAD and not (
        x <= block.lo[0] - reach or x >= block.hi[0] + reach or z <= block.lo[2] - reach or z >= block.hi[2] + reach)
