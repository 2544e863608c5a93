"""Which task tuples (task type, scene, object, receptacle, movable receptacle) can be generated at all.

The sampler must only ever propose tuples that a demonstration could exist for; otherwise it wastes
a simulator run (seconds) on something a table lookup rules out. A tuple is feasible when, from the
scene's contents, the object catalogue and the task registry alone:

- the task type is sampled in the scene's room type (``domains/tasks.json``: ``room_types``);
- the object class is present (twice, for a goal over two instances such as pick_two_obj_and_place),
  pickupable and placeable somewhere;
- the object has the property the task needs: heat, cool and clean use ALFRED's lists of heatable,
  coolable and cleanable classes, and the object must fit into the tool (microwave, fridge, sink
  basin) that the scene has; a sliced object needs a sliceable class and a knife in the scene;
- the receptacle is present and can hold the object (``catalogue.can_place``), is not the tool the
  task uses (ALFRED does not heat an apple and leave it in the microwave), and holds two objects
  when the goal puts two in it; for look_at_obj_in_light the receptacle slot is the lamp;
- the movable receptacle is present, holds the object, and can sit in the receptacle.

Enumerating the whole feasible set up front (tens of thousands of tuples for 120 rooms) makes the
sampler's constraint propagation exact: fixing a slot value filters the set, and every remaining
value of every other slot is known to complete to at least one feasible tuple.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from alfred_gen.domains import catalogue
from alfred_gen.domains.tasks import TaskSpec, TaskType, capabilities, get_task_type, task_types
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import NO_MRECEP, trajectory_dir_name
from alfred_gen.traj.scene_nums import lite_room_of_scene_num, lite_room_scene_num

#: Suffix ALFRED's directory names give a sliced object class (``AppleSliced``).
SLICED_SUFFIX = "Sliced"

# ALFRED's generator (gen/constants.py, VAL_ACTION_OBJECTS) only heats, cools and cleans these classes;
# public facts about its task space, typed in. Sliced forms are listed as ALFRED lists them.
ALFRED_HEATABLE = frozenset({
    "Apple", "AppleSliced", "Bread", "BreadSliced", "Cup", "Egg", "Mug", "Plate", "Potato", "PotatoSliced",
    "Tomato", "TomatoSliced",
})
ALFRED_COOLABLE = frozenset({
    "Apple", "AppleSliced", "Bowl", "Bread", "BreadSliced", "Cup", "Egg", "Lettuce", "LettuceSliced", "Mug", "Pan",
    "Plate", "Pot", "Potato", "PotatoSliced", "Tomato", "TomatoSliced", "WineBottle",
})
ALFRED_CLEANABLE = frozenset({
    "Apple", "AppleSliced", "Bowl", "ButterKnife", "Cloth", "Cup", "DishSponge", "Egg", "Fork", "Kettle", "Knife",
    "Ladle", "Lettuce", "LettuceSliced", "Mug", "Pan", "Plate", "Pot", "Potato", "PotatoSliced", "SoapBar",
    "Spatula", "Spoon", "Tomato", "TomatoSliced",
})

#: Classes a tool verb of the task registry may act on.
VERB_OBJECTS: dict[str, frozenset[str]] = {
    "heat": ALFRED_HEATABLE,
    "cool": ALFRED_COOLABLE,
    "clean": ALFRED_CLEANABLE,
}

#: Receptacle classes ALFRED leaves out of its receptacle slot (a toaster only takes bread slices:
#: "not interesting in terms of producing linguistic diversity").
EXCLUDED_RECEPTACLES = frozenset({"Toaster"})


@dataclass(frozen=True, order=True)
class TaskTuple:
    """One sampled task: ALFRED's (goal, pickup, movable, receptacle, scene).

    ``object`` is spelled as in ALFRED's directory names: the class, plus ``Sliced`` when the
    demonstration must slice it first (``AppleSliced``). ``receptacle`` is the lamp for
    look_at_obj_in_light. ``mrecep`` is ``""`` when the task has none.
    """

    task_type: str
    scene: int
    object: str
    receptacle: str
    mrecep: str = ""

    @property
    def sliced(self) -> bool:
        """Whether the object must be sliced during the demonstration."""
        return self.object.endswith(SLICED_SUFFIX) and self.object != SLICED_SUFFIX

    @property
    def object_class(self) -> str:
        """The class that is picked up or sliced (``Apple`` for ``AppleSliced``)."""
        return self.object[: -len(SLICED_SUFFIX)] if self.sliced else self.object

    @property
    def placed_type(self) -> str:
        """The catalogue type that ends up in the receptacle (``AppleSliced``; ``EggCracked`` for an egg)."""
        if self.sliced:
            return catalogue.SLICED_TYPES.get(self.object_class, self.object)
        return self.object

    def dir_name(self) -> str:
        """ALFRED's task directory name ``<task_type>-<object>-<mrecep|None>-<recep>-<scene>``."""
        return trajectory_dir_name(self.task_type, self.object, self.mrecep or None, self.receptacle, self.scene)

    def sort_key(self) -> tuple[str, int, str, str, str]:
        """The dataclass order as a plain tuple: sorting tens of thousands of tuples by it is several
        times faster than by the generated comparison methods."""
        return (self.task_type, self.scene, self.object, self.receptacle, self.mrecep)

    @staticmethod
    def from_dir_name(name: str) -> TaskTuple | None:
        """The tuple a task directory stands for, or None if the name does not have ALFRED's shape."""
        parts = name.split("-")
        if len(parts) != 5 or not parts[4].isdigit() or not all(parts):
            return None
        task_type, obj, mrecep, recep, scene = parts
        return TaskTuple(task_type, int(scene), obj, recep, "" if mrecep == NO_MRECEP else mrecep)

    def to_task_spec(self) -> TaskSpec:
        """The TaskSpec the planner and generator take (the lamp goes to ``toggle_target``)."""
        spec_type = get_task_type(self.task_type)
        lamp_slot = "toggle" in spec_type.slots
        return TaskSpec(
            task_type=self.task_type,
            object_target=self.object_class,
            parent_target="" if lamp_slot else self.receptacle,
            mrecep_target=self.mrecep,
            toggle_target=self.receptacle if lamp_slot else "",
            object_sliced=self.sliced,
        )

    @staticmethod
    def from_task_spec(spec: TaskSpec, scene: int) -> TaskTuple:
        """The tuple of a TaskSpec in a scene (inverse of :meth:`to_task_spec`)."""
        obj = spec.object_target + (SLICED_SUFFIX if spec.object_sliced else "")
        return TaskTuple(spec.task_type, int(scene), obj, spec.parent_target or spec.toggle_target, spec.mrecep_target)


@dataclass(frozen=True)
class SceneContents:
    """What the feasibility rules need to know about a room: its type and how many of each class.

    A house's ``room_type`` is ``house``; ``room_types`` lists the types of its rooms, and a task
    type may be sampled in it when ALFRED samples it in any of them (a heat task needs the house to
    have a kitchen). For a single room ``room_types`` is left empty: its one type is ``room_type``.
    """

    scene: int
    room_type: str
    counts: dict[str, int]
    room_types: tuple[str, ...] = ()

    def allows(self, task_type: TaskType) -> bool:
        """Whether ALFRED samples ``task_type`` in this room, or in some room of this house."""
        return any(task_type.allowed_in(t) for t in (self.room_types or (self.room_type,)))

    def where(self) -> str:
        """The room type(s), for messages."""
        return "/".join(self.room_types) + " houses" if self.room_types else f"{self.room_type} rooms"

    def has(self, object_class: str, at_least: int = 1) -> bool:
        return self.counts.get(object_class, 0) >= at_least

    def present(self, classes: Iterable[str]) -> list[str]:
        """The classes of ``classes`` found in the room, sorted."""
        return sorted(c for c in set(classes) if self.counts.get(c, 0) > 0)


#: Where the sampler's rooms come from: lite's procedural rooms (``LitePlanN``, scene number
#: 10000 + N), real THOR rooms (``FloorPlanN``, ALFRED's numbers 1-30, 201-230, 301-330, 401-430)
#: imported from ALFRED with `alfred-gen scenes import-alfred`, which both the lite and the thor
#: backend can load, or lite's procedural houses (``LiteHouseN``, scene number 1000 + N; by default
#: those of LiteHouse1-100 that the house filter accepts). A tuple's ``scene`` is the scene number
#: its files record (:mod:`alfred_gen.traj.scene_nums`), so no two sets share a task directory.
SCENE_SETS = ("lite", "alfred", "houses")


def scene_name(scene: int, scene_set: str = "lite") -> str:
    """The name a simulator loads scene number ``scene`` of ``scene_set`` by."""
    if scene_set == "houses":
        from alfred_gen.scenes.houses.names import house_name, house_of_scene_num

        house = house_of_scene_num(scene)
        if house is None:
            raise UserError(f"scene number {scene} is no house's (houses are 1001-1999)", ExitCode.NOT_FOUND)
        return house_name(house)
    if scene_set == "alfred":
        return f"FloorPlan{scene}"
    return f"LitePlan{lite_room_of_scene_num(scene) or scene}"  # a bare room number is taken as it is


def recorded_scene(scene: int, scene_set: str = "lite") -> int:
    """The scene number the files of ``scene`` record: lite's room 205 (as ``--scenes`` names it)
    is 10205; other numbers, and lite rooms' own numbers, stay as they are."""
    if scene_set == "lite" and lite_room_of_scene_num(scene) is None:
        return lite_room_scene_num(scene)
    return scene


def default_scenes(scene_set: str = "lite") -> tuple[int, ...]:
    """The scene numbers a scene set samples from when no scenes are given: the 120 rooms, or the
    scene numbers of the houses of LiteHouse1-100 the default house filter accepts."""
    if scene_set == "houses":
        from alfred_gen.scenes.houses.names import house_scene_num
        from alfred_gen.scenes.library import accepted_houses

        return tuple(house_scene_num(n) for n in accepted_houses())
    from alfred_gen.scenes import scene_numbers

    if scene_set == "lite":
        return tuple(lite_room_scene_num(n) for n in scene_numbers())
    return scene_numbers()


@cache
def scene_contents(scene: int, scene_set: str = "lite") -> SceneContents:
    """Type and object counts of a scene (built once per process)."""
    from alfred_gen.scenes import get_scene

    built = get_scene(scene_name(scene, scene_set))
    return SceneContents(scene, built.room_type, dict(Counter(o.object_type for o in built.objects)),
                         tuple(sorted({t for r in built.rooms for t in r.types})))


def instances_needed(task_type: TaskType) -> int:
    """How many distinct objects of the object class the goal names (2 for pick_two_obj_and_place)."""
    return task_type.instances_needed


@lru_cache(maxsize=1)
def _pickup_classes() -> tuple[str, ...]:
    return tuple(pickup_classes())


@lru_cache(maxsize=1)
def _receptacle_classes() -> frozenset[str]:
    return frozenset(receptacle_classes())


def pickup_classes() -> list[str]:
    """Object-slot values before any scene is looked at: pickupable classes that fit somewhere,
    plus the sliced form of each sliceable class, sorted."""
    placeable = set().union(*catalogue.PLACEMENT.values())
    base = {name for name, t in catalogue.OBJECT_TYPES.items()
            if t.pickupable and name in placeable and name not in set(catalogue.SLICED_TYPES.values())}
    sliced = {name + SLICED_SUFFIX for name in catalogue.SLICED_TYPES if name in catalogue.OBJECT_TYPES}
    return sorted(base | sliced)


def receptacle_classes() -> list[str]:
    """Receptacle-slot values: fixed (not pickupable) receptacles of the placement table, sorted."""
    return sorted(
        name for name in catalogue.PLACEMENT
        if name in catalogue.OBJECT_TYPES and not catalogue.OBJECT_TYPES[name].pickupable
        and name not in EXCLUDED_RECEPTACLES
    )


def why_infeasible(t: TaskTuple, contents: SceneContents | None = None) -> str | None:
    """None if the tuple is feasible, else the first rule it breaks (a short phrase)."""
    try:
        spec_type = get_task_type(t.task_type)
    except UserError:
        return f"unknown task type {t.task_type}"
    contents = contents or scene_contents(t.scene)
    if not contents.allows(spec_type):
        return f"{t.task_type} is not sampled in {contents.where()}"
    return _object_problem(spec_type, t, contents) or _slot_problem(
        spec_type, t, contents, _tool_receptacles(spec_type, t.sliced))


def _object_problem(spec_type: TaskType, t: TaskTuple, contents: SceneContents) -> str | None:
    """The first rule the object slot breaks (its class, slicing, count and tools): what does not
    depend on the receptacles, so the task space asks it once per object of a room and task type."""
    sliced = t.sliced
    object_class = t.object[: -len(SLICED_SUFFIX)] if sliced else t.object
    obj_type = catalogue.OBJECT_TYPES.get(object_class)
    if obj_type is None or not obj_type.pickupable:
        return f"{object_class} is not a pickupable class"
    if sliced:
        if not spec_type.slice_variant:
            return f"{t.task_type} has no sliced variant"
        if not obj_type.sliceable:
            return f"{object_class} is not sliceable"
    need = instances_needed(spec_type)
    if not contents.has(object_class, need):
        return f"scene {t.scene} has fewer than {need} {object_class}"
    placed = catalogue.SLICED_TYPES.get(object_class, t.object) if sliced else t.object
    if placed not in catalogue.OBJECT_TYPES:
        return f"no catalogue type for {t.object}"
    for tool in spec_type.needed_tools(sliced):
        problem = _tool_problem(tool, t, contents)
        if problem:
            return problem
    return None


def _slot_problem(spec_type: TaskType, t: TaskTuple, contents: SceneContents,
                  tool_receptacles: frozenset[str]) -> str | None:
    """The first rule the receptacle and movable receptacle slots break, the object slot being fine
    (``tool_receptacles``: :func:`_tool_receptacles` of the task type and the object's slicing)."""
    sliced = t.sliced
    object_class = t.object[: -len(SLICED_SUFFIX)] if sliced else t.object
    need = instances_needed(spec_type)
    placed = catalogue.SLICED_TYPES.get(object_class, t.object) if sliced else t.object
    if "toggle" in spec_type.slots:
        if t.receptacle not in catalogue.LAMPS:
            return f"{t.receptacle} is not a lamp"
        if not contents.has(t.receptacle):
            return f"scene {t.scene} has no {t.receptacle}"
        if t.mrecep:
            return f"{t.task_type} takes no movable receptacle"
        return None
    if "parent" not in spec_type.slots:
        return f"{t.task_type} has no receptacle slot"
    if t.receptacle not in _receptacle_classes():
        return f"{t.receptacle} is not a receptacle class"
    if not contents.has(t.receptacle):
        return f"scene {t.scene} has no {t.receptacle}"
    if t.receptacle in tool_receptacles:
        return f"{t.receptacle} is the tool of {t.task_type}"
    if catalogue.OBJECT_TYPES[t.receptacle].capacity < need:
        return f"{t.receptacle} holds fewer than {need} objects"
    # The movable receptacle slot.
    if "mrecep" in spec_type.slots:
        if t.mrecep not in catalogue.MOVABLE_RECEPTACLES:
            return f"{t.mrecep or 'nothing'} is not a movable receptacle"
        if not contents.has(t.mrecep):
            return f"scene {t.scene} has no {t.mrecep}"
        if t.mrecep == object_class:
            return f"{t.object} cannot go in itself"
        if not catalogue.can_place(placed, t.mrecep):
            return f"{t.mrecep} cannot hold {placed}"
        if not catalogue.can_place(t.mrecep, t.receptacle):
            return f"{t.receptacle} cannot hold {t.mrecep}"
        return None
    if t.mrecep:
        return f"{t.task_type} takes no movable receptacle"
    if not catalogue.can_place(placed, t.receptacle):
        return f"{t.receptacle} cannot hold {placed}"
    return None


def _tool_problem(tool: str, t: TaskTuple, contents: SceneContents) -> str | None:
    cap = capabilities()[tool]
    present = contents.present(cap.classes)
    if not present:
        return f"scene {t.scene} has nothing to {cap.verb} with ({', '.join(cap.classes)})"
    if cap.verb == "slice":
        return None  # the object being sliceable was checked; the knife is held, not filled
    # The registry's tool acts on the object as it is at that point: the slice, for a sliced task.
    acted_on = t.object if t.sliced else t.object_class
    allowed = VERB_OBJECTS.get(cap.verb)
    if allowed is not None and acted_on not in allowed:
        return f"ALFRED does not {cap.verb} {acted_on}"
    if cap.holds_object and not any(catalogue.can_place(t.placed_type, c) for c in present):
        return f"{t.placed_type} does not fit in {'/'.join(present)} to {cap.verb}"
    return None


def _tool_receptacles(spec_type: TaskType, sliced: bool) -> frozenset[str]:
    """Classes of the containers the task's tools put the object into (not valid destinations)."""
    caps = capabilities()
    return frozenset(
        c for tool in spec_type.needed_tools(sliced) if caps[tool].holds_object for c in caps[tool].classes
    )


def candidate_tuples(task_type: TaskType, contents: SceneContents) -> Iterable[TaskTuple]:
    """Every tuple of a task type in a scene worth testing: the slot values the room has."""
    objects = [o for o in _pickup_classes()
               if contents.has(TaskTuple(task_type.name, contents.scene, o, "").object_class)]
    if "toggle" in task_type.slots:
        receptacles = contents.present(catalogue.LAMPS)
    else:
        receptacles = [r for r in sorted(_receptacle_classes()) if contents.has(r)]
    mreceps = contents.present(catalogue.MOVABLE_RECEPTACLES) if "mrecep" in task_type.slots else [""]
    for obj in objects:
        for recep in receptacles:
            for mrecep in mreceps:
                yield TaskTuple(task_type.name, contents.scene, obj, recep, mrecep)


def feasible_tuples(
    task_type_names: Sequence[str] | None = None, scenes: Sequence[int] | None = None, scene_set: str = "lite",
    on_scene: Callable[[], None] | None = None,
) -> list[TaskTuple]:
    """All feasible tuples over the given task types and scenes (default: all) of a scene set, sorted.
    ``on_scene`` is called after each scene (a progress bar: every room is built, seconds in all)."""
    types = [get_task_type(n) for n in task_type_names] if task_type_names else task_types()
    found: list[TaskTuple] = []
    for scene in scenes if scenes is not None else default_scenes(scene_set):
        contents = scene_contents(recorded_scene(int(scene), scene_set), scene_set)
        for spec_type in types:
            if not contents.allows(spec_type):
                continue
            found.extend(_feasible_candidates(spec_type, contents))
        if on_scene is not None:
            on_scene()
    return sorted(set(found), key=TaskTuple.sort_key)


def _feasible_candidates(spec_type: TaskType, contents: SceneContents) -> Iterator[TaskTuple]:
    """The candidate tuples of a task type in a room that :func:`why_infeasible` passes (the room
    allowing the type), its object rules asked once per object and the tools' containers once per
    slicing: the task space asks about ~120,000 tuples, a few hundred objects."""
    object_problems: dict[str, str | None] = {}
    tool_receptacles = {sliced: _tool_receptacles(spec_type, sliced) for sliced in (False, True)}
    for t in candidate_tuples(spec_type, contents):
        if t.object not in object_problems:
            object_problems[t.object] = _object_problem(spec_type, t, contents)
        if object_problems[t.object] is None and _slot_problem(spec_type, t, contents,
                                                               tool_receptacles[t.sliced]) is None:
            yield t
