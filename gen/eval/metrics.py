"""ALFRED's metrics, with ALFRED's formulas (``models/eval/eval_task.py``).

Per episode, with ``L`` the expert's length (the file's number of low actions) and ``t`` the steps
the agent took (Stop not counted; at least 1 here, where ALFRED would divide by zero):

* success ``s``: every goal condition holds when the episode ends;
* goal-condition success ``pc``: conditions met / conditions in all;
* path-length-weighted ``s_plw = s * min(1, L / t)`` and ``pc_plw = pc * min(1, L / t)``.

Over a group of episodes: SR = successes / episodes; GC = conditions met / conditions in all (summed
over episodes, not averaged); PLW SR = sum(s_plw * L) / sum(L); PLW GC = sum(pc_plw * L) / sum(L).
Groups are all episodes, each task type, and each split, with their counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def episode_scores(success: bool, met: int, total: int, expert_length: int, steps: int) -> dict[str, float]:
    """The per-episode figures ALFRED logs (names as in its results files)."""
    pc = met / total if total else 0.0
    weight = min(1.0, expert_length / max(steps, 1))
    s_spl = (1.0 if success else 0.0) * weight
    pc_spl = pc * weight
    return {
        "postcondition_success": pc,
        "success_spl": s_spl,
        "path_weighted_success_spl": s_spl * expert_length,
        "postcondition_spl": pc_spl,
        "path_weighted_postcondition_spl": pc_spl * expert_length,
        "path_len_weight": float(expert_length),
    }


def group_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """SR, GC, PLW SR and PLW GC of some episode records, with counts."""
    rows = list(records)
    evals = len(rows)
    successes = sum(1 for r in rows if r["success"])
    met = sum(int(r["goal_conditions_met"]) for r in rows)
    total = sum(int(r["goal_conditions_total"]) for r in rows)
    weight = sum(float(r["path_len_weight"]) for r in rows)
    return {
        "episodes": evals,
        "successes": successes,
        "success_rate": successes / evals if evals else 0.0,
        "goal_conditions_met": met,
        "goal_conditions_total": total,
        "goal_condition_success_rate": met / total if total else 0.0,
        "path_length_weighted_success_rate":
            sum(float(r["path_weighted_success_spl"]) for r in rows) / weight if weight else 0.0,
        "path_length_weighted_goal_condition_success_rate":
            sum(float(r["path_weighted_postcondition_spl"]) for r in rows) / weight if weight else 0.0,
    }


def all_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """``{"all": ..., "by_task_type": {type: ...}, "by_split": {split: ...}}``."""
    rows = list(records)
    by_type: dict[str, list[Mapping[str, Any]]] = {}
    by_split: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_type.setdefault(str(row.get("task_type") or "?"), []).append(row)
        by_split.setdefault(str(row.get("split") or "-"), []).append(row)
    return {
        "all": group_metrics(rows),
        "by_task_type": {name: group_metrics(by_type[name]) for name in sorted(by_type)},
        "by_split": {name: group_metrics(by_split[name]) for name in sorted(by_split)},
    }


def table(metrics: Mapping[str, Any]) -> list[str]:
    """The metrics as text lines: one row per group (SR, GC, PLW SR, PLW GC in percent, counts)."""
    lines = [f"{'group':36s} {'episodes':>8s} {'SR':>6s} {'GC':>6s} {'PLW SR':>7s} {'PLW GC':>7s}"]

    def row(name: str, m: Mapping[str, Any]) -> str:
        return (f"{name:36s} {m['episodes']:8d} {100 * m['success_rate']:6.1f} "
                f"{100 * m['goal_condition_success_rate']:6.1f} {100 * m['path_length_weighted_success_rate']:7.1f} "
                f"{100 * m['path_length_weighted_goal_condition_success_rate']:7.1f}")

    lines.append(row("all", metrics["all"]))
    for name, m in metrics["by_task_type"].items():
        lines.append(row(f"  {name}", m))
    if len(metrics["by_split"]) > 1 or "-" not in metrics["by_split"]:
        for name, m in metrics["by_split"].items():
            lines.append(row(f"  split {name}", m))
    return lines
