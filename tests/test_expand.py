"""Plan expansion: each high-level step kind becomes ALFRED's low-level actions, with the
open/close wrappers, and the actions succeed when executed in the simulator."""

from __future__ import annotations

import re

import pytest

from alfred_gen.demo.expand import (
    MAX_PROBES,
    Expander,
    ExpansionError,
    candidate_poses,
    centred,
    choose_destination,
    class_of_id,
    end_entry,
    fold_plan,
    inside_requirements,
    sight_requirements,
    word_of,
)
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.planner.result import PlanStep
from alfred_gen.replay.record import LowAction
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController

#: Poses in the fixture kitchen from which the tests' targets are in view (by receptacle type).
POSES = {
    "Fridge": (1.25, 1.0, 90.0, 30.0),
    "Microwave": (-1.5, 1.5, 0.0, 15.0),
}
APPLE_POSE = (-1.25, 1.5, 0.0, 30.0)


class Driver:
    """Expands hand-written plan steps against a live lite simulator and executes them."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.sim = LiteController(scene, render_image=False)
        points = [(p["x"], p["z"]) for p in self.sim.step({"action": "GetReachablePositions"}).metadata["actionReturn"]]
        self.expander = Expander(NavigationGraph(points), self.sim.last_event.metadata)
        self.high_idx = 0

    def id_of(self, object_type: str) -> str:
        ids = [o["objectId"] for o in self.sim.last_event.metadata["objects"] if o["objectType"] == object_type]
        assert len(ids) == 1, (object_type, ids)
        return ids[0]

    def obj(self, object_id: str) -> dict:
        return next(o for o in self.sim.last_event.metadata["objects"] if o["objectId"] == object_id)

    def goto_step(self, receptacle_id: str, pose=None) -> PlanStep:
        pose = POSES.get(receptacle_id.split("|")[0]) if pose is None else pose
        pose = pose or tuple(float(v) for v in self.scene.interaction_poses[receptacle_id].to_list())
        return PlanStep("GotoLocation", location=pose, location_name=alfred_location(location_name(pose)))

    def run(self, step: PlanStep, next_step: PlanStep | None = None):
        expanded = self.expander.expand(step, self.high_idx, self.sim.last_event.metadata, next_step)
        assert expanded.high["high_idx"] == self.high_idx
        for action in expanded.low:
            assert action.high_idx == self.high_idx
            event = self.sim.step(dict(action.api_action))
            assert event.metadata["lastActionSuccess"], (action.api_action, event.metadata["errorMessage"])
        self.high_idx += 1
        return expanded

    def go(self, receptacle_id: str, next_step: PlanStep | None = None, pose=None):
        return self.run(self.goto_step(receptacle_id, pose), next_step)

    def held(self) -> str:
        inventory = self.sim.last_event.metadata["inventoryObjects"]
        return inventory[0]["objectId"] if inventory else ""


def names(expanded) -> list[str]:
    return [a.discrete for a in expanded.low]


@pytest.fixture
def kitchen() -> Driver:
    return Driver(fixtures.kitchen())


def test_fold_plan_drops_open_close_and_merges_walks() -> None:
    plan = [
        PlanStep("GotoLocation", location=(0, 0, 0, 30), location_name="a"),
        PlanStep("OpenObject", object_id="Fridge|1"),
        PlanStep("GotoLocation", location=(1, 0, 0, 30), location_name="b"),
        PlanStep("PickupObject", object_id="Apple|1", receptacle_id="Fridge|1"),
        PlanStep("CloseObject", object_id="Fridge|1"),
    ]
    folded = fold_plan(plan)
    assert [s.action for s in folded] == ["GotoLocation", "PickupObject"]
    assert folded[0].location_name == "b"
    with pytest.raises(ExpansionError, match="unknown high-level action"):
        fold_plan([PlanStep("Dance")])


def test_id_helpers_read_types_and_classes() -> None:
    assert type_of_id("Sink|-00.58|+00.93|+04.87|SinkBasin") == "SinkBasin"
    assert type_of_id("Bread|-00.20|+00.82|+00.81|BreadSliced_3") == "BreadSliced"
    assert class_of_id("Bread|-00.20|+00.82|+00.81|BreadSliced_3") == "Bread"
    assert word_of("CounterTop|+00.09|+00.88|+01.84") == "countertop"
    assert end_entry(4) == {"high_idx": 4, "planner_action": {"action": "End", "value": 1},
                            "discrete_action": {"action": "NoOp", "args": []}}


def test_goto_walks_to_the_pose_and_is_named_after_the_next_target(kitchen: Driver) -> None:
    fridge = kitchen.id_of("Fridge")
    lettuce = kitchen.id_of("Lettuce")
    pickup = PlanStep("PickupObject", object_id=lettuce, receptacle_id=fridge)
    expanded = kitchen.go(fridge, pickup)
    assert expanded.high["discrete_action"] == {"action": "GotoLocation", "args": ["fridge"]}
    assert expanded.high["planner_action"] == {"action": "GotoLocation", "location": "loc|5|4|1|30"}
    assert set(names(expanded)) <= {"MoveAhead_25", "RotateLeft_90", "RotateRight_90", "LookUp_15", "LookDown_15"}
    assert all(a.target == "" for a in expanded.low)
    agent = kitchen.sim.last_event.metadata["agent"]
    assert (agent["position"]["x"], agent["position"]["z"], agent["rotation"]["y"], agent["cameraHorizon"]) == (
        1.25,
        1.0,
        90,
        30,
    )


def test_pickup_from_a_closed_fridge_opens_and_closes_it(kitchen: Driver) -> None:
    fridge = kitchen.id_of("Fridge")
    lettuce = kitchen.id_of("Lettuce")
    kitchen.go(fridge)
    expanded = kitchen.run(PlanStep("PickupObject", object_id=lettuce, receptacle_id=fridge))
    assert names(expanded) == ["OpenObject", "PickupObject", "CloseObject"]
    assert [a.api_action for a in expanded.low] == [
        {"action": "OpenObject", "objectId": fridge},
        {"action": "PickupObject", "objectId": lettuce},
        {"action": "CloseObject", "objectId": fridge},
    ]
    assert [a.target for a in expanded.low] == [fridge, lettuce, fridge]
    assert expanded.high["discrete_action"] == {"action": "PickupObject", "args": ["lettuce"]}
    planner = expanded.high["planner_action"]
    assert planner["objectId"] == lettuce and planner["forceVisible"] is True
    assert planner["coordinateObjectId"][0] == "Lettuce"
    assert planner["coordinateReceptacleObjectId"][0] == "Fridge"
    assert kitchen.held() == lettuce
    assert kitchen.obj(fridge)["isOpen"] is False


def test_put_on_an_open_surface_is_one_action_and_into_a_fridge_is_wrapped(kitchen: Driver) -> None:
    counter = kitchen.id_of("CounterTop")
    fridge = kitchen.id_of("Fridge")
    apple = kitchen.id_of("Apple")
    kitchen.go(counter, pose=APPLE_POSE)
    kitchen.run(PlanStep("PickupObject", object_id=apple, receptacle_id=counter))
    kitchen.go(fridge)
    expanded = kitchen.run(PlanStep("PutObject", object_id=apple, receptacle_id=fridge))
    assert names(expanded) == ["OpenObject", "PutObject", "CloseObject"]
    assert expanded.low[1].api_action == {
        "action": "PutObject",
        "forceAction": True,
        "objectId": apple,
        "placeStationary": True,
        "receptacleObjectId": fridge,
    }
    assert expanded.low[1].target == fridge  # the receptacle's mask, as ALFRED records it
    assert expanded.high["discrete_action"] == {"action": "PutObject", "args": ["apple", "fridge"]}
    assert apple in kitchen.obj(fridge)["receptacleObjectIds"]
    kitchen.run(PlanStep("PickupObject", object_id=apple, receptacle_id=fridge))
    kitchen.go(counter)
    expanded = kitchen.run(PlanStep("PutObject", object_id=apple, receptacle_id=counter))
    assert names(expanded) == ["PutObject"]


def test_heat_cycles_the_microwave(kitchen: Driver) -> None:
    counter = kitchen.id_of("CounterTop")
    microwave = kitchen.id_of("Microwave")
    apple = kitchen.id_of("Apple")
    kitchen.go(counter, pose=APPLE_POSE)
    kitchen.run(PlanStep("PickupObject", object_id=apple, receptacle_id=counter))
    kitchen.go(microwave)
    expanded = kitchen.run(PlanStep("HeatObject", object_id=apple, receptacle_id=microwave))
    assert names(expanded) == [
        "OpenObject",
        "PutObject",
        "CloseObject",
        "ToggleObjectOn",
        "ToggleObjectOff",
        "OpenObject",
        "PickupObject",
        "CloseObject",
    ]
    assert [a.target for a in expanded.low] == [microwave] * 6 + [apple, microwave]
    assert expanded.low[3].api_action["objectId"] == microwave
    assert expanded.high["planner_action"]["objectId"] == microwave  # ALFRED names the appliance
    assert expanded.high["discrete_action"] == {"action": "HeatObject", "args": ["apple"]}
    assert kitchen.held() == apple
    assert kitchen.obj(apple)["temperature"] == "Hot"
    assert kitchen.obj(microwave)["isOpen"] is False and kitchen.obj(microwave)["isToggled"] is False


def test_cool_cycles_the_fridge(kitchen: Driver) -> None:
    counter = kitchen.id_of("CounterTop")
    fridge = kitchen.id_of("Fridge")
    apple = kitchen.id_of("Apple")
    kitchen.go(counter, pose=APPLE_POSE)
    kitchen.run(PlanStep("PickupObject", object_id=apple, receptacle_id=counter))
    kitchen.go(fridge)
    expanded = kitchen.run(PlanStep("CoolObject", object_id=apple, receptacle_id=fridge))
    assert names(expanded) == ["OpenObject", "PutObject", "CloseObject", "OpenObject", "PickupObject", "CloseObject"]
    assert kitchen.held() == apple
    assert kitchen.obj(apple)["temperature"] == "Cold"
    assert kitchen.obj(fridge)["isOpen"] is False


def test_clean_runs_the_faucet_over_the_basin(kitchen: Driver) -> None:
    # Expansion only: in the fixture kitchen the sink's box hides its basin from every pose, so the
    # actions are executed by the end-to-end clean trajectory of tests/test_generate.py instead.
    counter = kitchen.id_of("CounterTop")
    basin = kitchen.id_of("SinkBasin")
    faucet = kitchen.id_of("Faucet")
    mug = kitchen.id_of("Mug")
    kitchen.go(counter)
    kitchen.run(PlanStep("PickupObject", object_id=mug, receptacle_id=counter))
    clean = PlanStep("CleanObject", object_id=mug, receptacle_id=basin)
    goto = kitchen.expander.expand(kitchen.goto_step(basin), 2, kitchen.sim.last_event.metadata, clean)
    assert goto.high["discrete_action"]["args"] == ["sinkbasin"]
    expanded = kitchen.expander.expand(clean, 3, kitchen.sim.last_event.metadata)
    assert names(expanded) == ["PutObject", "ToggleObjectOn", "ToggleObjectOff", "PickupObject"]
    assert [a.target for a in expanded.low] == [basin, faucet, faucet, mug]
    assert expanded.low[0].api_action["receptacleObjectId"] == basin
    on = expanded.low[1].api_action
    assert on["action"] == "ToggleObjectOn" and on["objectId"] == faucet and on["cleanObjectId"] == mug
    assert expanded.high["planner_action"]["objectId"] == basin
    assert expanded.high["planner_action"]["cleanObjectId"] == mug
    assert expanded.high["discrete_action"] == {"action": "CleanObject", "args": ["mug"]}


def test_slice_then_pick_up_a_slice_and_keep_using_it(kitchen: Driver) -> None:
    table = kitchen.id_of("DiningTable")
    knife = kitchen.id_of("Knife")
    potato = kitchen.id_of("Potato")
    slice_step = PlanStep("SliceObject", object_id=potato, receptacle_id=table, tool_id=knife)
    kitchen.go(table)
    kitchen.run(PlanStep("PickupObject", object_id=knife, receptacle_id=table))
    with pytest.raises(ExpansionError, match="does not hold"):
        kitchen.expander.expand(
            PlanStep("SliceObject", object_id=potato, receptacle_id=table, tool_id="Knife|x"),
            9,
            kitchen.sim.last_event.metadata,
        )
    expanded = kitchen.run(slice_step)
    assert names(expanded) == ["SliceObject"]
    assert expanded.low[0].api_action == {"action": "SliceObject", "objectId": potato}
    assert expanded.high["discrete_action"] == {"action": "SliceObject", "args": ["potato"]}
    kitchen.run(PlanStep("PutObject", object_id=knife, receptacle_id=table))
    pickup = kitchen.run(PlanStep("PickupObject", object_id=potato, receptacle_id=table, sliced=True))
    chosen = pickup.low[0].api_action["objectId"]
    assert chosen.startswith(potato + "|PotatoSliced_")
    assert pickup.high["planner_action"]["coordinateObjectId"][0] == "Potato"
    assert kitchen.held() == chosen
    put = kitchen.run(PlanStep("PutObject", object_id=potato, receptacle_id=table, sliced=True))
    assert put.low[0].api_action["objectId"] == chosen
    again = kitchen.run(PlanStep("PickupObject", object_id=potato, receptacle_id=table, sliced=True))
    assert again.low[0].api_action["objectId"] == chosen  # the same slice all along


def test_toggle_switches_the_lamp_on() -> None:
    bedroom = Driver(fixtures.bedroom())
    desk = bedroom.id_of("Desk")
    lamp = bedroom.id_of("DeskLamp")
    goto = bedroom.go(desk, PlanStep("ToggleObject", object_id=lamp))
    assert goto.high["discrete_action"]["args"] == ["desklamp"]
    expanded = bedroom.run(PlanStep("ToggleObject", object_id=lamp))
    assert names(expanded) == ["ToggleObjectOn"]
    assert expanded.low[0].api_action == {"action": "ToggleObjectOn", "objectId": lamp}
    assert expanded.high["planner_action"]["coordinateObjectId"][0] == "DeskLamp"
    assert bedroom.obj(lamp)["isToggled"] is True
    with pytest.raises(ExpansionError, match="already on"):
        bedroom.expander.expand(PlanStep("ToggleObject", object_id=lamp), 5, bedroom.sim.last_event.metadata)


def test_steps_that_do_not_fit_the_state_raise(kitchen: Driver) -> None:
    apple = kitchen.id_of("Apple")
    counter = kitchen.id_of("CounterTop")
    metadata = kitchen.sim.last_event.metadata
    with pytest.raises(ExpansionError, match="holds nothing"):
        kitchen.expander.expand(PlanStep("PutObject", object_id=apple, receptacle_id=counter), 0, metadata)
    with pytest.raises(ExpansionError, match="not a reachable grid point"):
        kitchen.expander.expand(PlanStep("GotoLocation", location=(9.0, 9.0, 0, 30), location_name="x"), 0, metadata)
    with pytest.raises(ExpansionError, match="no slice"):
        kitchen.expander.expand(
            PlanStep("PickupObject", object_id=apple, receptacle_id=counter, sliced=True), 0, metadata
        )


def test_low_action_entries_have_alfreds_shape() -> None:
    action = LowAction(3, {"action": "PickupObject", "objectId": "Apple|1"}, "PickupObject", "Apple|1")
    entry = action.entry({"mask": [[0, 1]], "bbox": [0, 1, 0, 1], "point": [0, 0]})
    assert entry == {
        "high_idx": 3,
        "api_action": {"action": "PickupObject", "objectId": "Apple|1"},
        "discrete_action": {
            "action": "PickupObject",
            "args": {"mask": [[0, 1]], "bbox": [0, 1, 0, 1], "point": [0, 0]},
        },
    }
    assert LowAction(0, {"action": "MoveAhead"}, "MoveAhead_25").entry()["discrete_action"]["args"] == {}


def _probe(driver: Driver):
    def probe(pose, asked):
        event = driver.sim.step(
            {"action": "TeleportFull", "x": pose[0], "y": 0.9, "z": pose[1], "rotation": pose[2], "horizon": pose[3]}
        )
        return (event.state_metadata, event.visible_among(asked)) if event.head["lastActionSuccess"] else None

    return probe


def test_sight_requirements_name_what_must_be_in_view(kitchen: Driver) -> None:
    fridge, lettuce = kitchen.id_of("Fridge"), kitchen.id_of("Lettuce")
    basin, faucet, mug = kitchen.id_of("SinkBasin"), kitchen.id_of("Faucet"), kitchen.id_of("Mug")
    counter, apple = kitchen.id_of("CounterTop"), kitchen.id_of("Apple")
    metadata = kitchen.sim.last_event.metadata
    assert sight_requirements([PlanStep("PickupObject", object_id=lettuce, receptacle_id=fridge)], metadata) == [
        [fridge]
    ]
    assert sight_requirements([PlanStep("PickupObject", object_id=apple, receptacle_id=counter)], metadata) == [[apple]]
    assert sight_requirements([PlanStep("CleanObject", object_id=mug, receptacle_id=basin)], metadata) == [
        [basin],
        [faucet],
    ]
    assert sight_requirements(
        [
            PlanStep("PutObject", object_id=apple, receptacle_id=fridge),
            PlanStep("PickupObject", object_id=apple, receptacle_id=fridge),
        ],
        metadata,
    ) == [[fridge]]


def test_a_walk_is_moved_to_a_pose_that_sees_the_target(kitchen: Driver) -> None:
    counter, apple = kitchen.id_of("CounterTop"), kitchen.id_of("Apple")
    pickup = PlanStep("PickupObject", object_id=apple, receptacle_id=counter)
    blind = kitchen.goto_step(counter, pose=(1.5, -1.0, 180.0, 30.0))  # facing away from the counter
    metadata = kitchen.sim.last_event.metadata
    walk = choose_destination(blind, [pickup], metadata, kitchen.expander.navigation, _probe(kitchen), 1.65)
    assert walk.location != blind.location and walk.location_name != blind.location_name
    assert walk.location_name == alfred_location(location_name(walk.location))
    seeing = kitchen.goto_step(counter, pose=APPLE_POSE)
    assert choose_destination(seeing, [pickup], metadata, kitchen.expander.navigation, _probe(kitchen), 1.65) is seeing
    kitchen.sim.step({"action": "TeleportFull", "x": 0.0, "y": 0.9, "z": 0.5, "rotation": 0, "horizon": 30})
    kitchen.run(walk, pickup)
    kitchen.run(pickup)
    assert kitchen.held() == apple


def test_a_walk_to_something_no_pose_sees_fails_after_a_bounded_search(kitchen: Driver) -> None:
    counter, apple = kitchen.id_of("CounterTop"), kitchen.id_of("Apple")
    metadata = kitchen.sim.last_event.metadata
    probed = []

    def probe(pose, asked):
        probed.append(tuple(pose))
        return metadata, frozenset()  # nothing asked about is visible

    with pytest.raises(ExpansionError, match="no reachable pose sees " + re.escape(apple)):
        choose_destination(
            kitchen.goto_step(counter),
            [PlanStep("PickupObject", object_id=apple, receptacle_id=counter)],
            metadata,
            kitchen.expander.navigation,
            probe,
            1.65,
        )
    assert 1 < len(probed) <= MAX_PROBES + 1 and len(set(probed)) == len(probed)


def test_candidate_poses_face_the_target_from_an_arms_length_first() -> None:
    target = {"objectId": "Apple|1", "position": {"x": 0.0, "y": 0.9, "z": 1.0}}
    points = [(x * 0.25, z * 0.25) for x in range(-8, 9) for z in range(-8, 4)]
    poses = candidate_poses([target], points, 1.65)
    x, z, rotation, _horizon = poses[0]
    assert abs(((x - 0.0) ** 2 + (z - 1.0) ** 2) ** 0.5 - 0.8) < 0.2
    for x, z, rotation, _ in poses:
        assert ((x) ** 2 + (z - 1.0) ** 2) ** 0.5 <= 1.75
        if abs(x) < 0.1 and z < 1.0:
            assert rotation == 0.0  # due south of the target: face +z
    assert len(set(poses)) == len(poses)


def test_every_high_level_action_has_exactly_one_expansion() -> None:
    from alfred_gen.demo.expand import _EXPANSIONS, HIGH_ACTIONS

    assert sorted(_EXPANSIONS) == sorted(HIGH_ACTIONS)


def _looking(horizon: float, target: tuple[float, float, float]) -> dict:
    """Metadata of an agent at the origin facing +z with its eye 1.5 m up, and one object."""
    x, y, z = target
    return {
        "agent": {"position": {"x": 0.0, "y": 0.9, "z": 0.0}, "rotation": {"y": 0.0}, "cameraHorizon": horizon},
        "cameraPosition": {"x": 0.0, "y": 1.5, "z": 0.0},
        "fov": 60,
        "objects": [{"objectId": "Fridge|1", "objectType": "Fridge", "position": {"x": x, "y": y, "z": z},
                     "visible": True}],
    }


def test_centred_tells_whether_an_objects_middle_is_in_the_frame() -> None:
    # A fridge's middle 0.6 m under the eye, 1 m ahead: 31 degrees down, out of a 60-degree frame
    # looking level, in it looking 30 degrees down.
    assert not centred(_looking(0, (0.0, 0.9, 1.0)), ["Fridge|1"])
    assert centred(_looking(30, (0.0, 0.9, 1.0)), ["Fridge|1"])
    assert not centred(_looking(30, (0.0, 0.9, -1.0)), ["Fridge|1"])  # behind
    assert not centred(_looking(30, (1.0, 0.9, 1.0)), ["Fridge|1"])  # 45 degrees to the right
    assert centred(_looking(0, (0.0, 0.9, 1.0)), [])


def test_what_goes_in_and_out_again_needs_the_receptacles_middle_in_view(kitchen: Driver) -> None:
    fridge, basin, apple = kitchen.id_of("Fridge"), kitchen.id_of("SinkBasin"), kitchen.id_of("Apple")
    metadata = kitchen.sim.last_event.metadata
    steps = [PlanStep("CoolObject", object_id=apple, receptacle_id=fridge),
             PlanStep("PutObject", object_id=apple, receptacle_id=basin),
             PlanStep("CleanObject", object_id=apple, receptacle_id=basin)]
    assert inside_requirements(steps, metadata) == [fridge, basin]
    # Looking up at the fridge from the planned spot: its door is in view, its shelves are not.
    x, z, rotation, _ = kitchen.goto_step(fridge).location
    upward = kitchen.goto_step(fridge, pose=(x, z, rotation, -30.0))
    probe = _probe(kitchen)
    seen, visible = probe(upward.location, [fridge])
    assert visible == {fridge} and not centred(seen, [fridge])
    walk = choose_destination(upward, steps[:1], metadata, kitchen.expander.navigation, probe, 1.65)
    assert walk.location != upward.location
    assert centred(probe(walk.location, [fridge])[0], [fridge])


def test_a_slice_shut_in_the_fridge_is_taken_out_by_opening_it(kitchen: Driver) -> None:
    # Cut in the fridge, the knife put away in it (the fridge closed again after): no slice is
    # visible, yet the pickup opens the fridge and takes one.
    table, fridge = kitchen.id_of("DiningTable"), kitchen.id_of("Fridge")
    knife, lettuce = kitchen.id_of("Knife"), kitchen.id_of("Lettuce")
    kitchen.go(table)
    kitchen.run(PlanStep("PickupObject", object_id=knife, receptacle_id=table))
    kitchen.go(fridge)
    kitchen.run(PlanStep("SliceObject", object_id=lettuce, receptacle_id=fridge, tool_id=knife))
    kitchen.run(PlanStep("PutObject", object_id=knife, receptacle_id=fridge))
    metadata = kitchen.sim.last_event.metadata
    assert not kitchen.obj(fridge)["isOpen"]
    assert not any(o["visible"] for o in metadata["objects"] if o["objectId"].startswith(lettuce + "|"))
    pickup = kitchen.run(PlanStep("PickupObject", object_id=lettuce, receptacle_id=fridge, sliced=True))
    assert names(pickup) == ["OpenObject", "PickupObject", "CloseObject"]
    assert kitchen.held().startswith(lettuce + "|LettuceSliced_")


class _OneThingAtATime:
    """A controller whose views never show ``a`` and ``b`` together (two ends of a long counter)."""

    def __init__(self, sim: LiteController, a: str, b: str) -> None:
        self.sim, self.a, self.b = sim, a, b

    def step(self, action: dict):
        event = self.sim.step(action)
        objects = event.metadata["objects"]
        seen = {o["objectId"] for o in objects if o["visible"]}
        if {self.a, self.b} <= seen:
            for o in objects:
                if o["objectId"] == self.b:
                    o["visible"] = False
        return event


def test_a_walk_no_pose_serves_whole_is_split_with_a_second_walk(kitchen: Driver) -> None:
    from alfred_gen.demo.drive import walk_destination

    table, fridge = kitchen.id_of("DiningTable"), kitchen.id_of("Fridge")
    knife, lettuce = kitchen.id_of("Knife"), kitchen.id_of("Lettuce")
    walk = kitchen.goto_step(table)
    steps = [walk, PlanStep("PickupObject", object_id=knife, receptacle_id=table),
             PlanStep("SliceObject", object_id=lettuce, receptacle_id=fridge, tool_id=knife)]
    metadata = kitchen.sim.last_event.metadata
    navigation = kitchen.expander.navigation
    apart = _OneThingAtATime(kitchen.sim, knife, fridge)
    chosen, amended = walk_destination(apart, steps, 0, metadata, navigation)  # type: ignore[arg-type]
    assert amended == [steps[0], steps[1], walk, steps[2]]
    assert _probe(kitchen)(chosen.location, [knife])[1] == {knife}
    # Steps one pose serves are left alone.
    assert walk_destination(apart, steps[:2], 0, metadata, navigation)[1] == steps[:2]  # type: ignore[arg-type]
