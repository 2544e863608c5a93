"""A loose box's origin height, fitted to what its recorded poses stand on (rest_height)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.importer import _room_walls, complete_for_start_state
from alfred_gen.scenes.alfred.loose import ORIGIN_HEIGHT, loose_box, pickupable_size
from alfred_gen.scenes.alfred.rest_height import origin_height, rested
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject

TABLE = Box((-0.5, 0.0, -0.5), (0.5, 0.665, 0.5))
BOX_TALL = pickupable_size("Box")[1]


def test_a_box_whose_origin_is_at_its_top_rests_on_the_table_under_it() -> None:
    """FloorPlan204's box: its origin 0.28 m over the dining table, at its top; the type's 0.7
    left it floating 0.1 m over the table."""
    on_table = [((0.0, 0.945, 0.0), 0.0), ((0.2, 0.945, 0.1), 90.0)]
    height = origin_height("Box", on_table, [TABLE], 0.0)
    assert height == pytest.approx(BOX_TALL)  # capped at its height: the origin at its top
    default = loose_box("Box", (0.0, 0.945, 0.0), 0.0, 0.0)
    assert default.lo[1] - TABLE.hi[1] > 0.08 and ORIGIN_HEIGHT["Box"] < 1.0
    fitted = rested(default, (0.0, 0.945, 0.0), height, 0.0)
    assert fitted.lo[1] == pytest.approx(0.945 - BOX_TALL) and fitted.size == pytest.approx(default.size)


def test_a_paper_towel_rolls_origin_is_its_middle() -> None:
    # FloorPlan414's roll stands with its origin 0.105 m over the counter top (0.93), half its height;
    # taken for its base, the box floated over the counter, inside the cabinet standing on it.
    box = loose_box("PaperTowelRoll", (-2.53, 1.035, 2.65), 0.0, 0.0)
    assert box.lo[1] == pytest.approx(1.035 - box.size[1] / 2)


def test_poses_on_the_floor_decide_and_poses_over_nothing_known_say_nothing() -> None:
    floor_and_table = [((1.5, 0.11, 0.0), 0.0), ((0.0, 0.80, 0.0), 0.0)]
    assert origin_height("Box", floor_and_table, [TABLE], 0.0) == pytest.approx(0.11)
    assert origin_height("Box", [((0.0, 0.80, 0.0), 0.0)], [TABLE], 0.0) == pytest.approx(0.135)
    too_high = [((0.0, 1.5, 0.0), 0.0)]  # on something the room does not know
    assert origin_height("Box", too_high, [TABLE], 0.0) is None
    assert rested(TABLE, (0.0, 1.5, 0.0), None, 0.0) == TABLE
    assert origin_height("Mug", [((0.0, 0.67, 0.0), 0.0)], [TABLE], 0.0) is None  # one origin height per type


TABLE_ID = "DiningTable|+00.00|+00.00|+00.00"
UPRIGHT = {"x": 0, "y": 0, "z": 0}
BOX_POSE = {"objectName": "Box_1", "position": {"x": -0.2, "y": 0.945, "z": 0.0}, "rotation": UPRIGHT}


def _table_room(number: int) -> Scene:
    """FloorPlan``number`` holding one table (:data:`TABLE`), known from a few layout points."""
    points = [(-1.0, -1.0), (-1.0, -0.75), (-0.75, -1.0)]
    table = SceneObject("DiningTable", (0.0, 0.0, 0.0), TABLE, object_id=TABLE_ID)
    return Scene(f"FloorPlan{number}", number, "living_room", _room_walls([table], points, 0.0), tuple(points),
                 [table], {}, camera=ALFRED_CAMERA, float32_ids=True)


def _start_state(room: Scene, poses: list[dict]) -> dict:
    """A trajectory's ``scene`` block putting the objects of ``poses`` in ``room``."""
    return {"floor_plan": room.name, "object_toggles": [], "dirty_and_empty": False,
            "init_action": {"action": "TeleportFull", "x": -1.0, "y": 0.9, "z": -1.0, "rotation": 90, "horizon": 30},
            "object_poses": poses}


def _posed(room: Scene, poses: list[dict]) -> dict[str, dict]:
    """Object metadata by type after lite restores ``poses`` in ``room`` completed for them."""
    sim = LiteController(complete_for_start_state(room, _start_state(room, poses)), render_image=False)
    sim.step({"action": "SetObjectPoses", "objectPoses": poses})
    return {o["objectType"]: o for o in sim.last_event.metadata["objects"]}


def test_a_statue_posed_in_a_box_on_a_table_lies_in_it() -> None:
    statue = {"objectName": "Statue_1", "position": {"x": -0.05, "y": 0.665, "z": 0.0}, "rotation": UPRIGHT}
    objects = _posed(_table_room(204), [BOX_POSE, statue])
    assert objects["Box"]["parentReceptacles"] == [TABLE_ID]
    assert objects["Statue"]["parentReceptacles"][0] == objects["Box"]["objectId"]


def test_a_mug_standing_beside_a_box_on_the_same_table_is_not_in_it() -> None:
    """With its box on the table, a mug touching its side has its base at the box's base: it stands
    beside the box (FloorPlan313's shelf), while a statue posed inside is in it."""
    room = _table_room(313)
    completed = complete_for_start_state(room, _start_state(room, [BOX_POSE]))
    edge = next(o for o in completed.objects if o.name == "Box_1").box.hi[0]
    mug = {"objectName": "Mug_1", "position": {"x": edge + 0.055, "y": TABLE.hi[1], "z": -0.1}, "rotation": UPRIGHT}
    objects = _posed(room, [BOX_POSE, mug])
    assert objects["Box"]["parentReceptacles"] == [TABLE_ID]
    assert objects["Mug"]["parentReceptacles"] == [TABLE_ID]
