"""What a `alfred-gen sample` run is asked to do: :class:`SampleOptions`, parsed and checked.

Kept apart from the run itself so that the CLI, the benchmarks and the tests build and validate the
same options object, and so that a bad option is a one-line UserError before any work or any file
is touched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.demo.language import DEFAULT_ANNOTATIONS
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.feasibility import SCENE_SETS

#: Upper bounds that keep a typo (``--n 1e9``-sized numbers) from becoming an out-of-memory crash.
MAX_N = 10_000_000
MAX_DEMOS_PER_TASK = 1000
MAX_WORKERS = 512

#: Who can run the jobs (``--executor``).
EXECUTORS = ("local", "ray")

#: Failed attempts after which a tuple is closed (ALFRED's "trials before fail").
DEFAULT_MAX_FAILURES = 3


@dataclass(frozen=True)
class SampleOptions:
    """Everything `alfred-gen sample` takes. Empty ``task_types``/``scenes`` mean all."""

    n: int
    out: Path
    seed: int = 0
    workers: int = 1
    task_types: tuple[str, ...] = ()
    scenes: tuple[int, ...] = ()
    demos_per_task: int = 3
    shard: tuple[int, int] = (0, 1)
    backend: str = "lite"
    #: Options for the backend's controller as (name, value) pairs, e.g. (("thor_build", PATH),).
    backend_options: tuple[tuple[str, Any], ...] = ()
    #: "lite": the procedural LitePlanN rooms; "alfred": imported real THOR rooms (FloorPlanN);
    #: "houses": the procedural houses (LiteHouseN), scenes numbered 1000 + N.
    scene_set: str = "lite"
    frames: bool = True
    max_failures: int = DEFAULT_MAX_FAILURES
    #: Who runs the jobs: "local" (this machine's processes) or "ray" (Ray tasks, on a cluster).
    executor: str = "local"
    #: Ray's address: None starts a Ray on this machine (or uses RAY_ADDRESS), "auto" or HOST:PORT joins one.
    ray_address: str | None = None
    #: Generated annotations per demonstration (alfred_gen.demo.language).
    annotations: int = DEFAULT_ANNOTATIONS

    def shard_label(self) -> str:
        """``IofM``: names this shard's files in the run state directory."""
        return f"{self.shard[0]}of{self.shard[1]}"


def parse_shard(text: str | None) -> tuple[int, int]:
    """``"I/M"`` with 0 <= I < M (0-based, as job-array indices) -> (I, M); UserError USAGE otherwise."""
    if text is None or text == "":
        return (0, 1)
    parts = str(text).strip().split("/")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {text!r}", ExitCode.USAGE)
    index, count = (int(p) for p in parts)
    if count < 1 or not 0 <= index < count:
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {text!r}", ExitCode.USAGE)
    return index, count


def _split_list(values: Sequence[str] | str | None) -> list[str]:
    if not values:
        return []
    if isinstance(values, str):
        values = [values]
    return [part.strip() for value in values for part in str(value).split(",") if part.strip()]


def parse_task_types(values: Sequence[str] | str | None) -> tuple[str, ...]:
    """Comma-separated or repeated task type names, checked (UserError NOT_FOUND for an unknown one)."""
    from alfred_gen.domains.tasks import get_task_type

    names = _split_list(values)
    for name in names:
        get_task_type(name)
    return tuple(dict.fromkeys(names))


def parse_scenes(values: Sequence[str] | str | None, scene_set: str = "lite") -> tuple[int, ...]:
    """Scenes as numbers, ``LitePlanN`` or ranges ``1-30`` (comma-separated or repeated); for the
    ``houses`` scene set house numbers, ``LiteHouseN`` or ranges, as the houses' scene numbers
    (1000 + N)."""
    from alfred_gen.scenes import resolve_scene_number, scene_range

    if scene_set == "houses":
        from alfred_gen.scenes.houses.names import house_scene_num, parse_house_numbers

        parts = _split_list(values)
        return tuple(house_scene_num(n) for n in parse_house_numbers(",".join(parts))) if parts else ()

    numbers: list[int] = []
    for part in _split_list(values):
        inside = scene_range(part)
        numbers.extend(inside if inside is not None else [resolve_scene_number(part)])
    return tuple(sorted(set(numbers)))


def check_options(options: SampleOptions) -> None:
    """UserError for values no run can use."""
    if not 1 <= options.n <= MAX_N:
        raise UserError(f"--n must be between 1 and {MAX_N}, got {options.n}", ExitCode.USAGE)
    if options.executor not in EXECUTORS:
        raise UserError(f"unknown executor {options.executor!r} ({' or '.join(EXECUTORS)})", ExitCode.USAGE)
    if options.ray_address is not None and options.executor != "ray":
        raise UserError("--ray-address needs --executor ray", ExitCode.USAGE)
    # 0 workers with Ray: as many tasks at once as the cluster has CPUs.
    least = 0 if options.executor == "ray" else 1
    if not least <= options.workers <= MAX_WORKERS:
        raise UserError(f"--workers must be between 1 and {MAX_WORKERS}, got {options.workers}", ExitCode.USAGE)
    if not 1 <= options.demos_per_task <= MAX_DEMOS_PER_TASK:
        raise UserError(f"--demos-per-task must be between 1 and {MAX_DEMOS_PER_TASK}, got {options.demos_per_task}",
                        ExitCode.USAGE)
    if not 1 <= options.max_failures <= MAX_DEMOS_PER_TASK:
        raise UserError("the failure limit per tuple must be between 1 and 1000", ExitCode.USAGE)
    index, count = options.shard
    if count < 1 or not 0 <= index < count:
        raise UserError(f"--shard must be I/M with 0 <= I < M, got {index}/{count}", ExitCode.USAGE)
    if options.backend not in ("lite", "thor"):
        raise UserError(f"unknown backend {options.backend!r} (lite or thor)", ExitCode.USAGE)
    if options.scene_set not in SCENE_SETS:
        raise UserError(f"unknown scene set {options.scene_set!r} ({' or '.join(SCENE_SETS)})", ExitCode.USAGE)
    if options.scene_set == "houses" and options.backend != "lite":
        raise UserError("the houses (LiteHouseN) exist in the lite backend only: use --backend lite", ExitCode.USAGE)
    if "\0" in str(options.out):
        raise UserError(f"--out must name a directory, got {str(options.out)!r}", ExitCode.USAGE)
    if options.out.exists() and not options.out.is_dir():
        raise UserError(f"--out {options.out} exists and is not a directory", ExitCode.BAD_INPUT)
