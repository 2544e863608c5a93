"""Benchmark of replay: trajectories replayed per second, metadata only vs with frames.

Side by side, on the same trajectories, in one process with one reused simulator:

* ``vet``            restore + every low action + goal check, no images (what ``verify`` does);
* ``replay rgb``     the same plus rendering and writing every RGB frame (``alfred-gen replay``);
* ``replay all``     plus depth and instance masks (``replay --depth --seg``).

Trajectories: every traj_data.json under DIR if given (e.g. a generation run's output), else a
scripted heat-a-mug trajectory on the fixture kitchen (30 low actions), replayed ``--repeat`` times.
Rows with frames print ``n/a`` if the simulator has no renderer attached.

    python bench/replay.py [DIR] [--repeat 20]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.errors import UserError
from alfred_gen.replay.rerender import replay_to_directory
from alfred_gen.replay.restore import make_replay_controller
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.trajectory import load_trajectory


def _scripted() -> list[dict]:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    import replay_scripts  # noqa: E402 - the tests' scripted trajectories

    return [replay_scripts.heat_mug_trajectory()]


def _timed(label: str, trajs: list[dict], run) -> float | None:
    began = time.perf_counter()
    try:
        for traj in trajs:
            run(traj)
    except UserError as error:
        print(f"{label:<14} n/a ({error})")
        return None
    seconds = time.perf_counter() - began
    steps = sum(len(t["plan"]["low_actions"]) for t in trajs)
    rate = len(trajs) / seconds
    print(f"{label:<14} {rate:8.2f} traj/s  {steps / seconds:9.1f} actions/s  ({len(trajs)} in {seconds:.2f} s)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", help="replay the traj_data.json files under this directory")
    parser.add_argument("--repeat", type=int, default=20, help="times to replay each trajectory")
    args = parser.parse_args()
    if args.dir:
        base = [load_trajectory(p) for p in sorted(Path(args.dir).rglob("traj_data.json"))]
    else:
        base = _scripted()
    trajs = base * args.repeat
    steps = sum(len(t["plan"]["low_actions"]) for t in base)
    print(f"{len(base)} trajectories ({steps} low actions) x {args.repeat}")

    plain = make_replay_controller()
    for traj in base:  # warm caches (scene build) and check they replay at all
        result = vet_trajectory(traj, controller_factory=lambda: plain)
        if not result.ok:
            print(f"warning: a trajectory does not replay: {result.describe()}")
    vet_rate = _timed("vet", trajs, lambda t: vet_trajectory(t, controller_factory=lambda: plain))

    rgb = make_replay_controller(render=True)
    full = make_replay_controller(render=True, depth=True, segmentation=True)
    with tempfile.TemporaryDirectory() as out:
        rgb_rate = _timed("replay rgb", trajs, lambda t: replay_to_directory(t, out, controller_factory=lambda: rgb))
        all_rate = _timed("replay all", trajs, lambda t: replay_to_directory(
            t, out, depth=True, seg=True, controller_factory=lambda: full))
    for label, rate in (("replay rgb", rgb_rate), ("replay all", all_rate)):
        if vet_rate and rate:
            print(f"vet is {vet_rate / rate:.1f}x faster than {label}")


if __name__ == "__main__":
    main()
