"""Which houses count: EQA's filter over SUNCG, scaled to lite's rooms, and the figures it looks at.

EQA kept SUNCG houses whose internal area is 300-800 m² and covers at least a third of the ground
(the house's bounding rectangle), that have at least one kitchen, living room, dining room and
bedroom, and whose rooms are connected. The defaults here are the same rules with the area range
scaled: SUNCG's homes have about 8 rooms in 300-800 m², 37.5-100 m² a room; lite's rooms are
ALFRED's size (a kitchen of 7-23 m², a bathroom of 3-10), and its houses' rooms average 17.6 m²
(LiteHouse1, 2, 4, 5, 13, 28 and 286: 1,037 m² in 59 rooms), so the range is SUNCG's times
17.6 / 69 (69 m²: SUNCG's 550 m² midpoint over its 8 rooms), rounded to 5 m²:
:data:`DEFAULT_MIN_AREA` to :data:`DEFAULT_MAX_AREA` m². Coverage at least
:data:`DEFAULT_MIN_COVERAGE`, a kitchen, a living room, a dining room and a bedroom, every room
reachable from every other. An open-plan room (a kitchen that is also a dining room) counts as each
of its types, as SUNCG's rooms with two names do. Every value can be changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.grid import grid_graph
from alfred_gen.sim.scene import HOUSE_ROOM_TYPES, Scene, grid_key

#: Internal area range (m²) a house must have by default: SUNCG's 300-800 m² scaled (see above).
#: (45-200 m² before issue 67, for houses of 2-8 rooms.)
DEFAULT_MIN_AREA = 75.0
DEFAULT_MAX_AREA = 205.0

#: Share of the house's bounding rectangle its rooms' floors must cover (EQA's third).
DEFAULT_MIN_COVERAGE = 1 / 3

#: Room types a house must have by default (EQA's: kitchen, living room, dining room, bedroom).
DEFAULT_REQUIRED = ("kitchen", "living_room", "dining_room", "bedroom")


def internal_area(scene: Scene) -> float:
    """The summed floor area of a house's rooms (m²); 0 for a scene without rooms."""
    return sum(room.area for room in scene.rooms)


def coverage(scene: Scene) -> float:
    """Internal area over the area of the rectangle bounding every room's floor."""
    points = [p for room in scene.rooms for p in room.floor]
    if not points:
        return 0.0
    xs = [x for x, _ in points]
    zs = [z for _, z in points]
    ground = (max(xs) - min(xs)) * (max(zs) - min(zs))
    return internal_area(scene) / ground if ground > 0 else 0.0


def rooms_connected(scene: Scene) -> bool:
    """Whether one 4-connected part of the reachable grid reaches into every room."""
    if not scene.rooms:
        return False
    graph = grid_graph(scene.reachable)
    points = {grid_key(x, z): (x, z) for x, z in scene.reachable}
    for component in nx.connected_components(graph):
        inside = {_room_id_at(scene, *points[key]) for key in component}
        if all(room.room_id in inside for room in scene.rooms):
            return True
    return False


def _room_id_at(scene: Scene, x: float, z: float) -> str | None:
    room = scene.room_at(x, z)
    return room.room_id if room is not None else None


@dataclass(frozen=True)
class HouseFilter:
    """EQA's house filter at lite's scale (see the module docstring)."""

    min_area: float = DEFAULT_MIN_AREA
    max_area: float = DEFAULT_MAX_AREA
    required: tuple[str, ...] = DEFAULT_REQUIRED
    min_coverage: float = DEFAULT_MIN_COVERAGE

    def __post_init__(self) -> None:
        if self.min_area < 0 or self.max_area < self.min_area:
            raise UserError(f"house area range {self.min_area:g}-{self.max_area:g} m² is empty", ExitCode.USAGE)
        unknown = sorted(set(self.required) - set(HOUSE_ROOM_TYPES))
        if unknown:
            raise UserError(f"unknown room type(s) {', '.join(unknown)} (room types: {', '.join(HOUSE_ROOM_TYPES)})",
                            ExitCode.USAGE)
        if not 0 <= self.min_coverage <= 1:
            raise UserError(f"house coverage must lie in [0, 1], got {self.min_coverage:g}", ExitCode.USAGE)

    def why_rejected(self, scene: Scene) -> str | None:
        """None when the house passes, else the first rule it breaks (a short phrase)."""
        if not scene.rooms:
            return "not a house"
        area = internal_area(scene)
        if not self.min_area <= area <= self.max_area:
            return f"area {area:.1f} m2 outside {self.min_area:g}-{self.max_area:g}"
        have = Counter(t for room in scene.rooms for t in room.types)  # an open-plan room counts as each
        missing = [t for t in self.required if have[t] == 0]
        if missing:
            return f"no {', '.join(missing)}"
        share = coverage(scene)
        if share < self.min_coverage:
            return f"coverage {share:.2f} below {self.min_coverage:.2f}"
        if not rooms_connected(scene):
            return "rooms not connected"
        return None

    def accepts(self, scene: Scene) -> bool:
        return self.why_rejected(scene) is None


def parse_room_types(values: Iterable[str] | str | None) -> tuple[str, ...]:
    """Comma-separated or repeated room types (``kitchen,bedroom``), in order, without repeats."""
    if values is None:
        return ()
    items = [values] if isinstance(values, str) else list(values)
    names = [part.strip() for item in items for part in str(item).split(",") if part.strip()]
    return tuple(dict.fromkeys(names))
