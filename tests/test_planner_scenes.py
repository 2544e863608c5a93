"""The hand-written planner scenes (tests/helpers/planner_scenes.py) are shaped as THOR's metadata."""

from __future__ import annotations

from tests.helpers.planner_scenes import kitchen


def test_fixtures_list_containment_both_ways() -> None:
    metadata, poses, _ = kitchen()
    by_id = {o["objectId"]: o for o in metadata["objects"]}
    apple_in_bowl = [o for o in metadata["objects"] if o["objectType"] == "Apple" and o["parentReceptacles"]
                     and by_id[o["parentReceptacles"][0]]["objectType"] == "Bowl"][0]
    bowl, counter = apple_in_bowl["parentReceptacles"]
    assert by_id[counter]["objectType"] == "CounterTop"
    assert apple_in_bowl["objectId"] in by_id[bowl]["receptacleObjectIds"]
    assert apple_in_bowl["objectId"] in by_id[counter]["receptacleObjectIds"]
    assert all(oid in by_id for oid in poses)
