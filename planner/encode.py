"""Scene metadata + task -> a small PDDL problem against the household domain.

Only what the task can involve goes into the problem (relevance pruning): the instances of the
task's classes, the tools it needs (microwave, fridge, sink basin, knives), the receptacles that hold
any of those now, and whatever the agent holds. Every fixed thing gets its interaction pose as a
location; a pickupable is where its container is. So the number of locations L, and with it the
L*(L-1) GotoLocation operators, stays small.

Names are deterministic: objects are THOR ids escaped by :mod:`alfred_gen.planner.names`, sorted;
locations are named after their poses. The same metadata and task give the same bytes.

Obviously impossible tasks (no object of the class, no knife for a slice task, an object that may
not go into the receptacle class...) are caught here with a reason, before any search.

What the encoder reads from the object catalogue (:mod:`alfred_gen.domains.catalogue`, plain data, no
simulator): which object types may go into which receptacle types, which openables enclose their
contents, and the names of sliced types.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.domains.tasks import TaskSpec, TaskType, capabilities, get_task_type
from alfred_gen.planner import names
from alfred_gen.planner.domain import domain_text

Pose = Sequence[float]


@dataclass
class EncodedProblem:
    """A task as PDDL text plus the maps from PDDL names back to THOR ids and agent poses.

    ``unsolvable_reason`` is set when the encoder already knows there is no plan; the problem text
    is still complete and valid PDDL (its goal is then unreachable).
    """

    task: TaskSpec
    domain_text: str
    problem_text: str
    objects: dict[str, str]  # PDDL object name -> THOR object id
    locations: dict[str, list[float]]  # PDDL location name -> [x, z, rotation, horizon]
    start_location: str
    unsolvable_reason: str = ""
    notes: list[str] = field(default_factory=list)  # what was left out and why

    def thor_id(self, name: str) -> str:
        """THOR id of a PDDL object name (case-insensitive, as planners print names); "" for a
        spot (where a loose object lies)."""
        name = name.lower()
        if name in self.objects:
            return self.objects[name]
        return names.object_id(name)

    def pose(self, location: str) -> list[float]:
        """Agent pose [x, z, rotation, horizon] of a PDDL location name."""
        location = location.lower()
        if location in self.locations:
            return list(self.locations[location])
        return names.pose_of_location(location)


# --------------------------------------------------------------------------------------------
# Reading THOR metadata


@dataclass
class _Thing:
    """One object of the metadata as the encoder sees it."""

    object_id: str
    object_type: str
    object_class: str  # the class tasks name it by: a slice of an apple is of class Apple
    kind: str  # "fixed", "item" or "mover"
    meta: dict[str, Any]
    is_slice: bool = False
    spot_of: str = ""  # for a spot (see _spot): the id of the loose object lying there

    @property
    def name(self) -> str:
        if self.spot_of:
            return SPOT_PREFIX + names.escape(self.spot_of)
        return names.object_name(self.object_id)


#: Prefix of the PDDL names of spots, the places where loose objects lie.
SPOT_PREFIX = "s"


def _spot(thing: _Thing) -> _Thing:
    """The place where a loose object lies (on the floor, or anywhere without a receptacle that has
    an interaction pose): a fixed, always open receptacle of no class, at the object's own pose.

    The domain reaches a pickupable only through a receptacle at a location; a spot is that
    receptacle. Nothing can be put into a spot, and its PDDL name reads back as no THOR object
    (a pick-up from a spot is a pick-up "from wherever it lies").
    """
    return _Thing("", "", "", "fixed", {"receptacle": True}, spot_of=thing.object_id)


_SLICE_PARENT = {sliced: whole for whole, sliced in catalogue.SLICED_TYPES.items()}


def _classify(meta: Mapping[str, Any]) -> _Thing:
    object_type = meta["objectType"]
    object_class = _SLICE_PARENT.get(object_type, object_type)
    pickupable = bool(meta.get("pickupable"))
    receptacle = bool(meta.get("receptacle"))
    kind = "fixed" if not pickupable else ("mover" if receptacle else "item")
    return _Thing(meta["objectId"], object_type, object_class, kind, dict(meta), object_type in _SLICE_PARENT)


def _encloses(thing: _Thing) -> bool:
    """Whether a closed ``thing`` hides its contents (fridge, microwave, cabinet, drawer, safe)."""
    if not thing.meta.get("openable"):
        return False
    entry = catalogue.OBJECT_TYPES.get(thing.object_type)
    return entry.encloses if entry is not None else True


def _direct_containers(things: Mapping[str, _Thing]) -> dict[str, str]:
    """object id -> id of the receptacle it lies directly in or on.

    THOR lists containment both ways (``parentReceptacles``, ``receptacleObjectIds``) and may list
    every enclosing receptacle; the direct one is a movable receptacle if any holds the object
    (an apple in a bowl on a table lies in the bowl), else the first fixed one by id.
    """
    holders: dict[str, set[str]] = {oid: set() for oid in things}
    for oid, thing in things.items():
        for parent in thing.meta.get("parentReceptacles") or ():
            if parent in things and parent != oid:
                holders[oid].add(parent)
        for child in thing.meta.get("receptacleObjectIds") or ():
            if child in things and child != oid:
                holders[child].add(oid)
    direct: dict[str, str] = {}
    for oid, candidates in holders.items():
        if not candidates:
            continue
        movers = sorted(c for c in candidates if things[c].kind == "mover")
        if movers:
            # The innermost mover: one not holding another candidate mover.
            inner = [m for m in movers if not any(m in holders.get(other, ()) for other in movers if other != m)]
            direct[oid] = (inner or movers)[0]
        else:
            direct[oid] = sorted(candidates)[0]
    return direct


def _full_holders(things: Mapping[str, _Thing], containers: Mapping[str, str]) -> dict[str, set[str]]:
    """The one-object holders (a stove burner, a coffee machine, a towel holder: catalogue capacity
    1) that already hold something they accept, each with what it holds.

    THOR gives such a holder one spawn point, so a PutObject into it fails while it is taken. The
    domain has no notion of capacity; a taken holder therefore takes back only what it holds, and
    is offered as the task's receptacle only if that is one of the task's objects (a towel already
    on its holder: the task is trivial; a mug in the coffee machine: take it out, clean it, put it
    back). So the planner chooses a free burner (36 of the 289 execution failures of our plans for
    ALFRED's 6,574 train tasks were a put on a taken burner or coffee machine). A thing leaning in
    with its middle outside (a pencil across a mug's rim) does not take the place, as in lite.
    """
    full: dict[str, set[str]] = {}
    for oid, parent in containers.items():
        holder = things.get(parent)
        entry = catalogue.OBJECT_TYPES.get(holder.object_type) if holder is not None else None
        if (holder is not None and entry is not None and entry.capacity == 1
                and catalogue.thor_accepts(things[oid].object_type, holder.object_type)
                and _middle_over(things[oid].meta, holder.meta)):
            full.setdefault(parent, set()).add(oid)
    return full


def _middle_over(meta: Mapping[str, Any], holder_meta: Mapping[str, Any]) -> bool:
    """Whether an object's box middle lies over its holder's footprint, as the simulator decides
    whether it takes the holder's one place (a pencil leaning in a mug does not); true when the
    metadata has no boxes to tell."""
    try:
        box, holder = meta["axisAlignedBoundingBox"], holder_meta["axisAlignedBoundingBox"]
        return all(abs(float(box["center"][k]) - float(holder["center"][k])) <= float(holder["size"][k]) / 2
                   for k in ("x", "z"))
    except (KeyError, TypeError, ValueError):
        return True


def _held_ids(metadata: Mapping[str, Any], things: Mapping[str, _Thing]) -> list[str]:
    held = {inv.get("objectId") for inv in metadata.get("inventoryObjects") or ()}
    held |= {oid for oid, t in things.items() if t.meta.get("isPickedUp")}
    return sorted(oid for oid in held if oid in things)


def _pose_key(pose: Pose) -> tuple[float, float, float, float]:
    x, z, rotation, horizon = (float(v) for v in list(pose)[:4])
    return (round(x, 4), round(z, 4), round(rotation % 360.0, 4), round(horizon, 4))


def agent_pose_of(metadata: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """The agent's pose (x, z, rotation, horizon) in THOR metadata, rotation in [0, 360): the one
    reader of it, here at the lowest layer that needs it (the start location of a PDDL problem);
    expansion, driving, derived walks and exports read the agent's pose through it."""
    agent = metadata["agent"]
    return (
        float(agent["position"]["x"]),
        float(agent["position"]["z"]),
        float(agent["rotation"]["y"]) % 360.0,
        float(agent.get("cameraHorizon", 0.0)),
    )


# --------------------------------------------------------------------------------------------
# The encoder


def encode_problem(
    metadata: Mapping[str, Any],
    task: TaskSpec,
    poses: Mapping[str, Pose],
    agent_pose: Pose | None = None,
    *,
    problem_name: str = "alfred",
    can_place: Callable[[str, str], bool] = catalogue.can_place,
) -> EncodedProblem:
    """The PDDL problem of ``task`` in the scene state ``metadata``.

    ``poses`` maps fixed receptacle ids (and lamps, if they have their own) to the interaction pose
    [x, z, rotation, horizon]; a lamp without one uses the pose of the furniture it stands on.
    ``agent_pose`` is the start (default: read from ``metadata["agent"]``). ``can_place(object
    type, receptacle type)`` says what may go where (default: the catalogue's placement table).
    """
    task_type = get_task_type(task.task_type)
    if agent_pose is None:
        agent_pose = agent_pose_of(metadata)
    things = {meta["objectId"]: _classify(meta) for meta in metadata.get("objects") or ()}
    things = dict(sorted(things.items()))
    containers = _direct_containers(things)
    held = _held_ids(metadata, things)
    caps = capabilities()
    notes: list[str] = []

    def pose_of(thing: _Thing) -> Pose | None:
        if thing.object_id in poses:
            return poses[thing.object_id]
        if not thing.meta.get("receptacle"):
            parent = containers.get(thing.object_id)
            if parent is not None and parent in poses:
                return poses[parent]
        return None

    def instances(object_class: str, kinds: Iterable[str]) -> list[_Thing]:
        return [t for t in things.values() if t.object_class == object_class and t.kind in kinds and not t.is_slice]

    # The task's instances.
    sliced = task.object_sliced
    targets = [t for t in things.values() if t.object_class == task.object_target and t.kind != "fixed"]
    if sliced:
        targets = [t for t in targets if t.is_slice or not t.meta.get("isSliced")]
    else:
        targets = [t for t in targets if not t.is_slice and not t.meta.get("isSliced")]
    parents = instances(task.parent_target, ("fixed", "mover")) if task.parent_target else []
    full = _full_holders(things, containers)
    target_ids = {t.object_id for t in targets}
    offered = [p for p in parents if full.get(p.object_id, target_ids) <= target_ids]
    mreceps = instances(task.mrecep_target, ("mover",)) if task.mrecep_target else []
    lamps = [t for t in things.values() if task.toggle_target and t.object_type == task.toggle_target]
    for lamp in lamps:
        lamp.kind = "fixed"  # a lamp is a place the agent goes to, never picked up here
    tools: dict[str, list[_Thing]] = {}
    for predicate in task_type.needed_tools(sliced):
        classes = caps[predicate].classes
        kinds = ("item", "mover") if predicate == "canSlice" else ("fixed",)
        tools[predicate] = [t for t in things.values() if t.object_type in classes and t.kind in kinds]
    if "canClean" in tools:  # only a basin some faucet runs into cleans
        watered = set(catalogue.faucet_basins_in(t.meta for t in things.values()).values())
        tools["canClean"] = [t for t in tools["canClean"] if t.object_id in watered]

    # Everything relevant, plus the containers holding it (two levels at most).
    relevant: dict[str, _Thing] = {}
    for thing in itertools.chain(targets, offered, mreceps, lamps, *tools.values(), (things[h] for h in held)):
        relevant[thing.object_id] = thing
    for oid in list(relevant):
        if relevant[oid].kind == "fixed":
            continue
        parent = containers.get(oid)
        while parent is not None and parent not in relevant and oid not in held:
            relevant[parent] = things[parent]
            oid, parent = parent, containers.get(parent)

    # Loose things (no container chain ending in a fixed receptacle with a pose, within two levels)
    # lie at a spot of their own when the caller gives them a pose: the outermost loose thing
    # gets the spot (a pot on the floor, with the apple in it).
    spot_container: dict[str, str] = {}  # loose thing id -> its spot's key in ``relevant``
    for oid, thing in list(relevant.items()):
        if thing.kind == "fixed" or oid in held or oid not in poses or _located(oid, relevant, containers, poses, held):
            continue
        parent = containers.get(oid)
        if parent is not None and parent in relevant and relevant[parent].kind == "mover" and parent in poses:
            continue  # its mover gets the spot
        spot = _spot(thing)
        relevant[spot.name] = spot
        spot_container[oid] = spot.name
    if spot_container:
        containers = {**containers, **spot_container}

    # Locations: every relevant fixed thing with a pose, and the start.
    location_of: dict[str, str] = {}  # fixed object id -> location name
    pose_names: dict[tuple[float, float, float, float], str] = {}
    all_poses: dict[tuple[float, float, float, float], Pose] = {}
    fixed_pose: dict[str, tuple[float, float, float, float]] = {}
    for oid, thing in relevant.items():
        if thing.kind != "fixed":
            continue
        pose = poses[thing.spot_of] if thing.spot_of else pose_of(thing)
        if pose is None:
            notes.append(f"{oid}: no interaction pose, left out")
            continue
        key = _pose_key(pose)
        fixed_pose[oid] = key
        all_poses.setdefault(key, pose)
    start_key = _pose_key(agent_pose)
    all_poses.setdefault(start_key, agent_pose)
    for key in sorted(all_poses):
        base = names.location_name(all_poses[key])
        name, n = base, 2
        while name in pose_names.values():
            name, n = f"{base}_v{n}", n + 1
        pose_names[key] = name
    for oid, key in fixed_pose.items():
        location_of[oid] = pose_names[key]
    locations = {pose_names[key]: [float(v) for v in list(all_poses[key])[:4]] for key in sorted(all_poses)}
    start = pose_names[start_key]

    # Drop what cannot be reached: fixed things without a pose, items whose container chain does not
    # end in a located fixed thing within two levels (an item in a mover in a fixed receptacle).
    def reachable(oid: str) -> bool:
        if relevant[oid].kind == "fixed":
            return oid in location_of
        return oid in held or _located(oid, relevant, containers, location_of, held)

    kept = {oid: t for oid, t in relevant.items() if reachable(oid)}
    for oid in relevant:
        if oid not in kept and relevant[oid].kind != "fixed":
            notes.append(f"{oid}: not reachable through a located receptacle, left out")
    held = [h for h in held if h in kept]

    reason = _quick_reason(
        task, task_type, things, kept, targets, parents, offered, mreceps, lamps, tools, can_place, notes
    )

    problem_text, objects = _write_problem(
        problem_name, task, task_type, kept, containers, held, location_of, locations, start, tools,
        targets, can_place, full,
    )
    return EncodedProblem(
        task=task,
        domain_text=domain_text(),
        problem_text=problem_text,
        objects=objects,
        locations=locations,
        start_location=start,
        unsolvable_reason=reason,
        notes=notes,
    )


def _located(oid: str, relevant: Mapping[str, _Thing], containers: Mapping[str, str], placed: Container[str],
             held: Sequence[str]) -> bool:
    """Whether a pickupable is reachable through placed receptacles (``placed``: those with a pose,
    or with a location): its fixed receptacle is placed, or it lies in a (not held) movable
    receptacle whose fixed receptacle is."""
    parent = containers.get(oid)
    if parent is None or parent not in relevant:
        return False
    holder = relevant[parent]
    if holder.kind == "fixed":
        return parent in placed
    grand = containers.get(parent)
    return (holder.kind == "mover" and relevant[oid].kind == "item" and parent not in held
            and grand is not None and grand in relevant and relevant[grand].kind == "fixed" and grand in placed)


def _placeable_types(thing: _Thing, sliced_target: bool) -> list[str]:
    """The types an item may have when it is put somewhere: a slice-task target may be whole or cut."""
    if sliced_target and not thing.is_slice and thing.object_type in catalogue.SLICED_TYPES:
        return [thing.object_type, catalogue.SLICED_TYPES[thing.object_type]]
    return [thing.object_type]


def _quick_reason(
    task: TaskSpec,
    task_type: TaskType,
    things: Mapping[str, _Thing],
    kept: Mapping[str, _Thing],
    targets: list[_Thing],
    parents: list[_Thing],
    offered: list[_Thing],
    mreceps: list[_Thing],
    lamps: list[_Thing],
    tools: Mapping[str, list[_Thing]],
    can_place: Callable[[str, str], bool],
    notes: list[str],
) -> str:
    """Why the task cannot be solved in this scene, found without search ("" if no obvious reason)."""
    obj = task.object_target
    if not any(t.object_class == obj for t in things.values()):
        return f"no {obj} in the scene"
    if not targets:
        return f"no {obj} in the scene can be picked up" + (" and sliced" if task.object_sliced else "")
    entry = catalogue.OBJECT_TYPES.get(obj)
    if task.object_sliced and entry is not None and not entry.sliceable:
        return f"a {obj} cannot be sliced"
    for slot, found in (("parent", parents), ("mrecep", mreceps), ("toggle", lamps)):
        cls = task.slot(slot)
        if slot in task_type.slots and not found:
            return f"no {cls} in the scene"
    if parents and not offered:
        return f"every {task.parent_target} in the scene already holds something (it holds one object)"
    caps = capabilities()
    for predicate, found in tools.items():
        if not found:
            classes = " or ".join(caps[predicate].classes)
            running = " with a faucet running into it" if predicate == "canClean" else ""
            return f"no {classes}{running} in the scene (needed to {caps[predicate].verb})"
    placed = catalogue.SLICED_TYPES.get(obj, obj) if task.object_sliced else obj
    if task.mrecep_target:
        if not can_place(placed, task.mrecep_target):
            return f"a {placed} cannot be put in a {task.mrecep_target}"
        if task.parent_target and not can_place(task.mrecep_target, task.parent_target):
            return f"a {task.mrecep_target} cannot be put in a {task.parent_target}"
    elif task.parent_target and not can_place(placed, task.parent_target):
        return f"a {placed} cannot be put in a {task.parent_target}"
    for predicate in task_type.tools:
        cap = caps[predicate]
        if cap.holds_object and not any(can_place(placed, cls) for cls in cap.classes):
            return f"a {placed} cannot be put in a {' or '.join(cap.classes)} to {cap.verb} it"
    reachable_targets = [t for t in targets if t.object_id in kept]
    needed = task_type.instances_needed
    if len(targets) < needed:
        return f"{task.task_type} needs {needed} {obj}, the scene has {len(targets)}"
    if len(reachable_targets) < needed:
        return f"no {obj} can be reached (no interaction pose for where it lies)"
    for slot, found in (("parent", offered), ("mrecep", mreceps), ("toggle", lamps)):
        if slot in task_type.slots and not any(t.object_id in kept for t in found):
            return f"no {task.slot(slot)} can be reached (no interaction pose)"
    for predicate, found in tools.items():
        if not any(t.object_id in kept for t in found):
            return f"no {' or '.join(caps[predicate].classes)} can be reached (no interaction pose)"
    return ""


def _write_problem(
    problem_name: str,
    task: TaskSpec,
    task_type: TaskType,
    kept: Mapping[str, _Thing],
    containers: Mapping[str, str],
    held: list[str],
    location_of: Mapping[str, str],
    locations: Mapping[str, list[float]],
    start: str,
    tools: Mapping[str, list[_Thing]],
    targets: list[_Thing],
    can_place: Callable[[str, str], bool],
    full: Mapping[str, set[str]],
) -> tuple[str, dict[str, str]]:
    target_ids = {t.object_id for t in targets}
    objects = {t.name: ("" if t.spot_of else oid) for oid, t in kept.items()}
    by_kind: dict[str, list[str]] = {"fixed": [], "item": [], "mover": []}
    for thing in kept.values():
        by_kind[thing.kind].append(thing.name)
    classes = {t.object_class for t in kept.values() if not t.spot_of}
    classes |= {task.slot(slot) for slot in task_type.slots}

    facts: list[str] = [f"(atLocation {start})"]
    facts.append(f"(holding {kept[held[0]].name})" if held else "(handEmpty)")
    for oid, thing in kept.items():
        if not thing.spot_of:
            facts.append(f"(isType {thing.name} {names.class_name(thing.object_class)})")
        if thing.kind == "fixed":
            facts.append(f"(fixedAt {thing.name} {location_of[oid]})")
            if thing.meta.get("receptacle"):
                if _encloses(thing):
                    facts.append(f"(openable {thing.name})")
                closed = _encloses(thing) and not thing.meta.get("isOpen")
                facts.append(f"({'isClosed' if closed else 'isOpen'} {thing.name})")
            if thing.object_type == task.toggle_target:
                facts.append(f"(toggleable {thing.name})")
                facts.append(f"({'isOn' if thing.meta.get('isToggled') else 'isOff'} {thing.name})")
        else:
            parent = containers.get(oid)
            if oid not in held and parent is not None and parent in kept:
                facts.append(f"(inReceptacle {thing.name} {kept[parent].name})")
            if thing.is_slice or thing.meta.get("isSliced"):
                facts.append(f"(isSliced {thing.name})")
            elif task.object_sliced and oid in target_ids and thing.meta.get("sliceable"):
                facts.append(f"(isWhole {thing.name})")
    for predicate, found in tools.items():
        for thing in found:
            if thing.object_id in kept:
                facts.append(f"({predicate} {thing.name})")
    # What may go where: receptacles (fixed and movable) x items; no mover inside a mover. A
    # slice-task target may go where both its whole and its cut form may (canContain), or where
    # only its slices may (canContainSlice, a fixed receptacle such as a toaster).
    receptacles = [
        t for t in kept.values() if t.meta.get("receptacle") and not t.spot_of and t.object_type != task.toggle_target
    ]
    items = [t for t in kept.values() if t.kind != "fixed"]
    for recep in receptacles:
        for item in items:
            if item.object_id == recep.object_id or (recep.kind == "mover" and item.kind == "mover"):
                continue
            if recep.object_id in full and item.object_id not in full[recep.object_id]:
                continue  # a taken one-object holder takes back only what it holds
            sliced_target = task.object_sliced and item.object_id in target_ids
            forms = _placeable_types(item, sliced_target)
            if all(can_place(typ, recep.object_type) for typ in forms):
                facts.append(f"(canContain {recep.name} {item.name})")
            elif len(forms) == 2 and recep.kind == "fixed" and can_place(forms[1], recep.object_type):
                facts.append(f"(canContainSlice {recep.name} {item.name})")
    same_class = [t.name for t in targets if t.object_id in kept]
    for a, b in itertools.permutations(same_class, 2):
        facts.append(f"(different {a} {b})")
    guard_args = " ".join(names.class_name(task.slot(slot)) for slot in task_type.slots)
    facts.append(f"({task_type.guard_predicate(task.object_sliced)} {guard_args})")

    lines = [f"(define (problem {problem_name})", "  (:domain alfred-household)", "  (:objects"]
    lines.append("    " + " ".join(sorted(locations)) + " - location")
    lines.append("    " + " ".join(sorted(names.class_name(c) for c in classes)) + " - class")
    for kind in ("fixed", "item", "mover"):
        if by_kind[kind]:
            lines.append("    " + " ".join(sorted(by_kind[kind])) + f" - {kind}")
    lines.append("  )")
    lines.append("  (:init")
    lines.extend(f"    {fact}" for fact in sorted(set(facts)))
    lines.append("  )")
    lines.append("  (:goal (goalReached))")
    lines.append(")")
    return "\n".join(lines) + "\n", dict(sorted(objects.items()))
