"""Where an object a PutObject places lands among its receptacle's free spots.

THOR 2.1 makes a grid of spawn points on a receptacle's surface, keeps those the agent sees
(``CheckIfPointIsInViewport``: the point itself in the frame and no collider on the line from the
camera to it, stopping 0.01 m short), sorts them by distance to the agent and places the object at
the first where it fits. Lite's put spots stand for the grid; what counts as *seen* and which
point they are ranked by are the rule (:data:`RULES`):

- ``hand``: a spot counts as seen when the object's middle or its foot on the surface is in sight,
  and the seen spot nearest the hand wins (lite's rule everywhere; fridges keep it).
- ``middle``: seen as for ``hand``; nearest the middle of the receptacle's floor (microwaves in
  imported rooms until session 76).
- ``surface``: a spot counts as seen only when the point on the surface under it is in sight, as
  THOR's check is of the spawn point itself; nearest the hand among those. A basin's front rim
  hides the surface just behind it from a standing agent, so an object put into a sink lands past
  that shadow, towards the back, where THOR put it; lite's middle-or-foot check let the object's
  middle, which rises over the rim, count the front spots as seen.
- ``surface_body``: seen as for ``surface``; nearest the agent's body (THOR's own sort key, its
  metadata position under the eye).
- ``surface_middle``: seen as for ``surface``; nearest the middle of the receptacle's floor.
- ``..._inset`` (``inset``, ``surface_inset``, ``surface_body_inset``, ``middle_inset``): as the
  rule without it, but only spots that keep the object's footprint :data:`INSET` inside the
  receptacle's box (when any is seen): THOR's fit check refuses a place where the object's box
  touches any collider, a basin's sloping bowl included.
- ``middle_plate``: as ``middle``, the object's bottom :data:`PLATE_RISE` above lite's floor, on
  THOR's turntable plate.

Imported rooms use :data:`IMPORTED_RULES` (sink basins ``surface_body_inset``, microwaves
``middle_plate``); procedural rooms and other receptacles ``hand``. The drawn microwave floor
stays where it is (shapes are shared with procedural rooms); objects a restored start state puts
in a microwave sit at THOR's own heights, on the plate, as the put now does.

:func:`rule_for` says which rule a put uses; bench/put_landing.py compares them (rooms held out
by folds) through :func:`forced`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alfred_gen.sim.world import World, WorldObject

Point = tuple[float, float, float]

RULES = ("hand", "middle", "surface", "surface_body", "surface_middle", "inset", "surface_inset",
         "surface_body_inset", "middle_inset", "middle_plate")

#: How far above lite's drawn floor a ``_plate`` rule puts the object's bottom (metres): THOR's
#: microwaves have a turntable plate on a raised cavity floor, and its spawn points lie on the
#: plate (the ray down from the receptacle box's top stops on the first collider).
PLATE_RISE = 0.08

#: How far inside the receptacle's box edge an ``_inset`` rule keeps the held object's footprint
#: (metres): THOR's fit check (``CheckSpawnArea``) refuses a place where the object's box touches
#: any collider, the receptacle's own bowl or walls included, so nothing lands against a sloping
#: basin wall.
INSET = 0.05

#: The landing rule of each receptacle type in an imported room (one with a recorded camera);
#: others, and every receptacle of a procedural room, use ``hand``. Measured with
#: bench/put_landing.py over the pickups after a put of every 10th train demo outside the 238 with
#: such a pair, rooms held out by 5 folds: THOR's pickup mask picks the put object in sink basins
#: 51/87 times with ``hand``, 53 ``surface_body``, 54 ``surface_inset``, 59 ``surface_body_inset``;
#: in microwaves 30/90 ``hand``, 37 ``middle``, 50 ``middle_plate`` at a 0.05 m rise, 51 at 0.08 m
#: (session 76, issue 62).
IMPORTED_RULES = {"SinkBasin": "surface_body_inset", "Microwave": "middle_plate"}

#: Receptacles that keep lite's ``hand`` rule whatever :func:`forced` says: a fridge's put is
#: ranked by THOR's own put point where its room knows one
#: (:attr:`~alfred_gen.sim.scene.SceneObject.put_points`), else by the hand.
KEEP_HAND = frozenset({"Fridge"})

_forced: str | None = None


@contextmanager
def forced(rule: str | None) -> Iterator[None]:
    """Within the block every put (fridges aside) uses ``rule`` (None: the usual choice); for the
    landing bench."""
    global _forced
    if rule is not None and rule not in RULES:
        raise ValueError(f"unknown landing rule {rule!r}; known: {', '.join(RULES)}")
    before, _forced = _forced, rule
    try:
        yield
    finally:
        _forced = before


def rule_for(world: World, receptacle: WorldObject) -> str:
    """The landing rule of a put into ``receptacle``: :data:`IMPORTED_RULES`' in an imported room
    (one with a recorded camera), ``hand`` otherwise."""
    if _forced is not None and receptacle.type_name not in KEEP_HAND:
        return _forced
    if world.scene.from_alfred:
        return IMPORTED_RULES.get(receptacle.type_name, "hand")
    return "hand"


def choose_landing(rule: str, world: World, receptacle: WorldObject, half: tuple[float, float], floor: float,
                   places: Sequence[Point], feet: Sequence[Point],
                   sight: Callable[[list[Point]], list[bool]], anchor: Point | None = None) -> Point:
    """The place (object's box centre) a put lands at under ``rule``.

    ``half`` is the held object's half footprint (x, z), ``floor`` the lowest support level's
    height, ``places`` the candidate centres (every free spot on every support level, levels in
    order), ``feet`` the points on the surface under each, ``sight`` tells which points the agent
    sees. When none counts as seen, the first level's spots are the candidates, as before.
    ``anchor``, when given, is the point the seen places are ranked by instead of the rule's own
    (THOR's known point in an imported fridge, :meth:`~alfred_gen.sim.world.World.put_point`)."""
    surface = rule.startswith("surface")
    if surface:
        seen = sight(list(feet))
    else:
        both = sight(list(places) + list(feet))
        seen = [m or f for m, f in zip(both[: len(places)], both[len(places):])]
    candidates = [p for p, ok in zip(places, seen) if ok]
    if rule.endswith("_inset") or rule == "inset":
        cx, _, cz = receptacle.center
        sx, _, sz = receptacle.size
        inside = [p for p in candidates if abs(p[0] - cx) <= sx / 2 - half[0] - INSET + 1e-9
                  and abs(p[2] - cz) <= sz / 2 - half[1] - INSET + 1e-9]
        candidates = inside or candidates
    if not candidates:
        first_level = min(p[1] for p in places)
        candidates = [p for p in places if p[1] == first_level]
    if anchor is None:
        anchor = _anchor(rule, world, receptacle, floor)
    x, y, z = min(candidates, key=lambda p: ((p[0] - anchor[0]) ** 2 + (p[1] - anchor[1]) ** 2
                                          + (p[2] - anchor[2]) ** 2, p))
    return (x, y + PLATE_RISE, z) if rule.endswith("_plate") else (x, y, z)


def _anchor(rule: str, world: World, receptacle: WorldObject, floor: float) -> Point:
    if rule.startswith("middle") or rule.startswith("surface_middle"):
        cx, _, cz = receptacle.center
        return (cx, floor, cz)
    if rule.startswith("surface_body"):
        a = world.agent
        return (float(a.x), float(a.y), float(a.z))
    return world.hand_center()
