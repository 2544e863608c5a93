"""``alfred-gen view --serve PORT``: serve a built site over HTTP on this machine.

The site needs no server (it opens from ``file://``); serving helps when the browser runs on
another machine than the data (an SSH tunnel to the port) or forbids ``file://``. Python's own
static file server, bound to 127.0.0.1 only: nothing is reachable from the network unless the user
forwards it. A client that goes away mid-request (a tab closed, a reset connection) is normal for a
web server and prints nothing; any other failed request is one line on stderr, never a traceback
(the standard server prints one per reset).
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from alfred_gen.errors import ExitCode, UserError

HOST = "127.0.0.1"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, without a log line per request on stderr."""

    def log_message(self, format: str, *args: object) -> None:  # ``format``: the base class names it so
        pass


class _Server(http.server.ThreadingHTTPServer):
    """The standard threading server, with one line instead of a traceback for a failed request."""

    def handle_error(self, request: object, client_address: object) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):  # the client left: nothing to report
            return
        host = client_address[0] if isinstance(client_address, tuple) and client_address else client_address
        message = " ".join(str(error).split())
        sys.stderr.write(f"alfred-gen: view: a request from {host} failed: {type(error).__name__}: {message}\n")


def start_server(site: Path, port: int) -> http.server.ThreadingHTTPServer:
    """A server for ``site`` on HOST:``port`` (0 picks a free port), answering in a background thread.
    UserError USAGE when the port cannot be bound."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    try:
        server = _Server((HOST, port), handler)
    except OSError as error:
        raise UserError(f"--serve {port}: cannot listen on {HOST}:{port} ({error.strerror or error})",
                        ExitCode.USAGE) from None
    threading.Thread(target=server.serve_forever, name="alfred-gen-view", daemon=True).start()
    return server


def url_of(server: http.server.ThreadingHTTPServer) -> str:
    return f"http://{HOST}:{server.server_address[1]}/index.html"


def serve_until_interrupted(site: Path, port: int, echo: Callable[[str], None] = print) -> None:
    """Serve ``site`` until Ctrl-C, then stop cleanly."""
    server = start_server(site, port)
    echo(f"serving {site} at {url_of(server)} (Ctrl-C to stop)")
    stop = threading.Event()
    try:
        stop.wait()
    except KeyboardInterrupt:
        echo("stopped")
    finally:
        server.shutdown()
        server.server_close()
