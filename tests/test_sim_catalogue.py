"""The object catalogue covers ALFRED's vocabulary and allows every placement ALFRED demonstrates."""

from __future__ import annotations

import json
from pathlib import Path

from alfred_gen.domains import catalogue
from alfred_gen.domains.catalogue import OBJECT_TYPES, PLACEMENT, can_place, object_type, type_of_id


def _trajectories(files: list[Path]) -> list[dict]:
    return [json.loads(f.read_text()) for f in files]


def test_receptacle_entries_are_consistent() -> None:
    for name, entry in OBJECT_TYPES.items():
        assert entry.name == name
        assert all(s > 0 for s in entry.size), name
        if entry.receptacle and name != "Floor":
            assert entry.capacity > 0, name
        if not entry.receptacle:
            assert entry.capacity == 0 and name not in PLACEMENT, name
        if entry.encloses:
            assert entry.openable and entry.receptacle, name
    for recep, allowed in PLACEMENT.items():
        assert object_type(recep).receptacle, recep
        for obj in allowed:
            assert object_type(obj).pickupable, (obj, recep)


def test_sliced_types_and_tools() -> None:
    for whole, sliced in catalogue.SLICED_TYPES.items():
        assert object_type(whole).sliceable
        assert object_type(sliced).pickupable and not object_type(sliced).sliceable
        assert catalogue.SLICE_COUNTS[whole] >= 1
    for name in catalogue.MOVABLE_RECEPTACLES:
        assert object_type(name).pickupable and object_type(name).receptacle
    assert can_place("AppleSliced", "Fridge") and not can_place("Fridge", "Apple")
    assert not can_place("Apple", "Toaster")


def test_type_of_id() -> None:
    assert type_of_id("Apple|+00.10|+00.90|-01.20") == "Apple"
    assert type_of_id("Sink|-01.90|+00.97|-01.50|SinkBasin") == "SinkBasin"
    assert type_of_id("Bread|+02.30|+00.83|+04.50|BreadSliced_8") == "BreadSliced"


def test_catalogue_covers_alfred_layouts(alfred_data: Path) -> None:
    root = alfred_data
    missing = set()
    for path in sorted((root / "layouts").glob("*-objects.json")):
        missing |= {t for t in json.loads(path.read_text()) if t not in OBJECT_TYPES}
    for path in sorted((root / "layouts").glob("*-openable.json")):
        for object_id in json.loads(path.read_text()):
            t = type_of_id(object_id)
            if t not in OBJECT_TYPES or not OBJECT_TYPES[t].receptacle:
                missing.add(object_id)
    assert not missing


def test_catalogue_covers_alfred_trajectories_and_their_placements(released_trajectory_files: list[Path]) -> None:
    missing, forbidden = set(), set()
    for traj in _trajectories(released_trajectory_files):
        for pose in traj["scene"]["object_poses"]:
            name = pose["objectName"].split("_")[0]
            if name not in OBJECT_TYPES:
                missing.add(name)
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            for key in ("objectId", "receptacleObjectId"):
                if key in api and type_of_id(api[key]) not in OBJECT_TYPES:
                    missing.add(api[key])
            if api["action"] == "PutObject":
                pair = (type_of_id(api["objectId"]), type_of_id(api["receptacleObjectId"]))
                if not can_place(*pair):
                    forbidden.add(pair)
            if api["action"] == "OpenObject":
                assert object_type(type_of_id(api["objectId"])).openable
            if api["action"] == "SliceObject":
                assert object_type(type_of_id(api["objectId"])).sliceable
            if api["action"].startswith("ToggleObject"):
                assert object_type(type_of_id(api["objectId"])).toggleable
            if api["action"] == "PickupObject":
                assert object_type(type_of_id(api["objectId"])).pickupable
    assert not missing
    assert not forbidden
