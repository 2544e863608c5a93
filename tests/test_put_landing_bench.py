"""bench/put_landing.py: which put-then-later pairs it measures, and where lite's put object lies
against THOR's mask of its container."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent.parent / "bench" / "put_landing.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("put_landing_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _low(action: str, **api: str) -> dict[str, Any]:
    return {"api_action": {"action": action, **api}}


LETTUCE, PAN, FRIDGE = "Lettuce|-02.84|+00.91|+02.22", "Pan|-00.24|+00.83|+02.08", "Fridge|-02.78|+00.00|+02.22"
TRAJ = {"plan": {"low_actions": [
    _low("PutObject", objectId=LETTUCE, receptacleObjectId=PAN),
    _low("RotateLeft"),
    _low("PickupObject", objectId=PAN),
    _low("PutObject", objectId=PAN, receptacleObjectId=FRIDGE),
]}}


def test_a_put_into_a_pan_pairs_with_the_pans_next_interaction_not_with_a_pickup_of_the_lettuce() -> None:
    bench = _bench()
    assert bench.pairs_of(TRAJ, ("Pan",)) == []  # the lettuce is never picked up again
    assert bench.pairs_of(TRAJ, ("Pan",), "receptacle") == [(0, 2, "Pan")]
    assert bench.pairs_of(TRAJ, ("Fridge",), "receptacle") == []  # nothing later names the fridge


COUNTER, TOMATO = "CounterTop|+00.79|+00.92|-00.11", "Tomato|-01.50|+00.95|+00.20"
SET_DOWN = {"plan": {"low_actions": [
    _low("PutObject", objectId=TOMATO, receptacleObjectId=COUNTER),
    _low("PutObject", objectId=PAN, receptacleObjectId=COUNTER),
    _low("PickupObject", objectId=TOMATO),
    _low("PutObject", objectId=TOMATO, receptacleObjectId=PAN),
]}}


def test_a_pan_set_on_a_counter_pairs_with_the_next_put_into_it_and_held_types_filter_the_puts() -> None:
    bench = _bench()
    assert bench.pairs_of(SET_DOWN, ("CounterTop",)) == [(0, 2, "CounterTop")]  # the pan is never picked up
    assert bench.pairs_of(SET_DOWN, ("CounterTop",), "object") == [(0, 2, "CounterTop"), (1, 3, "CounterTop")]
    assert bench.pairs_of(SET_DOWN, ("CounterTop",), "object", ("Pan",)) == [(1, 3, "CounterTop")]


def test_the_content_share_counts_lites_put_object_on_thors_container_mask_within_its_rows() -> None:
    bench = _bench()
    thor = np.zeros((4, 8), bool)
    thor[1:3, 1:7] = True
    thor[1:3, 3:5] = False  # THOR's content hides the container's middle
    lite = np.zeros((4, 8), bool)
    lite[1:3, 2:4] = True  # half on THOR's hole, half on its container
    lite[0, 2:4] = True  # above the container's rows: not counted
    event = SimpleNamespace(instance_masks={LETTUCE: lite})
    assert bench._content_share(event, LETTUCE, thor) == 0.5
    assert bench._content_share(event, PAN, thor) is None  # lite draws no such object
