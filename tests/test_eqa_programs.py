"""EQA's vocabulary and its nine templates as programs, on a hand-made home (no simulator)."""

from __future__ import annotations

import json

import pytest

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.eqa.colors import ColorReading
from alfred_gen.eqa.facts import HomeFacts, ObjectFact, RoomFact, needs_view
from alfred_gen.eqa.programs import (
    AMBIGUOUS,
    ASKED,
    INAPPLICABLE,
    PROGRAMS,
    ROOM_FREE,
    TEMPLATES,
    run_programs,
)
from alfred_gen.eqa.views import View
from alfred_gen.eqa.vocabulary import load_vocabulary, parse_vocabulary
from alfred_gen.sim.scene import Pose


def test_every_catalogue_type_is_a_word_or_left_out_with_a_reason() -> None:
    vocabulary = load_vocabulary()
    covered = set(vocabulary.by_type) | set(vocabulary.excluded)
    assert covered == set(OBJECT_TYPES)
    assert not set(vocabulary.by_type) & set(vocabulary.excluded)


def test_merges_and_words() -> None:
    vocabulary = load_vocabulary()
    assert {vocabulary.by_type[t] for t in ("DiningTable", "CoffeeTable", "SideTable")} == {"table"}
    assert vocabulary.word_of("Mug").word == vocabulary.word_of("Cup").word == "cup"
    assert vocabulary.word_of("Window") is None and "transparent" in vocabulary.excluded["Window"]
    assert vocabulary.words["shelf"].plural == "shelves" and vocabulary.words["ottoman"].article == "an"
    assert vocabulary.room_word("living_room").word == "living room"
    assert vocabulary.blacklisted("color", "television") and not vocabulary.blacklisted("location", "television")


def test_a_broken_vocabulary_is_refused() -> None:
    data = {"objects": {"table": {"types": ["Desk"], "plural": "tables", "kind": "furniture"},
                        "desk": {"types": ["Desk"], "plural": "desks", "kind": "furniture"}},
            "excluded": {}, "rooms": {}, "blacklists": {}}
    with pytest.raises(ValueError, match="both"):
        parse_vocabulary(data)
    data = {"objects": {}, "excluded": {}, "rooms": {}, "blacklists": {"color": ["unicorn"]}}
    with pytest.raises(ValueError, match="unknown words"):
        parse_vocabulary(json.loads(json.dumps(data)))


# --------------------------------------------------------------------------------------------
# A hand-made house: a kitchen, a living room and two bedrooms (so "bedroom" is not unique).


def obj(object_id: str, object_type: str, room: str | None, lo: tuple[float, float, float],
        hi: tuple[float, float, float], *, hidden: bool = False, color: str | None = "red",
        viewed: bool = True) -> ObjectFact:
    word = load_vocabulary().word_of(object_type)
    return ObjectFact(object_id, object_type, word.word if word else None, room, lo, hi, hidden,
                      View(Pose(0.0, 0.0, 0, 30), 500) if viewed else None,
                      ColorReading(color, ((color, 1.0),) if color else (("red", 0.4), ("blue", 0.4))))


def house() -> HomeFacts:
    rooms = [RoomFact("kitchen_1", "kitchen"), RoomFact("living_room_1", "living_room"),
             RoomFact("bedroom_1", "bedroom"), RoomFact("bedroom_2", "bedroom")]
    objects = [
        obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white"),
        obj("DiningTable|1", "DiningTable", "kitchen_1", (2, 0, 0), (3, 0.75, 1), color="brown"),
        obj("Mug|1", "Mug", "kitchen_1", (2.4, 0.75, 0.4), (2.5, 0.85, 0.5), color="blue"),
        obj("Apple|1", "Apple", "kitchen_1", (2.6, 0.75, 0.4), (2.7, 0.85, 0.5)),  # no word: never named
        obj("Bowl|1", "Bowl", "kitchen_1", (5, 1, 5), (5.2, 1.1, 5.2), hidden=True),  # in a closed cabinet
        obj("CoffeeTable|1", "CoffeeTable", "living_room_1", (0, 0, 5), (1, 0.5, 6), color="black"),
        obj("Sofa|1", "Sofa", "living_room_1", (0, 0, 7), (2, 0.9, 8), color=None),  # no colour dominates
        obj("Box|1", "Box", "living_room_1", (0.2, 0.5, 5.2), (0.4, 0.7, 5.4)),
        obj("Book|1", "Book", "living_room_1", (0.6, 0.5, 5.2), (0.8, 0.55, 5.4)),
        obj("Pillow|1", "Pillow", "living_room_1", (0, 0.9, 7), (0.5, 1.0, 7.5)),
        *[obj(f"Pillow|{i}", "Pillow", "living_room_1", (i, 0.9, 7), (i + 0.4, 1.0, 7.5)) for i in range(2, 7)],
        obj("Bed|1", "Bed", "bedroom_1", (10, 0, 0), (12, 0.6, 2), color="white"),
        obj("Bed|2", "Bed", "bedroom_2", (20, 0, 0), (22, 0.6, 2), color="white"),
        obj("Vase|1", "Vase", None, (15, 0, 0), (15.2, 0.4, 0.2)),  # in a doorway: in no room
    ]
    return HomeFacts("TestHouse", 1999, True, 0.9, 0.0, rooms, objects)


def ask(template: str, facts: HomeFacts | None = None):
    run = run_programs(facts or house(), load_vocabulary(), (template,))
    return {q.question: q for q in run.questions}, run.outcomes[template]


def test_location_asks_about_objects_unique_in_the_house() -> None:
    questions, outcomes = ask("location")
    assert questions["What room is the fridge located in?"].answer == "kitchen"
    assert questions["What room is the sofa located in?"].answer == "living room"
    assert "What room is the table located in?" not in questions  # two tables (merged types)
    assert "What room is the bed located in?" not in questions  # two beds
    assert "What room is the bowl located in?" not in questions  # shut in a cabinet
    assert not any("apple" in q for q in questions)  # not in the vocabulary
    assert outcomes[INAPPLICABLE] == 1  # the vase in a doorway
    assert questions["What room is the fridge located in?"].program == PROGRAMS["location"]
    assert questions["What room is the fridge located in?"].targets[0].object_id == "Fridge|1"


def test_color_is_ambiguous_without_a_dominant_colour() -> None:
    questions, outcomes = ask("color")
    assert questions["What color is the fridge?"].answer == "white"
    assert questions["What color is the cup?"].answer == "blue"
    assert "What color is the sofa?" not in questions and outcomes[AMBIGUOUS] == 1
    assert "What color is the book?" not in questions  # blacklisted for colour


def test_color_room_needs_a_unique_room_and_an_object_unique_in_it() -> None:
    questions, _ = ask("color_room")
    assert questions["What color is the table in the kitchen?"].answer == "brown"
    assert questions["What color is the table in the living room?"].answer == "black"
    assert not any("bedroom" in q for q in questions)  # two bedrooms: "the bedroom" is ambiguous
    assert not any("pillow" in q for q in questions)  # six pillows in the living room


def test_preposition_relates_within_the_room() -> None:
    questions, outcomes = ask("preposition")
    assert questions["What is on the table in the kitchen?"].answer == "cup"  # the apple has no word
    assert [o.object_id for o in questions["What is on the table in the kitchen?"].answer_objects] == ["Mug|1"]
    assert "What is on the table in the living room?" not in questions  # a box and a book: ambiguous
    assert outcomes[AMBIGUOUS] >= 1 and outcomes[INAPPLICABLE] >= 1
    assert questions["What is on the table in the kitchen?"].program[-2] == "relate(on)"


def test_existence_counts_and_logical() -> None:
    questions, outcomes = ask("existence")
    assert questions["Is there a fridge in the kitchen?"].answer == "yes"
    assert questions["Is there a sofa in the kitchen?"].answer == "no"
    assert "Is there a bowl in the kitchen?" not in questions and outcomes[AMBIGUOUS] == 1  # only a hidden bowl
    assert not any("bedroom" in q for q in questions)
    counts, count_outcomes = ask("count")
    assert counts["How many cups in the kitchen?"].answer == "1"
    assert "How many pillows in the living room?" not in counts and count_outcomes[INAPPLICABLE] == 1  # 6 > 5
    logical, _ = ask("logical")
    assert logical["Is there a fridge and a table in the kitchen?"].answer == "yes"
    assert logical["Is there a fridge and a sofa in the kitchen?"].answer == "no"
    assert not any("cup" in q for q in logical)  # pairs of furniture only


def test_room_count_and_distance() -> None:
    rooms, _ = ask("room_count")
    assert rooms["How many bedrooms in the house?"].answer == "2"
    assert rooms["How many kitchens in the house?"].answer == "1"
    distance, outcomes = ask("distance")
    # living room furniture: coffee table (0.5, 5.5), sofa (1, 7.5): only two, no triple
    assert not distance and outcomes[ASKED] == 0
    facts = house()
    facts.objects.append(obj("Shelf|1", "Shelf", "living_room_1", (5, 0, 5), (6, 2, 5.5)))
    distance, outcomes = ask("distance", facts)
    # from the sofa: coffee table 2.06 m, shelf 5.03 m (a clear difference); from the coffee table:
    # shelf 5.01 m vs sofa 2.06 m; from the shelf: sofa 5.03 m vs table 5.01 m (too close: inapplicable)
    assert distance["Is the sofa closer to the shelf than to the table in the living room?"].answer == "no"
    assert distance["Is the table closer to the shelf than to the sofa in the living room?"].answer == "no"
    assert outcomes[INAPPLICABLE] == 1


def test_a_single_room_runs_the_room_free_templates_only() -> None:
    facts = HomeFacts("LitePlan1", 1, False, 0.9, 0.0, [RoomFact("kitchen_1", "kitchen")],
                      [obj("Fridge|1", "Fridge", "kitchen_1", (0, 0, 0), (1, 2, 1), color="white")])
    run = run_programs(facts, load_vocabulary(), TEMPLATES)
    assert set(run.outcomes) == set(ROOM_FREE)
    assert {q.question for q in run.questions} == {"What room is the fridge located in?", "What color is the fridge?"}


def test_views_are_needed_for_objects_unique_in_the_house_or_their_room() -> None:
    facts = house()
    by_id = {o.object_id: o for o in facts.objects}
    assert needs_view(by_id["Fridge|1"], facts.objects)
    assert needs_view(by_id["DiningTable|1"], facts.objects)  # two tables, but one per room
    assert not needs_view(by_id["Pillow|1"], facts.objects)
    assert not needs_view(by_id["Bowl|1"], facts.objects) and not needs_view(by_id["Apple|1"], facts.objects)
