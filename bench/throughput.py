"""Benchmark of `alfred-gen sample`: vetted trajectories per minute, with frames, 1 and 2 workers, Ray.

Runs the real sampling job (balanced tuples, spawn, plan, expand, record frames, vet by replay,
atomic write) side by side with one and with two worker processes, and with the Ray executor on a
Ray of two CPUs started here (``--executor ray``; skipped when the ray extra is not installed), each
into a fresh temporary directory with the same seed, and prints trajectories per minute, failures
by reason, where the generator's time goes, the speed-up of two workers over one, the Ray executor's
rate over the two-worker pool's, and whether all trees are identical. Targets on a 2-core machine:
at least 60 per minute with 2 workers; Ray at least 0.9 of the 2-worker pool.

Ray is started (and its first worker processes warmed by a trivial task) before timing, as a
cluster would be running already; its start-up is printed on its own line. The Ray workers are not
this process's children, so no CPU seconds are printed for the Ray row. With ``--rounds R`` the
2-worker and the Ray runs alternate R times and the ratio of their mean rates is printed: on a
shared machine the load drifts between runs.

Wall-clock rates depend on what else the machine runs, so the CPU seconds per trajectory (parent
and workers) are printed too: 60 / that is the rate one idle core sustains.

Building the feasible task set (120 scenes, a few seconds, once per run) is done before timing and
printed on its own line.

    python bench/throughput.py [--n 40] [--seed 0] [--scenes 1-30,201-230] [--no-frames] [--keep DIR] [--no-ray]
                               [--rounds R]
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.sample.feasibility import feasible_tuples
from alfred_gen.sample.options import SampleOptions, parse_scenes
from alfred_gen.sample.run import run_sample


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _run(n: int, seed: int, workers: int, scenes: tuple[int, ...], frames: bool, out: Path,
         executor: str = "local") -> float:
    cpu, began = _cpu_seconds(), time.perf_counter()
    summary = run_sample(SampleOptions(n=n, out=out, seed=seed, workers=workers, scenes=scenes, frames=frames,
                                       executor=executor))
    seconds, cpu = time.perf_counter() - began, _cpu_seconds() - cpu
    rate = 60.0 * summary.made_now / seconds
    failures = ", ".join(f"{k} {v}" for k, v in sorted(summary.failures.items())) or "none"
    frames_written = sum(1 for _ in out.rglob("*.jpg"))
    label = f"Ray, {workers} CPUs" if executor == "ray" else f"{workers} worker{'s' if workers > 1 else ' '}"
    cpu_note = "" if executor == "ray" else f"; {cpu / max(1, summary.made_now):.2f} CPU s per trajectory"
    print(
        f"{label}  {rate:7.1f} trajectories/min  "
        f"({summary.made_now} in {seconds:.1f} s, {frames_written} frames{cpu_note}; failed attempts: {failures})",
        flush=True,
    )
    phases = summary.phase_seconds
    total = sum(phases.values()) or 1.0
    print(
        "           generator time: "
        + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sorted(phases.items(), key=lambda kv: -kv[1]))
    )
    return rate


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


def _tree_digest(root: Path) -> str:
    """The files' names and bytes (lock files aside: they only say a run once held the directory)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith("lock-")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=40, help="trajectories per run (default 40)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenes", default="", help="restrict scenes, e.g. 1-30,201 (default: all 120)")
    parser.add_argument("--no-frames", action="store_true", help="do not write frames (for comparison)")
    parser.add_argument("--keep", help="write the runs under this directory instead of a temporary one")
    parser.add_argument("--no-ray", action="store_true", help="leave out the Ray row")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of the 2-worker pool and Ray, alternated (the load of a shared machine drifts)")
    args = parser.parse_args()
    scenes = parse_scenes(args.scenes) if args.scenes else ()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="alfred-gen-throughput-"))
    print(
        f"alfred-gen sample --n {args.n} --seed {args.seed}{' --no-frames' if args.no_frames else ''}"
        f"{' --scenes ' + args.scenes if args.scenes else ''}"
    )
    began = time.perf_counter()
    space = feasible_tuples(None, scenes or None)
    print(f"task space: {len(space)} feasible tuples, built in {time.perf_counter() - began:.1f} s (once per run)")
    rates = {}
    try:
        for workers in (1, 2):
            out = root / f"workers-{workers}"
            shutil.rmtree(out, ignore_errors=True)
            rates[workers] = _run(args.n, args.seed, workers, scenes, not args.no_frames, out)
        same = _tree_digest(root / "workers-1") == _tree_digest(root / "workers-2")
        print(
            f"2 workers / 1 worker: {rates[2] / rates[1]:.2f}x; "
            f"trees {'identical' if same else 'DIFFERENT'} for the same seed"
        )
        print(f"target >= 60 trajectories/min with 2 workers: {'met' if rates[2] >= 60 else 'NOT met'}")
        if not args.no_ray and _start_ray(2):
            pool_rates, ray_rates = [], []
            for round_ in range(1, args.rounds + 1):
                if round_ > 1:  # the 2-worker run again, right before this round's Ray run
                    out = root / "workers-2"
                    shutil.rmtree(out, ignore_errors=True)
                    rates[2] = _run(args.n, args.seed, 2, scenes, not args.no_frames, out)
                out = root / "ray-2"
                shutil.rmtree(out, ignore_errors=True)
                pool_rates.append(rates[2])
                ray_rates.append(_run(args.n, args.seed, 2, scenes, not args.no_frames, out, executor="ray"))
                same = _tree_digest(out) == _tree_digest(root / "workers-2")
                print(f"round {round_}: Ray (2 CPUs) / 2 workers: {ray_rates[-1] / pool_rates[-1]:.2f}x; "
                      f"trees {'identical' if same else 'DIFFERENT'}", flush=True)
            ratio = statistics.mean(ray_rates) / statistics.mean(pool_rates)
            print(f"mean over {args.rounds} round(s): 2 workers {statistics.mean(pool_rates):.1f}/min, "
                  f"Ray {statistics.mean(ray_rates):.1f}/min, Ray / 2 workers {ratio:.2f}x")
            print(f"target Ray >= 0.9 of the 2-worker pool: {'met' if ratio >= 0.9 else 'NOT met'}")
    finally:
        if "ray" in sys.modules:
            sys.modules["ray"].shutdown()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
