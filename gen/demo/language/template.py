"""Templated language for generated demonstrations: a task description and one line per subgoal.

ALFRED's human annotators wrote "Put a clean mug in the coffee machine." and "Go to the sink." for
each demonstration. We cannot ask people, so we fill templates: a few phrasings per task type and
per high-level action, one picked by a seeded choice so the wording varies across a data set while
the same trajectory always gets the same words.

The text goes to ``template`` (``task_desc``, ``high_descs``) and, so that ALFRED-family loaders
(ALFRED's seq2seq, E.T., FILM) read it unchanged, also to ``turk_annotations.anns`` as a single
annotation whose ``assignment_id`` is ``template``: nobody can take it for human language.

As in the released files, ``high_descs`` has one line per high-level step except the closing
``NoOp``/``End``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from alfred_gen.demo.language.words import class_for_word, class_words, plural, preposition
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.sim.scene import hash_str

#: The ``assignment_id`` of the templated annotation in ``turk_annotations.anns``.
TEMPLATE_ASSIGNMENT_ID = "template"

# Task descriptions. Fields: {obj} "apple" or "slice of apple", {objs} plural, {recep}, {mrecep},
# {lamp}, {prep} "in"/"on" for the receptacle, {mprep} for the movable receptacle.
_TASKS: dict[str, tuple[str, ...]] = {
    "pick_and_place_simple": (
        "Put a {obj} {prep} the {recep}.",
        "Place a {obj} {prep} the {recep}.",
        "Move a {obj} to the {recep}.",
    ),
    "pick_two_obj_and_place": (
        "Put two {objs} {prep} the {recep}.",
        "Place two {objs} {prep} the {recep}.",
        "Move two {objs} to the {recep}.",
    ),
    "look_at_obj_in_light": (
        "Examine a {obj} by the light of the {lamp}.",
        "Look at a {obj} under the {lamp}.",
        "Hold a {obj} and turn on the {lamp}.",
    ),
    "pick_clean_then_place_in_recep": (
        "Put a clean {obj} {prep} the {recep}.",
        "Rinse a {obj} and put it {prep} the {recep}.",
        "Wash a {obj} and place it {prep} the {recep}.",
    ),
    "pick_heat_then_place_in_recep": (
        "Put a hot {obj} {prep} the {recep}.",
        "Heat a {obj} and put it {prep} the {recep}.",
        "Warm a {obj} in the microwave and place it {prep} the {recep}.",
    ),
    "pick_cool_then_place_in_recep": (
        "Put a cold {obj} {prep} the {recep}.",
        "Chill a {obj} and put it {prep} the {recep}.",
        "Cool a {obj} in the fridge and place it {prep} the {recep}.",
    ),
    "pick_and_place_with_movable_recep": (
        "Put a {mrecep} with a {obj} {prep} the {recep}.",
        "Place a {obj} {mprep} a {mrecep} and move it to the {recep}.",
        "Move a {mrecep} holding a {obj} to the {recep}.",
    ),
}

_GENERIC_TASK = ("Complete the task: {what}.",)

# Subgoal descriptions. Fields: {obj}, {recep}, {prep}, {dest}, {tool}.
_STEPS: dict[str, tuple[str, ...]] = {
    "GotoLocation": ("Go to the {dest}.", "Walk to the {dest}.", "Head to the {dest}."),
    "PickupObject": (
        "Pick up the {obj} from the {recep}.",
        "Take the {obj} from the {recep}.",
        "Grab the {obj} {prep} the {recep}.",
    ),
    "PutObject": ("Put the {obj} {prep} the {recep}.", "Place the {obj} {prep} the {recep}."),
    "HeatObject": (
        "Heat the {obj} in the {recep}.",
        "Warm the {obj} in the {recep}, then take it out.",
    ),
    "CoolObject": (
        "Cool the {obj} in the {recep}.",
        "Chill the {obj} in the {recep}, then take it out.",
    ),
    "CleanObject": (
        "Rinse the {obj} in the {recep}.",
        "Wash the {obj} in the {recep}, then pick it up.",
    ),
    "SliceObject": ("Slice the {obj}.", "Cut the {obj} into slices."),
    "ToggleObject": ("Turn on the {obj}.", "Switch on the {obj}."),
}

_GENERIC_STEP = ("Go on with the task.",)


def _choose(options: Sequence[str], seed: int, key: str) -> str:
    """One of ``options``, chosen by a stable function of ``seed`` and ``key``."""
    rng = random.Random(hash_str(f"{seed}:{key}"))
    return options[rng.randrange(len(options))]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def task_description(task: TaskSpec, seed: int) -> str:
    """The templated ``task_desc`` of a task, e.g. ``Put a clean mug in the coffee machine.``."""
    obj = class_words(task.object_target)
    fields = {
        "obj": f"slice of {obj}" if task.object_sliced else obj,
        "objs": f"slices of {obj}" if task.object_sliced else plural(obj),
        "recep": class_words(task.parent_target) if task.parent_target else "",
        "prep": preposition(task.parent_target),
        "mrecep": class_words(task.mrecep_target) if task.mrecep_target else "",
        "mprep": preposition(task.mrecep_target),
        "lamp": class_words(task.toggle_target) if task.toggle_target else "",
        "what": task.describe(),
    }
    options = _TASKS.get(task.task_type, _GENERIC_TASK)
    return _sentence(_choose(options, seed, f"task:{task.task_type}").format(**fields))


def _class_of(entry: Any) -> str:
    """The class in an ALFRED ``coordinate*ObjectId`` entry ``[class, [...]]`` ("" if absent)."""
    if isinstance(entry, list) and entry and isinstance(entry[0], str):
        return entry[0]
    return ""


def step_description(high: Mapping[str, Any], seed: int, sliced: frozenset[str] = frozenset()) -> str:
    """The templated description of one ``high_pddl`` entry (``Go to the sink.``).

    ``sliced``: args words of objects cut earlier in the plan; heating, cooling or cleaning one of
    them is said of a slice (ALFRED's HeatObject entry names only the appliance).
    """
    discrete = high["discrete_action"]
    planner = high.get("planner_action") or {}
    action = discrete["action"]
    args = [str(a) for a in discrete.get("args") or ()]
    def readable(word: str) -> str:
        return class_words(class_for_word(word)) if word else "next place"

    receptacle_class = _class_of(planner.get("coordinateReceptacleObjectId"))
    obj_class = _class_of(planner.get("coordinateObjectId"))
    fields = {
        "dest": readable(args[0]) if args else "next place",
        "obj": class_words(obj_class) if obj_class else readable(args[0] if args else ""),
        "recep": class_words(receptacle_class) if receptacle_class else readable(args[1] if len(args) > 1 else ""),
        "prep": preposition(receptacle_class),
    }
    if action in ("HeatObject", "CoolObject", "CleanObject"):
        fields["obj"] = readable(args[0]) if args else "object"
        if args and args[0] in sliced:
            fields["obj"] = f"slice of {fields['obj']}"
    object_id = planner.get("cleanObjectId") or planner.get("objectId") or ""
    if action in ("PickupObject", "PutObject") and "Sliced_" in str(object_id):
        fields["obj"] = f"slice of {fields['obj']}"
    if action == "PickupObject" and not receptacle_class:
        options: Sequence[str] = ("Pick up the {obj}.",)
    else:
        options = _STEPS.get(action, _GENERIC_STEP)
    return _sentence(_choose(options, seed, f"step:{high['high_idx']}:{action}").format(**fields))


def describe(task: TaskSpec, high_pddl: Sequence[Mapping[str, Any]], seed: int) -> dict[str, Any]:
    """The ``template`` block: ``task_desc`` and one ``high_descs`` line per step before End."""
    lines: list[str] = []
    sliced: set[str] = set()
    for high in high_pddl:
        discrete = high["discrete_action"]
        if discrete["action"] == "NoOp":
            continue
        lines.append(step_description(high, seed, frozenset(sliced)))
        if discrete["action"] == "SliceObject" and discrete.get("args"):
            sliced.add(str(discrete["args"][0]))
    return {"task_desc": task_description(task, seed), "high_descs": lines}


def turk_annotations(template: Mapping[str, Any]) -> dict[str, Any]:
    """``turk_annotations`` holding the templated language as one annotation, ``template``."""
    return {
        "anns": [{
            "assignment_id": TEMPLATE_ASSIGNMENT_ID,
            "high_descs": list(template["high_descs"]),
            "task_desc": template["task_desc"],
            "votes": [1],
        }]
    }
