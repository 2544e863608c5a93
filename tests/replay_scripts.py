"""Hand-written trajectories on the fixture kitchen, shared by the replay tests and bench/replay.py.

Each is a real, replayable traj_data.json built by :func:`alfred_gen.replay.scripted.scripted_trajectory`
(``LiteFixtureKitchen`` resolves by name in replay, so the CLI can replay these files too).
"""

from __future__ import annotations

from typing import Any

import copy

from alfred_gen.replay.scripted import images_index, scripted_trajectory
from alfred_gen.tasks import TaskSpec

SCENE = "LiteFixtureKitchen"
MUG = "Mug|00.00|+00.95|+02.10"
MICROWAVE = "Microwave|-02.00|+00.90|+02.23"
COUNTER = "CounterTop|-00.70|00.00|+02.20"
START = {"action": "TeleportFull", "x": 0.0, "y": 0.9009997, "z": 1.5, "rotation": 0, "horizon": 30,
         "rotateOnTeleport": True}


def act(name: str, **args: Any) -> dict[str, Any]:
    return {"action": name, **args}


def heat_mug_actions() -> list[dict[str, Any]]:
    """Take the mug from the counter, heat it in the microwave, put it back on the counter."""
    return [
        act("PickupObject", objectId=MUG), act("RotateLeft"), *[act("MoveAhead")] * 8,
        act("RotateRight"), act("LookUp"), act("LookUp"),
        act("OpenObject", objectId=MICROWAVE),
        act("PutObject", objectId=MUG, receptacleObjectId=MICROWAVE),
        act("CloseObject", objectId=MICROWAVE),
        act("ToggleObjectOn", objectId=MICROWAVE),
        act("ToggleObjectOff", objectId=MICROWAVE),
        act("OpenObject", objectId=MICROWAVE),
        act("PickupObject", objectId=MUG),
        act("CloseObject", objectId=MICROWAVE),
        act("RotateRight"), *[act("MoveAhead")] * 4, act("RotateLeft"), act("LookDown"), act("LookDown"),
        act("PutObject", objectId=MUG, receptacleObjectId=COUNTER),
    ]


#: Index of the OpenObject before the first PutObject into the microwave.
OPEN_MICROWAVE_IDX = 13


def heat_mug_trajectory() -> dict[str, Any]:
    """pick_heat_then_place_in_recep (Mug -> CounterTop) on the fixture kitchen: replays and succeeds."""
    return scripted_trajectory(SCENE, TaskSpec("pick_heat_then_place_in_recep", "Mug", "CounterTop"),
                               heat_mug_actions(), START)


def without_action(traj: dict[str, Any], low_idx: int) -> dict[str, Any]:
    """A copy of ``traj`` with one low action deleted (and its ``images`` index redone)."""
    broken = copy.deepcopy(traj)
    del broken["plan"]["low_actions"][low_idx]
    broken["images"] = images_index(broken["plan"]["low_actions"])
    return broken
