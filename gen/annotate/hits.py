"""``alfred-gen annotate export`` and ``annotate vote``: static pages that people annotate or vote on.

ALFRED's workers watched a demonstration's video, its subgoals marked along it, and wrote a goal and
one instruction per subgoal; other workers then picked the annotations that fit. These pages do the
same with plain files: each HIT page shows ``--per-hit`` demonstrations (a frame player over the
demo's frames, the subgoals with their frame ranges) and a form. Submitting appends the answers as
JSON lines to the page (to copy or download: offline use); opened as an external question (the URL
carries ``assignmentId`` and ``turkSubmitTo``), it also posts them to the platform.

Nothing a page shows is markup from the data: the demos travel as one JSON block (``<`` escaped, so
text cannot close the block) and the page script inserts every string as text. Vote pages show
other workers' words, so this matters.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_bytes as atomic_write_bytes
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.traj.format import RAW_IMAGES_DIR, TRAJ_FILE_NAME, load_trajectory

#: Files every HIT directory gets from the package.
ASSETS = ("hit.js", "hit.css")


@dataclass(frozen=True)
class Demo:
    """One demonstration of a HIT: where it is (``key``: its directory under the data root)."""

    key: str
    path: Path
    traj: Mapping[str, Any]


def find_demos(root: Path) -> list[Demo]:
    """Every trajectory under ``root`` (hidden directories skipped), in path order."""
    if not root.is_dir():
        raise UserError(f"{root}: not a directory", ExitCode.BAD_INPUT)
    demos = []
    for path in sorted(root.rglob(TRAJ_FILE_NAME)):
        relative = path.parent.relative_to(root)
        if any(part.startswith(".") for part in relative.parts):
            continue
        demos.append(Demo(relative.as_posix(), path, load_trajectory(path)))
    if not demos:
        raise UserError(f"{root}: no {TRAJ_FILE_NAME} under it", ExitCode.NOT_FOUND)
    return demos


def subgoal_names(traj: Mapping[str, Any]) -> list[str]:
    """``GotoLocation countertop``-style names of the subgoals a worker writes one line for."""
    names = []
    for high in traj["plan"]["high_pddl"]:
        discrete = high["discrete_action"]
        if discrete["action"] == "NoOp":
            continue
        names.append(" ".join([discrete["action"], *(str(a) for a in discrete.get("args") or ())]))
    return names


def _frames(demo: Demo, out: Path, index: int) -> tuple[list[str], list[int]]:
    """Link (or copy) the demo's frames under ``out/frames/<index>/``; their URLs and subgoals."""
    source = demo.path.parent / RAW_IMAGES_DIR
    files = sorted(p for p in source.iterdir() if p.is_file()) if source.is_dir() else []
    target = out / "frames" / str(index)
    target.mkdir(parents=True, exist_ok=True)
    images = demo.traj.get("images") or []
    last_high = max(0, len(subgoal_names(demo.traj)) - 1)
    urls, subgoal = [], []
    for i, path in enumerate(files):
        destination = target / path.name
        if not destination.exists():
            try:
                os.link(path, destination)
            except OSError:
                shutil.copy2(path, destination)
        urls.append(f"frames/{index}/{path.name}")
        subgoal.append(min(int(images[i]["high_idx"]), last_high) if i < len(images) else last_high)
    return urls, subgoal


def _bounds(subgoal: Sequence[int], count: int) -> list[list[int]]:
    bounds = []
    for step in range(count):
        frames = [i for i, s in enumerate(subgoal) if s == step]
        bounds.append([frames[0], frames[-1]] if frames else [0, 0])
    return bounds


def _page(title: str, kind: str, hit: str, demos: list[dict[str, Any]]) -> bytes:
    """The HTML of one page: static markup, the data as a JSON block, the shared script."""
    block = json.dumps({"kind": kind, "hit": hit, "demos": demos}, sort_keys=True)
    block = block.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    intro = ("Watch each demonstration, then write the goal and one instruction per step, as you would tell "
             "a person." if kind == "task" else
             "Watch each demonstration, then tick every description that fits it.")
    text = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="hit.css">
</head>
<body>
<h1>{html.escape(title)}</h1>
<p>{html.escape(intro)}</p>
<p><label for="worker">Worker id</label> <input type="text" id="worker" maxlength="64"></p>
<div id="demos"></div>
<p><button type="button" id="submit">Submit</button> <span id="status"></span></p>
<p><a id="download" download="{html.escape(hit)}.jsonl" hidden>download the answers (JSON lines)</a></p>
<pre id="answers"></pre>
<script type="application/json" id="hit-data">{block}</script>
<script src="hit.js"></script>
</body>
</html>
"""
    return text.encode("utf-8")


def _copy_assets(out: Path) -> None:
    for name in ASSETS:
        data = resources.files("alfred_gen.annotate").joinpath("assets", name).read_bytes()
        atomic_write_bytes(out / name, data)


def write_pages(root: str | os.PathLike[str], out: str | os.PathLike[str], per_hit: int, kind: str,
                echo: Callable[[str], None] = print) -> ExitCode:
    """Write one page per ``per_hit`` demos of ``root`` into ``out`` (``kind``: task or vote) and
    ``hits.jsonl`` listing them; prints a summary."""
    if per_hit < 1:
        raise UserError(f"--per-hit must be at least 1, got {per_hit}", ExitCode.USAGE)
    began = time.monotonic()
    demos = find_demos(Path(root))
    out_dir = Path(out)
    if out_dir.exists() and not out_dir.is_dir():
        raise UserError(f"{out}: exists and is not a directory", ExitCode.BAD_INPUT)
    out_dir.mkdir(parents=True, exist_ok=True)
    _copy_assets(out_dir)
    manifest = []
    skipped = 0
    chosen = demos if kind == "task" else [d for d in demos if d.traj.get("turk_annotations", {}).get("anns")]
    skipped = len(demos) - len(chosen)
    for start in range(0, len(chosen), per_hit):
        hit = f"{kind}_{start // per_hit:05d}"
        entries = []
        for offset, demo in enumerate(chosen[start:start + per_hit]):
            urls, subgoal = _frames(demo, out_dir, start + offset)
            names = subgoal_names(demo.traj)
            entry: dict[str, Any] = {"key": demo.key, "task_id": str(demo.traj["task_id"]), "frames": urls,
                                     "frame_subgoal": subgoal, "subgoals": names,
                                     "bounds": _bounds(subgoal, len(names))}
            if kind == "vote":
                entry["annotations"] = [
                    {"assignment_id": str(a.get("assignment_id", "")), "task_desc": str(a.get("task_desc", "")),
                     "high_descs": [str(line) for line in a.get("high_descs") or ()]}
                    for a in demo.traj["turk_annotations"]["anns"]]
            if not urls:
                raise UserError(f"{demo.path.parent}: no frames in {RAW_IMAGES_DIR}/ (render them with "
                                "`alfred-gen replay` first)", ExitCode.BAD_INPUT)
            entries.append(entry)
        title = ("Describe what the robot does" if kind == "task" else "Which descriptions fit?") + f" ({hit})"
        atomic_write_bytes(out_dir / f"{hit}.html", _page(title, kind, hit, entries))
        manifest.append({"hit": hit, "page": f"{hit}.html", "demos": [e["key"] for e in entries]})
    lines = "".join(json.dumps(m, sort_keys=True) + "\n" for m in manifest)
    atomic_write_bytes(out_dir / "hits.jsonl", lines.encode("utf-8"))
    note = f" ({skipped} without annotations left out)" if skipped else ""
    echo(f"wrote {len(manifest)} {kind} page(s) for {len(chosen)} demo(s){note} to {out_dir} "
         f"in {time.monotonic() - began:.1f} s")
    return ExitCode.OK
