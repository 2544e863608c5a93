"""A toilet paper roll a start pose rolls a quarter turn about its own z lies on its side
(:mod:`alfred_gen.sim.pose_roll`)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from alfred_gen.domains import catalogue
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.pose_roll import quarter_rolls
from alfred_gen.sim.scene import Box, Scene, SceneObject
from tests.helpers.sim_actions import ok

COUNTER_TOP = 0.9
ROLL_AT = (-1.2, COUNTER_TOP, 2.2)


def _kitchen_with_a_roll() -> Scene:
    kitchen = fixtures.kitchen()
    sx, sy, sz = catalogue.object_type("ToiletPaper").size
    x, y, z = ROLL_AT
    roll = SceneObject("ToiletPaper", ROLL_AT, Box.from_center((x, y + sy / 2, z), (sx, sy, sz)))
    return replace(kitchen, objects=[*kitchen.objects, roll])


def _posed(sim: LiteController, yaw: float, roll: float) -> dict:
    """The roll's metadata after SetObjectPoses puts its origin at ROLL_AT turned by (0, yaw, roll)."""
    objects = sim.last_event.metadata["objects"]
    poses = [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]}
             for o in objects if o["pickupable"] and o["objectType"] != "ToiletPaper"]
    name = next(o["name"] for o in objects if o["objectType"] == "ToiletPaper")
    pose = {"objectName": name, "position": dict(zip("xyz", ROLL_AT)), "rotation": {"x": 0.0, "y": yaw, "z": roll}}
    ok(sim, "SetObjectPoses", objectPoses=[*poses, pose])
    return next(o for o in sim.last_event.metadata["objects"] if o["objectType"] == "ToiletPaper")


def test_quarter_rolls_counts_whole_quarter_turns_only() -> None:
    rolls = (0.0, 90.0, 89.99, 180.0, 270.000183, -90.0, 360.0, 45.0)
    assert [quarter_rolls(r) for r in rolls] == [0, 1, 1, 2, 3, 3, 0, 0]


def test_a_roll_rolled_a_quarter_turn_lies_on_its_side_reaching_from_its_origin() -> None:
    sx, sy, _ = catalogue.object_type("ToiletPaper").size
    sim = LiteController(_kitchen_with_a_roll())
    x, y, z = ROLL_AT
    lying = _posed(sim, 0.0, 90.0)["axisAlignedBoundingBox"]
    # z 90 turns its height to own -x; its axis lies at its origin's height
    assert lying["size"]["x"] == pytest.approx(sy) and lying["size"]["y"] == pytest.approx(sx)
    assert lying["center"]["x"] == pytest.approx(x - sy / 2) and lying["center"]["y"] == pytest.approx(y)
    assert lying["center"]["z"] == pytest.approx(z)
    # z 270 reaches the other way; turned by a yaw of 180, own +x is world -x
    other = _posed(sim, 180.0, 270.0)["axisAlignedBoundingBox"]
    assert other["center"]["x"] == pytest.approx(x - sy / 2) and other["center"]["y"] == pytest.approx(y)
    # posed upright again, it stands on its origin as before
    upright = _posed(sim, 0.0, 0.0)["axisAlignedBoundingBox"]
    assert upright["size"]["y"] == pytest.approx(sy) and upright["center"]["y"] == pytest.approx(y + sy / 2)
    assert upright["center"]["x"] == pytest.approx(x)


def test_other_types_ignore_a_poses_roll() -> None:
    kitchen = fixtures.kitchen()
    sim = LiteController(kitchen)
    mug = next(o for o in sim.last_event.metadata["objects"] if o["objectType"] == "Mug")
    poses = [{"objectName": o["name"], "position": o["position"],
              "rotation": {**o["rotation"], "z": 90.0} if o["name"] == mug["name"] else o["rotation"]}
             for o in sim.last_event.metadata["objects"] if o["pickupable"]]
    ok(sim, "SetObjectPoses", objectPoses=poses)
    after = next(o for o in sim.last_event.metadata["objects"] if o["name"] == mug["name"])
    assert after["axisAlignedBoundingBox"]["size"] == pytest.approx(mug["axisAlignedBoundingBox"]["size"])
