"""THOR's asset sizes (``--thor-db``): which size the importer takes for a fixture of a room, and one
clear error for a database that is missing or not one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from alfred_gen.domains import catalogue
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.alfred.fixture_sizing import initial_block, room_scale
from alfred_gen.scenes.alfred.thor_sizes import ASSET_DATABASE, ThorSizes

FRIDGE = "Fridge|-02.10|+00.00|+01.07"
SINK_FAUCET = (0.057, 0.111, 0.115)
TUB_FAUCET = (0.576, 0.294, 0.262)


def _asset(size: tuple[float, float, float], *scenes: str) -> dict:
    return {"boundingBox": dict(zip("xyz", size)), "primaryProperty": "Static", "scenes": list(scenes)}


def _database(tmp_path: Path) -> Path:
    data = {
        "Fridge": [_asset((0.7, 1.8, 0.75), "FloorPlan1", "FloorPlan2"), _asset((0.9, 2.0, 0.8), "FloorPlan3")],
        # FloorPlan430 uses two faucet assets, the tub's and the sink's; FloorPlan5 two alike.
        "Faucet": [_asset(TUB_FAUCET, "FloorPlan430"), _asset(SINK_FAUCET, "FloorPlan430", "FloorPlan5"),
                   _asset(SINK_FAUCET, "FloorPlan5")],
        "Broken": [{"boundingBox": {"x": "wide"}, "scenes": ["FloorPlan1"]}, "not an asset"],
    }
    (tmp_path / ASSET_DATABASE).write_text(json.dumps(data))
    return tmp_path


def test_a_room_gets_the_size_of_the_asset_it_uses_or_of_its_median_volume_one(tmp_path: Path) -> None:
    sizes = ThorSizes.load(_database(tmp_path))
    assert sizes.size("Fridge", "FloorPlan1") == (0.7, 1.8, 0.75)
    assert sizes.size("Fridge", "FloorPlan3") == (0.9, 2.0, 0.8)
    assert sizes.size("Faucet", "FloorPlan5") == SINK_FAUCET
    # Two assets of one type in a room, and nothing says which object is which: the lower median.
    assert sizes.size("Faucet", "FloorPlan430") == SINK_FAUCET
    assert sizes.size("Fridge", "FloorPlan4") is None and sizes.size("Broken", "FloorPlan1") is None


def test_a_fixtures_first_box_takes_the_rooms_asset_size_else_the_catalogues(tmp_path: Path) -> None:
    sizes = ThorSizes.load(_database(tmp_path))
    known = initial_block(FRIDGE, 0.0, "FloorPlan1", sizes, None, [], [])
    assert known.hi[1] - known.lo[1] == pytest.approx(1.8 * room_scale("Fridge", "FloorPlan1"))
    unknown = initial_block(FRIDGE, 0.0, "FloorPlan4", sizes, None, [], [])
    height = catalogue.object_type("Fridge").size[1] * room_scale("Fridge", "FloorPlan4")
    assert unknown.hi[1] - unknown.lo[1] == pytest.approx(height) != pytest.approx(1.8)


def test_a_missing_or_malformed_database_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError) as caught:
        ThorSizes.load(tmp_path / "nowhere")
    assert caught.value.code == ExitCode.NOT_FOUND
    (tmp_path / ASSET_DATABASE).write_text("{not json")
    with pytest.raises(UserError) as caught:
        ThorSizes.load(tmp_path)
    assert caught.value.code == ExitCode.BAD_INPUT
    (tmp_path / ASSET_DATABASE).write_text("[1, 2]")
    with pytest.raises(UserError) as caught:
        ThorSizes.load(tmp_path)
    assert caught.value.code == ExitCode.BAD_INPUT


def test_import_with_a_missing_database_says_so_in_one_line(tmp_path: Path, cli_in_process) -> None:
    layouts = tmp_path / "alfred" / "layouts"
    layouts.mkdir(parents=True)
    np.save(layouts / "FloorPlan1-layout.npy", np.array([[0.0, 0.0], [0.25, 0.0]]))
    (layouts / "FloorPlan1-objects.json").write_text(json.dumps(["Fridge"]))
    (layouts / "FloorPlan1-openable.json").write_text(json.dumps({FRIDGE: [0.0, 0.0, 270, 0]}))
    done = cli_in_process("scenes", "import-alfred", str(layouts.parent), "--thor-db", str(tmp_path / "nowhere"),
                          "--out", str(tmp_path / "c.json"))
    assert done.returncode == ExitCode.NOT_FOUND and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "asset database" in done.stderr
    assert not (tmp_path / "c.json").exists()
