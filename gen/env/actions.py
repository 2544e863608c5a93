"""The action vocabularies of the environment's three modes, and ALFRED's low-level API calls.

Low-level modes (``mask`` and ``object_id``) share ALFRED's thirteen discrete actions, in the order
of :data:`LOW_ACTIONS` (the index is the ``action`` of a Gymnasium action); ALFRED's discrete names
with their step sizes (``MoveAhead_25``, ``RotateLeft_90``, ``LookDown_15``) and its ``<<stop>>``
token are accepted as well. The ``high_level`` mode has ALFRED's eight high-level PDDL actions plus
``Stop`` (:data:`HIGH_ACTIONS`).

:func:`low_api_action` builds the simulator call for one discrete action and a target, as ALFRED's
``env/thor_env.py`` ``to_thor_api_exec`` does (navigation forced, ``OpenObject`` with
``moveMagnitude`` 1, ``PutObject`` into the target receptacle with ``forceAction`` and
``placeStationary``, ``SliceObject`` only with a knife in hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: ALFRED's low-level actions (the order of the discrete action index).
LOW_ACTIONS = (
    "MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown",
    "PickupObject", "PutObject", "OpenObject", "CloseObject",
    "ToggleObjectOn", "ToggleObjectOff", "SliceObject", "Stop",
)

#: The low-level actions that act on an object (they need a mask or an object id).
INTERACTIONS = frozenset(LOW_ACTIONS[5:12])

#: ALFRED's high-level actions, plus Stop (the order of the discrete action index).
HIGH_ACTIONS = (
    "GotoLocation", "PickupObject", "PutObject", "HeatObject", "CoolObject", "CleanObject",
    "SliceObject", "ToggleObject", "Stop",
)

#: Other spellings of Stop: ALFRED's token and the high-level plan's closing step.
STOP_WORDS = frozenset({"Stop", "<<stop>>", "End", "NoOp"})

#: ALFRED's message when SliceObject is asked for without a knife in hand.
NO_KNIFE = "Agent should be holding a knife before slicing."


class BadAction(ValueError):
    """An action outside the mode's action space (one line why)."""


def action_name(action: Any, vocabulary: tuple[str, ...]) -> str:
    """The action's name in ``vocabulary``: an index, a name, or ALFRED's discrete spelling
    (``MoveAhead_25``, ``<<stop>>``). Raises BadAction otherwise."""
    if isinstance(action, (int,)) or (hasattr(action, "dtype") and getattr(action, "ndim", 1) == 0
                                      and getattr(action.dtype, "kind", "") in "iu"):
        index = int(action)
        if 0 <= index < len(vocabulary):
            return vocabulary[index]
        raise BadAction(f"action index {index} is not in 0..{len(vocabulary) - 1}")
    if isinstance(action, str):
        if action in STOP_WORDS:
            return "Stop"
        name = action.split("_", 1)[0] if action not in vocabulary else action
        if name in vocabulary:
            return name
        raise BadAction(f"unknown action {action!r} (one of {', '.join(vocabulary)})")
    raise BadAction(f"an action is an index or a name, got {type(action).__name__}")


def low_api_action(name: str, object_id: str = "") -> dict[str, Any]:
    """The simulator call of a low-level action (ALFRED's ``to_thor_api_exec``)."""
    if name == "MoveAhead":
        return {"action": "MoveAhead", "forceAction": True, "moveMagnitude": 0.25}
    if name in ("RotateLeft", "RotateRight", "LookUp", "LookDown"):
        return {"action": name, "forceAction": True}
    if name == "OpenObject":
        return {"action": "OpenObject", "objectId": object_id, "moveMagnitude": 1.0}
    if name == "CloseObject":
        return {"action": "CloseObject", "objectId": object_id, "forceAction": True}
    if name == "PutObject":
        return {"action": "PutObject", "objectId": object_id, "forceAction": True, "placeStationary": True}
    if name in INTERACTIONS:
        return {"action": name, "objectId": object_id}
    raise BadAction(f"{name} is not a low-level action")


def holds_knife(metadata: Mapping[str, Any]) -> bool:
    """Whether the agent holds a knife (ALFRED checks ``'Knife' in objectType``)."""
    held = list(metadata.get("inventoryObjects") or ())
    return bool(held) and "Knife" in str(held[0].get("objectType", ""))
