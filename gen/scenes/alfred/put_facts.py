"""Where THOR put an object into a fridge, a sink basin or a microwave, read from the mask of the next
interaction with it.

THOR 2.1's PutObject puts the held object on one of the receptacle's spawn points, chosen by the
agent's pose; a THOR fridge has shelves lite does not know (lite knows only the heights where
some start pose rests, :mod:`alfred_gen.scenes.alfred.shelves`), so lite put the object on
another shelf, and the mask of the PickupObject that takes it out again (a cool task) did not
cover lite's object. THOR is deterministic: from the same pose it puts into the same fridge at
the same place (the released demos show identical masks for the same pose, object type and room).

A demo that puts an object into a fridge and interacts with it again (picks it up, or puts
something into it) before anything else moves it records THOR's mask of that object, seen from a
known pose (dead reckoning), usually the pose of the put. The object's size is the catalogue's,
so the mask's extent on screen says how far along the ray through the mask's centroid it lies
(:func:`locate`): a :class:`PutFact` keeps the put's pose and that point. The importer keeps each
fridge's and basin's facts (:func:`alfred_gen.scenes.alfred.put_points.put_points_by_pose`) and lite's
PutObject, from a pose a fact names, puts the object nearest the point THOR put it at (in a basin,
nearest the line of sight through it: :mod:`alfred_gen.sim.put_landing`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.put_landing import MATCH_NEAR
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_WIDTH, decode_mask

#: Receptacle types whose puts are read: fridges, sink basins (a clean task puts the object
#: into the basin, turns the faucet on and off and picks it up, all from the pose of the put) and
#: microwaves (a heat task's put, toggles and pickup, likewise).
PUT_FACT_TYPES = frozenset({"Fridge", "SinkBasin", "Microwave"})

#: Percentiles of the mask's columns and rows taken as its extent (a stray pixel does not stretch it).
EXTENT_PERCENTILES = (2.0, 98.0)

#: Depths (metres along the camera's forward axis) searched for the object's middle.
DEPTHS = np.arange(0.3, 3.0, 0.005)

#: Times the ray is turned to centre the best box's extent on the mask's (see :func:`locate`).
AIM_ROUNDS = 2

#: The points of an object's box whose screen extent is matched to the mask's: its faces' middles,
#: not its corners. The things put into fridges are mostly round (apples, tomatoes, lettuce, mugs,
#: pots), and a round thing's outline is its box's faces', narrower than the corners'. Over 811
#: pickups after a put into a fridge in the train demos, the middle read with the corners lies
#: inside the fridge's box 503 times and its bottom a median 13.5 cm from a shelf lite knows; with
#: the faces' middles 698 times and 9.0 cm.
OUTLINE = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=float)

#: Times the ray is turned for a mask cut by the frame's top edge (:func:`locate`): its start, through
#: the mask's visible middle, is further off the box's middle than a whole mask's.
CUT_TOP_ROUNDS = 4

#: Receptacle types whose put object is read from a mask the frame's top edge cuts (:func:`locate`'s
#: ``cut_top``): fridges (session 84; the helper left them off for the wide pick below, the lead
#: switched them on). A cool task puts into a
#: fridge looking down (horizon 30-60), so a thing THOR put on an upper shelf shows cut by the
#: frame's top: of 920 cool demos in the train set, 153 pickups after a fridge put (from the put's
#: pose) are cut at the top only and are not read, so a pose's points (medians of its facts) know
#: only THOR's lower landings, and a pose whose type always went high uses the any-type point, lower
#: (the in-sample eval's Lettuce-SinkBasin-4: THOR's lettuce at the top of the frame, lite's below
#: it). With ``{"Fridge"}`` 124 of the 153 read inside their fridge's box (widened 0.05 m) and 11
#: rooms' put points change. In-sample mask eval 725 -> 730/757 (Lettuce-SinkBasin-4's 5 episodes,
#: none lost); landing bench (held out, every 5th pair) 102 -> 104/179 (8 won, 6 lost), mean IoU
#: 0.201 -> 0.205; but the wide sample (held out) lost a pick, 2037 -> 2036/2104 (IoU 0.6501 ->
#: 0.6499): FloorPlan25's bowl from one pose goes to 0.93 m in 3 facts and, cut at the top, to
#: 1.20 m in 3, and the held-out median followed the upper shelf where this demo's bowl was low.
#: Taking the lower of an even split's two middle heights as well lost one more wide pick (2035).
#: Switched on (session 84, lead): the readings are THOR's own landings, and the pick given up was
#: THOR's 3:3 split between two shelves, which no median of other demos can call.
CUT_TOP_TYPES: frozenset[str] = frozenset({"Fridge"})

#: Masks with fewer pixels say too little about the object's extent.
MIN_PIXELS = 40


@dataclass(frozen=True)
class PutFact:
    """An object of type ``kind`` put into ``receptacle`` from ``pose`` ([x, z, rotation, horizon])
    and seen again with its middle at ``point`` (world x, y, z)."""

    receptacle: str
    kind: str
    pose: tuple[float, float, float, float]
    point: tuple[float, float, float]
    #: What lay within :data:`~alfred_gen.sim.put_landing.MATCH_NEAR` of ``point`` at the episode's
    #: start (type, x, y, z; the held object's own start excluded): what THOR's choice of this spot
    #: depended on
    #: (:func:`alfred_gen.scenes.alfred.put_points.put_matches_by_pose`).
    near: tuple[tuple[str, float, float, float], ...] = ()

    def to_list(self) -> list[Any]:
        return [self.receptacle, self.kind, list(self.pose), list(self.point), [list(n) for n in self.near]]

    @staticmethod
    def from_list(data: Sequence[Any]) -> PutFact:
        pose = tuple(float(c) for c in data[2])
        point = tuple(float(c) for c in data[3])
        near = tuple((str(n[0]), float(n[1]), float(n[2]), float(n[3])) for n in (data[4] if len(data) > 4 else ()))
        return PutFact(str(data[0]), str(data[1]), pose, point, near)  # type: ignore[arg-type]  # stored as lists of 4 and 3


def locate(mask: np.ndarray, camera: Camera, size: tuple[float, float, float],
           cut_top: bool = False) -> tuple[float, float, float] | None:
    """The middle of an object of ``size`` (world axes) whose THOR mask is ``mask``, seen by ``camera``:
    the point whose box's :data:`OUTLINE` projects to the mask's extent (columns and rows, :data:`EXTENT_PERCENTILES`),
    searched along a ray at each depth of :data:`DEPTHS`; the ray starts through the extent's
    middle and is turned :data:`AIM_ROUNDS` times so the best box's extent is centred on the mask's
    (under perspective a box's middle does not project to its extent's middle). None when the mask
    is too small or touches the frame's edge (its extent is then cut), except, with ``cut_top``, a
    mask cut by the frame's top edge only: its columns and its bottom row are whole, so the box is
    matched to those (:data:`CUT_TOP_ROUNDS` turns of the ray)."""
    rows, cols = np.nonzero(mask)
    if len(rows) < MIN_PIXELS or cols.min() == 0 or rows.max() == FRAME_HEIGHT - 1 or cols.max() == FRAME_WIDTH - 1:
        return None
    topless = bool(rows.min() == 0)
    if topless and not cut_top:
        return None
    lo, hi = EXTENT_PERCENTILES
    left, right_edge = float(np.percentile(cols, lo)), float(np.percentile(cols, hi))
    top, bottom = float(np.percentile(rows, lo)), float(np.percentile(rows, hi))
    if topless:
        top = 0.0
    width, height = right_edge - left + 1, bottom - top + 1  # the last pixel covers one more
    aim = np.array([(left + right_edge) / 2, (top + bottom) / 2])
    # Where the best box's outline should stand: its extent's middle, or for a topless mask the
    # middle of its columns and its bottom row.
    target = np.array([aim[0], bottom]) if topless else aim.copy()
    rounds = CUT_TOP_ROUNDS if topless else AIM_ROUNDS
    right, up, forward = camera.basis()
    us, vs = camera.pixel_offsets()
    half = np.array(size) / 2
    corners = OUTLINE * half
    best_middle = None
    for _ in range(rounds + 1):
        u = float(np.interp(aim[0], np.arange(len(us)), us))
        v = float(np.interp(aim[1], np.arange(len(vs)), vs))
        direction = forward + u * right + v * up  # forward component 1: the parameter is the depth
        middles = camera.position[None, :] + DEPTHS[:, None] * direction[None, :]
        pu, pv, depth = camera.project((middles[:, None, :] + corners[None, :, :]).reshape(-1, 3))
        pu, pv = pu.reshape(len(DEPTHS), len(OUTLINE)), pv.reshape(len(DEPTHS), len(OUTLINE))
        widths = np.abs(pu.max(axis=1) - pu.min(axis=1) - width)
        if topless:  # the columns' extent and the bottom row; the top lies above the frame
            error = widths + np.abs(pv.max(axis=1) - (bottom + 1))
        else:
            error = widths + np.abs(pv.max(axis=1) - pv.min(axis=1) - height)
        error[~(depth.reshape(len(DEPTHS), len(OUTLINE)) > 0).all(axis=1)] = np.inf
        best = int(np.argmin(error))
        if not np.isfinite(error[best]):
            return None
        best_middle = middles[best]
        shown_row = pv[best].max() - 1 if topless else (pv[best].max() + pv[best].min()) / 2
        aim = aim + (target - np.array([(pu[best].max() + pu[best].min()) / 2, shown_row]))
    assert best_middle is not None
    return (round(float(best_middle[0]), 4), round(float(best_middle[1]), 4), round(float(best_middle[2]), 4))


#: A put's sighting (:func:`put_sightings`): receptacle id, object id, the pose of the put (x, z,
#: rotation, horizon), the mask runs of the next interaction showing the object from that pose.
Sighting = tuple[str, str, list[float], Any]


def put_sightings(low_actions: Sequence[Mapping[str, Any]], steps: Sequence[tuple[int, str, list[float]]],
                  ) -> list[Sighting]:
    """Each put into a :data:`PUT_FACT_TYPES` receptacle whose object the next interaction showing
    it (a PickupObject of it, or a PutObject into it) sees from the pose of the put (from elsewhere
    the object might have been seen past the door's edge): (receptacle id, object id, that pose,
    that interaction's mask runs). ``steps`` are the demo's interactions (low action index, target
    id, [x, z, rotation, horizon]) by dead reckoning."""
    pose_of = {index: pose for index, _, pose in steps}
    waiting: dict[str, tuple[str, list[float]]] = {}  # object id -> (receptacle id, put pose)
    out = []
    for index, low in enumerate(low_actions):
        api = low.get("api_action") or {}
        action, object_id = api.get("action"), api.get("objectId")
        receptacle = api.get("receptacleObjectId")
        shown = object_id if action == "PickupObject" else receptacle if action == "PutObject" else None
        if isinstance(shown, str) and shown in waiting:
            where, put_pose = waiting.pop(shown)
            runs = ((low.get("discrete_action") or {}).get("args") or {}).get("mask")
            pose = pose_of.get(index)
            if runs and pose is not None and list(pose) == list(put_pose):
                out.append((where, shown, pose, runs))
        if action == "PutObject" and isinstance(object_id, str) and isinstance(receptacle, str) \
                and catalogue.type_of_id(receptacle) in PUT_FACT_TYPES and index in pose_of:
            waiting[object_id] = (receptacle, pose_of[index])
        elif action == "PickupObject" and isinstance(object_id, str):
            waiting.pop(object_id, None)
    return out


def put_facts(low_actions: Sequence[Mapping[str, Any]], steps: Sequence[tuple[int, str, list[float]]],
              agent_y: float) -> list[PutFact]:
    """The put facts of one demo: where each of its :func:`put_sightings` shows the object."""
    return sighting_facts(put_sightings(low_actions, steps), agent_y)


def sighting_facts(sightings: Sequence[Sighting], agent_y: float) -> list[PutFact]:
    """Where each of ``sightings`` shows its object (the agent's floor at ``agent_y``)."""
    out = []
    for where, shown, pose, runs in sightings:
        fact = _fact(runs, pose, agent_y, where, catalogue.type_of_id(shown))
        if fact is not None:
            out.append(fact)
    return out


def with_near(facts: Sequence[PutFact], things: Sequence[tuple[str, tuple[float, float, float]]]) -> list[PutFact]:
    """``facts`` with what lay near each one's point at the episode's start (``things``: the
    trajectory's object poses as type and position), as :attr:`PutFact.near`."""
    out = []
    for fact in facts:
        px, py, pz = fact.point
        near = tuple(sorted((kind, *(round(float(c), 4) for c in position)) for kind, position in things
                            if math.hypot(position[0] - px, position[2] - pz) <= MATCH_NEAR
                            and abs(position[1] - py) <= MATCH_NEAR))
        out.append(replace(fact, near=near))  # type: ignore[arg-type]  # rounded triples
    return out


def _fact(runs: Any, pose: Sequence[float], agent_y: float, receptacle: str, kind: str) -> PutFact | None:
    if kind not in catalogue.OBJECT_TYPES:
        return None
    x, z, rotation, horizon = (float(c) for c in pose)
    camera = Camera(x, agent_y + ALFRED_CAMERA.height, z, rotation, horizon, ALFRED_CAMERA.field_of_view)
    try:
        mask = decode_mask(runs)
    except (ValueError, TypeError):
        return None
    sx, sy, sz = catalogue.object_type(kind).size  # the yaw is not known: the wider side both ways
    point = locate(mask, camera, (max(sx, sz), sy, max(sx, sz)),
                   cut_top=catalogue.type_of_id(receptacle) in CUT_TOP_TYPES)
    if point is None:
        return None
    return PutFact(receptacle, kind, (x, z, rotation, horizon), point)
