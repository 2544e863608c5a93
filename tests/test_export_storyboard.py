"""What the video and the browser show per frame (alfred_gen.export.storyboard): frames, language,
action labels, subgoal spans, and the agent's dead-reckoned pose checked against the simulator."""

from __future__ import annotations

import pytest

from alfred_gen.export import storyboard
from tests.helpers import replay_scripts as scripts
from tests.helpers.trajectories import make_trajectory


def test_first_image_of_a_low_action_is_the_one_it_was_chosen_in() -> None:
    traj = make_trajectory()
    traj["images"] = [{"low_idx": 0, "high_idx": 0, "image_name": "000000000.png"},
                      {"low_idx": 0, "high_idx": 0, "image_name": "000000001.png"},
                      {"low_idx": 1, "high_idx": 1, "image_name": "000000002.png"},
                      {"low_idx": 1, "high_idx": 1, "image_name": "000000003.png"}]
    steps = storyboard.frame_steps(traj)
    assert [(s.stem, s.low_idx, s.before_action) for s in steps] == [
        ("000000000", 0, True), ("000000001", 0, False), ("000000002", 1, True), ("000000003", 1, False),
        ("000000004", 1, False)]  # the frame after the last action: the next number, unlisted
    assert storyboard.subgoal_spans(steps, 3) == [(0, 1), (2, 4), (-1, -1)]


def test_without_an_images_list_the_recorders_index_is_used() -> None:
    traj = make_trajectory()
    traj["images"] = []
    steps = storyboard.frame_steps(traj)
    assert [s.low_idx for s in steps] == [0, 1, 1]  # one per action, plus the final frame
    assert [s.before_action for s in steps] == [True, True, False]


def test_human_language_wins_over_the_template_and_noop_gets_the_task() -> None:
    traj = make_trajectory()
    words = storyboard.language(traj)
    assert words.source == "template"
    assert words.subgoals == ("Go.", "Pick.", "Done.")
    traj["turk_annotations"] = {"anns": [
        {"assignment_id": "template", "task_desc": "T", "high_descs": ["t0", "t1"], "votes": [1]},
        {"assignment_id": "A1", "task_desc": "Grab  the apple.", "high_descs": ["Walk   over.", "Take it."],
         "votes": [1]}]}
    words = storyboard.language(traj)
    assert words.source == "human"
    assert words.task_desc == "Grab the apple."
    assert words.subgoals == ("Walk over.", "Take it.", "Grab the apple.")  # NoOp: the task itself


def test_without_any_language_the_high_level_actions_are_shown() -> None:
    traj = make_trajectory()
    del traj["template"]
    words = storyboard.language(traj)
    assert words.source == "none"
    assert words.subgoals[:2] == ("GotoLocation countertop", "PickupObject apple")


def test_low_action_labels_name_the_object_types() -> None:
    traj = make_trajectory()
    lows = traj["plan"]["low_actions"]
    assert storyboard.low_action_label(lows[0]) == "MoveAhead_25"
    assert storyboard.low_action_label(lows[1]) == "PickupObject Apple"
    put = {"high_idx": 0, "api_action": {"action": "PutObject", "objectId": "Apple|+01.00|+00.90|+00.50|AppleSliced_2",
                                         "receptacleObjectId": "Fridge|-01.00|+00.00|+02.00"},
           "discrete_action": {"action": "PutObject", "args": {}}}
    assert storyboard.low_action_label(put) == "PutObject AppleSliced -> Fridge"
    assert storyboard.interaction_mask(lows[0]) is None
    assert storyboard.interaction_mask(lows[1]).sum() == 21


def test_dead_reckoned_poses_are_where_the_simulator_puts_the_agent() -> None:
    from alfred_gen.replay.execute import execute_low_actions
    from alfred_gen.replay.restore import restore_scene
    from alfred_gen.scenes.library import simulator

    traj = scripts.heat_mug_trajectory()
    controller = simulator().open()
    start = restore_scene(controller, traj["scene"])
    seen = [start.metadata["agent"]]

    def step_done(low_idx, api_action, event) -> None:
        seen.append(event.metadata["agent"])

    run = execute_low_actions(controller, traj["plan"]["low_actions"], start, on_step=step_done)
    assert not run.failures
    poses = storyboard.agent_poses(traj)
    assert len(poses) == len(seen) == len(traj["plan"]["low_actions"]) + 1
    moved = {(round(p.x, 2), round(p.z, 2)) for p in poses}
    turned = {p.rotation for p in poses}
    assert len(moved) > 2 and len(turned) > 1  # the check covers walking and turning
    for pose, agent in zip(poses, seen):
        assert pose.x == pytest.approx(agent["position"]["x"], abs=1e-6)
        assert pose.z == pytest.approx(agent["position"]["z"], abs=1e-6)
        assert pose.rotation == pytest.approx(agent["rotation"]["y"] % 360, abs=1e-6)
        assert pose.horizon == pytest.approx(agent["cameraHorizon"], abs=1e-6)
