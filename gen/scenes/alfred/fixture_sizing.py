"""A fixture's first box in an imported THOR room: size, orientation, front and height (steps 1 and 2
of :mod:`alfred_gen.scenes.alfred.geometry`).

ALFRED gives a fixture's id (type and origin) and where the agent stood to use it, never its
extent. The size comes from THOR's asset database or the catalogue; the box is turned to cover
fewer reachable points; where the box lies above and below the origin depends on what kind of
fixture it is and on the learnt surface heights (:mod:`alfred_gen.scenes.alfred.surface_stats`).
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import id_position
from alfred_gen.scenes.alfred.fixture_block import AGENT_CLEARANCE, COUNTER_SLAB, FLOOR_ORIGIN, Block, inner_floor
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes

#: Structural receptacles whose THOR origin sits at (about) the top surface when above the floor.
SURFACE_ORIGIN = frozenset({"CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand",
                            "Shelf", "StoveBurner"})
#: Furniture whose bounding box top is a back rest or head board, not the surface things lie on.
SEATS = frozenset({"Sofa", "ArmChair", "Bed", "Chair", "Ottoman", "DogBed"})
#: How far a pedestal sink's rim stands above where things rest in its basin (metres).
PEDESTAL_RIM = 0.1


def facing_of(position: tuple[float, float, float], poses: Iterable[list[float]],
              reachable: list[tuple[float, float]]) -> int:
    """The yaw a fixture's front faces: opposite the agent's heading at its (first) interaction
    pose; without one, towards the nearest reachable point."""
    for pose in poses:
        return (int(round(float(pose[2]) / 90.0)) % 4 * 90 + 180) % 360
    if not reachable:
        return 0
    x, _, z = position
    px, pz = min(reachable, key=lambda p: ((p[0] - x) ** 2 + (p[1] - z) ** 2, p))
    dx, dz = px - x, pz - z
    if abs(dx) > abs(dz):
        return 90 if dx > 0 else 270
    return 0 if dz >= 0 else 180


def _covered(lo_x: float, hi_x: float, lo_z: float, hi_z: float, points: list[tuple[float, float]],
             inset: float) -> int:
    return sum(1 for x, z in points if lo_x + inset < x < hi_x - inset and lo_z + inset < z < hi_z - inset)


def initial_block(object_id: str, floor_y: float, floor_plan: str, sizes: ThorSizes | None,
                  stats: SurfaceStats | None, poses: list[list[float]], reachable: list[tuple[float, float]]) -> Block:
    """A fixture's first box: size, orientation, front and vertical placement (steps 1 and 2).

    Sizes are (width across the front, height, depth); a cabinet's id is at its door, so its box
    reaches back from there; other fixtures are centred on their id.
    """
    kind = catalogue.type_of_id(object_id)
    position = id_position(object_id)
    x, y, z = position
    asset = sizes.size(kind, floor_plan) if sizes is not None else None
    width, sy, depth = asset or catalogue.object_type(kind).size
    facing = facing_of(position, poses, reachable)
    along_x = facing in (90, 270)  # depth runs along x
    sx, sz = (depth, width) if along_x else (width, depth)
    if abs(sx - sz) > 1e-6:
        plain = _covered(x - sx / 2, x + sx / 2, z - sz / 2, z + sz / 2, reachable, AGENT_CLEARANCE)
        turned = _covered(x - sz / 2, x + sz / 2, z - sx / 2, z + sx / 2, reachable, AGENT_CLEARANCE)
        if turned < plain:
            sx, sz = sz, sx
    block = Block(object_id, kind, position, [x - sx / 2, 0.0, z - sz / 2], [x + sx / 2, 0.0, z + sz / 2],
                  y - floor_y < FLOOR_ORIGIN, facing)
    if kind == "SinkBasin":
        # Demos find things in a basin from 0.2 m behind its sink's id to 0.25 m in front of it and
        # 0.3 m to either side, resting 0.05-0.15 m below it: the basin's rim is at the id.
        axis, sign = block.front_axis
        other = 2 - axis
        block.lo[other], block.hi[other] = position[other] - 0.3, position[other] + 0.3
        front, back = position[axis] + sign * 0.25, position[axis] - sign * 0.2
        block.lo[axis], block.hi[axis] = min(front, back), max(front, back)
    if kind == "Cabinet":
        axis, sign = block.front_axis
        extent = sx if axis == 0 else sz
        block.set_front(position[axis] + sign * 0.02)
        if sign > 0:
            block.lo[axis] = position[axis] + 0.02 - extent
        else:
            block.hi[axis] = position[axis] - 0.02 + extent
    learnt = stats.offset(kind, block.floor_origin) if stats is not None else None
    asset_type = not catalogue.object_type(kind).structural
    if block.floor_origin and kind == "SinkBasin" and learnt is not None:
        # A pedestal sink's id stands on the floor; its basin is the bowl at the top, where other
        # rooms' demos show things resting (the learnt height above the id, 0.91 m over the train set).
        block.lo[1], block.hi[1] = y + learnt - 0.03, y + learnt + PEDESTAL_RIM
    elif block.floor_origin:
        height = sy
        if block.surface and learnt is not None and (asset is None or kind in SEATS):
            height = max(learnt, 0.05)
        block.lo[1], block.hi[1] = y, y + height
    elif kind in SURFACE_ORIGIN or (block.surface and learnt is not None):
        top = y + (learnt if learnt is not None else 0.0)
        block.lo[1], block.hi[1] = max(floor_y, top - sy), top
    elif asset_type:
        block.lo[1], block.hi[1] = y, y + sy  # assets (appliances on counters, a loft bed): origin at the base
    elif kind == "SinkBasin":
        block.lo[1], block.hi[1] = min(y - 0.15, y + (learnt if learnt is not None else -0.1)) - 0.03, y + 0.01
    else:
        block.lo[1], block.hi[1] = y - sy / 2, y + sy / 2
        if block.container and learnt is not None:
            block.lo[1] = min(block.lo[1], y + learnt - inner_floor(kind))
    if kind == "CounterTop":
        block.lo[1] = block.hi[1] - COUNTER_SLAB
    return block
