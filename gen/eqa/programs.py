"""EQA's question templates as functional programs over a home's facts.

A program is a chain of elementary operations, as in the paper:

- ``select(rooms)`` / ``select(objects)``: the home's rooms, or the named objects of the home or
  of one room (hidden ones too: they still make a word ambiguous);
- ``unique(rooms|objects)``: keep the entities whose word occurs exactly once in the selection;
- ``blacklist(template)``: drop words the template never asks about (``vocabulary.json``);
- ``visible(objects)``: drop objects shut inside a closed receptacle (the agent could not see
  them; not in the paper, whose homes have no closed drawers);
- ``viewed(objects)``: drop objects without a best view (:mod:`.views`): a single-target question
  needs a pose for the expert to walk to;
- ``relate(relation)``: the objects of the anchor's room in that relation to it (:mod:`.relations`);
- ``distance()``: floor distances between box centres;
- ``query(template)``: the question and its answer.

With the paper's sampling rules (:mod:`.sampling`; the default of ``eqa questions``), the same
operations follow its released engine more closely: ``select`` drops objects under its volume cut
and rooms of blacklisted types, ``blacklist`` adds its per-template lists, and templates that name
a room take ``unique`` over the objects of all uniquely named rooms together. Without them (None,
``--all-questions``) every question the vocabulary allows is asked.

A program's query may return *inapplicable* (nothing to ask: an object in a doorway, nothing on
the table, a count above :data:`MAX_COUNT`, two distances less than :data:`DISTANCE_MARGIN` apart)
or *ambiguous* (no single answer: no colour dominates, two different things on the table, a hidden
object that would change a count). Those are counted per template, not written as questions.

EQA v1's four templates (location, color, color_room, preposition) ask about one target object;
the five of "v1-extended" (existence, logical, count, room_count, distance) about several. A
single room has no other rooms to tell apart, so only the templates that name no room
(:data:`ROOM_FREE`) run there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from alfred_gen.eqa.facts import HomeFacts, ObjectFact, RoomFact
from alfred_gen.eqa.relations import RELATIONS, floor_distance, related
from alfred_gen.eqa.sampling import PaperRules
from alfred_gen.eqa.vocabulary import Vocabulary, indefinite_article

#: Every template, in the paper's order.
TEMPLATES = ("location", "color", "color_room", "preposition", "existence", "logical", "count", "room_count",
             "distance")
#: EQA v1: questions about one target object (the expert walks to it).
SINGLE_TARGET = ("location", "color", "color_room", "preposition")
#: Templates that name no room: the ones that run in a single room.
ROOM_FREE = ("location", "color")
#: No count question above this (the paper's rule).
MAX_COUNT = 5
#: A distance question needs this clear a difference (metres) between the two distances.
DISTANCE_MARGIN = 2.0

#: Outcome words of one query.
ASKED, INAPPLICABLE, AMBIGUOUS = "question", "inapplicable", "ambiguous"

#: The programs, as the operations they chain (recorded with every question).
PROGRAMS: dict[str, tuple[str, ...]] = {
    "location": ("select(objects)", "unique(objects)", "blacklist(location)", "visible(objects)", "viewed(objects)",
                 "query(location)"),
    "color": ("select(objects)", "unique(objects)", "blacklist(color)", "visible(objects)", "viewed(objects)",
              "query(color)"),
    "color_room": ("select(rooms)", "unique(rooms)", "select(objects)", "unique(objects)", "blacklist(color_room)",
                   "visible(objects)", "viewed(objects)", "query(color_room)"),
    "preposition": ("select(rooms)", "unique(rooms)", "select(objects)", "unique(objects)", "blacklist(preposition)",
                    "visible(objects)", "viewed(objects)", "relate({relation})", "query(preposition)"),
    "existence": ("select(rooms)", "unique(rooms)", "select(objects)", "blacklist(existence)", "query(existence)"),
    "logical": ("select(rooms)", "unique(rooms)", "select(objects)", "blacklist(logical)", "query(logical)"),
    "count": ("select(rooms)", "unique(rooms)", "select(objects)", "blacklist(count)", "visible(objects)",
              "query(count)"),
    "room_count": ("select(rooms)", "query(room_count)"),
    "distance": ("select(rooms)", "unique(rooms)", "select(objects)", "unique(objects)", "blacklist(distance)",
                 "visible(objects)", "distance()", "query(distance)"),
}


@dataclass
class Question:
    """One generated question: where, which template, the words, the answer and what it is about.

    ``targets`` are the objects the question names (the target of a single-target question
    first); ``answer_objects`` the objects the answer names (preposition) or counts (count,
    existence, logical). Filled in later by the filter: ``entropy``, ``homes``, ``answers`` (the
    answer counts of the question string over all homes), ``accepted``.
    """

    home: str
    template: str
    question: str
    answer: str
    program: tuple[str, ...]
    targets: list[ObjectFact]
    room: str | None
    answer_objects: list[ObjectFact] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    entropy: float | None = None
    homes: int | None = None
    answers: dict[str, int] | None = None
    accepted: bool | None = None

    @property
    def question_id(self) -> str:
        """Unique over a run: a home asks a question string at most once per template."""
        return f"{self.home}|{self.template}|{self.question}"

    def to_dict(self) -> dict[str, Any]:
        def brief(obj: ObjectFact) -> dict[str, Any]:
            data: dict[str, Any] = {"objectId": obj.object_id, "objectType": obj.object_type, "word": obj.word,
                                    "room": obj.room, "box": obj.box()}
            if obj.view is not None and self.template in SINGLE_TARGET:
                data["view"] = obj.view.to_dict()
            return data

        data: dict[str, Any] = {
            "home": self.home, "template": self.template, "question": self.question, "answer": self.answer,
            "program": list(self.program), "room": self.room, "targets": [brief(t) for t in self.targets],
        }
        if self.answer_objects:
            data["answer_ids"] = [o.object_id for o in self.answer_objects]
        if self.detail:
            data["detail"] = dict(self.detail)
        if self.accepted is not None:  # the answer counts are the group's: written once per question string
            data.update(entropy=self.entropy, homes=self.homes, accepted=self.accepted)
        return data


@dataclass
class ProgramRun:
    """What the programs gave for one home: the questions, and per template how many queries
    gave a question, were inapplicable or ambiguous."""

    questions: list[Question] = field(default_factory=list)
    outcomes: dict[str, Counter[str]] = field(default_factory=dict)

    def count(self, template: str, outcome: str) -> None:
        self.outcomes.setdefault(template, Counter())[outcome] += 1


# --------------------------------------------------------------------------------------------
# Elementary operations


@dataclass(frozen=True)
class Entity:
    """A room or an object under its question word."""

    name: str
    room: RoomFact | None = None
    obj: ObjectFact | None = None


def room_name(room: RoomFact, vocabulary: Vocabulary) -> str:
    """A room's name: its type's word, or for a room with several types (an open-plan room) their
    words sorted and joined, which tells it apart as the engine's sorted name list does."""
    words = sorted(vocabulary.room_word(t).word for t in room.types)
    return words[0] if len(words) == 1 else " / ".join(words)


def select_rooms(facts: HomeFacts, vocabulary: Vocabulary) -> list[Entity]:
    """Every room of the home, named by its type's word (:func:`room_name`), in the home's order."""
    return [Entity(room_name(r, vocabulary), room=r) for r in facts.rooms]


def asked_rooms(rooms: Sequence[Entity]) -> list[Entity]:
    """The rooms a question may name: those with one type. The engine asks nothing by room about a
    room with several names (its ``queryRoom``, ``queryColorRoom``, ``queryObjectRoom``, ... skip
    it), though its objects still count when words are told apart."""
    return [r for r in rooms if r.room is not None and not r.room.also]


def select_objects(facts: HomeFacts, room: RoomFact | None = None, rules: PaperRules | None = None) -> list[Entity]:
    """The home's (or the room's) objects that have a word, hidden ones included (with the paper's
    rules, only those that pass its volume cut and whose word names a class SUNCG's homes hold)."""
    return [Entity(o.word, obj=o) for o in facts.objects
            if o.word is not None and (room is None or o.room == room.room_id)
            and (rules is None or (rules.big_enough(o) and rules.in_suncg(o.word)))]


def unique(entities: Sequence[Entity]) -> list[Entity]:
    """The entities whose name occurs exactly once among ``entities``."""
    counts = Counter(e.name for e in entities)
    return [e for e in entities if counts[e.name] == 1]


def blacklist(entities: Sequence[Entity], template: str, vocabulary: Vocabulary,
              rules: PaperRules | None = None) -> list[Entity]:
    """The entities whose word ``template`` may ask about (by the vocabulary, and by the paper's
    lists when ``rules`` are given)."""
    return [e for e in entities if not vocabulary.blacklisted(template, e.name)
            and (rules is None or not rules.blacklisted(template, e.name))]


def visible(entities: Sequence[Entity]) -> list[Entity]:
    """The objects the agent can see: not shut inside a closed receptacle."""
    return [e for e in entities if e.obj is not None and not e.obj.hidden]


def viewed(entities: Sequence[Entity]) -> list[Entity]:
    """The objects with a best view (a pose from which the expert shows them)."""
    return [e for e in entities if e.obj is not None and e.obj.view is not None]


def relate(anchor: ObjectFact, relation: str, candidates: Iterable[ObjectFact], floor_y: float) -> list[ObjectFact]:
    """The candidates (other than the anchor) in ``relation`` to the anchor."""
    box = (anchor.lo, anchor.hi)
    return [o for o in candidates if o is not anchor and related(relation, (o.lo, o.hi), box, floor_y)]


# --------------------------------------------------------------------------------------------
# The templates


def _unique_rooms(facts: HomeFacts, vocabulary: Vocabulary, rules: PaperRules | None = None) -> list[Entity]:
    """The uniquely named rooms; with the paper's rules, blacklisted room types are dropped first."""
    if rules is None:
        return unique(select_rooms(facts, vocabulary))
    kept = [r for r in facts.rooms if not any(rules.room_dropped(t) for t in r.types)]  # before naming: the
    return unique([Entity(room_name(r, vocabulary), room=r) for r in kept])  # vocabulary may not name them


def _pooled_words(facts: HomeFacts, rooms: Sequence[Entity], rules: PaperRules) -> Counter[str]:
    """How many objects of each word the uniquely named ``rooms`` hold together (after the volume cut)."""
    return Counter(e.name for r in rooms if r.room is not None for e in select_objects(facts, r.room, rules))


def _unique_in_room(facts: HomeFacts, room: RoomFact, rooms: Sequence[Entity],
                    rules: PaperRules | None) -> list[Entity]:
    """The objects of ``room`` a room-naming template may single out: those unique in the room, or
    with the paper's rules, those whose word occurs once among the objects of all the uniquely
    named ``rooms`` together (its ambiguity rule)."""
    in_room = select_objects(facts, room, rules)
    if rules is None:
        return unique(in_room)
    pooled = _pooled_words(facts, rooms, rules)
    return [e for e in in_room if pooled[e.name] == 1]


def _location(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    for entity in viewed(visible(blacklist(unique(select_objects(facts, rules=rules)), "location", vocabulary, rules))):
        obj = entity.obj
        assert obj is not None
        if obj.room is None:
            run.count("location", INAPPLICABLE)  # in a doorway: in no room
            continue
        room = facts.room(obj.room)
        if room.also:
            run.count("location", INAPPLICABLE)  # a room with two names: the engine does not ask
            continue
        if rules is not None and rules.room_dropped(room.room_type):
            run.count("location", INAPPLICABLE)  # the paper never answers with a blacklisted room
            continue
        answer = vocabulary.room_word(room.room_type).word
        _ask(run, facts, "location", f"What room is the {entity.name} located in?", answer, [obj], obj.room)


def _color(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    for entity in viewed(visible(blacklist(unique(select_objects(facts, rules=rules)), "color", vocabulary, rules))):
        obj = entity.obj
        assert obj is not None
        if obj.color is None or obj.color.name is None:
            run.count("color", AMBIGUOUS)
            continue
        _ask(run, facts, "color", f"What color is the {entity.name}?", obj.color.name, [obj], obj.room)


def _color_room(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    rooms = _unique_rooms(facts, vocabulary, rules)
    for room in asked_rooms(rooms):
        assert room.room is not None
        candidates = _unique_in_room(facts, room.room, rooms, rules)
        for entity in viewed(visible(blacklist(candidates, "color_room", vocabulary, rules))):
            obj = entity.obj
            assert obj is not None
            if obj.color is None or obj.color.name is None:
                run.count("color_room", AMBIGUOUS)
                continue
            _ask(run, facts, "color_room", f"What color is the {entity.name} in the {room.name}?", obj.color.name,
                 [obj], room.room.room_id)


def _preposition(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    rooms = _unique_rooms(facts, vocabulary, rules)
    pooled = _pooled_words(facts, rooms, rules) if rules is not None else Counter[str]()
    for room in asked_rooms(rooms):
        assert room.room is not None
        answers = [e.obj for e in select_objects(facts, room.room) if e.obj is not None and e.obj.asked
                   and (rules is None or rules.in_suncg(e.name))]  # a thing SUNCG lacks is not there to relate
        anchors = _unique_in_room(facts, room.room, rooms, rules)
        for entity in viewed(visible(blacklist(anchors, "preposition", vocabulary, rules))):
            anchor = entity.obj
            assert anchor is not None
            for relation in RELATIONS:
                found = relate(anchor, relation, answers, facts.floor_y)
                words = sorted({o.word for o in found if o.word is not None})
                if not words:
                    run.count("preposition", INAPPLICABLE)
                    continue
                if len(words) > 1:
                    run.count("preposition", AMBIGUOUS)
                    continue
                if rules is not None and (rules.blacklisted("preposition", words[0]) or pooled[words[0]] != 1):
                    # the engine relates only the objects left after its blacklist, volume cut and
                    # once rule: the answer too must be one of a kind among the unique rooms
                    run.count("preposition", INAPPLICABLE)
                    continue
                program = tuple(step.format(relation=relation) for step in PROGRAMS["preposition"])
                _ask(run, facts, "preposition", f"What is {relation} the {entity.name} in the {room.name}?", words[0],
                     [anchor], room.room.room_id, answer_objects=found, program=program,
                     detail={"relation": relation})


def _presence(facts: HomeFacts, room: RoomFact, word: str) -> tuple[list[ObjectFact], bool]:
    """The visible objects of ``word`` in ``room``, and whether a hidden one is there too."""
    objects = [o for o in facts.objects if o.word == word and o.room == room.room_id]
    return [o for o in objects if not o.hidden], any(o.hidden for o in objects)


def _existence(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    for room in asked_rooms(_unique_rooms(facts, vocabulary, rules)):
        assert room.room is not None
        for word in sorted(vocabulary.words):
            if vocabulary.blacklisted("existence", word) or (rules and (rules.blacklisted("existence", word)
                                                                        or not rules.in_suncg(word))):
                continue
            seen, hidden = _presence(facts, room.room, word)
            if not seen and hidden:
                run.count("existence", AMBIGUOUS)  # only shut away: the agent cannot tell
                continue
            article = indefinite_article(word)
            _ask(run, facts, "existence", f"Is there {article} {word} in the {room.name}?", "yes" if seen else "no",
                 [], room.room.room_id, answer_objects=seen, detail={"word": word})


def _logical(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    home_words = sorted({o.word for o in facts.objects if o.word is not None and o.asked
                         and vocabulary.words[o.word].kind == "furniture"
                         and not vocabulary.blacklisted("logical", o.word)
                         and (rules is None or (not rules.blacklisted("logical", o.word)
                                                and rules.in_suncg(o.word)))})
    for room in asked_rooms(_unique_rooms(facts, vocabulary, rules)):
        assert room.room is not None
        for first, second in combinations(home_words, 2):
            seen_a, hidden_a = _presence(facts, room.room, first)
            seen_b, hidden_b = _presence(facts, room.room, second)
            if not seen_a and not seen_b:
                continue  # neither is in the room: the paper's pairs name something the room has
            if (not seen_a and hidden_a) or (not seen_b and hidden_b):
                run.count("logical", AMBIGUOUS)
                continue
            answer = "yes" if seen_a and seen_b else "no"
            text = (f"Is there {indefinite_article(first)} {first} and {indefinite_article(second)} {second} "
                    f"in the {room.name}?")
            _ask(run, facts, "logical", text, answer, [], room.room.room_id, answer_objects=seen_a + seen_b,
                 detail={"words": [first, second]})


def _count(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    for room in asked_rooms(_unique_rooms(facts, vocabulary, rules)):
        assert room.room is not None
        words = sorted({e.name for e in visible(blacklist(select_objects(facts, room.room, rules), "count", vocabulary,
                                                          rules))})
        for word in words:
            seen, hidden = _presence(facts, room.room, word)
            if hidden:
                run.count("count", AMBIGUOUS)  # a shut-away one would change the count
                continue
            if len(seen) > MAX_COUNT:
                run.count("count", INAPPLICABLE)
                continue
            plural = vocabulary.words[word].plural
            _ask(run, facts, "count", f"How many {plural} in the {room.name}?", str(len(seen)), [],
                 room.room.room_id, answer_objects=seen, detail={"word": word})


def _room_count(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    counts = Counter(t for r in facts.rooms  # the engine counts every name of a room it keeps
                     if rules is None or not any(rules.room_dropped(k) for k in r.types) for t in r.types)
    for room_type in sorted(counts):
        if counts[room_type] > MAX_COUNT:
            run.count("room_count", INAPPLICABLE)
            continue
        plural = vocabulary.room_word(room_type).plural
        _ask(run, facts, "room_count", f"How many {plural} in the house?", str(counts[room_type]), [], None,
             detail={"room_type": room_type})


def _distance(facts: HomeFacts, vocabulary: Vocabulary, run: ProgramRun, rules: PaperRules | None = None) -> None:
    rooms = _unique_rooms(facts, vocabulary, rules)
    for room in asked_rooms(rooms):
        assert room.room is not None
        objects = [e.obj for e in visible(blacklist(_unique_in_room(facts, room.room, rooms, rules), "distance",
                                                    vocabulary, rules))
                   if e.obj is not None and vocabulary.words[e.name].kind == "furniture"]
        for anchor in objects:
            others = sorted((o for o in objects if o is not anchor), key=lambda o: str(o.word))
            for near, far in combinations(others, 2):
                d_near = floor_distance((anchor.lo, anchor.hi), (near.lo, near.hi))
                d_far = floor_distance((anchor.lo, anchor.hi), (far.lo, far.hi))
                if abs(d_near - d_far) < DISTANCE_MARGIN:
                    run.count("distance", INAPPLICABLE)
                    continue
                text = f"Is the {anchor.word} closer to the {near.word} than to the {far.word} in the {room.name}?"
                _ask(run, facts, "distance", text, "yes" if d_near < d_far else "no", [anchor, near, far],
                     room.room.room_id, detail={"distances": [round(d_near, 3), round(d_far, 3)]})


def _ask(run: ProgramRun, facts: HomeFacts, template: str, text: str, answer: str, targets: list[ObjectFact],
         room: str | None, *, answer_objects: Sequence[ObjectFact] = (), program: tuple[str, ...] | None = None,
         detail: dict[str, Any] | None = None) -> None:
    run.questions.append(Question(facts.scene, template, text, answer, program or PROGRAMS[template], targets, room,
                                  list(answer_objects), dict(detail or {})))
    run.count(template, ASKED)


_RUNNERS: dict[str, Callable[[HomeFacts, Vocabulary, ProgramRun, PaperRules | None], None]] = {
    "location": _location, "color": _color, "color_room": _color_room, "preposition": _preposition,
    "existence": _existence, "logical": _logical, "count": _count, "room_count": _room_count, "distance": _distance,
}


def templates_for(facts: HomeFacts, templates: Sequence[str] = TEMPLATES) -> list[str]:
    """The templates that run in this home: all of ``templates`` in a house, the room-free ones in
    a single room."""
    return [t for t in templates if facts.is_house or t in ROOM_FREE]


def run_programs(facts: HomeFacts, vocabulary: Vocabulary, templates: Sequence[str] = TEMPLATES,
                 rules: PaperRules | None = None) -> ProgramRun:
    """Every template's program over one home (see the module docstring); with ``rules``, the
    paper's sampling rules (:mod:`.sampling`), else every question the vocabulary allows."""
    run = ProgramRun()
    for template in templates_for(facts, templates):
        run.outcomes.setdefault(template, Counter())
        _RUNNERS[template](facts, vocabulary, run, rules)
    return run
