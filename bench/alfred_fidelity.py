"""Replay ALFRED's released demonstrations in the embedded simulator; compare our plans with ALFRED's.

    python bench/alfred_fidelity.py ALFRED_JSON_DIR [--alfred-dir DIR | --catalogue FILE]
                                    [--thor-db DIR] [--held-out] [--no-plans] [--time-limit S]

Rooms: the layouts of the ALFRED checkout holding ALFRED_JSON_DIR (or ``--alfred-dir``) plus what
the replayed trajectories themselves say (exactly what ``alfred-gen scenes import-alfred`` does),
or a stored catalogue (``--catalogue``). ``--held-out`` rebuilds each trajectory's room without
that trajectory (only its ``scene`` block is used): the figure for demos the import never saw.

Prints, for the replays: trajectories, how many had every action succeed, how many also satisfied
their goal conditions, failures by reason and by action type, each failure, then ``fidelity: X%``.
Then, for the plans: how often our high-level plan equals ALFRED's (actions with class arguments),
how often the action sequence alone does, and our expanded length against ALFRED's low_actions.
Ends with the fidelity line again so it is the last line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from alfred_gen.errors import UserError
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.traj.format import TRAJ_FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("json_dir", type=Path, help="directory holding traj_data.json files (searched recursively)")
    parser.add_argument("--alfred-dir", type=Path, help="ALFRED checkout with gen/layouts or layouts")
    parser.add_argument("--catalogue", type=Path, help="a scene catalogue from `alfred-gen scenes import-alfred`")
    parser.add_argument("--thor-db", type=Path, help="directory of THOR's asset-database.json (real sizes)")
    parser.add_argument("--held-out", action="store_true", help="replay each demo in its room built without it")
    parser.add_argument("--no-plans", action="store_true", help="skip the plan agreement part")
    parser.add_argument("--geometric", action="store_true",
                        help="judge visibility with lite's render-free stand-in instead of its pixels")
    parser.add_argument("--time-limit", type=float, default=30.0, help="planner time limit per task, seconds")
    args = parser.parse_args(argv)
    try:
        if not args.json_dir.exists():
            raise UserError(f"{args.json_dir}: no such directory")
        files = sorted(p for p in args.json_dir.rglob(TRAJ_FILE_NAME) if p.is_file()) \
            if args.json_dir.is_dir() else [args.json_dir]
        if not files:
            raise UserError(f"{args.json_dir}: no traj_data.json found")
        (rooms, import_seconds) = fidelity.timed(lambda: fidelity.rooms_for(
            files, alfred_dir=args.alfred_dir, catalogue=args.catalogue, thor_db=args.thor_db))
    except UserError as error:
        print(f"alfred_fidelity: error: {error}", file=sys.stderr)
        return int(error.code)
    if args.held_out:
        rooms.remember_facts(fidelity.load(p) for p in files)
    print(
        f"rooms ready in {import_seconds:.1f} s ({len(rooms.rooms)} rooms"
        f"{', THOR sizes' if args.thor_db else ''}{', held out' if args.held_out else ''}"
        f"{', geometric visibility' if args.geometric else ''})"
    )
    outcomes, seconds = fidelity.timed(
        lambda: fidelity.replay_released(files, rooms, held_out=args.held_out, geometric=args.geometric)
    )
    report = fidelity.fidelity_report(outcomes)
    print(f"replayed {len(outcomes)} trajectories in {seconds:.1f} s")
    for line in report:
        print(line)
    if not args.no_plans:
        plans, seconds = fidelity.timed(lambda: fidelity.plan_released(files, rooms, args.time_limit))
        print(f"planned {len(plans)} tasks in {seconds:.1f} s")
        for line in fidelity.agreement_report(plans):
            print(line)
        print(report[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
