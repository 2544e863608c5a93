"""``alfred-gen perturb``: ALFRED-L's language perturbations E1 and E2, on any trajectories.

**E1** removes directional and spatial words and phrases from every instruction, goal and steps
alike. The paper's example: "Turn to the left, then to the right, then to the sink on the right"
becomes "Turn sink". What is removed is :data:`SPATIAL_PHRASES` (longest first, so "to the left"
goes as one piece before "to the" is tried) and :data:`SPATIAL_WORDS`, matched on whole words
without regard to case. The paper's example fixes three choices beyond the obvious direction words:
"to the" goes (it only says which way: "then to the sink" -> "sink"), "then" goes (it orders moves),
and a comma goes with the words it followed. After removal, a dangling "and" (before a stop or at
the start of a clause) goes too, a sentence's stop stays if a word of its sentence stayed, each
sentence's first word left takes the case of its original first word, and the spacing between the
words left is the original's (quotes and apostrophes stay as written).

The paper's two other examples of Figure 6 fix three more: a length goes with its number and a
"for" before it ("Walk forward four steps, turn left for three steps and stop to the left of the
toilet" -> "Walk turn stop toilet"), a connector right after removed words goes with them (it
joined what was removed: "... three steps and stop"), and moving "over" to a place "so that you
are at the right end of the" desk is spatial ("Move over to your right so that you are at the right
end of the desk" -> "Move desk").

**E2** drops the step-by-step instructions and keeps the goal description: every ``high_descs``
line becomes the empty string. The list keeps its length so that loaders that index it by subgoal
(ALFRED's seq2seq) still read the file.

Both apply to every annotation of ``turk_annotations`` and to ``template``; the actions, frames and
everything else are the source's. Files are written into ALFRED's layout under ``--out`` (the
frames hard-linked when the file system allows, else copied) and marked with
``language_perturbations``. Nothing is replayed: the actions are the source's own.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import AlreadyCommitted, committing_dir
from alfred_gen.derive.outcomes import DeriveReason
from alfred_gen.derive.run import find_sources
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.progress import progress, shown_path
from alfred_gen.replay.vet import write_vetted_trial
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory, trajectory_dir_name_for

#: The perturbations (the command's and the files' words).
KINDS = ("e1", "e2")

#: The key listing the perturbations a trajectory's language went through, in order.
PERTURBATIONS_KEY = "language_perturbations"

#: E1: directional and spatial phrases, removed as a whole (matched before single words).
SPATIAL_PHRASES: tuple[str, ...] = (
    "turn around", "turn right around", "turn all the way around", "all the way around",
    "to the left of", "to the right of", "on the left of", "on the right of",
    "to the left", "to the right", "on the left", "on the right", "on your left", "on your right",
    "to your left", "to your right", "at the left", "at the right", "the left", "the right",
    "in front of", "in the front of", "in back of", "on top of", "at the end of", "at the top of",
    "at the bottom of", "in the middle of", "in the corner of", "next to", "across from",
    "up to the", "over to the", "down to the", "back to the", "to the", "to your", "towards the",
    "toward the", "and then", "a few steps", "a couple of steps", "a couple steps", "a step",
    "a bit", "a little", "look up", "look down", "go straight", "straight ahead",
    # Figure 6's second example: "Move over to your right so that you are at the right end of the desk".
    "so that you are", "at the left end of the", "at the right end of the", "at the far end of the",
    "at the end of the", "on the other side of the", "the other side of", "to the left of the",
    "to the right of the", "on the left of the", "on the right of the",
)

#: E1: lengths, removed with the number before them and a "for" before that ("for three steps").
UNITS: frozenset[str] = frozenset({"step", "steps", "metre", "metres", "meter", "meters", "foot", "feet"})

#: Numbers written as words (a digit token counts as a number too).
NUMBER_WORDS: frozenset[str] = frozenset({
    "a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "several", "few",
    "couple", "half",
})

#: E1: directional and spatial words, removed wherever they stand.
SPATIAL_WORDS: frozenset[str] = frozenset({
    "left", "right", "forward", "forwards", "ahead", "behind", "backward", "backwards", "around",
    "straight", "towards", "toward", "then", "step", "steps", "across", "past", "beside", "between",
    "near", "nearby", "opposite", "north", "south", "east", "west", "leftmost", "rightmost",
    "clockwise", "counterclockwise", "further", "farther", "until", "onward", "onwards", "sideways",
    "upward", "downward", "front", "over", "metre", "metres", "meter", "meters",
})

#: Words that lose their sense when what they joined was removed.
_CONNECTORS = frozenset({"and", "or"})

_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?|\d+(?:\.\d+)?|[^\sA-Za-z\d]")
_WORD = re.compile(r"[A-Za-z\d]")
_STOPS = frozenset(".!?")
_QUOTES = frozenset("\"'")
_PHRASES = sorted((tuple(p.split()) for p in SPATIAL_PHRASES), key=lambda p: (-len(p), p))


def _is_word(token: str) -> bool:
    return bool(_WORD.match(token))


def words_of(text: str) -> list[str]:
    """The word tokens of a text (what the token counts count)."""
    return [token for token in _TOKEN.findall(text) if _is_word(token)]


@dataclass(frozen=True)
class _Token:
    """A word or a mark of an instruction: its text, whether a space preceded it there, and for a
    sentence's first word whether it was capitalised (the first word kept gets its case)."""

    text: str
    spaced: bool
    capital: bool | None = None  # set on a sentence's first word only


def _tokens(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    sentence_start = True
    for match in _TOKEN.finditer(text):
        token, at = match.group(), match.start()
        spaced = at > 0 and text[at - 1].isspace()
        capital = None
        if _is_word(token) and sentence_start:
            capital, sentence_start = token[:1].isupper(), False
        elif token in _STOPS:
            sentence_start = True
        tokens.append(_Token(token, spaced, capital))
    return tokens


def _removed_marks(tokens: Sequence[str]) -> list[bool]:
    lower = [token.lower() for token in tokens]
    removed = [False] * len(tokens)
    i = 0
    while i < len(tokens):
        for phrase in _PHRASES:
            if tuple(lower[i:i + len(phrase)]) == phrase:
                for j in range(i, i + len(phrase)):
                    removed[j] = True
                i += len(phrase)
                break
        else:
            removed[i] = lower[i] in SPATIAL_WORDS
            i += 1
    for i, token in enumerate(lower):  # "for three steps", "2 metres": the length goes with its unit
        if token in UNITS and removed[i]:
            j = i - 1
            while j >= 0 and (lower[j] in NUMBER_WORDS or lower[j].replace(".", "", 1).isdigit()):
                removed[j] = True
                j -= 1
            if j >= 0 and j < i - 1 and lower[j] == "for":
                removed[j] = True
    for i in range(1, len(tokens)):  # a connector after removed words joined what was removed
        if lower[i] in _CONNECTORS and removed[i - 1]:
            removed[i] = True
    return removed


def remove_spatial(text: str) -> str:
    """E1 on one instruction (see the module docstring)."""
    tokens = _tokens(text)
    removed = _removed_marks([token.text for token in tokens])
    kept: list[_Token] = []
    words_in_sentence = False
    capital = False
    for i, token in enumerate(tokens):
        if token.capital is not None:
            capital = token.capital
        if removed[i]:
            continue
        if _is_word(token.text):
            if not words_in_sentence and capital:
                token = _Token(token.text[:1].upper() + token.text[1:], token.spaced)
            kept.append(token)
            words_in_sentence = True
        elif token.text in _STOPS:
            if words_in_sentence:
                kept.append(token)
            words_in_sentence = False
        elif i > 0 and not removed[i - 1] and kept and _is_word(kept[-1].text):
            kept.append(token)  # a comma (or the like) after a kept word
    out = ""
    for token in _drop_dangling(kept):
        out += f" {token.text}" if out and token.spaced else token.text
    return out


def _drop_dangling(tokens: list[_Token]) -> list[_Token]:
    """Drop connectors with nothing to join (at a clause's start or end) and marks left hanging."""
    changed = True
    while changed:
        changed = False
        for i, token in enumerate(tokens):
            before = tokens[i - 1].text if i > 0 else None
            after = tokens[i + 1].text if i + 1 < len(tokens) else None
            dangling_connector = token.text.lower() in _CONNECTORS and (
                before is None or not _is_word(before) or after is None or not _is_word(after))
            hanging = after is None or after in _STOPS or not _is_word(after) or before is None
            dangling_mark = not _is_word(token.text) and token.text not in _STOPS | _QUOTES and hanging
            if dangling_connector or dangling_mark:
                if dangling_connector and before is None and after is not None and token.text[:1].isupper():
                    nxt = tokens[i + 1]  # the sentence now starts with the next word: it takes the capital
                    tokens[i + 1] = _Token(nxt.text[:1].upper() + nxt.text[1:], nxt.spaced)
                del tokens[i]
                changed = True
                break
    return tokens


def drop_steps(text: str) -> str:
    """E2 on one step-by-step instruction: nothing is left."""
    return ""


@dataclass
class LanguageCounts:
    """Instructions and word tokens seen, changed and removed (over human annotations)."""

    instructions: int = 0
    changed: int = 0
    tokens: int = 0
    removed: int = 0

    def add(self, before: str, after: str) -> None:
        self.instructions += 1
        self.changed += before != after
        old, new = Counter(w.lower() for w in words_of(before)), Counter(w.lower() for w in words_of(after))
        self.tokens += sum(old.values())
        self.removed += sum((old - new).values())

    def merge(self, other: LanguageCounts) -> None:
        self.instructions += other.instructions
        self.changed += other.changed
        self.tokens += other.tokens
        self.removed += other.removed

    def describe(self) -> str:
        share = 100.0 * self.changed / self.instructions if self.instructions else 0.0
        gone = 100.0 * self.removed / self.tokens if self.tokens else 0.0
        return (f"{self.changed}/{self.instructions} instructions changed ({share:.1f}%), "
                f"{self.removed}/{self.tokens} words removed ({gone:.1f}%)")


def perturb_language(traj: Mapping[str, Any], kind: str) -> tuple[dict[str, Any], LanguageCounts]:
    """The trajectory with ``kind`` applied to its annotations and template, and the counts (over
    ``turk_annotations``: the template repeats one of them for our files)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    goal_rule: Callable[[str], str] = remove_spatial if kind == "e1" else (lambda text: text)
    step_rule: Callable[[str], str] = remove_spatial if kind == "e1" else drop_steps
    counts = LanguageCounts()
    out = dict(traj)

    def apply(block: Mapping[str, Any], count: bool) -> dict[str, Any]:
        new = dict(block)
        new["task_desc"] = goal_rule(str(block["task_desc"]))
        new["high_descs"] = [step_rule(str(line)) for line in block["high_descs"]]
        if count:
            counts.add(str(block["task_desc"]), new["task_desc"])
            for before, after in zip(block["high_descs"], new["high_descs"]):
                counts.add(str(before), after)
        return new

    if isinstance(traj.get("turk_annotations"), Mapping):
        anns = traj["turk_annotations"].get("anns") or []
        out["turk_annotations"] = {**traj["turk_annotations"], "anns": [apply(ann, True) for ann in anns]}
    if isinstance(traj.get("template"), Mapping):
        out["template"] = apply(traj["template"], False)
    out[PERTURBATIONS_KEY] = [*traj.get(PERTURBATIONS_KEY, []), kind]
    return out, counts


# --------------------------------------------------------------------------------------------
# The command


@dataclass
class PerturbResult:
    reason: DeriveReason
    detail: str = ""
    counts: LanguageCounts = field(default_factory=LanguageCounts)


def _link_or_copy(source: Path, target: Path) -> None:
    """Mirror a trial directory's other files (frames): hard links when possible (they are never
    rewritten in place: replays rename new files over old ones), copies otherwise."""
    for path in sorted(source.rglob("*")):
        if path.name == TRAJ_FILE_NAME and path.parent == source:
            continue
        destination = target / path.relative_to(source)
        if path.is_dir():
            destination.mkdir(parents=True, exist_ok=True)
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(path, destination)
        except OSError:
            shutil.copy2(path, destination)


def perturb_one(path: Path, out_root: Path, kind: str) -> PerturbResult:
    """Write the perturbed copy of one trajectory (atomically: a hidden directory renamed into
    place); never raises on bad data."""
    try:
        traj = load_trajectory(path)
        final_dir = out_root / trajectory_dir_name_for(traj) / str(traj["task_id"])
    except (UserError, ValueError) as error:
        return PerturbResult(DeriveReason.BAD_SOURCE, " ".join(str(error).split()))
    if final_dir.exists():
        return PerturbResult(DeriveReason.EXISTS, f"{final_dir} already exists")
    new, counts = perturb_language(traj, kind)
    try:
        with committing_dir(final_dir) as temp_dir:
            _link_or_copy(path.parent, temp_dir)
            write_vetted_trial(new, temp_dir, controller_factory=None)  # the language only: nothing to replay
    except AlreadyCommitted:
        return PerturbResult(DeriveReason.EXISTS, f"{final_dir} already exists")
    return PerturbResult(DeriveReason.OK, "", counts)


def perturb_command(kind: str, sources: Iterable[str], out: str, *, echo: Callable[[str], None] = print,
                    show_progress: bool = True) -> ExitCode:
    """``alfred-gen perturb``: one line per source not written, then what changed and a summary."""
    if kind not in KINDS:
        raise UserError(f"unknown perturbation {kind!r} (one of {', '.join(KINDS)})", ExitCode.USAGE)
    out_root = Path(out)
    if out_root.exists() and not out_root.is_dir():
        raise UserError(f"{out}: exists and is not a directory", ExitCode.BAD_INPUT)
    paths = find_sources(list(sources), out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    results = []
    with progress(f"perturbing {kind}", len(paths), show=show_progress) as bar:
        for path in paths:
            results.append(perturb_one(path, out_root, kind))
            bar.update(1)
    total = LanguageCounts()
    for path, result in zip(paths, results):
        total.merge(result.counts)
        if result.reason != DeriveReason.OK:
            echo(f"{shown_path(path)}: {result.reason}: {result.detail}")
    counts = Counter(result.reason for result in results)
    made = counts.pop(DeriveReason.OK, 0)
    echo(f"{kind}: {total.describe()}")
    skipped = ", ".join(f"{reason} {n}" for reason, n in sorted(counts.items()))
    echo(f"perturbed {made}, skipped {sum(counts.values())}{': ' + skipped if skipped else ''} "
         f"(in {time.monotonic() - began:.1f} s)")
    return ExitCode.FAILED if counts.get(DeriveReason.BAD_SOURCE) else ExitCode.OK
