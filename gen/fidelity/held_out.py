"""Replaying and planning released demonstrations in rooms built without them, in parallel.

A measurement is a list of :class:`RoomJob`: one room built from some evidence (see
:mod:`alfred_gen.fidelity.evidence_pool` for which), and the demonstrations to replay (and plan)
in it. A job builds its room once, completes it for each demonstration's ``scene`` block exactly
as a restore of an imported room does
(:meth:`alfred_gen.scenes.library.SceneLibrary.for_start_state`; with ``complete``, also from the
rest of the file, :mod:`alfred_gen.scenes.alfred.complete`), and returns one outcome per
demonstration. Jobs are independent, so :func:`run_jobs` spreads them over worker processes;
outcomes come back in job order, whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.fidelity.evidence_pool import EvidencePool, Released, learnt_stats
from alfred_gen.fidelity.measure import PlanOutcome, ReplayOutcome, load, plan_one, replay_one
from alfred_gen.fidelity.retarget import retargeted
from alfred_gen.parallel import run_ordered
from alfred_gen.scenes.alfred.complete import complete_from_file
from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.fixture_rules import learn_fixture_rules, with_rule_fixtures
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import Scene

#: The ways a room is built for a demonstration (see :mod:`alfred_gen.fidelity.evidence_pool`).
IN_SAMPLE, HELD_OUT, UNSEEN_ROOMS = "in_sample", "heldout", "unseen_rooms"


@dataclass(frozen=True)
class RoomJob:
    """One room built from ``evidence`` (with ``stats``), and the demonstrations to try in it."""

    evidence: SceneEvidence
    stats: SurfaceStats
    sizes: ThorSizes | None
    paths: tuple[Path, ...]
    replay: bool = True
    plan: bool = False
    time_limit: float = 30.0
    #: Also complete the room from each replayed file (:mod:`alfred_gen.scenes.alfred.complete`).
    complete: bool = False
    #: Point actions on fixtures the room lacks at its nearest of their type
    #: (:mod:`alfred_gen.fidelity.retarget`; the rule-placed figure only).
    retarget: bool = False
    #: Importer passes switched off, building the room and fitting it to each start state
    #: (:mod:`alfred_gen.scenes.alfred.passes`; what a pass buys, ``--without``).
    without: frozenset[str] = frozenset()


@dataclass
class JobResult:
    replays: list[ReplayOutcome]
    plans: list[PlanOutcome]


def build_job_room(job: RoomJob) -> tuple[Scene | None, str]:
    """The job's room and "", or None and why the evidence cannot make it (then every demonstration
    of the job fails alike, with that reason)."""
    try:
        return build_scene(job.evidence, job.sizes, job.stats, job.without), ""
    except (ValueError, KeyError) as error:
        return None, f"{type(error).__name__}: {error}"


def demo_scene(job: RoomJob, room: Scene, traj: Mapping[str, Any]) -> Scene:
    """The job's room as one of its demonstrations is replayed in it: completed for the file's start
    state, and from the rest of the file when the job says so (:attr:`RoomJob.complete`)."""
    scene = complete_for_start_state(room, traj["scene"], job.without)
    return complete_from_file(scene, traj, job.sizes)[0] if job.complete else scene


def run_job(job: RoomJob) -> JobResult:
    """Build the job's room and replay / plan each of its demonstrations in it."""
    result = JobResult([], [])
    room, build_error = build_job_room(job)
    for path in job.paths:
        try:
            traj = load(path)
            if room is None:
                raise ValueError(build_error)
            scene = demo_scene(job, room, traj)
            if job.retarget:
                traj = retargeted(traj, scene)[0]
        except (OSError, ValueError, KeyError, TypeError) as error:
            detail = f"{type(error).__name__}: {error}"
            if job.replay:
                result.replays.append(ReplayOutcome(path, False, "bad_file", "", detail))
            if job.plan:
                result.plans.append(PlanOutcome(path, "restore_failed", detail=detail))
            continue
        if job.replay:
            result.replays.append(replay_one(traj, scene, path))
        if job.plan:
            result.plans.append(plan_one(traj, scene, path, job.time_limit))
    return result


def _by_room(paths: Sequence[Path], pool: EvidencePool) -> dict[int, list[Path]]:
    room_of = {d.path: d.room for d in pool.demos}
    out: dict[int, list[Path]] = {}
    for path in paths:
        out.setdefault(room_of[path], []).append(path)
    return out


def in_sample_jobs(pool: EvidencePool, sizes: ThorSizes | None, *, replay: bool = True, plan: bool = False,
                   time_limit: float = 30.0) -> list[RoomJob]:
    """Every demonstration in its room built from all the evidence (itself included)."""
    rooms = pool.rooms()
    stats = learnt_stats(rooms)
    groups = _by_room([d.path for d in pool.demos], pool)
    return [RoomJob(rooms[n], stats, sizes, tuple(paths), replay, plan, time_limit)
            for n, paths in sorted(groups.items())]


def held_out_jobs(pool: EvidencePool, sizes: ThorSizes | None, folds: int, *,
                  complete: bool = False) -> list[RoomJob]:
    """Per fold and room: the room built from the other folds, replaying the fold's demonstrations
    (``complete``: each completed from the replayed file, as ``alfred-gen replay`` completes it)."""
    fold_of = pool.folds(folds)
    jobs = []
    for fold in range(folds):
        def outside_fold(demo: Released, fold: int = fold) -> bool:
            return fold_of[demo.path] != fold

        rooms = pool.rooms(outside_fold)
        stats = learnt_stats(rooms)
        held = _by_room([d.path for d in pool.demos if fold_of[d.path] == fold], pool)
        jobs += [RoomJob(rooms[n], stats, sizes, tuple(paths), complete=complete) for n, paths in sorted(held.items())]
    return jobs


def unseen_room_jobs(pool: EvidencePool, sizes: ThorSizes | None, groups: int, *,
                     complete: bool = False, rules: bool = False) -> list[RoomJob]:
    """Per room: the room built from its layout files alone, statistics learnt from the rooms of
    the other groups, replaying every demonstration of the room (``complete``: each completed
    from the replayed file, as ``alfred-gen replay`` completes it; ``rules``: with the fixtures
    placed by the rules learnt from the other groups' rooms, as an import places them in a room
    without demos, and actions on fixtures retargeted to them, :mod:`alfred_gen.fidelity.retarget`)."""
    group_of = pool.room_groups(groups)
    by_room = _by_room([d.path for d in pool.demos], pool)
    jobs = []
    for group in range(groups):
        def other_rooms(demo: Released, group: int = group) -> bool:
            return group_of[demo.room] != group

        others = pool.rooms(other_rooms)
        stats = learnt_stats(others)
        fixture_rules = learn_fixture_rules(others.values()) if rules else {}
        for number in sorted(n for n, g in group_of.items() if g == group):
            evidence = with_rule_fixtures(pool.room_evidence(number), fixture_rules)[0]
            jobs.append(RoomJob(evidence, stats, sizes, tuple(by_room[number]), complete=complete, retarget=rules))
    return sorted(jobs, key=lambda j: j.evidence.scene_num)


def run_jobs(jobs: Sequence[RoomJob], workers: int = 1,
             on_done: Callable[[int], None] | None = None) -> JobResult:
    """Run every job (in ``workers`` processes when more than one); outcomes in job order.
    ``on_done(n)`` is called as each job finishes with its number of demonstrations."""
    merged = JobResult([], [])
    for job, result in zip(jobs, run_ordered(run_job, jobs, workers)):
        merged.replays += result.replays
        merged.plans += result.plans
        if on_done is not None:
            on_done(len(job.paths))
    return merged
