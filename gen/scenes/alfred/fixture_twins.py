"""The faucet of a sink basin no demonstration names, copied from its twin in the same row.

A faucet runs into the basin nearest to it (:func:`~alfred_gen.domains.catalogue.faucet_basins`,
ALFRED's own rule: over the 6,574 train demos, all 895 faucets turned on ran into the basin nearest
them among those the room's demos name). A room knows a faucet only from a demo that turns it on, so
a bathroom with two sinks side by side whose demos all used one (FloorPlan416: basins at z +2.28
and +3.37, one faucet named, ``Faucet|-01.93|+00.72|+03.37``) has a basin no faucet runs into; a
plan that cleans in it (the high-level action of ``pick_clean_then_place_in_recep-SoapBar-None-
CounterTop-416`` names the basin at +2.28) then finds no faucet.

THOR's twin sinks are copies of one asset: in the train rooms, every row of two sink basins at one
height and on one line (same x or same z) whose two faucets are both named has them at the same
offset from their basins (8 of 8 rows: FloorPlan402, 403, 407, 408, 410, 413, 421, 428; FloorPlan423's
two sinks stand at right angles, not in a row). So a basin without a faucet, in a row with a basin
that has one, gets a faucet at the same offset (:func:`twin_faucets`); :func:`twin_support` counts
the rows that agree and disagree, for the record.
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.sim.scene import format_object_id

#: Two basin ids this close in height, and in x or in z, are twins in one row (m; ids are cm).
ROW = 0.02
#: Two twins' faucet offsets this close agree (m).
SAME_OFFSET = 0.03

Offset = tuple[float, float, float]


def _basins(evidence: SceneEvidence, kinds: frozenset[str] = frozenset({"SinkBasin"})) -> list[str]:
    ids = {*evidence.openable, *evidence.static_ids}
    return sorted(i for i in ids if catalogue.type_of_id(i) in kinds and i.count("|") == 4)


def _faucets(evidence: SceneEvidence) -> list[str]:
    return sorted(i for i in evidence.static_ids if catalogue.type_of_id(i) == "Faucet" and i.count("|") == 3)


def _offsets(basins: list[str], faucets: list[str]) -> dict[str, Offset]:
    """Basin id -> offset of the faucet running into it (the nearest such, ties by id); ``basins``
    are every wash basin of the room, bathtubs too, so that a faucet pairs as the simulator pairs it."""
    things = [(i, catalogue.type_of_id(i), id_position(i)[0], id_position(i)[2]) for i in (*basins, *faucets)]
    out: dict[str, Offset] = {}
    pairs = sorted(catalogue.faucet_basins(things).items(), key=lambda p: (_flat(p[0], p[1]), p[0]))
    for faucet, basin in pairs:
        if basin not in out:
            fx, fy, fz = id_position(faucet)
            bx, by, bz = id_position(basin)
            out[basin] = (fx - bx, fy - by, fz - bz)
    return out


def _flat(a: str, b: str) -> float:
    (ax, _, az), (bx, _, bz) = id_position(a), id_position(b)
    return float(((ax - bx) ** 2 + (az - bz) ** 2) ** 0.5)


def _twins(a: str, b: str) -> bool:
    (ax, ay, az), (bx, by, bz) = id_position(a), id_position(b)
    return a != b and abs(ay - by) <= ROW and (abs(ax - bx) <= ROW or abs(az - bz) <= ROW)


def twin_faucets(evidence: SceneEvidence) -> list[str]:
    """Ids of the faucets the room lacks for its basins, each at the offset its twin's faucet has
    (sorted; none when every basin has a faucet or no twin has one)."""
    basins = _basins(evidence)
    every = _basins(evidence, catalogue.WASH_BASINS)
    faucets = _faucets(evidence)
    offsets = _offsets(every, faucets)
    added = []
    for basin in basins:
        if basin in offsets:
            continue
        twins = [t for t in basins if t in offsets and _twins(basin, t)]
        if not twins:
            continue
        dx, dy, dz = offsets[min(twins, key=lambda t: (_flat(basin, t), t))]
        bx, by, bz = id_position(basin)
        faucet = format_object_id("Faucet", (bx + dx, by + dy, bz + dz))
        # Only a faucet that would run into this basin (nearest to it) does what it is made for.
        if _offsets(every, [*faucets, faucet]).get(basin) is not None and faucet not in faucets:
            added.append(faucet)
    return sorted(added)


def twin_support(rooms: Iterable[SceneEvidence]) -> tuple[int, int]:
    """(rows of twin basins whose faucets are both named at the same offset, rows at different
    offsets) over ``rooms``."""
    agree = disagree = 0
    for room in rooms:
        basins = _basins(room)
        offsets = _offsets(_basins(room, catalogue.WASH_BASINS), _faucets(room))
        for i, a in enumerate(basins):
            for b in basins[i + 1:]:
                if a in offsets and b in offsets and _twins(a, b):
                    same = all(abs(p - q) <= SAME_OFFSET for p, q in zip(offsets[a], offsets[b]))
                    agree += same
                    disagree += not same
    return agree, disagree
