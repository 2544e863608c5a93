"""Colours of interaction targets: the paint lite gives them, or the demonstration's stored frames.

Each interaction's mask (``discrete_action.args.mask``) is the target's pixels in the frame taken
before the action (the receptacle's for PutObject). Under that mask the colour is named as EQA
names colours (:func:`alfred_gen.sim.colors.read_color`), but the language only uses a name that
covers at least :data:`LANGUAGE_SHARE` of the pixels: frames are stored as JPEG, and a colour that
barely dominates there might not dominate in the rendered frame a checker reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from alfred_gen.sim.colors import pixel_names, read_color
from alfred_gen.sim.palette import type_color, varied_color
from alfred_gen.sim.scene import Box
from alfred_gen.sim.shapes import shape_parts
from alfred_gen.traj.format import RAW_IMAGE_NAME
from alfred_gen.traj.rle import decode_mask

#: Shades of the faces a camera sees (tops at full light, sides between 0.7 and 0.88 of it).
FACE_SHADES = (1.0, 0.88, 0.8, 0.76, 0.7)

#: Share of an object's painted surface its colour name must cover for the language to say it. A part
#: of another colour on the face the agent looks at can take most of the pixels although it is a small
#: share of the surface (a white microwave's black window is 9% of it: the truth checker read the
#: microwave as black), so only handles and trims (at most 3%) may differ.
PAINTED_SHARE = 0.95

#: Share of the target's pixels its colour name must cover for the language to say it.
LANGUAGE_SHARE = 0.75


def target_of(api_action: Mapping[str, Any]) -> str:
    """The object whose mask an interaction records (the receptacle for PutObject)."""
    if api_action.get("action") == "PutObject":
        return str(api_action.get("receptacleObjectId") or "")
    return str(api_action.get("objectId") or "")


def colour_name(frame: np.ndarray, mask: np.ndarray, share: float = LANGUAGE_SHARE) -> str | None:
    """The colour name of the pixels of ``frame`` under ``mask`` when it covers ``share`` of them."""
    pixels = frame[mask.astype(bool)]
    if len(pixels) < 20:
        return None
    reading = read_color(pixels, dominant=share)
    return reading.name


def interaction_colours(low_actions: Sequence[Mapping[str, Any]], image_dir: Path | None
                        ) -> dict[int, tuple[str, str]]:
    """Low index -> (target id, colour name) for interactions whose stored frame shows a clear colour.

    ``image_dir``: the trial's ``raw_images`` (frame ``i`` was taken before action ``i``); None or
    missing frames give no colours. For reading a stored demo; the generator uses
    :func:`painted_colours`, which needs no frames (a file is the same with or without them)."""
    out: dict[int, tuple[str, str]] = {}
    if image_dir is None:
        return out
    for low_idx, low in enumerate(low_actions):
        args = low.get("discrete_action", {}).get("args") or {}
        if not isinstance(args, Mapping) or not args.get("mask"):
            continue
        path = image_dir / RAW_IMAGE_NAME.format(low_idx)
        if not path.is_file():
            continue
        with Image.open(path) as image:
            frame = np.asarray(image.convert("RGB"))
        mask = decode_mask(args["mask"], frame.shape[0], frame.shape[1])
        name = colour_name(frame, mask)
        if name is not None:
            out[low_idx] = (target_of(low["api_action"]), name)
    return out


def painted_name(object_type: str, object_id: str, box: Box | None = None, facing: int = 0, is_open: bool = False,
                 varied: bool = False) -> str | None:
    """The colour name of the paint lite gives an object, or None when no name clearly dominates.

    The object is drawn as its shape's parts (:func:`alfred_gen.sim.shapes.shape_parts`: a bed's
    frame and its mattress, a cabinet's door and handle), each in its paint or a part colour, each
    face shaded by :data:`FACE_SHADES`. A part counts for its name only when all its shades take that
    name; the object's name is the one that covers :data:`PAINTED_SHARE` of the parts' surface."""
    base = varied_color(object_type, object_id) if varied else type_color(object_type, object_id)
    parts = shape_parts(object_type, box, is_open=is_open, facing=facing) if box is not None else []
    painted: list[tuple[Box | None, tuple[int, int, int]]] = [(part, tone.apply(base)) for part, tone in parts]
    painted = painted or [(None, base)]
    areas: dict[str | None, float] = {}
    for part, colour in painted:
        shades = [[min(255, round(c * shade)) for c in colour] for shade in FACE_SHADES]
        names = set(pixel_names(np.array(shades, dtype=np.uint8)))
        name = names.pop() if len(names) == 1 else None
        if part is None:
            area = 1.0
        else:
            a, b, c = (part.hi[k] - part.lo[k] for k in range(3))
            area = 2 * (a * b + b * c + c * a)
        areas[name] = areas.get(name, 0.0) + area
    total = sum(areas.values())
    name, area = max(areas.items(), key=lambda item: (item[1], str(item[0])))
    return name if name is not None and total > 0 and area / total >= PAINTED_SHARE else None


def painted_colours(low_actions: Sequence[Mapping[str, Any]], start_metadata: Mapping[str, Any],
                    backend: str = "lite", varied: bool = False) -> dict[int, tuple[str, str]]:
    """Low index -> (target id, colour name) of interaction targets, from lite's paint.

    The pixels lite draws of an object are its paint shaded by face (:data:`FACE_SHADES`), so the
    name of those shades is the name its pixels get; the truth checker reads the rendered pixels
    under the mask and must agree. Dirty objects (grime changes their look) and other backends
    (THOR's paint is not ours to know) get none."""
    if backend != "lite":
        return {}
    objects = {obj["objectId"]: obj for obj in start_metadata.get("objects") or ()}
    out: dict[int, tuple[str, str]] = {}
    is_open = {object_id: bool(obj.get("isOpen")) for object_id, obj in objects.items()}
    moved: set[str] = set()
    for low_idx, low in enumerate(low_actions):
        api = low["api_action"]
        target = target_of(api)
        obj = objects.get(target)
        args = low.get("discrete_action", {}).get("args") or {}
        if (isinstance(args, Mapping) and args.get("mask") and obj is not None and target not in moved
                and not (obj.get("isDirty") or obj.get("isCooked") or obj.get("isFilledWithLiquid"))):
            # (a slice or a moved object is left out: its box here is not the start state's)
            xs, ys, zs = zip(*obj["axisAlignedBoundingBox"]["cornerPoints"])
            box = Box((min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs)))
            facing = int(round(obj["rotation"]["y"])) % 360
            name = painted_name(obj["objectType"], target, box, facing, is_open[target], varied)
            if name is not None:
                out[low_idx] = (target, name)
        if api.get("action") in ("OpenObject", "CloseObject"):
            is_open[target] = api["action"] == "OpenObject"
        if api.get("action") in ("PickupObject", "PutObject", "SliceObject"):
            moved.add(str(api.get("objectId")))
    return out
