"""People's language round trip (alfred_gen.annotate): task and vote pages, answers imported into
turk_annotations with checks; in headless Chromium, a worker fills the form and the answer imports;
markup in workers' words never runs on a page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from alfred_gen.annotate.answers import hashed_worker, import_answers
from alfred_gen.annotate.hits import find_demos, subgoal_names, write_pages
from alfred_gen.errors import ExitCode
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory, save_trajectory
from tests.helpers import replay_scripts as scripts
from tests.helpers.browser import chromium, console_errors, file_url, find_browser

PAYLOADS = (
    "<script>document.title='pwned'</script>",
    "<img src=x onerror=\"document.title='pwned'\">",
    "Go to the sink &amp; stop",
    "Take the mug\x07 now",
    "javascript:alert(1)",
    "</script><script>document.title='pwned'</script>",
)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("annotate") / "data"
    path, tried = scripts.generate_example("pick_and_place_simple", root, frames=True)
    assert path is not None, tried
    return root


@pytest.fixture
def data(made: Path, tmp_path: Path) -> Path:
    root = tmp_path / "data"
    shutil.copytree(made, root)
    return root


def _answer(source: Any, **changes: Any) -> dict[str, Any]:
    lines = [f"Do step {i + 1} of the task now." for i in range(len(subgoal_names(source.traj)))]
    answer = {"kind": "annotation", "demo": source.key, "task_id": source.traj["task_id"], "worker_id": "W1",
              "assignment_id": "A1", "task_desc": "Put the thing where it belongs.", "high_descs": lines}
    answer.update(changes)
    return answer


def _write(path: Path, records: list[Any]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.slow  # fast lane: 9 s on a loaded 2-core machine (session 73 --durations)
def test_import_adds_an_annotation_and_keeps_the_generated_ones(data: Path, tmp_path: Path) -> None:
    demo = find_demos(data)[0]
    before = demo.traj["turk_annotations"]["anns"]
    lines: list[str] = []
    code = import_answers([str(_write(tmp_path / "a.jsonl", [_answer(demo)]))], str(data), echo=lines.append)
    assert code == ExitCode.OK, lines
    traj = load_trajectory(demo.path)  # validates
    anns = traj["turk_annotations"]["anns"]
    assert anns[:len(before)] == before
    new = anns[-1]
    assert new["assignment_id"] == "A1" and new["worker_id"] == hashed_worker("W1") != "W1"
    assert new["task_desc"] == "Put the thing where it belongs."
    assert len(new["high_descs"]) == len(before[0]["high_descs"])
    # The same assignment again is refused, and the file keeps one copy.
    lines.clear()
    code = import_answers([str(tmp_path / "a.jsonl")], str(data), echo=lines.append)
    assert code == ExitCode.FAILED and "already in the file" in lines[0]
    assert load_trajectory(demo.path)["turk_annotations"]["anns"] == anns


def test_votes_are_appended_to_the_annotation_they_name(data: Path, tmp_path: Path) -> None:
    demo = find_demos(data)[0]
    vote = {"kind": "vote", "demo": demo.key, "task_id": demo.traj["task_id"], "worker_id": "V1",
            "assignment_id": "B1", "votes": {"template": 1, "template_1": 0}}
    assert import_answers([str(_write(tmp_path / "v.jsonl", [vote]))], str(data), echo=lambda _: None) == ExitCode.OK
    anns = {a["assignment_id"]: a for a in load_trajectory(demo.path)["turk_annotations"]["anns"]}
    assert anns["template"]["votes"] == [1, 1] and anns["template_1"]["votes"] == [1, 0]
    assert anns["template_2"]["votes"] == [1]


def test_import_refuses_markup_control_characters_and_bad_answers_one_line_each(data: Path, tmp_path: Path) -> None:
    demo = find_demos(data)[0]
    original = demo.path.read_bytes()
    records: list[Any] = [_answer(demo, assignment_id=f"X{i}", task_desc=p) for i, p in enumerate(PAYLOADS)]
    records += [
        _answer(demo, assignment_id="L1", high_descs=["Only one line."]),
        _answer(demo, assignment_id="E1", task_desc="   "),
        _answer(demo, assignment_id="D1", demo="elsewhere/trial_T1"),
        _answer(demo, assignment_id="<b>"),
        {"kind": "vote", "demo": demo.key, "task_id": demo.traj["task_id"], "worker_id": "V", "assignment_id": "V9",
         "votes": {"nobody": 1}},
        ["not", "an", "object"],
    ]
    path = _write(tmp_path / "bad.jsonl", records)
    with path.open("a") as stream:
        stream.write("{not json\n")
    lines: list[str] = []
    code = import_answers([str(path)], str(data), echo=lines.append)
    assert code == ExitCode.FAILED
    refused = [line for line in lines if ": refused: " in line]
    assert len(refused) == len(records) + 1
    assert refused[0].startswith(f"{path}:1: refused: the goal contains markup")
    assert "control character" in refused[3] and "one line per subgoal" in refused[len(PAYLOADS)]
    assert demo.path.read_bytes() == original  # nothing was written


def test_export_writes_a_page_per_hit_and_lists_them(data: Path, tmp_path: Path, cli_in_process) -> None:
    result = cli_in_process("annotate", "export", str(data), "--out", str(tmp_path / "hits"), "--per-hit", "2")
    assert result.returncode == 0, result.stderr
    manifest = [json.loads(line) for line in (tmp_path / "hits" / "hits.jsonl").read_text().splitlines()]
    assert [m["demos"] for m in manifest] == [[d.key for d in find_demos(data)]]
    page = (tmp_path / "hits" / manifest[0]["page"]).read_text()
    assert 'id="hit-data"' in page and (tmp_path / "hits" / "hit.js").is_file()
    result = cli_in_process("annotate", "export", str(data), "--out", str(tmp_path / "h2"), "--per-hit", "0")
    assert result.returncode == ExitCode.USAGE and "--per-hit" in result.stderr


browser_only = pytest.mark.skipif(find_browser() is None, reason="chromium and chromium-driver are not installed")


@pytest.mark.slow  # fast lane: 19 s on a loaded 2-core machine (session 73 --durations)
@browser_only
def test_a_worker_fills_the_form_in_chromium_and_the_answer_imports(data: Path, tmp_path: Path) -> None:
    assert write_pages(str(data), str(tmp_path / "hits"), 1, "task", echo=lambda _: None) == ExitCode.OK
    demo = find_demos(data)[0]
    steps = len(subgoal_names(demo.traj))
    with chromium() as browser:
        browser.get(file_url(tmp_path / "hits" / "task_00000.html"))
        assert browser.find_element("css selector", "img.frame").get_attribute("src").endswith(".jpg")
        assert len(browser.find_elements("css selector", ".subgoals li")) == steps
        browser.find_element("id", "worker").send_keys("worker-7")
        browser.find_element("id", "goal-0").send_keys("Put the object where it goes.")
        for n in range(steps):
            browser.find_element("id", f"step-0-{n}").send_keys(f"Carry out part {n + 1} of the job.")
        browser.find_element("id", "submit").click()
        text = browser.find_element("id", "answers").text
        assert console_errors(browser) == []
    answers = _write(tmp_path / "answers.jsonl", [json.loads(line) for line in text.splitlines()])
    lines: list[str] = []
    assert import_answers([str(answers)], str(data), echo=lines.append) == ExitCode.OK, lines
    traj = load_trajectory(demo.path)
    new = traj["turk_annotations"]["anns"][-1]
    assert new["task_desc"] == "Put the object where it goes." and new["worker_id"] == hashed_worker("worker-7")
    assert new["high_descs"] == [f"Carry out part {n + 1} of the job." for n in range(steps)]


@pytest.mark.slow  # fast lane: 11 s on a loaded 2-core machine (session 73 --durations)
@browser_only
def test_markup_in_annotations_is_shown_as_text_and_never_runs(data: Path, tmp_path: Path) -> None:
    demo = find_demos(data)[0]
    traj = dict(demo.traj)
    steps = len(subgoal_names(traj))
    hostile = [{"assignment_id": f"H{i}", "task_desc": payload, "high_descs": [payload] * steps, "votes": []}
               for i, payload in enumerate(PAYLOADS)]
    traj["turk_annotations"] = {"anns": [*traj["turk_annotations"]["anns"], *hostile]}
    save_trajectory(traj, data / demo.key / TRAJ_FILE_NAME)  # as if a file came with them
    assert write_pages(str(data), str(tmp_path / "votes"), 1, "vote", echo=lambda _: None) == ExitCode.OK
    with chromium() as browser:
        browser.get(file_url(tmp_path / "votes" / "vote_00000.html"))
        title = browser.title
        assert "pwned" not in title
        assert browser.find_elements("css selector", "img[src='x']") == []
        assert len(browser.find_elements("css selector", "script")) == 2  # the data block and hit.js
        shown = browser.find_element("id", "demos").text.replace("\x07", "")
        for payload in PAYLOADS:
            assert " ".join(payload.replace("\x07", "").split()) in " ".join(shown.split())
        assert len(browser.find_elements("css selector", ".candidate")) == 3 + len(PAYLOADS)
