"""Scene-setup actions: Initialize, InitialRandomSpawn, SetObjectPoses, toggles and states; reset."""

from __future__ import annotations

import json

import pytest

from alfred_gen.domains import catalogue
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Box, Scene, SceneObject, format_object_id
from tests.helpers.sim_actions import fails, obj, oid, ok, state


def objects(sim: LiteController) -> list[dict]:
    return sim.last_event.metadata["objects"]


def pickupables(sim: LiteController) -> list[dict]:
    return [o for o in objects(sim) if o["pickupable"]]


def poses_of(sim: LiteController) -> list[dict]:
    """ALFRED's object_poses record of the current state."""
    return [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]} for o in pickupables(sim)]


def kitchen_mug_and_counter() -> tuple[Scene, SceneObject, SceneObject]:
    """The test kitchen with its mug and the counter it stands on (the lean-in tests add a utensil)."""
    kitchen = fixtures.kitchen()
    mug = next(o for o in kitchen.objects if o.object_type == "Mug")
    counter = next(o for o in kitchen.objects if o.object_type == "CounterTop")
    return kitchen, mug, counter


def parents_after_posing(kitchen: Scene, thing: SceneObject, position: tuple[float, float, float],
                         yaw: float = 0.0) -> list[str]:
    """Where `thing` starts when SetObjectPoses puts its origin at `position`, turned by `yaw`."""
    sim = LiteController(kitchen)
    poses = [p for p in poses_of(sim) if p["objectName"] != thing.name]
    at = dict(zip("xyz", position))
    ok(sim, "SetObjectPoses", objectPoses=[*poses, {"objectName": thing.name, "position": at,
                                                   "rotation": {"x": 0.0, "y": yaw, "z": 0.0}}])
    return next(o["parentReceptacles"] for o in pickupables(sim) if o["objectType"] == thing.object_type) or []


def test_initialize_accepts_alfreds_arguments_and_applies_them() -> None:
    sim = LiteController(fixtures.kitchen())
    ok(sim, {"action": "Initialize", "gridSize": 0.25, "cameraY": 0.675, "renderImage": True,
             "renderDepthImage": False, "renderClassImage": False, "renderObjectImage": True,
             "visibility_distance": 1.5, "makeAgentsVisible": False})
    assert sim.last_event.metadata["cameraPosition"]["y"] == pytest.approx(sim.scene.agent_y + 0.675)
    assert sim.render_object_image is True
    fails(sim, "Initialize", "gridSize", gridSize=0.5)
    fails(sim, "Initialize", "visibilityDistance", visibilityDistance=0)
    fails(sim, "Initialize", "argument", fancyShadows=True)


def test_random_spawn_is_seeded_and_follows_the_catalogue() -> None:
    def spawn(seed: int) -> str:
        sim = LiteController(fixtures.kitchen())
        ok(sim, "InitialRandomSpawn", randomSeed=seed, forceVisible=True, numPlacementAttempts=5, placeStationary=True)
        return state(sim)

    assert spawn(3) == spawn(3)
    assert spawn(3) != spawn(4)
    sim = LiteController(fixtures.kitchen())
    ok(sim, "InitialRandomSpawn", randomSeed=3)
    by_id = {o["objectId"]: o for o in objects(sim)}
    for o in pickupables(sim):
        parent = by_id[o["parentReceptacles"][0]]
        assert catalogue.can_place(o["objectType"], parent["objectType"]), (o["objectId"], parent["objectId"])
        p = o["position"]
        assert o["objectId"] == format_object_id(o["objectType"], (p["x"], p["y"], p["z"]))  # id = spawn spot
    for r in objects(sim):
        if r["receptacle"]:
            direct = [i for i in r["receptacleObjectIds"] if by_id[i]["parentReceptacles"][0] == r["objectId"]]
            assert len(direct) <= catalogue.object_type(r["objectType"]).capacity


def test_random_spawn_options() -> None:
    sim = LiteController(fixtures.kitchen())
    ok(sim, "InitialRandomSpawn", randomSeed=1, excludedReceptacles=["CounterTop", "DiningTable"],
       numDuplicatesOfType=[{"objectType": "Apple", "count": 3}], minFreePerReceptacleType=1)
    by_id = {o["objectId"]: o for o in objects(sim)}
    apples = [o for o in objects(sim) if o["objectType"] == "Apple"]
    assert len(apples) == 3 and len({a["objectId"] for a in apples}) == 3
    assert len({a["name"] for a in apples}) == 1
    for o in pickupables(sim):
        assert by_id[o["parentReceptacles"][0]]["objectType"] not in ("CounterTop", "DiningTable")
    fails(sim, "InitialRandomSpawn", "integer", randomSeed="seven")
    fails(sim, "InitialRandomSpawn", "argument", randomSeed=1, shuffle=True)
    fails(sim, "InitialRandomSpawn", "duplicate", numDuplicatesOfType=[{"objectType": "Television", "count": 2}])


def test_set_object_poses_restores_a_spawned_scene() -> None:
    spawned = LiteController(fixtures.kitchen())
    ok(spawned, "InitialRandomSpawn", randomSeed=11)
    recorded = poses_of(spawned)
    restored = LiteController(fixtures.kitchen())
    ok(restored, "SetObjectPoses", objectPoses=json.loads(json.dumps(recorded)))

    def layout(sim: LiteController) -> list:
        return sorted((o["objectId"], o["name"], o["parentReceptacles"]) for o in pickupables(sim))

    assert layout(restored) == layout(spawned)


def test_set_object_poses_duplicates_and_removes() -> None:
    sim = LiteController(fixtures.kitchen())
    apple = obj(sim, oid(sim, "Apple"))
    poses = [p for p in poses_of(sim) if not p["objectName"].startswith("Bread")]
    twin = dict(poses[[p["objectName"] for p in poses].index(apple["name"])])
    twin["position"] = {"x": 0.8, "y": twin["position"]["y"], "z": 2.1}
    ok(sim, "SetObjectPoses", objectPoses=poses + [twin])
    kinds = [o["objectType"] for o in objects(sim)]
    assert "Bread" not in kinds
    assert kinds.count("Apple") == 2
    new = [o for o in objects(sim) if o["objectType"] == "Apple" and o["objectId"] != apple["objectId"]][0]
    assert new["objectId"] == format_object_id("Apple", (0.8, twin["position"]["y"], 2.1))
    assert new["parentReceptacles"] == [oid(sim, "CounterTop")]
    fails(
        sim,
        "SetObjectPoses",
        "no object named",
        objectPoses=[{"objectName": "Unicorn_1", "position": {"x": 0, "y": 0, "z": 0}}],
    )
    fails(sim, "SetObjectPoses", "position", objectPoses=[{"objectName": apple["name"], "position": [0, 0, 0]}])
    fails(sim, "SetObjectPoses", "list", objectPoses="all")


def test_set_object_poses_makes_no_duplicate_for_a_pose_repeated_exactly() -> None:
    """ALFRED lists FloorPlan22's potato up to 4 times at one pose, and THOR's masks show no copy
    staying there, so lite keeps one object at it, with the pose's own id; the same name at the
    same place turned another way is still a second object."""
    sim = LiteController(fixtures.kitchen())
    apple = obj(sim, oid(sim, "Apple"))
    poses = poses_of(sim)
    pose = poses[[p["objectName"] for p in poses].index(apple["name"])]
    ok(sim, "SetObjectPoses", objectPoses=poses + [dict(pose), dict(pose)])
    apples = [o for o in objects(sim) if o["objectType"] == "Apple"]
    assert [o["objectId"] for o in apples] == [apple["objectId"]]
    turned = dict(pose, rotation={"x": 0.0, "y": 90.0, "z": 0.0})
    ok(sim, "SetObjectPoses", objectPoses=poses + [turned])
    assert sum(o["objectType"] == "Apple" for o in objects(sim)) == 2


def test_set_object_toggles_and_states() -> None:
    sim = LiteController(fixtures.kitchen())
    ok(sim, "SetObjectToggles", objectToggles=[{"objectType": "Faucet", "isOn": True}])
    assert obj(sim, oid(sim, "Faucet"))["isToggled"] is True
    fails(sim, "SetObjectToggles", "toggleable", objectToggles=[{"objectType": "Apple", "isOn": True}])
    fails(sim, "SetObjectToggles", "objectType", objectToggles=[{"type": "Faucet"}])
    ok(sim, "SetStateOfAllObjects", StateChange="CanBeDirty", forceAction=True)
    dirty = {o["objectType"] for o in objects(sim) if o["isDirty"]}
    assert dirty == {t for t in ("Bowl", "Cup", "Mug", "Pan", "Plate") if t in dirty} and "Plate" in dirty
    ok(sim, "SetStateOfAllObjects", StateChange="CanBeFilled", forceAction=True)
    assert obj(sim, oid(sim, "Cup"))["isFilledWithLiquid"] is True
    ok(sim, "SetStateOfAllObjects", StateChange="CanBeFilled", forceAction=False)
    assert not any(o["isFilledWithLiquid"] for o in objects(sim))
    fails(sim, "SetStateOfAllObjects", "StateChange", StateChange="CanFly")


def test_reset_by_name_and_back_to_the_initial_state() -> None:
    sim = LiteController("LiteFixtureKitchen", scene_lookup=fixtures.fixture_scene)
    initial = json.dumps(sim.last_event.metadata, sort_keys=True)
    ok(sim, "InitialRandomSpawn", randomSeed=2)
    ok(sim, "MoveAhead")
    assert sim.reset("LiteFixtureKitchen").metadata["sceneName"] == "LiteFixtureKitchen"
    assert json.dumps(sim.last_event.metadata, sort_keys=True) == initial
    with pytest.raises(KeyError):
        sim.reset("NoSuchScene")
    sim.reset(fixtures.bedroom())
    assert sim.scene.name == "LiteFixtureBedroom"
    sim.stop()
    with pytest.raises(RuntimeError):
        sim.step("Pass")


def test_make_controller_backends() -> None:
    from alfred_gen.errors import ExitCode, UserError
    from alfred_gen.sim.controller import make_controller

    sim = make_controller("lite", scene=fixtures.bedroom(), visibility_distance=2.0)
    assert isinstance(sim, LiteController) and sim.visibility_distance == 2.0
    with pytest.raises(UserError) as error:
        make_controller("unity")
    assert error.value.code == ExitCode.USAGE


def test_set_object_poses_leaves_furniture_out_of_its_own_drawers() -> None:
    """A dresser's middle lies inside one of its own drawers; posed, it stays on the floor (it had
    been put in the drawer, hidden while the drawer was shut and slid out with it when opened)."""
    from alfred_gen.scenes.library import SceneLibrary

    sim = LiteController(scene_lookup=SceneLibrary())
    sim.reset("LitePlan208")
    before = {o["objectId"]: o["parentReceptacles"] for o in objects(sim) if o["moveable"] and not o["pickupable"]}
    assert any(k.startswith("Dresser|") for k in before)
    poses = [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]}
             for o in objects(sim) if o["pickupable"] or o["moveable"]]
    ok(sim, "SetObjectPoses", objectPoses=json.loads(json.dumps(poses)))
    after = {o["objectId"]: o["parentReceptacles"] or [] for o in objects(sim) if o["moveable"] and not o["pickupable"]}
    assert after.keys() == before.keys()
    assert not [(k, p) for k, parents in after.items() for p in parents if p.split("|")[0] in ("Drawer", "Cabinet")]
    dresser = next(k for k in after if k.startswith("Dresser|"))
    assert after[dresser] == (before[dresser] or [])


def test_a_spoon_whose_origin_lies_in_a_mug_starts_in_the_mug() -> None:
    """A spoon leaning in a mug has its origin in the mug and the middle of its long box outside:
    THOR counted it in the mug (ALFRED's FloorPlan28 Spoon-Mug-DiningTable task never picks the spoon
    up). A spoon beside the mug, origin outside, stays on the counter."""
    kitchen, mug, counter = kitchen_mug_and_counter()
    half = (mug.box.hi[0] - mug.box.lo[0]) / 2
    mx, _, mz = mug.box.center
    bottom = mug.box.lo[1] + 0.01
    length, thick, width = 0.16, 0.02, 0.04
    origin = (mx + half / 2, bottom + thick / 2, mz)
    middle = (origin[0] + length / 2 - 0.01, origin[1], mz)  # the bowl at the origin, the handle out
    assert middle[0] - mx > half  # the box's middle alone would not put it in the mug
    spoon = SceneObject("Spoon", origin, Box.from_center(middle, (length, thick, width)), parent=counter.object_id)
    kitchen.objects.append(spoon)

    assert parents_after_posing(kitchen, spoon, origin)[:1] == [mug.object_id]
    assert mug.object_id not in parents_after_posing(kitchen, spoon, (mx + half + 0.03, origin[1], origin[2]))


def test_a_fork_lying_across_a_mugs_rim_starts_in_the_mug() -> None:
    """THOR counts an object in a movable receptacle when it touches the receptacle's volume: a fork
    whose tines reach over a mug's rim, origin and middle both outside the mug's footprint, was in
    the mug (9 held-out train demos carry such a mug, cup or plate to their goal without touching
    what it holds). A fork whose box stops short of the mug stays on the counter."""
    kitchen, mug, counter = kitchen_mug_and_counter()
    half = (mug.box.hi[0] - mug.box.lo[0]) / 2
    mx, _, mz = mug.box.center
    bottom = mug.box.lo[1]
    length, thick, width = 0.2, 0.02, 0.03
    fork = SceneObject("Fork", (mx + half + 0.02, bottom, mz),
                       Box.from_center((mx + half + 0.02, bottom + thick / 2, mz), (length, thick, width)),
                       parent=counter.object_id)
    kitchen.objects.append(fork)

    across_the_rim = mx + half + length / 2 - 0.03  # the box reaches 3 cm over the rim
    assert across_the_rim - half > mx
    assert parents_after_posing(kitchen, fork, (across_the_rim, bottom, mz))[:1] == [mug.object_id]
    assert mug.object_id not in parents_after_posing(kitchen, fork, (mx + half + length / 2 + 0.02, bottom, mz))


def test_a_fork_lying_diagonally_across_a_mugs_rim_starts_in_it() -> None:
    """Boxes turn in whole quarters: a fork at 30 degrees keeps a box square to the axes, which can
    miss the mug or cup its turned body lies across (ALFRED's FloorPlan6 fork at 225 degrees over a cup, the
    FloorPlan28 spoon at 334 degrees). Its footprint is turned back before the contact is judged;
    the same fork at 0 degrees, lying straight past the mug, stays on the counter."""
    import math

    kitchen, mug, counter = kitchen_mug_and_counter()
    half_x = (mug.box.hi[0] - mug.box.lo[0]) / 2
    mx, _, mz = mug.box.center
    bottom = mug.box.lo[1]
    along = 2 * (half_x + 0.02)  # how far along the turned fork the mug's middle lies
    heading = (math.sin(math.radians(30)), math.cos(math.radians(30)))
    origin = (mx - along * heading[0], bottom, mz - along * heading[1])
    length, thick, width = 0.2, 0.02, 0.03
    fork = SceneObject("Fork", origin, Box.from_center((origin[0], bottom + thick / 2, origin[2] + length / 2),
                                                       (width, thick, length)), parent=counter.object_id)
    kitchen.objects.append(fork)

    assert parents_after_posing(kitchen, fork, origin, yaw=30.0)[:1] == [mug.object_id]
    assert mug.object_id not in parents_after_posing(kitchen, fork, origin, yaw=0.0)
