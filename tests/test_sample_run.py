"""The `alfred-gen sample` job: a dataset is a function of (seed, N): the same trials whatever the
workers, shards, kills and resumes; a killed worker never hangs a run.

Most tests drive the run with a stand-in generator (dependency injection): it writes a small
trajectory the way generate_trajectory does (hidden temp dir, then one rename) and fails some seeds,
so the run's bookkeeping is tested in a second. Kills are real: a run in a process of its own is
killed with SIGKILL (or one of its workers is), then resumed, and the tree is compared byte for byte
with an uninterrupted run's. The tests at the end use the real pipeline.
"""

from __future__ import annotations

import fcntl
import gc
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from alfred_gen.cli import main
from alfred_gen.domains.tasks import task_type_names
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.disk_state import load_failures, scan_tree
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.plan import MAX_REPLACEMENTS
from alfred_gen.sample.run import run_sample
from alfred_gen.traj.scene_nums import scene_num_for
from tests.helpers import run_python
from tests.helpers.sample_runs import (
    KILL_N,
    SCENES,
    StandInResult,
    check_tree,
    count_trials,
    finish,
    options,
    stand_in_generate,
    start_run,
    tree_bytes,
    wait_for,
)

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow


def failures_of(root: Path) -> list[dict]:
    return load_failures(root)


def test_exactly_n_trajectories_and_failures_are_recorded(tmp_path: Path) -> None:
    frozen = []

    def generate(*args, **kwargs):
        frozen.append(gc.get_freeze_count())
        return stand_in_generate(*args, **kwargs)

    summary = run_sample(options(tmp_path, 12, seed=3), generate=generate)
    assert summary.exit_code() == ExitCode.OK and summary.made == summary.made_now == 12
    # The heap made before the jobs is out of the collector's sight while they run, and given back after.
    assert min(frozen) > 0 and gc.get_freeze_count() == 0
    trials = check_tree(tmp_path, 12)
    failures = failures_of(tmp_path)
    assert sum(summary.failures.values()) == len(failures) > 0
    assert {f["reason"] for f in failures} == {"unsolvable"}
    assert all(f["seed"] == 3 and f["backend"] == "lite" and f["scene_set"] == "lite" for f in failures)
    # Each tuple got its three demonstrations unless it ran out of tries.
    assert sum(len(v) == 3 for v in trials.values()) >= 3


def sharded(root: Path, n: int, shards: int, **kw) -> None:
    for index in range(shards):
        summary = run_sample(options(root, n, shard=(index, shards), **kw), generate=stand_in_generate)
        assert summary.exit_code() == ExitCode.OK, summary.lines()


def test_the_same_tree_whatever_the_workers_and_shards(tmp_path: Path) -> None:
    run_sample(options(tmp_path / "a", 16, seed=11), generate=stand_in_generate)
    run_sample(options(tmp_path / "b", 16, seed=11, workers=2), generate=stand_in_generate)
    run_sample(options(tmp_path / "c", 16, seed=11, workers=3), generate=stand_in_generate)
    sharded(tmp_path / "d", 16, 2, seed=11)
    sharded(tmp_path / "e", 16, 3, seed=11, workers=2)
    run_sample(options(tmp_path / "f", 16, seed=12), generate=stand_in_generate)
    a = tree_bytes(tmp_path / "a")
    for other in "bcde":
        assert tree_bytes(tmp_path / other) == a, other
    assert a != tree_bytes(tmp_path / "f")
    assert sum(name.endswith("traj_data.json") for name in a) == 16
    assert ".alfred-gen/failures.json" in a  # the failure log too: shards merge into one file


def test_a_larger_n_extends_the_same_dataset(tmp_path: Path) -> None:
    """Even where a tuple failed and was replaced: a replacement does not depend on N."""
    first_plan = run_sample(options(tmp_path / "probe", 2, seed=1), generate=stand_in_generate)
    assert first_plan.made == 2
    doomed = next(iter(scan_tree(tmp_path / "probe").trials))  # the first group's tuple

    def doomed_fails(task, scene, seed, out_root, trial_id, **kwargs):
        if TaskTuple.from_task_spec(task, scene_num_for(scene) or int(scene)) == doomed:
            return StandInResult(False, "unsolvable", None, "doomed")
        return stand_in_generate(task, scene, seed, out_root, trial_id, **kwargs)

    first = run_sample(options(tmp_path / "grown", 5, seed=1), generate=doomed_fails)
    assert first.made == 5 and first.failed_tuples == 1
    before = tree_bytes(tmp_path / "grown")
    second = run_sample(options(tmp_path / "grown", 9, seed=1), generate=doomed_fails)
    assert (second.made_before, second.made_now, second.made, second.foreign) == (5, 4, 9, 0)
    after = tree_bytes(tmp_path / "grown")
    assert all(after[name] == payload for name, payload in before.items() if "/traj_data.json" in name)
    run_sample(options(tmp_path / "fresh", 9, seed=1), generate=doomed_fails)
    assert after == tree_bytes(tmp_path / "fresh")
    assert doomed not in scan_tree(tmp_path / "fresh").trials
    third = run_sample(options(tmp_path / "grown", 9, seed=1), generate=doomed_fails)
    assert third.made_now == 0 and third.exit_code() == ExitCode.OK
    assert "nothing left to do" in third.lines()


def test_ctrl_c_keeps_finished_work_and_the_resumed_tree_is_the_same(tmp_path: Path) -> None:
    calls = []

    def interrupted_on_fifth(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            temp = Path(args[3]) / f".tmp-{args[4]}"
            (temp / "raw_images").mkdir(parents=True)  # half-written when Ctrl-C comes
            raise KeyboardInterrupt
        return stand_in_generate(*args, **kwargs)

    out = tmp_path / "out"
    summary = run_sample(options(out, 10, seed=5, demos_per_task=1), generate=interrupted_on_fifth)
    assert summary.interrupted and summary.exit_code() == ExitCode.INTERRUPTED
    made = summary.made_now
    check_tree(out, made, demos=1)
    resumed = run_sample(options(out, 10, seed=5, demos_per_task=1), generate=stand_in_generate)
    assert resumed.made_before == made and resumed.made == 10
    run_sample(options(tmp_path / "whole", 10, seed=5, demos_per_task=1), generate=stand_in_generate)
    assert tree_bytes(out) == tree_bytes(tmp_path / "whole")


def test_damaged_planned_trials_are_made_again_and_others_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run_sample(options(out, 9, seed=6), generate=stand_in_generate)
    whole = tree_bytes(out)
    files = sorted(out.glob("*/trial_*/traj_data.json"))
    files[0].write_text(files[0].read_text()[:40])  # truncated
    files[1].unlink()  # frames only
    next((files[2].parent / "raw_images").iterdir()).unlink()  # a frame lost
    files[3].write_text(files[3].read_text().replace('"random_seed": ', '"random_seed": 1'))  # not the planned one
    foreign = out / files[4].parent.parent.name / "trial_T20000101_000000_000001"
    foreign.mkdir()
    (foreign / "traj_data.json").write_text("{}")
    notes: list[str] = []
    summary = run_sample(options(out, 9, seed=6), generate=stand_in_generate, echo=notes.append)
    assert (summary.made_before, summary.made_now, summary.repaired, summary.foreign) == (5, 4, 4, 1)
    assert sum(note.startswith("making again ") for note in notes) == 4
    assert "4 damaged trials were made again" in summary.lines()
    assert (foreign / "traj_data.json").read_text() == "{}"
    foreign_file = str((foreign / "traj_data.json").relative_to(out))
    assert {k: v for k, v in tree_bytes(out).items() if k != foreign_file} == whole


def test_shards_share_a_directory_without_sharing_work(tmp_path: Path) -> None:
    parts = []
    for index in range(3):
        summary = run_sample(options(tmp_path, 10, seed=4, shard=(index, 3)), generate=stand_in_generate)
        assert summary.made == summary.target == [4, 3, 3][index]
        parts.append(set(scan_tree(tmp_path).trials))
    trials = check_tree(tmp_path, 10)
    first, second, third = parts[0], parts[1] - parts[0], parts[2] - parts[1]
    assert first and second and third and not (first & second) and not (second & third)
    assert set(trials) == first | second | third
    for index in range(3):
        assert (tmp_path / ".alfred-gen" / f"lock-{index}of3").exists()


def test_balancing_covers_all_seven_task_types_in_fourteen(tmp_path: Path) -> None:
    summary = run_sample(SampleOptions(n=14, out=tmp_path, demos_per_task=1), generate=stand_in_generate)
    assert summary.made == 14
    trials = check_tree(tmp_path, 14, demos=1)
    assert Counter(t.task_type for t in trials) == Counter({name: 2 for name in task_type_names()})


def test_a_failed_tuple_is_replaced_by_one_of_its_task_type(tmp_path: Path, monkeypatch) -> None:
    """Every attempt at the primaries fails (seeds are not under the test's control, so the
    stand-in fails by tuple here); the replacements fill the slots, task types kept."""
    plan_run = run_sample(SampleOptions(n=7, out=tmp_path / "plan", demos_per_task=1), generate=stand_in_generate)
    assert plan_run.made == 7
    primaries = set(scan_tree(tmp_path / "plan").trials)
    calls: list[TaskTuple] = []

    def primaries_fail(task, scene, seed, out_root, trial_id, **kwargs):
        tuple_ = TaskTuple.from_task_spec(task, scene_num_for(scene) or int(scene))
        calls.append(tuple_)
        if tuple_ in primaries:
            return StandInResult(False, "unsolvable", None, "primary")
        return stand_in_generate(task, scene, seed, out_root, trial_id, **kwargs)

    summary = run_sample(SampleOptions(n=7, out=tmp_path / "out", demos_per_task=1), generate=primaries_fail)
    made = check_tree(tmp_path / "out", 7, demos=1)
    assert summary.made == 7 and not set(made) & primaries
    assert Counter(t.task_type for t in made) == Counter(t.task_type for t in primaries)
    assert Counter(calls)[next(iter(primaries))] == 3  # each primary had its three tries
    assert summary.failed_tuples == 7


def test_stops_when_every_tuple_has_failed_and_remembers_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STAND_IN_FAIL_EVERY", "1")
    opts = options(tmp_path, 50, task_types=("pick_heat_then_place_in_recep",), scenes=(1,), max_failures=2)
    summary = run_sample(opts, generate=stand_in_generate)
    assert summary.exhausted and summary.made == 0 and summary.exit_code() == ExitCode.FAILED
    failures = failures_of(tmp_path)
    groups = -(-50 // 3)
    # Every group tried its primary and MAX_REPLACEMENTS more tuples, each max_failures times.
    assert len(failures) == len({f["trial"] for f in failures}) == groups * (1 + MAX_REPLACEMENTS) * 2
    assert summary.failed_tuples == groups * (1 + MAX_REPLACEMENTS)
    calls = []
    again = run_sample(opts, generate=lambda *a, **k: calls.append(a))
    assert again.exhausted and not calls  # the failure log saved every one of them


def test_a_crashing_pipeline_stops_the_run_without_recording_failures(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STAND_IN_RAISE", "1")
    summary = run_sample(options(tmp_path, 20), generate=stand_in_generate)
    assert summary.crashed and summary.exit_code() == ExitCode.INTERNAL
    assert "stand-in crash" in summary.examples["exception"]
    assert not failures_of(tmp_path)


@pytest.mark.parametrize("argv, code, words", [
    (["--n", "3", "--task-types", "pick_and_fly"], ExitCode.NOT_FOUND, "unknown task type"),
    (["--n", "3", "--scenes", "999"], ExitCode.NOT_FOUND, "unknown scene"),
    (["--n", "3", "--shard", "3/3"], ExitCode.USAGE, "--shard"),
    (["--n", "3", "--shard", "one/two"], ExitCode.USAGE, "--shard"),
    (["--n", "0"], ExitCode.USAGE, "--n"),
    (["--n", "9" * 40], ExitCode.USAGE, "--n"),
    (["--n", "3", "--workers", "0"], ExitCode.USAGE, "--workers"),
    (["--n", "3", "--demos-per-task", "10000000000000"], ExitCode.USAGE, "--demos-per-task"),
    (["--n", "3", "--task-types", "look_at_obj_in_light", "--scenes", "1-30"], ExitCode.UNSOLVABLE, "feasible"),
    (["--n", "1", "--scenes", "1", "--backend", "thor"], ExitCode.BACKEND_UNAVAILABLE, "error:"),
    (["--n", "1", "--ray-address", "auto"], ExitCode.USAGE, "--executor ray"),
    (["--n", "1", "--executor", "ray", "--ray-address", "head-node"], ExitCode.USAGE, "HOST:PORT"),
    # Port 1 of this machine refuses at once; without Ray installed the line says so instead.
    (["--n", "1", "--executor", "ray", "--ray-address", "127.0.0.1:1"], ExitCode.EXECUTOR_UNAVAILABLE, "Ray"),
])
def test_bad_input_is_one_line_and_the_right_exit_code(tmp_path: Path, capsys, monkeypatch, argv, code, words) -> None:
    monkeypatch.delenv("ALFRED_GEN_THOR_BUILD", raising=False)
    with pytest.raises(SystemExit) as stop:
        main(["sample", "--out", str(tmp_path / "out"), *argv])
    assert stop.value.code == code
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and "Traceback" not in err


def test_executor_ray_without_ray_installed_is_one_line_and_code_10(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as where the extra is missing
    with pytest.raises(SystemExit) as stop:
        main(["sample", "--out", str(tmp_path / "out"), "--n", "1", "--scenes", "1", "--executor", "ray"])
    assert stop.value.code == ExitCode.EXECUTOR_UNAVAILABLE == 10
    err = capsys.readouterr().err.strip()
    assert "pip install 'alfred-gen[ray]'" in err and "\n" not in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # refused before any work


def test_the_local_executor_never_imports_ray(tmp_path: Path) -> None:
    """Ray is an optional, heavy extra: only --executor ray may import it."""
    code = ("import sys, tests.helpers.sample_runs as t; from alfred_gen.sample.run import run_sample; "
            "summary = run_sample(t.options(t.Path(sys.argv[1]), 2, workers=2), generate=t.stand_in_generate); "
            "print(summary.made, 'ray' in sys.modules)")
    assert run_python(code, str(tmp_path)).stdout.split() == ["2", "False"]


@pytest.mark.parametrize("out", ["", " "])
def test_an_empty_out_is_refused(tmp_path: Path, capsys, monkeypatch, out: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(["sample", "--n", "1", "--out", out])
    assert stop.value.code == ExitCode.USAGE and "--out" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_a_busy_directory_is_its_own_exit_code(tmp_path: Path, capsys) -> None:
    state = tmp_path / ".alfred-gen"
    state.mkdir()
    with open(state / "lock-0of1", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(SystemExit) as stop:
            main(["sample", "--n", "1", "--out", str(tmp_path), "--scenes", "1"])
    assert stop.value.code == ExitCode.BUSY == 9
    err = capsys.readouterr().err.strip()
    assert "another `alfred-gen sample` is writing shard 0/1" in err and "\n" not in err


# --------------------------------------------------------------------------------------------
# Kills: the run, or one of its workers, killed for real (a run in a process of its own)



def _in_flight(out: Path) -> bool:
    try:
        return any(out.glob(".tmp-trial_*/raw_images/*"))
    except OSError:  # the trial was just renamed into place
        return False


def _workers_of(process: subprocess.Popen) -> list[int]:
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    own = Path(f"/proc/{process.pid}/cmdline").read_bytes()
    return [int(pid) for pid in children if _cmdline(int(pid)) == own]


def _cmdline(pid: int) -> bytes:
    """A process's command line, or nothing when it exited between listing and reading."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("uninterrupted") / "out"
    process = start_run(out, KILL_N, workers=1)
    assert finish(process)[0] == 0
    check_tree(out, KILL_N)
    return tree_bytes(out)


@pytest.mark.parametrize("workers, when", [
    (1, "after the first trial"), (2, "after the first trial"), (2, "halfway"), (2, "with trials in flight"),
    (1, "with a trial in flight"),
])
def test_kill_9_at_any_point_then_resume_gives_the_uninterrupted_tree(tmp_path: Path, uninterrupted, workers: int,
                                                                      when: str) -> None:
    out = tmp_path / "out"
    process = start_run(out, KILL_N, workers=workers, env={"STAND_IN_SLEEP": "0.2"})
    ready = {"after the first trial": lambda: count_trials(out) >= 1,
             "halfway": lambda: count_trials(out) >= KILL_N // 2,
             "with trials in flight": lambda: count_trials(out) >= 2 and _in_flight(out),
             "with a trial in flight": lambda: count_trials(out) >= 1 and _in_flight(out)}[when]
    wait_for(process, ready, when)
    process.send_signal(signal.SIGKILL)
    finish(process)
    killed = scan_tree(out)
    assert not killed.incomplete and killed.count() < KILL_N
    time.sleep(0.5)
    assert scan_tree(out).trials == killed.trials  # the workers died with their parent
    assert finish(start_run(out, KILL_N, workers=workers))[0] == 0
    check_tree(out, KILL_N)
    assert tree_bytes(out) == uninterrupted


def test_a_worker_killed_mid_job_is_replaced_and_the_run_completes(tmp_path: Path, uninterrupted) -> None:
    out = tmp_path / "out"
    process = start_run(out, KILL_N, workers=2, env={"STAND_IN_SLEEP": "0.3"})
    wait_for(process, lambda: count_trials(out) >= 1 and _in_flight(out), "a trial in flight")
    victim = _workers_of(process)[0]
    os.kill(victim, signal.SIGKILL)
    code, printed = finish(process)
    assert code == 0 and "1 worker processes died during a job and were replaced" in printed
    check_tree(out, KILL_N)
    assert tree_bytes(out) == uninterrupted


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_after_a_worker_was_killed_ends_the_run(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C (or a cluster's SIGTERM): exit 130, no worker left, nothing partial. The limits are
    hang guards sized for a loaded 2-core machine, not measurements (5 s failed there: issue 61)."""
    out = tmp_path / "out"
    process = start_run(out, 40, workers=2, env={"STAND_IN_SLEEP": "0.5"})
    wait_for(process, lambda: count_trials(out) >= 1 and _in_flight(out), "a trial in flight")
    workers = _workers_of(process)
    os.kill(workers[0], signal.SIGKILL)
    wait_for(process, lambda: len(set(_workers_of(process)) - set(workers)) >= 1, "a new worker", timeout=300)
    process.send_signal(stop)
    assert process.wait(timeout=300) == ExitCode.INTERRUPTED
    stderr = process.communicate()[1].decode()
    assert "Traceback" not in stderr and "interrupted" in stderr
    for pid in workers + _alive_children_of(process.pid):
        assert _gone(pid)
    check_tree(out, count_trials(out))


def _gone(pid: int) -> bool:
    """True when the process has exited (reaped, or a zombie waiting for its parent)."""
    try:
        return "zombie" in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True


def _alive_children_of(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def test_trees_do_not_depend_on_pythonhashseed(tmp_path: Path) -> None:
    for name, hash_seed in (("a", "1"), ("b", "2")):
        assert finish(start_run(tmp_path / name, 8, workers=2, env={"PYTHONHASHSEED": hash_seed}))[0] == 0
    assert tree_bytes(tmp_path / "a") == tree_bytes(tmp_path / "b")
    check_tree(tmp_path / "a", 8)


# --------------------------------------------------------------------------------------------
# The real pipeline: spawn, plan, expand, record frames, vet, write


def _rendering_controller():  # a module-level factory, so worker processes can use it
    from tests.helpers import replay_scripts

    return replay_scripts.rendering_controller()


def _verify(root: Path) -> None:
    from alfred_gen.replay.verify import verify_directory
    from alfred_gen.scenes.library import simulator
    from alfred_gen.traj.validate import validate_paths

    lines: list[str] = []
    assert validate_paths([root], echo=lines.append) == ExitCode.OK, lines
    assert verify_directory(root, simulator=simulator(), echo=lines.append, show_progress=False) == ExitCode.OK, lines


def test_real_pipeline_same_seed_identical_trees_and_workers_never_collide(tmp_path: Path) -> None:
    """Default simulators (one per job) with one worker, twice; then two workers that each reuse one
    simulator for all their jobs: the same bytes every time."""
    trees = []
    for name, workers, factory in (("a", 1, None), ("b", 1, None), ("c", 2, _rendering_controller)):
        summary = run_sample(
            options(tmp_path / name, 3, seed=21, workers=workers, demos_per_task=1), controller_factory=factory
        )
        assert summary.made == 3, summary.lines()
        check_tree(tmp_path / name, 3, demos=1)
        trees.append(tree_bytes(tmp_path / name))
    assert trees[0] == trees[1] == trees[2]
    assert sum(name.endswith(".jpg") for name in trees[0]) > 30  # frames were recorded
    _verify(tmp_path / "a")


def test_real_cli_kill_9_mid_run_then_resume_gives_the_uninterrupted_tree(tmp_path: Path) -> None:
    def command(out: Path) -> list[str]:
        return [sys.executable, "-m", "alfred_gen.cli", "sample", "--n", "4", "--out", str(out), "--workers", "2",
                "--seed", "9", "--scenes", ",".join(map(str, SCENES))]

    out = tmp_path / "out"
    process = subprocess.Popen(command(out), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_for(process, lambda: count_trials(out) >= 1, "a trajectory", timeout=300)
    process.send_signal(signal.SIGKILL)
    finish(process)
    killed = scan_tree(out)
    assert not killed.incomplete
    time.sleep(1.0)
    assert scan_tree(out).trials == killed.trials  # no worker outlived the kill
    resumed = subprocess.run(command(out), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming:" in resumed.stdout and "4 of 4 in the output" in resumed.stdout
    check_tree(out, 4)
    whole = subprocess.run(command(tmp_path / "whole"), capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    assert tree_bytes(out) == tree_bytes(tmp_path / "whole")
    _verify(out)


def test_a_killed_runs_half_written_files_are_removed_by_the_next_run_alone_on_the_directory(tmp_path: Path) -> None:
    # A driver killed by kill -9 while it replaced its plan or its failure log leaves the write's
    # temporary file; the run that resumes alone removes it, and the tree is the uninterrupted one.
    clean = tmp_path / "clean"
    run_sample(options(clean, 4, seed=8), generate=stand_in_generate)
    out = tmp_path / "out"
    state = out / ".alfred-gen"
    left = [state / ".plan-0123456789abcdef.json.mkqipw86.tmp", state / ".failures.json.x1y2z3.tmp"]
    for path in left:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"format": 1, "key":')
    run_sample(options(out, 4, seed=8), generate=stand_in_generate)
    assert not any(path.exists() for path in left)
    assert tree_bytes(out) == tree_bytes(clean)
    # With another run writing the directory, they may be its writes in flight: they stay.
    for path in left:
        path.write_text('{"format": 1, "key":')
    with open(state / "lock-1of2", "w") as other:
        fcntl.flock(other, fcntl.LOCK_EX)
        run_sample(options(out, 4, seed=8, shard=(0, 2)), generate=stand_in_generate)
    assert all(path.exists() for path in left)


def test_trials_not_in_the_plan_are_left_alone_and_not_counted(tmp_path: Path) -> None:
    odd = tmp_path / "pick_heat_then_place_in_recep-Apple-None-Microwave-1" / "trial_T20000101_000000_000001"
    odd.mkdir(parents=True)
    (odd / "traj_data.json").write_text("{}")
    summary = run_sample(options(tmp_path, 4, seed=8), generate=stand_in_generate)
    assert (summary.made_before, summary.made, summary.foreign) == (0, 4, 1)
    assert scan_tree(tmp_path).trials[TaskTuple.from_dir_name(odd.parent.name)] == [odd.name]
    assert any("not in this run's plan" in line for line in summary.lines())


def test_sampling_imported_alfred_rooms(tmp_path: Path, alfred_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--scene-set alfred samples real THOR rooms (FloorPlanN) imported from ALFRED: the files name
    them, and every trajectory replays."""
    from alfred_gen.scenes.alfred import catalogue_store
    from alfred_gen.scenes.alfred.importer import import_alfred

    catalogue = tmp_path / "alfred.json"
    import_alfred(alfred_data, out=catalogue)
    monkeypatch.setenv(catalogue_store.ENV_VAR, str(catalogue))
    out = tmp_path / "out"
    summary = run_sample(options(out, 3, seed=1, scene_set="alfred", demos_per_task=1))
    assert summary.made == 3
    files = sorted(out.rglob("traj_data.json"))
    assert len(files) == 3
    for path in files:
        data = json.loads(path.read_text())
        assert data["scene"]["floor_plan"] == f"FloorPlan{data['scene']['scene_num']}"
    _verify(out)


def test_an_unknown_scene_set_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UserError) as caught:
        run_sample(options(tmp_path, 1, scene_set="procthor"))
    assert caught.value.code == ExitCode.USAGE
