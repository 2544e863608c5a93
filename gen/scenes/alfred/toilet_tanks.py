"""Which way a toilet faces: away from its tank, where the demos' start states stand things.

THOR's toilet is a low bowl in front of a tall tank that stands against the wall, and what a start
state puts on a toilet stands on the tank's lid: in the 27 train rooms whose start states stand
things over a toilet (0.6 to 1.2 m above its origin, within 0.5 m of it across), their median
position lies 0.25 to 0.44 m behind the toilet's origin along one axis and at most 0.14 m off it
along the other, the tank's side of a 0.97 m deep asset.

:func:`~alfred_gen.scenes.alfred.fixture_sizing.facing_of` faces a toilet away from the agent of
its first interaction pose, but the agent puts things on a toilet from beside it as often as from
in front: rooms built that way faced 12 of those 27 toilets a quarter or a half turn off their
tanks (FloorPlan403's bowl was drawn as a tank-high block across the agent's view, its puts
IoU 0.22 to 0.28 with THOR's masks). :func:`toilets_face_from_their_tanks` gives each toilet
whose things say where its tank is a first pose looking at it from its front.

Held out by folds (``bench/alfred_fidelity.py ... --masks --rooms 401,...,430``, every 20th train
demo; no threshold was tuned on masks): toilet puts rose from IoU 0.06-0.48 to 0.57-0.87 in
FloorPlan402, 403, 408, 410, 412, 420, 422 and 426. Offset 10 (where the case was found): rule picks
+1 (FloorPlan402's spray bottle), IoU 0.6963 -> 0.6989 over the whole sample; offset 0: picks as
before, 0.7197 -> 0.7204; offset 5: +1 (FloorPlan402's tissue box), 0.6966 -> 0.6971, FloorPlan411's
put 0.61 -> 0.30 (a counter drawn where THOR's toilet is); offset 15, bathrooms only: -1
(FloorPlan407's toilet paper on the tank, IoU 0.074 either way, now ranked under a plunger), IoU
0.5821 -> 0.5933; replays as before on every sample.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from statistics import median

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import id_position
from alfred_gen.scenes.alfred.fixture_sizing import facing_pose

#: What stands this high above a toilet's origin stands on its tank's lid (metres, from, to): the
#: seat is lower, and a shelf over the toilet higher (FloorPlan405's and 419's, 1.5 to 1.9 m).
TANK_BAND = (0.6, 1.2)
#: What stands farther than this from the toilet's origin across (either axis) is not on it (metres).
TANK_REACH = 0.5
#: The median position must lie at least this far behind the origin along one axis (metres) ...
TANK_OFFSET = 0.15
#: ... and this many times farther than along the other, or the tank's side is not clear.
TANK_DOMINANCE = 2.0
#: How far in front of a toilet its made-up front pose stands (metres): only its heading counts.
FRONT_DISTANCE = 1.0
#: The camera's tilt of a made-up pose without a recorded one to copy (degrees).
DEFAULT_HORIZON = 30.0


def tank_side(object_id: str, points: Iterable[Sequence[float]]) -> tuple[int, int] | None:
    """(axis, sign) of the side of ``object_id``'s toilet its tank stands on (axis 0: x, 2: z; sign
    +1: towards that axis's positive end), from ``points`` (positions of things the demos show at
    rest), or None when too few stand on the tank to tell (see the module's thresholds)."""
    x, y, z = id_position(object_id)
    offsets = ((float(p[0]) - x, float(p[1]) - y, float(p[2]) - z) for p in points)
    on_tank = [(dx, dz) for dx, dy, dz in offsets
               if TANK_BAND[0] <= dy <= TANK_BAND[1] and abs(dx) <= TANK_REACH and abs(dz) <= TANK_REACH]
    if not on_tank:
        return None
    along_x, along_z = median(dx for dx, _ in on_tank), median(dz for _, dz in on_tank)
    axis, offset, other = (0, along_x, along_z) if abs(along_x) >= abs(along_z) else (2, along_z, along_x)
    if abs(offset) < TANK_OFFSET or abs(offset) < TANK_DOMINANCE * abs(other):
        return None
    return axis, 1 if offset > 0 else -1


def front_pose_towards(object_id: str, side: tuple[int, int], horizon: float) -> list[float]:
    """A pose ([x, z, rotation, horizon]) :data:`FRONT_DISTANCE` in front of ``object_id``, heading
    towards its back (``side``, the tank's; :func:`~alfred_gen.scenes.alfred.fixture_sizing.facing_pose`):
    the fixture then faces away from its tank."""
    axis, sign = side
    x, _, z = id_position(object_id)
    stand = [x - sign * FRONT_DISTANCE, z] if axis == 0 else [x, z - sign * FRONT_DISTANCE]
    return facing_pose([*stand, 0.0, horizon], object_id, axis)


def toilets_face_from_their_tanks(poses_of: Mapping[str, list[list[float]]],
                                  objects: Mapping[str, Sequence[tuple[Sequence[float], float]]]
                                  ) -> dict[str, list[list[float]]]:
    """Each fixture's poses, a toilet's led by a made-up pose in front of it (:func:`front_pose_towards`)
    when the things ``objects`` (name -> every recorded (position, yaw)) shows at rest tell which
    side its tank is on (:func:`tank_side`); every other fixture's unchanged."""
    points = [position for poses in objects.values() for position, _ in poses]
    out = dict(poses_of)
    for oid in sorted(poses_of):
        if catalogue.type_of_id(oid) != "Toilet":
            continue
        side = tank_side(oid, points)
        if side is None:
            continue
        recorded = poses_of[oid]
        horizon = float(recorded[0][3]) if recorded and len(recorded[0]) > 3 else DEFAULT_HORIZON
        out[oid] = [front_pose_towards(oid, side, horizon), *recorded]
    return out
