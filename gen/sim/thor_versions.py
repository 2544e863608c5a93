"""The one table of differences between ALFRED's ai2thor 2.1.0 and current ai2thor 5.x.

Pipeline code speaks one dialect: the action dicts ALFRED's released ``api_action`` fields contain
(ai2thor 2.1.0, build 201909061227) plus 15-degree LookUp/LookDown. Each :class:`VersionProfile`
says, as data, how that dialect is spoken to one ai2thor release line: which render flags it takes,
how depth is scaled, how the controller is initialised, and per action what is renamed, dropped,
added, or handed to a named transform (the transforms themselves live in ``alfred_gen.sim.thor``,
keyed by the names used here). Nothing else in the project knows about ai2thor versions.

Sources, cited per entry below:
  [alfred-env]   askforalfred/alfred env/thor_env.py (ThorEnv: reset/Initialize, restore_scene,
                 look_angle, to_thor_api_exec) and gen/constants.py (AGENT_HORIZON_ADJ = 15,
                 CAMERA_HEIGHT_OFFSET = 0.75, VISIBILITY_DISTANCE = 1.5, AGENT_STEP_SIZE = 0.25).
  [alfred-gen]   askforalfred/alfred gen/game_states/game_state_base.py (InitialRandomSpawn with
                 randomSeed, forceVisible, numRepeats, minFreePerReceptacleType).
  [alfred-data]  the released json_2.1.0 trajectories' ``api_action`` dicts (ALFRED_DATA).
  [thor21-docs]  AI2-THOR 2.1.0 documentation (allenai.github.io/ai2thor-v2.1.0-documentation):
                 actions/navigation (LookUp/LookDown move 30 degrees), actions/interaction
                 (PutObject objectId = held object, receptacleObjectId = receptacle),
                 actions/initialization (Initialize: gridSize, renderDepthImage, renderClassImage,
                 renderObjectImage, visibilityDistance, cameraY).
  [thor21-py]    ai2thor 2.1-era ai2thor/server.py (Event.add_image_depth: millimetres, capped at
                 MAX_DEPTH = 5000) and controller.py (start() waits for Unity with no timeout;
                 x_display is given without the colon; local_executable_path skips the download).
  [thor5-docs]   ai2thor.allenai.org/ithor/documentation: navigation (LookUp/LookDown take
                 ``degrees``; Teleport/TeleportFull take position, rotation dicts, horizon, standing),
                 interactive-physics (PutObject: objectId is the receptacle), object-state-changes
                 (OpenObject ``openness`` in [0, 1]), environment-state (depth_frame float32 metres),
                 objects/set-object-states (SetObjectPoses).
  [thor5-py]     ai2thor 5.0.0 controller.py/server.py as installed: Controller(**init params) sends
                 Initialize on reset; renderObjectImage is aliased to renderInstanceSegmentation;
                 DepthFormat.Meters by default; ValueError on InvalidAction/InvalidArgument.
  [thor-1202]    allenai/ai2thor issues #473, #1202, #391: SetStateOfAllObjects and
                 SetObjectToggles are gone after 2.1.0; the maintainers point to SetObjectStates
                 (``{"objectType", "stateChange", <state>: value}``) instead.
  [act-thor]     hannamw/ACT-Thor refactored_scripts/controller_wrapper.py (ai2thor 3.x+): ACT-Thor's
                 collection calls DropHandObject, ThrowObject (moveMagnitude), DirectionalPush
                 (objectId, moveMagnitude, pushAngle), BreakObject, DirtyObject,
                 FillObjectWithLiquid (fillLiquid), EmptyLiquidFromObject, RemoveFromScene and
                 PlaceObjectAtPoint (objectId, position {x, y, z}) natively, with forceAction.
  [alfworld-5]   alfworld env/thor_env.py, ported to ai2thor 5.0.0: TeleportFull gets
                 ``standing`` and loses ``rotateOnTeleport``; PutObject's objectId becomes the
                 receptacle; ToggleObject* lose coordinateObjectId, coordinateReceptacleObjectId,
                 cleanObjectId and forceVisible; InitialRandomSpawn loses numRepeats and
                 minFreePerReceptacleType.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

#: Degrees one ALFRED LookUp/LookDown turns the camera [alfred-env: AGENT_HORIZON_ADJ].
ALFRED_LOOK_DEGREES = 15.0

#: Camera horizon limits THOR clamps to; a look beyond them fails, as in lite [thor5-docs].
HORIZON_RANGE = (-30.0, 60.0)

#: Per-action render flags ALFRED's smooth-navigation teleports carried [alfred-env]; no 5.x action
#: takes them, so they are dropped there.
_PER_ACTION_RENDER_FLAGS = (
    "tempRenderChange",
    "renderNormalsImage",
    "renderImage",
    "renderClassImage",
    "renderObjectImage",
    "renderDepthImage",
)

#: Actions beyond ALFRED's that lite implements under THOR's names (alfred_gen.sim.physics_actions)
#: and that ai2thor 5.x has natively with the same arguments [act-thor], so they pass unchanged.
NATIVE_5X_ACTIONS = (
    "DropHandObject", "ThrowObject", "DirectionalPush", "BreakObject", "DirtyObject", "FillObjectWithLiquid",
    "EmptyLiquidFromObject", "RemoveFromScene", "PlaceObjectAtPoint",
)

#: Arguments ALFRED's generator attached to ToggleObjectOn/Off for its own bookkeeping
#: [alfred-data]; 2.1.0 ignored them, 5.x rejects unknown arguments [alfworld-5].
_ALFRED_TOGGLE_EXTRAS = ("coordinateObjectId", "coordinateReceptacleObjectId", "cleanObjectId", "forceVisible")


@dataclass(frozen=True)
class ActionRule:
    """How one action of the pipeline's dialect is spoken to one ai2thor release line.

    Applied in this order: ``rename_params`` and ``drop_params`` on the incoming dict, then
    ``transform`` (a named function in alfred_gen.sim.thor that may expand one action into several,
    compute arguments from the agent's state, or refuse the action), then ``default_params`` (added
    only when absent) and ``action`` (a new name) on each resulting dict.
    """

    transform: str | None = None
    rename_params: tuple[tuple[str, str], ...] = ()
    drop_params: tuple[str, ...] = ()
    default_params: tuple[tuple[str, Any], ...] = ()
    action: str | None = None
    source: str = ""


@dataclass(frozen=True)
class VersionProfile:
    """Everything that differs between ai2thor release lines, for one line."""

    name: str  #: "2.1" or "5"
    description: str
    #: Multiply the backend's depth_frame by this to get metres [thor21-py] / [thor5-docs].
    depth_to_metres: float
    #: Initialize / controller flag that turns instance segmentation on.
    instance_seg_flag: str
    #: Initialize / controller flag that turns depth on (same name in both lines).
    depth_flag: str
    #: Camera field of view when metadata does not report ``fov`` (this line's default).
    default_fov: float
    #: "step": reset(scene) then step an Initialize action (2.1.0, as ALFRED's ThorEnv.reset);
    #: "controller": Initialize parameters go to Controller(...) and are re-sent by reset (5.x).
    initialize_via: str
    #: Initialize parameters matching ALFRED's ThorEnv.reset, in this line's names.
    initialize_params: Mapping[str, Any]
    #: Rendering platforms this line can start ("Linux64" = X display; "CloudRendering" = Vulkan).
    platforms: tuple[str, ...]
    #: How x_display is passed to the Controller: "bare" ("0", 2.1.0 adds the colon) or "colon".
    x_display_style: str
    #: Per-action adaptation; actions not listed pass through unchanged.
    rules: Mapping[str, ActionRule] = field(default_factory=dict)


THOR_2_1 = VersionProfile(
    name="2.1",
    description="ai2thor 2.1.0, ALFRED's release (X display + GPU)",
    depth_to_metres=0.001,  # [thor21-py] add_image_depth yields millimetres
    instance_seg_flag="renderObjectImage",  # [thor21-docs] actions/initialization
    depth_flag="renderDepthImage",
    default_fov=60.0,  # [thor21-docs] actions/initialization: fieldOfView default 60
    initialize_via="step",  # [alfred-env] ThorEnv.reset: super().reset(scene); step(Initialize)
    initialize_params=MappingProxyType(
        {
            # [alfred-env] ThorEnv.reset with gen/constants.py values
            "gridSize": 0.25,
            "cameraY": 0.75,
            "renderImage": True,
            "renderClassImage": False,
            "visibilityDistance": 1.5,
            "makeAgentsVisible": False,
        }
    ),
    platforms=("Linux64",),  # 2.1.0 has no CloudRendering build [thor21-py]
    x_display_style="bare",  # [thor21-py] start(): env['DISPLAY'] = ':' + x_display
    rules=MappingProxyType(
        {
            # 2.1.0 looks move 30 degrees [thor21-docs]; ALFRED teleported to the new horizon
            # instead (ThorEnv.step -> look_angle(+-AGENT_HORIZON_ADJ)) [alfred-env].
            "LookUp": ActionRule(transform="look_by_teleport", source="alfred-env look_angle"),
            "LookDown": ActionRule(transform="look_by_teleport", source="alfred-env look_angle"),
            # Everything else is what ALFRED sent, unchanged [alfred-data].
        }
    ),
)

THOR_5 = VersionProfile(
    name="5",
    description="ai2thor 5.x (X display + GPU, or headless CloudRendering with Vulkan)",
    depth_to_metres=1.0,  # [thor5-py] DepthFormat.Meters; [thor5-docs] environment-state
    instance_seg_flag="renderInstanceSegmentation",  # [thor5-docs] initialization
    depth_flag="renderDepthImage",
    default_fov=90.0,  # [thor5-docs] initialization: fieldOfView 90 for the default agent
    initialize_via="controller",  # [thor5-py] Controller(**params); reset() re-sends Initialize
    initialize_params=MappingProxyType(
        {
            # ALFRED's values [alfred-env] under 5.x names [thor5-docs] initialization. 5.x has no
            # cameraY or makeAgentsVisible; the agent is invisible to its own camera by default.
            "agentMode": "default",
            "gridSize": 0.25,
            "snapToGrid": True,
            "rotateStepDegrees": 90,
            "visibilityDistance": 1.5,
            # ALFRED never set fieldOfView, so its frames have 2.1.0's default of 60 degrees
            # [thor21-docs]; 5.x's default agent uses 90 [thor5-docs], so ask for 60 explicitly.
            "fieldOfView": 60,
        }
    ),
    platforms=("Linux64", "CloudRendering"),  # [thor5-py] ai2thor.platform
    x_display_style="colon",  # [thor5-py] Controller adds the colon itself when missing
    rules=MappingProxyType(
        {
            # [thor5-docs] navigation: LookUp/LookDown take `degrees` (default 30).
            "LookUp": ActionRule(transform="look_by_degrees", source="thor5-docs navigation"),
            "LookDown": ActionRule(transform="look_by_degrees", source="thor5-docs navigation"),
            # [thor5-docs] navigation + [alfworld-5]: position/rotation dicts, standing required.
            "TeleportFull": ActionRule(
                transform="teleport_as_dicts",
                drop_params=("rotateOnTeleport", *_PER_ACTION_RENDER_FLAGS),
                default_params=(("standing", True),),
                source="thor5-docs navigation; alfworld-5",
            ),
            # [thor5-docs] interactive-physics + [alfworld-5]: objectId names the receptacle.
            "PutObject": ActionRule(transform="put_receptacle_only", source="thor5-docs; alfworld-5"),
            # [thor5-docs] object-state-changes: `openness` in [0, 1] replaces moveMagnitude.
            "OpenObject": ActionRule(rename_params=(("moveMagnitude", "openness"),), source="thor5-docs"),
            "ToggleObjectOn": ActionRule(drop_params=_ALFRED_TOGGLE_EXTRAS, source="alfworld-5"),
            "ToggleObjectOff": ActionRule(drop_params=_ALFRED_TOGGLE_EXTRAS, source="alfworld-5"),
            # [alfred-env] restore_scene / [thor-1202]: per-type SetObjectStates instead.
            "SetObjectToggles": ActionRule(transform="toggles_as_object_states", source="thor-1202"),
            "SetStateOfAllObjects": ActionRule(transform="all_states_as_object_states", source="thor-1202"),
            # [alfred-gen] 2.1.0 arguments -> 5.x: numRepeats has the same [{objectType, count}]
            # shape as numDuplicatesOfType; minFreePerReceptacleType has no 5.x counterpart and
            # is approximated by excludedReceptacles (see the transform).
            "InitialRandomSpawn": ActionRule(
                transform="spawn_arguments_5x",
                rename_params=(("numRepeats", "numDuplicatesOfType"),),
                source="alfred-gen; alfworld-5",
            ),
            # ALFRED's restore_scene Initialize step, in 5.x names; [thor5-py] aliases
            # renderObjectImage itself, but renaming keeps one spelling on the wire.
            "Initialize": ActionRule(
                rename_params=(
                    ("renderObjectImage", "renderInstanceSegmentation"),
                    ("renderClassImage", "renderSemanticSegmentation"),
                    ("visibility_distance", "visibilityDistance"),
                ),
                drop_params=("cameraY", "makeAgentsVisible", "renderImage"),
                source="alfred-env; thor5-docs initialization",
            ),
            # ACT-Thor's actions: native, same names and arguments [act-thor].
            **{name: ActionRule(source="act-thor") for name in NATIVE_5X_ACTIONS},
        }
    ),
)

PROFILES: Mapping[str, VersionProfile] = MappingProxyType({THOR_2_1.name: THOR_2_1, THOR_5.name: THOR_5})


def profile_for_version(version: str) -> VersionProfile | None:
    """The profile for an ai2thor version string ("2.1.0", "5.0.0"), or None if unsupported.

    Only the two lines the table was written against are accepted: 2.1.x (ALFRED's) and 5.x.
    Releases in between changed the API several times and were never checked.
    """
    parts = version.strip().split(".")
    if not parts or not parts[0].isdigit():
        return None
    major = int(parts[0])
    minor = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    if major == 2 and minor == 1:
        return THOR_2_1
    if major == 5:
        return THOR_5
    return None
