"""``alfred-gen export hf SRC --out DIR``: trajectories as a Hugging Face dataset (parquet + card).

Two tables, as parquet files that ``datasets`` loads with its own loader
(``load_dataset("parquet", data_files=...)``, or ``load_dataset(DIR)`` through the card's
configs)::

    data/train-00000-of-00001.parquet      one row per step of every episode ("steps", default)
    episodes/train-00000-of-00001.parquet  one row per episode ("episodes")
    README.md                              the dataset card

An episode is a trajectory with one of its annotations (ALFRED's ``repeat_idx``), as in the
LeRobot export and :class:`alfred_gen.data.AlfredDataset`; steps follow
:mod:`alfred_gen.traj.steps`. Step columns: ``episode_index``, ``episode_id``
(``<task dir>/<trial>/<repeat_idx>``), ``task_id``, ``step``, ``low_idx``, ``high_idx``, ``image``
(an ``Image`` feature holding the trajectory's own JPEG bytes, so ``ds[0]["image"]`` is a PIL
image and no pixel is re-encoded), ``action`` (index into the card's action list), ``action_name``,
``mask`` (ALFRED's run-length mask, a list of ``[start, length]`` over the flattened 300x300 frame),
``bbox``, ``point`` (empty without a mask), ``instruction`` (the running subgoal's words; the goal
at the end), ``goal``. Episode columns: the episode's ids, goal, subgoal instructions, length, and
the metadata of :meth:`alfred_gen.export.episodes.Source.metadata`.

The parquet files are written with pyarrow under the schema ``datasets.Features`` gives (so
``Image`` survives), with fixed writer settings: the same input gives the same bytes. The per
trajectory work (reading the JPEGs, or re-rendering missing frames) is cached like the LeRobot
export's, so a killed run resumes.
"""

from __future__ import annotations

import glob
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from alfred_gen import __version__
from alfred_gen.atomic import write_bytes, write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.export.episodes import (
    Skip,
    Source,
    cache_key,
    cached_part,
    clear_stale,
    find_sources,
    link_or_copy,
    read_source,
    write_json,
)
from alfred_gen.export.frame_source import RerenderFailed, frame_files
from alfred_gen.export.lerobot import controllers
from alfred_gen.progress import progress, shown_path
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.steps import actions

INSTALL_HINT = "pip install 'alfred-gen[hf]'"
STEPS_FILE = "data/train-00000-of-00001.parquet"
EPISODES_FILE = "episodes/train-00000-of-00001.parquet"


def _libraries() -> tuple[Any, Any]:
    try:
        import datasets
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise UserError(f"export hf needs the datasets library ({INSTALL_HINT})",
                        ExitCode.MISSING_DEPENDENCY) from None
    return datasets, pyarrow


def step_features(datasets: Any) -> Any:
    """The ``datasets.Features`` of a step row."""
    value, seq = datasets.Value, datasets.Sequence
    return datasets.Features({
        "episode_index": value("int64"), "episode_id": value("string"), "task_id": value("string"),
        "step": value("int64"), "low_idx": value("int64"), "high_idx": value("int64"),
        "image": datasets.Image(), "action": value("int64"), "action_name": value("string"),
        "mask": seq(seq(value("int64"))), "bbox": seq(value("int64")), "point": seq(value("int64")),
        "instruction": value("string"), "goal": value("string"),
    })


def episode_features(datasets: Any) -> Any:
    """The ``datasets.Features`` of an episode row."""
    value = datasets.Value
    return datasets.Features({
        "episode_index": value("int64"), "episode_id": value("string"), "repeat_idx": value("int64"),
        "annotation_source": value("string"), "goal": value("string"),
        "instructions": datasets.Sequence(value("string")), "length": value("int64"),
        "task_id": value("string"), "task_type": value("string"), "scene": value("string"),
        "scene_num": value("int64"), "task_dir": value("string"), "trial": value("string"),
        "source": value("string"), "pddl_params": value("string"), "generator_version": value("string"),
        "generator_seed": value("int64"),
    })


def _make_part(source: Source, factory: Callable[..., Controller]) -> Callable[[Path], None]:
    """One trajectory's cache folder: the JPEG of every step as ``<step>.jpg``."""
    def make(folder: Path) -> None:
        stems = [step.frame for step in source.steps]
        try:
            with frame_files(source.directory, source.traj, stems, {"rgb"}, factory) as files:
                for step in source.steps:
                    link_or_copy(files.path("rgb", step.frame), folder / f"{step.step:06d}.jpg")
                rerendered = files.rerendered
        except RerenderFailed as error:
            raise Skip("rerender_failed", str(error)) from None
        write_json(folder / "part.json", {"frames": len(stems), "rerendered": rerendered})

    return make


def _parquet(pyarrow: Any, rows: Mapping[str, list[Any]], features: Any) -> bytes:
    table = pyarrow.Table.from_pydict(dict(rows), schema=features.arrow_schema)
    sink = pyarrow.BufferOutputStream()
    pyarrow.parquet.write_table(table, sink, compression="snappy")
    return bytes(sink.getvalue().to_pybytes())


def _rows(done: Sequence[tuple[Source, Path]]) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    steps: dict[str, list[Any]] = {}
    episodes: dict[str, list[Any]] = {}

    def add(table: dict[str, list[Any]], row: Mapping[str, Any]) -> None:
        for key, value in row.items():
            table.setdefault(key, []).append(value)

    episode = 0
    for source, part in done:
        meta = source.metadata()
        generator = source.traj.get("generator") or {}
        for annotation in source.annotations:
            episode_id = f"{meta['task_dir']}/{meta['trial']}/{annotation.index}"
            for step in source.steps:
                add(steps, {
                    "episode_index": episode, "episode_id": episode_id, "task_id": meta["task_id"],
                    "step": step.step, "low_idx": step.low_idx, "high_idx": step.high_idx,
                    "image": {"bytes": (part / f"{step.step:06d}.jpg").read_bytes(), "path": None},
                    "action": step.action, "action_name": step.action_name,
                    "mask": [list(run) for run in step.mask], "bbox": list(step.bbox or ()),
                    "point": list(step.point or ()), "instruction": annotation.instruction(step.high_idx),
                    "goal": annotation.task_desc,
                })
            add(episodes, {
                "episode_index": episode, "episode_id": episode_id, "repeat_idx": annotation.index,
                "annotation_source": annotation.source, "goal": annotation.task_desc,
                "instructions": list(annotation.high_descs), "length": len(source.steps), **meta,
                "generator_version": str(generator.get("version", "")),
                "generator_seed": _seed(generator.get("seed")),
            })
            episode += 1
    return steps, episodes


def _seed(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else -1


def run_seeds(src: str | os.PathLike[str]) -> list[int]:
    """The run seeds of an ``alfred-gen sample`` output (its plan files under ``.alfred-gen/``),
    best effort: empty when SRC is not such an output."""
    seeds = set()
    for name in glob.glob(os.path.join(str(src), ".alfred-gen", "plan-*.json")):
        try:
            seed = json.loads(Path(name).read_text())["key"]["seed"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(seed, int):
            seeds.add(seed)
    return sorted(seeds)


def dataset_card(done: Sequence[tuple[Source, Path]], episodes: Mapping[str, list[Any]], steps: int,
                 seeds: Sequence[int], skipped: int) -> str:
    """README.md of the dataset: configs for ``load_dataset``, then what it holds and where from."""
    types = Counter(str(source.traj.get("task_type", "")) for source, _ in done)
    versions = sorted({str((source.traj.get("generator") or {}).get("version", "")) or "unknown" for source, _ in done})
    lines = [
        "---",
        "license: other",
        "license_name: see-below",
        "task_categories:",
        "- robotics",
        "tags:",
        "- alfred",
        "- embodied-ai",
        "- instruction-following",
        "configs:",
        "- config_name: steps",
        "  default: true",
        "  data_files:",
        "  - split: train",
        f"    path: {STEPS_FILE}",
        "- config_name: episodes",
        "  data_files:",
        "  - split: train",
        f"    path: {EPISODES_FILE}",
        "---",
        "",
        "# ALFRED-style demonstrations",
        "",
        f"Exported by alfred-gen {__version__} (`alfred-gen export hf`) from trajectories made by alfred-gen "
        f"{', '.join(versions)}; run seed(s): {', '.join(map(str, seeds)) or 'unknown'} "
        "(each trajectory's own seed is in the episodes table, `generator_seed`).",
        "",
        f"- trajectories: {len(done)} ({skipped} skipped at export)",
        f"- episodes (trajectory x annotation): {len(episodes.get('episode_index', []))}",
        f"- steps: {steps}",
        "",
        "| task type | trajectories |",
        "|---|---|",
        *(f"| {name} | {count} |" for name, count in sorted(types.items())),
        "",
        "One row per step in `steps` (frame before each low action, then the final frame with "
        "`<<stop>>`): `image`, `action` (index into the list below), `mask` (ALFRED's run-length "
        "`[start, length]` pairs over the flattened 300x300 frame), `bbox`, `point`, `instruction`, "
        "ids. One row per episode in `episodes` with the goal, instructions and metadata.",
        "",
        "Actions: " + ", ".join(f"{index} `{name}`" for index, name in enumerate(actions())) + ".",
        "",
        "```python",
        "from datasets import load_dataset",
        'steps = load_dataset("parquet", data_files="data/*.parquet", split="train")',
        "```",
        "",
        "## Licence",
        "",
        "The generator alfred-gen is GPL-3.0-or-later; scene layouts imported from ALFRED are MIT. "
        "Whoever publishes this dataset sets its licence here.",
        "",
    ]
    return "\n".join(lines)


def export_hf(
    src: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    simulator: Simulator,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen export hf``: see the module doc."""
    datasets, pyarrow = _libraries()
    began = time.monotonic()
    factory = controllers(simulator)
    target = Path(out)
    sources = find_sources(src)
    clear_stale(target)
    done: list[tuple[Source, Path]] = []
    skipped: list[tuple[str, Skip]] = []
    with progress("hf", len(sources), show=show_progress) as bar:
        for path, relative in sources:
            try:
                source = read_source(path, relative)
                key = cache_key(path, {"format": "hf-1"})
                done.append((source, cached_part(target, key, _make_part(source, factory))))
            except Skip as reason:
                skipped.append((relative, reason))
            bar.update(1)
    for relative, skip in skipped:
        echo(f"{relative}: {skip.reason}: {skip.detail}")
    if not done:
        raise UserError(f"{shown_path(src)}: no trajectory could be exported", ExitCode.FAILED)
    steps, episodes = _rows(done)
    write_bytes(target / STEPS_FILE, _parquet(pyarrow, steps, step_features(datasets)), durable=False)
    write_bytes(target / EPISODES_FILE, _parquet(pyarrow, episodes, episode_features(datasets)), durable=False)
    count = len(steps.get("step", []))
    write_text(target / "README.md", dataset_card(done, episodes, count, run_seeds(src), len(skipped)), durable=False)
    counts = Counter(skip.reason for _, skip in skipped)
    text = (f"{len(episodes['episode_index'])} episodes ({count} steps) from {len(done)} trajectories into "
            f"{shown_path(target)}, {len(skipped)} skipped")
    text += (": " + ", ".join(f"{r} {n}" for r, n in sorted(counts.items()))) if counts else ""
    echo(f"{text} (in {time.monotonic() - began:.1f} s)")
    return ExitCode.FAILED if skipped else ExitCode.OK
