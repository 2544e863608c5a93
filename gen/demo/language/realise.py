"""Annotations of one demonstration: a goal and one line per subgoal, several seeded realisations.

:func:`annotate` turns what :mod:`.facts` computes (routes, sides, landmarks passed, neighbours,
rows, colours read from the frames) into slot phrases, each carrying its :class:`~.facts.Claim`,
and lets :mod:`.grammar` choose the words. Realisation ``k`` draws from its own seed, so three
annotations of a demo differ while the same demo always gets the same bytes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from alfred_gen.demo.language.facts import (
    GRID_STEP,
    LANDMARK_TYPES,
    Claim,
    Leg,
    Pose,
    Thing,
    legs_of,
    passed_landmark,
    poses_along,
    row_position,
    side_of,
    size_among_peers,
    things_of,
    unique_neighbour,
)
from alfred_gen.demo.language.grammar import NOUNS, Phrase, can_expand, expand
from alfred_gen.demo.language.words import class_for_word, class_words, plural, preposition
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.sim.scene import hash_str

#: ``assignment_id`` of generated annotation k: ``template``, ``template_1``, ``template_2``...
GENERATED_PREFIX = "template"

#: Annotations per demonstration unless asked otherwise.
DEFAULT_ANNOTATIONS = 3

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
ORDINALS = ("", "first", "second", "third", "fourth", "fifth")
SLICE_WORDS = ("slice", "piece", "wedge", "cut piece")

#: Types that never serve as a neighbour in a referring expression (the room's shell).
_STRUCTURE = frozenset({"Floor", "Wall", "Ceiling", "Window", "Blinds", "Curtains", "LightSwitch", "StoveKnob",
                        "Faucet", "ShowerHead", "ShowerDoor", "ShowerGlass", "ShowerCurtain", "Painting", "Poster"})

#: Words for a size among peers (:func:`~.facts.size_among_peers`).
SIZE_WORDS = {"large": ("large", "big", "larger", "bigger"), "small": ("small", "little", "smaller")}

_SIDE_WORDS = {"left": ("on your left", "to your left", "off to your left", "on your left-hand side",
                        "to the left of you", "over on the left"),
               "right": ("on your right", "to your right", "off to your right", "on your right-hand side",
                         "to the right of you", "over on the right"),
               "ahead": ("ahead of you", "in front of you", "straight ahead", "directly ahead", "dead ahead"),
               "behind": ("behind you", "at your back", "directly behind you", "back behind you")}


def assignment_id(k: int) -> str:
    """The ``assignment_id`` of generated annotation ``k``."""
    return GENERATED_PREFIX if k == 0 else f"{GENERATED_PREFIX}_{k}"


def is_generated(annotation: Mapping[str, Any]) -> bool:
    """Whether an annotation was written by the generator (people's have other assignment ids)."""
    ident = str(annotation.get("assignment_id", ""))
    return ident == GENERATED_PREFIX or ident.startswith(GENERATED_PREFIX + "_")


def number(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def metres(steps: int) -> str:
    value = steps * GRID_STEP
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text} metre" if value == 1 else f"{text} metres"


def article(words: str) -> str:
    return ("an " if words[:1].lower() in "aeiou" else "a ") + words


@dataclass
class Line:
    """A realised line and the claims it makes."""

    text: str
    claims: tuple[Claim, ...]


@dataclass
class Annotation:
    task_desc: Line
    high_descs: list[Line]

    def to_json(self, k: int) -> dict[str, Any]:
        return {"assignment_id": assignment_id(k), "high_descs": [line.text for line in self.high_descs],
                "task_desc": self.task_desc.text, "votes": [1]}


def _sentence(text: str) -> str:
    """Capitalise each sentence's first letter (after a stop and a space) and tidy spaces."""
    text = " ".join(text.split()).replace(" ,", ",").replace(" .", ".").replace(",,", ",")
    parts = re.split(r"(?<=[.!?]) ", text)
    return " ".join(part[:1].upper() + part[1:] for part in parts)


def _class_of(entry: Any) -> str:
    if isinstance(entry, list) and entry and isinstance(entry[0], str):
        return entry[0]
    return ""


def _name(object_type: str, rng: random.Random | None) -> str:
    """The class's words, or now and then another name people use for it (:data:`.grammar.NOUNS`)."""
    if rng is not None and object_type in NOUNS and rng.random() < 0.5:
        options = NOUNS[object_type]
        return options[rng.randrange(len(options))]
    return class_words(object_type)


def _noun(object_id: str, object_type: str, rng: random.Random | None = None) -> str:
    if "Sliced_" in object_id:
        return f"{rng.choice(SLICE_WORDS) if rng else 'slice'} of {_name(object_type.replace('Sliced', ''), rng)}"
    return _name(object_type, rng)


def _type_of(object_id: str) -> str:
    if "Sliced_" in object_id:
        return object_id.rsplit("|", 1)[-1].split("_")[0]
    return object_id.split("|", 1)[0]


@dataclass
class _Demo:
    """The facts of a demo in the order the language walks through them."""

    things: Mapping[str, Thing]
    poses: list[Pose]
    low_actions: Sequence[Mapping[str, Any]]
    colours: Mapping[int, tuple[str, str]]
    by_high: dict[int, list[int]]

    def moved_before(self, low_idx: int) -> set[str]:
        """Objects picked up, put or cut before ``low_idx`` (their start positions no longer hold)."""
        out: set[str] = set()
        for i in range(low_idx):
            api = self.low_actions[i]["api_action"]
            if api.get("action") in ("PickupObject", "PutObject", "SliceObject") and api.get("objectId"):
                out.add(str(api["objectId"]))
                for thing in self.things.values():
                    if str(api["objectId"]) in thing.receptacle_ids:  # what stood on a carried receptacle
                        out.add(thing.object_id)
        return out


def _colour_of(demo: _Demo, object_id: str) -> tuple[str, int] | None:
    """The colour name of ``object_id`` read when it was first a target, and that low index."""
    for low_idx in sorted(demo.colours):
        seen_id, name = demo.colours[low_idx]
        if seen_id == object_id:
            return name, low_idx
    return None


def _describe(demo: _Demo, object_id: str, low_idx: int, rng: random.Random, *, colour: bool = True,
              neighbour: bool = True, row: bool = True) -> Phrase:
    """A noun phrase for ``object_id`` at ``low_idx``: the noun with, when the draw allows and the
    facts hold, its colour, its size among its kind, its place in a row, or a unique neighbour."""
    object_type = _type_of(object_id)
    noun = _noun(object_id, object_type, rng)
    claims: list[Claim] = []
    words = noun
    reading = _colour_of(demo, object_id) if colour else None
    if reading and rng.random() < 0.7:
        words = f"{reading[0]} {noun}"
        claims.append(Claim("colour", (object_id, reading[0], reading[1]), words))
    thing = demo.things.get(object_id)
    moved = demo.moved_before(low_idx)
    bigness = size_among_peers(thing, demo.things, moved) if thing is not None else None
    if bigness is not None and rng.random() < 0.6:
        size_words = rng.choice(SIZE_WORDS[bigness])
        claims.append(Claim("size", (object_id, bigness, low_idx), size_words))
        words = f"{size_words} {words}"
    if thing is not None and row and object_id not in moved:
        place = row_position(thing, demo.poses[low_idx], demo.things)
        if place is not None and rng.random() < 0.8:
            k, side, size = place
            ordinal = size > 2 or k > 1  # of two, the one on the left
            text = f"the {ORDINALS[k]} {words} from the {side}" if ordinal else f"the {words} on the {side}"
            claims.append(Claim("row", (object_id, k, side, low_idx), text))
            return Phrase(text, tuple(claims))
    if thing is not None and neighbour and rng.random() < 0.75:
        types = frozenset(t.object_type for t in demo.things.values()) - _STRUCTURE
        near = unique_neighbour(thing, demo.things, moved, types)
        if near is not None:
            link = rng.choice(("next to", "beside", "by", "near"))
            relation = f"{link} the {_name(near.object_type, rng)}"
            claims.append(Claim("next_to", (object_id, near.object_id, low_idx), relation))
            return Phrase(f"the {words} {relation}", tuple(claims))
    return Phrase(f"the {words}", tuple(claims))


def _route(legs: Sequence[Leg], rng: random.Random, high_idx: int) -> Phrase:
    parts = []
    for leg in legs:
        if leg.kind == "turn":
            parts.append(expand(f"turn_{leg.turn}", {}, rng).text)
        elif leg.steps == 1:
            parts.append(expand("walk_1", {}, rng).text)
        else:
            parts.append(expand("walk_n", {"n": Phrase(number(leg.steps)), "metres": Phrase(metres(leg.steps))},
                                rng).text)
    text = parts[0]
    for i, part in enumerate(parts[1:], start=1):
        joiner = expand("last_then" if i == len(parts) - 1 else "then", {}, rng).text
        if joiner.strip() == "before you" or (i == len(parts) - 1 and joiner.strip() == "before you"):
            joiner = " and "
        text += joiner + part
    return Phrase(text, (Claim("route", (high_idx, tuple((leg.kind, leg.turn, leg.steps) for leg in legs)), text),))


def _goto_line(demo: _Demo, high: Mapping[str, Any], following: Mapping[str, Any] | None, rng: random.Random) -> Phrase:
    high_idx = int(high["high_idx"])
    indices = demo.by_high.get(high_idx, [])
    args = [str(a) for a in (high["discrete_action"].get("args") or ())]
    dest_class = class_for_word(args[0]) if args else ""
    first = indices[0] if indices else 0
    last = indices[-1] + 1 if indices else 0
    moved = demo.moved_before(last)
    dest = _destination(demo, dest_class, following, moved)
    slots: dict[str, Phrase] = {}
    if dest is not None:
        dest_phrase = _describe(demo, dest.object_id, last, rng, colour=False, row=False)
    else:
        dest_phrase = Phrase(f"the {_name(dest_class, rng)}" if dest_class else "the next place")
    slots["dest"] = dest_phrase
    if following is not None:
        planner = following.get("planner_action") or {}
        what = planner.get("objectId") if following["discrete_action"]["action"] in (
            "PickupObject", "SliceObject", "ToggleObject") else planner.get("receptacleObjectId")
        if what and "Sliced_" not in str(what):
            slots["next_obj"] = Phrase(f"the {_noun(str(what), _type_of(str(what)), rng)}")
    legs = legs_of([str(demo.low_actions[i]["api_action"]["action"]) for i in indices])
    if legs:
        if len(legs) <= 6:
            slots["route"] = _route(legs, rng, high_idx)
        turns = [leg.turn for leg in legs if leg.kind == "turn"]
        if 1 <= len(turns) <= 4:
            words = [expand(f"turn_{turn}", {}, rng).text for turn in turns]
            text = words[0]
            for word in words[1:]:
                text += expand("turns_then", {}, rng).text + word
            slots["route_turns"] = Phrase(text, (Claim("turns", (high_idx, tuple(turns)), text),))
        if legs[0].kind == "turn":
            text = expand(f"turn_{legs[0].turn}", {}, rng).text
            slots["first_turn"] = Phrase(text, (Claim("first_turn", (high_idx, legs[0].turn), text),))
        steps = sum(leg.steps for leg in legs)
        if steps >= 2:
            text = rng.choice((metres(steps), f"{number(steps)} steps"))
            slots["distance"] = Phrase(text, (Claim("distance", (high_idx, steps), text),))
        if dest is not None:
            side = side_of(demo.poses[first], dest.center)
            if side is not None:
                text = rng.choice(_SIDE_WORDS[side])
                slots["dest_side"] = Phrase(text, (Claim("dest_side", (high_idx, dest.object_id, side), text),))
                slots["Dest_is"] = Phrase(f"{dest_phrase.text} is", dest_phrase.claims)
        passed = passed_landmark(demo.poses[first:last + 1], demo.things, {dest_class} if dest_class else set(), moved)
        if passed is not None:
            thing, side = passed
            text = f"the {_name(thing.object_type, rng)} {rng.choice(_SIDE_WORDS[side][:2])}"
            slots["passed"] = Phrase(text, (Claim("passed", (high_idx, thing.object_id, side), text),))
    if not legs:
        return expand("goto", {key: slots[key] for key in ("dest", "next_obj") if key in slots}, rng)
    return expand("goto", slots, rng)


def _destination(demo: _Demo, dest_class: str, following: Mapping[str, Any] | None, moved: set[str]) -> Thing | None:
    """The object a navigation subgoal walks to: the one of its class the next subgoal acts on."""
    if following is None or not dest_class:
        return None
    planner = following.get("planner_action") or {}
    ids = [str(planner[key]) for key in ("receptacleObjectId", "objectId") if planner.get(key)]
    for object_id in list(ids):
        thing = demo.things.get(object_id)
        if thing is not None and object_id not in moved:
            ids.extend(thing.receptacle_ids)
    for object_id in ids:
        thing = demo.things.get(object_id)
        if thing is not None and thing.object_type == dest_class and object_id not in moved:
            return thing
    return None


def _into(demo: _Demo, receptacle_id: str, low_idx: int, rng: random.Random) -> Phrase:
    recep_type = _type_of(receptacle_id)
    described = _describe(demo, receptacle_id, low_idx, rng, colour=True)
    prep = preposition(recep_type)
    if prep == "in" and rng.random() < 0.3:
        prep = "inside"
    if prep == "on" and rng.random() < 0.3:
        prep = "on top of"
    return Phrase(f"{prep} {described.text}", described.claims)


def _interaction_line(demo: _Demo, high: Mapping[str, Any], held: list[str], rng: random.Random) -> Phrase:
    high_idx = int(high["high_idx"])
    action = high["discrete_action"]["action"]
    planner = high.get("planner_action") or {}
    indices = demo.by_high.get(high_idx, [])
    apis = [(i, demo.low_actions[i]["api_action"]) for i in indices]
    names = [str(api.get("action")) for _, api in apis]
    holding = held[-1] if held else ""
    clauses: list[Phrase] = []
    mentioned: set[str] = set()
    carried = holding
    for i, api in apis:
        name = str(api.get("action"))
        target = str(api.get("objectId") or "")
        rule = f"do_{name}"
        if not can_expand(rule, {"x": Phrase(""), "held": Phrase(""), "into": Phrase("")}):
            continue
        if name == "PutObject":
            receptacle = str(api.get("receptacleObjectId") or target)
            into = (Phrase(f"{preposition(_type_of(receptacle))} it") if receptacle in mentioned
                    else _into(demo, receptacle, i, rng))
            held_words = f"the {_noun(carried, _type_of(carried), rng)}" if carried else "it"
            clauses.append(expand(rule, {"held": Phrase(held_words), "into": into}, rng))
            mentioned.add(receptacle)
            carried = ""
            continue
        if target in mentioned:
            x = Phrase("it")
        else:
            x = _describe(demo, target, i, rng)
            mentioned.add(target)
        if name == "PickupObject":
            carried = target
        clauses.append(expand(rule, {"x": x}, rng))
    steps = None
    if clauses:
        text = clauses[0].text
        claims = list(clauses[0].claims)
        for n, clause in enumerate(clauses[1:], start=1):
            text += expand("last_then" if n == len(clauses) - 1 else "then", {}, rng).text.replace(
                "before you", "and") + clause.text
            claims.extend(clause.claims)
        steps = Phrase(text, tuple(claims))
    slots: dict[str, Phrase] = {}
    if steps is not None:
        slots["steps"] = steps
    if action == "PickupObject":
        target = str(planner.get("objectId") or "")
        pickup = next((i for i, api in apis if api.get("action") == "PickupObject"), indices[0] if indices else 0)
        if "OpenObject" in names or not target:
            return expand("object_line", slots, rng)
        slots["obj"] = _describe(demo, target, pickup, rng)
        text = slots["obj"].text
        slots["obj_bare"] = Phrase(article(text[4:]) if text.startswith("the ") else text, slots["obj"].claims)
        recep = _class_of(planner.get("coordinateReceptacleObjectId"))
        if recep:
            prep = preposition(recep)
            claim = (Claim("inside", (target, recep, pickup), ""),)
            recep_words = _name(recep, rng)
            slots["from"] = Phrase(("out of the " if prep == "in" else "from the ") + recep_words, claim)
            slots["at"] = Phrase(f"{prep} the {recep_words}", claim)
        return expand("pickup_line" if "from" in slots else "object_line", slots, rng)
    if action == "PutObject":
        receptacle = str(planner.get("receptacleObjectId") or "")
        put = next((i for i, api in apis if api.get("action") == "PutObject"), indices[0] if indices else 0)
        if "OpenObject" in names or not receptacle or not holding:
            return expand("object_line", slots, rng)
        slots["held"] = _held(demo, holding, rng)
        slots["into"] = _into(demo, receptacle, put, rng)
        return expand("put_line", slots, rng)
    if action == "SliceObject":
        target = str(planner.get("objectId") or "")
        cut = next((i for i, api in apis if api.get("action") == "SliceObject"), indices[0] if indices else 0)
        if "OpenObject" in names or not holding or not target:
            return expand("object_line", slots, rng)
        slots["obj"] = _describe(demo, target, cut, rng)
        slots["tool"] = _held(demo, holding, rng)
        parents = demo.things[target].receptacle_ids if target in demo.things else ()
        if parents and target not in demo.moved_before(cut):
            recep_type = _type_of(parents[0])  # "Sink" of a SinkBasin's id: the word people use
            true_type = demo.things[parents[0]].object_type if parents[0] in demo.things else recep_type
            slots["at"] = Phrase(f"{preposition(recep_type)} the {class_words(recep_type)}",
                                 (Claim("inside", (target, true_type, cut), ""),))
        return expand("slice_line", slots, rng)
    if action == "ToggleObject":
        target = str(planner.get("objectId") or "")
        on = next((i for i, api in apis if api.get("action") == "ToggleObjectOn"), indices[0] if indices else 0)
        slots["lamp"] = _describe(demo, target, on, rng, neighbour=False) if target else Phrase("the light")
        if holding:
            slots["held"] = _held(demo, holding, rng)
        return expand("toggle_line", slots, rng)
    if action in ("HeatObject", "CoolObject", "CleanObject"):
        appliance = _class_of(planner.get("coordinateReceptacleObjectId")) or _type_of(str(planner.get("objectId", "")))
        slots["appliance"] = Phrase(f"the {_name(appliance, rng)}")
        if holding:
            slots["held"] = _held(demo, holding, rng)
        rule = {"HeatObject": "heat_line", "CoolObject": "cool_line", "CleanObject": "clean_line"}[action]
        if appliance == "Microwave":
            slots["if_microwave"] = Phrase("")
        if appliance == "Fridge":
            slots["if_fridge"] = Phrase("")
        if can_expand(rule, slots):
            return expand(rule, slots, rng)
    if "steps" in slots:
        return expand("object_line", slots, rng)
    return Phrase("Go on with the task.")


def _held(demo: _Demo, object_id: str, rng: random.Random) -> Phrase:
    noun = _noun(object_id, _type_of(object_id), rng)
    reading = _colour_of(demo, object_id)
    if reading and rng.random() < 0.5:
        words = f"{reading[0]} {noun}"
        return Phrase(f"the {words}", (Claim("colour", (object_id, reading[0], reading[1]), words),))
    return Phrase(f"the {noun}")


def _goal(task: TaskSpec, rng: random.Random) -> Phrase:
    obj = class_words(task.object_target)
    obj = f"slice of {obj}" if task.object_sliced else obj
    objs = f"slices of {class_words(task.object_target)}" if task.object_sliced else plural(obj)
    slots = {"obj": Phrase(obj), "a_obj": Phrase(article(obj)), "objs": Phrase(objs), "what": Phrase(task.describe())}
    if task.parent_target:
        recep = class_words(task.parent_target)
        slots["recep"] = Phrase(f"the {recep}")
        slots["recep_Cap"] = Phrase(f"The {recep}")
        slots["into"] = Phrase(f"{preposition(task.parent_target)} the {recep}")
    if task.toggle_target:
        slots["lamp"] = Phrase(f"the {class_words(task.toggle_target)}")
    if task.mrecep_target:
        mrecep = class_words(task.mrecep_target)
        slots["a_mrecep"] = Phrase(article(mrecep))
        slots["in_mrecep"] = Phrase(f"{preposition(task.mrecep_target)} {article(mrecep)}")
    rule = {"pick_and_place_simple": "goal_simple", "pick_two_obj_and_place": "goal_two",
            "look_at_obj_in_light": "goal_look", "pick_clean_then_place_in_recep": "goal_clean",
            "pick_heat_then_place_in_recep": "goal_heat", "pick_cool_then_place_in_recep": "goal_cool",
            "pick_and_place_with_movable_recep": "goal_mrecep"}.get(task.task_type, "goal_other")
    if not can_expand(rule, slots):
        rule = "goal_other"
    return expand(rule, slots, rng)


def annotate(task: TaskSpec, high_pddl: Sequence[Mapping[str, Any]], low_actions: Sequence[Mapping[str, Any]],
             start_metadata: Mapping[str, Any], seed: int, count: int = DEFAULT_ANNOTATIONS,
             colours: Mapping[int, tuple[str, str]] | None = None) -> list[Annotation]:
    """``count`` realisations of a demo's language, each with the claims of its lines.

    ``start_metadata``: the start state's metadata (objects and agent pose); ``colours``: low index
    -> (target id, colour name read from the frame before that interaction), see
    :func:`.colour.interaction_colours`. As in ALFRED, one line per subgoal before ``End``.
    """
    agent = start_metadata["agent"]
    start = Pose(float(agent["position"]["x"]), float(agent["position"]["z"]), int(round(agent["rotation"]["y"])) % 360)
    poses = poses_along(start, [str(low["api_action"]["action"]) for low in low_actions])
    by_high: dict[int, list[int]] = {}
    for i, low in enumerate(low_actions):
        by_high.setdefault(int(low["high_idx"]), []).append(i)
    demo = _Demo(things_of(start_metadata), poses, low_actions, colours or {}, by_high)
    out = []
    for k in range(count):
        rng = random.Random(hash_str(f"{seed}:language:{k}"))
        lines: list[Line] = []
        held: list[str] = []
        steps = [h for h in high_pddl if h["discrete_action"]["action"] != "NoOp"]
        for n, high in enumerate(steps):
            following = steps[n + 1] if n + 1 < len(steps) else None
            if high["discrete_action"]["action"] == "GotoLocation":
                phrase = _goto_line(demo, high, following, rng)
            else:
                phrase = _interaction_line(demo, high, held, rng)
            lines.append(Line(_sentence(phrase.text), phrase.claims))
            for i in demo.by_high.get(int(high["high_idx"]), []):
                api = low_actions[i]["api_action"]
                if api.get("action") == "PickupObject":
                    held.append(str(api.get("objectId")))
                elif api.get("action") == "PutObject" and held:
                    held.pop()
        goal = _goal(task, rng)
        out.append(Annotation(Line(_sentence(goal.text), goal.claims), lines))
    return out


__all__ = ["DEFAULT_ANNOTATIONS", "GENERATED_PREFIX", "LANDMARK_TYPES", "Annotation", "Line", "annotate",
           "assignment_id", "is_generated"]
