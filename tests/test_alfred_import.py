"""The ALFRED importer: evidence, geometry rules, the catalogue store, the CLI, and (with
ALFRED_DATA) importing the reference data and replaying released demos in the imported rooms."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.domains import catalogue
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.alfred import catalogue_store
from alfred_gen.scenes.alfred.built_ins import (
    DRAWER_FLUSH,
    basins_reach_counters,
    bowls_cut_out_of_cabinets,
    flush_drawer_fronts,
)
from alfred_gen.scenes.alfred.evidence import SceneEvidence, dead_reckoning, trajectory_facts
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_cuts import (
    AGENT_RADIUS,
    COUNTER_OVERHANG,
    clear_reachable,
    open_over_cupboard_fronts,
    open_over_walked_floor,
)
from alfred_gen.scenes.alfred.fixture_sizing import (
    FACED_SQUARE,
    front_pose,
    neighbours_meet,
    one_shelving_unit,
    spans_toward_contents,
)
from alfred_gen.scenes.alfred.importer import (
    build_scene,
    complete_for_start_state,
    find_sources,
    import_alfred,
)
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.pixels import scene_facings, scene_mirrored
from alfred_gen.sim.scene import Box, format_object_id, grid_key
from alfred_gen.sim.shapes import door_pair

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

TASK_TYPES = (
    "look_at_obj_in_light", "pick_and_place_simple", "pick_and_place_with_movable_recep",
    "pick_clean_then_place_in_recep", "pick_cool_then_place_in_recep", "pick_heat_then_place_in_recep",
    "pick_two_obj_and_place",
)


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "alfred_gen.cli", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=300)


# --------------------------------------------------------------------------------------------
# Without data


def test_dead_reckoning_follows_moves_turns_and_looks() -> None:
    block = {"init_action": {"x": 1.0, "z": -0.5, "rotation": 90, "horizon": 30}}
    lows = [{"api_action": a} for a in (
        {"action": "MoveAhead"}, {"action": "RotateLeft"}, {"action": "MoveAhead"}, {"action": "LookDown"},
        {"action": "OpenObject", "objectId": "Fridge|+01.00|+00.00|+00.50"}, {"action": "MoveBack"},
        {"action": "PutObject", "objectId": "Apple|+00.10|+00.90|+00.20",
         "receptacleObjectId": "Fridge|+01.00|+00.00|+00.50"},
    )]
    points, interactions = dead_reckoning(block, lows)
    assert points == [(1.0, -0.5), (1.25, -0.5), (1.25, -0.25), (1.25, -0.5)]
    # The put is booked against the receptacle, from where the agent stood, heading and horizon kept.
    assert interactions == [("Fridge|+01.00|+00.00|+00.50", [1.25, -0.25, 0.0, 45.0]),
                            ("Fridge|+01.00|+00.00|+00.50", [1.25, -0.5, 0.0, 45.0])]


def test_scene_evidence_round_trips_through_json() -> None:
    evidence = SceneEvidence(301, layout_points=[(0.0, 0.0), (0.25, 0.0)],
                             openable={"Dresser|+01.00|+00.00|+00.00": [0.25, 0.0, 90.0, 30.0]})
    evidence.objects = {"CD_00aa11bb": [((1.0, 0.8, 0.1), 90.0)]}
    evidence.static_ids = {"DeskLamp|+01.10|+00.80|-00.20"}
    data = json.loads(json.dumps(evidence.to_dict()))
    assert SceneEvidence.from_dict(data).to_dict() == evidence.to_dict()


def _dresser_room() -> SceneEvidence:
    """A dresser with a column of drawers, the agent facing it from the west, a CD lying on top."""
    evidence = SceneEvidence(301)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-8, 3) for z in range(-6, 7)]
    pose = [0.5, 0.0, 90.0, 30.0]
    evidence.openable = {"Dresser|+01.50|+00.00|+00.00": pose}
    for y in (0.10, 0.28, 0.46, 0.64):
        evidence.openable[format_object_id("Drawer", (1.30, y, 0.0))] = pose
    evidence.objects = {"CD_00aa11bb": [((1.5, 0.80, 0.1), 0.0)]}
    evidence.agent_ys = [0.9009997]
    return evidence


def test_drawers_stay_below_the_top_of_the_furniture_they_are_built_into() -> None:
    scene = build_scene(_dresser_room())
    dresser = scene.object("Dresser|+01.50|+00.00|+00.00")
    # The catalogue's dresser is 0.97 m tall; its top comes down to the CD lying on it.
    assert dresser.box.hi[1] <= 0.8 + 1e-6
    for drawer in (o for o in scene.objects if o.object_type == "Drawer"):
        assert drawer.box.hi[1] < dresser.box.hi[1]
    sim = LiteController(scene, render_image=False)
    event = sim.step({"action": "SetObjectPoses", "objectPoses": [
        {"objectName": "CD_00aa11bb", "position": {"x": 1.5, "y": 0.8, "z": 0.1}}]})
    assert event.metadata["lastActionSuccess"]
    cd = next(o for o in event.metadata["objects"] if o["objectType"] == "CD")
    assert cd["parentReceptacles"] == ["Dresser|+01.50|+00.00|+00.00"]


@pytest.mark.parametrize(("drawer_x", "front"), [(0.86, 0.83), (0.80, 0.80)])
def test_a_drawer_over_a_cabinet_is_flush_with_its_door(drawer_x: float, front: float) -> None:
    # FloorPlan8: THOR puts the drawer's id at its front, level with the cabinet door below it;
    # centred on its id, the drawer stood 0.23 m out of the run and hid the open cabinet's inside.
    # It moves back to the door's plane (1 cm proud of it), but never behind its own id.
    evidence = SceneEvidence(8)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-8, 3) for z in range(-8, 8)]
    pose = [0.25, -0.5, 90.0, 30.0]
    cabinet = format_object_id("Cabinet", (0.86, 0.40, -0.55))
    drawer = format_object_id("Drawer", (drawer_x, 0.75, -0.70))
    evidence.openable = {cabinet: pose, drawer: pose}
    evidence.agent_ys = [0.9009997]
    scene = build_scene(evidence)
    door = scene.object(cabinet).box.lo[0]
    assert door == pytest.approx(0.84)
    box = scene.object(drawer).box
    assert box.lo[0] == pytest.approx(front)
    assert box.hi[0] - box.lo[0] == pytest.approx(0.5)  # moved, not cut: it keeps its depth


@pytest.mark.parametrize("in_a_row", [True, False])
def test_a_drawer_opened_from_beside_its_row_faces_across_the_row(in_a_row: bool) -> None:
    # FloorPlan1: ALFRED opens the drawer by the sink from 0.56 m to its side, looking along the
    # counter; the drawer beside it (same x, same height) says the row runs along z, so both face
    # the room (+x). A drawer in no row keeps the facing of the pose it lies straightest ahead of.
    evidence = SceneEvidence(1)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-5, 4) for z in range(-8, 8)]
    drawer = format_object_id("Drawer", (-1.56, 0.84, 0.20))
    evidence.openable = {drawer: [-1.0, 1.0, 180.0, 30.0]}
    if in_a_row:
        evidence.openable[format_object_id("Drawer", (-1.56, 0.84, -0.20))] = [-1.0, -0.25, 270.0, 30.0]
    evidence.agent_ys = [0.9009997]
    scene = build_scene(evidence)
    assert scene.object(drawer).rotation[1] == (90.0 if in_a_row else 0.0)


def test_a_drawer_beside_a_cabinet_is_of_its_run_when_the_cabinet_spans_a_quarter_of_it() -> None:
    # FloorPlan4 (built from its layout files): drawers stood 0.1 m out of the run beside the sink's
    # cabinet, which spans 0.17 m of their 0.45 m width; they move back to its door.
    def drawer_and_cabinet(overlap: float) -> tuple[Block, Block]:
        drawer = Block("Drawer|-02.04|+00.94|+00.60", "Drawer", (-2.04, 0.94, 0.60),
                       [-2.265, 0.865, 0.35], [-1.815, 1.015, 0.85], False, facing=0)
        left = -1.815 - overlap
        cabinet = Block("Cabinet|-01.73|+00.39|+00.73", "Cabinet", (-1.73, 0.39, 0.73),
                        [left, 0.04, 0.15], [left + 0.5, 0.74, 0.75], True, facing=0)
        return drawer, cabinet

    drawer, cabinet = drawer_and_cabinet(0.17)
    flush_drawer_fronts([drawer, cabinet])
    assert drawer.hi[2] == pytest.approx(0.75 + DRAWER_FLUSH) and drawer.lo[2] == pytest.approx(0.26)
    drawer, cabinet = drawer_and_cabinet(0.09)  # a fifth of its width: another run
    flush_drawer_fronts([drawer, cabinet])
    assert drawer.hi[2] == pytest.approx(0.85)


def test_a_cabinet_reaches_from_its_hinge_and_a_door_pair_splits_at_its_middle() -> None:
    # THOR's single cabinet id is at its door's hinge edge, and the agent opens it from the other
    # side: the box reaches from the id across to the agent's side, and its door hangs
    # at the id. The two ids of a double-door cabinet lie at its middle: each door's box reaches
    # away from the other's id, and each door hangs at its outer end.
    evidence = SceneEvidence(8)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-8, 9) for z in range(-8, 2)]
    single = format_object_id("Cabinet", (-1.0, 0.40, 0.90))
    low_door = format_object_id("Cabinet", (0.98, 0.40, 0.90))
    high_door = format_object_id("Cabinet", (1.02, 0.40, 0.90))
    in_front = [1.0, 0.25, 0.0, 30.0]
    evidence.openable = {single: [-1.25, 0.25, 0.0, 30.0], low_door: in_front, high_door: in_front}
    evidence.agent_ys = [0.9009997]
    scene = build_scene(evidence)
    box = scene.object(single).box
    assert box.hi[0] == pytest.approx(-1.0) and box.lo[0] < -1.25  # across to the agent's side
    assert scene.object(low_door).box.hi[0] == pytest.approx(1.0)
    assert scene.object(high_door).box.lo[0] == pytest.approx(1.0)
    assert scene_mirrored(scene, scene_facings(scene)) == {single, high_door}  # doors at the high end


def test_door_pair_ids_five_centimetres_apart_are_one_cabinet() -> None:
    # FloorPlan414's cabinet under its sink: ids at z 2.86 and 2.91, whose difference is a hair
    # over 0.05 in floating point; 6 cm apart is two cabinets.
    assert door_pair((-2.41, 0.37, 2.86), (-2.41, 0.37, 2.91))
    assert door_pair((1.67, 0.40, -0.30), (1.72, 0.40, -0.30))
    assert not door_pair((-2.15, 0.40, 0.64), (-2.15, 0.40, 0.70))


def test_a_cabinet_reaches_to_the_side_of_its_contents_and_away_from_a_garbage_can() -> None:
    # The agent opened the cabinet from its low-x side, so its box first reaches there from the id;
    # a mug other start states put in it on the high-x side moves it across. A garbage can standing
    # on one side bars that side, whatever lies in the can. A door of a pair keeps its half.
    def cabinet(x: float) -> Block:
        return Block(format_object_id("Cabinet", (x, 0.40, 0.90)), "Cabinet", (x, 0.40, 0.90),
                     [x - 0.5, 0.05, 0.4], [x, 0.75, 0.92], False, 0)
    mug = Box((-0.85, 0.1, 0.6), (-0.75, 0.2, 0.7))
    by_mug = cabinet(-1.0)
    spans_toward_contents([by_mug], [("Mug", mug)])
    assert (by_mug.lo[0], by_mug.hi[0]) == pytest.approx((-1.0, -0.5))
    can = Block("GarbageCan|+01.25|+00.01|+00.70", "GarbageCan", (1.25, 0.01, 0.7), [1.1, 0.01, 0.55],
                [1.4, 0.6, 0.85], True)
    apple = Box((1.2, 0.4, 0.65), (1.3, 0.5, 0.75))
    by_can = cabinet(1.0)
    by_can.lo[0], by_can.hi[0] = 1.0, 1.5
    spans_toward_contents([by_can, can], [("Apple", apple)])
    assert (by_can.lo[0], by_can.hi[0]) == pytest.approx((0.5, 1.0))
    # A mug lying in a neighbour's box is the neighbour's; nor does a box move over a neighbour's middle.
    beside, neighbour = cabinet(-1.0), cabinet(0.2)
    neighbour.lo[0] = -0.9
    spans_toward_contents([beside, neighbour], [("Mug", mug)])
    assert (beside.lo[0], beside.hi[0]) == pytest.approx((-1.5, -1.0))
    crowded, next_door = cabinet(-1.0), cabinet(-0.6)
    next_door.lo[0], next_door.hi[0] = -0.7, -0.5
    spans_toward_contents([crowded, next_door], [("Mug", mug)])
    assert (crowded.lo[0], crowded.hi[0]) == pytest.approx((-1.5, -1.0))
    low, high = cabinet(3.0), cabinet(3.04)
    low.lo[0], low.hi[0], high.lo[0], high.hi[0] = 2.52, 3.02, 3.02, 3.52
    spans_toward_contents([low, high], [("Mug", mug.translated(3.5, 0.0, 0.0))])
    assert (low.lo[0], low.hi[0], high.lo[0], high.hi[0]) == pytest.approx((2.52, 3.02, 3.02, 3.52))


def test_what_stands_on_a_counter_does_not_say_which_side_a_cabinet_on_it_reaches() -> None:
    # FloorPlan414: a cabinet standing on the counter (its box's bottom at the counter's top) had
    # the soap and spray bottles on the counter beside it counted as its contents; its box reached
    # over them, the demos' rays to them cut it to a 2 cm sliver and the hand towel put into it
    # resolved to the counter. What rests on a surface's top is the surface's.
    counter = Block("CounterTop|-01.00|+00.90|+00.65", "CounterTop", (-1.0, 0.9, 0.65), [-3.0, 0.88, 0.3],
                    [0.6, 0.92, 1.0], True)
    def cabinet() -> Block:
        return Block("Cabinet|+00.00|+01.26|+00.90", "Cabinet", (0.0, 1.26, 0.9), [-0.25, 0.91, 0.4],
                     [0.25, 1.61, 0.92], False, 0)
    on_counter = [("SoapBottle", Box((x - 0.05, 0.92, 0.6), (x + 0.05, 1.15, 0.7))) for x in (-0.3, -0.2, -0.1)]
    inside = [("SoapBar", Box((0.15, 0.96, 0.6), (0.25, 0.99, 0.7)))]
    block = cabinet()
    spans_toward_contents([block, counter], on_counter + inside)
    assert (block.lo[0], block.hi[0]) == pytest.approx((0.0, 0.5))


def test_only_what_rests_on_a_cabinets_floor_says_which_side_it_reaches() -> None:
    # FloorPlan12's wall cabinet over the counter: tall things standing on the counter under it
    # (their middles inside its box, their bottoms below it) and the cups on the floor of the
    # cabinet beside it (0.43 m above its own floor) outvoted the salt shakers on its floor; its box
    # reached away from them, out of the agent's view, and opening it failed as not visible.
    def cabinet() -> Block:
        return Block("Cabinet|+00.00|+01.39|+00.90", "Cabinet", (0.0, 1.39, 0.9), [-0.5, 1.04, 0.3],
                     [0.0, 1.74, 0.92], False, 0)
    def thing(x: float, bottom: float, height: float) -> tuple[str, Box]:
        return ("Cup", Box((x - 0.05, bottom, 0.55), (x + 0.05, bottom + height, 0.65)))
    own = [thing(-0.3, 1.07, 0.1), thing(-0.2, 1.07, 0.1)]
    on_counter = [thing(x, 0.937, 0.24) for x in (0.1, 0.2, 0.3)]
    next_door = [thing(x, 1.5, 0.1) for x in (0.15, 0.25, 0.35)]
    block = cabinet()
    spans_toward_contents([block], own + on_counter + next_door)
    assert (block.lo[0], block.hi[0]) == pytest.approx((-0.5, 0.0))
    # The same things on its own floor still turn it.
    block = cabinet()
    spans_toward_contents([block], own + [thing(x, 1.07, 0.1) for x in (0.1, 0.2, 0.3)])
    assert (block.lo[0], block.hi[0]) == pytest.approx((0.0, 0.5))


def test_what_lies_at_a_cabinets_hinge_line_does_not_say_which_side_it_reaches() -> None:
    # FloorPlan3's cabinet under the counter: things a centimetre past its hinge (on the carcass's
    # wall, on neither side) outnumbered the ones well inside on the other side, and its box
    # reached away from the kettle a demo took out of it.
    def cabinet() -> Block:
        return Block("Cabinet|-01.46|+00.78|+01.31", "Cabinet", (-1.46, 0.78, 1.31), [-2.04, 0.43, 0.81],
                     [-1.44, 1.13, 1.31], False, 90)
    def pot(z: float) -> Box:
        return Box((-1.85, 0.44, z - 0.08), (-1.70, 0.60, z + 0.08))
    at_the_hinge = [("Pot", pot(1.32)) for _ in range(3)]
    inside = [("Pot", pot(1.11)), ("Pot", pot(1.01))]
    beyond = [("Pot", pot(1.52))]
    block = cabinet()
    spans_toward_contents([block], at_the_hinge + inside + beyond)
    assert (block.lo[2], block.hi[2]) == pytest.approx((0.81, 1.31))
    # Without the ones at the hinge the same count turns it the other way.
    block = cabinet()
    spans_toward_contents([block], inside[:1] + beyond * 2)
    assert (block.lo[2], block.hi[2]) == pytest.approx((1.31, 1.81))


def test_a_cabinet_does_not_reach_into_the_fridge_beside_it() -> None:
    # FloorPlan6 built from its layout files alone: the agent opened the cabinet from the fridge's
    # side, and its box reached into the fridge; the fridge's middle lies above the cabinet's top,
    # so only the overlap tells that side is taken.
    cabinet = Block("Cabinet|-02.15|+00.40|-00.24", "Cabinet", (-2.15, 0.40, -0.24), [-2.73, 0.05, -0.74],
                    [-2.13, 0.75, -0.24], False, 90)
    fridge = Block("Fridge|-02.48|+00.00|-00.78", "Fridge", (-2.48, 0.0, -0.78), [-2.84, 0.0, -1.28],
                   [-2.12, 1.84, -0.28], True, 90)
    spans_toward_contents([cabinet, fridge], [])
    assert (cabinet.lo[2], cabinet.hi[2]) == pytest.approx((-0.24, 0.26))
    # A fridge the box reaching that side only grazes leaves it where the agent's side put it.
    fridge.hi[2] = -0.60
    cabinet.lo[2], cabinet.hi[2] = -0.74, -0.24
    spans_toward_contents([cabinet, fridge], [])
    assert (cabinet.lo[2], cabinet.hi[2]) == pytest.approx((-0.74, -0.24))
    # A wall cabinet over the fridge shares little of its height with it: the fridge does not bar it.
    fridge.hi[2] = -0.28
    wall = Block("Cabinet|-02.15|+01.87|-00.24", "Cabinet", (-2.15, 1.87, -0.24), [-2.73, 1.52, -0.74],
                 [-2.13, 2.22, -0.24], False, 90)
    spans_toward_contents([wall, fridge], [])
    assert (wall.lo[2], wall.hi[2]) == pytest.approx((-0.74, -0.24))


def test_furniture_is_cut_back_from_reachable_points() -> None:
    evidence = _dresser_room()
    scene = build_scene(evidence)
    dresser = scene.object("Dresser|+01.50|+00.00|+00.00")
    for x, z in scene.reachable:
        inside = dresser.box.lo[0] < x < dresser.box.hi[0] and dresser.box.lo[2] < z < dresser.box.hi[2]
        assert not inside, (x, z)


def test_counter_top_is_a_slab_that_runs_round_its_sink_basin() -> None:
    # THOR's counter top has a hole for the sink: the slab keeps its whole length, the basin sits in
    # it, and the renderer cuts the basin's opening out of the slab's drawing.
    evidence = SceneEvidence(5)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-8, 9) for z in range(-8, 0)]
    pose = [0.0, -0.5, 0.0, 30.0]
    evidence.openable = {"CounterTop|-01.00|+00.95|+00.80": pose, "Sink|+00.00|+00.90|+00.70|SinkBasin": pose}
    evidence.agent_ys = [0.9009997]
    scene = build_scene(evidence)
    counter = scene.object("CounterTop|-01.00|+00.95|+00.80").box
    basin = scene.object("Sink|+00.00|+00.90|+00.70|SinkBasin").box
    assert counter.size[1] < 0.1  # a slab: the cabinets below are objects of their own
    assert all(counter.lo[a] < basin.hi[a] and basin.lo[a] < counter.hi[a] for a in (0, 2))  # not cut apart
    assert counter.lo[0] < -2.0 and counter.hi[0] > 0.0  # its whole length, on both sides of the id
    sim = LiteController(scene, render_image=False)
    sim.step("TeleportFull", x=0.0, y=0.9009997, z=-0.5, rotation=0, horizon=30)
    visible, _ = sim.visibility_state()
    index = {o.object_id: o.index for o in sim.world.objects}
    assert visible[index["Sink|+00.00|+00.90|+00.70|SinkBasin"]] and visible[index["CounterTop|-01.00|+00.95|+00.80"]]


def test_a_sink_basin_below_its_counter_slab_is_raised_to_the_counter_top() -> None:
    # A bathroom sink's id lies 0.08 m under the counter slab around it: the basin's rim must
    # still reach the counter's top, or the slab is drawn over the opening and hides the soap.
    def block(object_id: str, lo: list[float], hi: list[float]) -> Block:
        return Block(object_id, object_id.split("|")[0].replace("Sink", "SinkBasin"), (0.0, hi[1], 0.0),
                     lo, hi, False)
    counter = block("CounterTop|-01.61|+00.70|+02.83", [-1.8, 0.68, 2.85], [-1.1, 0.72, 3.5])
    basin = block("Sink|-01.70|+00.62|+03.37|SinkBasin", [-1.9, 0.44, 3.07], [-1.45, 0.63, 3.67])
    far = block("Sink|+02.00|+00.40|+00.00|SinkBasin", [1.8, 0.2, -0.2], [2.2, 0.41, 0.2])
    low = block("Sink|-01.70|+00.40|+04.00|SinkBasin", [-1.9, 0.2, 3.4], [-1.45, 0.41, 3.8])
    basins_reach_counters([counter, basin, far, low])
    assert basin.hi[1] == counter.hi[1] and basin.lo[1] == 0.44
    assert far.hi[1] == 0.41  # no counter over it
    assert low.hi[1] == 0.41  # far below the slab: not set into that counter


def test_a_cabinet_under_a_sink_basin_is_drawn_open_round_its_bowl() -> None:
    # FloorPlan422: the cabinet under the sink reached up round the basin's bowl and hid a soap bar
    # put in to be cleaned. Its box stays whole (FloorPlan412 keeps spray bottles in it), and its
    # drawing loses the bowl's footprint from 5 cm under the bowl's floor up; a cabinet beside the
    # basin (footprints touching by 2 cm) and a drawer level with the bowl are drawn whole.
    def block(object_id: str, lo: list[float], hi: list[float]) -> Block:
        return Block(object_id, object_id.split("|")[0].replace("Sink", "SinkBasin"),
                     (lo[0], 0.46, lo[2]), lo, hi, False)
    basin = block("Sink|-01.93|+00.77|+00.33|SinkBasin", [-2.2, 0.49, 0.05], [-1.65, 0.79, 0.6])
    under = block("Cabinet|-02.34|+00.46|+00.52", [-2.39, 0.09, -0.06], [-1.89, 0.76, 0.54])
    beside = block("Cabinet|-02.70|+00.46|+00.52", [-3.1, 0.09, -0.06], [-2.18, 0.76, 0.54])
    level = block("Drawer|-02.00|+00.60|+00.30", [-2.1, 0.45, 0.1], [-1.9, 0.75, 0.5])
    bowls_cut_out_of_cabinets([basin, under, beside, level])
    assert (under.lo, under.hi) == ([-2.39, 0.09, -0.06], [-1.89, 0.76, 0.54])
    [hole] = under.holes
    assert hole.lo[1] == pytest.approx(0.44) and hole.hi[1] > under.hi[1]
    assert all(hole.lo[a] < basin.lo[a] and hole.hi[a] > basin.hi[a] for a in (0, 2))
    assert beside.holes == [] and level.holes == []



def test_a_counter_slab_stays_off_the_floor_the_agent_walks_even_when_raised_and_grown_back() -> None:
    # FloorPlan3: a bar counter's slab starts 1.06 m over the floor. Taken as hanging overhead, it
    # was not cut back from where the agent stands; grown back over both arms of its L to hold
    # what rests on them, it hid the cabinets under it from the pose that opens them.
    floor_y = 0.22
    def slab() -> Block:
        return Block("CounterTop|-01.81|+01.36|+01.18", "CounterTop", (-1.81, 1.36, 1.18),
                     [-2.7, 1.28, 0.0], [-1.06, 1.30, 2.0], False)
    cut = slab()
    clear_reachable([cut], [(-1.0, 1.0)], floor_y)
    assert cut.hi[0] == pytest.approx(-1.1)  # cut back as a counter standing on the floor is
    grown = slab()
    wall_cabinet = Block("Cabinet|-01.20|+01.90|+01.00", "Cabinet", (-1.2, 1.9, 1.0), [-1.4, 1.7, 0.8],
                         [-0.9, 2.1, 1.2], False)
    reachable = [(-1.0, 1.0), (-1.0, 1.25), (-0.75, 1.0), (-2.0, 3.0)]
    open_over_walked_floor([grown, wall_cabinet], reachable, floor_y)
    assert (grown.lo, grown.hi) == ([-2.7, 1.28, 0.0], [-1.06, 1.30, 2.0])  # the box keeps what it holds
    [hole] = grown.holes  # the two points it overlaps, one step apart, open as one
    r = AGENT_RADIUS
    assert hole.lo[0] == pytest.approx(-1.0 - r) and hole.hi[0] == pytest.approx(-1.0 + r)
    assert hole.lo[2] == pytest.approx(1.0 - r) and hole.hi[2] == pytest.approx(1.25 + r)
    assert hole.lo[1] < grown.lo[1] and hole.hi[1] > grown.hi[1]
    assert wall_cabinet.holes == []  # a wall cabinet hangs over the agent


def test_a_counter_slab_is_drawn_only_a_few_centimetres_past_the_cupboards_under_it() -> None:
    # FloorPlan19 / FloorPlan3: a counter's box, the bounding box of an L or grown to hold an egg at
    # one end, reached 25-40 cm past the fronts of the cabinets under it and hid their insides from
    # the pose that opened them. In front of each cupboard under it the slab is drawn only to the
    # overhang; the box keeps what it holds and the part a thing rests on stays drawn.
    slab = Block("CounterTop|-01.79|+00.95|-03.80", "CounterTop", (-1.79, 0.95, -3.8),
                 [-3.6, 0.84, -4.7], [0.0, 0.88, -3.26], False)

    def cupboard(x: float, top: float = 0.74) -> Block:
        return Block(format_object_id("Cabinet", (x, 0.39, -3.51)), "Cabinet", (x, 0.39, -3.51),
                     [x - 0.38, 0.04, -4.09], [x, top, -3.49], False, 0)  # facing +z, front at -3.49

    plate_cupboard, egg_cupboard, wall_cabinet = cupboard(-0.61), cupboard(-2.9), cupboard(-1.5, top=2.2)
    wall_cabinet.lo[1] = 1.5
    egg = Box((-3.2, 0.88, -3.36), (-3.15, 0.96, -3.3))
    open_over_cupboard_fronts([slab, plate_cupboard, egg_cupboard, wall_cabinet], [egg])
    assert (slab.lo, slab.hi) == ([-3.6, 0.84, -4.7], [0.0, 0.88, -3.26])
    [hole] = slab.holes  # only in front of the plate's cupboard: the egg's and the wall cabinet's get none
    assert hole.lo[2] == pytest.approx(-3.49 + COUNTER_OVERHANG) and hole.hi[2] == pytest.approx(-3.26)
    assert (hole.lo[0], hole.hi[0]) == pytest.approx((-0.99, -0.61))
    assert hole.lo[1] < slab.lo[1] and hole.hi[1] > slab.hi[1]


def test_cabinets_side_by_side_do_not_overlap() -> None:
    # FloorPlan17: the two doors under the sink are hinged at the carcass's outer ends, 0.71 m
    # apart; each box reached 0.5 m from its hinge, both held the cup inside, and the other door
    # hid it. They meet halfway. Where both reach the same way the one behind stops at the other's
    # hinge; a wall cabinet over a base cabinet and a door pair's two halves are left alone; a
    # single door and a door pair's half meet halfway between the single's hinge and the pair's middle.
    def cabinet(x: float, lo_x: float, hi_x: float, y: tuple[float, float] = (0.05, 0.75)) -> Block:
        return Block(format_object_id("Cabinet", (x, 0.40, -0.35)), "Cabinet", (x, 0.40, -0.35),
                     [lo_x, y[0], -0.93], [hi_x, y[1], -0.33], True, 0)
    left, right = cabinet(-0.37, -0.37, 0.13), cabinet(0.34, -0.16, 0.34)
    behind, ahead = cabinet(1.0, 1.0, 1.5), cabinet(1.3, 1.3, 1.8)
    base, wall = cabinet(3.0, 3.0, 3.5), cabinet(3.3, 3.3, 3.8, (1.6, 2.3))
    door, partner = cabinet(5.0, 5.0, 5.5), cabinet(5.03, 4.6, 5.03)
    # FloorPlan413's vanity row: a single door hinged at 2.49 reaching up, then a double door
    # whose ids (3.11, 3.14) hang at its middle, the lower half reaching down from 3.125.
    end, half, other_half = cabinet(7.49, 7.49, 7.99), cabinet(8.11, 7.625, 8.125), cabinet(8.14, 8.125, 8.625)
    neighbours_meet([left, right, behind, ahead, base, wall, door, partner, end, half, other_half])
    assert (left.lo[0], left.hi[0]) == (-0.37, pytest.approx(-0.015))
    assert (right.lo[0], right.hi[0]) == (pytest.approx(-0.015), 0.34)
    assert (behind.hi[0], ahead.lo[0]) == (1.3, 1.3)
    assert (base.hi[0], wall.lo[0]) == (3.5, 3.3)
    assert (door.lo[0], partner.hi[0]) == (5.0, 5.03)
    assert (end.hi[0], half.lo[0]) == (pytest.approx(7.8075), pytest.approx(7.8075))
    assert (half.hi[0], other_half.lo[0]) == (8.125, 8.125)


def test_the_boards_of_one_shelving_unit_share_its_footprint_and_front() -> None:
    # FloorPlan5: three boards named at x 2.81, z 0.14; the top one was turned a quarter by a pose
    # beside the unit, its 0.8 m width running along z, and hid the board below. The front most
    # boards have wins; with as many each way, the one more poses back; a board elsewhere stays.
    def shelf(x: float, y: float, z: float, facing: int, deep_along_x: bool = False) -> Block:
        sx, sz = (0.35, 0.8) if deep_along_x else (0.8, 0.35)
        return Block(format_object_id("Shelf", (x, y, z)), "Shelf", (x, y, z),
                     [x - sx / 2, y - 0.02, z - sz / 2], [x + sx / 2, y + 0.02, z + sz / 2], False, facing)
    low, middle, top = shelf(2.81, 0.16, 0.14, 0), shelf(2.81, 0.54, 0.14, 0), shelf(2.81, 0.87, 0.14, 270, True)
    alone = shelf(0.0, 0.87, 3.0, 270, True)
    left, right = shelf(-2.0, 0.4, 1.0, 0), shelf(-2.0, 0.9, 1.0, 90, True)
    one_shelving_unit([low, middle, top, alone, left, right], {right.object_id: 1})
    assert top.facing == 0 and (top.lo[0], top.hi[0], top.lo[2], top.hi[2]) == (low.lo[0], low.hi[0], low.lo[2],
                                                                                 low.hi[2])
    assert (top.lo[1], top.hi[1]) == (pytest.approx(0.85), pytest.approx(0.89))  # each board keeps its height
    assert alone.facing == 270 and alone.hi[2] - alone.lo[2] == pytest.approx(0.8)
    assert left.facing == 90 and left.hi[2] - left.lo[2] == pytest.approx(0.8)


def test_catalogue_store_reads_what_it_writes_and_rejects_other_files(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cat.json"
    catalogue = catalogue_store.empty_catalogue({"alfred_dir": "x"})
    catalogue["scenes"]["FloorPlan301"] = {"scene": build_scene(_dresser_room()).to_dict(), "info": {},
                                           "evidence": {}}
    catalogue_store.write_catalogue(path, catalogue)
    assert catalogue_store.read_catalogue(path) == json.loads(path.read_text())
    assert [p.name for p in path.parent.iterdir()] == ["cat.json"]  # no temporary file left behind
    catalogue_store.use_catalogue(path)
    assert os.environ[catalogue_store.ENV_VAR] == str(path)
    assert catalogue_store.imported_scene("FloorPlan301").name == "FloorPlan301"
    assert catalogue_store.imported_scene("FloorPlan302") is None
    (tmp_path / "bad.json").write_text('{"format": "something else", "scenes": {}}')
    with pytest.raises(UserError) as caught:
        catalogue_store.read_catalogue(tmp_path / "bad.json")
    assert caught.value.code == ExitCode.BAD_INPUT
    with pytest.raises(UserError) as caught:
        catalogue_store.read_catalogue(tmp_path / "missing.json")
    assert caught.value.code == ExitCode.NOT_FOUND


def test_import_of_a_missing_or_empty_directory_is_one_line(tmp_path: Path) -> None:
    missing = _cli("scenes", "import-alfred", str(tmp_path / "nope"), "--out", str(tmp_path / "c.json"))
    assert missing.returncode == ExitCode.NOT_FOUND
    assert len(missing.stderr.strip().splitlines()) == 1 and "Traceback" not in missing.stderr
    (tmp_path / "empty").mkdir()
    empty = _cli("scenes", "import-alfred", str(tmp_path / "empty"), "--out", str(tmp_path / "c.json"))
    assert empty.returncode == ExitCode.NOT_FOUND
    assert len(empty.stderr.strip().splitlines()) == 1 and "layouts" in empty.stderr
    assert not (tmp_path / "c.json").exists()


# --------------------------------------------------------------------------------------------
# With the reference data


@pytest.fixture(scope="module")
def imported(alfred_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("catalogue") / "alfred.json"
    data, summary = import_alfred(alfred_data, out)
    released = list((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    assert summary.scenes == 120 and summary.trajectories == len(released)
    return out, data


def test_importer_builds_every_layout_room_with_its_receptacles_and_demo_objects(alfred_data: Path, imported) -> None:
    _, data = imported
    assert sorted(data["scenes"]) == sorted(f"FloorPlan{n}" for n in find_sources(alfred_data).layout_numbers())
    layouts = alfred_data / "layouts"
    for name in ("FloorPlan1", "FloorPlan218", "FloorPlan303", "FloorPlan410"):
        scene = catalogue_store.scene_from_entry(data["scenes"][name])
        openable = json.loads((layouts / f"{name}-openable.json").read_text())
        ids = {o.object_id for o in scene.objects}
        assert set(openable) <= ids
        for object_id, pose in openable.items():
            given = [float(v) for v in pose[:2]] + [int(pose[2]) % 360, int(pose[3])]
            kept = scene.interaction_poses[object_id].to_list()
            if catalogue.type_of_id(object_id) in FACED_SQUARE:
                # A drawer's pose is the one it lies most straight ahead of: this one or a demo's straighter one.
                assert front_pose(object_id, [kept, given]) == kept
            else:
                assert kept == given
        keys = {grid_key(x, z) for x, z in scene.reachable}
        assert {grid_key(x, z) for x, z in np.load(layouts / f"{name}-layout.npy")} <= keys
    # Walked points the layout files miss are added; the demo's objects are there by name.
    traj_path = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))[0]
    traj = json.loads(traj_path.read_text())
    scene = catalogue_store.scene_from_entry(data["scenes"][traj["scene"]["floor_plan"]])
    facts = trajectory_facts(traj)
    keys = {grid_key(x, z) for x, z in scene.reachable}
    assert all(grid_key(x, z) in keys for x, z in facts.points)
    assert {n for n, _, _ in facts.object_poses} <= {o.name for o in scene.objects}


def test_imported_rooms_load_by_thor_name_after_import_and_not_before(imported) -> None:
    from alfred_gen.scenes import get_scene

    path, _ = imported
    with pytest.raises(UserError) as caught:
        get_scene("FloorPlan10")
    assert caught.value.code == ExitCode.NOT_FOUND and "import-alfred" in str(caught.value)
    catalogue_store.use_catalogue(path)
    assert get_scene("FloorPlan10").name == "FloorPlan10"
    event = LiteController(scene_lookup=SceneLibrary(), render_image=False).reset("FloorPlan10")
    assert event.metadata["sceneName"] == "FloorPlan10"
    assert any(o["objectType"] == "Fridge" for o in event.metadata["objects"])


def test_import_is_deterministic_and_reads_full_and_partial_checkouts_alike(
    alfred_data: Path, imported, tmp_path: Path
) -> None:
    path, _ = imported
    full = tmp_path / "alfred"
    (full / "gen").mkdir(parents=True)
    (full / "data").mkdir()
    (full / "gen" / "layouts").symlink_to(alfred_data / "layouts")
    (full / "data" / "json_2.1.0").symlink_to(alfred_data / "json_2.1.0")
    again = tmp_path / "again.json"
    import_alfred(full, again)
    first, second = json.loads(path.read_text()), json.loads(again.read_text())
    assert first["scenes"] == second["scenes"]  # only the recorded source paths differ
    import_alfred(full, tmp_path / "third.json")
    assert (tmp_path / "third.json").read_bytes() == again.read_bytes()


def _first_of_each_task_type(alfred_data: Path) -> list[Path]:
    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    return [next(p for p in files if p.parent.parent.name.startswith(t + "-")) for t in TASK_TYPES]


def test_released_demos_replay_with_goals_satisfied_in_imported_rooms(alfred_data: Path, imported) -> None:
    from alfred_gen.replay.vet import vet_trajectory
    from alfred_gen.scenes.library import simulator
    from alfred_gen.traj.format import load_trajectory

    path, _ = imported
    catalogue_store.use_catalogue(path)
    for traj_path in _first_of_each_task_type(alfred_data):
        result = vet_trajectory(load_trajectory(traj_path), controller_factory=simulator().open)
        assert result.ok and result.goal.done, (traj_path.parent.parent.name, result.describe())


def test_a_released_start_state_restores_in_a_room_imported_without_that_demo(
    alfred_data: Path, tmp_path: Path
) -> None:
    from alfred_gen.replay.restore import restore_scene

    layouts_only = tmp_path / "partial"
    layouts_only.mkdir()
    (layouts_only / "layouts").symlink_to(alfred_data / "layouts")
    out = tmp_path / "layouts-only.json"
    _, summary = import_alfred(layouts_only, out)
    assert summary.trajectories == 0
    catalogue_store.use_catalogue(out)
    traj = json.loads(_first_of_each_task_type(alfred_data)[1].read_text())
    name = traj["scene"]["floor_plan"]
    bare = catalogue_store.imported_scene(name)
    assert not {p["objectName"] for p in traj["scene"]["object_poses"]} & {o.name for o in bare.objects}
    completed = complete_for_start_state(bare, traj["scene"])
    assert {p["objectName"] for p in traj["scene"]["object_poses"]} <= {o.name for o in completed.objects}
    start = restore_scene(LiteController(scene_lookup=SceneLibrary(), render_image=False), traj["scene"])
    agent = start.metadata["agent"]["position"]
    assert (agent["x"], agent["z"]) == (traj["scene"]["init_action"]["x"], traj["scene"]["init_action"]["z"])


def test_cli_imports_then_replays_a_released_trajectory(alfred_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "scenes.json"
    done = _cli("scenes", "import-alfred", str(alfred_data), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("imported 120 scenes") and str(out) in done.stdout
    traj = _first_of_each_task_type(alfred_data)[5]
    replayed = _cli("--scenes-catalogue", str(out), "replay", str(traj), "--out", str(tmp_path / "frames"))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout.startswith("goal: 3/3 goal conditions")
    frames = json.loads(traj.read_text())["images"]
    assert len(list((tmp_path / "frames" / "raw_images").glob("*.jpg"))) == len(frames) + 1  # + the unlisted final
