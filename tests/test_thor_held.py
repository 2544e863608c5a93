"""An imported room draws a held pot, pan or plate as large as THOR does (issue 69)."""

from __future__ import annotations

from dataclasses import replace

from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.pixels import HAND_MAX_SPAN
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.thor_held import HELD_SPAN
from tests.helpers.sim_actions import go, oid, ok

ALL_IMAGES = {"render_image": True, "render_depth_image": True, "render_object_image": True}


def _held_box_height(kind: str, imported: bool) -> float:
    """Share of the frame height the box of the held ``kind`` covers, put in the hand in the
    fixture kitchen, imported (ALFRED's camera) or procedural."""
    scene = fixtures.kitchen()
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA) if imported else scene, **ALL_IMAGES)
    world = sim.world
    held = world.by_id[oid(sim, kind)]
    world.detach(held)
    world.held = held.object_id
    world.sight_changed()
    event = go(sim, 0.0, 1.5, 0, 30)
    event = ok(sim, "Pass")
    x1, y1, x2, y2 = event.instance_detections2D[held.object_id]
    height = event.frame.shape[0]
    return max(y2 - y1, x2 - x1) / height


def test_an_imported_room_draws_a_held_plate_large_and_a_procedural_room_small() -> None:
    assert HELD_SPAN["Plate"] > HAND_MAX_SPAN
    # Part of it may fall below the frame: it is at least three times the procedural drawing.
    assert _held_box_height("Plate", imported=True) >= 3 * HAND_MAX_SPAN
    assert _held_box_height("Plate", imported=False) <= HAND_MAX_SPAN * 1.6


def test_a_held_type_thor_size_is_not_known_for_keeps_the_small_drawing() -> None:
    assert "Mug" not in HELD_SPAN
    assert _held_box_height("Mug", imported=True) <= HAND_MAX_SPAN * 1.6
