"""A long thing put down partly over a taller loose thing leans on it (issue 62), drawn as a ramp."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.replay.execute import execute_low_actions
from alfred_gen.replay.restore import restore_scene
from alfred_gen.scenes.alfred.file_headings import file_put_headings
from alfred_gen.scenes.alfred.importer import build_scene, find_sources, gather_evidence
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim import fixtures, put_lean
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Scene
from alfred_gen.sim.world import World
from alfred_gen.traj.format import load_trajectory
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


#: The in-sample demo whose spoon THOR laid along the sight, its bowl on an egg (session 91).
SPOON_DEMO = "pick_clean_then_place_in_recep-Spoon-None-DiningTable-20/trial_T20190909_034703_947964"
EGG = "Egg|-00.06|+00.82|-02.12"


def _replay_to_the_pickup(path: Path, room: Scene) -> tuple[str | None, str | None]:
    """What ALFRED's rule resolves the spoon demo's low 41 mask (its pickup after the basin put) to,
    replayed in ``room`` with completion on, and what the spoon leans on then."""
    from alfred_gen.fidelity.masks import compare

    traj = json.loads(path.read_text())
    sim = LiteController(scene_lookup=SceneLibrary(extra=(room,)), render_image=False, render_object_image=True)
    before = restore_scene(sim, traj["scene"], traj)
    lows = traj["plan"]["low_actions"]
    seen: dict[str, object] = {"event": before}
    found: list[str | None] = []

    def on_step(index: int, api: dict, event: object) -> None:
        if index == 38:  # the put into the basin
            found.append(sim.world.by_id[api["objectId"]].leans_on)
        if index == 41:
            agreement = compare(path, index, lows[index], seen["event"])
            found.insert(0, None if agreement is None else agreement.picked)
        seen["event"] = event

    execute_low_actions(sim, lows[:42], before, on_step=on_step)
    return found[0], found[1]


def test_the_spoon_demos_spoon_turned_to_its_files_heading_leans_on_the_egg(alfred_data: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = alfred_data / "json_2.1.0" / "train" / SPOON_DEMO / "traj_data.json"
    traj = load_trajectory(path)
    assert [(r.split("|")[-1], k, p, y) for r, k, p, y in file_put_headings(traj)] == [
        ("SinkBasin", "Spoon", (-0.25, -1.25, 180.0, 45.0), 180.0)]  # its bowl away from the agent
    room = build_scene(gather_evidence(find_sources(alfred_data))[20])  # FloorPlan20 from the shared demos
    spoon = traj["plan"]["low_actions"][41]["api_action"]["objectId"]
    # Turned along the sight, it came down partly over the egg and leans on it.
    assert _replay_to_the_pickup(path, room) == (spoon, EGG)
    # Turned but lying flat through the egg, the egg's drawing covers it.
    monkeypatch.setattr(put_lean, "settle", lambda world, receptacle, held: None)
    assert _replay_to_the_pickup(path, room) == (EGG, None)
