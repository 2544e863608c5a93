"""Building the site: every trajectory under a directory, an index, the assets; written atomically.

Layout of ``SITE/``::

    index.html               the table of trajectories, filters, balance charts
    data/index.js            the rows (``window.ALFRED_VIEW_INDEX``), embedded so file:// works
    assets/                  style.css, index.js, trajectory.js
    t/<key>.html, t/<key>.js one page per trajectory and its data
    frames/<key>/<kind>/     frames (rgb, depth, seg), hard-linked from the dataset
    thumbs/<key>.jpg         96x96 thumbnails for the index (lazy-loaded)
    maps/<room>.png          one top-down map per room

The whole site is built in a hidden folder beside ``SITE`` and then renamed into place, so a killed
build leaves the previous site (or nothing) and never half a site. A ``SITE`` that exists is
replaced only when this command can prove it made it: its marker file ``.alfred-gen-view`` lists
every file the build wrote with its size and SHA-256, and the folder holds those files unchanged and
nothing else. Any other non-empty folder (a forged or damaged marker, a file added or edited, a
symbolic link) is refused with one line and exit 3, untouched: a marker's mere presence proves
nothing, and a copy of a dataset that happened to hold one was once wiped. The same dataset gives
the same files (no dates, rows sorted by path), so sites can be compared with ``diff``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.atomic import make_temp_dir, write_text
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.export.view.page import (
    STATUS_INVALID,
    STATUS_VET_FAILED,
    STATUS_VETTED,
    Status,
    asset_text,
    build_trajectory,
    script_json,
)
from alfred_gen.parallel import run_unordered
from alfred_gen.progress import progress
from alfred_gen.sim.controller import Controller, Simulator

#: A file in every site this command makes, listing what the build wrote (see the module doc).
MARKER_FILE = ".alfred-gen-view"
#: The marker's ``made_by`` value: a marker without it is not ours.
MARKER_MADE_BY = "alfred-gen view"
ASSET_FILES = ("style.css", "index.js", "trajectory.js")
INDEX_TEMPLATE = "index.html"


@dataclass(frozen=True)
class SiteSummary:
    """What a build made: rows by status, how many have frames, where, how long."""

    site: Path
    rows: list[dict[str, Any]]
    seconds: float

    def line(self) -> str:
        statuses = Counter(row["status"] for row in self.rows)
        with_frames = sum(1 for row in self.rows if row.get("thumb"))
        parts = ", ".join(f"{word} {count}" for word, count in sorted(statuses.items()))
        return (f"site: {len(self.rows)} trajectories ({parts}; {with_frames} with frames) -> "
                f"{self.site / 'index.html'} (in {self.seconds:.1f} s)")


# --- workers: one simulator per process, made only when --vet needs it -------------------------------
_simulator: Simulator | None = None
_controller: Controller | None = None


def _init_worker(simulator: Simulator | None) -> None:
    global _simulator, _controller
    _simulator, _controller = simulator, None


def _vet(traj: Mapping[str, Any]) -> Status:
    from alfred_gen.replay.vet import vet_trajectory

    def controller() -> Controller:
        global _controller
        if _controller is None:
            assert _simulator is not None
            _controller = _simulator.open()
        return _controller

    result = vet_trajectory(traj, controller_factory=controller, check_schema=False)
    return Status(STATUS_VETTED, result.goal.describe()) if result.ok else Status(
        STATUS_VET_FAILED, f"{result.reason}: {result.error}")


def _build_one(job: tuple[int, str, str, str]) -> tuple[int, dict[str, Any] | tuple[str, int]]:
    index, traj_path, root, site = job
    try:
        return index, build_trajectory(Path(traj_path), Path(root), Path(site),
                                       _vet if _simulator is not None else None)
    except UserError as error:  # the environment (no simulator for --vet): stop the build
        return index, (str(error), int(error.code))


def _results(work: list[tuple[int, str, str, str]], jobs: int,
             simulator: Simulator | None) -> Iterator[tuple[int, Any]]:
    return run_unordered(_build_one, work, jobs, _init_worker, (simulator,), chunksize=4)


def _check_target(site: Path) -> None:
    """Refuse ``site`` (UserError BAD_INPUT, nothing touched) unless it is absent, empty, or a site
    this command can prove it built."""
    if site.exists() and not site.is_dir():
        raise UserError(f"--out {site}: exists and is not a directory", ExitCode.BAD_INPUT)
    if site.is_symlink():
        raise UserError(f"--out {site}: is a symbolic link; give a new or empty directory", ExitCode.BAD_INPUT)
    if not site.is_dir() or not any(site.iterdir()):
        return
    doubt = _why_not_ours(site)
    if doubt is not None:
        raise UserError(f"--out {site}: exists and is not a site made by `alfred-gen view` ({doubt}); "
                        "give a new or empty directory", ExitCode.BAD_INPUT)


def _file_facts(path: Path) -> list[Any]:
    """[size, sha256 hex] of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return [path.stat().st_size, digest.hexdigest()]


def _site_files(site: Path) -> Iterator[tuple[str, Path]]:
    """(relative POSIX name, path) of every entry in ``site`` that is not a directory (symbolic
    links included, followed never), the marker excepted."""
    for folder, folders, files in os.walk(site):
        base = Path(folder)
        for name in sorted(files) + sorted(entry for entry in folders if (base / entry).is_symlink()):
            path = base / name
            relative = path.relative_to(site).as_posix()
            if relative != MARKER_FILE:
                yield relative, path


def _write_marker(site: Path) -> None:
    """The marker: every file of the finished build with its size and hash (written last)."""
    files = {name: _file_facts(path) for name, path in _site_files(site)}
    text = json.dumps({"made_by": MARKER_MADE_BY, "files": files}, indent=1, sort_keys=True) + "\n"
    write_text(site / MARKER_FILE, text, durable=False)


def _why_not_ours(site: Path) -> str | None:
    """Why the folder ``site`` cannot be proven a site of ours (None when it can)."""
    marker = site / MARKER_FILE
    if marker.is_symlink() or not marker.is_file():
        return f"no {MARKER_FILE} file"
    try:
        listed = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return f"its {MARKER_FILE} is not a list of what a build wrote"
    if not isinstance(listed, dict) or listed.get("made_by") != MARKER_MADE_BY or not isinstance(
            listed.get("files"), dict):
        return f"its {MARKER_FILE} is not a list of what a build wrote"
    files: dict[str, Any] = listed["files"]
    for name, path in _site_files(site):
        if name not in files:
            return f"{name} is not one of the files the build wrote"
        if path.is_symlink() or not path.is_file():
            return f"{name} is not the file the build wrote"
        try:
            facts = _file_facts(path)
        except OSError as error:
            return f"{name}: {error.strerror or type(error).__name__}"
        if facts != files[name]:
            return f"{name} has changed since the build"
    return None


def build_site(
    directory: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    vet_with: Simulator | None = None,
    jobs: int = 1,
    show_progress: bool = True,
) -> SiteSummary:
    """Build the site for every trajectory under ``directory`` into ``out`` (see the module doc).
    ``vet_with``: replay each trajectory on this simulator to give its vetted status now.
    UserError NOT_FOUND when nothing is found, BAD_INPUT for an ``out`` that is not ours."""
    from alfred_gen.replay.verify import find_trajectories

    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    root, site = Path(directory), Path(out)
    paths = find_trajectories(root)
    _check_target(site)
    began = time.monotonic()
    site.parent.mkdir(parents=True, exist_ok=True)
    staging = make_temp_dir(site.parent, f".{site.name}.building-")
    try:
        work = [(i, str(path), str(root), str(staging)) for i, path in enumerate(paths)]
        rows: list[dict[str, Any] | None] = [None] * len(work)
        with progress("building site", len(work), show=show_progress) as bar:
            for index, row in _results(work, jobs, vet_with):
                if isinstance(row, tuple):
                    message, code = row
                    raise UserError(message, ExitCode(code))
                rows[index] = row
                bar.update(1)
        done = [row for row in rows if row is not None]
        _write_index(staging, root, done)
        _swap_into_place(staging, site)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return SiteSummary(site, done, time.monotonic() - began)


def _write_index(site: Path, root: Path, rows: list[dict[str, Any]]) -> None:
    for name in ASSET_FILES:
        write_text(site / "assets" / name, asset_text(name), durable=False)
    data = {"title": root.resolve().name or str(root), "rows": rows}
    write_text(site / "data" / "index.js", "window.ALFRED_VIEW_INDEX = " + script_json(data) + ";\n", durable=False)
    write_text(site / INDEX_TEMPLATE, asset_text(INDEX_TEMPLATE), durable=False)
    _write_marker(site)


def _swap_into_place(staging: Path, site: Path) -> None:
    """Rename the finished build to ``site``; an older site is moved aside first and then removed."""
    old = None
    if site.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{site.name}.old-", dir=site.parent))
        site.rename(old / "site")
    staging.rename(site)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def view_command(
    directory: str,
    out: str,
    *,
    serve: int | None = None,
    vet_with: Simulator | None = None,
    jobs: int = 1,
    echo: Callable[[str], None] = print,
) -> ExitCode:
    """``alfred-gen view``: build the site, print the summary (and invalid files), then serve it on
    ``serve`` until Ctrl-C when asked. FAILED if any file was invalid or failed its vet."""
    summary = build_site(directory, out, vet_with=vet_with, jobs=jobs)
    for row in summary.rows:
        if row["status"] in (STATUS_INVALID, STATUS_VET_FAILED):
            echo(f"{row['path']}: {row['status']}: {row.get('status_detail', '')}")
    echo(summary.line())
    if serve is not None:
        from alfred_gen.export.view.serve import serve_until_interrupted

        serve_until_interrupted(Path(out), serve, echo=echo)
    bad = any(row["status"] in (STATUS_INVALID, STATUS_VET_FAILED) for row in summary.rows)
    return ExitCode.FAILED if bad else ExitCode.OK
