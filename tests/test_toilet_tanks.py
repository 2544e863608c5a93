"""A toilet faces away from its tank, where its demos stand things (alfred_gen.scenes.alfred.toilet_tanks)."""

from __future__ import annotations

import pytest

from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.importer import build_scene
from alfred_gen.scenes.alfred.toilet_tanks import tank_side, toilets_face_from_their_tanks

#: FloorPlan403's toilet: its demos stand a soap bottle, a candle and a cloth on its tank, 0.33 m
#: to its -z, and the agent puts things on it from its +x side.
TOILET = "Toilet|-00.70|+00.03|+00.66"
ON_TANK = [(-0.63, 1.07, 0.30), (-0.72, 1.05, 0.34), (-0.70, 1.10, 0.31)]
FROM_BESIDE = [0.25, 0.75, 270.0, 15.0]


def test_the_tank_is_on_the_side_where_things_stand_over_the_toilet() -> None:
    assert tank_side(TOILET, ON_TANK) == (2, -1)
    turned = [(-0.70 + (z - 0.66), y, 0.66 - (x + 0.70)) for x, y, z in ON_TANK]  # a quarter turn: tank to -x
    assert tank_side(TOILET, turned) == (0, -1)


def test_no_side_without_clear_evidence_on_the_tank() -> None:
    assert tank_side(TOILET, []) is None
    assert tank_side(TOILET, [(-0.70, 0.45, 0.30)]) is None  # on the seat, not the tank
    assert tank_side(TOILET, [(-0.70, 1.90, 0.30)]) is None  # on a shelf over the toilet
    assert tank_side(TOILET, [(-0.70, 1.05, -0.10)]) is None  # on something 0.76 m away
    assert tank_side(TOILET, [(-0.60, 1.05, 0.56)]) is None  # about its middle: no side to tell
    assert tank_side(TOILET, [(-0.45, 1.05, 0.45)]) is None  # as far to +x as to -z


def test_a_toilet_used_from_beside_it_faces_away_from_its_tank() -> None:
    objects = {"SoapBottle_0a": [(ON_TANK[0], 0.0)], "Candle_0b": [(ON_TANK[1], 90.0)], "Cloth_0c": [(ON_TANK[2], 0.0)]}
    poses = toilets_face_from_their_tanks({TOILET: [FROM_BESIDE], "Sink|-01.00|+00.90|+02.00": [FROM_BESIDE]}, objects)
    assert poses["Sink|-01.00|+00.90|+02.00"] == [FROM_BESIDE]
    first = poses[TOILET][0]
    assert first[2] == 180.0 and first[3] == FROM_BESIDE[3]  # heading to its tank, at -z
    assert first[:2] == pytest.approx([-0.70, 1.66])
    assert poses[TOILET][1:] == [FROM_BESIDE]


def _bathroom() -> SceneEvidence:
    evidence = SceneEvidence(403)
    evidence.layout_points = [(x * 0.25, z * 0.25) for x in range(0, 6) for z in range(-1, 10)]
    evidence.static_ids = {TOILET}
    evidence.used_from = {TOILET: [FROM_BESIDE]}
    evidence.objects = {"SoapBottle_0a": [(ON_TANK[0], 0.0)], "Candle_0b": [(ON_TANK[1], 90.0)]}
    evidence.agent_ys = [0.9009997]
    return evidence


def test_the_built_toilet_turns_its_back_to_its_tank_unless_the_pass_is_off() -> None:
    toilet = build_scene(_bathroom()).object(TOILET)
    assert toilet.rotation[1] == 0.0
    before = build_scene(_bathroom(), without=frozenset({"toilets_face_from_their_tanks"})).object(TOILET)
    assert before.rotation[1] == 90.0
