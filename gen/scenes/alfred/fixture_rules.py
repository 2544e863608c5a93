"""Fixtures placed by type-level rules in imported rooms no demonstration names them in.

ALFRED's layout files name a room's receptacles (``-openable.json``) and the types present
(``-objects.json``), but not where a faucet, a desk lamp, a garbage can, a coffee machine or a
toaster stands: only a demo acting on one names it, by its id (its position). A room without
demos therefore lacks them, and generation there can never sample a task that needs them.

Each rule is learnt from the rooms that have evidence, and keeps the counts that support it:

- **where it stands**: on the floor (its id at floor height) or on one host, the layout
  receptacle it stands on: of those whose id is below it and within :data:`NEAR`, the nearest
  (horizontally) that does not enclose its contents (a desk lamp stands on a desk, not on the desk's
  drawer), else the nearest that does (a stove over its base cabinets). Host types are ranked by how
  often the fixture stands on one in the rooms that have one (a desk lamp on a side table in 9 of
  the 11 such train rooms, on a desk in 4 of 13), with those counts;
- **how far from the host**: the median height of its id over the host's id, and the median
  horizontal distance from the host's id, taken away from the floor the agent stands on (a faucet
  is behind the basin); for the floor, the median distance beyond the walked floor (by a wall),
  in the corner :mod:`~alfred_gen.scenes.alfred.fixture_floor` picks;
- **how many**: the median number per room that has any, never more than the room has hosts.

They are applied only to rooms without any demonstration and only to types the room's layout
files say are present and no evidence places: a room with evidence is built exactly as before,
but for the faucet of a sink whose twin in the same row has one
(:mod:`~alfred_gen.scenes.alfred.fixture_twins`), and the procedural rooms never come here.
Placed fixtures get THOR-style ids at their positions and are built like any fixture named by
evidence (:mod:`alfred_gen.scenes.alfred.geometry`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.scenes.alfred.fixture_block import FLOOR_ORIGIN
from alfred_gen.scenes.alfred.fixture_floor import BY, FAR, floor_position, score_ways
from alfred_gen.scenes.alfred.fixture_twins import twin_faucets
from alfred_gen.sim.scene import AGENT_Y, format_object_id

#: The host of a fixture standing on the floor (placed the far way, or by a host type:
#: :mod:`~alfred_gen.scenes.alfred.fixture_floor`).
FLOOR = FAR
#: A placement seen fewer times than this is no rule.
MIN_SUPPORT = 2
#: Suffix of a host label whose id is at floor height (a pedestal sink's basin).
ON_FLOOR = " on the floor"
#: An id this far above its host's id still stands on it (ids of a counter are at its top).
ABOVE_HOST = 0.05
#: A host further than this (horizontally, id to id) holds nothing of the fixture's (m).
NEAR = 0.8
#: A host whose id is this close to the height a rule's hosts stand at is used first (m): a stove
#: goes over the base cabinets (ids 0.3-0.5 m up), not over the wall cabinets (1.8-2.2 m).
LEVEL = 0.3


@dataclass(frozen=True)
class Placement:
    """One way a fixture type stands: on ``host`` (a layout receptacle type, with `` on the floor``
    when that host's id is at floor height, like a pedestal sink; or :data:`FLOOR`), ``height``
    over the host's id and ``reach`` from it (medians of the ``support`` ids standing on it), in
    ``used`` of the ``offered`` rooms (with evidence of the fixture) that have such a host."""

    host: str
    support: int
    height: float
    reach: float
    used: int = 0
    offered: int = 0
    #: The median height of those hosts' ids over the floor (a stove's base cabinets, not the wall
    #: cabinets over it): a room's hosts at this level are used first.
    level: float = 0.0

    @property
    def share(self) -> float:
        """How often the fixture stands on this host type where a room has one."""
        return self.used / self.offered if self.offered else 0.0


@dataclass(frozen=True)
class FixtureRule:
    """Where fixtures of one type stand, learnt from the rooms that name them: its placements, the
    best supported first (a room uses the first whose host it has), and how many per room."""

    kind: str
    placements: tuple[Placement, ...]
    rooms: int
    per_room: int

    def describe(self) -> str:
        ways = "; ".join(f"on {p.host} x{p.support}, "
                         + (f"found in {p.used} of {p.offered} rooms tried " if p.host.startswith(FAR)
                            else f"in {p.used} of {p.offered} rooms with one ")
                         + f"({p.height:+.2f} m up, {p.reach:.2f} m off"
                         + ("" if p.host.startswith(FAR) else f", hosts' ids {p.level:.2f} m up") + ")"
                         for p in self.placements)
        return f"{self.kind} ({self.rooms} rooms, {self.per_room} per room): {ways}"


def _floor_y(evidence: SceneEvidence) -> float:
    return evidence.agent_y(AGENT_Y) - AGENT_Y


def _flat(a: tuple[float, float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[1])


def _ruled_types(rooms: Iterable[SceneEvidence]) -> set[str]:
    """Fixture types demos name in a room whose layout files do not (the ones a room without demos
    may lack: faucets, lamps, garbage cans, coffee machines, toasters, ...)."""
    kinds = set()
    for room in rooms:
        in_layout = {catalogue.type_of_id(i) for i in room.openable}
        kinds |= {catalogue.type_of_id(i) for i in room.static_ids if i.count("|") == 3} - in_layout
    return {t for t in kinds if t in catalogue.OBJECT_TYPES and not catalogue.object_type(t).pickupable}


def _host_label(host: str, floor_y: float) -> str:
    kind = catalogue.type_of_id(host)
    return f"{kind}{ON_FLOOR}" if id_position(host)[1] - floor_y < FLOOR_ORIGIN else kind


def _stands_on(position: tuple[float, float, float], room: SceneEvidence, floor_y: float
               ) -> tuple[str, float, float, float] | None:
    """(host label, height over its id, horizontal distance, the host id's height over the floor)
    of what a fixture id at ``position``
    stands on: the floor when the id is at floor height; else, of the layout receptacles whose id is
    below it within :data:`NEAR`, the nearest that does not enclose its contents, else the nearest
    that does; None when none is near."""
    if position[1] - floor_y < FLOOR_ORIGIN:
        if not room.layout_points:
            return None
        return FLOOR, position[1] - floor_y, min(_flat(position, p) for p in room.layout_points), 0.0
    best: tuple[bool, float, str, str] | None = None
    for host in sorted(room.openable):
        hx, hy, hz = id_position(host)
        distance = _flat(position, (hx, hz))
        if hy > position[1] + ABOVE_HOST or distance > NEAR:
            continue
        key = (_encloses(host), distance, host, _host_label(host, floor_y))
        if best is None or key < best:
            best = key
    if best is None:
        return None
    host_y = id_position(best[2])[1]
    return best[3], position[1] - host_y, best[1], host_y - floor_y


def _encloses(host: str) -> bool:
    kind = catalogue.type_of_id(host)
    return kind in catalogue.OBJECT_TYPES and catalogue.object_type(kind).encloses


def _labels(room: SceneEvidence, floor_y: float) -> set[str]:
    """The host labels a room offers: its layout receptacles' and the floor."""
    return {_host_label(h, floor_y) for h in room.openable} | ({FLOOR} if room.layout_points else set())


def learn_fixture_rules(rooms: Iterable[SceneEvidence]) -> dict[str, FixtureRule]:
    """One rule per fixture type some layout files do not name, from the rooms with demonstrations:
    each id counts once, for the host it stands on (:func:`_stands_on`); host types ranked by the
    share of the rooms offering one where the fixture stands on one."""
    rooms = [r for r in rooms if r.trajectories > 0]
    kinds = _ruled_types(rooms)
    stood: dict[str, dict[str, list[tuple[float, float, float]]]] = {k: {} for k in kinds}
    used: dict[str, Counter[str]] = {k: Counter() for k in kinds}
    offered: dict[str, Counter[str]] = {k: Counter() for k in kinds}
    counts: dict[str, list[int]] = {k: [] for k in kinds}
    on_floor: dict[str, list[tuple[list[tuple[float, float]], list[str], list[tuple[float, float, float]]]]] = {
        k: [] for k in kinds}
    for room in rooms:
        floor_y = _floor_y(room)
        in_layout = {catalogue.type_of_id(i) for i in room.openable}
        per_kind: dict[str, list[str]] = {}
        for object_id in sorted(room.static_ids):
            kind = catalogue.type_of_id(object_id)
            if kind not in kinds or kind in in_layout or object_id.count("|") != 3:
                continue
            host = _stands_on(id_position(object_id), room, floor_y)
            if host is not None:
                stood[kind].setdefault(host[0], []).append(host[1:])
                per_kind.setdefault(kind, []).append(host[0])
        for kind, hosts in per_kind.items():
            if FLOOR in hosts:
                truth = [id_position(i) for i in sorted(room.static_ids) if catalogue.type_of_id(i) == kind
                         and i.count("|") == 3 and id_position(i)[1] - floor_y < FLOOR_ORIGIN]
                on_floor[kind].append((sorted(room.layout_points), sorted(room.openable), truth))
        labels = _labels(room, floor_y)
        for kind, hosts in per_kind.items():
            used[kind].update(set(hosts))
            offered[kind].update(labels)
            counts[kind].append(len(hosts))
    rules = {}
    for kind in sorted(kinds):
        placements = [Placement(host, len(on), statistics.median(dy for dy, _, _ in on),
                                statistics.median(reach for _, reach, _ in on), used[kind][host], offered[kind][host],
                                statistics.median(level for _, _, level in on))
                      for host, on in stood[kind].items() if used[kind][host] >= MIN_SUPPORT]
        if not placements:
            continue
        per_room = max(1, round(statistics.median(counts[kind])))
        placements.sort(key=lambda p: (-p.share, -p.used, -p.support, p.host))
        placements = [w for p in placements
                      for w in (_floor_ways(p, on_floor[kind], per_room) if p.host == FLOOR else [p])]
        rules[kind] = FixtureRule(kind, tuple(placements), len(counts[kind]), per_room)
    return rules


def _floor_ways(floor: Placement, rooms: list[tuple[list[tuple[float, float]], list[str],
                                                      list[tuple[float, float, float]]]],
                per_room: int) -> list[Placement]:
    """The floor placement as ways to pick its stretch of wall (:mod:`~alfred_gen.scenes.alfred.fixture_floor`),
    each with the rooms where it found the fixture, of those it was tried in: the ways by a host
    type that found it in :data:`MIN_SUPPORT` rooms or more, and in more of them than the far way
    did, by share, then the far way (every room has a far corner)."""
    scores = score_ways(rooms, floor.reach, per_room)
    far = Placement(FAR, floor.support, floor.height, floor.reach, *scores.get(FAR, (0, 0, 0))[:2])
    ways = [Placement(way, floor.support, floor.height, floor.reach, found, tried)
            for way, (found, tried, far_found) in sorted(scores.items())
            if way != FAR and found >= MIN_SUPPORT and found > far_found]
    return [*sorted(ways, key=lambda p: (-p.share, -p.used, p.host)), far]


def _away(origin: tuple[float, float], points: list[tuple[float, float]]) -> tuple[float, float]:
    """The unit vector from the walked point nearest ``origin`` to it (towards the wall behind)."""
    nearest = min(points, key=lambda p: (math.hypot(p[0] - origin[0], p[1] - origin[1]), p))
    dx, dz = origin[0] - nearest[0], origin[1] - nearest[1]
    norm = math.hypot(dx, dz)
    return (dx / norm, dz / norm) if norm > 1e-9 else (0.0, 1.0)


def rule_positions(evidence: SceneEvidence, rule: FixtureRule, taken: Sequence[tuple[float, float]] = ()
                   ) -> list[tuple[float, float, float]]:
    """Where ``rule`` puts its fixtures in the room ``evidence`` describes: by its first placement
    whose host the room has (none without); a host's first the ones whose id is within
    :data:`LEVEL` of the placement's level, then by id; on the floor, clear of the floor fixtures
    already ``taken`` ((x, z))."""
    points = sorted(evidence.layout_points)
    if not points:
        return []
    floor_y = _floor_y(evidence)
    for placement in rule.placements:
        if placement.host == FAR or placement.host.startswith(BY):
            spots = floor_position(placement.host, points, sorted(evidence.openable), placement.reach,
                                   rule.per_room, taken)
            if spots:
                return [(x, floor_y + placement.height, z) for x, z in spots]
            continue
        hosts = sorted((abs(id_position(i)[1] - floor_y - placement.level) > LEVEL, i)
                       for i in evidence.openable if _host_label(i, floor_y) == placement.host)
        if not hosts:
            continue
        out = []
        for _, host in hosts[: rule.per_room]:
            hx, hy, hz = id_position(host)
            ux, uz = _away((hx, hz), points)
            out.append((hx + placement.reach * ux, hy + placement.height, hz + placement.reach * uz))
        return out
    return []


def with_rule_fixtures(evidence: SceneEvidence, rules: Mapping[str, FixtureRule]) -> tuple[SceneEvidence, list[str]]:
    """``evidence`` plus the fixtures the rules place, and their ids: only for a room without any
    demonstration, and only types its layout files list as present and no evidence places; then, in
    any room, the faucet of a sink basin whose twin in the same row has one
    (:func:`~alfred_gen.scenes.alfred.fixture_twins.twin_faucets`).
    Returns ``evidence`` itself (and no ids) when nothing is placed."""
    ids: list[str] = []
    if evidence.trajectories == 0:
        placed_types = {catalogue.type_of_id(i) for i in (*evidence.openable, *evidence.static_ids)}
        for kind in sorted(rules):
            if kind not in evidence.types_present or kind in placed_types:
                continue
            taken = [(x, z) for x, y, z in map(id_position, ids) if y - _floor_y(evidence) < FLOOR_ORIGIN]
            ids += [format_object_id(kind, position, True)
                    for position in rule_positions(evidence, rules[kind], taken)]
    placed = evidence.copy() if ids else evidence
    if ids:
        placed.static_ids = set(placed.static_ids) | set(ids)
    twins = twin_faucets(placed)
    if twins:
        placed = placed.copy() if placed is evidence else placed
        placed.static_ids = set(placed.static_ids) | set(twins)
        ids += twins
    return placed, sorted(ids)
