"""What the planner hands on: a status, and the plan as ALFRED high-level steps with THOR ids.

A :class:`PlanStep` is one action of ALFRED's high-level vocabulary (GotoLocation, PickupObject,
PutObject, OpenObject, CloseObject, HeatObject, CoolObject, CleanObject, SliceObject, ToggleObject)
with THOR object ids and the agent pose it happens at. The goal action of the PDDL plan is not a
step; ALFRED's closing NoOp/End is the expander's to add.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from functools import cache
from typing import Any, NamedTuple

from alfred_gen.errors import PlanStatus
from alfred_gen.planner import names
from alfred_gen.planner.domain import role_positions


class PlanStep(NamedTuple):
    """One high-level step.

    - ``action``: ALFRED's high-level action name.
    - ``object_id``: what is acted on: the object picked up, put, heated, cooled, cleaned or
      sliced; the receptacle opened or closed; the lamp switched on. "" for GotoLocation.
    - ``receptacle_id``: where: the receptacle picked from or put into (a movable receptacle's own
      id when the object lies in it), the microwave / fridge / sink basin used. "" otherwise.
    - ``tool_id``: the knife held while slicing. "" otherwise.
    - ``location``: the agent pose [x, z, rotation, horizon]: the destination of GotoLocation, the
      pose the step is done from otherwise.
    - ``location_name``: ALFRED's ``loc|x|z|r|h`` spelling of that pose (grid steps, quarter turns).
    - ``sliced``: the object is already cut: PickupObject/PutObject/... act on one of its slices
      (THOR ids ``<object_id>|<Type>Sliced_<n>``; which slice is the expander's choice).
    - ``operator``: the grounded PDDL operator, as planners print it.
    """

    action: str
    object_id: str = ""
    receptacle_id: str = ""
    tool_id: str = ""
    location: tuple[float, ...] = ()
    location_name: str = ""
    sliced: bool = False
    operator: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "object_id": self.object_id,
            "receptacle_id": self.receptacle_id,
            "tool_id": self.tool_id,
            "location": list(self.location),
            "location_name": self.location_name,
            "sliced": self.sliced,
            "operator": self.operator,
        }

    def describe(self) -> str:
        """One readable line: ``PickupObject Apple|-01.70|+01.52|+00.20 from Fridge|... at loc|...``."""
        words = [self.action]
        if self.action == "GotoLocation":
            words.append(self.location_name)
            return " ".join(words)
        if self.object_id:
            words.append(("slice of " if self.sliced else "") + self.object_id)
        if self.tool_id:
            words.append(f"with {self.tool_id}")
        if self.receptacle_id:
            preposition = {"PickupObject": "from", "PutObject": "into"}.get(self.action, "in")
            words.append(f"{preposition} {self.receptacle_id}")
        return " ".join(words)


class PlanResult:
    """The planner's answer.

    ``status`` says how the call ended (:class:`~alfred_gen.errors.PlanStatus`); ``plan`` the steps
    (empty unless solved); ``reason`` why there is no plan (or what went wrong); ``expanded`` states
    expanded; ``time`` seconds spent (parse, ground, search, validate); ``operators`` the raw grounded
    PDDL plan including the final goal action; ``search`` which search found it (ehc / gbfs).

    (A plain class, as the planner's other records: see :class:`~alfred_gen.planner.grounding.GroundTask`.)
    """

    def __init__(self, status: PlanStatus, plan: list[PlanStep] | None = None, reason: str = "",
                 expanded: int = 0, time: float = 0.0, operators: list[str] | None = None,
                 search: str = "") -> None:
        self.status = status
        self.plan: list[PlanStep] = plan if plan is not None else []
        self.reason = reason
        self.expanded = expanded
        self.time = time
        self.operators: list[str] = operators if operators is not None else []
        self.search = search

    def __repr__(self) -> str:
        return (f"PlanResult(status={self.status!r}, steps={len(self.plan)}, reason={self.reason!r}, "
                f"expanded={self.expanded}, search={self.search!r})")

    @property
    def solved(self) -> bool:
        return self.status == PlanStatus.SOLVED

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "plan": [step.to_dict() for step in self.plan],
            "reason": self.reason,
            "expanded": self.expanded,
            "time": self.time,
            "operators": list(self.operators),
            "search": self.search,
        }


def split_operator(operator: str) -> tuple[str, list[str]]:
    """``(pickupobject a b c)`` -> (``pickupobject``, [a, b, c])."""
    words = operator.strip().strip("()").split()
    return words[0].lower(), [w.lower() for w in words[1:]]


def read_steps(
    operators: Sequence[str],
    thor_id: Callable[[str], str] = names.object_id,
    pose: Callable[[str], list[float]] = names.pose_of_location,
    states: Sequence[Container[tuple[str, tuple[str, ...]]]] | None = None,
) -> list[PlanStep]:
    """ALFRED steps of a grounded PDDL plan (operators as planners print them); goal actions are
    dropped.

    ``thor_id`` and ``pose`` map PDDL names back (defaults: un-escaping, grid poses); ``states``
    (the state before each operator, as containers of facts ``(predicate, args)``) tells which
    objects are already sliced.
    """
    return steps_of([(*split_operator(operator), operator) for operator in operators], thor_id, pose, states)


def steps_of(
    operators: Sequence[tuple[str, Sequence[str], str]],
    thor_id: Callable[[str], str] = names.object_id,
    pose: Callable[[str], list[float]] = names.pose_of_location,
    states: Sequence[Container[tuple[str, tuple[str, ...]]]] | None = None,
) -> list[PlanStep]:
    """:func:`read_steps` for operators given as (action name in lower case, arguments, the
    operator as printed)."""
    steps: list[PlanStep] = []
    ids: dict[str, str] = {"": ""}  # PDDL name -> THOR id: an object recurs in several steps
    places: dict[str, tuple[tuple[float, ...], str]] = {"": ((), "")}  # location -> (pose, ALFRED name)

    def thor(name: str) -> str:
        found = ids.get(name)
        if found is None:
            found = ids[name] = thor_id(name)
        return found

    for index, (action, args, operator) in enumerate(operators):
        reading = _step_reading(action)
        if reading is None:
            continue  # a goal action
        alfred, at_object, at_receptacle, at_tool, at_location = reading
        obj = args[at_object] if at_object >= 0 else ""
        location = args[at_location] if at_location >= 0 else ""
        place = places.get(location)
        if place is None:  # a walk's destination is where the next step is done: read it once
            place = places[location] = (tuple(pose(location)), names.alfred_location(location))
        sliced = bool(obj and states is not None and index < len(states) and ("issliced", (obj,)) in states[index])
        steps.append(
            PlanStep(
                action=alfred,
                object_id=thor(obj),
                receptacle_id=thor(args[at_receptacle]) if at_receptacle >= 0 else "",
                tool_id=thor(args[at_tool]) if at_tool >= 0 else "",
                location=place[0],
                location_name=place[1],
                sliced=sliced,
                operator=operator,
            )
        )
    return steps


@cache
def _step_reading(action: str) -> tuple[str, int, int, int, int] | None:
    """(ALFRED action, argument position of the object, receptacle, tool and location, -1 where
    the action has none) of a domain action; None for goal actions."""
    known = role_positions(action)
    if known is None:
        return None
    alfred, where = known
    return (alfred, where.get("object", -1), where.get("receptacle", -1), where.get("tool", -1),
            where.get("location", -1))
