"""The paper's sampling rules (alfred_gen.eqa.sampling) on hand-made homes: what each rule drops is
derived from the rules' data and the vocabulary, not written down as counts."""

from __future__ import annotations

import pytest

from alfred_gen.eqa.facts import HomeFacts, RoomFact
from alfred_gen.eqa.programs import TEMPLATES, run_programs
from alfred_gen.eqa.sampling import box_volume, load_paper_rules, parse_rules, rules_data
from alfred_gen.eqa.vocabulary import load_vocabulary
from tests.test_eqa_programs import obj

ROOMS = [RoomFact("kitchen_1", "kitchen"), RoomFact("living_room_1", "living_room"),
         RoomFact("bedroom_1", "bedroom"), RoomFact("bedroom_2", "bedroom")]


def _type_of(word: str) -> str:
    return load_vocabulary().words[word].types[0]


def _asked(facts: HomeFacts, template: str, paper: bool) -> set[str]:
    rules = load_paper_rules() if paper else None
    return {q.question for q in run_programs(facts, load_vocabulary(), (template,), rules).questions}


def test_the_data_names_our_templates_and_words_only() -> None:
    rules = load_paper_rules()
    assert set(rules.blacklists) <= set(TEMPLATES)
    assert all(words <= set(load_vocabulary().words) for words in rules.blacklists.values())
    data = rules_data()
    data["blacklists"] = {"color": ["unicorn"]}
    with pytest.raises(ValueError, match="unknown words"):
        parse_rules(data, TEMPLATES, load_vocabulary().words)


def test_a_paper_blacklisted_word_is_not_asked_about() -> None:
    rules, vocabulary = load_paper_rules(), load_vocabulary()
    listed = sorted(w for w in rules.blacklists["color"] if not vocabulary.blacklisted("color", w))
    assert listed, "the paper's colour list names words our vocabulary asks about"
    objects = [obj(f"{_type_of(w)}|1", _type_of(w), "kitchen_1", (i, 0, 0), (i + 0.5, 0.5, 0.5))
               for i, w in enumerate(listed)]
    objects.append(obj("Fridge|1", "Fridge", "kitchen_1", (-2, 0, 0), (-1, 2, 1), color="white"))
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, objects)
    every, sampled = _asked(facts, "color", False), _asked(facts, "color", True)
    for word in listed:
        assert f"What color is the {word}?" in every and f"What color is the {word}?" not in sampled
    assert "What color is the fridge?" in sampled  # not on the list: still asked
    assert sampled == every - {f"What color is the {w}?" for w in listed}


def test_the_once_rule_looks_at_all_uniquely_named_rooms_together() -> None:
    objects = [
        obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white"),
        obj("DiningTable|1", "DiningTable", "kitchen_1", (2, 0, 0), (3, 0.75, 1), color="brown"),
        obj("CoffeeTable|1", "CoffeeTable", "living_room_1", (0, 0, 5), (1, 0.5, 6), color="black"),
        obj("Chair|1", "Chair", "kitchen_1", (4, 0, 0), (4.5, 1, 0.5), color="blue"),
        obj("Chair|2", "Chair", "bedroom_1", (10, 0, 0), (10.5, 1, 0.5), color="blue"),  # bedrooms: not unique
    ]
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, objects)
    every, sampled = _asked(facts, "color_room", False), _asked(facts, "color_room", True)
    # a table in each uniquely named room: one per room (kept by default) but two among them (dropped)
    assert {"What color is the table in the kitchen?", "What color is the table in the living room?"} <= every
    assert not any("table" in q for q in sampled)
    # a chair in a bedroom does not count: the two bedrooms are not uniquely named
    assert "What color is the chair in the kitchen?" in sampled
    assert "What color is the fridge in the kitchen?" in sampled
    assert sampled <= every


def test_the_volume_cut_drops_tiny_objects_before_unique() -> None:
    rules = load_paper_rules()
    big = obj("Vase|1", "Vase", "kitchen_1", (0, 0, 0), (0.2, 0.4, 0.2))
    side = (rules.min_volume ** (1 / 3)) / 2  # a cube of an eighth of the cut
    tiny = obj("Vase|2", "Vase", "living_room_1", (5, 0, 5), (5 + side, side, 5 + side))
    assert box_volume(big) >= rules.min_volume > box_volume(tiny)
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, [big, tiny])
    assert not any("vase" in q for q in _asked(facts, "location", False))  # two vases: ambiguous
    assert "What room is the vase located in?" in _asked(facts, "location", True)


def test_a_blacklisted_room_type_is_never_selected_nor_an_answer() -> None:
    rules = load_paper_rules()
    dropped = sorted(rules.rooms)[0]
    rooms = [RoomFact("kitchen_1", "kitchen"), RoomFact(f"{dropped}_1", dropped)]
    objects = [obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white"),
               obj("Sofa|1", "Sofa", f"{dropped}_1", (5, 0, 5), (7, 0.9, 6), color="red")]
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, rooms, objects)
    run = run_programs(facts, load_vocabulary(), TEMPLATES, rules)
    assert {q.room for q in run.questions if q.room} == {"kitchen_1"}
    assert "What room is the fridge located in?" in {q.question for q in run.questions}
    assert {q.detail["room_type"] for q in run.questions if q.template == "room_count"} == {"kitchen"}


def test_a_word_suncg_has_no_class_for_is_never_selected_and_every_question_keeps_it() -> None:
    rules, vocabulary = load_paper_rules(), load_vocabulary()
    absent = sorted(rules.not_in_suncg)
    assert absent and set(absent) <= set(vocabulary.words)
    word = next(w for w in absent if not vocabulary.blacklisted("color", w))
    thing = obj(f"{_type_of(word)}|1", _type_of(word), "kitchen_1", (2, 0, 0), (2.4, 0.4, 0.4), color="blue")
    fridge = obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white")
    facts = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, [fridge, thing])
    for template in ("location", "color", "color_room", "existence", "count"):
        every = _asked(facts, template, False)
        sampled = _asked(facts, template, True)
        assert any(word in q for q in every), template  # asked when every question is kept
        assert not any(word in q for q in sampled), template
    assert "What color is the fridge?" in _asked(facts, "color", True)  # a SUNCG class: still asked
    # and it is no answer: next to the fridge, only the fridge's side has it
    beside = obj(f"{_type_of(word)}|2", _type_of(word), "kitchen_1", (1.05, 0, 0), (1.4, 0.4, 0.4), color="blue")
    near = HomeFacts("TestHouse", 1999, True, 0.9, 0.0, ROOMS, [fridge, beside])
    assert not any(q.answer == word for q in
                   run_programs(near, vocabulary, ("preposition",), rules).questions)
    data = rules_data()
    data["not_in_suncg"] = {"words": ["unicorn"]}
    with pytest.raises(ValueError, match="not_in_suncg"):
        parse_rules(data, TEMPLATES, vocabulary.words)
