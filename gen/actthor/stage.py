"""One room's stage and one trial's before-state, through the simulator interface only.

Every room gets one placement surface, one spot for the agent and one place on the surface, and
every trial of every action starts from a fresh reset set up the same way, so each action of an
object starts from the same before-state and every image of a room is taken from the same spot:

1. **Surface**: the largest receptacle (by the square root of its footprint, as the paper) that is
   not pickupable, not the floor and not a closed openable.
2. **Spot**: a reachable grid point and a rotation from which the agent faces the surface, about
   :data:`SPOT_DISTANCE` from its centre (the paper teleports 1 m from it), not behind a seat's
   back; the horizon (45, 30 or 60 degrees down) is the first that shows the surface well.
3. **Trial**: reset; pick the object up, wherever it is (forced); go to the spot; remove everything
   else from the surface. Held trial: that is the before-state. Placed trial: the object is put at
   a point of the surface at least :data:`MIN_PLACE_DISTANCE` from the agent, straight ahead
   rather than to the side (the paper's rule), preferably :data:`PULL_ROOM` in from the near edge,
   where it lands on the surface and can be seen.

Works on any backend with THOR's actions (lite, or ai2thor 5.x where they are native).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.actthor.actions import HELD

#: Wanted distance, metres, from the agent to the surface's centre; and the gap range to its edge.
SPOT_DISTANCE = 1.0
SPOT_GAP = (0.1, 1.0)
#: Horizons tried at a spot, in order; the first that shows :data:`MIN_SURFACE_PIXELS` of the surface wins.
HORIZONS = (45, 30, 60)
MIN_SURFACE_PIXELS = 2500
#: How many of the best-scored spots are looked at before settling for the best view.
SPOT_CANDIDATES = 12
#: Seats and furniture with a back: the agent does not stand behind them.
BACKED = frozenset({"Sofa", "ArmChair", "Chair", "Bed", "Desk", "Dresser", "Toilet", "TVStand"})
#: The placed object: at least this far (metres, horizontally) from the agent; lateral offsets
#: weigh this much more than depth when ranking points; points are this far apart.
MIN_PLACE_DISTANCE = 0.85
LATERAL_WEIGHT = 5.0
PLACE_STEP = 0.05
PLACE_MARGIN = 0.02
#: Room (metres) kept between the placed object and the surface's near edge, so that a pull
#: (0.16 m) leaves it on the surface; points without it are tried last.
PULL_ROOM = 0.2
#: Points tried per object before the placed trial is given up.
PLACE_TRIES = 40
#: An object is in view when it has at least this many pixels in the instance frame.
MIN_OBJECT_PIXELS = 10


class StageFailed(Exception):
    """A room or a trial cannot be set up; the message says why (recorded, not raised further)."""


@dataclass(frozen=True)
class Spot:
    """Where the agent stands for every image of a room, and the surface it faces."""

    x: float
    z: float
    rotation: int
    horizon: int
    surface_id: str
    surface_type: str

    def teleport(self, y: float) -> dict[str, Any]:
        return {"action": "TeleportFull", "x": self.x, "y": y, "z": self.z, "rotation": self.rotation,
                "horizon": self.horizon, "standing": True}


def objects_by_id(event: Any) -> dict[str, Mapping[str, Any]]:
    return {o["objectId"]: o for o in event.metadata["objects"]}


def pixels_of(event: Any, object_id: str) -> int:
    """How many pixels of the object the event's instance frame has."""
    mask = (getattr(event, "instance_masks", None) or {}).get(object_id)
    return int(np.count_nonzero(mask)) if mask is not None else 0


def _step(controller: Any, action: dict[str, Any]) -> Any:
    return controller.step(action)


def _ok(event: Any) -> bool:
    return bool(event.metadata.get("lastActionSuccess"))


def _footprint(obj: Mapping[str, Any]) -> tuple[float, float, float, float, float]:
    """(x0, z0, x1, z1, top y) of an object's box."""
    box = obj["axisAlignedBoundingBox"]
    c, s = box["center"], box["size"]
    return (c["x"] - s["x"] / 2, c["z"] - s["z"] / 2, c["x"] + s["x"] / 2, c["z"] + s["z"] / 2, c["y"] + s["y"] / 2)


def surface_candidates(objects: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Receptacles that may hold the objects, largest first (ties by id)."""
    def size(o: Mapping[str, Any]) -> float:
        s = o["axisAlignedBoundingBox"]["size"]
        return math.sqrt(s["x"] * s["z"])

    usable = [
        o for o in objects
        if o.get("receptacle") and not o.get("pickupable") and o["objectType"] != "Floor"
        and not (o.get("openable") and not o.get("isOpen"))
    ]
    return sorted(usable, key=lambda o: (-round(size(o), 6), o["objectId"]))


def _headings() -> list[tuple[int, float, float]]:
    return [(r, round(math.sin(math.radians(r)), 9), round(math.cos(math.radians(r)), 9)) for r in (0, 90, 180, 270)]


def spot_candidates(
    surface: Mapping[str, Any], points: list[tuple[float, float]]
) -> list[tuple[float, float, float, int]]:
    """(score, x, z, rotation) of grid poses facing the surface, best (lowest score) first."""
    x0, z0, x1, z1, _ = _footprint(surface)
    cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
    front = int(round(float(surface.get("rotation", {}).get("y", 0.0)) / 90.0)) % 4 * 90
    out = []
    for x, z in points:
        for rotation, dx, dz in _headings():
            if dx:  # facing +-x: the surface's z extent must be ahead
                lateral, lo, hi = z, z0, z1
                gap = (x0 - x) if dx > 0 else (x - x1)
                lateral_centre = cz
            else:
                lateral, lo, hi = x, x0, x1
                gap = (z0 - z) if dz > 0 else (z - z1)
                lateral_centre = cx
            inset = min(0.1, (hi - lo) / 4)
            if not (lo + inset <= lateral <= hi - inset) or not SPOT_GAP[0] <= gap <= SPOT_GAP[1]:
                continue
            score = abs(math.hypot(cx - x, cz - z) - SPOT_DISTANCE) + 0.5 * abs(lateral - lateral_centre)
            if surface["objectType"] in BACKED and rotation == front:
                score += 1.0  # looking at its back
            out.append((round(score, 6), x, z, rotation))
    return sorted(out)


def choose_spot(controller: Any, scene: str) -> tuple[Spot, Mapping[str, Any]]:
    """The room's surface and spot (see the module docstring); StageFailed if there is none."""
    event = controller.reset(scene)
    objects = list(event.metadata["objects"])
    agent_y = float(event.metadata["agent"]["position"]["y"])
    reach = _step(controller, {"action": "GetReachablePositions"})
    points = [(float(p["x"]), float(p["z"])) for p in reach.metadata.get("actionReturn") or []]
    if not points:
        raise StageFailed("no reachable positions")
    for surface in surface_candidates(objects):
        best: tuple[int, Spot] | None = None
        for _score, x, z, rotation in spot_candidates(surface, points)[:SPOT_CANDIDATES]:
            for horizon in HORIZONS:
                spot = Spot(x, z, rotation, horizon, surface["objectId"], surface["objectType"])
                seen = _step(controller, spot.teleport(agent_y))
                if not _ok(seen):
                    break
                count = pixels_of(seen, surface["objectId"])
                if count >= MIN_SURFACE_PIXELS:
                    return spot, surface
                if best is None or count > best[0]:
                    best = (count, spot)
        if best is not None and best[0] > 0:
            return best[1], surface
    raise StageFailed("no surface can be faced from a reachable point")


def place_points(spot: Spot, surface: Mapping[str, Any], obj: Mapping[str, Any]) -> list[dict[str, float]]:
    """Points on the surface to put ``obj`` at, best first: at least MIN_PLACE_DISTANCE from the
    agent, ranked by distance with lateral offsets weighing LATERAL_WEIGHT times more."""
    x0, z0, x1, z1, top = _footprint(surface)
    size = obj["axisAlignedBoundingBox"]["size"]
    hx, hz = size["x"] / 2 + PLACE_MARGIN, size["z"] / 2 + PLACE_MARGIN

    def axis(lo: float, hi: float, half: float) -> np.ndarray:
        if hi - lo <= 2 * half:
            return np.array([(lo + hi) / 2])
        return np.arange(lo + half, hi - half + 1e-9, PLACE_STEP)

    heading = math.radians(spot.rotation)
    fx, fz = round(math.sin(heading), 9), round(math.cos(heading), 9)
    corners = [(cx - spot.x) * fx + (cz - spot.z) * fz for cx in (x0, x1) for cz in (z0, z1)]
    near_edge = min(corners)
    half_depth = abs(fx) * hx + abs(fz) * hz
    ranked = []
    for x in axis(x0, x1, hx):
        for z in axis(z0, z1, hz):
            dx, dz = float(x) - spot.x, float(z) - spot.z
            if math.hypot(dx, dz) < MIN_PLACE_DISTANCE:
                continue
            depth, lateral = dx * fx + dz * fz, dx * fz - dz * fx
            if depth <= 0:
                continue
            cramped = depth - half_depth < near_edge + PULL_ROOM  # a pull would take it over the edge
            key = math.sqrt(depth * depth + LATERAL_WEIGHT * lateral * lateral)
            ranked.append((cramped, round(key, 6), round(float(x), 4), round(float(z), 4)))
    ranked.sort()
    return [{"x": x, "y": round(top + 0.01, 4), "z": z} for _, _, x, z in ranked]


@dataclass
class Staged:
    """A trial's before-state: the event showing it and, for a placed trial, where the object is."""

    event: Any
    point: dict[str, float] | None


#: Lite's Initialize flags that switch frames off while a trial is set up, and on again: setting up
#: takes several steps whose frames nobody looks at (lite still decides visibility on pixels).
FRAMES_OFF = {"action": "Initialize", "renderImage": False, "renderInstanceSegmentation": False}
FRAMES_ON = {"action": "Initialize", "renderImage": True, "renderInstanceSegmentation": True}


def stage_trial(
    controller: Any, scene: str, spot: Spot, object_id: str, trial: str, point: dict[str, float] | None = None,
    *, quiet_setup: bool = False,
) -> Staged:
    """Set up one trial's before-state (see the module docstring). A placed trial searches for its
    point unless ``point`` (found by an earlier staging) is given. StageFailed says why it cannot.
    ``quiet_setup`` (lite only) renders no frames until the before-state is reached."""
    if quiet_setup:
        _step(controller, FRAMES_OFF)
    event = controller.reset(scene)
    agent_y = float(event.metadata["agent"]["position"]["y"])
    event = _step(controller, {"action": "PickupObject", "objectId": object_id, "forceAction": True})
    if not _ok(event):
        raise StageFailed(f"cannot pick it up: {event.metadata.get('errorMessage')}")
    event = _step(controller, spot.teleport(agent_y))
    if not _ok(event):
        raise StageFailed(f"cannot go to the spot: {event.metadata.get('errorMessage')}")
    surface = objects_by_id(event)[spot.surface_id]
    for other in list(surface.get("receptacleObjectIds") or []):
        current = objects_by_id(event).get(other)
        if current is None or current.get("isPickedUp") or object_id in (current.get("parentReceptacles") or []):
            continue
        event = _step(controller, {"action": "RemoveFromScene", "objectId": other})
    if quiet_setup:
        event = _step(controller, FRAMES_ON)
    if trial == HELD:
        return Staged(event, None)
    obj = objects_by_id(event)[object_id]
    tries = [point] if point is not None else place_points(spot, surface, obj)[:PLACE_TRIES]
    for candidate in tries:
        placed = _step(controller, {"action": "PlaceObjectAtPoint", "objectId": object_id, "position": candidate})
        if not _ok(placed):
            continue
        now = objects_by_id(placed)[object_id]
        on_surface = spot.surface_id in (now.get("parentReceptacles") or [])
        if on_surface and pixels_of(placed, object_id) >= MIN_OBJECT_PIXELS:
            return Staged(placed, candidate)
    raise StageFailed("no point of the surface where it lands and can be seen")
