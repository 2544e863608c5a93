"""Helpers shared by the test modules (imported as ``tests.helpers.<module>``; no ``sys.path`` edits).

- :mod:`~tests.helpers.scripted`: a trajectory file from a hand-written list of actions;
- :mod:`~tests.helpers.replay_scripts`: the fixture kitchen's scripted trajectories, the real generator
  on one example per task type;
- :mod:`~tests.helpers.sim_actions`: stepping lite and asserting success, failure and unchanged state;
- :mod:`~tests.helpers.planner_scenes`: THOR-shaped metadata built by hand for planner tests;
- :mod:`~tests.helpers.trajectories`: a small valid trajectory built by hand;
- :func:`run_python`: a Python snippet in a fresh process that can import this package.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: The checkout's root: on ``PYTHONPATH`` of :func:`run_python`'s processes, so they import ``tests``.
REPO_ROOT = Path(__file__).resolve().parents[2]


def python_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment with the checkout on PYTHONPATH (and ``extra`` on top)."""
    paths = [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **(extra or {})}


def run_python(
    code: str, *args: str, env: Mapping[str, str] | None = None, **kwargs: Any
) -> subprocess.CompletedProcess:
    """``python -c code args...`` in a fresh process that can ``import tests.helpers``; checked."""
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=python_env(env), capture_output=True, text=True, check=True, **kwargs
    )
