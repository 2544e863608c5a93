"""The one pool loop (alfred_gen.parallel): every result once, inline for one job, no worker left."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal

import pytest

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.parallel import WorkerDied, run_ordered, run_unordered

_STATE: dict[str, int] = {}


def _remember(value: int) -> None:
    _STATE["value"] = value


def _square_with_pid(item: int) -> tuple[int, int, int]:
    return item, item * item + _STATE.get("value", 0), os.getpid()


def test_every_item_once_in_worker_processes_that_ran_the_initializer() -> None:
    results = list(run_unordered(_square_with_pid, list(range(20)), 2, _remember, (100,)))
    assert sorted(item for item, _, _ in results) == list(range(20))
    assert all(value == item * item + 100 for item, value, _ in results)
    assert os.getpid() not in {pid for _, _, pid in results}
    assert not multiprocessing.active_children()


def test_one_job_or_one_item_runs_inline_and_in_order() -> None:
    _STATE.clear()
    for jobs, work in ((1, [3, 1, 2]), (4, [5])):
        results = list(run_unordered(_square_with_pid, work, jobs, _remember, (7,)))
        assert [item for item, _, _ in results] == work
        assert {pid for _, _, pid in results} == {os.getpid()} and _STATE["value"] == 7


def test_a_consumer_that_stops_early_leaves_no_worker() -> None:
    results = run_unordered(_square_with_pid, list(range(50)), 2)
    next(results)
    results.close()
    assert not multiprocessing.active_children()


def test_ordered_results_keep_the_order_of_the_work_whatever_the_jobs() -> None:
    work = list(range(30))
    for jobs in (1, 2, 3):
        assert [item for item, _, _ in run_ordered(_square_with_pid, work, jobs, chunksize=4)] == work
    assert not multiprocessing.active_children()


def _die_on_seven(item: int) -> int:
    if item == 7:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
    return item


def test_a_worker_that_dies_ends_the_run_with_one_error_instead_of_waiting_for_ever() -> None:
    seen: list[int] = []
    with pytest.raises(WorkerDied) as died:
        for item in run_ordered(_die_on_seven, list(range(40)), 2):
            seen.append(item)
    assert died.value.code == ExitCode.FAILED and "worker process died" in str(died.value)
    assert seen == list(range(len(seen))) and 7 not in seen
    assert not multiprocessing.active_children()


def _refuse(_: int) -> None:
    raise UserError("no THOR build here", ExitCode.BACKEND_UNAVAILABLE)


def test_an_initializer_that_raises_reaches_the_caller_with_its_message_and_code() -> None:
    for runner in (run_ordered, run_unordered):
        with pytest.raises(UserError) as refused:
            list(runner(_square_with_pid, list(range(6)), 2, _refuse, (0,)))
        assert refused.value.code == ExitCode.BACKEND_UNAVAILABLE
        assert str(refused.value) == "no THOR build here"
    assert not multiprocessing.active_children()


def test_a_user_error_subclass_crosses_processes_with_its_class_and_code() -> None:
    error = WorkerDied(3, 10)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is WorkerDied and copy.code == ExitCode.FAILED and str(copy) == str(error)
