"""The new instructions of derived tasks, in words that ALFRED's train annotations use.

ALFRED-L keeps ALFRED's words: a new instruction must not teach an agent a word it never saw in
training. So every new sentence is built from the phrasings below and a destination name from
:data:`DESTINATION_NAMES`, and a test checks each word of every combination against the 6,574
train demonstrations' annotations. The paper's phrasings ("walk back to", "go back to", "return
to", "move back") all occur there.

A destination is named by the class its walk leads to (``GotoLocation`` args, ``["microwave"]``),
read as people say it (``countertop`` -> "counter", ``sinkbasin`` -> "sink"). A class without a
checked name gives the unnamed phrasing ("Go back to where you were before.") rather than an
unchecked word. Choices among phrasings are seeded by the trajectory, so the same source always
gets the same words.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from alfred_gen.demo.language import class_words
from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.sim.scene import hash_str

#: Walking back to an earlier destination (REV-1, REV-n), the paper's four phrasings.
RETURN_PHRASES = (
    "Walk back to the {dest}.",
    "Go back to the {dest}.",
    "Return to the {dest}.",
    "Move back to the {dest}.",
)

#: Walking back to a destination without a name.
RETURN_UNNAMED = ("Go back to where you were before.",)

#: The goal of a NAV-ONLY task: get to the last destination.
WALK_PHRASES = (
    "Walk to the {dest}.",
    "Go to the {dest}.",
    "Head to the {dest}.",
)

#: The goal of a NAV-ONLY task whose last destination has no name.
WALK_UNNAMED = ("Walk to where you need to go.",)

#: How a REV goal description goes on after the source's: "... Then walk back to the sink."
THEN = "Then"

#: Names whose split class name does not occur in ALFRED's train annotations.
_NAME_OVERRIDES = {
    "EggCracked": "egg",
    "Poster": "picture",
}

#: Class -> how people name it, for every class of the catalogue (checked against the train words).
DESTINATION_NAMES: dict[str, str] = {
    name: _NAME_OVERRIDES.get(name, class_words(name)) for name in sorted(OBJECT_TYPES)
}

_BY_WORD = {name.lower(): name for name in DESTINATION_NAMES}


def destination_name(args: Sequence[str]) -> str | None:
    """The name of a walk's destination from its ``GotoLocation`` args (``["sinkbasin"]`` ->
    ``sink``), or None when the args name no class of the catalogue."""
    if not args:
        return None
    cls = _BY_WORD.get(str(args[0]).lower())
    return DESTINATION_NAMES[cls] if cls is not None else None


def _choose(options: Sequence[str], key: str) -> str:
    return options[random.Random(hash_str(key)).randrange(len(options))]


def return_instruction(args: Sequence[str], key: str) -> str:
    """``Walk back to the microwave.``: the instruction of one walk back (``key`` seeds the choice)."""
    name = destination_name(args)
    if name is None:
        return _choose(RETURN_UNNAMED, key)
    return _choose(RETURN_PHRASES, key).format(dest=name)


def walk_goal(args: Sequence[str], key: str) -> str:
    """``Go to the microwave.``: the goal description of a NAV-ONLY task ending at ``args``."""
    name = destination_name(args)
    if name is None:
        return _choose(WALK_UNNAMED, key)
    return _choose(WALK_PHRASES, key).format(dest=name)


def then(goal: str, instruction: str) -> str:
    """A goal description followed by a walk back: ``Put a mug in the sink. Then go back to the
    fridge.`` (a missing full stop is added to the goal)."""
    goal = goal.strip()
    if goal and goal[-1] not in ".!?":
        goal += "."
    step = instruction[:1].lower() + instruction[1:]
    return f"{goal} {THEN} {step}".strip()


def every_new_sentence() -> list[str]:
    """Every sentence this module can produce for one walk (all phrasings, all names): what the
    vocabulary test checks."""
    names = sorted(set(DESTINATION_NAMES.values()))
    sentences = [phrase.format(dest=name) for phrase in (*RETURN_PHRASES, *WALK_PHRASES) for name in names]
    return sentences + list(RETURN_UNNAMED) + list(WALK_UNNAMED) + [then("", RETURN_PHRASES[0].format(dest="sink"))]
