"""A probe's targeted visibility equals the full one for the objects it asks about.

``Event.visible_among(ids)`` draws only the asked objects' boxes (and what is nearer than them) in
their part of the frame; ``metadata`` draws every candidate within reach. For the asked objects
the two must agree, or the drive would choose another pose than before.
"""

from __future__ import annotations

import random

import pytest

from alfred_gen.sim import fixtures
from alfred_gen.sim.event import visible_among_of
from alfred_gen.sim.lite import LiteController

ROOMS = {"kitchen": fixtures.kitchen, "bedroom": fixtures.bedroom, "divided_room": fixtures.divided_room}


@pytest.mark.parametrize("room", sorted(ROOMS))
def test_the_asked_objects_visibility_is_the_full_ones(room: str) -> None:
    # Two controllers step in lockstep: one works visibility out in full, the other answers the
    # targeted question first (its state's full answer not yet drawn).
    full_sim = LiteController(ROOMS[room](), render_image=False)  # as the probes: no frames
    sim = LiteController(ROOMS[room](), render_image=False)
    rng = random.Random(2)
    ids = [o.object_id for o in sim.world.objects]
    checked = seen = targeted = held = 0
    for _ in range(90):
        if rng.random() < 0.75:
            action = {"action": rng.choice(["MoveAhead", "RotateLeft", "RotateRight", "LookDown", "LookUp"])}
        else:
            visible, _ = full_sim.visibility_state()
            shown = [o for o, v in zip(full_sim.world.objects, visible.tolist(), strict=True) if v]
            name = rng.choice(["PickupObject", "PickupObject", "PutObject", "OpenObject"])
            if name == "PickupObject":
                shown = [o for o in shown if o.otype.pickupable]
            if not shown:
                continue
            action = {"action": name, "objectId": rng.choice(shown).object_id}
        full_event = full_sim.step(action)
        full = {o["objectId"] for o in full_event.metadata["objects"] if o["visible"]}
        event = sim.step(action)
        # What is in view and a random pick (most random picks are out of sight).
        asked = set(rng.sample(sorted(full), min(2, len(full)))) | set(rng.sample(ids, rng.randint(1, 2)))
        drawn = sim.pixels.renders["visibility"]
        partial = event.visible_among(asked)
        targeted += sim.pixels.renders["visibility"] - drawn
        assert partial == full & asked
        assert {o["objectId"] for o in event.metadata["objects"] if o["visible"]} == full
        assert event.visible_among(asked) == partial  # read from metadata once it exists
        checked += 1
        seen += len(partial)
        held += bool(full_event.metadata["inventoryObjects"])
    assert checked > 60
    assert seen > 20  # the walk does see what it asks about
    assert targeted > 5  # and the targeted answers were drawn, not read from a full one
    assert held > 5  # some with the held group drawn over the view
    assert visible_among_of(event, asked) == partial
