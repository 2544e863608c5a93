"""``alfred-gen annotate import``: people's answers and votes merged into ``turk_annotations``.

An answer is a JSON line from a task page (``kind: annotation``: a goal and one line per subgoal)
or a vote page (``kind: vote``: which annotations of a demo fit, by assignment id). Workers' text is
untrusted, so an answer is refused, with one line saying why, when it is not an object of the
expected fields, names no demo of the directory, has the wrong number of lines, an empty or
overlong line, or any markup (``<``, ``>``, ``&``, a character reference) or control character.
What is kept goes into ALFRED's fields: ``assignment_id``, ``high_descs``, ``task_desc``,
``votes``, plus ``worker_id`` as a salted SHA-256 (never the id itself). Votes are appended to the
``votes`` of the annotation they name.

Each trajectory is written once, atomically, after every answer for it was merged and the result
validated against the schema; an annotation already there is never changed or dropped (an answer
whose assignment id is already there is refused as a duplicate).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.annotate.hits import find_demos, subgoal_names
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import InvalidTrajectoryError, save_trajectory

#: Longest line a worker may write (characters).
MAX_LINE = 300

#: Salt of the worker-id hash (so ids from other data sets do not match ours by accident).
WORKER_SALT = "alfred-gen-annotate:"

_MARKUP = re.compile(r"[<>&]|&#|javascript:", re.IGNORECASE)
_ASSIGNMENT = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


class Refused(ValueError):
    """An answer that is not imported, and why (one line)."""


def hashed_worker(worker_id: str) -> str:
    """The worker id as kept: 16 hex digits of a salted SHA-256."""
    return hashlib.sha256((WORKER_SALT + worker_id).encode("utf-8")).hexdigest()[:16]


def check_text(text: Any, what: str) -> str:
    """A worker's line, checked: a non-empty string without markup or control characters."""
    if not isinstance(text, str):
        raise Refused(f"{what} is not text")
    words = " ".join(text.split())
    if not words:
        raise Refused(f"{what} is empty")
    if len(words) > MAX_LINE:
        raise Refused(f"{what} is longer than {MAX_LINE} characters")
    if _MARKUP.search(text):
        raise Refused(f"{what} contains markup (<, >, & or a script URL)")
    if any(unicodedata.category(c) in ("Cc", "Cf") and c not in " " for c in text):
        raise Refused(f"{what} contains a control character")
    if not any(c.isalpha() for c in words):
        raise Refused(f"{what} has no words")
    return words


@dataclass
class Answer:
    demo: str
    kind: str
    assignment_id: str
    worker: str
    task_desc: str = ""
    high_descs: tuple[str, ...] = ()
    votes: tuple[tuple[str, int], ...] = ()


def parse_answer(record: Any, demos: Mapping[str, Mapping[str, Any]]) -> Answer:
    """One answer, checked against the demo it names; Refused says what is wrong."""
    if not isinstance(record, Mapping):
        raise Refused("not a JSON object")
    key = record.get("demo")
    if not isinstance(key, str) or key not in demos:
        raise Refused(f"names no demonstration of this directory ({str(key)[:80]!r})")
    traj = demos[key]
    if record.get("task_id") != traj["task_id"]:
        raise Refused(f"task_id does not match {key}")
    assignment = record.get("assignment_id")
    if not isinstance(assignment, str) or not _ASSIGNMENT.match(assignment):
        raise Refused("assignment_id must be 1-128 letters, digits or _.:-")
    worker = record.get("worker_id")
    if not isinstance(worker, str) or not worker.strip() or len(worker) > 128:
        raise Refused("worker_id must be a non-empty string of at most 128 characters")
    kind = record.get("kind")
    if kind == "annotation":
        lines = record.get("high_descs")
        expected = len(subgoal_names(traj))
        if not isinstance(lines, list) or len(lines) != expected:
            raise Refused(f"high_descs must have one line per subgoal ({expected})")
        checked = tuple(check_text(line, f"line {i + 1}") for i, line in enumerate(lines))
        return Answer(key, kind, assignment, hashed_worker(worker), check_text(record.get("task_desc"), "the goal"),
                      checked)
    if kind == "vote":
        votes = record.get("votes")
        known = {str(a.get("assignment_id")) for a in traj.get("turk_annotations", {}).get("anns") or ()}
        if not isinstance(votes, Mapping) or not votes:
            raise Refused("votes must map annotation assignment ids to 0 or 1")
        for name, value in votes.items():
            if name not in known:
                raise Refused(f"votes name an annotation the demo does not have ({str(name)[:80]!r})")
            if value not in (0, 1) or isinstance(value, bool):
                raise Refused("a vote must be 0 or 1")
        return Answer(key, kind, assignment, hashed_worker(worker), votes=tuple(sorted(votes.items())))
    raise Refused("kind must be annotation or vote")


def merge(traj: Mapping[str, Any], answers: Sequence[Answer]) -> tuple[dict[str, Any], list[tuple[Answer, str]]]:
    """The trajectory with ``answers`` merged, and the answers refused while merging (duplicates)."""
    out = json.loads(json.dumps(traj))
    anns = out.setdefault("turk_annotations", {}).setdefault("anns", [])
    refused = []
    seen = {str(a.get("assignment_id")) for a in anns}
    voted = {(str(a.get("assignment_id")), voter) for a in anns for voter in a.get("voters") or ()}
    for answer in answers:
        if answer.kind == "annotation":
            if answer.assignment_id in seen:
                refused.append((answer, f"assignment {answer.assignment_id} is already in the file"))
                continue
            anns.append({"assignment_id": answer.assignment_id, "high_descs": list(answer.high_descs),
                         "task_desc": answer.task_desc, "votes": [], "worker_id": answer.worker})
            seen.add(answer.assignment_id)
        else:
            by_id = {str(a.get("assignment_id")): a for a in anns}
            if any((name, answer.assignment_id) in voted for name, _ in answer.votes):
                refused.append((answer, f"votes of assignment {answer.assignment_id} are already in the file"))
                continue
            for name, value in answer.votes:
                target = by_id[name]
                target.setdefault("votes", []).append(int(value))
                target.setdefault("voters", []).append(answer.assignment_id)
                voted.add((name, answer.assignment_id))
    return out, refused


def read_answers(paths: Sequence[str]) -> list[tuple[str, Any]]:
    """(where, record) of every line of the answer files; UserError for an unreadable file."""
    records = []
    for name in paths:
        try:
            text = Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise UserError(f"{name}: cannot read ({error.__class__.__name__})", ExitCode.BAD_INPUT) from None
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append((f"{name}:{number}", json.loads(line)))
            except json.JSONDecodeError:
                records.append((f"{name}:{number}", None))
    return records


def import_answers(answer_files: Sequence[str], root: str, echo: Callable[[str], None] = print) -> ExitCode:
    """``alfred-gen annotate import``: one line per refused answer, then a summary; FAILED if any was
    refused (the others are imported all the same)."""
    began = time.monotonic()
    demos = {demo.key: demo for demo in find_demos(Path(root))}
    trajs = {key: demo.traj for key, demo in demos.items()}
    by_demo: dict[str, list[Answer]] = defaultdict(list)
    refused = 0
    for where, record in read_answers(answer_files):
        try:
            if record is None:
                raise Refused("not valid JSON")
            answer = parse_answer(record, trajs)
        except Refused as error:
            echo(f"{where}: refused: {error}")
            refused += 1
            continue
        by_demo[answer.demo].append(answer)
    imported = votes = 0
    for key in sorted(by_demo):
        merged, duplicates = merge(trajs[key], by_demo[key])
        for _duplicate, reason in duplicates:
            echo(f"{key}: refused: {reason}")
        refused += len(duplicates)
        kept = [a for a in by_demo[key] if all(a is not d for d, _ in duplicates)]
        if not kept:
            continue
        try:
            save_trajectory(merged, demos[key].path)
        except InvalidTrajectoryError as error:
            echo(f"{key}: refused: the merged file would not validate: {error}")
            refused += len(kept)
            continue
        except OSError as error:
            raise UserError(f"{demos[key].path}: cannot write ({error.strerror})", ExitCode.BAD_INPUT) from None
        imported += sum(a.kind == "annotation" for a in kept)
        votes += sum(a.kind == "vote" for a in kept)
    echo(f"imported {imported} annotation(s) and {votes} vote(s) into {len(by_demo)} demo(s), refused {refused} "
         f"(in {time.monotonic() - began:.1f} s)")
    return ExitCode.FAILED if refused else ExitCode.OK
