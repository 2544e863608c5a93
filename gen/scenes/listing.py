"""The `alfred-gen scenes list` table: one line per procedural room with its size and counts, and
`scenes list --houses`: one line per procedural house with its figures and the house filter's verdict."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.houses.filter import HouseFilter
from alfred_gen.scenes.procedural.rooms import WALL_THICKNESS
from alfred_gen.sim.scene import Scene, room_type_of

COLUMNS = ("num", "name", "room type", "size (m)", "reachable", "receptacles", "objects")


def room_size(scene: Scene) -> tuple[float, float]:
    """The extent (x, z) of the room's floor: the walls' bounding box less their thickness."""
    if not scene.walls:
        xs = [p[0] for p in scene.reachable] or [0.0]
        zs = [p[1] for p in scene.reachable] or [0.0]
        return (max(xs) - min(xs), max(zs) - min(zs))
    x0 = min(w.lo[0] for w in scene.walls) + WALL_THICKNESS
    x1 = max(w.hi[0] for w in scene.walls) - WALL_THICKNESS
    z0 = min(w.lo[2] for w in scene.walls) + WALL_THICKNESS
    z1 = max(w.hi[2] for w in scene.walls) - WALL_THICKNESS
    return (round(x1 - x0, 2), round(z1 - z0, 2))


def fixed_receptacles(scene: Scene) -> list[str]:
    """Ids of the receptacles that are part of the room (not pickupable containers), sorted."""
    ids = []
    for obj in scene.objects:
        entry = OBJECT_TYPES.get(obj.object_type)
        if entry is not None and entry.receptacle and not entry.pickupable:
            ids.append(obj.object_id)
    return sorted(ids)


def scene_row(scene: Scene) -> tuple[str, ...]:
    sx, sz = room_size(scene)
    return (
        str(scene.scene_num),
        scene.name,
        scene.room_type,
        f"{sx:.2f} x {sz:.2f}",
        str(len(scene.reachable)),
        str(len(fixed_receptacles(scene))),
        str(len(scene.objects)),
    )


#: Column widths: rows are printed as each room is built, so widths cannot depend on the rows.
WIDTHS = (4, 12, 12, 12, 9, 11, 7)


def format_row(row: tuple[str, ...]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(row, WIDTHS)).rstrip()


def list_scenes(
    echo: Callable[[str], None], room_type: str | None = None, note: Callable[[str], None] | None = None
) -> int:
    """Print the table of all procedural rooms (optionally of one room type), a row as each room
    is built; ``note`` gets the closing summary (count and time). Returns the exit code."""
    from alfred_gen.scenes.library import get_scene, scene_numbers

    start = time.perf_counter()
    numbers = [n for n in scene_numbers() if room_type is None or room_type_of(n) == room_type]
    echo(format_row(COLUMNS))
    for number in numbers:
        echo(format_row(scene_row(get_scene(number))))
    if note is not None:
        note(f"{len(numbers)} rooms in {time.perf_counter() - start:.1f} s")
    return 0


HOUSE_COLUMNS = ("num", "name", "rooms", "area m2", "doorways", "reachable", "objects", "filter", "room types")
HOUSE_WIDTHS = (4, 13, 5, 8, 8, 9, 7, 34, 0)


def format_house_row(row: tuple[str, ...]) -> str:
    return "  ".join(cell.ljust(width) for cell, width in zip(row, HOUSE_WIDTHS)).rstrip()


def list_houses(
    echo: Callable[[str], None],
    houses: Sequence[int],
    house_filter: HouseFilter | None = None,
    accepted_only: bool = False,
    note: Callable[[str], None] | None = None,
) -> int:
    """Print a row per house (built as it is printed) with its figures and what the house filter
    says of it (``ok`` or the rule it breaks); ``accepted_only`` leaves out the rejected ones.
    ``note`` gets the closing summary (how many passed, time). Returns the exit code."""
    from alfred_gen.scenes.houses.figures import house_figures
    from alfred_gen.scenes.library import get_house

    house_filter = house_filter or HouseFilter()
    start = time.perf_counter()
    echo(format_house_row(HOUSE_COLUMNS))
    passed = 0
    for number in houses:
        scene = get_house(number)
        reason = house_filter.why_rejected(scene)
        passed += reason is None
        if accepted_only and reason is not None:
            continue
        f = house_figures(scene)
        echo(format_house_row((
            str(number), f.name, str(f.rooms), f"{f.area:.1f}", str(f.doorways), str(f.reachable), str(f.objects),
            reason or "ok", f.room_summary(),
        )))
    if note is not None:
        note(f"{passed} of {len(houses)} houses pass the house filter "
             f"({time.perf_counter() - start:.1f} s)")
    return 0


def scenes_list_command(
    echo: Callable[[str], None],
    note: Callable[[str], None] | None = None,
    room_type: str | None = None,
    houses: bool = False,
    house_range: str | None = None,
    min_area: float | None = None,
    max_area: float | None = None,
    require: Sequence[str] | str | None = None,
    min_coverage: float | None = None,
    accepted_only: bool = False,
) -> int:
    """`alfred-gen scenes list`: the rooms (optionally of one type), or with ``houses`` the houses of
    ``house_range`` (default LiteHouse1-100) under a house filter built from the values given (the
    defaults of :class:`HouseFilter` for the rest). Returns the exit code."""
    if not houses:
        if any(v is not None for v in (house_range, min_area, max_area, require, min_coverage)) or accepted_only:
            raise UserError("house options (--range, --min-area, --max-area, --require, --min-coverage, "
                            "--accepted-only) need --houses", ExitCode.USAGE)
        return list_scenes(echo, room_type=room_type, note=note)
    if room_type is not None:
        raise UserError("--room-type lists single rooms; a house has rooms of several types", ExitCode.USAGE)
    from alfred_gen.scenes.houses.filter import parse_room_types
    from alfred_gen.scenes.houses.names import DEFAULT_HOUSES, parse_house_numbers

    numbers = parse_house_numbers(house_range) if house_range else tuple(DEFAULT_HOUSES)
    defaults = HouseFilter()
    house_filter = HouseFilter(
        min_area=defaults.min_area if min_area is None else float(min_area),
        max_area=defaults.max_area if max_area is None else float(max_area),
        required=defaults.required if require is None else parse_room_types(require),
        min_coverage=defaults.min_coverage if min_coverage is None else float(min_coverage),
    )
    return list_houses(echo, numbers, house_filter, accepted_only=accepted_only, note=note)
