"""The thor backend's Events: real ai2thor Events in (2.1.0 and 5.x layouts), lite-shaped Events out,
with the same pixels, masks and boxes as lite's renderer gives for the same segmentation."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ai2thor")

from ai2thor.server import Event
from hypothesis import given, settings
from hypothesis import strategies as st

from alfred_gen.sim import render as lite_render
from alfred_gen.sim.thor import (
    adapt_event,
    masks_from_segmentation,
)
from alfred_gen.sim.thor_versions import THOR_2_1, THOR_5
from tests.helpers.thor_events import (
    APPLE,
    COLORS,
    FRIDGE,
    H,
    W,
    assert_lite_shaped,
    base_metadata,
    thor5_event,
    thor5_object,
    thor21_event,
)

# ---------------------------------------------------------------------------------------------
# Event adaptation
# ---------------------------------------------------------------------------------------------


def test_thor5_event_comes_out_lite_shaped_with_the_same_pixels() -> None:
    raw, (rgb, depth, segmentation) = thor5_event(np.random.default_rng(1))
    event = adapt_event(THOR_5, raw)
    assert_lite_shaped(event)
    assert np.array_equal(event.frame, rgb)  # alpha dropped, rows the right way up
    assert np.allclose(event.depth_frame, depth)  # already metres
    assert np.array_equal(event.instance_segmentation_frame, segmentation)
    # Only object ids in view get masks: not the wall or class colours, not the hidden mug.
    assert sorted(event.instance_masks) == sorted([APPLE, FRIDGE])
    # Boxes in lite's (THOR 2.1's, ALFRED's) convention: rows one lower than 5.x reports them.
    assert event.instance_detections2D[APPLE] == [3, 19, 10, 27]
    assert event.instance_detections2D[FRIDGE] == [25, 6, 37, 20]
    for object_id in (APPLE, FRIDGE):
        assert np.array_equal(raw.instance_masks[object_id], event.instance_masks[object_id])
        x1, y1, x2, y2 = raw.instance_detections2D[object_id]
        assert event.instance_detections2D[object_id] == [x1, y1 + 1, x2, y2 + 1]


def test_thor_masks_and_boxes_match_lites_renderer_on_the_same_segmentation() -> None:
    """Identical meaning: lite's own instance_outputs, given the same pixels, agrees field by field."""
    raw, (_, _, segmentation) = thor5_event(np.random.default_rng(4))
    event = adapt_event(THOR_5, raw)
    owners = [c["name"] for c in COLORS]
    colors = np.array([c["color"] for c in COLORS], np.uint8)
    owner = np.full((H, W), -1, np.int64)
    for index, color in enumerate(colors):
        owner[np.all(segmentation == color, axis=2)] = index
    lite = lite_render.instance_outputs(owner, owners, colors)
    assert np.array_equal(lite.instance_segmentation_frame, event.instance_segmentation_frame)
    assert lite.color_to_object_id == event.color_to_object_id
    assert lite.object_id_to_color == event.object_id_to_color
    assert lite.instance_detections2D == event.instance_detections2D
    assert lite.instance_masks.keys() == event.instance_masks.keys()
    for object_id, mask in lite.instance_masks.items():
        assert np.array_equal(mask, event.instance_masks[object_id])


def test_thor5_metadata_is_normalised_to_lite_types_and_names() -> None:
    raw, _ = thor5_event(np.random.default_rng(2))
    md = adapt_event(THOR_5, raw).metadata
    assert md["sceneName"] == "FloorPlan12"  # 5.x loads FloorPlan12_physics
    apple, fridge, mug = md["objects"]
    assert apple["parentReceptacles"] == [FRIDGE] and apple["receptacleObjectIds"] is None
    assert fridge["receptacleObjectIds"] == [APPLE] and fridge["isOpen"] is True
    assert fridge["parentReceptacles"] is None
    assert mug["visible"] is False and mug["distance"] == 3.2
    assert md["fov"] == 90.0 and md["screenWidth"] == W and md["screenHeight"] == H
    assert md["cameraPosition"] == {"x": -1.25, "y": pytest.approx(0.9009997 + 0.75), "z": 0.5}
    assert apple["distance"] == 1.0 and isinstance(apple["distance"], float)
    assert "mass" not in apple and "openness" not in apple  # THOR-only extras stay on event.raw
    assert md["agent"]["cameraHorizon"] == 30.0
    # The adapted metadata is a copy: editing it leaves the backend's Event alone.
    apple["position"]["x"] = 99.0
    apple["axisAlignedBoundingBox"]["cornerPoints"][0][0] = 99.0
    apple["parentReceptacles"].append("X")
    raw_apple = raw.metadata["objects"][0]
    assert raw_apple["position"]["x"] == -1.5 and raw_apple["parentReceptacles"] == [FRIDGE]
    assert event_again_is_unchanged(raw)
    assert raw_apple["axisAlignedBoundingBox"]["cornerPoints"][0][0] == pytest.approx(-1.6)


def event_again_is_unchanged(raw: Event) -> bool:
    return adapt_event(THOR_5, raw).metadata["objects"][0]["position"]["x"] == -1.5


def test_thor21_event_depth_millimetres_become_metres_and_old_fields_are_mapped() -> None:
    raw, (rgb, depth, _segmentation) = thor21_event(np.random.default_rng(3))
    assert raw.depth_frame.max() > 100  # the backend really delivered millimetres
    event = adapt_event(THOR_2_1, raw)
    assert_lite_shaped(event)
    assert np.allclose(event.depth_frame, depth, atol=1e-5)
    assert np.array_equal(event.frame, rgb)
    (apple,) = event.metadata["objects"]
    assert apple["temperature"] == "Cold"  # from 2.x ObjectTemperature
    box = apple["axisAlignedBoundingBox"]  # from 2.x objectBounds corners
    assert box["center"] == pytest.approx({"x": -1.5, "y": 0.95, "z": 0.25})
    assert box["size"] == pytest.approx({"x": 0.2, "y": 0.1, "z": 0.4})
    assert event.metadata["sceneName"] == "FloorPlan12"
    assert apple["parentReceptacles"] == [FRIDGE]
    assert event.metadata["fov"] == 60.0  # 2.1.0's default when the metadata does not say


def test_event_without_render_flags_has_no_frames_and_no_masks() -> None:
    raw = Event(base_metadata([thor5_object(APPLE)], []))
    event = adapt_event(THOR_5, raw)
    assert_lite_shaped(event)
    assert event.frame is None and event.depth_frame is None and event.instance_segmentation_frame is None
    assert event.instance_masks == {} and event.instance_detections2D == {}


def test_reachable_positions_of_2_1_are_the_action_return() -> None:
    points = [{"x": 0.25, "y": 0.9, "z": -1.0}, {"x": 0.5, "y": 0.9, "z": -1.0}]
    raw = Event(base_metadata([], [], lastAction="GetReachablePositions", reachablePositions=points))
    assert adapt_event(THOR_2_1, raw).metadata["actionReturn"] == points


@settings(max_examples=40, deadline=None)
@given(
    labels=st.lists(st.integers(0, 4), min_size=12, max_size=12),
    palette=st.lists(st.tuples(*[st.integers(0, 255)] * 3), min_size=5, max_size=5, unique=True),
)
def test_masks_partition_the_labelled_pixels_and_boxes_bound_them(
    labels: list[int], palette: list[tuple[int, int, int]]
) -> None:
    """Any segmentation: masks are disjoint, cover exactly the object-coloured pixels, boxes are tight."""
    seg = np.array([palette[label] for label in labels], np.uint8).reshape(3, 4, 3)
    names = {palette[i]: (f"Obj{i}|+00.00|+00.00|+0{i}.00" if i < 4 else "Floor") for i in range(5)}
    masks, boxes = masks_from_segmentation(seg, names)
    covered = np.zeros((3, 4), int)
    for object_id, mask in masks.items():
        covered += mask
        rows, cols = np.nonzero(mask)
        assert boxes[object_id] == [cols.min(), rows.min() + 1, cols.max(), rows.max() + 1]
    object_pixels = np.array([label < 4 for label in labels]).reshape(3, 4)
    assert np.array_equal(covered, object_pixels.astype(int))
    assert set(masks) == {names[palette[label]] for label in set(labels) if label < 4}
