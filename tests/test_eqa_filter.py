"""EQA's entropy filter on hand-made answer distributions, and the colour names of pixels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from alfred_gen.eqa.colors import PROTOTYPE_SHADES, read_color, srgb_to_lab
from alfred_gen.eqa.entropy import FilterRule, answer_counts, apply_filter, normalized_entropy
from alfred_gen.eqa.programs import Question
from alfred_gen.sim.palette import FINISHES, SHADE_BY_NORMAL


def _entropy_by_hand(counts: list[int]) -> float:
    total = sum(counts)
    n = len(counts)
    return -sum(c / total * math.log(c / total) / math.log(n) for c in counts)


def test_one_answer_has_no_entropy() -> None:
    assert normalized_entropy({"white": 40}) == 0.0
    assert normalized_entropy({"white": 40, "red": 0}) == 0.0  # an answer never given does not count
    assert normalized_entropy({}) == 0.0


def test_entropy_is_normalised_by_the_number_of_answers() -> None:
    assert normalized_entropy({"a": 5, "b": 5}) == pytest.approx(1.0)
    assert normalized_entropy({"a": 3, "b": 3, "c": 3}) == pytest.approx(1.0)
    assert normalized_entropy({"a": 3, "b": 1}) == pytest.approx(_entropy_by_hand([3, 1]))  # 0.811
    assert normalized_entropy({"a": 6, "b": 1, "c": 1}) == pytest.approx(_entropy_by_hand([6, 1, 1]))


@pytest.mark.parametrize(("answers", "kept"), [
    ({"kitchen": 10}, False),  # n = 1: H = 0 whatever the count
    ({"kitchen": 2, "bedroom": 1}, False),  # H = 0.92 but asked in 3 homes only (count < 4)
    ({"kitchen": 1, "bedroom": 1, "bathroom": 1}, False),  # H = 1, still only 3 homes
    ({"kitchen": 2, "bedroom": 2}, True),  # 4 homes, H = 1
    ({"kitchen": 9, "bedroom": 1}, False),  # H = 0.469 < 0.5
    ({"kitchen": 8, "bedroom": 2}, True),  # H = 0.722
])
def test_the_paper_rule_keeps_balanced_questions_asked_in_four_homes(answers: dict[str, int], kept: bool) -> None:
    assert FilterRule().keeps(answers) is kept


def test_the_rule_takes_other_thresholds() -> None:
    assert FilterRule(min_entropy=0.4).keeps({"kitchen": 9, "bedroom": 1})
    assert FilterRule(min_homes=3).keeps({"kitchen": 2, "bedroom": 1})
    assert not FilterRule(min_entropy=0.95).keeps({"kitchen": 8, "bedroom": 2})


def _question(home: str, text: str, answer: str, template: str = "location") -> Question:
    return Question(home, template, text, answer, ("query(location)",), [], None)


def test_the_filter_groups_by_question_string_over_homes() -> None:
    questions = [_question(f"H{i}", "What room is the lamp located in?", room)
                 for i, room in enumerate(["bedroom", "living room", "bedroom", "living room", "kitchen"])]
    questions += [_question(f"H{i}", "What room is the fridge located in?", "kitchen") for i in range(5)]
    questions += [_question("H0", "What room is the safe located in?", "bedroom")]
    apply_filter(questions)
    lamp = [q for q in questions if "lamp" in q.question]
    assert {q.accepted for q in lamp} == {True} and {q.homes for q in lamp} == {5}
    assert lamp[0].answers == {"bedroom": 2, "kitchen": 1, "living room": 2}
    assert lamp[0].entropy == pytest.approx(_entropy_by_hand([2, 2, 1]), abs=1e-6)
    fridge = [q for q in questions if "fridge" in q.question]
    assert {q.accepted for q in fridge} == {False} and fridge[0].entropy == 0.0
    safe = [q for q in questions if "safe" in q.question]
    assert safe[0].accepted is False and safe[0].homes == 1


def test_the_same_string_of_two_templates_is_two_groups() -> None:
    questions = [_question("H1", "Q?", "a", "count"), _question("H1", "Q?", "b", "existence")]
    assert answer_counts(questions) == {("count", "Q?"): {"a": 1}, ("existence", "Q?"): {"b": 1}}


def test_a_home_asking_a_question_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        answer_counts([_question("H1", "Q?", "a"), _question("H1", "Q?", "b")])


# --------------------------------------------------------------------------------------------
# Colour names


def test_lab_of_reference_colours() -> None:
    lab = srgb_to_lab(np.array([[255, 255, 255], [0, 0, 0], [255, 0, 0], [0, 0, 255]], dtype=np.uint8))
    assert lab[0] == pytest.approx([100.0, 0.0, 0.0], abs=0.01)
    assert lab[1] == pytest.approx([0.0, 0.0, 0.0], abs=0.01)
    assert lab[2] == pytest.approx([53.24, 80.09, 67.20], abs=0.05)  # the textbook values of sRGB red
    assert lab[3] == pytest.approx([32.30, 79.19, -107.86], abs=0.05)


@pytest.mark.parametrize("name", sorted(FINISHES))
def test_every_finish_keeps_its_name_under_lites_shading(name: str) -> None:
    shades = {1.0, *PROTOTYPE_SHADES, *(f for pair in SHADE_BY_NORMAL.values() for f in pair if f >= 0.7)}
    for shade in sorted(shades):
        pixel = np.array([[min(255, round(c * shade)) for c in FINISHES[name]]], dtype=np.uint8)
        assert read_color(pixel).name == name, (name, shade)


def test_a_colour_must_dominate() -> None:
    red, blue, green = FINISHES["red"], FINISHES["blue"], FINISHES["green"]
    mostly_red = np.array([red] * 6 + [blue] * 4, dtype=np.uint8)
    reading = read_color(mostly_red)
    assert reading.name == "red" and reading.shares == (("red", 0.6), ("blue", 0.4))
    split = np.array([red] * 45 + [blue] * 35 + [green] * 20, dtype=np.uint8)
    assert read_color(split).name is None  # 45% is not a majority
    assert read_color(np.zeros((0, 3), dtype=np.uint8)).name is None
