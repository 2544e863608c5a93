"""lite draws a step's RGB frame when somebody reads it, as it is at the end of that step.

Generation reads the frames of recorded steps only; the probes of a walk, the setup steps of a
restore and the actions executed again after a rewind leave theirs unread, so lite hands events a
function that draws the frame from what it took from the state when the step ended
(``PixelSight.images_later``). The world mutates in place: a frame read many steps later, or
after the metadata, must be the one an eager renderer gives at once.
"""

from __future__ import annotations

import random

import numpy as np

from alfred_gen.sim import fixtures
from alfred_gen.sim.event import Event, head_of
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.pixels import PixelSight
from tests.helpers.sim_actions import random_step


def _eager() -> LiteController:
    """The same controller with a renderer that draws every frame when its step ends."""
    sight = PixelSight()
    return LiteController(fixtures.kitchen(), visibility=sight, renderer=sight.images)


def _walk(sim: LiteController, order: str) -> tuple[list[np.ndarray], list[dict]]:
    """A seeded walk with pickups (the held group is drawn); frames and metadata read ``order``:
    ``frame-first`` or ``metadata-first`` after each step, or ``late`` after the walk."""
    rng = random.Random(11)
    events: list[Event] = []
    frames, metadata = [], []
    for _ in range(90):
        event = random_step(sim, rng)
        if event is None:
            continue
        events.append(event)
        if order == "frame-first":
            frames.append(event.frame)
            metadata.append(event.metadata)
        elif order == "metadata-first":
            metadata.append(event.metadata)
            frames.append(event.frame)
    if order == "late":
        frames = [event.frame for event in events]
        metadata = [event.metadata for event in events]
    return frames, metadata


def test_a_frame_read_late_is_the_frame_of_its_step():
    eager_frames, eager_metadata = _walk(_eager(), "frame-first")
    assert any(m["inventoryObjects"] for m in eager_metadata)  # the walk carries something
    for order in ("frame-first", "metadata-first", "late"):
        frames, metadata = _walk(LiteController(fixtures.kitchen()), order)
        assert metadata == eager_metadata, order
        assert len(frames) == len(eager_frames)
        for lazy, eager in zip(frames, eager_frames, strict=True):
            assert lazy is not None and np.array_equal(lazy, eager), order


def test_a_frame_nobody_reads_is_not_drawn_and_visibility_reuses_one_that_is():
    sim = LiteController(fixtures.kitchen())
    drawn = dict(sim.pixels.renders)
    events = [sim.step({"action": action}) for action in ["RotateLeft", "MoveAhead", "RotateRight", "LookDown"] * 3]
    assert all(head_of(event)["lastActionSuccess"] is not None for event in events)
    assert sim.pixels.renders["full"] == drawn["full"]  # no frame drawn yet
    assert sim.pixels.renders["visibility"] == drawn["visibility"]
    assert events[-1].frame is not None
    assert sim.pixels.renders["full"] == drawn["full"] + 1
    events[-1].metadata  # noqa: B018  # visibility of the same state: the frame's pixels
    assert sim.pixels.renders["visibility"] == drawn["visibility"]
    assert events[-1].frame is events[-1].frame  # drawn once


def test_segmentation_and_custom_renderers_still_draw_at_once():
    sim = LiteController(fixtures.kitchen(), render_object_image=True)
    before = sim.pixels.renders["full"]
    sim.step({"action": "RotateLeft"})
    assert sim.pixels.renders["full"] == before + 1
    calls = []
    custom = LiteController(fixtures.kitchen(), renderer=lambda s: calls.append(1) or {"frame": None})
    custom.step({"action": "RotateLeft"})
    assert calls
