"""Running a plan (alfred_gen.demo.drive): walks retried from another pose when the steps after
them fail, the recorder's rewind, and walks that keep to the agent's part of the room."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from alfred_gen.demo.drive import WALK_RETRIES, destination_by_probes, drive_plan, drive_with_replans
from alfred_gen.demo.expand import Expander, ExpansionError, choose_destination
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.demo.start import object_poses_of
from alfred_gen.planner.encode import agent_pose_of
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.planner.result import PlanStep
from alfred_gen.replay.record import Recorder, RecordingError, on_demand_masks
from alfred_gen.replay.restore import restore_scene
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.traj.format import RAW_IMAGE_NAME


class _RefusingPickups:
    """A controller whose PickupObject fails where the agent stands at one of ``refused`` poses
    (``"all"``: everywhere), as THOR refuses a pickup of something the agent cannot see."""

    def __init__(self, sim: LiteController, refused: Any) -> None:
        self.sim, self.refused = sim, refused
        self.pickup_poses: list[tuple[float, ...]] = []

    def step(self, action: dict[str, Any]) -> Any:
        if action.get("action") == "PickupObject":
            here = agent_pose_of(self.sim.last_event.metadata)
            self.pickup_poses.append(here)
            if self.refused == "all" or here in self.refused:
                action = {**action, "objectId": "Nothing|+00.00|+00.00|+00.00"}
        return self.sim.step(action)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sim, name)


def _start(render: bool = False) -> tuple[LiteController, Any, dict[str, Any]]:
    kitchen = fixtures.kitchen()
    sim = LiteController(kitchen, render_image=render, scene_lookup=SceneLibrary(extra=(kitchen,)))
    event = sim.last_event
    block = {"floor_plan": sim.scene.name, "object_poses": object_poses_of(event.metadata),
             "object_toggles": [], "dirty_and_empty": False,
             "init_action": {"action": "TeleportFull", **event.metadata["agent"]["position"],
                             "rotation": event.metadata["agent"]["rotation"]["y"],
                             "horizon": event.metadata["agent"]["cameraHorizon"]}}
    return sim, restore_scene(sim, block), block


def _id(metadata: dict[str, Any], object_type: str) -> str:
    return next(o["objectId"] for o in metadata["objects"] if o["objectType"] == object_type)


def _walk_and_pickup(sim: LiteController, metadata: dict[str, Any]) -> list[PlanStep]:
    counter, apple = _id(metadata, "CounterTop"), _id(metadata, "Apple")
    pose = (1.5, -1.0, 180.0, 30.0)  # facing away: the probes choose where to stand
    return [PlanStep("GotoLocation", location=pose, location_name=alfred_location(location_name(pose))),
            PlanStep("PickupObject", object_id=apple, receptacle_id=counter)]


def _navigation(sim: LiteController) -> NavigationGraph:
    points = [(p["x"], p["z"]) for p in sim.step({"action": "GetReachablePositions"}).metadata["actionReturn"]]
    return NavigationGraph(points)


def _recorder(sim: Any, start: Any, block: dict[str, Any], image_dir: Path | None = None) -> Recorder:
    masks = on_demand_masks(sim.sim if isinstance(sim, _RefusingPickups) else sim)
    return Recorder(sim, start, image_dir, masks=masks, restart=lambda: restore_scene(sim, block))


def test_a_step_that_fails_after_a_walk_is_retried_from_the_next_pose() -> None:
    sim, start, block = _start()
    steps = _walk_and_pickup(sim, start.metadata)
    navigation = _navigation(sim)
    first = destination_by_probes(sim, steps[0], steps[1:], start.metadata, navigation)
    refusing = _RefusingPickups(sim, {tuple(first.location)})
    recorder = _recorder(refusing, start, block)
    high: list[dict[str, Any]] = []
    drive_plan(refusing, steps, Expander(navigation, start.metadata), recorder, high)

    assert refusing.pickup_poses[0] == tuple(first.location)
    assert len(refusing.pickup_poses) == 2 and refusing.pickup_poses[1] != tuple(first.location)
    assert recorder.metadata["inventoryObjects"][0]["objectId"] == steps[1].object_id
    assert [h["discrete_action"]["action"] for h in high] == ["GotoLocation", "PickupObject"]
    assert [h["high_idx"] for h in high] == [0, 1]
    # What was recorded is the second attempt alone: one pickup, and a replay of the actions from
    # the start reaches the same state.
    kept = [low["api_action"] for low in recorder.low_actions]
    assert [a["action"] for a in kept].count("PickupObject") == 1
    restore_scene(sim, block)
    for action in kept:
        assert sim.step(dict(action)).metadata["lastActionSuccess"]
    assert agent_pose_of(sim.last_event.metadata) == refusing.pickup_poses[1]


def test_retries_are_bounded_and_the_first_failure_is_reported() -> None:
    sim, start, block = _start()
    steps = _walk_and_pickup(sim, start.metadata)
    navigation = _navigation(sim)
    refusing = _RefusingPickups(sim, "all")
    with pytest.raises(RecordingError, match="low_idx"):
        drive_plan(refusing, steps, Expander(navigation, start.metadata), _recorder(refusing, start, block), [])
    assert 1 < len(refusing.pickup_poses) <= WALK_RETRIES + 1
    assert len(set(refusing.pickup_poses)) == len(refusing.pickup_poses)


def test_a_failure_before_any_walk_is_not_retried() -> None:
    sim, start, block = _start()
    steps = _walk_and_pickup(sim, start.metadata)[1:]
    refusing = _RefusingPickups(sim, "all")
    with pytest.raises(RecordingError):
        drive_plan(refusing, steps, Expander(_navigation(sim), start.metadata), _recorder(refusing, start, block), [])
    assert len(refusing.pickup_poses) <= 1


def test_rewind_goes_back_and_deletes_later_frames(tmp_path: Path) -> None:
    sim, start, block = _start(render=True)
    recorder = _recorder(sim, start, block, tmp_path)
    from alfred_gen.replay.record import LowAction

    moves = [LowAction(0, {"action": "RotateRight", "forceAction": True}, "RotateRight"),
             LowAction(0, {"action": "LookDown", "forceAction": True}, "LookDown"),
             LowAction(0, {"action": "RotateRight", "forceAction": True}, "RotateRight")]
    recorder.run(moves[:1])
    after_one = agent_pose_of(recorder.metadata)
    recorder.run(moves[1:])
    assert recorder.count == 3 and (tmp_path / RAW_IMAGE_NAME.format(3)).exists()
    recorder.rewind(1)
    assert recorder.count == 1 and agent_pose_of(recorder.metadata) == after_one
    assert agent_pose_of(sim.last_event.metadata) == after_one
    assert sorted(p.name for p in tmp_path.iterdir()) == [RAW_IMAGE_NAME.format(0), RAW_IMAGE_NAME.format(1)]
    recorder.run(moves[2:])
    assert recorder.count == 2 and (tmp_path / RAW_IMAGE_NAME.format(2)).exists()
    with pytest.raises(ValueError, match="cannot rewind"):
        recorder.rewind(5)
    with pytest.raises(ValueError, match="without a restart"):
        Recorder(sim, sim.last_event).rewind(0)


def test_a_walk_keeps_to_the_part_of_the_room_the_agent_can_walk_in() -> None:
    sim, start, _block = _start()
    metadata = start.metadata
    points = [(p["x"], p["z"]) for p in sim.step({"action": "GetReachablePositions"}).metadata["actionReturn"]]
    island = (9.0, 9.0)
    navigation = NavigationGraph([*points, island])
    assert navigation.connected_cells(island) == {(36, 36)}
    here = agent_pose_of(metadata)
    assert len(navigation.connected_cells(here)) == len(navigation.cells) - 1
    assert navigation.connected_cells((20.0, 20.0)) == set()

    steps = _walk_and_pickup(sim, metadata)
    on_island = steps[0]._replace(location=(*island, 0.0, 30.0))

    def sees_everything(pose: Any, asked: Any) -> tuple[dict[str, Any], frozenset[str]]:
        return metadata, frozenset(asked)

    chosen = choose_destination(on_island, steps[1:], metadata, navigation, sees_everything, 1.65)
    assert chosen.location != on_island.location
    assert (round(chosen.location[0] / 0.25), round(chosen.location[1] / 0.25)) in navigation.connected_cells(here)
    # A tried pose is not chosen again.
    again = choose_destination(on_island, steps[1:], metadata, navigation, sees_everything, 1.65,
                               exclude=[tuple(chosen.location)])
    assert again.location != chosen.location


class _Hiding:
    """A controller whose events never show ``hidden`` as visible: no pose sees it, as no pose sees
    a watch on a low shelf under another one in FloorPlan225."""

    def __init__(self, sim: LiteController, hidden: str) -> None:
        self.sim, self.hidden = sim, hidden

    def step(self, action: dict[str, Any]) -> Any:
        event = self.sim.step(action)
        for obj in event.metadata["objects"]:
            if obj["objectId"] == self.hidden:
                obj["visible"] = False
        return event

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sim, name)


def _pickup_of(metadata: dict[str, Any], object_type: str) -> list[PlanStep]:
    counter = _id(metadata, "CounterTop")
    pose = (1.5, -1.0, 180.0, 30.0)
    return [PlanStep("GotoLocation", location=pose, location_name=alfred_location(location_name(pose))),
            PlanStep("PickupObject", object_id=_id(metadata, object_type), receptacle_id=counter)]


def test_an_object_no_pose_sees_is_left_out_of_a_new_plan() -> None:
    sim, start, block = _start()
    apple = _id(start.metadata, "Apple")
    hiding = _Hiding(sim, apple)
    recorder = _recorder(hiding, start, block)
    asked: list[frozenset[str]] = []

    def plan_without(hidden: frozenset[str]) -> list[PlanStep] | None:
        asked.append(hidden)
        return _pickup_of(start.metadata, "Tomato")  # the planner's other choice

    high: list[dict[str, Any]] = []
    drive_with_replans(hiding, _pickup_of(start.metadata, "Apple"), plan_without,
                       lambda: Expander(_navigation(sim), start.metadata), recorder, high)
    assert asked == [frozenset({apple})]
    assert recorder.metadata["inventoryObjects"][0]["objectId"] == _id(start.metadata, "Tomato")
    # Only the second plan was recorded, from the start state.
    kept = [low["api_action"] for low in recorder.low_actions]
    assert [a.get("objectId") for a in kept if a["action"] == "PickupObject"] == [_id(start.metadata, "Tomato")]
    assert [h["high_idx"] for h in high] == [0, 1]


@pytest.mark.slow  # fast lane: 9 s on a loaded 2-core machine (session 73 --durations)
def test_without_another_plan_the_first_failure_is_reported() -> None:
    sim, start, block = _start()
    apple = _id(start.metadata, "Apple")
    hiding = _Hiding(sim, apple)
    asked: list[frozenset[str]] = []

    def no_plan(hidden: frozenset[str]) -> list[PlanStep] | None:
        asked.append(hidden)
        return None

    recorder = _recorder(hiding, start, block)
    restarts: list[int] = []
    restart = recorder.restart
    assert restart is not None
    recorder.restart = lambda: restarts.append(1) or restart()
    with pytest.raises(ExpansionError, match=f"no reachable pose sees {re.escape(apple)}"):
        drive_with_replans(hiding, _pickup_of(start.metadata, "Apple"), no_plan,
                           lambda: Expander(_navigation(sim), start.metadata), recorder, [])
    assert asked == [frozenset({apple})]
    assert restarts == []  # without another plan the scene is not restored for nothing
    # A receptacle no pose sees is not planned around: only what is picked up is left out.
    counter = _id(start.metadata, "CounterTop")
    hiding.hidden = counter
    put = [*_pickup_of(start.metadata, "Apple"), PlanStep("PutObject", object_id=apple, receptacle_id=counter)]
    asked.clear()
    with pytest.raises(ExpansionError):
        drive_with_replans(hiding, put, no_plan, lambda: Expander(_navigation(sim), start.metadata),
                           _recorder(hiding, start, block), [])
    assert asked == []


class _SlicesHiddenFrom:
    """A controller whose events hide the slices of ``whole`` from the agent at ``poses`` (``"all"``:
    everywhere), as a garbage can's near rim hides a tomato's slices from where the tomato was cut."""

    def __init__(self, sim: LiteController, whole: str, poses: Any) -> None:
        self.sim, self.whole, self.poses = sim, whole, poses

    def step(self, action: dict[str, Any]) -> Any:
        event = self.sim.step(action)
        if self.poses == "all" or agent_pose_of(event.metadata) in self.poses:
            for obj in event.metadata["objects"]:
                if obj["objectId"].startswith(self.whole + "|"):
                    obj["visible"] = False
        return event

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sim, name)


def _slice_and_pick_up(metadata: dict[str, Any], cut_from: tuple[float, ...]) -> list[PlanStep]:
    table, knife, tomato = (_id(metadata, kind) for kind in ("DiningTable", "Knife", "Tomato"))
    walk = PlanStep("GotoLocation", location=cut_from, location_name=alfred_location(location_name(cut_from)))
    return [walk, PlanStep("PickupObject", object_id=knife, receptacle_id=table),
            PlanStep("SliceObject", object_id=tomato, tool_id=knife),
            PlanStep("PutObject", object_id=knife, receptacle_id=table),
            PlanStep("PickupObject", object_id=tomato, receptacle_id=table, sliced=True)]


def test_slices_out_of_sight_where_the_whole_was_cut_are_walked_to() -> None:
    sim, start, block = _start()
    tomato = _id(start.metadata, "Tomato")
    navigation = _navigation(sim)
    steps = _slice_and_pick_up(start.metadata, (0.0, 0.5, 180.0, 30.0))
    cut_from = tuple(destination_by_probes(sim, steps[0], steps[1:], start.metadata, navigation).location)
    hiding = _SlicesHiddenFrom(sim, tomato, {cut_from})
    recorder = _recorder(hiding, start, block)
    high: list[dict[str, Any]] = []
    drive_plan(hiding, steps, Expander(navigation, start.metadata), recorder, high)

    held = recorder.metadata["inventoryObjects"][0]["objectId"]
    assert held.startswith(tomato + "|TomatoSliced_")
    assert [h["discrete_action"]["action"] for h in high] == [
        "GotoLocation", "PickupObject", "SliceObject", "PutObject", "GotoLocation", "PickupObject"]
    assert agent_pose_of(recorder.metadata) != cut_from
    # Seen from where the tomato was cut, the slices need no walk: the plan runs as it was.
    high.clear()
    restore_scene(sim, block)
    recorder = _recorder(sim, restore_scene(sim, block), block)
    drive_plan(sim, steps, Expander(navigation, start.metadata), recorder, high)
    assert [h["discrete_action"]["action"] for h in high] == [
        "GotoLocation", "PickupObject", "SliceObject", "PutObject", "PickupObject"]


def test_slices_no_pose_sees_leave_their_whole_out_of_a_new_plan() -> None:
    sim, start, block = _start()
    tomato = _id(start.metadata, "Tomato")
    hiding = _SlicesHiddenFrom(sim, tomato, "all")
    asked: list[frozenset[str]] = []

    def no_plan(hidden: frozenset[str]) -> list[PlanStep] | None:
        asked.append(hidden)
        return None

    with pytest.raises(ExpansionError, match="no reachable pose sees"):
        drive_with_replans(hiding, _slice_and_pick_up(start.metadata, (0.0, 0.5, 180.0, 30.0)), no_plan,
                           lambda: Expander(_navigation(sim), start.metadata), _recorder(hiding, start, block), [])
    assert asked == [frozenset({tomato})]
