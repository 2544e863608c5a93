"""What ALFRED's files say about one real THOR room: the facts the importer builds a Scene from.

ALFRED ships no geometry. What it does ship, per FloorPlan, is:

- the layout files: reachable agent points (``-layout.npy``), object types present
  (``-objects.json``), receptacle ids with the agent pose ALFRED interacts from (``-openable.json``);
- released trajectories, each a recorded THOR episode: the objects' names and start poses
  (``scene.object_poses``), the agent's start, every step it walked (all of which THOR accepted),
  the ids of fixtures it used (faucets, lamps, microwaves), and, in its planner actions, which
  receptacle THOR reported each object in when it was picked up
  (``coordinateReceptacleObjectId``); which loose objects the agent walked past (THOR let it
  through, so they leave room for it); and, when a movable-receptacle task never picks up its
  object, that the object lay in the receptacle from the start.

:class:`SceneEvidence` gathers these facts per room, merges any number of trajectories, and
round-trips through JSON (it is stored in the scene catalogue). It decides nothing about geometry;
:mod:`alfred_gen.scenes.alfred.geometry` does that.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.put_facts import PutFact, put_sightings, sighting_facts, with_near
from alfred_gen.scenes.alfred.put_headings import HeadingFact, sighting_headings
from alfred_gen.scenes.alfred.sight_facts import SightFact, sight_facts
from alfred_gen.scenes.alfred.slice_facts import SliceFact, slice_facts
from alfred_gen.sim.scene import AGENT_Y, GRID_SIZE, format_object_id, grid_key

#: Moves whose success in a released demo proves the end point reachable: heading offset, degrees.
_MOVES = {"MoveAhead": 0, "MoveRight": 90, "MoveBack": 180, "MoveLeft": 270}


def id_position(object_id: str) -> tuple[float, float, float]:
    """The (x, y, z) a THOR id encodes: ``Type|x|y|z`` or ``Sink|x|y|z|SinkBasin``."""
    fields = object_id.split("|")
    return (float(fields[1]), float(fields[2]), float(fields[3]))


def is_static_id(object_id: str) -> bool:
    """Whether an id names a fixed part of the room (a receptacle, a lamp), not a pickupable object."""
    if not isinstance(object_id, str) or object_id.count("|") < 3:
        return False
    kind = catalogue.type_of_id(object_id)
    entry = catalogue.OBJECT_TYPES.get(kind)
    if entry is None or entry.pickupable:
        return False
    return object_id.count("|") == 3 or kind in ("SinkBasin", "BathtubBasin")


def type_of_name(object_name: str) -> str:
    """THOR 2.1 object names are ``<Type>_<8 hex>``: ``Mug_79472253`` -> ``Mug``."""
    return object_name.rsplit("_", 1)[0] if "_" in object_name else object_name


def _xyz(value: Mapping[str, Any]) -> tuple[float, float, float]:
    return (float(value["x"]), float(value["y"]), float(value["z"]))


@dataclass(frozen=True)
class SupportFact:
    """THOR's word on where an object lay at the start: ``receptacle_type`` near ``receptacle_at``.

    From a planner PickupObject's ``coordinateReceptacleObjectId`` (the receptacle THOR listed as
    the object's parent), for the first pickup of an object still at its start pose.
    """

    object_name: str
    position: tuple[float, float, float]
    yaw: float
    receptacle_type: str
    receptacle_at: tuple[float, float, float]

    def to_list(self) -> list[Any]:
        return [self.object_name, list(self.position), self.yaw, self.receptacle_type, list(self.receptacle_at)]

    @staticmethod
    def from_list(data: list[Any]) -> SupportFact:
        return SupportFact(str(data[0]), tuple(data[1]), float(data[2]), str(data[3]), tuple(data[4]))


@dataclass(frozen=True)
class ContentFact:
    """A loose object that lay inside a movable receptacle (a Box, a Bowl) at the start.

    From a ``pick_and_place_with_movable_recep`` demo whose plan picks up the receptacle but never
    the task's object, and whose goal THOR confirmed: the object was inside already. Of several
    objects of that type, the one nearest to the receptacle's origin.
    """

    object_name: str
    position: tuple[float, float, float]
    yaw: float
    container_name: str
    container_at: tuple[float, float, float]
    container_yaw: float

    def to_list(self) -> list[Any]:
        return [self.object_name, list(self.position), self.yaw, self.container_name, list(self.container_at),
                self.container_yaw]

    @staticmethod
    def from_list(data: list[Any]) -> ContentFact:
        return ContentFact(str(data[0]), tuple(float(c) for c in data[1]), float(data[2]),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
                           str(data[3]), tuple(float(c) for c in data[4]), float(data[5]))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]


@dataclass(frozen=True)
class ClearanceFact:
    """Points a demo walked through while a loose object lay near the floor at ``position``:
    THOR's agent passed, so the object's box leaves them room (only points within
    :data:`CLEARANCE_RANGE` are kept)."""

    object_name: str
    position: tuple[float, float, float]
    yaw: float
    points: tuple[tuple[float, float], ...]

    def to_list(self) -> list[Any]:
        return [self.object_name, list(self.position), self.yaw, [list(p) for p in self.points]]

    @staticmethod
    def from_list(data: list[Any]) -> ClearanceFact:
        return ClearanceFact(str(data[0]), tuple(float(c) for c in data[1]), float(data[2]),  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
                             tuple((float(x), float(z)) for x, z in data[3]))


#: Loose objects whose origin is this close to the floor may stand in the agent's way.
NEAR_FLOOR = 0.5
#: Walked points farther than this (horizontally) from an object say nothing about its box.
CLEARANCE_RANGE = 0.8
#: How far from a movable receptacle's origin an object it held may lie (horizontally, metres).
CONTENT_RANGE = 0.5


@dataclass
class TrajectoryFacts:
    """The facts one released traj_data.json gives about its room."""

    scene_num: int
    agent_y: float
    points: list[tuple[float, float]]
    object_poses: list[tuple[str, tuple[float, float, float], float]]
    static_ids: list[str]
    supports: list[SupportFact]
    #: (static object id, [x, z, rotation, horizon]) the demo interacted with it from.
    interaction_poses: list[tuple[str, list[float]]] = field(default_factory=list)
    contents: list[ContentFact] = field(default_factory=list)
    clearances: list[ClearanceFact] = field(default_factory=list)
    sights: list[SightFact] = field(default_factory=list)
    puts: list[PutFact] = field(default_factory=list)
    headings: list[HeadingFact] = field(default_factory=list)
    slices: list[SliceFact] = field(default_factory=list)


def dead_reckoning(scene_block: Mapping[str, Any], low_actions: Iterable[Mapping[str, Any]]
                   ) -> tuple[list[tuple[float, float]], list[tuple[str, list[float]]]]:
    """(points, interactions) of a released demo, by dead reckoning on the 0.25 m grid.

    ``points``: the start point and every point the agent moved to. ``interactions``: (object id,
    [x, z, rotation, horizon]) for every interaction, the pose the agent acted from. Released demos
    contain only actions THOR executed, so each point is reachable and each pose reaches its target.
    """
    points, steps = interaction_steps(scene_block, low_actions)
    return points, [(target, pose) for _, target, pose in steps]


#: What reading a malformed trajectory's evidence raises (a missing key, a value of the wrong kind,
#: a short list): the passes that read a replayed file's own evidence then read none, and its replay
#: says what is wrong with it.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def interaction_steps(scene_block: Mapping[str, Any], low_actions: Iterable[Mapping[str, Any]]
                      ) -> tuple[list[tuple[float, float]], list[tuple[int, str, list[float]]]]:
    """As :func:`dead_reckoning`, each interaction with the index of its low action."""
    points, interactions = _walk(scene_block, low_actions)
    return [p for _, p in points], interactions


def _walk(scene_block: Mapping[str, Any], low_actions: Iterable[Mapping[str, Any]]
          ) -> tuple[list[tuple[int, tuple[float, float]]], list[tuple[int, str, list[float]]]]:
    """(points, interactions) by dead reckoning, each point with the index of the low action that
    reached it (-1 for the start)."""
    init = scene_block["init_action"]
    x, z = float(init["x"]), float(init["z"])
    rotation = float(init.get("rotation", 0.0))
    horizon = float(init.get("horizon", 0.0))
    points = [(-1, (x, z))]
    interactions: list[tuple[int, str, list[float]]] = []
    for index, low in enumerate(low_actions):
        api = low.get("api_action") or {}
        name = api.get("action")
        if name == "RotateRight":
            rotation += float(api.get("degrees", 90.0))
        elif name == "RotateLeft":
            rotation -= float(api.get("degrees", 90.0))
        elif name == "LookDown":
            horizon += float(api.get("degrees", 15.0))
        elif name == "LookUp":
            horizon -= float(api.get("degrees", 15.0))
        elif name in _MOVES:
            steps = max(1, round(float(api.get("moveMagnitude", GRID_SIZE)) / GRID_SIZE))
            heading = math.radians(rotation + _MOVES[name])
            dx, dz = round(math.sin(heading)), round(math.cos(heading))
            for _ in range(steps):
                x, z = round(x + dx * GRID_SIZE, 4), round(z + dz * GRID_SIZE, 4)
                points.append((index, (x, z)))
        elif name in ("TeleportFull", "Teleport") and "x" in api and "z" in api:
            x, z = float(api["x"]), float(api["z"])
            points.append((index, (x, z)))
            if "rotation" in api:
                value = api["rotation"]
                rotation = float(value.get("y", 0.0) if isinstance(value, Mapping) else value)
            if "horizon" in api:
                horizon = float(api["horizon"])
        else:
            for key in ("receptacleObjectId", "objectId"):
                target = api.get(key)
                if name != "PutObject" and key == "receptacleObjectId":
                    continue
                if isinstance(target, str):
                    interactions.append((index, target, [x, z, float(round(rotation) % 360), horizon]))
                    break
    return points, interactions


def walked_points(scene_block: Mapping[str, Any],
                  low_actions: Iterable[Mapping[str, Any]]) -> list[tuple[float, float]]:
    """The start point and every point the agent moved to (see :func:`dead_reckoning`)."""
    return dead_reckoning(scene_block, low_actions)[0]


def _planner_locations(high_pddl: Iterable[Mapping[str, Any]]) -> list[tuple[float, float]]:
    """GotoLocation targets ``loc|x|z|rotation|horizon`` (grid units): where the planner stood."""
    out = []
    for high in high_pddl:
        action = high.get("planner_action") or {}
        location = action.get("location")
        if action.get("action") == "GotoLocation" and isinstance(location, str) and location.startswith("loc|"):
            fields = location.split("|")
            try:
                out.append((int(fields[1]) * GRID_SIZE, int(fields[2]) * GRID_SIZE))
            except (IndexError, ValueError):
                continue
    return out


def _coordinate_position(value: Any) -> tuple[str, tuple[float, float, float]] | None:
    """ALFRED's ``[Type, [4x, 4x, 4z, 4z, 4y, 4y]]`` (positions in quarter metres) as (type, xyz)."""
    if not (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], list)
        and len(value[1]) == 6
    ):
        return None
    try:
        c = [float(v) / 4.0 for v in value[1]]
    except (TypeError, ValueError):
        return None
    return value[0], (c[0], c[4], c[2])


def _first_pickups(low_actions: list[Mapping[str, Any]]) -> dict[str, int]:
    """Object id -> index of the first low action that picks it up."""
    out: dict[str, int] = {}
    for i, low in enumerate(low_actions):
        api = low.get("api_action") or {}
        if api.get("action") == "PickupObject" and isinstance(api.get("objectId"), str):
            out.setdefault(api["objectId"], i)
    return out


def clearance_facts(
    scene: Mapping[str, Any],
    low_actions: list[Mapping[str, Any]],
    poses: list[tuple[str, tuple[float, float, float], float]],
) -> list[ClearanceFact]:
    """For every pickupable lying near the floor, the nearby points the agent walked through before
    it first picked that object up."""
    floor_y = float(scene["init_action"].get("y", 0.0)) - AGENT_Y
    pickups = _first_pickups(low_actions)
    walked = _walk(scene, low_actions)[0]
    out = []
    for name, position, yaw in poses:
        kind = type_of_name(name)
        entry = catalogue.OBJECT_TYPES.get(kind)
        if entry is None or not entry.pickupable or position[1] - floor_y > NEAR_FLOOR:
            continue
        until = pickups.get(format_object_id(kind, position, True), len(low_actions))
        near = sorted(
            {
                (x, z)
                for index, (x, z) in walked
                if index < until
                if abs(x - position[0]) <= CLEARANCE_RANGE and abs(z - position[2]) <= CLEARANCE_RANGE
            }
        )
        if near:
            out.append(ClearanceFact(name, position, yaw, tuple(near)))
    return out


def content_facts(
    traj: Mapping[str, Any],
    start_ids: Mapping[str, tuple[str, tuple[float, float, float], float]],
    poses: list[tuple[str, tuple[float, float, float], float]],
) -> list[ContentFact]:
    """What a movable-receptacle demo proves lay inside its receptacle at the start (:class:`ContentFact`)."""
    params = traj.get("pddl_params") or {}
    target, mrecep = params.get("object_target"), params.get("mrecep_target")
    if not (isinstance(target, str) and isinstance(mrecep, str) and target and mrecep) or params.get("object_sliced"):
        return []
    picked = []
    for high in (traj.get("plan") or {}).get("high_pddl") or ():
        action = high.get("planner_action") or {}
        if action.get("action") == "PickupObject" and isinstance(action.get("objectId"), str):
            picked.append(action["objectId"])
    kinds = [catalogue.type_of_id(i) for i in picked]
    if target in kinds or mrecep not in kinds:
        return []
    container = start_ids.get(picked[kinds.index(mrecep)])
    if container is None:
        return []
    cname, (cx, cy, cz), cyaw = container
    near = sorted(
        (math.hypot(p[0] - cx, p[2] - cz), name, p, yaw)
        for name, p, yaw in poses
        if type_of_name(name) == target and -0.5 <= p[1] - cy <= 0.2
    )
    if not near or near[0][0] > CONTENT_RANGE:
        return []
    _, name, position, yaw = near[0]
    return [ContentFact(name, position, yaw, cname, (cx, cy, cz), cyaw)]


StartPose = tuple[str, tuple[float, float, float], float]


def start_poses(scene: Mapping[str, Any]) -> list[StartPose]:
    """(object name, origin, yaw) of each object a trajectory's ``scene`` block poses at the start."""
    poses = []
    for pose in scene.get("object_poses") or ():
        yaw = float((pose.get("rotation") or {}).get("y", 0.0))
        poses.append((str(pose["objectName"]), _xyz(pose["position"]), yaw))
    return poses


def start_ids_of(poses: Iterable[StartPose]) -> dict[str, StartPose]:
    """THOR object id -> its start pose: a released trajectory names the objects it acts on by ids
    made of their start positions (the first pose of an id wins)."""
    ids: dict[str, StartPose] = {}
    for name, position, yaw in poses:
        ids.setdefault(format_object_id(type_of_name(name), position, True), (name, position, yaw))
    return ids


def trajectory_facts(traj: Mapping[str, Any]) -> TrajectoryFacts:
    """Everything a released trajectory says about its room (KeyError/TypeError if malformed)."""
    scene = traj["scene"]
    plan = traj.get("plan") or {}
    low_actions = plan.get("low_actions") or []
    high_pddl = plan.get("high_pddl") or []
    poses = start_poses(scene)
    start_ids = start_ids_of(poses)
    static: set[str] = set()
    for entry in [
        *(low.get("api_action") or {} for low in low_actions),
        *(high.get("planner_action") or {} for high in high_pddl),
    ]:
        for key in ("objectId", "receptacleObjectId"):
            value = entry.get(key)
            if isinstance(value, str) and is_static_id(value):
                static.add(value)
    supports = []
    picked: set[str] = set()
    for high in high_pddl:
        action = high.get("planner_action") or {}
        if action.get("action") != "PickupObject":
            continue
        object_id = action.get("objectId")
        if not isinstance(object_id, str) or object_id in picked:
            continue
        picked.add(object_id)
        where = _coordinate_position(action.get("coordinateReceptacleObjectId"))
        if where is None or object_id not in start_ids:
            continue
        name, position, yaw = start_ids[object_id]
        supports.append(SupportFact(name, position, yaw, where[0], where[1]))
    walked, steps = interaction_steps(scene, low_actions)
    interactions = [(target, pose) for _, target, pose in steps]
    points = walked + _planner_locations(high_pddl)
    agent_y = float(scene["init_action"].get("y", 0.0))
    sightings = put_sightings(low_actions, steps)
    return TrajectoryFacts(
        scene_num=int(scene["scene_num"]),
        agent_y=agent_y,
        points=points,
        object_poses=poses,
        static_ids=sorted(static),
        supports=supports,
        interaction_poses=[(i, pose) for i, pose in interactions if is_static_id(i)],
        contents=content_facts(traj, start_ids, poses),
        clearances=clearance_facts(scene, low_actions, poses),
        sights=sight_facts(low_actions, steps, agent_y, start_ids, is_static_id),
        puts=with_near(sighting_facts(sightings, agent_y), [(type_of_name(n), p) for n, p, _ in poses]),
        headings=sighting_headings(sightings, agent_y),
        slices=slice_facts(low_actions, steps, agent_y, start_ids),
    )


@dataclass
class SceneEvidence:
    """Everything known about one FloorPlan, merged over its layout files and trajectories."""

    scene_num: int
    layout_points: list[tuple[float, float]] = field(default_factory=list)
    openable: dict[str, list[float]] = field(default_factory=dict)
    types_present: list[str] = field(default_factory=list)
    agent_ys: list[float] = field(default_factory=list)
    walked: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)
    #: object name -> every distinct start pose seen ((x, y, z), yaw), in the order first seen.
    objects: dict[str, list[tuple[tuple[float, float, float], float]]] = field(default_factory=dict)
    static_ids: set[str] = field(default_factory=set)
    supports: list[SupportFact] = field(default_factory=list)
    #: static object id -> agent poses [x, z, rotation, horizon] a demo interacted with it from.
    used_from: dict[str, list[list[float]]] = field(default_factory=dict)
    contents: list[ContentFact] = field(default_factory=list)
    clearances: list[ClearanceFact] = field(default_factory=list)
    sights: list[SightFact] = field(default_factory=list)
    #: Where THOR put objects into fridges, from the pose of the put (:mod:`put_facts`).
    puts: list[PutFact] = field(default_factory=list)
    #: Which way THOR laid long things put into sink basins, from the pose of the put (:mod:`put_headings`).
    headings: list[HeadingFact] = field(default_factory=list)
    #: Where THOR laid the slices its demos picked up, in their whole's frame (:mod:`slice_facts`).
    slices: list[SliceFact] = field(default_factory=list)
    trajectories: int = 0

    @property
    def name(self) -> str:
        return f"FloorPlan{self.scene_num}"

    def add_trajectory(self, facts: TrajectoryFacts) -> None:
        """Fold one trajectory's facts in (order of calls matters only for first-seen order)."""
        self.trajectories += 1
        self.agent_ys.append(facts.agent_y)
        for x, z in facts.points:
            self.walked.setdefault(
                grid_key(x, z), (round(grid_key(x, z)[0] * GRID_SIZE, 4), round(grid_key(x, z)[1] * GRID_SIZE, 4))
            )
        for name, position, yaw in facts.object_poses:
            seen = self.objects.setdefault(name, [])
            if (position, yaw) not in seen:
                seen.append((position, yaw))
        self.static_ids.update(facts.static_ids)
        for fact in facts.supports:
            if fact not in self.supports:
                self.supports.append(fact)
        for object_id, pose in facts.interaction_poses:
            poses = self.used_from.setdefault(object_id, [])
            if pose not in poses:
                poses.append(pose)
        for content in facts.contents:
            if content not in self.contents:
                self.contents.append(content)
        for clearance in facts.clearances:
            if clearance not in self.clearances:
                self.clearances.append(clearance)
        self.sights.extend(facts.sights)
        self.puts.extend(facts.puts)
        self.headings.extend(facts.headings)
        self.slices.extend(facts.slices)

    def agent_y(self, default: float) -> float:
        """The agent's height in this room: the median over its trajectories' start teleports."""
        if not self.agent_ys:
            return default
        ys = sorted(self.agent_ys)
        return ys[len(ys) // 2]

    # --- storage ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "scene_num": self.scene_num,
            "layout_points": [list(p) for p in self.layout_points],
            "openable": {k: list(v) for k, v in sorted(self.openable.items())},
            "types_present": sorted(self.types_present),
            "agent_ys": list(self.agent_ys),
            "walked": sorted([list(p) for p in self.walked.values()]),
            "objects": {name: [[list(p), yaw] for p, yaw in poses] for name, poses in sorted(self.objects.items())},
            "static_ids": sorted(self.static_ids),
            "supports": [s.to_list() for s in self.supports],
            "used_from": {k: [list(p) for p in v] for k, v in sorted(self.used_from.items())},
            "contents": [c.to_list() for c in self.contents],
            "clearances": [c.to_list() for c in self.clearances],
            "sights": [f.to_list() for f in self.sights],
            "puts": [f.to_list() for f in self.puts],
            "headings": [f.to_list() for f in self.headings],
            "slices": [f.to_list() for f in self.slices],
            "trajectories": self.trajectories,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> SceneEvidence:
        evidence = SceneEvidence(int(data["scene_num"]))
        evidence.layout_points = [(float(x), float(z)) for x, z in data.get("layout_points", ())]
        evidence.openable = {k: [float(v) for v in pose] for k, pose in data.get("openable", {}).items()}
        evidence.types_present = list(data.get("types_present", ()))
        evidence.agent_ys = [float(y) for y in data.get("agent_ys", ())]
        evidence.walked = {grid_key(x, z): (float(x), float(z)) for x, z in data.get("walked", ())}
        evidence.objects = {
            name: [(tuple(float(c) for c in p), float(yaw)) for p, yaw in poses]  # type: ignore[misc]  # stored positions are written as [x, y, z]
            for name, poses in data.get("objects", {}).items()
        }
        evidence.static_ids = set(data.get("static_ids", ()))
        evidence.supports = [SupportFact.from_list(s) for s in data.get("supports", ())]
        evidence.used_from = {k: [[float(c) for c in p] for p in v] for k, v in data.get("used_from", {}).items()}
        evidence.contents = [ContentFact.from_list(c) for c in data.get("contents", ())]
        evidence.clearances = [ClearanceFact.from_list(c) for c in data.get("clearances", ())]
        evidence.sights = [SightFact.from_list(f) for f in data.get("sights", ())]
        evidence.puts = [PutFact.from_list(f) for f in data.get("puts", ())]
        evidence.headings = [HeadingFact.from_list(f) for f in data.get("headings", ())]
        evidence.slices = [SliceFact.from_list(f) for f in data.get("slices", ())]
        evidence.trajectories = int(data.get("trajectories", 0))
        return evidence

    def copy(self) -> SceneEvidence:
        return SceneEvidence.from_dict(self.to_dict())
