"""`alfred-gen scenes list` and `alfred-gen scenes show`, and name resolution in the library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes import get_scene, resolve_scene_number


@pytest.fixture
def run(cli_in_process):
    """The CLI run in this process, so the scene cache is shared between calls."""
    return cli_in_process


@pytest.mark.parametrize("ref", [7, "7", " 7 ", "LitePlan7", "liteplan7"])
def test_names_and_numbers_resolve(ref) -> None:
    assert resolve_scene_number(ref) == 7


@pytest.mark.parametrize("ref", [0, 31, 200, 431, "abc", "LitePlan", "LitePlan99", "FloorPlan7", "7.5", True])
def test_unknown_scenes_are_not_found(ref) -> None:
    with pytest.raises(UserError) as raised:
        get_scene(ref)
    assert raised.value.code == ExitCode.NOT_FOUND
    if ref == "FloorPlan7":
        assert "import" in str(raised.value)


def test_list_prints_one_row_per_room(run) -> None:
    result = run("scenes", "list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["num", "name", "room"]
    assert len(lines) == 121
    assert result.stderr.startswith("120 rooms in ")
    row = lines[1].split()
    assert row[:3] == ["1", "LitePlan1", "kitchen"]
    scene = get_scene(1)
    assert int(row[-3]) == len(scene.reachable) and int(row[-1]) == len(scene.objects)
    bathrooms = run("scenes", "list", "--room-type", "bathroom").stdout.splitlines()
    assert len(bathrooms) == 31 and all("bathroom" in line for line in bathrooms[1:])


def test_show_writes_a_map_and_a_view(run, tmp_path: Path) -> None:
    scene = get_scene(205)
    x, z = scene.reachable[len(scene.reachable) // 2]
    out = tmp_path / "maps" / "living.png"
    result = run("scenes", "show", "LitePlan205", "--out", str(out), "--pose", f"{x},{z},90,30")
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width > 300 and image.height > 300
    with Image.open(tmp_path / "maps" / "living-view.png") as view:
        assert view.size == (600, 600)
    assert sorted(p.name for p in (tmp_path / "maps").iterdir()) == ["living-view.png", "living.png"]


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["scenes", "show", "999"], ExitCode.NOT_FOUND),
        (["scenes", "show", "FloorPlan1"], ExitCode.NOT_FOUND),
        (["scenes", "show", "1", "--pose", "1,2"], ExitCode.USAGE),
        (["scenes", "show", "1", "--pose", "a,b,c,d"], ExitCode.USAGE),
        (["scenes", "show", "1", "--pose", "0.1,0.1,45,30"], ExitCode.USAGE),
        (["scenes", "show", "1", "--pose", "40,40,0,30"], ExitCode.NOT_FOUND),
    ],
)
def test_show_rejects_bad_input_in_one_line(run, tmp_path: Path, args: list[str], code: int) -> None:
    out = tmp_path / "map.png"
    result = run(*args, "--out", str(out))
    assert result.returncode == code
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_console_script_reports_an_unknown_scene_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from alfred_gen.cli import main; main()", "scenes", "show", "LitePlan77", "--out",
         str(tmp_path / "m.png")],
        capture_output=True, text=True,
    )
    assert result.returncode == ExitCode.NOT_FOUND
    assert result.stderr.startswith("alfred-gen: error: unknown scene") and len(result.stderr.splitlines()) == 1
