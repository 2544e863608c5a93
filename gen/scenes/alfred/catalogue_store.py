"""Where imported ALFRED scene catalogues live on disk, and how scene lookups find them.

``alfred-gen scenes import-alfred`` writes one JSON catalogue of real THOR rooms (``FloorPlan10``
...). Everything that resolves a scene name (``get_scene``, the lite controller, replay) finds
imported rooms through :func:`imported_scene`, which reads the *active* catalogue:

1. the path given to :func:`use_catalogue` (the CLI's ``--scenes-catalogue``), else
2. ``$ALFRED_GEN_SCENES``, else
3. ``$XDG_CACHE_HOME/alfred-gen/scenes/alfred.json`` (``~/.cache/...`` when XDG_CACHE_HOME is unset).

:func:`use_catalogue` also sets ``$ALFRED_GEN_SCENES`` so worker processes (``verify --jobs``)
see the same catalogue however they are started.

File format (JSON, written atomically so a reader never sees half a file)::

    {"format": "alfred-gen-scene-catalogue", "version": 1,
     "source": {...what was imported...},
     "scenes": {"FloorPlan10": {"scene": <Scene.to_dict()>, "info": {...}, "evidence": {...}}}}

``info`` holds counts for listings; ``evidence`` is what the importer learnt from ALFRED's files
(kept so a catalogue can be extended and a released trajectory completed without the originals).
``source.importer`` is :func:`importer_fingerprint` of the code that imported it: the importer's
rules change between releases, and a catalogue imported by other code keeps the old rooms, so
reading one says so once on stderr (:func:`warn_if_stale`) and the user imports again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.scene import Scene

#: Environment variable naming the catalogue file to use.
ENV_VAR = "ALFRED_GEN_SCENES"
FORMAT = "alfred-gen-scene-catalogue"
VERSION = 1
#: Set in the environment once a stale catalogue was reported, so worker processes stay quiet.
WARNED_VAR = "ALFRED_GEN_SCENES_STALE_REPORTED"

_chosen: Path | None = None


@cache
def importer_fingerprint() -> str:
    """A short hash of the importer's code (every module of this package): the same for the same
    release, different whenever a rule that builds imported rooms changed."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.name.encode("utf-8") + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def stale_reason(catalogue: dict[str, Any]) -> str | None:
    """Why a catalogue's rooms may not be what this code would import (None when they are)."""
    made_by = (catalogue.get("source") or {}).get("importer")
    if made_by == importer_fingerprint():
        return None
    return "imported by an earlier version of the importer" if made_by is None else \
        f"imported by other importer code ({made_by}, this one is {importer_fingerprint()})"


def warn_if_stale(path: Path, catalogue: dict[str, Any]) -> None:
    """One line on stderr, once per catalogue and run, when the catalogue is stale: its rooms still
    work, but lack what the importer learnt since, and figures measured on them differ."""
    reason = stale_reason(catalogue)
    if reason is None or os.environ.get(WARNED_VAR) == str(path):
        return
    os.environ[WARNED_VAR] = str(path)
    sys.stderr.write(f"alfred-gen: warning: {path}: scene catalogue {reason}; "
                     "run `alfred-gen scenes import-alfred` again for this version's rooms\n")


def default_catalogue_path() -> Path:
    """The catalogue used when none is chosen: ``$XDG_CACHE_HOME/alfred-gen/scenes/alfred.json``."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "alfred-gen" / "scenes" / "alfred.json"


def active_catalogue_path() -> Path:
    """The catalogue scene lookups read now (see the module docstring for the order)."""
    if _chosen is not None:
        return _chosen
    value = os.environ.get(ENV_VAR)
    return Path(value) if value else default_catalogue_path()


def use_catalogue(path: str | os.PathLike[str] | None) -> None:
    """Make ``path`` the active catalogue for this process and its children (None: back to default)."""
    global _chosen
    if path is None:
        _chosen = None
        os.environ.pop(ENV_VAR, None)
    else:
        _chosen = Path(path)
        os.environ[ENV_VAR] = str(_chosen)
    _load_cached.cache_clear()


def empty_catalogue(source: dict[str, Any] | None = None) -> dict[str, Any]:
    """A catalogue without scenes, stamped with this importer's fingerprint."""
    return {"format": FORMAT, "version": VERSION, "source": {**(source or {}), "importer": importer_fingerprint()},
            "scenes": {}}


def write_catalogue(path: str | os.PathLike[str], catalogue: dict[str, Any]) -> None:
    """Write a catalogue atomically (temp file in the same directory, then rename); sorted keys, so
    the same import gives the same bytes."""
    from alfred_gen.atomic import write_bytes as atomic_write_bytes

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps(catalogue, sort_keys=True, separators=(",", ":")).encode("utf-8")
    atomic_write_bytes(path, payload)
    _load_cached.cache_clear()


def read_catalogue(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A catalogue file's content; UserError NOT_FOUND if missing, BAD_INPUT if it is not one."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no scene catalogue here (run `alfred-gen scenes import-alfred`)",
                        ExitCode.NOT_FOUND) from None
    except OSError as error:
        raise UserError(f"{path}: cannot read the scene catalogue ({error.strerror or error})",
                        ExitCode.BAD_INPUT) from None
    try:
        data = json.loads(text)
    except ValueError:
        raise UserError(f"{path}: not a scene catalogue (not JSON, or truncated)", ExitCode.BAD_INPUT) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("scenes"), dict):
        raise UserError(f"{path}: not an alfred-gen scene catalogue", ExitCode.BAD_INPUT)
    if data.get("version") != VERSION:
        raise UserError(f"{path}: scene catalogue version {data.get('version')!r} is not {VERSION}; "
                        "import the scenes again", ExitCode.BAD_INPUT)
    return data


@lru_cache(maxsize=4)
def _load_cached(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    return read_catalogue(path)


def load_active() -> dict[str, Any] | None:
    """The active catalogue, or None if there is none on disk (cached while the file is unchanged)."""
    path = active_catalogue_path()
    try:
        stat = path.stat()
    except OSError:
        return None
    catalogue = _load_cached(str(path), stat.st_mtime_ns, stat.st_size)
    warn_if_stale(path, catalogue)
    return catalogue


def scene_from_entry(entry: dict[str, Any]) -> Scene:
    """A fresh Scene from one catalogue entry (callers may mutate it)."""
    return Scene.from_dict(entry["scene"])


def imported_scene(name: str) -> Scene | None:
    """The Scene called ``name`` (``FloorPlan10``) in the active catalogue, or None.

    A malformed catalogue raises UserError(BAD_INPUT): a broken file must not look like a missing scene.
    """
    catalogue = load_active()
    if catalogue is None:
        return None
    entry = catalogue["scenes"].get(name)
    return scene_from_entry(entry) if entry is not None else None


def floor_known(name: str) -> bool:
    """Whether the active catalogue built ``name`` with demonstrations: its floor is then the floor
    those demos walked (and the margin round it), not only its layout files' points."""
    catalogue = load_active()
    entry = catalogue["scenes"].get(name) if catalogue is not None else None
    info = entry.get("info") if isinstance(entry, dict) else None
    return isinstance(info, dict) and int(info.get("trajectories") or 0) > 0
