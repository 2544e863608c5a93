"""A layout file's id and a demo's id a centimetre apart name one object (gen/scenes/alfred/layout_ids.py)."""

from __future__ import annotations

from pathlib import Path

from alfred_gen.scenes.alfred.complete import complete_from_file
from alfred_gen.scenes.alfred.evidence import SceneEvidence, trajectory_facts
from alfred_gen.scenes.alfred.importer import build_scene, read_layout
from alfred_gen.scenes.alfred.layout_ids import matched_layout_ids
from alfred_gen.traj.format import load_trajectory

#: FloorPlan208's ottoman: its id in ALFRED's openable.json, and in every train demo naming it.
LAYOUT_OTTOMAN = "Ottoman|-00.58|+00.00|+01.05"
DEMO_OTTOMAN = "Ottoman|-00.58|+00.01|+01.05"
OTTOMAN_DEMO = "pick_and_place_simple-RemoteControl-None-Ottoman-208"


def test_a_layout_id_no_demo_names_takes_the_one_named_id_a_centimetre_off() -> None:
    assert matched_layout_ids([LAYOUT_OTTOMAN], [DEMO_OTTOMAN]) == {LAYOUT_OTTOMAN: DEMO_OTTOMAN}


def test_ids_are_not_matched_across_types_beyond_a_centimetre_or_when_the_layout_id_is_named() -> None:
    assert matched_layout_ids([LAYOUT_OTTOMAN], ["ArmChair|-00.58|+00.01|+01.05"]) == {}
    assert matched_layout_ids([LAYOUT_OTTOMAN], ["Ottoman|-00.58|+00.02|+01.05"]) == {}
    assert matched_layout_ids([LAYOUT_OTTOMAN], [LAYOUT_OTTOMAN, DEMO_OTTOMAN]) == {}


def test_two_layout_ids_a_centimetre_apart_are_both_kept() -> None:
    """The two doors of FloorPlan13's cabinet are both in its layout file: neither is renamed into the other."""
    doors = ["Cabinet|-00.64|+00.39|+05.58", "Cabinet|-00.64|+00.39|+05.60"]
    assert matched_layout_ids(doors, doors[1:]) == {}


def test_an_id_near_two_named_ids_is_left_alone() -> None:
    named = ["Ottoman|-00.58|+00.01|+01.05", "Ottoman|-00.57|+00.00|+01.05"]
    assert matched_layout_ids([LAYOUT_OTTOMAN], named) == {}


def _ottomans(objects) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(o.object_id for o in objects if o.object_type == "Ottoman")


def test_floorplan208_built_with_a_demo_holds_one_ottoman_by_the_demos_id(alfred_data: Path) -> None:
    path = next((alfred_data / "json_2.1.0" / "train" / OTTOMAN_DEMO).glob("*/traj_data.json"))
    traj = load_trajectory(path)
    evidence = SceneEvidence(208)
    read_layout(alfred_data / "layouts", 208, evidence)
    assert LAYOUT_OTTOMAN in evidence.openable
    layout_only = build_scene(evidence)
    assert _ottomans(layout_only.objects) == [LAYOUT_OTTOMAN]

    evidence.add_trajectory(trajectory_facts(traj))
    assert DEMO_OTTOMAN in evidence.static_ids
    built = build_scene(evidence)
    assert _ottomans(built.objects) == [DEMO_OTTOMAN]
    assert LAYOUT_OTTOMAN in evidence.openable, "the evidence itself is not changed"
    assert DEMO_OTTOMAN in built.interaction_poses

    completed, added = complete_from_file(layout_only, traj)
    assert _ottomans(completed.objects) == [DEMO_OTTOMAN]
    assert DEMO_OTTOMAN not in added
