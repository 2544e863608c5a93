"""Benchmark of the agent environment: what ``alfred_gen.env`` costs over a bare ``Controller`` loop.

Side by side, on the same trajectories, in one process (each row with one reused simulator):

* ``bare``           restore_scene, then ``controller.step(api_action)`` for every low action and a
                     look at ``lastActionSuccess`` (and, with images, at the frame: lite renders one
                     only when it is read): the least any rollout can do;
* ``env object_id``  the expert through ``AlfredEnv`` in ``object_id`` mode: observations, goal
                     conditions and ALFRED's bookkeeping after every step;
* ``env mask``       the expert through ``mask`` mode: also decodes the recorded masks and resolves
                     each to an object by IoU, which needs the instance segmentation rendered;
* ``bare +seg``      the bare loop rendering the same images the mask mode needs, so the mask row's
                     overhead is measured against the same rendering.

A warm-up pass builds every room first; the rows then run interleaved, ``--rounds`` times, each
keeping its fastest round (the machine may be shared). Each row runs without images (``rgb=False``; lite still
renders what visibility needs) and with RGB frames. The env's overhead is the ratio of its time
to the matching bare row's (target: under 1.10).

    python bench/eval.py [DIR] [--limit 20] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from alfred_gen.env import AlfredEnv
from alfred_gen.eval.agents import ExpertAgent
from alfred_gen.replay.restore import restore_scene
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.format import load_trajectory

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.helpers import replay_scripts


def _bare(paths: list[Path], rgb: bool, seg: bool) -> tuple[float, int]:
    controller = simulator().open(render=rgb, segmentation=seg)
    steps = 0
    began = time.perf_counter()
    for path in paths:
        traj = load_trajectory(path)  # the env reads the file too
        restore_scene(controller, traj["scene"])
        for low in traj["plan"]["low_actions"]:
            event = controller.step(dict(low["api_action"]))
            if rgb:
                _ = event.frame  # lite renders a frame only when it is read, as an agent reads it
            steps += 1
            if not event.metadata["lastActionSuccess"]:
                break
    return time.perf_counter() - began, steps


def _env(paths: list[Path], mode: str, rgb: bool) -> tuple[float, int]:
    env = AlfredEnv(None, mode=mode, rgb=rgb)
    agent = ExpertAgent()
    steps = 0
    began = time.perf_counter()
    for path in paths:
        obs, _info = env.reset(options={"trajectory": str(path)})
        agent.reset({"traj_data": env.traj, "mode": mode})
        while True:
            obs, _r, terminated, truncated, info = env.step(agent.act(obs))
            if terminated or truncated:
                break
        steps += info["steps"]
        if not info["success"]:
            print(f"warning: the expert failed on {path}")
    env.close()
    return time.perf_counter() - began, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", help="Trajectories to play (default: one generated per task type).")
    parser.add_argument("--limit", type=int, default=20, help="At most this many trajectories.")
    parser.add_argument("--rounds", type=int, default=3,
                        help="Run every row this many times, interleaved; each row keeps its fastest round.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        if args.dir:
            paths = sorted(Path(args.dir).rglob("traj_data.json"))[: args.limit]
        else:
            paths = []
            for task_type in replay_scripts.TASK_SCENES:
                path, _ = replay_scripts.generate_example(task_type, Path(scratch), frames=False)
                if path is not None:
                    paths.append(Path(path) / "traj_data.json")
        _bare(paths, rgb=False, seg=False)  # warm-up: rooms built and cached before any row is timed
        print(f"{len(paths)} episodes")
        print(f"{'row':<28} {'episodes/s':>10} {'steps/s':>9} {'vs bare':>8}")
        for rgb in (False, True):
            images = "rgb" if rgb else "no images"
            runs = {"bare": partial(_bare, paths, rgb, seg=False),
                    "env object_id": partial(_env, paths, "object_id", rgb),
                    "bare +seg": partial(_bare, paths, rgb, seg=True), "env mask": partial(_env, paths, "mask", rgb)}
            best: dict[str, tuple[float, int]] = {}
            for _round in range(max(1, args.rounds)):  # interleaved, so a busy moment hits every row alike
                for name, run in runs.items():
                    seconds, steps = run()
                    if name not in best or seconds < best[name][0]:
                        best[name] = (seconds, steps)
            bases = {"bare": None, "env object_id": "bare", "bare +seg": None, "env mask": "bare +seg"}
            rows = [(name, best[name], bases[name]) for name in runs]
            seconds_of = {name: seconds for name, (seconds, _), _ in rows}
            for name, (seconds, steps), base in rows:
                ratio = f"{seconds / seconds_of[base]:8.2f}" if base else f"{'':8s}"
                print(f"{name + ' (' + images + ')':<28} {len(paths) / seconds:10.2f} {steps / seconds:9.1f} {ratio}")


if __name__ == "__main__":
    main()
