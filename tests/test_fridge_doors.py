"""Where a fridge's open door hangs from THOR's masks of it (gen/scenes/alfred/door_hinges.py), and
how an imported room draws open fridges and microwaves (Swing, gen/sim/thor_shapes.py)."""

from __future__ import annotations

from alfred_gen.scenes.alfred.door_hinges import (
    BOTH_ENDS,
    HIGH_END,
    hinge_single_doors_at_their_masks,
    layout_vote,
    single_door_votes,
)
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.pixels import scene_mirrored, scene_swings
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene, SceneObject
from alfred_gen.sim.shapes import DOOR, Swing, shape_parts
from tests.helpers.sight_rays import ray_to

FRIDGE_ID = "Fridge|+00.00|+00.00|+00.36"
EYE = (0.0, 1.5, 2.0)
FRONT = 0.72


def _fridge() -> Block:
    """A fridge 1 m wide facing +z, its front at z 0.72."""
    return Block(FRIDGE_ID, "Fridge", (0.0, 0.0, 0.36), [-0.5, 0.0, 0.0], [0.5, 1.8, FRONT], True, 0)


def _fact(points: list[tuple[float, float, float]]) -> SightFact:
    return SightFact(FRIDGE_ID, EYE, tuple(ray_to(EYE, p) for p in points))


#: Points on a door square to the front at the high end (x 0.5), further out than half its width.
FAR_HIGH_LEAF = [(0.5, 1.0 + 0.1 * k, FRONT + 0.6 + 0.08 * k) for k in range(5)]
#: Points on two half-width doors, one at each end, near the front.
FRENCH_LEAVES = [(-0.5, 1.0, FRONT + 0.3), (0.5, 1.0, FRONT + 0.3), (-0.5, 1.2, FRONT + 0.2), (0.5, 1.2, FRONT + 0.2)]
#: Points on the shut door.
SHUT = [(-0.3 + 0.15 * k, 0.5 + 0.2 * k, FRONT) for k in range(5)]


def test_masks_showing_a_far_leaf_hang_the_door_at_that_end() -> None:
    fridge = _fridge()
    assert layout_vote(_fact(FAR_HIGH_LEAF), fridge) == HIGH_END
    sights = [_fact(FAR_HIGH_LEAF), _fact(FAR_HIGH_LEAF), _fact(SHUT)]
    assert single_door_votes(fridge, sights) == [0, 2, 0]
    hinge_single_doors_at_their_masks([fridge], sights)
    assert fridge.hinge == 1


def test_shut_doors_and_french_doors_leave_the_type_rule() -> None:
    fridge = _fridge()
    assert layout_vote(_fact(SHUT), fridge) is None
    assert layout_vote(_fact(FRENCH_LEAVES), fridge) == BOTH_ENDS
    hinge_single_doors_at_their_masks([fridge], [_fact(SHUT), _fact(FRENCH_LEAVES), _fact(FRENCH_LEAVES)])
    assert fridge.hinge == 0


def test_one_mask_is_not_enough() -> None:
    fridge = _fridge()
    hinge_single_doors_at_their_masks([fridge], [_fact(FAR_HIGH_LEAF)])
    assert fridge.hinge == 0


BOX = Box((-0.5, 0.0, 0.0), (0.5, 1.8, FRONT))


def _door_boxes(swing: Swing | None) -> list[Box]:
    return [box for box, tone in shape_parts("Fridge", BOX, is_open=True, facing=0, swing=swing) if tone is DOOR]


def test_a_door_at_each_end_reaches_out_half_the_width() -> None:
    doors = _door_boxes(Swing(both_ends=True))
    assert min(b.lo[0] for b in doors) == BOX.lo[0] and max(b.hi[0] for b in doors) == BOX.hi[0]
    assert max(b.hi[2] for b in doors) - FRONT == 0.5
    assert all(b.hi[0] <= BOX.lo[0] + 0.05 or b.lo[0] >= BOX.hi[0] - 0.05 for b in doors)


def test_a_door_turned_past_square_reaches_past_its_hinge_end() -> None:
    square = _door_boxes(None)
    turned = _door_boxes(Swing(angle=110.0))
    assert min(b.lo[0] for b in square) >= BOX.lo[0]
    assert min(b.lo[0] for b in turned) < BOX.lo[0] - 0.3  # cos 110 of a 1 m leaf: 0.34 m
    assert max(b.hi[2] for b in turned) < max(b.hi[2] for b in square)


def _scene(hinge: int, imported: bool) -> Scene:
    objects = [SceneObject("Fridge", (0.0, 0.0, 0.36), BOX, object_id=FRIDGE_ID, hinge=hinge),
               SceneObject("Microwave", (2.0, 1.0, 0.2), Box((1.7, 0.9, 0.0), (2.3, 1.25, 0.36)),
                           object_id="Microwave|+02.00|+01.00|+00.20")]
    return Scene("FloorPlan999", 999, "Kitchen", (), ((0.0, 1.5),), objects,
                 camera=ALFRED_CAMERA if imported else None)


def test_imported_rooms_draw_thor_swings_and_procedural_rooms_their_own() -> None:
    assert scene_swings(_scene(0, imported=False)) == {}
    swings = scene_swings(_scene(0, imported=True))
    assert swings[FRIDGE_ID].both_ends
    assert swings["Microwave|+02.00|+01.00|+00.20"].angle > 90.0
    named = _scene(1, imported=True)
    assert not scene_swings(named)[FRIDGE_ID].both_ends  # one door, at the end the masks showed
    assert FRIDGE_ID in scene_mirrored(named, {FRIDGE_ID: 0})
    assert FRIDGE_ID not in scene_mirrored(_scene(-1, imported=True), {FRIDGE_ID: 0})


def test_door_rays_round_trip_and_are_what_the_vote_reads() -> None:
    shut = _fact(SHUT)
    fact = SightFact(FRIDGE_ID, EYE, shut.rays, door_rays=_fact(FAR_HIGH_LEAF).rays)
    again = SightFact.from_list(fact.to_list())
    assert again == fact and again.sides == () and again.edges == ()
    assert SightFact.from_list(shut.to_list()).door_rays == ()
    assert layout_vote(fact, _fridge()) == HIGH_END  # the door rays, not the few shut ones


def test_an_imported_microwave_s_open_door_reaches_seven_tenths_of_its_front() -> None:
    """THOR's microwave leaf, swung open, is narrower than the front (the control panel beside the
    door) and as tall as the drawn front (session 94, masks of open microwaves held out)."""
    box = Box((1.7, 0.9, 0.0), (2.3, 1.25, 0.36))
    swings = scene_swings(_scene(0, imported=True))
    leaves = [b for b, tone in shape_parts("Microwave", box, is_open=True, facing=0,
                                            swing=swings["Microwave|+02.00|+01.00|+00.20"]) if tone is DOOR]
    assert leaves and max(b.hi[1] for b in leaves) == box.hi[1]
    assert min(b.lo[1] for b in leaves) == box.lo[1]
    assert 0.40 < max(b.hi[2] for b in leaves) - box.hi[2] < 0.43  # 0.7 of 0.6 m, sin 93


def _open_body_front(swing: Swing | None) -> float:
    """How far forward the open fridge's body (not its leaves) reaches."""
    return max(b.hi[2] for b, tone in shape_parts("Fridge", BOX, is_open=True, facing=0, swing=swing)
               if tone is not DOOR)


def test_an_imported_fridge_s_open_body_ends_behind_its_box_s_front() -> None:
    """The box's front is the shut door's face; open, THOR's body shows its front the door's
    thickness behind it, while the leaves still swing from the front (session 94)."""
    swing = scene_swings(_scene(0, imported=True))[FRIDGE_ID]
    assert abs(_open_body_front(swing) - (FRONT - 0.02)) < 1e-9
    assert _open_body_front(Swing(both_ends=True)) == FRONT
    assert min(b.lo[2] for b in _door_boxes(swing)) == FRONT
