"""A source trajectory as the variants see it: its subgoals, and the destinations of its walks.

A *subgoal* is one ``high_pddl`` step before ALFRED's closing ``NoOp`` with the low actions whose
``high_idx`` is its own. A *destination* is where a ``GotoLocation`` subgoal leaves the agent: the
pose after its last low action, read from the replay of the source (not computed from the
actions, so it is what the simulator did). REV walks back to destinations; NAV-ONLY keeps the
walks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.replay.goals import within_threshold

#: A pose: x, z (metres), rotation (degrees), camera horizon (degrees, positive looks down).
Pose = tuple[float, float, float, float]

#: ALFRED's closing high-level step (discrete name), which has no instruction.
END_ACTIONS = frozenset({"NoOp", "End"})

#: Two destinations closer than this (metres) are one spot: the grid's step is 0.25 m.
SAME_SPOT = 0.01

#: Which earlier destinations REV-1/REV-n may walk back to (``bench/alfred_l_rev.py`` measures the
#: candidates against ALFRED-L's Table 3): each one farther than the threshold from where the source
#: ends, and at another spot than the destination walked back from before it.
SELECTION_RULE = "far from the end, another spot than the previous"


@dataclass(frozen=True)
class Subgoal:
    """One high-level step of the source and the indices of its low actions (in order)."""

    high_idx: int
    high: Mapping[str, Any]
    low: tuple[int, ...] = field(default=())

    @property
    def action(self) -> str:
        return str(self.high["discrete_action"]["action"])

    @property
    def is_walk(self) -> bool:
        return self.action == "GotoLocation"


@dataclass(frozen=True)
class Destination:
    """Where a walk of the source ends: the subgoal, its args (what it walks to), the pose."""

    high_idx: int
    args: tuple[str, ...]
    pose: Pose
    last_low: int  # index of the walk's last low action: walking back to here undoes what follows

    def distance_to(self, x: float, z: float) -> float:
        return math.hypot(self.pose[0] - x, self.pose[1] - z)


def subgoals_of(traj: Mapping[str, Any]) -> list[Subgoal]:
    """The source's subgoals in order, the closing NoOp/End left out."""
    plan = traj["plan"]
    lows: dict[int, list[int]] = {}
    for index, low in enumerate(plan["low_actions"]):
        lows.setdefault(int(low["high_idx"]), []).append(index)
    out = []
    for high in plan["high_pddl"]:
        if high["discrete_action"]["action"] in END_ACTIONS:
            continue
        high_idx = int(high["high_idx"])
        out.append(Subgoal(high_idx, high, tuple(lows.get(high_idx, ()))))
    return out


def destinations_of(subgoals: Sequence[Subgoal], poses: Sequence[Pose]) -> list[Destination]:
    """The destination of every walk that has low actions, in order; ``poses[i]`` is the agent's
    pose after low action i (from the source's replay)."""
    out = []
    for subgoal in subgoals:
        if subgoal.is_walk and subgoal.low:
            last = subgoal.low[-1]
            args = tuple(str(a) for a in subgoal.high["discrete_action"].get("args") or ())
            out.append(Destination(subgoal.high_idx, args, poses[last], last))
    return out


def choose_destinations(
    destinations: Sequence[Destination], final: Pose, count: int, threshold: float
) -> list[Destination] | None:
    """The ``count`` destinations to walk back to, latest first, or None if there are fewer.

    Going back in time from the end, a destination is taken when it lies more than ``threshold``
    from the final position (otherwise standing still would pass the success test, which is
    checked at the last destination only) and is not the spot of the destination taken before it
    (a walk back that does not move is no walk). The paper's reversal can only walk back in time,
    so later picks are always earlier walks.

    Until issue 67 a destination also had to lie more than ``threshold`` from the one taken
    before it: on ALFRED's demos that made REV-n 14.7% of NAV-ONLY against the paper's 28.3%;
    this rule gives 25.6% (REV-1 is the same under both, 72.3% against 74.1%).
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    chosen: list[Destination] = []
    here = (final[0], final[1])
    for destination in reversed(destinations):
        if within_threshold(destination.distance_to(final[0], final[1]), threshold):
            continue
        if destination.distance_to(*here) < SAME_SPOT:
            continue
        chosen.append(destination)
        here = (destination.pose[0], destination.pose[1])
        if len(chosen) == count:
            return chosen
    return None
