"""`alfred-gen stats DIR`: what a dataset holds, slot by slot, and how balanced each slot is.

Counts come from ALFRED's directory layout (``<task_type>-<object>-<mrecep|None>-<recep>-<scene>/
trial_*/traj_data.json``), which names every slot; a file under a directory of another shape gives
its slots from its own fields. Every file is parsed as JSON all the same (the schema is not checked:
that is ``validate``'s job): a truncated or garbage file is not counted, the summary says how many
were not, and the command exits 1. Works on our output and on released ALFRED data alike.

Trajectories derived by ``alfred-gen derive`` (ALFRED-L's NAV-ONLY, REV-1, REV-n, and their
``perturb`` versions) are also counted as the paper's Table 3 does: per variant, trajectories,
annotations and subgoal instructions (each annotation's step lines), from the same parse.

Parsing is most of the command's time (6,574 released files, 171 MB): each file is read and parsed
once, by :func:`alfred_gen.traj.format.parse_trajectory_json` (the C parser, without a Python call
per number unless the text holds a number that may be out of range).

Balance is the normalised entropy of a slot's counts over the values seen (1.0: perfectly even).
``--charts`` draws one horizontal bar chart per slot as PNG, in the spirit of ALFRED's
distribution figures, with Pillow (matplotlib is not a dependency).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_png
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.balance import normalised_entropy
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.traj.format import TRAJ_FILE_NAME, parse_trajectory_json

#: The tables, in print order: key, heading.
SLOTS: tuple[tuple[str, str], ...] = (
    ("task_type", "task type"),
    ("object", "object"),
    ("receptacle", "receptacle"),
    ("mrecep", "movable receptacle"),
    ("scene", "scene"),
    ("room_type", "room type"),
)


@dataclass
class VariantCounts:
    """One row of the paper's Table 3: trajectories, annotations, subgoal instructions."""

    trajectories: int = 0
    annotations: int = 0
    subgoals: int = 0


@dataclass
class DatasetStats:
    """Counts per slot over the trajectories found under a directory."""

    root: Path
    total: int = 0
    tuples: set[TaskTuple] = field(default_factory=set)
    counts: dict[str, Counter] = field(default_factory=lambda: {key: Counter() for key, _ in SLOTS})
    unreadable: list[str] = field(default_factory=list)
    #: Trajectories in houses, by (source room type -> destination room type), and how many of them
    #: carry the object from one room into another (:mod:`alfred_gen.sample.house_rooms`).
    room_moves: Counter = field(default_factory=Counter)
    across_rooms: int = 0

    def add_house_trajectory(self, traj: dict[str, Any], scene: Any) -> None:
        """Count where a house trajectory's task starts and ends."""
        from alfred_gen.sample.house_rooms import task_rooms

        source, destination = task_rooms(traj, scene)
        kinds = [scene.room(r).room_type if r is not None else "?" for r in (source, destination)]
        self.room_moves[f"{kinds[0]} -> {kinds[1]}"] += 1
        if source is not None and destination is not None and source != destination:
            self.across_rooms += 1
    variants: dict[str, VariantCounts] = field(default_factory=dict)

    def add(self, task: TaskTuple) -> None:
        from alfred_gen.scenes.houses.names import house_of_scene_num
        from alfred_gen.sim.scene import HOUSE, room_type_of
        from alfred_gen.traj.scene_nums import lite_room_of_scene_num

        self.total += 1
        self.tuples.add(task)
        self.counts["task_type"][task.task_type] += 1
        self.counts["object"][task.object] += 1
        self.counts["receptacle"][task.receptacle] += 1
        if task.mrecep:
            self.counts["mrecep"][task.mrecep] += 1
        self.counts["scene"][str(task.scene)] += 1
        try:
            room = HOUSE if house_of_scene_num(task.scene) is not None else room_type_of(
                lite_room_of_scene_num(task.scene) or task.scene)
        except ValueError:
            room = "unknown"
        self.counts["room_type"][room] += 1

    def balance(self, slot: str) -> float:
        """Normalised entropy of a slot over the values seen."""
        return normalised_entropy(self.counts[slot])


def _task_of_file(path: Path, data: Any) -> TaskTuple | None:
    """The tuple of a trajectory: from its task directory's name, else from the file itself."""
    task = TaskTuple.from_dir_name(path.parent.parent.name)
    if task is not None:
        return task
    from alfred_gen.domains.tasks import TaskSpec

    try:
        spec = TaskSpec.from_pddl_params(data["task_type"], data["pddl_params"])
        return TaskTuple.from_task_spec(spec, int(data["scene"]["scene_num"]))
    except (UserError, ValueError, KeyError, TypeError, AttributeError):
        return None


def derived_counts(data: Any) -> tuple[str, int, int] | None:
    """(variant, annotations, subgoal instructions) of a derived trajectory (parsed), None for any
    other. The label carries a walk back planned by the navigator and the language perturbations:
    ``rev-1``, ``rev-1:shortest``, ``rev-1+e1``."""
    try:
        if not isinstance(data, dict) or "derived_from" not in data:
            return None
        variant = str(data["derived_from"]["variant"])
        if data["derived_from"].get("reverse") == "shortest":
            variant += ":shortest"
        anns = (data.get("turk_annotations") or {}).get("anns") or []
        perturbations = [str(kind) for kind in data.get("language_perturbations") or ()]
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    label = "+".join([variant, *perturbations])
    return label, len(anns), sum(len(ann.get("high_descs") or ()) for ann in anns)


def collect_stats(directory: str | os.PathLike[str]) -> DatasetStats:
    """Count every ``traj_data.json`` under ``directory`` (hidden directories, e.g. unfinished
    ``.tmp-*`` trajectories and run state, are skipped). UserError NOT_FOUND if it does not
    exist, BAD_INPUT if it is not a directory."""
    root = Path(directory)
    if not root.exists():
        raise UserError(f"{root}: no such file or directory", ExitCode.NOT_FOUND)
    if not root.is_dir():
        raise UserError(f"{root}: not a directory", ExitCode.BAD_INPUT)
    stats = DatasetStats(root)
    for folder, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith("."))
        if TRAJ_FILE_NAME in files:
            path = Path(folder) / TRAJ_FILE_NAME
            try:
                data = parse_trajectory_json(path)
            except UserError:
                stats.unreadable.append(str(path))
                continue
            task = _task_of_file(path, data)
            if task is None:
                stats.unreadable.append(str(path))
            else:
                stats.add(task)
                _add_house(stats, task, data, path)
            derived = derived_counts(data)
            if derived is not None:
                row = stats.variants.setdefault(derived[0], VariantCounts())
                row.trajectories += 1
                row.annotations += derived[1]
                row.subgoals += derived[2]
    return stats


def _add_house(stats: DatasetStats, task: TaskTuple, traj: Any, path: Path) -> None:
    """For a trajectory in a house, also count which rooms its task joins (reads the file)."""
    from alfred_gen.scenes.houses.names import house_of_scene_num

    house = house_of_scene_num(task.scene)
    if house is None:
        return
    from alfred_gen.scenes.library import get_house

    try:
        stats.add_house_trajectory(traj, get_house(house))
    except (UserError, ValueError, KeyError, TypeError, AttributeError):
        stats.unreadable.append(str(path))


def _table(heading: str, counts: Counter, total: int, columns: int = 1) -> list[str]:
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    width = max([len(heading)] + [len(str(name)) for name, _ in rows])
    cells = [f"{name!s:<{width}}  {count:>6}  {100.0 * count / total:5.1f}%" for name, count in rows]
    header = f"{heading:<{width}}  {'count':>6}  {'share':>6}"
    if columns <= 1:
        return [header] + cells
    lines = ["   ".join([header] * min(columns, len(cells)))]
    for start in range(0, len(cells), columns):
        lines.append("   ".join(cells[start:start + columns]))
    return lines


def format_stats(stats: DatasetStats) -> list[str]:
    """The printed report: totals, one table per slot, and each slot's balance."""
    lines = [f"{stats.total} trajectories in {len(stats.tuples)} task tuples under {stats.root}"]
    for key, heading in SLOTS:
        counts = stats.counts[key]
        if not counts:
            continue
        lines.append("")
        subtotal = sum(counts.values())
        lines.extend(_table(heading, counts, subtotal, columns=4 if key == "scene" else 1))
        lines.append(f"balance ({heading}): {stats.balance(key):.3f} normalised entropy over {len(counts)} values")
    houses = sum(stats.room_moves.values())
    if houses:
        lines.append("")
        lines.extend(_table("house task: source room -> destination room", stats.room_moves, houses))
        lines.append(f"in houses: {houses} trajectories, {stats.across_rooms} "
                     f"({100.0 * stats.across_rooms / houses:.1f}%) with source and destination in different rooms")
    if stats.variants:
        lines.append("")
        lines.extend(variant_table(stats))
    if stats.unreadable:
        lines.append("")
        lines.append(f"{len(stats.unreadable)} files not counted (not JSON, or no task in the path or the file): "
                     + ", ".join(stats.unreadable[:3]) + (" ..." if len(stats.unreadable) > 3 else ""))
    return lines


def variant_table(stats: DatasetStats) -> list[str]:
    """The derived trajectories as the ALFRED-L paper's Table 3: one row per variant."""
    heading = "ALFRED-L variant"
    width = max([len(heading)] + [len(name) for name in stats.variants])
    lines = [f"{heading:<{width}}  {'trajectories':>12}  {'annotations':>11}  {'subgoals':>8}"]
    for name, row in sorted(stats.variants.items()):
        lines.append(f"{name:<{width}}  {row.trajectories:>12}  {row.annotations:>11}  {row.subgoals:>8}")
    derived = sum(row.trajectories for row in stats.variants.values())
    if derived < stats.total:
        lines.append(f"({stats.total - derived} trajectories under {stats.root} are not derived)")
    return lines


# --------------------------------------------------------------------------------------------
# Charts

_BAR = (70, 110, 170)
_TEXT = (20, 20, 20)
_GRID = (215, 215, 215)


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the fixed bitmap font
        return ImageFont.load_default()


def draw_bar_chart(title: str, counts: Counter, path: str | os.PathLike[str], max_bars: int = 80) -> Path:
    """A horizontal bar chart of ``counts`` (largest first) as a PNG, written atomically."""
    from PIL import Image, ImageDraw

    rows = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))[:max_bars]
    font, title_font = _font(13), _font(16)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    label_width = max([probe.textlength(str(name), font=font) for name, _ in rows] + [40.0])
    row_height, top, bar_area = 18, 44, 420
    width = int(label_width) + bar_area + 90
    height = top + row_height * max(1, len(rows)) + 16
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.text((10, 10), title, fill=_TEXT, font=title_font)
    x0 = int(label_width) + 16
    largest = max([count for _, count in rows] + [1])
    for tick in range(0, 5):
        x = x0 + int(bar_area * tick / 4)
        draw.line([(x, top - 4), (x, height - 12)], fill=_GRID)
    for i, (name, count) in enumerate(rows):
        y = top + i * row_height
        draw.text((x0 - 8 - probe.textlength(str(name), font=font), y + 2), str(name), fill=_TEXT, font=font)
        length = max(1, int(round(bar_area * count / largest)))
        draw.rectangle([x0, y + 3, x0 + length, y + row_height - 3], fill=_BAR)
        draw.text((x0 + length + 6, y + 2), str(count), fill=_TEXT, font=font)
    target = Path(path)
    write_png(image, target)
    return target


def write_charts(stats: DatasetStats, directory: str | os.PathLike[str]) -> list[Path]:
    """One PNG per slot with counts (``task_type.png``, ``object.png``, ...); the paths written."""
    written = []
    for key, heading in SLOTS:
        counts = stats.counts[key]
        if not counts:
            continue
        title = (f"{heading}: {sum(counts.values())} trajectories, {len(counts)} values, "
                 f"balance {stats.balance(key):.3f}")
        written.append(draw_bar_chart(title, counts, Path(directory) / f"{key}.png"))
    return written


def stats_command(directory: str, charts: str | None = None, echo: Callable[..., None] = print) -> int:
    """`alfred-gen stats`: print the tables (and write charts); the exit code."""
    stats = collect_stats(directory)
    if stats.total == 0 and not stats.unreadable:
        raise UserError(f"{directory}: no {TRAJ_FILE_NAME} found under this directory", ExitCode.NOT_FOUND)
    for line in format_stats(stats):
        echo(line)
    if charts:
        written = write_charts(stats, charts)
        echo(f"wrote {len(written)} charts to {charts}")
    return ExitCode.FAILED if stats.unreadable else ExitCode.OK


def slot_counts(stats: DatasetStats) -> dict[str, dict[str, int]]:
    """Plain dicts of the counts (for scripts and tests)."""
    return {key: dict(counter) for key, counter in stats.counts.items()}


__all__: Sequence[str] = (
    "DatasetStats",
    "VariantCounts",
    "collect_stats",
    "derived_counts",
    "draw_bar_chart",
    "format_stats",
    "slot_counts",
    "stats_command",
    "variant_table",
    "write_charts",
)
