"""Benchmark of `alfred-gen sample`: vetted trajectories per minute with frames; old code vs new; where the time goes.

Three modes, each the real sampling job (balanced tuples, spawn, plan, expand, record frames, vet by
replay, atomic write) into fresh temporary directories with the same seed:

``--base REF`` (old code vs new)
    checks REF (a branch, tag or commit) out into a temporary git worktree with its own venv, then
    runs REF's code and this checkout's code *alternately* (``--rounds R``, the order flipping each
    round, so a drift in the shared machine's load hits both sides alike), each in a fresh Python
    process with ``--workers`` workers, and prints each run's rate, the ratio of mean rates
    new / old, CPU seconds per trajectory, and whether every tree is byte-identical (same seed:
    same bytes, or the speed-up does not count).
``--profile``
    one run in this process with one worker and the phase clock of ``bench/phases.py``: per phase
    (task space and plan, start state, planning, expansion, recording with render / visibility /
    metadata / JPEG encode, language, writing, vetting, failed attempts) its share of wall and of
    CPU time, and the render-bound limit (trajectories per minute if only drawing pixels cost time)
    next to the measured rate.
default
    one and two workers in this process's code and the Ray executor on a Ray of two CPUs (skipped
    without the ray extra), with the 2-worker/1-worker speed-up and Ray / 2 workers.

Rooms are built before timing in every process (a long-running service has them; the first build
takes seconds): what is timed is ``run_sample`` itself, task space included. Rates on a shared
machine move with its load; quote the ratios.

    python bench/throughput.py --base main [--rounds 3] [--n 40] [--seed 3] [--workers 2]
    python bench/throughput.py --profile [--n 20] [--seed 3]
    python bench/throughput.py [--n 40] [--seed 0] [--scenes 1-30,201-230] [--no-frames] [--keep DIR] [--no-ray]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent


# ---------------------------------------------------------------------------------------------
# One run (in this process): what every mode is made of


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def tree_digest(root: Path) -> str:
    """The files' names and bytes (lock files aside: they only say a run once held the directory;
    and the check cache's stamps, which hold the files' inodes and times, not their bytes)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(("lock-", "checked-"))):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def warm_rooms(scenes: tuple[int, ...]) -> float:
    """Build every room (and the task space once) before timing; the seconds it took."""
    from alfred_gen.sample.feasibility import feasible_tuples

    began = time.perf_counter()
    feasible_tuples(None, scenes or None)
    return time.perf_counter() - began


def one_run(n: int, seed: int, workers: int, scenes: tuple[int, ...], frames: bool, out: Path,
            executor: str = "local", generate: Any = None) -> dict[str, Any]:
    """``run_sample`` once into ``out``: made, seconds, CPU seconds, failures, frames, tree digest."""
    from alfred_gen.sample.options import SampleOptions
    from alfred_gen.sample.run import run_sample

    shutil.rmtree(out, ignore_errors=True)
    cpu, began = _cpu_seconds(), time.perf_counter()
    summary = run_sample(SampleOptions(n=n, out=out, seed=seed, workers=workers, scenes=scenes, frames=frames,
                                       executor=executor), generate=generate)
    seconds, cpu = time.perf_counter() - began, _cpu_seconds() - cpu
    return {
        "made": summary.made_now,
        "seconds": seconds,
        "cpu": cpu,
        "failures": {str(k): v for k, v in sorted(summary.failures.items())},
        "frames": sum(1 for _ in out.rglob("*.jpg")),
        "digest": tree_digest(out),
        "phases": {str(k): float(v) for k, v in summary.phase_seconds.items()},
    }


def rate(run: dict[str, Any]) -> float:
    return 60.0 * run["made"] / run["seconds"] if run["seconds"] > 0 else 0.0


def describe(label: str, run: dict[str, Any], cpu: bool = True) -> str:
    failures = ", ".join(f"{k} {v}" for k, v in run["failures"].items()) or "none"
    cpu_note = f"; {run['cpu'] / max(1, run['made']):.2f} CPU s per trajectory" if cpu else ""
    return (f"{label}  {rate(run):7.1f} trajectories/min  ({run['made']} in {run['seconds']:.1f} s, "
            f"{run['frames']} frames{cpu_note}; failed attempts: {failures})")


# ---------------------------------------------------------------------------------------------
# Sides: which code runs (a Python interpreter whose alfred_gen is that code)


@dataclass
class Side:
    """A version of the code to run: a name and the interpreter that imports it."""

    name: str
    python: str


def child_main(args: argparse.Namespace) -> None:
    """``--child``: one run in this (fresh) process, its result as one JSON line on stdout."""
    scenes = _scenes(args.scenes)
    warm_rooms(scenes)
    run = one_run(args.n, args.seed, args.workers, scenes, not args.no_frames, Path(args.child))
    print(json.dumps(run), flush=True)


def run_side(side: Side, out: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One run of ``side`` in a fresh process (this script, under that side's interpreter)."""
    command = [side.python, str(Path(__file__).resolve()), "--child", str(out), "--n", str(args.n),
               "--seed", str(args.seed), "--workers", str(args.workers)]
    if args.scenes:
        command += ["--scenes", args.scenes]
    if args.no_frames:
        command.append("--no-frames")
    done = subprocess.run(command, capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise SystemExit(f"throughput: the {side.name} run failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def base_side(ref: str, root: Path) -> Side:
    """REF checked out into a temporary worktree under ``root``, installed into its own venv."""
    tree = root / "base"
    subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "add", "--detach", str(tree), ref],
                   check=True, capture_output=True)
    venv = tree / ".venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base_python, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
                    "-e", str(tree)], check=True, capture_output=True)
    commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    return Side(f"{ref} ({commit})", str(venv / "bin" / "python"))


def remove_base(root: Path) -> None:
    tree = root / "base"
    if tree.exists():
        subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "remove", "--force", str(tree)],
                       capture_output=True)


def compare(sides: list[Side], root: Path, args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """Every side once per round, the order rotating each round; all runs by side."""
    runs: dict[str, list[dict[str, Any]]] = {side.name: [] for side in sides}
    for round_ in range(args.rounds):
        order = sides[round_ % len(sides):] + sides[:round_ % len(sides)]
        for side in order:
            run = run_side(side, root / f"out-{len(runs[side.name])}-{abs(hash(side.name)) % 10**6}", args)
            runs[side.name].append(run)
            print(describe(f"round {round_ + 1} {side.name:>24}", run), flush=True)
    return runs


def report_comparison(sides: list[Side], runs: dict[str, list[dict[str, Any]]], workers: int) -> None:
    digests = {run["digest"] for side_runs in runs.values() for run in side_runs}
    base, new = sides[0], sides[-1]
    means = {name: statistics.mean(rate(r) for r in side_runs) for name, side_runs in runs.items()}
    cpu = {name: sum(r["cpu"] for r in side_runs) / max(1, sum(r["made"] for r in side_runs))
           for name, side_runs in runs.items()}
    for side in sides:
        print(f"{side.name:>24}: mean {means[side.name]:.1f} trajectories/min with {workers} worker(s), "
              f"{cpu[side.name]:.2f} CPU s per trajectory")
    ratios = [rate(n) / rate(b) for b, n in zip(runs[base.name], runs[new.name], strict=True)]
    print(f"new / old: {means[new.name] / means[base.name]:.2f}x by mean rate "
          f"(per round: {', '.join(f'{r:.2f}x' for r in ratios)}); "
          f"CPU per trajectory old / new: {cpu[base.name] / cpu[new.name]:.2f}x")
    print(f"trees: {'identical' if len(digests) == 1 else 'DIFFERENT'} across all {sum(map(len, runs.values()))} runs")


# ---------------------------------------------------------------------------------------------
# --profile


def profile(args: argparse.Namespace, root: Path) -> None:
    sys.path.insert(0, str(HERE))  # bench/ holds phases.py
    import phases

    scenes = _scenes(args.scenes)
    print(f"rooms built in {warm_rooms(scenes):.1f} s (before timing)")
    clock = phases.PhaseClock()
    with phases.hooked(clock):
        clock.start()
        run = one_run(args.n, args.seed, 1, scenes, not args.no_frames, root / "profile",
                      generate=phases.profiled_generator(clock))
        clock.stop()
    print(describe("1 worker (profiled)", run))
    print(f"{'phase':<44} {'wall':>6} {'CPU':>6}")
    for label, wall, cpu in phases.table(clock):
        print(f"{label:<44} {100 * wall:5.1f}% {100 * cpu:5.1f}%")
    measured = rate(run)
    limit = 60.0 * run["made"] / clock.render_wall if clock.render_wall else float("inf")
    print(f"render-bound limit: {limit:.0f} trajectories/min per core if only drawing pixels cost time "
          f"(render + visibility of the kept trajectories, {clock.render_wall / max(1, run['made']):.3f} s each); "
          f"measured {measured:.1f} per core: {measured / limit:.0%} of the limit")


# ---------------------------------------------------------------------------------------------
# default: 1 and 2 workers, Ray


def _start_ray(cpus: int) -> bool:
    """A Ray of ``cpus`` CPUs on this machine, its worker processes started; False without the extra."""
    try:
        import ray
    except ImportError:
        print("Ray: not installed (pip install '.[ray]'): no Ray row")
        return False
    began = time.perf_counter()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
    warm = ray.remote(num_cpus=1)(_nothing)
    ray.get([warm.remote() for _ in range(cpus)])
    print(f"Ray: started with {cpus} CPUs in {time.perf_counter() - began:.1f} s (before timing)", flush=True)
    return True


def _nothing() -> None:
    return None


def workers_and_ray(args: argparse.Namespace, root: Path) -> None:
    scenes = _scenes(args.scenes)
    frames = not args.no_frames
    print(f"rooms built in {warm_rooms(scenes):.1f} s (before timing)")
    runs = {}
    for workers in (1, 2):
        runs[workers] = one_run(args.n, args.seed, workers, scenes, frames, root / f"workers-{workers}")
        print(describe(f"{workers} worker{'s' if workers > 1 else ' '}", runs[workers]), flush=True)
    same = runs[1]["digest"] == runs[2]["digest"]
    print(f"2 workers / 1 worker: {rate(runs[2]) / rate(runs[1]):.2f}x; "
          f"trees {'identical' if same else 'DIFFERENT'} for the same seed")
    if args.no_ray or not _start_ray(2):
        return
    pool_rates, ray_rates = [], []
    for round_ in range(1, args.rounds + 1):
        if round_ > 1:  # the 2-worker run again, right before this round's Ray run
            runs[2] = one_run(args.n, args.seed, 2, scenes, frames, root / "workers-2")
            print(describe("2 workers", runs[2]), flush=True)
        ray_run = one_run(args.n, args.seed, 2, scenes, frames, root / "ray-2", executor="ray")
        print(describe("Ray, 2 CPUs", ray_run, cpu=False), flush=True)  # Ray's workers are not our children
        pool_rates.append(rate(runs[2]))
        ray_rates.append(rate(ray_run))
        print(f"round {round_}: Ray (2 CPUs) / 2 workers: {ray_rates[-1] / pool_rates[-1]:.2f}x; "
              f"trees {'identical' if ray_run['digest'] == runs[2]['digest'] else 'DIFFERENT'}", flush=True)
    ratio = statistics.mean(ray_rates) / statistics.mean(pool_rates)
    print(f"mean over {args.rounds} round(s): 2 workers {statistics.mean(pool_rates):.1f}/min, "
          f"Ray {statistics.mean(ray_rates):.1f}/min, Ray / 2 workers {ratio:.2f}x")


# ---------------------------------------------------------------------------------------------


def _scenes(text: str) -> tuple[int, ...]:
    from alfred_gen.sample.options import parse_scenes

    return tuple(parse_scenes(text)) if text else ()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--n", type=int, default=40, help="trajectories per run (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="workers per run with --base (default 2)")
    parser.add_argument("--scenes", default="", help="restrict scenes, e.g. 1-30,201 (default: all 120)")
    parser.add_argument("--no-frames", action="store_true", help="do not write frames (for comparison)")
    parser.add_argument("--keep", help="write the runs under this directory instead of a temporary one")
    parser.add_argument("--no-ray", action="store_true", help="leave out the Ray row")
    parser.add_argument("--rounds", type=int, default=1, help="alternated rounds (the load of a shared machine drifts)")
    parser.add_argument("--base", help="git ref of the old code to run side by side with this checkout")
    parser.add_argument("--profile", action="store_true", help="where the time goes, per phase (1 worker)")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # one run into this directory, JSON on stdout
    args = parser.parse_args()
    if args.child:
        child_main(args)
        return
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="alfred-gen-throughput-"))
    root.mkdir(parents=True, exist_ok=True)
    print(f"alfred-gen sample --n {args.n} --seed {args.seed}{' --no-frames' if args.no_frames else ''}"
          f"{' --scenes ' + args.scenes if args.scenes else ''}; {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    try:
        if args.profile:
            profile(args, root)
        elif args.base:
            sides = [base_side(args.base, root), Side("this checkout", sys.executable)]
            report_comparison(sides, compare(sides, root, args), args.workers)
        else:
            workers_and_ray(args, root)
    finally:
        if "ray" in sys.modules:
            sys.modules["ray"].shutdown()
        if args.base:
            remove_base(root)
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
