"""bench/drawer_fit.py: lite's open drawers, variant by variant, scored against THOR's masks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "drawer_fit.py"


def _rows(stdout: str) -> list[list[str]]:
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in stdout.splitlines() if line.startswith("| ")]
    return rows[1:]


def test_a_malformed_variant_is_named_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), str(tmp_path), "--variants", "0.6:0:0,wide"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "'wide'" in done.stderr


@pytest.mark.slow  # replays a few released demonstrations
def test_a_taller_tray_draws_more_of_an_open_drawer_and_the_same_closed_one(alfred_data: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), str(alfred_data / "json_2.1.0"), "--demos", "3",
                           "--variants", "0.6:0:0,0.6:0:0.5"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = {(r[0], r[1], r[2]): r for r in _rows(done.stdout)}
    opened = [key for key in rows if key[1] == "open" and key[2] == "0.6:0:0"]
    assert opened
    for room_type, state, _ in rows:
        plain, taller = rows[(room_type, state, "0.6:0:0")], rows[(room_type, state, "0.6:0:0.5")]
        if state == "closed":
            assert plain[3:] == taller[3:]
        else:
            assert float(taller[5]) > float(plain[5])  # more of lite's pixels per THOR pixel
