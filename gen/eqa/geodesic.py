"""Geodesic distances on the reachable grid, and where an EQA episode starts.

EQA scores navigation in metres along the shortest obstacle-avoiding path: d_T (distance to the
target when the agent stops), d_Δ (how much nearer it got) and d_min (nearest it ever came). A
*field* holds the distance from every reachable point to a goal: a breadth-first search over the
0.25 m grid, 4-neighbour steps (MoveAhead's), times the grid size. The goal is one point
(:func:`distance_field`: every trajectory of ``eqa paths`` carries the field to where its expert
stops) or a set of points (:func:`region_field`: ``eval eqa`` measures to the target's viewing
region, every point from which the target is seen, as the paper does). :func:`navigation_scores`
reads the scores of any positions off either field, without a simulator.

The expert starts far from its target, as EQA's path generator
(``data/shortest-path-gen/generate-paths-a-star.py``) picks its sources: among the reachable points
farthest from the goal along the grid, the :data:`SPAWN_FARTHEST_SHARE` (its
``source_candidate_fraction``, 5%) of them, and never nearer than ``min_distance`` metres
(:data:`MIN_SPAWN_DISTANCE` by default); one of them by a stable hash of the question, facing one
of the four headings, camera at ALFRED's start horizon. (Before issue 67 any point 5 m away would
do, and most paths were too short for a T-50 start.)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from alfred_gen.sim.scene import GRID_SIZE, grid_key, hash_str

#: The expert's start is at least this far (metres along the grid) from where it stops.
MIN_SPAWN_DISTANCE = 5.0

#: The expert starts among this share of the reachable points, the farthest from its goal (EQA's
#: ``source_candidate_fraction``).
SPAWN_FARTHEST_SHARE = 0.05

Cell = tuple[int, int]


def grid_steps(reachable: Sequence[tuple[float, float]], goal: tuple[float, float]) -> dict[Cell, int]:
    """4-neighbour steps from every reachable cell connected to ``goal``'s cell (BFS)."""
    return region_steps(reachable, [goal])


def region_steps(reachable: Sequence[tuple[float, float]], goals: Sequence[tuple[float, float]]) -> dict[Cell, int]:
    """4-neighbour steps from every reachable cell to the nearest of ``goals`` that is reachable
    (a breadth-first search from all of them at once); empty when none is."""
    cells = {grid_key(x, z) for x, z in reachable}
    starts = sorted({grid_key(*goal) for goal in goals} & cells)
    steps = dict.fromkeys(starts, 0)
    queue = deque(starts)
    while queue:
        i, j = queue.popleft()
        for neighbour in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if neighbour in cells and neighbour not in steps:
                steps[neighbour] = steps[(i, j)] + 1
                queue.append(neighbour)
    return steps


def distance_field(reachable: Sequence[tuple[float, float]], goal: tuple[float, float]) -> list[list[float]]:
    """``[x, z, metres]`` for every reachable point connected to ``goal``, sorted by (x, z)."""
    steps = grid_steps(reachable, goal)
    points = {grid_key(x, z): (x, z) for x, z in reachable}
    return [[points[cell][0], points[cell][1], round(n * GRID_SIZE, 4)] for cell, n in sorted(steps.items())]


def region_field(reachable: Sequence[tuple[float, float]],
                 goals: Sequence[tuple[float, float]]) -> list[list[float]]:
    """``[x, z, metres]`` to the nearest of ``goals`` for every reachable point connected to one of
    them, sorted by (x, z): :func:`distance_field` of a region."""
    steps = region_steps(reachable, goals)
    points = {grid_key(x, z): (x, z) for x, z in reachable}
    return [[points[cell][0], points[cell][1], round(n * GRID_SIZE, 4)] for cell, n in sorted(steps.items())]


def choose_spawn(key: str, reachable: Sequence[tuple[float, float]], goal: tuple[float, float],
                 min_distance: float = MIN_SPAWN_DISTANCE) -> tuple[float, float, int, float] | None:
    """(x, z, rotation, metres) of the start for the question ``key``, or None when no reachable
    point is ``min_distance`` away (module docstring): a point among the farthest
    :data:`SPAWN_FARTHEST_SHARE` of those connected to the goal, ties at the cut included."""
    steps = grid_steps(reachable, goal)
    connected = sorted(steps.values())
    if not connected:
        return None
    cut = connected[min(len(connected) - 1, int((1.0 - SPAWN_FARTHEST_SHARE) * len(connected)))]
    far = sorted((x, z) for x, z in reachable
                 if steps.get(grid_key(x, z), -1) >= cut
                 and steps.get(grid_key(x, z), -1) * GRID_SIZE >= min_distance - 1e-9)
    if not far:
        return None
    value = hash_str(f"alfred-gen eqa spawn {key}")
    x, z = far[value % len(far)]
    return x, z, 90 * ((value >> 20) % 4), steps[grid_key(x, z)] * GRID_SIZE


def navigation_scores(cells: Sequence[Sequence[float]], positions: Sequence[tuple[float, float]]) -> dict[str, float]:
    """EQA's navigation metrics for an agent that visited ``positions`` (x, z; first = its start,
    last = where it stopped), from a field (rows ``[x, z, metres]``): d_0 (start), d_T (end),
    d_Δ = d_0 - d_T (how much nearer it got) and d_min (nearest it came), all in metres along the
    grid. The field decides what they are measured to: a trajectory's ``eqa.geodesic.cells`` is the
    field to the expert's stop; :func:`region_field` of the target's viewing region is the one the
    paper measures to (``eval eqa``). KeyError for a position off the field (not reachable, or cut
    off from the goal)."""
    if not positions:
        raise ValueError("no positions to score")
    field = {grid_key(float(x), float(z)): float(d) for x, z, d in cells}
    distances = [field[grid_key(float(x), float(z))] for x, z in positions]
    return {"d_0": distances[0], "d_T": distances[-1], "d_delta": round(distances[0] - distances[-1], 4),
            "d_min": min(distances)}
