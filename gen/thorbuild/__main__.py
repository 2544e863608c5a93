"""The build's entry point: ``python -m alfred_gen.thorbuild --ai2thor 5|2.1.0 [Unity's arguments]``.

ai2thor launches its build with Unity player arguments (``-screen-width W -screen-height H
-screen-quality Q ...``, 2.1.0 also ``-batchmode``); the frame size is taken from them and the rest
ignored. The wire's endpoints come from the environment, as ai2thor sets it.

``ALFRED_GEN_THOR_BUILD_FAULT`` makes the build misbehave on purpose, so the thor backend's
handling of broken builds can be tested with ai2thor's real Controller: ``exit`` (die before the
first message), ``silent`` (never speak), ``crash:N`` (die before answering the N-th action),
``hang:N`` (stop answering at the N-th action).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence

FAULT_ENV = "ALFRED_GEN_THOR_BUILD_FAULT"


def _fault_hook(spec: str | None) -> Callable[[int], None] | None:
    """The ``before_answer`` hook the fault variable asks for (None: behave)."""
    if not spec:
        return None
    kind, _, count = spec.partition(":")
    at = int(count) if count.isdigit() else 0
    if kind == "exit":
        at = 0

    def hook(n: int) -> None:
        if n != at:
            return
        if kind in ("exit", "crash"):
            os._exit(3)
        if kind in ("silent", "hang"):
            while True:
                time.sleep(3600)

    return hook


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="thor-lite", add_help=True)
    parser.add_argument("--ai2thor", default="5", help="the ai2thor line to speak: 5 or 2.1.0")
    parser.add_argument("-screen-width", dest="width", type=int, default=300)
    parser.add_argument("-screen-height", dest="height", type=int, default=300)
    options, _unity_arguments = parser.parse_known_args(list(argv))
    return options


def main(argv: Sequence[str] | None = None) -> int:
    """Run the build until ai2thor hangs up; the process exit status."""
    options = _parse(sys.argv[1:] if argv is None else argv)
    hook = _fault_hook(os.environ.get(FAULT_ENV))
    from alfred_gen.thorbuild.session import BuildSession

    if options.ai2thor == "5":
        from alfred_gen.thorbuild.fifo import serve_from_environment

        return serve_from_environment(BuildSession("5", options.width, options.height), hook)
    from alfred_gen.thorbuild.http21 import serve_from_environment as serve_http

    return serve_http(BuildSession("2.1.0", options.width, options.height), hook)


if __name__ == "__main__":
    sys.exit(main())
