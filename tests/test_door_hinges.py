"""A double door's hinge end from THOR's masks of its open doors (gen/scenes/alfred/door_hinges.py),
and lite drawing a door at the end its scene object names (SceneObject.hinge)."""

from __future__ import annotations

from alfred_gen.scenes.alfred.door_hinges import (
    hinge_drawn_cabinets_at_their_masks,
    hinge_pairs_at_their_masks,
    hinge_reached_pairs_at_their_masks,
    hinge_single_doors_at_their_masks,
    open_free_end_to_its_reach,
    pair_votes,
)
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.pixels import scene_mirrored
from alfred_gen.sim.scene import Box, Scene, SceneObject
from tests.helpers.sight_rays import ray_to

LOW_ID = "Cabinet|+00.00|+00.40|+00.50"
HIGH_ID = "Cabinet|+00.02|+00.40|+00.50"
EYE = (-0.25, 1.5, 1.5)


def _pair() -> tuple[Block, Block]:
    """Two doors facing +z, ids 2 cm apart at the front; each half reaches away from the middle."""
    low = Block(LOW_ID, "Cabinet", (0.0, 0.4, 0.5), [-0.49, 0.0, 0.0], [0.01, 0.8, 0.5], True, 0)
    high = Block(HIGH_ID, "Cabinet", (0.02, 0.4, 0.5), [0.01, 0.0, 0.0], [0.51, 0.8, 0.5], True, 0)
    return low, high


def _fact(target: str, points: list[tuple[float, float, float]]) -> SightFact:
    return SightFact(target, EYE, tuple(ray_to(EYE, p) for p in points))


#: Points on the low door's leaf swung out at the pair's middle (x 0.01, in front of z 0.5), seen
#: from the low door's side: the rays go on to cross the front beyond the door's half.
MIDDLE_LEAF = [(0.01, 0.2 + 0.1 * k, 0.7 + 0.05 * k) for k in range(5)]
#: Points on the low door's front (a shut door, or its inside).
OPENING = [(-0.4 + 0.08 * k, 0.3 + 0.05 * k, 0.5) for k in range(5)]
#: Points on the low door's leaf swung out at its outer end (x -0.49).
OUTER_LEAF = [(-0.49, 0.2 + 0.1 * k, 0.6 + 0.05 * k) for k in range(5)]


def test_masks_showing_the_leaf_at_the_middle_hang_both_doors_there() -> None:
    low, high = _pair()
    sights = [_fact(LOW_ID, MIDDLE_LEAF), _fact(LOW_ID, MIDDLE_LEAF), _fact(LOW_ID, OPENING)]
    assert pair_votes(low, high, sights) == (2, 0)
    hinge_pairs_at_their_masks([low, high], sights)
    assert (low.hinge, high.hinge) == (1, -1)  # each at the end of its box by the middle


def test_shut_doors_and_outer_leaves_leave_the_rule() -> None:
    low, high = _pair()
    sights = [_fact(LOW_ID, OPENING), _fact(LOW_ID, OPENING), _fact(LOW_ID, OUTER_LEAF), _fact(LOW_ID, OUTER_LEAF)]
    assert pair_votes(low, high, sights) == (0, 2)
    hinge_pairs_at_their_masks([low, high], sights)
    assert (low.hinge, high.hinge) == (0, 0)


def test_one_mask_is_not_enough() -> None:
    low, high = _pair()
    hinge_pairs_at_their_masks([low, high], [_fact(LOW_ID, MIDDLE_LEAF)])
    assert (low.hinge, high.hinge) == (0, 0)


def _scene(hinges: tuple[int, int]) -> Scene:
    objects = [SceneObject("Cabinet", b.position, b.box(), object_id=b.object_id, hinge=h)
               for b, h in zip(_pair(), hinges)]
    return Scene("FloorPlan999", 999, "Kitchen", (), ((0.0, 1.5),), objects)


def test_a_hinge_named_by_the_scene_wins_over_the_pair_rule() -> None:
    facings = {LOW_ID: 0, HIGH_ID: 0}
    ruled = scene_mirrored(_scene((0, 0)), facings)
    named = scene_mirrored(_scene((1, -1)), facings)
    assert LOW_ID not in ruled and HIGH_ID in ruled  # the pair rule: outer ends
    assert LOW_ID in named and HIGH_ID not in named  # as named: both at the middle


def test_hinge_round_trips_and_is_left_out_when_unset() -> None:
    obj = SceneObject("Cabinet", (0.0, 0.4, 0.5), Box((-0.49, 0.0, 0.0), (0.01, 0.8, 0.5)), hinge=-1)
    assert SceneObject.from_dict(obj.to_dict()).hinge == -1
    assert "hinge" not in SceneObject("Cabinet", obj.position, obj.box).to_dict()


def _single() -> Block:
    """One cabinet door facing +z, its id at the high end of its front (the rule hangs it there)."""
    return Block(LOW_ID, "Cabinet", (0.0, 0.4, 0.5), [-0.49, 0.0, 0.0], [0.01, 0.8, 0.5], True, 0)


def test_a_single_cabinet_hangs_its_door_where_its_open_masks_show_the_leaf() -> None:
    door = _single()
    hinge_single_doors_at_their_masks([door], [_fact(LOW_ID, OUTER_LEAF), _fact(LOW_ID, OUTER_LEAF),
                                               _fact(LOW_ID, OPENING)])
    assert door.hinge == -1


def test_a_single_cabinet_keeps_the_rule_without_two_masks_of_its_leaf() -> None:
    door = _single()
    hinge_single_doors_at_their_masks([door], [_fact(LOW_ID, OUTER_LEAF), _fact(LOW_ID, OPENING),
                                               _fact(LOW_ID, OPENING)])
    assert door.hinge == 0


def test_a_door_of_a_pair_is_left_to_the_pair_rule() -> None:
    low, high = _pair()
    hinge_single_doors_at_their_masks([low, high], [_fact(LOW_ID, OUTER_LEAF), _fact(LOW_ID, OUTER_LEAF)])
    assert (low.hinge, high.hinge) == (0, 0)


def _drawn_aside() -> Block:
    """A single cabinet whose box lies 0.3 m to +x of where its shut masks drew it: drawn over
    x -0.79..-0.29, its box -0.49..0.01."""
    door = _single()
    door.drawn_margins = (0.3, 0.0, 0.0, -0.3, 0.0, 0.0)
    return door


#: Points on a leaf swung out at the drawn box's low end (x -0.79), in front of the front.
DRAWN_LOW_LEAF = [(-0.79, 0.2 + 0.1 * k, 0.6 + 0.05 * k) for k in range(5)]


def test_a_cabinet_drawn_aside_hangs_its_door_where_its_masks_show_it_on_the_drawing() -> None:
    door = _drawn_aside()
    sights = [_fact(LOW_ID, DRAWN_LOW_LEAF), _fact(LOW_ID, DRAWN_LOW_LEAF)]
    hinge_single_doors_at_their_masks([door], sights)
    assert door.hinge == 0  # on its box the leaf stands at neither end
    hinge_drawn_cabinets_at_their_masks([door], sights)
    assert door.hinge == -1


def test_the_vote_on_the_drawing_wins_over_the_vote_on_the_box() -> None:
    hung = _drawn_aside()
    hung.hinge = 1
    hinge_drawn_cabinets_at_their_masks([hung], [_fact(LOW_ID, DRAWN_LOW_LEAF), _fact(LOW_ID, DRAWN_LOW_LEAF)])
    assert hung.hinge == -1


def test_a_cabinet_drawn_in_its_box_or_without_a_vote_on_its_drawing_keeps_its_hinge() -> None:
    in_box, hung = _single(), _drawn_aside()
    hung.hinge = 1
    hinge_drawn_cabinets_at_their_masks([in_box], [_fact(LOW_ID, DRAWN_LOW_LEAF), _fact(LOW_ID, DRAWN_LOW_LEAF)])
    hinge_drawn_cabinets_at_their_masks([hung], [_fact(LOW_ID, DRAWN_LOW_LEAF), _fact(LOW_ID, OPENING)])
    assert (in_box.hinge, hung.hinge) == (0, 1)


def _narrow_pair() -> tuple[Block, Block]:
    """The pair of :func:`_pair` with the low door's box half as wide (x -0.24..0.01) and its shut
    drawing out to -0.49, where its masks the frame cuts reach (:attr:`Block.shut_margins`)."""
    low, high = _pair()
    low.lo[0] = -0.24
    low.shut_margins = (0.25, 0.0, 0.0, 0.0, 0.0, 0.0)
    return low, high


#: Points on the low door's leaf at the middle as wide as its shut drawing (0.5 m), past the
#: narrow box's 0.25 m: the narrow box's leaf misses them, its outer leaf (x -0.24) meets them.
WIDE_MIDDLE_LEAF = [(0.01, 0.2 + 0.1 * k, 0.8 + 0.04 * k) for k in range(5)]


def test_a_pair_whose_shut_drawing_reaches_farther_votes_again_on_it() -> None:
    low, high = _narrow_pair()
    sights = [_fact(LOW_ID, WIDE_MIDDLE_LEAF), _fact(LOW_ID, WIDE_MIDDLE_LEAF)]
    hinge_pairs_at_their_masks([low, high], sights)
    assert (low.hinge, high.hinge) == (0, 0)
    hinge_reached_pairs_at_their_masks([low, high], sights)
    assert (low.hinge, high.hinge) == (1, -1)


def test_a_pair_without_shut_reach_is_left_to_its_box_vote() -> None:
    low, high = _narrow_pair()
    low.shut_margins = ()
    hinge_reached_pairs_at_their_masks([low, high], [_fact(LOW_ID, WIDE_MIDDLE_LEAF)] * 2)
    assert (low.hinge, high.hinge) == (0, 0)


def test_a_hung_door_opens_as_far_as_its_reach_at_its_free_end_only() -> None:
    free, at_hinge, unhung = _single(), _single(), _single()
    free.hinge, at_hinge.hinge = 1, -1
    for door in (free, at_hinge, unhung):
        door.drawn_margins = (0.0, 0.02, 0.0, 0.0, 0.0, 0.0)
        door.shut_margins = (0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
        open_free_end_to_its_reach(door)
    assert free.drawn_margins == (0.2, 0.02, 0.0, 0.0, 0.0, 0.0) and free.shut_margins == ()
    assert at_hinge.drawn_margins == (0.0, 0.02, 0.0, 0.0, 0.0, 0.0)
    assert at_hinge.shut_margins == (0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert unhung.shut_margins == (0.2, 0.0, 0.0, 0.0, 0.0, 0.0)
