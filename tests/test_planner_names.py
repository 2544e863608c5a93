"""PDDL-safe names for THOR ids, classes and poses round-trip (planner/names.py)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from alfred_gen.planner import names

PDDL_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@pytest.mark.slow  # ~19 s each on a busy 2-core machine (the fast lane's --durations)
@given(st.text(max_size=60))
def test_escape_round_trips_any_text_into_lower_case_pddl_characters(text: str) -> None:
    escaped = names.escape(text)
    assert re.fullmatch(r"[a-z0-9_-]*", escaped)
    assert names.unescape(escaped) == text


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFFF), min_size=1, max_size=60))
def test_object_names_are_pddl_names_and_map_back(object_id: str) -> None:
    name = names.object_name(object_id)
    assert PDDL_NAME.match(name)
    assert names.object_id(name) == object_id
    assert names.object_id(name.upper().lower()) == object_id  # planners lower-case everything


@pytest.mark.slow  # fast lane: 17 s on a loaded 2-core machine (session 73 --durations)
@given(st.text(min_size=1, max_size=20), st.text(min_size=1, max_size=20))
def test_distinct_ids_get_distinct_names(a: str, b: str) -> None:
    if a != b:
        assert names.object_name(a) != names.object_name(b)


def test_thor_id_examples() -> None:
    assert names.object_name("Apple|-01.70|+01.52|+00.20") == "o_apple-b-m01-d70-b-p01-d52-b-p00-d20"
    sink = "Sink|-00.58|+00.93|+04.87|SinkBasin"
    assert names.object_id(names.object_name(sink)) == sink
    assert names.class_name("CounterTop") == "c_counter_top"
    assert names.class_of("c_counter_top") == "CounterTop"
    with pytest.raises(ValueError):
        names.unescape("a|b")
    with pytest.raises(ValueError):
        names.object_id("c_apple")


@pytest.mark.parametrize("text", ["a|b", "apple_", "_1", "-q", "-x0_00e9", "-x00e9", "-x00E9AB", "A", "a b"])
def test_text_escape_never_writes_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        names.unescape(text)


@given(
    st.integers(-60, 60),
    st.integers(-60, 60),
    st.sampled_from([0, 90, 180, 270]),
    st.sampled_from([-30, 0, 15, 30, 45, 60]),
)
def test_grid_poses_round_trip_through_location_names(x: int, z: int, rotation: int, horizon: int) -> None:
    pose = [x * 0.25, z * 0.25, rotation, horizon]
    name = names.location_name(pose)
    assert PDDL_NAME.match(name)
    assert names.pose_of_location(name) == pose
    assert names.alfred_location(name) == f"loc|{x}|{z}|{rotation // 90}|{horizon}"


def test_every_receptacle_id_of_alfreds_scenes_round_trips() -> None:
    root = os.environ.get("ALFRED_DATA")
    if not root:
        pytest.skip("ALFRED_DATA not set")
    layouts = Path(root) / "layouts"
    if not layouts.is_dir():
        pytest.fail(f"ALFRED_DATA={root} has no layouts/")
    ids = set()
    for path in sorted(layouts.glob("FloorPlan*-openable.json")):
        ids |= set(json.loads(path.read_text()))
    assert len(ids) > 1000
    escaped = {names.object_name(i) for i in ids}
    assert len(escaped) == len(ids)
    assert all(PDDL_NAME.match(n) and names.object_id(n) in ids for n in escaped)
