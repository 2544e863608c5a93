"""Boxes of the loose (pickupable) objects of an imported THOR room: size, height of the origin, and
where the box lies around the origin.

ALFRED records a loose object's origin and yaw, never its extent. The box gets the catalogue's size
turned by the yaw, and its bottom where THOR's origin convention puts it (:data:`ORIGIN_HEIGHT`).
Horizontally the box is centred on the origin, or where its type's box usually lies
(:data:`DEFAULT_SHIFT`: THOR's pivots are not always at an asset's middle, a cardboard box's sits
near one side), unless the released demos prove otherwise. Two facts show where the box must lie:

- **contents** (:class:`~alfred_gen.scenes.alfred.evidence.ContentFact`): an object that lay inside
  a movable receptacle lies within its box;
- **clearance** (:class:`~alfred_gen.scenes.alfred.evidence.ClearanceFact`): a point the agent walked
  through while the object lay on the floor is at least the agent's radius from its box.

:func:`loose_shifts` finds, per object, the shift of the box's centre in the object's own frame (so
it turns with the object whatever pose a demo gives it) nearest the type's default that honours
every such fact, keeping the origin inside the box.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import ClearanceFact, ContentFact, type_of_name
from alfred_gen.sim.scene import Box
from alfred_gen.sim.world import (
    BLOCKING_HEIGHT,
    FLOOR_CONTACT,
    footprint_meets,
    quarter_turns,
    turn_horizontal,
    yaw_residual,
)

#: Pickupable types whose THOR origin is not at their base: height of the origin above the base, as
#: a fraction of the height. Measured in the released demos against thin objects lying on the same
#: receptacle: mugs, bowls, plates, bottles, statues, clocks sit with their origin at their base
#: (within 0.1 of their height), lettuces, potatoes, eggs, pillows and ladles at their middle
#: (0.4-0.6), boxes at 0.65-0.9. Fruit, vegetables and bread share THOR's food models' convention.
#: A basketball's origin is its centre: 354 of the 390 start poses of one in the train demos lie
#: 0.12-0.13 m above the floor, its radius.
ORIGIN_HEIGHT = {
    # Hand towels hang from their holder with their origin at the top: projected with ALFRED's
    # camera, the origin lands at 0.99 of the mask's height (median of 54 first pickups).
    "HandTowel": 1.0,
    "Box": 0.7,
    "Lettuce": 0.5, "Potato": 0.5, "Egg": 0.5, "Apple": 0.5, "Tomato": 0.5, "Bread": 0.5,
    "Pillow": 0.5, "Ladle": 0.5, "BasketBall": 0.5,
    # A paper towel roll's origin is its middle: FloorPlan414's stands 0.105 m over the counter top
    # (0.93) and 0.11 m over the other counter (1.20), half its 0.215 m height.
    "PaperTowelRoll": 0.5,
}
#: Long thin pickupables whose THOR 2.1 model lies along its own x axis, where the catalogue's size
#: (from later THOR assets) is long along z: at yaw 0 a butter knife on a counter runs east-west.
#: Settled from the masks of the 6,574 train demos (:mod:`alfred_gen.fidelity.axis_fit`): the first
#: pickup's mask runs across the catalogue's long axis for ButterKnife 550 of 550, Knife 452 of
#: 459, Pen 173/173, Pencil 164/165, Spoon 115/115, Fork 103/103, Spatula 83/83, Ladle 67/68; along
#: it for RemoteControl 201 of 203, Newspaper 113/113, TennisRacket 5/5. Lite drew these objects a
#: quarter turn off, where THOR's masks show counter top, and refused their pickups as not visible.
LYING_ACROSS = frozenset({"ButterKnife", "Knife", "Pen", "Pencil", "Spoon", "Fork", "Spatula", "Ladle"})
#: Where a type's box lies off its THOR origin when no fact about the object says (own frame, metres).
#: A cardboard box's origin sits near one side: of the 22 boxes the train demos have content or
#: clearance facts about, 10 need a shift, 8 of them 0.06-0.13 m towards the box's own -z (the other
#: two 0.02-0.05 m along x). Shifted 0.13 m that way, 16 of the 22 honour all their facts, centred 11
#: (leave-one-room-out, picking the shift from the other 21 rooms: 15 of 22).
#: Flat models' origins, settled from the masks of the 6,574 train demos
#: (:func:`alfred_gen.fidelity.axis_fit.origin_offsets`; types whose cast mask's middle lies at
#: least 0.015 m off the origin in at least 15 masks, rounded to the centimetre): a spatula's origin
#: sits 0.073 m off its middle along its length (84 masks; in every one of the 15 rooms with one,
#: and leaving any room out moves the median under 2 mm), a pan's 0.082 m along its handle's axis
#: (223), a knife's 0.037 m (438, 26 of 26 rooms), a key chain's 0.030 m (249, 36 of 36),
#: a fork's 0.021 m (100), a spoon's 0.016 m (118), a tennis racket's 0.050 m (17). Butter knives,
#: pens, pencils, phones, cards, plates and the other flat types sit within 6 mm of their middle.
#: Centred, a spatula lying on a butter knife hid the knife THOR showed (FloorPlan4 and 11).
DEFAULT_SHIFT: dict[str, tuple[float, float]] = {
    "Box": (0.0, -0.13),
    "Spatula": (-0.07, 0.0), "Pan": (0.0, -0.08), "Knife": (-0.04, 0.0), "KeyChain": (-0.03, 0.0),
    "Fork": (-0.02, 0.0), "Spoon": (-0.02, 0.0), "TennisRacket": (0.0, 0.05),
}
#: How far inside a receptacle's box the centre of what it holds must be (metres).
CONTENT_MARGIN = 0.02
#: Extra room kept between a walked point and an object's box beyond the agent's radius (metres).
CLEARANCE_MARGIN = 0.005
#: Step of the shifts tried (metres); the origin stays at least one step inside the box.
SHIFT_STEP = 0.01

Shift = tuple[float, float]


def default_shift(kind: str) -> Shift:
    """Where a ``kind``'s box lies off its origin when no fact says (:data:`DEFAULT_SHIFT`; else centred)."""
    return DEFAULT_SHIFT.get(kind, (0.0, 0.0))


def _quarter_turned(yaw: float) -> bool:
    return quarter_turns(yaw) % 2 == 1


def pickupable_size(kind: str, yaw: float = 0.0) -> tuple[float, float, float]:
    """World-axis size of a pickupable object: the catalogue's, turned by its yaw.

    Not the THOR asset database's: it describes THOR 4 assets, and small objects changed since
    ALFRED's THOR 2.1 (with its sizes, three released demos walk into boxes lying on the floor).
    """
    sx, sy, sz = own_size(kind)
    return (sz, sy, sx) if _quarter_turned(yaw) else (sx, sy, sz)


def own_size(kind: str) -> tuple[float, float, float]:
    """The catalogue's size of a pickupable in THOR 2.1's own frame (:data:`LYING_ACROSS`)."""
    sx, sy, sz = catalogue.object_type(kind).size
    return (sz, sy, sx) if kind in LYING_ACROSS else (sx, sy, sz)


def pickupable_box(kind: str, position: tuple[float, float, float], size: tuple[float, float, float],
                   floor_y: float | None = None, yaw: float = 0.0, shift: Shift | None = None) -> Box:
    """The box of a pickupable whose THOR origin is ``position``: at its base, or as high up as
    :data:`ORIGIN_HEIGHT` says (a Box's 70% up, a lettuce's at its middle); never below the floor.
    ``shift`` moves the box's centre off the origin in the object's own frame (turned by ``yaw``);
    None is the type's :data:`DEFAULT_SHIFT`."""
    x, y, z = position
    sx, sy, sz = size
    if shift is None:
        shift = default_shift(kind)
    dx, dz = turn_horizontal(shift[0], shift[1], quarter_turns(yaw))
    bottom = y - ORIGIN_HEIGHT.get(kind, 0.0) * sy
    if floor_y is not None:
        bottom = max(bottom, min(y, floor_y))
    cx, cz = x + dx, z + dz
    return Box((cx - sx / 2, bottom, cz - sz / 2), (cx + sx / 2, bottom + sy, cz + sz / 2))


def loose_box(kind: str, position: tuple[float, float, float], yaw: float, floor_y: float,
              shift: Shift | None = None) -> Box:
    """The box of a loose object of type ``kind`` at a recorded pose (origin ``position``, ``yaw``):
    the catalogue's size turned by the yaw, placed by :func:`pickupable_box`."""
    return pickupable_box(kind, position, pickupable_size(kind, yaw), floor_y, yaw, shift)


def _holds(container: ContentFact, floor_y: float, shift: Shift) -> bool:
    kind = type_of_name(container.container_name)
    box = loose_box(kind, container.container_at, container.container_yaw, floor_y, shift)
    inner = type_of_name(container.object_name)
    c = loose_box(inner, container.position, container.yaw, floor_y).center
    return all(box.lo[a] + CONTENT_MARGIN <= c[a] <= box.hi[a] - CONTENT_MARGIN for a in (0, 2))


def _clears(fact: ClearanceFact, floor_y: float, shift: Shift) -> bool:
    box = loose_box(type_of_name(fact.object_name), fact.position, fact.yaw, floor_y, shift)
    turn = (fact.position[0], fact.position[2], yaw_residual(fact.yaw))
    return not any(footprint_meets(box, px, pz, CLEARANCE_MARGIN, turn) for px, pz in fact.points)


def _blocks_agent(fact: ClearanceFact, floor_y: float) -> bool:
    """Whether the simulator would count the object as an obstacle (tall enough, on the floor)."""
    kind = type_of_name(fact.object_name)
    box = loose_box(kind, fact.position, fact.yaw, floor_y)
    return box.size[1] >= BLOCKING_HEIGHT and box.lo[1] < floor_y + FLOOR_CONTACT


def _candidate_shifts(kind: str) -> list[Shift]:
    """Shifts keeping the origin inside the box, nearest the type's default first (ties broken by value)."""
    sx, _, sz = own_size(kind)
    nx, nz = int((sx / 2) / SHIFT_STEP) - 1, int((sz / 2) / SHIFT_STEP) - 1
    shifts = [(round(i * SHIFT_STEP, 4), round(k * SHIFT_STEP, 4))
              for i in range(-max(nx, 0), max(nx, 0) + 1) for k in range(-max(nz, 0), max(nz, 0) + 1)]
    ux, uz = default_shift(kind)
    return sorted(shifts, key=lambda s: (round(math.hypot(s[0] - ux, s[1] - uz), 6), s))


def loose_shifts(contents: Iterable[ContentFact], clearances: Iterable[ClearanceFact], floor_y: float
                 ) -> dict[str, Shift]:
    """Object name -> the shift of its box (own frame) nearest its type's :data:`DEFAULT_SHIFT`
    that honours every content and clearance fact about it; objects the default box already
    satisfies, or no shift can satisfy, are left out (they keep the default)."""
    tests: dict[str, list] = {}
    for content in contents:
        if type_of_name(content.container_name) in catalogue.OBJECT_TYPES \
                and type_of_name(content.object_name) in catalogue.OBJECT_TYPES:
            tests.setdefault(content.container_name, []).append(lambda s, f=content: _holds(f, floor_y, s))
    for fact in clearances:
        if type_of_name(fact.object_name) in catalogue.OBJECT_TYPES and _blocks_agent(fact, floor_y):
            tests.setdefault(fact.object_name, []).append(lambda s, f=fact: _clears(f, floor_y, s))
    out: dict[str, Shift] = {}
    for name in sorted(tests):
        checks = tests[name]
        if all(check(default_shift(type_of_name(name))) for check in checks):
            continue
        for shift in _candidate_shifts(type_of_name(name)):
            if all(check(shift) for check in checks):
                out[name] = shift
                break
    return out
