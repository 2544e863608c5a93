"""Which interactions of the held-out mask figure no room built from other folds has evidence for.

A demo that puts an apple into a fridge and takes it out again shows, in the mask of that pickup,
where THOR landed it. THOR's ``PutObject`` lands a thing at a spot that depends on what already lies
in the receptacle, so the same type put from the same agent pose lands in different places in
different demos (stop 112 of issue 69 measured it: over every train demo, the nearest landing the
other folds show lies within 5 cm of a fridge put's own in 69% of cases). A room built from the
other folds knows only the landings their demos show (their
:class:`~alfred_gen.scenes.alfred.put_facts.PutFact` s); where a demo's own landing lies far from
all of them, nothing the room was built from says where the thing is, and lite draws it where the
other folds' landings point.

:func:`unshown_landings` finds those pickups among a held-out figure's interactions: the target was
put into a receptacle earlier in the demo, the demo's own put fact says where it landed, and no
demo of another fold of the room shows a thing of its type put into that receptacle from that
agent pose within :data:`SHOWN_WITHIN` of it. The bench prints the mask rule over the other
interactions beside the full figure, each labelled with what it counts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.fidelity.evidence_pool import EvidencePool
from alfred_gen.fidelity.masks import MaskAgreement
from alfred_gen.fidelity.measure import load
from alfred_gen.scenes.alfred.put_facts import PutFact

#: How near (metres) another fold's landing must lie to the demo's own to show it: stop 112's
#: "shown within 10 cm" (its landings are the middles of masks cast into the room, good to a few cm).
SHOWN_WITHIN = 0.10

#: (room, receptacle id, object type, agent pose rounded to the centimetre and degree)
_LandingKey = tuple[int, str, str, tuple[float, ...]]


def _key(room: int, fact: PutFact) -> _LandingKey:
    return room, fact.receptacle, fact.kind, tuple(round(c, 2) for c in fact.pose)


def put_before(low_actions: Sequence[Mapping[str, Any]], low_idx: int, object_id: str) -> str | None:
    """The receptacle ``object_id`` was last put into before low action ``low_idx``, if it was put
    down and not picked up since."""
    receptacle = None
    for low in low_actions[:low_idx]:
        api = low.get("api_action") or {}
        if api.get("objectId") != object_id:
            continue
        if api.get("action") == "PutObject":
            receptacle = api.get("receptacleObjectId")
        elif api.get("action") == "PickupObject":
            receptacle = None
    return receptacle if isinstance(receptacle, str) else None


def unshown_landings(pool: EvidencePool, fold_of: Mapping[Path, int], items: Sequence[MaskAgreement],
                     read: Callable[[Path], Mapping[str, Any]] = load) -> list[MaskAgreement]:
    """The pickups of ``items`` whose target the demo had put into a receptacle where no demo of
    another fold (``fold_of``) of its room shows a thing of its type put from the same agent pose
    within :data:`SHOWN_WITHIN` of the demo's own landing. A pickup whose demo has no put fact for
    it (the receptacle is not one put facts are read for, or its mask was cut by the frame) is not
    among them: what is not measured is not counted as unknowable."""
    landings: dict[_LandingKey, list[tuple[int, tuple[float, float, float]]]] = defaultdict(list)
    facts_of: dict[Path, tuple[int, list[PutFact]]] = {}
    for demo in pool.demos:
        facts_of[demo.path] = (demo.room, demo.facts.puts)
        for fact in demo.facts.puts:
            landings[_key(demo.room, fact)].append((fold_of[demo.path], fact.point))
    trajectories: dict[Path, Mapping[str, Any]] = {}
    out = []
    for item in items:
        if item.action != "PickupObject" or item.path not in facts_of:
            continue
        if item.path not in trajectories:
            trajectories[item.path] = read(item.path)
        receptacle = put_before(trajectories[item.path]["plan"]["low_actions"], item.low_idx, item.target)
        room, facts = facts_of[item.path]
        own = [f for f in facts if f.receptacle == receptacle and f.kind == type_of_id(item.target)]
        if not own:
            continue
        fold = fold_of[item.path]
        if not any(_shown_elsewhere(landings[_key(room, f)], fold, f.point) for f in own):
            out.append(item)
    return out


def _shown_elsewhere(landings: Sequence[tuple[int, tuple[float, float, float]]], fold: int,
                     point: tuple[float, float, float]) -> bool:
    """Whether a landing of ``landings`` (fold, point) from a fold other than ``fold`` lies within
    :data:`SHOWN_WITHIN` of ``point``."""
    return any(other != fold and math.dist(seen, point) <= SHOWN_WITHIN for other, seen in landings)
