"""Mask agreement (alfred_gen.fidelity.masks): THOR's released masks against lite's frames."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from alfred_gen.fidelity import masks
from alfred_gen.fidelity import measure as fidelity
from alfred_gen.traj.rle import encode_mask

MUG, TABLE, APPLE = "Mug|+00.10|+00.90|-01.20", "DiningTable|+00.00|+00.00|-01.00", "Apple|+00.30|+00.90|-01.10"


def _box(rows: slice, cols: slice) -> np.ndarray:
    mask = np.zeros((300, 300), dtype=bool)
    mask[rows, cols] = True
    return mask


def _event(instances: dict[str, np.ndarray], held: str | None = None) -> Any:
    objects = [{"objectId": MUG, "pickupable": True, "receptacle": True},
               {"objectId": TABLE, "receptacle": True},
               {"objectId": APPLE, "pickupable": True}]
    inventory = [{"objectId": held}] if held else []
    return SimpleNamespace(instance_masks=instances, metadata={"objects": objects, "inventoryObjects": inventory})


def _low(action: str, mask: np.ndarray, **api: str) -> dict[str, Any]:
    return {"api_action": {"action": action, **api}, "discrete_action": {"action": action, "args": {
        "mask": encode_mask(mask)}}}


def test_put_object_is_measured_on_the_receptacle_and_the_held_object_never_wins() -> None:
    table, mug = _box(slice(100, 200), slice(0, 300)), _box(slice(120, 160), slice(100, 140))
    # The mug in hand covers the table's mask better than the table itself; ALFRED ignores it.
    event = _event({TABLE: table & ~mug, MUG: mug}, held=MUG)
    low = _low("PutObject", table, objectId=MUG, receptacleObjectId=TABLE)
    found = masks.compare(Path("t"), 7, low, event)
    assert found is not None and found.target == TABLE and found.object_type == "DiningTable"
    assert found.iou == pytest.approx(1.0 - 1600 / 30000)
    assert found.picked == TABLE and found.right


def test_a_small_target_drawn_too_small_loses_to_what_stands_behind_it() -> None:
    thor = _box(slice(100, 120), slice(100, 120))  # THOR's apple: 400 px
    lite_apple = _box(slice(100, 104), slice(100, 104))  # lite's apple: 16 px, inside THOR's
    counter = _box(slice(95, 130), slice(95, 130)) & ~lite_apple
    found = masks.compare(Path("t"), 3, _low("PickupObject", thor, objectId=APPLE),
                          _event({APPLE: lite_apple, TABLE: counter}))
    assert found is not None and found.iou == pytest.approx(16 / 400)
    assert found.picked == TABLE and not found.right
    assert found.offset == (-8.0, -8.0)  # lite's apple sits up and left of THOR's
    missing = masks.compare(Path("t"), 3, _low("PickupObject", thor, objectId=APPLE), _event({TABLE: counter}))
    assert missing is not None and missing.iou == 0.0 and missing.lite_pixels == 0 and missing.offset is None
    assert masks.compare(Path("t"), 0, {"api_action": {"action": "MoveAhead"}}, _event({})) is None


def test_the_report_has_a_row_per_action_and_type_and_ends_with_both_figures() -> None:
    def agreement(action: str, target: str, iou: float, picked: str | None,
                  offset: tuple[float, float] = (0.0, 0.0)) -> masks.MaskAgreement:
        return masks.MaskAgreement(Path("t"), 0, action, target, iou, picked, 100, 100, offset)

    demo = masks.DemoMasks(Path("t"), [agreement("PickupObject", APPLE, 0.2, TABLE, (0.0, -4.0)),
                                       agreement("PickupObject", MUG, 0.8, MUG, (2.0, 0.0)),
                                       agreement("PutObject", TABLE, 0.5, TABLE)], unmeasured=2)
    lines = masks.mask_report([demo], "masks_heldout")
    assert lines[0] == "interactions measured: 3 in 1 demos (2 not measured: the replay stopped before them)"
    assert "| PickupObject | 2 | 0.500 | 0.500 | 50% | 0% | 1/2 = 50.0% | 1.00 | +1, -2 |" in lines
    assert any(line.startswith("| Apple | 1 | 0.200 ") for line in lines)
    assert "rule misses (target type <- picked instead): Apple <- DiningTable 1" in lines
    assert lines[-2:] == ["masks_heldout_iou: 0.500", "masks_heldout_rule: 66.6% (2/3)"]
    demo.error = "low_idx 9 PickupObject ...: not visible"
    rows = masks.records([demo])
    assert [r.get("target") for r in rows] == [APPLE, MUG, TABLE, None]
    assert rows[0]["offset"] == [0.0, -4.0] and rows[-1] == {"path": "t", "stopped": demo.error, "unmeasured": 2}


def test_released_demos_measured_in_lite_agree_with_alfreds_rule_where_the_overlap_is_decisive(
        alfred_data: Path) -> None:
    """Two released demos replayed in their rooms: every interaction with a mask is measured or
    counted as not measured; wherever lite's target covers more than half of the union with
    THOR's mask, no other instance can rank above it, so the rule must pick it; and the same
    replay gives the same records."""
    from alfred_gen.fidelity.evidence_pool import EvidencePool
    from alfred_gen.fidelity.held_out import in_sample_jobs

    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    chosen = [p for p in files if "-Fridge-" in p.parent.parent.name][:1] + \
             [p for p in files if p.parent.parent.name.startswith("look_at_obj_in_light")][:1]
    pool = EvidencePool.read(fidelity.sources_for(chosen), chosen)
    jobs = in_sample_jobs(pool, None)
    demos = masks.run_mask_jobs(jobs)
    assert sorted(d.path for d in demos) == sorted(chosen)
    for demo in demos:
        traj = fidelity.load(demo.path)
        with_masks = [low for low in traj["plan"]["low_actions"]
                      if masks.target_of(low["api_action"]) and low["discrete_action"]["args"].get("mask")]
        assert len(demo.measured) + demo.unmeasured == len(with_masks) > 0
        for found in demo.measured:
            assert 0.0 <= found.iou <= 1.0 and found.thor_pixels > 0
            if found.iou > 0.5:
                assert found.right, found
    assert any(f.iou > 0.5 for d in demos for f in d.measured)
    assert masks.run_mask_jobs(jobs) == demos
