"""Real ``ai2thor.server.Event`` objects without Unity, and a recording stand-in for ai2thor's
controller: what the thor backend's tests feed it.

Events are built from a metadata dict and image buffers laid out as Unity sends them (rows
bottom-up), so ai2thor's own decoding is exercised too. :class:`RecordingController` stands in for
``ai2thor.controller.Controller``: it records every call and answers with such Events.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import numpy as np
from ai2thor.server import DepthFormat, Event

from alfred_gen.sim import fixtures as lite_fixtures
from alfred_gen.sim import thor
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.thor import ThorController


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


