"""The `alfred-gen scenes list` table: one line per procedural room with its size and counts."""

from __future__ import annotations

import time
from collections.abc import Callable

from alfred_gen.domains.catalogue import OBJECT_TYPES
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
