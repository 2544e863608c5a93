"""A single cabinet id THOR draws as a double door, told by its open masks
(gen/scenes/alfred/double_doors.py), and lite drawing its two leaves (SceneObject.double_door)."""

from __future__ import annotations

from alfred_gen.scenes.alfred.double_doors import double_margins, doubles_at_their_masks, is_double
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.pixels import scene_swings
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject
from alfred_gen.sim.shapes import DOOR
from alfred_gen.sim.thor_shapes import open_parts
from tests.helpers.sight_rays import ray_to

CABINET = "Cabinet|+00.00|+00.40|+00.50"
EYE = (0.0, 1.5, 1.6)


def _cabinet(shut_low: float = 0.0) -> Block:
    """A base cabinet facing +z, 0.6 m wide (x -0.3 to 0.3); ``shut_low``: its shut drawing reaches
    that much farther to the low x side."""
    block = Block(CABINET, "Cabinet", (0.0, 0.4, 0.5), [-0.3, 0.0, 0.0], [0.3, 0.8, 0.5], True, 0)
    if shut_low:
        block.shut_margins = (shut_low, 0.0, 0.0, 0.0, 0.0, 0.0)
    return block


def _fact(points: list[tuple[float, float, float]]) -> SightFact:
    rays = tuple(ray_to(EYE, p) for p in points)
    return SightFact(CABINET, EYE, rays, door_rays=rays)


def _leaf(x: float, outs: list[float]) -> list[tuple[float, float, float]]:
    """Points on a leaf square to the front at ``x``, ``outs`` metres in front of it."""
    return [(x, 0.2 + 0.1 * k, 0.5 + out) for k, out in enumerate(outs)]


#: A double door's leaves, 0.3 m deep at each end.
TWO_LEAVES = _leaf(-0.3, [0.05, 0.15, 0.25]) + _leaf(0.3, [0.05, 0.15, 0.25])
#: One leaf at the low end, 0.6 m deep (its far half only a single leaf explains).
ONE_LEAF = _leaf(-0.3, [0.1, 0.35, 0.45, 0.55])
#: Points on the front (a shut door): no leaf.
SHUT = [(-0.2 + 0.1 * k, 0.4, 0.5) for k in range(4)]


def test_masks_showing_a_leaf_at_each_end_draw_a_double_door() -> None:
    block = _cabinet()
    sights = [_fact(TWO_LEAVES), _fact(TWO_LEAVES), _fact(SHUT)]
    assert double_margins(block, sights) == [2, 2, 0]
    doubles_at_their_masks([block], sights)
    assert block.double_door


def test_a_single_leaf_or_shut_masks_keep_one_door() -> None:
    block = _cabinet()
    sights = [_fact(ONE_LEAF), _fact(ONE_LEAF), _fact(SHUT), _fact(TWO_LEAVES)]
    margins = double_margins(block, sights)
    assert [m > 0 for m in margins] == [False, False, False, True] and sum(m < 0 for m in margins) == 2
    doubles_at_their_masks([block], sights)
    assert not block.double_door


def test_one_mask_is_not_enough() -> None:
    assert not is_double([5])
    assert is_double([5, 3, 2, -4])
    assert not is_double([5, 3, -4])


def test_votes_resting_on_one_ray_each_are_not_enough() -> None:
    """FloorPlan11's wall cabinet, built from all the evidence: two masks for two leaves by one ray each."""
    assert not is_double([1, 1, 0])
    assert is_double([1, 2, 0])


def test_a_cabinet_whose_masks_lean_two_leaves_by_one_ray_keeps_one_door() -> None:
    block = _cabinet()
    nearly = _leaf(-0.3, [0.15]) + _leaf(0.3, [0.15])  # one ray on each half leaf: one only they explain
    sights = [_fact(nearly), _fact(nearly)]
    assert double_margins(block, sights) == [1, 1]
    doubles_at_their_masks([block], sights)
    assert not block.double_door


def test_a_door_of_a_pair_is_left_to_the_pair_rule() -> None:
    block = _cabinet()
    partner = Block("Cabinet|+00.02|+00.40|+00.50", "Cabinet", (0.02, 0.4, 0.5), [0.3, 0.0, 0.0],
                    [0.9, 0.8, 0.5], True, 0)
    doubles_at_their_masks([block, partner], [_fact(TWO_LEAVES), _fact(TWO_LEAVES)])
    assert not block.double_door


def test_votes_read_the_shut_drawing_and_the_double_opens_across_it() -> None:
    block = _cabinet(shut_low=0.2)  # THOR's face runs from x -0.5 to 0.3: leaves 0.4 m deep there
    wide = _leaf(-0.5, [0.05, 0.2, 0.35]) + _leaf(0.3, [0.05, 0.2, 0.35])
    sights = [_fact(wide), _fact(wide)]
    assert min(double_margins(block, sights)) >= 2
    doubles_at_their_masks([block], sights)
    assert block.double_door
    assert block.drawn_margins[0] == 0.2 and not block.shut_margins


def test_a_double_door_is_drawn_with_a_leaf_at_each_end_and_round_trips() -> None:
    box = Box((-0.3, 0.0, 0.0), (0.3, 0.8, 0.5))
    obj = SceneObject("Cabinet", (0.0, 0.4, 0.5), box, object_id=CABINET, double_door=True)
    assert SceneObject.from_dict(obj.to_dict()).double_door
    assert "double_door" not in SceneObject("Cabinet", (0.0, 0.4, 0.5), box, object_id=CABINET).to_dict()
    scene = Scene("FloorPlan1", 1, "kitchen", (), (), [obj], camera=ALFRED_CAMERA)
    swing = scene_swings(scene)[CABINET]
    leaves = [part for part, tone in open_parts("Cabinet", box, 0, swing=swing) or [] if tone is DOOR]
    assert len(leaves) == 2
    assert {round(leaf.hi[2] - 0.5, 3) for leaf in leaves} == {0.3}  # each half the front deep
    assert min(leaf.lo[0] for leaf in leaves) < -0.25 and max(leaf.hi[0] for leaf in leaves) > 0.25
