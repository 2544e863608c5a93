"""A room's sink basin lays a long thing the way most of its demos' masks show (issue 69)."""

from __future__ import annotations

import json
from dataclasses import replace

from alfred_gen.scenes.alfred.put_headings import HeadingFact, room_put_headings
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, SceneObject
from tests.helpers.sim_actions import put_held_at_yaw

BASIN = "Sink|+00.00|+00.90|+00.00|SinkBasin"


def _fact(kind: str, rotation: float, heading: float, receptacle: str = BASIN) -> HeadingFact:
    return HeadingFact(receptacle, kind, (0.0, 0.0, rotation, 45.0), heading)


def test_a_facts_turns_are_from_the_way_the_agent_faced() -> None:
    assert _fact("Knife", 90.0, 90.0).turns == 0  # along the sight
    assert _fact("Knife", 90.0, 180.0).turns == 1  # to the agent's right
    assert _fact("Knife", 270.0, 0.0).turns == 1
    assert _fact("Spoon", 0.0, 270.0).turns == 3
    fact = _fact("Ladle", 180.0, 0.0)
    assert HeadingFact.from_list(json.loads(json.dumps(fact.to_list()))) == fact


def test_the_room_lays_each_type_the_way_most_of_its_facts_show() -> None:
    facts = [_fact("Fork", 0.0, 90.0), _fact("Fork", 90.0, 180.0), _fact("Fork", 0.0, 0.0),  # 2 across, 1 along
             _fact("Knife", 0.0, 0.0), _fact("Knife", 0.0, 90.0),  # a tie: none
             _fact("Ladle", 0.0, 0.0), _fact("Ladle", 0.0, 180.0), _fact("Ladle", 0.0, 180.0),  # head towards
             _fact("Spatula", 0.0, 0.0, receptacle="Sink|+01.00|+00.90|+00.00|SinkBasin")]
    assert room_put_headings(facts) == {
        BASIN: (("Fork", (1.0,)), ("Ladle", (2.0,))),
        "Sink|+01.00|+00.90|+00.00|SinkBasin": (("Spatula", (0.0,)),),
    }
    # Between the two ends of the majority's axis, a tie takes the lesser turn.
    assert room_put_headings([_fact("Fork", 0.0, 90.0), _fact("Fork", 0.0, 270.0)]) == {BASIN: (("Fork", (1.0,)),)}


def _put_the_knife(turns: float, pose: tuple[float, float, float, float], file_heading: float | None = None) -> float:
    """The kitchen as an imported room whose sink basin lays knives ``turns`` quarter turns from the
    way the agent faces (and, given, the replayed file's own heading from ``pose``): put the knife
    (its box long in z, held at yaw 0) into the basin from ``pose``; its yaw after."""
    scene = replace(fixtures.kitchen(), camera=ALFRED_CAMERA)
    basin = next(o for o in scene.objects if o.object_type == "SinkBasin")
    own = (() if file_heading is None else (("Knife", (*pose, file_heading)),))
    objects = [replace(o, put_headings=(("Knife", (turns,)),), file_put_headings=own) if o is basin else o
               for o in scene.objects]
    declared = next(o for o in objects if o.object_id == basin.object_id)
    assert SceneObject.from_dict(json.loads(json.dumps(declared.to_dict()))) == declared
    sim = LiteController(replace(scene, objects=objects))
    return put_held_at_yaw(sim, "Knife", 0.0, pose, basin.object_id)


def test_a_knife_put_into_the_basin_lies_the_way_the_room_lays_knives_from_any_pose() -> None:
    assert _put_the_knife(1.0, (-0.5, 1.25, 0.0, 45.0)) == 90.0  # across the sight: a quarter turn
    assert _put_the_knife(1.0, (-0.5, 1.25, 0.0, 30.0)) == 90.0
    assert _put_the_knife(0.0, (-0.5, 1.25, 0.0, 45.0)) == 0.0  # along it: as held
    # The replayed file's own heading from the pose of the put comes first.
    assert _put_the_knife(1.0, (-0.5, 1.25, 0.0, 45.0), file_heading=0.0) == 0.0
