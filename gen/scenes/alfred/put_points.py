"""Where THOR put things into each fridge, sink basin and microwave of an imported room, by the pose put from:
from its demos' :class:`~alfred_gen.scenes.alfred.put_facts.PutFact` s.

Facts are grouped by receptacle, by the pose of the put (x, z, rotation, horizon) and by the object's
type; a group's point is the median of its facts' points, coordinate by coordinate, and each pose
also has a point for types no fact shows (:func:`put_points_by_pose`). A point is kept only inside
its receptacle's box, widened by :data:`MARGIN` (:data:`MARGINS` for a basin): the depth read from
a mask's extent is off by a few centimetres, and a point outside a fridge is a mask cut by a
shelf's edge or the door. Lite's PutObject from one of these poses puts the object nearest the
point (:mod:`alfred_gen.sim.put_landing`).
"""

from __future__ import annotations

from collections.abc import Iterable
from statistics import median

from alfred_gen.scenes.alfred.put_facts import PUT_FACT_TYPES, PutFact
from alfred_gen.sim.scene import SceneObject

#: Metres a fact's point may lie outside its fridge's box and still count.
MARGIN = 0.05

#: The same for a sink basin's box: its point is only the line of sight through the mask (the
#: landing rules, :mod:`alfred_gen.sim.put_landing`'s ``typed_point`` and ``surface_point``, bring
#: that line down to the basin's floor), and :func:`~alfred_gen.scenes.alfred.put_facts.locate` reads a
#: median 1.15x too far along it, up to 0.2 m past a basin seen 1.3 m away. A microwave's likewise
#: (``cavity_sight_plate`` brings its line down to the plate).
MARGINS = {"SinkBasin": 0.3, "Microwave": 0.3}

#: A put point: the object's type ("" for any), then the pose put from (x, z, rotation, horizon)
#: and THOR's point (x, y, z).
PutPoint = tuple[str, tuple[float, float, float, float, float, float, float]]

Point = tuple[float, float, float]


def _middle(points: list[Point]) -> Point:
    return (round(median(p[0] for p in points), 4), round(median(p[1] for p in points), 4),
            round(median(p[2] for p in points), 4))


def put_points_by_pose(objects: Iterable[SceneObject], facts: Iterable[PutFact]) -> dict[str, tuple[PutPoint, ...]]:
    """Fridge (or sink basin, microwave: :data:`~alfred_gen.scenes.alfred.put_facts.PUT_FACT_TYPES`) id -> its
    put points, for each one some fact inside its box (widened by :data:`MARGIN`, a basin's by
    :data:`MARGINS`) names: per pose, one point per object type (the median of that type's facts),
    and one for any type (the median of the types' points, each type one vote: a room's demos put
    some types far more often than others, and THOR puts a tall bottle in the door, a plate on a
    wide shelf)."""
    boxes = {o.object_id: (o.box, MARGINS.get(o.object_type, MARGIN))
             for o in objects if o.object_type in PUT_FACT_TYPES}
    groups: dict[str, dict[tuple[float, float, float, float], dict[str, list[Point]]]] = {}
    for fact in facts:
        box, margin = boxes.get(fact.receptacle, (None, MARGIN))
        if box is None or not all(box.lo[a] - margin <= fact.point[a] <= box.hi[a] + margin for a in range(3)):
            continue
        x, z, rotation, horizon = fact.pose
        pose = (round(x, 3), round(z, 3), round(rotation % 360, 3), round(horizon, 3))
        groups.setdefault(fact.receptacle, {}).setdefault(pose, {}).setdefault(fact.kind, []).append(fact.point)
    out: dict[str, tuple[PutPoint, ...]] = {}
    for fridge, by_pose in sorted(groups.items()):
        points: list[PutPoint] = []
        for pose, by_kind in sorted(by_pose.items()):
            kinds = {kind: _middle(found) for kind, found in sorted(by_kind.items())}
            for kind, point in [("", _middle(list(kinds.values()))), *kinds.items()]:
                points.append((kind, (*pose, *point)))
        out[fridge] = tuple(points)
    return out
