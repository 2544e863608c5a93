"""`alfred-gen scenes list --houses`, `scenes show LiteHouseN`, and bad house input on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from alfred_gen.errors import ExitCode
from alfred_gen.scenes import get_house
from alfred_gen.scenes.houses.filter import HouseFilter


@pytest.fixture
def run(cli_in_process):
    """The CLI run in this process, so the house cache is shared between calls."""
    return cli_in_process


def test_list_houses_prints_each_house_with_the_filters_verdict(run) -> None:
    result = run("scenes", "list", "--houses", "--range", "1-5")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["num", "name", "rooms"]
    assert len(lines) == 6
    verdicts = {}
    for line in lines[1:]:
        cells = line.split()
        number = int(cells[0])
        house = get_house(number)
        assert cells[1] == f"LiteHouse{number}" and int(cells[2]) == len(house.rooms)
        assert float(cells[3]) == pytest.approx(sum(r.area for r in house.rooms), abs=0.06)
        reason = HouseFilter().why_rejected(house)
        verdicts[number] = reason
        assert (reason or "ok") in line
    passed = sum(reason is None for reason in verdicts.values())
    assert result.stderr.startswith(f"{passed} of 5 houses pass the house filter")
    accepted = run("scenes", "list", "--houses", "--range", "1-5", "--accepted-only").stdout.splitlines()[1:]
    assert [int(line.split()[0]) for line in accepted] == [n for n, r in verdicts.items() if r is None]


def test_list_houses_takes_the_filters_values(run) -> None:
    # LiteHouse6: a kitchen, a dining room and bedrooms, no living room (its room records say so).
    types = {room.room_type for room in get_house(6).rooms}
    assert "kitchen" in types and "living_room" not in types
    lenient = run("scenes", "list", "--houses", "--range", "6", "--require", "kitchen", "--min-area", "0",
                  "--max-area", "1000", "--min-coverage", "0")
    assert lenient.returncode == 0 and lenient.stderr.startswith("1 of 1 houses pass")
    strict = run("scenes", "list", "--houses", "--range", "6", "--require", "kitchen,living_room")
    assert strict.stderr.startswith("0 of 1 houses pass")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["scenes", "list", "--min-area", "10"], ExitCode.USAGE),
        (["scenes", "list", "--houses", "--room-type", "kitchen"], ExitCode.USAGE),
        (["scenes", "list", "--houses", "--range", "0-3"], ExitCode.NOT_FOUND),
        (["scenes", "list", "--houses", "--range", "1", "--require", "balcony"], ExitCode.USAGE),
        (["scenes", "list", "--houses", "--range", "1", "--min-area", "90", "--max-area", "10"], ExitCode.USAGE),
        (["scenes", "show", "LiteHouse0", "--out", "{tmp}/m.png"], ExitCode.NOT_FOUND),
        (["sample", "--n", "1", "--out", "{tmp}/out", "--scene-set", "houses", "--scenes", "100000"],
         ExitCode.NOT_FOUND),
        (["sample", "--n", "1", "--out", "{tmp}/out", "--scenes", "LiteHouse3"], ExitCode.NOT_FOUND),
        (["sample", "--n", "1", "--out", "{tmp}/out", "--scene-set", "houses", "--scenes", "3", "--backend", "thor"],
         ExitCode.USAGE),
    ],
)
def test_bad_house_input_is_one_line(run, tmp_path: Path, args: list[str], code: int) -> None:
    result = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.returncode == code
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_show_draws_a_house_and_a_view_from_one_of_its_rooms(run, tmp_path: Path) -> None:
    house = get_house(4)
    x, z = house.reachable[len(house.reachable) // 3]
    out = tmp_path / "house4.png"
    result = run("scenes", "show", "LiteHouse4", "--out", str(out), "--pose", f"{x},{z},0,30")
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        assert image.format == "PNG"
        # Drawn to scale: one pixel per centimetre, plus margins.
        xs = [w.lo[0] for w in house.walls] + [w.hi[0] for w in house.walls]
        assert abs(image.width - (max(xs) - min(xs)) * 100) < 200
    with Image.open(tmp_path / "house4-view.png") as view:
        assert view.size == (600, 600)
