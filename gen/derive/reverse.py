"""The paper's reversal rule: walking back by undoing the recorded navigation, step by step.

ALFRED-L's expert for REV-1 / REV-n takes the agent back to an earlier destination by reversing
the navigation low actions recorded since it left that destination: first ``RotateRight`` twice
(turn around), then those navigation actions in reverse order with ``RotateLeft`` and
``RotateRight`` swapped and ``LookUp`` and ``LookDown`` swapped; interactions are skipped.

Why that works: after the half turn the agent faces backwards, so a ``MoveAhead`` undoes a
``MoveAhead`` (and each side or back step undoes itself), while a turn or a tilt is undone by its
opposite. The agent ends where it stood at the destination, facing the other way, with the camera
tilted as it was there. The paper's own example::

    MoveAhead, MoveAhead, PickupObject, RotateLeft, MoveAhead, LookDown
    -> RotateRight, RotateRight, LookUp, MoveAhead, RotateRight, MoveAhead, MoveAhead

A teleport cannot be undone by a step; :class:`NotReversibleError` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alfred_gen.demo.navigation import rotate_right
from alfred_gen.replay.record import LowAction

#: Navigation actions and the action that undoes each once the agent has turned around.
UNDO_AFTER_TURNING: dict[str, str] = {
    "MoveAhead": "MoveAhead",
    "MoveBack": "MoveBack",
    "MoveLeft": "MoveLeft",
    "MoveRight": "MoveRight",
    "RotateLeft": "RotateRight",
    "RotateRight": "RotateLeft",
    "LookUp": "LookDown",
    "LookDown": "LookUp",
}

#: Actions that move the agent but that no single step undoes.
NOT_REVERSIBLE = frozenset({"Teleport", "TeleportFull"})


class NotReversibleError(ValueError):
    """A navigation action the reversal rule cannot undo (a teleport)."""


def is_navigation(action: str) -> bool:
    """Whether an api action name moves, turns or tilts the agent (everything else is skipped)."""
    return action in UNDO_AFTER_TURNING or action in NOT_REVERSIBLE


def reverse_action_names(actions: Sequence[str], *, turn_around: bool = True) -> list[str]:
    """The rule on action names: ``turn_around`` prepends the two ``RotateRight``; interactions
    are dropped. NotReversibleError for a teleport."""
    out = ["RotateRight", "RotateRight"] if turn_around else []
    for name in reversed(actions):
        if name in NOT_REVERSIBLE:
            raise NotReversibleError(f"{name} cannot be undone by a step")
        if name in UNDO_AFTER_TURNING:
            out.append(UNDO_AFTER_TURNING[name])
    return out


def _undo_entry(entry: Mapping[str, Any], high_idx: int) -> LowAction:
    """The low action undoing one recorded navigation entry: its own api_action with the name
    swapped (so its other arguments, ``forceAction``, ``moveMagnitude``, stay as recorded), and
    ALFRED's discrete name swapped the same way (``RotateLeft_90`` -> ``RotateRight_90``)."""
    api = dict(entry["api_action"])
    name = api["action"]
    undo = UNDO_AFTER_TURNING[name]
    api["action"] = undo
    discrete = str(entry["discrete_action"]["action"])
    prefix, sep, suffix = discrete.partition("_")
    discrete = UNDO_AFTER_TURNING[prefix] + sep + suffix if prefix in UNDO_AFTER_TURNING else undo
    return LowAction(high_idx, api, discrete)


def reverse_low_actions(
    entries: Sequence[Mapping[str, Any]], high_idx: int, *, turn_around: bool = True
) -> list[LowAction]:
    """The rule on ``plan.low_actions`` entries: the low actions walking back over ``entries``,
    all under ``high_idx``. ``turn_around`` starts with the half turn (the first walk back;
    a further walk back continues facing backwards). NotReversibleError for a teleport."""
    out: list[LowAction] = []
    if turn_around:
        out += [LowAction(high_idx, turn.api_action, turn.discrete) for turn in (rotate_right(), rotate_right())]
    for entry in reversed(entries):
        name = entry["api_action"]["action"]
        if name in NOT_REVERSIBLE:
            raise NotReversibleError(f"{name} cannot be undone by a step")
        if name in UNDO_AFTER_TURNING:
            out.append(_undo_entry(entry, high_idx))
    return out
