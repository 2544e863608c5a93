"""Which pickups land where no other fold's demo shows (alfred_gen.fidelity.landing_evidence)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alfred_gen.fidelity.evidence_pool import EvidencePool, Released
from alfred_gen.fidelity.landing_evidence import SHOWN_WITHIN, put_before, unshown_landings
from alfred_gen.fidelity.masks import MaskAgreement
from alfred_gen.scenes.alfred.evidence import TrajectoryFacts
from alfred_gen.scenes.alfred.put_facts import PutFact

FRIDGE = "Fridge|-01.50|+00.00|-00.70"
APPLE = "Apple|+00.20|+00.95|-01.10"
POSE = (-0.75, -0.5, 270.0, 30.0)


def _low(action: str, object_id: str, receptacle: str | None = None) -> dict[str, Any]:
    api: dict[str, Any] = {"action": action, "objectId": object_id}
    if receptacle is not None:
        api["receptacleObjectId"] = receptacle
    return {"api_action": api}


#: Pick the apple up, put it into the fridge, open, pick it up again (low action 3).
COOL = [_low("PickupObject", APPLE), _low("PutObject", APPLE, FRIDGE), _low("OpenObject", FRIDGE),
        _low("PickupObject", APPLE)]


def _demo(name: str, landing: tuple[float, float, float] | None, room: int = 1) -> Released:
    puts = [] if landing is None else [PutFact(FRIDGE, "Apple", POSE, landing)]
    facts = TrajectoryFacts(room, 0.9, [], [], [], [], puts=puts)
    return Released(Path(name), facts)


def _pickup(name: str, right: bool = False) -> MaskAgreement:
    return MaskAgreement(Path(name), 3, "PickupObject", APPLE, 0.0, APPLE if right else FRIDGE, 100, 100)


def _unshown(demos: list[Released], folds: dict[str, int], items: list[MaskAgreement]) -> list[str]:
    pool = EvidencePool(layouts={}, demos=demos)
    fold_of = {Path(k): v for k, v in folds.items()}
    return [str(a.path) for a in unshown_landings(pool, fold_of, items, read=lambda _: {"plan": {"low_actions": COOL}})]


def test_put_before_names_the_receptacle_until_the_thing_is_picked_up_again() -> None:
    assert put_before(COOL, 3, APPLE) == FRIDGE
    assert put_before(COOL, 1, APPLE) is None  # not put yet
    assert put_before([*COOL, _low("CloseObject", FRIDGE)], 5, APPLE) is None  # picked up again at 3
    assert put_before([*COOL, _low("PutObject", APPLE, "Plate|+00.10|+00.90|-01.00")], 5, APPLE) \
        == "Plate|+00.10|+00.90|-01.00"
    assert put_before(COOL, 3, "Mug|+00.00|+00.90|-01.00") is None


def test_a_landing_another_fold_shows_is_not_counted_and_one_no_fold_shows_is() -> None:
    near = (0.1 + SHOWN_WITHIN / 2, 1.2, -0.6)
    demos = [_demo("a", (0.1, 1.2, -0.6)), _demo("b", near), _demo("c", (0.6, 1.2, -0.6))]
    folds = {"a": 0, "b": 1, "c": 2}
    assert _unshown(demos, folds, [_pickup("a"), _pickup("b"), _pickup("c")]) == ["c"]


def test_a_landing_only_the_same_fold_shows_is_unshown() -> None:
    demos = [_demo("a", (0.1, 1.2, -0.6)), _demo("b", (0.1, 1.2, -0.6))]
    assert _unshown(demos, {"a": 0, "b": 0}, [_pickup("a")]) == ["a"]
    assert _unshown(demos, {"a": 0, "b": 1}, [_pickup("a")]) == []


def test_other_rooms_other_poses_and_other_actions_do_not_count() -> None:
    elsewhere = _demo("b", (0.1, 1.2, -0.6), room=2)
    assert _unshown([_demo("a", (0.1, 1.2, -0.6)), elsewhere], {"a": 0, "b": 1}, [_pickup("a")]) == ["a"]
    other_pose = Released(Path("b"), TrajectoryFacts(1, 0.9, [], [], [], [], puts=[
        PutFact(FRIDGE, "Apple", (0.0, 0.0, 90.0, 30.0), (0.1, 1.2, -0.6))]))
    assert _unshown([_demo("a", (0.1, 1.2, -0.6)), other_pose], {"a": 0, "b": 1}, [_pickup("a")]) == ["a"]
    put = MaskAgreement(Path("a"), 1, "PutObject", FRIDGE, 0.5, FRIDGE, 100, 100)
    assert _unshown([_demo("a", (0.1, 1.2, -0.6))], {"a": 0}, [put]) == []


def test_a_pickup_without_its_own_put_fact_is_not_counted() -> None:
    assert _unshown([_demo("a", None), _demo("b", (0.1, 1.2, -0.6))], {"a": 0, "b": 1}, [_pickup("a")]) == []
