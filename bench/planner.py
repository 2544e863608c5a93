"""Benchmark of the planner: ours vs stock pyperplan (gbf + hff) vs Fast Downward (lama-first).

Builds a fixed set of problems from the procedural scenes (every room type, every task type and
slice variant ALFRED allows there) and from procedural houses (``--houses``: two houses of each size
from two to eight rooms, by default), writes each as PDDL domain + problem files, and runs on the
same files:

- ours: alfred_gen.planner.solve.solve_files (read the problem file, parse, our grounding, FF
  search, plan tidying and validation, ALFRED steps; the domain file is read and parsed once and
  kept while it is unchanged, as the generator keeps its one domain), timed in-process in a worker
  process;
- stock pyperplan 2.1: ``pyperplan.planner.search_plan(domain, problem, greedy_best_first_search,
  hFFHeuristic)``, which is exactly what ``pyperplan -s gbf -H hff`` runs (parse, ground, search),
  timed in-process in a worker process;
- Fast Downward ``lama-first`` from the PyPI package up-fast-downward: ``fast-downward.py --alias
  lama-first domain problem`` as a subprocess (translate + search), timed by wall clock.

In-process times are taken as a generator would run the planner: one long-running process per
planner goes through all problems, best of ``--repeat`` runs each, and the two planners take turns
for ``--rounds`` rounds, keeping each problem's best (the machine is shared). Because
Fast Downward can only be run as a process, the script also times, per problem, a fresh process of
ours and of pyperplan (interpreter start, imports, one solve) and prints those rows too; the Fast
Downward ratio is printed both ways. A table then splits the figures by room type with a row for
the houses, and one by the number of rooms of a house (problem size as objects and locations, and
each planner's median time), which is how plan time grows with the rooms. The script ends with the
lines ``ratio_vs_pyperplan: X`` and ``ratio_vs_fast_downward: Y`` (median end-to-end time, theirs
divided by ours, ours in-process) over the single rooms, as before houses existed,
``ratio_process_vs_pyperplan: Z`` (median time of a fresh process per problem, pyperplan's divided
by ours: what a one-shot ``alfred-gen plan`` costs against a one-shot pyperplan), and the first two
again over the houses.

Fresh processes run with compiled bytecode for both planners, as an installed package has it:
PYTHONDONTWRITEBYTECODE is dropped from their environment and one unmeasured run each writes the
bytecode of an editable checkout first (pip compiles site-packages at install time; without this,
ours would be timed compiling its sources and pyperplan would not).

    python bench/planner.py [--scenes-per-room 15] [--tasks-per-scene 2] [--houses-per-size 2]
                            [--tasks-per-house 2] [--repeat 5] [--rounds 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from alfred_gen.demo.start import interaction_poses, make_start_state
from alfred_gen.domains import catalogue
from alfred_gen.domains.tasks import TaskSpec, make_task, task_types
from alfred_gen.planner.encode import agent_pose_of, encode_problem
from alfred_gen.planner.solve import solve
from alfred_gen.scenes.houses.layout import MAX_ROOMS, MIN_ROOMS
from alfred_gen.scenes.library import get_scene, simulator
from alfred_gen.sim.scene import hash_str, room_type_of

ROOM_SCENES = {
    "kitchen": range(1, 31),
    "living_room": range(201, 231),
    "bedroom": range(301, 331),
    "bathroom": range(401, 431),
}

#: Time limit per planner call (seconds); a planner running out of it counts as unsolved.
TIME_LIMIT = 60.0

# A worker times one planner in-process over a list of problems, as a long-running generator
# process would run it: best of ``repeat`` runs per problem, one JSON line per problem. With
# ``repeat`` 0 it solves only the first problem, once: a cold run (start, imports, one solve),
# timed from outside.
_WORKER_HEAD = r"""
import json, logging, sys, time
logging.disable(logging.CRITICAL)
domain_file, list_file, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
problems = json.load(open(list_file))
"""

# ... and ends with this loop over the problems, each worker having defined ``run(problem_file)``.
_WORKER_LOOP = r"""
for problem_file in (problems if repeat else problems[:1]):
    times = []
    for _ in range(max(repeat, 1)):
        start = time.perf_counter()
        length, status = run(problem_file)
        times.append(time.perf_counter() - start)
    print(json.dumps({"time": min(times), "length": length, "status": status}), flush=True)
"""

_OURS_WORKER = _WORKER_HEAD + r"""
from alfred_gen.planner import names
from alfred_gen.planner.solve import solve_files

def run(problem_file):
    names.clear_caches()  # each run costs what a new problem costs
    result = solve_files(domain_file, problem_file, time_limit=%(limit)s)
    return (len(result.operators) - 1 if result.solved else None), result.status
""" + _WORKER_LOOP

_PYPERPLAN_WORKER = _WORKER_HEAD + r"""
from pyperplan.planner import search_plan
from pyperplan.search import greedy_best_first_search
from pyperplan.heuristics.relaxation import hFFHeuristic

def run(problem_file):
    plan = search_plan(domain_file, problem_file, greedy_best_first_search, hFFHeuristic)
    return (len(plan) - 1 if plan is not None else None), ("solved" if plan is not None else "unsolvable")
""" + _WORKER_LOOP


# --------------------------------------------------------------------------------------------
# The problem set


def _pick(rng: random.Random, options: list[str]) -> str | None:
    return rng.choice(sorted(options)) if options else None


def sample_task(rng: random.Random, room: str | tuple[str, ...], metadata: dict) -> TaskSpec | None:
    """A task ALFRED could have asked in this room (or a house with rooms of these types) and scene
    state (classes present, placement allowed), or None. Not the project's sampler: a simple, fixed
    generator for the benchmark."""
    objects = metadata["objects"]
    present = {o["objectType"] for o in objects}
    count: dict[str, int] = {}
    for o in objects:
        count[o["objectType"]] = count.get(o["objectType"], 0) + 1
    pickable = sorted({o["objectType"] for o in objects if o.get("pickupable") and not o.get("receptacle")})
    movers = sorted({o["objectType"] for o in objects if o.get("pickupable") and o.get("receptacle")})
    fixed = sorted({o["objectType"] for o in objects if o.get("receptacle") and not o.get("pickupable")})
    knives = present & catalogue.SLICING_TOOLS
    lamps = sorted(present & catalogue.LAMPS)
    rooms = (room,) if isinstance(room, str) else room
    allowed = [t for t in task_types() if any(t.allowed_in(r) for r in rooms)]
    task_type = rng.choice(allowed)
    sliced = bool(task_type.slice_variant and knives and rng.random() < 0.35)

    def placed(obj: str) -> str:
        return catalogue.SLICED_TYPES.get(obj, obj) if sliced else obj

    candidates = [o for o in pickable if not sliced or o in catalogue.SLICED_TYPES]
    tool = {"canHeat": "Microwave", "canCool": "Fridge", "canClean": "SinkBasin"}
    for predicate in task_type.tools:
        if tool[predicate] not in present:
            return None
        candidates = [o for o in candidates if catalogue.can_place(placed(o), tool[predicate])]
    if task_type.name == "pick_two_obj_and_place":
        candidates = [o for o in candidates if count.get(o, 0) >= 2]
    if task_type.name == "look_at_obj_in_light":
        obj, lamp = _pick(rng, candidates), _pick(rng, lamps)
        return make_task(task_type.name, obj, toggle_target=lamp) if obj and lamp else None
    if task_type.name == "pick_and_place_with_movable_recep":
        mrecep = _pick(rng, movers)
        if mrecep is None:
            return None
        candidates = [o for o in candidates if catalogue.can_place(placed(o), mrecep)]
        obj = _pick(rng, candidates)
        parents = [r for r in fixed if catalogue.can_place(mrecep, r)]
        parent = _pick(rng, parents)
        if not (obj and parent):
            return None
        return make_task(task_type.name, obj, parent, mrecep_target=mrecep, object_sliced=sliced)
    obj = _pick(rng, candidates)
    if obj is None:
        return None
    parents = [r for r in fixed if catalogue.can_place(placed(obj), r)]
    parent = _pick(rng, parents)
    return make_task(task_type.name, obj, parent, object_sliced=sliced) if parent else None


def _already_done(encoded) -> bool:
    """Whether the goal holds in the start state (ALFRED never asks for such a task)."""
    result = solve(encoded, time_limit=TIME_LIMIT)
    return result.solved and not result.plan


def scene_state(scene_num: int | str, seed: int) -> tuple[dict, dict, list[float], str]:
    """The start state ``generate`` records from (spawn, start pose, restore): metadata, interaction
    poses, agent pose, scene name. The state's task only decides toggles and dirt, left at none."""
    scene = get_scene(scene_num)
    start = make_start_state(simulator().open(), scene, make_task("pick_and_place_simple", "Apple", "Fridge"), seed)
    metadata = start.metadata
    return metadata, interaction_poses(scene.interaction_poses, metadata), agent_pose_of(metadata), scene.name


def bench_houses(per_size: int, first: int = 1, last: int = 200) -> list[int]:
    """``per_size`` house numbers of each size (two to eight rooms), the lowest numbers first."""
    by_size: dict[int, list[int]] = {}
    for number in range(first, last + 1):
        size = len(get_scene(f"LiteHouse{number}").rooms)
        if len(by_size.setdefault(size, [])) < per_size:
            by_size[size].append(number)
        if all(len(by_size.get(k, [])) >= per_size for k in range(MIN_ROOMS, MAX_ROOMS + 1)):
            break
    return sorted(n for numbers in by_size.values() for n in numbers)


def build_problems(scenes_per_room: int, tasks_per_scene: int, out: Path, houses: list[int] | None = None,
                   tasks_per_house: int = 2) -> list[dict]:
    """Write the problem files; return their descriptions."""
    problems: list[dict] = []
    encoded = None
    work: list[tuple[int | str, str | tuple[str, ...], int]] = [
        (scene, room, tasks_per_scene)
        for room, numbers in ROOM_SCENES.items()
        for scene in list(numbers)[:scenes_per_room]
    ]
    for house in houses or ():
        rooms = tuple(sorted({r.room_type for r in get_scene(f"LiteHouse{house}").rooms}))
        work.append((f"LiteHouse{house}", rooms, tasks_per_house))
    for scene, room, wanted in work:
        seed = hash_str(f"bench-{scene}") % 1000
        metadata, poses, agent, name = scene_state(scene, seed)
        rng = random.Random(hash_str(f"bench-tasks-{scene}"))
        made = 0
        for _ in range(40):
            if made == wanted:
                break
            task = sample_task(rng, room, metadata)
            if task is None:
                continue
            encoded = encode_problem(metadata, task, poses, agent, problem_name=f"{name.lower()}-{made}")
            if encoded.unsolvable_reason or _already_done(encoded):
                continue
            stem = f"{name}-{made}-{task.task_type}{'-sliced' if task.object_sliced else ''}"
            (out / f"{stem}.pddl").write_text(encoded.problem_text)
            is_house = isinstance(scene, str)
            problems.append(
                {
                    "name": stem,
                    "room": "house" if is_house else room_type_of(int(scene)),
                    "rooms": len(get_scene(name).rooms) if is_house else 1,
                    "objects": len(encoded.objects),
                    "locations": len(encoded.locations),
                    "task": task.task_type,
                    "sliced": task.object_sliced,
                    "problem": str(out / f"{stem}.pddl"),
                }
            )
            made += 1
    assert encoded is not None, "no problem was made"
    (out / "domain.pddl").write_text(encoded.domain_text)
    return problems


# --------------------------------------------------------------------------------------------
# Running the planners


def _warm(script: str, domain: Path, problems: list[str], repeat: int, scratch: Path) -> list[dict]:
    """Time a planner in one long-running process over all problems (in-process times)."""
    listing = scratch / "problems.json"
    listing.write_text(json.dumps(problems))
    done = subprocess.run(
        [sys.executable, "-c", script, str(domain), str(listing), str(repeat)],
        capture_output=True,
        text=True,
        timeout=(TIME_LIMIT * repeat + 5) * len(problems),
    )
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if len(results) != len(problems):
        raise SystemExit(f"worker failed after {len(results)} problems: {done.stderr.strip()[-500:]}")
    return results


def _best(earlier: list[dict], latest: list[dict]) -> list[dict]:
    """Per problem, the faster of two timings of the same planner."""
    if not earlier:
        return latest
    return [a if a["time"] <= b["time"] else b for a, b in zip(earlier, latest)]


#: The environment of fresh planner processes: bytecode may be written and read (see the docstring).
_COLD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cold(script: str, domain: Path, problem: str, scratch: Path) -> float | None:
    """Wall time of a fresh process that imports the planner and solves one problem once."""
    listing = scratch / "one.json"
    listing.write_text(json.dumps([problem]))
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, str(domain), str(listing), "0"],
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT + 30,
            env=_COLD_ENV,
        )
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start if done.returncode == 0 else None


def _fast_downward(fd: Path, domain: Path, problem: str, workdir: Path) -> dict:
    plan_file = workdir / "sas_plan"
    if plan_file.exists():
        plan_file.unlink()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(fd), "--plan-file", str(plan_file), "--alias", "lama-first", str(domain), problem],
            capture_output=True,
            text=True,
            cwd=workdir,
            timeout=TIME_LIMIT,
        )
    except subprocess.TimeoutExpired:
        return {"time": None, "length": None, "status": "timeout"}
    elapsed = time.perf_counter() - start
    if not plan_file.exists():
        return {"time": elapsed, "length": None, "status": f"no plan (exit {done.returncode})"}
    steps = [line for line in plan_file.read_text().splitlines() if line.startswith("(")]
    return {"time": elapsed, "length": len(steps) - 1, "status": "solved"}


def _fast_downward_script() -> Path | None:
    import importlib.util

    # Located without importing: the package's __init__ needs unified_planning, the driver does not.
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    script = Path(list(spec.submodule_search_locations)[0]) / "downward" / "fast-downward.py"
    return script if script.exists() else None


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes-per-room", type=int, default=15)
    parser.add_argument("--tasks-per-scene", type=int, default=2)
    parser.add_argument("--houses-per-size", type=int, default=2,
                        help="houses of each size (2-8 rooms) to take problems from (0: no houses)")
    parser.add_argument("--tasks-per-house", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5, help="in-process runs per problem (best is kept)")
    parser.add_argument(
        "--rounds", type=int, default=2, help="in-process rounds, ours and pyperplan in turn (best per problem is kept)"
    )
    parser.add_argument("--keep", type=Path, help="write the PDDL files here and keep them")
    args = parser.parse_args()

    fd = _fast_downward_script()
    if fd is None:
        sys.exit("bench/planner.py needs Fast Downward: pip install up-fast-downward")
    out = args.keep or Path(tempfile.mkdtemp(prefix="alfred-bench-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    houses = bench_houses(args.houses_per_size) if args.houses_per_size > 0 else []
    problems = build_problems(args.scenes_per_room, args.tasks_per_scene, out, houses, args.tasks_per_house)
    domain = out / "domain.pddl"
    print(
        f"{len(problems)} problems from {args.scenes_per_room * 4} scenes and {len(houses)} houses "
        f"({', '.join(f'LiteHouse{n}' for n in houses) or 'none'}) "
        f"({time.perf_counter() - started:.0f} s to build), files in {out}"
    )
    by_kind: dict[str, int] = {}
    for p in problems:
        kind = p["task"] + ("_slice" if p["sliced"] else "")
        by_kind[kind] = by_kind.get(kind, 0) + 1
    for kind, n in sorted(by_kind.items()):
        print(f"  {n:3d}  {kind}")
    rooms = sorted({p["room"] for p in problems})
    print(f"  rooms: {', '.join(rooms)}")

    ours_script = _OURS_WORKER % {"limit": TIME_LIMIT}
    pyperplan_script = _PYPERPLAN_WORKER
    workdir = Path(tempfile.mkdtemp(prefix="alfred-bench-run-"))
    files = [p["problem"] for p in problems]
    ours_warm: list[dict] = []
    stock_warm: list[dict] = []
    for round_ in range(1, args.rounds + 1):
        # Rounds alternate the two planners, so a drift in the machine's speed during the run
        # (it is shared) falls on both; per problem the best time over the rounds is kept.
        print(f"timing in-process, round {round_}/{args.rounds}: ours, then pyperplan ...", flush=True)
        ours_warm = _best(ours_warm, _warm(ours_script, domain, files, args.repeat, workdir))
        stock_warm = _best(stock_warm, _warm(pyperplan_script, domain, files, args.repeat, workdir))
    print("timing one process per problem (ours, pyperplan, fast downward) ...", flush=True)
    for script in (ours_script, pyperplan_script):  # unmeasured: writes the bytecode of a checkout
        _cold(script, domain, problems[0]["problem"], workdir)
    rows = []
    for i, problem in enumerate(problems):
        ours = {**ours_warm[i], "process": _cold(ours_script, domain, problem["problem"], workdir)}
        stock = {**stock_warm[i], "process": _cold(pyperplan_script, domain, problem["problem"], workdir)}
        downward = _fast_downward(fd, domain, problem["problem"], workdir)
        rows.append({"problem": problem, "ours": ours, "pyperplan": stock, "fd": downward})
        print(
            f"[{i + 1:3d}/{len(problems)}] {problem['name']:<62} ours {_ms(ours['time'])} "
            f"pyperplan {_ms(stock['time'])} fd {_ms(downward['time'])}  "
            f"len {ours['length']}/{stock['length']}/{downward['length']}",
            flush=True,
        )
    shutil.rmtree(workdir, ignore_errors=True)
    if args.keep is None:
        shutil.rmtree(out, ignore_errors=True)
    report(rows)


def _ms(value: float | None) -> str:
    return f"{value * 1000:8.1f} ms" if value is not None else "      n/a  "


def _series(rows: list[dict]) -> dict[str, list[dict]]:
    return {
        "ours (in-process)": [r["ours"] for r in rows],
        "ours (one process per problem)": [{**r["ours"], "time": r["ours"].get("process")} for r in rows],
        "pyperplan gbf+hff (in-process)": [r["pyperplan"] for r in rows],
        "pyperplan gbf+hff (one process per problem)": [
            {**r["pyperplan"], "time": r["pyperplan"].get("process")} for r in rows
        ],
        "fast downward lama-first (process: translate+search)": [r["fd"] for r in rows],
    }


def _median_time(results: list[dict]) -> float:
    times = [r["time"] for r in results if r["time"] is not None]
    return statistics.median(times) if times else float("nan")


def _planner_table(rows: list[dict]) -> dict[str, float]:
    """One line per planner over ``rows``; the median times by planner."""
    print(f"{'planner':<54} {'solved':>8} {'median ms':>10} {'p95 ms':>10} {'median len':>11}")
    medians = {}
    for name, results in _series(rows).items():
        solved = [r for r in results if r["status"] == "solved" and r["time"] is not None]
        times = [r["time"] for r in results if r["time"] is not None]
        lengths = [r["length"] for r in solved if r["length"] is not None]
        medians[name] = _median_time(results)
        print(
            f"{name:<54} {len(solved):>4}/{len(results):<3} {medians[name] * 1000:>10.2f} "
            f"{_p95(times) * 1000 if times else float('nan'):>10.2f} "
            f"{statistics.median(lengths) if lengths else float('nan'):>11.1f}"
        )
    return medians


def _kind_table(groups: list[tuple[str, list[dict]]]) -> None:
    """Per group of problems: size (objects, locations: medians; most locations) and each planner's
    median time (and ours at its slowest)."""
    print(f"{'problems':<22} {'n':>4} {'objects':>8} {'locations':>10} {'max loc':>8} {'ours ms':>9} "
          f"{'ours max ms':>12} {'pyperplan ms':>13} {'fd ms':>8} {'ours solved':>12}")
    for label, rows in groups:
        if not rows:
            continue
        solved = sum(1 for r in rows if r["ours"]["status"] == "solved")
        print(
            f"{label:<22} {len(rows):>4} {statistics.median(r['problem']['objects'] for r in rows):>8.0f} "
            f"{statistics.median(r['problem']['locations'] for r in rows):>10.0f} "
            f"{max(r['problem']['locations'] for r in rows):>8} "
            f"{_median_time([r['ours'] for r in rows]) * 1000:>9.1f} "
            f"{max((r['ours']['time'] or 0.0) for r in rows) * 1000:>12.1f} "
            f"{_median_time([r['pyperplan'] for r in rows]) * 1000:>13.1f} "
            f"{_median_time([r['fd'] for r in rows]) * 1000:>8.1f} {solved:>8}/{len(rows):<3}"
        )


def report(rows: list[dict]) -> None:
    """The summary tables and the ratio lines."""
    singles = [r for r in rows if r["problem"]["room"] != "house"]
    houses = [r for r in rows if r["problem"]["room"] == "house"]
    print()
    print(f"single rooms ({len(singles)} problems):")
    medians = _planner_table(singles)
    if houses:
        print()
        print(f"houses ({len(houses)} problems):")
        house_medians = _planner_table(houses)
    print()
    print("by room type, and the houses row (median over the problems):")
    kinds = ["kitchen", "living_room", "bedroom", "bathroom"]
    _kind_table([(kind, [r for r in singles if r["problem"]["room"] == kind]) for kind in kinds]
                + [("all single rooms", singles), ("houses", houses)])
    if houses:
        print()
        print("houses by number of rooms (how plan time grows with the rooms):")
        sizes = sorted({r["problem"]["rooms"] for r in houses})
        _kind_table([(f"{size} rooms", [r for r in houses if r["problem"]["rooms"] == size]) for size in sizes])
    both = [
        r
        for r in rows
        if r["ours"]["status"] == "solved" and r["pyperplan"]["status"] == "solved" and r["fd"]["status"] == "solved"
    ]
    if both:
        longer = sum(1 for r in both if r["ours"]["length"] > r["fd"]["length"])
        shorter = sum(1 for r in both if r["ours"]["length"] < r["fd"]["length"])
        total = {k: sum(r[k]["length"] for r in both) for k in ("ours", "pyperplan", "fd")}
        print(
            f"\nplan length (steps without the goal action) on the {len(both)} problems all three solved: "
            f"total ours {total['ours']}, pyperplan {total['pyperplan']}, fast downward {total['fd']}; "
            f"ours shorter than fast downward on {shorter}, longer on {longer}"
        )
    ours = medians["ours (in-process)"]
    ours_process = medians["ours (one process per problem)"]
    vs_pyperplan = medians["pyperplan gbf+hff (in-process)"] / ours
    vs_fd = medians["fast downward lama-first (process: translate+search)"] / ours
    print()
    print(
        "Fairness: ours and pyperplan are timed the same way (in-process in a long-running worker, "
        "parse+ground+search from the same files, best of the repeats; ours also tidies and validates "
        "its plan, and forgets its memoized names before each repeat, so a repeat costs what a new problem "
        "costs; ours keeps the parsed domain while the domain file is unchanged, pyperplan parses it for "
        "every problem). Fast Downward can only run as a process, "
        "so its time includes starting its Python driver, the translator and the search binary; against "
        "ours run the same way (a fresh Python process importing alfred_gen, one solve) the ratio is "
        f"{medians['fast downward lama-first (process: translate+search)'] / ours_process:.2f}; "
        f"pyperplan run as a process vs ours as a process: "
        f"{medians['pyperplan gbf+hff (one process per problem)'] / ours_process:.2f} (single rooms)."
    )
    print(f"ratio_vs_pyperplan: {vs_pyperplan:.1f}")
    print(f"ratio_vs_fast_downward: {vs_fd:.1f}")
    print(f"ratio_process_vs_pyperplan: {medians['pyperplan gbf+hff (one process per problem)'] / ours_process:.2f}")
    if houses:
        ours_h = house_medians["ours (in-process)"]
        print(f"houses_ratio_vs_pyperplan: {house_medians['pyperplan gbf+hff (in-process)'] / ours_h:.1f}")
        print(f"houses_ratio_vs_fast_downward: "
              f"{house_medians['fast downward lama-first (process: translate+search)'] / ours_h:.1f}")


if __name__ == "__main__":
    main()
