"""The frame sequence of a trajectory (``images`` plus the unlisted final frame) and the scene-number
scheme that keeps ``'FloorPlan%d' % scene_num`` from naming another room."""

from __future__ import annotations

import pytest

from alfred_gen.traj.format import first_problem
from alfred_gen.traj.frames import final_image_name, frame_entries, images_index
from alfred_gen.traj.scene_nums import scene_num_for, scene_num_problem
from tests.helpers.trajectories import make_trajectory


def _entries(traj: dict) -> list[tuple[str, int, bool, bool]]:
    return [(e.stem, e.low_idx, e.before_action, e.listed) for e in frame_entries(traj)]


def test_our_index_lists_one_frame_per_action_and_the_final_one_is_the_next_number() -> None:
    traj = make_trajectory()
    n_low = len(traj["plan"]["low_actions"])
    traj["images"] = images_index(traj["plan"]["low_actions"])
    assert [image["low_idx"] for image in traj["images"]] == list(range(n_low))
    assert final_image_name(traj) == f"{n_low:09d}.png"
    assert _entries(traj)[-1] == (f"{n_low:09d}", n_low - 1, False, False)
    assert [e.before_action for e in frame_entries(traj)] == [True] * n_low + [False]


def test_the_old_layout_listing_the_final_frame_gets_no_frame_invented_after_it() -> None:
    traj = make_trajectory()
    n_low = len(traj["plan"]["low_actions"])
    listed = images_index(traj["plan"]["low_actions"])
    traj["images"] = [*listed, {**listed[-1], "image_name": f"{n_low:09d}.png"}]
    assert final_image_name(traj) is None
    assert [stem for stem, *_ in _entries(traj)] == [f"{i:09d}" for i in range(n_low + 1)]
    assert _entries(traj)[-1][3]  # listed


def test_released_style_smooth_frames_keep_their_first_image_per_action() -> None:
    traj = make_trajectory()
    traj["images"] = [{"low_idx": 0, "high_idx": 0, "image_name": "000000000.png"},
                      {"low_idx": 0, "high_idx": 0, "image_name": "000000001.png"},
                      {"low_idx": 1, "high_idx": 1, "image_name": "000000002.png"}]
    assert _entries(traj) == [("000000000", 0, True, True), ("000000001", 0, False, True),
                              ("000000002", 1, True, True), ("000000003", 1, False, False)]


@pytest.mark.parametrize(("name", "number"), [("FloorPlan7", 7), ("LitePlan205", 10205), ("LiteHouse5", 1005),
                                              ("LiteFixtureKitchen", None)])
def test_scene_num_scheme(name: str, number: int | None) -> None:
    assert scene_num_for(name) == number


def test_a_file_whose_floor_plan_and_scene_num_disagree_is_invalid() -> None:
    traj = make_trajectory()
    traj["scene"].update(floor_plan="LitePlan205", scene_num=10205)
    assert first_problem(traj) is None
    traj["scene"]["scene_num"] = 205
    problem = first_problem(traj)
    assert problem is not None and problem.json_path == "$.scene.scene_num"
    assert "10205" in problem.message and "FloorPlan205" in problem.message
    assert scene_num_problem({"floor_plan": "LiteFixtureKitchen", "scene_num": 1}) is None
