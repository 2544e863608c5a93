"""ai2thor 2.1.0's wire, build side: the build POSTs each event to ``/train`` and gets the next action.

ALFRED's ai2thor runs a Flask server (ai2thor/server.py) and names it in the build's environment:
``AI2THOR_HOST``, ``AI2THOR_PORT`` and ``AI2THOR_CLIENT_TOKEN``. The build speaks first: it POSTs a
``multipart/form-data`` body with the fields ``metadata`` (JSON ``{"agents": [...], "sequenceId",
"activeAgentId"}``) and ``token``, plus one file per image (``image``, ``image_depth``,
``image_ids``, ``image_classes``: raw bytes, rows bottom-up); the answer is the next action as
JSON. 2.1.0 reads depth as three bytes per pixel (metres x 25.6 as base-256 digits) and builds
instance masks from ``colorBounds`` (each colour in view with its Unity-space box).

ai2thor 2.1.0's form parser looks for ``\\r\\n--boundary`` (so the body starts with CRLF) and reads
the part header ``Content-disposition`` by that exact spelling; this module writes both so.
"""

from __future__ import annotations

import http.client
import json
import os
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np

from alfred_gen.thorbuild.session import Answer, BuildSession

HOST_ENV = "AI2THOR_HOST"
PORT_ENV = "AI2THOR_PORT"
TOKEN_ENV = "AI2THOR_CLIENT_TOKEN"

#: 2.1.0 decodes depth as (r + g/256 + b/256**2) * 10/256 metres, with r == 255 meaning "far".
DEPTH_SCALE = 25.6


def encode_depth(depth: np.ndarray) -> np.ndarray:
    """Metres as 2.1.0's three-byte depth image (H x W x 3 uint8), to within 10/256**3 m."""
    value = np.clip(np.asarray(depth, dtype=np.float64) * DEPTH_SCALE, 0.0, 254.999999)
    red = np.floor(value)
    rest = (value - red) * 256.0
    green = np.floor(rest)
    blue = np.clip(np.round((rest - green) * 256.0), 0, 255)
    return np.stack([red, green, blue], axis=-1).astype(np.uint8)


def color_bounds(ids: np.ndarray, colors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """2.1.0's ``colorBounds``: every named colour in the instance frame with its box in Unity's
    bottom-up rows, so that ai2thor's ``height - y`` flip gives lite's (THOR 2.1's) boxes."""
    height = ids.shape[0]
    packed = (ids[..., 0].astype(np.uint32) << 16) | (ids[..., 1].astype(np.uint32) << 8) | ids[..., 2]
    present = set(np.unique(packed).tolist())
    bounds = []
    for entry in colors:
        red, green, blue = entry["color"]
        key = (red << 16) | (green << 8) | blue
        if key not in present:
            continue
        mask = packed == key
        rows = np.flatnonzero(mask.any(axis=1))
        cols = np.flatnonzero(mask.any(axis=0))
        top, bottom = int(rows[0]) + 1, int(rows[-1]) + 1
        bounds.append({"color": [red, green, blue],
                       "bounds": [int(cols[0]), height - bottom, int(cols[-1]), height - top]})
    return bounds


def _part(boundary: bytes, name: str, body: bytes, filename: str | None = None) -> bytes:
    if filename is None:
        head = f'Content-Type: text/plain; charset=utf-8\r\nContent-disposition: form-data; name="{name}"'
    else:
        head = (f'Content-Type: application/octet-stream\r\n'
                f'Content-disposition: form-data; name="{name}"; filename="{filename}"')
    return b"\r\n--" + boundary + b"\r\n" + head.encode("ascii") + b"\r\n\r\n" + body


def encode_answer(answer: Answer, sequence_id: int, token: str) -> tuple[bytes, str]:
    """One answer as 2.1.0's multipart body; (body, its Content-Type header)."""
    metadata = dict(answer.metadata)
    colors = metadata.get("colors") or []
    metadata["colorBounds"] = color_bounds(np.asarray(answer.ids), colors) if answer.ids is not None else []
    envelope = {"agents": [metadata], "sequenceId": sequence_id, "activeAgentId": 0}
    boundary = uuid.uuid4().hex.encode("ascii")
    parts = [_part(boundary, "metadata", json.dumps(envelope).encode("utf8")),
             _part(boundary, "token", token.encode("utf8"))]
    images = [("image", answer.frame), ("image_ids", answer.ids), ("image_classes", answer.classes)]
    if answer.depth is not None:
        images.append(("image_depth", encode_depth(answer.depth)))
    for name, image in images:
        if image is not None:
            raw = np.ascontiguousarray(np.asarray(image, dtype=np.uint8)[::-1]).tobytes()
            parts.append(_part(boundary, name, raw, filename=name))
    body = b"".join(parts) + b"\r\n--" + boundary + b"--\r\n"
    return body, f"multipart/form-data; boundary={boundary.decode('ascii')}"


def serve(session: BuildSession, host: str, port: int, token: str,
          before_answer: Callable[[int], None] | None = None) -> int:
    """POST answers to ai2thor 2.1.0's ``/train`` until it stops answering; the exit status (0)."""
    connection = http.client.HTTPConnection(host, port, timeout=None)
    answer = session.hello()
    sequence_id = 0
    count = 0
    while True:
        if before_answer is not None:
            before_answer(count)
        body, content_type = encode_answer(answer, sequence_id, token)
        try:
            connection.request("POST", "/train", body=body, headers={"Content-Type": content_type})
            response = connection.getresponse()
            payload = response.read()
        except (OSError, http.client.HTTPException):
            return 0  # ai2thor stopped its server: the session is over
        if response.status != 200:
            return 0
        action = json.loads(payload.decode("utf8") or "{}")
        count += 1
        sequence_id = int(action.get("sequenceId", sequence_id))
        if not action.get("action"):
            return 0  # ai2thor's stop() sends an empty action
        answer = session.handle(action)


def serve_from_environment(session: BuildSession, before_answer: Callable[[int], None] | None = None) -> int:
    """:func:`serve` on the server ai2thor 2.1.0 named in the environment; 2 when it is missing."""
    host = os.environ.get(HOST_ENV)
    port = os.environ.get(PORT_ENV)
    if not host or not port or not port.isdigit():
        print(f"thor-lite: {HOST_ENV} and {PORT_ENV} are not set: start this build through "
              "ai2thor 2.1.0's Controller", flush=True)
        return 2
    return serve(session, host, int(port), os.environ.get(TOKEN_ENV, ""), before_answer)
