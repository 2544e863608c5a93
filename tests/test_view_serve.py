"""`view --serve`: a client that resets its connection prints nothing (issue 61: a full traceback each).

Real sockets: a client connects, sends part of a request (or reads part of an answer) and closes
with SO_LINGER 0, which sends a TCP RST. The server's handler threads are waited for by name, not
for a time, before stderr is read.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from alfred_gen.export.view.serve import HOST, start_server, url_of


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, str]]:
    (tmp_path / "index.html").write_text("<html>site</html>")
    (tmp_path / "big.bin").write_bytes(bytes(range(256)) * 40_000)  # 10 MB: more than the socket buffers
    running = start_server(tmp_path, 0)
    try:
        yield running.server_address[1], url_of(running)
    finally:
        running.shutdown()
        running.server_close()


def reset(port: int, payload: bytes, read: int = 0) -> None:
    """Connect, send ``payload``, read ``read`` bytes, then close with an RST."""
    client = socket.create_connection((HOST, port), timeout=30)
    client.sendall(payload)
    got = 0
    while got < read:
        chunk = client.recv(read - got)
        if not chunk:
            break
        got += len(chunk)
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    client.close()


def handlers_done(deadline_seconds: float = 120) -> None:
    """Wait until no request-handling thread of the server is alive."""
    deadline = time.monotonic() + deadline_seconds
    while any("process_request_thread" in thread.name for thread in threading.enumerate()):
        assert time.monotonic() < deadline, "a request handler never ended"
        time.sleep(0.01)


@pytest.mark.parametrize("how", ["partial request", "answer cut short"])
def test_a_reset_connection_prints_nothing(server: tuple[int, str], capfd: pytest.CaptureFixture[str],
                                           how: str) -> None:
    port, url = server
    for _ in range(3):
        if how == "partial request":
            reset(port, b"GET /index.html HTTP/1.1\r\nHost: loc")
        else:
            reset(port, b"GET /big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n", read=1000)
    handlers_done()
    with urllib.request.urlopen(url, timeout=30) as answer:  # and the server still answers
        assert answer.read() == b"<html>site</html>"
    handlers_done()
    captured = capfd.readouterr()
    assert captured.err == "" and "Traceback" not in captured.out
