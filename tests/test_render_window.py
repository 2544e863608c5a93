"""Rendering part of a frame (a window) gives exactly that part of the full frame, and the
visibility model, which renders only the window its candidates can reach, decides as before.

Visibility decides which actions succeed, so a pixel of difference would change datasets.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from alfred_gen.sim import fixtures, pixels
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.render import BoxListBuilder, render, screen_window
from alfred_gen.sim.scene import Box


def _room():
    rng = np.random.default_rng(5)
    builder = BoxListBuilder()
    builder.set_room(Box((-4.0, 0.0, -4.0), (4.0, 2.6, 4.0)))
    for k in range(60):
        centre = rng.uniform([-3, 0, -3], [3, 2.4, 3])
        size = rng.uniform(0.02, 1.2, size=3)
        builder.add(centre - size / 2, centre + size / 2, (100, 120, 140), f"Thing|{k}")
    builder.add((-0.3, 1.0, -0.3), (0.3, 1.2, 0.3), (1, 2, 3), "AroundCamera")
    return builder.build()


def test_a_window_is_the_full_frame_cut():
    boxes = _room()
    rng = random.Random(3)
    for rotation in (0, 90, 180, 270):
        for horizon in (-30, 0, 45):
            camera = Camera(0.2, 1.1, -0.4, rotation, horizon, width=120, height=90)
            full = render(camera, boxes, rgb=False)
            for _ in range(4):
                r0 = rng.randrange(0, 89)
                c0 = rng.randrange(0, 119)
                window = (r0, rng.randrange(r0 + 1, 91), c0, rng.randrange(c0 + 1, 121))
                part = render(camera, boxes, rgb=False, window=window)
                rows, cols = slice(window[0], window[1]), slice(window[2], window[3])
                assert part.depth.tobytes() == full.depth[rows, cols].tobytes(), (rotation, horizon, window)
                assert np.array_equal(part.owner, full.owner[rows, cols]), (rotation, horizon, window)


def test_boxes_cover_no_pixel_outside_their_window():
    boxes = _room()
    for rotation in (0, 90, 180, 270):
        camera = Camera(0.2, 1.1, -0.4, rotation, 30, width=120, height=90)
        full = render(camera, boxes, rgb=False)
        for owner in sorted(set(boxes.owner.tolist()))[::5]:  # box owners (the room shell owns others)
            mine = boxes.owner == owner
            window = screen_window(camera, boxes.lo[mine], boxes.hi[mine])
            covered = full.owner == owner
            if window is None:
                assert not covered.any()
                continue
            outside = covered.copy()
            outside[window[0]:window[1], window[2]:window[3]] = False
            assert not outside.any(), (rotation, owner)  # hidden behind others, it may cover none


def test_a_walk_counts_the_same_candidate_pixels_with_and_without_windows(monkeypatch):
    """Over a seeded walk with pickups (the held group is drawn over the scene), every candidate's
    pixel count, and so what is visible, is the same whether the visibility frame is cut or not."""
    counted: list[dict[int, int]] = []
    frame_of = pixels.PixelSight._visibility_frame

    def recording(self, layers, camera, candidate_owners, held):
        owner = frame_of(self, layers, camera, candidate_owners, held)
        counts = np.bincount(owner.ravel() + 1, minlength=len(layers.owners) + 1)[1:] if owner is not None else None
        counted.append({int(k): 0 if counts is None else int(counts[k]) for k in candidate_owners if k >= 0})
        return owner

    monkeypatch.setattr(pixels.PixelSight, "_visibility_frame", recording)

    def walk() -> tuple[list[tuple[bool, ...]], list[dict[int, int]]]:
        counted.clear()
        sim = LiteController(fixtures.kitchen(), render_image=False)  # as vetting: visibility frames only
        rng = random.Random(11)
        seen = []
        for _ in range(150):
            visible, _ = sim.visibility_state()
            seen.append(tuple(visible.tolist()))
            if rng.random() < 0.6:
                sim.step({"action": rng.choice(["MoveAhead", "RotateLeft", "RotateRight", "LookDown", "LookUp"])})
                continue
            ids = [o.object_id for o, v in zip(sim.world.objects, visible.tolist(), strict=True) if v]
            if ids:
                sim.step({"action": rng.choice(["PickupObject", "PutObject", "OpenObject"]),
                          "objectId": rng.choice(ids)})
        return seen, list(counted)

    windowed = walk()
    full_frame = (0, pixels.VISIBILITY_SIZE, 0, pixels.VISIBILITY_SIZE)
    monkeypatch.setattr(pixels, "screen_window", lambda camera, lo, hi: full_frame if len(lo) else None)
    unwindowed = walk()
    assert len(windowed[1]) > 20 and any(any(c.values()) for c in windowed[1])  # the walk does render
    assert unwindowed == windowed


@pytest.mark.parametrize("window", [(0, 10, 0, 10)])
def test_a_window_gives_no_rgb(window):
    with pytest.raises(ValueError):
        render(Camera(0.0, 1.0, 0.0, 0, 0, width=20, height=20), _room(), rgb=True, window=window)


def test_the_held_group_drawn_in_its_window_gives_the_full_frames_pixels(monkeypatch):
    """Frames (RGB with its outlines, depth, owners) while carrying things are the same whether the
    held group is drawn in its padded window or over the whole frame."""

    def walk() -> list[tuple[bytes, bytes, bytes]]:
        sim = LiteController(fixtures.kitchen(), render_image=True, render_depth_image=True,
                             render_object_image=True)
        rng = random.Random(4)
        frames = []
        for _ in range(120):
            event = sim.last_event
            if sim.world.held is not None:
                frames.append((event.frame.tobytes(), event.depth_frame.tobytes(),
                               event.instance_segmentation_frame.tobytes()))
            if rng.random() < 0.6:
                sim.step({"action": rng.choice(["MoveAhead", "RotateLeft", "RotateRight", "LookDown", "LookUp"])})
                continue
            visible = [o["objectId"] for o in event.metadata["objects"] if o["visible"]]
            if visible:
                sim.step({"action": rng.choice(["PickupObject", "PutObject"]), "objectId": rng.choice(visible)})
        return frames

    windowed = walk()
    monkeypatch.setattr(pixels, "outlined_window", lambda camera, boxes: (0, camera.height, 0, camera.width))
    whole = walk()
    assert len(windowed) > 30  # the walk carries something for a good part of it
    assert whole == windowed
