"""Loose things posed over a soft seat with nothing holding them settle onto the seat, as THOR's
physics drops them before the demo first sees them.

THOR records ``object_poses`` where its objects lay, and a few of them lie well above the seat
of the sofa or armchair they are over: FloorPlan222's key chain posed at y 0.621 over a sofa whose
seat top is 0.444 (the room's other key chains, cards and remotes on that sofa are posed at
0.444-0.466). Lite's support rule (:func:`alfred_gen.sim.setup_actions._support`) finds nothing
within reach under it, so it floated 0.18 m over the seat, drawn where THOR's mask shows the seat:
IoU 0 and ALFRED's rule picked the sofa. THOR's physics had dropped the keys onto the cushion.

Only a narrow case moves: a thin (:data:`THIN`) posed pickupable lite leaves without a parent, whose footprint's middle
lies over a :data:`SEATS` box with nothing else between (no other box under its middle whose top
is higher than the seat's) and which starts between :data:`SETTLE_MIN` and :data:`SETTLE_MAX`
above the seat's top. It comes to rest on the seat's top and the seat holds it; it keeps the id of
its pose (THOR gives ids at the pose). Over the wide sample's 329 start states lite leaves 936
posed pickupables parentless over some box, most inside cabinets, drawers or on counters (their
poses lie where lite's fixtures are coarse, and they must not move); 28 of them are over a sofa,
armchair or bed. Of those, the pillows (0.08-0.14 m over the seat) stand or lean on the seat's back
and the laptops and books on FloorPlan324's bed (0.08 m) lie on a mattress higher than lite's box:
THOR's masks show them where they are posed. Over the train demos' start states a pillow of
FloorPlan204 and a box of FloorPlan230 start 0.16 m or more over a seat too, posed at that height
in 8 demos or more each: they rest on the seat's back or on a cushion higher than lite's box, so only thin
things settle. Only the two key chains of FloorPlan222 start higher
(0.18 and 0.24 m), with nothing under them but the seat. Beds are left out: the one thing over a
bed that high (a pillow 0.9 m over FloorPlan318's bed) lies on something lite lacks.
"""

from __future__ import annotations

from collections.abc import Iterable

from alfred_gen.sim.world import World, WorldObject

#: Fixed receptacles soft enough that THOR's physics settles a thing posed above them onto them.
SEATS = frozenset({"Sofa", "ArmChair"})
#: How tall a thing may be and settle (metres): a thin thing lying flat (a key chain, card, phone,
#: remote, book) has nothing to lean on; a pillow (0.136 m) stands against the seat's back and a
#: cardboard box (0.276 m) on FloorPlan230's sofa is posed at one height in 8 train demos or more (its
#: fitted origin height leaves lite's box 0.16 m or more over lite's seat): THOR holds both there.
THIN = 0.1
#: How far above a seat's top a thing's bottom must start to settle (metres): the pillows leaning
#: on a sofa's back start at most 0.14 m over its seat, the floating key chain 0.18 m.
SETTLE_MIN = 0.16
#: How far above a seat's top a thing may start and still settle onto it (metres): higher, it lies
#: on something lite lacks (a shelf over the sofa).
SETTLE_MAX = 0.3


def _under(world: World, obj: WorldObject) -> WorldObject | None:
    """The box with the highest top under ``obj``'s middle and below its bottom, or None."""
    (x, _, z), bottom = obj.center, obj.lo[1]
    best: WorldObject | None = None
    for other in world.objects:
        if other is obj or not other.present or other.is_sliced:
            continue
        lo, hi = other.lo, other.hi
        if lo[0] <= x <= hi[0] and lo[2] <= z <= hi[2] and hi[1] <= bottom and (best is None or hi[1] > best.hi[1]):
            best = other
    return best


def settle_on_seats(world: World, posed: Iterable[WorldObject]) -> None:
    """Drop each parentless posed pickupable that floats :data:`SETTLE_MIN`-:data:`SETTLE_MAX` over
    a seat, with nothing between, onto the seat's top, in the seat."""
    for obj in posed:
        if (obj.parent is not None or obj.children or not obj.present or not obj.otype.pickupable
                or obj.size[1] > THIN):
            continue
        seat = _under(world, obj)
        if seat is None or seat.type_name not in SEATS:
            continue
        gap = obj.lo[1] - seat.hi[1]
        if not SETTLE_MIN <= gap <= SETTLE_MAX:
            continue
        world.move_to(obj, (obj.center[0], seat.hi[1] + obj.size[1] / 2, obj.center[2]))
        world.attach(obj, seat)
