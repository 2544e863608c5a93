"""Every word of every new ALFRED-L instruction occurs in ALFRED's train annotations.

ALFRED-L keeps ALFRED's words: an instruction an agent is tested on must not use a word it never
saw in training. alfred_gen.derive.wording builds every new sentence from a few phrasings and a
table of destination names; this test reads the human annotations of all 6,574 train demos and
checks every sentence that table can produce, word by word.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from alfred_gen.derive.wording import DESTINATION_NAMES, every_new_sentence, return_instruction, walk_goal

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

_WORD = re.compile(r"[a-z]+")


@pytest.fixture(scope="module")
def train_words(alfred_train: Path) -> set[str]:
    words: set[str] = set()
    files = sorted((alfred_train / "json_2.1.0").rglob("traj_data.json"))
    assert len(files) == 6574
    for path in files:
        for ann in json.loads(path.read_text(encoding="utf-8"))["turk_annotations"]["anns"]:
            for text in (ann["task_desc"], *ann["high_descs"]):
                words.update(_WORD.findall(text.lower()))
    return words


def test_every_word_of_every_new_instruction_occurs_in_the_train_annotations(train_words: set[str]) -> None:
    sentences = every_new_sentence()
    assert len(sentences) > 4 * len(set(DESTINATION_NAMES.values()))
    unknown = {word: sentence for sentence in sentences for word in _WORD.findall(sentence.lower())
               if word not in train_words}
    assert not unknown, unknown


def test_the_papers_phrasings_occur_in_the_train_annotations(train_words: set[str]) -> None:
    for phrase in ("walk back to", "go back to", "return to", "move back"):
        assert set(phrase.split()) <= train_words


def test_instructions_are_only_ever_the_checked_sentences() -> None:
    checked = set(every_new_sentence())
    for cls in DESTINATION_NAMES:
        for key in range(8):
            assert return_instruction([cls.lower()], str(key)) in checked
            assert walk_goal([cls.lower()], str(key)) in checked
    assert return_instruction(["notaclass"], "0") in checked and return_instruction([], "0") in checked
    assert walk_goal([], "0") in checked
