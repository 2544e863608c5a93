"""The real AI2-THOR backend (``--backend thor``): ai2thor's Controller behind the lite interface.

Three jobs, kept apart:

* **Starting** a THOR build without ever hanging or touching the network. ai2thor looks builds up
  online (5.x: a GitHub commit list and S3 HEAD requests without timeouts; 2.1.0: a download when
  no local executable is set) and then waits for Unity with no time limit (2.1.0's ``queue_get``
  loop, 5.x's blocking ``open()`` of its FIFO). So the build is resolved here first (``--thor-build``
  or ai2thor's own cache under ``~/.ai2thor/releases``), the display is checked (X socket, or the
  Vulkan loader for CloudRendering), the build is handed to ai2thor pinned (5.x never runs its
  ``find_build``), and the start runs under a watchdog. Every failure is one
  :class:`~alfred_gen.errors.UserError` line with exit code BACKEND_UNAVAILABLE.
* **Speaking** ALFRED's action dialect to the installed ai2thor: :func:`adapt_action` applies the
  version table in :mod:`alfred_gen.sim.thor_versions` (15-degree looks, PutObject, TeleportFull...).
* **Normalising** whatever ai2thor returns into the lite Event shape (:func:`adapt_event`): THOR
  metadata keys with fixed types, RGB uint8, depth float32 metres, and masks/detections recomputed
  from the instance-segmentation frame so they agree with it by construction, whatever the version.

ai2thor is an optional extra (``pip install 'alfred-gen[thor]'``); this module imports it lazily,
so the CLI options and the fail-fast checks work without it.
"""

from __future__ import annotations

import copy
import ctypes.util
import glob
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable

import numpy as np

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.thor_versions import (
    ALFRED_LOOK_DEGREES,
    HORIZON_RANGE,
    PROFILES,
    VersionProfile,
    profile_for_version,
)

#: Platforms a user may ask for with --thor-platform (ai2thor.platform class names).
PLATFORMS = ("Linux64", "CloudRendering")

#: Where X servers put their sockets; a module attribute so tests can point it elsewhere.
X11_SOCKET_DIR = "/tmp/.X11-unix"

#: Camera height above the agent's origin ALFRED initialised (cameraY) [alfred-env], used only
#: when a backend does not report cameraPosition.
CAMERA_Y_OFFSET = 0.75

#: Seconds to wait for a THOR build to answer its first message before giving up.
DEFAULT_STARTUP_TIMEOUT = 120.0

#: The build ALFRED's data was recorded with (shared/alfred README; ALFRED's gen/constants.py).
ALFRED_BUILD_TAG = "201909061227"

INSTALL_HINT = "pip install 'alfred-gen[thor]'"

#: The object fields every backend's metadata carries (DESIGN.md "The embedded simulator").
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
)


class ThorBackendError(UserError):
    """The THOR build is missing, cannot start, or died: one line, exit code BACKEND_UNAVAILABLE."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.BACKEND_UNAVAILABLE)


# --------------------------------------------------------------------------------------------
# Event normalisation
# --------------------------------------------------------------------------------------------


class ThorEvent:
    """A backend Event in the lite shape (DESIGN.md "The simulator interface").

    ``raw`` keeps the backend's own Event for callers who want THOR-only extras.
    """

    __slots__ = (
        "metadata",
        "frame",
        "depth_frame",
        "instance_segmentation_frame",
        "instance_masks",
        "color_to_object_id",
        "object_id_to_color",
        "instance_detections2D",
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
    lo = (min(xs), min(ys), min(zs))
    hi = (max(xs), max(ys), max(zs))
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


def adapt_event(profile: VersionProfile, raw: Any) -> ThorEvent:
    """Wrap a backend Event (real ``ai2thor.server.Event`` or a fake) in the lite shape."""
    metadata = normalise_metadata(raw.metadata, profile)
    frame = None
    if getattr(raw, "frame", None) is not None:
        frame = np.ascontiguousarray(np.asarray(raw.frame)[..., :3], dtype=np.uint8)
    depth = None
    if getattr(raw, "depth_frame", None) is not None:
        depth = (np.asarray(raw.depth_frame, dtype=np.float64) * profile.depth_to_metres).astype(np.float32)
    color_to_object_id = {
        tuple(int(c) for c in color): str(name) for color, name in (getattr(raw, "color_to_object_id", None) or {}).items()
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


# --------------------------------------------------------------------------------------------
# Finding and starting a build
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThorLaunch:
    """Everything a controller factory needs to start one THOR controller."""

    profile: VersionProfile
    ai2thor_version: str
    executable: Path | None
    platform: str
    x_display: str | None
    width: int
    height: int
    init_params: Mapping[str, Any]
    startup_timeout: float


ControllerFactory = Callable[[ThorLaunch], Any]


def installed_ai2thor_version() -> str | None:
    """The installed ai2thor's version, or None when the extra is not installed."""
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - Python < 3.8
        return None
    try:
        return version("ai2thor")
    except PackageNotFoundError:
        return None


def _releases_dir() -> Path:
    """ai2thor's build cache (both 2.1.0 and 5.x use ~/.ai2thor/releases/<name>/<name>)."""
    return Path(os.path.expanduser("~")) / ".ai2thor" / "releases"


def _is_executable_file(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _executable_in(directory: Path) -> Path | None:
    """A build directory's executable: ai2thor's layout <dir>/<dir name>, else one thor-* file."""
    same_name = directory / directory.name
    if _is_executable_file(same_name):
        return same_name
    candidates = sorted(p for p in directory.glob("thor-*") if _is_executable_file(p))
    return candidates[0] if len(candidates) == 1 else None


def _cached_build_names(profile: VersionProfile, platform: str) -> list[str]:
    """Release directory names ai2thor itself would use for this version and platform."""
    if profile.name == "5":
        try:
            from ai2thor.build import COMMIT_ID  # type: ignore[import-not-found]
        except Exception:
            COMMIT_ID = None
        return [f"thor-{platform}-{COMMIT_ID}"] if COMMIT_ID else []
    # 2.1.0 names its Linux build thor-<build tag>-Linux64; ALFRED's tag first, then any other.
    found = sorted(Path(p).name for p in glob.glob(str(_releases_dir() / "thor-*-Linux64")))
    preferred = [n for n in found if ALFRED_BUILD_TAG in n]
    return preferred + [n for n in found if n not in preferred]


def find_thor_build(build_path: str | os.PathLike[str] | None, profile: VersionProfile, platform: str) -> Path:
    """The THOR executable to start: ``build_path`` (file or build directory) or ai2thor's cache.

    Never downloads and never asks the network; raises ThorBackendError naming what is missing.
    """
    if build_path:
        path = Path(build_path).expanduser()
        if path.is_dir():
            found = _executable_in(path)
            if found is None:
                raise ThorBackendError(f"--thor-build {path}: no THOR executable in that directory")
            return found.resolve()
        if not path.exists():
            raise ThorBackendError(f"--thor-build {path}: no such file")
        if not _is_executable_file(path):
            raise ThorBackendError(f"--thor-build {path}: not an executable file")
        return path.resolve()
    for name in _cached_build_names(profile, platform):
        found = _executable_in(_releases_dir() / name)
        if found is not None:
            return found.resolve()
    raise ThorBackendError(
        f"no THOR build found (none given, none installed in {_releases_dir()}): pass --thor-build PATH "
        f"to a local AI2-THOR {profile.name} executable; it needs a GPU with an X display (--x-display)"
        + (", or --thor-platform CloudRendering (Vulkan, headless)" if "CloudRendering" in profile.platforms else "")
    )


def _display_number(x_display: str) -> str | None:
    """The local display number of ":0", "0", ":1.0"; None for a remote "host:0" display."""
    host, _, rest = x_display.rpartition(":")
    if host:
        return None
    return (rest or x_display).split(".")[0]


def check_display(profile: VersionProfile, platform: str, x_display: str | None) -> str | None:
    """Fail fast when the build would have nothing to render on; returns the X display to use."""
    if platform not in profile.platforms:
        raise ThorBackendError(
            f"--thor-platform {platform} is not available with ai2thor {profile.name} "
            f"(available: {', '.join(profile.platforms)})"
        )
    if platform == "CloudRendering":
        if ctypes.util.find_library("vulkan") is None:
            raise ThorBackendError(
                "--thor-platform CloudRendering needs the Vulkan loader (libvulkan1) and an NVIDIA GPU; "
                "none found on this machine"
            )
        return x_display
    display = x_display or os.environ.get("DISPLAY")
    if not display:
        raise ThorBackendError(
            "no X display for the THOR build: pass --x-display N (an X server with GLX on a GPU)"
            + (" or use --thor-platform CloudRendering" if "CloudRendering" in profile.platforms else "")
        )
    number = _display_number(display)
    if number is not None and not (Path(X11_SOCKET_DIR) / f"X{number}").exists():
        raise ThorBackendError(f"X display {display} is not running (no socket {X11_SOCKET_DIR}/X{number})")
    return display


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def _run_with_watchdog(start: Callable[[], Any], timeout: float, on_timeout: Callable[[], None], what: str) -> Any:
    """Run ``start`` in a daemon thread; give up after ``timeout`` seconds instead of hanging.

    ai2thor waits for Unity without a limit (2.1.0 loops on a queue; 5.x blocks in open() on its
    FIFO), so only a separate thread can bound it. ``on_timeout`` ends what was started.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = start()
        except BaseException as error:  # reported to the caller below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="thor-start", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        try:
            on_timeout()
        finally:
            worker.join(5.0)
        raise ThorBackendError(f"{what} did not answer within {timeout:g} s (see ~/.ai2thor/log/unity.log)")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, UserError):
            raise error
        raise ThorBackendError(f"{what} failed to start: {_first_line(error)}")
    return outcome["value"]


def _start_ai2thor_5(launch: ThorLaunch) -> Any:
    """A 5.x Controller on the pinned build: its find_build (network lookups) never runs."""
    import ai2thor.build
    import ai2thor.controller
    import ai2thor.platform

    build = ai2thor.build.ExternalBuild(str(launch.executable))
    # ExternalBuild always says Linux64; CloudRendering needs its own launch environment.
    build.platform = getattr(ai2thor.platform, launch.platform)
    started: dict[str, Any] = {}

    class PinnedBuildController(ai2thor.controller.Controller):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            started["controller"] = self
            super().__init__(**kwargs)

        def find_build(self, local_build: Any, commit_id: Any, branch: Any, platform: Any) -> Any:
            return build

    def start() -> Any:
        return PinnedBuildController(
            width=launch.width,
            height=launch.height,
            x_display=launch.x_display,
            scene="FloorPlan1",
            server_start_timeout=launch.startup_timeout,
            **dict(launch.init_params),
        )

    def abandon() -> None:
        controller = started.get("controller")
        server = getattr(controller, "server", None)
        process = getattr(server, "unity_proc", None)
        if process is not None and process.poll() is None:
            process.kill()
        # Unblock the reader stuck in open() on the FIFO, so the thread ends instead of lingering.
        pipe = getattr(server, "server_pipe_path", None)
        if pipe and os.path.exists(pipe):
            try:
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass

    return _run_with_watchdog(start, launch.startup_timeout, abandon, f"THOR build {launch.executable}")


def _start_ai2thor_2_1(launch: ThorLaunch) -> Any:
    """A 2.1.0 Controller as ALFRED started it: local_executable_path, then start(x_display=...)."""
    import ai2thor.controller

    controller = ai2thor.controller.Controller(quality="MediumCloseFitShadows")
    controller.local_executable_path = str(launch.executable)  # skips 2.1.0's download_binary
    display = (launch.x_display or "").lstrip(":") or None  # 2.1.0 adds the colon itself

    def start() -> Any:
        controller.start(
            x_display=display, player_screen_width=launch.width, player_screen_height=launch.height
        )
        return controller

    def abandon() -> None:
        stop_unity = getattr(controller, "stop_unity", None)
        if stop_unity is not None:
            stop_unity()

    return _run_with_watchdog(start, launch.startup_timeout, abandon, f"THOR build {launch.executable}")


def start_real_controller(launch: ThorLaunch) -> Any:
    """The default controller factory: the installed ai2thor on the resolved build."""
    if launch.profile.name == "5":
        return _start_ai2thor_5(launch)
    return _start_ai2thor_2_1(launch)


# --------------------------------------------------------------------------------------------
# The controller
# --------------------------------------------------------------------------------------------

_SCENE_NAME = re.compile(r"^FloorPlan\d+$")


class ThorController:
    """The lite simulator interface on a real AI2-THOR build (or an injected fake).

    ``version`` selects the adapter profile ("2.1.0", "5.0.0", ...); by default the installed
    ai2thor's. ``controller_factory(launch)`` replaces starting ai2thor (tests pass a recording
    fake); without it the build is resolved and checked first, and starting is bounded by
    ``startup_timeout`` seconds. Construction starts the build, so a missing build fails here.
    """

    def __init__(
        self,
        build_path: str | os.PathLike[str] | None = None,
        platform: str | None = None,
        x_display: str | None = None,
        width: int = 300,
        height: int = 300,
        version: str | None = None,
        render_depth: bool = False,
        render_seg: bool = False,
        controller_factory: ControllerFactory | None = None,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
    ) -> None:
        installed = installed_ai2thor_version()
        if controller_factory is None and installed is None:
            raise ThorBackendError(f"the thor backend needs the ai2thor package: {INSTALL_HINT}")
        chosen = version or installed
        if chosen is None:
            raise ThorBackendError(f"no ai2thor version given and ai2thor is not installed: {INSTALL_HINT}")
        profile = profile_for_version(chosen)
        if profile is None:
            raise ThorBackendError(
                f"ai2thor {chosen} is not supported: install ai2thor==2.1.0 (ALFRED's) or ai2thor 5.x"
            )
        if controller_factory is None and installed is not None and profile_for_version(installed) is not profile:
            raise ThorBackendError(f"ai2thor {chosen} was asked for but ai2thor {installed} is installed")
        if profile.name == "2.1" and (width < 300 or height < 300):
            raise UserError("ai2thor 2.1.0 renders at least 300x300 pixels", ExitCode.USAGE)
        platform = platform or "Linux64"
        if platform not in PLATFORMS:
            raise UserError(f"--thor-platform must be one of {', '.join(PLATFORMS)}", ExitCode.USAGE)

        self.profile = profile
        self.ai2thor_version = chosen
        self.platform = platform
        self.width = width
        self.height = height
        init_params = dict(profile.initialize_params)
        init_params[profile.depth_flag] = bool(render_depth)
        init_params[profile.instance_seg_flag] = bool(render_seg)
        self._init_params = init_params

        executable: Path | None = None
        factory = controller_factory
        if factory is None:
            executable = find_thor_build(build_path, profile, platform)
            x_display = check_display(profile, platform, x_display)
            factory = start_real_controller
        elif build_path:
            executable = Path(build_path)
        self.executable = executable
        launch = ThorLaunch(
            profile=profile,
            ai2thor_version=chosen,
            executable=executable,
            platform=platform,
            x_display=x_display,
            width=width,
            height=height,
            init_params=dict(init_params) if profile.initialize_via == "controller" else {},
            startup_timeout=startup_timeout,
        )
        self._controller = factory(launch)
        self.scene: str | None = None
        raw = getattr(self._controller, "last_event", None)
        self.last_event: ThorEvent | None = adapt_event(profile, raw) if raw is not None else None

    # -- the lite interface ------------------------------------------------------------------

    def reset(self, scene: str) -> ThorEvent:
        """Load a THOR floor plan and initialise it as ALFRED did (gridSize 0.25, ...)."""
        if not isinstance(scene, str) or not _SCENE_NAME.match(scene):
            raise UserError(f"scene {scene!r} is not a THOR scene: the thor backend loads FloorPlan<N>", ExitCode.NOT_FOUND)
        try:
            raw = self._guarded(lambda: self._controller.reset(scene), "Reset")
            if self.profile.initialize_via == "step":
                raw = self._guarded(
                    lambda: self._controller.step({"action": "Initialize", **self._init_params}), "Initialize"
                )
        except _ActionRejected as rejected:  # e.g. 5.x: "Scene ... not contained in build"
            raise UserError(f"THOR could not load {scene}: {rejected.message}", ExitCode.NOT_FOUND) from None
        self.scene = scene
        self.last_event = adapt_event(self.profile, raw)
        return self.last_event

    def step(self, action: Mapping[str, Any] | str | None = None, **kwargs: Any) -> ThorEvent:
        """Execute one action in ALFRED's dialect; a failed or unknown action is a failed Event."""
        requested = normalise_action(action, kwargs)
        if self.last_event is None:
            raise UserError("the thor backend needs reset(scene) before step()", ExitCode.USAGE)
        plan = adapt_action(self.profile, requested, self.last_event.metadata)
        if isinstance(plan, Refusal):
            self.last_event = self._failed(requested["action"], plan.message)
            return self.last_event
        raw = None
        for backend_action in plan:
            try:
                raw = self._guarded(lambda a=backend_action: self._controller.step(a), backend_action["action"])
            except _ActionRejected as rejected:
                self.last_event = self._failed(requested["action"], rejected.message)
                return self.last_event
            if not raw.metadata.get("lastActionSuccess", False):
                break
        event = adapt_event(self.profile, raw)
        event.metadata["lastAction"] = requested["action"]
        self.last_event = event
        return event

    def stop(self) -> None:
        """Stop the THOR build (idempotent)."""
        controller, self._controller = self._controller, None
        if controller is not None and hasattr(controller, "stop"):
            try:
                controller.stop()
            except Exception:
                pass

    def backend_info(self) -> dict[str, Any]:
        """What produced the frames, for the trajectory file."""
        return {
            "backend": "thor",
            "ai2thor_version": self.ai2thor_version,
            "build": str(self.executable) if self.executable is not None else None,
            "platform": self.platform,
            "adapter": self.profile.name,
        }

    def __enter__(self) -> "ThorController":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- helpers -----------------------------------------------------------------------------

    def _guarded(self, call: Callable[[], Any], what: str) -> Any:
        """Run one backend call; rejected arguments become failed actions, crashes one-line errors."""
        if self._controller is None:
            raise UserError("the thor backend was stopped", ExitCode.USAGE)
        try:
            return call()
        except ValueError as error:  # ai2thor: InvalidAction / InvalidArgument / MissingArguments
            raise _ActionRejected(_first_line(error)) from None
        except UserError:
            raise
        except Exception as error:
            raise ThorBackendError(f"THOR backend failed during {what}: {_first_line(error)}") from None

    def _failed(self, action_name: str, message: str) -> ThorEvent:
        """A failed action changes nothing: the last state, with the failure recorded."""
        last = self.last_event
        assert last is not None
        metadata = copy.deepcopy(last.metadata)
        metadata.update(lastAction=action_name, lastActionSuccess=False, errorMessage=message, actionReturn=None)
        return ThorEvent(
            metadata=metadata,
            frame=last.frame,
            depth_frame=last.depth_frame,
            instance_segmentation_frame=last.instance_segmentation_frame,
            instance_masks=last.instance_masks,
            color_to_object_id=last.color_to_object_id,
            object_id_to_color=last.object_id_to_color,
            instance_detections2D=last.instance_detections2D,
            raw=None,
        )


class _ActionRejected(Exception):
    """ai2thor refused an action's name or arguments (it raises ValueError for those)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --------------------------------------------------------------------------------------------
# Command-line options
# --------------------------------------------------------------------------------------------

BACKENDS = ("lite", "thor")


def thor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Click options --backend, --thor-build, --thor-platform, --x-display for any command.

    The command receives ``backend``, ``thor_build``, ``thor_platform``, ``x_display`` and passes
    them to :func:`make_thor_controller` when ``backend == "thor"``.
    """
    import click

    decorators = [
        click.option(
            "--backend",
            type=click.Choice(BACKENDS),
            default="lite",
            show_default=True,
            help="Simulator: embedded 'lite', or 'thor' (needs ai2thor and a THOR build).",
        ),
        click.option(
            "--thor-build",
            type=click.Path(),
            envvar="ALFRED_GEN_THOR_BUILD",
            default=None,
            help="Local AI2-THOR executable or build directory (else ai2thor's ~/.ai2thor cache).",
        ),
        click.option(
            "--thor-platform",
            type=click.Choice(PLATFORMS),
            default=None,
            help="THOR rendering platform: Linux64 (X display, default) or CloudRendering (5.x, headless).",
        ),
        click.option("--x-display", default=None, help="X display for the THOR build, e.g. 0 or :1 (default: $DISPLAY)."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def make_thor_controller(
    thor_build: str | None = None,
    thor_platform: str | None = None,
    x_display: str | None = None,
    **options: Any,
) -> ThorController:
    """A started ThorController from the CLI options (extra keyword options go to ThorController).

    Unknown keys such as ``backend`` are ignored, so a command can pass all its options through.
    """
    accepted = {"width", "height", "version", "render_depth", "render_seg", "controller_factory", "startup_timeout"}
    extra = {k: v for k, v in options.items() if k in accepted}
    return ThorController(build_path=thor_build, platform=thor_platform, x_display=x_display, **extra)


__all__ = [
    "BACKENDS",
    "PLATFORMS",
    "PROFILES",
    "Refusal",
    "ThorBackendError",
    "ThorController",
    "ThorEvent",
    "ThorLaunch",
    "adapt_action",
    "adapt_event",
    "check_display",
    "find_thor_build",
    "installed_ai2thor_version",
    "make_thor_controller",
    "masks_from_segmentation",
    "normalise_action",
    "normalise_metadata",
    "start_real_controller",
    "thor_options",
]
