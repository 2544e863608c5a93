"""A trajectory from a hand-written list of simulator actions, for tests and benchmarks of replay.

The real generator plans and expands a task; this builds the same file format around actions a
person wrote, so replay, vetting and ``verify`` can be exercised on fixture scenes without the
planner. The start state is the scene as loaded (its objects' poses become ``object_poses``), the
high-level plan is one ``Scripted`` step plus ALFRED's closing ``End``, and the ``images`` follow
the recorder's convention (:mod:`alfred_gen.replay.record`): the frame before each low action, plus
one after the last. It does not check that the actions succeed: that is what vetting is for.
(``object_poses`` come from :func:`alfred_gen.demo.start.object_poses_of`, as the generator's do.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from alfred_gen.demo.start import object_poses_of
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.frames import images_index

#: ALFRED's discrete names of navigation actions (interactions keep their api name).
DISCRETE_NAMES = {
    "MoveAhead": "MoveAhead_25",
    "RotateLeft": "RotateLeft_90",
    "RotateRight": "RotateRight_90",
    "LookUp": "LookUp_15",
    "LookDown": "LookDown_15",
}


def scripted_trajectory(
    scene_name: str,
    task: TaskSpec,
    actions: Sequence[Mapping[str, Any]],
    start: Mapping[str, Any],
    *,
    controller_factory: Callable[[], Any] | None = None,
    task_id: str = "trial_T20000101_000000_000000",
) -> dict[str, Any]:
    """A traj_data.json dict: ``actions`` (api_action dicts) from the agent pose ``start``.

    ``start`` is the ``TeleportFull`` init_action. ``controller_factory`` gives the simulator used
    to read the scene's initial object poses (default: lite with the scene library).
    """
    controller = controller_factory() if controller_factory is not None else simulator().open()
    first = controller.reset(scene_name)
    metadata = first.metadata
    scene = getattr(controller, "scene", None)
    scene_num = int(getattr(scene, "scene_num", 0))
    low_actions = [
        {
            "high_idx": 0,
            "api_action": dict(action),
            "discrete_action": {"action": DISCRETE_NAMES.get(action["action"], action["action"]), "args": {}},
        }
        for action in actions
    ]
    return {
        "task_id": task_id,
        "task_type": task.task_type,
        "pddl_params": task.pddl_params(),
        "scene": {
            "floor_plan": scene_name,
            "scene_num": scene_num,
            "random_seed": 0,
            "init_action": dict(start),
            "object_poses": object_poses_of(metadata),
            "object_toggles": [],
            "dirty_and_empty": False,
        },
        "plan": {
            "high_pddl": [
                {"high_idx": 0, "planner_action": {"action": "Scripted"},
                 "discrete_action": {"action": "Scripted", "args": []}},
                {"high_idx": 1, "planner_action": {"action": "End", "value": 1},
                 "discrete_action": {"action": "NoOp", "args": []}},
            ],
            "low_actions": low_actions,
        },
        "images": images_index(low_actions),
        "template": {"task_desc": f"scripted: {task.describe()}", "high_descs": ["scripted", "end"]},
    }
