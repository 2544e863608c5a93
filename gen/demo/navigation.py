"""Grid navigation for GotoLocation: shortest action sequences between agent poses.

ALFRED's generator walks between interaction poses with the discrete agent of AI2-THOR: a 0.25 m
grid, quarter turns, and 15 degree camera tilts. Its demonstrations only ever move with MoveAhead
(the agent turns to face each step, never side-steps or backs up), then tilt the camera to the
interaction pose's horizon. We do the same:

* the navigation graph is a directed graph over (grid cell, heading) states; MoveAhead links a state
  to the 4-neighbour cell in front of it when both cells are reachable, RotateLeft / RotateRight
  link the four headings of a cell;
* a path is a shortest path in that graph (every action costs one), found with networkx;
* the camera horizon is adjusted at the end with LookDown_15 / LookUp_15.

Everything is deterministic: the graph is built in sorted order, so networkx's breadth-first
search returns the same path for the same inputs, whatever PYTHONHASHSEED is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx

from alfred_gen.sim.scene import GRID_SIZE

#: Camera tilt of one LookUp / LookDown, in degrees.
HORIZON_STEP = 15

#: Heading q (rotation = 90 * q) -> the grid step it faces: rotation 0 faces +z, 90 faces +x.
_FORWARD = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}


@dataclass(frozen=True)
class NavAction:
    """One navigation step: the AI2-THOR action dict and ALFRED's discrete name."""

    api_action: dict[str, Any]
    discrete: str


def move_ahead() -> NavAction:
    return NavAction({"action": "MoveAhead", "forceAction": True, "moveMagnitude": GRID_SIZE}, "MoveAhead_25")


def rotate_left() -> NavAction:
    return NavAction({"action": "RotateLeft", "forceAction": True}, "RotateLeft_90")


def rotate_right() -> NavAction:
    return NavAction({"action": "RotateRight", "forceAction": True}, "RotateRight_90")


def look_down() -> NavAction:
    return NavAction({"action": "LookDown", "forceAction": True}, "LookDown_15")


def look_up() -> NavAction:
    return NavAction({"action": "LookUp", "forceAction": True}, "LookUp_15")


class NavigationError(ValueError):
    """No way to reach a pose: off the reachable grid, cut off, or a horizon not on the 15° steps."""


def cell_of(x: float, z: float, grid: float = GRID_SIZE) -> tuple[int, int]:
    """The integer grid cell of a position (robust to float noise)."""
    return (int(math.floor(x / grid + 0.5)), int(math.floor(z / grid + 0.5)))


def heading_of(rotation: float) -> int:
    """Quarter turns (0-3) of a rotation in degrees; NavigationError if not a multiple of 90."""
    turns = float(rotation) / 90.0
    if abs(turns - round(turns)) > 1e-6:
        raise NavigationError(f"rotation {rotation:g} is not a multiple of 90 degrees")
    return int(round(turns)) % 4


class NavigationGraph:
    """Shortest MoveAhead/Rotate paths over a set of reachable grid points.

    ``points`` are reachable agent positions (x, z), e.g. the ``actionReturn`` of
    ``GetReachablePositions`` as (x, z) pairs. Poses are ``(x, z, rotation, horizon)``.
    """

    def __init__(self, points: Iterable[Sequence[float]], grid: float = GRID_SIZE) -> None:
        self.grid = grid
        self.cells = sorted({cell_of(float(p[0]), float(p[1]), grid) for p in points})
        cell_set = set(self.cells)
        graph = nx.DiGraph()
        for cell in self.cells:
            for q in range(4):
                graph.add_node((cell[0], cell[1], q))
        for i, j in self.cells:
            for q in range(4):
                graph.add_edge((i, j, q), (i, j, (q + 3) % 4), action="RotateLeft")
                graph.add_edge((i, j, q), (i, j, (q + 1) % 4), action="RotateRight")
                di, dj = _FORWARD[q]
                if (i + di, j + dj) in cell_set:
                    graph.add_edge((i, j, q), (i + di, j + dj, q), action="MoveAhead")
        self.graph = graph

    def __contains__(self, xz: Sequence[float]) -> bool:
        """Whether position (x, z) is a reachable grid point."""
        return (*cell_of(float(xz[0]), float(xz[1]), self.grid), 0) in self.graph

    def connected_cells(self, xz: Sequence[float]) -> set[tuple[int, int]]:
        """The grid cells the agent standing at (x, z) can walk to (empty if (x, z) is not reachable).

        A room's reachable points can form islands: a gap between two fixtures narrower than the
        agent leaves a corner that no walk from the rest of the room enters.
        """
        start = (*cell_of(float(xz[0]), float(xz[1]), self.grid), 0)
        if start not in self.graph:
            return set()
        return {(i, j) for i, j, _ in nx.descendants(self.graph, start) | {start}}

    def _state(self, pose: Sequence[float], what: str) -> tuple[int, int, int]:
        x, z, rotation = float(pose[0]), float(pose[1]), float(pose[2])
        state = (*cell_of(x, z, self.grid), heading_of(rotation))
        if state not in self.graph:
            raise NavigationError(f"{what} ({x:g}, {z:g}) is not a reachable grid point")
        return state

    def path(self, start: Sequence[float], goal: Sequence[float]) -> list[NavAction]:
        """Actions taking the agent from pose ``start`` to pose ``goal`` (both [x, z, rotation, horizon]).

        Moves and turns first (a shortest path, every action counting one), then camera tilts.
        NavigationError if the goal cannot be reached.
        """
        source = self._state(start, "start")
        target = self._state(goal, "goal")
        try:
            states = nx.shortest_path(self.graph, source, target)
        except nx.NetworkXNoPath:
            raise NavigationError(
                f"no path from ({float(start[0]):g}, {float(start[1]):g}) to ({float(goal[0]):g}, {float(goal[1]):g})"
            ) from None
        actions: list[NavAction] = []
        makers = {"MoveAhead": move_ahead, "RotateLeft": rotate_left, "RotateRight": rotate_right}
        for a, b in zip(states, states[1:]):
            actions.append(makers[self.graph.edges[a, b]["action"]]())
        actions.extend(horizon_steps(float(start[3]), float(goal[3])))
        return actions


def horizon_steps(start: float, goal: float) -> list[NavAction]:
    """LookDown_15 / LookUp_15 steps from one camera horizon to another (positive looks down)."""
    steps = (goal - start) / HORIZON_STEP
    if abs(steps - round(steps)) > 1e-6:
        raise NavigationError(f"cannot tilt from horizon {start:g} to {goal:g} in {HORIZON_STEP} degree steps")
    count = int(round(steps))
    return [look_down() for _ in range(count)] if count > 0 else [look_up() for _ in range(-count)]


def apply(pose: Sequence[float], action: NavAction, grid: float = GRID_SIZE) -> tuple[float, float, float, float]:
    """The pose after one navigation action (what the simulator should do), for checks and tests."""
    x, z, rotation, horizon = (float(v) for v in pose[:4])
    name = action.api_action["action"]
    if name == "MoveAhead":
        di, dj = _FORWARD[heading_of(rotation)]
        return (round(x + di * grid, 6), round(z + dj * grid, 6), rotation, horizon)
    if name == "RotateLeft":
        return (x, z, (rotation - 90.0) % 360.0, horizon)
    if name == "RotateRight":
        return (x, z, (rotation + 90.0) % 360.0, horizon)
    if name == "LookDown":
        return (x, z, rotation, horizon + HORIZON_STEP)
    if name == "LookUp":
        return (x, z, rotation, horizon - HORIZON_STEP)
    raise ValueError(f"not a navigation action: {name}")
