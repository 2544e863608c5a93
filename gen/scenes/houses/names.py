"""How houses are named and numbered, apart from how they are built (cheap to import).

House N is ``LiteHouseN`` for N in :data:`HOUSE_NUMBERS` (1-99,999: EQA's 750 homes and many
more; a house is built only when asked for). Its ``scene_num``, which
trajectories record and ALFRED's task directory names end with, is ``1000 + N``: ALFRED numbers its
rooms by type in hundreds (kitchens 1-30, living rooms 201-230, ...), and houses take the thousands,
so a directory ``...-1005`` is never confused with ``LitePlan5``'s ``...-5`` in one output tree.
From house 9000 on it is ``100000 + N``, since 1000 + N would reach lite's rooms' 10001-10430
(:mod:`alfred_gen.traj.scene_nums`).
"""

from __future__ import annotations

import re

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.scene_nums import lite_house_of_scene_num, lite_house_scene_num

#: How procedural houses are named (never THOR's ``FloorPlanN`` nor lite's rooms ``LitePlanN``).
HOUSE_PREFIX = "LiteHouse"

#: The house numbers there are: LiteHouse1 to LiteHouse99999 (LiteHouse1-999 before issue 67).
HOUSE_NUMBERS = range(1, 100_000)

#: The houses ``sample --scene-set houses`` and ``scenes list --houses`` use unless told otherwise:
#: LiteHouse1-100, of which those the default house filter accepts.
DEFAULT_HOUSES = range(1, 101)

_NAME = re.compile(rf"^{HOUSE_PREFIX}(\d+)$", re.IGNORECASE)


def house_name(house: int) -> str:
    """``LiteHouse<house>``."""
    return f"{HOUSE_PREFIX}{int(house)}"


def house_scene_num(house: int) -> int:
    """The scene number house N records: 1000 + N (100000 + N from house 9000 on)."""
    return lite_house_scene_num(house)


def house_of_scene_num(scene_num: int) -> int | None:
    """The house number of a scene number (1005 -> 5), or None when it is no house's."""
    house = lite_house_of_scene_num(scene_num)
    return house if house in HOUSE_NUMBERS else None


def house_of_name(name: str) -> int | None:
    """The house number in ``LiteHouseN`` (any case), or None when the name is no house's (an N
    outside :data:`HOUSE_NUMBERS` included)."""
    match = _NAME.match(name.strip())
    if match is None:
        return None
    house = int(match.group(1))
    return house if house in HOUSE_NUMBERS else None


def is_house_name(name: str) -> bool:
    """Whether ``name`` has a house's shape (``LiteHouse`` and digits), in range or not."""
    return _NAME.match(name.strip()) is not None


def parse_house_numbers(text: str) -> tuple[int, ...]:
    """House numbers from ``"1-100"``, ``"5,7,LiteHouse9"`` or a mix, sorted, without repeats;
    UserError (USAGE for a malformed part, NOT_FOUND for a number outside :data:`HOUSE_NUMBERS`)."""
    numbers: set[int] = set()
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        low, sep, high = part.partition("-")
        if sep and low.strip().isdigit() and high.strip().isdigit():
            first, last = int(low), int(high)
            if first > last:
                raise UserError(f"bad house range {part!r}", ExitCode.USAGE)
            wanted = range(first, last + 1)
        elif part.isdigit():
            wanted = range(int(part), int(part) + 1)
        elif is_house_name(part):
            number = int(part[len(HOUSE_PREFIX):])
            wanted = range(number, number + 1)
        else:
            raise UserError(f"bad house {part!r}: expected N, A-B or {HOUSE_PREFIX}N", ExitCode.USAGE)
        # Checked by its ends, never walked: a range of 10^11 houses is refused at once.
        outside = [n for n in (wanted.start, HOUSE_NUMBERS.stop) if n in wanted and n not in HOUSE_NUMBERS]
        if outside:
            raise UserError(
                f"no house {outside[0]}: houses are {HOUSE_PREFIX}{HOUSE_NUMBERS.start}-"
                f"{HOUSE_PREFIX}{HOUSE_NUMBERS.stop - 1}",
                ExitCode.NOT_FOUND,
            )
        numbers.update(wanted)
    if not numbers:
        raise UserError(f"no house in {text!r}", ExitCode.USAGE)
    return tuple(sorted(numbers))
