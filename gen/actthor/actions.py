"""ACT-Thor's twelve actions: which trial each belongs to, what an object needs for it, how it is sent.

The paper tried fifteen actions and kept twelve ("use up", "slice" and "cook" applied to only one
object each). An object is tried **held** (drop, throw, put it on the surface) and **placed** on the
surface (pick it up, push it away, pull it closer); in both trials every action its type affords
(open, close, toggle, dirty, fill, break) is tried too. Open and close are both tried whatever
state the object is in, as in the paper: the one that cannot happen fails and is cleaned away.

Interactions are sent with ``forceAction`` (the object may be in the agent's hand, which THOR's
reach check does not cover); the put is sent as ALFRED sends it. Forces follow the paper's ratio
of push to pull (150 : 60 per kilogram); lite moves the object by force over its mass, with
friction, until it rests or hits something (:mod:`alfred_gen.sim.forces`), so the distance varies
by object: a 0.24 kg mug pushed with 100 N slides to whatever stops it, a 2.9 kg pot 4 cm.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The two trials of every object.
HELD, PLACED = "held", "placed"
TRIALS = (HELD, PLACED)

#: Forces, newtons (see the module docstring).
THROW_FORCE = 100.0
PUSH_FORCE = 100.0
PULL_FORCE = 40.0
#: What FillObjectWithLiquid pours.
LIQUID = "water"


@dataclass(frozen=True)
class ActThorAction:
    """One action: its name in the data, its trial (None: both), and the object flag it needs."""

    name: str
    trial: str | None
    requires: str | None = None


#: The twelve actions, in the order they are tried.
ACTIONS: tuple[ActThorAction, ...] = (
    ActThorAction("drop", HELD),
    ActThorAction("throw", HELD),
    ActThorAction("put", HELD),
    ActThorAction("pickup", PLACED),
    ActThorAction("push", PLACED),
    ActThorAction("pull", PLACED),
    ActThorAction("open", None, "openable"),
    ActThorAction("close", None, "openable"),
    ActThorAction("toggle", None, "toggleable"),
    ActThorAction("dirty", None, "dirtyable"),
    ActThorAction("fill", None, "canFillWithLiquid"),
    ActThorAction("break", None, "breakable"),
)
ACTION_NAMES = tuple(a.name for a in ACTIONS)


def actions_for(trial: str, obj: Mapping[str, Any]) -> list[str]:
    """The actions tried on an object (its metadata) in a trial."""
    return [
        a.name for a in ACTIONS
        if a.trial in (None, trial) and (a.requires is None or bool(obj.get(a.requires)))
    ]


def api_actions(action: str, obj: Mapping[str, Any], surface_id: str) -> list[dict[str, Any]]:
    """The simulator actions (THOR's names) that perform ``action`` on ``obj`` (its metadata now)."""
    object_id = obj["objectId"]
    force = {"objectId": object_id, "forceAction": True}
    if action == "drop":
        return [{"action": "DropHandObject", "forceAction": True}]
    if action == "throw":
        return [{"action": "ThrowObject", "moveMagnitude": THROW_FORCE, "forceAction": True}]
    if action == "put":
        return [{"action": "PutObject", "objectId": object_id, "receptacleObjectId": surface_id,
                 "forceAction": True, "placeStationary": True}]
    if action == "pickup":
        return [{"action": "PickupObject", "objectId": object_id}]
    if action in ("push", "pull"):
        force_n, angle = (PUSH_FORCE, 0.0) if action == "push" else (PULL_FORCE, 180.0)
        return [{"action": "DirectionalPush", "objectId": object_id, "moveMagnitude": force_n, "pushAngle": angle}]
    if action == "open":
        return [{"action": "OpenObject", **force}]
    if action == "close":
        return [{"action": "CloseObject", **force}]
    if action == "toggle":
        return [{"action": "ToggleObjectOff" if obj.get("isToggled") else "ToggleObjectOn", **force}]
    if action == "dirty":
        return [{"action": "DirtyObject", **force}]
    if action == "fill":
        return [{"action": "FillObjectWithLiquid", "fillLiquid": LIQUID, **force}]
    if action == "break":
        return [{"action": "BreakObject", **force}]
    raise ValueError(f"unknown ACT-Thor action {action!r}")


#: Actions that look alike and never share a contrast set (the paper's rule).
OPPOSITES: dict[str, str] = {"put": "throw", "throw": "put", "push": "pull", "pull": "push"}
