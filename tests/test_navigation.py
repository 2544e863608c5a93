"""Grid navigation: paths reach the target pose, every move is legal in the simulator, and paths
are as short as the grid allows."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from alfred_gen.demo.navigation import (
    NavigationError,
    NavigationGraph,
    apply,
    cell_of,
    heading_of,
    horizon_steps,
)
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController


def _points(sim: LiteController) -> list[tuple[float, float]]:
    event = sim.step({"action": "GetReachablePositions"})
    return [(p["x"], p["z"]) for p in event.metadata["actionReturn"]]


def _pose(sim: LiteController) -> tuple[float, float, float, float]:
    agent = sim.last_event.metadata["agent"]
    return (agent["position"]["x"], agent["position"]["z"], agent["rotation"]["y"], agent["cameraHorizon"])


def _grid_distance(points, a, b) -> int:
    """Fewest 0.25 m moves between two points over the 4-neighbour grid (an independent check)."""
    cells = {cell_of(x, z) for x, z in points}
    graph = nx.Graph()
    graph.add_nodes_from(cells)
    graph.add_edges_from((c, (c[0] + 1, c[1])) for c in cells if (c[0] + 1, c[1]) in cells)
    graph.add_edges_from((c, (c[0], c[1] + 1)) for c in cells if (c[0], c[1] + 1) in cells)
    return nx.shortest_path_length(graph, cell_of(*a), cell_of(*b))


@pytest.mark.parametrize("scene_factory", [fixtures.divided_room, fixtures.kitchen])
def test_paths_reach_the_goal_with_legal_moves_only(scene_factory) -> None:
    sim = LiteController(scene_factory(), render_image=False)
    points = _points(sim)
    graph = NavigationGraph(points)
    rng = random.Random(7)
    for _ in range(12):
        start = (*rng.choice(points), 90 * rng.randrange(4), 30)
        goal = (*rng.choice(points), 90 * rng.randrange(4), rng.choice([0, 15, 30, 45, 60]))
        assert sim.step({"action": "TeleportFull", "x": start[0], "y": 0.9, "z": start[1],
                         "rotation": start[2], "horizon": start[3]}).metadata["lastActionSuccess"]
        actions = graph.path(start, goal)
        pose = start
        for action in actions:
            event = sim.step(dict(action.api_action))
            assert event.metadata["lastActionSuccess"], (action, event.metadata["errorMessage"])
            pose = apply(pose, action)
            assert _pose(sim) == pytest.approx(pose)
        assert _pose(sim) == pytest.approx((goal[0], goal[1], goal[2] % 360, goal[3]))
        moves = sum(a.discrete == "MoveAhead_25" for a in actions)
        assert moves == _grid_distance(points, start[:2], goal[:2])


def test_the_divided_room_is_crossed_through_its_doorway() -> None:
    sim = LiteController(fixtures.divided_room(), render_image=False)
    graph = NavigationGraph(_points(sim))
    start, goal = (-0.75, -0.5, 90, 30), (0.75, -0.5, 180, 30)
    pose = start
    zs = []
    for action in graph.path(start, goal):
        pose = apply(pose, action)
        zs.append(pose[1])
    assert pose == (0.75, -0.5, 180.0, 30.0)
    assert max(zs) > 0.5  # the wall is only open north of z = 0.5


def test_action_dicts_and_names_are_alfreds() -> None:
    graph = NavigationGraph([(0.0, 0.0), (0.0, 0.25), (0.25, 0.25)])
    actions = graph.path((0.0, 0.0, 0, 30), (0.25, 0.25, 90, 60))
    assert [a.discrete for a in actions] == [
        "MoveAhead_25",
        "RotateRight_90",
        "MoveAhead_25",
        "LookDown_15",
        "LookDown_15",
    ]
    assert actions[0].api_action == {"action": "MoveAhead", "forceAction": True, "moveMagnitude": 0.25}
    assert actions[1].api_action == {"action": "RotateRight", "forceAction": True}
    assert actions[3].api_action == {"action": "LookDown", "forceAction": True}
    back = graph.path((0.25, 0.25, 90, 60), (0.0, 0.0, 180, 30))
    names = [a.discrete for a in back]
    assert len(names) == 7 and names.count("MoveAhead_25") == 2 and names[-2:] == ["LookUp_15"] * 2
    pose = (0.25, 0.25, 90.0, 60.0)
    for action in back:
        pose = apply(pose, action)
    assert pose == (0.0, 0.0, 180.0, 30.0)


def test_no_path_and_bad_poses_raise() -> None:
    islands = NavigationGraph([(0.0, 0.0), (0.25, 0.0), (1.0, 1.0)])
    with pytest.raises(NavigationError, match="no path"):
        islands.path((0.0, 0.0, 0, 30), (1.0, 1.0, 0, 30))
    with pytest.raises(NavigationError, match="not a reachable grid point"):
        islands.path((0.0, 0.0, 0, 30), (5.0, 5.0, 0, 30))
    with pytest.raises(NavigationError, match="multiple of 90"):
        islands.path((0.0, 0.0, 45, 30), (0.25, 0.0, 0, 30))
    with pytest.raises(NavigationError, match="15 degree"):
        horizon_steps(30, 40)


def test_horizon_and_heading_helpers() -> None:
    assert [a.discrete for a in horizon_steps(30, 60)] == ["LookDown_15"] * 2
    assert [a.discrete for a in horizon_steps(45, 0)] == ["LookUp_15"] * 3
    assert horizon_steps(30, 30) == []
    assert [heading_of(r) for r in (0, 90, 180, 270, 360, -90)] == [0, 1, 2, 3, 0, 3]


def test_paths_do_not_depend_on_the_order_of_the_points() -> None:
    sim = LiteController(fixtures.kitchen(), render_image=False)
    points = _points(sim)
    shuffled = list(points)
    random.Random(3).shuffle(shuffled)
    start, goal = (points[0][0], points[0][1], 0, 30), (points[-1][0], points[-1][1], 270, 45)
    first = [a.discrete for a in NavigationGraph(points).path(start, goal)]
    second = [a.discrete for a in NavigationGraph(shuffled).path(start, goal)]
    assert first == second
