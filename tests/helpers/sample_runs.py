"""Runs of `alfred-gen sample` with a stand-in generator, and checks of the trees they write.

The stand-in writes a small trajectory the way generate_trajectory does (a hidden temp dir, then
one rename) and fails some seeds, so the run's bookkeeping (schedule, resume, executors) is tested
in seconds. Used by the local-pool tests and the Ray executor's tests alike.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from alfred_gen.atomic import AlreadyCommitted, committing_dir
from alfred_gen.sample.disk_state import scan_tree
from alfred_gen.sample.feasibility import TaskTuple, why_infeasible
from alfred_gen.sample.options import SampleOptions
from alfred_gen.traj.frames import frame_entries
from alfred_gen.traj.scene_nums import scene_num_for
from tests.helpers.trajectories import make_trajectory

KILL_N = 12  # trials in the runs that are killed and resumed

SCENES = (1, 2, 3, 201, 202, 301, 302, 401, 402)


@dataclass
class StandInResult:
    ok: bool
    reason: str
    path: Path | None = None
    detail: str = ""


def stand_in_generate(task, scene, seed, out_root, trial_id, frames=True, **_):
    """Writes as generate_trajectory does, through :func:`alfred_gen.atomic.committing_dir` (a
    staging directory, half-written while it sleeps, that a killed attempt's rerun starts afresh;
    then one rename); fails the seeds divisible by 4 (STAND_IN_FAIL_EVERY)."""
    scene = scene_num_for(scene) or int(scene)  # what generate_trajectory records for the room named
    final = Path(out_root) / task.dir_name(scene) / trial_id
    if final.exists():
        return StandInResult(False, "exists", final)
    if os.environ.get("STAND_IN_RAISE"):
        raise RuntimeError("stand-in crash")
    if int(seed) % int(os.environ.get("STAND_IN_FAIL_EVERY", "4")) == 0:
        time.sleep(float(os.environ.get("STAND_IN_SLEEP", "0")) / 2)
        return StandInResult(False, "unsolvable", None, "stand-in failure")
    try:
        with committing_dir(final) as temp:
            _stage(temp, task, scene, seed, trial_id)
    except AlreadyCommitted:
        return StandInResult(False, "exists", final)
    return StandInResult(True, "ok", final)


def _stage(temp: Path, task, scene: int, seed, trial_id: str) -> None:
    """The trial's files, in its staging directory."""
    (temp / "raw_images").mkdir()
    data = make_trajectory()  # valid: a resumed run checks what it keeps as `validate` does
    for i, entry in enumerate(frame_entries(data)):  # the listed frames and the final, unlisted one
        (temp / "raw_images" / f"{entry.stem}.jpg").write_bytes(_frame(int(seed), i))
        if i == 0:
            time.sleep(float(os.environ.get("STAND_IN_SLEEP", "0")))  # a job in flight: half written
            if not os.environ.get("STAND_IN_DIE_LATE"):
                _die_if_asked(trial_id)
            if os.environ.get("STAND_IN_OSERROR"):  # a full disk (or another write error) mid-trial
                code = int(os.environ["STAND_IN_OSERROR"])
                raise OSError(code, os.strerror(code), str(temp / "raw_images" / f"{i + 1:09d}.jpg"))
    (temp / "pddl_states").mkdir()
    (temp / "pddl_states" / "problem_0.pddl").write_text(f"(define (problem stand-in-{seed}))\n")
    data.update(task_id=trial_id, task_type=task.task_type, pddl_params=task.pddl_params())
    data["scene"].update(scene_num=int(scene), random_seed=int(seed), floor_plan=f"FloorPlan{int(scene)}")
    (temp / "traj_data.json").write_text(json.dumps(data, sort_keys=True))
    if os.environ.get("STAND_IN_DIE_LATE"):  # staged whole, killed just before the commit
        _die_if_asked(trial_id)


def _frame(seed: int, index: int) -> bytes:
    """A small JPEG whose pixels depend on (seed, index) (Pillow's encoder is deterministic)."""
    shade = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), tuple(shade[:3])).save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def _die_if_asked(trial_id: str) -> None:
    """With STAND_IN_DIE_DIR set, each job kills its own worker process (SIGKILL, half written) the
    first STAND_IN_DIE_TIMES times it runs: counted in a file per trial in that directory. With
    STAND_IN_DIE_LATE set, the death comes when the staging directory is whole, just before the rename."""
    where = os.environ.get("STAND_IN_DIE_DIR")
    if not where:
        return
    counter = Path(where) / trial_id
    with open(counter, "a") as tally:
        tally.write("x")
    if counter.stat().st_size <= int(os.environ.get("STAND_IN_DIE_TIMES", "3")):
        os.kill(os.getpid(), signal.SIGKILL)


def options(out: Path, n: int, **kw) -> SampleOptions:
    kw.setdefault("scenes", SCENES)
    return SampleOptions(n=n, out=out, **kw)


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under root, lock files aside (they only say that a run once held the directory),
    and the stamps of checked trials (file sizes and times: this machine's, not the dataset's)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.name.startswith(("lock-", "checked-")) and p.name != "failures.lock"}


def check_tree(root: Path, n: int, demos: int = 3) -> dict[TaskTuple, list[str]]:
    """Exactly n complete trajectories, no partial ones, no temp dirs, at most `demos` per tuple."""
    tree = scan_tree(root)
    assert not tree.incomplete
    assert not [p for p in root.iterdir() if p.name.startswith(".tmp-")]
    trials = [t for names in tree.trials.values() for t in names]
    assert len(trials) == n
    assert len(set(trials)) == n
    for task, names in tree.trials.items():
        assert why_infeasible(task) is None
        assert len(names) <= demos
        for name in names:
            data = json.loads((root / task.dir_name() / name / "traj_data.json").read_text())
            assert data["task_id"] == name
    return tree.trials


# Runs in a process of their own


def start_run(out: Path, n: int, shard: str | None = None, workers: int = 1,
              env: dict[str, str] | None = None) -> subprocess.Popen:
    """A stand-in run through the CLI in a process of its own. It takes Ctrl-C as a terminal gives
    it even when pytest runs in the background, where SIGINT is ignored and children inherit that."""
    from tests.helpers import python_env

    code = (
        "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
        "import tests.helpers.sample_runs as t; import alfred_gen.sample.run as r; "
        "r._default_generate = lambda: t.stand_in_generate; from alfred_gen.cli import main; "
        "main(['sample', '--out', sys.argv[1], '--n', sys.argv[2], '--workers', sys.argv[3], '--seed', '9', "
        "'--scenes', ','.join(map(str, t.SCENES))] + sys.argv[4:])"
    )
    extra = ["--shard", shard] if shard else []
    command = [sys.executable, "-c", code, str(out), str(n), str(workers), *extra]
    return subprocess.Popen(command, env=python_env(env), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(process: subprocess.Popen, ready, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert process.poll() is None, f"the run ended before {what}: " + process.stderr.read().decode()
        assert time.monotonic() < deadline, f"no {what}"
        time.sleep(0.02)


def count_trials(out: Path) -> int:
    try:
        return len(list(out.glob("*/trial_*/traj_data.json")))
    except OSError:  # a directory renamed while we looked
        return 0


def finish(process: subprocess.Popen, timeout: float = 240) -> tuple[int, str]:
    """The exit code and what the run printed."""
    stdout = process.communicate(timeout=timeout)[0]
    return process.returncode, (stdout or b"").decode()
