"""Which host a rule-placed fixture stands on (gen/scenes/alfred/fixture_rules.py).

Synthetic rooms, so the counts the rules keep can be derived here from what the rooms hold."""

from __future__ import annotations

import math
from collections import Counter

from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.scenes.alfred.fixture_rules import MIN_SUPPORT, learn_fixture_rules, rule_positions, with_rule_fixtures
from alfred_gen.sim.scene import format_object_id

FLOOR_POINTS = [(x * 0.25, z * 0.25) for x in range(-4, 5) for z in range(-4, 5)]


def _room(number: int, hosts: dict[str, tuple[float, float, float]], lamp_on: str | None) -> SceneEvidence:
    """A bedroom with ``hosts`` (type -> id position) and, when ``lamp_on`` names one, a desk lamp's
    id 0.8 m over it, its drawer nearer the lamp than the host's own id (a desk's drawer)."""
    room = SceneEvidence(number, layout_points=list(FLOOR_POINTS), types_present=["DeskLamp", *hosts])
    for kind, position in hosts.items():
        room.openable[format_object_id(kind, position)] = [0.0]
    if lamp_on is not None:
        x, y, z = hosts[lamp_on]
        room.openable[format_object_id("Drawer", (x + 0.1, y + 0.6, z))] = [0.0]
        room.static_ids.add(format_object_id("DeskLamp", (x + 0.15, y + 0.8, z)))
        room.trajectories = 1
    return room


DESK, SIDE = (1.4, 0.0, 0.0), (-1.4, 0.0, 0.5)
#: (hosts, which one the lamp stands on): the side table wins in 2 of the 2 rooms that have one,
#: the desk in 3 of the 5 that have one: more ids on desks, a larger share on side tables.
TRAIN = [
    ({"Desk": DESK}, "Desk"),
    ({"Desk": DESK}, "Desk"),
    ({"Desk": DESK}, "Desk"),
    ({"Desk": DESK, "SideTable": SIDE}, "SideTable"),
    ({"Desk": DESK, "SideTable": SIDE}, "SideTable"),
    ({"Desk": DESK, "Dresser": SIDE}, "Dresser"),
]


def _rules() -> dict:
    return learn_fixture_rules([_room(n, hosts, on) for n, (hosts, on) in enumerate(TRAIN, start=300)])


def test_each_lamp_counts_once_for_what_it_stands_on_never_the_drawer_under_it() -> None:
    rule = _rules()["DeskLamp"]
    hosts = {p.host for p in rule.placements}
    assert "Drawer" not in hosts
    used = Counter(on for _, on in TRAIN)
    assert used["Dresser"] < MIN_SUPPORT and not any(h.startswith("Dresser") for h in hosts)  # one room: no rule
    assert sum(p.support for p in rule.placements) == sum(n for n in used.values() if n >= MIN_SUPPORT)  # once each
    for placement in rule.placements:
        base = placement.host.removesuffix(" on the floor")
        assert placement.used == sum(1 for _, on in TRAIN if on == base)
        assert placement.offered == sum(1 for hosts, _ in TRAIN if base in hosts)
        assert math.isclose(placement.height, 0.8, abs_tol=0.01)


def test_host_types_are_ranked_by_the_share_of_rooms_that_have_one() -> None:
    rule = _rules()["DeskLamp"]
    shares = [p.share for p in rule.placements]
    assert shares == sorted(shares, reverse=True)
    first = rule.placements[0]
    assert first.host.startswith("SideTable") and first.support < max(p.support for p in rule.placements)
    assert "in 2 of 2 rooms" in rule.describe()


def test_a_room_without_demos_gets_its_lamp_on_the_best_ranked_host_it_has() -> None:
    rules = _rules()
    both = _room(900, {"Desk": DESK, "SideTable": SIDE}, None)
    desk_only = _room(901, {"Desk": DESK}, None)
    for room, host in ((both, SIDE), (desk_only, DESK)):
        (lamp,) = rule_positions(room, rules["DeskLamp"])
        assert math.hypot(lamp[0] - host[0], lamp[2] - host[2]) < 0.5
        placed, ids = with_rule_fixtures(room, rules)
        (placed_lamp,) = [id_position(i) for i in ids if i.startswith("DeskLamp|")]
        assert math.dist(placed_lamp, lamp) < 0.01 and placed is not room
    assert with_rule_fixtures(_room(902, {"Dresser": SIDE}, "Dresser"), rules)[1] == []  # it has demos


def _kitchen(number: int, base_x: float, burner: bool) -> SceneEvidence:
    """A kitchen with a wall cabinet (id 2.0 m up, first by id) and a base cabinet (0.4 m up) at
    ``base_x``; with demos, a stove burner 0.55 m over the base cabinet."""
    room = SceneEvidence(number, layout_points=list(FLOOR_POINTS), types_present=["StoveBurner", "Cabinet"])
    room.openable[format_object_id("Cabinet", (0.5, 2.0, 0.0))] = [0.0]
    room.openable[format_object_id("Cabinet", (base_x, 0.4, 0.0))] = [0.0]
    if burner:
        room.static_ids.add(format_object_id("StoveBurner", (base_x + 0.1, 0.95, 0.0)))
        room.trajectories = 1
    return room


def test_a_fixture_goes_over_the_hosts_at_the_level_its_train_hosts_stand_at() -> None:
    rules = learn_fixture_rules([_kitchen(n, 1.4, True) for n in (1, 2)])
    (placement,) = rules["StoveBurner"].placements
    assert placement.host == "Cabinet" and math.isclose(placement.level, 0.4, abs_tol=0.01)
    kitchen = _kitchen(900, 1.2, False)
    assert sorted(kitchen.openable)[0].endswith("+02.00|+00.00")  # the wall cabinet comes first by id
    (burner,) = rule_positions(kitchen, rules["StoveBurner"])
    assert math.isclose(burner[1], 0.95, abs_tol=0.02) and abs(burner[0] - 1.2) < 0.5  # not over the wall cabinet
