"""How THOR's classes read in English: names, plurals, and "in" or "on" a receptacle.

Shared by the templated language (:mod:`.template`) and the generated annotations (:mod:`.realise`),
so both name a ``SinkBasin`` "sink" and put things *in* a fridge and *on* a counter.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Names people use for classes whose split CamelCase reads badly (everything else is split).
_NAMES = {
    "CounterTop": "counter",
    "SinkBasin": "sink",
    "BathtubBasin": "bathtub",
    "GarbageCan": "trash can",
    "TVStand": "TV stand",
    "CD": "CD",
    "CellPhone": "phone",
    "RemoteControl": "remote control",
    "DeskLamp": "desk lamp",
    "FloorLamp": "floor lamp",
    "StoveBurner": "stove burner",
    "Fridge": "fridge",
    "Microwave": "microwave",
    "Glassbottle": "glass bottle",
    "ToiletPaper": "toilet paper",
    "ToiletPaperHanger": "toilet paper hanger",
    "HandTowelHolder": "towel holder",
    "TowelHolder": "towel holder",
}

#: Receptacles things go *in* (others: *on*).
_CONTAINERS = frozenset({
    "Fridge", "Microwave", "Cabinet", "Drawer", "Box", "Bowl", "Pot", "Pan", "Mug", "Cup", "SinkBasin",
    "BathtubBasin", "GarbageCan", "Safe", "Bathtub", "Sink", "LaundryHamper", "ToiletPaperHanger",
    "HandTowelHolder", "TowelHolder", "Plate",
})

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

def class_words(object_class: str) -> str:
    """How a THOR class reads in a sentence: ``CoffeeMachine`` -> ``coffee machine``."""
    if object_class in _NAMES:
        return _NAMES[object_class]
    return " ".join(part.lower() for part in _CAMEL.split(object_class) if part)


def plural(words: str) -> str:
    """A plain English plural of the last word (``knife`` -> ``knives``, ``glass`` -> ``glasses``)."""
    head, _, last = words.rpartition(" ")
    if last.endswith("fe"):
        last = last[:-2] + "ves"
    elif last.endswith(("s", "x", "ch", "sh")) or (last.endswith("o") and last not in ("photo",)):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}".strip()


def preposition(receptacle_class: str) -> str:
    """``in`` for containers (fridge, bowl, drawer), ``on`` for surfaces (counter, table, bed)."""
    return "in" if receptacle_class in _CONTAINERS else "on"


def class_for_word(word: str) -> str:
    """The THOR class of an ALFRED args word (``sinkbasin`` -> ``SinkBasin``); the word if unknown."""
    return _by_word().get(word.lower(), word)


@lru_cache(maxsize=1)
def _by_word() -> dict[str, str]:
    from alfred_gen.domains.catalogue import OBJECT_TYPES

    return {name.lower(): name for name in (*OBJECT_TYPES, *_NAMES)}


