"""Speaking to and listening to AI2-THOR: ALFRED's actions in, lite-shaped Events out.

Pure data work with no ai2thor import, so it is testable and usable without Unity:

* :func:`adapt_action` applies the version table in :mod:`alfred_gen.sim.thor_versions` to one
  action in ALFRED's dialect (the released ``api_action`` dicts plus 15-degree looks), giving the
  dicts to send to that ai2thor line, or a :class:`Refusal` lite would also give.
* :func:`adapt_event` turns whatever ai2thor returned (an ``ai2thor.server.Event`` of any supported
  version, or a fake) into a :class:`ThorEvent` with exactly lite's metadata fields and types, RGB
  uint8, depth float32 metres, and masks/boxes recomputed from the instance-segmentation frame so
  they agree with it by construction.

Citations in brackets ([alfred-env], [thor5-docs], ...) refer to the sources listed in
:mod:`alfred_gen.sim.thor_versions`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.sim.scene import CAMERA_Y_OFFSET  # used only when a backend reports no cameraPosition
from alfred_gen.sim.thor_versions import ALFRED_LOOK_DEGREES, HORIZON_RANGE, VersionProfile

#: Boolean object fields of lite's metadata (alfred_gen.sim.world.object_metadata), in THOR's names.
OBJECT_BOOL_FIELDS = (
    "pickupable",
    "receptacle",
    "openable",
    "toggleable",
    "sliceable",
    "cookable",
    "dirtyable",
    "canFillWithLiquid",
    "isOpen",
    "isToggled",
    "isSliced",
    "isDirty",
    "isCooked",
    "isPickedUp",
    "visible",
    "moveable",
    "isFilledWithLiquid",
    "breakable",
    "isBroken",
)


# --------------------------------------------------------------------------------------------
# Event normalisation
# --------------------------------------------------------------------------------------------


class ThorEvent:
    """A backend Event in the lite shape (DESIGN.md "The simulator interface").

    ``raw`` keeps the backend's own Event for callers who want THOR-only extras.
    """

    __slots__ = (
        "color_to_object_id",
        "depth_frame",
        "frame",
        "instance_detections2D",
        "instance_masks",
        "instance_segmentation_frame",
        "metadata",
        "object_id_to_color",
        "raw",
    )

    def __init__(
        self,
        metadata: dict[str, Any],
        frame: np.ndarray | None = None,
        depth_frame: np.ndarray | None = None,
        instance_segmentation_frame: np.ndarray | None = None,
        instance_masks: dict[str, np.ndarray] | None = None,
        color_to_object_id: dict[tuple[int, int, int], str] | None = None,
        object_id_to_color: dict[str, tuple[int, int, int]] | None = None,
        instance_detections2D: dict[str, list[int]] | None = None,
        raw: Any = None,
    ) -> None:
        self.metadata = metadata
        self.frame = frame
        self.depth_frame = depth_frame
        self.instance_segmentation_frame = instance_segmentation_frame
        self.instance_masks = instance_masks if instance_masks is not None else {}
        self.color_to_object_id = color_to_object_id if color_to_object_id is not None else {}
        self.object_id_to_color = object_id_to_color if object_id_to_color is not None else {}
        self.instance_detections2D = instance_detections2D if instance_detections2D is not None else {}
        self.raw = raw

    def __bool__(self) -> bool:
        return bool(self.metadata.get("lastActionSuccess"))

    def __repr__(self) -> str:
        return (
            f"<ThorEvent {self.metadata.get('lastAction')!s} "
            f"success={self.metadata.get('lastActionSuccess')!s}>"
        )


def _vec3(value: Any) -> dict[str, float]:
    """A THOR {x, y, z} dict of floats from a dict, a sequence, or nothing (zeros)."""
    if isinstance(value, dict):
        return {"x": float(value.get("x") or 0.0), "y": float(value.get("y") or 0.0), "z": float(value.get("z") or 0.0)}
    if isinstance(value, (list, tuple)) and len(value) == 3:
        return {"x": float(value[0]), "y": float(value[1]), "z": float(value[2])}
    return {"x": 0.0, "y": 0.0, "z": 0.0}


def _corner_points(obj: Mapping[str, Any]) -> list[list[float]] | None:
    """The 8 box corners of an object, from 5.x's axisAlignedBoundingBox or 2.x's objectBounds."""
    aabb = obj.get("axisAlignedBoundingBox")
    corners: Any = aabb.get("cornerPoints") if isinstance(aabb, dict) else None
    if corners is None and isinstance(obj.get("objectBounds"), dict):
        corners = obj["objectBounds"].get("objectBoundsCorners")
    if not corners:
        return None
    if isinstance(corners[0], dict):
        return [[float(c["x"]), float(c["y"]), float(c["z"])] for c in corners]
    return [[float(c[0]), float(c[1]), float(c[2])] for c in corners]


def _aabb(obj: Mapping[str, Any]) -> dict[str, Any]:
    """axisAlignedBoundingBox in 5.x's layout (cornerPoints, center, size), whatever the source."""
    points = _corner_points(obj)
    if points is None:
        aabb = obj.get("axisAlignedBoundingBox") or {}
        center = _vec3(aabb.get("center", obj.get("position")))
        size = _vec3(aabb.get("size"))
        lo = [center[a] - size[a] / 2 for a in "xyz"]
        hi = [center[a] + size[a] / 2 for a in "xyz"]
        points = [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
    xs, ys, zs = zip(*points)
    lo = [min(xs), min(ys), min(zs)]
    hi = [max(xs), max(ys), max(zs)]
    return {
        "cornerPoints": points,
        "center": {a: (lo[i] + hi[i]) / 2 for i, a in enumerate("xyz")},
        "size": {a: hi[i] - lo[i] for i, a in enumerate("xyz")},
    }


def _id_list(value: Any) -> list[str]:
    return [str(v) for v in value] if value else []


def normalise_object(obj: Mapping[str, Any]) -> dict[str, Any]:
    """One object's metadata with exactly lite's fields, types and conventions.

    As lite (and THOR 2.1): ``parentReceptacles`` is None when the object lies on nothing;
    ``receptacleObjectIds`` is a list (maybe empty) for receptacles and None for the rest.
    """
    temperature = obj.get("temperature", obj.get("ObjectTemperature", "RoomTemp"))
    receptacle = bool(obj.get("receptacle", False))
    normalised: dict[str, Any] = {
        "objectId": str(obj["objectId"]),
        "objectType": str(obj.get("objectType") or str(obj["objectId"]).split("|")[0]),
        "name": str(obj.get("name", "")),
        "position": _vec3(obj.get("position")),
        "rotation": _vec3(obj.get("rotation")),
        "axisAlignedBoundingBox": _aabb(obj),
        "temperature": str(temperature or "RoomTemp"),
        "parentReceptacles": _id_list(obj.get("parentReceptacles")) or None,
        "receptacleObjectIds": _id_list(obj.get("receptacleObjectIds")) if receptacle else None,
        "distance": float(obj.get("distance", 0.0) or 0.0),
    }
    for flag in OBJECT_BOOL_FIELDS:
        normalised[flag] = bool(obj.get(flag, False))
    # 2.x spelled isOpen in lower case in places (its controller reads obj['isopen']).
    if "isOpen" not in obj and "isopen" in obj:
        normalised["isOpen"] = bool(obj["isopen"])
    return normalised


def _scene_name(raw_name: Any) -> str:
    """ALFRED's floor-plan name: 5.x loads "FloorPlan1_physics" for "FloorPlan1"."""
    name = str(raw_name or "")
    return name[: -len("_physics")] if name.endswith("_physics") else name


def normalise_metadata(metadata: Mapping[str, Any], profile: VersionProfile) -> dict[str, Any]:
    """THOR metadata (any supported version) in lite's layout, as a plain dict."""
    agent = metadata.get("agent") or {}
    position = _vec3(agent.get("position"))
    action_return = metadata.get("actionReturn")
    if action_return is None and metadata.get("lastAction") == "GetReachablePositions":
        # 2.1.0 answered GetReachablePositions in metadata["reachablePositions"] [thor5-py note].
        action_return = metadata.get("reachablePositions")
    camera = metadata.get("cameraPosition")
    if camera is None:  # not reported: the camera sits cameraY above the agent, as initialised
        camera = {"x": position["x"], "y": position["y"] + CAMERA_Y_OFFSET, "z": position["z"]}
    return {
        "agent": {
            "name": str(agent.get("name") or "agent"),
            "position": position,
            "rotation": _vec3(agent.get("rotation")),
            "cameraHorizon": float(agent.get("cameraHorizon", 0.0) or 0.0),
            "isStanding": bool(agent.get("isStanding", True)),
            "inHighFrictionArea": bool(agent.get("inHighFrictionArea", False)),
        },
        "inventoryObjects": [
            {"objectId": str(o["objectId"]), "objectType": str(o.get("objectType") or o["objectId"].split("|")[0])}
            for o in metadata.get("inventoryObjects") or []
        ],
        "lastAction": str(metadata.get("lastAction") or ""),
        "lastActionSuccess": bool(metadata.get("lastActionSuccess", False)),
        "errorMessage": str(metadata.get("errorMessage") or ""),
        "actionReturn": copy.deepcopy(action_return),
        "sceneName": _scene_name(metadata.get("sceneName")),
        "screenWidth": int(metadata.get("screenWidth", 0)),
        "screenHeight": int(metadata.get("screenHeight", 0)),
        "cameraPosition": _vec3(camera),
        "fov": float(metadata.get("fov") or profile.default_fov),
        "objects": [normalise_object(o) for o in metadata.get("objects") or []],
    }


def _packed_colors(frame: np.ndarray) -> np.ndarray:
    """Each pixel's RGB as one int, so a colour lookup is one comparison per pixel."""
    rgb = frame[..., :3].astype(np.uint32)
    return (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]


def masks_from_segmentation(
    segmentation: np.ndarray, color_to_object_id: Mapping[tuple[int, int, int], str]
) -> tuple[dict[str, np.ndarray], dict[str, list[int]]]:
    """Instance masks and 2D boxes of every object id in view, in lite's (THOR 2.1's) convention.

    A box is ``[x1, y1, x2, y2]``: first and last mask columns, and first and last mask rows plus
    one — THOR 2.1 flipped Unity's bottom-up bounds with ``height - y``, ALFRED's released bboxes
    carry that offset, and lite's renderer reproduces it; 5.x's own boxes lack it, so every box is
    recomputed here from the mask. Names without "|" are structure or class colours (walls,
    "background"), not object ids, as in ai2thor's own LazyInstanceSegmentationMasks: no mask.
    """
    packed = _packed_colors(segmentation)
    present = set(np.unique(packed).tolist())
    masks: dict[str, np.ndarray] = {}
    boxes: dict[str, list[int]] = {}
    for color, name in sorted(color_to_object_id.items(), key=lambda item: item[1]):
        if "|" not in name:
            continue
        key = (int(color[0]) << 16) | (int(color[1]) << 8) | int(color[2])
        if key not in present:
            continue
        mask = packed == key
        rows = np.flatnonzero(mask.any(axis=1))
        cols = np.flatnonzero(mask.any(axis=0))
        masks[name] = mask
        boxes[name] = [int(cols[0]), int(rows[0]) + 1, int(cols[-1]), int(rows[-1]) + 1]
    return masks, boxes


def _rgb(color: Any) -> tuple[int, int, int]:
    """A segmentation colour as three ints (THOR gives tuples or lists, of ints or numpy ints)."""
    red, green, blue = (int(c) for c in list(color)[:3])
    return red, green, blue


def adapt_event(profile: VersionProfile, raw: Any) -> ThorEvent:
    """Wrap a backend Event (real ``ai2thor.server.Event`` or a fake) in the lite shape."""
    metadata = normalise_metadata(raw.metadata, profile)
    frame = None
    if getattr(raw, "frame", None) is not None:
        frame = np.ascontiguousarray(np.asarray(raw.frame)[..., :3], dtype=np.uint8)
    depth = None
    if getattr(raw, "depth_frame", None) is not None:
        depth = (np.asarray(raw.depth_frame, dtype=np.float64) * profile.depth_to_metres).astype(np.float32)
    color_to_object_id: dict[tuple[int, int, int], str] = {
        _rgb(color): str(name) for color, name in (getattr(raw, "color_to_object_id", None) or {}).items()
    }
    color_to_object_id = dict(sorted(color_to_object_id.items()))
    object_id_to_color = {name: color for color, name in sorted(color_to_object_id.items(), key=lambda i: i[1])}
    segmentation = None
    masks: dict[str, np.ndarray] = {}
    boxes: dict[str, list[int]] = {}
    if getattr(raw, "instance_segmentation_frame", None) is not None:
        segmentation = np.ascontiguousarray(np.asarray(raw.instance_segmentation_frame)[..., :3], dtype=np.uint8)
        masks, boxes = masks_from_segmentation(segmentation, color_to_object_id)
    return ThorEvent(
        metadata=metadata,
        frame=frame,
        depth_frame=depth,
        instance_segmentation_frame=segmentation,
        instance_masks=masks,
        color_to_object_id=color_to_object_id,
        object_id_to_color=object_id_to_color,
        instance_detections2D=boxes,
        raw=raw,
    )


# --------------------------------------------------------------------------------------------
# Action adaptation
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """An action the adapter fails without sending it, as lite would (e.g. a look past 60 degrees)."""

    message: str


def _look_direction(action: Mapping[str, Any]) -> float:
    return -1.0 if action["action"] == "LookUp" else 1.0


def _new_horizon(action: Mapping[str, Any], metadata: Mapping[str, Any]) -> float | Refusal:
    current = float(metadata["agent"]["cameraHorizon"])
    target = round(current + _look_direction(action) * ALFRED_LOOK_DEGREES, 3)
    low, high = HORIZON_RANGE
    if not low - 1e-6 <= target <= high + 1e-6:
        return Refusal(f"{action['action']}: horizon {target:g} is outside [{low:g}, {high:g}]")
    return target


def _look_by_teleport(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]] | Refusal:
    """2.1.0: ALFRED's look_angle — TeleportFull in place at horizon +-15 [alfred-env]."""
    horizon = _new_horizon(action, metadata)
    if isinstance(horizon, Refusal):
        return horizon
    agent = metadata["agent"]
    position = agent["position"]
    return [
        {
            "action": "TeleportFull",
            "x": position["x"],
            "y": position["y"],
            "z": position["z"],
            "rotation": round(float(agent["rotation"]["y"]), 4),
            "horizon": horizon,
        }
    ]


def _look_by_degrees(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]] | Refusal:
    """5.x: LookUp/LookDown take ``degrees`` [thor5-docs navigation]."""
    horizon = _new_horizon(action, metadata)
    if isinstance(horizon, Refusal):
        return horizon
    return [{"action": action["action"], "degrees": ALFRED_LOOK_DEGREES}]


def _teleport_as_dicts(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """5.x TeleportFull: position and rotation as dicts [thor5-docs navigation]."""
    out = {k: v for k, v in action.items() if k not in ("x", "y", "z")}
    if "position" not in out and any(axis in action for axis in "xyz"):
        current = metadata["agent"]["position"]
        out["position"] = {axis: float(action.get(axis, current[axis])) for axis in "xyz"}
    rotation = out.get("rotation")
    if rotation is not None and not isinstance(rotation, Mapping):
        out["rotation"] = {"x": 0.0, "y": float(rotation), "z": 0.0}
    return [out]


def _put_receptacle_only(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """5.x PutObject: objectId is the receptacle; the held object is implied [thor5-docs]."""
    out = dict(action)
    if "receptacleObjectId" in out:
        out["objectId"] = out.pop("receptacleObjectId")
    return [out]


def _toggles_as_object_states(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """5.x has no SetObjectToggles: one SetObjectStates per object type [thor-1202]."""
    toggles = action.get("objectToggles") or []
    steps = [
        {
            "action": "SetObjectStates",
            "SetObjectStates": {
                "objectType": str(toggle["objectType"]),
                "stateChange": "toggleable",
                "isToggled": bool(toggle["isOn"]),
            },
        }
        for toggle in toggles
    ]
    return steps or [{"action": "Pass"}]


#: SetStateOfAllObjects' StateChange -> (5.x stateChange, state field) [alfred-env, thor-1202].
_STATE_CHANGES = {
    "CanBeDirty": ("dirtyable", "isDirty"),
    "CanBeFilled": ("canFillWithLiquid", "isFilledWithLiquid"),
}


def _all_states_as_object_states(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]] | Refusal:
    """5.x has no SetStateOfAllObjects: SetObjectStates for every type that has the property.

    ALFRED passes the target value in ``forceAction`` (CanBeDirty + True: make dirty; CanBeFilled
    + False: empty) [alfred-env restore_scene, alfred-gen].
    """
    change = action.get("StateChange")
    if change not in _STATE_CHANGES:
        return Refusal(f"SetStateOfAllObjects: StateChange {change!r} has no ai2thor 5.x equivalent")
    flag, state = _STATE_CHANGES[change]
    value = bool(action.get("forceAction", True))
    types = sorted({o["objectType"] for o in metadata.get("objects", []) if o.get(flag)})
    steps = [
        {"action": "SetObjectStates", "SetObjectStates": {"objectType": t, "stateChange": flag, state: value}}
        for t in types
    ]
    return steps or [{"action": "Pass"}]


def _spawn_arguments_5x(action: dict[str, Any], metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """5.x InitialRandomSpawn: minFreePerReceptacleType becomes excludedReceptacles.

    ALFRED used minFreePerReceptacleType to keep the task's receptacles free (counts in the
    hundreds of thousands in practice); 5.x can only exclude whole receptacle types, which is the
    closest it offers. numRepeats was renamed to numDuplicatesOfType by the table already.
    """
    out = {k: v for k, v in action.items() if v is not None}
    free = out.pop("minFreePerReceptacleType", None) or []
    if free:
        excluded = set(out.get("excludedReceptacles") or [])
        excluded.update(str(entry["objectType"]) for entry in free)
        out["excludedReceptacles"] = sorted(excluded)
    return [out]


TRANSFORMS: dict[str, Callable[[dict[str, Any], Mapping[str, Any]], Any]] = {
    "look_by_teleport": _look_by_teleport,
    "look_by_degrees": _look_by_degrees,
    "teleport_as_dicts": _teleport_as_dicts,
    "put_receptacle_only": _put_receptacle_only,
    "toggles_as_object_states": _toggles_as_object_states,
    "all_states_as_object_states": _all_states_as_object_states,
    "spawn_arguments_5x": _spawn_arguments_5x,
}


def normalise_action(action: Mapping[str, Any] | str | None, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The controller.step calling conventions (dict, name + kwargs) as one plain dict."""
    if isinstance(action, str):
        out: dict[str, Any] = {"action": action}
    elif isinstance(action, Mapping):
        out = copy.deepcopy(dict(action))
    elif action is None and extra and "action" in extra:
        out = {}
    else:
        raise TypeError(f"an action must be a dict or an action name, not {type(action).__name__}")
    out.update(copy.deepcopy(dict(extra or {})))
    if not isinstance(out.get("action"), str) or not out["action"]:
        raise TypeError("an action dict needs an 'action' name")
    return out


def adapt_action(
    profile: VersionProfile, action: Mapping[str, Any], metadata: Mapping[str, Any]
) -> list[dict[str, Any]] | Refusal:
    """The backend action dicts that perform ``action`` (ALFRED's dialect) on ``profile``'s ai2thor.

    ``metadata`` is the current (normalised) state: looks need the agent's pose, the
    SetStateOfAllObjects replacement needs the object types present.
    """
    rule = profile.rules.get(action["action"])
    if rule is None:
        return [dict(action)]
    current = dict(action)
    for old, new in rule.rename_params:
        if old in current:
            current[new] = current.pop(old)
    for name in rule.drop_params:
        current.pop(name, None)
    steps = TRANSFORMS[rule.transform](current, metadata) if rule.transform else [current]
    if isinstance(steps, Refusal):
        return steps
    adapted = []
    for step in steps:
        step = dict(step)
        for name, value in rule.default_params:
            step.setdefault(name, value)
        if rule.action is not None:
            step["action"] = rule.action
        adapted.append(step)
    return adapted
