"""Which homes an EQA run covers, and the facts of one home (computed once, kept on disk).

Homes are procedural houses (``--houses``: numbers, ``LiteHouseN`` or ranges; those the house
filter rejects are skipped and said why) and single rooms (``--rooms``: lite's ``LitePlanN``
numbers and ranges, or ``FloorPlanN`` for THOR's rooms or imported ALFRED rooms).

A home's facts (:mod:`.facts`) cost seconds of rendering, so each is written atomically to
``<out>/facts/<home>.json`` and read back by a later run, unless the facts code or the
vocabulary changed since (:data:`~alfred_gen.eqa.facts.FACTS_VERSION` and a digest of the
vocabulary file are in the file). A house the filter rejects gets a small file saying why.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_text
from alfred_gen.eqa.facts import FACTS_VERSION, FactsError, HomeFacts, collect_facts
from alfred_gen.eqa.views import LiteViewSource, SteppedViewSource, ViewSource
from alfred_gen.eqa.vocabulary import VOCABULARY_FILE, load_vocabulary
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.houses.filter import HouseFilter
from alfred_gen.scenes.houses.names import house_name, house_of_name, parse_house_numbers
from alfred_gen.scenes.library import find_scene, get_house, resolve_scene_number, scene_numbers
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.sim.scene import Scene, room_type_of

#: Where facts go inside a run's output directory.
FACTS_DIR = "facts"

_THOR_ROOM = re.compile(r"^FloorPlan(\d+)$", re.IGNORECASE)


@cache
def vocabulary_digest() -> str:
    """A short digest of the vocabulary file: facts computed under another vocabulary are stale."""
    text = resources.files("alfred_gen.eqa").joinpath(VOCABULARY_FILE).read_bytes()
    return hashlib.sha256(text).hexdigest()[:16]


def parse_homes(houses: str | None, rooms: str | None) -> list[str]:
    """Home names in order: the houses, then the rooms. UserError (USAGE, NOT_FOUND) for a bad
    part, and USAGE when neither names a home."""
    names = [house_name(n) for n in parse_house_numbers(houses)] if houses else []
    for part in (p.strip() for p in (rooms or "").split(",")):
        if not part:
            continue
        match = _THOR_ROOM.match(part)
        if match:
            names.append(f"FloorPlan{int(match.group(1))}")
            continue
        low, sep, high = part.partition("-")
        if sep and low.strip().isdigit() and high.strip().isdigit():
            inside = [n for n in scene_numbers() if int(low) <= n <= int(high)]
            if not inside:
                raise UserError(f"no room in range {part!r}", ExitCode.NOT_FOUND)
            names.extend(f"LitePlan{n}" for n in inside)
        else:
            names.append(f"LitePlan{resolve_scene_number(part)}")
    if not names:
        raise UserError("name the homes: --houses (e.g. 1-200) and/or --rooms (e.g. 1-30,201)", ExitCode.USAGE)
    return list(dict.fromkeys(names))


def home_backend_check(name: str, backend: str) -> None:
    """UserError (USAGE) when ``backend`` cannot run the home ``name``: houses are lite's only, and
    THOR runs its own rooms (FloorPlanN) only."""
    if house_of_name(name) is not None and backend != "lite":
        raise UserError("the houses (LiteHouseN) exist in the lite backend only: use --backend lite",
                        ExitCode.USAGE)
    if backend != "lite" and _THOR_ROOM.match(name) is None:
        raise UserError(f"{name}: the thor backend runs THOR's rooms (FloorPlanN)", ExitCode.USAGE)


def home_scene(name: str, backend: str) -> Scene:
    """The Scene of a home: a house, a lite room, or (THOR) a stand-in naming the FloorPlan's one
    room (THOR itself knows the room; the stand-in carries its name, number and room type)."""
    home_backend_check(name, backend)
    if house_of_name(name) is not None:
        return get_house(name)
    if backend != "lite":
        match = _THOR_ROOM.match(name)
        assert match is not None  # home_backend_check said so
        number = int(match.group(1))
        return Scene(name, number, room_type_of(number), (), (), [])
    return find_scene(name)


@dataclass
class HomeOutcome:
    """The facts of one home, or why there are none (a rejected house, a failed setup)."""

    home: str
    facts: HomeFacts | None = None
    rejected: str = ""
    failed: str = ""
    reused: bool = False


def facts_path(out: Path, home: str) -> Path:
    return out / FACTS_DIR / f"{home}.json"


def _filter_record(house_filter: HouseFilter | None) -> Any:
    return None if house_filter is None else dataclasses.asdict(house_filter)


def _current_record(path: Path) -> dict[str, Any] | None:
    """A facts file's record if it was made by this version of the facts and the vocabulary;
    None when it is missing, unreadable or stale (then the home is looked at again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("vocabulary") != vocabulary_digest():
        return None
    return data if data.get("facts_version") == FACTS_VERSION else None


def _read_cached(path: Path, house_filter: HouseFilter | None) -> HomeOutcome | None:
    data = _current_record(path)
    if data is None or data.get("house_filter") != json.loads(json.dumps(_filter_record(house_filter))):
        return None
    home = str(data.get("home", path.stem))
    if data.get("rejected"):
        return HomeOutcome(home, rejected=str(data["rejected"]), reused=True)
    try:
        return HomeOutcome(home, facts=HomeFacts.from_dict(data["facts"]), reused=True)
    except (KeyError, TypeError, ValueError):
        return None


def _write(path: Path, home: str, house_filter: HouseFilter | None, body: dict[str, Any]) -> None:
    record = {"home": home, "facts_version": FACTS_VERSION, "vocabulary": vocabulary_digest(),
              "house_filter": _filter_record(house_filter), **body}
    write_text(path, json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n", durable=False)


def view_source(controller: Controller, backend: str, agent_y: float = 0.9009997) -> ViewSource:
    """lite's renderer from any pose, or (THOR) teleporting the agent to each pose."""
    if backend == "lite":
        return LiteViewSource(controller)
    return SteppedViewSource(controller, agent_y)


def open_controller(simulator: Simulator) -> Controller:
    """The controller a facts worker uses: lite renders views itself (no frames per step); THOR
    must give RGB and instance masks with every step."""
    if simulator.backend == "lite":
        return simulator.open()
    return simulator.open(render=True, segmentation=True)


def home_outcome(home: str, out: Path, simulator: Simulator, house_filter: HouseFilter | None,
                 controller: Controller) -> HomeOutcome:
    """The facts of ``home`` (read back from ``out`` when there, else computed and written)."""
    path = facts_path(out, home)
    cached = _read_cached(path, house_filter) if path.exists() else None
    if cached is not None:
        return cached
    scene = home_scene(home, simulator.backend)
    if scene.is_house and house_filter is not None:
        reason = house_filter.why_rejected(scene)
        if reason is not None:
            _write(path, home, house_filter, {"rejected": reason})
            return HomeOutcome(home, rejected=reason)
    try:
        facts = collect_facts(controller, scene, load_vocabulary(), view_source(controller, simulator.backend),
                              color_variation=simulator.backend == "lite")
    except FactsError as error:
        return HomeOutcome(home, failed=str(error))
    _write(path, home, house_filter, {"facts": facts.to_dict()})
    return HomeOutcome(home, facts=facts)


def read_facts(out: Path, home: str) -> HomeFacts | None:
    """The facts ``eqa questions`` wrote for ``home`` under ``out``, or None when there are none
    (never computed, rejected, or made by another version of the facts or the vocabulary)."""
    data = _current_record(facts_path(out, home))
    if data is None or "facts" not in data:
        return None
    try:
        return HomeFacts.from_dict(data["facts"])
    except (KeyError, TypeError, ValueError):
        return None
