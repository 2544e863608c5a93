"""Where an EQA expert starts: among the reachable points farthest from its goal along the grid, as
EQA's path generator picks its sources, and never nearer than the minimum distance."""

from __future__ import annotations

from alfred_gen.eqa.geodesic import SPAWN_FARTHEST_SHARE, choose_spawn, grid_steps
from alfred_gen.sim.scene import GRID_SIZE, grid_key

#: An L-shaped floor: a 20 x 4 hall and a 4 x 12 wing off its far end, 0.25 m apart.
FLOOR = sorted({(i * GRID_SIZE, j * GRID_SIZE) for i in range(20) for j in range(4)}
               | {(i * GRID_SIZE, j * GRID_SIZE) for i in range(16, 20) for j in range(4, 16)})
GOAL = (0.0, 0.0)


def test_the_start_is_among_the_farthest_share_of_the_points() -> None:
    steps = grid_steps(FLOOR, GOAL)
    metres = sorted(n * GRID_SIZE for n in steps.values())
    starts = {choose_spawn(f"question {k}", FLOOR, GOAL, min_distance=1.0) for k in range(40)}
    assert None not in starts
    for x, z, rotation, distance in starts:
        assert distance == steps[grid_key(x, z)] * GRID_SIZE and rotation in (0, 90, 180, 270)
        # No more than the share of the points lies farther than a start.
        assert sum(1 for d in metres if d > distance) <= SPAWN_FARTHEST_SHARE * len(metres)
    # Different questions start at different points of that far end, each always at the same one.
    assert len({(x, z) for x, z, _, _ in starts}) > 1
    assert choose_spawn("question 3", FLOOR, GOAL, 1.0) == choose_spawn("question 3", FLOOR, GOAL, 1.0)


def test_the_minimum_distance_still_holds_and_none_when_nothing_is_that_far() -> None:
    farthest = max(grid_steps(FLOOR, GOAL).values()) * GRID_SIZE
    start = choose_spawn("q", FLOOR, GOAL, min_distance=farthest)
    assert start is not None and start[3] == farthest
    assert choose_spawn("q", FLOOR, GOAL, min_distance=farthest + GRID_SIZE) is None
    assert choose_spawn("q", FLOOR, (50.0, 50.0)) is None  # a goal off the floor reaches nothing
