"""Frames as files: the exact bytes of RGB, depth and instance-segmentation images on disk.

One place decides the encodings, so a frame recorded during generation and the same frame
re-rendered by ``alfred-gen replay`` are byte-identical files (Pillow's encoders are deterministic
for equal pixels and equal settings):

``raw_images/%09d.jpg``
    RGB JPEG, encoded by the recorder's :func:`alfred_gen.replay.record.encode_jpeg` (fixed quality
    and settings), so a replayed frame is the very file generation wrote.
``depth_images/%09d.png``
    depth in millimetres as a 16-bit greyscale PNG (Pillow mode ``I;16``): ``round(metres * 1000)``,
    clipped to 0..65535. ALFRED squeezed depth into 8 bits (``depth * 255 / 10000``), losing
    everything below 4 cm of resolution; 16-bit millimetres keep it.
``instance_masks/%09d.png``
    the instance-segmentation frame as an RGB PNG; ``instance_masks/color_to_object_id.json`` maps
    each colour, written ``"r,g,b"`` (decimal, no spaces), to its object id, keys sorted.

Names: a trajectory's ``images[j].image_name`` is ``%09d.png`` in ALFRED's files while the RGB file
is ``%09d.jpg``; :func:`frame_stem` takes the stem and each folder adds its own extension.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
from PIL import Image

from alfred_gen.atomic import write_bytes

COLOR_MAP_FILE = "color_to_object_id.json"
RGB_SUFFIX = ".jpg"
DEPTH_SUFFIX = ".png"
MASK_SUFFIX = ".png"


def frame_stem(image_name: str) -> str:
    """``000000012.png`` -> ``000000012`` (the name without folder or extension)."""
    base = os.path.basename(str(image_name))
    stem, _ = os.path.splitext(base)
    return stem


def encode_rgb(frame: np.ndarray) -> bytes:
    """JPEG bytes of an HxWx3 uint8 RGB frame, exactly as the recorder writes them."""
    from alfred_gen.replay.record import encode_jpeg

    return encode_jpeg(frame)


def depth_millimetres(depth: np.ndarray) -> np.ndarray:
    """HxW float metres -> HxW uint16 millimetres (rounded, clipped; NaN and negatives -> 0)."""
    metres = np.nan_to_num(np.asarray(depth, dtype=np.float64), nan=0.0, posinf=65.535, neginf=0.0)
    return np.clip(np.rint(metres * 1000.0), 0, 65535).astype(np.uint16)


def encode_depth(depth: np.ndarray) -> bytes:
    """16-bit greyscale PNG bytes of an HxW depth frame in metres (stored in millimetres)."""
    millimetres = depth_millimetres(depth)
    if millimetres.ndim != 2:
        raise ValueError(f"a depth frame is HxW, got shape {millimetres.shape}")
    image = Image.frombytes("I;16", (millimetres.shape[1], millimetres.shape[0]),
                            millimetres.astype("<u2").tobytes())
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def decode_depth(data: bytes) -> np.ndarray:
    """The HxW uint16 millimetres of a depth PNG written by :func:`encode_depth`."""
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image, dtype=np.uint16)


def encode_segmentation(frame: np.ndarray) -> bytes:
    """RGB PNG bytes of an HxWx3 uint8 instance-segmentation frame."""
    pixels = np.ascontiguousarray(frame, dtype=np.uint8)
    if pixels.ndim != 3 or pixels.shape[2] != 3:
        raise ValueError(f"a segmentation frame is HxWx3, got shape {pixels.shape}")
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, "PNG")
    return out.getvalue()


def color_key(color: Any) -> str:
    """``(12, 200, 7)`` -> ``"12,200,7"``."""
    return ",".join(str(int(c)) for c in tuple(color)[:3])


def color_map_json(color_to_object_id: Mapping[str, str]) -> bytes:
    """The colour map file's bytes: ``{"r,g,b": objectId}`` with sorted keys."""
    return (json.dumps(dict(sorted(color_to_object_id.items())), indent=1, sort_keys=True) + "\n").encode()


def write_file(path: str | os.PathLike, payload: bytes) -> None:
    """Write one replayed image atomically, without an fsync per file: a replay writes hundreds
    of frames, and a crash still leaves each file either old or new, never torn."""
    write_bytes(path, payload, durable=False)
