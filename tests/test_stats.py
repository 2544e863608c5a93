"""`alfred-gen stats`: counts per slot, balance, tables and PNG charts."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from alfred_gen.cli import main
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sample.stats import collect_stats, format_stats, stats_command, write_charts

TRIALS = {
    "pick_and_place_simple-Apple-None-CounterTop-1": 3,
    "pick_and_place_simple-AppleSliced-None-DiningTable-2": 1,
    "look_at_obj_in_light-Book-None-DeskLamp-301": 2,
    "pick_and_place_with_movable_recep-Pen-Mug-Desk-305": 2,
}


def make_tree(root: Path) -> None:
    for task_dir, count in TRIALS.items():
        for i in range(count):
            trial = root / task_dir / f"trial_T20000101_000000_{i:06d}"
            trial.mkdir(parents=True)
            (trial / "traj_data.json").write_text("{}")  # parses; its slots come from the path
    # Not counted: an unfinished temporary trajectory and run state.
    (root / ".tmp-trial_T1" / "x").mkdir(parents=True)
    (root / ".tmp-trial_T1" / "traj_data.json").write_text("{}")
    (root / ".alfred-gen").mkdir()


def test_counts_per_slot_come_from_the_layout(tmp_path: Path) -> None:
    make_tree(tmp_path)
    stats = collect_stats(tmp_path)
    assert stats.total == 8 and len(stats.tuples) == 4
    assert stats.counts["task_type"] == Counter(
        {"pick_and_place_simple": 4, "look_at_obj_in_light": 2, "pick_and_place_with_movable_recep": 2})
    assert stats.counts["object"] == Counter({"Apple": 3, "AppleSliced": 1, "Book": 2, "Pen": 2})
    assert stats.counts["receptacle"]["DeskLamp"] == 2
    assert stats.counts["mrecep"] == Counter({"Mug": 2})
    assert stats.counts["room_type"] == Counter({"kitchen": 4, "bedroom": 4})
    assert stats.counts["scene"] == Counter({"1": 3, "2": 1, "301": 2, "305": 2})
    expected = -sum(p * math.log(p) for p in (0.5, 0.25, 0.25)) / math.log(3)
    assert stats.balance("task_type") == pytest.approx(expected)
    assert stats.balance("room_type") == pytest.approx(1.0)


def test_a_file_outside_the_layout_is_read_for_its_task(tmp_path: Path) -> None:
    trial = tmp_path / "odd-name" / "t1"
    trial.mkdir(parents=True)
    (trial / "traj_data.json").write_text(json.dumps({
        "task_type": "pick_heat_then_place_in_recep", "scene": {"scene_num": 7},
        "pddl_params": {"object_target": "Potato", "object_sliced": True, "parent_target": "CounterTop",
                        "mrecep_target": "", "toggle_target": ""},
    }))
    broken = tmp_path / "other" / "t2"
    broken.mkdir(parents=True)
    (broken / "traj_data.json").write_text("{not json")
    stats = collect_stats(tmp_path)
    assert stats.counts["object"] == Counter({"PotatoSliced": 1})
    assert stats.unreadable == [str(broken / "traj_data.json")]
    assert stats_command(str(tmp_path), echo=lambda *a, **k: None) == ExitCode.FAILED


def test_tables_and_charts(tmp_path: Path) -> None:
    make_tree(tmp_path / "data")
    stats = collect_stats(tmp_path / "data")
    text = "\n".join(format_stats(stats))
    assert text.startswith("8 trajectories in 4 task tuples")
    assert any(line.split() == ["pick_and_place_simple", "4", "50.0%"] for line in text.splitlines())
    assert "balance (task type): 1.000" not in text and "balance (room type): 1.000" in text
    written = write_charts(stats, tmp_path / "charts")
    assert sorted(p.name for p in written) == sorted(
        ["task_type.png", "object.png", "receptacle.png", "mrecep.png", "scene.png", "room_type.png"])
    for path in written:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width > 300 and image.height > 40
            # Bars are drawn: some pixels have the bar colour.
            assert (70, 110, 170) in {colour for _, colour in image.convert("RGB").getcolors(1 << 16)}
    with Image.open(tmp_path / "charts" / "object.png") as big, \
            Image.open(tmp_path / "charts" / "mrecep.png") as small:
        assert big.height > small.height  # one row per value


def test_cli_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path / "data")
    with pytest.raises(SystemExit) as stop:
        main(["stats", str(tmp_path / "data"), "--charts", str(tmp_path / "charts")])
    assert stop.value.code == ExitCode.OK
    out = capsys.readouterr().out
    assert "8 trajectories" in out and "wrote 6 charts" in out
    assert (tmp_path / "charts" / "scene.png").is_file()


def test_bad_directories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(UserError) as error:
        collect_stats(tmp_path / "missing")
    assert error.value.code == ExitCode.NOT_FOUND
    with pytest.raises(SystemExit) as stop:
        main(["stats", str(tmp_path / "missing")])
    assert stop.value.code == ExitCode.NOT_FOUND
    assert capsys.readouterr().err.strip().count("\n") == 0
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as stop:
        main(["stats", str(tmp_path / "empty")])
    assert stop.value.code == ExitCode.NOT_FOUND
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no traj_data.json found" in err


@pytest.mark.parametrize("text", ["{not json", '{"task_type": "pick_and_pl', "", "\x00\x01"])
def test_a_file_that_does_not_parse_is_not_counted_even_in_a_well_named_directory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    make_tree(tmp_path / "data")
    damaged = next((tmp_path / "data").glob("pick_and_place_simple-*/trial_*/traj_data.json"))
    damaged.write_text(text)
    stats = collect_stats(tmp_path / "data")
    assert stats.total == 7 and stats.unreadable == [str(damaged)]
    assert stats.counts["task_type"]["pick_and_place_simple"] == 3
    with pytest.raises(SystemExit) as stop:
        main(["stats", str(tmp_path / "data")])
    assert stop.value.code == ExitCode.FAILED
    out = capsys.readouterr().out
    assert "7 trajectories" in out and "1 files not counted" in out and str(damaged) in out


def test_stats_of_released_alfred_data(released_trajectory_files: list[Path], alfred_data: Path) -> None:
    stats = collect_stats(alfred_data / "json_2.1.0")
    assert stats.total == len(released_trajectory_files)
    by_dir = Counter(p.parent.parent.name.split("-")[0] for p in released_trajectory_files)
    assert stats.counts["task_type"] == by_dir
    assert not stats.unreadable


def _derived(root: Path, task_dir: str, trial: str, variant: str, anns: list[int], **extra) -> None:
    data = {"derived_from": {"task_id": trial, "variant": variant, **extra.pop("derived", {})},
            "images": [{"low_idx": 0}] * 2000,  # a large key after the marker, as in real files
            "turk_annotations": {"anns": [{"task_desc": "x", "high_descs": ["y"] * n} for n in anns]}, **extra}
    path = root / task_dir / trial / "traj_data.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data, indent=4, sort_keys=True))


def test_derived_trajectories_are_counted_as_the_papers_table_3(tmp_path: Path) -> None:
    make_tree(tmp_path)  # 8 trajectories that are not derived
    _derived(tmp_path, "pick_and_place_simple-Apple-None-CounterTop-1", "trial_T1", "nav-only", [2, 2, 3])
    _derived(tmp_path, "pick_and_place_simple-Apple-None-CounterTop-1", "trial_T2", "nav-only", [1])
    _derived(tmp_path, "look_at_obj_in_light-Book-None-DeskLamp-301", "trial_T3", "rev-1", [5, 5],
             derived={"reverse": "shortest"})
    _derived(tmp_path, "look_at_obj_in_light-Book-None-DeskLamp-301", "trial_T4", "rev-1", [5],
             language_perturbations=["e1"])
    stats = collect_stats(tmp_path)
    assert {name: (row.trajectories, row.annotations, row.subgoals) for name, row in stats.variants.items()} == {
        "nav-only": (2, 4, 8), "rev-1:shortest": (1, 2, 10), "rev-1+e1": (1, 1, 5)}
    text = "\n".join(format_stats(stats))
    assert "ALFRED-L variant  trajectories  annotations  subgoals" in text
    assert "nav-only                     2            4         8" in text
    assert "(8 trajectories under" in text and stats.total == 12
