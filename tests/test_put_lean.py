"""A long thing put down partly over a taller loose thing leans on it (issue 62), drawn as a ramp."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from alfred_gen.sim import fixtures, put_lean
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box
from alfred_gen.sim.world import World
from tests.helpers.sim_actions import oid


def _in_the_basin(kind: str, spot: tuple[float, float], imported: bool = True) -> tuple[World, str, str]:
    """The kitchen (as an imported room unless not ``imported``) with its ``kind`` put at ``spot`` on
    the floor of the sink basin, which holds a cup 0.147 m tall at (-0.5, 2.2); (world, its id, the
    cup's id), settled."""
    scene = fixtures.kitchen()
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA) if imported else scene)
    world = sim.world
    basin = world.by_id[oid(sim, "SinkBasin")]
    thing = world.by_id[oid(sim, kind)]
    world.detach(thing)
    world.place_at_spot(thing, basin, spot)
    put_lean.settle(world, basin, thing)
    return world, thing.object_id, oid(sim, "Cup")


def test_a_long_thing_put_partly_over_a_taller_thing_leans_on_it_until_either_is_taken() -> None:
    # The knife (long in z) lies 5 cm past the cup's middle, its footprint deep in the cup's: its
    # end towards the cup (-z) rises to the cup's top.
    world, knife_id, cup_id = _in_the_basin("Knife", (-0.52, 2.25))
    knife, cup = world.by_id[knife_id], world.by_id[cup_id]
    assert knife.leans_on == cup_id
    assert knife.lean == (2.0, -1.0, cup.hi[1] - knife.lo[1])
    world.detach(cup)  # what held it up is gone
    assert knife.lean == () and knife.leans_on is None
    basin = world.by_id[knife.parent]
    world.place_at_spot(cup, basin, (-0.5, 2.2))
    put_lean.settle(world, basin, knife)
    assert knife.leans_on == cup_id
    world.detach(knife)  # picked up: level again
    assert knife.lean == ()


def test_nothing_leans_beside_it_nor_a_round_thing_nor_in_a_procedural_room() -> None:
    world, knife_id, _ = _in_the_basin("Knife", (-0.7, 2.25))  # 0.2 m aside: footprints apart
    assert world.by_id[knife_id].lean == ()
    world, apple_id, _ = _in_the_basin("Apple", (-0.52, 2.25))
    assert world.by_id[apple_id].lean == ()
    world, knife_id, _ = _in_the_basin("Knife", (-0.52, 2.25), imported=False)
    assert world.by_id[knife_id].lean == ()


def test_a_leaning_drawing_rises_in_steps_towards_its_raised_end() -> None:
    box = Box((0.0, 0.0, 0.0), (0.02, 0.01, 0.2))
    lo, hi = np.array([box.lo]), np.array([box.hi])
    colors = np.array([[10, 20, 30]], dtype=np.uint8)
    up_lo, up_hi, up_colors = put_lean.ramp(lo, hi, colors, box, (2.0, 1.0, 0.1))
    assert len(up_lo) == round(0.2 / put_lean.STEP)
    order = np.argsort(up_lo[:, 2])
    assert np.allclose(up_lo[order, 2][1:], up_hi[order, 2][:-1])  # the steps join along z
    assert up_lo[order[0], 2] == 0.0 and up_hi[order[-1], 2] == 0.2
    lifts = up_lo[order, 1]
    assert np.all(np.diff(lifts) > 0) and abs(lifts[0] - 0.0025) < 1e-9 and abs(lifts[-1] - 0.0975) < 1e-9
    assert np.allclose(up_hi[:, 1] - up_lo[:, 1], 0.01) and (up_colors == colors[0]).all()
    down_lo, _, _ = put_lean.ramp(lo, hi, colors, box, (2.0, -1.0, 0.1))
    assert np.allclose(down_lo[np.argsort(down_lo[:, 2]), 1], lifts[::-1])  # the other end raised
