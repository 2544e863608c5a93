"""Boxes for the objects of a real THOR room, inferred from what ALFRED's files say about it.

ALFRED ships ids (type + origin position), agent poses and object poses, never extents. A box is
built for every fixture in four general steps, each a rule about THOR, none about a particular room:

1. **Size and orientation.** The room's own THOR asset size when a THOR asset database is given
   (``--thor-db``), else the catalogue's typical size. Assets have their front along their local x
   axis, so the box is turned a quarter when that covers fewer reachable agent points (furniture
   never stands where the agent can), or, on a tie, when the agent faces the object along x from
   its interaction pose.
2. **Where the origin is.** Furniture and appliances standing on the floor have their origin at
   the bottom; counter tops, shelves and burners at (about) the top surface; drawers and cabinets
   at their middle. Surface heights are *learnt* from the released demos: an object THOR reported
   lying on a receptacle has its bottom on that receptacle's surface (pickupable objects' origins
   are at their base in THOR 2.1: a mug's origin is 0.005 m above the dresser top it stands on).
   Per type, the median over all imported demos gives the surface height above the id for rooms
   without such evidence; per receptacle, its own evidence wins.
3. **What cannot overlap.** A box standing on the floor is cut back from every reachable point;
   stacked drawers are no taller than their spacing; a drawer or cabinet under a table top, dresser
   top or counter stays below its surface, one above a counter stays above it.
4. **THOR's word on support.** Every (object, receptacle) pair a demo reports is made true for the
   simulator's support rule: the receptacle grows to hold the object, and any other receptacle that
   would claim it shrinks away from it.

Pickupable objects get the catalogue's size, turned by their recorded yaw, with the box bottom at
the recorded position, or below it as far as THOR's origin convention says; horizontally around the
origin as the demos prove (:mod:`alfred_gen.scenes.alfred_loose`).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from alfred_gen.scenes.alfred_evidence import SceneEvidence, SupportFact, id_position, type_of_name
from alfred_gen.scenes.alfred_loose import loose_shifts, pickupable_box, pickupable_size
from alfred_gen.scenes.thor_sizes import ThorSizes
from alfred_gen.sim import catalogue
from alfred_gen.sim.scene import AGENT_Y, Box, Pose, SceneObject, format_object_id
from alfred_gen.sim.setup_actions import _support as simulator_support
from alfred_gen.sim.world import INSIDE_RECEPTACLES, WorldObject

#: An origin this close to the floor means the object stands on the floor with its origin at its base.
FLOOR_ORIGIN = 0.1
#: Structural receptacles whose THOR origin sits at (about) the top surface when above the floor.
SURFACE_ORIGIN = frozenset({"CounterTop", "DiningTable", "CoffeeTable", "SideTable", "Desk", "Dresser", "TVStand",
                            "Shelf", "StoveBurner"})
#: Furniture whose bounding box top is a back rest or head board, not the surface things lie on.
SEATS = frozenset({"Sofa", "ArmChair", "Bed", "Chair", "Ottoman", "DogBed"})
#: Openable parts of furniture and walls (not assets): stacked in columns and rows.
BUILT_IN_CONTAINERS = frozenset({"Drawer", "Cabinet"})
#: Free space kept between a box and a reachable point's centre (THOR's agent is ~0.2 m in radius).
AGENT_CLEARANCE = 0.1
#: Boxes starting higher than this above the floor hang over the agent (wall cabinets, shelves).
OVERHEAD = 1.0
#: Minimum evidence count before a learnt per-type surface height is trusted.
MIN_SAMPLES = 3


# --------------------------------------------------------------------------------------------
# Learnt surface heights


@dataclass
class SurfaceStats:
    """Per (receptacle type, origin on the floor?): median height of the surface above the id's y.

    Learnt from every support fact of every imported room: the bottom of an object THOR reported on
    a receptacle is where that receptacle's surface is.
    """

    offsets: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @staticmethod
    def key(kind: str, floor_origin: bool) -> str:
        return f"{kind}|{'floor' if floor_origin else 'raised'}"

    def offset(self, kind: str, floor_origin: bool) -> float | None:
        k = self.key(kind, floor_origin)
        return self.offsets[k] if self.counts.get(k, 0) >= MIN_SAMPLES else None

    @staticmethod
    def learn(rooms: Iterable[SceneEvidence], default_agent_y: float = AGENT_Y) -> "SurfaceStats":
        samples: dict[str, list[float]] = {}
        for evidence in rooms:
            floor_y = evidence.agent_y(default_agent_y) - AGENT_Y
            statics = _static_ids(evidence)
            for fact in evidence.supports:
                target = resolve_support(fact, statics)
                if target is None:
                    continue
                ry = id_position(target)[1]
                floor_origin = ry - floor_y < FLOOR_ORIGIN
                bottom = _fact_box(fact, floor_y).lo[1]
                samples.setdefault(SurfaceStats.key(fact.receptacle_type, floor_origin), []).append(bottom - ry)
        stats = SurfaceStats()
        for k in sorted(samples):
            stats.offsets[k] = round(statistics.median(samples[k]), 4)
            stats.counts[k] = len(samples[k])
        return stats

    def to_dict(self) -> dict[str, list[float]]:
        return {k: [self.offsets[k], self.counts[k]] for k in sorted(self.offsets)}

    @staticmethod
    def from_dict(data: Mapping[str, list[float]]) -> "SurfaceStats":
        stats = SurfaceStats()
        for k, (offset, count) in data.items():
            stats.offsets[k] = float(offset)
            stats.counts[k] = int(count)
        return stats


def _fact_box(fact: SupportFact, floor_y: float) -> Box:
    kind = type_of_name(fact.object_name)
    return pickupable_box(kind, fact.position, pickupable_size(kind, fact.yaw), floor_y)


def _static_ids(evidence: SceneEvidence) -> list[str]:
    """Every fixture the evidence names: layout receptacles, fixtures demos used, and receptacles
    THOR reported objects on that are named nowhere else (stove burners are not in ALFRED's layout
    files; their id is where the report puts them)."""
    known = set(evidence.openable) | evidence.static_ids
    for fact in evidence.supports:
        kind = fact.receptacle_type
        entry = catalogue.OBJECT_TYPES.get(kind)
        if entry is None or entry.pickupable or not entry.receptacle or kind in ("SinkBasin", "BathtubBasin"):
            continue
        if resolve_support(fact, known) is None:
            known.add(format_object_id(kind, fact.receptacle_at))
    return sorted(known)


def resolve_support(fact: SupportFact, static_ids: Iterable[str]) -> str | None:
    """The fixture a support fact names: same type, at the reported position (the basin of a sink
    or tub is reported at its own middle while its id carries the sink's position: nearest within 1 m)."""
    best: tuple[float, str] | None = None
    for object_id in static_ids:
        if catalogue.type_of_id(object_id) != fact.receptacle_type:
            continue
        x, y, z = id_position(object_id)
        rx, ry, rz = fact.receptacle_at
        if fact.receptacle_type in ("SinkBasin", "BathtubBasin"):
            distance = ((x - rx) ** 2 + (z - rz) ** 2) ** 0.5
            limit = 1.0
        else:
            distance = ((x - rx) ** 2 + (y - ry) ** 2 + (z - rz) ** 2) ** 0.5
            limit = 0.05
        if distance <= limit and (best is None or (distance, object_id) < best):
            best = (distance, object_id)
    return best[1] if best else None


# --------------------------------------------------------------------------------------------
# Fixture boxes under construction

#: Horizontal unit vectors of the four yaws (0 faces +z, 90 faces +x).
_HEADINGS = {0: (0.0, 1.0), 90: (1.0, 0.0), 180: (0.0, -1.0), 270: (-1.0, 0.0)}
#: Thickness of the floor the renderer draws inside containers (a resting object sits above it).
_INNER_FLOOR = {"Drawer": 0.02, "Cabinet": 0.025, "GarbageCan": 0.02}
_DEFAULT_INNER_FLOOR = 0.05
#: Counter tops are drawn as the slab they are in THOR (the cabinets below are separate objects).
COUNTER_SLAB = 0.04


@dataclass
class Block:
    """A fixture's box while it is being fitted: its id, type, origin, extents and front."""

    object_id: str
    kind: str
    position: tuple[float, float, float]
    lo: list[float]
    hi: list[float]
    floor_origin: bool
    #: Yaw the front faces (towards where the agent stands to use it).
    facing: int = 0
    #: Points (object centres) this fixture must keep inside its footprint (its own evidence).
    keep: list[tuple[float, float, float]] = field(default_factory=list)
    #: Footprints it was cut away from; growing back over them is not allowed.
    forbid: list[Box] = field(default_factory=list)

    @property
    def container(self) -> bool:
        return self.kind in INSIDE_RECEPTACLES

    @property
    def surface(self) -> bool:
        t = catalogue.OBJECT_TYPES.get(self.kind)
        return bool(t and t.receptacle and not t.pickupable and not self.container)

    @property
    def front_axis(self) -> tuple[int, int]:
        """(axis, sign) of the front: the box face the agent looks at."""
        dx, dz = _HEADINGS[self.facing]
        return (0, int(dx)) if dx else (2, int(dz))

    def front(self) -> float:
        axis, sign = self.front_axis
        return self.hi[axis] if sign > 0 else self.lo[axis]

    def set_front(self, value: float) -> None:
        axis, sign = self.front_axis
        if sign > 0:
            self.hi[axis] = value
        else:
            self.lo[axis] = value

    def box(self) -> Box:
        return Box(tuple(self.lo), tuple(self.hi))  # type: ignore[arg-type]

    def overlaps(self, other: "Block", axes: tuple[int, ...] = (0, 1, 2), margin: float = 0.0) -> bool:
        return all(self.lo[a] < other.hi[a] + margin and other.lo[a] < self.hi[a] + margin for a in axes)

    def overlaps_box(self, box: Box) -> bool:
        """Whether the footprints overlap."""
        return all(self.lo[a] < box.hi[a] and box.lo[a] < self.hi[a] for a in (0, 2))

    def world_object(self) -> WorldObject:
        return WorldObject(self.object_id, self.kind, self.object_id, self.position, (0.0, float(self.facing), 0.0),
                           self.box())


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
    if block.floor_origin:
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
            block.lo[1] = min(block.lo[1], y + learnt - _INNER_FLOOR.get(kind, _DEFAULT_INNER_FLOOR))
    if kind == "CounterTop":
        block.lo[1] = block.hi[1] - COUNTER_SLAB
    return block


# --------------------------------------------------------------------------------------------
# Step 3: what cannot overlap


def limit_stacks(blocks: list[Block]) -> None:
    """Drawers and cabinets in one column are no taller than their spacing; drawers side by side in
    one row no wider than theirs (their ids sit at their middles)."""
    for block in blocks:
        if block.kind not in BUILT_IN_CONTAINERS:
            continue
        x, y, z = block.position
        vertical = [abs(o.position[1] - y) for o in blocks if o is not block and o.kind == block.kind
                    and abs(o.position[0] - x) < 0.05 and abs(o.position[2] - z) < 0.05 and abs(o.position[1] - y) >= 0.1]
        if vertical:
            half = (min(vertical) - 0.01) / 2
            block.lo[1] = max(block.lo[1], y - half)
            block.hi[1] = min(block.hi[1], y + half)
        if block.kind != "Drawer":
            continue
        for axis, other in ((0, 2), (2, 0)):
            gaps = [abs(o.position[axis] - block.position[axis]) for o in blocks if o is not block and o.kind == "Drawer"
                    and abs(o.position[1] - y) < 0.05 and abs(o.position[other] - block.position[other]) < 0.05
                    and abs(o.position[axis] - block.position[axis]) >= 0.2]
            if gaps:
                half = (min(gaps) - 0.01) / 2
                block.lo[axis] = max(block.lo[axis], block.position[axis] - half)
                block.hi[axis] = min(block.hi[axis], block.position[axis] + half)


def clear_reachable(blocks: list[Block], reachable: list[tuple[float, float]], floor_y: float) -> None:
    """Cut every box standing in the agent's way back from every reachable point (AGENT_CLEARANCE)."""
    for block in blocks:
        if block.lo[1] > floor_y + OVERHEAD:
            continue
        for px, pz in reachable:
            c = AGENT_CLEARANCE
            if not (block.lo[0] - c < px < block.hi[0] + c and block.lo[2] - c < pz < block.hi[2] + c):
                continue
            options = []
            width_x, width_z = block.hi[0] - block.lo[0], block.hi[2] - block.lo[2]
            for axis, p, span in ((0, px, width_z), (2, pz, width_x)):
                centre = block.position[axis]
                if p >= centre and p - c - block.lo[axis] >= 0.05:
                    options.append(((block.hi[axis] - (p - c)) * span, axis, "hi", p - c))
                if p <= centre and block.hi[axis] - (p + c) >= 0.05:
                    options.append((((p + c) - block.lo[axis]) * span, axis, "lo", p + c))
            if not options:
                continue
            _, axis, side, value = min(options)
            if side == "hi":
                block.hi[axis] = value
            else:
                block.lo[axis] = value


def tops_over_drawers(blocks: list[Block], evidenced: set[str]) -> None:
    """A dresser, desk or table top lies just above the drawers built into it: furniture with
    drawers under its top (and no demo evidence of its surface) has its top 3 cm above its highest
    drawer, whatever the catalogue's height says (dressers come 0.8 to 1.3 m tall)."""
    drawers = [b for b in blocks if b.kind == "Drawer"]
    for block in blocks:
        if not block.surface or block.object_id in evidenced:
            continue
        inside = [d for d in drawers if block.lo[0] - 0.05 <= d.position[0] <= block.hi[0] + 0.05
                  and block.lo[2] - 0.05 <= d.position[2] <= block.hi[2] + 0.05 and d.position[1] < block.hi[1]]
        if inside:
            top = max(d.hi[1] for d in inside) + 0.03
            if top < block.hi[1] and top - block.lo[1] >= 0.05:
                _set_top(block, top)


#: How far a drawer or cabinet under a surface stays below it: more than the support rule's 2 cm
#: margin above a container, so a card lying on a dresser is never counted inside its top drawer.
NESTED_GAP = 0.05


def separate_nested(blocks: list[Block]) -> None:
    """Drawers and cabinets inside or under furniture stay below its surface; cabinets hanging over
    a counter stay above it: what lies on a surface is never inside a closed drawer."""
    surfaces = [b for b in blocks if b.surface and not b.container]
    for block in blocks:
        if block.kind not in BUILT_IN_CONTAINERS:
            continue
        cx, cy, cz = block.position
        for s in surfaces:
            if not (s.lo[0] - 0.05 <= cx <= s.hi[0] + 0.05 and s.lo[2] - 0.05 <= cz <= s.hi[2] + 0.05):
                continue
            top = s.hi[1]
            if cy < top + 0.02 and block.hi[1] > top - NESTED_GAP and top - NESTED_GAP - block.lo[1] >= 0.04:
                block.hi[1] = top - NESTED_GAP
            elif cy > top + 0.02 and block.lo[1] < top + 0.03 and block.hi[1] - (top + 0.03) >= 0.05:
                block.lo[1] = top + 0.03


#: How far below a counter's top a basin's rim may be and still be set in that counter.
BASIN_SET_IN = 0.15


def basins_reach_counters(blocks: list[Block]) -> None:
    """A sink basin set into a counter has its rim at the counter's top, not below the slab.

    A basin's height comes from its sink's id, which can sit a few centimetres below the counter
    around it; left there, the slab would be drawn over the whole opening and hide what lies in it.
    """
    counters = [b for b in blocks if b.kind == "CounterTop"]
    for basin in blocks:
        if basin.kind != "SinkBasin":
            continue
        tops = [c.hi[1] for c in counters
                if basin.overlaps(c, axes=(0, 2)) and basin.hi[1] < c.hi[1] <= basin.hi[1] + BASIN_SET_IN]
        if tops:
            basin.hi[1] = max(tops)


def expose_fronts(blocks: list[Block]) -> None:
    """Drawers and cabinets are the fronts of the furniture around them: a dresser, desk or counter
    box that would cover a drawer's front is cut back behind it, and a counter top reaching over
    the drawers and cabinets below it overhangs them by 3 cm at most, so they can be seen and used."""
    for inner in blocks:
        if inner.kind not in BUILT_IN_CONTAINERS:
            continue
        axis, sign = inner.front_axis
        front = inner.front()
        for outer in blocks:
            if outer is inner or outer.kind in BUILT_IN_CONTAINERS or outer.container:
                continue
            other = 2 - axis
            if not (outer.lo[other] < inner.hi[other] and inner.lo[other] < outer.hi[other]):
                continue
            covers = outer.hi[axis] > front - 0.01 if sign > 0 else outer.lo[axis] < front + 0.01
            if not covers:
                continue
            if outer.overlaps(inner, (1,)):
                limit = front - sign * 0.01
            elif outer.lo[1] >= inner.hi[1] - 0.01 and outer.lo[1] - inner.hi[1] < 0.3:
                limit = front + sign * 0.03  # a slab just above: a small overhang
                if (outer.hi[axis] <= limit) if sign > 0 else (outer.lo[axis] >= limit):
                    continue
            else:
                continue
            behind = (limit - outer.lo[axis]) if sign > 0 else (outer.hi[axis] - limit)
            keeps_id = outer.position[axis] <= limit + 0.01 if sign > 0 else outer.position[axis] >= limit - 0.01
            if behind >= 0.05 and keeps_id:  # a fixture never loses its own origin
                if sign > 0:
                    outer.hi[axis] = min(outer.hi[axis], limit)
                else:
                    outer.lo[axis] = max(outer.lo[axis], limit)


#: The smallest piece of a fixture a cut may leave, metres.
MIN_PIECE = 0.25
#: Fixtures that live under a counter top (the slab may cover them).
_UNDER_COUNTER = BUILT_IN_CONTAINERS | {"CounterTop"}


def _cut_away(block: Block, box: Box, keep: list[Box] = ()) -> None:  # type: ignore[assignment]
    """Cut ``block``'s footprint back from ``box`` along one side: the side away from the block's
    id; if the id lies over the box, the side keeping the most of ``keep`` (objects seen resting on
    it), then the larger piece. A cut that would leave less than 25 cm is not made."""
    block.forbid.append(box)
    options = []
    for axis in (0, 2):
        p = block.position[axis]
        if p <= box.lo[axis]:
            options.append((0, block.hi[axis] - box.lo[axis], axis, "hi", box.lo[axis]))
        if p >= box.hi[axis]:
            options.append((0, box.hi[axis] - block.lo[axis], axis, "lo", box.hi[axis]))
    if not options:
        for axis in (0, 2):
            lost_hi = sum(1 for k in keep if k.center[axis] > box.lo[axis])
            lost_lo = sum(1 for k in keep if k.center[axis] < box.hi[axis])
            options.append((lost_hi, block.hi[axis] - box.lo[axis], axis, "hi", box.lo[axis]))
            options.append((lost_lo, box.hi[axis] - block.lo[axis], axis, "lo", box.hi[axis]))
    for _, _, axis, side, value in sorted(options):
        if side == "hi" and value - block.lo[axis] >= MIN_PIECE:
            block.hi[axis] = value
            return
        if side == "lo" and block.hi[axis] - value >= MIN_PIECE:
            block.lo[axis] = value
            return


def _inside_built_in(box: Box, blocks: list[Block]) -> bool:
    c = box.center
    return any(b.kind in BUILT_IN_CONTAINERS and all(b.lo[a] <= c[a] <= b.hi[a] for a in (0, 1, 2)) for b in blocks)


def cut_around(blocks: list[Block], resting: list[Box]) -> None:
    """Counter tops and cabinets hang over nothing but what belongs under them.

    A counter top slab covers only drawers and cabinets: it is cut away from every other fixture
    that passes through it or lies under it (sink basins, faucets, fridges, side tables) and from
    every object demos show lying under it outside a drawer or cabinet (THOR's counter has a hole
    for the sink; a box cannot, so the slab keeps the part on its id's side). A cabinet is cut away
    from every other fixture it would swallow (a towel holder beside it) and from objects resting
    up to 60 cm under it (a sponge on the counter beside a tall cabinet).
    """
    for slab in blocks:
        if slab.kind == "CounterTop":
            on_top = [b for b in resting if slab.overlaps_box(b) and abs(b.lo[1] - slab.hi[1]) < 0.05]
            for other in blocks:
                if other is slab or other.kind in _UNDER_COUNTER:
                    continue
                if other.lo[1] < slab.hi[1] - 0.005 and slab.overlaps(other, (0, 2)):
                    _cut_away(slab, other.box(), on_top)
            for box in resting:
                if box.hi[1] < slab.lo[1] and slab.overlaps_box(box) and not _inside_built_in(box, blocks):
                    _cut_away(slab, box, on_top)
        elif slab.kind == "Cabinet":
            for other in blocks:
                if other is slab or other.kind in BUILT_IN_CONTAINERS or other.surface:
                    continue
                if slab.overlaps(other) and not (other.lo[0] <= slab.position[0] <= other.hi[0]
                                                 and other.lo[2] <= slab.position[2] <= other.hi[2]):
                    _cut_away(slab, other.box())
            for box in resting:
                c = box.center
                inside = all(slab.lo[a] <= c[a] <= slab.hi[a] for a in (0, 1, 2))
                if not inside and slab.overlaps_box(box) and box.hi[1] <= slab.lo[1] + 0.01 \
                        and slab.lo[1] - box.hi[1] < 0.6:
                    _cut_away(slab, box)


def settle_objects(blocks: list[Block], objects: list[Box]) -> None:
    """No object demos show resting in a room is buried in a fixture's top or floor.

    A surface whose top is above the bottom of an object standing within its footprint, by at most
    8 cm, is lowered beneath it (THOR's physics had the object resting there); a container whose
    inner floor would cut through an object inside it is deepened.
    """
    for block in blocks:
        if block.surface:
            for box in objects:
                cx, cz = box.center[0], box.center[2]
                if not (block.lo[0] < cx < block.hi[0] and block.lo[2] < cz < block.hi[2]):
                    continue
                bottom = box.lo[1]
                if bottom - 0.005 < block.hi[1] < bottom + 0.08:
                    _set_top(block, bottom - 0.005)
        elif block.container:
            floor = _INNER_FLOOR.get(block.kind, _DEFAULT_INNER_FLOOR)
            for box in objects:
                c = box.center
                if not (block.lo[0] < c[0] < block.hi[0] and block.lo[2] < c[2] < block.hi[2]
                        and block.lo[1] - 0.1 < box.lo[1] < block.hi[1] - 0.01):
                    continue
                if box.lo[1] - floor < block.lo[1]:
                    block.lo[1] = box.lo[1] - floor - 0.005


def _set_top(block: Block, top: float) -> None:
    """Move a surface's top; a counter top stays a slab, anything else keeps its bottom."""
    block.hi[1] = top
    if block.kind == "CounterTop":
        block.lo[1] = top - COUNTER_SLAB
    else:
        block.lo[1] = min(block.lo[1], top - 0.02)


# --------------------------------------------------------------------------------------------
# Step 4: THOR's word on support


def fit_surface_tops(blocks: dict[str, Block], facts: list[tuple[SupportFact, str, Box]]) -> None:
    """A receptacle's surface is where the objects THOR reported on it have their bottoms."""
    bottoms: dict[str, list[float]] = {}
    for _, target, box in facts:
        bottoms.setdefault(target, []).append(box.lo[1])
    for target, values in sorted(bottoms.items()):
        block = blocks[target]
        if not block.surface:
            continue
        _set_top(block, statistics.median(values) - 0.005)


def _grow_to_hold(block: Block, obj: WorldObject) -> bool:
    """Grow a receptacle so the simulator's support rule puts ``obj`` in/on it, unless that would
    reach over something it was cut away from; whether it grew."""
    margin = 0.03
    lo, hi = list(block.lo), list(block.hi)
    for axis in (0, 2):
        lo[axis] = min(lo[axis], obj.center[axis] - margin)
        hi[axis] = max(hi[axis], obj.center[axis] + margin)
    if block.container:
        floor = _INNER_FLOOR.get(block.kind, _DEFAULT_INNER_FLOOR)
        lo[1] = min(lo[1], obj.center[1] - obj.size[1] / 2 - floor - 0.005)
        hi[1] = max(hi[1], obj.center[1] + margin)
    grown = Box(tuple(lo), tuple(hi))  # type: ignore[arg-type]
    if any(all(grown.lo[a] < f.hi[a] and f.lo[a] < grown.hi[a] for a in (0, 2)) for f in block.forbid):
        return False
    block.lo, block.hi = lo, hi
    return True


def _shrink_away(block: Block, obj: WorldObject) -> bool:
    """Move one face of ``block`` past ``obj``'s centre (the cheapest that keeps its own evidence)."""
    margin = 0.03
    axes = (0, 1, 2) if block.container else (0, 2)
    size = [block.hi[i] - block.lo[i] for i in range(3)]
    options = []
    for axis in axes:
        others = [i for i in (0, 1, 2) if i != axis]
        area = size[others[0]] * size[others[1]]
        c = obj.center[axis]
        new_hi, new_lo = c - margin, c + margin
        if new_hi - block.lo[axis] >= 0.05 and all(k[axis] <= new_hi for k in block.keep):
            options.append(((block.hi[axis] - new_hi) * area, axis, "hi", new_hi))
        if block.hi[axis] - new_lo >= 0.05 and all(k[axis] >= new_lo for k in block.keep):
            options.append(((new_lo - block.lo[axis]) * area, axis, "lo", new_lo))
    if not options:
        return False
    _, axis, side, value = min(options)
    if side == "hi":
        block.hi[axis] = value
    else:
        block.lo[axis] = value
    return True


def fit_support_facts(blocks: dict[str, Block], facts: list[tuple[SupportFact, str, Box]], rounds: int = 4) -> int:
    """Make the simulator's support rule agree with every fact; returns how many still disagree."""
    for _, target, box in facts:
        if blocks[target].container:
            blocks[target].keep.append(box.center)
        else:
            blocks[target].keep.append((box.center[0], box.lo[1], box.center[2]))
    disagreements = 0
    for _ in range(rounds):
        disagreements = 0
        for fact, target, box in facts:
            kind = type_of_name(fact.object_name)
            obj = WorldObject("evidence", kind, fact.object_name, fact.position, (0.0, fact.yaw, 0.0), box)
            for _attempt in range(6):
                candidates = [b.world_object() for b in blocks.values()]
                winner = simulator_support(None, obj, candidates)  # type: ignore[arg-type]
                if winner is not None and winner.object_id == target:
                    break
                wanted = blocks[target]
                if winner is None or not _claims(wanted, obj):
                    if not _grow_to_hold(wanted, obj):
                        break
                    if winner is None:
                        continue
                if winner is not None and winner.object_id != target:
                    if not _shrink_away(blocks[winner.object_id], obj):
                        break
            else:
                disagreements += 1
                continue
            if winner is None or winner.object_id != target:
                disagreements += 1
        if disagreements == 0:
            break
    return disagreements


#: Furniture drawn as a top on legs: what lies under its top is under the table, not inside it.
ON_LEGS = frozenset({"DiningTable", "CoffeeTable", "SideTable"})


def fit_resting_objects(blocks: dict[str, Block], resting: list[tuple[str, Box]]) -> int:
    """Every object a demo shows at rest lies in or on some receptacle (THOR's spawns put them
    there), and never inside solid furniture.

    An object the simulator's support rule finds nothing under is given the nearest open receptacle
    that may hold it (ALFRED's placement table; never a closed cabinet, drawer or fridge on a guess,
    never a basin it lies above), grown to hold it, within 30 cm across and 10 cm up or down. An
    object inside a dresser's or desk's box shows that its top is lower (the top comes down to it);
    one under a table top shows that the table does not reach over it (the table is cut back).
    Returns how many stay unsupported."""
    unsupported = 0
    ordered = [blocks[k] for k in sorted(blocks)]
    for kind, box in resting:
        obj = WorldObject("resting", kind, "resting", box.center, (0.0, 0.0, 0.0), box)
        if simulator_support(None, obj, [b.world_object() for b in ordered]) is not None:  # type: ignore[arg-type]
            continue
        for block in ordered:
            inside = all(block.lo[a] < obj.center[a] < block.hi[a] for a in (0, 2)) \
                and block.lo[1] < box.lo[1] < block.hi[1] - 0.1
            if not (inside and block.surface and not catalogue.object_type(block.kind).structural):
                continue
            if block.kind in ON_LEGS:
                _cut_away(block, box)
            elif catalogue.can_place(kind, block.kind):
                _set_top(block, box.lo[1] - 0.005)
        options = []
        for block in ordered:
            if not catalogue.can_place(kind, block.kind) or catalogue.object_type(block.kind).encloses:
                continue  # not shut away in a closed cabinet on a guess: a demo may pick it up unopened
            across = max(0.0, block.lo[0] - obj.center[0], obj.center[0] - block.hi[0],
                         block.lo[2] - obj.center[2], obj.center[2] - block.hi[2])
            if block.container:
                if box.lo[1] >= block.hi[1]:
                    continue  # above the rim: beside the basin, not in it
                up = max(0.0, block.lo[1] - obj.center[1], obj.center[1] - block.hi[1])
            else:
                up = abs(box.lo[1] - block.hi[1])
            if across <= 0.3 and up <= 0.1:
                options.append((across + up, block.object_id, block))
        grown = simulator_support(None, obj, [b.world_object() for b in ordered]) is not None  # type: ignore[arg-type]
        for _, _, block in sorted(options, key=lambda o: o[:2]):
            if grown:
                break
            before = (list(block.lo), list(block.hi))
            if not block.container and abs(box.lo[1] - block.hi[1]) > 0.02:
                _set_top(block, box.lo[1] - 0.005)
            if _grow_to_hold(block, obj) and simulator_support(
                    None, obj, [b.world_object() for b in ordered]) is not None:  # type: ignore[arg-type]
                grown = True
                break
            block.lo, block.hi = before
        unsupported += not grown
    return unsupported


def _claims(block: Block, obj: WorldObject) -> bool:
    return simulator_support(None, obj, [block.world_object()]) is not None  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# The whole room


@dataclass
class RoomGeometry:
    """The fitted objects of one room and how well the evidence was honoured."""

    objects: list[SceneObject]
    interaction_poses: dict[str, Pose]
    reachable: list[tuple[float, float]]
    floor_y: float
    agent_y: float
    support_facts: int = 0
    support_disagreements: int = 0


def missing_poses(blocks: list[Block], all_blocks: list[Block], reachable: list[tuple[float, float]],
                  agent_y: float) -> dict[str, Pose]:
    """Interaction poses for fixtures ALFRED's layout gives none (stove burners, lamps, towel
    holders): the scene library's best view of the box, the other fixtures occluding."""
    from alfred_gen.scenes.grid import best_interaction_pose, occluder_arrays

    out: dict[str, Pose] = {}
    for block in blocks:
        occluders = occluder_arrays([b.box() for b in all_blocks if b is not block])
        pose = best_interaction_pose(block.box(), reachable, occluders, agent_y)
        if pose is not None:
            out[block.object_id] = pose
    return out


def reachable_points(evidence: SceneEvidence) -> list[tuple[float, float]]:
    """Layout points, every point a demo walked through, and every interaction pose, deduplicated."""
    from alfred_gen.sim.scene import grid_key

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


def room_geometry(evidence: SceneEvidence, sizes: ThorSizes | None = None, stats: SurfaceStats | None = None,
                  default_agent_y: float = AGENT_Y) -> RoomGeometry:
    """Fit boxes for every fixture and object ALFRED's files mention in one room."""
    agent_y = evidence.agent_y(default_agent_y)
    floor_y = agent_y - AGENT_Y
    floor_plan = evidence.name
    reachable = reachable_points(evidence)
    static_ids = _static_ids(evidence)
    poses_of = {oid: ([evidence.openable[oid]] if oid in evidence.openable else []) + evidence.used_from.get(oid, [])
                for oid in static_ids}
    blocks = {oid: initial_block(oid, floor_y, floor_plan, sizes, stats, poses_of[oid], reachable) for oid in static_ids}
    ordered = [blocks[oid] for oid in static_ids]
    facts = []
    for fact in evidence.supports:
        target = resolve_support(fact, static_ids)
        if target is not None:
            facts.append((fact, target, _fact_box(fact, floor_y)))
    shifts = loose_shifts(evidence.contents, evidence.clearances, floor_y)
    resting_of = [(type_of_name(name), pickupable_box(type_of_name(name), position,
                                                       pickupable_size(type_of_name(name), yaw), floor_y, yaw,
                                                       shifts.get(name, (0.0, 0.0))))
                  for name in sorted(evidence.objects) for position, yaw in evidence.objects[name]]
    resting = [box for _, box in resting_of]
    fit_surface_tops(blocks, facts)
    limit_stacks(ordered)
    tops_over_drawers(ordered, {target for _, target, _ in facts})
    clear_reachable(ordered, reachable, floor_y)
    separate_nested(ordered)
    expose_fronts(ordered)
    cut_around(ordered, resting)
    settle_objects(ordered, resting)
    separate_nested(ordered)
    disagreements = fit_support_facts(blocks, facts)
    fit_resting_objects(blocks, [(k, b) for k, b in resting_of if catalogue.object_type(k).pickupable])
    basins_reach_counters(ordered)
    objects: list[SceneObject] = []
    for block in ordered:
        objects.append(SceneObject(block.kind, block.position, block.box(), object_id=block.object_id,
                                   rotation=(0.0, float(block.facing), 0.0)))
    for name in sorted(evidence.objects):
        position, yaw = evidence.objects[name][0]
        kind = type_of_name(name)
        box = pickupable_box(kind, position, pickupable_size(kind, yaw), floor_y, yaw, shifts.get(name, (0.0, 0.0)))
        objects.append(SceneObject(kind, position, box, name=name, rotation=(0.0, yaw, 0.0)))
    interaction_poses = {oid: Pose.from_list(poses_of[oid][0]) for oid in static_ids if poses_of[oid]}
    interaction_poses.update(missing_poses([b for b in ordered if b.object_id not in interaction_poses],
                                           ordered, reachable, agent_y))
    return RoomGeometry(objects, interaction_poses, reachable, floor_y, agent_y, len(facts), disagreements)
