"""Where a put lands, rule against rule: THOR's mask of the later pickup against lite's frame.

usage: put_landing.py TRAIN_DIR [--exclude DIR] [--every N] [--folds K] [--workers N]
                      [--rules R[,R]] [--types T[,T]] [--later pickup|receptacle|object] [--held T[,T]]
                      [--json OUT]

A PutObject in a released demo records where THOR's agent stood, not where the object landed; a
later PickupObject of the same object records THOR's mask of it, so it shows where THOR put it.
Here every such put-then-pickup pair of the demos under TRAIN_DIR (those also under ``--exclude``
left out: the 238 shared demos the other figures use) whose put goes into one of ``--types``
(default: sink and bathtub basins, microwaves) is replayed in lite, in its room built from the
other folds of its room's demos (:func:`alfred_gen.fidelity.held_out.held_out_jobs`, as
bench/alfred_fidelity.py builds it), once per landing rule of :mod:`alfred_gen.sim.put_landing`
(the controller's ``landing_rules`` for every put into one of ``--types``; ``default``: the
registry's own rules), up to the pickup. At the pickup ALFRED's
evaluator rule (:func:`alfred_gen.replay.masks.resolve_mask`, ``va_interact``) resolves THOR's
mask in lite's frame: right when it picks the put object. Printed per receptacle type and rule:
right / measured, mean IoU, and how many pairs the replay did not reach (an earlier action failed).

Nothing picks a thing out of a pan again: a put into a movable receptacle (pan, pot, plate, bowl,
mug, cup, box) is followed by picking up the receptacle. ``--later receptacle`` pairs each put with
the next interaction naming the receptacle instead: THOR's instance mask of a container leaves out
the pixels of what lies in it, so its IoU with lite's container (whose mask lite's put object
covers where it lands) shows where THOR's content lies. Also printed then: the mean share of lite's
put-object pixels, within the rows' span of THOR's mask, that fall on THOR's mask (lower: lite's
object lies where THOR's hides the container).

A movable receptacle the agent sets down on a counter, table or sofa is seldom picked up again: the
agent puts something into it (or closes the box). ``--later object`` pairs each put with the next
interaction whose mask is the put object's, whatever its action, and ``--held`` keeps only puts of
the given object types (``--held Pan,Pot,Plate,Bowl,Mug,Cup,Box --types CounterTop,DiningTable,Sofa``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.fidelity import held_out
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.fidelity.evidence_pool import EvidencePool
from alfred_gen.fidelity.masks import compare, target_of, thor_mask
from alfred_gen.parallel import run_ordered
from alfred_gen.scenes.alfred.importer import complete_for_start_state
from alfred_gen.sim import put_landing
from alfred_gen.traj.format import TRAJ_FILE_NAME

DEFAULT_TYPES = ("SinkBasin", "BathtubBasin", "Microwave")

Pair = tuple[int, int, str]  # (put low_idx, pickup low_idx, receptacle type)

#: The column of the registry's own rules (:data:`alfred_gen.sim.put_landing.IMPORTED_RULES`).
DEFAULT = "default"


def _known(rule: str) -> bool:
    try:
        put_landing.check_rule(rule)
    except ValueError:
        return False
    return True


def pairs_of(traj: dict[str, Any], types: Sequence[str], later: str = "pickup",
             held_types: Sequence[str] = ()) -> list[Pair]:
    """Each PutObject into one of ``types`` (of an object of one of ``held_types``, when given) and
    the first later PickupObject of the same object (``later`` "pickup"), the first later
    interaction naming the receptacle ("receptacle": THOR's instance mask of a container leaves out
    the pixels of what lies in it, so picking up a pan with a lettuce slice in it shows where the
    slice lies), or the first later interaction whose mask is the put object's ("object": a pan the
    agent set on a counter and then put a tomato into shows where it landed, as its pickup would)."""
    lows = traj["plan"]["low_actions"]
    out: list[Pair] = []
    for i, low in enumerate(lows):
        api = low.get("api_action") or {}
        if api.get("action") != "PutObject":
            continue
        receptacle = api.get("receptacleObjectId") or ""
        kind = type_of_id(receptacle) if receptacle else ""
        if kind not in types:
            continue
        held = api.get("objectId")
        if held_types and type_of_id(held or "") not in held_types:
            continue
        for j in range(i + 1, len(lows)):
            then = lows[j].get("api_action") or {}
            if _shows(then, later, held, receptacle):
                out.append((i, j, kind))
                break
    return out


def _shows(then: dict[str, Any], later: str, held: str | None, receptacle: str) -> bool:
    """Whether the later action ``then`` is the one ``later`` pairs a put of ``held`` into ``receptacle`` with."""
    if later == "receptacle":
        return then.get("objectId") == receptacle and target_of(then) == receptacle
    if later == "object":
        return target_of(then) == held
    return then.get("action") == "PickupObject" and then.get("objectId") == held


def _trial_key(path: Path) -> tuple[str, str]:
    return (path.parent.parent.name, path.parent.name)


def _replay(scene: Any, traj: dict[str, Any], path: Path, lows: list[Any], picks: dict[int, str],
            rules: dict[str, str] | None) -> tuple[dict[int, tuple[Any, float | None]], str]:
    """Replay ``lows`` in ``scene`` with puts into each receptacle type of ``rules`` landing by its
    rule (None: the registry's everywhere); at each of ``picks`` (low index -> the put object),
    THOR's mask against lite's frame and the share of lite's pixels of the put object that fall on
    THOR's mask (None when lite draws none: when the mask is a container's, THOR's leaves out where
    its content lies, so the share is where lite's content and THOR's disagree), and why the
    replay stopped ("" when it did not)."""
    from alfred_gen.replay.execute import execute_low_actions
    from alfred_gen.replay.restore import restore_scene
    from alfred_gen.scenes.library import SceneLibrary
    from alfred_gen.sim.lite import LiteController

    got: dict[int, tuple[Any, float | None]] = {}
    sim = LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False), render_image=False,
                         render_object_image=True, landing_rules=rules)
    state = {"before": restore_scene(sim, traj["scene"])}

    def on_step(low_idx: int, api: Any, event: Any) -> None:
        if low_idx in picks:
            found = compare(path, low_idx, lows[low_idx], state["before"])
            if found is not None:
                got[low_idx] = (found, _content_share(state["before"], picks[low_idx], thor_mask(lows[low_idx])))
        state["before"] = event

    run = execute_low_actions(sim, lows, state["before"], on_step=on_step)
    return got, run.failures[0].describe() if run.failures else ""


def _content_share(event: Any, content: str, thor: Any) -> float | None:
    """The share of lite's pixels of ``content`` in ``event`` that lie on THOR's mask ``thor``, of
    those within the mask's span on their row (a thing drawn past a container's edge says nothing
    of where THOR's content lies; one in its middle covers THOR's mask unless THOR's lies there)."""
    lite = (getattr(event, "instance_masks", None) or {}).get(content)
    if lite is None or thor is None or lite.shape != thor.shape:
        return None
    cols = np.arange(thor.shape[1])
    span = np.zeros_like(thor)
    for row in np.flatnonzero(thor.any(axis=1)):
        on = np.flatnonzero(thor[row])
        span[row] = (cols >= on[0]) & (cols <= on[-1])
    inside = lite & span
    if not inside.any():
        return None
    return round(float((inside & thor).sum() / inside.sum()), 4)


Item = tuple[held_out.RoomJob, tuple[str, ...], tuple[str, ...], dict[Path, list[Pair]]]  # job, rules, types, pairs


def _job(item: Item) -> list[dict[str, Any]]:
    """Build the job's room; replay each demo under each rule up to its last pickup; one record per
    pair and rule."""
    job, rules, types, pairs = item
    room, error = held_out.build_job_room(job)
    out: list[dict[str, Any]] = []
    for path in job.paths:
        traj = fidelity.load(path)
        wanted = pairs[path]
        lows = traj["plan"]["low_actions"][: max(j for _, j, _ in wanted) + 1]
        picks = {j: lows[i]["api_action"]["objectId"] for i, j, _ in wanted}  # later index -> the put object
        for rule in rules:
            got: dict[int, Any] = {}
            stop = error
            if room is not None:
                try:
                    scene = complete_for_start_state(room, traj["scene"], job.without)
                    forced = None if rule == DEFAULT else {kind: rule for kind in types}
                    got, stop = _replay(scene, traj, path, lows, picks, forced)
                except Exception as failure:  # a bench row, not a crash
                    stop = f"{type(failure).__name__}: {failure}"
            for put, pick, kind in wanted:
                found, share = got.get(pick, (None, None))
                out.append({"path": str(path), "put": put, "pick": pick, "type": kind, "rule": rule,
                            "right": None if found is None else found.right,
                            "iou": None if found is None else round(found.iou, 4),
                            "offset": None if found is None else found.offset, "content_on_mask": share,
                            "stop": "" if found is not None else stop})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("train_dir", type=Path)
    parser.add_argument("--exclude", type=Path, help="leave out the demos also under this directory")
    parser.add_argument("--every", type=int, default=1, help="measure every N-th candidate demo (sorted by path)")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", default=",".join((DEFAULT, *put_landing.RULES)),
                        help=f"rules to compare ({DEFAULT}: the registry's); RULE@H: H metres above the floor")
    parser.add_argument("--types", default=",".join(DEFAULT_TYPES))
    parser.add_argument("--later", choices=("pickup", "receptacle", "object"), default="pickup",
                        help="compare at the put object's next pickup, at the next interaction with the receptacle, "
                             "or at the next interaction whose mask is the put object's")
    parser.add_argument("--held", default="", help="only puts of these object types (comma-separated)")
    parser.add_argument("--json", type=Path, help="write every record here")
    args = parser.parse_args(argv)
    rules = tuple(r for r in args.rules.split(",") if r)
    types = tuple(t for t in args.types.split(",") if t)
    held_types = tuple(t for t in args.held.split(",") if t)
    unknown = [r for r in rules if r != DEFAULT and not _known(r)]
    if unknown:
        parser.error(f"unknown rules: {', '.join(unknown)}")
    files = sorted(p for p in args.train_dir.rglob(TRAJ_FILE_NAME) if p.is_file())
    excluded = {_trial_key(p) for p in args.exclude.rglob(TRAJ_FILE_NAME)} if args.exclude else set()
    pattern = re.compile(r'"receptacleObjectId":\s*"[^"]*\b(' + "|".join(map(re.escape, types)) + r')\b')
    candidates: dict[Path, list[Pair]] = {}
    for path in files:
        if _trial_key(path) in excluded:
            continue
        text = path.read_text()
        if not pattern.search(text):
            continue
        found = pairs_of(json.loads(text), types, args.later, held_types)
        if found:
            candidates[path] = found
    chosen = {p: v for i, (p, v) in enumerate(sorted(candidates.items())) if i % args.every == 0}
    print(f"{len(files)} demos, {len(excluded)} excluded; {len(candidates)} with a put into "
          f"{'/'.join(types)} and a later pickup of it; measuring {len(chosen)} "
          f"({sum(len(v) for v in chosen.values())} pairs), rules {', '.join(rules)}", flush=True)
    sources = fidelity.sources_for(files)
    pool = EvidencePool.read(sources, files, args.workers)
    jobs = [replace(job, paths=tuple(p for p in job.paths if p in chosen))
            for job in held_out.held_out_jobs(pool, None, args.folds)]
    items = [(job, rules, types, {p: chosen[p] for p in job.paths}) for job in jobs if job.paths]
    records: list[dict[str, Any]] = []
    for done, result in enumerate(run_ordered(_job, items, args.workers), 1):
        records += result
        print(f"  room jobs {done}/{len(items)}", file=sys.stderr, flush=True)
    table: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        table[(record["type"], record["rule"])].append(record)
        table[("all", record["rule"])].append(record)
    print(f"\nheld out ({args.folds} folds): THOR's mask resolves to its target in lite's frame; right/measured, "
          "mean IoU, mean share of lite's put object on THOR's mask")
    print("| receptacle | " + " | ".join(rules) + " |")
    print("|---|" + "---|" * len(rules))
    for kind in [*types, "all"]:
        cells = []
        for rule in rules:
            rows = table.get((kind, rule), [])
            measured = [r for r in rows if r["right"] is not None]
            right = sum(1 for r in measured if r["right"])
            shares = [r["content_on_mask"] for r in measured if r["content_on_mask"] is not None]
            mean_iou = sum(r["iou"] for r in measured) / len(measured) if measured else 0.0
            cells.append(f"{right}/{len(measured)} {mean_iou:.3f}"
                         + (f" {sum(shares) / len(shares):.3f}" if shares else "")
                         + (f" ({len(rows) - len(measured)} unreached)" if len(rows) > len(measured) else ""))
        print(f"| {kind} | " + " | ".join(cells) + " |")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1) + "\n")
        print(f"records: {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
