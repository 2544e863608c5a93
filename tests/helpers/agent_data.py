"""Trajectories for the environment and evaluation tests, made once per test session.

Two generated trajectories (a kitchen heat task and a bedroom lamp task) under one root in ALFRED's
layout, with two annotations each so that episodes are (trajectory, annotation) pairs as in ALFRED.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import replay_scripts as scripts

TASK_TYPES = ("pick_heat_then_place_in_recep", "look_at_obj_in_light")

_made: dict[str, Path] = {}


def agent_dataset(base: Path) -> Path:
    """A root with one trajectory of each of TASK_TYPES, two annotations each; made once."""
    if "root" not in _made:
        root = base / "agent-dataset"
        for n, task_type in enumerate(TASK_TYPES):
            path, tried = scripts.generate_example(task_type, root, frames=False)
            if path is None:
                raise AssertionError(f"no {task_type} trajectory generated:\n" + "\n".join(tried))
            trial = Path(path).with_name(f"trial_T2019010{n}_000000_00000{n}")  # task ids unique, as ALFRED's
            Path(path).rename(trial)
            traj_file = trial / "traj_data.json"
            traj = json.loads(traj_file.read_text())
            traj["task_id"] = trial.name
            template = traj.get("template") or {}
            anns = [{"assignment_id": f"test{i}", "task_desc": f"{template.get('task_desc', 'do it')} ({i})",
                     "high_descs": list(template.get("high_descs") or ["step"]), "votes": [1, 1]}
                    for i in range(2)]
            traj["turk_annotations"] = {"anns": anns}
            traj_file.write_text(json.dumps(traj))
        _made["root"] = root
    return _made["root"]


def trajectory_files(root: Path) -> list[Path]:
    return sorted(root.rglob("traj_data.json"))
