"""End to end: generate -> save -> `alfred-gen verify` passes, for each of the seven task types;
and replaying a generated trajectory reproduces its frames byte for byte.

Generation records with a simulator that renders frames and instance masks; vetting and `verify`
ask for no frames. lite's visibility comes from its segmentation render either way, so what they
check (every action succeeds, the goal holds) is the same simulator verdict.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from tests.helpers import replay_scripts as scripts

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

ALFRED_GEN = [sys.executable, "-c", "from alfred_gen.cli import main; main()"]

TASK_SCENES = scripts.TASK_SCENES


def _generate_one(task_type: str, out: Path, frames: bool) -> Path:
    """The first (tuple, seed) of this task type that generates; fails if none of a few does."""
    path, tried = scripts.generate_example(task_type, out, frames)
    if path is None:
        pytest.fail(f"no {task_type} trajectory generated:\n" + "\n".join(tried))
    return path


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    for task_type in TASK_SCENES:
        _generate_one(task_type, out, frames=False)
    return out


def test_every_task_type_generates_and_verifies(generated):
    folders = sorted(p.parent.parent.name.split("-")[0] for p in generated.rglob("traj_data.json"))
    assert folders == sorted(TASK_SCENES)
    run = subprocess.run([*ALFRED_GEN, "verify", str(generated), "--jobs", "2"], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    assert run.stdout.strip().splitlines()[-1].startswith("7 ok, 0 failed")


def test_generated_trajectories_pass_validate(generated):
    run = subprocess.run([*ALFRED_GEN, "validate", str(generated)], capture_output=True, text=True, timeout=300)
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr


def test_replay_reproduces_generated_frames_byte_identically(tmp_path):
    from alfred_gen.replay.rerender import replay_to_directory
    from alfred_gen.traj.format import load_trajectory

    trial = _generate_one("pick_heat_then_place_in_recep", tmp_path / "gen", frames=True)
    recorded = sorted((trial / "raw_images").iterdir())
    assert recorded
    traj = load_trajectory(trial / "traj_data.json")
    outcome = replay_to_directory(traj, tmp_path / "replayed", scripts.rendering_controller(), depth=True, seg=True)
    assert outcome.ok
    replayed = sorted((tmp_path / "replayed" / "raw_images").iterdir())
    assert [p.name for p in replayed] == [p.name for p in recorded]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(recorded, replayed))
