"""The thor backend without Unity: real ai2thor Events in, lite-shaped Events out; ALFRED's actions
adapted per ai2thor version; a missing build fails fast with one line and BACKEND_UNAVAILABLE.

Events are real ``ai2thor.server.Event`` objects built from a metadata dict and image buffers laid
out as Unity sends them (rows bottom-up), so ai2thor's own decoding is exercised too. The recording
fake controller stands in for ``ai2thor.controller.Controller`` and answers with such Events.
"""

from __future__ import annotations

import copy
import json
import math
import socket
import stat
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ai2thor")

from ai2thor.server import DepthFormat, Event
from hypothesis import given, settings
from hypothesis import strategies as st

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim import fixtures as lite_fixtures
from alfred_gen.sim import render as lite_render
from alfred_gen.sim import thor
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.thor import (
    Refusal,
    ThorBackendError,
    ThorController,
    adapt_action,
    adapt_event,
    check_display,
    find_thor_build,
    masks_from_segmentation,
)
from alfred_gen.sim.thor_versions import THOR_2_1, THOR_5, profile_for_version


def _type_names(values: list[Any]) -> set[str]:
    return {type(v).__name__ for v in values}


def lite_contract() -> dict[str, Any]:
    """The shape of a real lite Event's metadata: the contract the thor adapter must meet."""
    metadata = LiteController(lite_fixtures.kitchen()).step({"action": "Pass"}).metadata
    objects = metadata["objects"]
    return {
        "keys": set(metadata),
        "agent": {k: type(v).__name__ for k, v in metadata["agent"].items()},
        "objects": {k: _type_names([o[k] for o in objects]) for k in objects[0]},
        "head": {k: type(v).__name__ for k, v in metadata.items() if k not in ("objects", "agent", "actionReturn")},
    }


LITE = lite_contract()


# Non-square on purpose: a transposed image would not fit.
H, W = 30, 40


# ---------------------------------------------------------------------------------------------
# Building real ai2thor Events
# ---------------------------------------------------------------------------------------------


def unity_bytes(image: np.ndarray) -> bytes:
    """An image as Unity sends it: rows bottom-up (ai2thor flips them back)."""
    return np.ascontiguousarray(np.flip(image, axis=0)).tobytes()


def thor5_object(object_id: str, **overrides: Any) -> dict[str, Any]:
    """An object as ai2thor 5.x reports it (a subset of its many fields, plus extras lite lacks)."""
    x, y, z = (float(v) for v in object_id.split("|")[1:4])
    obj = {
        "objectId": object_id,
        "objectType": object_id.split("|")[0],
        "name": object_id.split("|")[0] + "_1a2b3c",
        "position": {"x": x, "y": y, "z": z},
        "rotation": {"x": 0.0, "y": 90.0, "z": 0.0},
        "axisAlignedBoundingBox": {
            "cornerPoints": [
                [x + dx, y + dy, z + dz] for dx in (-0.1, 0.1) for dy in (-0.05, 0.05) for dz in (-0.2, 0.2)
            ],
            "center": {"x": x, "y": y, "z": z},
            "size": {"x": 0.2, "y": 0.1, "z": 0.4},
        },
        "pickupable": True,
        "receptacle": False,
        "openable": False,
        "toggleable": False,
        "sliceable": True,
        "cookable": False,
        "dirtyable": False,
        "canFillWithLiquid": False,
        "isOpen": False,
        "openness": 0.0,
        "isToggled": False,
        "isSliced": False,
        "isDirty": False,
        "isCooked": False,
        "temperature": "RoomTemp",
        "isPickedUp": False,
        "parentReceptacles": None,
        "receptacleObjectIds": None,
        "visible": True,
        "distance": 1,
        "mass": 0.2,
        "salientMaterials": ["Food"],
    }
    obj.update(overrides)
    return obj


def base_metadata(objects: list[dict[str, Any]], colors: list[dict[str, Any]], **overrides: Any) -> dict[str, Any]:
    metadata = {
        "screenWidth": W,
        "screenHeight": H,
        "agent": {
            "position": {"x": -1.25, "y": 0.9009997, "z": 0.5},
            "rotation": {"x": 0.0, "y": 270.0, "z": 0.0},
            "cameraHorizon": 30,
            "isStanding": True,
        },
        "objects": objects,
        "inventoryObjects": [],
        "colors": colors,
        "lastAction": "Pass",
        "lastActionSuccess": True,
        "errorMessage": "",
        "errorCode": "",
        "actionReturn": None,
        "sceneName": "FloorPlan12_physics",
        "depthFormat": "Meters",
        "thirdPartyCameras": [],
    }
    metadata.update(overrides)
    return metadata


APPLE = "Apple|-01.50|+00.95|+00.25"
FRIDGE = "Fridge|-02.10|+00.00|+01.07"
MUG = "Mug|+00.30|+00.90|-00.60"  # in the scene, not in view
COLORS = [
    {"name": APPLE, "color": [200, 30, 40]},
    {"name": FRIDGE, "color": [12, 250, 7]},
    {"name": MUG, "color": [90, 90, 255]},
    {"name": "Wall", "color": [128, 128, 128]},  # structure: a colour, not an object id
    {"name": "Apple", "color": [1, 2, 3]},  # class colour, as 5.x also lists
]


def scene_images(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RGB, depth (metres) and instance segmentation of a small fixed view."""
    segmentation = np.zeros((H, W, 3), np.uint8)
    segmentation[:] = (128, 128, 128)  # wall everywhere
    segmentation[5:20, 25:38] = (12, 250, 7)  # fridge, upper right
    segmentation[18:27, 3:11] = (200, 30, 40)  # apple, lower left
    rgb = rng.integers(0, 256, size=(H, W, 3), dtype=np.uint8)
    depth = rng.uniform(0.3, 4.9, size=(H, W)).astype(np.float32)
    return rgb, depth, segmentation


def thor5_event(rng: np.random.Generator, objects: list[dict[str, Any]] | None = None) -> tuple[Event, tuple]:
    """A 5.x Event: RGBA frame (CloudRendering sends 4 channels), float32 metres, RGB ids."""
    rgb, depth, segmentation = scene_images(rng)
    objects = (
        objects
        if objects is not None
        else [
            thor5_object(APPLE, parentReceptacles=[FRIDGE]),
            thor5_object(
                FRIDGE, pickupable=False, receptacle=True, openable=True, isOpen=True, receptacleObjectIds=[APPLE]
            ),
            thor5_object(MUG, visible=False, distance=3.2),
        ]
    )
    event = Event(base_metadata(objects, COLORS))
    rgba = np.concatenate([rgb, np.full((H, W, 1), 255, np.uint8)], axis=2)
    event.add_image(unity_bytes(rgba))
    event.add_image_depth(
        unity_bytes(depth), depth_format=DepthFormat.Meters, camera_near_plane=0.1, camera_far_plane=20.0
    )
    event.add_image_ids(unity_bytes(segmentation))
    return event, (rgb, depth, segmentation)


def thor21_event(rng: np.random.Generator) -> tuple[Event, tuple]:
    """An Event as ai2thor 2.1.0 delivered it: depth in millimetres, 2.x object fields."""
    rgb, depth, segmentation = scene_images(rng)
    apple = thor5_object(APPLE)
    for key in ("axisAlignedBoundingBox", "temperature"):
        apple.pop(key)
    x, y, z = -1.5, 0.95, 0.25
    apple["objectBounds"] = {
        "objectBoundsCorners": [
            {"x": x + dx, "y": y + dy, "z": z + dz} for dx in (-0.1, 0.1) for dy in (-0.05, 0.05) for dz in (-0.2, 0.2)
        ]
    }
    apple["ObjectTemperature"] = "Cold"
    apple["parentReceptacles"] = [FRIDGE]
    event = Event(base_metadata([apple], COLORS, sceneName="FloorPlan12"))
    event.add_image(unity_bytes(rgb))
    event.add_image_depth(
        unity_bytes(depth), depth_format=DepthFormat.Millimeters, camera_near_plane=0.1, camera_far_plane=20.0
    )
    event.add_image_ids(unity_bytes(segmentation))
    return event, (rgb, depth, segmentation)


def assert_lite_shaped(event: thor.ThorEvent) -> None:
    """The lite Event contract: the metadata keys and value types a lite Event has, frames' dtype
    and shape, masks equal to the segmentation colours, tight boxes in lite's convention."""
    md = event.metadata
    assert set(md) == LITE["keys"]
    assert {k: type(v).__name__ for k, v in md.items() if k in LITE["head"]} == LITE["head"]
    assert {k: type(v).__name__ for k, v in md["agent"].items()} == LITE["agent"]
    for vec in (md["agent"]["position"], md["agent"]["rotation"], md["cameraPosition"]):
        assert set(vec) == {"x", "y", "z"} and all(isinstance(v, float) for v in vec.values())
    for obj in md["objects"]:
        assert set(obj) == set(LITE["objects"]), sorted(set(obj) ^ set(LITE["objects"]))
        for name, value in obj.items():
            allowed = LITE["objects"][name] | (
                {"list", "NoneType"} if name.endswith(("Receptacles", "ObjectIds")) else set()
            )
            assert type(value).__name__ in allowed, (obj["objectId"], name, type(value))
        box = obj["axisAlignedBoundingBox"]
        assert len(box["cornerPoints"]) == 8 and set(box) == {"cornerPoints", "center", "size"}
        assert obj["parentReceptacles"] is None or obj["parentReceptacles"]  # None, never []
        assert (obj["receptacleObjectIds"] is not None) == obj["receptacle"]
    for held in md["inventoryObjects"]:
        assert set(held) == {"objectId", "objectType"}
    json.dumps(md)  # plain JSON data, no numpy scalars or wrappers
    if event.frame is not None:
        assert event.frame.dtype == np.uint8 and event.frame.shape == (H, W, 3)
    if event.depth_frame is not None:
        assert event.depth_frame.dtype == np.float32 and event.depth_frame.shape == (H, W)
    if event.instance_segmentation_frame is not None:
        seg = event.instance_segmentation_frame
        assert seg.dtype == np.uint8 and seg.shape == (H, W, 3)
        for object_id, mask in event.instance_masks.items():
            color = event.object_id_to_color[object_id]
            assert mask.dtype == bool and mask.shape == (H, W)
            assert np.array_equal(mask, np.all(seg == np.array(color, np.uint8), axis=2))
            rows, cols = np.nonzero(mask)
            assert event.instance_detections2D[object_id] == [cols.min(), rows.min() + 1, cols.max(), rows.max() + 1]
        assert set(event.instance_detections2D) == set(event.instance_masks)
    assert {v: k for k, v in event.color_to_object_id.items()} == event.object_id_to_color


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


# ---------------------------------------------------------------------------------------------
# Action adaptation (the version table)
# ---------------------------------------------------------------------------------------------

AGENT_AT_30 = {
    "agent": {
        "position": {"x": 0.25, "y": 0.9, "z": -0.5},
        "rotation": {"x": 0.0, "y": 90.0, "z": 0.0},
        "cameraHorizon": 30.0,
    },
    "objects": [],
}


def test_2_1_looks_are_15_degree_teleports_in_place() -> None:
    (down,) = adapt_action(THOR_2_1, {"action": "LookDown", "forceAction": True}, AGENT_AT_30)
    assert down == {"action": "TeleportFull", "x": 0.25, "y": 0.9, "z": -0.5, "rotation": 90.0, "horizon": 45.0}
    (up,) = adapt_action(THOR_2_1, {"action": "LookUp", "forceAction": True}, AGENT_AT_30)
    assert up["horizon"] == 15.0 and up["action"] == "TeleportFull"


@pytest.mark.parametrize("profile", [THOR_2_1, THOR_5], ids=["2.1", "5"])
def test_looks_past_the_horizon_limits_are_refused_without_reaching_thor(profile) -> None:
    at = copy.deepcopy(AGENT_AT_30)
    at["agent"]["cameraHorizon"] = 60.0
    assert isinstance(adapt_action(profile, {"action": "LookDown"}, at), Refusal)
    at["agent"]["cameraHorizon"] = -30.0
    assert isinstance(adapt_action(profile, {"action": "LookUp"}, at), Refusal)
    assert not isinstance(adapt_action(profile, {"action": "LookDown"}, at), Refusal)


def test_2_1_passes_alfred_actions_through_unchanged() -> None:
    put = {
        "action": "PutObject",
        "objectId": "Book|-00.76|+00.67|+03.08",
        "receptacleObjectId": "ArmChair|+01.83|+00.01|+01.61",
        "forceAction": True,
        "placeStationary": True,
    }
    assert adapt_action(THOR_2_1, put, AGENT_AT_30) == [put]
    toggles = {"action": "SetObjectToggles", "objectToggles": [{"isOn": False, "objectType": "DeskLamp"}]}
    assert adapt_action(THOR_2_1, toggles, AGENT_AT_30) == [toggles]


def test_5x_put_object_names_only_the_receptacle() -> None:
    put = {
        "action": "PutObject",
        "objectId": "Book|1|2|3",
        "receptacleObjectId": "ArmChair|4|5|6",
        "forceAction": True,
        "placeStationary": True,
    }
    assert adapt_action(THOR_5, put, AGENT_AT_30) == [
        {"action": "PutObject", "objectId": "ArmChair|4|5|6", "forceAction": True, "placeStationary": True}
    ]


def test_5x_teleport_uses_dicts_and_standing() -> None:
    teleport = {
        "action": "TeleportFull",
        "horizon": 30,
        "rotateOnTeleport": True,
        "rotation": 180,
        "x": 0.25,
        "y": 0.901,
        "z": -0.5,
    }
    assert adapt_action(THOR_5, teleport, AGENT_AT_30) == [
        {
            "action": "TeleportFull",
            "position": {"x": 0.25, "y": 0.901, "z": -0.5},
            "rotation": {"x": 0.0, "y": 180.0, "z": 0.0},
            "horizon": 30,
            "standing": True,
        }
    ]


def test_5x_looks_use_degrees_and_drop_force_action() -> None:
    assert adapt_action(THOR_5, {"action": "LookUp", "forceAction": True}, AGENT_AT_30) == [
        {"action": "LookUp", "degrees": 15.0}
    ]


def test_5x_toggle_drops_alfred_bookkeeping_arguments() -> None:
    toggle = {
        "action": "ToggleObjectOn",
        "objectId": "Faucet|-00.58|+01.05|+05.10",
        "cleanObjectId": "Cloth|-01.80|+00.04|+04.83",
        "coordinateObjectId": ["Cloth", [-7.2, -7.2, 19.3, 19.3, 0.15, 0.15]],
        "coordinateReceptacleObjectId": ["SinkBasin", [-2.3, -2.3, 19.5, 19.5, 3.9, 3.9]],
        "forceVisible": True,
    }
    assert adapt_action(THOR_5, toggle, AGENT_AT_30) == [
        {"action": "ToggleObjectOn", "objectId": "Faucet|-00.58|+01.05|+05.10"}
    ]


def test_5x_open_object_move_magnitude_is_openness() -> None:
    assert adapt_action(
        THOR_5, {"action": "OpenObject", "objectId": "Fridge|1|2|3", "moveMagnitude": 1.0}, AGENT_AT_30
    ) == [{"action": "OpenObject", "objectId": "Fridge|1|2|3", "openness": 1.0}]


def test_5x_scene_state_actions_become_per_type_set_object_states() -> None:
    metadata = {
        **AGENT_AT_30,
        "objects": [
            {"objectType": "Mug", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Bowl", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Mug", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Bed", "dirtyable": True, "canFillWithLiquid": False},
            {"objectType": "Apple", "dirtyable": False, "canFillWithLiquid": False},
        ],
    }
    dirty = adapt_action(
        THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty", "forceAction": True}, metadata
    )
    assert [s["SetObjectStates"] for s in dirty] == [
        {"objectType": t, "stateChange": "dirtyable", "isDirty": True} for t in ("Bed", "Bowl", "Mug")
    ]
    empty = adapt_action(
        THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled", "forceAction": False}, metadata
    )
    assert [s["SetObjectStates"] for s in empty] == [
        {"objectType": t, "stateChange": "canFillWithLiquid", "isFilledWithLiquid": False} for t in ("Bowl", "Mug")
    ]
    assert isinstance(
        adapt_action(THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeUsedUp"}, metadata), Refusal
    )
    toggles = adapt_action(
        THOR_5, {"action": "SetObjectToggles", "objectToggles": [{"isOn": False, "objectType": "DeskLamp"}]}, metadata
    )
    assert toggles == [
        {
            "action": "SetObjectStates",
            "SetObjectStates": {"objectType": "DeskLamp", "stateChange": "toggleable", "isToggled": False},
        }
    ]


def test_5x_initial_random_spawn_arguments() -> None:
    spawn = {
        "action": "InitialRandomSpawn",
        "randomSeed": 7,
        "forceVisible": False,
        "numRepeats": [{"objectType": "Apple", "count": 2}],
        "minFreePerReceptacleType": [
            {"objectType": "Microwave", "count": 100000},
            {"objectType": "Fridge", "count": 100000},
        ],
    }
    assert adapt_action(THOR_5, spawn, AGENT_AT_30) == [
        {
            "action": "InitialRandomSpawn",
            "randomSeed": 7,
            "forceVisible": False,
            "numDuplicatesOfType": [{"objectType": "Apple", "count": 2}],
            "excludedReceptacles": ["Fridge", "Microwave"],
        }
    ]
    # ALFRED passes None when it has no repeats or free slots; 5.x gets no such keys at all.
    bare = adapt_action(
        THOR_5,
        {"action": "InitialRandomSpawn", "randomSeed": 1, "numRepeats": None, "minFreePerReceptacleType": None},
        AGENT_AT_30,
    )
    assert bare == [{"action": "InitialRandomSpawn", "randomSeed": 1}]


def test_version_strings_select_profiles() -> None:
    assert profile_for_version("2.1.0") is THOR_2_1
    assert profile_for_version("5.0.0") is THOR_5
    assert profile_for_version("5.3.1") is THOR_5
    for unsupported in ("2.4.1", "3.3.5", "4.3.0", "6.0.0", "dev"):
        assert profile_for_version(unsupported) is None


# ---------------------------------------------------------------------------------------------
# The controller against a recording fake, replaying released ALFRED trajectories
# ---------------------------------------------------------------------------------------------


class RecordingController:
    """Stands in for ai2thor.controller.Controller: records every call, answers real Events.

    It tracks the agent pose the way THOR would for the actions a replay sends (teleports in
    either version's form, moves, rotations, looks by ``degrees``), so horizons can be checked.
    """

    def __init__(
        self, launch: thor.ThorLaunch, objects: list[dict[str, Any]] | None = None, reject: tuple[str, ...] = ()
    ) -> None:
        self.launch = launch
        self.calls: list[Any] = []
        self.objects = objects or []
        self.reject = reject
        self.scene = "FloorPlan1"
        self.pose = {"x": 0.0, "y": 0.9009997, "z": 0.0, "rotation": 0.0, "horizon": 0.0}
        self.stopped = False
        self.last_event = self._event("Initialize")

    def reset(self, scene: str) -> Event:
        self.calls.append(("reset", scene))
        self.scene = scene
        self.last_event = self._event("Initialize")
        return self.last_event

    def step(self, action: dict[str, Any]) -> Event:
        self.calls.append(copy.deepcopy(action))
        name = action["action"]
        if name in self.reject:
            raise ValueError(f"Invalid action: {name}")
        if name == "TeleportFull":
            position = action.get("position") or {axis: action[axis] for axis in "xyz"}
            rotation = action["rotation"]
            self.pose.update(position)
            self.pose["rotation"] = float(rotation["y"] if isinstance(rotation, dict) else rotation)
            self.pose["horizon"] = float(action["horizon"])
        elif name == "MoveAhead":
            angle = math.radians(self.pose["rotation"])
            self.pose["x"] += round(0.25 * math.sin(angle), 6)
            self.pose["z"] += round(0.25 * math.cos(angle), 6)
        elif name in ("RotateLeft", "RotateRight"):
            self.pose["rotation"] = (self.pose["rotation"] + (90.0 if name == "RotateRight" else -90.0)) % 360
        elif name in ("LookUp", "LookDown"):
            degrees = float(action.get("degrees", 30.0))
            self.pose["horizon"] += degrees if name == "LookDown" else -degrees
        self.last_event = self._event(name)
        return self.last_event

    def stop(self) -> None:
        self.stopped = True

    def _event(self, action_name: str) -> Event:
        metadata = base_metadata(
            self.objects,  # shared: the adapter must copy, never alias (test_thor5_metadata_is_normalised... checks)
            [],
            agent={
                "position": {axis: self.pose[axis] for axis in "xyz"},
                "rotation": {"x": 0.0, "y": self.pose["rotation"], "z": 0.0},
                "cameraHorizon": self.pose["horizon"],
            },
            lastAction=action_name,
            sceneName=self.scene + "_physics",
        )
        return Event(metadata)


def recording_factory(**kwargs: Any):
    made: list[RecordingController] = []

    def factory(launch: thor.ThorLaunch) -> RecordingController:
        controller = RecordingController(launch, **kwargs)
        made.append(controller)
        return controller

    return factory, made


def alfred_restore_actions(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """The scene-setup dicts ALFRED's ThorEnv.restore_scene + init_action sent (ai2thor 2.1.0)."""
    actions = [
        {
            "action": "Initialize",
            "gridSize": 0.25,
            "cameraY": 0.75,
            "renderImage": True,
            "renderDepthImage": True,
            "renderClassImage": True,
            "renderObjectImage": True,
            "visibility_distance": 1.5,
            "makeAgentsVisible": False,
        }
    ]
    if scene["object_toggles"]:
        actions.append({"action": "SetObjectToggles", "objectToggles": scene["object_toggles"]})
    if scene["dirty_and_empty"]:
        actions.append({"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty", "forceAction": True})
        actions.append({"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled", "forceAction": False})
    actions.append({"action": "SetObjectPoses", "objectPoses": scene["object_poses"]})
    actions.append(scene["init_action"])
    return actions


DIRTYABLE = {"Mug", "Bowl", "Cup", "Plate", "Pot", "Pan", "Cloth"}
FILLABLE = {"Mug", "Bowl", "Cup", "Pot", "Kettle", "Bottle", "WineBottle"}


def scene_objects(scene: dict[str, Any]) -> list[dict[str, Any]]:
    """One 5.x-style object per type placed by the trajectory, so state setup has types to name."""
    types = sorted({pose["objectName"].split("_")[0] for pose in scene["object_poses"]})
    return [
        thor5_object(f"{t}|+00.00|+00.00|+00.00", dirtyable=t in DIRTYABLE, canFillWithLiquid=t in FILLABLE)
        for t in types
    ]


def replay(profile_version: str, traj: dict[str, Any]) -> tuple[ThorController, RecordingController]:
    scene = traj["scene"]
    factory, made = recording_factory(objects=scene_objects(scene))
    controller = ThorController(version=profile_version, controller_factory=factory, render_seg=True)
    controller.reset(scene["floor_plan"])
    for action in alfred_restore_actions(scene):
        assert controller.step(action).metadata["lastActionSuccess"], action
    return controller, made[0]


def test_2_1_replay_sends_exactly_alfreds_api_actions(released_trajectory_files: list[Path]) -> None:
    """Every released trajectory: the fake receives the api_action dicts verbatim, except that each
    15-degree look is ALFRED's in-place TeleportFull at the new horizon."""
    looks = 0
    for path in released_trajectory_files:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        controller, fake = replay("2.1.0", traj)
        assert fake.calls[0] == ("reset", scene["floor_plan"])
        # ALFRED's ThorEnv.reset Initialize, in 2.1.0 names.
        assert fake.calls[1] == {
            "action": "Initialize",
            "gridSize": 0.25,
            "cameraY": 0.75,
            "renderImage": True,
            "renderClassImage": False,
            "visibilityDistance": 1.5,
            "makeAgentsVisible": False,
            "renderDepthImage": False,
            "renderObjectImage": True,
        }
        assert fake.calls[2:] == alfred_restore_actions(scene), path
        horizon = float(scene["init_action"]["horizon"])
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            before = dict(fake.pose)
            event = controller.step(api)
            sent = fake.calls[-1]
            if api["action"] in ("LookUp", "LookDown"):
                looks += 1
                horizon += 15.0 if api["action"] == "LookDown" else -15.0
                assert sent == {
                    "action": "TeleportFull",
                    "x": before["x"],
                    "y": before["y"],
                    "z": before["z"],
                    "rotation": round(before["rotation"], 4),
                    "horizon": horizon,
                }, path
            else:
                assert sent == api, path
            assert event.metadata["lastAction"] == api["action"]
            assert event.metadata["agent"]["cameraHorizon"] == horizon
    assert looks > 100  # the sample really exercises looks


def expected_5x(api: dict[str, Any]) -> dict[str, Any]:
    """What ai2thor 5.x must receive for one of ALFRED's released api_actions."""
    name = api["action"]
    if name in ("LookUp", "LookDown"):
        return {"action": name, "degrees": 15.0}
    if name == "PutObject":
        return {
            "action": "PutObject",
            "objectId": api["receptacleObjectId"],
            "forceAction": api["forceAction"],
            "placeStationary": api["placeStationary"],
        }
    if name in ("ToggleObjectOn", "ToggleObjectOff"):
        return {"action": name, "objectId": api["objectId"]}
    return api


def test_5x_replay_sends_the_adapted_dicts(released_trajectory_files: list[Path]) -> None:
    seen: set[str] = set()
    for path in released_trajectory_files:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        controller, fake = replay("5.0.0", traj)
        init = scene["init_action"]
        setup = [
            {
                "action": "Initialize",
                "gridSize": 0.25,
                "renderDepthImage": True,
                "renderSemanticSegmentation": True,
                "renderInstanceSegmentation": True,
                "visibilityDistance": 1.5,
            },
            *[
                {
                    "action": "SetObjectStates",
                    "SetObjectStates": {
                        "objectType": t["objectType"],
                        "stateChange": "toggleable",
                        "isToggled": t["isOn"],
                    },
                }
                for t in scene["object_toggles"]
            ],
        ]
        if scene["dirty_and_empty"]:
            types = [o["objectType"] for o in scene_objects(scene)]
            for flag_types, change, state, value in (
                (DIRTYABLE, "dirtyable", "isDirty", True),
                (FILLABLE, "canFillWithLiquid", "isFilledWithLiquid", False),
            ):
                setup += [
                    {
                        "action": "SetObjectStates",
                        "SetObjectStates": {"objectType": t, "stateChange": change, state: value},
                    }
                    for t in types
                    if t in flag_types
                ] or [{"action": "Pass"}]
        setup += [
            {"action": "SetObjectPoses", "objectPoses": scene["object_poses"]},
            {
                "action": "TeleportFull",
                "position": {"x": init["x"], "y": init["y"], "z": init["z"]},
                "rotation": {"x": 0.0, "y": float(init["rotation"]), "z": 0.0},
                "horizon": init["horizon"],
                "standing": True,
            },
        ]
        # 5.x: Initialize parameters go to the Controller; reset() alone re-sends them.
        assert fake.calls == [("reset", scene["floor_plan"]), *setup], path
        assert fake.launch.init_params["renderInstanceSegmentation"] is True
        assert "cameraY" not in fake.launch.init_params
        assert fake.launch.init_params["fieldOfView"] == 60  # ALFRED's 2.1.0 frames
        horizon = float(init["horizon"])
        for low in traj["plan"]["low_actions"]:
            api = low["api_action"]
            event = controller.step(api)
            assert fake.calls[-1] == expected_5x(api), path
            seen.add(api["action"])
            if api["action"] in ("LookUp", "LookDown"):
                horizon += 15.0 if api["action"] == "LookDown" else -15.0
            assert event.metadata["agent"]["cameraHorizon"] == horizon
    assert {"PutObject", "LookDown", "ToggleObjectOn", "MoveAhead"} <= seen


def test_unknown_actions_fail_without_changing_state() -> None:
    factory, made = recording_factory(objects=[thor5_object(APPLE)], reject=("Fly",))
    controller = ThorController(version="5.0.0", controller_factory=factory)
    before = controller.reset("FloorPlan3")
    failed = controller.step("Fly", speed=3)
    assert failed.metadata["lastActionSuccess"] is False
    assert failed.metadata["errorMessage"] == "Invalid action: Fly"
    assert failed.metadata["lastAction"] == "Fly"
    assert failed.metadata["agent"] == before.metadata["agent"]
    assert failed.metadata["objects"] == before.metadata["objects"]
    assert made[0].calls[-1] == {"action": "Fly", "speed": 3}


def test_a_crashing_build_is_one_line_backend_error() -> None:
    factory, made = recording_factory()

    def crash(action: dict[str, Any]) -> None:
        raise RuntimeError("Unity process has exited - check Player.log\nsecond line")

    controller = ThorController(version="5.0.0", controller_factory=factory)
    controller.reset("FloorPlan3")
    made[0].step = crash
    with pytest.raises(ThorBackendError) as caught:
        controller.step({"action": "MoveAhead"})
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE
    assert "\n" not in str(caught.value) and "Unity process has exited" in str(caught.value)


def test_reset_only_loads_thor_floor_plans_and_backend_info_names_the_backend() -> None:
    factory, made = recording_factory()
    controller = ThorController(
        version="2.1.0", controller_factory=factory, build_path="/opt/thor/thor-201909061227-Linux64"
    )
    with pytest.raises(UserError) as caught:
        controller.reset("kitchen_07")  # a lite procedural scene name
    assert caught.value.code == ExitCode.NOT_FOUND
    assert controller.backend_info() == {
        "backend": "thor",
        "ai2thor_version": "2.1.0",
        "build": "/opt/thor/thor-201909061227-Linux64",
        "platform": "Linux64",
        "adapter": "2.1",
    }
    controller.stop()
    assert made[0].stopped


def test_step_accepts_thor_calling_conventions() -> None:
    factory, made = recording_factory()
    controller = ThorController(version="5.0.0", controller_factory=factory)
    controller.reset("FloorPlan3")
    controller.step(action="MoveAhead", moveMagnitude=0.25)
    controller.step("RotateLeft")
    controller.step({"action": "Pass"})
    assert made[0].calls[-3:] == [
        {"action": "MoveAhead", "moveMagnitude": 0.25},
        {"action": "RotateLeft"},
        {"action": "Pass"},
    ]


# ---------------------------------------------------------------------------------------------
# Fail-fast startup on a machine without a THOR build
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def bare_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No ~/.ai2thor cache, no DISPLAY, no X sockets, and no network: any attempt fails the test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("ALFRED_GEN_THOR_BUILD", raising=False)
    x11 = tmp_path / "x11"
    x11.mkdir()
    monkeypatch.setattr(thor, "X11_SOCKET_DIR", str(x11))

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    return tmp_path


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and text.strip() == text and text
    return text


def test_no_build_fails_fast_with_one_line(bare_machine: Path) -> None:
    with pytest.raises(ThorBackendError) as caught:
        ThorController()
    assert caught.value.code == ExitCode.BACKEND_UNAVAILABLE
    message = one_line(caught.value)
    assert message.startswith("no THOR build found")
    assert "--thor-build PATH" in message and "X display" in message and "CloudRendering" in message


def test_missing_or_non_executable_build_path(bare_machine: Path) -> None:
    with pytest.raises(ThorBackendError, match="no such file"):
        ThorController(build_path=str(bare_machine / "nothing-here"))
    not_executable = bare_machine / "thor-Linux64-abc"
    not_executable.write_text("")
    with pytest.raises(ThorBackendError, match="not an executable"):
        ThorController(build_path=str(not_executable))
    empty_dir = bare_machine / "emptybuild"
    empty_dir.mkdir()
    with pytest.raises(ThorBackendError, match="no THOR executable"):
        ThorController(build_path=str(empty_dir))


def fake_executable(directory: Path, name: str = "thor-Linux64-local") -> Path:
    """A 'build' that exits at once, as a broken or headless-incompatible Unity player would."""
    build_dir = directory / name
    build_dir.mkdir()
    executable = build_dir / name
    executable.write_text("#!/bin/sh\nexit 1\n")
    executable.chmod(executable.stat().st_mode | stat.S_IXUSR)
    return executable


def test_a_build_without_an_x_display_fails_fast(bare_machine: Path) -> None:
    executable = fake_executable(bare_machine)
    with pytest.raises(ThorBackendError) as caught:
        ThorController(build_path=str(executable.parent))  # a build directory works too
    assert one_line(caught.value).startswith("no X display")
    with pytest.raises(ThorBackendError, match="X display :5 is not running"):
        ThorController(build_path=str(executable), x_display=":5")


def test_cached_build_of_the_installed_ai2thor_is_found(bare_machine: Path) -> None:
    from ai2thor.build import COMMIT_ID

    releases = bare_machine / "home" / ".ai2thor" / "releases"
    releases.mkdir(parents=True)
    executable = fake_executable(releases, f"thor-CloudRendering-{COMMIT_ID}")
    assert find_thor_build(None, THOR_5, "CloudRendering") == executable.resolve()
    with pytest.raises(ThorBackendError, match="no THOR build found"):
        find_thor_build(None, THOR_5, "Linux64")  # only the CloudRendering build is installed


def test_platform_checks(bare_machine: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ThorBackendError, match=r"not available with ai2thor 2\.1"):
        check_display(THOR_2_1, "CloudRendering", None)
    monkeypatch.setattr(thor.ctypes.util, "find_library", lambda name: None)
    with pytest.raises(ThorBackendError, match="Vulkan"):
        check_display(THOR_5, "CloudRendering", None)
    (Path(thor.X11_SOCKET_DIR) / "X3").touch()
    assert check_display(THOR_5, "Linux64", ":3.0") == ":3.0"
    assert check_display(THOR_2_1, "Linux64", "3") == "3"
    assert check_display(THOR_5, "Linux64", "remote.host:0") == "remote.host:0"  # cannot check; let X decide


def test_real_ai2thor_controller_on_a_dead_build_gives_up_instead_of_hanging(bare_machine: Path) -> None:
    """ai2thor 5.x itself, pinned to a build that exits at once: its FIFO open() would block
    forever; the watchdog ends it, nothing is downloaded, and the error is one line."""
    executable = fake_executable(bare_machine)
    (Path(thor.X11_SOCKET_DIR) / "X9").touch()
    with pytest.raises(ThorBackendError) as caught:
        ThorController(build_path=str(executable), x_display=":9", startup_timeout=1.0)
    message = one_line(caught.value)
    assert str(executable) in message
    assert not (bare_machine / "home" / ".ai2thor" / "releases").exists() or not any(
        (bare_machine / "home" / ".ai2thor" / "releases").iterdir()
    )


def test_watchdog_reports_errors_and_timeouts_as_one_line() -> None:
    import threading

    release = threading.Event()
    with pytest.raises(ThorBackendError, match=r"did not answer within 0\.2 s"):
        thor._run_with_watchdog(release.wait, 0.2, release.set, "THOR build x")

    def broken() -> None:
        raise OSError("exec format error\nmore")

    with pytest.raises(ThorBackendError) as caught:
        thor._run_with_watchdog(broken, 5.0, lambda: None, "THOR build y")
    assert one_line(caught.value) == "THOR build y failed to start: exec format error"


def test_cli_with_backend_thor_prints_one_line_and_exits_backend_unavailable(
    bare_machine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the real console entry point, with a command built from thor_options."""
    import click

    from alfred_gen import cli as cli_module

    @click.command("thor-probe")
    @cli_module.thor_options
    def probe(**options: Any) -> None:
        if options["backend"] == "thor":
            thor.make_thor_controller(**options)

    cli_module.cli.add_command(probe)
    try:
        with pytest.raises(SystemExit) as exit_info:
            cli_module.main(["thor-probe", "--backend", "thor"])
    finally:
        cli_module.cli.commands.pop("thor-probe", None)
    assert exit_info.value.code == ExitCode.BACKEND_UNAVAILABLE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("alfred-gen: error: no THOR build found"), err
    assert "Traceback" not in err


def test_thor_options_defaults_and_choices() -> None:
    import click
    from click.testing import CliRunner

    from alfred_gen.cli import thor_options

    @click.command()
    @thor_options
    def show(**options: Any) -> None:
        click.echo(json.dumps(options, sort_keys=True))

    runner = CliRunner()
    result = runner.invoke(show, [], env={"ALFRED_GEN_THOR_BUILD": ""})
    assert json.loads(result.output) == {
        "backend": "lite",
        "thor_build": None,
        "thor_platform": None,
        "x_display": None,
    }
    result = runner.invoke(
        show, ["--backend", "thor", "--thor-platform", "CloudRendering", "--x-display", "1", "--thor-build", "/b"]
    )
    assert json.loads(result.output) == {
        "backend": "thor",
        "thor_build": "/b",
        "thor_platform": "CloudRendering",
        "x_display": "1",
    }
    assert runner.invoke(show, ["--thor-platform", "WebGL"]).exit_code == 2


def test_the_command_line_offers_the_backends_and_platforms_the_simulators_have() -> None:
    from alfred_gen import cli
    from alfred_gen.sim.controller import BACKENDS

    assert cli.BACKENDS == BACKENDS and cli.THOR_PLATFORMS == thor.PLATFORMS


def test_unsupported_or_mismatched_ai2thor_versions_are_refused() -> None:
    factory, _ = recording_factory()
    with pytest.raises(ThorBackendError, match=r"ai2thor 3\.3\.5 is not supported"):
        ThorController(version="3.3.5", controller_factory=factory)
    installed = thor.installed_ai2thor_version()
    other = "2.1.0" if installed and installed.startswith("5") else "5.0.0"
    with pytest.raises(ThorBackendError, match="is installed"):
        ThorController(version=other)


def test_without_ai2thor_the_backend_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thor, "installed_ai2thor_version", lambda: None)
    with pytest.raises(ThorBackendError) as caught:
        ThorController()
    assert one_line(caught.value) == "the thor backend needs the ai2thor package: pip install 'alfred-gen[thor]'"


def test_modules_import_without_ai2thor() -> None:
    """The CLI options and the fail-fast checks must not need the optional extra."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['ai2thor'] = None\n"
        "import alfred_gen.sim.thor as t, alfred_gen.sim.thor_adapt, alfred_gen.sim.thor_versions\n"
        "print(sorted(t.PROFILES))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "['2.1', '5']"


def test_the_replay_module_drives_the_thor_backend_with_alfreds_actions(
    released_trajectory_files: list[Path],
) -> None:
    """`alfred-gen replay`'s own code path (restore_scene + execute_low_actions) through the thor
    backend in 2.1.0 mode: the fake receives ALFRED's restore steps and every api_action verbatim
    (looks as ALFRED's in-place teleports), and every step succeeds."""
    from alfred_gen.replay.execute import execute_low_actions
    from alfred_gen.replay.restore import restore_scene

    for path in released_trajectory_files[::20]:
        traj = json.loads(path.read_text())
        scene = traj["scene"]
        factory, made = recording_factory(objects=scene_objects(scene))
        controller = ThorController(version="2.1.0", controller_factory=factory, render_seg=True)
        start = restore_scene(controller, scene)
        fake = made[0]
        assert fake.calls[0] == ("reset", scene["floor_plan"])
        assert fake.calls[-2:] == [
            {"action": "SetObjectPoses", "objectPoses": scene["object_poses"]},
            scene["init_action"],
        ], path
        restored = len(fake.calls)
        execution = execute_low_actions(controller, traj["plan"]["low_actions"], start)
        assert not execution.failures, path
        sent = fake.calls[restored:]
        assert len(sent) == len(traj["plan"]["low_actions"])
        for low, received in zip(traj["plan"]["low_actions"], sent):
            api = low["api_action"]
            if api["action"] in ("LookUp", "LookDown"):
                assert received["action"] == "TeleportFull", path
            else:
                assert received == api, path
