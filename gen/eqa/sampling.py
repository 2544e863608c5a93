"""Which questions a home gives, as the EQA seed's released engine picks them (the default of
``eqa questions``; ``--all-questions`` turns it off).

The engine samples no fixed number of questions per home: it keeps every unique question of every
template, after rules that drop entities before a question is formed. The per-home counts of the
paper (about 6, from 1 to 22) arise from those rules and the entropy filter, so ours follows the
rules, not a quota. Read from the engine (``paper_blacklists.json`` beside this module says where
each entry comes from):

- **blacklists**: per template, words it never asks about (the engine's SUNCG classes, as our
  words), on top of the vocabulary's own;
- **room blacklist**: rooms of these types are dropped when rooms are selected (before ``unique``),
  and a location question whose answer would be one is not asked;
- **volume cut**: objects whose box is smaller than ``min_volume`` are dropped from every
  selection of objects, before ``unique``, so a tiny one neither is asked about nor makes a word
  ambiguous;
- **SUNCG's classes only**: the engine can name only the classes its SUNCG homes hold; our words
  that name none of them (THOR's boots, safes, watering cans, ...; the data file lists them and how
  they were checked) are selected by no template, so they are neither asked about nor an answer;
- **once among uniquely named rooms**: templates that name a room (color_room, preposition,
  distance) select the objects of *all* uniquely named rooms together and keep those whose word
  occurs once among them, so "the table in the kitchen" is asked only when no other uniquely named
  room has a table either (the engine's ``filter.objects`` after ``unique.rooms``, then
  ``unique.objects``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from alfred_gen.eqa.facts import ObjectFact

#: The data file, in this package.
RULES_FILE = "paper_blacklists.json"


@dataclass(frozen=True)
class PaperRules:
    """The engine's sampling rules over our words and room types (module docstring)."""

    blacklists: Mapping[str, frozenset[str]]
    rooms: frozenset[str]
    min_volume: float
    not_in_suncg: frozenset[str] = frozenset()

    def blacklisted(self, template: str, word: str) -> bool:
        """Whether the engine's list for ``template`` names ``word``."""
        return word in self.blacklists.get(template, frozenset())

    def room_dropped(self, room_type: str) -> bool:
        """Whether the engine drops rooms of this type."""
        return room_type in self.rooms

    def big_enough(self, obj: ObjectFact) -> bool:
        """Whether the object's box passes the volume cut."""
        return box_volume(obj) >= self.min_volume

    def in_suncg(self, word: str | None) -> bool:
        """Whether the engine's homes hold a class this word names (a word-less object: no)."""
        return word is not None and word not in self.not_in_suncg


def box_volume(obj: ObjectFact) -> float:
    """The volume of an object's axis-aligned box, cubic metres."""
    return max(0.0, obj.hi[0] - obj.lo[0]) * max(0.0, obj.hi[1] - obj.lo[1]) * max(0.0, obj.hi[2] - obj.lo[2])


def parse_rules(data: Mapping[str, Any], templates: Iterable[str], words: Iterable[str]) -> PaperRules:
    """PaperRules from the data file's JSON; ValueError when it names a template or word we do not
    have (the file is part of the package: a bug, not user input)."""
    known_templates, known_words = set(templates), set(words)
    blacklists: dict[str, frozenset[str]] = {}
    for template, listed in data["blacklists"].items():
        if template not in known_templates:
            raise ValueError(f"{RULES_FILE}: unknown template {template!r}")
        unknown = sorted(set(listed) - known_words)
        if unknown:
            raise ValueError(f"{RULES_FILE}: blacklist {template!r} names unknown words {unknown}")
        blacklists[template] = frozenset(listed)
    volume = float(data["min_volume"])
    if volume < 0:
        raise ValueError(f"{RULES_FILE}: min_volume must not be negative")
    absent = frozenset(data.get("not_in_suncg", {}).get("words", ()))
    if absent - known_words:
        raise ValueError(f"{RULES_FILE}: not_in_suncg names unknown words {sorted(absent - known_words)}")
    return PaperRules(blacklists, frozenset(data["rooms"]), volume, absent)


def rules_data() -> dict[str, Any]:
    """The data file's JSON."""
    text = resources.files("alfred_gen.eqa").joinpath(RULES_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def load_paper_rules() -> PaperRules:
    """The package's rules (read once per process), checked against the templates and vocabulary."""
    from alfred_gen.eqa.programs import TEMPLATES  # programs imports this module's PaperRules
    from alfred_gen.eqa.vocabulary import load_vocabulary

    return parse_rules(rules_data(), TEMPLATES, load_vocabulary().words)
