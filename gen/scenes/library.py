"""Finding rooms by name: the scene lookup every simulator above this layer is made with.

Procedural rooms are named ``LitePlan<N>`` and may also be asked for by bare number (``7``,
``"7"``). Procedural houses are named ``LiteHouse<N>`` (N in 1-99999, see
:mod:`alfred_gen.scenes.houses.names`); a bare number never means a house. Names of real THOR
rooms (``FloorPlan<N>``) belong to scenes imported from an ALFRED checkout; until such a
catalogue has been imported they are reported as not found, with a hint.
The simulator's hand-built test rooms (``LiteFixture*``) are found by name too.

:class:`SceneLibrary` is that lookup as a value (picklable, so worker processes make the same
simulator); :func:`simulator` is the :class:`~alfred_gen.sim.controller.Simulator` recipe that
commands hand to replay, vetting and generation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.houses.filter import HouseFilter
from alfred_gen.scenes.houses.names import DEFAULT_HOUSES, HOUSE_NUMBERS, HOUSE_PREFIX, house_of_name, is_house_name
from alfred_gen.scenes.procedural.build import NAME_PREFIX, build_scene
from alfred_gen.sim import fixtures
from alfred_gen.sim.controller import FileEvidence, Simulator
from alfred_gen.sim.scene import Scene, room_type_of

_NUMBER = re.compile(r"^\d+$")
_LITE = re.compile(rf"^{NAME_PREFIX}(\d+)$", re.IGNORECASE)
_THOR = re.compile(r"^FloorPlan(\d+)(_physics)?$", re.IGNORECASE)

#: The scene numbers of the procedural library, in ALFRED's order.
SCENE_NUMBERS: tuple[int, ...] = tuple(
    [*range(1, 31), *range(201, 231), *range(301, 331), *range(401, 431)]
)


def scene_numbers() -> tuple[int, ...]:
    """All 120 procedural scene numbers: kitchens 1-30, living rooms 201-230, bedrooms 301-330, bathrooms 401-430."""
    return SCENE_NUMBERS


def scene_range(part: str) -> list[int] | None:
    """The built-in rooms inside a range ``A-B`` (checked against the rooms that exist, never walked,
    so ``1-100000000000`` is cheap), or None when ``part`` is not a range. UserError USAGE for a
    malformed (``1-``) or reversed (``30-1``) range, NOT_FOUND for one holding no room."""
    text = str(part).strip()
    if "-" not in text:
        return None
    match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", text)
    if match is None:
        raise UserError(f"bad scene range {text!r}: expected A-B with numbers A <= B", ExitCode.USAGE)
    first, last = int(match.group(1)), int(match.group(2))
    if first > last:
        raise UserError(f"bad scene range {text!r}: it ends before it starts", ExitCode.USAGE)
    inside = [n for n in scene_numbers() if first <= n <= last]
    if not inside:
        raise UserError(f"no scene in range {text!r}", ExitCode.NOT_FOUND)
    return inside


def resolve_scene_number(name_or_num: str | int) -> int:
    """The procedural scene number meant by ``7``, ``"7"`` or ``"LitePlan7"``; UserError NOT_FOUND otherwise."""
    if isinstance(name_or_num, bool):
        raise UserError(f"unknown scene {name_or_num!r}", ExitCode.NOT_FOUND)
    if isinstance(name_or_num, int):
        number = name_or_num
    else:
        text = str(name_or_num).strip()
        match = _NUMBER.match(text) or _LITE.match(text)
        if match is None and is_house_name(text):
            raise UserError(
                f"{text!r} is a house, not a room: sample houses with `--scene-set houses --scenes N`",
                ExitCode.NOT_FOUND,
            )
        if match is None:
            if _THOR.match(text):
                raise UserError(
                    f"unknown scene {text!r}: real THOR rooms (FloorPlanN) need an imported ALFRED scene "
                    f"catalogue (`alfred-gen scenes import-alfred ALFRED_DIR`); the built-in rooms are "
                    f"{NAME_PREFIX}1-30, 201-230, 301-330, 401-430",
                    ExitCode.NOT_FOUND,
                )
            raise UserError(
                f"unknown scene {text!r}: expected a number or {NAME_PREFIX}N "
                "(N in 1-30, 201-230, 301-330, 401-430)",
                ExitCode.NOT_FOUND,
            )
        number = int(match.group(1) if match.re is _LITE else match.group(0))
    try:
        room_type_of(number)
    except ValueError:
        raise UserError(
            f"unknown scene {name_or_num!r}: scene numbers are 1-30, 201-230, 301-330, 401-430",
            ExitCode.NOT_FOUND,
        ) from None
    return number


def get_scene(name_or_num: str | int) -> Scene:
    """The Scene for a procedural scene number or name, a procedural house (``LiteHouseN``), or a
    real THOR room (``FloorPlanN``) from the imported ALFRED scene catalogue (see
    :mod:`alfred_gen.scenes.alfred.catalogue_store`). Built once per process and cached; callers
    get a fresh copy each time, so mutating it (it is a dataclass) cannot corrupt the cache."""
    if isinstance(name_or_num, str) and is_house_name(name_or_num):
        return get_house(name_or_num)
    if isinstance(name_or_num, str) and _THOR.match(name_or_num.strip()):
        from alfred_gen.scenes.alfred.catalogue_store import imported_scene

        match = _THOR.match(name_or_num.strip())
        imported = imported_scene(f"FloorPlan{int(match.group(1))}") if match else None
        if imported is not None:
            return imported
    number = resolve_scene_number(name_or_num)
    return Scene.from_dict(_scene_dict(number))


@cache
def _scene_dict(number: int) -> dict:
    return build_scene(number).to_dict()


def resolve_house_number(name_or_num: str | int) -> int:
    """The house number meant by ``5``, ``"5"`` or ``"LiteHouse5"``; UserError NOT_FOUND otherwise."""
    text = str(name_or_num).strip()
    if isinstance(name_or_num, bool):
        house = None
    elif isinstance(name_or_num, int) or text.isdigit():
        house = int(text) if int(text) in HOUSE_NUMBERS else None
    else:
        house = house_of_name(text)
    if house is None:
        raise UserError(
            f"unknown house {name_or_num!r}: houses are {HOUSE_PREFIX}{HOUSE_NUMBERS.start}-"
            f"{HOUSE_PREFIX}{HOUSE_NUMBERS.stop - 1}",
            ExitCode.NOT_FOUND,
        )
    return house


def get_house(name_or_num: str | int) -> Scene:
    """The procedural house ``LiteHouseN`` (by name or number). Built once per process and cached,
    a fresh copy each call, as :func:`get_scene`."""
    return Scene.from_dict(_house_dict(resolve_house_number(name_or_num)))


def accepted_houses(houses: Iterable[int] | None = None, house_filter: HouseFilter | None = None) -> tuple[int, ...]:
    """The house numbers among ``houses`` (default :data:`DEFAULT_HOUSES`, LiteHouse1-100) that the
    house filter (default: :class:`~alfred_gen.scenes.houses.filter.HouseFilter`'s defaults)
    accepts, in order. Builds each house (cached per process)."""
    house_filter = house_filter or HouseFilter()
    return tuple(n for n in (DEFAULT_HOUSES if houses is None else houses) if house_filter.accepts(get_house(n)))


@cache
def _house_dict(house: int) -> dict:
    from alfred_gen.scenes.houses.build import build_house

    return build_house(house).to_dict()


def find_scene(name: str) -> Scene:
    """The Scene a trajectory's ``floor_plan`` (or a user) names: a test fixture (``LiteFixture*``),
    a procedural room, or an imported THOR room. UserError(NOT_FOUND) for a name nobody knows."""
    if name in fixtures.FIXTURES:
        return fixtures.fixture_scene(name)
    return get_scene(name)


@dataclass(frozen=True)
class SceneLibrary:
    """The scene lookup for simulators (:class:`~alfred_gen.sim.controller.SceneLookup`): every room
    :func:`find_scene` knows, plus ``extra`` scenes found by their own names first (a room built on
    the fly, e.g. for a test or a held-out measurement).

    ``complete`` (the default) completes an imported THOR room with the fixtures the replayed
    trajectory names and the room lacks (:mod:`alfred_gen.scenes.alfred.complete`), draws the
    loose objects its masks see over no taller than they allow
    (:mod:`alfred_gen.scenes.alfred.file_sights`), draws a pen or pencil posed through another
    object where its first sight shows THOR pushed it (:mod:`alfred_gen.scenes.alfred.file_pushes`)
    and puts things where its masks show THOR put them
    (:mod:`alfred_gen.scenes.alfred.file_landings`), long things into a sink basin the way they
    show (:mod:`alfred_gen.scenes.alfred.file_headings`); the commands' ``--no-complete`` turns it
    off (the room as the catalogue has it)."""

    extra: tuple[Scene, ...] = ()
    complete: bool = True

    def __call__(self, name: str) -> Scene:
        for scene in self.extra:
            if scene.name == name:
                return scene
        return find_scene(name)

    def for_start_state(self, name: str, start: Mapping[str, Any],
                        trajectory: Mapping[str, Any] | None = None) -> Scene:
        """The room, and for an imported THOR room (``FloorPlanN``) what the recorded start state
        proves it holds: its objects and its start point
        (:func:`alfred_gen.scenes.alfred.importer.complete_for_start_state`); with ``complete``
        and a ``trajectory``, also the fixtures its actions name and what its masks show (:meth:`file_evidence`)."""
        return self._for_start_state(name, start, trajectory)[0]

    def file_evidence(self, name: str, start: Mapping[str, Any], trajectory: Mapping[str, Any]) -> FileEvidence:
        """What :meth:`for_start_state` takes from ``trajectory`` itself: the fixtures it adds and how
        many landings, headings, lowered objects and pushes its masks give (none without ``complete``)."""
        if not self.complete:
            return FileEvidence()
        return self._for_start_state(name, start, trajectory)[1]

    def _for_start_state(self, name: str, start: Mapping[str, Any],
                         trajectory: Mapping[str, Any] | None) -> tuple[Scene, FileEvidence]:
        scene = self(name)
        if not name.startswith("FloorPlan"):
            return scene, FileEvidence()
        from alfred_gen.scenes.alfred.importer import complete_for_start_state

        scene = complete_for_start_state(scene, start)
        if not self.complete or trajectory is None:
            return scene, FileEvidence()
        from alfred_gen.scenes.alfred.catalogue_store import floor_known
        from alfred_gen.scenes.alfred.complete import complete_from_file
        from alfred_gen.scenes.alfred.file_headings import with_file_headings
        from alfred_gen.scenes.alfred.file_landings import with_file_landings
        from alfred_gen.scenes.alfred.file_pushes import with_file_pushes
        from alfred_gen.scenes.alfred.file_sights import clear_file_sights

        # A catalogue room built with demonstrations knows its floor: a walk off it stays a failure.
        extra = any(s.name == name for s in self.extra)
        scene, added = complete_from_file(scene, trajectory, walked_floor=extra or not floor_known(name))
        scene, lowered = clear_file_sights(scene, trajectory)
        falls_before = len(scene.falls)
        scene = with_file_pushes(scene, trajectory)
        pushes = len(scene.falls) - falls_before
        scene = with_file_headings(with_file_landings(scene, trajectory), trajectory)
        return scene, FileEvidence(
            completed=tuple(added), lowered=len(lowered), pushes=pushes,
            landings=sum(len(o.file_put_points) for o in scene.objects),
            headings=sum(len(o.file_put_headings) for o in scene.objects))


def simulator(backend: str = "lite", options: Mapping[str, Any] | None = None,
              extra: tuple[Scene, ...] = (), complete: bool = True) -> Simulator:
    """The simulator recipe for ``backend`` with this library as its scene lookup; ``options`` are
    the backend's (THOR's build, platform, display); ``complete`` as :class:`SceneLibrary` says."""
    return Simulator(backend, dict(options or {}), SceneLibrary(extra, complete))
