"""`alfred-gen actthor stats`: the paper's tables counted on a collection (and its contrast sets).

- Table 1, the data: triples, actions, object types, object-action pairs, rooms, unique before- and
  after-images, before cleaning, after cleaning, and as targets of the four-image contrast sets.
- Table 2, per action: triples before and after cleaning, object types after cleaning, sets.
- Table 5, the contrast sets: four- and three-image sets, their pairs, actions, objects, rooms.
- Tables 6 and 7, the splits: sets per split of the unseen-room and unseen-object splits.
- Distances: how far drop, throw, push and pull moved the object (kept triples), overall and per
  object type: with pushes and throws by force over mass they vary by object, as in THOR.

Tables 1 and 5 print the paper's figures beside ours where the paper gives them ("-": it does
not); the paper's Table 2 gives no per-action counts that are kept here, so it has no paper column.

The paper's own figures (for the note's comparison) are in :data:`PAPER`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen.actthor.actions import ACTION_NAMES
from alfred_gen.actthor.contrast import CONTRAST_DIR, SETS3_FILE, SETS4_FILE, SPLITS, kept, load_sets, load_triples
from alfred_gen.atomic import write_text

#: ACT-Thor's published figures (Hanna et al. 2022), as the issue quotes them.
PAPER: dict[str, Any] = {
    "raw": {"triples": 13958, "pairs": 412},
    "cleaned": {"triples": 11154, "pairs": 403, "before_images": 3746},
    "sets": {"sets4": 4451, "pairs": 152, "actions": 12, "objects": 20, "rooms": 109},
    "splits": {
        "rooms": {"train": 2856, "valid": 684, "test": 820},
        "objects": {"train": 2762, "valid": 690, "test": 908},
    },
}


#: Actions that move the object, whose distances are reported.
MOVING_ACTIONS = ("drop", "throw", "push", "pull")


def distances(triples: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per moving action: how far the object moved (metres) over triples with a ``moved_m``, and
    the mean per object type."""
    out: dict[str, Any] = {}
    rows = [t for t in triples if t.get("moved_m") is not None]
    for action in MOVING_ACTIONS:
        values = [float(t["moved_m"]) for t in rows if t["action"] == action]
        by_type: dict[str, list[float]] = {}
        for t in rows:
            if t["action"] == action:
                by_type.setdefault(str(t["object_type"]), []).append(float(t["moved_m"]))
        means = {k: round(sum(v) / len(v), 3) for k, v in sorted(by_type.items())}
        out[action] = {
            "triples": len(values),
            "mean": round(sum(values) / len(values), 3) if values else None,
            "min": min(values) if values else None,
            "max": max(values) if values else None,
            "distinct": len(set(values)),
            "by_type": means,
        }
    return out


def summarise(triples: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The Table 1 row of a group of triples."""
    rows = list(triples)
    return {
        "triples": len(rows),
        "actions": len({t["action"] for t in rows}),
        "objects": len({t["object_type"] for t in rows}),
        "pairs": len({(t["object_type"], t["action"]) for t in rows}),
        "rooms": len({t["scene"] for t in rows}),
        "before_images": len({t["before_image"] for t in rows}),
        "after_images": len({t["after_image"] for t in rows if t["after_image"]}),
    }


def compute(directory: Path) -> dict[str, Any]:
    """Every table as data."""
    triples = load_triples(directory)
    good = kept(triples)
    has_sets = (directory / CONTRAST_DIR / SETS4_FILE).is_file()
    sets4 = load_sets(directory, SETS4_FILE) if has_sets else []
    sets3 = load_sets(directory, SETS3_FILE) if has_sets else []
    by_id = {t["id"]: t for t in triples}
    targets4 = [by_id[s["triple"]] for s in sets4 if s["triple"] in by_id]
    table2 = {}
    for action in ACTION_NAMES:
        table2[action] = {
            "raw": sum(t["action"] == action for t in triples),
            "kept": sum(t["action"] == action for t in good),
            "objects": len({t["object_type"] for t in good if t["action"] == action}),
            "sets4": sum(s["action"] == action for s in sets4),
        }
    return {
        "table1": {"raw": summarise(triples), "cleaned": summarise(good), "sets4": summarise(targets4)},
        "table2": table2,
        "table5": {"sets4": len(sets4), "sets3": len(sets3), **{
            k: v for k, v in summarise(targets4).items() if k in ("pairs", "actions", "objects", "rooms")}},
        "splits": {kind: {split: sum(s["splits"][kind] == split for s in sets4) for split in SPLITS}
                   for kind in ("rooms", "objects")},
        "distances": distances(good),
        "has_sets": has_sets,
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    def line(cells: Sequence[Any]) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), *(line(r) for r in rows)]


def _paper(group: str, key: str) -> Any:
    value = PAPER.get(group, {}).get(key)
    return "-" if value is None else value


def render(stats: Mapping[str, Any]) -> list[str]:
    """The tables as text, the paper's figures beside ours."""
    t1 = stats["table1"]
    keys = ("triples", "actions", "objects", "pairs", "rooms", "before_images", "after_images")
    out = ["Table 1: the data (before cleaning, after cleaning, targets of four-image sets; paper's beside)"]
    out += _table(["", "raw", "paper", "cleaned", "paper", "in sets", "paper"],
                  [[k, t1["raw"][k], _paper("raw", k), t1["cleaned"][k], _paper("cleaned", k), t1["sets4"][k],
                    _paper("sets", k)] for k in keys])
    out += ["", "Table 2: per action (triples raw and kept, object types kept, four-image sets)"]
    out += _table(["action", "raw", "kept", "objects", "sets"],
                  [[a, r["raw"], r["kept"], r["objects"], r["sets4"]] for a, r in stats["table2"].items()])
    t5 = stats["table5"]
    out += ["", "Table 5: contrast sets (paper's beside)"]
    out += _table(["", "count", "paper"], [[k, t5[k], _paper("sets", k)]
                                          for k in ("sets4", "sets3", "pairs", "actions", "objects", "rooms")])
    for number, kind in ((6, "rooms"), (7, "objects")):
        out += ["", f"Table {number}: unseen {kind} split (four-image sets; paper's beside)"]
        paper = PAPER["splits"][kind]
        out += _table(["split", "sets", "paper"], [[s, stats["splits"][kind][s], paper.get(s, "-")] for s in SPLITS])
    moved = stats.get("distances") or {}
    if moved:
        out += ["", "Distances moved (metres, kept triples): overall, and the spread of the per-type means"]
        rows = []
        for action, d in moved.items():
            means = list(d["by_type"].values())
            rows.append([action, d["triples"], _m(d["mean"]), _m(d["min"]), _m(d["max"]), d["distinct"],
                         len(means), _m(min(means) if means else None), _m(max(means) if means else None)])
        out += _table(["action", "triples", "mean", "min", "max", "distinct", "types", "type min", "type max"],
                      rows)
    if not stats["has_sets"]:
        out += ["", "(no contrast sets yet: run `alfred-gen actthor contrast DIR --seed S`)"]
    return out


def _m(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def stats_command(directory: str, json_out: str | None = None, echo: Callable[..., None] = print) -> int:
    """`alfred-gen actthor stats`: print the tables (and write them as JSON); exit code 0."""
    stats = compute(Path(directory))
    for line in render(stats):
        echo(line)
    if json_out:
        write_text(json_out, json.dumps(stats, indent=1, sort_keys=True) + "\n")
    return 0
