"""alfred_gen.env: the Gymnasium environment over trajectories (its three modes, ALFRED's episode
rules, the mask rule of ALFRED's va_interact, Gymnasium's checker and vector envs)."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from alfred_gen.env import ENV_IDS, AlfredEnv
from alfred_gen.env.actions import LOW_ACTIONS
from alfred_gen.env.masks import BAD_MASK, ranked_candidates, resolve_mask
from alfred_gen.eval.agents import ExpertAgent
from alfred_gen.traj.format import load_trajectory
from alfred_gen.traj.rle import decode_mask
from tests.helpers.agent_data import agent_dataset, trajectory_files


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return agent_dataset(tmp_path_factory.getbasetemp())


def _heat_file(root: Path) -> Path:
    return next(p for p in trajectory_files(root) if "pick_heat" in str(p))


def _play_expert(env: AlfredEnv, path: Path, mode: str) -> tuple[bool, dict]:
    obs, info = env.reset(options={"trajectory": str(path), "annotation": 1})
    agent = ExpertAgent()
    agent.reset({"traj_data": env.traj, "mode": mode})
    while True:
        obs, _reward, terminated, truncated, info = env.step(agent.act(obs))
        assert obs in env.observation_space
        if terminated or truncated:
            return terminated, info


@pytest.mark.slow  # fast lane: 21 s on a loaded 2-core machine (session 73 --durations)
@pytest.mark.parametrize("mode", ["mask", "object_id", "high_level"])
def test_check_env_passes_in_each_mode(dataset: Path, mode: str) -> None:
    env = AlfredEnv(dataset, mode=mode, depth=True, segmentation=True)
    check_env(env, skip_render_check=True)
    env.close()


def test_a_step_with_rgb_draws_one_frame_and_its_visibility_counts_that_frame(dataset: Path) -> None:
    """The observation's frame is drawn before the metadata is read, so lite's visibility counts
    its pixels instead of drawing a frame of its own (bench/eval.py: the env's overhead over a bare
    loop reading the same frames was 1.43, then 1.13)."""
    env = AlfredEnv(dataset, mode="object_id", rgb=True)
    env.reset(options={"trajectory": str(_heat_file(dataset))})
    renders = env.controller.pixels.renders
    full, visibility = renders["full"], renders["visibility"]
    for action in ("RotateLeft", "RotateRight", "LookDown", "LookUp"):
        obs, *_ = env.step({"action": action})
        assert obs["rgb"].any()
    assert renders["full"] == full + 4
    assert renders["visibility"] == visibility
    env.close()


@pytest.mark.slow  # fast lane: 19 s on a loaded 2-core machine (session 73 --durations)
@pytest.mark.parametrize("mode", ["mask", "object_id", "high_level"])
def test_the_files_own_demonstration_reaches_the_goal_in_each_mode(dataset: Path, mode: str) -> None:
    env = AlfredEnv(dataset, mode=mode)
    for path in trajectory_files(dataset):
        terminated, info = _play_expert(env, path, mode)
        assert terminated, info
        assert info["success"] and info["goal_conditions_met"] == info["goal_conditions_total"] > 0, info
        assert info["failed_actions"] == 0
        expert_length = len(load_trajectory(path)["plan"]["low_actions"])
        if mode != "high_level":  # the high-level expansion may walk another shortest way
            assert info["steps"] == expert_length
    env.close()


def test_reset_gives_the_annotations_language_and_stop_does_not_count(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="object_id")
    path = _heat_file(dataset)
    obs, info = env.reset(options={"trajectory": str(path), "annotation": 1})
    traj = load_trajectory(path)
    ann = traj["turk_annotations"]["anns"][1]
    assert obs["goal"] == ann["task_desc"]
    assert obs["instructions"].split("\n") == ann["high_descs"]
    assert obs["rgb"].shape == (300, 300, 3) and obs["rgb"].dtype == np.uint8 and obs["rgb"].any()
    assert info["repeat_idx"] == 1 and info["task_type"] == traj["task_type"]
    assert info["goal_conditions_met"] < info["goal_conditions_total"]
    _obs, reward, terminated, truncated, info = env.step({"action": "Stop"})
    assert terminated and not truncated and info["steps"] == 0 and reward == 0.0
    env.close()


def test_ten_failed_actions_truncate_the_episode(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="mask")
    env.reset(options={"trajectory": str(_heat_file(dataset))})
    empty = np.zeros((300, 300), np.int8)
    for n in range(1, 11):
        _obs, _r, terminated, truncated, info = env.step({"action": LOW_ACTIONS.index("PickupObject"), "mask": empty})
        assert info["errorMessage"] == BAD_MASK and info["failed_actions"] == n
        assert truncated == (n == 10) and not terminated
    env.close()


def test_the_step_limit_truncates_the_episode(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="object_id", max_steps=3)
    env.reset(options={"trajectory": str(_heat_file(dataset))})
    truncations = [env.step({"action": "RotateLeft", "object_id": ""})[3] for _ in range(3)]
    assert truncations == [False, False, True]
    env.close()


def test_slicing_without_a_knife_fails_as_alfred_says(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="object_id")
    env.reset(options={"trajectory": str(_heat_file(dataset))})
    apple = next(o["objectId"] for o in env.last_event.metadata["objects"] if o["objectType"] == "Apple")
    info = env.step({"action": "SliceObject", "object_id": apple})[4]
    assert not info["last_action_success"] and "knife" in info["errorMessage"]
    env.close()


def test_a_recorded_mask_resolves_to_the_recorded_object(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="mask")
    path = _heat_file(dataset)
    env.reset(options={"trajectory": str(path)})
    low = load_trajectory(path)["plan"]["low_actions"]
    checked = 0
    for entry in low:
        args = entry["discrete_action"]["args"]
        api = entry["api_action"]
        if "mask" in args:
            expected = api.get("receptacleObjectId") or api["objectId"]
            assert resolve_mask(decode_mask(args["mask"]), env.last_event) == expected
            checked += 1
        env.step({"action": entry["discrete_action"]["action"],
                  "mask": decode_mask(args["mask"]) if "mask" in args else None})
    assert checked >= 5
    env.close()


class _FakeEvent:
    def __init__(self, masks: dict, objects: list, held: str = "") -> None:
        self.instance_masks = masks
        self.metadata = {"objects": objects, "inventoryObjects": [{"objectId": held}] if held else []}


def _box(y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
    mask = np.zeros((300, 300), bool)
    mask[y0:y1, x0:x1] = True
    return mask


def test_masks_are_ranked_by_iou_not_by_overlap() -> None:
    # A counter covers the whole predicted square (big overlap, low IoU); a mug fills it exactly.
    predicted = _box(100, 150, 100, 150)
    masks = {"CounterTop|1": _box(0, 300, 0, 300), "Mug|1": _box(100, 150, 100, 150),
             "Wall|1": _box(100, 110, 100, 300)}
    ranked = [object_id for object_id, _iou, _n in ranked_candidates(predicted, masks)]
    assert ranked[0] == "Mug|1" and set(ranked) == set(masks)
    objects = [{"objectId": "CounterTop|1", "receptacle": True}, {"objectId": "Mug|1", "pickupable": True},
               {"objectId": "Wall|1"}]
    assert resolve_mask(predicted, _FakeEvent(masks, objects)) == "Mug|1"
    # The held mug is ignored, and so is the wall (no action applies to it): the counter is next.
    assert resolve_mask(predicted, _FakeEvent(masks, objects, held="Mug|1")) == "CounterTop|1"
    assert resolve_mask(_box(100, 110, 200, 300), _FakeEvent(masks, objects)) == "CounterTop|1"
    assert resolve_mask(np.zeros((300, 300), bool), _FakeEvent(masks, objects)) is None
    # The action decides among candidates (the "affordance" rule), or does not (ALFRED's code).
    assert resolve_mask(predicted, _FakeEvent(masks, objects), "PutObject") == "CounterTop|1"
    assert resolve_mask(predicted, _FakeEvent(masks, objects), "PutObject", rule="alfred") == "Mug|1"
    assert resolve_mask(predicted, _FakeEvent(masks, objects), "ToggleObjectOn") is None


def test_equal_iou_goes_to_the_instance_met_first_row_by_row_as_in_alfred() -> None:
    # Two drawers of the same size, both half under the mask: ALFRED's Counter meets the upper one
    # first reading the mask's pixels row by row, and its stable sorts keep that order; the ids
    # (which sort the other way) must not decide.
    predicted = _box(100, 140, 100, 150)
    masks = {"Drawer|a": _box(130, 160, 100, 150), "Drawer|z": _box(80, 110, 100, 150)}
    ranked = ranked_candidates(predicted, masks)
    assert [object_id for object_id, _iou, _n in ranked] == ["Drawer|z", "Drawer|a"]
    assert ranked[0][1] == ranked[1][1] and ranked[0][2] == ranked[1][2]
    objects = [{"objectId": "Drawer|a", "openable": True}, {"objectId": "Drawer|z", "openable": True}]
    assert resolve_mask(predicted, _FakeEvent(masks, objects), "OpenObject", rule="alfred") == "Drawer|z"
    # A tie in IoU (20/100 and 25/125) but not in overlap: the larger overlap first (most_common's
    # order), even though the other is met first.
    predicted = _box(0, 10, 0, 10)
    masks = {"Drawer|x": _box(0, 2, 0, 10), "Drawer|y": _box(5, 10, 5, 15)}
    ranked = ranked_candidates(predicted, masks)
    assert ranked == [("Drawer|y", 0.2, 25), ("Drawer|x", 0.2, 20)]


def test_bad_actions_are_refused_with_a_value_error(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="mask")
    env.reset(options={"trajectory": str(_heat_file(dataset))})
    for bad in ({"action": "Fly"}, {"action": 99}, {"action": "PickupObject", "mask": np.zeros((5, 5))}, [1, 2]):
        with pytest.raises(ValueError):
            env.step(bad)
    env.close()


def test_high_level_actions_take_object_classes(dataset: Path) -> None:
    env = AlfredEnv(dataset, mode="high_level")
    path = next(p for p in trajectory_files(dataset) if "look_at" in str(p))
    obs, _info = env.reset(options={"trajectory": str(path)})
    traj = load_trajectory(path)
    goto = traj["plan"]["high_pddl"][0]["planner_action"]
    obs, _r, _t, _tr, info = env.step({"action": "GotoLocation", "location": goto["location"]})
    assert info["last_action_success"] and obs["high_idx"] == 1
    cls = traj["pddl_params"]["object_target"]
    obs, _r, _t, _tr, info = env.step({"action": "PickupObject", "object_id": cls})
    assert info["last_action_success"], info
    held = env.last_event.metadata["inventoryObjects"]
    assert held and held[0]["objectType"] == cls and obs["high_idx"] == 2
    info = env.step({"action": "PutObject", "receptacle_id": "NoSuchThing"})[4]
    assert not info["last_action_success"] and info["failed_actions"] == 1
    # Any text is in the action space (check_env samples it): a location that names no place fails
    # the step, as an impossible action does, and says why.
    info = env.step({"action": "GotoLocation", "location": "somewhere"})[4]
    assert not info["last_action_success"] and info["failed_actions"] == 2
    assert "loc|x|z|r|h" in info["errorMessage"]
    env.close()


def test_a_high_level_walk_may_name_the_object_to_go_to(dataset: Path) -> None:
    """GotoLocation to an object class ends where it is in view (the generator's choice of pose), so
    the pickup after it succeeds; a walk to an object the room lacks fails the step and says why."""
    env = AlfredEnv(dataset, mode="high_level")
    path = next(p for p in trajectory_files(dataset) if "look_at" in str(p))
    env.reset(options={"trajectory": str(path)})
    traj = load_trajectory(path)
    cls = traj["pddl_params"]["object_target"]
    start = env.last_event.metadata["agent"]["position"]
    info = env.step({"action": "GotoLocation", "location": cls})[4]
    assert info["last_action_success"], info
    seen = {o["objectType"] for o in env.last_event.metadata["objects"] if o.get("visible")}
    assert cls in seen
    assert env.last_event.metadata["agent"]["position"] != start or info["steps"] == 1
    info = env.step({"action": "PickupObject", "object_id": cls})[4]
    assert info["last_action_success"], info
    info = env.step({"action": "GotoLocation", "object_id": "NoSuchThing"})[4]
    assert not info["last_action_success"] and "NoSuchThing" in info["errorMessage"]
    env.close()


def test_registered_ids_make_the_environment(dataset: Path) -> None:
    for mode, env_id in ENV_IDS.items():
        env = gymnasium.make(env_id, trajectories=str(dataset))
        assert env.unwrapped.mode == mode
        obs, _info = env.reset(seed=3)
        assert obs in env.observation_space
        env.close()


def test_four_envs_in_processes_step_together(dataset: Path) -> None:
    envs = gymnasium.vector.AsyncVectorEnv(
        [lambda: AlfredEnv(dataset, mode="object_id") for _ in range(4)], context="fork")
    try:
        obs, infos = envs.reset(seed=[0, 1, 2, 3])
        assert obs["rgb"].shape == (4, 300, 300, 3)
        actions = {"action": np.array([LOW_ACTIONS.index("RotateLeft")] * 4), "object_id": ("",) * 4}
        obs, _rewards, terminated, truncated, infos = envs.step(actions)
        assert list(infos["steps"]) == [1, 1, 1, 1] and list(infos["last_action_success"]) == [True] * 4
        assert not terminated.any() and not truncated.any()
    finally:
        envs.close()


def test_a_walk_to_a_place_cut_off_from_the_floor_stops_at_the_nearest_reachable_cell_facing_it() -> None:
    from alfred_gen.demo.navigation import NavigationGraph
    from alfred_gen.env.high_level import reachable_destination

    row = [(0.25 * i, 0.0) for i in range(5)]  # x 0 .. 1 m, walkable from one end to the other
    island = (2.0, 0.0)  # a cell no walk enters, as ALFRED's planner sometimes names
    navigation = NavigationGraph([*row, island])
    assert reachable_destination(navigation, (0.0, 0.0), (2.0, 0.0, 270.0, 30.0)) == (1.0, 0.0, 90.0, 30.0)
    assert reachable_destination(navigation, (0.0, 0.0), (0.5, 0.0, 180.0, 15.0)) == (0.5, 0.0, 180.0, 15.0)
    # below the row: the nearest cell is the one above it, and the agent faces down (-z)
    assert reachable_destination(navigation, (0.0, 0.0), (0.75, -1.0, 0.0, 0.0)) == (0.75, 0.0, 180.0, 0.0)
