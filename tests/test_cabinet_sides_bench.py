"""bench/cabinet_sides.py: cabinets' sides against the pickups of demos their rooms were not built from."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "bench" / "cabinet_sides.py"


def test_bad_margins_are_named_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), str(tmp_path), "--margins", "0,wide"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "'0,wide'" in done.stderr


def test_each_margin_gets_its_count_of_pickups_judged(alfred_data: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), str(alfred_data / "json_2.1.0"), "--folds", "2",
                           "--margins", "0,0.05"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^margin (\S+) m: box on the pickup's side (\d+)/(\d+), spans the pickup (\d+)/(\d+)",
                      done.stdout, re.MULTILINE)
    assert [float(r[0]) for r in rows] == [0.0, 0.05]
    for _, right, judged, spans, judged_again in rows:
        assert 0 < int(right) <= int(judged) == int(judged_again) and int(spans) <= int(judged)
    assert rows[0][2] == rows[1][2]  # the same pickups are judged whatever the margin
