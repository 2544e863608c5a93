"""The landing rules of a put (alfred_gen.sim.put_landing): what counts as seen, what ranks the
seen spots, and which receptacles use which rule."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from alfred_gen.sim import put_landing
from alfred_gen.sim.put_landing import check_rule, choose_landing, rule_for

HAND = (0.0, 1.2, 0.4)


def _world(imported: bool = True) -> Any:
    agent = SimpleNamespace(x=0.0, y=0.9, z=0.0)
    return SimpleNamespace(agent=agent, hand_center=lambda: HAND,
                           scene=SimpleNamespace(from_alfred=imported))


def _basin(kind: str = "SinkBasin") -> Any:
    return SimpleNamespace(type_name=kind, center=(0.0, 0.8, 1.0), size=(0.4, 0.2, 0.4))


def _oven() -> Any:
    return SimpleNamespace(type_name="Microwave", center=(0.0, 0.8, 1.0), size=(0.5, 0.3, 0.4), children=[])


# a row of spots from the basin's front (z 0.85, nearest the agent) to its back (z 1.15)
PLACES = [(0.0, 0.75, z) for z in (0.85, 0.95, 1.05, 1.15)]
FEET = [(x, 0.71, z) for x, _, z in PLACES]


def _sight(hidden: set[tuple[float, float, float]]) -> Any:
    """The agent sees every point but ``hidden``; the calls are kept for inspection."""
    calls: list[list[tuple[float, float, float]]] = []

    def sight(points: list[tuple[float, float, float]]) -> list[bool]:
        calls.append(points)
        return [p not in hidden for p in points]

    sight.calls = calls  # type: ignore[attr-defined]
    return sight


def test_the_surface_rule_counts_a_spot_seen_only_when_its_foot_is() -> None:
    # The front rim hides the basin floor just behind it; the object's middle rises over the rim.
    hidden = {FEET[0], FEET[1]}
    world, basin = _world(), _basin()
    assert choose_landing("hand", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(hidden)) == PLACES[0]
    assert choose_landing("surface", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(hidden)) == PLACES[2]


def test_nothing_seen_falls_back_to_the_first_level() -> None:
    upper = [(x, 1.0, z) for x, _, z in PLACES]
    feet = FEET + [(x, 0.96, z) for x, _, z in upper]
    everything = set(PLACES + upper + feet)
    got = choose_landing("surface", _world(), _basin(), (0.03, 0.03), 0.7, PLACES + upper, feet, _sight(everything))
    assert got in PLACES


def test_no_foot_seen_falls_back_to_the_spots_whose_middle_is_seen() -> None:
    # A basin's front wall hides its whole floor (lite's box-size basin in a room completed from the
    # file, FloorPlan25): the spots whose risen middle clears the rim are the candidates, not every
    # spot (the nearest the body, behind the wall, then out of sight).
    hidden = set(FEET) | {PLACES[0], PLACES[1]}
    world, basin = _world(), _basin()
    got = choose_landing("surface_body@0.05", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(hidden))
    assert got == PLACES[2]


def test_the_inset_rule_keeps_the_footprint_off_the_receptacles_edge() -> None:
    # The basin spans z 0.8-1.2; a 0.06 m deep object at z 0.85 touches the front edge.
    world, basin = _world(), _basin()
    got = choose_landing("surface_inset", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    assert got == PLACES[1]
    assert abs(got[2] - basin.center[2]) <= basin.size[2] / 2 - 0.03 - put_landing.INSET + 1e-9


def test_the_anchor_ranks_the_seen_spots() -> None:
    world, basin = _world(), _basin()
    assert choose_landing("surface", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set())) == PLACES[0]
    middle = choose_landing("surface_middle", world, basin, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    assert middle in (PLACES[1], PLACES[2])  # the two spots 0.05 m either side of the middle


def test_rules_by_receptacle_and_room() -> None:
    # Imported rooms: basins and microwaves have THOR's fitted rules; procedural rooms keep the hand.
    assert rule_for(_world(imported=True), _basin("Microwave")) == "cavity_sight_plate"
    assert rule_for(_world(imported=True), _basin("SinkBasin")) == "typed_point_line@0.05"
    assert rule_for(_world(imported=False), _basin("Microwave")) == "hand"
    assert rule_for(_world(imported=False), _basin("SinkBasin")) == "hand"
    assert rule_for(_world(imported=True), _basin("Fridge")) == "point_shelf"
    assert rule_for(_world(imported=False), _basin("Fridge")) == "hand"
    assert rule_for(_world(imported=True), _basin("CounterTop")) == "hand"


def test_bowls_and_pans_land_things_in_their_middle_in_imported_rooms_only() -> None:
    # THOR's masks of a bowl or pan picked up after a put show its content in the middle; a plate
    # (flat) and a pot keep the hand's rule, as every receptacle of a procedural room does.
    for kind in ("Bowl", "Pan"):
        assert rule_for(_world(imported=True), _basin(kind)) == "middle"
        assert rule_for(_world(imported=False), _basin(kind)) == "hand"
    for kind in ("Plate", "Pot", "Mug", "Cup", "Box"):
        assert rule_for(_world(imported=True), _basin(kind)) == "hand"


def test_the_plate_rule_lifts_the_object_off_the_drawn_floor() -> None:
    world, oven = _world(), _basin("Microwave")
    got = choose_landing("middle_plate", world, oven, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    plain = choose_landing("middle", world, oven, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    assert (got[0], got[2]) == (plain[0], plain[2])
    assert got[1] == pytest.approx(plain[1] + put_landing.PLATE_RISE)


def test_the_plate_rule_rests_the_object_where_thors_start_states_rest_things_in_a_microwave() -> None:
    # An imported microwave's box stands BASE_ABOVE_ID over its id and lite draws its floor; THOR's
    # start states rest mugs, cups and bowls 0.10-0.11 m over the id, hung or on a counter alike: a
    # put object's bottom goes there (a higher rise drew it above THOR's mask in hung microwaves).
    from alfred_gen.scenes.alfred.mask_heights import BASE_ABOVE_ID
    from alfred_gen.sim.shapes import inner_floor
    height = 0.353  # the catalogue's microwave
    bottom = BASE_ABOVE_ID["Microwave"] + inner_floor("Microwave", height) + put_landing.PLATE_RISE
    assert bottom == pytest.approx(0.11, abs=0.005)


def test_the_plate_rise_can_be_named_with_the_rule() -> None:
    world, oven = _world(), _basin("Microwave")
    plain = choose_landing("middle", world, oven, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    got = choose_landing("middle_plate@0.05", world, oven, (0.03, 0.03), 0.7, PLACES, FEET, _sight(set()))
    assert got[1] == pytest.approx(plain[1] + 0.05)


def test_overrides_name_a_rule_per_receptacle_type() -> None:
    # The landing bench forces a rule on the measured types only; the rest keep the registry's.
    world = _world()
    overrides = {"SinkBasin": "surface_body"}
    assert rule_for(world, _basin("SinkBasin"), overrides) == "surface_body"
    assert rule_for(world, _basin("Microwave"), overrides) == "cavity_sight_plate"
    assert rule_for(world, _basin("SinkBasin")) == "typed_point_line@0.05"


def test_unknown_rules_are_refused() -> None:
    assert check_rule("middle_plate@0.05") == "middle_plate@0.05"
    assert check_rule("hand@0.05") == "hand@0.05"  # any rule may name a rise
    for bad in ("nearest_the_moon", "typed_point_rise", "middle_plate@high"):
        with pytest.raises(ValueError):
            check_rule(bad)


def test_the_cavity_rules_keep_to_the_left_of_the_control_panel() -> None:
    # The agent looks along +z at a microwave 0.5 m wide: its left is -x, the panel on the right (+x).
    world, oven = _world(), _oven()
    world.agent.rotation = 0
    row = [(x, 0.75, 0.95) for x in (-0.2, -0.1, 0.0, 0.1, 0.2)]
    feet = [(x, 0.71, z) for x, _, z in row]
    middle = choose_landing("cavity_plate", world, oven, (0.03, 0.03), 0.7, row, feet, _sight(set()))
    assert middle[0] == -0.1  # the cavity's middle: 0.355 of the width from the left end, x -0.0725
    body = choose_landing("cavity_body_plate", world, oven, (0.03, 0.03), 0.7, row, feet, _sight(set()))
    assert body[0] in (-0.1, 0.0)  # nearest the agent's body (x 0) within the cavity
    assert body[1] == pytest.approx(0.75 + put_landing.PLATE_RISE)
    world.agent.rotation = 180  # looking along -z from the other side: the left is +x
    assert choose_landing("cavity_plate", world, oven, (0.03, 0.03), 0.7, row, feet, _sight(set()))[0] == 0.1


def test_a_cavity_rule_keeps_to_the_cavity_when_no_spot_is_seen() -> None:
    # A microwave above the eye hides its whole floor: every spot is a candidate, and the one nearest
    # the agent's body (standing before the control panel, x 0.2) must still lie in the cavity.
    world, oven = _world(), _oven()
    world.agent.rotation, world.agent.x = 0, 0.2
    row = [(x, 0.75, 0.95) for x in (-0.2, -0.1, 0.0, 0.1, 0.2)]
    feet = [(x, 0.71, z) for x, _, z in row]
    got = choose_landing("cavity_body_plate", world, oven, (0.03, 0.03), 0.7, row, feet, _sight(set(row + feet)))
    right_end = -0.25 + put_landing.CAVITY[1] * 0.5 - 0.03
    assert got[0] <= right_end
    assert got[0] == max(x for x, _, _ in row if x <= right_end)


def test_a_cavity_rule_keeps_behind_the_front_share_of_the_depth() -> None:
    # The agent at z 0 looks along +z into a microwave whose box spans z 0.8-1.2: the spot nearest
    # its body lies against the front, THOR's spawn points lie behind the door's frame.
    world, oven = _world(), _oven()
    world.agent.rotation = 0
    column = [(0.0, 0.75, z) for z in (0.84, 0.9, 0.96, 1.02, 1.08, 1.14)]
    feet = [(x, 0.71, z) for x, _, z in column]
    got = choose_landing("cavity_body_plate", world, oven, (0.03, 0.03), 0.7, column, feet, _sight(set()))
    nearest = 0.8 + put_landing.CAVITY_DEPTH[0] * 0.4 + 0.03
    assert got[2] == min(z for _, _, z in column if z >= nearest - 1e-9)
    world.agent.rotation, world.agent.z = 180, 2.0  # from behind, the front is the far side
    got = choose_landing("cavity_body_plate", world, oven, (0.03, 0.03), 0.7, column, feet, _sight(set()))
    assert got[2] == max(z for _, _, z in column if z <= 1.2 - put_landing.CAVITY_DEPTH[0] * 0.4 - 0.03 + 1e-9)


def test_a_cavity_rule_goes_deeper_before_it_goes_aside_after_a_knife_was_put_in(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The agent at z 0.5 looks along +z into a microwave; a knife put before took the front middle
    # spot (z 0.95). THOR then puts behind it: a spot 5 cm deeper wins over one 15 cm aside, though
    # the one aside is nearer the body by plain distance.
    world, oven = _world(), _oven()
    world.by_id = {"knife": SimpleNamespace(type_name="Knife"), "cup": SimpleNamespace(type_name="Cup")}
    oven.children = ["knife"]
    world.agent.rotation, world.agent.z = 0, 0.5
    spots = [(-0.15, 0.75, 0.95), (0.0, 0.75, 1.0), (0.15, 0.75, 0.95)]
    feet = [(x, 0.71, z) for x, _, z in spots]

    def land() -> tuple[float, float, float]:
        return choose_landing("cavity_body_plate", world, oven, (0.03, 0.03), 0.7, spots, feet, _sight(set()))

    assert (land()[0], land()[2]) == (0.0, 1.0)
    # What stood there from the start (a cup), or nothing of the blades, keeps plain distance:
    # aside (the wide sample's Cup-None-Cabinet-25 and Apple-None-DiningTable-24 lost otherwise).
    oven.children = ["cup"]
    assert land()[2] == 0.95
    oven.children = ["knife"]
    monkeypatch.setattr(put_landing, "CAVITY_ACROSS_WEIGHT", 1.0)
    assert land()[2] == 0.95
    # Across is along x for an agent looking along +z, along z for one looking along +x.
    world.agent.rotation, world.agent.x, world.agent.z = 90, 0.5, 1.0
    monkeypatch.setattr(put_landing, "CAVITY_ACROSS_WEIGHT", 2.0)
    oven.center = (1.0, 0.8, 1.0)
    spots = [(0.95, 0.75, 0.85), (1.0, 0.75, 1.0), (0.95, 0.75, 1.15)]
    feet = [(x, 0.71, z) for x, _, z in spots]
    assert (land()[0], land()[2]) == (1.0, 1.0)


def _world_with_a_point(point: Any) -> Any:
    world = _world()
    world.camera_y_offset = 0.675  # the eye at y 1.575 over (0, 0)
    world.put_point = lambda receptacle, kind, any_type=True: point
    world.file_put_point = lambda receptacle, kind: None
    world.put_places_here = lambda receptacle, kind: []
    world.put_matches_here = lambda receptacle, kind: []
    world.support_levels = lambda receptacle: [0.72]
    return world


def test_the_sight_line_anchor_slides_thors_point_down_to_the_objects_middle() -> None:
    world = _world_with_a_point(None)
    # The eye at (0, 1.575, 0); a point read too far along the line, 0.3 m above the floor's middles.
    got = put_landing.sight_line_anchor(world, (0.0, 0.45, 1.5), 0.75)
    assert got[1] == 0.75
    assert got[2] == pytest.approx(1.5 * (1.575 - 0.75) / (1.575 - 0.45))
    # A line that does not come down says nothing about a floor: the point stays.
    assert put_landing.sight_line_anchor(world, (0.0, 1.6, 1.5), 0.75) == (0.0, 1.6, 1.5)


def test_the_point_rule_of_a_basin_lands_on_thors_line_of_sight() -> None:
    # THOR's point lies on the line through z 1.08 at the object's middle height (0.75 over a 0.72
    # floor for a 0.06 m object), read 0.2 m too far: the spot at z 1.05 is nearest that line.
    eye_y, middle_y = 1.575, 0.75
    far = 1.08 * 1.3
    point = (0.0, eye_y - (eye_y - middle_y) * 1.3, far)
    world, basin = _world_with_a_point(point), _basin()
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06))
    spots = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]
    got = put_landing.land("surface_point", world, basin, held, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 1.05))
    # No point known for the pose: nearest the agent's body, as surface_body.
    world.put_point = lambda receptacle, kind, any_type=True: None
    got = put_landing.land("surface_point", world, basin, held, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 0.85))


def test_the_typed_point_rule_uses_the_held_types_own_point_only() -> None:
    # Another type's point says little about where THOR's first fitting spot for this one is: with
    # no point of the held type's, the put falls back to surface_body_inset (off the basin's edge).
    world, basin = _world_with_a_point(None), _basin()
    asked: list[bool] = []

    def put_point(receptacle: Any, kind: str, any_type: bool = True) -> Any:
        asked.append(any_type)
        return None

    world.put_point = put_point
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06))
    spots = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]
    got = put_landing.land("typed_point", world, basin, held, spots, _sight(set()))
    assert asked == [False]
    assert got == pytest.approx((0.0, 0.75, 0.95))  # the spot at 0.85 touches the front edge


def test_the_rise_rule_lifts_the_object_and_follows_the_line_to_its_middle_there() -> None:
    # The line from the eye (y 1.575 over z 0) falls 0.7174 per metre: at the object's middle over
    # the floor (0.75) it is at z 1.15; BASIN_RISE higher (0.80) at z 1.08, nearest the spot at 1.05.
    slope = 0.825 / 1.15
    world, basin = _world_with_a_point((0.0, 1.575 - slope * 1.3, 1.3)), _basin()
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06))
    spots = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]
    assert put_landing.BASIN_RISE == 0.05
    assert put_landing.rise_of("typed_point@0.05") == 0.05
    assert put_landing.rise_of("cavity_plate") == put_landing.PLATE_RISE
    assert put_landing.land("typed_point", world, basin, held, spots, _sight(set())) == pytest.approx((0.0, 0.75, 1.15))
    got = put_landing.land("typed_point@0.05", world, basin, held, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.80, 1.05))
    # No point for the pose: off the front edge as typed_point, as high. The sight test stays on
    # the floor: the spots' feet are asked at the floor's height.
    world.put_point = lambda receptacle, kind, any_type=True: None
    sight = _sight(set())
    assert put_landing.land("typed_point@0.05", world, basin, held, spots, sight) == pytest.approx((0.0, 0.80, 0.95))
    assert {round(p[1], 4) for p in sight.calls[0]} == {0.73}


def _basin_holding(*things: Any) -> tuple[Any, Any]:
    """The world with THOR's point whose line comes down at z 1.15 (as above), and a basin holding ``things``."""
    slope = 0.825 / 1.15
    world, basin = _world_with_a_point((0.0, 1.575 - slope * 1.3, 1.3)), _basin()
    world.by_id = {t.object_id: t for t in things}
    basin.children = {t.object_id for t in things}
    return world, basin


SPOTS = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]


@pytest.fixture(autouse=True)
def _no_taken_slack(monkeypatch: pytest.MonkeyPatch) -> None:
    """The basin tests below lay things a few centimetres wide a few centimetres apart: they test
    the taken test's geometry without its slack (:data:`~alfred_gen.sim.put_landing.TAKEN_SLACK`,
    tested on its own)."""
    monkeypatch.setattr(put_landing, "TAKEN_SLACK", 0.0)


def test_a_place_is_taken_only_past_the_slack(monkeypatch: pytest.MonkeyPatch) -> None:
    # A soap bar's footprint meets a sponge's by 3 cm on the axis they overlap least, turned either
    # way: taken without a slack, free with one of 4 cm (lite's catalogue boxes are larger than
    # THOR's colliders), taken again when they overlap by 5 cm.
    sponge = SimpleNamespace(object_id="DishSponge|1", center=(0.0, 0.75, 1.15), size=(0.07, 0.03, 0.14))
    world, basin = _basin_holding(sponge)
    soap = SimpleNamespace(type_name="SoapBar", size=(0.06, 0.03, 0.06), object_id="SoapBar|1")
    place = (0.035, 0.75, 1.15)
    assert put_landing.taken_at(world, basin, soap, place) is True
    monkeypatch.setattr(put_landing, "TAKEN_SLACK", 0.04)
    assert put_landing.taken_at(world, basin, soap, place) is False
    assert put_landing.taken_at(world, basin, soap, (place[0] - 0.02, 0.75, 1.15)) is True


def test_the_clear_rule_gives_up_the_point_when_something_in_the_basin_takes_its_place() -> None:
    # An egg lying where the line comes down (this demo's start state, not the other demos') took
    # THOR's spot: THOR went on nearest the body, as surface_body_inset (0.95: the spot at 0.85
    # touches the front edge). An egg beside the place changes nothing.
    egg = SimpleNamespace(object_id="Egg|1", center=(0.0, 0.75, 1.17), size=(0.05, 0.08, 0.05))
    world, basin = _basin_holding(egg)
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    assert put_landing.land("typed_point", world, basin, held, SPOTS, _sight(set())) == pytest.approx((0.0, 0.75, 1.15))
    got = put_landing.land("typed_point_clear", world, basin, held, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 0.95))
    egg.center = (0.12, 0.75, 1.15)  # footprints apart by 0.065 across: not taken
    got = put_landing.land("typed_point_clear", world, basin, held, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 1.15))


def test_a_flat_thing_in_the_basin_does_not_make_the_clear_rule_give_the_point_up() -> None:
    # A cloth 2 cm high lies where the line comes down: THOR's landings lie on such things, so the
    # point stands (FLAT_HEIGHT); the same footprint 8 cm high (an egg's height) still takes it.
    # The taken test itself still counts the cloth (free_place orders the known places by it).
    cloth = SimpleNamespace(object_id="Cloth|1", center=(0.0, 0.75, 1.17), size=(0.05, 0.02, 0.05))
    world, basin = _basin_holding(cloth)
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    assert put_landing.taken_at(world, basin, held, (0.0, 0.75, 1.15)) is True
    assert put_landing.taken_at(world, basin, held, (0.0, 0.75, 1.15), flat_too=False) is False
    got = put_landing.land("typed_point_clear", world, basin, held, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 1.15))
    cloth.size = (0.05, 0.08, 0.05)
    got = put_landing.land("typed_point_clear", world, basin, held, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 0.95))


def test_a_long_thing_slides_onto_a_flat_thing_but_not_onto_a_standing_one() -> None:
    # The line place of a spoon is taken by a potato, with an egg on its left and a sponge (2.6 cm
    # high) on its right: counting the sponge the spoon slides past the egg (x -0.12, the 1 cm
    # grid's step past touching it at -0.115); without it, onto the sponge beside the potato (0.06).
    potato = SimpleNamespace(object_id="Potato|1", center=(0.0, 0.75, 1.0), size=(0.08, 0.08, 0.12))
    egg = SimpleNamespace(object_id="Egg|1", center=(-0.07, 0.75, 1.0), size=(0.05, 0.08, 0.05))
    sponge = SimpleNamespace(object_id="DishSponge|1", center=(0.07, 0.75, 1.0), size=(0.07, 0.026, 0.14))
    world, basin = _basin_holding(potato, egg, sponge)
    spoon = SimpleNamespace(type_name="Spoon", size=(0.04, 0.02, 0.2), object_id="Spoon|1")
    line = (0.0, 0.75, 1.0)
    assert put_landing.slid_clear(world, basin, spoon, line) == pytest.approx((-0.12, 0.75, 1.0))
    assert put_landing.slid_clear(world, basin, spoon, line, flat_too=False) == pytest.approx((0.06, 0.75, 1.0))


def test_the_replayed_files_own_point_lands_exactly_on_its_line_even_where_a_thing_takes_it() -> None:
    # The egg takes the room's point (above); THOR's landing in this very episode, read from the
    # file's own mask, says its place was free: the clear rule lands exactly where that line comes
    # down to the object's middle (no grid spot, no taken test), with the basin's rise.
    egg = SimpleNamespace(object_id="Egg|1", center=(0.0, 0.75, 1.17), size=(0.05, 0.08, 0.05))
    world, basin = _basin_holding(egg)
    slope = 0.825 / 1.15
    world.file_put_point = lambda receptacle, kind: (0.02, 1.575 - slope * 1.3, 1.3) if kind == "Apple" else None
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    got = put_landing.land("typed_point_clear@0.05", world, basin, held, SPOTS, _sight(set()))
    line = put_landing.sight_line_anchor(world, (0.02, 1.575 - slope * 1.3, 1.3), 0.80)
    assert got == pytest.approx(line) and got[1] == pytest.approx(0.80)
    # Another type has no point of the file's own: the room's rules as before (the egg takes the point).
    other = SimpleNamespace(type_name="Tomato", size=(0.06, 0.06, 0.06), object_id="Tomato|1")
    got = put_landing.land("typed_point_clear", world, basin, other, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 0.95))
    # Rules outside the clear rule ignore it (the fridges' point rule takes it through put_point).
    assert put_landing.land("typed_point", world, basin, held, SPOTS, _sight(set())) == pytest.approx((0.0, 0.75, 1.15))


def test_a_place_a_long_thing_fits_turned_is_not_taken() -> None:
    # A spoon lying across (x) meets the egg 0.09 m to its side; turned a quarter it clears it, as
    # THOR's fit check turns it: the point stands.
    egg = SimpleNamespace(object_id="Egg|1", center=(0.09, 0.75, 1.15), size=(0.04, 0.04, 0.04))
    world, basin = _basin_holding(egg)
    spoon = SimpleNamespace(type_name="Spoon", size=(0.2, 0.02, 0.04), object_id="Spoon|1")
    assert put_landing.taken_at(world, basin, spoon, (0.0, 0.75, 1.15)) is False
    assert put_landing.land("typed_point_clear", world, basin, spoon, SPOTS, _sight(set()))[2] > 1.1
    egg.center = (0.0, 0.75, 1.15)
    assert put_landing.taken_at(world, basin, spoon, (0.0, 0.75, 1.15)) is True


def test_the_clear_rule_lands_a_long_thing_on_the_line_itself_a_round_one_on_the_nearest_spot() -> None:
    # The line comes down to a spoon's middle (0.73 over the 0.72 floor) at z 1.178, between lite's
    # 5 cm grid's spots: a thin strip's mask is a few pixels wide, so the spoon lands on the line;
    # an apple on the nearest spot (1.15), as before. Where a thing takes the place, both fall back.
    world, basin = _basin_holding()
    spoon = SimpleNamespace(type_name="Spoon", size=(0.2, 0.02, 0.04), object_id="Spoon|1")
    apple = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    slope = 0.825 / 1.15
    line = put_landing.sight_line_anchor(world, (0.0, 1.575 - slope * 1.3, 1.3), 0.73)
    assert put_landing.land("typed_point_clear", world, basin, spoon, SPOTS, _sight(set())) == pytest.approx(line)
    assert line[2] == pytest.approx(1.1779, abs=1e-4)
    got = put_landing.land("typed_point_clear", world, basin, apple, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 1.15))
    egg = SimpleNamespace(object_id="Egg|1", center=(0.0, 0.75, 1.17), size=(0.05, 0.08, 0.05))
    world.by_id = {egg.object_id: egg}
    basin.children = {egg.object_id}
    got = put_landing.land("typed_point_clear", world, basin, spoon, SPOTS, _sight(set()))
    assert got[2] in {z for _, z in SPOTS}


def test_the_line_rule_lands_any_thing_on_the_line_when_its_footprint_there_stays_in_the_basin() -> None:
    # typed_point_line: an apple 0.08 m tall lands where the line comes down to its middle (z 1.136),
    # not on the grid's nearest spot (1.15) the clear rule gives it; a thing whose footprint there
    # would reach past the basin's box (THOR keeps the bottom corners in the receptacle's box) takes
    # a grid spot, as does the apple when a thing in the basin takes its place.
    world, basin = _basin_holding()
    slope = 0.825 / 1.15
    point = (0.0, 1.575 - slope * 1.3, 1.3)
    apple = SimpleNamespace(type_name="Apple", size=(0.08, 0.08, 0.08), object_id="Apple|1")
    line = put_landing.sight_line_anchor(world, point, 0.76)
    assert line[2] == pytest.approx(1.136, abs=1e-3)
    assert put_landing.land("typed_point_line", world, basin, apple, SPOTS, _sight(set())) == pytest.approx(line)
    assert put_landing.land("typed_point_clear", world, basin, apple, SPOTS, _sight(set()))[2] == pytest.approx(1.15)
    wide = SimpleNamespace(type_name="Apple", size=(0.42, 0.08, 0.42), object_id="Apple|2")
    assert put_landing.land("typed_point_line", world, basin, wide, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}
    egg = SimpleNamespace(object_id="Egg|1", center=(0.0, 0.75, 1.14), size=(0.05, 0.08, 0.05))
    world.by_id = {egg.object_id: egg}
    basin.children = {egg.object_id}
    assert put_landing.land("typed_point_line", world, basin, apple, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}


def test_the_clear_rule_lands_on_the_basins_floor_only() -> None:
    # A thing in the basin rests 0.13 m above its floor (a level for lite's shelves); THOR's spawn
    # points lie on the basin's own collider, so the put does not land up there, nearer the body.
    world, basin = _basin_holding()
    world.support_levels = lambda receptacle: [0.72, 0.85]
    world.put_point = lambda receptacle, kind, any_type=True: None
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    assert put_landing.land("typed_point", world, basin, held, SPOTS, _sight(set())) == pytest.approx((0.0, 0.88, 0.95))
    got = put_landing.land("typed_point_clear", world, basin, held, SPOTS, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 0.95))


def test_a_plate_put_into_a_sink_basin_rests_on_the_drawn_floor_under_a_rise_rule() -> None:
    # The same line as above: a plate (flat, 0.06 m tall here) is not lifted, so it follows the
    # line to its middle over the floor (z 1.15), as under typed_point; an apple is lifted.
    slope = 0.825 / 1.15
    world, basin = _world_with_a_point((0.0, 1.575 - slope * 1.3, 1.3)), _basin()
    spots = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]
    assert "Plate" in put_landing.BASIN_UNRISEN
    plate = SimpleNamespace(type_name="Plate", size=(0.06, 0.06, 0.06))
    apple = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06))
    got = put_landing.land("typed_point@0.05", world, basin, plate, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.75, 1.15))
    got = put_landing.land("typed_point@0.05", world, basin, apple, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.80, 1.05))
    # Only in a sink basin: elsewhere the rule's rise holds for a plate too.
    other = _basin("BathtubBasin")
    assert put_landing.land("typed_point@0.05", world, other, plate, spots, _sight(set()))[1] == pytest.approx(0.80)


def test_the_cavity_sight_rule_lands_on_thors_line_of_sight_over_the_plate() -> None:
    # A microwave 0.5 m wide seen along +z; THOR's point of the held type read too far along the
    # line through x -0.2 at the plate: the spot nearest that line wins, not the one nearest the
    # body (x 0) nor the cavity's middle (x -0.07), and the object rests on the plate.
    world = _world_with_a_point(None)
    world.agent.rotation = 0
    oven = _oven()
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06))
    eye_y, middle_y = 1.575, 0.72 + put_landing.PLATE_RISE + 0.03
    point = (-0.2 * 1.3, eye_y - (eye_y - middle_y) * 1.3, 0.95 * 1.3)
    asked: list[bool] = []

    def put_point(receptacle: Any, kind: str, any_type: bool = True) -> Any:
        asked.append(any_type)
        return point

    world.put_point = put_point
    spots = [(x, 0.95) for x in (-0.2, -0.1, 0.0, 0.1)]
    got = put_landing.land("cavity_sight_plate", world, oven, held, spots, _sight(set()))
    assert asked == [False]  # the held type's own point only
    assert got == pytest.approx((-0.2, 0.75 + put_landing.PLATE_RISE, 0.95))
    # No point of the held type's for the pose: as cavity_body_plate, nearest the body.
    world.put_point = lambda receptacle, kind, any_type=True: None
    got = put_landing.land("cavity_sight_plate", world, oven, held, spots, _sight(set()))
    assert got == pytest.approx((0.0, 0.75 + put_landing.PLATE_RISE, 0.95))


def test_the_point_foot_rule_lands_at_thors_point_only_where_its_foot_is_seen() -> None:
    # THOR's point of the held type at z 0.95 on a fridge's floor; a thing in front hides the floor
    # under the spots at 0.95 and 1.05 but not the object's middle there. THOR's spawn point is on
    # the surface, so the put lands on the nearest spot whose foot is seen (1.15), where the point
    # rule (middle or foot seen) had put it at the point itself. Without a point: the hand's rule.
    fridge = SimpleNamespace(type_name="Fridge", center=(0.0, 0.8, 1.0), size=(0.4, 0.2, 0.4), children=())
    held = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    world = _world_with_a_point((0.0, 0.75, 0.95))
    spots = [(0.0, z) for z in (0.85, 0.95, 1.05, 1.15)]
    feet = {(0.0, 0.73, 0.95), (0.0, 0.73, 1.05), (0.0, 0.73, 0.85)}
    hidden = feet | {(0.0, 0.75, 0.85)}
    point = put_landing.land("point", world, fridge, held, spots, _sight(hidden))
    assert point == pytest.approx((0.0, 0.75, 0.95))
    foot = put_landing.land("point_foot", world, fridge, held, spots, _sight(hidden))
    assert foot == pytest.approx((0.0, 0.75, 1.15))
    world.put_point = lambda receptacle, kind, any_type=True: None
    assert put_landing.land("point_foot", world, fridge, held, spots, _sight(set())) \
        == put_landing.land("point", world, fridge, held, spots, _sight(set()))


def test_the_line_rule_slides_a_long_thing_to_the_nearest_clear_place_when_its_place_is_taken() -> None:
    # An egg takes the spoon's place on the line (z 1.178, both ways the spoon may lie): under
    # typed_point_line the spoon slides to the nearest place its footprint clears the egg's and stays
    # in the basin's box (6 cm towards the front: behind the egg it would leave the box), not to the
    # body's fallback; a round thing, and the clear rule, still fall back; with no clear place within
    # SLIDE_REACH the spoon falls back too.
    egg = SimpleNamespace(object_id="Egg|1", center=(0.0, 0.75, 1.17), size=(0.05, 0.08, 0.05))
    world, basin = _basin_holding(egg)
    spoon = SimpleNamespace(type_name="Spoon", size=(0.2, 0.02, 0.04), object_id="Spoon|1")
    slope = 0.825 / 1.15
    line = put_landing.sight_line_anchor(world, (0.0, 1.575 - slope * 1.3, 1.3), 0.73)
    assert put_landing.taken_at(world, basin, spoon, line) is True
    got = put_landing.land("typed_point_line", world, basin, spoon, SPOTS, _sight(set()))
    assert got == pytest.approx((line[0], line[1], line[2] - 0.06))
    assert put_landing.land("typed_point_clear", world, basin, spoon, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}
    apple = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    assert put_landing.land("typed_point_line", world, basin, apple, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}
    egg.center, egg.size = (0.0, 0.75, 1.0), (0.4, 0.08, 0.4)  # fills the basin: nothing clears
    assert put_landing.slid_clear(world, basin, spoon, line) is None
    assert put_landing.land("typed_point_line", world, basin, spoon, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}


def test_the_line_rule_takes_the_first_free_place_of_a_pose_whose_demos_disagree() -> None:
    # The room's demos put the apple from this pose at two places, one straight ahead, one 0.15 m
    # to the left (their median lies between them, where THOR never put it). With the basin clear
    # the apple lands on the line through the place nearest the agent's line of sight; with an egg
    # there, on the other place's line; with both taken, as before (the median's line, given up).
    slope = 0.825 / 1.15
    ahead, left = (0.0, 1.575 - slope * 1.3, 1.3), (0.15, 1.575 - slope * 1.3, 1.3)
    world, basin = _basin_holding()
    world.agent.rotation = 0.0
    world.put_places_here = lambda receptacle, kind: [left, ahead] if kind == "Apple" else []
    apple = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    on_ahead = put_landing.sight_line_anchor(world, ahead, 0.72 + 0.05 + 0.03)
    on_left = put_landing.sight_line_anchor(world, left, 0.72 + 0.05 + 0.03)
    assert put_landing.free_place(world, basin, apple, 0.77) == pytest.approx(on_ahead)
    rule = "typed_point_line@0.05"
    assert put_landing.land(rule, world, basin, apple, SPOTS, _sight(set())) == pytest.approx(on_ahead)
    egg = SimpleNamespace(object_id="Egg|1", center=on_ahead, size=(0.05, 0.08, 0.05))
    world.by_id, basin.children = {egg.object_id: egg}, {egg.object_id}
    assert put_landing.land(rule, world, basin, apple, SPOTS, _sight(set())) == pytest.approx(on_left)
    put_landing.PLACE_ORDER, order = "nearest", put_landing.PLACE_ORDER
    try:  # by distance to the body: the same here (the left place lies farther)
        assert put_landing.free_place(world, basin, apple, 0.77) == pytest.approx(on_left)
    finally:
        put_landing.PLACE_ORDER = order
    other = SimpleNamespace(object_id="Egg|2", center=on_left, size=(0.05, 0.08, 0.05))
    world.by_id[other.object_id] = other
    basin.children.add(other.object_id)
    assert put_landing.free_place(world, basin, apple, 0.77) is None
    # Only the typed_point_line rule picks among places; a type without places keeps its point.
    spoon = SimpleNamespace(type_name="Spoon", size=(0.2, 0.02, 0.04), object_id="Spoon|1")
    assert put_landing.free_place(world, basin, spoon, 0.77) is None
    # A replayed file's own point (THOR's landing in this episode) wins over the room's places.
    basin.children.clear()
    assert put_landing.free_place(world, basin, apple, 0.77) == pytest.approx(on_ahead)
    world.file_put_point = lambda receptacle, kind: left
    assert put_landing.free_place(world, basin, apple, 0.77) is None


def test_a_round_thing_whose_line_comes_down_past_the_basin_rests_higher_up_the_line() -> None:
    # THOR's point read so its line comes down to the apple's middle at z 1.25, past the basin's
    # back (z 1.2): the apple rests up the line where its footprint first lies in the box (z 1.17),
    # higher than the floor, as on THOR's sloping bowl, not on the grid spot nearest the place. A
    # plate lying there, lower than the raised apple's bottom, does not take it; a tall thing does.
    slope = 0.775 / 1.25
    world, basin = _basin_holding()
    world.put_point = lambda receptacle, kind, any_type=True: (0.0, 1.575 - slope * 1.4, 1.4)
    apple = SimpleNamespace(type_name="Apple", size=(0.06, 0.06, 0.06), object_id="Apple|1")
    rule = "typed_point_line@0.05"
    place = put_landing.sight_line_anchor(world, (0.0, 1.575 - slope * 1.4, 1.4), 0.72 + 0.05 + 0.03)
    assert not put_landing._footprint_within(basin, apple, place)
    got = put_landing.land(rule, world, basin, apple, SPOTS, _sight(set()))
    assert got[2] == pytest.approx(1.17, abs=put_landing.RAISE_STEP)
    assert got[1] > place[1]
    assert got[0] == pytest.approx(0.0)
    assert got[1] == pytest.approx(1.575 - slope * got[2])  # on the line
    plate = SimpleNamespace(object_id="Plate|1", center=(0.0, 0.73, 1.1), size=(0.2, 0.02, 0.2))
    world.by_id, basin.children = {plate.object_id: plate}, {plate.object_id}
    assert put_landing.land(rule, world, basin, apple, SPOTS, _sight(set())) == pytest.approx(got)
    plate.size = (0.2, 0.3, 0.2)  # a tall thing there: the grid as before
    assert put_landing.raised_on_line(world, basin, apple, place) is None
    assert put_landing.land(rule, world, basin, apple, SPOTS, _sight(set()))[2] in {z for _, z in SPOTS}


def test_a_fridge_point_read_past_the_box_is_pulled_back_along_its_line_of_sight() -> None:
    world = _world_with_a_point(None)  # the eye at (0, 1.575, 0)
    fridge = SimpleNamespace(type_name="Fridge", center=(0.0, 1.0, 1.0), size=(0.6, 1.8, 0.6))
    held = SimpleNamespace(type_name="Potato", size=(0.1, 0.1, 0.1))
    # Read 0.35 m past the box's back (z 1.3): pulled back to where the potato's footprint last fits
    # on the line from the eye through the point, the same place on the screen.
    far = (0.1, 1.2, 1.6)
    got = put_landing.pulled_into_box(world, fridge, held, far)
    t = 1.25 / 1.6
    assert got == pytest.approx((0.1 * t, 1.575 + t * (1.2 - 1.575), 1.25), abs=1e-5)
    # A point whose footprint fits in the box stays; so does one short of the box (nothing says how far).
    assert put_landing.pulled_into_box(world, fridge, held, (0.1, 1.2, 1.1)) == (0.1, 1.2, 1.1)
    assert put_landing.pulled_into_box(world, fridge, held, (0.0, 1.2, 0.5)) == (0.0, 1.2, 0.5)
    # A line that never passes through the box leaves the point where it was.
    assert put_landing.pulled_into_box(world, fridge, held, (2.0, 1.2, 1.6)) == (2.0, 1.2, 1.6)
