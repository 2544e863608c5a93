"""What SUNCG's open-plan rooms would do to EQA v1's questions per home, on homes we already have.

Written before the houses had open-plan rooms: since they do (gen/scenes/houses/open_plan.py, at
the same rates), "rooms as built" has them already and the open-plan line joins more rooms on top,
so on new facts it measures rates above SUNCG's; it stays for facts of houses without them.

A COUNTERFACTUAL, not a property of our houses: our rooms each had one type, while SUNCG's
kitchens are often also dining (or living) rooms, and its engine asks nothing by room about a room
with two names (location, colour in a room and prepositions skip it; its objects still count when
words are told apart). This script reads the facts an ``eqa questions`` run left in ``DIR/facts``,
joins a home's first kitchen, living room and dining room into one room with several types at the
rates below (each pair drawn for each home from a hash of its name, so a run is repeatable), runs
the four EQA v1 templates under the paper's rules and the entropy filter over all the homes, and
prints questions per home and per template beside the same run with no room joined. The objects
do not move: only their room's names change, so the figure isolates the naming rule.

The rates are read from the engine's own object counts (facebookresearch/EmbodiedQA,
``data/question-gen/data/obj_counts_by_room.json``, which counts an object under every type of its
room): refrigerators 576 under kitchen, 269 under dining room, 66 under living room (a kitchen is
also a dining room for 269/576 = 0.467 of fridges, also a living room for 66/576 = 0.115); sofas
1,344 under living room, 376 under dining room (a living room is also a dining room for 376/1344 =
0.280). Microwaves (201/423 = 0.475 under dining room) and kettles (237/475 = 0.499) agree with the
fridges.

A second counterfactual, ``fridges``: SUNCG counts 576 refrigerators in kitchens over the homes of
that file, which MT-EQA (facebookresearch/MT-EQA) ships byte for byte as
``800env_object_counts_by_room.json``: about 800 homes, so at most 576/800 = 0.72 of its kitchens
(every home has one or more) hold a refrigerator the engine can ask about; the others presumably
have it inside a ``kitchen_set`` model, a class every v1 template blacklists. Each of our kitchens
has one. This variant takes a kitchen's fridge out of the facts (not out of the house) with the
chance 1 - 576/800, drawn per home and kitchen, alone and together with the open plans.

The paper's rules themselves (``gen/eqa/paper_blacklists.json``) already leave out our words that
name no class of SUNCG's homes, so every line here has that rule; the last line applies both
counterfactuals.

    python bench/eqa_open_plan.py DIR [--scale 1.0]
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from alfred_gen.eqa.entropy import apply_filter
from alfred_gen.eqa.facts import HomeFacts, RoomFact
from alfred_gen.eqa.homes import read_facts
from alfred_gen.eqa.programs import Question, run_programs
from alfred_gen.eqa.sampling import load_paper_rules
from alfred_gen.eqa.vocabulary import load_vocabulary

#: EQA v1's templates.
V1 = ("location", "color", "color_room", "preposition")

#: (room type, room type) -> share of the first type's rooms that are also the second (module docstring).
SUNCG_JOINS: dict[tuple[str, str], float] = {
    ("kitchen", "dining_room"): 269 / 576,
    ("kitchen", "living_room"): 66 / 576,
    ("living_room", "dining_room"): 376 / 1344,
}


#: The share of kitchens holding an askable refrigerator: at most SUNCG's 576 over its ~800 homes.
SUNCG_FRIDGE_SHARE = 576 / 800


def without_fridges(facts: HomeFacts, share: float) -> HomeFacts:
    """The home with each kitchen's fridge dropped from its facts when a draw for the home and
    kitchen falls at or above ``share`` (as if built into a kitchen set: never asked about)."""
    dropped = {r.room_id for r in facts.rooms
               if "kitchen" in r.types and draw(facts.scene, ("fridge", r.room_id)) >= share}
    return replace(facts, objects=[o for o in facts.objects if not (o.object_type == "Fridge" and o.room in dropped)])


def draw(home: str, pair: tuple[str, str]) -> float:
    """A repeatable uniform number in [0, 1) for this home and pair of room types."""
    digest = hashlib.sha256(f"{home}|{pair[0]}|{pair[1]}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def joined(facts: HomeFacts, pairs: Sequence[tuple[str, str]]) -> HomeFacts:
    """The home with, for each pair, its first room of either type made one room with both types
    (the one earlier in the home's order keeps its id and type; the other's objects are moved to it
    by name, not in space)."""
    rooms = list(facts.rooms)
    moved: dict[str, str] = {}
    for first_type, second_type in pairs:
        first = next((r for r in rooms if first_type in r.types), None)
        second = next((r for r in rooms if second_type in r.types), None)
        if first is None or second is None or first is second:
            continue
        keep, gone = (first, second) if rooms.index(first) < rooms.index(second) else (second, first)
        types = [t for t in (*keep.types, *gone.types) if t != keep.room_type]
        merged = RoomFact(keep.room_id, keep.room_type, tuple(dict.fromkeys(sorted(types))))
        rooms = [merged if r is keep else r for r in rooms if r is not gone]
        moved = {k: (keep.room_id if v == gone.room_id else v) for k, v in moved.items()}
        moved[gone.room_id] = keep.room_id
    objects = [replace(o, room=moved.get(o.room, o.room)) if o.room is not None else o for o in facts.objects]
    return replace(facts, rooms=rooms, objects=objects)


def pairs_for(home: str, joins: Mapping[tuple[str, str], float], scale: float) -> list[tuple[str, str]]:
    """The pairs of room types this home joins, at the rates times ``scale`` (capped at 1)."""
    return [pair for pair, rate in joins.items() if draw(home, pair) < min(1.0, rate * scale)]


def per_home(questions: Sequence[Question], homes: Sequence[str]) -> tuple[float, int, int, Counter[str]]:
    """Accepted questions per home (mean, min, max) and per template."""
    asked = Counter(q.home for q in questions if q.accepted)
    counts = [asked[h] for h in homes]
    return (statistics.fmean(counts), min(counts), max(counts),
            Counter(q.template for q in questions if q.accepted))


def run(homes: Sequence[HomeFacts]) -> list[Question]:
    """The v1 templates over the homes under the paper's rules, then the entropy filter."""
    vocabulary, rules = load_vocabulary(), load_paper_rules()
    questions: list[Question] = []
    for facts in homes:
        questions.extend(run_programs(facts, vocabulary, V1, rules).questions)
    return apply_filter(questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="an `eqa questions --out` directory (its facts/ are read)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply SUNCG's rates (1: as counted)")
    args = parser.parse_args()
    out = Path(args.dir)
    names = sorted(p.stem for p in (out / "facts").glob("*.json"))
    homes = [f for f in (read_facts(out, n) for n in names) if f is not None and f.is_house]
    scenes = [f.scene for f in homes]
    variants = {"rooms as built": homes,
                f"SUNCG's open plans (rates x{args.scale:g})":
                    [joined(f, pairs_for(f.scene, SUNCG_JOINS, args.scale)) for f in homes],
                f"fridges at {SUNCG_FRIDGE_SHARE:.2f} per kitchen":
                    [without_fridges(f, SUNCG_FRIDGE_SHARE) for f in homes],
                "both": [without_fridges(joined(f, pairs_for(f.scene, SUNCG_JOINS, args.scale)), SUNCG_FRIDGE_SHARE)
                         for f in homes]}
    drawn = Counter(p for f in homes for p in pairs_for(f.scene, SUNCG_JOINS, args.scale))
    print(f"{len(homes)} homes; joined: " + ", ".join(f"{a}+{b} {drawn[(a, b)]}" for a, b in SUNCG_JOINS))
    for label, facts in variants.items():
        mean, low, high, templates = per_home(run(facts), scenes)
        print(f"{label:<36} {mean:5.1f} ({low}-{high}) per home, {sum(templates.values())} accepted: "
              + ", ".join(f"{t} {templates[t]}" for t in V1))


if __name__ == "__main__":
    main()
