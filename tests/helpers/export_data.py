"""Small datasets for the video and view tests, made once per test session.

Three generated trajectories of different task types, with frames and PDDL problems, under one
root in ALFRED's layout (made with the real generator, a few seconds in all); and, with the ALFRED
reference data, a catalogue of the imported rooms so released demos replay in lite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.helpers import replay_scripts as scripts

#: Task types of the small dataset: a kitchen heat task, a simple place, a living-room lamp task.
TASK_TYPES = ("pick_heat_then_place_in_recep", "pick_and_place_simple", "look_at_obj_in_light")

ALFRED_GEN = [sys.executable, "-c", "from alfred_gen.cli import main; main()"]

_made: dict[str, Path] = {}


def small_dataset(base: Path) -> Path:
    """A root holding one generated trajectory (with frames) of each of TASK_TYPES; made once."""
    if "small" not in _made:
        root = base / "small-dataset"
        for task_type in TASK_TYPES:
            path, tried = scripts.generate_example(task_type, root, frames=True)
            if path is None:
                raise AssertionError(f"no {task_type} trajectory generated:\n" + "\n".join(tried))
        _made["small"] = root
    return _made["small"]


def trial_of(root: Path, task_type: str) -> Path:
    """The trial directory of ``task_type`` under a small dataset."""
    return next(path.parent for path in sorted(root.rglob("traj_data.json"))
                if path.parent.parent.name.startswith(task_type + "-"))


def alfred_catalogue(alfred_data: Path, base: Path) -> Path:
    """The ALFRED rooms imported into a catalogue file (``alfred-gen scenes import-alfred``); made once."""
    if "catalogue" not in _made:
        out = base / "alfred-catalogue.json"
        run = subprocess.run([*ALFRED_GEN, "scenes", "import-alfred", str(alfred_data), "--out", str(out)],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise AssertionError(run.stdout + run.stderr)
        _made["catalogue"] = out
    return _made["catalogue"]


def run_cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``alfred-gen ARGS`` in a fresh process (its exit code and output)."""
    return subprocess.run([*ALFRED_GEN, *args], capture_output=True, text=True, timeout=timeout)
