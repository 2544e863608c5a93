"""What each importer pass changes: rooms (and start states) that differ with the pass switched off.

    python bench/importer_passes.py ALFRED_JSON_DIR [--alfred-dir DIR] [--rooms N] [--folds K]

For the first ``--rooms`` rooms with demonstrations (default 12), the room is built as the held-out
figure of ``bench/alfred_fidelity.py`` builds it for fold 0 (from the other K-1 folds), and fitted
to the start state of each of fold 0's demonstrations. Then, for every pass of
:data:`alfred_gen.scenes.alfred.passes.PASSES` that can be switched off, the same rooms and start
states are built without it, and the bench prints how many came out different
(``pass: rooms changed r/n, start states changed s/m``). It says where a pass acts, not what it
buys in replays: that is ``bench/alfred_fidelity.py --without PASS`` (``docs/importer.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from alfred_gen.errors import UserError
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool
from alfred_gen.fidelity.held_out import held_out_jobs
from alfred_gen.progress import progress
from alfred_gen.scenes.alfred.importer import build_scene, complete_for_start_state
from alfred_gen.scenes.alfred.passes import START_PASSES, switchable_names
from alfred_gen.traj.format import TRAJ_FILE_NAME


def _text(scene_dict: dict) -> str:
    return json.dumps(scene_dict, sort_keys=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json_dir", type=Path)
    parser.add_argument("--alfred-dir", type=Path)
    parser.add_argument("--rooms", type=int, default=12, help="rooms measured (default 12)")
    parser.add_argument("--folds", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file())
        if not files:
            raise UserError(f"{args.json_dir}: no traj_data.json found")
        pool = EvidencePool.read(fidelity.sources_for(files, args.alfred_dir), files)
    except UserError as error:
        print(f"importer_passes: error: {error}", file=sys.stderr)
        return int(error.code)
    fold_of = pool.folds(args.folds)
    jobs = [j for j in held_out_jobs(pool, None, args.folds) if fold_of[j.paths[0]] == 0][: args.rooms]
    starts = {j.evidence.scene_num: [fidelity.load(p)["scene"] for p in j.paths] for j in jobs}
    start_names = {p.name for p in START_PASSES}

    def build(without: frozenset[str]) -> tuple[list[str], list[str]]:
        rooms, fitted = [], []
        for job in jobs:
            scene = build_scene(job.evidence, None, job.stats, without)
            rooms.append(_text(scene.to_dict()))
            fitted += [_text(complete_for_start_state(scene, block, without).to_dict())
                       for block in starts[job.evidence.scene_num]]
        return rooms, fitted

    base_rooms, base_fitted = build(frozenset())
    names = switchable_names()
    print(f"{len(jobs)} rooms (fold 0 held out of {args.folds}), {len(base_fitted)} start states; "
          f"{len(names)} passes")
    with progress("passes", len(names)) as bar:
        for name in names:
            rooms, fitted = build(frozenset({name}))
            changed = sum(a != b for a, b in zip(rooms, base_rooms))
            refit = sum(a != b for a, b in zip(fitted, base_fitted))
            where = "start" if name in start_names else "build"
            bar.update(1)
            print(f"{name} ({where}): rooms changed {changed}/{len(rooms)}, start states changed {refit}/{len(fitted)}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
