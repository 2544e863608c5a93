"""``alfred-gen export lerobot SRC --out DIR``: trajectories as a LeRobotDataset v3.0.

LeRobot's own loader reads the result: ``LeRobotDataset("alfred-gen/<name>", root=DIR)``. The
files are the documented v3.0 layout, written here with pyarrow and PyAV rather than through
LeRobot's writer (``LeRobotDataset.create``/``add_frame``/``save_episode``): the newest lerobot on
Python 3.11 (0.4.4) pins ``torch<2.11`` and ``torchvision<0.26``, which on a CPU machine means a
CUDA torch of several GB plus wandb, diffusers and rerun, for a writer whose output is a few
parquet tables and MP4 files. LeRobot's loader is the test of the layout instead (tests/).

Layout (``chunk-000/file-000`` numbering as LeRobot's)::

    meta/info.json                     codebase_version v3.0, fps, features, totals, paths
    meta/stats.json                    min/max/mean/std/count per numeric feature and per camera
    meta/tasks.parquet                 the goal texts (index) and their task_index
    meta/episodes/chunk-000/file-000.parquet   one row per episode: where its rows and video are,
                                       and alfred.* metadata (task type, scene, pddl params, trial, source)
    data/chunk-000/file-000.parquet    one row per step
    videos/observation.images.rgb/chunk-000/file-NNN.mp4   one H.264 video per trajectory
                                       (and observation.images.depth / .seg with --depth / --seg)

Episodes: one per trajectory and annotation (ALFRED's ``repeat_idx``); the annotations of one
trajectory share its video files (their episode rows point at the same file and timestamps), so
frames are stored once. Frames per step follow :mod:`alfred_gen.traj.steps`: the frame each low
action was chosen in, then the final frame with the action ``<<stop>>``. Step i has timestamp
i / fps.

Features per step (besides LeRobot's timestamp, frame_index, episode_index, index, task_index):

- ``observation.images.rgb`` (video, 300x300x3)
- ``action`` (int64): index into ``info.json``'s ``alfred.actions`` (the format's low actions, then
  ``<<stop>>``)
- ``action.bbox`` (int64 x4, x1 y1 x2 y2; -1 without a mask), ``action.point`` (int64 x2, x y; -1),
  ``action.mask`` (string: ALFRED's run-length mask as JSON ``[[start,length],...]`` over the
  flattened 300x300 frame; ``[]`` without a mask)
- ``language.instruction`` (string: the running subgoal's instruction in this episode's
  annotation; the goal text at the end), ``language.high_idx`` (int64), ``low_idx`` (int64)

Depth (``--depth``) is a grey video: grey level g is ``g * 6000 / 255`` millimetres (0..6 m, the
range the renderer produces), lossy; segmentation (``--seg``) is the instance-colour video, lossy
too (colours near object edges blend). Use the trajectory folders for exact depth and masks.

Output: a progress bar, one line per skipped trajectory with its reason, then the summary
``E episodes from T trajectories, S skipped: bad_file 1 (in 3.2 s)``. Exit FAILED when any
trajectory was skipped, OK otherwise. Running the same export again reuses the cache
(:mod:`alfred_gen.export.episodes`); the same input gives the same bytes.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen import __version__
from alfred_gen.atomic import write_bytes
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
from alfred_gen.export.frame_source import FrameFiles, RerenderFailed, frame_files
from alfred_gen.progress import progress, shown_path
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.traj.steps import actions, mask_json

CODEBASE_VERSION = "v3.0"
CHUNKS_SIZE = 1000  #: files per chunk folder (LeRobot's default)
DATA_PATH = "data/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet"
VIDEO_PATH = "videos/{video_key}/chunk-{chunk_index:03d}/file-{file_index:03d}.mp4"
EPISODES_PATH = "meta/episodes/chunk-{chunk_index:03d}/file-{file_index:03d}.parquet"
#: Frames between keyframes: a random-access read decodes at most this many (LeRobot's writer uses 2).
KEYFRAME_INTERVAL = 2
#: Millimetres of depth at grey level 255 in the depth video.
DEPTH_VIDEO_MAX_MM = 6000
INSTALL_HINT = "pip install 'alfred-gen[lerobot]'"
#: Camera key per frame kind.
CAMERAS = {"rgb": "observation.images.rgb", "depth": "observation.images.depth", "seg": "observation.images.seg"}


@dataclass(frozen=True)
class LeRobotOptions:
    """Frames per second, and which extra cameras to write."""

    fps: int = 5
    depth: bool = False
    seg: bool = False

    @property
    def kinds(self) -> list[str]:
        return ["rgb"] + (["depth"] if self.depth else []) + (["seg"] if self.seg else [])


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise UserError(f"export lerobot needs pyarrow ({INSTALL_HINT})", ExitCode.MISSING_DEPENDENCY) from None
    return pyarrow


def _frame(files: FrameFiles, kind: str, stem: str) -> np.ndarray:
    from PIL import Image

    path = files.path(kind, stem)
    if kind == "depth":
        from alfred_gen.replay.images import decode_depth

        metres = decode_depth(path.read_bytes())
        grey = np.clip(np.rint(metres * 1000.0 * 255.0 / DEPTH_VIDEO_MAX_MM), 0, 255).astype(np.uint8)
        return np.repeat(grey[..., None], 3, axis=2)
    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"))


def _make_part(source: Source, options: LeRobotOptions, factory: Callable[..., Controller]) -> Callable[[Path], None]:
    """What goes into one trajectory's cache folder: a video per camera and ``part.json`` (the
    per-channel sums for the camera stats)."""
    from alfred_gen.export.mp4 import write_mp4

    def make(folder: Path) -> None:
        stems = [step.frame for step in source.steps]
        try:
            with frame_files(source.directory, source.traj, stems, set(options.kinds), factory) as files:
                sums: dict[str, Any] = {}
                for kind in options.kinds:
                    stats = _ChannelStats()

                    def frames(kind: str = kind, stats: _ChannelStats = stats) -> Iterator[np.ndarray]:
                        for stem in stems:
                            pixels = _frame(files, kind, stem)
                            stats.add(pixels)
                            yield pixels

                    write_mp4(frames(), folder / f"{kind}.mp4", options.fps, KEYFRAME_INTERVAL)
                    sums[kind] = stats.as_dict()
                rerendered = files.rerendered
        except RerenderFailed as error:
            raise Skip("rerender_failed", str(error)) from None
        write_json(folder / "part.json", {"frames": len(stems), "camera_sums": sums, "rerendered": rerendered})

    return make


class _ChannelStats:
    """Running per-channel min, max, sum and sum of squares of uint8 frames (scaled to 0..1 at the end)."""

    def __init__(self) -> None:
        self.low = np.full(3, 255.0)
        self.high = np.zeros(3)
        self.total = np.zeros(3)
        self.squares = np.zeros(3)
        self.count = 0
        self.frames = 0

    def add(self, pixels: np.ndarray) -> None:
        values = pixels.reshape(-1, 3).astype(np.float64)
        self.low = np.minimum(self.low, values.min(axis=0))
        self.high = np.maximum(self.high, values.max(axis=0))
        self.total += values.sum(axis=0)
        self.squares += (values ** 2).sum(axis=0)
        self.count += values.shape[0]
        self.frames += 1

    def as_dict(self) -> dict[str, Any]:
        return {"min": self.low.tolist(), "max": self.high.tolist(), "sum": self.total.tolist(),
                "squares": self.squares.tolist(), "count": self.count, "frames": self.frames}


def features(options: LeRobotOptions, height: int = 300, width: int = 300) -> dict[str, Any]:
    """The ``features`` of info.json (LeRobot's dtype/shape/names, plus video info for cameras)."""
    found: dict[str, Any] = {}
    for kind in options.kinds:
        found[CAMERAS[kind]] = {
            "dtype": "video", "shape": [height, width, 3], "names": ["height", "width", "channels"],
            "info": {"video.height": height, "video.width": width, "video.codec": "h264",
                     "video.pix_fmt": "yuv420p", "video.is_depth_map": kind == "depth",
                     "video.fps": options.fps, "video.channels": 3, "has_audio": False},
        }
    found.update({
        "action": {"dtype": "int64", "shape": [1], "names": ["action_index"]},
        "action.bbox": {"dtype": "int64", "shape": [4], "names": ["x1", "y1", "x2", "y2"]},
        "action.point": {"dtype": "int64", "shape": [2], "names": ["x", "y"]},
        "action.mask": {"dtype": "string", "shape": [1], "names": None},
        "language.instruction": {"dtype": "string", "shape": [1], "names": None},
        "language.high_idx": {"dtype": "int64", "shape": [1], "names": None},
        "low_idx": {"dtype": "int64", "shape": [1], "names": None},
        "timestamp": {"dtype": "float32", "shape": [1], "names": None},
        "frame_index": {"dtype": "int64", "shape": [1], "names": None},
        "episode_index": {"dtype": "int64", "shape": [1], "names": None},
        "index": {"dtype": "int64", "shape": [1], "names": None},
        "task_index": {"dtype": "int64", "shape": [1], "names": None},
    })
    return found


@dataclass(frozen=True)
class _Done:
    source: Source
    part: Path
    frames: int
    camera_sums: dict[str, Any]


def _parquet_bytes(table: Any) -> bytes:
    pa = _pyarrow()
    sink = pa.BufferOutputStream()
    pa.parquet.write_table(table, sink, compression="snappy")
    return bytes(sink.getvalue().to_pybytes())


def _tasks_table(tasks: Sequence[str]) -> Any:
    """meta/tasks.parquet as pandas writes a frame indexed by task (LeRobot reads it with pandas
    and looks tasks up by index), made with pyarrow alone."""
    pa = _pyarrow()
    table = pa.table({"task_index": pa.array(range(len(tasks)), pa.int64()),
                      "task": pa.array(list(tasks), pa.string())})
    pandas_meta = {
        "index_columns": ["task"], "column_indexes": [],
        "columns": [
            {"name": "task_index", "field_name": "task_index", "pandas_type": "int64", "numpy_type": "int64",
             "metadata": None},
            {"name": "task", "field_name": "task", "pandas_type": "unicode", "numpy_type": "object",
             "metadata": None},
        ],
        "creator": {"library": "alfred-gen", "version": __version__}, "pandas_version": "2.0.0",
    }
    return table.replace_schema_metadata({b"pandas": json.dumps(pandas_meta).encode()})


def _assemble(out: Path, done: Sequence[_Done], options: LeRobotOptions) -> tuple[int, int]:
    """Write data, videos, episodes, tasks, info and stats from the cached parts; (episodes, frames)."""
    pa = _pyarrow()
    vocabulary = actions()
    columns: dict[str, list[Any]] = {key: [] for key in (
        "action", "action.bbox", "action.point", "action.mask", "language.instruction", "language.high_idx",
        "low_idx", "timestamp", "frame_index", "episode_index", "index", "task_index")}
    episodes: dict[str, list[Any]] = {}
    tasks: dict[str, int] = {}
    camera_sums: dict[str, list[dict[str, Any]]] = {kind: [] for kind in options.kinds}

    def add_episode(row: dict[str, Any]) -> None:
        for key, value in row.items():
            episodes.setdefault(key, []).append(value)

    episode = 0
    for number, item in enumerate(done):
        chunk, file = divmod(number, CHUNKS_SIZE)
        for kind in options.kinds:
            link_or_copy(item.part / f"{kind}.mp4",
                         out / VIDEO_PATH.format(video_key=CAMERAS[kind], chunk_index=chunk, file_index=file))
            camera_sums[kind].append(item.camera_sums[kind])
        length = len(item.source.steps)
        for annotation in item.source.annotations:
            task = annotation.task_desc
            task_index = tasks.setdefault(task, len(tasks))
            start = len(columns["index"])
            for step in item.source.steps:
                columns["action"].append(step.action)
                columns["action.bbox"].append(list(step.bbox) if step.bbox else [-1, -1, -1, -1])
                columns["action.point"].append(list(step.point) if step.point else [-1, -1])
                columns["action.mask"].append(mask_json(step.mask))
                columns["language.instruction"].append(annotation.instruction(step.high_idx))
                columns["language.high_idx"].append(step.high_idx)
                columns["low_idx"].append(step.low_idx)
                columns["timestamp"].append(step.step / options.fps)
                columns["frame_index"].append(step.step)
                columns["episode_index"].append(episode)
                columns["index"].append(len(columns["index"]))
                columns["task_index"].append(task_index)
            row: dict[str, Any] = {
                "episode_index": episode, "tasks": [task], "length": length,
                "data/chunk_index": 0, "data/file_index": 0,
                "dataset_from_index": start, "dataset_to_index": start + length,
            }
            for kind in options.kinds:
                key = CAMERAS[kind]
                row.update({f"videos/{key}/chunk_index": chunk, f"videos/{key}/file_index": file,
                            f"videos/{key}/from_timestamp": 0.0, f"videos/{key}/to_timestamp": length / options.fps})
            row.update({"meta/episodes/chunk_index": 0, "meta/episodes/file_index": 0})
            row.update({f"alfred.{key}": value for key, value in item.source.metadata().items()})
            row.update({"alfred.annotation": annotation.index, "alfred.annotation_source": annotation.source})
            add_episode(row)
            episode += 1
    frames = len(columns["index"])
    data = pa.table({
        "action": pa.array(columns["action"], pa.int64()),
        "action.bbox": pa.array(columns["action.bbox"], pa.list_(pa.int64(), 4)),
        "action.point": pa.array(columns["action.point"], pa.list_(pa.int64(), 2)),
        "action.mask": pa.array(columns["action.mask"], pa.string()),
        "language.instruction": pa.array(columns["language.instruction"], pa.string()),
        "language.high_idx": pa.array(columns["language.high_idx"], pa.int64()),
        "low_idx": pa.array(columns["low_idx"], pa.int64()),
        "timestamp": pa.array(columns["timestamp"], pa.float32()),
        "frame_index": pa.array(columns["frame_index"], pa.int64()),
        "episode_index": pa.array(columns["episode_index"], pa.int64()),
        "index": pa.array(columns["index"], pa.int64()),
        "task_index": pa.array(columns["task_index"], pa.int64()),
    })
    write_bytes(out / DATA_PATH.format(chunk_index=0, file_index=0), _parquet_bytes(data), durable=False)
    write_bytes(out / EPISODES_PATH.format(chunk_index=0, file_index=0), _parquet_bytes(pa.table(episodes)),
                durable=False)
    write_bytes(out / "meta" / "tasks.parquet", _parquet_bytes(_tasks_table(list(tasks))), durable=False)
    info = {
        "codebase_version": CODEBASE_VERSION, "robot_type": "alfred", "total_episodes": episode,
        "total_frames": frames, "total_tasks": len(tasks), "chunks_size": CHUNKS_SIZE,
        "data_files_size_in_mb": 100, "video_files_size_in_mb": 200, "fps": options.fps,
        "splits": {"train": f"0:{episode}"}, "data_path": DATA_PATH, "video_path": VIDEO_PATH,
        "features": features(options),
        "alfred": {"generator": "alfred-gen", "version": __version__, "actions": list(vocabulary),
                   "depth_video_max_mm": DEPTH_VIDEO_MAX_MM, "episodes_per_trajectory": "one per annotation"},
    }
    write_json(out / "meta" / "info.json", info)
    write_json(out / "meta" / "stats.json", _stats(columns, camera_sums))
    return episode, frames


def _numeric_stats(values: np.ndarray) -> dict[str, Any]:
    array = values.reshape(len(values), -1).astype(np.float64)
    return {"min": array.min(axis=0).tolist(), "max": array.max(axis=0).tolist(),
            "mean": array.mean(axis=0).tolist(), "std": array.std(axis=0).tolist(), "count": [len(values)]}


def _stats(columns: dict[str, list[Any]], camera_sums: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """LeRobot's stats.json: per numeric feature min/max/mean/std/count; per camera the same per
    channel, scaled to 0..1 and shaped (3, 1, 1) as LeRobot's image stats."""
    stats: dict[str, Any] = {}
    if columns["index"]:
        for key in ("action", "action.bbox", "action.point", "language.high_idx", "low_idx", "timestamp",
                    "frame_index", "episode_index", "index", "task_index"):
            stats[key] = _numeric_stats(np.asarray(columns[key], dtype=np.float64))
    for kind, parts in camera_sums.items():
        if not parts:
            continue
        count = sum(part["count"] for part in parts)
        total = np.sum([part["sum"] for part in parts], axis=0)
        squares = np.sum([part["squares"] for part in parts], axis=0)
        mean = total / count
        std = np.sqrt(np.maximum(squares / count - mean ** 2, 0.0))
        low = np.min([part["min"] for part in parts], axis=0)
        high = np.max([part["max"] for part in parts], axis=0)

        def shaped(vector: np.ndarray) -> list[list[list[float]]]:
            return [[[float(value) / 255.0]] for value in vector]

        stats[CAMERAS[kind]] = {"min": shaped(low), "max": shaped(high), "mean": shaped(mean), "std": shaped(std),
                                "count": [sum(part["frames"] for part in parts)]}
    return stats


def controllers(simulator: Simulator) -> Callable[..., Controller]:
    """``factory(depth=, segmentation=)``: a rendering controller of ``simulator`` per setting, opened
    the first time a re-render needs it."""
    opened: dict[tuple[bool, bool], Controller] = {}

    def factory(depth: bool = False, segmentation: bool = False) -> Controller:
        if (depth, segmentation) not in opened:
            opened[(depth, segmentation)] = simulator.open(render=True, depth=depth, segmentation=segmentation)
        return opened[(depth, segmentation)]

    return factory


def export_lerobot(
    src: str | os.PathLike[str],
    out: str | os.PathLike[str],
    options: LeRobotOptions,
    *,
    simulator: Simulator,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen export lerobot``: see the module doc."""
    if options.fps < 1:
        raise UserError(f"--fps must be at least 1, got {options.fps}", ExitCode.USAGE)
    _pyarrow()
    from alfred_gen.export.mp4 import _av

    _av()
    began = time.monotonic()
    controller_factory = controllers(simulator)
    target = Path(out)
    sources = find_sources(src)
    clear_stale(target)
    done: list[_Done] = []
    skipped: list[tuple[str, Skip]] = []
    part_options = {"fps": options.fps, "kinds": options.kinds, "format": "lerobot-2"}
    with progress("lerobot", len(sources), show=show_progress) as bar:
        for path, relative in sources:
            try:
                source = read_source(path, relative)
                make = _make_part(source, options, controller_factory)
                part = cached_part(target, cache_key(path, part_options), make)
                facts = json.loads((part / "part.json").read_text())
                done.append(_Done(source, part, int(facts["frames"]), facts["camera_sums"]))
            except Skip as reason:
                skipped.append((relative, reason))
            bar.update(1)
    for relative, skip in skipped:
        echo(f"{relative}: {skip.reason}: {skip.detail}")
    if not done:
        raise UserError(f"{shown_path(src)}: no trajectory could be exported", ExitCode.FAILED)
    episodes, frames = _assemble(target, done, options)
    text = f"{episodes} episodes ({frames} frames) from {len(done)} trajectories into {shown_path(target)}"
    counts = Counter(skip.reason for _, skip in skipped)
    text += f", {len(skipped)} skipped"
    text += (": " + ", ".join(f"{r} {n}" for r, n in sorted(counts.items()))) if counts else ""
    echo(f"{text} (in {time.monotonic() - began:.1f} s)")
    return ExitCode.FAILED if skipped else ExitCode.OK

