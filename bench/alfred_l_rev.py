"""Which sources ALFRED-L's REV-1 and REV-n apply to, under candidate selection rules.

ALFRED-L (Gella et al., EMNLP 2022, Table 3) derives NAV-ONLY, REV-1 and REV-n from ALFRED's
validation demos; REV-1 holds 74.1% as many trajectories as NAV-ONLY, REV-n 28.3%. The paper does
not print the rule that decides whether a source has "an earlier destination to walk back to", so
this script counts, for each candidate rule, the share of sources (that NAV-ONLY applies to) for
which REV-1 (one walk back) and REV-n (two) can be made, side by side with the paper's shares.

A source's destinations are where its ``GotoLocation`` subgoals leave the agent. Released demos
replayed in THOR without a failed action, so the poses follow from the start pose and the actions
by dead reckoning (0.25 m steps, 90 degree turns): no simulator is needed and every demo counts.

    python bench/alfred_l_rev.py [DIR ...]    (default: $ALFRED_DATA/json_2.1.0 and
                                              the 6,574 train demos beside it, if present)
"""

from __future__ import annotations

import argparse
import json
import math
import os
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

from alfred_gen.derive.source import choose_destinations, destinations_of, subgoals_of

#: ALFRED-L's Table 3 as shares of NAV-ONLY's trajectories.
PAPER = {"rev-1": 74.1, "rev-n": 28.3}

THRESHOLD = 1.25

Point = tuple[float, float]
#: (destinations as (position, args) in time order, final position)
Source = tuple[list[tuple[Point, tuple[str, ...]]], Point]
Rule = Callable[[Source, int], bool]


def poses_by_dead_reckoning(traj: dict) -> list[tuple[float, float, float, float]]:
    """The pose after every low action, from the start pose: THOR's rotation 0 faces +z, 90 +x."""
    init = traj["scene"]["init_action"]
    x, z, rot, hor = float(init["x"]), float(init["z"]), float(init["rotation"]) % 360, float(init["horizon"])
    out = []
    for low in traj["plan"]["low_actions"]:
        name = low["api_action"]["action"]
        if name == "MoveAhead":
            x += 0.25 * round(math.sin(math.radians(rot)))
            z += 0.25 * round(math.cos(math.radians(rot)))
        elif name == "RotateRight":
            rot = (rot + 90) % 360
        elif name == "RotateLeft":
            rot = (rot - 90) % 360
        elif name == "LookDown":
            hor += 15
        elif name == "LookUp":
            hor -= 15
        out.append((x, z, rot, hor))
    return out


def source_of(traj: dict) -> Source | None:
    """The source's destinations and final position, or None if NAV-ONLY does not apply."""
    poses = poses_by_dead_reckoning(traj)
    walks = destinations_of(subgoals_of(traj), poses)
    if not walks or not poses:
        return None
    return [((w.pose[0], w.pose[1]), w.args) for w in walks], (poses[-1][0], poses[-1][1])


def _far(a: Point, b: Point, threshold: float) -> bool:
    return math.dist(a, b) > threshold + 1e-6


def greedy(threshold: float, from_previous: float | None) -> Rule:
    """Latest first, each destination farther than ``threshold`` from the end (and, unless
    ``from_previous`` is None, farther than that from the one taken before it)."""
    def rule(source: Source, count: int) -> bool:
        walks, final = source
        here, taken = final, 0
        for point, _args in reversed(walks):
            too_near = from_previous is not None and not _far(point, here, from_previous)
            if not _far(point, final, threshold) or too_near:
                continue
            taken, here = taken + 1, point
            if taken == count:
                return True
        return False
    return rule


def any_order(threshold: float) -> Rule:
    """Some ``count`` earlier destinations (in time order, not necessarily the latest) with each
    farther than ``threshold`` from the end and from the next one walked back from."""
    def rule(source: Source, count: int) -> bool:
        walks, final = source
        points = [p for p, _ in walks]
        for chosen in combinations(range(len(points)), count):
            here, ok = final, True
            for i in reversed(chosen):
                if not (_far(points[i], final, threshold) and _far(points[i], here, threshold)):
                    ok = False
                    break
                here = points[i]
            if ok:
                return True
        return False
    return rule


def earlier_walks(source: Source, count: int) -> bool:
    """No distance at all: ``count`` walks before the last one."""
    return len(source[0]) - 1 >= count


def distinct_targets(source: Source, count: int) -> bool:
    """``count`` earlier walks to objects other than the last walk's and other than each other."""
    walks, _ = source
    last = walks[-1][1]
    return len({args for _, args in walks[:-1] if args != last}) >= count


def library_rule(source: Source, count: int) -> bool:
    """The rule ``alfred-gen derive`` uses (:data:`alfred_gen.derive.source.SELECTION_RULE`)."""
    from alfred_gen.derive.source import Destination

    walks, final = source
    dests = [Destination(i, args, (p[0], p[1], 0.0, 0.0), i) for i, (p, args) in enumerate(walks)]
    return choose_destinations(dests, (final[0], final[1], 0.0, 0.0), count, THRESHOLD) is not None


RULES: dict[str, Rule] = {
    "greedy, >1.25 m from end and previous (before #67)": greedy(THRESHOLD, THRESHOLD),
    "greedy, >1.25 m from end only": greedy(THRESHOLD, None),
    "greedy, >1.25 m from end, another spot than previous": greedy(THRESHOLD, 0.0),
    "any earlier, >1.25 m from end and next": any_order(THRESHOLD),
    "greedy, >0.5 m from end and previous": greedy(0.5, 0.5),
    "greedy, >0 m (a different spot)": greedy(0.0, 0.0),
    "earlier walks, no distance": earlier_walks,
    "distinct earlier targets": distinct_targets,
    "derive's rule (source.SELECTION_RULE)": library_rule,
}


def load(dirs: Sequence[Path]) -> list[Source]:
    out = []
    for root in dirs:
        for path in sorted(root.rglob("traj_data.json")):
            traj = json.loads(path.read_text())
            if traj.get("derived_from"):
                continue
            source = source_of(traj)
            if source is not None:
                out.append(source)
    return out


def table(name: str, sources: list[Source]) -> None:
    print(f"\n{name}: {len(sources)} sources NAV-ONLY applies to")
    print(f"  {'rule':54s} {'REV-1':>7s} {'REV-n':>7s}   paper: REV-1 {PAPER['rev-1']}%  REV-n {PAPER['rev-n']}%")
    for label, rule in RULES.items():
        one = sum(rule(s, 1) for s in sources) / max(1, len(sources)) * 100
        two = sum(rule(s, 2) for s in sources) / max(1, len(sources)) * 100
        gaps = f"(gap {one - PAPER['rev-1']:+.1f} / {two - PAPER['rev-n']:+.1f})"
        print(f"  {label:54s} {one:6.1f}% {two:6.1f}%   {gaps}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path)
    args = parser.parse_args()
    dirs: list[Path] = args.dirs
    if not dirs:
        data = Path(os.environ.get("ALFRED_DATA", "../shared/alfred"))
        dirs = [data / "json_2.1.0"]
        if (data.parent / "alfred-train").is_dir():
            dirs.append(data.parent / "alfred-train")
    for root in dirs:
        table(str(root), load([root]))


if __name__ == "__main__":
    main()
