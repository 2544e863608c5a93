"""Where THOR put things into a fridge, from the masks of the demos' next interaction with them
(issue 69: lite puts an object into an imported room's fridge where THOR put it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, TrajectoryFacts
from alfred_gen.scenes.alfred.put_facts import OUTLINE, PutFact, locate, put_facts, with_near
from alfred_gen.scenes.alfred.put_points import (
    put_matches_by_pose,
    put_places_by_pose,
    put_points_and_places,
    put_points_by_pose,
)
from alfred_gen.sim import fixtures
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.put_landing import EVERY_PLACE, Point, fridge_place, matched_landing
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, SceneObject
from alfred_gen.sim.world import World
from alfred_gen.sim.world_objects import WorldObject
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_WIDTH
from tests.helpers.sim_actions import go, oid, ok

EYE_Y = 0.9 + ALFRED_CAMERA.height


def _camera(x: float, z: float, rotation: float, horizon: float) -> Camera:
    return Camera(x, EYE_Y, z, rotation, horizon, ALFRED_CAMERA.field_of_view)


def _box_mask(camera: Camera, middle: tuple[float, float, float], size: tuple[float, float, float]) -> np.ndarray:
    """The screen rectangle round the outline of a round object (its box's faces' middles), as a mask."""
    half = np.array(size) / 2
    corners = OUTLINE * half + np.array(middle)
    u, v, _ = camera.project(corners)
    mask = np.zeros((FRAME_HEIGHT, FRAME_WIDTH), bool)
    mask[max(int(round(v.min())), 0):int(round(v.max())), int(round(u.min())):int(round(u.max()))] = True
    return mask


def _runs(mask: np.ndarray) -> list[list[int]]:
    flat = mask.ravel()
    out, start = [], None
    for i, on in enumerate(flat):
        if on and start is None:
            start = i
        elif not on and start is not None:
            out.append([start, i - start])
            start = None
    if start is not None:
        out.append([start, len(flat) - start])
    return out


@pytest.mark.parametrize("middle", [(0.0, 0.5, 1.1), (0.1, 0.7, 1.0), (-0.1, 0.3, 0.9)])
def test_locate_finds_a_boxes_middle_from_its_extent_on_screen(middle: tuple[float, float, float]) -> None:
    # Looking down at 60 degrees, as ALFRED's expert looks into a fridge: one ray crosses every
    # shelf, and only the object's size on screen tells which.
    camera = _camera(0.0, 0.0, 0.0, 60.0)
    size = (0.1, 0.1, 0.1)
    found = locate(_box_mask(camera, middle, size), camera, size)
    assert found is not None
    assert np.allclose(found, middle, atol=0.04)


def test_locate_refuses_a_mask_the_frame_cuts() -> None:
    camera = _camera(0.0, 0.0, 0.0, 60.0)
    mask = np.zeros((FRAME_HEIGHT, FRAME_WIDTH), bool)
    mask[280:, 100:140] = True  # reaches the bottom edge: its true extent is unknown
    assert locate(mask, camera, (0.1, 0.1, 0.1)) is None


@pytest.mark.parametrize("middle", [(0.0, 0.95, 1.0), (0.15, 0.86, 1.15), (-0.1, 1.01, 0.9)])
def test_locate_reads_a_mask_the_frames_top_cuts_by_its_columns_and_bottom(middle: tuple[float, float, float]) -> None:
    # A thing on a fridge's upper shelf, seen looking down at 60 degrees: its top is above the frame.
    camera = _camera(0.0, 0.0, 0.0, 60.0)
    size = (0.2, 0.2, 0.2)
    mask = _box_mask(camera, middle, size)
    assert mask[0].any() and not mask[-1].any()
    assert locate(mask, camera, size) is None
    found = locate(mask, camera, size, cut_top=True)
    assert found is not None
    assert np.allclose(found, middle, atol=0.05)


def _low(action: str, object_id: str, receptacle: str | None = None, runs: list[list[int]] | None = None) -> dict:
    api = {"action": action, "objectId": object_id}
    if receptacle:
        api["receptacleObjectId"] = receptacle
    return {"api_action": api, "discrete_action": {"args": {"mask": runs} if runs else {}}}


def _apple_mask_runs(pose: list[float], middle: tuple[float, float, float]) -> list[list[int]]:
    """THOR's mask of an apple at ``middle`` seen from ``pose``, as ALFRED's run-length pairs."""
    sx, sy, sz = catalogue.object_type("Apple").size
    return _runs(_box_mask(_camera(*pose), middle, (max(sx, sz), sy, max(sx, sz))))


FRIDGE = "Fridge|+00.00|+00.00|+01.20"
APPLE = "Apple|+01.00|+00.90|+00.00"


def test_a_put_into_a_fridge_and_the_next_pickup_from_the_same_pose_make_a_fact() -> None:
    pose = [0.0, 0.0, 0.0, 60.0]
    middle = (0.0, 0.5, 1.1)
    runs = _apple_mask_runs(pose, middle)
    low = [_low("OpenObject", FRIDGE), _low("PutObject", APPLE, FRIDGE), _low("CloseObject", FRIDGE),
           _low("OpenObject", FRIDGE), _low("PickupObject", APPLE, runs=runs)]
    steps = [(i, FRIDGE if i != 4 else APPLE, pose) for i in range(5)]
    facts = put_facts(low, steps, 0.9)
    assert len(facts) == 1
    fact = facts[0]
    assert (fact.receptacle, fact.kind, fact.pose) == (FRIDGE, "Apple", (0.0, 0.0, 0.0, 60.0))
    assert abs(fact.point[1] - middle[1]) < 0.05
    assert PutFact.from_list(json.loads(json.dumps(fact.to_list()))) == fact
    # Seen from another pose (past the door's edge, say), the mask proves nothing about the put.
    moved = [(i, t, pose if i != 4 else [0.25, 0.0, 0.0, 60.0]) for i, t, pose in steps]
    assert put_facts(low, moved, 0.9) == []
    # Put on a counter, not into a fridge: no fact.
    counter = "CounterTop|+01.00|+00.90|+00.00"
    assert put_facts([_low("PutObject", APPLE, counter), _low("PickupObject", APPLE, runs=runs)], steps[:2], 0.9) == []


def test_put_facts_round_trip_through_the_evidence() -> None:
    fact = PutFact(FRIDGE, "Apple", (0.0, 0.0, 0.0, 60.0), (0.0, 0.5, 1.1))
    evidence = SceneEvidence(1)
    evidence.add_trajectory(TrajectoryFacts(1, 0.9, [], [], [], [], puts=[fact]))
    assert SceneEvidence.from_dict(json.loads(json.dumps(evidence.to_dict()))).puts == [fact]


def test_put_points_are_medians_per_fridge_and_pose_inside_the_fridge() -> None:
    fridge = SceneObject("Fridge", (0.0, 0.0, 1.2), Box((-0.35, 0.0, 0.85), (0.35, 1.8, 1.55)))
    pose = (0.0, 0.0, 0.0, 60.0)
    facts = [PutFact(fridge.object_id, "Apple", pose, (0.0, 0.50, 1.10)),
             PutFact(fridge.object_id, "Tomato", pose, (0.02, 0.54, 1.14)),
             PutFact(fridge.object_id, "Potato", pose, (0.04, 0.52, 1.12)),
             PutFact(fridge.object_id, "Apple", (0.25, 0.0, 360.0, 60.0), (0.1, 0.9, 1.0)),
             PutFact(fridge.object_id, "Apple", (0.5, 0.0, 0.0, 60.0), (0.0, 0.5, 2.5)),  # behind the fridge
             PutFact("Fridge|+09.00|+00.00|+09.00", "Apple", pose, (9.0, 0.5, 9.0))]  # no such fridge
    points = put_points_by_pose([fridge], facts)
    first, turned = (0.0, 0.0, 0.0, 60.0), (0.25, 0.0, 0.0, 60.0)
    assert points == {fridge.object_id: (
        ("", (*first, 0.02, 0.52, 1.12)),  # each type one vote
        ("Apple", (*first, 0.0, 0.5, 1.1)), ("Potato", (*first, 0.04, 0.52, 1.12)),
        ("Tomato", (*first, 0.02, 0.54, 1.14)),
        ("", (*turned, 0.1, 0.9, 1.0)), ("Apple", (*turned, 0.1, 0.9, 1.0)),
    )}
    # A type the demos put often does not outvote the others in the point for any type.
    many = facts[:3] + [PutFact(fridge.object_id, "WineBottle", pose, (0.2, 0.3, 0.9))] * 5
    anyone = dict(put_points_by_pose([fridge], many)[fridge.object_id])[""]
    assert anyone[4:] == (0.03, 0.51, 1.11)


def test_a_fridge_point_is_the_densest_cluster_of_its_facts_not_their_median() -> None:
    """THOR puts a type from one pose at one of a few places: a fridge's point is the landing most
    facts share (ties: nearest the median), never a mix of two; a basin keeps the median."""
    fridge = SceneObject("Fridge", (0.0, 0.0, 1.2), Box((-0.35, 0.0, 0.85), (0.35, 1.8, 1.55)))
    pose = (0.0, 0.0, 0.0, 60.0)
    shelves = [(0.2, 0.75, 1.1), (0.2, 0.75, 1.1), (0.0, 0.99, 1.3), (0.0, 0.99, 1.3), (-0.2, 0.5, 1.0)]
    facts = [PutFact(fridge.object_id, "Bowl", pose, point) for point in shelves]
    bowl = dict(put_points_by_pose([fridge], facts)[fridge.object_id])["Bowl"]
    assert bowl[4:] == (0.2, 0.75, 1.1)  # the median, (0.0, 0.75, 1.1), mixes two landings
    low, high = (0.0, 0.75, 1.1), (0.0, 0.99, 1.1)
    split = [PutFact(fridge.object_id, "Bowl", pose, point) for point in (low, high)]
    assert dict(put_points_by_pose([fridge], split)[fridge.object_id])["Bowl"][4:] in (low, high)
    scattered = split + [PutFact(fridge.object_id, "Bowl", pose, (0.0, 0.3, 1.1))]
    assert dict(put_points_by_pose([fridge], scattered)[fridge.object_id])["Bowl"][4:] == low  # nearest the median
    near = [PutFact(fridge.object_id, "Bowl", pose, (0.0, 0.75, z)) for z in (1.0, 1.1, 1.4)]
    assert dict(put_points_by_pose([fridge], near)[fridge.object_id])["Bowl"][4:] == (0.0, 0.75, 1.05)
    basin = SceneObject("SinkBasin", (0.0, 0.8, 1.2), Box((-0.3, 0.7, 0.9), (0.3, 0.9, 1.5)))
    wet = [PutFact(basin.object_id, "Bowl", pose, (0.0, 0.8, z)) for z in (1.0, 1.1, 1.4)]
    assert dict(put_points_by_pose([basin], wet)[basin.object_id])["Bowl"][4:] == (0.0, 0.8, 1.1)


def _kitchen_with_a_put_point(point: tuple[float, float, float], pose: tuple[float, float, float, float],
                              landing_rules: dict[str, str] | None = None) -> tuple[LiteController, str]:
    scene = fixtures.kitchen()
    fridge = next(o for o in scene.objects if o.object_type == "Fridge")
    declared = replace(fridge, put_points=(("", (*pose, *point)),))
    assert SceneObject.from_dict(json.loads(json.dumps(declared.to_dict()))) == declared
    objects = [declared if o is fridge else o for o in scene.objects]
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA, objects=objects), landing_rules=landing_rules)
    return sim, fridge.object_id


def _put_the_potato(sim: LiteController, fridge_id: str, x: float, z: float) -> tuple[float, float, float]:
    world = sim.world
    go(sim, 1.25, 1.0, 90, 0)
    ok(sim, "OpenObject", objectId=fridge_id)
    go(sim, x, z, 90, 0)
    potato = oid(sim, "Potato")
    world.detach(world.by_id[potato])
    world.held = potato
    world.sight_changed()
    ok(sim, "PutObject", objectId=potato, receptacleObjectId=fridge_id)
    return world.by_id[potato].center


def test_a_put_from_a_pose_the_demos_put_from_lands_at_thors_point() -> None:
    # The fridge shows no shelf at THOR's point's height: the put makes one there for the object.
    probe, fridge_id = _kitchen_with_a_put_point((0.0, 0.0, 0.0), (9.0, 9.0, 0.0, 0.0))
    fridge = probe.world.by_id[fridge_id]
    free = _put_the_potato(probe, fridge_id, 1.0, 1.0)  # lite's own rule (the pose names no point)
    target = (fridge.center[0], fridge.lo[1] + 1.0, fridge.center[2])
    assert abs(free[1] - target[1]) > 0.1
    sim, _ = _kitchen_with_a_put_point(target, (1.0, 1.0, 90.0, 0.0))
    put = _put_the_potato(sim, fridge_id, 1.0, 1.0)
    assert abs(put[1] - target[1]) < 0.05
    assert np.hypot(put[0] - target[0], put[2] - target[2]) < 0.15


def test_thors_point_is_the_fridges_landing_rule_and_another_rule_ignores_it() -> None:
    # The point is the imported fridge's rule in put_landing's registry; a controller told to land
    # fridge puts by the hand (as the landing bench compares rules) puts where the pose names no point.
    probe, fridge_id = _kitchen_with_a_put_point((0.0, 0.0, 0.0), (9.0, 9.0, 0.0, 0.0))
    fridge = probe.world.by_id[fridge_id]
    free = _put_the_potato(probe, fridge_id, 1.0, 1.0)
    target = (fridge.center[0], fridge.lo[1] + 1.0, fridge.center[2])
    sim, _ = _kitchen_with_a_put_point(target, (1.0, 1.0, 90.0, 0.0), landing_rules={"Fridge": "hand"})
    assert _put_the_potato(sim, fridge_id, 1.0, 1.0) == free


def test_a_types_own_point_comes_before_the_point_for_any_type() -> None:
    sim, fridge_id = _kitchen_with_a_put_point((2.0, 0.5, 1.0), (1.0, 1.0, 90.0, 0.0))
    world = sim.world
    fridge = world.by_id[fridge_id]
    world.put_points[fridge_id] = (*world.put_points[fridge_id], ("Potato", (1.0, 1.0, 90.0, 0.0, 2.1, 0.9, 1.0)))
    go(sim, 1.0, 1.0, 90, 0)
    assert world.put_point(fridge, "Potato") == (2.1, 0.9, 1.0)
    assert world.put_point(fridge, "Apple") == (2.0, 0.5, 1.0)
    go(sim, 1.0, 1.0, 180, 0)  # another pose: no point
    assert world.put_point(fridge, "Potato") is None


SINK = "Sink|+01.00|+00.90|+01.00|SinkBasin"
FAUCET = "Faucet|+01.00|+01.00|+01.30"


def test_a_clean_tasks_put_into_a_sink_basin_and_its_pickup_make_a_fact() -> None:
    # Put into the basin, faucet on and off, pick up, all from one pose: the pickup's mask shows
    # where THOR put the apple.
    pose = [1.0, 0.0, 0.0, 45.0]
    middle = (1.0, 0.83, 0.95)
    runs = _apple_mask_runs(pose, middle)
    low = [_low("PutObject", APPLE, SINK), _low("ToggleObjectOn", FAUCET), _low("ToggleObjectOff", FAUCET),
           _low("PickupObject", APPLE, runs=runs)]
    facts = put_facts(low, [(i, SINK, pose) for i in range(4)], 0.9)
    assert [(f.receptacle, f.kind) for f in facts] == [(SINK, "Apple")]
    assert np.allclose(facts[0].point, middle, atol=0.05)


def test_a_sink_basins_points_may_lie_further_off_its_box_than_a_fridges() -> None:
    # A basin's point is only its line of sight (the landing brings it down to the floor): one read
    # 0.2 m past the basin's back still counts; a fridge's would not.
    box = Box((0.8, 0.8, 0.8), (1.2, 0.95, 1.2))
    basin = SceneObject("SinkBasin", (1.0, 0.8, 1.0), box)
    fridge = SceneObject("Fridge", (1.0, 0.8, 1.0), box)
    pose = (1.0, 0.0, 0.0, 45.0)
    fact = PutFact(basin.object_id, "Apple", pose, (1.0, 0.75, 1.4))
    assert put_points_by_pose([basin], [fact])[basin.object_id][0] == ("", (*pose, 1.0, 0.75, 1.4))
    assert put_points_by_pose([fridge], [replace(fact, receptacle=fridge.object_id)]) == {}
    oven = SceneObject("Microwave", (1.0, 0.8, 1.0), box)  # a microwave's point is its line too
    twice = [replace(fact, receptacle=oven.object_id)] * 2  # (a microwave's point needs a repeated landing)
    assert put_points_by_pose([oven], twice)[oven.object_id][0][0] == ""


def test_a_microwave_point_stands_only_where_thors_landing_repeated() -> None:
    """Identical masks give identical points: a microwave's point for a type is the median of the
    facts that coincide (REPEATS within REPEAT_RADIUS); a type whose facts never coincide has none,
    and a pose none of whose types has one has no point at all (not even for any type)."""
    oven = SceneObject("Microwave", (1.0, 0.9, 1.0), Box((0.75, 0.8, 0.8), (1.25, 1.1, 1.2)))
    pose = (1.0, 0.0, 0.0, 45.0)
    egg = [(0.9, 0.85, 1.0), (0.9, 0.85, 1.0), (0.905, 0.85, 1.0), (1.1, 0.85, 1.1)]
    apple = [(0.9, 0.86, 1.0), (1.1, 0.86, 1.1)]  # two landings, neither repeated
    facts = [PutFact(oven.object_id, "Egg", pose, p) for p in egg] + \
        [PutFact(oven.object_id, "Apple", pose, p) for p in apple]
    points = dict(put_points_by_pose([oven], facts)[oven.object_id])
    assert points["Egg"][4:] == (0.9, 0.85, 1.0)  # the median of all four would be (0.9025, 0.85, 1.0)
    assert "Apple" not in points and points[""][4:] == points["Egg"][4:]
    assert put_points_by_pose([oven], [f for f in facts if f.kind == "Apple"]) == {}


def test_a_thing_on_another_shelf_does_not_take_thors_point() -> None:
    # An egg on the fridge's floor right under THOR's point, 1 m up: THOR's fit check is of the
    # potato's own box, so the shelf rule (point_shelf, the registry's) puts it at the point; the
    # footprint rule (point) slides it along the shelf, off the egg's footprint.
    probe, fridge_id = _kitchen_with_a_put_point((0.0, 0.0, 0.0), (9.0, 9.0, 0.0, 0.0))
    fridge = probe.world.by_id[fridge_id]
    target = (fridge.center[0], fridge.lo[1] + 1.0, fridge.center[2])

    def egg_under_the_point(sim: LiteController) -> None:
        egg = sim.world.by_id[oid(sim, "Egg")]
        assert egg.object_id in sim.world.by_id[fridge_id].children
        sim.world.move_to(egg, (target[0], egg.center[1], target[2]))

    landed = _landings_by_rule(target, ("point_shelf", "point", None), fridge_id, egg_under_the_point)
    assert landed[None] == landed["point_shelf"]
    shelf, footprint = landed["point_shelf"], landed["point"]
    assert abs(shelf[1] - target[1]) < 0.05 and abs(footprint[1] - target[1]) < 0.05
    assert np.hypot(shelf[0] - target[0], shelf[2] - target[2]) < 0.03
    assert np.hypot(footprint[0] - target[0], footprint[2] - target[2]) > 0.045  # a grid step or more


def _with_potato_point(sim: LiteController, fridge_id: str, point: tuple[float, float, float]) -> None:
    world = sim.world
    world.put_points[fridge_id] = (*world.put_points[fridge_id], ("Potato", (1.0, 1.0, 90.0, 0.0, *point)))


def _landings_by_rule(point: tuple[float, float, float], rules: tuple[str | None, ...], fridge_id: str,
                      prepare: Callable[[LiteController], None]) -> dict[str | None, tuple[float, float, float]]:
    """Where the potato lands in the kitchen whose fridge knows ``point``, under each of ``rules``
    (None: the registry's own), ``prepare`` run on each fresh kitchen first."""
    landed = {}
    for rule in rules:
        sim, _ = _kitchen_with_a_put_point(point, (1.0, 1.0, 90.0, 0.0),
                                           landing_rules=None if rule is None else {"Fridge": rule})
        prepare(sim)
        landed[rule] = _put_the_potato(sim, fridge_id, 1.0, 1.0)
    return landed


def test_a_put_with_its_types_point_rests_exactly_there() -> None:
    # THOR's point of the held type, 3 cm over a level lite knows (a thing resting in the fridge):
    # the exact rule puts the potato at the point itself; the point rule (and point_shelf, the
    # registry's) rests its bottom on that level and its middle on the grid.
    probe, fridge_id = _kitchen_with_a_put_point((0.0, 0.0, 0.0), (9.0, 9.0, 0.0, 0.0))
    fridge = probe.world.by_id[fridge_id]
    potato = probe.world.by_id[oid(probe, "Potato")]
    level = fridge.lo[1] + 0.9
    target = (fridge.center[0] + 0.013, level + potato.size[1] / 2 + 0.03, fridge.center[2] - 0.017)

    def a_level_and_the_point(sim: LiteController) -> None:
        sim.world.shelves[fridge_id] = (round(level, 4),)
        _with_potato_point(sim, fridge_id, target)

    landed = _landings_by_rule(target, ("point_exact", "point", None), fridge_id, a_level_and_the_point)
    assert np.allclose(landed["point_exact"], target, atol=1e-6)
    assert landed[None] == landed["point"]  # nothing takes the point: point_shelf lands as point does
    assert abs(landed["point"][1] - target[1]) > 0.02


def test_a_thing_whose_box_takes_the_types_point_sends_the_put_to_the_point_rule() -> None:
    probe, fridge_id = _kitchen_with_a_put_point((0.0, 0.0, 0.0), (9.0, 9.0, 0.0, 0.0))
    fridge = probe.world.by_id[fridge_id]
    target = (fridge.center[0], fridge.lo[1] + 0.5, fridge.center[2])

    def the_egg_at_the_point(sim: LiteController) -> None:
        _with_potato_point(sim, fridge_id, target)
        sim.world.move_to(sim.world.by_id[oid(sim, "Egg")], target)  # the egg's box at the point itself

    landed = _landings_by_rule(target, ("point_exact", "point"), fridge_id, the_egg_at_the_point)
    assert landed["point_exact"] == landed["point"]
    assert np.hypot(landed["point"][0] - target[0], landed["point"][2] - target[2]) > 0.045


def test_a_thin_things_basin_fact_read_past_the_floor_counts_along_its_line_of_sight() -> None:
    # A spoon's mask is narrower than the box locate matches it to, so it is read far past the
    # basin, below its floor: its line of sight still names the spot, brought down to the floor.
    box = Box((0.8, 0.8, 0.8), (1.2, 0.95, 1.2))
    basin = SceneObject("SinkBasin", (1.0, 0.8, 1.0), box)
    pose = (1.0, 0.0, 0.0, 45.0)
    eye_y = 1.5
    far = (1.0, -1.3, 4.0)  # on the line from (1.0, 1.5, 0.0) through (1.0, 0.8, 1.0)
    spoon = PutFact(basin.object_id, "Spoon", pose, far)
    points = dict(put_points_by_pose([basin], [spoon], eye_y)[basin.object_id])
    assert np.allclose(points["Spoon"][4:], (1.0, 0.8, 1.0), atol=1e-3)
    assert put_points_by_pose([basin], [spoon]) == {}  # without the eye, as before
    # a round thing read off the box is a cut mask: its line is not trusted
    assert put_points_by_pose([basin], [replace(spoon, kind="Potato")], eye_y) == {}
    # a fridge's off-box fact stays out
    fridge = SceneObject("Fridge", (1.0, 0.8, 1.0), box)
    assert put_points_by_pose([fridge], [replace(spoon, receptacle=fridge.object_id)], eye_y) == {}
    # a fact inside the box of the same type and pose wins over the rescued one
    inside = replace(spoon, point=(0.9, 0.85, 1.1))
    points = dict(put_points_by_pose([basin], [spoon, inside], eye_y)[basin.object_id])
    assert points["Spoon"][4:] == (0.9, 0.85, 1.1)


def test_a_sink_basin_keeps_every_place_its_demos_show_a_type_put_at_from_one_pose() -> None:
    """Demos that put a type from one pose at more than one place (what lay in the basin decided)
    keep each place (sibling demos' facts a few millimetres apart are one place, their median); a
    pose with one place, and a fridge whose facts repeat only one place, keep none."""
    basin = SceneObject("SinkBasin", (0.0, 0.8, 1.2), Box((-0.3, 0.7, 0.9), (0.3, 0.9, 1.5)))
    fridge = SceneObject("Fridge", (0.0, 0.0, 1.2), Box((-0.35, 0.0, 0.85), (0.35, 1.8, 1.55)))
    pose, other = (0.0, 0.0, 0.0, 60.0), (0.25, 0.0, 0.0, 60.0)
    facts = [PutFact(basin.object_id, "Mug", pose, point)
             for point in ((-0.2, 0.8, 1.2), (-0.2, 0.8, 1.202), (0.15, 0.8, 1.18))]
    facts += [PutFact(basin.object_id, "Mug", other, (0.0, 0.8, z)) for z in (1.2, 1.21)]
    places = put_places_by_pose([basin, fridge], facts + [replace(f, receptacle=fridge.object_id) for f in facts])
    assert places[basin.object_id] == (("Mug", (*pose, -0.2, 0.8, 1.201, 0.15, 0.8, 1.18)),)
    assert _repeated_places(places) == {basin.object_id: places[basin.object_id]}
    mugs = [p for kind, p in put_points_by_pose([basin], facts)[basin.object_id] if kind == "Mug" and p[:4] == pose]
    assert mugs == [(*pose, -0.2, 0.8, 1.2)]  # the point stays the median


def test_the_importers_points_and_places_at_once_are_each_ones_own_and_poses_a_hair_apart_are_one() -> None:
    """The importer's single grouping gives what put_points_by_pose and put_places_by_pose give; sibling
    demos' poses that differ below a millimetre and a degree's thousandth (or by a full turn) group as one."""
    basin = SceneObject("SinkBasin", (0.0, 0.8, 1.2), Box((-0.3, 0.7, 0.9), (0.3, 0.9, 1.5)))
    poses = [(0.0, 0.0, 0.0, 60.0), (0.0002, -0.0001, 360.0, 60.0001), (0.0, 0.0, 0.0, 60.0)]
    points = [(-0.2, 0.8, 1.2), (-0.2, 0.8, 1.202), (0.15, 0.8, 1.18)]
    facts = [PutFact(basin.object_id, "Mug", pose, point) for pose, point in zip(poses, points)]
    points_of, places_of = put_points_and_places([basin], facts)
    assert (points_of, places_of) == (put_points_by_pose([basin], facts), put_places_by_pose([basin], facts))
    assert places_of == {basin.object_id: (("Mug", (0.0, 0.0, 0.0, 60.0, -0.2, 0.8, 1.201, 0.15, 0.8, 1.18)),)}


def _repeated_places(places: dict[str, tuple[Any, ...]]) -> dict[str, tuple[Any, ...]]:
    """``places`` without a fridge's every-place entries (the places of one fact or more)."""
    kept = {r: tuple(p for p in found if not p[0].endswith(EVERY_PLACE)) for r, found in places.items()}
    return {r: found for r, found in kept.items() if found}


def test_a_fridge_keeps_only_the_places_its_facts_repeat() -> None:
    """A fridge keeps a pose's places only when two or more of them are each named by two or more
    facts (a single fact may be a misread mask)."""
    fridge = SceneObject("Fridge", (0.0, 0.0, 1.2), Box((-0.35, 0.0, 0.85), (0.35, 1.8, 1.55)))
    pose = (0.0, 0.0, 0.0, 60.0)
    points = [(0.0, 0.93, 1.1), (0.0, 0.93, 1.1), (0.0, 1.2, 1.1), (0.0, 1.2, 1.102), (0.2, 0.5, 1.0)]
    facts = [PutFact(fridge.object_id, "Bowl", pose, point) for point in points]
    assert _repeated_places(put_places_by_pose([fridge], facts)) == {
        fridge.object_id: (("Bowl", (*pose, 0.0, 0.93, 1.1, 0.0, 1.2, 1.101)),)}
    assert _repeated_places(put_places_by_pose([fridge], facts[:3] + facts[4:])) == {}  # one repeated place
    # Every place, one fact or more, is kept apart for a put whose type's point is taken.
    assert put_places_by_pose([fridge], facts)[fridge.object_id][0] == (
        "Bowl" + EVERY_PLACE, (*pose, 0.0, 0.93, 1.1, 0.0, 1.2, 1.101, 0.2, 0.5, 1.0))


def test_a_fridges_facts_a_few_centimetres_apart_along_a_shelf_are_one_repeated_place() -> None:
    """THOR's masks of a bowl put on one fridge shelf read up to FRIDGE_PLACE_RADIUS apart
    (FloorPlan24: 6 cm): a fridge groups and counts them as one place repeated; a sink basin's
    facts that far apart stay two places."""
    fridge = SceneObject("Fridge", (0.0, 0.0, 1.2), Box((-0.35, 0.0, 0.85), (0.35, 1.8, 1.55)))
    basin = SceneObject("SinkBasin", (0.0, 0.8, 1.2), Box((-0.3, 0.7, 0.9), (0.3, 0.9, 1.5)))
    pose = (0.0, 0.0, 0.0, 60.0)
    points = [(0.0, 0.99, 1.1), (0.0, 0.99, 1.16), (0.0, 0.75, 1.16), (0.0, 0.75, 1.16)]
    facts = [PutFact(fridge.object_id, "Bowl", pose, point) for point in points]
    assert _repeated_places(put_places_by_pose([fridge], facts)) == {
        fridge.object_id: (("Bowl", (*pose, 0.0, 0.75, 1.16, 0.0, 0.99, 1.13)),)}
    sink = [replace(f, receptacle=basin.object_id) for f in facts[:2]]
    assert put_places_by_pose([basin], sink) == {
        basin.object_id: (("Bowl", (*pose, 0.0, 0.99, 1.1, 0.0, 0.99, 1.16)),)}


def _potato_before_a_fridge() -> tuple[LiteController, World, WorldObject, WorldObject, Point, Point]:
    """A kitchen whose agent faces its fridge from the pose its demos put from, its potato, and two
    places in the fridge: one low (nearer the agent's body) and one high."""
    sim, fridge_id = _kitchen_with_a_put_point((9.0, 9.0, 9.0), (1.0, 1.0, 90.0, 0.0))
    world = sim.world
    fridge = world.by_id[fridge_id]
    go(sim, 1.0, 1.0, 90, 0)
    potato = world.by_id[oid(sim, "Potato")]
    low = (fridge.center[0], world.agent.y + 0.03, fridge.center[2])
    high = (fridge.center[0], world.agent.y + 0.3, fridge.center[2])
    return sim, world, fridge, potato, low, high


def test_a_fridge_put_takes_the_first_known_place_nothing_stands_at() -> None:
    """Of a fridge's known places from the pose, the one nearest the agent's body whose middle no
    thing in the fridge stands at; the room's point when all are taken; the file's own point first."""
    sim, world, fridge, potato, low, high = _potato_before_a_fridge()
    fridge_id = fridge.object_id
    world.put_places[fridge_id] = (("Potato", (1.0, 1.0, 90.0, 0.0, *high, *low)),)
    fridge.children = []
    assert fridge_place(world, fridge, potato) == low  # nearer the body
    apple = world.by_id[oid(sim, "Apple")]
    apple.center = (low[0] + 0.03, low[1] + 0.05, low[2])
    fridge.children = [apple.object_id]
    assert fridge_place(world, fridge, potato) == high
    apple.center = (low[0] + 0.10, low[1] + 0.05, low[2])  # a loaf's middle 10 cm off still takes it
    assert fridge_place(world, fridge, potato) == high
    apple.center = (low[0] + 0.15, low[1], low[2])  # beside the place, not at it
    assert fridge_place(world, fridge, potato) == low
    apple.center = (high[0], high[1], high[2] + 0.02)
    fridge.children = [apple.object_id, oid(sim, "Egg")]
    world.by_id[oid(sim, "Egg")].center = low
    assert fridge_place(world, fridge, potato) is None  # all taken: the room's point
    go(sim, 1.0, 1.0, 180, 0)
    assert fridge_place(world, fridge, potato) is None  # another pose: no places


def test_a_fridge_put_moves_off_its_types_point_when_a_thing_takes_it() -> None:
    """With no repeated places to choose from, a fridge put keeps its type's point unless a thing in
    the fridge stands at it (within FRIDGE_TAKEN_EVERY across and in height); then the first of
    every place the type was put at from the pose (one fact or more) that nothing takes, nearest the
    body first; None when all are taken."""
    sim, world, fridge, potato, low, high = _potato_before_a_fridge()
    fridge_id = fridge.object_id
    world.put_points[fridge_id] = (("Potato", (1.0, 1.0, 90.0, 0.0, *low)),)
    world.put_places[fridge_id] = (("Potato" + EVERY_PLACE, (1.0, 1.0, 90.0, 0.0, *high, *low)),)
    fridge.children = []
    assert fridge_place(world, fridge, potato) is None  # the point is free: it stands
    apple = world.by_id[oid(sim, "Apple")]
    apple.center = (low[0] + 0.03, low[1] + 0.11, low[2])  # 11 cm above still takes it
    fridge.children = [apple.object_id]
    assert fridge_place(world, fridge, potato) == high
    apple.center = (low[0] + 0.03, low[1] + 0.13, low[2])
    assert fridge_place(world, fridge, potato) is None
    egg = world.by_id[oid(sim, "Egg")]
    apple.center, egg.center = low, high
    fridge.children = [apple.object_id, egg.object_id]
    assert fridge_place(world, fridge, potato) is None  # all taken: the room's point


def test_a_put_fact_keeps_what_lay_near_its_point_at_the_start_and_round_trips() -> None:
    """Things whose start lies within NEAR of the point (across and in height) are kept, sorted."""
    fact = PutFact(FRIDGE, "Egg", (0.0, 0.0, 0.0, 60.0), (0.0, 0.5, 1.1))
    things = [("Mug", (0.1, 0.5, 1.1)), ("Bowl", (0.0, 0.45, 1.2)), ("Apple", (0.3, 0.5, 1.1)),
              ("Bread", (0.0, 0.9, 1.1))]
    near = with_near([fact], things)[0]
    assert near.near == (("Bowl", 0.0, 0.45, 1.2), ("Mug", 0.1, 0.5, 1.1))
    evidence = SceneEvidence(1)
    evidence.add_trajectory(TrajectoryFacts(1, 0.9, [], [], [], [], puts=[near]))
    assert SceneEvidence.from_dict(json.loads(json.dumps(evidence.to_dict()))).puts == [near]


def test_a_microwaves_match_keeps_a_landing_with_what_lay_inside_the_box_near_it() -> None:
    """Only things inside the receptacle's box count; a fact with none there is no match."""
    oven = SceneObject("Microwave", (0.0, 1.0, 1.2), Box((-0.3, 0.9, 1.0), (0.3, 1.2, 1.4)))
    pose = (0.0, 0.0, 0.0, 30.0)
    near = (("Bowl", 0.05, 0.93, 1.25), ("Cup", 0.0, 1.25, 1.2))
    inside = PutFact(oven.object_id, "Egg", pose, (0.0, 0.95, 1.2), near)
    bare = PutFact(oven.object_id, "Egg", pose, (0.1, 0.95, 1.2), (("Cup", 0.0, 1.25, 1.2),))
    assert put_matches_by_pose([oven], [inside, bare, inside]) == {
        oven.object_id: (("Egg|Bowl", (*pose, 0.0, 0.95, 1.2, 0.05, 0.93, 1.25)),)}


def test_a_put_lands_where_thor_did_when_the_same_things_lie_near_that_landing() -> None:
    """THOR is deterministic: the same things at the same spots round a known landing from this
    pose give that landing; a thing moved off, one more thing there, or another pose give none."""
    sim, fridge_id = _kitchen_with_a_put_point((9.0, 9.0, 9.0), (1.0, 1.0, 90.0, 0.0))
    world = sim.world
    fridge = world.by_id[fridge_id]
    go(sim, 1.0, 1.0, 90, 0)
    potato = world.by_id[oid(sim, "Potato")]
    apple = world.by_id[oid(sim, "Apple")]
    landing = (fridge.center[0], world.agent.y + 0.1, fridge.center[2])
    beside = (landing[0] + 0.1, landing[1], landing[2])
    world.put_matches[fridge_id] = (("Potato|Apple", (1.0, 1.0, 90.0, 0.0, *landing, *beside)),)
    apple.position = [beside[0] + 0.01, beside[1] + 0.02, beside[2]]
    fridge.children = [apple.object_id]
    assert matched_landing(world, fridge, potato) == landing
    apple.position = [beside[0] + 0.05, beside[1], beside[2]]
    assert matched_landing(world, fridge, potato) is None  # moved 5 cm
    apple.position = list(beside)
    egg = world.by_id[oid(sim, "Egg")]
    egg.position = [landing[0], landing[1], landing[2] - 0.1]
    fridge.children = [apple.object_id, egg.object_id]
    assert matched_landing(world, fridge, potato) is None  # an egg lies there too
    egg.position = [landing[0], landing[1] + 0.5, landing[2]]
    assert matched_landing(world, fridge, potato) == landing  # the egg lies far above
    go(sim, 1.0, 1.0, 180, 0)
    assert matched_landing(world, fridge, potato) is None  # another pose
