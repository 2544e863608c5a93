"""Benchmark of generation: seconds per trajectory, with frames and without, and where time goes.

Side by side on the same (task, scene, seed) attempts, in one process:

* ``frames``     the full pipeline: spawn, plan, expand + record (RGB JPEGs and masks), write, vet;
* ``no frames``  the same without writing RGB frames (the segmentation for masks is still rendered);
* ``no vet``     no frames and no replay check (what the pipeline costs before vetting).

Attempts: a fixed list of tasks over the seven task types in procedural scenes, several seeds each.
Failed attempts (unsolvable, a target nobody can see, ...) are timed too: a sampler pays for them.
Prints per-mode totals, seconds per attempt and per made trajectory, the ratio to ``frames``, the
reasons counted, and the phase breakdown (spawn / plan / record / write / vet).

    python bench/generate.py [--seeds 4]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import tempfile
import time

from alfred_gen.demo.generate import default_trial_id, generate_trajectory
from alfred_gen.domains.tasks import make_task

TASKS = [
    (1, make_task("pick_and_place_simple", "Apple", "Fridge")),
    (1, make_task("pick_two_obj_and_place", "Apple", "CounterTop")),
    (301, make_task("look_at_obj_in_light", "Book", toggle_target="DeskLamp")),
    (1, make_task("pick_clean_then_place_in_recep", "Mug", "CounterTop")),
    (1, make_task("pick_heat_then_place_in_recep", "Potato", "CounterTop", object_sliced=True)),
    (2, make_task("pick_cool_then_place_in_recep", "Tomato", "CounterTop")),
    (1, make_task("pick_and_place_with_movable_recep", "Apple", "CounterTop", "Bowl")),
    (201, make_task("pick_and_place_simple", "RemoteControl", "Sofa")),
]

MODES = {
    "frames": {"frames": True, "vet": True},
    "no frames": {"frames": False, "vet": True},
    "no vet": {"frames": False, "vet": False},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4, help="seeds per task (default 4)")
    args = parser.parse_args()
    attempts = [(scene, task, seed) for scene, task in TASKS for seed in range(args.seeds)]
    # Warm up: scene building and imports are paid once per process, not per trajectory.
    with tempfile.TemporaryDirectory() as root:
        for scene, task in TASKS:
            generate_trajectory(task, scene, 0, root, "trial_Twarmup", frames=False, vet=False)
    rows = {}
    for mode, options in MODES.items():
        reasons: collections.Counter[str] = collections.Counter()
        phases: collections.defaultdict[str, float] = collections.defaultdict(float)
        made_times: list[float] = []
        low_actions = 0
        with tempfile.TemporaryDirectory() as root:
            began = time.perf_counter()
            for scene, task, seed in attempts:
                start = time.perf_counter()
                result = generate_trajectory(task, scene, seed, root, default_trial_id(seed), **options)
                elapsed = time.perf_counter() - start
                reasons[result.reason] += 1
                for phase, seconds in result.timings.items():
                    phases[phase] += seconds
                if result.ok:
                    made_times.append(elapsed)
                    low_actions += len(result.traj["plan"]["low_actions"])
            total = time.perf_counter() - began
        rows[mode] = (total, reasons, phases, made_times, low_actions)

    base = rows["frames"][0]
    print(f"{len(attempts)} attempts ({len(TASKS)} tasks x {args.seeds} seeds), same attempts in every mode\n")
    print(f"{'mode':<10} {'total s':>8} {'s/attempt':>10} {'s/made (median)':>16} {'made':>5} {'low/made':>9} "
          f"{'vs frames':>10}")
    for mode, (total, _reasons, _, made_times, low_actions) in rows.items():
        made = len(made_times)
        median = statistics.median(made_times) if made_times else float("nan")
        per_low = low_actions / made if made else float("nan")
        print(f"{mode:<10} {total:8.2f} {total / len(attempts):10.3f} {median:16.3f} {made:5d} {per_low:9.1f} "
              f"{base / total:9.2f}x")
    print("\nreasons:", dict(sorted(rows["frames"][1].items())))
    print("\nphase seconds (all attempts):")
    for mode, (_, _, phases, _, _) in rows.items():
        print(f"  {mode:<10} " + "  ".join(f"{k} {v:.2f}" for k, v in sorted(phases.items())))


if __name__ == "__main__":
    main()
