"""Benchmark of replay: trajectories replayed per second, metadata only vs with frames.

Side by side, on the same trajectories, in one process with one reused simulator each:

* ``vet``          restore + every low action + goal check, no images (what ``verify`` does);
* ``replay rgb``   the same plus rendering and writing every RGB frame the ``images`` list names;
* ``replay all``   plus depth and instance masks (``alfred-gen replay --depth --seg``).

Trajectories: every traj_data.json under DIR if given; else one generated trajectory per task type
(the real generator, seven in all; takes a few seconds first); with ``--scripted``, the tests'
hand-written heat-a-mug trajectory on the fixture kitchen. Each is replayed ``--repeat`` times.
If lite's Event carries no frames yet, the frame rows use the tests' stand-in renderer (the same
box renderer plugged in as ``renderer=``), and say so.

    python bench/replay.py [DIR] [--scripted] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.replay.rerender import replay_to_directory
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.format import load_trajectory

# The tests' scripted trajectories: the checkout's root on the path makes ``tests`` importable.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import replay_scripts


def _timed(label: str, trajs: list[dict], run) -> float:
    began = time.perf_counter()
    for traj in trajs:
        run(traj)
    seconds = time.perf_counter() - began
    steps = sum(len(t["plan"]["low_actions"]) for t in trajs)
    rate = len(trajs) / seconds
    print(f"{label:<12} {rate:8.2f} traj/s  {steps / seconds:9.1f} actions/s  ({len(trajs)} in {seconds:.2f} s)")
    return rate


def _load(args: argparse.Namespace, scratch: Path) -> list[dict]:
    if args.dir:
        return [load_trajectory(p) for p in sorted(Path(args.dir).rglob("traj_data.json"))]
    if args.scripted:
        return [replay_scripts.heat_mug_trajectory()]
    trajs = []
    for task_type in replay_scripts.TASK_SCENES:
        path, _ = replay_scripts.generate_example(task_type, scratch, frames=False)
        if path is None:
            print(f"warning: could not generate a {task_type} trajectory")
        else:
            trajs.append(load_trajectory(path / "traj_data.json"))
    return trajs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", nargs="?", help="replay the traj_data.json files under this directory")
    parser.add_argument("--scripted", action="store_true", help="replay the scripted fixture trajectory")
    parser.add_argument("--repeat", type=int, default=5, help="times to replay each trajectory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = _load(args, Path(scratch))
        trajs = base * args.repeat
        steps = sum(len(t["plan"]["low_actions"]) for t in base)
        frames = sum(len(t["images"]) for t in base)
        print(f"{len(base)} trajectories ({steps} low actions, {frames} frames) x {args.repeat}")

        plain = simulator().open()
        for traj in base:  # warm caches (scene builds) and check they replay at all
            result = vet_trajectory(traj, controller_factory=lambda: plain)
            if not result.ok:
                print(f"warning: a trajectory does not replay: {result.describe()}")
        vet_rate = _timed("vet", trajs, lambda t: vet_trajectory(t, controller_factory=lambda: plain))
        rendering = replay_scripts.rendering_controller()
        out = Path(scratch) / "replayed"
        rgb_rate = _timed("replay rgb", trajs, lambda t: replay_to_directory(t, out, rendering))
        all_rate = _timed("replay all", trajs, lambda t: replay_to_directory(t, out, rendering, depth=True, seg=True))
    print(
        f"vet is {vet_rate / rgb_rate:.1f}x faster than replay rgb, {vet_rate / all_rate:.1f}x faster than replay all"
    )


if __name__ == "__main__":
    main()
