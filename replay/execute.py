"""Executing a trajectory's low-level actions on a simulator, one ``api_action`` after another.

:func:`execute_low_actions` steps ``plan.low_actions[i].api_action`` in order, stops at the first
action that fails, keeps ALFRED's heated/cooled/cleaned bookkeeping (:class:`EffectTracker`) and
hands every event to an optional callback (the frame writer of ``alfred-gen replay``).

A failure is classified without ever raising on bad data:

``unknown_action``
    the action name is not one a trajectory may contain (:data:`REPLAYABLE_ACTIONS`); it is not sent.
``unknown_object``
    the action failed and an object id it names (``objectId``, ``receptacleObjectId``) is not in the
    scene at that moment.
``action_failed``
    the simulator refused the action for any other reason (not visible, too far, closed, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from alfred_gen.errors import VetReason
from alfred_gen.replay.goals import EffectTracker
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.event import head_of, state_metadata_of
from alfred_gen.traj.format import low_action_names

#: Actions a trajectory's low_actions may hold: ALFRED's twelve, plus the other agent moves and
#: interactions every backend implements. The list lives in the trajectory schema, so that
#: ``validate`` refuses what replay would refuse.
REPLAYABLE_ACTIONS = low_action_names()

#: Arguments of an api_action that name objects.
OBJECT_ARGS = ("objectId", "receptacleObjectId")

#: Called after each step sent to the simulator with (low_idx, api_action, event).
StepCallback = Callable[[int, Mapping[str, Any], Any], None]


@dataclass(frozen=True)
class StepFailure:
    """The first low action that did not succeed."""

    low_idx: int
    action: str
    target: str  # the objectId it names, "" if none
    reason: VetReason  # UNKNOWN_ACTION, UNKNOWN_OBJECT or ACTION_FAILED
    error: str  # one line

    def describe(self) -> str:
        """``low_idx 12 PickupObject Apple|...: <errorMessage>``."""
        what = f"{self.action} {self.target}".strip()
        return f"low_idx {self.low_idx} {what}: {self.error}"


@dataclass
class Execution:
    """What replaying the low actions gave: the last event, the effects, and the failures."""

    steps: int  # low actions sent to the simulator
    last_event: Any
    tracker: EffectTracker
    failures: list[StepFailure]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def failure(self) -> StepFailure | None:
        """The first failure (the one that matters: later steps ran in a state the file did not expect)."""
        return self.failures[0] if self.failures else None


def _one_line(text: Any) -> str:
    return " ".join(str(text).split()) or "failed"


def _action_name(api_action: Any) -> str:
    if isinstance(api_action, Mapping) and isinstance(api_action.get("action"), str):
        return api_action["action"]
    return ""


def _target(api_action: Mapping[str, Any]) -> str:
    for key in OBJECT_ARGS:
        if isinstance(api_action.get(key), str):
            return api_action[key]
    return ""


def _missing_object(api_action: Mapping[str, Any], metadata: Mapping[str, Any]) -> str | None:
    """The first object id the action names that the scene does not hold, if any."""
    named = [api_action[key] for key in OBJECT_ARGS if key in api_action]
    if not named:
        return None
    present = {o.get("objectId") for o in metadata.get("objects") or ()}
    for object_id in named:
        if not isinstance(object_id, str) or object_id not in present:
            return str(object_id)
    return None


def _classify(low_idx: int, name: str, api_action: Mapping[str, Any], metadata: Mapping[str, Any]) -> StepFailure:
    missing = _missing_object(api_action, metadata)
    if missing is not None:
        return StepFailure(
            low_idx, name, _target(api_action), VetReason.UNKNOWN_OBJECT, f"no object {missing} in the scene"
        )
    return StepFailure(
        low_idx, name, _target(api_action), VetReason.ACTION_FAILED, _one_line(metadata.get("errorMessage"))
    )


def execute_low_actions(
    controller: Controller,
    low_actions: Sequence[Mapping[str, Any]],
    start_event: Any,
    *,
    on_step: StepCallback | None = None,
    stop_on_failure: bool = True,
) -> Execution:
    """Step every ``api_action`` of ``low_actions`` on ``controller`` (already restored).

    ``start_event`` is the event after the restore (the tracker's starting state). ``on_step`` is
    called after every action sent, failed or not. By default execution stops at the first
    failure; with ``stop_on_failure=False`` it goes on (a failed action changes nothing) and
    collects every failing step, an unknown action being skipped. Never raises on bad data.
    """
    tracker = EffectTracker(start_event.metadata)
    event = start_event
    failures: list[StepFailure] = []
    sent = 0
    for low_idx, entry in enumerate(low_actions):
        api_action = entry.get("api_action") if isinstance(entry, Mapping) else None
        name = _action_name(api_action)
        if name not in REPLAYABLE_ACTIONS or not isinstance(api_action, Mapping):
            shown = name or repr(api_action)[:60]
            failures.append(
                StepFailure(
                    low_idx, shown, "", VetReason.UNKNOWN_ACTION, f"not an action a trajectory may hold: {shown}"
                )
            )
            if stop_on_failure:
                break
            continue
        event = controller.step(dict(api_action))
        sent += 1
        succeeded = bool(head_of(event).get("lastActionSuccess", False))
        if succeeded and any(key in api_action for key in OBJECT_ARGS):
            tracker.observe(api_action, state_metadata_of(event))  # states only: no visibility pixels
        if on_step is not None:
            on_step(low_idx, api_action, event)
        if not succeeded:
            failures.append(_classify(low_idx, name, api_action, event.metadata))
            if stop_on_failure:
                break
    return Execution(sent, event, tracker, failures)
