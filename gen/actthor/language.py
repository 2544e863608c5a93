"""Template sentences for triples ("The robot dropped the mug onto the table.").

Object types are THOR's CamelCase names; a sentence spells them as words (``RemoteControl`` ->
"remote control"), with a few names spelled as people write them.
"""

from __future__ import annotations

import re

#: THOR type names whose words are not their CamelCase split.
_SPELLING = {
    "BasketBall": "basketball",
    "CD": "CD",
    "Glassbottle": "glass bottle",
    "TVStand": "TV stand",
    "KeyChain": "key chain",
    "CounterTop": "counter",
    "SinkBasin": "sink",
    "BathtubBasin": "bathtub",
    "DiningTable": "table",
}

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(object_type: str) -> str:
    """``RemoteControl`` -> ``remote control``."""
    if object_type in _SPELLING:
        return _SPELLING[object_type]
    return " ".join(part.lower() for part in _CAMEL.findall(object_type)) or object_type


def sentence(action: str, object_type: str, surface_type: str, landed_on: str | None = None,
             toggled_on: bool | None = None, liquid: str = "water") -> str:
    """The template sentence of one triple.

    ``landed_on`` is the type the object rests on after a drop or a throw (None: the floor);
    ``toggled_on`` says which way a toggle went.
    """
    obj = words(object_type)
    surface = words(surface_type)
    landing = words(landed_on) if landed_on else "floor"
    templates = {
        "drop": f"The robot dropped the {obj} onto the {landing}.",
        "throw": f"The robot threw the {obj} onto the {landing}.",
        "put": f"The robot put the {obj} on the {surface}.",
        "pickup": f"The robot picked up the {obj} from the {surface}.",
        "push": f"The robot pushed the {obj} away.",
        "pull": f"The robot pulled the {obj} towards itself.",
        "open": f"The robot opened the {obj}.",
        "close": f"The robot closed the {obj}.",
        "toggle": f"The robot turned the {obj} {'on' if toggled_on else 'off'}.",
        "dirty": f"The robot made the {obj} dirty.",
        "fill": f"The robot filled the {obj} with {liquid}.",
        "break": f"The robot broke the {obj}.",
    }
    return templates[action]
