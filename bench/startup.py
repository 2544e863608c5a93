"""Benchmark of how fast `alfred-gen sample` gets going: a fresh run, a resumed one, a finished one.

A fresh run builds the task space (every room) and the plan before its first worker starts; a
resumed run reads the plan saved in the output directory and checks the trials on disk as the
schedule reaches them, so it should start its first worker at once; a finished run checks every
planned trial and says there is nothing left to do. Each is the real command in a process of its
own, timed from the start of the process to its first worker process (or to its exit, for the
finished run); the resumed and finished figures are printed beside the fresh one, as ratios.

A fourth figure is a fresh run of a large N (``--large-n``, default 100,000) in a directory of
its own, timed to its first worker and stopped there (Ctrl-C): the run plans the shard's first groups
and grows the plan as it reaches later ones, so its start should not depend on N (a ratio near 1 to
the small fresh run; both build the task space).

    python bench/startup.py [--n 12] [--workers 2] [--scenes 1-30,201-230] [--large-n 100000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _time_to_first_worker(command: list[str]) -> tuple[float, subprocess.Popen]:
    """Seconds from starting ``command`` to its first child process (a worker); the process."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while process.poll() is None:
        try:  # read each time: until the exec the child still shows this script's command line
            own = Path(f"/proc/{process.pid}/cmdline").read_bytes()
            workers = [c for c in _children(process.pid) if Path(f"/proc/{c}/cmdline").read_bytes() == own]
        except OSError:  # a process ended while we looked
            workers = []
        if workers:
            return time.perf_counter() - began, process
        time.sleep(0.005)
    sys.exit("the run ended before it started a worker")


def _finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=1800)
    if process.returncode != 0:
        sys.exit(f"the run failed ({process.returncode}): {err.strip()}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=12, help="trajectories of the finished run (default 12)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenes", default="", help="restrict scenes, e.g. 1-30 (default: all 120)")
    parser.add_argument("--keep", help="write the run under this directory instead of a temporary one")
    parser.add_argument("--large-n", type=int, default=100_000, help="N of the large fresh run (0: skip it)")
    args = parser.parse_args()
    if not Path("/proc/self/task").exists():
        sys.exit("needs Linux's /proc to see worker processes")
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="alfred-gen-startup-"))
    out = root / "out"
    shutil.rmtree(out, ignore_errors=True)

    def command(n: int, where: Path = out) -> list[str]:
        extra = ["--scenes", args.scenes] if args.scenes else []
        return [sys.executable, "-m", "alfred_gen.cli", "sample", "--n", str(n), "--out", str(where),
                "--workers", str(args.workers), "--seed", "0", *extra]

    print(f"alfred-gen sample --n {args.n} --workers {args.workers}{' --scenes ' + args.scenes if args.scenes else ''}")
    try:
        half = max(1, args.n // 2)
        fresh, process = _time_to_first_worker(command(half))
        _finish(process)
        print(f"fresh run:    first worker after {fresh:6.2f} s (builds the task space and the plan)")
        resumed, process = _time_to_first_worker(command(args.n))
        _finish(process)
        print(f"resumed run:  first worker after {resumed:6.2f} s ({half} of {args.n} already made)  "
              f"{resumed / fresh:.2f}x the fresh run")
        began = time.perf_counter()
        printed = _finish(subprocess.Popen(command(args.n), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True))
        finished = time.perf_counter() - began
        said = "nothing left to do" in printed
        print(f"finished run: said {'nothing left to do' if said else 'SOMETHING ELSE'} after {finished:6.2f} s "
              f"(checked {args.n} trials)  {finished / fresh:.2f}x the fresh run's start")
        if args.large_n:
            large, process = _time_to_first_worker(command(args.large_n, root / "large"))
            process.send_signal(signal.SIGINT)
            process.communicate(timeout=600)
            print(f"fresh run of --n {args.large_n}: first worker after {large:6.2f} s  "
                  f"{large / fresh:.2f}x the fresh run of --n {half}")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
