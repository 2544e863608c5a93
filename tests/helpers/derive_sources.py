"""A source trajectory for ``alfred-gen derive`` tests: walks and interactions in subgoals.

The fixture kitchen's heat-a-mug script (:mod:`tests.helpers.replay_scripts`) cut into ALFRED's
subgoals: pick the mug up where the agent starts, walk 2 m to the microwave, heat the mug, walk
back 2 m to the counter and put it down. So the microwave is an earlier destination 2 m from the
end (REV-1 applies at ALFRED-L's 1.25 m, not at 2.5 m) and the only one (REV-n never applies).
Two human-like annotations and a template go with it, one line per subgoal.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.traj.format import TRAJ_FILE_NAME, save_trajectory, trajectory_dir_name_for
from tests.helpers.replay_scripts import COUNTER, MICROWAVE, MUG, SCENE, START, act
from tests.helpers.scripted import DISCRETE_NAMES, images_index, scripted_trajectory

#: The subgoals: (discrete action, args, api actions).
SUBGOALS: list[tuple[str, list[str], list[dict[str, Any]]]] = [
    ("PickupObject", ["mug"], [act("PickupObject", objectId=MUG)]),
    ("GotoLocation", ["microwave"],
     [act("RotateLeft"), *[act("MoveAhead")] * 8, act("RotateRight"), act("LookUp"), act("LookUp")]),
    ("HeatObject", ["mug"], [
        act("OpenObject", objectId=MICROWAVE), act("PutObject", objectId=MUG, receptacleObjectId=MICROWAVE),
        act("CloseObject", objectId=MICROWAVE), act("ToggleObjectOn", objectId=MICROWAVE),
        act("ToggleObjectOff", objectId=MICROWAVE), act("OpenObject", objectId=MICROWAVE),
        act("PickupObject", objectId=MUG), act("CloseObject", objectId=MICROWAVE)]),
    ("GotoLocation", ["countertop"],
     [act("RotateRight"), *[act("MoveAhead")] * 8, act("RotateLeft"), act("LookDown"), act("LookDown")]),
    ("PutObject", ["mug", "countertop"], [act("PutObject", objectId=MUG, receptacleObjectId=COUNTER)]),
]

#: Where the agent ends (it starts and ends at the counter) and where the microwave walk ends.
END_XZ = (0.0, 1.5)
MICROWAVE_XZ = (-2.0, 1.5)

ANNOTATIONS = [
    {"assignment_id": "A1", "task_desc": "Heat a mug and put it back on the counter.", "votes": [1],
     "high_descs": ["Pick up the mug in front of you.", "Turn left and walk forward to the microwave.",
                    "Heat the mug in the microwave.", "Turn around, then walk to the counter on the right.",
                    "Put the mug on the counter."]},
    {"assignment_id": "A2", "task_desc": "Put a warm mug on the counter.", "votes": [1],
     "high_descs": ["Take the mug.", "Go to the microwave.", "Warm the mug up.", "Go back to the counter.",
                    "Place the mug down."]},
]


def walk_source(task_id: str = "trial_T20000101_000000_000001") -> dict[str, Any]:
    """The source trajectory (a dict; see the module docstring)."""
    traj = scripted_trajectory(SCENE, TaskSpec("pick_heat_then_place_in_recep", "Mug", "CounterTop"),
                               [], START, task_id=task_id)
    high_pddl, low_actions = [], []
    for high_idx, (action, args, apis) in enumerate(SUBGOALS):
        planner: dict[str, Any] = {"action": action}
        if action == "GotoLocation":
            planner["location"] = "loc|0|0|0|0"
        high_pddl.append({"high_idx": high_idx, "planner_action": planner,
                          "discrete_action": {"action": action, "args": args}})
        for api in apis:
            low_actions.append({"high_idx": high_idx, "api_action": dict(api),
                                "discrete_action": {"action": DISCRETE_NAMES.get(api["action"], api["action"]),
                                                    "args": {}}})
    high_pddl.append({"high_idx": len(SUBGOALS), "planner_action": {"action": "End", "value": 1},
                      "discrete_action": {"action": "NoOp", "args": []}})
    traj["plan"] = {"high_pddl": high_pddl, "low_actions": low_actions}
    traj["images"] = images_index(low_actions)
    traj["template"] = {"task_desc": "Put a hot mug on the counter.",
                        "high_descs": [f"Template step {i}." for i in range(len(SUBGOALS))]}
    traj["turk_annotations"] = {"anns": copy.deepcopy(ANNOTATIONS)}
    return traj


def write_source(root: Path, traj: dict[str, Any] | None = None) -> Path:
    """Write a source in ALFRED's layout under ``root``; its traj_data.json path."""
    traj = traj if traj is not None else walk_source()
    path = root / trajectory_dir_name_for(traj) / traj["task_id"] / TRAJ_FILE_NAME
    save_trajectory(traj, path)
    return path
