"""bench/one_id_double_doors.py: single cabinets' open masks scored drawn with one leaf and as a double door."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, SceneObject
from alfred_gen.sim.thor_shapes import DOUBLE_DOOR_SWING
from alfred_gen.traj.rle import encode_mask

BENCH = Path(__file__).resolve().parent.parent / "bench" / "one_id_double_doors.py"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("one_id_double_doors", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["one_id_double_doors"] = module
    spec.loader.exec_module(module)
    return module


CABINET = "Cabinet|+00.00|+00.40|+00.50"
#: The agent 1.5 m in front of a base cabinet facing +z, looking at it (rotation 180, 30 down).
POSE = [0.0, 2.0, 180.0, 30.0]
AGENT_Y = 0.9


def test_a_mask_of_two_leaves_scores_the_double_door_higher_and_votes_for_it() -> None:
    bench = _bench()
    box = Box((-0.4, 0.0, 0.0), (0.4, 0.8, 0.5))
    obj = SceneObject("Cabinet", (0.0, 0.4, 0.5), box, object_id=CABINET)
    camera = Camera(POSE[0], AGENT_Y + ALFRED_CAMERA.height, POSE[1], POSE[2], POSE[3], ALFRED_CAMERA.field_of_view)
    thor = bench._drawn_mask(bench._parts(box, 0, False, DOUBLE_DOOR_SWING), camera)
    assert thor.any()
    margin, one_leaf, double = bench.score_mask(obj, 0, False, None, POSE, AGENT_Y, encode_mask(np.asarray(thor)))
    assert double > 0.99 > one_leaf
    assert margin >= 2


def test_report_calls_a_cabinet_only_from_the_other_folds_and_a_strong_vote(capsys) -> None:  # type: ignore[no-untyped-def]
    bench = _bench()
    masks = [bench.OpenMask(1, fold, CABINET, 3, 0.1, 0.3) for fold in (0, 1, 2)]
    masks.append(bench.OpenMask(2, 0, CABINET, 3, 0.4, 0.2))  # one mask: never called
    masks += [bench.OpenMask(3, fold, CABINET, 1, 0.1, 0.3) for fold in (0, 1, 2)]  # 1-ray votes only
    bench.report(masks)
    out = capsys.readouterr().out
    assert "odd FloorPlans: 6 masks of 2 single cabinets; called double: 1 cabinets, 3 masks" in out
    assert "even FloorPlans: 1 masks of 1 single cabinets; called double: 0 cabinets, 0 masks" in out
    assert "FloorPlan3" not in out
