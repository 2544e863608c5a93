"""Which ``scene_num`` a trajectory records for its ``floor_plan``, so no file names another room.

ALFRED's own tools ignore ``floor_plan``: its evaluation (``models/eval/eval.py``), its augmentation
script and ``env/tasks.py`` load ``'FloorPlan%d' % scene_num``. A file of a room that is not a THOR
room must therefore carry a number that names no THOR room, or those tools would load a real
FloorPlan whose objects match none of the file's and blame the agent. The scheme:

=====================  ==================  ==========================================
``floor_plan``         ``scene_num``       why
=====================  ==================  ==========================================
``FloorPlanN``         N                   a real THOR room, imported from ALFRED (ALFRED's number)
``LitePlanN``          10000 + N           lite's procedural rooms (N in 1-30, 201-230, 301-330,
                                           401-430): 10001-10430, and ``...-10205`` still ends in
                                           the room's number
``LiteHouseN``         1000 + N            lite's procedural houses N in 1-8999: 1001-9999
``LiteHouseN``         100000 + N          houses N in 9000-99999: 109000-199999 (1000 + N would
                                           reach lite's rooms' 10001-10430 from N = 9001)
=====================  ==================  ==========================================

THOR's iTHOR rooms are FloorPlan1-30, 201-230, 301-330 and 401-430 (ProcTHOR houses and RoboTHOR
rooms have no ``FloorPlan<number>`` name), so neither lite range names one. Other names (the test
rooms ``LiteFixture*``) follow no rule and are not checked.

The task directory name ends with ``scene_num`` as in ALFRED (``...-Cabinet-10029``).
:func:`scene_num_problem` is what ``validate``, ``replay`` and ``verify`` refuse a file for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: THOR's iTHOR rooms: kitchens, living rooms, bedrooms, bathrooms (``FloorPlan<N>``).
THOR_FLOOR_PLANS: frozenset[int] = frozenset([*range(1, 31), *range(201, 231), *range(301, 331), *range(401, 431)])

#: ``scene_num`` of ``LitePlanN`` is N plus this.
LITE_ROOM_SCENE_OFFSET = 10000

#: ``scene_num`` of ``LiteHouseN`` is N plus this, below :data:`LARGE_HOUSE_FROM`...
LITE_HOUSE_SCENE_OFFSET = 1000

#: ... and N plus :data:`LARGE_HOUSE_SCENE_OFFSET` from it on, past lite's rooms' numbers.
LARGE_HOUSE_FROM = 9000
LARGE_HOUSE_SCENE_OFFSET = 100000

_NAMED = re.compile(r"^(FloorPlan|LitePlan|LiteHouse)(\d+)$")
_OFFSETS = {"FloorPlan": 0, "LitePlan": LITE_ROOM_SCENE_OFFSET}


def scene_num_for(floor_plan: str) -> int | None:
    """The ``scene_num`` a file of ``floor_plan`` records (``LitePlan205`` -> 10205), or None for a
    name outside the scheme (``LiteFixtureKitchen``)."""
    match = _NAMED.match(str(floor_plan))
    if match is None:
        return None
    if match.group(1) == "LiteHouse":
        return lite_house_scene_num(int(match.group(2)))
    return _OFFSETS[match.group(1)] + int(match.group(2))


def lite_house_scene_num(house: int) -> int:
    """The ``scene_num`` of ``LiteHouse<house>``: 1000 + house, or 100000 + house from house 9000 on."""
    offset = LARGE_HOUSE_SCENE_OFFSET if int(house) >= LARGE_HOUSE_FROM else LITE_HOUSE_SCENE_OFFSET
    return offset + int(house)


def lite_house_of_scene_num(scene_num: int) -> int | None:
    """The house number :func:`lite_house_scene_num` gives ``scene_num`` (1005 -> 5), or None."""
    for offset in (LITE_HOUSE_SCENE_OFFSET, LARGE_HOUSE_SCENE_OFFSET):
        house = int(scene_num) - offset
        if house > 0 and lite_house_scene_num(house) == int(scene_num):
            return house
    return None


def lite_room_scene_num(room: int) -> int:
    """The ``scene_num`` of lite's procedural room ``LitePlan<room>``: 10000 + room."""
    return LITE_ROOM_SCENE_OFFSET + int(room)


def lite_room_of_scene_num(scene_num: int) -> int | None:
    """The room number of a lite room's ``scene_num`` (10205 -> 205), or None when it is none's."""
    room = int(scene_num) - LITE_ROOM_SCENE_OFFSET
    return room if 0 < room < LITE_ROOM_SCENE_OFFSET else None


def names_thor_room(scene_num: int) -> bool:
    """Whether ``'FloorPlan%d' % scene_num`` is a real THOR room."""
    return int(scene_num) in THOR_FLOOR_PLANS


def scene_num_problem(scene: Mapping[str, Any]) -> str | None:
    """Why a ``scene`` block's ``floor_plan`` and ``scene_num`` disagree (one line), or None."""
    floor_plan, scene_num = scene.get("floor_plan"), scene.get("scene_num")
    if not isinstance(floor_plan, str) or isinstance(scene_num, bool) or not isinstance(scene_num, int):
        return None  # the schema reports these
    expected = scene_num_for(floor_plan)
    if expected is None or expected == scene_num:
        return None
    loads = f"; ALFRED's tools would load FloorPlan{scene_num}" if names_thor_room(scene_num) else ""
    return f"{scene_num} but a file of {floor_plan} records {expected}{loads}"
