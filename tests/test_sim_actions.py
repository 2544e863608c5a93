"""Each lite action: its success case and its failure cases (a failure changes nothing)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from alfred_gen.sim import fixtures, put_landing
from alfred_gen.sim.controller import make_controller
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, Scene, SceneObject
from tests.helpers.sim_actions import agent_pose, fails, go, obj, oid, ok, state
from tests.helpers.small_rooms import walled_room


@pytest.fixture
def kitchen() -> LiteController:
    return LiteController(fixtures.kitchen())


@pytest.fixture
def bedroom() -> LiteController:
    return LiteController(fixtures.bedroom())


# --- calling convention and bad requests ---------------------------------------------------------
def test_calling_conventions_are_equivalent() -> None:
    metas = []
    for call in (
        lambda s: s.step({"action": "MoveAhead"}),
        lambda s: s.step(action="MoveAhead"),
        lambda s: s.step("MoveAhead"),
        lambda s: s.step({"action": "MoveAhead"}, moveMagnitude=0.25),
    ):
        sim = make_controller("lite", scene=fixtures.kitchen())
        metas.append(json.dumps(call(sim).metadata, sort_keys=True))
    assert len(set(metas)) == 1
    assert json.loads(metas[0])["agent"]["position"]["z"] == 0.75


@pytest.mark.parametrize(
    "request_, expect",
    [
        ({"action": "Fly"}, "unknown action"),
        ({"action": None}, "unknown action"),
        ({}, "unknown action"),
        ({"action": "MoveAhead", "speed": 3}, "argument"),
        ({"action": "MoveAhead", "moveMagnitude": "far"}, "number"),
        ({"action": "MoveAhead", "moveMagnitude": True}, "number"),
        ({"action": "MoveAhead", "forceAction": "yes"}, "forceAction"),
        ({"action": "PickupObject"}, "objectId"),
        ({"action": "PickupObject", "objectId": 5}, "objectId"),
        ({"action": "PickupObject", "objectId": "Apple|+09.00|+09.00|+09.00"}, "invalid"),
        ({"action": "RotateLeft", "degrees": float("nan")}, "number"),
    ],
)
def test_bad_requests_fail_without_raising(kitchen: LiteController, request_: dict, expect: str) -> None:
    fails(kitchen, request_, expect)


def test_alfred_bookkeeping_arguments_are_accepted(kitchen: LiteController) -> None:
    ok(kitchen, {"action": "MoveAhead", "forceAction": True, "moveMagnitude": 0.25})
    go(kitchen, 0.0, 1.5, 0)
    mug = oid(kitchen, "Mug")
    ok(kitchen, {"action": "PickupObject", "objectId": mug, "forceVisible": True,
                 "coordinateObjectId": ["Mug", [0, 0, 0, 0, 0, 0]], "coordinateReceptacleObjectId": ["CounterTop", []]})


# --- navigation ----------------------------------------------------------------------------------
def test_moves_follow_thor_axes(kitchen: LiteController) -> None:
    assert agent_pose(kitchen) == (0.0, 0.5, 0.0, 30.0)
    ok(kitchen, "MoveAhead")
    assert agent_pose(kitchen)[:2] == (0.0, 0.75)  # rotation 0 faces +z
    ok(kitchen, "MoveRight")
    assert agent_pose(kitchen)[:2] == (0.25, 0.75)  # right of +z is +x
    ok(kitchen, "MoveLeft")
    ok(kitchen, "MoveBack")
    assert agent_pose(kitchen)[:2] == (0.0, 0.5)
    ok(kitchen, "RotateRight")
    ok(kitchen, "MoveAhead")
    assert agent_pose(kitchen)[:3] == (0.25, 0.5, 90.0)  # rotation 90 faces +x
    ok(kitchen, "MoveAhead", moveMagnitude=0.5)
    assert agent_pose(kitchen)[:2] == (0.75, 0.5)


def test_moves_fail_off_the_grid_and_into_furniture(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 1.5, 0)
    fails(kitchen, "MoveAhead", "not a reachable position")  # the counter top
    fails(kitchen, "MoveAhead", "multiple of the grid", moveMagnitude=0.3)
    fails(kitchen, "MoveAhead", "multiple of the grid", moveMagnitude=-0.25)
    go(kitchen, 2.25, 0.0, 90)
    fails(kitchen, "MoveAhead", "not a reachable position")  # the wall
    assert agent_pose(kitchen)[:2] == (2.25, 0.0)


def test_long_move_stops_whole_if_any_cell_is_blocked(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 1.25, 0)
    fails(kitchen, "MoveAhead", moveMagnitude=0.75)  # 1.5 is free, 1.75 is not
    ok(kitchen, "MoveAhead", moveMagnitude=0.25)


def test_floor_objects_block_and_free_the_way(bedroom: LiteController) -> None:
    ball = oid(bedroom, "BasketBall")  # lies on the floor at (-0.5, -1.5)
    go(bedroom, -0.5, -1.0, 180, 60)
    fails(bedroom, "MoveAhead", "blocked")
    reachable = {(p["x"], p["z"]) for p in ok(bedroom, "GetReachablePositions").metadata["actionReturn"]}
    assert (-0.5, -1.25) not in reachable and (-0.5, -1.0) in reachable
    fails(bedroom, "TeleportFull", "blocked", x=-0.5, y=0.9, z=-1.25, rotation=0, horizon=0)
    ok(bedroom, "PickupObject", objectId=ball)
    ok(bedroom, "MoveAhead")
    reachable = {(p["x"], p["z"]) for p in ok(bedroom, "GetReachablePositions").metadata["actionReturn"]}
    assert (-0.5, -1.25) in reachable


def _ball_short_of_the_agents_next_point(bedroom: LiteController, gap: float, yaw: float) -> bool:
    """Lay the bedroom's ball ``gap`` short of the point ahead of the agent, turned ``yaw``; whether
    the agent's step onto that point is refused."""
    ball = obj(bedroom, oid(bedroom, "BasketBall"))
    half = ball["axisAlignedBoundingBox"]["size"]["z"] / 2
    pose = {"objectName": ball["name"], "rotation": {"x": 0.0, "y": yaw, "z": 0.0},
            "position": dict(ball["position"], z=-1.25 - gap - half)}
    ok(bedroom, "SetObjectPoses", objectPoses=[pose])
    go(bedroom, -0.5, -1.0, 180, 60)
    event = bedroom.step({"action": "MoveAhead"})
    return not event.metadata["lastActionSuccess"] and "blocked" in event.metadata["errorMessage"]


@pytest.mark.parametrize(("gap", "blocked"), [(0.185, False), (0.165, True)])
def test_a_floor_object_blocks_within_the_agents_round_footprint(bedroom: LiteController, gap: float,
                                                                  blocked: bool) -> None:
    # THOR 2.1's agent is a capsule of radius 0.175 m: a ball 18.5 cm short of the point leaves room.
    assert _ball_short_of_the_agents_next_point(bedroom, gap, 0.0) == blocked


@pytest.mark.parametrize(("yaw", "blocked"), [(90.0, False), (120.0, True), (60.0, True)])
def test_a_floor_object_blocks_by_its_footprint_turned_to_its_yaw(bedroom: LiteController, yaw: float,
                                                                    blocked: bool) -> None:
    # 18.5 cm short of the point leaves room at a quarter turn; turned 30 degrees off it, the
    # ball's square box reaches 4 cm further along each axis.
    assert _ball_short_of_the_agents_next_point(bedroom, 0.185, yaw) == blocked


def test_a_footprint_turns_about_the_objects_origin() -> None:
    from alfred_gen.sim.world import AGENT_RADIUS, footprint_meets, yaw_residual

    # A pair of boots (0.22 x 0.277, quarter-turned) at 259.6 degrees, origin at its box's middle:
    # the quarter-turned box's edge is 0.174 m from the point; the rectangle, turned the 10.4
    # degrees back, leaves its nearest edge 0.186 m away.
    box = Box((-0.076, 0.0, 2.953), (0.144, 0.5, 3.230))
    turn = (0.034, 3.092, yaw_residual(259.6))
    assert turn[2] == pytest.approx(-10.4)
    assert footprint_meets(box, -0.25, 3.0)
    assert not footprint_meets(box, -0.25, 3.0, turn=turn)
    # Turned, a corner swings out where the box had none: straight past the box's corner on the
    # other side the rectangle reaches further.
    assert not footprint_meets(box, 0.144 + AGENT_RADIUS + 0.01, 2.953 - 0.0)
    assert footprint_meets(box, 0.144 + AGENT_RADIUS + 0.01, 2.953, turn=turn)
    assert yaw_residual(359.0) == pytest.approx(-1.0) and yaw_residual(44.0) == pytest.approx(44.0)


def test_the_footprint_is_round() -> None:
    from alfred_gen.sim.world import AGENT_RADIUS, footprint_meets

    box = Box((0.0, 0.0, 0.0), (0.2, 0.3, 0.2))
    assert footprint_meets(box, 0.2 + AGENT_RADIUS - 0.01, 0.1)
    assert not footprint_meets(box, 0.2 + AGENT_RADIUS + 0.01, 0.1)
    # Diagonally off a corner, a square footprint of the same half-width would reach the box.
    assert not footprint_meets(box, 0.2 + 0.15, 0.2 + 0.15)
    assert footprint_meets(box, 0.2 + 0.15, 0.2 + 0.15, margin=0.05)

def test_divider_wall_cannot_be_crossed() -> None:
    sim = LiteController(fixtures.divided_room())
    go(sim, -0.25, -0.5, 90)
    fails(sim, "MoveAhead")
    go(sim, -0.25, 1.0, 90)
    ok(sim, "MoveAhead")
    ok(sim, "MoveAhead")
    assert agent_pose(sim)[:2] == (0.25, 1.0)


def test_rotation(kitchen: LiteController) -> None:
    ok(kitchen, "RotateLeft")
    assert agent_pose(kitchen)[2] == 270.0
    ok(kitchen, "RotateRight", degrees=180)
    assert agent_pose(kitchen)[2] == 90.0
    fails(kitchen, "RotateRight", "multiples of 90", degrees=45)


def test_look_limits(kitchen: LiteController) -> None:
    assert agent_pose(kitchen)[3] == 30.0
    ok(kitchen, "LookDown")
    ok(kitchen, "LookDown")
    assert agent_pose(kitchen)[3] == 60.0
    fails(kitchen, "LookDown", "limits")
    ok(kitchen, "LookUp", degrees=90)
    assert agent_pose(kitchen)[3] == -30.0
    fails(kitchen, "LookUp", "limits")
    fails(kitchen, "LookUp", "negative", degrees=-15)


def test_teleport(kitchen: LiteController) -> None:
    ok(kitchen, {"action": "TeleportFull", "x": -1.0, "y": 0.901, "z": 0.0, "rotation": 270, "horizon": 15,
                 "rotateOnTeleport": True, "standing": True})
    assert agent_pose(kitchen) == (-1.0, 0.0, 270.0, 15.0)
    ok(kitchen, "TeleportFull", x=-1.0, y=0.9, z=0.25, rotation={"x": 0, "y": 180, "z": 0}, horizon=0)
    assert agent_pose(kitchen) == (-1.0, 0.25, 180.0, 0.0)
    ok(kitchen, "Teleport", x=-1.25, y=0.9, z=0.25)
    assert agent_pose(kitchen) == (-1.25, 0.25, 180.0, 0.0)
    fails(kitchen, "TeleportFull", "reachable", x=0.1, y=0.9, z=0.0, rotation=0, horizon=0)
    fails(kitchen, "TeleportFull", "reachable", x=0.0, y=0.9, z=2.25, rotation=0, horizon=0)
    fails(kitchen, "TeleportFull", "outside", x=0.0, y=0.9, z=0.0, rotation=0, horizon=75)
    fails(kitchen, "TeleportFull", "multiples of 90", x=0.0, y=0.9, z=0.0, rotation=30, horizon=0)
    fails(kitchen, "TeleportFull", "rotation", x=0.0, y=0.9, z=0.0, horizon=0)
    fails(kitchen, "TeleportFull", "crouch", x=0.0, y=0.9, z=0.0, rotation=0, horizon=0, standing=False)


def test_get_reachable_positions_and_pass(kitchen: LiteController) -> None:
    points = ok(kitchen, "GetReachablePositions").metadata["actionReturn"]
    assert len(points) == len(kitchen.scene.reachable)
    assert all(set(p) == {"x", "y", "z"} for p in points)
    before = state(kitchen)
    ok(kitchen, "Pass")
    assert state(kitchen) == before
    assert kitchen.last_event.metadata["actionReturn"] is None


# --- pick up and put -----------------------------------------------------------------------------
def test_pickup(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 1.5, 0)
    mug, counter = oid(kitchen, "Mug"), oid(kitchen, "CounterTop")
    assert obj(kitchen, mug)["parentReceptacles"] == [counter]
    event = ok(kitchen, "PickupObject", objectId=mug)
    assert event.metadata["inventoryObjects"] == [{"objectId": mug, "objectType": "Mug"}]
    assert obj(kitchen, mug)["isPickedUp"] is True
    assert obj(kitchen, mug)["parentReceptacles"] is None
    assert mug not in obj(kitchen, counter)["receptacleObjectIds"]
    fails(kitchen, "PickupObject", "already holding", objectId=oid(kitchen, "Bread"))


def test_pickup_failures(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 1.5, 0)
    fails(kitchen, "PickupObject", "not pickupable", objectId=oid(kitchen, "CounterTop"))
    fails(kitchen, "PickupObject", "closed receptacle", objectId=oid(kitchen, "Lettuce"))
    fails(kitchen, "PickupObject", "not interactable", objectId=oid(kitchen, "Potato"))  # behind, 2 m away
    go(kitchen, 0.0, 0.25, 0)
    fails(kitchen, "PickupObject", "not visible", objectId=oid(kitchen, "Tomato"))  # behind, within reach
    go(kitchen, 0.0, 0.5, 0)
    message = fails(kitchen, "PickupObject", "m away", objectId=oid(kitchen, "Mug"))
    assert "1.5" in message


def test_put_into_receptacle_both_conventions(kitchen: LiteController) -> None:
    go(kitchen, -0.5, 1.5, 0)
    mug, basin = oid(kitchen, "Mug"), oid(kitchen, "SinkBasin")
    ok(kitchen, "PickupObject", objectId=mug)
    ok(kitchen, {"action": "PutObject", "objectId": mug, "receptacleObjectId": basin,
                 "forceAction": True, "placeStationary": True})
    assert obj(kitchen, mug)["parentReceptacles"] == [basin]
    assert mug in obj(kitchen, basin)["receptacleObjectIds"]
    assert kitchen.last_event.metadata["inventoryObjects"] == []
    ok(kitchen, "PickupObject", objectId=mug)
    ok(kitchen, "PutObject", objectId=oid(kitchen, "CounterTop"))  # newer THOR: objectId is the receptacle
    assert obj(kitchen, mug)["parentReceptacles"] == [oid(kitchen, "CounterTop")]


def test_put_failures(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 1.5, 0)
    mug, bread = oid(kitchen, "Mug"), oid(kitchen, "Bread")
    fails(kitchen, "PutObject", "not holding", objectId=mug, receptacleObjectId=oid(kitchen, "CounterTop"))
    ok(kitchen, "PickupObject", objectId=mug)
    fails(kitchen, "PutObject", "holding", objectId=bread, receptacleObjectId=oid(kitchen, "CounterTop"))
    fails(kitchen, "PutObject", "not a receptacle", objectId=mug, receptacleObjectId=bread)
    fails(kitchen, "PutObject", "cannot be placed", objectId=mug, receptacleObjectId=oid(kitchen, "StoveBurner"))
    fails(kitchen, "PutObject", "itself", objectId=mug, receptacleObjectId=mug)
    fails(kitchen, "PutObject", "not interactable", objectId=mug, receptacleObjectId=oid(kitchen, "DiningTable"))
    go(kitchen, 1.25, 1.0, 90, 0)
    fails(kitchen, "PutObject", "closed", objectId=mug, receptacleObjectId=oid(kitchen, "Fridge"))
    ok(kitchen, "OpenObject", objectId=oid(kitchen, "Fridge"))
    ok(kitchen, "PutObject", objectId=mug, receptacleObjectId=oid(kitchen, "Fridge"))


def _coffee_scene() -> Scene:
    machine = SceneObject("CoffeeMachine", (0.0, 0.9, 1.0), Box((-0.2, 0.9, 0.8), (0.2, 1.3, 1.2)))
    counter = SceneObject("CounterTop", (0.0, 0.9, 1.0), Box((-1.0, 0.0, 0.7), (1.0, 0.9, 1.3)))
    mugs = [
        SceneObject("Mug", (x, 0.96, 0.9), Box.from_center((x, 0.96, 0.9), (0.12, 0.1, 0.09)),
                    name=f"Mug_{i}", parent=counter.object_id)
        for i, x in enumerate((-0.6, 0.6))
    ]
    return walled_room([counter, machine, *mugs], Pose(0.0, 0.25, 0, 30), name="LiteTestCoffee", scene_num=2)


def test_put_into_a_full_receptacle_fails() -> None:
    sim = LiteController(_coffee_scene())
    first, second = sorted(o["objectId"] for o in sim.last_event.metadata["objects"] if o["objectType"] == "Mug")
    machine = oid(sim, "CoffeeMachine")
    ok(sim, "PickupObject", objectId=first)
    ok(sim, "PutObject", objectId=first, receptacleObjectId=machine)
    ok(sim, "PickupObject", objectId=second)
    fails(sim, "PutObject", "full", objectId=second, receptacleObjectId=machine)


# --- open, close, toggle, slice, clean, drop -----------------------------------------------------
def test_open_and_close(kitchen: LiteController) -> None:
    go(kitchen, 1.25, 1.0, 90, 0)
    fridge = oid(kitchen, "Fridge")
    fails(kitchen, "CloseObject", "already closed", objectId=fridge)
    ok(kitchen, "OpenObject", objectId=fridge)
    assert obj(kitchen, fridge)["isOpen"] is True
    fails(kitchen, "OpenObject", "already open", objectId=fridge)
    fails(kitchen, "OpenObject", "openness", objectId=fridge, moveMagnitude=2.0)
    ok(kitchen, "CloseObject", objectId=fridge)
    assert obj(kitchen, fridge)["isOpen"] is False
    go(kitchen, 0.0, 1.5, 0)
    fails(kitchen, "OpenObject", "not openable", objectId=oid(kitchen, "CounterTop"))
    fails(kitchen, "OpenObject", "not interactable", objectId=fridge)


def test_toggle(bedroom: LiteController) -> None:
    go(bedroom, -0.25, 1.0, 0)
    lamp = oid(bedroom, "DeskLamp")
    ok(bedroom, "ToggleObjectOn", objectId=lamp)
    assert obj(bedroom, lamp)["isToggled"] is True
    fails(bedroom, "ToggleObjectOn", "already on", objectId=lamp)
    ok(bedroom, "ToggleObjectOff", objectId=lamp)
    fails(bedroom, "ToggleObjectOff", "already off", objectId=lamp)
    fails(bedroom, "ToggleObjectOn", "not toggleable", objectId=oid(bedroom, "Book"))
    fails(bedroom, "ToggleObjectOn", "not interactable", objectId=oid(bedroom, "FloorLamp"))


def test_slice(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 0.25, 180)
    tomato, knife, table = oid(kitchen, "Tomato"), oid(kitchen, "Knife"), oid(kitchen, "DiningTable")
    fails(kitchen, "SliceObject", "knife", objectId=tomato)
    ok(kitchen, "PickupObject", objectId=knife)
    fails(kitchen, "SliceObject", "not sliceable", objectId=oid(kitchen, "Plate"))
    ok(kitchen, "SliceObject", objectId=tomato)
    whole = obj(kitchen, tomato)
    assert whole["isSliced"] is True and whole["visible"] is False and whole["parentReceptacles"] is None
    slices = [o for o in kitchen.last_event.metadata["objects"] if o["objectType"] == "TomatoSliced"]
    assert [s["objectId"] for s in slices] == [f"{tomato}|TomatoSliced_{i}" for i in range(1, len(slices) + 1)]
    assert len(slices) >= 2
    # Slice 1 beside the whole's origin, the others running towards the negative end of its long
    # side (THOR's order and layout).
    size = whole["axisAlignedBoundingBox"]["size"]
    axis = "x" if size["x"] >= size["z"] else "z"
    along = [s["position"][axis] for s in slices]
    assert along == sorted(along, reverse=True) and abs(along[0] - whole["position"][axis]) < 0.03
    assert all(s["parentReceptacles"] == [table] for s in slices)
    assert tomato not in obj(kitchen, table)["receptacleObjectIds"]
    fails(kitchen, "SliceObject", "sliced", objectId=tomato)
    fails(kitchen, "PickupObject", "sliced", objectId=tomato)
    ok(kitchen, "PutObject", objectId=knife, receptacleObjectId=table)
    ok(kitchen, "PickupObject", objectId=slices[0]["objectId"])


def test_a_tomato_makes_six_slices_the_last_at_the_end_of_the_row(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 0.25, 180)
    tomato, knife = oid(kitchen, "Tomato"), oid(kitchen, "Knife")
    ok(kitchen, "PickupObject", objectId=knife)
    ok(kitchen, "SliceObject", objectId=tomato)
    slices = {o["objectId"]: o for o in kitchen.last_event.metadata["objects"] if o["objectType"] == "TomatoSliced"}
    # THOR 2.1 names TomatoSliced_1 to _6 (ALFRED's demos never name a seventh); with a seventh
    # beyond slice 6, THOR's masks of slice 6 found lite's slice 7.
    assert sorted(slices) == [f"{tomato}|TomatoSliced_{i}" for i in range(1, 7)]
    size = obj(kitchen, tomato)["axisAlignedBoundingBox"]["size"]
    axis = "x" if size["x"] >= size["z"] else "z"
    along = [slices[f"{tomato}|TomatoSliced_{i}"]["position"][axis] for i in range(1, 7)]
    assert max(along) - min(along) > 0.03 and along[5] in (min(along), max(along))


def test_an_apples_first_two_slices_lie_on_either_side_of_its_middle() -> None:
    from alfred_gen.sim.actions import slice_offsets

    offsets = slice_offsets("Apple", 0.1, 8)
    # THOR's slice 1 on the apple's own +x side, slice 2 on its -x side; the places are the even
    # spread's over the middle 0.85 of the apple (THOR's slices lie closer together than the whole
    # apple's length), only their numbering changes.
    assert offsets[0] == max(offsets) and offsets[1] == min(offsets)
    assert offsets == pytest.approx([0.0372, -0.0372, 0.0266, 0.0159, 0.0053, -0.0053, -0.0159, -0.0266], abs=1e-4)
    assert offsets[2:] == sorted(offsets[2:], reverse=True)
    # A count the table does not cover keeps the even spread from the positive end.
    assert slice_offsets("Apple", 0.1, 4) == pytest.approx([0.0425 - (i + 0.5) * 0.02125 for i in range(4)])


def test_clean(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 0.25, 180)
    plate = oid(kitchen, "Plate")
    fails(kitchen, "CleanObject", "already clean", objectId=plate)
    ok(kitchen, "SetStateOfAllObjects", StateChange="CanBeDirty", forceAction=True)
    assert obj(kitchen, plate)["isDirty"] is True
    ok(kitchen, "CleanObject", objectId=plate)
    assert obj(kitchen, plate)["isDirty"] is False
    fails(kitchen, "CleanObject", "not dirtyable", objectId=oid(kitchen, "Potato"))


def test_drop(kitchen: LiteController) -> None:
    """The held object falls straight down from the hand: onto the table below it, else the floor."""
    fails(kitchen, "DropHandObject", "not holding")
    go(kitchen, 0.0, 0.25, 180)  # the hand is over the dining table
    potato = oid(kitchen, "Potato")
    table = oid(kitchen, "DiningTable")
    ok(kitchen, "PickupObject", objectId=potato)
    hand = obj(kitchen, potato)["axisAlignedBoundingBox"]["center"]
    ok(kitchen, "DropHandObject")
    dropped = obj(kitchen, potato)
    assert dropped["isPickedUp"] is False and dropped["parentReceptacles"] == [table]
    assert dropped["axisAlignedBoundingBox"]["cornerPoints"][-1][1] == pytest.approx(0.75, abs=1e-6)
    center = dropped["axisAlignedBoundingBox"]["center"]
    assert (center["x"], center["z"]) == pytest.approx((hand["x"], hand["z"]))
    ok(kitchen, "PickupObject", objectId=potato)
    go(kitchen, -1.5, 0.0, 270)  # nothing below the hand
    ok(kitchen, "DropHandObject")
    dropped = obj(kitchen, potato)
    assert dropped["isPickedUp"] is False and dropped["parentReceptacles"] is None
    assert dropped["axisAlignedBoundingBox"]["cornerPoints"][-1][1] == pytest.approx(0.0, abs=1e-6)


def test_held_object_follows_the_agent(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 0.25, 180)
    potato = oid(kitchen, "Potato")
    ok(kitchen, "PickupObject", objectId=potato)
    before = obj(kitchen, potato)["position"]
    ok(kitchen, "RotateLeft")
    ok(kitchen, "MoveAhead")
    after = obj(kitchen, potato)["position"]
    assert (after["x"], after["z"]) != (before["x"], before["z"])
    assert obj(kitchen, potato)["visible"] is False


def _open_fridge_with_a_shelf(kitchen: LiteController, height: float | None) -> tuple[str, float]:
    """Open the kitchen's fridge and show a shelf by resting its apple there (``height`` above
    the fridge's floor, or 2 cm under the eye when None); (fridge id, shelf height)."""
    go(kitchen, 1.25, 1.0, 90, 0)
    fridge_id = oid(kitchen, "Fridge")
    ok(kitchen, "OpenObject", objectId=fridge_id)
    world = kitchen.world
    fridge = world.by_id[fridge_id]
    floor = world.spot_bottom_y(fridge)
    assert world.support_levels(fridge) == [floor]
    apple = world.by_id[oid(kitchen, "Apple")]
    world.detach(apple)
    shelf = round(floor + height if height is not None else kitchen.camera().position[1] - 0.02, 3)
    world.place_at_spot(apple, fridge, world.slot_points(fridge)[0], shelf)
    world.sight_changed()
    assert world.support_levels(fridge) == [floor, shelf]
    return fridge_id, shelf


def _hold_the_potato(kitchen: LiteController) -> str:
    world = kitchen.world
    potato = oid(kitchen, "Potato")
    world.held = None
    world.detach(world.by_id[potato])
    world.held = potato
    world.sight_changed()
    return potato


def test_put_into_a_fridge_uses_the_shelf_its_contents_show(kitchen: LiteController) -> None:
    # A THOR fridge has shelves; a restored start state shows them by where its contents rest.
    # PutObject may use them: the one the agent sees nearest, not a floor below its view.
    fridge_id, shelf = _open_fridge_with_a_shelf(kitchen, 1.2)
    go(kitchen, 1.0, 1.0, 90, 0)
    potato = _hold_the_potato(kitchen)
    ok(kitchen, "PutObject", objectId=potato, receptacleObjectId=fridge_id)
    assert abs(kitchen.world.by_id[potato].lo[1] - shelf) < 1e-6
    assert obj(kitchen, potato)["parentReceptacles"] == [fridge_id]


def test_put_counts_a_shelf_seen_when_the_objects_foot_is_in_the_frame(kitchen: LiteController) -> None:
    # A top fridge shelf just below the eye, the agent looking down by half its field of view:
    # the frame's top edge is level with the eye, so a potato's middle on that shelf is out of
    # the frame while its foot on the shelf is in it. THOR's spawn points lie on the surface, and
    # ALFRED's demos put things on such shelves; PutObject uses it, not the floor far below.
    fridge_id, shelf = _open_fridge_with_a_shelf(kitchen, None)
    go(kitchen, 1.0, 1.0, 90, kitchen.field_of_view / 2)
    potato = _hold_the_potato(kitchen)
    assert kitchen.world.by_id[potato].size[1] / 2 > 0.02  # its middle is above the eye, out of the frame
    ok(kitchen, "PutObject", objectId=potato, receptacleObjectId=fridge_id)
    assert abs(kitchen.world.by_id[potato].lo[1] - shelf) < 1e-6


def test_put_into_an_empty_fridge_uses_the_shelves_its_room_declares() -> None:
    # An imported room's fridge declares the shelves its demos showed things resting on; an empty
    # fridge offers them too, not only its floor (THOR puts on the nearest shelf in view).
    scene = fixtures.kitchen()
    fridge = next(o for o in scene.objects if o.object_type == "Fridge")
    shelf = round(fridge.box.lo[1] + 1.2, 3)
    declared = replace(fridge, shelves=(shelf,))
    assert SceneObject.from_dict(json.loads(json.dumps(declared.to_dict()))) == declared
    sim = LiteController(replace(scene, objects=[declared if o is fridge else o for o in scene.objects]))
    world = sim.world
    go(sim, 1.25, 1.0, 90, 0)
    ok(sim, "OpenObject", objectId=fridge.object_id)
    assert world.support_levels(world.by_id[fridge.object_id]) == [world.spot_bottom_y(world.by_id[fridge.object_id]),
                                                                    shelf]
    go(sim, 1.0, 1.0, 90, 0)
    potato = _hold_the_potato(sim)
    ok(sim, "PutObject", objectId=potato, receptacleObjectId=fridge.object_id)
    assert abs(world.by_id[potato].lo[1] - shelf) < 1e-6
    assert obj(sim, potato)["visible"]


@pytest.mark.parametrize("imported", [False, True])
def test_an_imported_rooms_microwave_takes_a_put_object_beside_its_panel_on_the_plate(imported: bool) -> None:
    # THOR's microwave cavity stands left of its control panel as the agent faces it; an imported
    # room puts things there, nearest the agent, a generated room keeps its bytes (lite's own rule:
    # the spot nearest the hand, the front edge of the middle).
    scene = fixtures.kitchen()
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA) if imported else scene)
    microwave = sim.world.by_id[oid(sim, "Microwave")]
    go(sim, -1.75, 1.25, 0, 30)  # looking along +z, before the panel: the agent's left is -x
    ok(sim, "OpenObject", objectId=microwave.object_id)
    potato = _hold_the_potato(sim)
    ok(sim, "PutObject", objectId=potato, receptacleObjectId=microwave.object_id)
    put = sim.world.by_id[potato].center
    cavity_end = microwave.lo[0] + put_landing.CAVITY[1] * microwave.size[0]
    assert (sim.world.by_id[potato].hi[0] <= cavity_end + 1e-6) == imported
    assert put[2] < microwave.center[2]  # the front half, nearer the agent
    # ... and on THOR's turntable plate, above the drawn floor, in an imported room only
    rise = sim.world.by_id[potato].lo[1] - sim.world.spot_bottom_y(microwave)
    assert rise == pytest.approx(put_landing.PLATE_RISE if imported else 0.0, abs=1e-6)

