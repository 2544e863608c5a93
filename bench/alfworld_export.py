"""Benchmark of the ALFWorld export: making games vs ALFWorld's engine loading them.

Side by side, on the trajectories under DIR (an ``alfred-gen sample`` output, or ALFRED demos with
``--scenes-catalogue``), in one process:

* ``export``  ``alfred-gen export alfworld``'s work: restore each start state in lite, write the room,
  the goal, the walkthrough (every trajectory, skips included);
* ``engine``  ALFWorld's engine loading and resetting the first ``--games`` of those games (what any
  ALFWorld user pays per episode; ALFWorld makes its own games by replaying each demo in AI2-THOR,
  which cannot run here, so its engine is the cost we can set beside ours).

    python bench/alfworld_export.py DIR [--games 5] [--scenes-catalogue alfred.json]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from alfred_gen.export.alfworld.check import find_games, make_env
from alfred_gen.export.alfworld.export import export_games
from alfred_gen.export.alfworld.outcomes import ExportReason
from alfred_gen.scenes.library import simulator


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir", help="directory of trajectories")
    parser.add_argument("--games", type=int, default=5, help="games ALFWorld's engine loads (default 5)")
    parser.add_argument("--scenes-catalogue", help="imported ALFRED scene catalogue (for FloorPlanN rooms)")
    args = parser.parse_args()
    if args.scenes_catalogue:
        from alfred_gen.scenes.alfred.catalogue_store import use_catalogue

        use_catalogue(args.scenes_catalogue)
    with tempfile.TemporaryDirectory() as scratch:
        began = time.perf_counter()
        results = export_games(args.dir, Path(scratch) / "games", simulator=simulator(), show_progress=False)
        export_seconds = time.perf_counter() - began
        made = sum(1 for r in results if r.reason == ExportReason.OK)
        per_export = export_seconds / len(results)
        print(f"export  {len(results)} trajectories ({made} games) in {export_seconds:.2f} s: "
              f"{per_export * 1000:.0f} ms per trajectory, {per_export * 100:.1f} s per 100")
        games = find_games(Path(scratch) / "games")[: args.games]
        env = make_env()
        began = time.perf_counter()
        for game in games:
            env.load(str(game))
            env.reset()
        engine_seconds = time.perf_counter() - began
        per_load = engine_seconds / len(games)
        print(f"engine  {len(games)} games loaded and reset in {engine_seconds:.2f} s: "
              f"{per_load * 1000:.0f} ms per game")
        print(f"ratio   ALFWorld's engine load / our export per game: {per_load / per_export:.1f}x")


if __name__ == "__main__":
    main()
