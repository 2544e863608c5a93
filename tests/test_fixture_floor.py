"""Which stretch of wall a rule-placed floor fixture stands by (gen/scenes/alfred/fixture_floor.py).

Synthetic square rooms (2 x 2 m of walked floor): the far way always picks the corner at the
lowest (x, z), so where the train rooms' garbage cans stand decides whether a way by the toilet
earns its place."""

from __future__ import annotations

import math

from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.fixture_floor import BY, FAR, HIT, corners
from alfred_gen.scenes.alfred.fixture_rules import learn_fixture_rules, rule_positions
from alfred_gen.sim.scene import format_object_id

FLOOR_POINTS = [(x * 0.25, z * 0.25) for x in range(9) for z in range(9)]
FAR_CORNER = (0.0, 0.0)


def _room(number: int, toilet: tuple[float, float] | None, can: tuple[float, float] | None) -> SceneEvidence:
    """A bathroom with a toilet by the corner ``toilet`` (outside the walked floor) and, with demos,
    a garbage can on the floor by the corner ``can``."""
    room = SceneEvidence(number, layout_points=list(FLOOR_POINTS), types_present=["GarbageCan", "Toilet"])
    if toilet is not None:
        out = [0.6 if c > 1 else -0.6 for c in toilet]
        room.openable[format_object_id("Toilet", (toilet[0] + out[0], 0.0, toilet[1] + out[1]))] = [0.0]
    if can is not None:
        out = [0.3 if c > 1 else -0.3 for c in can]
        room.static_ids.add(format_object_id("GarbageCan", (can[0] + out[0], 0.0, can[1] + out[1])))
        room.trajectories = 1
    return room


CORNERS = [(2.0, 2.0), (0.0, 2.0), (2.0, 0.0)]


def test_the_corners_of_a_square_floor_face_out_of_it() -> None:
    spots = dict(corners(FLOOR_POINTS))
    assert sorted(spots) == sorted([FAR_CORNER, *CORNERS])
    assert all(math.isclose(math.hypot(*u), 1.0) for u in spots.values())
    assert spots[(2.0, 2.0)][0] > 0 and spots[(2.0, 2.0)][1] > 0


def test_a_way_by_a_host_type_is_kept_where_it_finds_more_than_the_far_way() -> None:
    train = [_room(400 + i, corner, corner) for i, corner in enumerate(CORNERS)]  # cans by the toilets
    rule = learn_fixture_rules(train)["GarbageCan"]
    by_toilet, far = rule.placements
    assert (by_toilet.host, far.host) == (BY + "Toilet", FAR)
    assert (by_toilet.used, by_toilet.offered) == (len(CORNERS), len(CORNERS))
    assert (far.used, far.offered) == (0, len(CORNERS))
    assert f"found in {len(CORNERS)} of {len(CORNERS)} rooms tried" in rule.describe()
    for corner in CORNERS:
        (spot,) = rule_positions(_room(900, corner, None), rule)
        assert math.hypot(spot[0] - corner[0], spot[2] - corner[1]) <= HIT and spot[1] == 0.0
    (spot,) = rule_positions(_room(901, None, None), rule)  # no toilet: the far corner
    assert math.hypot(spot[0] - FAR_CORNER[0], spot[2] - FAR_CORNER[1]) <= HIT


def test_a_way_no_better_than_the_far_corner_is_no_rule() -> None:
    train = [_room(400 + i, corner, FAR_CORNER) for i, corner in enumerate(CORNERS)]  # cans away from the toilets
    rule = learn_fixture_rules(train)["GarbageCan"]
    assert [p.host for p in rule.placements] == [FAR]
    assert (rule.placements[0].used, rule.placements[0].offered) == (len(CORNERS), len(CORNERS))


def test_two_floor_fixtures_sent_to_the_same_corner_stand_apart() -> None:
    from alfred_gen.scenes.alfred.evidence import id_position
    from alfred_gen.scenes.alfred.fixture_rules import with_rule_fixtures

    train = []
    for i, kind in enumerate(("GarbageCan", "FloorLamp", "GarbageCan", "FloorLamp")):
        room = SceneEvidence(500 + i, layout_points=list(FLOOR_POINTS), trajectories=1)
        room.static_ids.add(format_object_id(kind, (-0.3, 0.0, -0.3)))  # both in the far corner
        train.append(room)
    rules = learn_fixture_rules(train)
    assert [p.host for p in rules["GarbageCan"].placements] == [p.host for p in rules["FloorLamp"].placements] == [FAR]
    bare = SceneEvidence(999, layout_points=list(FLOOR_POINTS), types_present=["GarbageCan", "FloorLamp"])
    _, ids = with_rule_fixtures(bare, rules)
    a, b = (id_position(i) for i in ids)
    assert len(ids) == 2 and math.hypot(a[0] - b[0], a[2] - b[2]) > 0.5  # wider than either
