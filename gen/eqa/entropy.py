"""EQA's entropy filter: drop questions whose answer a prior alone would guess.

The paper groups the (question, answer) pairs of all homes by question string. For a question seen
with n distinct answers, with p the share of each answer over the homes that ask it, the
normalised entropy is H = -sum(p log_n p), which is 0 for one answer (n = 1) and 1 when every
answer is equally common. A question is kept when H >= :data:`MIN_ENTROPY` and it is asked in at
least :data:`MIN_HOMES` homes: "What color is the fridge?" answered "white" in 95 of 100 homes is
dropped, "What room is the lamp located in?" with four rooms about equally often is kept.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from alfred_gen.eqa.programs import Question

#: A question is kept when its normalised answer entropy is at least this ...
MIN_ENTROPY = 0.5
#: ... and at least this many homes ask it.
MIN_HOMES = 4


def normalized_entropy(answers: Mapping[str, int]) -> float:
    """H = -sum(p log_n p) over the n distinct answers with a positive count; 0 when n <= 1."""
    counts = [c for c in answers.values() if c > 0]
    n = len(counts)
    if n <= 1:
        return 0.0
    total = float(sum(counts))
    return -sum((c / total) * math.log(c / total, n) for c in counts)


@dataclass(frozen=True)
class FilterRule:
    """The filter's thresholds (the paper's by default)."""

    min_entropy: float = MIN_ENTROPY
    min_homes: int = MIN_HOMES

    def keeps(self, answers: Mapping[str, int]) -> bool:
        """Whether a question with these answer counts (one per home) passes."""
        return sum(answers.values()) >= self.min_homes and normalized_entropy(answers) >= self.min_entropy - 1e-12


def answer_counts(questions: Iterable[Question]) -> dict[tuple[str, str], Counter[str]]:
    """(template, question string) -> how many homes gave each answer.

    Raises ValueError if one home asks the same question twice (the programs' ``unique`` steps
    make that impossible; two would make the home count wrong)."""
    counts: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    seen: set[str] = set()
    for q in questions:
        if q.question_id in seen:
            raise ValueError(f"{q.home} asks {q.question!r} twice")
        seen.add(q.question_id)
        counts[(q.template, q.question)][q.answer] += 1
    return dict(counts)


def apply_filter(questions: list[Question], rule: FilterRule = FilterRule()) -> list[Question]:
    """Annotate every question with its group's entropy, homes, answer counts and the verdict;
    returns the same list."""
    counts = answer_counts(questions)
    for q in questions:
        answers = counts[(q.template, q.question)]
        q.answers = dict(sorted(answers.items()))
        q.homes = sum(answers.values())
        q.entropy = round(normalized_entropy(answers), 6)
        q.accepted = rule.keeps(answers)
    return questions
