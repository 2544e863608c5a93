"""State changes (heat, cool, clean, slice, carry, lamps) and what the agent can see."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from tests.helpers.sim_actions import fails, go, obj, oid, ok


@pytest.fixture
def kitchen() -> LiteController:
    return LiteController(fixtures.kitchen())


def carry(sim: LiteController, kind: str, pose: tuple) -> str:
    go(sim, *pose)
    object_id = oid(sim, kind)
    ok(sim, "PickupObject", objectId=object_id)
    return object_id


TABLE = (0.0, 0.25, 180)
FRIDGE = (1.25, 1.0, 90, 45)
MICROWAVE = (-2.0, 1.5, 0, 30)  # looking down into it: from level, its inside is out of view
SINK = (-0.5, 1.5, 0, 30)


def test_microwave_heats_and_cooks_what_is_inside(kitchen: LiteController) -> None:
    microwave = oid(kitchen, "Microwave")
    potato = carry(kitchen, "Potato", TABLE)
    go(kitchen, *MICROWAVE)
    ok(kitchen, "OpenObject", objectId=microwave)
    ok(kitchen, "PutObject", objectId=potato, receptacleObjectId=microwave)
    assert obj(kitchen, potato)["temperature"] == "RoomTemp"
    ok(kitchen, "CloseObject", objectId=microwave)
    assert obj(kitchen, potato)["visible"] is False  # shut in
    ok(kitchen, "ToggleObjectOn", objectId=microwave)
    assert obj(kitchen, potato)["temperature"] == "Hot"
    assert obj(kitchen, potato)["isCooked"] is True
    assert kitchen.world.heated == [potato]
    ok(kitchen, "ToggleObjectOff", objectId=microwave)
    ok(kitchen, "OpenObject", objectId=microwave)
    ok(kitchen, "PickupObject", objectId=potato)
    assert obj(kitchen, potato)["temperature"] == "Hot"


def test_running_microwave_heats_what_is_put_in_but_not_cookables_only(kitchen: LiteController) -> None:
    microwave = oid(kitchen, "Microwave")
    go(kitchen, *MICROWAVE)
    ok(kitchen, "OpenObject", objectId=microwave)
    ok(kitchen, "ToggleObjectOn", objectId=microwave)
    apple = oid(kitchen, "Apple")
    go(kitchen, -1.25, 1.5, 0, 30)
    ok(kitchen, "PickupObject", objectId=apple)
    go(kitchen, *MICROWAVE)
    ok(kitchen, "PutObject", objectId=apple, receptacleObjectId=microwave)
    assert obj(kitchen, apple)["temperature"] == "Hot"
    assert obj(kitchen, apple)["isCooked"] is False  # apples are not cookable in THOR 2.1


def test_fridge_cools_when_closed(kitchen: LiteController) -> None:
    fridge = oid(kitchen, "Fridge")
    tomato = carry(kitchen, "Tomato", TABLE)
    go(kitchen, *FRIDGE)
    ok(kitchen, "OpenObject", objectId=fridge)
    ok(kitchen, "PutObject", objectId=tomato, receptacleObjectId=fridge)
    assert obj(kitchen, tomato)["temperature"] == "RoomTemp"
    ok(kitchen, "CloseObject", objectId=fridge)
    for kind in ("Tomato", "Lettuce", "Egg"):
        assert obj(kitchen, oid(kitchen, kind))["temperature"] == "Cold"
    assert tomato in kitchen.world.cooled
    assert obj(kitchen, oid(kitchen, "Potato"))["temperature"] == "RoomTemp"


def test_faucet_cleans_what_lies_in_the_basin_below(kitchen: LiteController) -> None:
    ok(kitchen, "SetStateOfAllObjects", StateChange="CanBeDirty", forceAction=True)
    faucet, basin = oid(kitchen, "Faucet"), oid(kitchen, "SinkBasin")
    plate = carry(kitchen, "Plate", TABLE)
    go(kitchen, *SINK)
    ok(kitchen, "PutObject", objectId=plate, receptacleObjectId=basin)
    assert obj(kitchen, plate)["isDirty"] is True
    ok(kitchen, "ToggleObjectOn", objectId=faucet)
    assert obj(kitchen, plate)["isDirty"] is False
    assert obj(kitchen, oid(kitchen, "Cup"))["isDirty"] is False  # was in the basin too
    assert obj(kitchen, oid(kitchen, "Mug"))["isDirty"] is True  # on the counter beside it
    assert plate in kitchen.world.cleaned
    # With the water running, whatever is put in gets cleaned at once.
    mug = oid(kitchen, "Mug")
    ok(kitchen, "PickupObject", objectId=mug)
    ok(kitchen, "PutObject", objectId=mug, receptacleObjectId=basin)
    assert obj(kitchen, mug)["isDirty"] is False


def test_slices_keep_the_state_of_the_whole(kitchen: LiteController) -> None:
    go(kitchen, *TABLE)
    potato, knife = oid(kitchen, "Potato"), oid(kitchen, "Knife")
    ok(kitchen, "PickupObject", objectId=potato)
    go(kitchen, *MICROWAVE)
    microwave = oid(kitchen, "Microwave")
    ok(kitchen, "OpenObject", objectId=microwave)
    ok(kitchen, "PutObject", objectId=potato, receptacleObjectId=microwave)
    ok(kitchen, "ToggleObjectOn", objectId=microwave)
    ok(kitchen, "ToggleObjectOff", objectId=microwave)
    go(kitchen, *TABLE)
    ok(kitchen, "PickupObject", objectId=knife)
    go(kitchen, *MICROWAVE)
    ok(kitchen, "SliceObject", objectId=potato)
    slices = [o for o in kitchen.last_event.metadata["objects"] if o["objectType"] == "PotatoSliced"]
    assert slices and all(s["temperature"] == "Hot" and s["isCooked"] for s in slices)
    assert all(s["parentReceptacles"] == [microwave, oid(kitchen, "CounterTop")] for s in slices)


def test_egg_cracks_into_one_piece(kitchen: LiteController) -> None:
    knife = carry(kitchen, "Knife", TABLE)
    go(kitchen, *FRIDGE)
    ok(kitchen, "OpenObject", objectId=oid(kitchen, "Fridge"))
    egg = oid(kitchen, "Egg")
    ok(kitchen, "SliceObject", objectId=egg)
    pieces = [o["objectId"] for o in kitchen.last_event.metadata["objects"] if o["objectType"] == "EggCracked"]
    assert pieces == [f"{egg}|EggCracked_1"]
    assert kitchen.last_event.metadata["inventoryObjects"][0]["objectId"] == knife


def test_movable_receptacle_carries_its_contents(kitchen: LiteController) -> None:
    go(kitchen, *TABLE)
    plate, potato, table = oid(kitchen, "Plate"), oid(kitchen, "Potato"), oid(kitchen, "DiningTable")
    counter = oid(kitchen, "CounterTop")
    ok(kitchen, "PickupObject", objectId=potato)
    ok(kitchen, "PutObject", objectId=potato, receptacleObjectId=plate)
    assert obj(kitchen, potato)["parentReceptacles"] == [plate, table]
    assert obj(kitchen, table)["receptacleObjectIds"].count(potato) == 1
    ok(kitchen, "PickupObject", objectId=plate)
    assert obj(kitchen, potato)["parentReceptacles"] == [plate]
    assert obj(kitchen, plate)["receptacleObjectIds"] == [potato]
    assert potato not in obj(kitchen, table)["receptacleObjectIds"]
    start = obj(kitchen, potato)["position"]
    go(kitchen, 0.0, 1.5, 0)
    moved = obj(kitchen, potato)["position"]
    assert moved != start
    ok(kitchen, "PutObject", objectId=plate, receptacleObjectId=counter)
    assert obj(kitchen, potato)["parentReceptacles"] == [plate, counter]
    assert {plate, potato} <= set(obj(kitchen, counter)["receptacleObjectIds"])
    plate_box = obj(kitchen, plate)["axisAlignedBoundingBox"]
    potato_box = obj(kitchen, potato)["axisAlignedBoundingBox"]
    assert abs(plate_box["center"]["x"] - potato_box["center"]["x"]) < plate_box["size"]["x"] / 2
    # The id never follows the object.
    assert potato == "Potato|+00.20|+00.79|-00.60"


def test_lamps_toggle_through_set_object_toggles() -> None:
    sim = LiteController(fixtures.bedroom())
    ok(sim, "SetObjectToggles", objectToggles=[{"objectType": "DeskLamp", "isOn": True}])
    assert obj(sim, oid(sim, "DeskLamp"))["isToggled"] is True
    assert obj(sim, oid(sim, "FloorLamp"))["isToggled"] is False


# --- visibility ----------------------------------------------------------------------------------
def test_closed_receptacles_hide_their_contents(kitchen: LiteController) -> None:
    go(kitchen, *FRIDGE)
    lettuce = oid(kitchen, "Lettuce")
    assert obj(kitchen, lettuce)["visible"] is False
    ok(kitchen, "OpenObject", objectId=oid(kitchen, "Fridge"))
    assert obj(kitchen, lettuce)["visible"] is True
    ok(kitchen, "PickupObject", objectId=lettuce)


def test_walls_occlude() -> None:
    scene = fixtures.divided_room()
    sim = LiteController(scene)
    go(sim, -0.25, -0.5, 90)
    vase, statue = oid(sim, "Vase"), oid(sim, "Statue")
    assert obj(sim, vase)["distance"] < 1.5
    assert obj(sim, vase)["visible"] is False
    fails(sim, "PickupObject", "not visible", objectId=vase)
    open_plan = LiteController(dataclasses.replace(scene, walls=scene.walls[:4]))
    go(open_plan, -0.25, -0.5, 90)
    assert obj(open_plan, vase)["visible"] is True
    go(sim, -0.25, -0.5, 180)
    assert obj(sim, statue)["visible"] is True


def test_reach_is_measured_from_the_agent_axis_to_the_box(kitchen: LiteController) -> None:
    go(kitchen, *FRIDGE)
    fridge = obj(kitchen, oid(kitchen, "Fridge"))
    assert fridge["distance"] == pytest.approx(1.8 - 1.25)  # to the box's face, not the origin
    # A ball on the floor 1.1 m away (1.8 m from the camera) is within reach, as in THOR.
    sim = LiteController(fixtures.bedroom())
    go(sim, -0.5, -0.25, 180, 60)
    ball = oid(sim, "BasketBall")
    assert obj(sim, ball)["distance"] < 1.5
    ok(sim, "PickupObject", objectId=ball)


def test_visible_means_within_the_visibility_distance(kitchen: LiteController) -> None:
    go(kitchen, 0.0, 0.25, 0, 30)
    assert not any(o["visible"] for o in kitchen.last_event.metadata["objects"])
    ok(kitchen, "Initialize", gridSize=0.25, visibilityDistance=3.0)
    seen = {o["objectType"] for o in kitchen.last_event.metadata["objects"] if o["visible"]}
    assert {"CounterTop", "Mug"} <= seen


# --- hooks for the renderer and for pixel visibility ---------------------------------------------
def test_old_events_keep_their_snapshot() -> None:
    actions = [{"action": "TeleportFull", "x": 0.0, "y": 0.9, "z": 0.25, "rotation": 180, "horizon": 30},
               {"action": "PickupObject", "objectId": "Potato|+00.20|+00.79|-00.60"},
               {"action": "MoveAhead"}, {"action": "RotateLeft"}]
    eager = LiteController(fixtures.kitchen())
    seen_at_once = [json.dumps(eager.step(a).metadata, sort_keys=True) for a in actions]
    lazy = LiteController(fixtures.kitchen())
    events = [lazy.step(a) for a in actions]
    assert [json.dumps(e.metadata, sort_keys=True) for e in events] == seen_at_once
    assert len(set(seen_at_once)) == len(actions)


@pytest.mark.parametrize(("yaw", "first_end"), [(0.0, (0, 1)), (90.0, (1, 0)), (180.0, (0, -1)), (270.0, (-1, 0))])
def test_slices_turn_with_the_object(kitchen: LiteController, yaw: float, first_end: tuple[int, int]) -> None:
    # THOR lays slice 1 at the sliced object's own +z end, wherever its yaw turns that end.
    go(kitchen, *TABLE)
    tomato = obj(kitchen, oid(kitchen, "Tomato"))
    poses = [{"objectName": o["name"], "position": o["position"],
              "rotation": dict(o["rotation"], y=yaw) if o is tomato else o["rotation"]}
             for o in kitchen.last_event.metadata["objects"] if o["pickupable"]]
    ok(kitchen, "SetObjectPoses", objectPoses=poses)
    ok(kitchen, "PickupObject", objectId=oid(kitchen, "Knife"))
    ok(kitchen, "SliceObject", objectId=tomato["objectId"])
    slices = {o["objectId"].rsplit("_", 1)[1]: o["axisAlignedBoundingBox"]["center"]
              for o in kitchen.last_event.metadata["objects"] if o["objectType"] == "TomatoSliced"}
    first, last = slices["1"], slices[str(len(slices))]
    dx, dz = first["x"] - last["x"], first["z"] - last["z"]
    assert (round(dx / max(abs(dx), abs(dz))), round(dz / max(abs(dx), abs(dz)))) == first_end

def test_render_boxes_list_what_is_drawn(kitchen: LiteController) -> None:
    go(kitchen, *TABLE)
    tomato = oid(kitchen, "Tomato")
    ok(kitchen, "PickupObject", objectId=oid(kitchen, "Knife"))
    ok(kitchen, "SliceObject", objectId=tomato)
    boxes = kitchen.world.render_boxes()
    walls = [b for b in boxes if b[0] is None]
    assert len(walls) == len(kitchen.scene.walls) and all(b[2] == "Wall" for b in walls)
    listed = {b[0]: b for b in boxes if b[0] is not None}
    assert tomato not in listed and f"{tomato}|TomatoSliced_1" in listed
    assert oid(kitchen, "Knife") in listed  # held objects are drawn too
    fridge = listed[oid(kitchen, "Fridge")]
    assert fridge[2] == "Fridge" and fridge[1][0].lo == pytest.approx((1.8, 0.0, 0.5))
    camera = kitchen.camera()
    assert camera.position[1] == pytest.approx(kitchen.scene.agent_y + 0.75)
    assert (camera.rotation_deg, camera.horizon_deg, camera.fov_deg, camera.width) == (180.0, 30.0, 90.0, 300)


def test_visibility_model_and_renderer_plug_in() -> None:
    def everything(world, camera, max_distance):
        _, _, eligible = world.arrays()
        return eligible.copy(), np.zeros(len(world.objects))

    frames = []

    def renderer(sim):
        frames.append(sim.camera().rotation_deg)
        return {"frame": np.zeros((sim.height, sim.width, 3), np.uint8)}

    sim = LiteController(fixtures.kitchen(), visibility=everything, renderer=renderer)
    assert sim.last_event.frame.shape == (300, 300, 3)
    ok(sim, "PickupObject", objectId=oid(sim, "Apple"))  # across the room, but the model says visible
    assert frames == [0.0, 0.0]
    assert sim.last_event.depth_frame is None
