"""The `alfred-gen sample` job: N vetted trajectories, balanced, parallel, resumable, reproducible.

This module wires the run together; each part lives in its own module:

- :mod:`alfred_gen.sample.options`: :class:`SampleOptions`, parsed from the command line and checked.
- :mod:`alfred_gen.sample.disk_state`: what the output directory holds (finished trees, the failure
  log, the per-shard lock, stale temporary directories): the source of truth for resuming.
- :mod:`alfred_gen.sample.jobs`: the :class:`Job` sent to a worker and the :class:`Outcome` it returns.
- :mod:`alfred_gen.sample.ledger`: per-tuple counts and the choice of the next job.
- :mod:`alfred_gen.sample.schedule`: the deterministic rule deciding job k from a prefix of results.
- :mod:`alfred_gen.sample.workers`: running jobs inline or in a pool of worker processes.
- :mod:`alfred_gen.sample.loop`: the parent's loop tying ledger, schedule and workers together.
- :mod:`alfred_gen.sample.report`: the progress bar, the final summary and the exit code.

How the pieces fit:

- The parent process owns every decision. It samples tuples (:mod:`alfred_gen.sample.balance`) and turns
  them into jobs ``(tuple, attempt, spawn seed, trial id)``; worker processes, each with its own
  simulator, only run :func:`alfred_gen.demo.generate.generate_trajectory`. A job's trial id is a hash of
  (run seed, tuple, attempt), so no two jobs ever write the same directory, and the rename of a
  finished trajectory into place is the commit.
- Determinism: the next job is decided from the results of earlier jobs, but results arrive in an
  order that depends on timing. So job k is decided from a fixed prefix of results, jobs
  ``0 .. p-1`` with ``p >= k - window`` (waiting for them if needed), counting the jobs in between
  as if they will succeed. Which prefix is used depends only on results, never on when they came,
  so the same seed gives the same jobs, the same trial ids and byte-identical trees; the window
  does not depend on the worker count up to :data:`DEFAULT_WINDOW` workers.
- Exactly N: a job is only started while (trajectories made in the prefix) + (jobs after it) < N,
  so even if every job in flight succeeds the target is never passed.
- Tuples: a started tuple is continued until it has ``demos_per_task`` trajectories or
  ``max_failures`` failed attempts (then it is recorded as failed and never sampled again); each
  attempt has its own spawn seed (which also picks the start pose) and trial id.
- Resumable: the tree of finished trajectories is the source of truth for what was made; failed
  attempts are kept in ``<out>/.alfred-gen/failures-<shard>.json`` (rewritten atomically, at most
  every few seconds and at the end; a failure lost to a kill is simply tried again), and stale
  temporary directories of killed jobs are removed on start. A run killed at any moment leaves
  complete trajectories and nothing partial in the layout; a lock per shard stops two runs from
  writing the same shard of one directory at once.
- ``--shard I/M`` gives each shard the tuples whose hash falls in it and the I-th part of N, so
  shards of a cluster job array never share a tuple, a trial id or a temporary directory.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.progress import progress as progress_bar
from alfred_gen.sample.balance import BalancedSampler
from alfred_gen.sample.disk_state import (
    clean_stale_temp,
    failures_path,
    load_failures,
    run_lock,
    scan_tree,
)
from alfred_gen.sample.feasibility import TaskTuple, feasible_tuples
from alfred_gen.sample.jobs import Generator
from alfred_gen.sample.ledger import Ledger
from alfred_gen.sample.loop import Crashed, drive_jobs
from alfred_gen.sample.options import (
    SampleOptions,
    check_options,
    parse_scenes,
    parse_shard,
    parse_task_types,
)
from alfred_gen.sample.report import RunSummary
from alfred_gen.sample.trial_ids import shard_of, shard_quota, trial_id
from alfred_gen.sim.controller import Controller


def _default_generate() -> Generator:
    from alfred_gen.demo.generate import generate_trajectory

    return generate_trajectory


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (a cluster's pre-emption) stops the run like Ctrl-C: finished work is kept."""
    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_sample(
    options: SampleOptions,
    generate: Generator | None = None,
    echo: Callable[..., None] | None = None,
    progress: bool = False,
    controller_factory: Callable[[], Controller] | None = None,
) -> RunSummary:
    """Make ``options.n`` vetted trajectories (this shard's part of them) under ``options.out``.

    ``generate`` is generate_trajectory or a stand-in with its signature ``(task_spec, scene, seed,
    out_root, trial_id, frames=...) -> result with ok/reason/detail``; with workers > 1 it must be
    picklable (a module-level function). ``echo`` prints notes (e.g. how much was resumed);
    ``progress`` shows a click progress bar on stderr (on a terminal). ``controller_factory`` makes
    each worker's recording simulator, reused across its jobs (default: a new lite controller per job
    made by generate_trajectory, or the ``thor`` backend's controller). Returns the summary;
    KeyboardInterrupt is turned into ``summary.interrupted``.
    """
    check_options(options)
    generate = generate or _default_generate()
    note = echo or (lambda *args, **kwargs: None)
    shard_index, shard_count = options.shard
    _build_houses(options, progress)
    feasible = feasible_tuples(options.task_types or None, options.scenes or None, options.scene_set)
    own = [t for t in feasible if shard_of(t, shard_count) == shard_index]
    if not own:
        raise UserError("no feasible task tuple for these task types and scenes"
                        + (f" in shard {shard_index}/{shard_count}" if shard_count > 1 else ""), ExitCode.UNSOLVABLE)
    task_filter = set(options.task_types)
    scene_filter = set(options.scenes)

    def in_space(task: TaskTuple) -> bool:
        return ((not task_filter or task.task_type in task_filter) and (not scene_filter or task.scene in scene_filter)
                and shard_of(task, shard_count) == shard_index)

    def own_trial_ids() -> set[str]:
        attempts = options.demos_per_task + options.max_failures + 1
        return {trial_id(options.seed, t, a) for t in own for a in range(attempts)}

    target = shard_quota(options.n, shard_index, shard_count)
    out = options.out
    out.mkdir(parents=True, exist_ok=True)
    with run_lock(out, options):
        removed = clean_stale_temp(out, None if shard_count == 1 else own_trial_ids)
        if removed:
            note(f"removed {removed} unfinished trajectories of an earlier run")
        ledger = Ledger(options, BalancedSampler(own))
        ledger.load(scan_tree(out), load_failures(failures_path(out, options)), in_space)
        summary = RunSummary(target=target, made_before=ledger.made)
        if ledger.made:
            note(f"resuming: {ledger.made} of {target} trajectories already in {out}")
        started = time.perf_counter()
        try:
            with _sigterm_as_interrupt(), progress_bar("sampling", target, done=ledger.made, show=progress) as bar:
                drive_jobs(options, ledger, target, generate, summary, bar, controller_factory)
        except KeyboardInterrupt:
            summary.interrupted = True
        except Crashed:
            pass
        finally:
            summary.seconds = time.perf_counter() - started
            summary.failed_tuples = ledger.failed_tuples()
            if summary.interrupted or summary.crashed:
                clean_stale_temp(out, None if shard_count == 1 else own_trial_ids)
    return summary


def _build_houses(options: SampleOptions, show: bool) -> None:
    """Build the houses the run samples from before anything else, with a progress bar: the
    feasibility check reads every one, and a house takes about a second to build (once per process;
    worker processes forked later share them)."""
    if options.scene_set != "houses":
        return
    from alfred_gen.scenes.houses.names import DEFAULT_HOUSES, house_of_scene_num
    from alfred_gen.scenes.library import get_house

    houses = [house_of_scene_num(n) for n in options.scenes] if options.scenes else list(DEFAULT_HOUSES)
    with progress_bar("building houses", len(houses), show=show) as bar:
        for house in houses:
            if house is not None:
                get_house(house)
            bar.update(1)


def sample_command(
    n: int,
    out: str,
    seed: int = 0,
    workers: int = 1,
    task_types: Sequence[str] | str | None = None,
    scenes: Sequence[str] | str | None = None,
    demos_per_task: int = 3,
    shard: str | None = None,
    backend: str = "lite",
    frames: bool = True,
    echo: Callable[..., None] = print,
    progress: bool = True,
    backend_options: Mapping[str, Any] | None = None,
    scene_set: str = "lite",
) -> int:
    """`alfred-gen sample`: parse the option strings, run, print the summary; the exit code."""
    options = SampleOptions(
        n=int(n), out=Path(out), seed=int(seed), workers=int(workers), task_types=parse_task_types(task_types),
        scenes=parse_scenes(scenes, scene_set), demos_per_task=int(demos_per_task), shard=parse_shard(shard),
        backend=backend,
        backend_options=tuple(sorted((backend_options or {}).items())), frames=frames, scene_set=scene_set,
    )
    summary = run_sample(options, echo=echo, progress=progress)
    for line in summary.lines():
        echo(line)
    code = summary.exit_code()
    if code == ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    return code
