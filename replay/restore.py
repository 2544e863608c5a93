"""Rebuilding a trajectory's start state from its ``scene`` block, exactly as ALFRED's replay did.

ALFRED (``env/thor_env.py`` ``restore_scene`` and the scripts that call it) rebuilds a start state
in this order, and so do we:

1. ``reset(floor_plan)``;
2. ``Initialize`` (grid 0.25 m, camera 0.75 m above the agent, visibility 1.5 m);
3. ``SetObjectToggles`` with ``object_toggles``, if there are any;
4. if ``dirty_and_empty``: ``SetStateOfAllObjects`` CanBeDirty (``forceAction`` true: every
   dirtyable object dirty), then CanBeFilled (``forceAction`` false: every fillable object empty);
5. ``SetObjectPoses`` with ``object_poses`` (always, even when empty: objects not listed go away);
6. the ``init_action`` (a ``TeleportFull`` to the agent's start pose).

One key of our own may come after ``Initialize``: ``color_variation`` true (written by ``alfred-gen
eqa paths``) steps lite's ``SetColorVariation``, so objects show the per-instance colours that
EQA's colour questions were asked about. Files without the key restore exactly as before.

``object_poses`` lists only pickupable objects, as ALFRED's files do and THOR's ``SetObjectPoses``
moves them. Lite's catalogue also calls some furniture moveable (sofas, chairs, tables, a
microwave), and lite's ``SetObjectPoses`` puts back what it is given; so a file made in lite keeps
that furniture's poses under the extra key ``furniture_poses``, which is added to lite's
``SetObjectPoses`` (and never sent to THOR): lite rebuilds the recorded start state exactly.

Scene names: a trajectory's ``floor_plan`` is found by the controller: lite asks the scene lookup
it was made with (:meth:`~alfred_gen.sim.controller.SceneLookup.for_start_state`, which may complete
a room known only from evidence with what the start state proves it holds), THOR loads its own
``FloorPlan<N>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.controller import Controller, FileEvidence
from alfred_gen.sim.event import head_of

#: ALFRED's ``Initialize`` for recording and replay (its gen/constants.py values).
INITIALIZE_ACTION: dict[str, Any] = {
    "action": "Initialize",
    "gridSize": 0.25,
    "cameraY": 0.75,
    "visibilityDistance": 1.5,
    "makeAgentsVisible": False,
}

#: The scene block's optional key asking for lite's per-instance colours (see the module docstring).
COLOR_VARIATION_KEY = "color_variation"

#: The scene block's optional key with lite's moveable furniture (see the module docstring).
FURNITURE_POSES_KEY = "furniture_poses"

_SCENE_KEYS = ("floor_plan", "object_poses", "object_toggles", "dirty_and_empty", "init_action")


class RestoreError(UserError):
    """A setup action failed while restoring a start state: the file does not fit the scene.

    ``step`` names the failing setup action (``SetObjectPoses``, ``init_action``, ...).
    """

    def __init__(self, message: str, step: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
        super().__init__(message, code)
        self.step = step


def _check_block(scene_block: Any) -> None:
    if not isinstance(scene_block, Mapping):
        raise UserError("scene block is not an object", ExitCode.BAD_INPUT)
    for key in _SCENE_KEYS:
        if key not in scene_block:
            raise UserError(f"scene block has no {key!r}", ExitCode.BAD_INPUT)
    checks = {
        "floor_plan": lambda v: isinstance(v, str) and bool(v),
        "object_poses": lambda v: isinstance(v, list) and all(isinstance(p, Mapping) for p in v),
        "object_toggles": lambda v: isinstance(v, list) and all(isinstance(t, Mapping) for t in v),
        "dirty_and_empty": lambda v: isinstance(v, bool),
        "init_action": lambda v: isinstance(v, Mapping) and isinstance(v.get("action"), str),
    }
    for key, ok in checks.items():
        if not ok(scene_block[key]):
            raise UserError(f"scene block: malformed {key!r}", ExitCode.BAD_INPUT)
    if not isinstance(scene_block.get(COLOR_VARIATION_KEY, False), bool):
        raise UserError(f"scene block: malformed {COLOR_VARIATION_KEY!r}", ExitCode.BAD_INPUT)
    furniture = scene_block.get(FURNITURE_POSES_KEY, [])
    if not (isinstance(furniture, list) and all(isinstance(p, Mapping) for p in furniture)):
        raise UserError(f"scene block: malformed {FURNITURE_POSES_KEY!r}", ExitCode.BAD_INPUT)


def _scene_for(controller: Controller, floor_plan: str, scene_block: Mapping[str, Any],
               trajectory: Mapping[str, Any] | None = None) -> Any:
    """What to reset to: the Scene the controller's scene lookup gives for this start state (lite),
    else the name (THOR loads its own rooms)."""
    lookup = getattr(controller, "scene_lookup", None)
    if lookup is None:
        return floor_plan
    if trajectory is None:
        return lookup.for_start_state(floor_plan, scene_block)
    return lookup.for_start_state(floor_plan, scene_block, trajectory)


def restore_trajectory(controller: Controller, trajectory: Mapping[str, Any]) -> Any:
    """:func:`restore_scene` for the start state of a whole trajectory being replayed: the scene
    lookup may also complete its room with the fixtures the trajectory's actions name (lite's scene
    library does, unless made with ``complete=False``: ``--no-complete``). A KeyError for a file
    without a ``scene`` block, as ``restore_scene(controller, trajectory["scene"])``."""
    return restore_scene(controller, trajectory["scene"], trajectory=trajectory)


def completed_from_file(controller: Controller, trajectory: Mapping[str, Any]) -> tuple[str, ...]:
    """The ids of the objects :func:`restore_trajectory` added to the room from the trajectory (none
    for THOR, a lookup that completes nothing, or a room that already held them)."""
    return file_evidence(controller, trajectory).completed


def file_evidence(controller: Controller, trajectory: Mapping[str, Any]) -> FileEvidence:
    """What :func:`restore_trajectory` took from the trajectory itself (:class:`FileEvidence`):
    nothing for THOR, a lookup that takes nothing, or a malformed file (its replay says what is wrong)."""
    lookup = getattr(controller, "scene_lookup", None)
    evidence = getattr(lookup, "file_evidence", None)
    scene_block = trajectory.get("scene") if isinstance(trajectory, Mapping) else None
    if evidence is None or not isinstance(scene_block, Mapping) or not isinstance(scene_block.get("floor_plan"), str):
        return FileEvidence()
    try:
        return evidence(scene_block["floor_plan"], scene_block, trajectory)
    except (UserError, KeyError, LookupError, ValueError, TypeError):
        return FileEvidence()


def _setup_step(controller: Controller, action: dict[str, Any], step: str) -> Any:
    event = controller.step(action)
    metadata = head_of(event)
    if not metadata.get("lastActionSuccess", False):
        message = " ".join(str(metadata.get("errorMessage") or "failed").split())
        raise RestoreError(f"restoring the scene: {step} failed: {message}", step)
    return event


def restore_scene(controller: Controller, scene_block: Mapping[str, Any],
                  trajectory: Mapping[str, Any] | None = None) -> Any:
    """Put ``controller`` into the start state a traj_data.json ``scene`` block describes.

    ``trajectory`` is the whole file whose start state this is, when there is one
    (:func:`restore_trajectory`): the scene lookup may complete the room from it.

    Returns the Event after the ``init_action``. Raises UserError: NOT_FOUND for an unknown
    ``floor_plan``; BAD_INPUT for a malformed block; :class:`RestoreError` (BAD_INPUT) when a setup
    action fails (poses naming objects the scene lacks, a start pose off the grid, ...).
    """
    _check_block(scene_block)
    floor_plan = scene_block["floor_plan"]
    try:
        controller.reset(_scene_for(controller, floor_plan, scene_block, trajectory))
    except UserError:
        raise
    except (KeyError, LookupError) as error:
        raise UserError(f"unknown scene {floor_plan!r}", ExitCode.NOT_FOUND) from error
    _setup_step(controller, dict(INITIALIZE_ACTION), "Initialize")
    if scene_block.get(COLOR_VARIATION_KEY, False):
        _setup_step(controller, {"action": "SetColorVariation", "enabled": True}, "SetColorVariation")
    if scene_block["object_toggles"]:
        _setup_step(controller, {"action": "SetObjectToggles",
                                 "objectToggles": [dict(t) for t in scene_block["object_toggles"]]},
                    "SetObjectToggles")
    if scene_block["dirty_and_empty"]:
        _setup_step(controller, {"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty",
                                 "forceAction": True}, "SetStateOfAllObjects CanBeDirty")
        _setup_step(controller, {"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled",
                                 "forceAction": False}, "SetStateOfAllObjects CanBeFilled")
    poses = [dict(p) for p in scene_block["object_poses"]]
    if not hasattr(controller, "ai2thor_version"):  # lite rebuilds its furniture too; THOR never sees it
        poses += [dict(p) for p in scene_block.get(FURNITURE_POSES_KEY) or ()]
    _setup_step(controller, {"action": "SetObjectPoses", "objectPoses": poses}, "SetObjectPoses")
    return _setup_step(controller, dict(scene_block["init_action"]), "init_action")
