"""ai2thor 5.x's wire, build side: typed fields over two named pipes (ai2thor/fifo_server.py).

The Controller makes two FIFOs and names them in the build's environment:
``AI2THOR_FIFO_SERVER_PIPE_PATH`` (the build writes, Python reads) and
``AI2THOR_FIFO_CLIENT_PIPE_PATH`` (Python writes, the build reads). A message is a run of fields,
each a header ``!BI`` (field type, body length) and a body, closed by an END_OF_MESSAGE header.
The build speaks first (ai2thor's ``start()`` waits for that message), then answers each ACTION
field (JSON) with a METADATA field (msgpack ``{"agents": [...], "sequenceId", ...}``) and one
field per image: raw bytes, rows bottom-up as Unity reads them back (ai2thor flips them).

The pipes are opened in the order ai2thor opens its ends (server pipe first, the client pipe
after the first message), or both sides would block in ``open()``.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Callable
from typing import IO, Any

import msgpack  # type: ignore[import-untyped]  # ai2thor 5.x depends on it; no stubs
import numpy as np

from alfred_gen.thorbuild.session import Answer, BuildSession

HEADER = struct.Struct("!BI")

# Field types of ai2thor.fifo_server.FieldType (the wire's numbers).
METADATA = 1
ACTION = 2
RGB_IMAGE = 4
DEPTH_IMAGE = 5
CLASSES_IMAGE = 8
IDS_IMAGE = 9
END_OF_MESSAGE = 255

SERVER_PIPE_ENV = "AI2THOR_FIFO_SERVER_PIPE_PATH"
CLIENT_PIPE_ENV = "AI2THOR_FIFO_CLIENT_PIPE_PATH"


def _bottom_up(image: np.ndarray) -> bytes:
    """An image's bytes as a Unity build sends them: last row first."""
    return np.ascontiguousarray(np.asarray(image)[::-1]).tobytes()


def encode_answer(answer: Answer, sequence_id: int) -> bytes:
    """One answer as the fields of one FIFO message, END_OF_MESSAGE included."""
    envelope = {
        "agents": [answer.metadata],
        "sequenceId": sequence_id,
        "activeAgentId": 0,
        "thirdPartyCameras": [],
    }
    fields = [(METADATA, msgpack.dumps(envelope, use_bin_type=True))]
    if answer.frame is not None:
        fields.append((RGB_IMAGE, _bottom_up(np.asarray(answer.frame, dtype=np.uint8))))
    if answer.depth is not None:
        fields.append((DEPTH_IMAGE, _bottom_up(np.asarray(answer.depth, dtype=np.float32))))
    if answer.ids is not None:
        fields.append((IDS_IMAGE, _bottom_up(np.asarray(answer.ids, dtype=np.uint8))))
    if answer.classes is not None:
        fields.append((CLASSES_IMAGE, _bottom_up(np.asarray(answer.classes, dtype=np.uint8))))
    parts = [HEADER.pack(kind, len(body)) + body for kind, body in fields]
    parts.append(HEADER.pack(END_OF_MESSAGE, 0))
    return b"".join(parts)


def _read_exactly(pipe: IO[bytes], size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        part = pipe.read(size - len(data))
        if not part:
            return None
        data += part
    return data


def read_action(pipe: IO[bytes]) -> dict[str, Any] | None:
    """The next action message from ai2thor; None when ai2thor closed its end."""
    action: dict[str, Any] | None = None
    while True:
        header = _read_exactly(pipe, HEADER.size)
        if header is None:
            return None
        kind, length = HEADER.unpack(header)
        if kind == END_OF_MESSAGE:
            return action if action is not None else {}
        body = _read_exactly(pipe, length) if length else b""
        if body is None:
            return None
        if kind == ACTION:
            action = json.loads(body.decode("utf8"))


def serve(session: BuildSession, server_pipe: str, client_pipe: str,
          before_answer: Callable[[int], None] | None = None) -> int:
    """Answer ai2thor on its FIFOs until it closes them; the exit status (0).

    ``before_answer(n)`` runs before the n-th answer (the first is the start-up message, n = 0):
    the fault hooks of :mod:`alfred_gen.thorbuild.__main__` use it.
    """
    count = 0
    if before_answer is not None:
        before_answer(count)
    with open(server_pipe, "wb") as out:
        out.write(encode_answer(session.hello(), 0))
        out.flush()
        with open(client_pipe, "rb") as inbox:
            while True:
                action = read_action(inbox)
                if action is None:
                    return 0
                count += 1
                sequence_id = int(action.get("sequenceId", 0))
                answer = session.handle(action)
                if before_answer is not None:
                    before_answer(count)
                try:
                    out.write(encode_answer(answer, sequence_id))
                    out.flush()
                except BrokenPipeError:
                    return 0


def serve_from_environment(session: BuildSession, before_answer: Callable[[int], None] | None = None) -> int:
    """:func:`serve` on the pipes ai2thor named in the environment; 2 when they are missing."""
    server_pipe = os.environ.get(SERVER_PIPE_ENV)
    client_pipe = os.environ.get(CLIENT_PIPE_ENV)
    if not server_pipe or not client_pipe:
        print(f"thor-lite: {SERVER_PIPE_ENV} and {CLIENT_PIPE_ENV} are not set: "
              "start this build through ai2thor 5.x's Controller", flush=True)
        return 2
    return serve(session, server_pipe, client_pipe, before_answer)
