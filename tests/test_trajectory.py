"""The trajectory format: schema, JSON paths in problems, loading bad files, atomic saving."""

from __future__ import annotations

import copy
import errno
import json
import os
import random

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj import format as trajectory
from alfred_gen.traj.format import (
    InvalidTrajectoryError,
    Problem,
    first_problem,
    format_json_path,
    load_schema,
    load_trajectory,
    save_trajectory,
    serialize_trajectory,
    trajectory_dir_name,
    trajectory_dir_name_for,
    validate_trajectory,
)
from tests.helpers.trajectories import make_trajectory

MASK_PATH = "$.plan.low_actions[1].discrete_action.args.mask"


def test_hand_built_trajectory_is_valid():
    assert validate_trajectory(make_trajectory()) == []
    assert first_problem(make_trajectory()) is None


# ------------------------------------------------------------------ rejections with JSON paths


def _problem_after(edit) -> Problem | None:
    data = make_trajectory()
    edit(data)
    return first_problem(data)


def test_missing_plan():
    assert _problem_after(lambda d: d.pop("plan")) == ("$.plan", "required key is missing")


def test_low_action_without_api_action():
    problem = _problem_after(lambda d: d["plan"]["low_actions"][1].pop("api_action"))
    assert problem == ("$.plan.low_actions[1].api_action", "required key is missing")


def test_mask_run_past_the_image_end():
    def edit(data):
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["mask"][3] = [89990, 20]

    problem = _problem_after(edit)
    assert problem.json_path == f"{MASK_PATH}[3]"
    assert "90010" in problem.message and "90000" in problem.message


def test_mask_run_start_outside_image_is_a_schema_error():
    def edit(data):
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["mask"][2] = [90000, 1]

    assert _problem_after(edit).json_path == f"{MASK_PATH}[2][0]"


def test_mask_run_of_length_zero():
    def edit(data):
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["mask"][0] = [5, 0]

    problem = _problem_after(edit)
    assert problem.json_path == f"{MASK_PATH}[0][1]"


def test_overlapping_mask_runs():
    def edit(data):
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["mask"][2] = [30351, 4]

    problem = _problem_after(edit)
    assert problem.json_path == f"{MASK_PATH}[2]"
    assert "increasing order" in problem.message


def test_high_idx_as_string():
    problem = _problem_after(lambda d: d["plan"]["low_actions"][0].update(high_idx="0"))
    assert problem == ("$.plan.low_actions[0].high_idx", "expected integer, got string")


def test_boolean_is_not_an_integer():
    problem = _problem_after(lambda d: d["images"][1].update(low_idx=True))
    assert problem == ("$.images[1].low_idx", "expected integer, got boolean")


def test_negative_index():
    problem = _problem_after(lambda d: d["plan"]["high_pddl"][2].update(high_idx=-1))
    assert problem.json_path == "$.plan.high_pddl[2].high_idx"
    assert "minimum" in problem.message


def test_top_level_must_be_an_object():
    assert first_problem([1, 2]) == ("$", "expected object, got array")


def test_mask_without_bbox():
    problem = _problem_after(
        lambda d: d["plan"]["low_actions"][1]["discrete_action"]["args"].pop("bbox")
    )
    assert problem.json_path == "$.plan.low_actions[1].discrete_action.args.bbox"
    assert problem.message.startswith("required key is missing")


def test_template_is_optional_but_checked_when_present():
    assert _problem_after(lambda d: d.pop("template")) is None
    problem = _problem_after(lambda d: d["template"].pop("high_descs"))
    assert problem == ("$.template.high_descs", "required key is missing")


def test_extra_keys_are_allowed_everywhere():
    def edit(data):
        data["alfred_gen"] = {"backend": "lite", "seed": 3}
        data["scene"]["extra"] = 1
        data["plan"]["low_actions"][1]["api_action"]["custom"] = [1, "x"]
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["note"] = "ok"
        data["images"][0]["depth"] = "000000000.png"

    assert _problem_after(edit) is None


def test_problems_are_sorted_and_all_reported():
    data = make_trajectory()
    data["images"][1]["high_idx"] = "x"
    del data["plan"]["low_actions"][0]["api_action"]
    data["task_id"] = 7
    del data["scene"]["floor_plan"], data["scene"]["random_seed"]
    paths = [problem.json_path for problem in validate_trajectory(data)]
    assert paths == [
        "$.images[1].high_idx",
        "$.plan.low_actions[0].api_action",
        "$.scene.floor_plan",
        "$.scene.random_seed",
        "$.task_id",
    ]


def test_messages_are_one_short_line_even_for_huge_values():
    data = make_trajectory()
    data["plan"]["low_actions"] = {"not": "a list " * 1000}
    problem = first_problem(data)
    assert problem == ("$.plan.low_actions", "expected array, got object")
    data["plan"]["low_actions"] = []
    problem = first_problem(data)
    assert problem == ("$.plan.low_actions", "expected at least 1 items, got 0")
    data = make_trajectory()
    data["task_type"] = ""
    assert first_problem(data) == ("$.task_type", "must not be empty")


def test_format_json_path_quotes_odd_keys():
    assert format_json_path(["plan", "low_actions", 3, "api_action"]) == (
        "$.plan.low_actions[3].api_action"
    )
    assert format_json_path(["a b", 0, "x-y"]) == '$["a b"][0]["x-y"]'
    assert format_json_path([]) == "$"


def test_schema_is_a_valid_draft_07_schema():
    schema = load_schema()
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    jsonschema.Draft7Validator.check_schema(schema)


# ------------------------------------------------------------------ fast path vs jsonschema


_ODD_VALUES = [None, True, False, 0, -1, 1, 1.0, 1.5, 90000, 89999, "", "x", "0", [], [0], [0, 1],
               [[0, 1]], {}, {"action": "X"}, float("nan")]


def _mutation_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key in value:
            yield from _mutation_paths(value[key], (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _mutation_paths(item, (*prefix, index))


ALL_PATHS = list(_mutation_paths(make_trajectory()))


def _mutate(data, where, how, value):
    if not where:
        return value
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    if how == "delete":
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    return data


@pytest.mark.slow  # fast lane: 25 s on a loaded 2-core machine (session 73 --durations)
@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(ALL_PATHS), st.sampled_from(["set", "delete"]),
                  st.sampled_from(_ODD_VALUES)),
        min_size=1, max_size=3,
    )
)
def test_schema_problems_agree_with_plain_jsonschema(mutations):
    data = make_trajectory()
    for where, how, value in mutations:
        try:
            data = _mutate(data, where, how, value)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation removed or replaced the parent
    plain = jsonschema.Draft7Validator(load_schema())
    if trajectory._accepts(data):
        assert plain.is_valid(data)
    assert (trajectory._schema_problems(data) == []) == plain.is_valid(data)


def test_fast_path_rejects_huge_and_odd_mask_values_safely():
    for bad_run in ([2**70, 1], [1, 2**70], [True, 1], [1, None]):
        data = make_trajectory()
        data["plan"]["low_actions"][1]["discrete_action"]["args"]["mask"][0] = bad_run
        assert trajectory._accepts(data) is False
        assert first_problem(data).json_path.startswith(f"{MASK_PATH}[0][")


def test_integral_floats_count_as_integers_as_json_schema_says():
    data = make_trajectory()
    data["images"][0]["low_idx"] = 0.0  # JSON Schema counts 0.0 as an integer
    assert validate_trajectory(data) == []


# ------------------------------------------------------------------ reading files


def _write(tmp_path, payload: bytes, name="traj_data.json"):
    path = tmp_path / name
    path.write_bytes(payload)
    return path


def _assert_one_line_user_error(excinfo, path):
    message = str(excinfo.value)
    assert excinfo.value.code == ExitCode.BAD_INPUT
    assert "\n" not in message
    assert message.startswith(f"{path}: ")
    return message


def test_load_valid_file_round_trips(tmp_path):
    path = _write(tmp_path, serialize_trajectory(make_trajectory()))
    assert load_trajectory(path) == make_trajectory()


def test_load_truncated_file(tmp_path):
    payload = serialize_trajectory(make_trajectory())
    path = _write(tmp_path, payload[: len(payload) // 2])
    with pytest.raises(UserError) as excinfo:
        load_trajectory(path)
    message = _assert_one_line_user_error(excinfo, path)
    assert "not valid JSON (line " in message and "truncated" in message


@pytest.mark.parametrize(
    "payload, expected",
    [
        (b"", "not valid JSON (line 1 col 1"),
        (b"\x00\xff\xfe garbage \x89PNG", "not UTF-8"),
        (b"{\"task_id\": ] }", "not valid JSON (line 1 col 13"),
        (b"[" * 100000, "not valid JSON"),
        (b"{\"x\": NaN}", "NaN is not a JSON value"),
        (b"{\"plan\": 1}", "traj_data.json: $.images: required key is missing"),
    ],
)
def test_load_garbage_gives_one_line(tmp_path, payload, expected):
    path = _write(tmp_path, payload)
    with pytest.raises(UserError) as excinfo:
        load_trajectory(path)
    assert expected in _assert_one_line_user_error(excinfo, path)


def test_load_missing_file_and_directory(tmp_path):
    with pytest.raises(UserError) as excinfo:
        load_trajectory(tmp_path / "nope.json")
    assert "cannot read" in _assert_one_line_user_error(excinfo, tmp_path / "nope.json")
    with pytest.raises(UserError) as excinfo:
        load_trajectory(tmp_path)
    assert "cannot read" in _assert_one_line_user_error(excinfo, tmp_path)


def test_load_schema_invalid_names_file_and_path(tmp_path):
    data = make_trajectory()
    del data["plan"]["low_actions"][1]["api_action"]
    path = _write(tmp_path, json.dumps(data).encode())
    with pytest.raises(UserError) as excinfo:
        load_trajectory(path)
    message = _assert_one_line_user_error(excinfo, path)
    assert message == f"{path}: $.plan.low_actions[1].api_action: required key is missing"


# ------------------------------------------------------------------ saving


def _shuffled(value, rng):
    """The same JSON value with every dict's insertion order shuffled."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: _shuffled(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [_shuffled(item, rng) for item in value]
    return value


def test_save_is_deterministic_and_independent_of_key_order(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save_trajectory(make_trajectory(), first)
    save_trajectory(_shuffled(make_trajectory(), random.Random(1)), second)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes().endswith(b"}\n")
    assert load_trajectory(first) == make_trajectory()


def test_save_refuses_invalid_data_and_keeps_old_file(tmp_path):
    path = tmp_path / "traj_data.json"
    path.write_bytes(b"old")
    data = make_trajectory()
    data["plan"]["low_actions"][0]["high_idx"] = "0"
    with pytest.raises(InvalidTrajectoryError, match=r"\$\.plan\.low_actions\[0\]\.high_idx"):
        save_trajectory(data, path)
    assert path.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == ["traj_data.json"]


def test_save_refuses_numpy_values(tmp_path):
    numpy = pytest.importorskip("numpy")
    data = make_trajectory()
    data["scene"]["scene_num"] = numpy.int64(1)
    with pytest.raises(InvalidTrajectoryError, match="not a JSON type"):
        save_trajectory(data, tmp_path / "t.json")
    assert not (tmp_path / "t.json").exists()


def test_save_keeps_existing_file_mode(tmp_path):
    path = tmp_path / "traj_data.json"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    save_trajectory(make_trajectory(), path)
    assert os.stat(path).st_mode & 0o777 == 0o640


@pytest.fixture()
def old_file(tmp_path):
    path = tmp_path / "traj_data.json"
    save_trajectory(make_trajectory(), path)
    return path, path.read_bytes()


def _bigger_trajectory():
    data = make_trajectory()
    data["images"] = [
        {"low_idx": 1, "high_idx": 1, "image_name": f"{i:09d}.png"} for i in range(5000)
    ]
    return data


def test_failure_mid_write_leaves_old_file_and_no_temp(old_file, monkeypatch):
    path, old_bytes = old_file
    real_write = os.write
    calls = []

    def disk_fills_up(fd, data):
        calls.append(len(data))
        if len(calls) > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, bytes(data[: len(data) // 2]))  # a short write, then failure

    monkeypatch.setattr(os, "write", disk_fills_up)
    with pytest.raises(OSError, match="No space left"):
        save_trajectory(_bigger_trajectory(), path)
    monkeypatch.undo()
    assert len(calls) == 2  # really failed in the middle, after writing part of the bytes
    assert path.read_bytes() == old_bytes
    assert os.listdir(path.parent) == [path.name]


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_failure_before_rename_leaves_old_file_and_no_temp(old_file, monkeypatch, step):
    path, old_bytes = old_file

    def fail(*args, **kwargs):
        raise OSError(errno.EIO, f"{step} failed")

    monkeypatch.setattr(os, step, fail)
    with pytest.raises(OSError, match=f"{step} failed"):
        save_trajectory(_bigger_trajectory(), path)
    monkeypatch.undo()
    assert path.read_bytes() == old_bytes
    assert os.listdir(path.parent) == [path.name]


def test_interrupt_mid_write_cleans_up(old_file, monkeypatch):
    path, old_bytes = old_file

    def interrupted(fd, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_trajectory(_bigger_trajectory(), path)
    monkeypatch.undo()
    assert path.read_bytes() == old_bytes
    assert os.listdir(path.parent) == [path.name]


# ------------------------------------------------------------------ directory names


def test_trajectory_dir_name():
    assert trajectory_dir_name("pick_two_obj_and_place", "KeyChain", None, "Sofa", 202) == (
        "pick_two_obj_and_place-KeyChain-None-Sofa-202"
    )
    assert trajectory_dir_name(
        "pick_and_place_with_movable_recep", "CellPhone", "Box", "SideTable", 224
    ) == "pick_and_place_with_movable_recep-CellPhone-Box-SideTable-224"
    assert trajectory_dir_name("look_at_obj_in_light", "CD", "", "DeskLamp", 5).endswith(
        "-CD-None-DeskLamp-5"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("pick-and-place", "Apple", None, "Fridge", 1),
        ("pick_and_place_simple", "", None, "Fridge", 1),
        ("pick_and_place_simple", "Apple", None, "Fri/dge", 1),
        ("pick_and_place_simple", "Apple", None, "Fridge", -1),
        ("pick_and_place_simple", "Apple", None, "Fridge", "1"),
    ],
)
def test_trajectory_dir_name_rejects_ambiguous_parts(args):
    with pytest.raises(ValueError):
        trajectory_dir_name(*args)


def test_trajectory_dir_name_for_sliced_object():
    data = make_trajectory()
    data["pddl_params"]["object_sliced"] = True
    assert trajectory_dir_name_for(data) == "pick_and_place_simple-AppleSliced-None-CounterTop-1"


# ------------------------------------------------------------------ the released ALFRED files


@pytest.fixture(scope="module")
def released(released_trajectory_files):
    return [(path, path.read_bytes()) for path in released_trajectory_files]


@pytest.mark.slow  # fast lane: 14 s on a loaded 2-core machine (session 73 --durations)
def test_every_released_file_is_valid(released):
    for path, _ in released:
        assert validate_trajectory(json.loads(_)) == [], path


def test_released_files_pass_plain_jsonschema_too(released):
    """The fast validator is only a shortcut: jsonschema itself accepts the files (a sample, it is slow)."""
    plain = jsonschema.Draft7Validator(load_schema())
    for path, raw in released[::40]:
        assert plain.is_valid(json.loads(raw)), path


def test_released_directory_names_follow_the_rule(released):
    for path, raw in released:
        data = json.loads(raw)
        assert trajectory_dir_name_for(data) == path.parent.parent.name
        assert data["task_id"] == path.parent.name


def test_saving_a_released_file_reproduces_alfred_bytes(released, tmp_path):
    """Our formatting is ALFRED's: load + save gives the released bytes plus a final newline."""
    for path, raw in released[::10]:
        target = tmp_path / "traj_data.json"
        save_trajectory(load_trajectory(path), target)
        assert target.read_bytes() == raw + b"\n", path


def test_mask_problem_path_in_a_released_file(released):
    _, raw = released[0]
    data = json.loads(raw)
    index = next(
        i for i, action in enumerate(data["plan"]["low_actions"])
        if len(action["discrete_action"]["args"].get("mask", [])) > 3
    )
    broken = copy.deepcopy(data)
    broken["plan"]["low_actions"][index]["discrete_action"]["args"]["mask"][3] = [89999, 2]
    assert first_problem(broken).json_path == (
        f"$.plan.low_actions[{index}].discrete_action.args.mask[3]"
    )
