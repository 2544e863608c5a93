"""An independent check of EQA answers: every accepted question of a run directory recomputed from
a fresh simulator, with code of its own (not ``alfred_gen.eqa``'s): the vocabulary read as raw JSON,
rooms from the Scene's polygons, boxes from the metadata, colours named pixel by pixel with a
scalar sRGB -> CIELAB conversion, relations and distances re-derived from their documented rules.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

from alfred_gen.scenes.library import find_scene, simulator
from alfred_gen.sim.palette import FINISHES

_WHITE = (0.95047, 1.0, 1.08883)


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    def linear(c: float) -> float:
        c /= 255.0
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / _WHITE[0]
    y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / _WHITE[1]
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / _WHITE[2]

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


_PROTOTYPES = [(name, _lab(tuple(min(255, max(0, round(c * s))) for c in rgb)))  # type: ignore[arg-type]  # three channels
               for name, rgb in FINISHES.items() for s in (1.0, 0.85, 0.7)]


def color_name(pixels: Any) -> str | None:
    """The name most pixels are nearest to (ΔE*ab), when it covers at least half of them."""
    tally: Counter[str] = Counter()
    for rgb, count in Counter(map(tuple, pixels.tolist())).items():
        lab = _lab(rgb)
        name = min(_PROTOTYPES, key=lambda p: sum((a - b) ** 2 for a, b in zip(lab, p[1])))[0]
        tally[name] += count
    if not tally:
        return None
    name, count = tally.most_common(1)[0]
    return name if count >= 0.5 * sum(tally.values()) else None


def _vocabulary() -> tuple[dict[str, str], dict[str, dict[str, Any]], dict[str, str]]:
    data = json.loads(resources.files("alfred_gen.eqa").joinpath("vocabulary.json").read_text())
    word_of = {t: w for w, e in data["objects"].items() for t in e["types"]}
    rooms = {t: e["word"] for t, e in data["rooms"].items()}
    return word_of, data["objects"], rooms


class Home:
    """A home as a fresh simulator shows it: objects with words, rooms, boxes, hidden or not."""

    def __init__(self, name: str, color_variation: bool) -> None:
        self.name = name
        self.scene = find_scene(name)
        self.controller = simulator().open(render=True, segmentation=True)
        self.controller.reset(name)
        self.controller.step({"action": "Initialize", "gridSize": 0.25, "cameraY": 0.75, "visibilityDistance": 1.5})
        if color_variation:
            self.controller.step({"action": "SetColorVariation", "enabled": True})
        metadata = self.controller.last_event.metadata
        self.agent_y = metadata["agent"]["position"]["y"]
        word_of, _, _ = _vocabulary()
        by_id = {o["objectId"]: o for o in metadata["objects"]}
        self.objects = []
        for o in metadata["objects"]:
            if o.get("isSliced"):
                continue
            c, s = o["axisAlignedBoundingBox"]["center"], o["axisAlignedBoundingBox"]["size"]
            lo = (c["x"] - s["x"] / 2, c["y"] - s["y"] / 2, c["z"] - s["z"] / 2)
            hi = (c["x"] + s["x"] / 2, c["y"] + s["y"] / 2, c["z"] + s["z"] / 2)
            hidden = any(by_id[p]["openable"] and not by_id[p]["isOpen"] for p in o.get("parentReceptacles") or ())
            self.objects.append({"id": o["objectId"], "word": word_of.get(o["objectType"]), "lo": lo, "hi": hi,
                                 "hidden": hidden, "room": self.room_of(c["x"], c["z"])})

    def room_of(self, x: float, z: float) -> str | None:
        if not self.scene.rooms:
            return f"{self.scene.room_type}_1"
        inside = [r.room_id for r in self.scene.rooms
                  if min(p[0] for p in r.floor) - 1e-6 <= x <= max(p[0] for p in r.floor) + 1e-6
                  and min(p[1] for p in r.floor) - 1e-6 <= z <= max(p[1] for p in r.floor) + 1e-6]
        return inside[0] if len(inside) == 1 else None

    def room_type(self, room_id: str) -> str:
        if not self.scene.rooms:
            return self.scene.room_type
        return next(r.room_type for r in self.scene.rooms if r.room_id == room_id)

    def seen_color(self, object_id: str, pose: list[float]) -> str | None:
        event = self.controller.step({"action": "TeleportFull", "x": pose[0], "y": self.agent_y, "z": pose[1],
                                      "rotation": pose[2], "horizon": pose[3]})
        mask = event.instance_masks.get(object_id)
        return None if mask is None else color_name(event.frame[mask])


def _related(relation: str, a: dict, b: dict) -> bool:
    """The documented rules: touch 0.03 m, above within 1.5 m, same level 0.05 m, next to 0.3 m."""
    # boxes in whole micrometres, so float noise at a threshold (0.3 m apart) decides nothing
    alo, ahi, blo, bhi = ([round(v * 1e6) for v in box] for box in (a["lo"], a["hi"], b["lo"], b["hi"]))
    acx2, acz2 = alo[0] + ahi[0], alo[2] + ahi[2]  # twice the centre
    center_over = 2 * blo[0] <= acx2 <= 2 * bhi[0] and 2 * blo[2] <= acz2 <= 2 * bhi[2]
    overlap = alo[0] < bhi[0] and blo[0] < ahi[0] and alo[2] < bhi[2] and blo[2] < ahi[2]

    def above(p_lo, q_hi, p_over_q) -> bool:
        return 30_000 < p_lo[1] - q_hi[1] <= 1_500_000 and p_over_q

    if relation == "on":
        return abs(alo[1] - bhi[1]) <= 30_000 and center_over
    if relation == "above":
        return above(alo, bhi, overlap)
    if relation == "below":
        return above(blo, ahi, overlap) or (abs(alo[1]) <= 30_000 and ahi[1] < bhi[1] - 30_000 and center_over)
    if relation == "next to":
        gap_x, gap_z = max(blo[0] - ahi[0], alo[0] - bhi[0], 0), max(blo[2] - ahi[2], alo[2] - bhi[2], 0)
        return abs(alo[1] - blo[1]) <= 50_000 and not overlap and gap_x ** 2 + gap_z ** 2 <= 300_000 ** 2
    raise ValueError(relation)


def check_run(directory: str | Path) -> tuple[int, list[str]]:
    """(accepted questions checked, problems found) for a run directory."""
    data = json.loads((Path(directory) / "questions.json").read_text())
    _, words, room_words = _vocabulary()
    problems: list[str] = []
    checked = 0
    homes: dict[str, Home] = {}
    for q in data["questions"]:
        if not q["accepted"]:
            continue
        if q["home"] not in homes:
            homes.clear()
            homes[q["home"]] = Home(q["home"], data["generator"]["backend"] == "lite")
        home = homes[q["home"]]
        checked += 1
        got = _answer(home, q, words, room_words)
        if got != q["answer"]:
            problems.append(f"{q['home']}: {q['question']} answered {q['answer']!r}, recomputed {got!r}")
    return checked, problems


def _answer(home: Home, q: dict, words: dict, room_words: dict) -> str | None:
    template = q["template"]
    named = [o for o in home.objects if o["word"] is not None]
    in_room = [o for o in named if o["room"] == q.get("room")]
    if template in ("location", "color", "color_room", "preposition"):
        target = next(o for o in home.objects if o["id"] == q["targets"][0]["objectId"])
        pool = named if template in ("location", "color") else in_room
        if sum(1 for o in pool if o["word"] == target["word"]) != 1 or target["hidden"]:
            return "<target not unique or hidden>"
        if template == "location":
            return room_words[home.room_type(target["room"])] if target["room"] else None
        if template in ("color", "color_room"):
            return home.seen_color(target["id"], q["targets"][0]["view"]["pose"])
        relation = q["detail"]["relation"]
        found = {o["word"] for o in in_room if o is not target and not o["hidden"] and _related(relation, o, target)}
        return found.pop() if len(found) == 1 else None
    if template == "existence":
        return "yes" if any(o["word"] == q["detail"]["word"] and not o["hidden"] for o in in_room) else "no"
    if template == "logical":
        first, second = q["detail"]["words"]
        has = [any(o["word"] == w and not o["hidden"] for o in in_room) for w in (first, second)]
        return "yes" if all(has) else "no"
    if template == "count":
        of_word = [o for o in in_room if o["word"] == q["detail"]["word"]]
        return None if any(o["hidden"] for o in of_word) else str(len(of_word))
    if template == "room_count":
        return str(sum(1 for r in home.scene.rooms if r.room_type == q["detail"]["room_type"]))
    if template == "distance":
        anchor, near, far = (next(o for o in home.objects if o["id"] == t["objectId"]) for t in q["targets"])

        def centre_distance(a: dict, b: dict) -> float:
            return math.hypot((a["lo"][0] + a["hi"][0] - b["lo"][0] - b["hi"][0]) / 2,
                              (a["lo"][2] + a["hi"][2] - b["lo"][2] - b["hi"][2]) / 2)

        d_near, d_far = centre_distance(anchor, near), centre_distance(anchor, far)
        if abs(d_near - d_far) < 2.0:
            return None
        return "yes" if d_near < d_far else "no"
    return None
