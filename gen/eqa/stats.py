"""``alfred-gen eqa stats DIR``: what ``eqa questions`` made, as the paper reports it.

From ``DIR/questions.json``:

1. per template: questions asked (before the filter) and accepted (after), distinct question
   strings before and after, and the queries that were inapplicable or ambiguous;
2. the answer distribution of each template before and after (the paper's Figures 11-13), as a
   table of the commonest answers and, with charts on, as PNGs (:mod:`.charts`);
3. the splits, with the paper's dataset figures beside ours: accepted questions, homes, distinct
   object words and room types the questions are about, questions per home (mean, min, max), and
   per template (count and share: the template mix); once over EQA v1's four templates (the
   paper's dataset) and once over all nine. The header says how the run sampled its questions
   (the paper's engine rules, or every question with ``--all-questions``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean
from typing import Any

from alfred_gen.eqa.charts import draw_answer_chart
from alfred_gen.eqa.programs import SINGLE_TARGET, TEMPLATES
from alfred_gen.eqa.questions import load_questions
from alfred_gen.eqa.splits import SPLITS
from alfred_gen.errors import ExitCode

#: The paper's dataset, as the issue states it (EQA v1 over SUNCG houses).
PAPER = {
    "questions": "> 5,000",
    "homes": "> 750",
    "objects": "45",
    "room types": "7",
    "questions per home": "~6 (1-22)",
}

#: What the paper's column says for a row the paper's text gives no figure for.
NOT_STATED = "not stated"

#: Answers listed per template in the text table.
TOP_ANSWERS = 8


@dataclass
class SplitFigures:
    """One split's figures, as the paper reports its dataset."""

    questions: int
    homes: int
    unique_questions: int
    objects: int
    room_types: int
    per_home: tuple[float, int, int]
    by_template: Counter[str]


def _room_type(question: dict[str, Any], rooms: dict[str, dict[str, str]]) -> str | None:
    room = question.get("room")
    return rooms.get(question["home"], {}).get(room) if room else None


def split_figures(data: dict[str, Any], split: str | None, templates: Sequence[str] = TEMPLATES) -> SplitFigures:
    """The figures of one split (None: all splits) over the accepted questions of ``templates``."""
    rooms = {h["home"]: {room_id: room_type for room_id, room_type in h.get("rooms", [])}
             for h in data["homes"] if h.get("used")}
    homes = [h["home"] for h in data["homes"] if h.get("used") and (split is None or h.get("split") == split)]
    accepted = [q for q in data["questions"] if q.get("accepted") and q["template"] in templates
                and (split is None or q.get("split") == split)]
    per_home = Counter(q["home"] for q in accepted)
    asked_homes = [per_home[h] for h in homes if per_home[h] > 0]
    words = {t["word"] for q in accepted for t in q.get("targets", ()) if t.get("word")}
    words |= {q["detail"]["word"] for q in accepted if "word" in q.get("detail", {})}
    words |= {w for q in accepted for w in q.get("detail", {}).get("words", ())}
    room_types = {rt for q in accepted if (rt := _room_type(q, rooms))}
    return SplitFigures(
        questions=len(accepted), homes=len(asked_homes),
        unique_questions=len({(q["template"], q["question"]) for q in accepted}),
        objects=len(words), room_types=len(room_types),
        per_home=(mean(asked_homes), min(asked_homes), max(asked_homes)) if asked_homes else (0.0, 0, 0),
        by_template=Counter(q["template"] for q in accepted),
    )


def template_table(data: dict[str, Any]) -> list[str]:
    """Asked and accepted per template (module docstring, 1)."""
    templates = [t for t in TEMPLATES if t in data["settings"]["templates"]]
    lines = [f"{'template':<12} {'asked':>8} {'accepted':>9} {'strings':>8} {'kept':>6} "
             f"{'inapplicable':>13} {'ambiguous':>10}"]
    totals = Counter[str]()
    for template in templates:
        questions = [q for q in data["questions"] if q["template"] == template]
        outcomes = data["outcomes"].get(template, {})
        row = Counter({
            "asked": len(questions), "accepted": sum(1 for q in questions if q.get("accepted")),
            "strings": len({q["question"] for q in questions}),
            "kept": len({q["question"] for q in questions if q.get("accepted")}),
            "inapplicable": outcomes.get("inapplicable", 0), "ambiguous": outcomes.get("ambiguous", 0),
        })
        totals.update(row)
        lines.append(_template_row(template, row))
    lines.append(_template_row("all", totals))
    v1 = Counter[str]()
    for template in SINGLE_TARGET:
        questions = [q for q in data["questions"] if q["template"] == template]
        v1.update({"asked": len(questions), "accepted": sum(1 for q in questions if q.get("accepted"))})
    lines.append(f"EQA v1 templates ({', '.join(SINGLE_TARGET)}): {v1['asked']} asked, {v1['accepted']} accepted")
    return lines


def _template_row(name: str, row: Counter[str]) -> str:
    return (f"{name:<12} {row['asked']:>8} {row['accepted']:>9} {row['strings']:>8} {row['kept']:>6} "
            f"{row['inapplicable']:>13} {row['ambiguous']:>10}")


def answer_groups(data: dict[str, Any], template: str, accepted_only: bool) -> dict[str, dict[str, int]]:
    """Question string -> answer -> homes, for one template (all, or only the accepted strings)."""
    groups = data.get("answer_counts", {}).get(template, {})
    if not accepted_only:
        return {q: dict(a) for q, a in groups.items()}
    kept = {q["question"] for q in data["questions"] if q["template"] == template and q.get("accepted")}
    return {q: dict(a) for q, a in groups.items() if q in kept}


def answer_table(data: dict[str, Any]) -> list[str]:
    """The commonest answers of each template, before and after (module docstring, 2)."""
    lines = []
    for template in (t for t in TEMPLATES if t in data["settings"]["templates"]):
        for label, accepted in (("before", False), ("after", True)):
            counts: Counter[str] = Counter()
            for answers in answer_groups(data, template, accepted).values():
                counts.update(answers)
            total = sum(counts.values())
            shown = ", ".join(f"{a} {100.0 * n / total:.0f}%" for a, n in counts.most_common(TOP_ANSWERS))
            more = f", +{len(counts) - TOP_ANSWERS} more" if len(counts) > TOP_ANSWERS else ""
            lines.append(f"{template:<12} {label:<6} {total:>6}: {shown or '-'}{more}")
    return lines


def split_table(data: dict[str, Any], templates: Sequence[str] = TEMPLATES) -> list[str]:
    """Ours per split beside the paper's dataset (module docstring, 3), over ``templates``."""
    templates = [t for t in templates if t in data["settings"]["templates"]]
    figures = {split: split_figures(data, split, templates) for split in SPLITS}
    figures["all"] = split_figures(data, None, templates)
    columns = [*SPLITS, "all"]
    width = 17
    lines = [f"{'':<26}" + "".join(f"{c:>{width}}" for c in columns) + f"{'paper (EQA v1)':>18}"]

    def row(label: str, values: Sequence[str], paper: str = "") -> None:
        lines.append(f"{label:<26}" + "".join(f"{v:>{width}}" for v in values) + f"{paper:>18}")

    row("questions (accepted)", [str(figures[c].questions) for c in columns], PAPER["questions"])
    row("homes with questions", [str(figures[c].homes) for c in columns], PAPER["homes"])
    row("distinct questions", [str(figures[c].unique_questions) for c in columns])
    row("object words asked about", [str(figures[c].objects) for c in columns], PAPER["objects"])
    row("room types asked about", [str(figures[c].room_types) for c in columns], PAPER["room types"])
    row("questions per home", [f"{figures[c].per_home[0]:.1f} ({figures[c].per_home[1]}-{figures[c].per_home[2]})"
                               for c in columns], PAPER["questions per home"])
    for template in templates:
        row(f"  {template}", [_share(figures[c].by_template[template], figures[c].questions) for c in columns],
            NOT_STATED)
    return lines


def _share(count: int, total: int) -> str:
    return f"{count} ({100.0 * count / total:.0f}%)" if total else str(count)


def sampling_line(data: dict[str, Any]) -> str:
    """How the run picked its questions (``settings.sampling``; absent: every question)."""
    if data["settings"].get("sampling") == "paper":
        return ("sampling: the paper's engine rules (blacklists, volume cut, SUNCG's classes only, once among "
                "uniquely named rooms, nothing by room in a room with two names)")
    return "sampling: every question (--all-questions)"


def _homes_in_two_splits(data: dict[str, Any]) -> int:
    splits: dict[str, set[str]] = defaultdict(set)
    for q in data["questions"]:
        splits[q["home"]].add(q.get("split", ""))
    return sum(1 for s in splits.values() if len(s) > 1)


def write_charts(data: dict[str, Any], directory: str | Path) -> list[Path]:
    """One PNG per template (:func:`~alfred_gen.eqa.charts.draw_answer_chart`)."""
    out = Path(directory)
    written = []
    for template in (t for t in TEMPLATES if t in data["settings"]["templates"]):
        before = answer_groups(data, template, False)
        after = answer_groups(data, template, True)
        written.append(draw_answer_chart(template, before, after, out / f"answers-{template}.png"))
    return written


def stats_command(directory: str, charts: str | None = None, echo: Callable[[str], None] = print) -> ExitCode:
    """``alfred-gen eqa stats``: print the three tables; charts into ``charts`` (default
    ``DIR/charts``), unless ``charts`` is the empty string."""
    data = load_questions(directory)
    used = sum(1 for h in data["homes"] if h.get("used"))
    echo(f"{used} homes, {len(data['questions'])} questions; filter: entropy >= {data['settings']['min_entropy']:g}, "
         f"homes >= {data['settings']['min_homes']}")
    echo(sampling_line(data))
    echo("")
    for line in template_table(data):
        echo(line)
    echo("")
    echo("answers (share of homes), before and after the filter:")
    for line in answer_table(data):
        echo(line)
    echo("")
    echo(f"splits, EQA v1's templates ({', '.join(SINGLE_TARGET)}; accepted questions):")
    for line in split_table(data, SINGLE_TARGET):
        echo(line)
    echo("")
    echo("splits, all templates (accepted questions):")
    for line in split_table(data):
        echo(line)
    echo(f"homes in more than one split: {_homes_in_two_splits(data)}")
    if charts != "":
        target = Path(charts) if charts else Path(directory) / "charts"
        written = write_charts(data, target)
        echo(f"wrote {len(written)} charts to {target}")
    return ExitCode.OK
