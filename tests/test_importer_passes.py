"""The importer's table of passes (alfred_gen.scenes.alfred.passes): the doc lists it as it runs,
a pass switched off changes the room, an unknown pass is refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.geometry import room_geometry
from alfred_gen.scenes.alfred.importer import build_scene
from alfred_gen.scenes.alfred.passes import PASSES, ROOM_PASSES, START_PASSES, check_without, switchable_names
from alfred_gen.scenes.alfred.start_fit import fit_to_start_state
from alfred_gen.sim.scene import Box, SceneObject, format_object_id

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "importer.md"
BENCH = ROOT / "bench" / "alfred_fidelity.py"
DRESSER = "Dresser|+01.50|+00.00|+00.00"


def _doc_rows() -> list[tuple[str, str, str]]:
    """(pass, stage, function) of every numbered row of the doc's table, in order."""
    rows = []
    for line in DOC.read_text().splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(r"\d+", cells[0]):
            rows.append((cells[1], cells[2], cells[3]))
    return rows


def test_the_doc_lists_every_pass_in_the_order_they_run() -> None:
    assert _doc_rows() == [(p.name, p.stage, p.function) for p in PASSES]
    assert (*ROOM_PASSES, *START_PASSES) == PASSES
    # A pass that runs twice is listed twice (the order is the table).
    assert [p.name for p in ROOM_PASSES].count("separate_nested") == 2


def _dresser_room() -> SceneEvidence:
    """A dresser with a column of drawers, the agent facing it from the west, a CD lying on top."""
    evidence = SceneEvidence(301)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(-8, 3) for z in range(-6, 7)]
    pose = [0.5, 0.0, 90.0, 30.0]
    evidence.openable = {DRESSER: pose}
    for y in (0.10, 0.28, 0.46, 0.64):
        evidence.openable[format_object_id("Drawer", (1.30, y, 0.0))] = pose
    evidence.objects = {"CD_00aa11bb": [((1.5, 0.80, 0.1), 0.0)]}
    evidence.agent_ys = [0.9009997]
    return evidence


def test_switching_a_pass_off_changes_the_room() -> None:
    full = build_scene(_dresser_room())
    assert build_scene(_dresser_room(), without=frozenset()).to_dict() == full.to_dict()
    # tops_over_drawers brings the dresser's top down to 3 cm over its highest drawer.
    without = build_scene(_dresser_room(), without=frozenset({"tops_over_drawers"}))
    assert without.object(DRESSER).box.hi[1] > full.object(DRESSER).box.hi[1] + 0.01
    # separate_nested runs twice; switched off, both runs are skipped and the drawers change.
    nested = build_scene(_dresser_room(), without=frozenset({"separate_nested"}))
    assert [o.box for o in nested.objects if o.object_type == "Drawer"] != \
        [o.box for o in full.objects if o.object_type == "Drawer"]


def test_switching_a_start_pass_off_leaves_the_fixture_as_built() -> None:
    toilet = SceneObject("Toilet", (-1.45, 0.0, 1.87), Box((-1.909, 0.0, 1.603), (-0.991, 1.043, 2.138)),
                         object_id="Toilet|-01.45|+00.00|+01.87")
    soap = [("SoapBar", Box((-1.886, 0.954, 1.651), (-1.831, 0.979, 1.742)))]
    assert fit_to_start_state([toilet], soap)[toilet.object_id].box.hi[1] == soap[0][1].lo[1]
    assert fit_to_start_state([toilet], soap, frozenset({"tops_under_posed"})) == {}


def test_every_pass_can_be_switched_off() -> None:
    names = switchable_names()
    assert set(names) == {p.name for p in PASSES if not p.required}
    for name in names:
        assert room_geometry(_dresser_room(), without=frozenset({name})).objects


def test_an_unknown_or_required_pass_is_refused() -> None:
    with pytest.raises(ValueError, match=r"no pass named 'nope'.*clear_reachable"):
        check_without(["clear_reachable", "nope"])
    with pytest.raises(ValueError, match="required"):
        room_geometry(_dresser_room(), without=frozenset({"initial_blocks"}))
    assert check_without(["clear_reachable", "tops_under_posed"]) == {"clear_reachable", "tops_under_posed"}
    assert check_without([""]) == frozenset()


def test_the_fidelity_bench_refuses_an_unknown_pass_in_one_line(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(BENCH), str(tmp_path), "--without", "clear_reachable,nope"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "nope" in lines[0] and "margin_points" in lines[0]
    assert run.stdout == ""
