"""Running a folded plan against a live simulator: walks placed by probes, failures retried.

Generation (:mod:`alfred_gen.demo.generate`, which the sampler runs) and the fidelity bench's
planning of released tasks (:mod:`alfred_gen.fidelity.measure`) make and run a plan the same way, so
both go through :func:`plan_and_drive` (encode, solve, fold, drive, close with End), and it through
:func:`drive_plan`:

1. each step is expanded against the state the simulator reports before it
   (:class:`~alfred_gen.demo.expand.Expander`);
2. a walk's destination is chosen by probing poses for what the steps up to the next walk need in
   view (:func:`walk_destination`); a walk no single pose serves is split in two;
3. when a step after a walk fails (THOR refuses an action, an interaction mask is missing, or the
   step cannot be expanded in the state reached), the run goes back to just before that walk and
   walks to the next pose that passes the probes instead, up to :data:`WALK_RETRIES` times;
4. when no reachable pose shows an object the plan picks up, the plan is made again without that
   object, from the start (:func:`drive_with_replans`, up to :data:`REPLANS` times);
5. a slice to pick up that is out of sight where the whole was cut is walked to again
   (:func:`walk_to_slices`): the probes chose the pose before the slices existed.

Why retry: the probes judge a pose by what its metadata shows, which is all THOR tells before an
action. Whether a put finds a free spot in view, or whether the object put into a deep basin can be
seen again to take it out, shows only when it is tried. Over ALFRED's 6,574 train tasks planned in
their start states (``bench/alfred_fidelity.py``), 103 plans failed in execution with the first
pose; going back and trying the next passing pose (at most 4 times) reached the goal in 76 of them.

Going back needs no undo from the simulator: the runner restores the start state and executes
the actions it kept again (everything is deterministic), so a retried demonstration is exactly the
one a replay of the file gives.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from alfred_gen.demo.expand import (
    Expander,
    ExpansionError,
    choose_destination,
    end_entry,
    fold_plan,
    sees,
    sight_requirements,
)
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.domains.catalogue import whole_of_id
from alfred_gen.errors import PlanStatus
from alfred_gen.planner.encode import EncodedProblem, agent_pose_of
from alfred_gen.planner.names import alfred_location, location_name
from alfred_gen.planner.result import PlanStep
from alfred_gen.planner.solve import solve
from alfred_gen.replay.record import LowAction, RecordingError
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.event import head_of, state_metadata_of, visible_among_of
from alfred_gen.sim.scene import CAMERA_Y_OFFSET

#: How many other poses a walk may be retried from after the steps following it failed.
WALK_RETRIES = 4


class PlanRunner(Protocol):
    """Executes a plan's low actions and can go back to an earlier point of the run (generation's
    :class:`~alfred_gen.replay.record.Recorder`, the fidelity bench's runner without frames). Not
    to be confused with the sampler's job executors, which run whole demonstrations.

    ``metadata`` is the state after the last action; ``count`` how many actions were executed;
    ``run`` executes actions in order and raises RecordingError at the first failure (the failed
    action is not counted); ``rewind(count)`` brings the simulator back to the state after the
    first ``count`` actions.
    """

    @property
    def metadata(self) -> Mapping[str, Any]: ...

    @property
    def count(self) -> int: ...

    def run(self, actions: Sequence[LowAction]) -> Any: ...

    def rewind(self, count: int) -> None: ...


@dataclass
class _WalkMark:
    """Where a walk began: what to go back to if the steps after it fail."""

    index: int
    steps: list[PlanStep]
    count: int
    high: int
    tried: list[tuple[float, ...]] = field(default_factory=list)
    chosen: tuple[float, ...] = ()


def drive_plan(
    controller: Controller,
    steps: Sequence[PlanStep],
    expander: Expander,
    runner: PlanRunner,
    high: list[dict[str, Any]],
    retries: int = WALK_RETRIES,
) -> None:
    """Expand and execute ``steps`` through ``runner``, appending each step's high_pddl entry
    to ``high`` (so the caller can say at which step a failure happened).

    Raises ExpansionError or RecordingError when a step fails and no retry is left; the error is
    the first failure of the last walk retried, the most telling one.
    """
    plan = list(steps)
    mark: _WalkMark | None = None
    first_failure: Exception | None = None
    index = -1
    while index + 1 < len(plan):
        index += 1
        step = plan[index]
        try:
            if step.action == "GotoLocation":
                if mark is None or mark.index != index:
                    mark, first_failure = _WalkMark(index, list(plan), runner.count, len(high)), None
                step, plan = walk_destination(controller, plan, index, runner.metadata, expander.navigation,
                                              exclude=mark.tried)
                mark.chosen = tuple(float(v) for v in step.location)
                if mark.chosen in mark.tried and first_failure is not None:
                    raise first_failure  # no other pose passes the probes
            walk = walk_to_slices(plan, index, runner.metadata, expander)
            if walk is not None:
                plan.insert(index, walk)
                index -= 1
                continue
            following = plan[index + 1] if index + 1 < len(plan) else None
            expanded = expander.expand(step, len(high), runner.metadata, following)
            if not expanded.low:
                continue  # a walk to where the agent already stands
            high.append(expanded.high)
            runner.run(expanded.low)
        except (ExpansionError, RecordingError) as failure:
            retrying = first_failure is not None
            first_failure = first_failure or failure
            if mark is None or not mark.chosen or len(mark.tried) >= retries or (retrying and index == mark.index):
                raise first_failure from None
            mark.tried.append(mark.chosen)
            mark.chosen = ()
            runner.rewind(mark.count)
            del high[mark.high:]
            plan, index = list(mark.steps), mark.index - 1


def walk_to_slices(plan: Sequence[PlanStep], index: int, metadata: Mapping[str, Any],
                   expander: Expander) -> PlanStep | None:
    """A walk to insert before ``plan[index]`` when it picks up a slice and none is in view, else None.

    The walk's destination is probed before the steps after it, so a slice cut there was no
    requirement yet (:func:`~alfred_gen.demo.expand.sight_requirements`). THOR lays slices off the
    whole's origin: a tomato cut deep in a garbage can leaves its slices behind the can's near rim
    from the pose that saw the tomato. The walk starts where the agent stands, so when the probes
    find the slices in view from there it adds no action; it is inserted only after a step that is
    not itself a walk (the walk's own probes then settled what is in view).
    """
    step = plan[index]
    if step.action != "PickupObject" or not step.sliced or step.object_id in expander.slice_of:
        return None
    if index == 0 or plan[index - 1].action == "GotoLocation":
        return None
    if sees(metadata, sight_requirements([step], metadata)):
        return None
    here = agent_pose_of(metadata)
    return PlanStep("GotoLocation", location=here, location_name=alfred_location(location_name(here)))


#: How many times a plan is made again, each time without the objects to pick up that no reachable
#: pose shows (the planner knows where things are, not what can be seen from where).
REPLANS = 2


def drive_with_replans(
    controller: Controller,
    steps: Sequence[PlanStep],
    plan_without: Callable[[frozenset[str]], Sequence[PlanStep] | None],
    make_expander: Callable[[], Expander],
    runner: PlanRunner,
    high: list[dict[str, Any]],
    replans: int = REPLANS,
) -> None:
    """:func:`drive_plan`, and when no reachable pose shows an object the plan picks up, the plan
    made again without it (``plan_without(hidden)``: the new steps, or None when there is none),
    from the start, up to ``replans`` times. ``plan_without`` must not depend on the simulator's
    state: it is asked before the runner goes back to the start.

    The planner chooses among instances by where they lie: FloorPlan225 holds three watches, two on
    a low shelf under another one no pose sees into, and the plan took one of those; ALFRED's demo
    took the third. Slices no pose shows count as their whole unseen: a tomato cut deep in a
    garbage can (FloorPlan3) is planned again with a tomato on the counter. The error of the first
    run is raised when no re-plan gets through.
    """
    start_metadata = runner.metadata
    loose = {o["objectId"] for o in start_metadata.get("objects") or () if o.get("pickupable")}
    hidden: frozenset[str] = frozenset()
    first: tuple[ExpansionError, list[dict[str, Any]]] | None = None
    current: Sequence[PlanStep] = steps
    for attempt in range(replans + 1):
        if attempt:
            # The re-plan is made from the start state, not the simulator's: ask for it before going
            # back, so an attempt with no other plan fails without restoring the scene for nothing.
            replanned = plan_without(hidden)
            if replanned is None:
                break
            runner.rewind(0)
            del high[:]
            current = replanned
        try:
            drive_plan(controller, current, make_expander(), runner, high)
            return
        except ExpansionError as error:
            first = first or (error, list(high))
            unseen = {whole_of_id(oid) for oid in error.unseen} & loose - hidden  # slices: their whole
            if not unseen:
                break
            hidden = hidden | unseen
    assert first is not None
    high[:] = first[1]  # the caller says at which step of the first plan it failed
    raise first[0]


def replanned_steps(problem: EncodedProblem, time_limit: float | None) -> list[PlanStep] | None:
    """The folded steps of a re-plan's ``problem`` (what ``plan_without`` of :func:`drive_with_replans`
    returns), or None when it has none to try: unsolved, nothing to do, or not expandable. Why it
    failed does not matter here: the first plan's error is the one reported."""
    solved = solve(problem, time_limit=time_limit)
    if not solved.solved:
        return None
    try:
        return fold_plan(solved.plan) or None
    except ExpansionError:
        return None


Runner = TypeVar("Runner", bound=PlanRunner)


class NoPlan(Exception):
    """:func:`plan_and_drive` found nothing to run. ``status`` is the planner's (SOLVED when it
    found a plan) and ``kind`` says why: ``unsolved`` (the planner's reason), ``unfoldable`` (a
    plan step that cannot become actions) or ``trivial`` (no step: the goal already holds)."""

    def __init__(self, status: PlanStatus, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.status, self.kind, self.detail = status, kind, detail


def plan_and_drive(
    controller: Controller,
    encode: Callable[[frozenset[str]], EncodedProblem],
    time_limit: float | None,
    make_expander: Callable[[], Expander],
    make_runner: Callable[[], Runner],
    high: list[dict[str, Any]],
    timings: dict[str, float] | None = None,
) -> tuple[Runner, EncodedProblem]:
    """The one generate pipeline from a start state: encode (``encode(hidden)``: the problem of the
    start state with the objects ``hidden`` left out), solve, fold, then drive the plan with
    re-plans (:func:`drive_with_replans`) through the runner ``make_runner()`` gives once there is a
    plan, appending each step's high_pddl entry and the closing End to ``high``.

    Returns the runner and the problem whose plan was run (a re-plan's when one was needed). Raises
    :class:`NoPlan`; ExpansionError or RecordingError from the drive, ``high`` then holding the
    steps done. ``timings`` gets the seconds of ``plan`` (encode and solve) and ``record``."""
    started = time.perf_counter()
    encoded = encode(frozenset())
    result = solve(encoded, time_limit=time_limit)
    if timings is not None:
        timings["plan"] = time.perf_counter() - started
    if result.status != PlanStatus.SOLVED:
        raise NoPlan(result.status, "unsolved", result.reason)
    try:
        steps = fold_plan(result.plan)
    except ExpansionError as error:
        raise NoPlan(result.status, "unfoldable", str(error)) from None
    if not steps:
        raise NoPlan(result.status, "trivial", "the goal already holds in the start state")
    started = time.perf_counter()
    runner = make_runner()

    def plan_without(hidden: frozenset[str]) -> list[PlanStep] | None:
        nonlocal encoded
        again = encode(hidden)
        replanned = replanned_steps(again, time_limit)
        if replanned is not None:
            encoded = again  # the problem returned is the one whose plan was run
        return replanned

    drive_with_replans(controller, steps, plan_without, make_expander, runner, high)
    high.append(end_entry(len(high)))
    if timings is not None:
        timings["record"] = time.perf_counter() - started
    return runner, encoded


def _until_next_walk(steps: list[PlanStep], start: int) -> list[PlanStep]:
    """The steps from ``start`` up to (not including) the next GotoLocation."""
    end = start
    while end < len(steps) and steps[end].action != "GotoLocation":
        end += 1
    return steps[start:end]


def walk_destination(controller: Controller, steps: list[PlanStep], index: int, metadata: Mapping[str, Any],
                     navigation: NavigationGraph,
                     exclude: Collection[tuple[float, ...]] = ()) -> tuple[PlanStep, list[PlanStep]]:
    """The walk ``steps[index]`` with its destination chosen by probes, and the steps.

    If no pose sees everything the steps up to the next walk need (a knife and a potato at the two
    ends of a long counter), the walk serves the longest run of them that one pose sees, and a
    second walk to the same receptacle is inserted before the rest, as ALFRED's demos walk again
    between two objects on one counter. ExpansionError if not even the first step's needs are seen.
    Poses in ``exclude`` (already tried) are not chosen.
    """
    walk, group = steps[index], _until_next_walk(steps, index + 1)
    try:
        return destination_by_probes(controller, walk, group, metadata, navigation, exclude), steps
    except ExpansionError as error:
        if len(group) < 2:
            raise
        failure = error
    for count in range(len(group) - 1, 0, -1):
        try:
            chosen = destination_by_probes(controller, walk, group[:count], metadata, navigation, exclude)
        except ExpansionError as error:
            failure = error  # the last one tried is the first step's: what no pose shows at all
            continue
        cut = index + 1 + count
        return chosen, [*steps[:cut], walk, *steps[cut:]]
    raise failure


def _teleport(pose: Sequence[float], y: float) -> dict[str, Any]:
    return {
        "action": "TeleportFull",
        "x": float(pose[0]),
        "y": y,
        "z": float(pose[1]),
        "rotation": float(pose[2]),
        "horizon": float(pose[3]),
        "rotateOnTeleport": True,
    }


def destination_by_probes(
    controller: Controller, walk: PlanStep, following: list[PlanStep], metadata: Mapping[str, Any],
    navigation: NavigationGraph, exclude: Collection[tuple[float, ...]] = (),
) -> PlanStep:
    """The walk, or a walk to a better pose: probes candidate poses by teleporting there and back.

    The probes are not part of the demonstration: the agent is put back exactly where it was, so
    the state the next recorded action sees is the one a replay (without probes) will see.
    ExpansionError if no pose sees what the steps need, or the agent cannot be put back.
    """
    agent_y = float(metadata["agent"]["position"]["y"])
    camera = metadata.get("cameraPosition") or {}
    eye_height = float(camera["y"]) if "y" in camera else agent_y + CAMERA_Y_OFFSET
    origin = agent_pose_of(metadata)

    def probe(pose: Sequence[float], asked: Collection[str]) -> tuple[Mapping[str, Any], Collection[str]] | None:
        event = controller.step(_teleport(pose, agent_y))
        if not head_of(event).get("lastActionSuccess", False):
            return None
        return state_metadata_of(event), visible_among_of(event, asked)

    try:
        return choose_destination(walk, following, metadata, navigation, probe, eye_height, exclude)
    finally:
        head = head_of(controller.step(_teleport(origin, agent_y)))
        if not head.get("lastActionSuccess", False):
            raise ExpansionError(f"returning from a probe: {head.get('errorMessage')}")
