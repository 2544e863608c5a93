"""The task-type registry (gen/tasks.py, domains/tasks.json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from alfred_gen.domains.tasks import TaskSpec, capabilities, get_task_type, make_task, task_type_names, task_types
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.scene import room_type_of

ALFRED_TYPES = {
    "pick_and_place_simple",
    "pick_two_obj_and_place",
    "look_at_obj_in_light",
    "pick_clean_then_place_in_recep",
    "pick_heat_then_place_in_recep",
    "pick_cool_then_place_in_recep",
    "pick_and_place_with_movable_recep",
}


def test_registry_has_alfreds_seven_task_types_with_their_slice_variants() -> None:
    assert set(task_type_names()) == ALFRED_TYPES
    sliceable = {t.name for t in task_types() if t.slice_variant}
    assert sliceable == ALFRED_TYPES - {"look_at_obj_in_light"}  # ALFRED's train set has 9 pick_two tasks on slices


@pytest.mark.parametrize(
    "name, rooms",
    [
        ("pick_heat_then_place_in_recep", {"kitchen"}),
        ("pick_cool_then_place_in_recep", {"kitchen"}),
        ("pick_clean_then_place_in_recep", {"kitchen", "bathroom"}),
        ("look_at_obj_in_light", {"living_room", "bedroom"}),
        ("pick_and_place_with_movable_recep", {"kitchen", "living_room", "bedroom"}),
        ("pick_and_place_simple", {"kitchen", "living_room", "bedroom", "bathroom"}),
        ("pick_two_obj_and_place", {"kitchen", "living_room", "bedroom", "bathroom"}),
    ],
)
def test_room_types_follow_alfred(name: str, rooms: set[str]) -> None:
    task_type = get_task_type(name)
    assert set(task_type.room_types) == rooms
    assert all(task_type.allowed_in(r) == (r in rooms) for r in ("kitchen", "living_room", "bedroom", "bathroom"))


def test_tools_needed_include_a_knife_only_for_slice_variants() -> None:
    heat = get_task_type("pick_heat_then_place_in_recep")
    assert heat.needed_tools(False) == ("canHeat",)
    assert heat.needed_tools(True) == ("canHeat", "canSlice")
    assert set(capabilities()["canSlice"].classes) == {"Knife", "ButterKnife"}
    assert capabilities()["canHeat"].classes == ("Microwave",)


def test_unknown_task_type_is_not_found() -> None:
    with pytest.raises(UserError) as error:
        get_task_type("pick_and_juggle")
    assert error.value.code == ExitCode.NOT_FOUND


def test_make_task_checks_slots_and_classes() -> None:
    spec = make_task(
        "pick_and_place_with_movable_recep", "Apple", "DiningTable", mrecep_target="Pot", object_sliced=True
    )
    assert spec.pddl_params() == {
        "mrecep_target": "Pot",
        "object_sliced": True,
        "object_target": "Apple",
        "parent_target": "DiningTable",
        "toggle_target": "",
    }
    with pytest.raises(UserError) as missing:
        make_task("pick_and_place_with_movable_recep", "Apple", "DiningTable")
    assert missing.value.code == ExitCode.USAGE and "--mrecep" in str(missing.value)
    with pytest.raises(UserError) as extra:
        make_task("pick_and_place_simple", "Apple", "DiningTable", mrecep_target="Pot")
    assert extra.value.code == ExitCode.USAGE
    with pytest.raises(UserError) as unsliceable:
        make_task("look_at_obj_in_light", "Apple", toggle_target="DeskLamp", object_sliced=True)
    assert unsliceable.value.code == ExitCode.USAGE
    with pytest.raises(UserError) as unknown:
        make_task("pick_and_place_simple", "Aple", "DiningTable")
    assert unknown.value.code == ExitCode.NOT_FOUND


def test_look_at_takes_the_lamp_from_the_receptacle_slot_as_alfred_names_it() -> None:
    spec = make_task("look_at_obj_in_light", "AlarmClock", "DeskLamp")
    assert (spec.parent_target, spec.toggle_target) == ("", "DeskLamp")
    assert make_task("look_at_obj_in_light", "AlarmClock", toggle_target="FloorLamp").toggle_target == "FloorLamp"


def _alfred_root() -> Path | None:
    root = os.environ.get("ALFRED_DATA")
    if not root:
        return None
    path = Path(root)
    if not (path / "json_2.1.0").is_dir():
        pytest.fail(f"ALFRED_DATA={root} has no json_2.1.0")
    return path


def test_every_released_task_reads_into_a_valid_task_in_an_allowed_room() -> None:
    root = _alfred_root()
    if root is None:
        pytest.skip("ALFRED_DATA not set")
    files = sorted((root / "json_2.1.0").glob("*/*/*/traj_data.json"))
    assert files
    for path in files:
        data = json.loads(path.read_text())
        spec = TaskSpec.from_pddl_params(data["task_type"], data["pddl_params"])
        checked = make_task(
            spec.task_type,
            spec.object_target,
            spec.parent_target,
            spec.mrecep_target,
            spec.toggle_target,
            spec.object_sliced,
        )
        assert checked == spec, path
        room = room_type_of(int(data["scene"]["scene_num"]))
        assert get_task_type(spec.task_type).allowed_in(room), (path, room)
