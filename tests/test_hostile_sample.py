"""`alfred-gen sample` against a hostile world (issue 61): a job whose worker dies again and again,
sharded and unsharded runs on one directory, huge ranges and N, a full or read-only disk, damaged
trials on resume. Each case failed before it was fixed; none measures time (waits are hang guards)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample import schedule as schedule_module
from alfred_gen.sample.disk_state import scan_tree
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.run import run_sample
from alfred_gen.traj.format import first_problem
from tests.helpers.sample_runs import (
    check_tree,
    count_trials,
    finish,
    options,
    stand_in_generate,
    start_run,
    tree_bytes,
    wait_for,
)


def trials_bytes(out: Path) -> dict[str, bytes]:
    """The trials' files (not the run state)."""
    return {name: data for name, data in tree_bytes(out).items() if not name.startswith(".alfred-gen")}


def _temp_dirs(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith(".tmp-"))


# --------------------------------------------------------------------------------------------
# 1. A job's crashes never change the dataset


@pytest.mark.slow  # fast lane: 11 s on a loaded 2-core machine (session 73 --durations)
@pytest.mark.parametrize("late", [False, True], ids=["half-written", "staged-whole"])
def test_a_job_that_kills_its_worker_three_times_changes_nothing(tmp_path: Path, monkeypatch, late: bool) -> None:
    """Before: the third death of one job made it a failed attempt, so the tree differed from the
    uninterrupted one and temp directories stayed behind. Staged whole: a job killed just before its
    rename left a staging directory its rerun must start afresh (session 111: the stand-in reused it,
    failed on its ``pddl_states/``, and the attempt counted as failed, a flaky CI)."""
    calm = run_sample(options(tmp_path / "calm", 9, seed=5, workers=2), generate=stand_in_generate)
    if late:
        monkeypatch.setenv("STAND_IN_DIE_LATE", "1")
    monkeypatch.setenv("STAND_IN_DIE_DIR", str(tmp_path / "deaths"))
    monkeypatch.setenv("STAND_IN_DIE_TIMES", "3")
    (tmp_path / "deaths").mkdir()
    summary = run_sample(options(tmp_path / "hit", 9, seed=5, workers=2), generate=stand_in_generate)
    assert summary.deaths >= 3 * summary.made_now > 0
    assert summary.exit_code() == ExitCode.OK and summary.failures == calm.failures
    check_tree(tmp_path / "hit", 9)
    assert tree_bytes(tmp_path / "hit") == tree_bytes(tmp_path / "calm")


@pytest.mark.slow  # fast lane: 8 s on a loaded 2-core machine (session 73 --durations)
def test_a_job_that_always_kills_its_worker_stops_the_run_keeping_its_work(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "out"
    run_sample(options(out, 3, seed=5), generate=stand_in_generate)  # some finished work
    trials_bytes_before = trials_bytes(out)
    monkeypatch.setattr(schedule_module, "MAX_JOB_CRASHES", 4)
    monkeypatch.setenv("STAND_IN_DIE_DIR", str(tmp_path / "deaths"))
    monkeypatch.setenv("STAND_IN_DIE_TIMES", "1000")
    (tmp_path / "deaths").mkdir()
    with pytest.raises(UserError) as stop:
        run_sample(options(out, 6, seed=5, workers=2), generate=stand_in_generate)
    assert stop.value.code == ExitCode.FAILED
    assert "took down its worker 4 times" in str(stop.value) and "\n" not in str(stop.value)
    assert trials_bytes(out) == trials_bytes_before
    assert _temp_dirs(out) == []
    # Nothing about the tuple was recorded: once the killer is gone the same command finishes the
    # dataset an undisturbed run makes.
    monkeypatch.delenv("STAND_IN_DIE_DIR")
    assert run_sample(options(out, 6, seed=5), generate=stand_in_generate).exit_code() == ExitCode.OK
    run_sample(options(tmp_path / "calm", 6, seed=5), generate=stand_in_generate)
    assert tree_bytes(out) == tree_bytes(tmp_path / "calm")


def _raising_on(victim: str, tries: int | None):
    """The stand-in, raising (a pipeline bug, or a MemoryError) on the ``victim`` trial's first
    ``tries`` runs (None: every run)."""
    raised: list[str] = []

    def generate(task, scene, seed, out_root, trial_id, **kwargs):
        if trial_id == victim and (tries is None or raised.count(trial_id) < tries):
            raised.append(trial_id)
            raise RuntimeError("stand-in bug")
        return stand_in_generate(task, scene, seed, out_root, trial_id, **kwargs)

    return generate, raised


def test_a_job_that_raises_twice_then_succeeds_changes_nothing(tmp_path: Path) -> None:
    """Before (session 111): the exception made its attempt a failure of this run, so the tuple's next
    attempt took its place: exit 0 with a tree an uninterrupted run does not make."""
    calm = run_sample(options(tmp_path / "calm", 9, seed=5), generate=stand_in_generate)
    victim = sorted(t for names in scan_tree(tmp_path / "calm").trials.values() for t in names)[4]
    generate, raised = _raising_on(victim, tries=schedule_module.MAX_JOB_EXCEPTIONS - 1)
    summary = run_sample(options(tmp_path / "hit", 9, seed=5), generate=generate)
    assert raised == [victim] * (schedule_module.MAX_JOB_EXCEPTIONS - 1)
    assert summary.exit_code() == ExitCode.OK and summary.left_open == 0
    assert summary.failures["exception"] == len(raised) and summary.made_now == calm.made_now
    assert tree_bytes(tmp_path / "hit") == tree_bytes(tmp_path / "calm")


def test_a_job_that_always_raises_leaves_its_slots_for_the_next_run(tmp_path: Path) -> None:
    """Its group stops for this run (exit 1, the summary says why), every trial kept is one of the
    uninterrupted tree, and the same command, once the job stops raising, makes that very tree."""
    run_sample(options(tmp_path / "calm", 9, seed=5), generate=stand_in_generate)
    calm = tree_bytes(tmp_path / "calm")
    victim = sorted(t for names in scan_tree(tmp_path / "calm").trials.values() for t in names)[4]
    out = tmp_path / "out"
    generate, raised = _raising_on(victim, tries=None)
    summary = run_sample(options(out, 9, seed=5), generate=generate)
    assert raised == [victim] * schedule_module.MAX_JOB_EXCEPTIONS
    assert summary.exit_code() == ExitCode.FAILED and summary.made == 9 - summary.left_open
    assert 1 <= summary.left_open <= 3
    assert any(line.startswith(f"stopped short by {summary.left_open}: a job raised") for line in summary.lines())
    check_tree(out, summary.made)
    assert {k: v for k, v in trials_bytes(out).items() if victim not in k} == \
        {k: v for k, v in calm.items() if k in trials_bytes(out)}
    assert not any(victim in k for k in trials_bytes(out))
    again = run_sample(options(out, 9, seed=5), generate=stand_in_generate)
    assert again.exit_code() == ExitCode.OK and again.made_now == summary.left_open
    assert tree_bytes(out) == calm


# --------------------------------------------------------------------------------------------
# 2. Sharded and unsharded runs on one directory




@pytest.mark.slow  # fast lane: 101 s on a loaded 2-core machine (session 73 --durations)
@pytest.mark.parametrize("first, second", [("0/2", None), (None, "1/2"), ("0/2", "0/4"), ("1/3", "1/3")])
def test_runs_whose_shards_share_trials_are_refused_while_one_writes(tmp_path: Path, first, second) -> None:
    """Before: an unsharded run next to a shard run deleted the shard's live temp directories and
    both exited 0 with a trial the plan does not have."""
    out = tmp_path / "out"
    # N large enough that the first run is still writing when the second has started on a loaded
    # machine (at 60, a second run that took 15 s to start found the first one finished)
    running = start_run(out, 600, first, env={"STAND_IN_SLEEP": "0.5"})
    wait_for(running, lambda: count_trials(out) >= 1 and any(out.glob(".tmp-trial_*")), "a trial in flight")
    code, printed = finish(start_run(out, 600, second))
    assert code == ExitCode.BUSY, printed
    running.send_signal(signal.SIGINT)
    finish(running)
    assert not scan_tree(out).incomplete


@pytest.mark.slow  # fast lane: 73 s on a loaded 2-core machine (session 73 --durations)
def test_shards_of_one_layout_still_write_at_once_and_mixed_layouts_in_turn_make_the_unsharded_tree(
        tmp_path: Path) -> None:
    both = tmp_path / "both"
    runs = [start_run(both, 12, f"{i}/2", env={"STAND_IN_SLEEP": "0.1"}) for i in range(2)]
    assert [finish(run)[0] for run in runs] == [0, 0]
    mixed = tmp_path / "mixed"
    assert finish(start_run(mixed, 12, "0/2"))[0] == 0
    assert finish(start_run(mixed, 12, "1/4"))[0] == 0
    assert finish(start_run(mixed, 12, None))[0] == 0
    whole = tmp_path / "whole"
    assert finish(start_run(whole, 12))[0] == 0
    check_tree(whole, 12)
    assert tree_bytes(both) == tree_bytes(mixed) == tree_bytes(whole)


# --------------------------------------------------------------------------------------------
# 3. Bounds: huge ranges answer at once; a huge N starts at once


HUGE = "100000000000"


@pytest.mark.parametrize("args, code", [
    (["sample", "--n", "1", "--scene-set", "houses", "--scenes", f"1-{HUGE}"], ExitCode.NOT_FOUND),
    (["sample", "--n", "1", "--scenes", f"431-{HUGE}"], ExitCode.NOT_FOUND),
    (["scenes", "list", "--houses", "--range", f"1-{HUGE}"], ExitCode.NOT_FOUND),
    (["eqa", "questions", "--houses", f"5-{HUGE}"], ExitCode.NOT_FOUND),
    (["actthor", "triples", "--scenes", f"431-{HUGE}"], ExitCode.NOT_FOUND),
])
def test_a_range_past_what_exists_is_one_line_before_any_work(tmp_path: Path, cli_in_process, args, code) -> None:
    """Before: the range was walked number by number (silent for minutes)."""
    needs_out = args[0] != "scenes"
    result = cli_in_process(*args, *(["--out", str(tmp_path / "out")] if needs_out else []))
    assert result.returncode == code, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*/trial_*"))


def test_a_range_that_covers_every_room_means_every_room() -> None:
    from alfred_gen.sample.options import parse_scenes
    from alfred_gen.scenes import scene_numbers

    assert parse_scenes(f"1-{HUGE}") == tuple(scene_numbers())
    assert parse_scenes(f"25-{HUGE}") == tuple(n for n in scene_numbers() if n >= 25)


def test_a_huge_n_plans_only_what_its_first_jobs_need(tmp_path: Path) -> None:
    """Before: every group of --n 100000 was planned before the first job (minutes)."""
    from alfred_gen.sample.plan import LOOKAHEAD
    from alfred_gen.sample.run import dataset_plan

    grow_groups = getattr(schedule_module, "GROW_GROUPS", 32)

    calls = []

    def stop_at_first_job(*args, **kwargs):
        calls.append(args)
        raise KeyboardInterrupt

    summary = run_sample(options(tmp_path, 100_000, seed=1), generate=stop_at_first_job)
    assert summary.interrupted and len(calls) == 1 and summary.target == 100_000
    planned = dataset_plan(options(tmp_path, 1, seed=1)).primaries  # the plan saved on disk
    assert LOOKAHEAD < len(planned) <= 1 + LOOKAHEAD + grow_groups


# --------------------------------------------------------------------------------------------
# 4. A full disk, a quota, a read-only or forbidden output


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES])
def test_an_unwritable_output_mid_run_is_exit_3_naming_the_users_path(tmp_path: Path, monkeypatch, code: int,
                                                                     workers: int) -> None:
    """Before: `generation keeps raising exceptions (a bug in alfred-gen)`, exit 8."""
    out = tmp_path / "out"
    run_sample(options(out, 3, seed=4), generate=stand_in_generate)
    kept = trials_bytes(out)
    monkeypatch.setenv("STAND_IN_OSERROR", str(code))
    with pytest.raises(UserError) as stop:
        run_sample(options(out, 9, seed=4, workers=workers), generate=stand_in_generate)
    message = str(stop.value)
    assert stop.value.code == ExitCode.BAD_INPUT == 3
    assert f"cannot write the output {out}" in message and os.strerror(code) in message
    assert ".tmp" not in message and "\n" not in message
    assert trials_bytes(out) == kept and _temp_dirs(out) == []
    monkeypatch.delenv("STAND_IN_OSERROR")
    assert run_sample(options(out, 9, seed=4), generate=stand_in_generate).exit_code() == ExitCode.OK
    run_sample(options(tmp_path / "calm", 9, seed=4), generate=stand_in_generate)
    assert tree_bytes(out) == tree_bytes(tmp_path / "calm")


def test_a_full_disk_while_saving_the_failure_log_names_the_log_not_its_temp_file(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    import alfred_gen.sample.disk_state as disk_state

    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path.parent / f".{path.name}.x1y2.tmp"))

    monkeypatch.setattr(disk_state, "write_text", full)
    with pytest.raises(UserError) as stop:
        run_sample(options(tmp_path, 6, seed=3), generate=stand_in_generate)
    assert stop.value.code == ExitCode.BAD_INPUT and ".tmp" not in str(stop.value)
    assert _temp_dirs(tmp_path) == []


# --------------------------------------------------------------------------------------------
# 5. Resume checks what it keeps


def _cut_jpeg(trial: Path) -> None:
    frame = sorted((trial / "raw_images").iterdir())[0]
    frame.write_bytes(frame.read_bytes()[:200])


def _rename_frame(trial: Path) -> None:
    frame = sorted((trial / "raw_images").iterdir())[1]  # a frame `images` lists
    frame.rename(frame.with_name("000000777.jpg"))


def _final_frame(trial: Path) -> Path:
    """The frame after the last action: on disk as the next number, not listed in `images`."""
    data = json.loads((trial / "traj_data.json").read_text())
    listed = {image["image_name"].removesuffix(".png") + ".jpg" for image in data["images"]}
    final = trial / "raw_images" / f"{len(data['images']):09d}.jpg"
    assert final.is_file() and final.name not in listed
    return final


def _drop_final_frame(trial: Path) -> None:
    _final_frame(trial).unlink()


def _cut_final_frame(trial: Path) -> None:
    final = _final_frame(trial)
    assert final.stat().st_size > 200
    final.write_bytes(final.read_bytes()[:200])


def _drop_pddl_states(trial: Path) -> None:
    shutil.rmtree(trial / "pddl_states")


def _five_bad_low_actions(trial: Path) -> None:
    data = json.loads((trial / "traj_data.json").read_text())
    data["plan"]["low_actions"] = [dict(data["plan"]["low_actions"][0], high_idx=99)] * 5
    assert first_problem(data) is not None  # `validate` rejects it
    (trial / "traj_data.json").write_text(json.dumps(data, sort_keys=True))


DAMAGE = {"a JPEG cut to 200 bytes": _cut_jpeg, "a renamed frame": _rename_frame,
          "no pddl_states/": _drop_pddl_states, "5 low actions validate rejects": _five_bad_low_actions,
          "the unlisted final frame missing": _drop_final_frame,
          "the unlisted final frame cut short": _cut_final_frame}


def test_resume_makes_damaged_trials_again_and_counts_them(tmp_path: Path) -> None:
    """Before: all four damaged trials were kept and the run said `6 of 6`; then a trial whose frame
    after the last action (unlisted in `images`) was missing or cut short was still kept."""
    out = tmp_path / "out"
    run_sample(options(out, 6, seed=2), generate=stand_in_generate)
    whole = tree_bytes(out)
    trials = sorted(p for p in out.glob("*/trial_*"))
    assert len(trials) == 6 and all(len(list((t / "raw_images").iterdir())) >= 2 for t in trials)
    assert len((trials[0] / "raw_images" / "000000000.jpg").read_bytes()) > 200
    for trial, damage in zip(trials, DAMAGE.values()):
        damage(trial)
    summary = run_sample(options(out, 6, seed=2), generate=stand_in_generate)
    assert summary.repaired == len(DAMAGE) == summary.made_now
    assert f"{len(DAMAGE)} damaged trials were made again" in summary.lines()
    assert summary.exit_code() == ExitCode.OK
    assert tree_bytes(out) == whole


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_trial_check_names_each_damage(tmp_path: Path, damage: str) -> None:
    from alfred_gen.sample.trial_check import trial_problem

    out = tmp_path / "out"
    run_sample(options(out, 1, seed=2), generate=stand_in_generate)
    trial = next(out.glob("*/trial_*"))
    data = json.loads((trial / "traj_data.json").read_text())
    task = TaskTuple.from_dir_name(trial.parent.name)
    assert trial_problem(trial, task, trial.name, data["scene"]["random_seed"], True) is None
    DAMAGE[damage](trial)
    problem = trial_problem(trial, task, trial.name, data["scene"]["random_seed"], True)
    assert problem is not None and "\n" not in problem


# --------------------------------------------------------------------------------------------
# A finished run is not read again, yet damage after it is still found


def _counting_checks(monkeypatch) -> list[str]:
    """The trials the resume check reads in full (not kept on their stamp) from now on."""
    from alfred_gen.sample import disk_state

    checked: list[str] = []
    real = disk_state.check_trial

    def counting(directory, *args, **kwargs):
        checked.append(directory.name)
        return real(directory, *args, **kwargs)

    monkeypatch.setattr(disk_state, "check_trial", counting)
    return checked


def _same_size_same_mtime(trial: Path) -> None:
    """Damage traj_data.json without changing its size or modification time (a program can set
    mtime back): one byte of its task id changes, so the check would reject it."""
    path = trial / "traj_data.json"
    before = path.stat()
    text = path.read_text()
    index = text.index('"task_id": "trial_') + len('"task_id": "trial_')
    path.write_text(text[:index] + ("X" if text[index] != "X" else "Y") + text[index + 1:])
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns


@pytest.mark.parametrize("workers", [1, 2])
def test_a_finished_run_resumes_without_reading_its_trials_again(tmp_path: Path, monkeypatch, workers: int) -> None:
    """Before: resuming a finished run read and validated every trial again (~0.1 s each). Now the
    worker that made a trial checks it and leaves a stamp of its files; a resume only stats them."""
    out = tmp_path / "out"
    made = run_sample(options(out, 6, seed=2, workers=workers), generate=stand_in_generate)
    assert made.made_now == 6
    checked = _counting_checks(monkeypatch)
    again = run_sample(options(out, 6, seed=2, workers=workers), generate=stand_in_generate)
    assert (again.made_now, again.made, again.repaired, checked) == (0, 6, 0, [])


@pytest.mark.parametrize("damage", ["same size, same mtime", *sorted(DAMAGE)])
def test_damage_after_a_finished_run_is_still_found(tmp_path: Path, monkeypatch, damage: str) -> None:
    out = tmp_path / "out"
    run_sample(options(out, 6, seed=2), generate=stand_in_generate)
    whole = trials_bytes(out)
    run_sample(options(out, 6, seed=2), generate=stand_in_generate)  # finished: stamps hold
    trial = sorted(out.glob("*/trial_*"))[3]
    (_same_size_same_mtime if damage == "same size, same mtime" else DAMAGE[damage])(trial)
    checked = _counting_checks(monkeypatch)
    summary = run_sample(options(out, 6, seed=2), generate=stand_in_generate)
    assert checked == [trial.name]  # only the changed trial is read in full ...
    assert summary.repaired == 1 == summary.made_now  # ... found damaged and made again
    assert trials_bytes(out) == whole
    checked.clear()
    run_sample(options(out, 6, seed=2), generate=stand_in_generate)
    assert checked == []  # the remade trial was stamped by its worker


def test_a_damaged_or_foreign_stamp_file_only_costs_a_full_check(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "out"
    run_sample(options(out, 3, seed=2), generate=stand_in_generate)
    [stamps] = (out / ".alfred-gen").glob("checked-*.json")
    stamps.write_text(stamps.read_text()[:40])
    foreign = '{"format": 1, "trials": {"x/trial_y": [1, true, [[0, "a"]], "z"]}}'
    (out / ".alfred-gen" / "checked-1of2.json").write_text(foreign)
    checked = _counting_checks(monkeypatch)
    summary = run_sample(options(out, 3, seed=2), generate=stand_in_generate)
    assert (summary.made_now, summary.made, summary.repaired, len(checked)) == (0, 3, 0, 3)
    checked.clear()
    run_sample(options(out, 3, seed=2), generate=stand_in_generate)
    assert checked == []  # the full checks wrote whole stamps again
