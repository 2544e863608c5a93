"""One room's triples: every pickupable object, held and placed, every action it affords.

Files of a room, under ``<out>/rooms/<scene>/``: ``<k>-<trial>.jpg`` (the before-image of object k
in a trial), ``<k>-<trial>-<action>.jpg`` (the after-image of a successful action) and, written last
and atomically, ``room.json``: the surface, the spot, the objects that could not be staged and why,
and one record per triple. A room whose ``room.json`` exists is done.

A triple record holds: ``id``, ``scene``, ``scene_num``, ``room_type``, ``object_id``,
``object_type``, ``trial``, ``action``, ``api_actions`` (what was sent), ``surface_type``,
``before_image``/``after_image`` (paths under the output directory; no after-image for a failed
action, whose frame is the before-image), ``same_before`` (the trial's before-state, set up again
for this action, gave the same frame as the before-image), ``before_box``/``after_box`` (the object's
[x1, y1, x2, y2] in each image, None where it has no pixel), ``success``, ``error``,
``pixels_after`` (the object's pixels in the after-image), ``visible_after`` (metadata visibility),
``changed_pixels`` and ``pixel_distance`` (before vs after: pixels that differ, and the sum of
absolute differences, the paper's distance), ``moved_m`` (how far the object's centre moved across
the floor plan, metres; None when it is gone), ``sentence``, ``kept`` and ``dropped_because`` (the
cleaning, :mod:`alfred_gen.actthor.cleaning`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.actthor.actions import TRIALS, actions_for, api_actions
from alfred_gen.actthor.cleaning import RULES, CleaningRules, drop_reason
from alfred_gen.actthor.language import sentence
from alfred_gen.actthor.stage import Spot, StageFailed, choose_spot, objects_by_id, pixels_of, stage_trial
from alfred_gen.atomic import remove_stale_writes, write_bytes, write_text
from alfred_gen.replay.record import encode_jpeg
from alfred_gen.sim.scene import room_type_of

ROOMS_DIR = "rooms"
ROOM_FILE = "room.json"


@dataclass
class RoomResult:
    """What one room gave: counts for the run's summary."""

    scene: str
    triples: int = 0
    kept: int = 0
    skipped: int = 0
    dropped: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    existed: bool = False


def room_dir(out: Path, scene: str) -> Path:
    return out / ROOMS_DIR / scene


def scene_number(scene: str) -> int | None:
    match = re.search(r"(\d+)$", scene)
    return int(match.group(1)) if match else None


def _room_type(number: int | None) -> str | None:
    try:
        return room_type_of(number) if number is not None else None
    except ValueError:
        return None


def _box(event: Any, object_id: str) -> list[int] | None:
    box = (getattr(event, "instance_detections2D", None) or {}).get(object_id)
    return [int(v) for v in box] if box is not None else None


def _moved(before: Any, after: Any, object_id: str) -> float | None:
    """How far (metres, horizontally) the object's position moved from ``before`` to ``after``."""
    old, new = objects_by_id(before).get(object_id), objects_by_id(after).get(object_id)
    if old is None or new is None:
        return None
    a, b = old["position"], new["position"]
    return round(float(np.hypot(b["x"] - a["x"], b["z"] - a["z"])), 3)


def frame_difference(before: np.ndarray, after: np.ndarray) -> tuple[int, int]:
    """(pixels that differ in any channel, sum of absolute differences) of two RGB frames."""
    a = np.asarray(before, dtype=np.int16)
    b = np.asarray(after, dtype=np.int16)
    diff = np.abs(a - b)
    return int(np.count_nonzero(diff.any(axis=2))), int(diff.sum())


def _write_image(out: Path, relative: str, frame: np.ndarray) -> None:
    write_bytes(out / relative, encode_jpeg(np.asarray(frame)), durable=False)


def _landed_on(event: Any, object_id: str) -> str | None:
    objects = objects_by_id(event)
    parents = objects[object_id].get("parentReceptacles") or []
    return objects[parents[0]]["objectType"] if parents and parents[0] in objects else None


def collect_room(
    controller: Any, scene: str, out: Path, rules: CleaningRules = RULES, *, quiet_setup: bool = False
) -> RoomResult:
    """Collect one room's triples into ``out`` (see the module docstring) unless it is done.
    ``quiet_setup``: the controller is lite, whose frames can be switched off while setting up."""
    folder = room_dir(out, scene)
    result = RoomResult(scene)
    if (folder / ROOM_FILE).exists():
        result.existed = True
        return result
    remove_stale_writes(folder)  # a killed run's frame or record in flight: this room is collected again whole
    number = scene_number(scene)
    record: dict[str, Any] = {"scene": scene, "scene_num": number, "room_type": _room_type(number)}
    try:
        spot, _surface = choose_spot(controller, scene)
    except StageFailed as failure:
        result.error = str(failure)
        write_text(folder / ROOM_FILE, json.dumps({**record, "error": str(failure), "triples": []}, indent=1) + "\n")
        return result
    start = controller.reset(scene)
    targets = sorted(o["objectId"] for o in start.metadata["objects"] if o.get("pickupable"))
    triples: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    for k, target in enumerate(targets):
        for trial in TRIALS:
            try:
                triples.extend(_trial(controller, scene, spot, target, k, trial, record, out, rules, quiet_setup))
            except StageFailed as failure:
                skipped.append({"object_id": target, "trial": trial, "reason": str(failure)})
    record.update({
        "surface": {"objectId": spot.surface_id, "objectType": spot.surface_type},
        "spot": {"x": spot.x, "z": spot.z, "rotation": spot.rotation, "horizon": spot.horizon},
        "objects": len(targets),
        "skipped": skipped,
        "triples": triples,
    })
    write_text(folder / ROOM_FILE, json.dumps(record, indent=1, sort_keys=True) + "\n")
    result.triples = len(triples)
    result.kept = sum(t["kept"] for t in triples)
    result.skipped = len(skipped)
    for t in triples:
        if t["dropped_because"]:
            result.dropped[t["dropped_because"]] = result.dropped.get(t["dropped_because"], 0) + 1
    return result


def _trial(
    controller: Any, scene: str, spot: Spot, target: str, k: int, trial: str, room: Mapping[str, Any], out: Path,
    rules: CleaningRules, quiet_setup: bool,
) -> list[dict[str, Any]]:
    """The triples of one object in one trial (StageFailed when its before-state cannot be made)."""
    staged = stage_trial(controller, scene, spot, target, trial, quiet_setup=quiet_setup)
    before = staged.event
    before_frame = np.array(before.frame)
    obj = objects_by_id(before)[target]
    stem = f"{ROOMS_DIR}/{scene}/{k:02d}-{trial}"
    before_image = f"{stem}.jpg"
    _write_image(out, before_image, before_frame)
    out_triples = []
    for index, action in enumerate(actions_for(trial, obj)):
        state = staged if index == 0 else stage_trial(controller, scene, spot, target, trial, staged.point,
                                                      quiet_setup=quiet_setup)
        same_before = index == 0 or bool(np.array_equal(np.asarray(state.event.frame), before_frame))
        now = objects_by_id(state.event)[target]
        steps = api_actions(action, now, spot.surface_id)
        after = state.event
        for step in steps:
            after = controller.step(step)
            if not after.metadata.get("lastActionSuccess"):
                break
        success = bool(after.metadata.get("lastActionSuccess"))
        after_frame = np.array(after.frame)
        changed, distance = frame_difference(before_frame, after_frame)
        after_image = f"{stem}-{action}.jpg" if success else None
        if after_image is not None:
            _write_image(out, after_image, after_frame)
        landed = _landed_on(after, target) if target in objects_by_id(after) else None
        triple = {
            "id": f"{scene}/{k:02d}-{trial}-{action}",
            "scene": scene,
            "scene_num": room["scene_num"],
            "room_type": room["room_type"],
            "object_id": target,
            "object_type": obj["objectType"],
            "trial": trial,
            "action": action,
            "api_actions": steps,
            "surface_type": spot.surface_type,
            "before_image": before_image,
            "after_image": after_image,
            "before_box": _box(before, target),
            "after_box": _box(after, target),
            "same_before": same_before,
            "success": success,
            "error": "" if success else str(after.metadata.get("errorMessage") or ""),
            "pixels_after": pixels_of(after, target),
            "visible_after": bool(objects_by_id(after).get(target, {}).get("visible", False)),
            "changed_pixels": changed,
            "pixel_distance": distance,
            "moved_m": _moved(state.event, after, target),
            "sentence": sentence(action, obj["objectType"], spot.surface_type, landed,
                                 toggled_on=not now.get("isToggled")),
        }
        reason = drop_reason(triple, rules)
        triple["kept"] = reason is None
        triple["dropped_because"] = reason
        out_triples.append(triple)
    return out_triples
