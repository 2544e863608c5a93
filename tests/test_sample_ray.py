"""`alfred-gen sample --executor ray`: the same tree as the local executor, and faults survived.

On a Ray started by the tests (``ray.init(num_cpus=2)``), skipped where the ``ray`` extra is not
installed (CI installs it). The run's bookkeeping is tested with the stand-in generator of
tests/helpers/sample_runs.py (it writes like generate_trajectory, fails some seeds); one small check uses the
real pipeline. Kills are real: a Ray worker process killed mid-task, and the driver killed with
SIGKILL then run again.
"""

from __future__ import annotations

import functools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.sample.disk_state import scan_tree
from alfred_gen.sample.run import run_sample
from tests.helpers import REPO_ROOT, python_env
from tests.helpers.sample_runs import (
    KILL_N,
    check_tree,
    count_trials,
    finish,
    options,
    stand_in_generate,
    tree_bytes,
    wait_for,
)

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[ray]')")


def slow_stand_in(task, scene, seed, out_root, trial_id, marker_dir: str = "", **kwargs):
    """The stand-in, a little slower (so jobs are in flight when something is killed). With
    ``marker_dir``, the first job to start writes its process id to ``victim`` there and waits, mid-job,
    until the test has killed it and left ``killed`` (its retry, and every other job, goes on)."""
    if marker_dir:
        try:
            with open(Path(marker_dir) / "victim", "x") as victim:
                victim.write(str(os.getpid()))
        except FileExistsError:
            pass
        else:
            deadline = time.monotonic() + 60
            while not (Path(marker_dir) / "killed").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
    time.sleep(0.3)
    return stand_in_generate(task, scene, seed, out_root, trial_id, **kwargs)


@pytest.fixture(scope="module")
def ray_address():
    """A Ray on this machine with two CPUs, for this module's tests; its address for other drivers."""
    context = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield context.address_info["gcs_address"]
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def local_tree(tmp_path_factory) -> dict[str, bytes]:
    """The tree the local executor (two worker processes) makes for seed 9, N = KILL_N."""
    out = tmp_path_factory.mktemp("local") / "out"
    summary = run_sample(options(out, KILL_N, seed=9, workers=2), generate=stand_in_generate)
    assert summary.made == KILL_N
    check_tree(out, KILL_N)
    return tree_bytes(out)


def test_ray_writes_the_local_executors_tree(tmp_path: Path, ray_address: str, local_tree) -> None:
    summary = run_sample(options(tmp_path, KILL_N, seed=9, executor="ray"), generate=stand_in_generate)
    assert summary.exit_code() == ExitCode.OK and summary.made_now == KILL_N
    assert sum(summary.failures.values()) > 0  # the failure log travels too
    check_tree(tmp_path, KILL_N)
    assert tree_bytes(tmp_path) == local_tree
    again = run_sample(options(tmp_path, KILL_N, seed=9, executor="ray"), generate=stand_in_generate)
    assert again.made_now == 0 and "nothing left to do" in again.lines()


def test_a_ray_worker_killed_mid_task_is_retried_without_duplicates(tmp_path: Path, ray_address: str,
                                                                    local_tree) -> None:
    markers = tmp_path / "markers"
    markers.mkdir()
    out = tmp_path / "out"
    killed: list[int] = []

    def kill_the_first_worker() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            pid = (markers / "victim").read_text().strip() if (markers / "victim").exists() else ""
            if pid:
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                (markers / "killed").touch()
            time.sleep(0.02)

    killer = threading.Thread(target=kill_the_first_worker)
    killer.start()
    try:
        summary = run_sample(options(out, KILL_N, seed=9, executor="ray"),
                             generate=functools.partial(slow_stand_in, marker_dir=str(markers)))
    finally:
        killer.join()
    assert killed and killed[0] != os.getpid()
    assert summary.exit_code() == ExitCode.OK and summary.made == KILL_N
    assert summary.deaths == 1 and "1 worker processes died during a job and were replaced" in summary.lines()
    check_tree(out, KILL_N)  # N trials, none twice, nothing half-written
    assert tree_bytes(out) == local_tree


def _start_driver(out: Path, address: str) -> subprocess.Popen:
    """A stand-in run through the CLI on the tests' Ray, as a driver process of its own."""
    code = (
        "import sys; import tests.test_sample_ray as t; import tests.helpers.sample_runs as s; "
        "import alfred_gen.sample.run as r; "
        "r._default_generate = lambda: t.slow_stand_in; from alfred_gen.cli import main; "
        "main(['sample', '--out', sys.argv[1], '--n', sys.argv[2], '--seed', '9', '--executor', 'ray', "
        "'--ray-address', sys.argv[3], '--scenes', ','.join(map(str, s.SCENES))])"
    )
    return subprocess.Popen([sys.executable, "-c", code, str(out), str(KILL_N), address], cwd=REPO_ROOT,
                            env=python_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_the_driver_killed_with_kill_9_resumes_like_local(tmp_path: Path, ray_address: str, local_tree) -> None:
    out = tmp_path / "out"
    driver = _start_driver(out, ray_address)
    wait_for(driver, lambda: count_trials(out) >= 2, "two trajectories")
    driver.send_signal(signal.SIGKILL)
    finish(driver)
    killed = scan_tree(out)
    assert not killed.incomplete and killed.count() < KILL_N
    time.sleep(1.0)
    assert scan_tree(out).trials == killed.trials  # only the driver writes the output
    code, printed = finish(_start_driver(out, ray_address))
    assert code == 0, printed
    assert "resuming:" in printed and f"{KILL_N} of {KILL_N} in the output" in printed
    check_tree(out, KILL_N)
    assert tree_bytes(out) == local_tree


def test_real_pipeline_on_ray_is_the_local_tree(tmp_path: Path, ray_address: str) -> None:
    trees = []
    for name, executor in (("local", "local"), ("ray", "ray")):
        summary = run_sample(options(tmp_path / name, 2, seed=21, demos_per_task=1, executor=executor))
        assert summary.made == 2, summary.lines()
        check_tree(tmp_path / name, 2, demos=1)
        trees.append(tree_bytes(tmp_path / name))
    assert trees[0] == trees[1]
    assert sum(name.endswith(".jpg") for name in trees[0]) > 20  # frames travelled as bytes

