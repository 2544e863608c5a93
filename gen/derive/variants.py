"""What each variant keeps of a source and what it adds: the derived plan, before it is recorded.

* ``nav-only`` keeps the walks (``GotoLocation`` subgoals) with their low actions, drops every
  other subgoal with its low actions; the goal is the final position alone.
* ``rev-1`` keeps the whole source and appends one walk back to an earlier destination;
  ``rev-n`` appends ``n_back`` (two by default) walks back, each to an earlier destination than the
  one before. The goal is the source's own goal conditions plus the final position.

A walk back is either the paper's reversal of the recorded navigation (``reverse="replay"``,
:mod:`.reverse`), fixed here, or a shortest walk planned on the navigation grid of the state the
agent is in when it sets off (``reverse="shortest"``), which the recorder asks the navigator for;
the paper's reversal can lead into a spot an object now blocks, a planned walk goes around it.

The language of the derived task (:func:`derived_language`) keeps the human instructions of the
kept subgoals (every annotation of a released demo), adds the new walk-back instructions, and gives
a goal description: NAV-ONLY's names the last destination ("Go to the sink."), REV's is the
source's followed by the walks back ("... Then walk back to the fridge.").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from alfred_gen.demo.language import describe
from alfred_gen.derive.outcomes import DeriveReason
from alfred_gen.derive.reverse import NotReversibleError, reverse_low_actions
from alfred_gen.derive.source import Destination, Pose, Subgoal, choose_destinations, destinations_of, subgoals_of
from alfred_gen.derive.wording import return_instruction, then, walk_goal
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.replay.record import LowAction
from alfred_gen.sim.scene import hash_str


class Variant(str, Enum):
    """ALFRED-L's task structures (the values are the command's and the files' words)."""

    NAV_ONLY = "nav-only"
    REV_1 = "rev-1"
    REV_N = "rev-n"

    def __str__(self) -> str:
        return str(self.value)


#: How a walk back is made: the paper's reversal of the recorded actions, or our navigator's.
REVERSE_MODES = ("replay", "shortest")

#: ALFRED-L's success distance (five 0.25 m steps); the paper also reports 0.5 m.
DEFAULT_THRESHOLD = 1.25

#: Walks back of REV-n unless told otherwise (the paper: "two or more").
DEFAULT_N_BACK = 2


class NotApplicable(Exception):
    """The variant makes no sense for this source: ``reason`` (NO_NAVIGATION,
    NO_EARLIER_DESTINATION, NOT_REVERSIBLE) and one line why."""

    def __init__(self, reason: DeriveReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass
class DerivedSubgoal:
    """One subgoal of the derived plan.

    A kept subgoal has its source ``high`` entry and low actions; a walk back has a ``target``
    and either fixed ``actions`` (the reversal) or none, to be planned when recorded (shortest).
    """

    high: Mapping[str, Any]
    actions: list[LowAction] | None
    source_high_idx: int | None = None  # kept from the source (None: new)
    source_position: int | None = None  # its position among the source's subgoals (instructions)
    target: Destination | None = None  # a walk back's destination
    instruction: str = ""  # a walk back's new instruction

    @property
    def is_new(self) -> bool:
        return self.source_high_idx is None


@dataclass
class DerivedPlan:
    """A variant of one source: its subgoals, what the goal keeps, where it must end."""

    variant: Variant
    subgoals: list[DerivedSubgoal]
    task_conditions: bool
    targets: list[Destination] = field(default_factory=list)  # walks back, in order
    reverse: str = ""
    n_back: int = 0


def low_action_of(entry: Mapping[str, Any], high_idx: int) -> LowAction:
    """A source ``plan.low_actions`` entry as an action to record again under ``high_idx``: the
    same api action; its mask is taken again from the re-rendered frame (the receptacle's for a
    PutObject, the object's otherwise), so frames and masks agree."""
    api = dict(entry["api_action"])
    target = api.get("receptacleObjectId") or api.get("objectId") or ""
    return LowAction(high_idx, api, str(entry["discrete_action"]["action"]), str(target))


def _kept(traj: Mapping[str, Any], subgoal: Subgoal, position: int) -> DerivedSubgoal:
    lows = traj["plan"]["low_actions"]
    return DerivedSubgoal(subgoal.high, [low_action_of(lows[i], 0) for i in subgoal.low],
                          subgoal.high_idx, position)


def nav_only(traj: Mapping[str, Any]) -> DerivedPlan:
    """NAV-ONLY: the walks of the source, nothing else. NotApplicable without a walk."""
    kept = [_kept(traj, s, i) for i, s in enumerate(subgoals_of(traj)) if s.is_walk and s.low]
    if not kept:
        raise NotApplicable(DeriveReason.NO_NAVIGATION, "the source has no GotoLocation subgoal with low actions")
    return DerivedPlan(Variant.NAV_ONLY, kept, task_conditions=False)


def walk_back(
    traj: Mapping[str, Any],
    poses: Sequence[Pose],
    count: int,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    reverse: str = "replay",
    variant: Variant = Variant.REV_1,
) -> DerivedPlan:
    """REV-1 (``count`` 1) or REV-n: the source, then ``count`` walks back to earlier destinations.

    ``poses[i]`` is the agent's pose after source low action i (from its replay). NotApplicable
    when there are fewer than ``count`` earlier destinations (see
    :func:`~alfred_gen.derive.source.choose_destinations`) or a teleport cannot be reversed.
    """
    if reverse not in REVERSE_MODES:
        raise ValueError(f"reverse must be one of {REVERSE_MODES}, got {reverse!r}")
    subgoals = subgoals_of(traj)
    lows = traj["plan"]["low_actions"]
    if not lows:
        raise NotApplicable(DeriveReason.NO_NAVIGATION, "the source has no low actions")
    final = poses[len(lows) - 1]
    walks = destinations_of(subgoals, poses)
    targets = choose_destinations(walks, final, count, threshold)
    if targets is None:
        wanted = (f"no earlier destination more than {threshold:g} m from the end" if count == 1 else
                  f"fewer than {count} earlier destinations more than {threshold:g} m from the end, each at "
                  f"another spot than the one walked back to before")
        plural = "s" if len(walks) != 1 else ""
        raise NotApplicable(DeriveReason.NO_EARLIER_DESTINATION, f"{wanted} ({len(walks)} walk{plural} in the source)")
    plan = [_kept(traj, s, i) for i, s in enumerate(subgoals)]
    task_id = str(traj["task_id"])
    start_after = len(lows) - 1  # the walk back undoes the actions after the target's last one
    for k, target in enumerate(targets):
        actions: list[LowAction] | None = None
        if reverse == "replay":
            try:
                actions = reverse_low_actions(lows[target.last_low + 1:start_after + 1], 0, turn_around=k == 0)
            except NotReversibleError as error:
                raise NotApplicable(DeriveReason.NOT_REVERSIBLE, str(error)) from None
        high = {"planner_action": {"action": "GotoLocation"},
                "discrete_action": {"action": "GotoLocation", "args": list(target.args)}}
        plan.append(DerivedSubgoal(high, actions, target=target,
                                   instruction=return_instruction(target.args, f"{task_id}:{variant}:{k}")))
        start_after = target.last_low
    return DerivedPlan(variant, plan, task_conditions=True, targets=list(targets), reverse=reverse,
                       n_back=count if variant == Variant.REV_N else 0)


# --------------------------------------------------------------------------------------------
# Language


class MisalignedAnnotation(ValueError):
    """An annotation whose step instructions do not match the source's subgoals one to one."""


def _lines(descs: Sequence[str], plan: DerivedPlan, count: int, where: str) -> list[str]:
    if len(descs) != count:
        raise MisalignedAnnotation(f"{where} has {len(descs)} step instructions for {count} subgoals")
    return [sub.instruction if sub.is_new else str(descs[sub.source_position or 0]) for sub in plan.subgoals]


def _goal(plan: DerivedPlan, source_goal: str, key: str) -> str:
    if plan.variant == Variant.NAV_ONLY:
        return walk_goal(plan.subgoals[-1].high["discrete_action"].get("args") or (), key)
    goal = source_goal
    for sub in plan.subgoals:
        if sub.is_new:
            goal = then(goal, sub.instruction)
    return goal


def derived_language(traj: Mapping[str, Any], plan: DerivedPlan, task: TaskSpec) -> tuple[dict, dict]:
    """The derived ``template`` and ``turk_annotations``.

    Kept subgoals keep their lines (every annotation's, and the template's; a released demo has no
    template, so its kept lines are templated as ``generate`` would); new walks get their new line
    in every annotation. Each annotation keeps its source goal as ``source_task_desc``.
    MisalignedAnnotation if an annotation's lines do not match the source's subgoals.
    """
    count = len(subgoals_of(traj))
    key = f"{traj['task_id']}:{plan.variant}:goal"
    source_template = traj.get("template")
    if source_template is None:
        source_template = describe(task, traj["plan"]["high_pddl"], hash_str(str(traj["task_id"])) % 2**31)
    template = {
        "task_desc": _goal(plan, str(source_template["task_desc"]), key),
        "high_descs": _lines(source_template["high_descs"], plan, count, "the template"),
    }
    anns = []
    for index, ann in enumerate((traj.get("turk_annotations") or {}).get("anns") or ()):
        new = dict(ann)
        new["high_descs"] = _lines(ann["high_descs"], plan, count, f"annotation {index}")
        new["task_desc"] = _goal(plan, str(ann["task_desc"]), key)
        new["source_task_desc"] = ann["task_desc"]
        anns.append(new)
    if not anns:
        anns = [{"assignment_id": "template", "high_descs": list(template["high_descs"]),
                 "task_desc": template["task_desc"], "votes": [1]}]
    return template, {"anns": anns}
