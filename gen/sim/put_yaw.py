"""The yaw an object put into a receptacle ends at, as THOR 2.1 turns it.

THOR's put (``InstantiatePrefabTest.PlaceObject``) does not keep the held object's yaw: it first
turns the object to the rotation of the receptacle's trigger box (for the receptacles here the
receptacle's own yaw), then tries 90-degree turns about y, and places it at the first turn whose
box fits (``CheckSpawnArea`` clear, its corners inside the trigger box). Lite kept the yaw the
object had where it was picked up, so a thing put into a microwave could lie across where THOR had
laid it along the microwave's axes, and its later pickup's mask fell beside it.

Only puts into :data:`TURNED_TYPES` in imported rooms turn the object (:func:`turn_for_put`),
and, replaying a file, puts whose next sighting in the file shows which way THOR laid a long thing
(:func:`file_yaw`); procedural rooms and other receptacles keep the held yaw, as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from alfred_gen.sim.thor_shapes import HEAD_AT
from alfred_gen.sim.world_objects import quarter_turns, turn_horizontal

if TYPE_CHECKING:
    from alfred_gen.sim.world import World, WorldObject

#: The receptacles a put into turns the object (imported rooms only). THOR's start states show
#: its loop (its random spawn places objects through it too): of the distinct start poses inside a
#: microwave in every 15th train demo (439 demos), 241 of 253 lie at the microwave's own yaw, the
#: first turn tried; inside a fridge 927 of 968; in sink basins only 293 of 554 (152 across, 93
#: half round; knives 7 along, 12 across; forks 20/20; spatulas 16/25; spoons 27/26): there the
#: bowl's colliders and the spot order decide which turn fits first, which lite does not model.
#: Measured held out (session 81): turning in sink basins moved 3 knife and spatula pickups off
#: THOR's masks (bench/put_landing.py, SinkBasin, 87 pairs: 66 right -> 65, mean IoU 0.307 ->
#: 0.298); turning in fridges and microwaves, on the wide sample (every 20th train demo), pickups
#: after a microwave put 11 -> 8 rule misses (IoU 0.286 -> 0.305) but after a fridge put 13 -> 15
#: (IoU 0.236 -> 0.245: a bread slice and a lettuce slice lost, lite's fridge spots being other
#: than THOR's shelves), so fridges and basins keep the held yaw.
#: Session 82: THOR's masks of the pickups after a put into a sink basin (every train demo) show a
#: knife, fork, spoon, butter knife, spatula or ladle longer up the frame (the way the agent looks)
#: than across it 138 times, across 49 (knives 34/3, forks 20/6, spoons 21/5, butter knives 20/6,
#: spatulas 18/13, ladles 25/16; a room's own are mostly one way: FloorPlan19's spatulas 6/6
#: across, FloorPlan20's ladles 8/9, FloorPlan27's 7/7 along), with no threshold of the basin box's
#: depth against the object's length telling them apart. Turning such a thing (longest side 3
#: times its others) to point the way the agent faces, held out (bench/put_landing.py, SinkBasin,
#: every 10th demo, 87 pairs): 66 right -> 63, mean IoU 0.307 -> 0.304, dropped: lite's place is
#: off by 5-30 px, and a thin strip along the sight misses THOR's strip where one across it crossed.
TURNED_TYPES = frozenset({"Microwave"})

#: Slack (metres) when comparing a footprint with the receptacle's: boxes are rounded to mm.
FIT_SLACK = 1e-6


#: Types whose lite box, at its yaw, stands a quarter turn from THOR's own frame of the object:
#: lite lays an apple's slices along the whole's own x (:func:`~alfred_gen.sim.actions.make_slices`,
#: where THOR's masks put slices 1 and 2), each thin along that x, but THOR's own frame of an apple
#: slice is thin along its z (its size, (0.095, 0.105, 0.025), is thin along z as a tomato slice's
#: is). THOR turns a slice put into a microwave to the microwave's own axes, its face to the door;
#: lite, turning the box it had, drew it edge on. On the wide sample (held out) the 5 pickups of an
#: apple slice after a heat had 0.38-0.65 of THOR's pixels and 2 missed beside a sliver. Turned a
#: quarter more (session 83): bench/put_landing.py, only pairs whose put object is an apple slice
#: (every 2nd of 90 train demos outside the 238, held out by 5 folds, 43 pairs reached): 29 -> 35
#: right (9 gained, 3 lost), mean IoU 0.186 -> 0.225; wide sample, rooms with such a put: rule
#: picks 350 -> 351 of 362, IoU 0.6782 -> 0.6799; whole wide sample 2030 -> 2031/2099, IoU
#: 0.6369 -> 0.6371 (pickups after a microwave put 38 -> 39/46, IoU 0.305 -> 0.321), no pick
#: lost; in-sample mask eval 716/757 unchanged.
OWN_QUARTER = {"AppleSliced": 90.0}

#: Slices a turning put (:func:`turn_for_put`) stands face to the door as they stood in their row,
#: so an imported room draws them trimmed as there (:data:`~alfred_gen.sim.thor_shapes.SLICE_FACES`)
#: instead of as their whole slab. On the wide sample (held out) lite drew apple, potato and tomato
#: slices picked up out of a microwave at a median 1.9, 1.9 and 3.0 times THOR's pixels (5, 4 and 4
#: pickups). Session 89b, bench/put_landing.py (Microwave, every 10th train demo outside the 238,
#: held out by 5 folds, 91 pairs), the 26 apple, potato and tomato slice pairs split alternately:
#: trimming all three on the chosen half, apple slices IoU 0.315 -> 0.404 (5 right -> 5), potato
#: 0.344 -> 0.322 (4 -> 3: a pick lost), tomato 0.388 -> 0.320 (3 -> 3), so only apple slices are
#: trimmed; on the other half apple 0.301 -> 0.381 (3 -> 3; potato 0.487 -> 0.414, tomato 0.319 ->
#: 0.264 had they been): where lite's potato or tomato slice lies on THOR's (within 5 px), its whole
#: slab often matches THOR's mask (a potato pair IoU 0.71 whole, 0.48 trimmed; a tomato 0.82,
#: 0.63); their wide-sample excess came from few pickups, such as a tomato's end cap (slice 6: THOR
#: 87 and 212 pixels, lite 490 and 956). Whole bench, apple slices trimmed: 76 -> 76/91 right,
#: mean IoU 0.384 -> 0.392.
#: Wide sample (every 20th train demo, held out), its rooms with an apple slice put into a microwave
#: (7, 14, 21, 22, 24; 362 interactions): rule 347 -> 347, IoU 0.7148 -> 0.7165; the 5 apple slice
#: pickups out of a microwave IoU 0.391 -> 0.508, lite's pixels a median 1.90 -> 1.33 of THOR's.
FACE_TRIMMED = frozenset({"AppleSliced"})


def thor_yaws(receptacle: WorldObject, held_type: str = "") -> list[float]:
    """The yaws (of lite's box of ``held_type``) THOR tries for an object put into ``receptacle``,
    in its order: the receptacle's yaw, then three 90-degree steps on (a quarter turn on for
    :data:`OWN_QUARTER` types)."""
    base = float(receptacle.rotation[1]) + OWN_QUARTER.get(held_type, 0.0)
    return [(base + 90.0 * k) % 360.0 for k in range(4)]


def footprint_at(held: WorldObject, yaw: float) -> tuple[float, float]:
    """``held``'s footprint (x, z extents) were it turned to ``yaw``: an odd number of quarter
    turns from its yaw now swaps them (lite's boxes stay axis-aligned)."""
    sx, _, sz = held.size
    if (quarter_turns(yaw) - quarter_turns(held.rotation[1])) % 2:
        return sz, sx
    return sx, sz


def fits_inside(receptacle: WorldObject, footprint: tuple[float, float]) -> bool:
    """Whether a footprint fits within the receptacle's footprint (THOR's corner test: the placed
    box's corners must lie in the receptacle's trigger box)."""
    return footprint[0] <= receptacle.size[0] + FIT_SLACK and footprint[1] <= receptacle.size[2] + FIT_SLACK


def overhangs(world: World, receptacle: WorldObject, held: WorldObject) -> bool:
    """Whether ``held`` at the yaw it is held at would stand out of ``receptacle``'s footprint, in an
    imported room: THOR never places a box there (its corners must lie in the trigger box), so its
    loop of quarter turns (:func:`thor_yaws`) decides the yaw. A pan (0.28 by 0.43 m) held handle
    back over a kitchen sink basin 0.38 m deep stood out behind it, lite's body drawn beside THOR's,
    where THOR had laid it across the bowl."""
    return bool(world.scene.from_alfred) and not fits_inside(receptacle, footprint_at(held, float(held.rotation[1])))


def turns_on_put(world: World, receptacle: WorldObject) -> bool:
    """Whether a put into ``receptacle`` turns the object: into one of :data:`TURNED_TYPES` in an
    imported room."""
    return bool(world.scene.from_alfred) and receptacle.type_name in TURNED_TYPES


def file_yaw(world: World, receptacle: WorldObject, held: WorldObject) -> float | None:
    """The yaw at which ``held`` lies as the replayed file's own masks show THOR laid it in
    ``receptacle`` from the agent's pose (:meth:`~alfred_gen.sim.world.World.file_put_heading`,
    :mod:`alfred_gen.scenes.alfred.file_headings`), else as the room's demos show its type laid there
    (:meth:`~alfred_gen.sim.world.World.put_heading`, :mod:`alfred_gen.scenes.alfred.put_headings`):
    a :data:`~alfred_gen.sim.thor_shapes.HEAD_AT` type's head turned to the heading, another's long
    side along it by the fewer quarter turns (its mask does not tell its ends apart); None when
    unknown."""
    heading = world.file_put_heading(receptacle, held.type_name)
    if heading is None:
        heading = world.put_heading(receptacle, held.type_name)
    if heading is None:
        return None
    if held.type_name in HEAD_AT:
        want = turn_horizontal(0.0, 1.0, quarter_turns(heading))  # heading 0 is +z, 90 is +x
        head = HEAD_AT[held.type_name]
        turns = next(q for q in range(4) if turn_horizontal(float(head[0]), float(head[1]), q) == want)
        return 90.0 * turns
    long_in_x = held.size[0] >= held.size[2]
    along_x = quarter_turns(heading) % 2 == 1
    return float(held.rotation[1]) if long_in_x == along_x else (float(held.rotation[1]) + 90.0) % 360.0


def turn_for_put(world: World, receptacle: WorldObject, held: WorldObject) -> list[tuple[float, float]] | None:
    """Turn ``held`` to the first yaw at which it fits in ``receptacle`` with a free spot
    (:meth:`~alfred_gen.sim.world.World.put_spots`) and return those spots, so the put does not
    search them again: the yaw the replayed file's own masks show (:func:`file_yaw`), then, for a
    put that turns objects (:func:`turns_on_put`), :func:`thor_yaws`. When no yaw fits or none is
    tried, ``held`` keeps its yaw and None is returned (a put that then fails leaves the held object
    as it was, as THOR resets it)."""
    own = file_yaw(world, receptacle, held)
    yaws = [] if own is None else [own]
    if turns_on_put(world, receptacle) or overhangs(world, receptacle, held):
        yaws += thor_yaws(receptacle, held.type_name)
    if not yaws:
        return None
    original = float(held.rotation[1])
    for yaw in yaws:
        if not fits_inside(receptacle, footprint_at(held, yaw)):
            continue
        world.set_rotation(held, yaw)
        spots = world.put_spots(receptacle, held)
        if spots:
            held.lies_as_cut = held.type_name in FACE_TRIMMED
            return spots
    world.set_rotation(held, original)
    return None
