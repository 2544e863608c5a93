"""Rooms with several types (SUNCG's open-plan rooms) under the EQA engine's rule: nothing is asked
by room about them, their objects still count when words are told apart; and the counterfactual
bench that joins our rooms at SUNCG's rates."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from alfred_gen.eqa.facts import HomeFacts, RoomFact
from alfred_gen.eqa.programs import run_programs
from alfred_gen.eqa.sampling import load_paper_rules
from alfred_gen.eqa.vocabulary import load_vocabulary
from tests.test_eqa_programs import obj

OPEN = RoomFact("kitchen_1", "kitchen", ("dining_room",))
ROOMS = [OPEN, RoomFact("living_room_1", "living_room"), RoomFact("bedroom_1", "bedroom")]


def _objects() -> list:
    return [
        obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white"),
        obj("Sofa|1", "Sofa", "living_room_1", (0, 0, 5), (2, 0.9, 6), color="red"),
        obj("Bed|1", "Bed", "bedroom_1", (10, 0, 0), (12, 0.6, 2), color="blue"),
        obj("Dresser|1", "Dresser", "kitchen_1", (3, 0, 0), (4, 1, 0.5), color="black"),
        obj("Dresser|2", "Dresser", "bedroom_1", (13, 0, 0), (14, 1, 0.5), color="black"),
    ]


def _asked(facts: HomeFacts, template: str, paper: bool = True) -> set[str]:
    rules = load_paper_rules() if paper else None
    return {q.question for q in run_programs(facts, load_vocabulary(), (template,), rules).questions}


def test_a_room_with_two_types_is_written_and_read_back_and_a_plain_one_as_before() -> None:
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, _objects())
    data = facts.to_dict()
    assert data["rooms"][0] == {"id": "kitchen_1", "type": "kitchen", "also": ["dining_room"]}
    assert data["rooms"][1] == {"id": "living_room_1", "type": "living_room"}  # no "also": files unchanged
    assert HomeFacts.from_dict(data).rooms == ROOMS


@pytest.mark.parametrize("paper", [True, False])
def test_nothing_is_asked_by_room_about_a_room_with_two_types(paper: bool) -> None:
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, _objects())
    location, color_room = _asked(facts, "location", paper), _asked(facts, "color_room", paper)
    assert "What room is the fridge located in?" not in location
    assert "What room is the sofa located in?" in location  # a one-type room: asked
    assert not any("kitchen" in q or "dining room" in q for q in color_room)
    assert "What color is the sofa in the living room?" in color_room
    # the colour of the whole house names no room: still asked
    assert "What color is the fridge?" in _asked(facts, "color", paper)
    for template in ("existence", "count", "logical", "distance"):
        assert not any("kitchen" in q or "dining room" in q for q in _asked(facts, template, paper))


def test_its_objects_still_make_a_word_ambiguous_in_other_rooms() -> None:
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, _objects())
    # a dresser in the open-plan room and one in the bedroom: the engine pools both, so neither is
    # "the dresser in the bedroom"; with the open-plan one moved out of the house, it is asked
    assert "What color is the dresser in the bedroom?" not in _asked(facts, "color_room")
    alone = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, [o for o in _objects() if o.object_id != "Dresser|1"])
    assert "What color is the dresser in the bedroom?" in _asked(alone, "color_room")


def test_room_count_counts_every_type_of_a_room() -> None:
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, _objects())
    asked = {q.question: q.answer for q in
             run_programs(facts, load_vocabulary(), ("room_count",), load_paper_rules()).questions}
    assert asked["How many kitchens in the house?"] == "1"
    assert asked["How many dining rooms in the house?"] == "1"


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[1] / "bench" / "eqa_open_plan.py"
    spec = importlib.util.spec_from_file_location("eqa_open_plan", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_bench_joins_rooms_by_name_and_keeps_every_object() -> None:
    bench = _bench()
    rooms = [RoomFact("kitchen_1", "kitchen"), RoomFact("dining_room_1", "dining_room"),
             RoomFact("living_room_1", "living_room"), RoomFact("bedroom_1", "bedroom")]
    objects = _objects() + [obj("DiningTable|1", "DiningTable", "dining_room_1", (5, 0, 0), (6, 0.8, 1))]
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, rooms, objects)
    joined = bench.joined(facts, [("kitchen", "dining_room"), ("living_room", "dining_room")])
    assert [r.room_id for r in joined.rooms] == ["kitchen_1", "bedroom_1"]
    assert joined.rooms[0].types == ("kitchen", "dining_room", "living_room")
    assert [o.object_id for o in joined.objects] == [o.object_id for o in objects]
    assert {o.room for o in joined.objects} == {"kitchen_1", "bedroom_1"}
    assert bench.joined(facts, []).rooms == rooms


def test_the_bench_draws_are_repeatable_and_follow_the_rates() -> None:
    bench = _bench()
    homes = [f"LiteHouse{n}" for n in range(1, 2001)]
    pair = ("kitchen", "dining_room")
    assert [bench.draw(h, pair) for h in homes[:5]] == [bench.draw(h, pair) for h in homes[:5]]
    share = sum(pair in bench.pairs_for(h, bench.SUNCG_JOINS, 1.0) for h in homes) / len(homes)
    assert abs(share - bench.SUNCG_JOINS[pair]) < 0.04
    assert all(pair not in bench.pairs_for(h, bench.SUNCG_JOINS, 0.0) for h in homes)
