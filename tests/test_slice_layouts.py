"""A room's own slice row: from its demos' slice pickups (importer) into lite's slices (sim)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from alfred_gen.scenes.alfred.evidence import SceneEvidence, trajectory_facts
from alfred_gen.scenes.alfred.slice_facts import SliceFact
from alfred_gen.scenes.alfred.slice_layouts import (
    MAX_FIRST_OFF,
    MIN_POINTS,
    ROOM_SLICE_REFIT,
    room_slice_layouts,
)
from alfred_gen.sim import fixtures
from alfred_gen.sim.actions import SLICE_LAYOUT, slice_offsets
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Scene
from tests.helpers.sim_actions import go, obj, oid, ok


def _bread_row(first: float, step: float, numbers: list[int]) -> list[SliceFact]:
    return [SliceFact("BreadSliced", k, 0.0, first + (k - 1) * step) for k in numbers]


def test_a_room_with_enough_bread_slices_gets_its_own_row_through_the_refit() -> None:
    shift, scale = ROOM_SLICE_REFIT["Bread"]
    layouts = room_slice_layouts(_bread_row(-0.02, -0.03, [1, 2, 4, 4]))
    assert layouts["Bread"] == pytest.approx((shift + scale * -0.02, scale * -0.03), abs=1e-4)


def test_too_few_points_or_one_slice_number_keep_the_global_row() -> None:
    assert room_slice_layouts(_bread_row(-0.02, -0.03, [1, 3][:MIN_POINTS - 1])) == {}
    assert room_slice_layouts(_bread_row(-0.02, -0.03, [2] * (MIN_POINTS + 2))) == {}


def test_a_room_line_starting_far_from_the_global_one_keeps_the_global_row() -> None:
    # Slices THOR let tip over cast far from the row: such a line lost every pick it moved.
    shift, scale = ROOM_SLICE_REFIT["Bread"]
    far = (SLICE_LAYOUT["Bread"][0] - 2 * MAX_FIRST_OFF - shift) / scale
    assert room_slice_layouts(_bread_row(far, -0.03, [1, 2, 4, 4])) == {}


def test_types_without_a_refit_keep_the_global_row() -> None:
    facts = [SliceFact("TomatoSliced", k, 0.0, -0.01 * k) for k in (1, 2, 3, 4, 5)]
    assert room_slice_layouts(facts) == {}


def test_slice_facts_and_the_rooms_rows_survive_the_catalogue() -> None:
    evidence = SceneEvidence(12)
    evidence.slices = _bread_row(-0.02, -0.03, [1, 2, 5])
    assert SceneEvidence.from_dict(json.loads(json.dumps(evidence.to_dict()))).slices == evidence.slices
    scene = replace(fixtures.kitchen(), slice_layouts={"Bread": (-0.01, -0.05)})
    assert Scene.from_dict(json.loads(json.dumps(scene.to_dict()))).slice_layouts == {"Bread": (-0.01, -0.05)}
    assert "slice_layouts" not in fixtures.kitchen().to_dict()


def test_the_rooms_row_overrides_the_global_one() -> None:
    assert slice_offsets("Bread", 0.3, 3, {"Bread": (0.01, -0.05)}) == pytest.approx([0.01, -0.04, -0.09])
    first, step = SLICE_LAYOUT["Bread"]
    assert slice_offsets("Bread", 0.3, 3, {"Tomato": (0.01, -0.05)}) == pytest.approx(
        [first, first + step, first + 2 * step])


def _tomato_slices(scene: Scene) -> list[float]:
    sim = LiteController(scene)
    go(sim, 0.0, 0.25, 180)
    tomato = oid(sim, "Tomato")
    ok(sim, "PickupObject", objectId=oid(sim, "Knife"))
    ok(sim, "SliceObject", objectId=tomato)
    size = obj(sim, tomato)["axisAlignedBoundingBox"]["size"]
    axis = "x" if size["x"] >= size["z"] else "z"
    return [obj(sim, f"{tomato}|TomatoSliced_{i}")["position"][axis] for i in range(1, 7)]


def test_lite_lays_a_wholes_slices_along_the_rooms_own_row() -> None:
    plain = _tomato_slices(fixtures.kitchen())
    wide = _tomato_slices(replace(fixtures.kitchen(), slice_layouts={"Tomato": (0.0, -0.02)}))
    assert [abs(b - a) for a, b in zip(wide, wide[1:])] == pytest.approx([0.02] * 5, abs=1e-6)
    assert [abs(b - a) for a, b in zip(plain, plain[1:])] == pytest.approx([abs(SLICE_LAYOUT["Tomato"][1])] * 5,
                                                                            abs=1e-6)


def test_floorplan12s_demos_show_a_longer_bread_row_than_the_global_one(alfred_train: Path) -> None:
    evidence = SceneEvidence(12)
    for path in sorted((alfred_train / "json_2.1.0").rglob("*BreadSliced*-12/*/traj_data.json")):
        evidence.add_trajectory(trajectory_facts(json.loads(path.read_text())))
    kinds = {f.kind for f in evidence.slices}
    assert kinds == {"BreadSliced"} and len(evidence.slices) >= MIN_POINTS
    # FloorPlan12's loaf: THOR's mask of slice 4 was where lite's global row put slice 5.
    step = room_slice_layouts(evidence.slices)["Bread"][1]
    assert step < 1.2 * SLICE_LAYOUT["Bread"][1]
