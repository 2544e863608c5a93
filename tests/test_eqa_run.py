"""``eqa questions``, ``eqa stats`` and ``eqa paths`` end to end on four houses (LiteHouse5, 8, 42
and 56: one kitchen and one bathroom each, and a living room that is also the dining room, so all
four are asked alike about their kitchen and bathroom, which a question needs to pass the entropy
filter's four homes; the house filter drops LiteHouse6, which has no living room), checked from
outside: every accepted answer recomputed independently (tests/helpers/eqa_check.py), every
single-target question's expert path vetted by replay and shown to be shortest by a breadth-first
search from the other end.

``ALFRED_GEN_EQA_RUN=<dir>`` also checks every accepted answer of a bigger run (the 200 houses of
the issue's measurement) the same way.
"""

from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path

import pytest

from alfred_gen.demo.navigation import NavAction, apply
from alfred_gen.eqa.entropy import FilterRule
from alfred_gen.eqa.facts import HomeFacts
from alfred_gen.eqa.geodesic import navigation_scores
from alfred_gen.eqa.homes import read_facts
from alfred_gen.eqa.paths import PATHS_DIR, PathOptions, accepted_single_target, paths_command
from alfred_gen.eqa.programs import SINGLE_TARGET, TEMPLATES, run_programs
from alfred_gen.eqa.questions import QUESTIONS_FILE, QuestionOptions, questions_command
from alfred_gen.eqa.stats import stats_command
from alfred_gen.eqa.vocabulary import load_vocabulary
from alfred_gen.errors import ExitCode
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.library import SceneLibrary, simulator
from alfred_gen.sim.scene import grid_key
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory
from alfred_gen.traj.frames import images_index
from tests.helpers.eqa_check import check_run

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

HOMES = tuple(f"LiteHouse{n}" for n in (5, 6, 8, 42, 56))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("eqa")
    lines: list[str] = []
    # every question (--all-questions): four homes sampled as the paper does leave a handful of
    # accepted questions (the entropy filter wants four homes asking), too few to exercise the paths
    code = questions_command(QuestionOptions(HOMES, all_questions=True), str(out), simulator=simulator(), jobs=2,
                             echo=lines.append, show_progress=False)
    assert code == ExitCode.OK, lines
    code = paths_command(str(out), simulator=simulator(), options=PathOptions(frames=False), jobs=2,
                         echo=lines.append, show_progress=False)
    assert code == ExitCode.OK, lines
    return out


@pytest.fixture(scope="module")
def data(run: Path) -> dict:
    return json.loads((run / QUESTIONS_FILE).read_text())


def _polygon_area(floor: tuple[tuple[float, float], ...]) -> float:
    """The shoelace area of a floor polygon."""
    return abs(sum(x0 * z1 - x1 * z0 for (x0, z0), (x1, z1) in zip(floor, floor[1:] + floor[:1]))) / 2


def _trajectories(run: Path) -> list[dict]:
    return [load_trajectory(p) for p in sorted((run / PATHS_DIR).rglob(TRAJ_FILE_NAME))]


def test_the_run_covers_the_houses_the_filter_accepts(data: dict) -> None:
    used = {h["home"]: h for h in data["homes"]}
    # Which homes EQA's rule keeps, read from the houses' room records, not through the filter's code:
    # a kitchen, living room, dining room and bedroom, 75-205 m2 of floor (SUNCG's 300-800 m2 scaled).
    library = SceneLibrary()
    kept, dropped = [], {}
    for home in HOMES:
        scene = library(home)
        types = {t for room in scene.rooms for t in room.types}  # an open-plan room counts as each type
        area = sum(_polygon_area(room.floor) for room in scene.rooms)
        missing = sorted({"kitchen", "living_room", "dining_room", "bedroom"} - types)
        if missing or not 75.0 <= area <= 205.0:
            dropped[home] = missing[0] if missing else "area"
        else:
            kept.append(home)
    assert dropped and kept  # the range shows both verdicts
    assert [h for h in HOMES if used[h]["used"]] == kept
    assert all(why in used[home]["rejected"] for home, why in dropped.items())
    templates = {q["template"] for q in data["questions"]}
    assert templates == set(data["settings"]["templates"])
    accepted = [q for q in data["questions"] if q["accepted"]]
    assert accepted and all(q["homes"] >= 4 and q["entropy"] >= 0.5 for q in accepted)
    assert all(not q["accepted"] for q in data["questions"] if q["homes"] < 4 or q["entropy"] < 0.5)


def test_every_accepted_answer_agrees_with_an_independent_check(run: Path) -> None:
    checked, problems = check_run(run)
    assert checked > 50 and not problems, problems[:10]


@pytest.mark.skipif(not os.environ.get("ALFRED_GEN_EQA_RUN"), reason="ALFRED_GEN_EQA_RUN is not set")
def test_every_accepted_answer_of_a_big_run_agrees_with_an_independent_check() -> None:
    checked, problems = check_run(os.environ["ALFRED_GEN_EQA_RUN"])
    assert checked > 0 and not problems, problems[:10]


def test_a_second_run_reuses_the_facts_and_gives_the_same_file(run: Path, tmp_path: Path) -> None:
    before = (run / QUESTIONS_FILE).read_bytes()
    facts = {p.name: p.stat().st_mtime_ns for p in (run / "facts").iterdir()}
    lines: list[str] = []
    assert questions_command(QuestionOptions(HOMES, all_questions=True), str(run), simulator=simulator(),
                             echo=lines.append, show_progress=False) == ExitCode.OK
    assert (run / QUESTIONS_FILE).read_bytes() == before
    assert {p.name: p.stat().st_mtime_ns for p in (run / "facts").iterdir()} == facts
    looser = tmp_path / "looser"
    looser.mkdir()
    (looser / "facts").symlink_to(run / "facts")
    assert questions_command(QuestionOptions(HOMES, rule=FilterRule(0.3, 2), all_questions=True), str(looser),
                             simulator=simulator(), echo=lines.append, show_progress=False) == ExitCode.OK
    more = json.loads((looser / QUESTIONS_FILE).read_text())
    assert sum(q["accepted"] for q in more["questions"]) > sum(
        q["accepted"] for q in json.loads(before)["questions"])


@pytest.fixture(scope="module")
def sampled(run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default run (sampled as the paper's engine does) over the same facts."""
    out = tmp_path_factory.mktemp("sampled")
    (out / "facts").symlink_to(run / "facts")
    lines: list[str] = []
    assert questions_command(QuestionOptions(HOMES), str(out), simulator=simulator(), echo=lines.append,
                             show_progress=False) == ExitCode.OK, lines
    assert any("sampled by the paper's rules" in line for line in lines)
    return out


def test_all_questions_keeps_every_question_in_the_format_before_sampling(run: Path, sampled: Path,
                                                                          data: dict) -> None:
    full = data  # the module's run keeps every question
    default = json.loads((sampled / QUESTIONS_FILE).read_text())
    # the file keeps its old form: no sampling key; the default run says it sampled
    assert "sampling" not in full["settings"] and default["settings"]["sampling"] == "paper"
    assert {k: v for k, v in default["settings"].items() if k != "sampling"} == full["settings"]
    # the same programs without the rules: every sampled question is one of them, with the same answer
    vocabulary = load_vocabulary()
    expected = {(q.home, q.template, q.question, q.answer) for home in HOMES
                if (facts := read_facts(run, home)) is not None
                for q in run_programs(facts, vocabulary, TEMPLATES).questions}
    assert {(q["home"], q["template"], q["question"], q["answer"]) for q in full["questions"]} == expected
    asked = {(q["home"], q["template"], q["question"], q["answer"]) for q in default["questions"]}
    assert asked < expected


def test_stats_print_the_tables_and_draw_the_charts(run: Path, sampled: Path, tmp_path: Path, data: dict) -> None:
    lines: list[str] = []
    assert stats_command(str(run), str(tmp_path / "charts"), echo=lines.append) == ExitCode.OK
    text = "\n".join(lines)
    accepted = sum(q["accepted"] for q in data["questions"])
    assert f"all{'':<9} {len(data['questions']):>8} {accepted:>9}" in text
    assert "paper (EQA v1)" in text and "homes in more than one split: 0" in text
    assert "sampling: every question (--all-questions)" in text
    lines.clear()
    assert stats_command(str(sampled), "", echo=lines.append) == ExitCode.OK
    assert "sampling: the paper's engine rules" in "\n".join(lines)
    charts = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert charts == sorted(f"answers-{t}.png" for t in data["settings"]["templates"])


# --------------------------------------------------------------------------------------------
# Expert paths


def test_every_accepted_single_target_question_has_a_vetted_path(run: Path, data: dict) -> None:
    wanted = {(q["home"], q["template"], q["question"]) for q, _ in accepted_single_target(data)}
    trajectories = _trajectories(run)
    made = {(t["scene"]["floor_plan"], t["eqa"]["template"], t["eqa"]["question"]) for t in trajectories}
    assert made == wanted and len(trajectories) == len(wanted) > 10
    assert {t["eqa"]["template"] for t in trajectories} <= set(SINGLE_TARGET)
    for traj in trajectories[:12]:  # every one was vetted when written; replay a sample again here
        assert vet_trajectory(traj, controller_factory=simulator().open).ok


def _reverse_bfs(cells: set[tuple[int, int]], goal: tuple[int, int, int]) -> dict[tuple[int, int, int], int]:
    """Actions from every (cell, heading) to ``goal``, searching backwards from it (own code)."""
    forward = {0: (0, 1), 1: (1, 0), 2: (0, -1), 3: (-1, 0)}
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        i, j, q = queue.popleft()
        di, dj = forward[q]
        predecessors = [(i, j, (q + 1) % 4), (i, j, (q + 3) % 4)]  # a turn led here
        if (i - di, j - dj) in cells:
            predecessors.append((i - di, j - dj, q))  # a step forward led here
        for state in predecessors:
            if state not in dist:
                dist[state] = dist[(i, j, q)] + 1
                queue.append(state)
    return dist


def _facts(run: Path, home: str) -> HomeFacts:
    return HomeFacts.from_dict(json.loads((run / "facts" / f"{home}.json").read_text())["facts"])


def test_every_path_is_shortest_by_a_search_from_the_other_end(run: Path) -> None:
    _check_shortest(run, _trajectories(run))


@pytest.mark.skipif(not os.environ.get("ALFRED_GEN_EQA_RUN"), reason="ALFRED_GEN_EQA_RUN is not set")
def test_every_path_of_a_big_run_is_shortest() -> None:
    run = Path(os.environ["ALFRED_GEN_EQA_RUN"])
    paths = sorted((run / PATHS_DIR).rglob(TRAJ_FILE_NAME))
    assert paths
    _check_shortest(run, [json.loads(p.read_text()) for p in paths])


def _check_shortest(run: Path, trajectories: list[dict]) -> None:
    cells_of: dict[str, set[tuple[int, int]]] = {}
    for traj in trajectories:
        home = traj["scene"]["floor_plan"]
        if home not in cells_of:
            cells_of[home] = {grid_key(x, z) for x, z in _facts(run, home).reachable}
        cells = cells_of[home]
        end = traj["eqa"]["view"]["pose"]
        start = traj["eqa"]["spawn"]["pose"]
        goal_state = (*grid_key(end[0], end[1]), int(end[2]) // 90)
        start_state = (*grid_key(start[0], start[1]), int(start[2]) // 90)
        distances = _reverse_bfs(cells, goal_state)
        actions = [low["api_action"]["action"] for low in traj["plan"]["low_actions"]]
        walking = [a for a in actions if a in ("MoveAhead", "RotateLeft", "RotateRight")]
        tilts = [a for a in actions if a in ("LookUp", "LookDown")]
        assert len(walking) == distances[start_state], traj["eqa"]["question_id"]
        assert len(tilts) == abs(end[3] - start[3]) // 15
        assert actions == walking + tilts  # walk, then tilt: no wasted tilt on the way


def test_spawns_geodesics_and_the_last_frame(run: Path) -> None:
    for traj in _trajectories(run):
        eqa = traj["eqa"]
        facts = _facts(run, traj["scene"]["floor_plan"])
        cells = {grid_key(x, z) for x, z in facts.reachable}
        # the geodesic field: a BFS over cells from the goal (own code) gives the same metres
        goal = grid_key(*eqa["geodesic"]["to"])
        steps = {goal: 0}
        queue = deque([goal])
        while queue:
            i, j = queue.popleft()
            for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if n in cells and n not in steps:
                    steps[n] = steps[(i, j)] + 1
                    queue.append(n)
        field = {grid_key(x, z): d for x, z, d in eqa["geodesic"]["cells"]}
        assert field == {cell: n * 0.25 for cell, n in steps.items()}
        spawn = eqa["spawn"]["pose"]
        assert field[grid_key(spawn[0], spawn[1])] == eqa["spawn"]["geodesic"] >= 5.0
        # among the 5% of the home's points farthest from the goal, as EQA's path generator starts
        assert sum(1 for d in field.values() if d > eqa["spawn"]["geodesic"]) <= 0.05 * len(field)
        # T-k: k actions before the end, the pose the recorded actions reach there
        lows = traj["plan"]["low_actions"]
        for k in (10, 30, 50):
            entry = eqa["spawns"][f"T-{k}"]
            if len(lows) < k:
                assert entry is None
                continue
            pose = tuple(spawn)
            for low in lows[: entry["low_idx"]]:
                pose = apply(pose, NavAction(low["api_action"], low["discrete_action"]["action"]))
            assert entry["low_idx"] == len(lows) - k and list(pose) == pytest.approx(entry["pose"])
        assert eqa["target_pixels"] >= 100 and traj["goal"]["agent_view"]["horizon"] == eqa["view"]["pose"][3]
        assert traj["template"]["task_desc"] == eqa["question"] and traj["scene"]["color_variation"] is True


def test_navigation_scores_of_the_expert_and_of_an_agent_that_stops_short(run: Path) -> None:
    for traj in _trajectories(run)[:20]:
        eqa = traj["eqa"]
        pose = tuple(eqa["spawn"]["pose"])
        positions = [(pose[0], pose[1])]
        for low in traj["plan"]["low_actions"]:
            pose = apply(pose, NavAction(low["api_action"], low["discrete_action"]["action"]))
            positions.append((pose[0], pose[1]))
        cells = eqa["geodesic"]["cells"]
        expert = navigation_scores(cells, positions)
        assert expert == {"d_0": eqa["spawn"]["geodesic"], "d_T": 0.0, "d_delta": eqa["spawn"]["geodesic"],
                          "d_min": 0.0}
        t10 = eqa["spawns"]["T-10"]
        from_t10 = navigation_scores(cells, positions[t10["low_idx"]:])  # EQA's T-10 start, expert actions
        assert from_t10["d_T"] == 0.0 and from_t10["d_0"] <= 2.5  # at most 10 moves away
        halfway = len(positions) // 2
        short = navigation_scores(cells, positions[:halfway])  # stops halfway along the shortest path
        assert short["d_T"] == short["d_min"] > 0 and short["d_delta"] == pytest.approx(
            eqa["spawn"]["geodesic"] - short["d_T"])


def test_a_path_that_stops_elsewhere_fails_its_goal(run: Path) -> None:
    traj = _trajectories(run)[0]
    traj["plan"]["low_actions"] = traj["plan"]["low_actions"][:-1]
    traj["images"] = images_index(traj["plan"]["low_actions"])
    result = vet_trajectory(traj, controller_factory=simulator().open)
    assert not result.ok and result.reason == "goal_unsatisfied"


def test_paths_are_the_same_bytes_with_two_workers_and_skip_what_exists(run: Path, tmp_path: Path) -> None:
    lines: list[str] = []
    again = tmp_path / "again"
    assert paths_command(str(run), str(again), simulator=simulator(), options=PathOptions(frames=False), jobs=1,
                         echo=lines.append, show_progress=False) == ExitCode.OK
    first = {p.relative_to(run / PATHS_DIR): p.read_bytes() for p in (run / PATHS_DIR).rglob(TRAJ_FILE_NAME)}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob(TRAJ_FILE_NAME)}
    assert first == second
    assert paths_command(str(run), str(again), simulator=simulator(), options=PathOptions(frames=False),
                         echo=lines.append, show_progress=False) == ExitCode.OK
    assert lines[-1].startswith(f"made 0 trajectories, skipped {len(first)}: already_made {len(first)}")


def test_a_path_with_frames_depth_and_masks_is_the_same_trajectory(run: Path, data: dict, tmp_path: Path) -> None:
    question, _ = accepted_single_target(data)[0]
    one = tmp_path / "one"
    one.mkdir()
    (one / "facts").symlink_to(run / "facts")
    (one / QUESTIONS_FILE).write_text(json.dumps({**data, "questions": [question]}))
    lines: list[str] = []
    assert paths_command(str(one), simulator=simulator(), options=PathOptions(depth=True, seg=True), echo=lines.append,
                         show_progress=False) == ExitCode.OK, lines
    [written] = list((one / PATHS_DIR).rglob(TRAJ_FILE_NAME))
    twin = run / PATHS_DIR / written.relative_to(one / PATHS_DIR)
    assert written.read_bytes() == twin.read_bytes()  # frames are rendered by a replay: the file is the same
    traj = load_trajectory(written)
    listed = sorted({image["image_name"] for image in traj["images"]})
    assert len(listed) == len(traj["plan"]["low_actions"])  # one per action; the final frame is unlisted
    frames = [*listed, f"{len(listed):09d}.png"]
    folder = written.parent
    assert sorted(p.stem for p in (folder / "raw_images").iterdir()) == [Path(f).stem for f in frames]
    assert sorted(p.stem for p in (folder / "depth_images").iterdir()) == [Path(f).stem for f in frames]
    assert (folder / "instance_masks").is_dir() and any((folder / "instance_masks").iterdir())
    assert not [p for p in (one / PATHS_DIR).iterdir() if p.name.startswith(".tmp")]
