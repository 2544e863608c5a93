"""Which fixture of an imported THOR room a support fact names, and where the object it reports lies.

A released demo reports "object X lay on receptacle Y at position P". The fitting rules and the
learnt surface heights both need that as (fact, fixture id, object box): the fixture is found by
type and position among every fixture the room's evidence names, and the object's box is the
loose object's box at its reported pose (:mod:`alfred_gen.scenes.alfred.loose`).
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, SupportFact, id_position, type_of_name
from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.sim.scene import Box, format_object_id


def fact_box(fact: SupportFact, floor_y: float) -> Box:
    """The box of the object a support fact reports, at the reported pose, centred on its origin."""
    return loose_box(type_of_name(fact.object_name), fact.position, fact.yaw, floor_y)


def fixture_ids(evidence: SceneEvidence) -> list[str]:
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
            known.add(format_object_id(kind, fact.receptacle_at, True))
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


def resolved_facts(evidence: SceneEvidence, fixtures: Iterable[str], floor_y: float
                   ) -> list[tuple[SupportFact, str, Box]]:
    """The room's support facts whose fixture is among ``fixtures``, each with that fixture's id and
    the reported object's box, in the evidence's order."""
    out = []
    for fact in evidence.supports:
        target = resolve_support(fact, fixtures)
        if target is not None:
            out.append((fact, target, fact_box(fact, floor_y)))
    return out
