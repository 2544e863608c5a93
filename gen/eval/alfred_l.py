"""ALFRED-L's figures in ``eval alfred``: success per task structure and per language perturbation.

ALFRED-L (Gella et al., EMNLP 2022) scores agents by success rate on derived task structures
(NAV-ONLY, REV-1, REV-n from ``alfred-gen derive``) with the original language and its perturbed
forms (E1: spatial words removed, E2: step-by-step instructions dropped; ``alfred-gen perturb`` or
``eval alfred --language``). Success is what the environment counts for the file's goal block (the
same check as ``verify``): ending within the threshold (1.25 m) of the destination, plus the
source's goal conditions for REV. Each episode record is labelled with its structure (``variant``:
the file's ``derived_from.variant``, ``alfred`` for a file that is not derived) and its language
(``language``: the perturbations applied, in order, joined by ``+``; ``original`` for none), and the
figures are the success rate of every (structure, language) cell: the rows and columns of the
paper's Table 1 for the agent run.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

#: The structures in the paper's order (a file that is not derived is ``alfred``).
VARIANTS = ("alfred", "nav-only", "rev-1", "rev-n")
#: Language labels in the paper's order (other combinations follow, sorted).
LANGUAGES = ("original", "e1", "e2")


def alfred_l_labels(traj: Mapping[str, Any] | None) -> dict[str, str]:
    """``{"variant": ..., "language": ...}`` of a trajectory (the module docstring)."""
    traj = traj or {}
    derived = traj.get("derived_from")
    variant = str(derived.get("variant")) if isinstance(derived, Mapping) and derived.get("variant") else "alfred"
    if isinstance(derived, Mapping) and derived.get("reverse") == "shortest":
        variant += ":shortest"  # the walks back are our navigator's, not the paper's reversal
    kinds = [str(kind) for kind in traj.get("language_perturbations") or ()]
    return {"variant": variant, "language": "+".join(kinds) or "original"}


def _order(names: Iterable[str], first: tuple[str, ...]) -> list[str]:
    names = set(names)
    return [n for n in first if n in names] + sorted(names - set(first))


def alfred_l_metrics(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Success per (structure, language): ``{"cells": {variant: {language: {...}}}, "derived_episodes": n}``;
    each cell has ``episodes``, ``successes``, ``success_rate`` and the mean final distance to the
    destination (``mean_goal_distance``, over episodes that have one)."""
    rows = [r for r in records]
    cells: dict[str, dict[str, dict[str, Any]]] = {}
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for row in rows:
        key = (str(row.get("variant") or "alfred"), str(row.get("language") or "original"))
        groups.setdefault(key, []).append(row)
    for variant in _order({v for v, _ in groups}, VARIANTS):
        for language in _order({lang for v, lang in groups if v == variant}, LANGUAGES):
            group = groups[(variant, language)]
            successes = sum(1 for r in group if r.get("success"))
            distances = [float(r["goal_distance"]) for r in group if r.get("goal_distance") is not None]
            cells.setdefault(variant, {})[language] = {
                "episodes": len(group), "successes": successes, "success_rate": successes / len(group),
                "mean_goal_distance": sum(distances) / len(distances) if distances else None,
            }
    derived = sum(1 for r in rows if str(r.get("variant") or "alfred") != "alfred")
    return {"cells": cells, "derived_episodes": derived}


def alfred_l_table(metrics: Mapping[str, Any], within: float | None = None) -> list[str]:
    """The cells as ALFRED-L's Table 1: a row per structure, a column per language, success rate
    in percent with the episodes in brackets."""
    cells = metrics["cells"]
    languages = _order({lang for row in cells.values() for lang in row}, LANGUAGES)
    threshold = f"{within:g} m (--within)" if within is not None else "each file's goal block"
    lines = [f"ALFRED-L success rate, % (episodes); destination within {threshold}",
             f"{'structure':14s}" + "".join(f"{lang:>16s}" for lang in languages)]
    for variant, row in cells.items():
        text = "".join(f"{100 * row[lang]['success_rate']:10.1f} ({row[lang]['episodes']:>3d})" if lang in row
                       else f"{'-':>16s}" for lang in languages)
        lines.append(f"{variant:14s}{text}")
    return lines
