"""Two cabinets side by side share what lies across them, as THOR's double-door cabinets do.

Released ALFRED demos open one door of a pair and take a plate whose middle lies behind the other
door (FloorPlan7, FloorPlan28); lite's support rule puts such a plate in the cabinet its centre is
in, which stays closed. An object reaching into an open cabinet beside its closed one is not shut in;
whether it is seen is then up to the pixels.
"""

from __future__ import annotations

from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Box, Pose, SceneObject
from tests.helpers.small_rooms import walled_room

LEFT = Box((-0.6, 0.0, 0.9), (0.0, 0.7, 1.4))
RIGHT = Box((0.0, 0.0, 0.9), (0.6, 0.7, 1.4))


def _sim(plate_x: float) -> LiteController:
    """Two floor cabinets side by side facing the agent; a plate on the left one's floor at ``plate_x``."""
    left = SceneObject("Cabinet", (-0.3, 0.35, 0.9), LEFT, rotation=(0.0, 180.0, 0.0))
    right = SceneObject("Cabinet", (0.3, 0.35, 0.9), RIGHT, rotation=(0.0, 180.0, 0.0))
    at = (plate_x, 0.03, 1.15)
    plate = SceneObject("Plate", at, Box.from_center((plate_x, 0.04, 1.15), (0.24, 0.02, 0.24)), name="Plate_1",
                        parent=left.object_id)
    scene = walled_room([left, right, plate], Pose(0.0, 0.5, 0, 60), name="LiteTestDoubleDoor", blocking=[LEFT, RIGHT])
    return LiteController(scene, render_image=False)


def _ids(sim: LiteController) -> dict[str, str]:
    return {o["objectType"] + ("L" if o["position"]["x"] < 0 else "R"): o["objectId"]
            for o in sim.last_event.metadata["objects"]}


def _pick_after_opening(plate_x: float, door: str) -> tuple[bool, str]:
    sim = _sim(plate_x)
    ids = _ids(sim)
    plate = next(i for k, i in ids.items() if k.startswith("Plate"))
    assert sim.step({"action": "OpenObject", "objectId": ids["Cabinet" + door]}).metadata["lastActionSuccess"]
    event = sim.step({"action": "PickupObject", "objectId": plate})
    return bool(event.metadata["lastActionSuccess"]), str(event.metadata["errorMessage"])


def test_a_plate_across_two_cabinets_is_taken_through_the_door_of_either() -> None:
    assert _pick_after_opening(-0.02, "R") == (True, "")
    assert _pick_after_opening(-0.02, "L") == (True, "")


def test_a_plate_wholly_inside_the_closed_cabinet_stays_shut_in_when_the_other_opens() -> None:
    ok, error = _pick_after_opening(-0.3, "R")
    assert not ok and "inside a closed receptacle" in error
