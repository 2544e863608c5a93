"""`alfred-gen actthor contrast`: contrast sets of after-images, and the unseen-room / unseen-object splits.

The paper's rules, applied to the triples that survive cleaning (:mod:`alfred_gen.actthor.cleaning`):

- Before-images with fewer than :data:`MIN_AFTER_IMAGES` kept after-images are left out (with the
  put/throw and push/pull rule below, fewer could not give two distractors).
- For every remaining triple, in an order shuffled by the seed: two distractors are after-images of
  the **same before-image** with other actions, drawn by the seed; never put with throw or push with
  pull (:data:`~alfred_gen.actthor.actions.OPPOSITES`), whether as target and distractor or as two
  distractors. That is the three-image set.
- The fourth candidate is an after-image of the **same action on the same object type, in the same
  trial, in another room**, drawn by the seed from every kept triple; a set without one has no
  four-image variant.
- Candidates are shuffled by the seed; ``true_index`` is where the true after-image went.

Splits (both labelled on every set): **unseen rooms** by the room's index within its type
(``N % 100``: 1-20 train, 21-25 validation, 26-30 test, as the paper's FloorPlan indices) and
**unseen objects**: the held-out object types (default Laptop, Cup, Book) are the test set, and the
sets of a seeded fifth of the other before-images are the validation set.

Written to ``<DIR>/contrast/``: ``sets4.jsonl`` (four candidates), ``sets3.jsonl`` (three) and
``info.json`` (seed, rules, counts). Same triples and seed, same bytes.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.actthor.actions import OPPOSITES
from alfred_gen.actthor.cleaning import RULES, drop_reason
from alfred_gen.actthor.triples import TRIPLES_FILE
from alfred_gen.atomic import write_text
from alfred_gen.errors import ExitCode, UserError

CONTRAST_DIR = "contrast"
SETS4_FILE = "sets4.jsonl"
SETS3_FILE = "sets3.jsonl"
INFO_FILE = "info.json"

#: Kept after-images a before-image needs for its triples to become sets.
MIN_AFTER_IMAGES = 4
#: Unseen rooms: room index within its type (N % 100) -> split.
ROOM_SPLITS = ((range(1, 21), "train"), (range(21, 26), "valid"), (range(26, 31), "test"))
#: Unseen objects: the paper's held-out types, and the share of other before-images for validation.
DEFAULT_HELD_OUT = ("Laptop", "Cup", "Book")
VALID_SHARE = 0.2
SPLITS = ("train", "valid", "test")
#: Fields of a triple record the sets, the splits and the cleaning read.
TRIPLE_FIELDS = frozenset({
    "id", "scene", "scene_num", "object_type", "object_id", "trial", "action", "before_image", "after_image",
    "success", "pixels_after", "changed_pixels", "sentence",
})


def load_triples(directory: Path) -> list[dict[str, Any]]:
    """Every triple of a collection (its ``triples.jsonl``); UserError when it is missing or broken."""
    path = directory / TRIPLES_FILE
    if not path.is_file():
        raise UserError(f"{directory}: no {TRIPLES_FILE} (run `alfred-gen actthor triples` first)", ExitCode.NOT_FOUND)
    triples = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            triple = json.loads(line)
        except ValueError as error:
            raise UserError(f"{path}:{number}: not JSON ({error})", ExitCode.BAD_INPUT) from None
        missing = TRIPLE_FIELDS - set(triple) if isinstance(triple, dict) else TRIPLE_FIELDS
        if missing:
            raise UserError(f"{path}:{number}: not a triple record (missing {', '.join(sorted(missing))})",
                            ExitCode.BAD_INPUT)
        triples.append(triple)
    return triples


def kept(triples: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The triples that survive cleaning, by id."""
    return sorted((t for t in triples if drop_reason(t, RULES) is None), key=lambda t: t["id"])


def room_split(scene_num: int | None) -> str:
    index = (scene_num or 0) % 100
    for indices, split in ROOM_SPLITS:
        if index in indices:
            return split
    return "train"


def object_splits(triples: Sequence[Mapping[str, Any]], held_out: Sequence[str], seed: int) -> dict[str, str]:
    """Before-image -> split of the unseen-object split."""
    held = set(held_out)
    befores = sorted({t["before_image"] for t in triples})
    object_of = {t["before_image"]: t["object_type"] for t in triples}
    rng = random.Random(f"objects:{seed}")
    out = {}
    for before in befores:
        draw = rng.random()
        if object_of[before] in held:
            out[before] = "test"
        else:
            out[before] = "valid" if draw < VALID_SHARE else "train"
    return out


def _draw_distractors(rng: random.Random, target: Mapping[str, Any],
                      siblings: list[Mapping[str, Any]]) -> list[Mapping[str, Any]] | None:
    pool = [s for s in siblings if s["id"] != target["id"] and s["action"] != OPPOSITES.get(target["action"])]
    chosen: list[Mapping[str, Any]] = []
    for _ in range(2):
        if not pool:
            return None
        pick = pool[rng.randrange(len(pool))]
        chosen.append(pick)
        pool = [s for s in pool if s["id"] != pick["id"] and s["action"] != OPPOSITES.get(pick["action"])]
    return chosen


def _candidate(triple: Mapping[str, Any]) -> dict[str, Any]:
    return {"image": triple["after_image"], "action": triple["action"], "scene": triple["scene"],
            "object_type": triple["object_type"], "triple": triple["id"]}


def build_sets(
    triples: Sequence[Mapping[str, Any]], seed: int, held_out: Sequence[str] = DEFAULT_HELD_OUT
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(four-image sets, three-image sets) by the rules in the module docstring."""
    good = kept(triples)
    by_before: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for t in good:
        by_before[t["before_image"]].append(t)
    same_action: dict[tuple[str, str, str], list[Mapping[str, Any]]] = defaultdict(list)
    for t in good:
        same_action[(t["trial"], t["object_type"], t["action"])].append(t)
    eligible = [t for t in good if len(by_before[t["before_image"]]) >= MIN_AFTER_IMAGES]
    objects = object_splits(eligible, held_out, seed)
    rng = random.Random(f"sets:{seed}")
    order = list(eligible)
    rng.shuffle(order)
    sets3: list[dict[str, Any]] = []
    sets4: list[dict[str, Any]] = []
    for target in order:
        distractors = _draw_distractors(rng, target, by_before[target["before_image"]])
        if distractors is None:
            continue
        base = {
            "triple": target["id"],
            "scene": target["scene"],
            "room_type": target.get("room_type"),
            "object_type": target["object_type"],
            "object_id": target["object_id"],
            "trial": target["trial"],
            "action": target["action"],
            "sentence": target["sentence"],
            "before": target["before_image"],
            "splits": {"rooms": room_split(target.get("scene_num")), "objects": objects[target["before_image"]]},
        }
        three = [target, *distractors]
        shuffled3 = list(range(3))
        rng.shuffle(shuffled3)
        sets3.append({**base, "candidates": [_candidate(three[k]) for k in shuffled3],
                      "true_index": shuffled3.index(0)})
        others = [t for t in same_action[(target["trial"], target["object_type"], target["action"])]
                  if t["scene"] != target["scene"]]
        if not others:
            continue
        four = [*three, others[rng.randrange(len(others))]]
        shuffled4 = list(range(4))
        rng.shuffle(shuffled4)
        sets4.append({**base, "candidates": [_candidate(four[k]) for k in shuffled4],
                      "true_index": shuffled4.index(0)})
    for number, record in enumerate(sets3):
        record["id"] = number
    for number, record in enumerate(sets4):
        record["id"] = number
    return sets4, sets3


def violations(
    triples: Sequence[Mapping[str, Any]], sets4: Sequence[Mapping[str, Any]], sets3: Sequence[Mapping[str, Any]],
    held_out: Sequence[str] = DEFAULT_HELD_OUT,
) -> list[str]:
    """Every way the sets break the rules (an empty list when they keep them all), checked against
    the triples: the true index names the target's after-image; the two distractors are kept
    after-images of the same before-image with other actions; the fourth candidate is the same
    action on the same object type in the same trial in another room; no candidates are put and
    throw or push and pull; every before-image has enough after-images; the splits are right."""
    by_id = {t["id"]: t for t in triples}
    good = {t["id"] for t in kept(triples)}
    count: dict[str, int] = defaultdict(int)
    for t in triples:
        if t["id"] in good:
            count[t["before_image"]] += 1
    problems: list[str] = []
    for size, sets in ((4, sets4), (3, sets3)):
        for record in sets:
            where = f"{size}-image set {record.get('id')}"
            candidates = record["candidates"]
            if len(candidates) != size:
                problems.append(f"{where}: {len(candidates)} candidates")
                continue
            linked = [by_id.get(c["triple"]) for c in candidates]
            if any(t is None or t["id"] not in good for t in linked):
                problems.append(f"{where}: a candidate is not a kept triple")
                continue
            target = by_id[record["triple"]]
            true = candidates[record["true_index"]]
            if true["triple"] != target["id"] or true["image"] != target["after_image"]:
                problems.append(f"{where}: true_index does not point at the target's after-image")
            if record["before"] != target["before_image"] or record["action"] != target["action"]:
                problems.append(f"{where}: before-image or action is not the target's")
            others = [t for t in linked if t is not None and t["id"] != target["id"]]
            same_before = [t for t in others if t["before_image"] == target["before_image"]]
            if len(same_before) != 2 or any(t["action"] == target["action"] for t in same_before):
                problems.append(f"{where}: not two distractors from the same before-image with other actions")
            if size == 4:
                third = [t for t in others if t["scene"] != target["scene"]]
                if len(third) != 1 or (third[0]["action"], third[0]["object_type"], third[0]["trial"]) != (
                        target["action"], target["object_type"], target["trial"]):
                    problems.append(f"{where}: the fourth is not the same action and object type in another room")
            actions = [t["action"] for t in linked if t is not None]
            if any(OPPOSITES.get(a) in actions for a in actions):
                problems.append(f"{where}: put with throw or push with pull")
            if len({c["image"] for c in candidates}) != size:
                problems.append(f"{where}: a candidate image is repeated")
            if count[target["before_image"]] < MIN_AFTER_IMAGES:
                problems.append(f"{where}: its before-image has fewer than {MIN_AFTER_IMAGES} after-images")
            if record["splits"]["rooms"] != room_split(target.get("scene_num")):
                problems.append(f"{where}: wrong unseen-room split")
            if (record["splits"]["objects"] == "test") != (target["object_type"] in set(held_out)):
                problems.append(f"{where}: wrong unseen-object split")
    return problems


def _jsonl(records: Iterable[Mapping[str, Any]]) -> str:
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in records)


def split_counts(sets: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    return {kind: {split: sum(s["splits"][kind] == split for s in sets) for split in SPLITS}
            for kind in ("rooms", "objects")}


def write_sets(directory: Path, seed: int, held_out: Sequence[str] = DEFAULT_HELD_OUT) -> dict[str, Any]:
    """Build the sets of a collection and write them under ``<directory>/contrast/``; the info."""
    triples = load_triples(directory)
    sets4, sets3 = build_sets(triples, seed, held_out)
    problems = violations(triples, sets4, sets3, held_out)
    if problems:  # a bug in build_sets: never write sets that break the rules
        raise RuntimeError(f"{len(problems)} contrast sets break the rules, e.g. {problems[0]}")
    folder = directory / CONTRAST_DIR
    write_text(folder / SETS4_FILE, _jsonl(sets4))
    write_text(folder / SETS3_FILE, _jsonl(sets3))
    info = {
        "seed": seed,
        "held_out_objects": list(held_out),
        "min_after_images": MIN_AFTER_IMAGES,
        "opposites": OPPOSITES,
        "room_splits": {split: [r.start, r.stop - 1] for r, split in ROOM_SPLITS},
        "valid_share": VALID_SHARE,
        "sets4": len(sets4),
        "sets3": len(sets3),
        "splits4": split_counts(sets4),
    }
    write_text(folder / INFO_FILE, json.dumps(info, indent=1, sort_keys=True) + "\n")
    return info


def load_sets(directory: Path, name: str = SETS4_FILE) -> list[dict[str, Any]]:
    path = directory / CONTRAST_DIR / name
    if not path.is_file():
        raise UserError(f"{directory}: no {CONTRAST_DIR}/{name} (run `alfred-gen actthor contrast` first)",
                        ExitCode.NOT_FOUND)
    try:
        return [json.loads(line) for line in path.read_text().splitlines()]
    except ValueError as error:
        raise UserError(f"{path}: not JSON lines ({error})", ExitCode.BAD_INPUT) from None


def parse_held_out(text: str | Sequence[str] | None) -> tuple[str, ...]:
    """``"Laptop,Cup,Book"`` -> the types; UserError for a type that is not pickupable."""
    from alfred_gen.domains.catalogue import OBJECT_TYPES

    if text is None:
        return DEFAULT_HELD_OUT
    items = [text] if isinstance(text, str) else list(text)
    names = tuple(dict.fromkeys(p.strip() for item in items for p in item.split(",") if p.strip()))
    for name in names:
        entry = OBJECT_TYPES.get(name)
        if entry is None or not entry.pickupable:
            raise UserError(f"unknown pickupable object type {name!r}", ExitCode.NOT_FOUND)
    return names


def contrast_command(directory: str, seed: int, held_out: str | None = None,
                     echo: Callable[..., None] = print) -> int:
    """`alfred-gen actthor contrast`: write the sets, print their counts; the exit code."""
    info = write_sets(Path(directory), seed, parse_held_out(held_out))
    echo(f"{info['sets4']} four-image sets and {info['sets3']} three-image sets (seed {seed}) "
         f"in {Path(directory) / CONTRAST_DIR}")
    for kind, counts in info["splits4"].items():
        echo(f"unseen {kind}: " + " / ".join(f"{split} {counts[split]}" for split in SPLITS))
    return int(ExitCode.OK)
