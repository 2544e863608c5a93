"""EQA's metrics (Das et al. 2018, "Embodied Question Answering", section on evaluation).

Per episode (a question, started T-10, T-30 or T-50 actions from the end of its expert's path):

* d_0, d_T: geodesic distance in metres from the agent's start, and from where navigation ends, to
  the target's viewing region (:mod:`alfred_gen.eval.eqa_region`); d_Δ = d_0 - d_T (positive when
  the agent got nearer); d_min: the least distance at any point of the episode (start included);
* r_T: navigation ends in the target's room; r_ê: the agent is in the target's room at some point
  of the episode (choice: the start counts, so a start inside the room counts as entering it; a
  target whose box centre lies in no room, e.g. in a doorway, has neither);
* stop: the agent chose to stop (Stop) before the episode's step limit;
* the answer: the agent ranks the question's answer space; correct when the true answer is first,
  and its rank (1 = first) is the position of the true answer in the ranking (answers the agent
  left out share the places after those it ranked: their mean rank).

Over a group: the means of d_T, d_Δ, d_min; the percentages of episodes with r_T, r_ê, stop and a
correct answer; the mean rank (MR). Episodes that could not be run (an error reason) are counted
but not averaged. Groups: all episodes, per start (T-10 / T-30 / T-50), per template, per split,
each also split by start, as the paper's table lays them out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: The starts, in the paper's column order.
STARTS = ("T-10", "T-30", "T-50")

#: Figures of a group, in table order: (key, column title, percent?).
FIGURES = (("d_T", "d_T", False), ("d_delta", "d_D", False), ("d_min", "d_min", False),
           ("r_T", "%r_T", True), ("r_e", "%r_e", True), ("stop", "%stop", True),
           ("accuracy", "acc", True), ("mean_rank", "MR", False))


def answer_rank(ranking: Sequence[str], truth: str, space_size: int) -> float:
    """The rank (1 = best) of ``truth`` in ``ranking`` over an answer space of ``space_size``
    answers; answers left out of the ranking share the remaining places (their mean)."""
    if truth in ranking:
        return float(list(ranking).index(truth) + 1)
    left = max(space_size - len(ranking), 1)
    return len(ranking) + (left + 1) / 2.0


def group_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The figures of a group of episode records (module docstring), with counts."""
    rows = list(records)
    scored = [r for r in rows if not r.get("reason")]
    n = len(scored)

    def mean(key: str) -> float | None:
        return round(sum(float(r[key]) for r in scored) / n, 4) if n else None

    def share(key: str) -> float | None:
        return round(sum(1 for r in scored if r[key]) / n, 4) if n else None

    return {"episodes": len(rows), "scored": n, "errors": len(rows) - n,
            "d_T": mean("d_T"), "d_delta": mean("d_delta"), "d_min": mean("d_min"), "d_0": mean("d_0"),
            "r_T": share("r_T"), "r_e": share("r_e"), "stop": share("stop"), "accuracy": share("correct"),
            "mean_rank": mean("rank")}


def _by_start(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    out = {"all": group_metrics(rows)}
    for start in STARTS:
        out[start] = group_metrics(r for r in rows if r.get("start") == start)
    return out


def all_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"all": {"all", "T-10", "T-30", "T-50"}, "by_template": {name: ...}, "by_split": {...}}``."""
    rows = list(records)
    by_template: dict[str, list[Mapping[str, Any]]] = {}
    by_split: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_template.setdefault(str(row.get("template") or "?"), []).append(row)
        by_split.setdefault(str(row.get("split") or "-"), []).append(row)
    return {"all": _by_start(rows),
            "by_template": {name: _by_start(by_template[name]) for name in sorted(by_template)},
            "by_split": {name: _by_start(by_split[name]) for name in sorted(by_split)}}


def _cell(value: float | None, percent: bool) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}" if percent else f"{value:.2f}"


def table(metrics: Mapping[str, Any]) -> list[str]:
    """The metrics as the paper's table: three blocks (navigation distances; rooms and stop;
    answering), each with a column per figure and start, a row per group (all, per split, per
    template), with the episodes scored."""
    groups: list[tuple[str, Mapping[str, Any]]] = [("all", metrics["all"])]
    groups += [(f"split {name}", m) for name, m in metrics["by_split"].items()]
    groups += [(f"  {name}", m) for name, m in metrics["by_template"].items()]
    lines: list[str] = []
    for block in (FIGURES[0:3], FIGURES[3:6], FIGURES[6:8]):
        head = f"{'group':24s} {'n':>5s}"
        for _key, title, _percent in block:
            head += "  " + " ".join(f"{title + ' ' + start[2:]:>8s}" for start in STARTS)
        lines.append(head)
        for name, m in groups:
            line = f"{name:24s} {m['all']['scored']:5d}"
            for key, _title, percent in block:
                line += "  " + " ".join(f"{_cell(m[start][key], percent):>8s}" for start in STARTS)
            lines.append(line)
        lines.append("")
    return lines[:-1]
