"""A thin loose thing posed floating over a sofa's seat settles onto it at SetObjectPoses (THOR's
physics drops it); one posed just over the seat, or far above it, and a pillow, stay where posed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import SceneObject, format_object_id
from alfred_gen.sim.seat_settle import SETTLE_MAX, SETTLE_MIN
from tests.helpers.sim_actions import ok

SEAT_TOP = 0.44


def _posed(gap: float, kind: str = "CellPhone") -> tuple[dict, tuple[float, float, float]]:
    """The metadata of the bedroom's ``kind`` after SetObjectPoses puts its bottom ``gap`` over a
    sofa's seat, and the position it was posed at."""
    room = fixtures.bedroom()
    sofa_box = fixtures.box(-0.2, 1.2, 0.0, SEAT_TOP, -1.9, -1.3)
    sofa = SceneObject("Sofa", (0.5, 0.0, -1.6), sofa_box)
    sim = LiteController(replace(room, objects=[*room.objects, sofa]))
    objects = sim.last_event.metadata["objects"]
    phone = next(o for o in objects if o["objectType"] == kind)
    height = next(o for o in sim.world.objects if o.type_name == kind).size[1]
    poses = [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]}
             for o in objects if o["pickupable"] and o is not phone]
    position = (0.5, SEAT_TOP + gap + height / 2, -1.6)
    pose = {"objectName": phone["name"], "position": dict(zip("xyz", position)),
            "rotation": {"x": 0.0, "y": 0.0, "z": 0.0}}
    ok(sim, "SetObjectPoses", objectPoses=[*poses, pose])
    return next(o for o in sim.last_event.metadata["objects"] if o["name"] == phone["name"]), position


def test_a_phone_floating_over_a_sofa_seat_settles_on_it_keeping_its_pose_id() -> None:
    gap = (SETTLE_MIN + SETTLE_MAX) / 2
    phone, position = _posed(gap)
    box = phone["axisAlignedBoundingBox"]
    assert phone["parentReceptacles"] and phone["parentReceptacles"][0].startswith("Sofa|")
    assert box["center"]["y"] - box["size"]["y"] / 2 == pytest.approx(SEAT_TOP)
    # THOR gives ids at the pose: the id still names the height it was posed at
    assert phone["objectId"] == format_object_id("CellPhone", position)


@pytest.mark.parametrize("gap", [SETTLE_MIN - 0.05, SETTLE_MAX + 0.1])
def test_a_phone_just_over_a_seat_or_far_above_it_stays_where_it_is_posed(gap: float) -> None:
    phone, _ = _posed(gap)
    assert not phone["parentReceptacles"]


def test_a_pillow_as_high_over_a_seat_stays_where_it_is_posed() -> None:
    pillow, _ = _posed((SETTLE_MIN + SETTLE_MAX) / 2, "Pillow")
    assert not pillow["parentReceptacles"]
