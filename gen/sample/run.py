"""The `alfred-gen sample` job: N vetted trajectories, balanced, parallel, resumable, reproducible.

A dataset is a function of (seed, N, the options that shape it): the same trials whatever the
workers, shards, kills and resumes. This module wires the run together; each part has one job:

- :mod:`~alfred_gen.sample.options`: :class:`SampleOptions`, parsed from the command line and checked.
- :mod:`~alfred_gen.sample.plan`: *what* the dataset is: groups of trials, each with a task tuple
  drawn by active balancing over the plan itself, and its replacements; shards take whole groups.
- :mod:`~alfred_gen.sample.schedule`: *which* jobs are needed now, per group, from that group's
  results only (the chain rule), so arrival order never matters.
- :mod:`~alfred_gen.sample.workers`: *who* runs a job: this process or worker processes that may
  die (a dead worker is replaced and its job run again); :mod:`~alfred_gen.sample.ray_executor`
  plugs in the same way and runs jobs as Ray tasks on a cluster (``--executor ray``).
- :mod:`~alfred_gen.sample.ledger` and :mod:`~alfred_gen.sample.disk_state`: what is known about
  each attempt: trials on disk (checked against the plan; damaged ones are made again), the shared
  failure log, the saved plan, the lock.
- :mod:`~alfred_gen.sample.loop`: the parent's loop; :mod:`~alfred_gen.sample.report`: the summary.

A job's trial id and spawn seed are hashed from (run seed, tuple, attempt), its outcome depends on
nothing else, and the rename of a finished trajectory into place is the commit. So a run killed at
any moment leaves complete trajectories only, and running the same command again continues to
exactly the tree an uninterrupted run makes.
"""

from __future__ import annotations

import contextlib
import gc
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.progress import progress as progress_bar
from alfred_gen.sample.disk_state import (
    TrialProbe,
    clean_stale_temp,
    load_failures,
    load_plan,
    prepare_output,
    run_lock,
    save_plan,
    scan_tree,
)
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
from alfred_gen.sample.plan import LOOKAHEAD, DatasetPlan, PlanKey, groups_for
from alfred_gen.sample.report import RunSummary
from alfred_gen.sample.schedule import Schedule
from alfred_gen.sample.workers import Executor, JobContext, make_executor
from alfred_gen.sim.controller import Controller


def _default_generate() -> Generator:
    from alfred_gen.demo.generate import generate_trajectory

    return generate_trajectory


@contextlib.contextmanager
def _settled_heap() -> Iterator[None]:
    """While jobs run, what exists before them (rooms, the task space, modules) is out of the
    garbage collector's sight (``gc.freeze``): its full collections scanned those objects again and
    again, about 5% of a 20-demonstration run's CPU, and worker processes forked meanwhile share
    their pages instead of copying the ones a collection touches. Given back to the collector
    after the run (``gc.unfreeze``); nothing is freed later than it would be, bar cycles already
    unreachable when the run began, and those when it ends."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


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


def plan_key(options: SampleOptions) -> PlanKey:
    """The options that shape the dataset (apart from N)."""
    return PlanKey(options.seed, tuple(options.task_types), tuple(options.scenes), options.scene_set,
                   options.demos_per_task)


def dataset_plan(options: SampleOptions, note: Callable[..., None] = lambda *a, **k: None,
                 whole: bool = True, show: bool = False) -> DatasetPlan:
    """The run's plan: the one saved in the output directory if it is for these options, else
    built (the task space takes seconds: every room is built) and saved. ``whole`` False plans only
    the shard's first group (and the lookahead) now: the run's schedule grows the plan as it goes,
    so that a large N starts its first job in seconds."""
    from alfred_gen.sample.feasibility import default_scenes, feasible_tuples

    key = plan_key(options)
    plan = load_plan(options.out, key)
    if plan is None:
        note("planning the dataset (the task space is built once per output directory)")
        rooms = len(options.scenes or default_scenes(options.scene_set))
        with progress_bar("planning: rooms", rooms, show=show) as bar:
            space = feasible_tuples(options.task_types or None, options.scenes or None, options.scene_set,
                                    on_scene=lambda: bar.update(1))
        plan = DatasetPlan(key, space)
    groups = groups_for(options.n, options.demos_per_task)
    if plan.extend((groups if whole else min(groups, options.shard[0] + 1)) + LOOKAHEAD):
        save_plan(options.out, plan)
    return plan


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
    KeyboardInterrupt (and SIGTERM) is turned into ``summary.interrupted``.
    """
    check_options(options)
    if options.executor == "ray":
        from alfred_gen.sample.ray_executor import preflight  # imports Ray: only for --executor ray

        preflight(options)
    generate = generate or _default_generate()
    note = echo or (lambda *args, **kwargs: None)
    _build_houses(options, progress)
    out = options.out
    prepare_output(out)
    with run_lock(out, options) as lock:
        plan = dataset_plan(options, note, whole=False, show=progress)
        if not plan.primaries:
            raise UserError("no feasible task tuple for these task types and scenes", ExitCode.UNSOLVABLE)
        sharded = options.shard[1] > 1
        groups = range(options.shard[0], groups_for(options.n, options.demos_per_task), options.shard[1])
        saver = _PlanSaver(out, plan)
        removed = lock.clean_temp_if_alone()
        if removed:
            note(f"removed {removed} unfinished trajectories of an earlier run")
        probe = TrialProbe(out, options, note)
        ledger = Ledger(options, load_failures(out), on_disk=probe, on_made=probe.made)
        schedule = Schedule(plan, options.n, groups, ledger, options.max_failures, on_grow=saver.grown)
        summary = RunSummary(target=plan.shard_share(options.n, options.shard), made_before=0)
        earlier = scan_tree(out).count()
        if earlier:
            note(f"resuming: {earlier} trajectories already in {out} (each planned one is checked before it counts)")
        started = time.perf_counter()
        executors: list[Executor] = []

        def start_executor() -> Executor:
            executors.append(make_executor(JobContext(generate, str(out), options, controller_factory)))
            return executors[-1]

        try:
            with _sigterm_as_interrupt(), _settled_heap(), progress_bar("sampling", summary.target,
                                                                        show=progress) as bar:
                drive_jobs(schedule, start_executor, out, summary, bar)
                if not summary.crashed:
                    schedule.complete_plan()  # the plan a whole run leaves, however it was split
                saver.save()
        except KeyboardInterrupt:
            summary.interrupted = True
        except Crashed:
            pass
        finally:
            # Whatever ended the run (done, Ctrl-C, an error), its workers have stopped: no
            # temporary directory of its jobs stays, nor any other when no other run is writing.
            clean_stale_temp(out, schedule.started)
            lock.clean_temp_if_alone()
            summary.seconds = time.perf_counter() - started
            summary.made_before = schedule.made() - summary.made_now
            summary.short = schedule.short() + summary.target - schedule.target
            summary.exhausted = summary.short > 0
            summary.failed_tuples = schedule.failed_tuples()
            summary.left_open = schedule.left_open()
            summary.repaired = len(probe.removed)
            probe.save()
            summary.deaths = sum(getattr(executor, "deaths", 0) for executor in executors)
        if not sharded and not (summary.interrupted or summary.crashed):
            summary.foreign = scan_tree(out).count() - len(schedule.trials())
    return summary


class _PlanSaver:
    """Saves the plan as the schedule grows it: at most every PLAN_SAVE_SECONDS, and at the end
    (a plan lost to a kill is only planned again, to the same primaries)."""

    def __init__(self, out: Path, plan: DatasetPlan) -> None:
        self.out = out
        self.plan = plan
        self.saved = len(plan.primaries)
        self.saved_at = time.monotonic()

    def grown(self) -> None:
        if time.monotonic() - self.saved_at >= PLAN_SAVE_SECONDS:
            self.save()

    def save(self) -> None:
        if len(self.plan.primaries) != self.saved:
            save_plan(self.out, self.plan)
            self.saved, self.saved_at = len(self.plan.primaries), time.monotonic()


#: Seconds between saves of a plan that grows during a run.
PLAN_SAVE_SECONDS = 10.0


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
    workers: int | None = None,
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
    executor: str = "local",
    ray_address: str | None = None,
    annotations: int = 3,
) -> int:
    """`alfred-gen sample`: parse the option strings, run, print the summary; the exit code.
    ``workers`` None is 1 locally and, with Ray, as many tasks at once as the cluster has CPUs."""
    if not str(out).strip():
        raise UserError(f"--out must name a directory, got {out!r}", ExitCode.USAGE)
    if workers is None:
        workers = 0 if executor == "ray" else 1
    options = SampleOptions(
        n=int(n), out=Path(out), seed=int(seed), workers=int(workers), task_types=parse_task_types(task_types),
        scenes=parse_scenes(scenes, scene_set), demos_per_task=int(demos_per_task), shard=parse_shard(shard),
        backend=backend,
        backend_options=tuple(sorted((backend_options or {}).items())), frames=frames, scene_set=scene_set,
        executor=executor, ray_address=ray_address, annotations=int(annotations),
    )
    summary = run_sample(options, echo=echo, progress=progress)
    for line in summary.lines():
        echo(line)
    code = summary.exit_code()
    if code == ExitCode.INTERRUPTED:
        raise KeyboardInterrupt
    return code
