"""Calibration against ALFRED's real rooms ($ALFRED_DATA/layouts): vocabulary and sizes per room type."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.scenes import get_scene, scene_numbers
from alfred_gen.sim.scene import ROOM_TYPES, room_type_of


@pytest.fixture(scope="module")
def alfred(alfred_data: Path) -> dict[str, list[dict]]:
    layouts = alfred_data / "layouts"
    if not layouts.is_dir():
        pytest.fail(f"{layouts} is missing")
    rooms: dict[str, list[dict]] = {t: [] for t in ROOM_TYPES}
    for number in scene_numbers():
        stem = layouts / f"FloorPlan{number}"
        openable = json.loads(Path(f"{stem}-openable.json").read_text())
        rooms[room_type_of(number)].append(
            {
                "objects": set(json.loads(Path(f"{stem}-objects.json").read_text())),
                "receptacle_types": {type_of_id(k) for k in openable},
                "receptacles": len(openable),
                "reachable": int(np.load(f"{stem}-layout.npy").shape[0]),
            }
        )
    return rooms


@pytest.fixture(scope="module")
def ours(alfred: dict[str, list[dict]]) -> dict[str, list[dict]]:
    vocabulary = set().union(*(r["receptacle_types"] for rooms in alfred.values() for r in rooms))
    rooms: dict[str, list[dict]] = {t: [] for t in ROOM_TYPES}
    for number in scene_numbers():
        scene = get_scene(number)
        posed = [type_of_id(k) for k in scene.interaction_poses if type_of_id(k) in vocabulary]
        rooms[scene.room_type].append(
            {
                "objects": {o.object_type for o in scene.objects},
                "receptacle_types": set(posed),
                "receptacles": len(posed),
                "reachable": len(scene.reachable),
            }
        )
    return rooms


@pytest.mark.parametrize("room_type", ROOM_TYPES)
def test_every_type_alfreds_rooms_hold_appears_in_ours(room_type: str, alfred, ours) -> None:
    for key in ("objects", "receptacle_types"):
        theirs = set().union(*(r[key] for r in alfred[room_type]))
        mine = set().union(*(r[key] for r in ours[room_type]))
        assert not theirs - mine, f"{room_type} lacks {sorted(theirs - mine)}"


@pytest.mark.parametrize("room_type", ROOM_TYPES)
@pytest.mark.parametrize("key", ["reachable", "receptacles"])
def test_sizes_fall_in_alfreds_range(room_type: str, key: str, alfred, ours) -> None:
    theirs = [r[key] for r in alfred[room_type]]
    mine = [r[key] for r in ours[room_type]]
    assert min(mine) >= 0.5 * min(theirs), (room_type, key, min(mine), min(theirs))
    assert max(mine) <= 1.5 * max(theirs), (room_type, key, max(mine), max(theirs))
    ratio = statistics.median(mine) / statistics.median(theirs)
    assert 0.6 <= ratio <= 1.6, (room_type, key, statistics.median(mine), statistics.median(theirs))
