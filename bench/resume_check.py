"""Benchmark of the resume check on a finished run: every trial read in full vs kept on its stamp.

A resumed `alfred-gen sample` checks each planned trial before it counts it
(:mod:`alfred_gen.sample.trial_check`: traj_data.json parsed and validated, the PDDL problem, every
frame's JPEG markers), about 0.1 s a trial. A trial that passed leaves a stamp of its files' stats
(:mod:`alfred_gen.sample.check_cache`), and a later run only stats the files. Side by side, on the
same finished run, alternating so that both see the same machine:

- per trial, in this process: the full check (what every resume did before) vs the stamp check;
- the real command on the finished run, from process start to "nothing left to do": without the
  stamp files (moved aside: every trial read in full, as before) vs with them.

    python bench/resume_check.py [--n 12] [--workers 2] [--scenes 1-3] [--repeat 3] [--keep DIR]

With ``--keep DIR`` the run is made once under DIR and reused by later calls.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.sample.check_cache import PREFIX, load_stamps
from alfred_gen.sample.disk_state import STATE_DIR, scan_tree
from alfred_gen.sample.trial_check import check_trial, stamp_still_holds


def _command(args: argparse.Namespace, out: Path) -> list[str]:
    extra = ["--scenes", args.scenes] if args.scenes else []
    return [sys.executable, "-m", "alfred_gen.cli", "sample", "--n", str(args.n), "--out", str(out),
            "--workers", str(args.workers), "--seed", "0", *extra]


def _run(command: list[str]) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    seconds = time.perf_counter() - began
    if done.returncode != 0:
        sys.exit(f"the run failed ({done.returncode}): {done.stderr.strip()}")
    return seconds


def _trials(out: Path) -> list[tuple[Path, object, str, int]]:
    """(directory, task, trial id, spawn seed) of every trial on disk."""
    found = []
    for task, names in scan_tree(out).trials.items():
        for name in names:
            directory = out / task.dir_name() / name
            spawn = json.loads((directory / "traj_data.json").read_text())["scene"]["random_seed"]
            found.append((directory, task, name, spawn))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scenes", default="1-3", help="rooms of the run (default 1-3)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating timings of each (default 3)")
    parser.add_argument("--keep", help="make (or reuse) the run under this directory")
    args = parser.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="alfred-gen-resume-check-"))
    out = root / "out"
    command = _command(args, out)
    print(" ".join(["alfred-gen", *command[3:]]))
    try:
        seconds = _run(command)
        print(f"made (or found) the run in {seconds:.1f} s")
        state = out / STATE_DIR
        aside = root / "stamps-aside"
        aside.mkdir(exist_ok=True)

        def move_stamps(source: Path, target: Path) -> None:
            for path in source.glob(f"{PREFIX}*.json"):
                shutil.move(str(path), str(target / path.name))

        trials = _trials(out)
        frames = sum(len(list((t[0] / "raw_images").glob("*.jpg"))) for t in trials)
        stamps = load_stamps(state)
        if len(stamps) < len(trials):  # an older run: one resume stamps what it checks
            _run(command)
            stamps = load_stamps(state)
        keys = [f"{task.dir_name()}/{name}" for _, task, name, _ in trials]  # type: ignore[attr-defined]
        if any(key not in stamps for key in keys):
            sys.exit("some trial has no stamp after a resume")
        print(f"{len(trials)} trials, {frames} frames")

        full, stamped, old_runs, new_runs = [], [], [], []
        for _ in range(args.repeat):
            began = time.perf_counter()
            for directory, task, name, spawn in trials:
                problem, _ = check_trial(directory, task, name, spawn, True)  # type: ignore[arg-type]
                assert problem is None, problem
            full.append((time.perf_counter() - began) / len(trials))
            began = time.perf_counter()
            for (directory, _task, _name, spawn), key in zip(trials, keys):
                assert stamp_still_holds(directory, stamps[key], spawn, True)
            stamped.append((time.perf_counter() - began) / len(trials))

            move_stamps(state, aside)  # the old way: no stamps, every trial read in full
            old_runs.append(_run(command))
            for path in state.glob(f"{PREFIX}*.json"):  # what that run stamped again
                path.unlink()
            move_stamps(aside, state)
            new_runs.append(_run(command))

        f, s = statistics.median(full), statistics.median(stamped)
        print(f"per trial, full check:  {f * 1000:8.2f} ms   (median of {args.repeat})")
        print(f"per trial, stamp check: {s * 1000:8.2f} ms   {s / f:.4f}x the full check ({f / s:.0f} times faster)")
        o, n = statistics.median(old_runs), statistics.median(new_runs)
        print(f"finished run, no stamps (every trial read):  {o:6.2f} s")
        print(f"finished run, stamps:                       {n:6.2f} s   {n / o:.2f}x")
        print(f"  (each includes the process start and reading the plan: {o - f * len(trials):.2f} s "
              f"of the first beside {f * len(trials):.2f} s of checks)")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
