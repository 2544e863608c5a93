"""Hand-written trajectories on the fixture kitchen, shared by the replay tests and bench/replay.py.

Each is a real, replayable traj_data.json built by :func:`tests.helpers.scripted.scripted_trajectory`
(``LiteFixtureKitchen`` resolves by name in replay, so the CLI can replay these files too).
"""

from __future__ import annotations

import copy
from typing import Any

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.scenes.library import find_scene, simulator
from alfred_gen.sim.controller import Controller
from alfred_gen.traj.frames import images_index
from tests.helpers.scripted import scripted_trajectory

SCENE = "LiteFixtureKitchen"


def _fixture_id(object_type: str) -> str:
    """The id of the fixture kitchen's only object of a type (ids follow the id format's rules)."""
    (object_id,) = [o.object_id for o in find_scene(SCENE).objects if o.object_type == object_type]
    return object_id


MUG = _fixture_id("Mug")
MICROWAVE = _fixture_id("Microwave")
COUNTER = _fixture_id("CounterTop")
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


def rendering_controller() -> Controller:
    """A lite controller giving RGB, depth and instance segmentation, with the scene library."""
    return simulator().open(render=True, depth=True, segmentation=True)


#: Task type -> procedural scenes to look for a feasible tuple in (room types ALFRED uses for it).
TASK_SCENES = {
    "pick_and_place_simple": (1, 2),
    "pick_two_obj_and_place": (1, 2),
    "look_at_obj_in_light": (201, 301),
    "pick_clean_then_place_in_recep": (1, 2),
    "pick_heat_then_place_in_recep": (1, 2),
    "pick_cool_then_place_in_recep": (1, 2),
    "pick_and_place_with_movable_recep": (1, 2),
}


def generate_example(task_type: str, out: Any, frames: bool) -> tuple[Any, list[str]]:
    """Generate one trajectory of ``task_type`` under ``out`` with the real generator.

    Tries a few feasible tuples and seeds; returns (trial directory or None, what was tried).
    """
    from alfred_gen.demo import generate
    from alfred_gen.sample import feasibility

    tuples = feasibility.feasible_tuples([task_type], TASK_SCENES[task_type])
    tried = []
    for n, t in enumerate(tuples[:: max(1, len(tuples) // 4)][:4]):
        for seed in range(4):
            result = generate.generate_trajectory(
                t.to_task_spec(), t.scene, seed, out, f"trial_T{n}_{seed}", controller=rendering_controller(),
                frames=frames, time_limit=30)
            if result.ok:
                return result.path, tried
            tried.append(f"{t.dir_name()} seed {seed}: {result.describe()}")
    return None, tried
