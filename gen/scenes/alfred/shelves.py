"""The levels things rest at inside an imported room's fridges and basins, from its demos.

A THOR fridge has shelves at fixed heights, and its PutObject uses them: it puts an object on the
spawn point nearest the agent that the agent can see, which from an arm's length is a shelf, not
the floor of the fridge. Lite knows a receptacle's levels from what lies in it now
(:meth:`alfred_gen.sim.world.World.support_levels`), so an empty fridge offered only its floor,
out of view from where the agent stands; the object put in could not be seen again, and the
PickupObject of a cool task failed.

Sink and bathtub basins are the same case: a basin's box reaches down to the lowest thing the
evidence shows under its rim, but THOR's basin surface is where soap bars, sponges and cloths lie
in it. An object put on the box's floor in lite sank out of view behind the rim, and the
PickupObject that ends a clean task failed (in ALFRED's train set, 12 of the 27 plans that still
failed in execution after retrying other poses, in FloorPlan414 and others). In FloorPlan414's
sink the demos show things resting 0.25 m above the box's bottom, in FloorPlan421's 0.18 m.

Every start state a room's demos restore lists where each loose object lay. An object whose
origin lies inside such a receptacle's box rests on one of its levels: its box's bottom is the
level's height. Over the 6,574 train demos, 27 kitchens show 164 to 815 such poses per fridge, on
three to five heights each. A height is kept when :data:`MIN_POSES` distinct poses rest on it.

A fridge's shelf is put :data:`FRIDGE_LIFT` above the median bottom found there: a loose box is the
catalogue's size, not THOR's mesh, and at the median bottom an object put on an empty shelf was drawn
lower than THOR drew it. On the 35 fridge pickups after a put in 107 train demos outside the 238
(held out by folds), lifts of 0, 2, 4, 6 and 8 cm put the object a median 9.7, 4.2, 1.8, 0.1 and
0.1 px below THOR's mask, and 19, 20, 20, 22 and 21 of them under it. (A shelf within
``SHELF_MIN_RISE`` of something resting in the fridge gives way to that thing's own bottom.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from alfred_gen.scenes.alfred.evidence import type_of_name
from alfred_gen.scenes.alfred.fixture_block import origin_on_floor
from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.sim.scene import SceneObject

#: Receptacle types whose resting levels are read from the evidence.
SHELVED_TYPES = frozenset({"Fridge", "SinkBasin", "BathtubBasin"})

#: Bottoms within this many metres of each other rest on the same shelf (loose boxes are the
#: catalogue's sizes, not THOR's meshes: the same shelf shows bottoms a few centimetres apart).
SAME_SHELF = 0.06

#: Distinct resting poses a height needs to count as a shelf.
MIN_POSES = 2

#: Metres a fridge's shelf lies above the median bottom of what rests on it (see the module's docstring).
FRIDGE_LIFT = 0.06


def _heights(bottoms: Iterable[float]) -> tuple[float, ...]:
    """Shelf heights from resting bottoms: runs of bottoms each within :data:`SAME_SHELF` of the
    previous, each run's median, if the run has :data:`MIN_POSES` or more."""
    runs: list[list[float]] = []
    for bottom in sorted(bottoms):
        if runs and bottom - runs[-1][-1] <= SAME_SHELF:
            runs[-1].append(bottom)
        else:
            runs.append([bottom])
    return tuple(round(run[len(run) // 2], 4) for run in runs if len(run) >= MIN_POSES)


def receptacle_shelves(objects: Iterable[SceneObject],
                       poses: Mapping[str, list[tuple[tuple[float, float, float], float]]],
                       floor_y: float) -> dict[str, tuple[float, ...]]:
    """Fixture id -> shelf heights (world y of the surface), for each fridge or basin some pose
    rests in.

    ``poses``: object name -> its distinct start poses ((x, y, z), yaw), as the evidence keeps them.
    """
    shelved = [o for o in objects if o.object_type in SHELVED_TYPES]
    bottoms: dict[str, list[float]] = {o.object_id: [] for o in shelved}
    for name, seen in sorted(poses.items()):
        kind = type_of_name(name)
        for position, yaw in seen:
            for fixture in shelved:
                lo, hi = fixture.box.lo, fixture.box.hi
                if all(lo[a] < position[a] < hi[a] for a in range(3)):
                    bottoms[fixture.object_id].append(loose_box(kind, position, yaw, floor_y).lo[1])
                    break
    lift = {o.object_id: FRIDGE_LIFT if o.object_type == "Fridge" else 0.0 for o in shelved}
    shelves = {oid: tuple(round(h + lift[oid], 4) for h in _heights(found)) for oid, found in bottoms.items()}
    return {oid: heights for oid, heights in sorted(shelves.items()) if heights}


#: Receptacles given a learnt shelf when their room's evidence shows none.
LEARNT_SHELF_TYPES = frozenset({"Fridge"})


def learnt_shelves(objects: Iterable[SceneObject], known: Mapping[str, tuple[float, ...]], stats: SurfaceStats | None,
                   floor_y: float) -> dict[str, tuple[float, ...]]:
    """One shelf for each fridge whose room shows none: at the height above its id where other
    rooms' demos show things resting in fridges (:class:`SurfaceStats`, the median over every fact:
    0.99 m over the 189 of the train set).

    Without it, a fridge of a room built from its layouts alone offered only its floor, which the
    agent cannot see from where it stands: what a cool task put in could not be picked up again
    (FloorPlan18: 11 demos of the unseen-room measure).
    """
    out: dict[str, tuple[float, ...]] = {}
    if stats is None:
        return out
    for obj in objects:
        if obj.object_type not in LEARNT_SHELF_TYPES or known.get(obj.object_id):
            continue
        y = obj.position[1]
        offset = stats.offset(obj.object_type, origin_on_floor(y, floor_y))
        if offset is not None and obj.box.lo[1] < y + offset < obj.box.hi[1]:
            out[obj.object_id] = (round(y + offset, 4),)
    return out
