"""EQA's words for THOR's objects and rooms, read from ``vocabulary.json`` beside this module.

The paper builds its questions over a cleaned vocabulary: obscure rooms and tiny, vague or
transparent objects are left out, and visually similar or hierarchical labels are merged (teapot and
coffee kettle are both a kettle). Ours does the same over THOR's types, as data: every type of the
object catalogue is either covered by a word (``objects``) or listed with the reason it is left out
(``excluded``); a test keeps the two in step with the catalogue. ``blacklists`` are the paper's
per-template blacklist operation: words a template never asks about.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

#: The data file, in this package.
VOCABULARY_FILE = "vocabulary.json"

#: Kinds of words: furniture stands on the floor or hangs on a wall; objects are picked up.
KINDS = ("furniture", "object")


@dataclass(frozen=True)
class Word:
    """One object word: how questions say it, its plural, its kind and the THOR types it covers."""

    word: str
    plural: str
    kind: str
    types: tuple[str, ...]

    @property
    def article(self) -> str:
        """``a`` or ``an`` before the word (by its first letter)."""
        return indefinite_article(self.word)


@dataclass(frozen=True)
class RoomWord:
    """How questions name a room type (``living_room`` -> ``living room``) and its plural."""

    room_type: str
    word: str
    plural: str


@dataclass(frozen=True)
class Vocabulary:
    """The words, the type -> word map, the room words, the left-out types and the blacklists."""

    words: dict[str, Word]
    by_type: dict[str, str]
    rooms: dict[str, RoomWord]
    excluded: dict[str, str]
    blacklists: dict[str, frozenset[str]]

    def word_of(self, object_type: str) -> Word | None:
        """The word for a THOR type, or None when the type is left out of questions."""
        word = self.by_type.get(object_type)
        return self.words[word] if word is not None else None

    def blacklisted(self, template: str, word: str) -> bool:
        """Whether ``template`` never asks about ``word`` (the paper's blacklist operation)."""
        return word in self.blacklists.get(template, frozenset())

    def room_word(self, room_type: str) -> RoomWord:
        """The words of a room type; KeyError for a type the vocabulary does not name."""
        return self.rooms[room_type]


def indefinite_article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def parse_vocabulary(data: dict[str, Any]) -> Vocabulary:
    """A Vocabulary from the data file's JSON; ValueError when a type has two words or a
    blacklist names an unknown word (the file is part of the package: a bug, not user input)."""
    words: dict[str, Word] = {}
    by_type: dict[str, str] = {}
    for word, entry in data["objects"].items():
        if entry["kind"] not in KINDS:
            raise ValueError(f"vocabulary: {word!r} has kind {entry['kind']!r}, not one of {KINDS}")
        words[word] = Word(word, entry["plural"], entry["kind"], tuple(entry["types"]))
        for object_type in entry["types"]:
            if object_type in by_type:
                raise ValueError(f"vocabulary: {object_type} is both {by_type[object_type]!r} and {word!r}")
            by_type[object_type] = word
    excluded: dict[str, str] = {}
    for reason, types in data["excluded"].items():
        for object_type in types:
            if object_type in by_type or object_type in excluded:
                raise ValueError(f"vocabulary: {object_type} is listed twice")
            excluded[object_type] = reason
    rooms = {room_type: RoomWord(room_type, entry["word"], entry["plural"])
             for room_type, entry in data["rooms"].items()}
    blacklists: dict[str, frozenset[str]] = {}
    for template, listed in data["blacklists"].items():
        if template.startswith("_"):
            continue
        unknown = sorted(set(listed) - set(words))
        if unknown:
            raise ValueError(f"vocabulary: blacklist {template!r} names unknown words {unknown}")
        blacklists[template] = frozenset(listed)
    return Vocabulary(words, by_type, rooms, excluded, blacklists)


@cache
def load_vocabulary() -> Vocabulary:
    """The package's vocabulary (read once per process)."""
    text = resources.files("alfred_gen.eqa").joinpath(VOCABULARY_FILE).read_text(encoding="utf-8")
    return parse_vocabulary(json.loads(text))
