"""Replay ALFRED's released demonstrations in lite, in rooms not built from them; plan their tasks.

    python bench/alfred_fidelity.py ALFRED_JSON_DIR [--alfred-dir DIR] [--thor-db DIR]
                                    [--folds K] [--unseen-rooms] [--no-in-sample] [--no-plans]
                                    [--subset DIR [--only-subset]] [--rooms N,N,...] [--workers N]
                                    [--time-limit S] [--every N [--offset K]] [--masks [--masks-out FILE]]
                                    [--complete-heldout] [--without PASS[,PASS]]

Rooms come from the layouts of the ALFRED checkout holding ALFRED_JSON_DIR (or ``--alfred-dir``)
and the facts of the replayed demonstrations, as ``alfred-gen scenes import-alfred`` builds them
(:mod:`alfred_gen.fidelity.evidence_pool` says how each figure holds them out):

- held out (``--folds K``, default 5): each demonstration replayed in its room built from the
  other K-1 folds of that room's demonstrations: ``fidelity_heldout: X%``;
- unseen rooms (``--unseen-rooms``): each demonstration replayed in its room built from the
  room's layout files alone: (a) ``fidelity_unseen_rooms: Y%``, as ``--no-complete`` replays;
  (b) the same rooms completed from each replayed file, as ``alfred-gen replay`` completes them
  (the fixtures the file acts on made at their ids' positions):
  ``fidelity_unseen_rooms_completed: Y'%``; (c) the same rooms with the fixtures type-level rules
  place (no file used; actions on a fixture the room lacks pointed at its nearest of that type):
  ``fidelity_unseen_rooms_rules: Y''%``; ``--unseen-only`` measures only these;
- in sample (unless ``--no-in-sample``): in rooms built from every demonstration, the replayed one
  included. That measures memory, and is labelled so: ``fidelity_in_sample: Z%``.

Each figure comes with its failure table by cause and failing action. Then (unless ``--no-plans``)
in every demonstration's start state, in the in-sample room, our planner solves the same task and
its expansion is executed in lite to the goal: ``plan_coverage: k/n``, with how often our plan
agrees with ALFRED's. ``--subset DIR`` repeats the figures over the demonstrations that also lie
under DIR (say, the 238 of ``../shared/alfred``); with ``--only-subset`` only those are replayed and
planned. ``--rooms`` likewise replays and plans only the demonstrations of the rooms named. Either
way every room is still built from the evidence of the whole tree (the folds, the other folds' and
the other room groups' statistics are what they are in the full run), so each demonstration's
outcome is the one the full run gives it: a quick run measures a part of the full run, not
another experiment. The last line is ``fidelity: X%``, the held-out figure.

``--masks`` also measures where lite draws each target, held out by folds (and in unseen rooms
with ``--unseen-rooms``): at every interaction, THOR's released mask of the target against lite's
instance mask in the frame before the action (IoU per action and per type), and how often ALFRED's
own rule (``va_interact``) picks the target from THOR's mask in lite's frame
(:mod:`alfred_gen.fidelity.masks`): ``masks_heldout_iou: X`` and ``masks_heldout_rule: Y%``. Beside
them, ``masks_heldout_rule_shown: Z%`` is the rule over the interactions other than the pickups of
a thing the demo had put down where no demo of the room's other folds shows it landing
(:mod:`alfred_gen.fidelity.landing_evidence`): those a room built from the other folds has evidence for.

``--complete-heldout`` completes each held-out room from the replayed file, as ``alfred-gen replay``
completes a room (:mod:`alfred_gen.scenes.alfred.complete`: the fixtures its actions name that no
other fold's demo or layout file does), and names the held-out figures ``fidelity_heldout_completed``
and ``masks_heldout_completed_*``: what a user replaying a released demonstration of a seen room gets.

``--without PASS[,PASS]`` builds every room, and fits it to each start state, with those importer
passes switched off (:mod:`alfred_gen.scenes.alfred.passes`; an unknown name exits 2 listing the
valid ones): run with and without, the figures say what the passes buy (``docs/importer.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from alfred_gen.atomic import write_text
from alfred_gen.domains import catalogue
from alfred_gen.errors import UserError
from alfred_gen.fidelity import held_out, landing_evidence
from alfred_gen.fidelity import masks as mask_fidelity
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool, Released, layout_fixtures, unknowable_demos
from alfred_gen.progress import progress
from alfred_gen.scenes.alfred.passes import check_without
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.traj.format import TRAJ_FILE_NAME


def _trial_key(path: Path) -> tuple[str, str]:
    return (path.parent.parent.name, path.parent.name)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _run(label: str, jobs: Sequence[held_out.RoomJob], workers: int) -> held_out.JobResult:
    total = sum(len(j.paths) for j in jobs)
    with progress(label, total) as bar:
        return held_out.run_jobs(jobs, workers, on_done=bar.update)


def _section(title: str, outcomes: Sequence[fidelity.ReplayOutcome], name: str, subset: set[tuple[str, str]],
             listed: int, seconds: float) -> str:
    print(f"\n== {title}")
    print(f"replayed {len(outcomes)} trajectories in {seconds:.1f} s")
    lines = fidelity.fidelity_report(outcomes, name, each_failure=False)
    for line in lines:
        print(line)
    failed = [o for o in outcomes if not o.ok]
    for o in failed[:listed]:
        print(f"  {o.path.parent.parent.name}/{o.path.parent.name}: {o.reason}: {o.error}")
    if len(failed) > listed:
        print(f"  ... and {len(failed) - listed} more")
    if subset:
        chosen = [o for o in outcomes if _trial_key(o.path) in subset]
        print(fidelity.fidelity_report(chosen, f"{name}_subset", each_failure=False)[-1]
              + f" (the {len(chosen)} also under --subset)")
    return lines[-1]


def _measured_only(jobs: Sequence[held_out.RoomJob], measured: Callable[[Path], bool],
                   without: frozenset[str]) -> list[held_out.RoomJob]:
    """The jobs with only the demonstrations to measure (their rooms stay as the full run builds them,
    but for the passes switched off ``without``)."""
    kept = [replace(job, paths=tuple(p for p in job.paths if measured(p)), without=without) for job in jobs]
    return [job for job in kept if job.paths]


def _bound(pool: EvidencePool, known: Callable[[Released], set[str]], name: str, who: str,
           measured: Callable[[Path], bool]) -> None:
    """Print how many demos act on a fixture the rooms built for them cannot know, and the bound."""
    lost = [d for d in unknowable_demos(pool, known) if measured(d.path)]
    n = sum(1 for d in pool.demos if measured(d.path))
    kinds = Counter(catalogue.type_of_id(i) for d in lost for i in {i for i, _ in d.facts.interaction_poses} - known(d))
    print(f"bound: {len(lost)} of {n} demos act on a fixture neither the room's layout files {who} "
          f"({', '.join(f'{k} {c}' for k, c in kinds.most_common())}): no room built for them holds it, "
          f"so {name} <= {100.0 * (n - len(lost)) / n if n else 0.0:.1f}%")


def _masks(title: str, jobs: Sequence[held_out.RoomJob], name: str, workers: int, out: Path | None,
           more: Callable[[list[mask_fidelity.DemoMasks]], list[str]] | None = None) -> list[str]:
    """Measure the masks of ``jobs``' demonstrations; print the tables; return the summary lines;
    with ``out``, write every interaction's record to ``out`` with the figure's name before its suffix;
    with ``more``, print its lines too and return its last one with the summary."""
    total = sum(len(j.paths) for j in jobs)
    with progress(f"masks {name}", total) as bar:
        demos, seconds = fidelity.timed(lambda: mask_fidelity.run_mask_jobs(jobs, workers, on_done=bar.update))
    print(f"\n== masks, {title}")
    print(f"replayed {len(demos)} trajectories with instance masks in {seconds:.1f} s")
    lines = mask_fidelity.mask_report(demos, f"masks_{name}")
    summary = lines[-2:]
    if more is not None:
        extra = more(demos)
        lines += extra
        summary += extra[-1:]
    for line in lines:
        print(line)
    if out is not None:
        target = out.with_name(f"{out.stem}_{name}{out.suffix}")
        write_text(target, json.dumps(mask_fidelity.records(demos), indent=1) + "\n")
        print(f"records: {target}")
    return summary


def _shown_landings(pool: EvidencePool, folds: int, name: str) -> Callable[[list[mask_fidelity.DemoMasks]], list[str]]:
    """The lines saying how many pickups land where no other fold's demo shows
    (:mod:`alfred_gen.fidelity.landing_evidence`) and ALFRED's rule over the interactions other than those."""
    def lines(demos: list[mask_fidelity.DemoMasks]) -> list[str]:
        items = [a for d in demos for a in d.measured]
        unshown = landing_evidence.unshown_landings(pool, pool.folds(folds), items)
        left_out = {(a.path, a.low_idx) for a in unshown}
        rest = [a for a in items if (a.path, a.low_idx) not in left_out]
        right = sum(a.right for a in rest)
        return [f"landings no other fold shows: {len(unshown)} pickups of a thing the demo had put into a "
                f"fridge, microwave or sink, landed more than {landing_evidence.SHOWN_WITHIN:.2f} m from every landing "
                f"of its type put from that pose that the room's other folds show (ALFRED's rule picks "
                f"{sum(a.right for a in unshown)} of them)",
                f"masks_{name}_rule_shown: {fidelity.percent(right, len(rest))} ({right}/{len(rest)}): ALFRED's "
                "rule over the other interactions, those a room built from the other folds has evidence for"]
    return lines


def _held_out(pool: EvidencePool, sizes: ThorSizes | None, args: argparse.Namespace,
              measured: Callable[[Path], bool], subset: set[tuple[str, str]]) -> str:
    """The held-out figure (each demo in its room built from the other folds) and its bound."""
    jobs = _measured_only(held_out.held_out_jobs(pool, sizes, args.folds, complete=args.complete_heldout),
                          measured, args.without)
    result, seconds = fidelity.timed(lambda: _run("held out", jobs, args.workers))
    heldout = _section(_held_out_title(args), result.replays, _held_out_name(args, "fidelity_heldout"), subset,
                       args.list_failures, seconds)
    if args.complete_heldout:  # a room completed from the file holds every fixture it names: no bound
        return heldout, list(jobs)
    fold_of = pool.folds(args.folds)
    named: dict[tuple[int, int], set[str]] = {}
    for demo in pool.demos:
        for fold in range(args.folds):
            if fold_of[demo.path] != fold:
                named.setdefault((demo.room, fold), set()).update(demo.facts.static_ids)
    _bound(pool, lambda d: layout_fixtures(pool.layouts[d.room]) | named.get((d.room, fold_of[d.path]), set()),
           "fidelity_heldout", "nor another fold's demos name", measured)
    return heldout, list(jobs)


def _held_out_title(args: argparse.Namespace) -> str:
    title = f"held out: each demo in its room built from the other {args.folds - 1} of {args.folds} folds"
    return title + (", completed from the replayed file" if args.complete_heldout else "")


def _held_out_name(args: argparse.Namespace, name: str) -> str:
    """A held-out figure's name: with ``--complete-heldout``, suffixed ``_completed``."""
    return f"{name}_completed" if args.complete_heldout else name


def _unseen_completed(pool: EvidencePool, sizes: ThorSizes | None, args: argparse.Namespace,
                      measured: Callable[[Path], bool], subset: set[tuple[str, str]]) -> list[str]:
    """(b): the rooms of the unseen-rooms figure, each completed from the replayed file; (c): the
    same rooms with fixtures placed by rules learnt from the other room groups, no file used."""
    jobs = _measured_only(held_out.unseen_room_jobs(pool, sizes, args.folds, complete=True), measured, args.without)
    result, seconds = fidelity.timed(lambda: _run("unseen rooms, completed", jobs, args.workers))
    lines = [_section("unseen rooms (b): the same rooms from layout files only, each completed from the replayed "
                      "file (the fixtures its actions name, made at their ids' positions with their types' sizes)",
                      result.replays, "fidelity_unseen_rooms_completed", subset, args.list_failures, seconds)]
    jobs = _measured_only(held_out.unseen_room_jobs(pool, sizes, args.folds, rules=True), measured, args.without)
    result, seconds = fidelity.timed(lambda: _run("unseen rooms, rule fixtures", jobs, args.workers))
    lines.append(_section(
        "unseen rooms (c): the same rooms from layout files only plus the fixtures type-level rules place (learnt "
        f"from the other {args.folds - 1} of {args.folds} room groups), no file used; an action on a fixture id "
        "the room lacks is pointed at the room's nearest object of its type, as a mask-driven agent would",
        result.replays, "fidelity_unseen_rooms_rules", subset, args.list_failures, seconds))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json_dir", type=Path, help="directory holding traj_data.json files (searched recursively)")
    parser.add_argument("--alfred-dir", type=Path, help="ALFRED checkout with gen/layouts or layouts")
    parser.add_argument("--thor-db", type=Path, help="directory of THOR's asset-database.json (real sizes)")
    parser.add_argument("--folds", type=int, default=5, help="folds per room for the held-out figure (default 5)")
    parser.add_argument("--unseen-rooms", action="store_true", help="also replay each room built from its layouts only")
    parser.add_argument("--unseen-only", action="store_true",
                        help="only the unseen-rooms figures (a), (b), (c): no held-out, in-sample or plans")
    parser.add_argument("--no-in-sample", action="store_true", help="skip the in-sample replay")
    parser.add_argument("--no-plans", action="store_true", help="skip planning the demonstrations' tasks")
    parser.add_argument("--subset", type=Path, help="also report over the demos found under this directory too")
    parser.add_argument("--only-subset", action="store_true",
                        help="replay and plan only the demos under --subset (rooms still built from all the evidence)")
    parser.add_argument("--rooms", help="replay and plan only the demos of these scene numbers (comma separated; "
                                        "rooms still built from all the evidence), for quick runs")
    parser.add_argument("--every", type=int, default=1,
                        help="replay and plan only every N-th demonstration (sorted by path; rooms still built "
                             "from all the evidence): a deterministic subset for quick runs")
    parser.add_argument("--offset", type=int, default=0,
                        help="with --every N: start at the K-th demonstration (0 <= K < N), so --every 20 --offset 10 "
                             "measures demos the default sample (offset 0) leaves out")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    parser.add_argument("--list-failures", type=int, default=40, help="failures listed per figure (default 40)")
    parser.add_argument("--masks", action="store_true",
                        help="also compare THOR's released target masks with lite's frames (IoU, va_interact rule)")
    parser.add_argument("--masks-out", type=Path,
                        help="with --masks: write each interaction's record as JSON (FILE_heldout.json, ...)")
    parser.add_argument("--complete-heldout", action="store_true",
                        help="complete each held-out room from the replayed file, as alfred-gen replay does "
                             "(figures named fidelity_heldout_completed, masks_heldout_completed_*)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="planner time limit per task, seconds")
    parser.add_argument("--without", default="", metavar="PASS[,PASS]",
                        help="build the rooms with these importer passes switched off (docs/importer.md)")
    args = parser.parse_args(argv)
    try:
        args.without = check_without(args.without.split(","))
    except ValueError as error:
        print(f"alfred_fidelity: error: --without: {error}", file=sys.stderr)
        return 2
    if args.folds < 2:
        parser.error("--folds must be at least 2")
    if args.every < 1:
        parser.error("--every must be at least 1")
    if not 0 <= args.offset < args.every:
        parser.error("--offset must be at least 0 and less than --every")
    if args.only_subset and not args.subset:
        parser.error("--only-subset needs --subset")
    if args.masks_out and not args.masks:
        parser.error("--masks-out needs --masks")
    try:
        if not args.json_dir.exists():
            raise UserError(f"{args.json_dir}: no such directory")
        files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file()) \
            if args.json_dir.is_dir() else [args.json_dir]
        if not files:
            raise UserError(f"{args.json_dir}: no traj_data.json found")
        sources = fidelity.sources_for(files, args.alfred_dir)
        sizes = ThorSizes.load(args.thor_db) if args.thor_db is not None else None
    except UserError as error:
        print(f"alfred_fidelity: error: {error}", file=sys.stderr)
        return int(error.code)
    with progress("reading", len(files)) as bar:
        (pool, seconds) = fidelity.timed(lambda: EvidencePool.read(sources, files, args.workers, bar.update))
    subset = {_trial_key(p) for p in args.subset.rglob(TRAJ_FILE_NAME)} if args.subset else set()
    wanted = {int(n) for n in args.rooms.split(",")} if args.rooms else None
    room_of = {d.path: d.room for d in pool.demos}
    every = {d.path for i, d in enumerate(pool.demos) if i % args.every == args.offset}

    def measured(path: Path) -> bool:
        return ((wanted is None or room_of[path] in wanted) and (not args.only_subset or _trial_key(path) in subset)
                and path in every)

    print(f"evidence: {len(pool.demos)} demonstrations in {len(pool.rooms_with_demos())} rooms, "
          f"{len(pool.layouts)} room layouts, {len(pool.unreadable)} unreadable, read in {seconds:.1f} s"
          f"{', THOR sizes' if sizes else ''}; {args.workers} worker(s)"
          + (f"; importer passes switched off: {','.join(sorted(args.without))}" if args.without else ""))
    if wanted is not None or args.only_subset or args.every > 1:
        print(f"measured: {sum(1 for d in pool.demos if measured(d.path))} of them"
              + (f" (every {args.every}th from the {args.offset}th, sorted by path)" if args.every > 1 else "")
              + (f" (rooms {args.rooms})" if wanted is not None else "")
              + (" (only those under --subset)" if args.only_subset else "")
              + "; every room built from all the evidence")
    for path in pool.unreadable:
        print(f"  unreadable: {path}")

    figures = []
    if args.unseen_only:
        args.unseen_rooms = args.no_in_sample = args.no_plans = True
    if not args.no_in_sample or not args.no_plans:
        jobs = held_out.in_sample_jobs(pool, sizes, replay=not args.no_in_sample, plan=not args.no_plans,
                                       time_limit=args.time_limit)
        jobs = _measured_only(jobs, measured, args.without)
        result, seconds = fidelity.timed(lambda: _run("in sample", jobs, args.workers))
        if not args.no_in_sample:
            figures.append(_section("in sample: rooms built from every demo, the replayed one included "
                                    "(memory, not fidelity)", result.replays, "fidelity_in_sample", subset,
                                    args.list_failures, seconds))
        if not args.no_plans:
            plans = result.plans
            print("\n== plans: each demo's task planned in its start state (in-sample room), expanded, "
                  "executed in lite to the goal")
            for line in fidelity.agreement_report(plans):
                print(line)
            for line in fidelity.plan_failures(plans)[: args.list_failures]:
                print(line)
            print(fidelity.coverage_line(plans))
            if subset:
                print(fidelity.coverage_line([o for o in plans if _trial_key(o.path) in subset],
                                             "plan_coverage_subset") + " (the demos also under --subset)")
    heldout = ""
    if not args.unseen_only:
        heldout, jobs = _held_out(pool, sizes, args, measured, subset)
        figures.append(heldout)
        if args.masks:
            name = _held_out_name(args, "heldout")
            figures += _masks(_held_out_title(args), jobs, name, args.workers, args.masks_out,
                              _shown_landings(pool, args.folds, name))
    if args.unseen_rooms:
        jobs = _measured_only(held_out.unseen_room_jobs(pool, sizes, args.folds), measured, args.without)
        result, seconds = fidelity.timed(lambda: _run("unseen rooms", jobs, args.workers))
        figures.append(_section("unseen rooms (a): each room built from its layout files only (statistics "
                                f"learnt from the other {args.folds - 1} of {args.folds} room groups)",
                                result.replays, "fidelity_unseen_rooms", subset, args.list_failures, seconds))
        _bound(pool, lambda d: layout_fixtures(pool.layouts[d.room]), "fidelity_unseen_rooms", "name", measured)
        if args.masks:
            figures += _masks("unseen rooms: each room built from its layout files only", jobs, "unseen_rooms",
                              args.workers, args.masks_out)
        figures += _unseen_completed(pool, sizes, args, measured, subset)
    print("\n== summary")
    for line in figures:
        print(line)
    print(f"peak memory of this process: {_peak_mb():.0f} MB")
    if heldout:
        print("fidelity: " + heldout.split(": ", 1)[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
