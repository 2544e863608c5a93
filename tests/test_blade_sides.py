"""A knife drawn lying to the side THOR's masks of it in its room show (gen/scenes/alfred/blade_sides.py)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.blade_sides import MIN_WIDTH, blade_band, blade_bands, blades_to_their_masks, own_across
from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.sim.scene import Box, SceneObject
from tests.helpers.sight_rays import ray_to

EYE = (0.0, 1.58, -0.5)
ORIGIN = (0.0, 0.95, 0.3)


def _fact(own_z: list[float], yaw: float, name: str = "Knife_1") -> SightFact:
    """A mask of a knife at ORIGIN turned ``yaw``, its rays meeting the plane through the origin
    at ``own_z`` across it (own x 0)."""
    turn = {0.0: (0.0, 1.0), 90.0: (1.0, 0.0), 180.0: (0.0, -1.0), 270.0: (-1.0, 0.0)}[yaw]
    rays = tuple(ray_to(EYE, (ORIGIN[0] + z * turn[0], ORIGIN[1], ORIGIN[2] + z * turn[1])) for z in own_z)
    return SightFact("Knife|+00.00|+00.95|+00.30", EYE, rays, (name, ORIGIN, yaw))


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0])
def test_rays_are_read_in_the_knifes_own_frame(yaw: float) -> None:
    assert own_across(_fact([0.03, 0.05], yaw)) == pytest.approx([0.03, 0.05], abs=1e-4)


def test_a_yaw_off_the_quarter_turns_and_a_fixture_are_not_read() -> None:
    fact = _fact([0.03], 0.0)
    assert own_across(SightFact(fact.target, fact.eye, fact.rays, (fact.loose[0], ORIGIN, 30.0))) == []
    assert own_across(SightFact(fact.target, fact.eye, fact.rays)) == []


def test_the_band_covers_where_most_masks_lie_and_is_never_thinner_than_a_standing_blade() -> None:
    fallen = [[0.03, 0.05, 0.06]] * 3 + [[-0.005, 0.005]]
    low, high = blade_band(fallen)
    assert 0.0 < low <= 0.03 and high == pytest.approx(0.06)
    low, high = blade_band([[0.0, 0.002]] * 3)
    assert high - low == pytest.approx(MIN_WIDTH)
    assert blade_band([[0.03, 0.05]]) is None


def test_a_room_whose_knife_fell_to_own_minus_z_draws_it_there_and_other_objects_are_left() -> None:
    box = Box((-0.2, 0.9, 0.29), (0.1, 0.95, 0.31))
    knife = SceneObject("Knife", ORIGIN, box, name="Knife_1")
    fork = SceneObject("Fork", ORIGIN, box, name="Fork_1")
    sights = [_fact([-0.06, -0.04, -0.03], 90.0), _fact([-0.05, -0.03], 180.0), _fact([-0.05, -0.04], 0.0)]
    assert set(blade_bands(sights)) == {"Knife_1"}
    blades_to_their_masks([knife, fork], sights)
    low, high = knife.blade_across
    assert high < 0.0 and low < -0.04
    assert fork.blade_across == ()
    assert SceneObject.from_dict(knife.to_dict()).blade_across == knife.blade_across
