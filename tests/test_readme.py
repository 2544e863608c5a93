"""The README's Python example runs as written (in a scratch directory) and vets its trajectory."""

from __future__ import annotations

import re

import pytest

from tests.helpers import REPO_ROOT, run_python


@pytest.mark.slow  # ~19 s each on a busy 2-core machine (the fast lane's --durations)
def test_the_readme_python_example_runs(tmp_path) -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks, "the README shows no Python example"
    for block in blocks:
        done = run_python(block, cwd=tmp_path, timeout=300)
        assert done.stdout.strip().startswith("ok ("), done.stdout + done.stderr
