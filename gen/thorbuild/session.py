"""One lite simulator behind THOR's wire: actions in a THOR line's dialect in, its answers out.

A :class:`BuildSession` is what a Unity build is to ai2thor, minus the wire: it loads scenes by
THOR's names, turns each action of the line it speaks into the action lite understands, and
answers with an :class:`Answer` (that line's metadata layout plus lite's images). Everything lite
does not know it fails the way THOR does: ``lastActionSuccess`` false, ``errorMessage`` set, and for
an unknown action or argument THOR's ``errorCode`` (5.x's Controller raises ValueError on those).

Which dialect each line speaks is the other side of :mod:`alfred_gen.sim.thor_versions`: the thor
backend rewrites ALFRED's actions into 5.x's (``TeleportFull`` with position and rotation dicts,
``OpenObject`` with ``openness``, ``SetObjectStates`` per type, ``ChangeResolution``), and this
module reads them back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from alfred_gen.errors import UserError
from alfred_gen.scenes.library import SCENE_NUMBERS, SceneLibrary
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import ACTIONS, LiteController

#: THOR's near and far clipping planes (ai2thor 5.x's defaults), reported as 5.x reports them.
CAMERA_NEAR_PLANE = 0.1
CAMERA_FAR_PLANE = 20.0

#: 5.x's suffix on iTHOR floor plans (Controller.normalize_scene adds it).
PHYSICS_SUFFIX = "_physics"


@dataclass
class Answer:
    """What a build sends back for one action: metadata in the line's layout, and raw images."""

    metadata: dict[str, Any]
    frame: np.ndarray | None = None  #: H x W x 3 uint8, top row first
    depth: np.ndarray | None = None  #: H x W float32 metres
    ids: np.ndarray | None = None  #: H x W x 3 uint8 instance colours
    classes: np.ndarray | None = None  #: H x W x 3 uint8 class colours
    extra: dict[str, Any] = field(default_factory=dict)


def scene_names() -> list[str]:
    """The rooms this build can load, by the names ai2thor 5.x asks for them.

    lite's procedural rooms and test fixtures by their own names, and every room of the active
    imported ALFRED catalogue as ``FloorPlanN_physics`` (what 5.x's Controller sends for FloorPlanN).
    """
    names = [f"LitePlan{n}" for n in SCENE_NUMBERS] + sorted(fixtures.FIXTURES)
    from alfred_gen.scenes.alfred import catalogue_store

    try:
        catalogue = catalogue_store.load_active()
    except UserError:
        catalogue = None
    if catalogue:
        names += [f"{name}{PHYSICS_SUFFIX}" for name in sorted(catalogue.get("scenes", {}))]
    return names


def _lite_scene_name(name: str) -> str:
    return name[: -len(PHYSICS_SUFFIX)] if name.endswith(PHYSICS_SUFFIX) else name


def _vector(value: Any, what: str) -> dict[str, float]:
    if not isinstance(value, Mapping):
        raise _Refused("InvalidArgument", f"{what} must be an {{x, y, z}} object, got {value!r}")
    return {axis: value[axis] for axis in "xyz" if axis in value}


class _Refused(Exception):
    """An action THOR would refuse before running it: ``code`` is THOR's errorCode."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --------------------------------------------------------------------------------------------
# ai2thor 5.x's dialect -> lite's
# --------------------------------------------------------------------------------------------


def _teleport_5(action: dict[str, Any]) -> dict[str, Any]:
    """5.x TeleportFull/Teleport: ``position`` and ``rotation`` dicts -> lite's x, y, z, rotation."""
    out = {k: v for k, v in action.items() if k not in ("position", "rotation")}
    if "position" in action:
        out.update(_vector(action["position"], "position"))
    rotation = action.get("rotation")
    if rotation is not None:
        out["rotation"] = _vector(rotation, "rotation").get("y", 0.0) if isinstance(rotation, Mapping) else rotation
    return out


def _open_5(action: dict[str, Any]) -> dict[str, Any]:
    """5.x OpenObject: ``openness`` in [0, 1] is lite's (and 2.1.0's) ``moveMagnitude``."""
    out = dict(action)
    if "openness" in out:
        out["moveMagnitude"] = out.pop("openness")
    return out


def _change_resolution_5(action: dict[str, Any]) -> dict[str, Any]:
    """5.x ChangeResolution {x, y}: lite changes its frame size through Initialize."""
    return {"action": "Initialize", "width": action.get("x"), "height": action.get("y")}


#: 5.x actions whose arguments lite spells differently (everything else goes to lite unchanged).
DIALECT_5: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "TeleportFull": _teleport_5,
    "Teleport": _teleport_5,
    "OpenObject": _open_5,
    "ChangeResolution": _change_resolution_5,
}

#: Arguments ai2thor's Controller adds to actions on its own, which lite has no use for.
_WIRE_ARGS = ("sequenceId", "agentId", "renderImage")

#: Per-action render switches THOR accepts on any action (ALFRED's look_angle teleports carry
#: them with ``tempRenderChange``); lite renders what Initialize asked for, so they are dropped
#: from every action but Initialize.
_PER_ACTION_RENDER_ARGS = (
    "tempRenderChange", "renderNormalsImage", "renderClassImage", "renderObjectImage", "renderDepthImage",
    "renderInstanceSegmentation", "renderSemanticSegmentation", "renderFlowImage",
)


class BuildSession:
    """One lite simulator answering THOR actions of ai2thor line ``line`` ("5" or "2.1.0")."""

    def __init__(self, line: str = "5", width: int = 300, height: int = 300) -> None:
        self.line = line
        self.sim = LiteController(width=width, height=height, scene_lookup=SceneLibrary(), render_image=True)
        self.loaded: str | None = None
        self._scene_names: list[str] | None = None

    # -- the first message, before any scene ---------------------------------------------------

    def hello(self) -> Answer:
        """The message a build sends when it has started (ai2thor waits for it before any action)."""
        metadata = {
            "agent": {"name": "agent", "position": {"x": 0.0, "y": 0.0, "z": 0.0},
                      "rotation": {"x": 0.0, "y": 0.0, "z": 0.0}, "cameraHorizon": 0.0,
                      "isStanding": True, "inHighFrictionArea": False},
            "objects": [], "inventoryObjects": [], "lastAction": "", "lastActionSuccess": True,
            "errorMessage": "", "actionReturn": None, "sceneName": "",
            "screenWidth": self.sim.width, "screenHeight": self.sim.height,
            "cameraPosition": {"x": 0.0, "y": 0.0, "z": 0.0}, "fov": self.sim.field_of_view,
        }
        return Answer(self._layout(metadata, "", []))

    # -- one action ------------------------------------------------------------------------------

    def handle(self, action: Mapping[str, Any]) -> Answer:
        """Run one action received from ai2thor; never raises for a bad action (THOR's answer)."""
        request = {k: v for k, v in dict(action).items() if k not in _WIRE_ARGS}
        name = request.get("action")
        if name != "Initialize":
            request = {k: v for k, v in request.items() if k not in _PER_ACTION_RENDER_ARGS}
        try:
            if name == "Reset":
                return self._reset(str(request.get("sceneName", "")))
            if name == "GetScenesInBuild":
                return self._success("GetScenesInBuild", self._names())
            if self.loaded is None:
                return self._failure(str(name), "", "no scene loaded: send Reset first")
            if name in ("ChangeQuality",):  # nothing to change in lite's renderer
                request = {"action": "Pass"}
            elif self.line == "5" and name in DIALECT_5:
                request = DIALECT_5[str(name)](request)
            if not isinstance(name, str) or (name not in ACTIONS and request["action"] not in ACTIONS):
                return self._failure(str(name), "InvalidAction", f"Invalid action: {name}")
            event = self.sim.step(request)
        except _Refused as refused:
            return self._failure(str(name), refused.code, refused.message)
        except Exception as error:  # a lite bug: answer as Unity answers an exception, and go on
            return self._failure(str(name), "", f"{type(error).__name__}: {error}")
        return self._from_event(event, str(name))

    def _names(self) -> list[str]:
        if self._scene_names is None:
            self._scene_names = scene_names()
        return self._scene_names

    def _reset(self, scene: str) -> Answer:
        try:
            event = self.sim.reset(_lite_scene_name(scene))
        except UserError as error:
            return self._failure("Reset", "", str(error))
        self.loaded = scene
        return self._from_event(event, "Reset")

    # -- answers ---------------------------------------------------------------------------------

    def _success(self, action: str, action_return: Any) -> Answer:
        base = self._current_metadata()
        base.update(lastAction=action, lastActionSuccess=True, errorMessage="", actionReturn=action_return)
        return Answer(self._layout(base, "", self._colors()), **self._images())

    def _failure(self, action: str, code: str, message: str) -> Answer:
        base = self._current_metadata()
        base.update(lastAction=action, lastActionSuccess=False, errorMessage=message, actionReturn=None)
        return Answer(self._layout(base, code, self._colors()), **self._images())

    def _current_metadata(self) -> dict[str, Any]:
        event = self.sim.last_event
        if event is None or self.loaded is None:
            return self.hello().metadata
        return dict(event.metadata)

    def _from_event(self, event: Any, action: str) -> Answer:
        metadata = dict(event.metadata)
        metadata["lastAction"] = action
        code = ""
        if not metadata.get("lastActionSuccess"):
            message = str(metadata.get("errorMessage") or "")
            if "does not take argument" in message:
                code = "InvalidArgument"
        return Answer(self._layout(metadata, code, self._colors()), **self._images())

    def _colors(self) -> list[dict[str, Any]]:
        event = self.sim.last_event
        mapping = getattr(event, "color_to_object_id", None) or {}
        return [{"name": name, "color": [int(c) for c in color]} for color, name in mapping.items()]

    def _images(self) -> dict[str, Any]:
        event = self.sim.last_event
        if event is None or self.loaded is None:
            return {}
        return {
            "frame": getattr(event, "frame", None),
            "depth": getattr(event, "depth_frame", None),
            "ids": getattr(event, "instance_segmentation_frame", None),
            "classes": getattr(event, "class_segmentation_frame", None),
        }

    def _layout(self, metadata: dict[str, Any], code: str, colors: list[dict[str, Any]]) -> dict[str, Any]:
        """lite's metadata (THOR 2.1's layout) in the layout of the line this build speaks."""
        if self.line == "5":
            return layout_5(metadata, code, colors, self.loaded)
        return layout_2_1(metadata, code, colors)


def _object_5(obj: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(obj)
    out["isInteractable"] = bool(obj.get("visible"))
    out["objectOrientedBoundingBox"] = None
    out["isMoving"] = False
    return out


def layout_5(metadata: Mapping[str, Any], code: str, colors: list[dict[str, Any]], scene: str | None) -> dict[str, Any]:
    """One agent's metadata as ai2thor 5.x's build sends it (ai2thor.server.Event reads it)."""
    out = dict(metadata)
    out["objects"] = [_object_5(o) for o in metadata.get("objects") or []]
    if scene is not None:
        out["sceneName"] = scene  # 5.x reports the scene it loaded: FloorPlan1_physics
    out.update(
        errorCode=code,
        colors=colors,
        depthFormat="Meters",
        thirdPartyCameras=[],
        cameraNearPlane=CAMERA_NEAR_PLANE,
        cameraFarPlane=CAMERA_FAR_PLANE,
        collided=False,
        collidedObjects=[],
        isSceneAtRest=True,
        agentId=0,
    )
    return out


def layout_2_1(metadata: Mapping[str, Any], code: str, colors: list[dict[str, Any]]) -> dict[str, Any]:
    """One agent's metadata as ai2thor 2.1.0's build sends it."""
    out = dict(metadata)
    objects = []
    for obj in metadata.get("objects") or []:
        o = dict(obj)
        o["ObjectTemperature"] = obj.get("temperature", "RoomTemp")
        corners = (obj.get("axisAlignedBoundingBox") or {}).get("cornerPoints")
        o["objectBounds"] = {"objectBoundsCorners": [{"x": c[0], "y": c[1], "z": c[2]} for c in corners]} \
            if corners else None
        objects.append(o)
    out["objects"] = objects
    out.update(errorCode=code, colors=colors, thirdPartyCameras=[])
    return out
