"""``alfred-gen eqa questions``: every template's program over every home, then the entropy filter.

1. The homes' facts (:mod:`.homes`), in worker processes (``--jobs``), under a progress bar; a
   house the house filter rejects is skipped (said why), and ``--limit N`` stops after the first N
   homes with facts, in order.
2. The programs (:mod:`.programs`) over each home's facts, under the paper's sampling rules
   (:mod:`.sampling`) unless ``all_questions``; every query that is inapplicable or ambiguous is
   counted per template.
3. The entropy filter (:mod:`.entropy`) over all homes' questions; each home's split
   (:mod:`.splits`).
4. ``<out>/questions.json``, written atomically: the run's settings, every home (split, rooms,
   whether it was used), the outcome counts per template, and every question with its answer,
   program, targets (ids, boxes, best views), room, entropy, homes and verdict, accepted or not.
   Under the paper's rules the settings say ``"sampling": "paper"``; with ``all_questions`` the
   file is what it was before the rules existed (no ``sampling`` key: every question).

Runs again over the same ``--out`` reuse the facts on disk, so the filter settings can be changed
cheaply and a killed run goes on where it stopped.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen import __version__
from alfred_gen.atomic import write_text
from alfred_gen.eqa.entropy import FilterRule, apply_filter
from alfred_gen.eqa.facts import HomeFacts
from alfred_gen.eqa.homes import HomeOutcome, home_backend_check, home_outcome, open_controller, parse_homes
from alfred_gen.eqa.programs import TEMPLATES, Question, run_programs
from alfred_gen.eqa.sampling import load_paper_rules
from alfred_gen.eqa.splits import split_of
from alfred_gen.eqa.vocabulary import load_vocabulary
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.parallel import run_ordered
from alfred_gen.progress import progress
from alfred_gen.scenes.houses.filter import HouseFilter
from alfred_gen.sim.controller import Simulator

#: The run's output file (inside ``--out``).
QUESTIONS_FILE = "questions.json"
#: Its format version.
QUESTIONS_VERSION = 1
#: ``settings.sampling`` of a run under the paper's rules (a run keeping every question has none).
SAMPLING_PAPER = "paper"


@dataclass(frozen=True)
class QuestionOptions:
    """What ``eqa questions`` runs: the homes, the templates, the filter, the house filter (None:
    every house), and whether to keep every question (``all_questions``) or sample as the paper's
    engine does (the default)."""

    homes: tuple[str, ...]
    templates: tuple[str, ...] = TEMPLATES
    rule: FilterRule = field(default_factory=FilterRule)
    house_filter: HouseFilter | None = field(default_factory=HouseFilter)
    limit: int | None = None
    backend: str = "lite"
    all_questions: bool = False

    def __post_init__(self) -> None:
        for home in self.homes:  # before any simulator starts: a wrong pairing is the user's, not THOR's
            home_backend_check(home, self.backend)
        unknown = sorted(set(self.templates) - set(TEMPLATES))
        if unknown:
            raise UserError(f"unknown template(s) {', '.join(unknown)} (one of {', '.join(TEMPLATES)})",
                            ExitCode.USAGE)
        if not self.templates:
            raise UserError("no template to run", ExitCode.USAGE)
        if not 0.0 <= self.rule.min_entropy <= 1.0:
            raise UserError(f"--min-entropy must lie in [0, 1], got {self.rule.min_entropy:g}", ExitCode.USAGE)
        if self.rule.min_homes < 1:
            raise UserError(f"--min-homes must be at least 1, got {self.rule.min_homes}", ExitCode.USAGE)
        if self.limit is not None and self.limit < 1:
            raise UserError(f"--limit must be at least 1, got {self.limit}", ExitCode.USAGE)


def parse_templates(text: str | None) -> tuple[str, ...]:
    """Comma-separated template names (all nine when empty)."""
    names = [p.strip() for p in (text or "").split(",") if p.strip()]
    return tuple(dict.fromkeys(names)) if names else TEMPLATES


# --------------------------------------------------------------------------------------------
# Workers

_worker: dict[str, Any] = {}


def _init_worker(simulator: Simulator, out: str, house_filter: HouseFilter | None) -> None:
    _worker.clear()
    _worker.update(simulator=simulator, out=Path(out), house_filter=house_filter, controller=None)


def _facts_job(home: str) -> HomeOutcome | tuple[str, int]:
    try:
        if _worker["controller"] is None:
            _worker["controller"] = open_controller(_worker["simulator"])
        return home_outcome(home, _worker["out"], _worker["simulator"], _worker["house_filter"],
                            _worker["controller"])
    except UserError as error:
        return (str(error), int(error.code))


def _outcomes(homes: Sequence[str], jobs: int, simulator: Simulator, out: Path,
              house_filter: HouseFilter | None) -> Iterator[HomeOutcome | tuple[str, int]]:
    """Each home's outcome, in the homes' order (workers run ahead)."""
    return run_ordered(_facts_job, homes, jobs, _init_worker, (simulator, str(out), house_filter))


def gather_facts(options: QuestionOptions, out: Path, simulator: Simulator, jobs: int = 1,
                 show_progress: bool = True) -> tuple[list[HomeFacts], list[HomeOutcome]]:
    """The facts of the homes (the first ``limit`` with facts), and every home's outcome looked at."""
    facts: list[HomeFacts] = []
    seen: list[HomeOutcome] = []
    with progress("eqa: homes", len(options.homes), show=show_progress) as bar:
        for outcome in _outcomes(options.homes, jobs, simulator, out, options.house_filter):
            if isinstance(outcome, tuple):  # the environment cannot run (no THOR, a bad option)
                message, code = outcome
                raise UserError(message, ExitCode(code))
            seen.append(outcome)
            bar.update(1)
            if outcome.facts is not None:
                facts.append(outcome.facts)
                if options.limit is not None and len(facts) >= options.limit:
                    break
    return facts, seen


# --------------------------------------------------------------------------------------------
# The run


@dataclass
class QuestionRun:
    """Everything ``eqa questions`` found (what ``questions.json`` holds)."""

    options: QuestionOptions
    homes: list[HomeOutcome]
    facts: list[HomeFacts]
    questions: list[Question]
    outcomes: dict[str, Counter[str]]
    seconds: float = 0.0

    def to_dict(self, backend: str) -> dict[str, Any]:
        used = {f.scene for f in self.facts}
        asked = Counter(q.home for q in self.questions if q.accepted)
        homes = []
        for outcome in self.homes:
            entry: dict[str, Any] = {"home": outcome.home, "used": outcome.home in used}
            if outcome.facts is not None:
                entry.update(split=split_of(outcome.home), scene_num=outcome.facts.scene_num,
                             rooms=[[r.room_id, r.room_type] for r in outcome.facts.rooms],
                             accepted_questions=asked[outcome.home])
            if outcome.rejected:
                entry["rejected"] = outcome.rejected
            if outcome.failed:
                entry["failed"] = outcome.failed
            homes.append(entry)
        rule = self.options.rule
        settings: dict[str, Any] = {
            "templates": list(self.options.templates),
            "min_entropy": rule.min_entropy, "min_homes": rule.min_homes,
            "house_filter": None if self.options.house_filter is None else {
                "min_area": self.options.house_filter.min_area, "max_area": self.options.house_filter.max_area,
                "required": list(self.options.house_filter.required),
                "min_coverage": self.options.house_filter.min_coverage},
            "limit": self.options.limit,
        }
        if not self.options.all_questions:  # absent: every question, as files before the rules
            settings["sampling"] = SAMPLING_PAPER
        return {
            "version": QUESTIONS_VERSION,
            "generator": {"name": "alfred-gen", "version": __version__, "backend": backend},
            "settings": settings,
            "homes": homes,
            "outcomes": {t: dict(sorted(self.outcomes.get(t, Counter()).items())) for t in self.options.templates},
            "answer_counts": answer_table(self.questions),
            "questions": [{**q.to_dict(), "split": split_of(q.home)} for q in self.questions],
        }


def answer_table(questions: Sequence[Question]) -> dict[str, dict[str, dict[str, int]]]:
    """template -> question string -> answer -> homes: the filter's groups, once each."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for q in questions:
        table.setdefault(q.template, {}).setdefault(q.question, dict(q.answers or {}))
    return {t: dict(sorted(groups.items())) for t, groups in sorted(table.items())}


def generate_questions(options: QuestionOptions, out: Path, simulator: Simulator, jobs: int = 1,
                       show_progress: bool = True) -> QuestionRun:
    """Steps 1-3 of the module docstring (nothing written but the facts)."""
    began = time.monotonic()
    facts, seen = gather_facts(options, out, simulator, jobs, show_progress)
    vocabulary = load_vocabulary()
    rules = None if options.all_questions else load_paper_rules()
    questions: list[Question] = []
    outcomes: dict[str, Counter[str]] = {t: Counter() for t in options.templates}
    for home in facts:
        run = run_programs(home, vocabulary, options.templates, rules)
        questions.extend(run.questions)
        for template, counts in run.outcomes.items():
            outcomes[template].update(counts)
    apply_filter(questions, options.rule)
    return QuestionRun(options, seen, facts, questions, outcomes, time.monotonic() - began)


def summary_lines(run: QuestionRun) -> list[str]:
    """The per-template table and the closing summary line."""
    lines = [f"{'template':<12} {'asked':>8} {'accepted':>9} {'inapplicable':>13} {'ambiguous':>10}"]
    for template in run.options.templates:
        asked = [q for q in run.questions if q.template == template]
        counts = run.outcomes.get(template, Counter())
        lines.append(f"{template:<12} {len(asked):>8} {sum(1 for q in asked if q.accepted):>9} "
                     f"{counts['inapplicable']:>13} {counts['ambiguous']:>10}")
    rejected = Counter(h.rejected.split(" ")[0] if h.rejected.startswith(("area", "coverage")) else h.rejected
                       for h in run.homes if h.rejected)
    failed = sum(1 for h in run.homes if h.failed)
    accepted = sum(1 for q in run.questions if q.accepted)
    text = (f"{len(run.facts)} homes, {len(run.questions)} questions, {accepted} accepted "
            f"(entropy >= {run.options.rule.min_entropy:g}, homes >= {run.options.rule.min_homes})")
    if not run.options.all_questions:
        text += "; sampled by the paper's rules"
    if rejected:
        text += "; houses rejected: " + ", ".join(f"{k} {v}" for k, v in sorted(rejected.items()))
    if failed:
        text += f"; {failed} failed"
    lines.append(text + f" (in {run.seconds:.1f} s)")
    return lines


def questions_command(options: QuestionOptions, out: str, *, simulator: Simulator, jobs: int = 1,
                      echo: Callable[[str], None] = print, show_progress: bool = True) -> ExitCode:
    """``alfred-gen eqa questions``: generate, filter and write ``<out>/questions.json``; one line
    per home that failed, the table per template and a summary. Exit code FAILED when a home's
    facts failed (the others are still written), OK otherwise."""
    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    out_dir = Path(out)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"{out}: exists and is not a directory", ExitCode.BAD_INPUT)
    out_dir.mkdir(parents=True, exist_ok=True)
    run = generate_questions(options, out_dir, simulator, jobs, show_progress)
    if not run.facts:
        raise UserError("no home to ask about (every house rejected or failed)", ExitCode.NOT_FOUND)
    text = json.dumps(run.to_dict(simulator.backend), sort_keys=True, separators=(",", ":"))
    write_text(out_dir / QUESTIONS_FILE, text + "\n")
    for home in run.homes:
        if home.failed:
            echo(f"{home.home}: {home.failed}")
    for line in summary_lines(run):
        echo(line)
    return ExitCode.FAILED if any(h.failed for h in run.homes) else ExitCode.OK


def homes_from_options(houses: str | None, rooms: str | None) -> tuple[str, ...]:
    """The CLI's ``--houses`` / ``--rooms`` as home names (:func:`~alfred_gen.eqa.homes.parse_homes`)."""
    return tuple(parse_homes(houses, rooms))


def load_questions(directory: str | Path) -> dict[str, Any]:
    """``DIR/questions.json``; UserError NOT_FOUND when missing, BAD_INPUT when unreadable."""
    path = Path(directory) / QUESTIONS_FILE
    if not path.is_file():
        raise UserError(f"{path}: no such file (run `alfred-gen eqa questions --out {directory}` first)",
                        ExitCode.NOT_FOUND)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: not readable JSON ({error})", ExitCode.BAD_INPUT) from None
    if not isinstance(data, dict) or data.get("version") != QUESTIONS_VERSION or "questions" not in data:
        raise UserError(f"{path}: not a questions file of version {QUESTIONS_VERSION}", ExitCode.BAD_INPUT)
    return data
