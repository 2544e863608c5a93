"""`alfred-gen view`: the static site's files, rows, pages and map data; atomic, repeatable builds;
serving; bad input. (What a browser makes of the site: tests/test_export_browser.py.)"""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode
from alfred_gen.export.view import page, site
from tests.helpers.export_data import TASK_TYPES, alfred_catalogue, run_cli, small_dataset, trial_of

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_dataset(tmp_path_factory.getbasetemp())


def _script_data(path: Path, name: str) -> dict:
    text = path.read_text(encoding="utf-8")
    prefix = f"window.{name} = "
    assert text.startswith(prefix) and text.endswith(";\n")
    return json.loads(text[len(prefix):-2])


def test_site_has_a_row_and_a_page_per_trajectory_with_linked_frames(dataset: Path, tmp_path: Path) -> None:
    summary = site.build_site(dataset, tmp_path / "site", show_progress=False)
    out = tmp_path / "site"
    index = _script_data(out / "data" / "index.js", "ALFRED_VIEW_INDEX")
    assert [row["task_type"] for row in index["rows"]] == sorted(TASK_TYPES)  # sorted by path
    assert len(summary.rows) == 3 and "3 trajectories" in summary.line()
    for row in index["rows"]:
        assert row["status"] == page.STATUS_GENERATED
        assert (out / row["page"]).is_file() and (out / row["thumb"]).is_file()
        trial = dataset / Path(row["path"]).parent
        traj = json.loads((trial / "traj_data.json").read_text())
        assert (row["low"], row["frames"]) == (len(traj["plan"]["low_actions"]), len(traj["images"]) + 1)
        data = _script_data(out / "t" / f"{row['key']}.js", "ALFRED_VIEW_TRAJ")
        assert len(data["frames"]) == len(traj["images"]) + 1 and data["kinds"] == ["rgb"]
        stem = data["frames"][-1][0]
        linked = out / "frames" / row["key"] / "rgb" / f"{stem}.jpg"
        assert linked.read_bytes() == (trial / "raw_images" / f"{stem}.jpg").read_bytes()
        assert data["pddl_problem"].startswith("(define (problem")
        masks = [low for low in data["lows"] if "mask" in low]
        assert masks and all(low["mask"] == traj["plan"]["low_actions"][i]["discrete_action"]["args"]["mask"]
                             for i, low in enumerate(data["lows"]) if "mask" in low)
        html = (out / row["page"]).read_text()
        assert f'src="{row["key"]}.js"' in html and "{{" not in html
    assert (out / "index.html").is_file() and (out / "assets" / "trajectory.js").is_file()


def test_index_rows_count_slots_as_stats_does(dataset: Path, tmp_path: Path) -> None:
    from alfred_gen.sample.stats import collect_stats, slot_counts

    site.build_site(dataset, tmp_path / "site", show_progress=False)
    rows = _script_data(tmp_path / "site" / "data" / "index.js", "ALFRED_VIEW_INDEX")["rows"]
    expected = slot_counts(collect_stats(dataset))
    for slot, counts in expected.items():
        seen: dict[str, int] = {}
        for row in rows:
            if row[slot]:
                seen[row[slot]] = seen.get(row[slot], 0) + 1
        assert seen == counts, slot


def test_the_walked_path_on_the_map_follows_the_agent(dataset: Path, tmp_path: Path) -> None:
    from alfred_gen.export.storyboard import agent_poses

    site.build_site(dataset, tmp_path / "site", show_progress=False)
    trial = trial_of(dataset, "pick_heat_then_place_in_recep")
    key = page.trajectory_key(dataset, trial)
    data = _script_data(tmp_path / "site" / "t" / f"{key}.js", "ALFRED_VIEW_TRAJ")
    room = data["map"]
    assert (tmp_path / "site" / room["src"].removeprefix("../")).is_file()
    walk = room["walk"]
    poses = agent_poses(json.loads((trial / "traj_data.json").read_text()))
    assert len(walk) == len(poses) and len(room["at"]) == len(data["frames"])
    assert all(0 <= x <= room["width"] and 0 <= y <= room["height"] for x, y, _ in walk)
    # 0.25 m steps on the floor are equal steps on the map; x right, z up.
    for (x0, y0, _), (x1, y1, _), a, b in zip(walk, walk[1:], poses, poses[1:]):
        assert x1 - x0 == pytest.approx((b.x - a.x) * 140, abs=0.2)
        assert y1 - y0 == pytest.approx(-(b.z - a.z) * 140, abs=0.2)
    assert len(room["interactions"]) == sum("mask" in low for low in data["lows"])


def test_builds_are_repeatable_and_replace_only_their_own_site(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    site.build_site(dataset, out, show_progress=False)
    first = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    site.build_site(dataset, out, jobs=2, show_progress=False)
    second = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert first == second  # same bytes, the old build replaced
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left behind
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine")
    run = run_cli("view", str(dataset), "--out", str(theirs))
    assert run.returncode == ExitCode.BAD_INPUT and "not a site made by" in run.stderr
    assert (theirs / "notes.txt").read_text() == "mine"


def _forge(folder: Path, how: str, built: Path) -> None:
    """Make ``folder`` a non-empty folder that carries a marker but is not (all) a build of ours."""
    marker = built / site.MARKER_FILE
    if how == "empty marker":  # what wiped a copy of a dataset (issue 61)
        shutil.copytree(built.parent / "data", folder)
        (folder / site.MARKER_FILE).write_text("")
    elif how == "marker without a list":
        shutil.copytree(built.parent / "data", folder)
        (folder / site.MARKER_FILE).write_text(json.dumps({"made_by": site.MARKER_MADE_BY}))
    elif how == "copied marker":  # a real marker beside files it does not list
        shutil.copytree(built.parent / "data", folder)
        shutil.copy(marker, folder / site.MARKER_FILE)
    elif how == "file added":
        shutil.copytree(built, folder)
        (folder / "notes.txt").write_text("mine")
    elif how == "file edited":
        shutil.copytree(built, folder)
        (folder / "index.html").write_text("my own index")
    elif how == "symbolic link":
        shutil.copytree(built, folder)
        (folder / "mine").symlink_to(built.parent / "data")


@pytest.mark.parametrize("how", ["empty marker", "marker without a list", "copied marker", "file added",
                                 "file edited", "symbolic link"])
def test_a_folder_with_a_marker_it_cannot_prove_is_refused_and_kept(dataset: Path, tmp_path: Path,
                                                                    how: str) -> None:
    shutil.copytree(dataset, tmp_path / "data")
    built = tmp_path / "built"
    site.build_site(tmp_path / "data", built, show_progress=False)
    folder = tmp_path / "forged"
    _forge(folder, how, built)
    before = {p.relative_to(folder): (p.is_symlink(), p.read_bytes() if p.is_file() else None)
              for p in sorted(folder.rglob("*"))}
    run = run_cli("view", str(tmp_path / "data"), "--out", str(folder))
    assert run.returncode == ExitCode.BAD_INPUT, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "not a site made by" in run.stderr
    assert "Traceback" not in run.stderr
    after = {p.relative_to(folder): (p.is_symlink(), p.read_bytes() if p.is_file() else None)
             for p in sorted(folder.rglob("*"))}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["built", "data", "forged"]  # no staging left


def test_a_site_of_ours_is_replaced_and_an_empty_folder_used(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    site.build_site(dataset, out, show_progress=False)
    (out / "frames").rename(out / "frames-gone")  # files moved within the build: still ours? no
    run = run_cli("view", str(dataset), "--out", str(out))
    assert run.returncode == ExitCode.BAD_INPUT
    (out / "frames-gone").rename(out / "frames")
    shutil.rmtree(out / "thumbs")  # files the build wrote, removed: the rest is still provably ours
    assert run_cli("view", str(dataset), "--out", str(out)).returncode == ExitCode.OK
    assert (out / "thumbs").is_dir()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_cli("view", str(dataset), "--out", str(empty)).returncode == ExitCode.OK
    assert (empty / "index.html").is_file()


def test_invalid_files_are_listed_and_fail_the_command(dataset: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(dataset, data)
    bad = data / "pick_and_place_simple-Apple-None-CounterTop-10001" / "trial_Tbad"
    bad.mkdir()
    (bad / "traj_data.json").write_text("{not json")
    run = run_cli("view", str(data), "--out", str(tmp_path / "site"))
    assert run.returncode == ExitCode.FAILED
    assert "trial_Tbad/traj_data.json: invalid:" in run.stdout
    assert run.stdout.strip().splitlines()[-1].startswith("site: 4 trajectories (invalid 1, vetted when generated 3")
    rows = _script_data(tmp_path / "site" / "data" / "index.js", "ALFRED_VIEW_INDEX")["rows"]
    assert [row.get("page") for row in rows if row["status"] == "invalid"] == [None]


def test_vet_replays_each_trajectory_for_its_status(dataset: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(dataset, data)
    trial = trial_of(data, "pick_and_place_simple")
    traj = json.loads((trial / "traj_data.json").read_text())
    traj["plan"]["low_actions"] = traj["plan"]["low_actions"][:-1]  # the last action (the put) is gone
    traj["images"] = [entry for entry in traj["images"] if entry["low_idx"] < len(traj["plan"]["low_actions"])]
    (trial / "traj_data.json").write_text(json.dumps(traj))
    run = run_cli("view", str(data), "--out", str(tmp_path / "site"), "--vet", "--jobs", "2")
    assert run.returncode == ExitCode.FAILED
    rows = _script_data(tmp_path / "site" / "data" / "index.js", "ALFRED_VIEW_INDEX")["rows"]
    statuses = {row["task_type"]: row["status"] for row in rows}
    assert statuses == {"pick_and_place_simple": "vet failed", "pick_heat_then_place_in_recep": "vetted",
                        "look_at_obj_in_light": "vetted"}
    assert "goal_unsatisfied" in run.stdout


def test_serving_answers_with_the_site(dataset: Path, tmp_path: Path) -> None:
    from alfred_gen.export.view.serve import start_server, url_of

    site.build_site(dataset, tmp_path / "site", show_progress=False)
    server = start_server(tmp_path / "site", 0)
    try:
        with urllib.request.urlopen(url_of(server), timeout=120) as answer:
            assert answer.status == 200 and b"data/index.js" in answer.read()
    finally:
        server.shutdown()
        server.server_close()


def test_a_released_demo_without_frames_gets_a_page_and_its_room_map(alfred_data: Path, tmp_path_factory) -> None:
    catalogue = alfred_catalogue(alfred_data, tmp_path_factory.getbasetemp())
    task_dir = sorted((alfred_data / "json_2.1.0" / "train").glob("pick_heat_then_place_in_recep-*"))[0]
    out = tmp_path_factory.mktemp("alfred-site") / "site"
    run = run_cli("--scenes-catalogue", str(catalogue), "view", str(task_dir), "--out", str(out))
    assert run.returncode == ExitCode.OK, run.stdout + run.stderr
    rows = _script_data(out / "data" / "index.js", "ALFRED_VIEW_INDEX")["rows"]
    assert rows and all(row["status"] == page.STATUS_NOT_VETTED and row["thumb"] == "" for row in rows)
    data = _script_data(out / "t" / f"{rows[0]['key']}.js", "ALFRED_VIEW_TRAJ")
    assert data["kinds"] == [] and data["language"]["source"] == "human"
    assert data["map"] is not None and data["map"]["src"].endswith(f"{rows[0]['floor_plan']}.png")
