"""Visibility is worked out when somebody reads it, and reads the state its step ended in.

lite's events defer the pixels of visibility (``PixelSight.prepare``) until ``metadata`` is read,
so vetting's navigation steps draw nothing. The world mutates in place: an event read many steps
later must still say what was visible when its step ended.
"""

from __future__ import annotations

import random

from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from tests.helpers.sim_actions import random_step


def _walk(read_at_once: bool) -> tuple[list[dict], LiteController]:
    sim = LiteController(fixtures.kitchen(), render_image=False)  # as vetting: no frames
    rng = random.Random(5)
    events, metadata = [], []
    for _ in range(120):
        event = random_step(sim, rng)
        if event is None:
            continue
        events.append(event)
        if read_at_once:
            metadata.append(event.metadata)
    if not read_at_once:
        metadata = [event.metadata for event in events]  # after the world has moved on
    return metadata, sim


def test_an_event_read_late_says_what_was_visible_when_its_step_ended():
    at_once, _ = _walk(True)
    late, _ = _walk(False)
    assert len(at_once) > 80
    assert sum(o["visible"] for m in at_once for o in m["objects"]) > 50  # the walk does see things
    assert any(m["inventoryObjects"] for m in at_once)  # and carries something (the held group is drawn)
    assert late == at_once


def test_steps_whose_visibility_nobody_reads_draw_no_pixels():
    sim = LiteController(fixtures.kitchen(), render_image=False)
    drawn = sim.pixels.renders["visibility"]
    events = [sim.step({"action": action}) for action in ["RotateLeft", "MoveAhead", "RotateRight", "LookDown"] * 3]
    assert all(event.head["lastActionSuccess"] is not None for event in events)
    assert sim.pixels.renders["visibility"] == drawn
    events[-1].metadata  # noqa: B018  # reading metadata works visibility out
    sim.visibility_state()  # the same state: shared with the event, not drawn again
    assert sim.pixels.renders["visibility"] + sim.pixels.renders["skipped"] > drawn
    assert sim.pixels.renders["visibility"] <= drawn + 1


def test_the_objects_states_are_read_without_drawing_visibility():
    # Vetting's effect tracker follows states (temperature, dirt, containment), not sight.
    sim = LiteController(fixtures.kitchen(), render_image=False)
    for _ in range(4):
        visible, _ = sim.visibility_state()
        seen = [o.object_id for o, v in zip(sim.world.objects, visible.tolist(), strict=True)
                if v and o.otype.pickupable]
        if seen:
            break
        sim.step({"action": "RotateLeft"})
    event = sim.step({"action": "PickupObject", "objectId": seen[0]})
    drawn = sim.pixels.renders["visibility"]
    state = event.state_metadata
    assert sim.pixels.renders["visibility"] == drawn
    assert next(o for o in state["objects"] if o["objectId"] == seen[0])["isPickedUp"]
    metadata = event.metadata
    assert [{k: v for k, v in o.items() if k not in ("visible", "distance")} for o in metadata["objects"]] == \
        state["objects"]
    assert {k: v for k, v in metadata.items() if k != "objects"} == {k: v for k, v in state.items() if k != "objects"}
    assert event.state_metadata is metadata  # once worked out, metadata itself
