"""The language of a demonstration: a goal and one line per subgoal, as ALFRED's annotators wrote them.

- :mod:`.words`: how THOR's classes read ("sink", "knives", *in* the fridge, *on* the counter);
- :mod:`.template`: the plain templated ``template`` block (one phrasing per task and subgoal);
- :mod:`.facts`: what the demo lets us say truly (route, sides, landmarks, neighbours, rows), each
  a checkable claim;
- :mod:`.colour`: interaction targets' colours read from the demo's frames;
- :mod:`.grammar`: the wording, as data, and its seeded expansion;
- :mod:`.realise`: several annotations per demo from the facts and the grammar.
"""

from alfred_gen.demo.language.realise import (
    DEFAULT_ANNOTATIONS,
    GENERATED_PREFIX,
    Annotation,
    Line,
    annotate,
    assignment_id,
    is_generated,
)
from alfred_gen.demo.language.template import (
    TEMPLATE_ASSIGNMENT_ID,
    describe,
    step_description,
    task_description,
    turk_annotations,
)
from alfred_gen.demo.language.words import class_for_word, class_words, plural, preposition

__all__ = [
    "DEFAULT_ANNOTATIONS", "GENERATED_PREFIX", "TEMPLATE_ASSIGNMENT_ID", "Annotation", "Line", "annotate",
    "assignment_id", "class_for_word", "class_words", "describe", "is_generated", "plural", "preposition",
    "step_description", "task_description", "turk_annotations",
]
