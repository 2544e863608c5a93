"""One trajectory in the site: its row in the index and its own page (HTML shell plus data script).

The page data is everything the player shows, so the page needs no other file but the pictures:
for each frame its file stem, low and high index and whether the action was chosen in it; for each
low action its label and, for interactions, the mask runs (the page decodes them for the overlay);
each subgoal's instruction and frame span; the agent's position on the room map at every frame
and the poses it interacted from; the PDDL problem (``pddl_states/problem_0.pddl``) and the plan.

Vetted status, in the words the index shows: ``vetted`` / ``vet failed`` when ``--vet`` replayed it
now, else ``vetted when generated`` for our files (the sampler keeps only vetted demonstrations, and
says so in the ``generator`` block) and ``not vetted`` for others (released ALFRED files);
``invalid`` when the file fails the schema.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from alfred_gen.atomic import write_text
from alfred_gen.export import storyboard
from alfred_gen.export.frame_source import present_kinds
from alfred_gen.export.view import media
from alfred_gen.replay.images import RGB_SUFFIX
from alfred_gen.traj.format import PDDL_STATES_DIR, RAW_IMAGES_DIR

ASSETS_PACKAGE = "alfred_gen.export.view"
PAGE_TEMPLATE = "trajectory.html"
PDDL_PROBLEM_FILE = "problem_0.pddl"

STATUS_VETTED = "vetted"
STATUS_VET_FAILED = "vet failed"
STATUS_GENERATED = "vetted when generated"
STATUS_NOT_VETTED = "not vetted"
STATUS_INVALID = "invalid"


@dataclass(frozen=True)
class Status:
    """A trajectory's vetted status word and, for failures, why."""

    word: str
    detail: str = ""


def asset_text(name: str) -> str:
    """A file of the site's assets (HTML templates, CSS, JavaScript) as shipped in the package."""
    return resources.files(ASSETS_PACKAGE).joinpath("assets", name).read_text(encoding="utf-8")


def trajectory_key(root: Path, trajectory_dir: Path) -> str:
    """A file-name-safe, unique name for a trajectory: its directory below the root, ``/`` -> ``__``."""
    try:
        parts = trajectory_dir.resolve().relative_to(root.resolve()).parts
    except ValueError:
        parts = trajectory_dir.resolve().parts[-2:]
    text = "__".join(parts) or trajectory_dir.name or "trajectory"
    return "".join(c if c.isalnum() or c in "_-." else "_" for c in text)


def slots(traj: Mapping[str, Any]) -> dict[str, str]:
    """The slots `alfred-gen stats` counts, as ALFRED's directory name spells them."""
    from alfred_gen.sim.scene import room_type_of
    from alfred_gen.traj.scene_nums import lite_room_of_scene_num

    params = traj["pddl_params"]
    scene_num = int(traj["scene"]["scene_num"])
    try:
        room = room_type_of(lite_room_of_scene_num(scene_num) or scene_num)  # LitePlan205 records 10205
    except ValueError:
        room = "unknown"
    return {
        "task_type": str(traj["task_type"]),
        "object": str(params["object_target"]) + ("Sliced" if params.get("object_sliced") else ""),
        "receptacle": str(params.get("parent_target") or params.get("toggle_target") or ""),
        "mrecep": str(params.get("mrecep_target") or ""),
        "scene": str(scene_num),
        "room_type": room,
    }


def default_status(traj: Mapping[str, Any]) -> Status:
    generator = traj.get("generator")
    if isinstance(generator, Mapping) and generator.get("name") == "alfred-gen":
        backend = f"{generator.get('backend', '')} {generator.get('backend_version', '')}".strip()
        return Status(STATUS_GENERATED, backend)
    return Status(STATUS_NOT_VETTED)


def _thumbnail_stem(steps: list[storyboard.FrameStep], lows: list[Mapping[str, Any]]) -> str:
    """The frame the index shows: where the first interaction is chosen (the target in view), else
    the middle frame."""
    for step in steps:
        low = lows[step.low_idx] if step.low_idx < len(lows) else None
        if step.before_action and low is not None and storyboard.interaction_mask(low) is not None:
            return step.stem
    return steps[len(steps) // 2].stem


def build_trajectory(traj_path: Path, root: Path, site: Path,
                     vet: Callable[[Mapping[str, Any]], Status] | None = None) -> dict[str, Any]:
    """Publish one trajectory into ``site`` (frames, thumbnail, map, page) and return its index row.
    A file that cannot be read or fails the schema gets a row with status ``invalid`` and no page."""
    from alfred_gen.errors import UserError
    from alfred_gen.traj.format import load_trajectory

    key = trajectory_key(root, traj_path.parent)
    try:
        traj = load_trajectory(traj_path)
    except (UserError, OSError) as error:
        return {"key": key, "path": _relative(traj_path, root), "status": STATUS_INVALID,
                "status_detail": " ".join(str(error).split())}
    status = vet(traj) if vet is not None else default_status(traj)
    steps = storyboard.frame_steps(traj)
    lows = traj["plan"]["low_actions"]
    stems = [step.stem for step in steps]
    kinds = present_kinds(traj_path.parent, stems) if steps else set()
    if "rgb" not in kinds:
        kinds = set()  # depth or masks without the RGB frames: the player has nothing to show
    media.publish_frames(traj_path.parent, stems, kinds, site / "frames" / key)
    thumb = ""
    if kinds:
        thumb = f"thumbs/{key}.jpg"
        frame = traj_path.parent / RAW_IMAGES_DIR / f"{_thumbnail_stem(steps, lows)}{RGB_SUFFIX}"
        media.write_thumbnail(frame, site / thumb)
    room = media.room_map(str(traj["scene"]["floor_plan"]), site)
    words = storyboard.language(traj)
    row = {
        "key": key,
        "path": _relative(traj_path, root),
        "page": f"t/{key}.html",
        "thumb": thumb,
        **slots(traj),
        "floor_plan": str(traj["scene"]["floor_plan"]),
        "low": len(lows),
        "frames": len(steps),
        "subgoals": len(traj["plan"]["high_pddl"]),
        "status": status.word,
        "status_detail": status.detail,
        "task_desc": words.task_desc,
        "language": words.source,
    }
    data = page_data(traj, traj_path, steps, kinds, room, words, row)
    write_text(site / "t" / f"{key}.js", "window.ALFRED_VIEW_TRAJ = " + script_json(data) + ";\n", durable=False)
    title = f"{row['task_type']} {row['object']} -> {row['receptacle']} in {row['floor_plan']}"
    shell = asset_text(PAGE_TEMPLATE).replace("{{title}}", html.escape(title)).replace("{{data}}", html.escape(key))
    write_text(site / "t" / f"{key}.html", shell, durable=False)
    return row


def page_data(traj: Mapping[str, Any], traj_path: Path, steps: list[storyboard.FrameStep], kinds: set[str],
              room: media.RoomMap | None, words: storyboard.Language, row: Mapping[str, Any]) -> dict[str, Any]:
    """What the trajectory page shows (see the module doc)."""
    lows = traj["plan"]["low_actions"]
    high = traj["plan"]["high_pddl"]
    spans = storyboard.subgoal_spans(steps, len(high))
    poses = storyboard.agent_poses(traj)
    data: dict[str, Any] = {
        "row": dict(row),
        "task_id": traj.get("task_id", ""),
        "language": {"source": words.source, "task_desc": words.task_desc},
        "annotations": _annotations(traj),
        "kinds": sorted(kinds),
        "frame_dir": f"../frames/{row['key']}",
        "frames": [[step.stem, step.low_idx, step.high_idx, int(step.before_action)] for step in steps],
        "lows": [_low(low) for low in lows],
        "subgoals": [{"label": storyboard.subgoal_label(step), "instruction": words.subgoals[i],
                      "first": spans[i][0], "last": spans[i][1],
                      "planner_action": step.get("planner_action", {})} for i, step in enumerate(high)],
        "pddl_params": traj.get("pddl_params", {}),
        "pddl_problem": _pddl_problem(traj_path.parent),
        "generator": traj.get("generator"),
        "map": None,
    }
    if room is not None:
        frame_poses = [storyboard.frame_pose(poses, step) for step in steps] or poses[:1]
        interactions = [[*room.pixel(poses[i].x, poses[i].z), poses[i].rotation, i]
                        for i, low in enumerate(lows) if storyboard.interaction_mask(low) is not None]
        data["map"] = {"src": f"../{room.src}", "width": room.width, "height": room.height,
                       "walk": room.path(poses), "at": room.path(frame_poses), "interactions": interactions}
    return data


def _low(low: Mapping[str, Any]) -> dict[str, Any]:
    args = low["discrete_action"].get("args")
    entry: dict[str, Any] = {"label": storyboard.low_action_label(low), "high": low["high_idx"],
                             "api": low.get("api_action", {})}
    if isinstance(args, Mapping) and args.get("mask"):
        entry["mask"] = args["mask"]
        entry["bbox"] = args.get("bbox")
    return entry


def _annotations(traj: Mapping[str, Any]) -> list[dict[str, Any]]:
    anns = (traj.get("turk_annotations") or {}).get("anns") or []
    return [{"who": str(ann.get("assignment_id", "")), "task_desc": str(ann.get("task_desc", "")),
             "high_descs": [str(d) for d in ann.get("high_descs") or []]}
            for ann in anns if isinstance(ann, Mapping)]


def _pddl_problem(trajectory_dir: Path) -> str | None:
    path = trajectory_dir / PDDL_STATES_DIR / PDDL_PROBLEM_FILE
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def script_json(data: Any) -> str:
    """Compact JSON safe inside a script file (no ``</`` that could close a script element)."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False).replace("</", "<\\/")

