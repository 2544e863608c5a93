"""The start state of a demonstration: one module that ``generate``, ``plan`` and the sampler share.

A start state is a function of (scene, task, seed), built in this order:

1. reset the scene and ``Initialize`` it as ALFRED does;
2. ``InitialRandomSpawn`` with the seed (ALFRED's arguments, :data:`SPAWN_ARGS`);
3. the agent's start pose: a seeded choice among the reachable points, horizon 30;
4. the ``scene`` block that records all of it (object poses, toggles, dirty-and-empty, the
   ``TeleportFull``), which is what a trajectory file carries;
5. the simulator put into that state *from the block* with the replay's
   :func:`~alfred_gen.replay.restore.restore_scene`, so the demonstration starts exactly where a
   replay of the file will.

:func:`encode_start` turns the state into the PDDL problem. ``generate`` solves that problem and
writes it as ``pddl_states/problem_0.pddl``; ``plan`` prints the plan of the very same problem, and
``plan --pddl-out`` writes the very same text.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from alfred_gen.domains.tasks import TaskSpec, get_task_type
from alfred_gen.errors import GenerationReason
from alfred_gen.planner.encode import EncodedProblem, agent_pose_of, encode_problem
from alfred_gen.replay.restore import FURNITURE_POSES_KEY, INITIALIZE_ACTION, RestoreError, restore_scene
from alfred_gen.scenes.library import find_scene, get_scene, resolve_scene_number
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.event import head_of
from alfred_gen.sim.scene import Scene, hash_str
from alfred_gen.traj.scene_nums import lite_room_of_scene_num, scene_num_for

#: InitialRandomSpawn arguments besides the seed (ALFRED's generator uses the same).
SPAWN_ARGS: dict[str, Any] = {"numPlacementAttempts": 15, "placeStationary": True, "forceVisible": True}

#: The agent's camera horizon at the start, as in every released ALFRED trajectory.
START_HORIZON = 30


class StartStateError(Exception):
    """The start state could not be built: ``reason`` is SPAWN_FAILED or RESTORE_FAILED."""

    def __init__(self, reason: GenerationReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = " ".join(detail.split())


@dataclass
class StartState:
    """A demonstration's start: the room, the seed, ALFRED's ``scene`` block, the simulator's
    event after restoring that block, and the reachable points there."""

    scene: Scene
    seed: int
    scene_block: dict[str, Any]
    event: Any
    reachable: list[tuple[float, float]]

    @property
    def metadata(self) -> dict[str, Any]:
        return self.event.metadata


def find_room(scene: int | str | Scene) -> Scene:
    """The room meant by a number (``7``, or the ``10007`` its files record), a name (``LitePlan7``,
    ``FloorPlan10``, a fixture's), or a Scene itself. UserError(NOT_FOUND) for an unknown one."""
    if isinstance(scene, Scene):
        return scene
    if isinstance(scene, str) and not scene.strip().isdigit():
        return find_scene(scene.strip())
    number = int(scene)
    return get_scene(resolve_scene_number(lite_room_of_scene_num(number) or number))


def start_pose(reachable: list[tuple[float, float]], seed: int) -> tuple[float, float, int]:
    """The agent's start (x, z, rotation), a seeded choice among the reachable grid points."""
    points = sorted(reachable)
    if not points:
        raise StartStateError(GenerationReason.SPAWN_FAILED, "the scene has no reachable position")
    rng = random.Random(hash_str(f"alfred-gen start pose {int(seed)}"))
    x, z = points[rng.randrange(len(points))]
    return x, z, 90 * rng.randrange(4)


def object_poses_of(metadata: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Poses of every whole pickupable or moveable object of a state, in metadata order: what lite's
    ``SetObjectPoses`` puts back (see :func:`split_poses` for what a file lists where)."""
    poses = []
    for obj in metadata.get("objects") or ():
        if (obj.get("pickupable") or obj.get("moveable")) and not obj.get("isSliced"):
            poses.append({
                "objectName": obj["name"],
                "position": dict(obj["position"]),
                "rotation": dict(obj["rotation"]),
            })
    return poses


def split_poses(metadata: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(``object_poses``, ``furniture_poses``) of a state.

    ``object_poses`` is ALFRED's: the pickupable objects, as ALFRED's generator recorded them and
    THOR's ``SetObjectPoses`` moves them (the released files list nothing else). Furniture that is
    merely moveable in lite's catalogue (sofas, chairs, tables, a microwave...) goes under the extra
    key ``furniture_poses``, which only lite reads back (:func:`alfred_gen.replay.restore.restore_scene`),
    so a lite replay rebuilds exactly the recorded start state and a THOR client never sees it."""
    pickupable = {obj["name"] for obj in metadata.get("objects") or () if obj.get("pickupable")}
    poses = object_poses_of(metadata)
    return ([p for p in poses if p["objectName"] in pickupable],
            [p for p in poses if p["objectName"] not in pickupable])


def build_scene_block(
    scene: Scene, task: TaskSpec, seed: int, metadata: Mapping[str, Any], pose: tuple[float, float, int]
) -> dict[str, Any]:
    """The ``scene`` block restoring the spawned state with the agent at ``pose``."""
    x, z, rotation = pose
    toggles = [{"isOn": False, "objectType": task.toggle_target}] if task.toggle_target else []
    object_poses, furniture = split_poses(metadata)
    block = {
        "dirty_and_empty": get_task_type(task.task_type).starts_dirty,
        "floor_plan": scene.name,
        "init_action": {
            "action": "TeleportFull",
            "horizon": START_HORIZON,
            "rotateOnTeleport": True,
            "rotation": rotation,
            "x": x,
            "y": float(metadata["agent"]["position"]["y"]),
            "z": z,
        },
        "object_poses": object_poses,
        "object_toggles": toggles,
        "random_seed": int(seed),
        "scene_num": recorded_scene_num(scene),
    }
    if furniture:
        block[FURNITURE_POSES_KEY] = furniture
    return block


def recorded_scene_num(scene: Scene) -> int:
    """The ``scene_num`` a file of ``scene`` records: ALFRED's number for a THOR room, one that names
    no THOR room for lite's rooms and houses (:mod:`alfred_gen.traj.scene_nums`)."""
    number = scene_num_for(scene.name)
    return int(scene.scene_num) if number is None else number


def _step(controller: Controller, action: dict[str, Any], what: str) -> Any:
    event = controller.step(action)
    head = head_of(event)  # no visibility pixels for a check of success
    if not head.get("lastActionSuccess", False):
        raise StartStateError(GenerationReason.SPAWN_FAILED, f"{what}: {head.get('errorMessage') or 'failed'}")
    return event


def reachable_points(controller: Controller) -> list[tuple[float, float]]:
    """The (x, z) points the agent can stand on now (``GetReachablePositions``)."""
    event = _step(controller, {"action": "GetReachablePositions"}, "GetReachablePositions")
    return [(float(p["x"]), float(p["z"])) for p in head_of(event).get("actionReturn") or ()]


def make_start_state(controller: Controller, scene: Scene, task: TaskSpec, seed: int) -> StartState:
    """Spawn ``scene`` from ``seed`` for ``task`` and restore it from its own scene block (see the
    module docstring). Raises :class:`StartStateError` if the spawn or the restore fails."""
    controller.reset(scene.name)
    _step(controller, dict(INITIALIZE_ACTION), "Initialize")
    spawned = _step(controller, {"action": "InitialRandomSpawn", "randomSeed": int(seed), **SPAWN_ARGS},
                    f"InitialRandomSpawn seed {seed}")
    pose = start_pose(reachable_points(controller), seed)
    scene_block = build_scene_block(scene, task, seed, spawned.metadata, pose)
    try:
        event = restore_scene(controller, scene_block)
    except RestoreError as error:
        raise StartStateError(GenerationReason.RESTORE_FAILED, str(error)) from None
    return StartState(scene, int(seed), scene_block, event, reachable_points(controller))


def interaction_poses(scene_poses: Mapping[str, Any], metadata: Mapping[str, Any]) -> dict[str, list[float]]:
    """Receptacle/fixture id -> [x, z, rotation, horizon], plus every pickupable lying directly on a
    posed receptacle mapped to that receptacle's pose (where the agent stands to reach it)."""
    poses = {oid: list(pose.to_list() if hasattr(pose, "to_list") else pose) for oid, pose in scene_poses.items()}
    for obj in metadata.get("objects") or ():
        if obj["objectId"] in poses or not obj.get("pickupable"):
            continue
        for parent in obj.get("parentReceptacles") or ():
            if parent in poses:
                poses[obj["objectId"]] = list(poses[parent])
                break
    return dict(sorted(poses.items()))


def without_objects(metadata: Mapping[str, Any], hidden: Collection[str]) -> Mapping[str, Any]:
    """``metadata`` as if the objects ``hidden`` were not in the room (what a re-plan is given)."""
    if not hidden:
        return metadata
    objects = [o for o in metadata.get("objects") or () if o.get("objectId") not in hidden]
    return {**metadata, "objects": objects}


def encode_start(start: StartState, task: TaskSpec, hidden: Collection[str] = ()) -> EncodedProblem:
    """The PDDL problem of ``task`` in ``start``: the one ``generate`` solves and ``plan`` shows
    (``hidden``: objects left out, for a re-plan without what no pose shows)."""
    metadata = without_objects(start.metadata, hidden)
    poses = interaction_poses(start.scene.interaction_poses, metadata)
    return encode_problem(metadata, task, poses, agent_pose_of(metadata),
                          problem_name=f"{start.scene.name.lower()}-seed{start.seed}")
