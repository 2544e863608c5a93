"""The grammar of generated instructions, as data, and the one function that expands it.

A rule is a name and its alternatives. In an alternative, ``<name>`` expands another rule and
``{slot}`` is filled with a phrase the demonstration supplies (:mod:`.realise` computes them from
:mod:`.facts`: a route, a destination, an object's description). An alternative can be chosen
only when every slot it names has a phrase, so a line about a walk that passes no landmark never
says "past ..."; the choice among the rest is a seeded draw, so each annotation is a different,
reproducible realisation.

To extend the language, add alternatives here: wording lives in this table, facts in
:mod:`.facts`. An alternative must not add a direction, number or colour of its own: those words
come only through slots, which carry the claims the truth checker verifies.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from alfred_gen.demo.language.facts import Claim

#: rule -> alternatives.
RULES: dict[str, tuple[str, ...]] = {
    # ---- navigation -----------------------------------------------------------------------------
    "goto": (
        "{route} to reach {dest}.",
        "{route} until you get to {dest}.",
        "{route}, and you are at {dest}.",
        "{route} and stop at {dest}.",
        "{route} to arrive at {dest}.",
        "{route}, which brings you to {dest}.",
        "<go> to {dest}: {route}.",
        "To get to {dest}, {route}.",
        "{route}, passing {passed}, to reach {dest}.",
        "{route}; on the way you pass {passed}. Stop at {dest}.",
        "{route}, going past {passed}, and stop in front of {dest}.",
        "{Dest_is} {dest_side}; {route} to get there.",
        "{Dest_is} {dest_side}. {route_turns} and <go> there.",
        "{first_turn} and <go> to {dest}, which was {dest_side}.",
        "{first_turn}, then <go> over to {dest}.",
        "{first_turn} and <go> to {dest}, going past {passed}.",
        "{route_turns} and <go> to {dest}.",
        "{route_turns}, making your way to {dest}.",
        "<go> to {dest} {dest_side}.",
        "<go> to {dest} that is {dest_side}, passing {passed}.",
        "<go> to {dest}, {distance} away.",
        "{first_turn} and <go> {distance} to {dest}.",
        "<go> over to {dest}.",
        "<Now> <go> to {dest}.",
    ),
    "go": ("walk", "go", "head", "move", "make your way", "proceed", "continue", "walk over", "carry on",
           "cross the room"),
    "Now": ("Now", "Next", "Then", "After that", "From here", "Once done", "When you are ready"),
    "turn_right": ("turn right", "turn to the right", "take a right", "hang a right", "make a right turn",
                   "turn to your right", "face right"),
    "turn_left": ("turn left", "turn to the left", "take a left", "hang a left", "make a left turn",
                  "turn to your left", "face left"),
    "turn_around": ("turn around", "turn all the way around", "do an about-face", "spin around",
                    "turn right around", "turn to face the other way"),
    "walk_n": ("walk {n} steps", "go forward {n} steps", "take {n} steps forward", "move ahead {n} steps",
               "walk forward for {n} steps", "go straight for {n} steps", "walk {metres}", "go forward {metres}",
               "keep walking for {n} steps", "advance {n} steps"),
    "walk_1": ("take one step forward", "move one step ahead", "step forward once", "walk one step"),
    "walk_on": ("walk forward", "go straight", "keep going", "walk ahead", "continue forward", "move on"),
    "then": (", then ", " and then ", ", ", ", after that ", " and "),
    "last_then": (" and ", ", then ", " and finally ", ", and then ", " before you "),
    "turns_then": (", then ", ", and then ", " and "),
    # ---- interactions ---------------------------------------------------------------------------
    "pickup": ("pick up", "take", "grab", "get", "lift", "collect", "retrieve", "take hold of", "remove", "fetch"),
    "put": ("put", "place", "set", "lay", "leave", "rest", "drop", "position", "deposit", "put down"),
    "open": ("open", "pull open", "swing open"),
    "close": ("close", "shut"),
    "switch_on": ("turn on", "switch on", "power on", "start"),
    "switch_off": ("turn off", "switch off", "power off", "stop"),
    "slice": ("slice", "cut", "chop"),
    "pickup_line": (
        "<pickup> {obj} {from}.",
        "<pickup> {obj} {from}.",
        "<pickup> {obj} that is {at}.",
        "<Reach> <pickup> {obj} {from}.",
        "<pickup> {obj}, the one {at}.",
        "Find {obj} {at} and <pickup> it.",
        "<pickup> {obj} sitting {at}.",
        "<pickup> {obj} {from} with your hand.",
    ),
    "Reach": ("Reach out and", "Carefully", "From there,", "Now", "There,", "Here,", "Then", "Quickly"),
    "put_line": (
        "<put> {held} {into}.",
        "<put> {held} {into}, then let go.",
        "<put> {held} you are carrying {into}.",
        "<Place_now> <put> {held} {into}.",
        "Set {held} down {into}.",
    ),
    "Place_now": ("Now", "Then", "There,", "Once there,", "Carefully", "Next"),
    "slice_line": (
        "<slice> {obj} with {tool}.",
        "Use {tool} to <slice> {obj}.",
        "<slice> {obj} {at} with {tool}.",
        "With {tool} in hand, <slice> {obj}.",
        "<slice> {obj} into pieces using {tool}.",
    ),
    "toggle_line": (
        "<switch_on> {lamp}.",
        "<switch_on> {lamp} while holding {held}.",
        "With {held} in hand, <switch_on> {lamp}.",
        "<switch_on> {lamp} to look at {held} in its light.",
        "Hold up {held} and <switch_on> {lamp}.",
    ),
    "heat_line": (
        "Heat {held} in {appliance}.",
        "Warm {held} up in {appliance}.",
        "Cook {held} in {appliance}.",
        "Use {appliance} to heat {held}.",
        "Microwave {held}{if_microwave}, then take it out again.",
        "{steps}.",
    ),
    "cool_line": (
        "Cool {held} in {appliance}.",
        "Chill {held} in {appliance}.",
        "Let {held} cool in {appliance}.",
        "Use {appliance} to chill {held}.",
        "Refrigerate {held}{if_fridge}, then take it out again.",
        "{steps}.",
    ),
    "clean_line": (
        "Rinse {held} in {appliance}.",
        "Wash {held} in {appliance}.",
        "Clean {held} in {appliance}.",
        "Use {appliance} to wash {held} off.",
        "Give {held} a rinse in {appliance}.",
        "{steps}.",
    ),
    "object_line": ("{steps}.",),
    # ---- one clause per low action, for lines that tell an interaction step by step --------------
    "do_OpenObject": ("<open> {x}",),
    "do_CloseObject": ("<close> {x}", "<close> {x} again"),
    "do_PickupObject": ("<pickup> {x}",),
    "do_PutObject": ("<put> {held} {into}", "<put> {held} {into}"),
    "do_ToggleObjectOn": ("<switch_on> {x}", "<switch_on> {x}"),
    "do_ToggleObjectOff": ("<switch_off> {x}", "<switch_off> {x} again"),
    "do_SliceObject": ("<slice> {x}",),
    "do_CleanObject": ("clean {x}",),
    # ---- goals ------------------------------------------------------------------------------------
    "goal_simple": ("<put> {a_obj} {into}.", "Move {a_obj} to {recep}.", "Take {a_obj} and <put> it {into}.",
                    "Find {a_obj} and <put> it {into}.", "{recep_Cap} needs {a_obj}.",
                    "Get {a_obj} and bring it to {recep}."),
    "goal_two": ("<put> two {objs} {into}.", "Move two {objs} to {recep}.", "Bring two {objs} to {recep}.",
                 "<put> a pair of {objs} {into}.", "Take two {objs} and <put> them {into}.",
                 "Find two {objs} and <put> both {into}."),
    "goal_look": ("Examine {a_obj} by the light of {lamp}.", "Look at {a_obj} under {lamp}.",
                  "Hold {a_obj} and <switch_on> {lamp}.", "Inspect {a_obj} in the light of {lamp}.",
                  "Pick up {a_obj} and look at it by {lamp}.", "Study {a_obj} with {lamp} on."),
    "goal_clean": ("<put> a clean {obj} {into}.", "Rinse {a_obj} and <put> it {into}.",
                   "Wash {a_obj}, then <put> it {into}.", "Clean {a_obj} and move it to {recep}.",
                   "<put> a washed {obj} {into}.", "Put a rinsed {obj} {into}."),
    "goal_heat": ("<put> a hot {obj} {into}.", "Heat {a_obj} and <put> it {into}.",
                  "Warm {a_obj} in the microwave and <put> it {into}.", "<put> a heated {obj} {into}.",
                  "Cook {a_obj}, then <put> it {into}.", "Microwave {a_obj} and move it to {recep}."),
    "goal_cool": ("<put> a cold {obj} {into}.", "Chill {a_obj} and <put> it {into}.",
                  "Cool {a_obj} in the fridge and <put> it {into}.", "<put> a chilled {obj} {into}.",
                  "Refrigerate {a_obj}, then <put> it {into}.", "Move a cooled {obj} to {recep}."),
    "goal_mrecep": ("<put> {a_mrecep} with {a_obj} in it {into}.",
                    "<put> {a_obj} {in_mrecep} and move it to {recep}.",
                    "Move {a_mrecep} holding {a_obj} to {recep}.",
                    "Carry {a_obj} in {a_mrecep} to {recep}.",
                    "<put> {a_mrecep} containing {a_obj} {into}."),
    "goal_other": ("Complete the task: {what}.",),
}

_REFERENCE = re.compile(r"<([A-Za-z_]+)>|\{([A-Za-z_]+)\}")


@dataclass(frozen=True)
class Phrase:
    """Words and the claims they carry."""

    text: str
    claims: tuple[Claim, ...] = field(default_factory=tuple)


def _references(alternative: str) -> tuple[set[str], set[str]]:
    rules, slots = set(), set()
    for match in _REFERENCE.finditer(alternative):
        if match.group(1):
            rules.add(match.group(1))
        else:
            slots.add(match.group(2))
    return rules, slots


def _usable(rule: str, slots: Mapping[str, Phrase], seen: frozenset[str] = frozenset()) -> list[str]:
    if rule not in RULES:
        raise KeyError(f"the grammar has no rule {rule!r}")
    out = []
    for alternative in RULES[rule]:
        rules, needed = _references(alternative)
        if needed - set(slots):
            continue
        if any(r in seen or not _usable(r, slots, seen | {rule}) for r in rules):
            continue
        out.append(alternative)
    return out


def can_expand(rule: str, slots: Mapping[str, Phrase]) -> bool:
    """Whether ``rule`` has an alternative whose slots are all given."""
    return bool(_usable(rule, slots))


def expand(rule: str, slots: Mapping[str, Phrase], rng: random.Random) -> Phrase:
    """One realisation of ``rule``: a seeded choice among its usable alternatives, recursively.

    A rule whose name starts with a capital is a sentence start: its words come capitalised.
    Raises KeyError when no alternative is usable.
    """
    options = _usable(rule, slots)
    if not options:
        raise KeyError(f"no alternative of {rule!r} fits the slots {sorted(slots)}")
    alternative = options[rng.randrange(len(options))]
    claims: list[Claim] = []

    def fill(match: re.Match[str]) -> str:
        phrase = expand(match.group(1), slots, rng) if match.group(1) else slots[match.group(2)]
        claims.extend(phrase.claims)
        return phrase.text

    text = _REFERENCE.sub(fill, alternative)
    return Phrase(text, tuple(claims))
