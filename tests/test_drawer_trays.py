"""Open drawers of imported rooms: drawn taller (bedrooms and living rooms also wider) than the box
of the closed drawer, as THOR's masks show; their contents slide out as far; procedural rooms and
other fixtures as before."""

from __future__ import annotations

from dataclasses import replace

import pytest

from alfred_gen.scenes.alfred.drawer_trays import OPEN_TRAYS, open_tray
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import AGENT_Y, Box, SceneObject
from alfred_gen.sim.shapes import content_offset, shape_boxes, shape_parts


def _drawer(kind: str = "Drawer", facing: int = 180) -> Block:
    # 0.5 m across the front, 0.2 m tall, 0.4 m deep; the front faces -z (180) or +x (90).
    if facing == 180:
        lo, hi = [-0.25, 0.5, -0.2], [0.25, 0.7, 0.2]
    else:
        lo, hi = [-0.2, 0.5, -0.25], [0.2, 0.7, 0.25]
    return Block(f"{kind}|+00.00|+00.60|+00.00", kind, (0.0, 0.6, 0.0), lo, hi, False, facing)


def test_an_imported_drawer_gets_its_room_types_tray_in_metres_of_its_own_box(monkeypatch) -> None:
    for floor_plan, room_type in (("FloorPlan415", "bathroom"), ("FloorPlan8", "kitchen"),
                                  ("FloorPlan318", "bedroom"), ("FloorPlan212", "living_room")):
        side, above = OPEN_TRAYS[room_type]
        assert above > 0
        for facing in (180, 90):  # the width is measured across the front, whichever axis that is
            assert open_tray(_drawer(facing=facing), floor_plan) == pytest.approx((side * 0.5, above * 0.2))
    monkeypatch.setitem(OPEN_TRAYS, "kitchen", (0.2, 0.1))
    for facing in (180, 90):
        assert open_tray(_drawer(facing=facing), "FloorPlan8") == pytest.approx((0.1, 0.02))


def test_procedural_rooms_and_other_fixtures_get_no_tray() -> None:
    assert open_tray(_drawer(), "LiteKitchen3") == ()
    assert open_tray(_drawer("Cabinet"), "FloorPlan318") == ()


def test_an_open_tray_is_wider_and_taller_and_slides_out_as_far_as_the_plain_one() -> None:
    box = Box((0.0, 0.5, 0.0), (0.6, 0.7, 0.5))
    plain = shape_boxes("Drawer", box, is_open=True, facing=0)
    bigger = [p for p, _ in shape_parts("Drawer", box, is_open=True, facing=0, open_tray=(0.1, 0.05))]
    assert min(p.lo[0] for p in bigger) == pytest.approx(min(p.lo[0] for p in plain) - 0.1)
    assert max(p.hi[0] for p in bigger) == pytest.approx(max(p.hi[0] for p in plain) + 0.1)
    assert max(p.hi[1] for p in bigger) == pytest.approx(max(p.hi[1] for p in plain) + 0.05)
    assert min(p.lo[1] for p in bigger) == pytest.approx(min(p.lo[1] for p in plain))
    assert max(p.hi[2] for p in bigger) == pytest.approx(max(p.hi[2] for p in plain))  # as far out
    assert content_offset("Drawer", box, is_open=True, facing=0) == pytest.approx((0.0, 0.0, 0.3))
    closed = shape_parts("Drawer", box, is_open=False, facing=0, open_tray=(0.1, 0.05))
    assert closed == shape_parts("Drawer", box, is_open=False, facing=0)  # a closed drawer is its box


def test_the_tray_survives_the_scene_file_and_is_not_written_without_one() -> None:
    obj = SceneObject("Drawer", (0.0, 0.6, 0.0), Box((-0.25, 0.5, -0.2), (0.25, 0.7, 0.2)), open_tray=(0.1, 0.06))
    assert SceneObject.from_dict(obj.to_dict()).open_tray == (0.1, 0.06)
    assert "open_tray" not in replace(obj, open_tray=()).to_dict()


def _drawer_pixels(open_tray: tuple[float, ...]) -> tuple[int, int]:
    """The fixture kitchen's drawer's pixels (closed, then open) from in front of it."""
    scene = fixtures.kitchen()
    scene = replace(scene, objects=[replace(o, open_tray=open_tray) if o.object_type == "Drawer" else o
                                    for o in scene.objects])
    sim = LiteController(scene, render_image=True, render_object_image=True)
    event = sim.step("TeleportFull", x=-1.25, y=AGENT_Y, z=1.5, rotation=0, horizon=45)
    drawer = next(o.object_id for o in sim.world.objects if o.type_name == "Drawer")
    closed = int(event.instance_masks[drawer].sum())
    event = sim.step("OpenObject", objectId=drawer)
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    return closed, int(event.instance_masks[drawer].sum())


def test_lite_draws_an_open_drawer_with_its_tray_bigger_and_a_closed_one_as_before() -> None:
    plain_closed, plain_open = _drawer_pixels(())
    tray_closed, tray_open = _drawer_pixels((0.1, 0.04))
    assert tray_closed == plain_closed
    assert tray_open > plain_open * 1.2
