"""The `alfred-gen sample` job: exactly N, deterministic trees, resume after kill -9, workers, shards.

Most tests drive the run loop with a stand-in generator (dependency injection): it writes a small
trajectory the way generate_trajectory does (hidden temp dir, then one rename) and fails some seeds,
so the loop's bookkeeping is tested in a second. The tests at the end use the real pipeline.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from alfred_gen.cli import main
from alfred_gen.domains.tasks import task_type_names
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.disk_state import load_failures, scan_tree
from alfred_gen.sample.feasibility import TaskTuple, why_infeasible
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.run import run_sample
from tests.helpers import python_env

SCENES = (1, 2, 3, 201, 202, 301, 302, 401, 402)
TESTS_DIR = Path(__file__).resolve().parent
REPO = TESTS_DIR.parent


@dataclass
class StandInResult:
    ok: bool
    reason: str
    path: Path | None = None
    detail: str = ""


def stand_in_generate(task, scene, seed, out_root, trial_id, frames=True, **_):
    """Writes like generate_trajectory: temp dir, then rename; fails the seeds divisible by 4."""
    final = Path(out_root) / task.dir_name(int(scene)) / trial_id
    if final.exists():
        return StandInResult(False, "exists", final)
    time.sleep(float(os.environ.get("STAND_IN_SLEEP", "0")))
    if os.environ.get("STAND_IN_RAISE"):
        raise RuntimeError("stand-in crash")
    if int(seed) % int(os.environ.get("STAND_IN_FAIL_EVERY", "4")) == 0:
        return StandInResult(False, "unsolvable", None, "stand-in failure")
    temp = Path(out_root) / f".tmp-{trial_id}"
    (temp / "raw_images").mkdir(parents=True)
    for i in range(3):
        (temp / "raw_images" / f"{i:09d}.jpg").write_bytes(hashlib.sha256(f"{seed}:{i}".encode()).digest() * 64)
    (temp / "traj_data.json").write_text(json.dumps(
        {"task_id": trial_id, "task_type": task.task_type, "pddl_params": task.pddl_params(),
         "scene": {"scene_num": int(scene), "random_seed": int(seed)}}, sort_keys=True))
    final.parent.mkdir(parents=True, exist_ok=True)
    os.rename(temp, final)  # the commit; fails if the directory exists
    return StandInResult(True, "ok", final)


def options(out: Path, n: int, **kw) -> SampleOptions:
    kw.setdefault("scenes", SCENES)
    return SampleOptions(n=n, out=out, **kw)


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


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


def test_exactly_n_trajectories_and_failures_are_recorded(tmp_path: Path) -> None:
    summary = run_sample(options(tmp_path, 12, seed=3), generate=stand_in_generate)
    assert summary.exit_code() == ExitCode.OK and summary.made == summary.made_now == 12
    trials = check_tree(tmp_path, 12)
    failures = load_failures(tmp_path / ".alfred-gen" / "failures-0of1.json")
    assert sum(summary.failures.values()) == len(failures) > 0
    assert {f["reason"] for f in failures} == {"unsolvable"}
    # Each tuple got its three demonstrations unless it ran out of tries; tuples are continued first.
    assert sum(len(v) == 3 for v in trials.values()) >= 3


def test_same_seed_gives_identical_trees_whatever_the_worker_count(tmp_path: Path) -> None:
    run_sample(options(tmp_path / "a", 16, seed=11), generate=stand_in_generate)
    run_sample(options(tmp_path / "b", 16, seed=11), generate=stand_in_generate)
    run_sample(options(tmp_path / "c", 16, seed=11, workers=2), generate=stand_in_generate)
    run_sample(options(tmp_path / "d", 16, seed=12), generate=stand_in_generate)
    a = tree_bytes(tmp_path / "a")
    assert a == tree_bytes(tmp_path / "b") == tree_bytes(tmp_path / "c")
    assert a != tree_bytes(tmp_path / "d")
    assert any(name.endswith("traj_data.json") for name in a)


def test_resume_continues_to_n_and_keeps_what_was_made(tmp_path: Path) -> None:
    first = run_sample(options(tmp_path, 5, seed=1), generate=stand_in_generate)
    assert first.made == 5
    before = tree_bytes(tmp_path)
    second = run_sample(options(tmp_path, 9, seed=1), generate=stand_in_generate)
    assert (second.made_before, second.made_now, second.made) == (5, 4, 9)
    after = tree_bytes(tmp_path)
    for name, payload in before.items():
        if "/.alfred-gen/" not in f"/{name}":
            assert after[name] == payload
    check_tree(tmp_path, 9)
    third = run_sample(options(tmp_path, 9, seed=1), generate=stand_in_generate)
    assert third.made_now == 0 and third.exit_code() == ExitCode.OK


def test_ctrl_c_keeps_finished_work_and_leaves_nothing_partial(tmp_path: Path) -> None:
    calls = []

    def interrupted_on_fifth(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            temp = Path(args[3]) / f".tmp-{args[4]}"
            (temp / "raw_images").mkdir(parents=True)  # half-written when Ctrl-C comes
            raise KeyboardInterrupt
        return stand_in_generate(*args, **kwargs)

    summary = run_sample(options(tmp_path, 10, seed=5, demos_per_task=1), generate=interrupted_on_fifth)
    assert summary.interrupted and summary.exit_code() == ExitCode.INTERRUPTED
    made = summary.made_now
    check_tree(tmp_path, made, demos=1)
    resumed = run_sample(options(tmp_path, 10, seed=5, demos_per_task=1), generate=stand_in_generate)
    assert resumed.made_before == made and resumed.made == 10
    check_tree(tmp_path, 10, demos=1)


def test_two_workers_never_collide(tmp_path: Path) -> None:
    summary = run_sample(options(tmp_path, 24, seed=2, workers=2), generate=stand_in_generate)
    assert summary.made == 24 and "exists" not in summary.failures and "exception" not in summary.failures
    check_tree(tmp_path, 24)


def test_shards_share_a_directory_without_sharing_work(tmp_path: Path) -> None:
    parts = []
    for index in range(3):
        summary = run_sample(options(tmp_path, 10, seed=4, shard=(index, 3)), generate=stand_in_generate)
        assert summary.made == [4, 3, 3][index]
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


def test_stops_when_every_tuple_has_failed_and_remembers_it(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STAND_IN_FAIL_EVERY", "1")
    opts = options(tmp_path, 50, task_types=("pick_heat_then_place_in_recep",), scenes=(1,), max_failures=2)
    summary = run_sample(opts, generate=stand_in_generate)
    assert summary.exhausted and summary.made == 0 and summary.exit_code() == ExitCode.FAILED
    failures = load_failures(tmp_path / ".alfred-gen" / "failures-0of1.json")
    per_tuple = Counter(f["task"] for f in failures)
    assert set(per_tuple.values()) == {2}
    assert summary.failed_tuples == len(per_tuple)
    calls = []
    again = run_sample(opts, generate=lambda *a, **k: calls.append(a))
    assert again.exhausted and not calls


def test_a_crashing_pipeline_stops_the_run_without_recording_failures(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("STAND_IN_RAISE", "1")
    summary = run_sample(options(tmp_path, 20), generate=stand_in_generate)
    assert summary.crashed and summary.exit_code() == ExitCode.INTERNAL
    assert "stand-in crash" in summary.examples["exception"]
    assert not load_failures(tmp_path / ".alfred-gen" / "failures-0of1.json")


@pytest.mark.parametrize("argv, code, words", [
    (["--n", "3", "--task-types", "pick_and_fly"], ExitCode.NOT_FOUND, "unknown task type"),
    (["--n", "3", "--scenes", "999"], ExitCode.NOT_FOUND, "unknown scene"),
    (["--n", "3", "--shard", "3/3"], ExitCode.USAGE, "--shard"),
    (["--n", "3", "--shard", "one/two"], ExitCode.USAGE, "--shard"),
    (["--n", "0"], ExitCode.USAGE, "--n"),
    (["--n", "3", "--workers", "0"], ExitCode.USAGE, "--workers"),
    (["--n", "3", "--task-types", "look_at_obj_in_light", "--scenes", "1-30"], ExitCode.UNSOLVABLE, "feasible"),
    (["--n", "1", "--scenes", "1", "--backend", "thor"], ExitCode.BACKEND_UNAVAILABLE, "error:"),
])
def test_bad_input_is_one_line_and_the_right_exit_code(tmp_path: Path, capsys, monkeypatch, argv, code, words) -> None:
    monkeypatch.delenv("ALFRED_GEN_THOR_BUILD", raising=False)
    with pytest.raises(SystemExit) as stop:
        main(["sample", "--out", str(tmp_path / "out"), *argv])
    assert stop.value.code == code
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and "Traceback" not in err


# --------------------------------------------------------------------------------------------
# kill -9 in the middle of a run (a real process, killed for real)


def _start(out: Path, n: int, workers: int, env: dict[str, str]) -> subprocess.Popen:
    """A stand-in run in a process of its own (the stand-in generator lives in this test module)."""
    code = (
        "import sys; import tests.test_sample_run as t; "
        "from alfred_gen.sample.options import SampleOptions; from alfred_gen.sample.run import run_sample; "
        "from pathlib import Path; "
        "run_sample(SampleOptions(n=int(sys.argv[3]), out=Path(sys.argv[2]), workers=int(sys.argv[4]), "
        "scenes=t.SCENES, seed=9), generate=t.stand_in_generate)"
    )
    command = [sys.executable, "-c", code, "-", str(out), str(n), str(workers)]
    return subprocess.Popen(command, env=python_env(env), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _kill_after_first_trajectory(process: subprocess.Popen, out: Path, timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while not any(out.glob("*/trial_*/traj_data.json")):
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "no trajectory appeared"
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    process.stderr.close()


def test_trees_do_not_depend_on_pythonhashseed(tmp_path: Path) -> None:
    for name, hash_seed in (("a", "1"), ("b", "2")):
        process = _start(tmp_path / name, 8, 2, {"PYTHONHASHSEED": hash_seed})
        assert process.wait(timeout=240) == 0, process.stderr.read().decode()
        process.stderr.close()
    assert tree_bytes(tmp_path / "a") == tree_bytes(tmp_path / "b")
    check_tree(tmp_path / "a", 8)


def test_kill_9_mid_run_then_resume_gives_exactly_n(tmp_path: Path) -> None:
    """In-process generation (one worker): the kill can land inside a half-written temp directory."""
    out = tmp_path / "out"
    process = _start(out, 12, 1, {"STAND_IN_SLEEP": "0.15"})
    _kill_after_first_trajectory(process, out)
    killed = scan_tree(out)
    assert 1 <= sum(len(v) for v in killed.trials.values()) <= 12 and not killed.incomplete
    # The workers died with their parent: nothing is written after the kill.
    time.sleep(1.0)
    assert scan_tree(out).trials == killed.trials
    resumed = _start(out, 12, 1, {})
    assert resumed.wait(timeout=240) == 0, resumed.stderr.read().decode()
    resumed.stderr.close()
    check_tree(out, 12)


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


def test_real_cli_kill_9_mid_run_then_resume(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "alfred_gen.cli",
        "sample",
        "--n",
        "5",
        "--out",
        str(out),
        "--workers",
        "2",
        "--seed",
        "9",
        "--scenes",
        ",".join(map(str, SCENES)),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _kill_after_first_trajectory(process, out)
    killed = scan_tree(out)
    assert not killed.incomplete
    time.sleep(1.0)
    assert scan_tree(out).trials == killed.trials  # no worker outlived the kill
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming:" in resumed.stdout and "5 of 5 in the output" in resumed.stdout
    check_tree(out, 5)
    _verify(out)


def test_foreign_trajectories_count_but_infeasible_tuples_are_not_continued(tmp_path: Path) -> None:
    odd = tmp_path / "pick_heat_then_place_in_recep-Apple-None-Microwave-1" / "trial_T20000101_000000_000001"
    odd.mkdir(parents=True)
    (odd / "traj_data.json").write_text("{}")
    summary = run_sample(options(tmp_path, 4, seed=8), generate=stand_in_generate)
    assert (summary.made_before, summary.made) == (1, 4)
    assert scan_tree(tmp_path).trials[TaskTuple.from_dir_name(odd.parent.name)] == [odd.name]


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
