"""A room and a task as ALFWorld's ``initial_state.pddl``: a problem of ALFWorld's domain ``alfred``.

The problem describes the whole room, as ALFWorld's own games do, not only what the task needs:

- the constants: the agent ``agent1``, a ``<Class>Type`` per class ALFWorld names (``otype`` for
  objects, ``rtype`` for fixed receptacles), every object, receptacle and location;
- per receptacle: ``receptacleType``, ``receptacleAtLocation`` and, for the classes ALFWorld opens,
  ``openable`` (and ``opened`` if it is open);
- per object: ``objectType``, ``inReceptacle`` and ``objectAtLocation`` where it lies, and its
  capabilities from ALFWorld's tables (``pickupable`` from THOR, ``cleanable``, ``heatable``,
  ``coolable``, ``sliceable``, ``toggleable``, ``isReceptacleObject``); ``isOn`` for a lamp that is on;
- ``canContain`` for every receptacle class and object class present that ALFWorld's placement
  table allows;
- ``atLocation agent1`` at the start pose;
- the goal: ALFWorld's goal template for the task type, filled in with the task's classes.

Names are THOR ids escaped as ALFWorld escapes them (:func:`escape`). Facts are written in a fixed
order, so the same room and task give the same bytes.
"""

from __future__ import annotations

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.export.alfworld.room import Room
from alfred_gen.export.alfworld.upstream import AlfworldRules

#: ALFWorld's escapes for THOR ids and location names (characters PDDL names may not hold).
ESCAPES = (("-", "_minus_"), ("|", "_bar_"), ("+", "_plus_"), (".", "_dot_"), (",", "_comma_"))

#: The agent's constant, as in ALFWorld's problems.
AGENT = "agent1"


def escape(text: str) -> str:
    """A THOR id or location name as an ALFWorld PDDL name: ``Apple|-01.70|+00.90|+00.20`` ->
    ``Apple_bar__minus_01_dot_70_bar__plus_00_dot_90_bar__plus_00_dot_20``. (No escape produces
    another escaped character, so replacing one after the other is the same as all at once.)"""
    for char, code in ESCAPES:
        text = text.replace(char, code)
    return text


def type_name(object_class: str) -> str:
    """The ``otype``/``rtype`` constant of a class: ``Apple`` -> ``AppleType``."""
    return f"{object_class}Type"


def goal_text(task: TaskSpec, rules: AlfworldRules) -> str:
    """ALFWorld's goal for ``task``: its template for the task type (``_slice`` variant if sliced),
    filled in with the task's classes; the template's ``#`` stands for PDDL's ``-`` (its own
    convention), and it closes the problem's ``(define``. KeyError for a task type it lacks."""
    key = task.task_type + ("_slice" if task.object_sliced else "")
    template = str(rules.goals[key]["pddl"])
    filled = template.format(obj=task.object_target, recep=task.parent_target, toggle=task.toggle_target,
                             mrecep=task.mrecep_target)
    return filled.replace("#", "-")


def problem_text(room: Room, task: TaskSpec, rules: AlfworldRules, problem_name: str) -> str:
    """The ``initial_state.pddl`` text of ``task`` in ``room`` (see the module docstring)."""
    receptacles = sorted(room.receptacles.values(), key=lambda r: r.thor_id)
    items = sorted(room.items.values(), key=lambda i: i.thor_id)

    lines = [f"(define (problem {escape(problem_name)})", "(:domain alfred)", "(:objects", f"        {AGENT} - agent"]
    lines += [f"        {type_name(cls)} - otype" for cls in sorted(rules.object_classes)]
    lines += [f"        {type_name(cls)} - rtype" for cls in sorted(rules.receptacle_classes)]
    lines += [f"        {escape(item.thor_id)} - object" for item in items]
    lines += [f"        {escape(recep.thor_id)} - receptacle" for recep in receptacles]
    lines += [f"        {escape(name)} - location" for name in room.locations]
    lines += ["        )", "", "(:init"]

    facts: list[str] = []
    for recep in receptacles:
        name = escape(recep.thor_id)
        facts.append(f"(receptacleType {name} {type_name(recep.object_class)})")
    for item in items:
        facts.append(f"(objectType {escape(item.thor_id)} {type_name(item.object_class)})")
    recep_classes = sorted({r.object_class for r in receptacles})
    object_classes = sorted({i.object_class for i in items})
    facts += [f"(canContain {type_name(r)} {type_name(o)})"
              for r in recep_classes for o in object_classes if rules.can_contain(r, o)]
    for item in items:
        name = escape(item.thor_id)
        if item.pickupable:
            facts.append(f"(pickupable {name})")
        if item.object_class in rules.movable_receptacles:
            facts.append(f"(isReceptacleObject {name})")
        for predicate in ("cleanable", "heatable", "coolable", "sliceable"):
            if rules.has(predicate, item.object_class):
                facts.append(f"({predicate} {name})")
        if item.toggleable and rules.has("toggleable", item.object_class):
            facts.append(f"(toggleable {name})")
            if item.is_on:
                facts.append(f"(isOn {name})")
    for recep in receptacles:
        if recep.openable:
            facts.append(f"(openable {escape(recep.thor_id)})")
            if recep.opened:
                facts.append(f"(opened {escape(recep.thor_id)})")
    facts.append(f"(atLocation {AGENT} {escape(room.agent_location)})")
    for item in items:
        for holder in item.receptacles:
            facts.append(f"(inReceptacle {escape(item.thor_id)} {escape(holder)})")
        if item.inside:
            facts.append(f"(inReceptacleObject {escape(item.thor_id)} {escape(item.inside)})")
    for recep in receptacles:
        facts.append(f"(receptacleAtLocation {escape(recep.thor_id)} {escape(recep.location)})")
    for item in items:
        if item.location:
            facts.append(f"(objectAtLocation {escape(item.thor_id)} {escape(item.location)})")
    lines += [f"        {fact}" for fact in facts]
    lines += ["        )", "", goal_text(task, rules).strip(), ""]
    return "\n".join(lines)
