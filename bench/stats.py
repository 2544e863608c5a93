"""Benchmark of `alfred-gen stats` on a directory of trajectories: where its time goes, side by side.

`stats` parses every traj_data.json it counts (a file that does not parse is not counted). Three
ways over the same files, alternating, in one process:

- ``path only``: walk the tree and take each trial's slots from its directory name, reading no
  file (what stats did before it parsed files; the floor);
- ``checked parse``: :func:`collect_stats` with every number of every file passed through the
  Python check for out-of-range numbers (what ``loads_checked`` did for every file before it
  learned to skip texts that cannot hold one);
- ``stats``: :func:`collect_stats` as it is.

    python bench/stats.py [DIR] [--repeat 1]

DIR defaults to $ALFRED_TRAIN, else ../shared/alfred-train beside the checkout. Times are CPU
seconds of this process (``time.process_time``), so a busy machine does not inflate them; the page
cache is warmed first, so disk reads are not in them either.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from unittest import mock

from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.stats import collect_stats
from alfred_gen.traj import format as traj_format


def path_only(root: Path) -> int:
    """Trials counted from their directory names, no file read."""
    total = 0
    for folder, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        if "traj_data.json" in files and TaskTuple.from_dir_name(Path(folder).parent.name) is not None:
            total += 1
    return total


def main() -> None:
    default = os.environ.get("ALFRED_TRAIN") or str(Path(__file__).resolve().parents[2] / "shared" / "alfred-train")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", nargs="?", default=default)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    root = Path(args.root)
    times: dict[str, list[float]] = {"path only": [], "checked parse": [], "stats": []}
    counts: dict[str, int] = {}
    for path in root.rglob("traj_data.json"):  # warm the page cache: every way reads the same files
        path.read_bytes()
    for _ in range(args.repeat):
        began = time.process_time()
        counts["path only"] = path_only(root)
        times["path only"].append(time.process_time() - began)
        with mock.patch.object(traj_format, "_may_be_out_of_range", lambda text: True):
            began = time.process_time()
            slow = collect_stats(root)
            times["checked parse"].append(time.process_time() - began)
        counts["checked parse"] = slow.total
        began = time.process_time()
        fast = collect_stats(root)
        times["stats"].append(time.process_time() - began)
        counts["stats"] = fast.total
        if (fast.total, fast.unreadable, fast.counts) != (slow.total, slow.unreadable, slow.counts):
            raise SystemExit("the two parses counted differently")
    base = statistics.median(times["stats"])
    print(f"{root}: {counts['stats']} trajectories, {len(fast.unreadable)} not counted")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:14s} {median:7.2f} CPU s  {median / base:5.2f}x stats  ({counts[name]} counted)")


if __name__ == "__main__":
    main()
