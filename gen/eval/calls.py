"""Calling an agent the way every `eval` command does: with a time limit, and errors as one line.

An agent is user code. Each call (`reset`, `act`, `answer`, `predict`) may hang or raise; the
evaluators turn either into one failed episode (or set) and go on, so both the limit and the
one-line wording live here, shared by `eval alfred`, `eval eqa` and `eval actthor`.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any


class AgentTimeout(Exception):
    """An agent's call took longer than its limit."""


def call_with_timeout(call: Callable[[], Any], seconds: float) -> Any:
    """``call()``, raising :class:`AgentTimeout` after ``seconds``. The limit uses SIGALRM, so it
    holds only in a process's main thread; elsewhere (and for ``seconds <= 0``) there is none."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        return call()

    def expire(signum: int, frame: Any) -> None:
        raise AgentTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def one_line(error: BaseException) -> str:
    """``Type: message`` on one line (the message's whitespace collapsed)."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
