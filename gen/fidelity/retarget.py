"""Pointing a released demonstration's actions at the fixtures a room built without its file has.

A room whose faucets, lamps or garbage cans were placed by type-level rules
(:mod:`alfred_gen.scenes.alfred.fixture_rules`) cannot hold them at the centimetre THOR's ids
encode, so a replay by id would fail on every one of them whatever the rule. An agent acting by
masks (ALFRED's evaluation) picks whatever it sees there; this measurement does the same with ids:
an action on a fixture id the room lacks is pointed at the room's nearest object of that type.
It is used only for the rule-placed figure of ``bench/alfred_fidelity.py --unseen-rooms`` (c),
labelled so; replays of files never do it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import id_position, is_static_id
from alfred_gen.sim.scene import Scene

_KEYS = ("objectId", "receptacleObjectId")


def retargeted(traj: Mapping[str, Any], scene: Scene) -> tuple[dict[str, Any], dict[str, str]]:
    """A copy of ``traj`` whose actions on fixture ids ``scene`` lacks name the nearest object of
    the same type in ``scene`` instead, and the mapping used (empty: ``traj`` is copied unchanged)."""
    present = {o.object_id for o in scene.objects}
    by_type: dict[str, list[tuple[str, tuple[float, float, float]]]] = {}
    for obj in scene.objects:
        by_type.setdefault(obj.object_type, []).append((obj.object_id, obj.position))
    mapping: dict[str, str] = {}
    out = copy.deepcopy(dict(traj))
    plan = out.get("plan") or {}
    entries = [low.get("api_action") or {} for low in plan.get("low_actions") or ()]
    entries += [high.get("planner_action") or {} for high in plan.get("high_pddl") or ()]
    for entry in entries:
        for key in _KEYS:
            value = entry.get(key)
            if not isinstance(value, str) or value in present or not is_static_id(value) or value.count("|") != 3:
                continue
            if value not in mapping:
                kind = catalogue.type_of_id(value)
                x, y, z = id_position(value)
                candidates = sorted(by_type.get(kind, ()),
                                    key=lambda c: (math.dist((x, y, z), c[1]), c[0]))
                if not candidates:
                    continue
                mapping[value] = candidates[0][0]
            entry[key] = mapping[value]
    return out, mapping
