"""ALFRED-L's language perturbations (alfred_gen.derive.perturb): E1 and E2, `alfred-gen perturb`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from alfred_gen.cli import main
from alfred_gen.derive.perturb import (
    SPATIAL_PHRASES,
    SPATIAL_WORDS,
    LanguageCounts,
    perturb_command,
    perturb_language,
    remove_spatial,
    words_of,
)
from alfred_gen.errors import ExitCode
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory
from tests.helpers.derive_sources import ANNOTATIONS, walk_source, write_source


@pytest.mark.parametrize("before, after", [
    # ALFRED-L's Figure 6, all three examples.
    ("Turn to the left, then to the right, then to the sink on the right", "Turn sink"),
    ("Move over to your right so that you are at the right end of the desk", "Move desk"),
    ("Walk forward four steps, turn left for three steps and stop to the left of the toilet", "Walk turn stop toilet"),
])
def test_e1_on_the_papers_examples(before: str, after: str) -> None:
    assert remove_spatial(before) == after


def test_e1_on_generated_language() -> None:
    assert remove_spatial("Take a right, walk 1.5 metres and finally turn left to reach the fridge.") == (
        "Take a walk finally turn to reach the fridge.")
    assert remove_spatial("Put two apples in the fridge.") == "Put two apples in the fridge."


@pytest.mark.parametrize("before, after", [
    # Instructions in the style of ALFRED's annotations (not from the paper).
    ("Turn around and walk forward to the fridge.", "Walk fridge."),
    ("Pick up the apple, then turn left.", "Pick up the apple, turn."),
    ("Turn right and walk to the counter in front of you.", "Turn walk counter you."),
    ("Pick up the apple and turn around.", "Pick up the apple."),
    ("Go left, then right.", "Go."),
    # Each sentence starts with a capital again; the original's spacing (quotes, apostrophes) stays.
    ("Put a book on the chair. Then go back to the dresser.", "Put a book on the chair. Go dresser."),
    ('Take the book "Huck Finn" that\'s in front of you.', 'Take the book "Huck Finn" that\'s you.'),
])
def test_e1_removes_directions_and_tidies_what_is_left(before: str, after: str) -> None:
    assert remove_spatial(before) == after


def test_e1_leaves_instructions_without_directions_alone() -> None:
    for text in ("Put the knife in the sink.", "Pick up the mug.", "Heat the mug in the microwave.", ""):
        assert remove_spatial(text) == text


def test_e1_keeps_no_word_of_its_list() -> None:
    text = " ".join(SPATIAL_WORDS) + ". " + ", ".join(SPATIAL_PHRASES) + "."
    assert not {w.lower() for w in words_of(remove_spatial(text))} & SPATIAL_WORDS


def test_perturb_language_counts_changed_instructions_and_removed_words() -> None:
    traj = walk_source()
    e1, counts = perturb_language(traj, "e1")
    assert e1["turk_annotations"]["anns"][0]["high_descs"][1] == "Turn walk microwave."
    assert e1["language_perturbations"] == ["e1"] and traj["turk_annotations"] == walk_source()["turk_annotations"]
    lines = [text for ann in ANNOTATIONS for text in (ann["task_desc"], *ann["high_descs"])]
    assert counts.instructions == len(lines) == 12
    assert counts.tokens == sum(len(words_of(text)) for text in lines)
    # 1st annotation: "in front of" (line 1); "left", "and" after it, "forward", "to the" (line 2);
    # "Turn around, then ... to the ... on the right" (line 4). 2nd: "to the" (line 2); "back to the" (line 4)
    assert (counts.changed, counts.removed) == (5, 3 + 5 + 8 + 2 + 3)
    e2, counts = perturb_language(traj, "e2")
    assert all(ann["high_descs"] == [""] * 5 for ann in e2["turk_annotations"]["anns"])
    assert [ann["task_desc"] for ann in e2["turk_annotations"]["anns"]] == [a["task_desc"] for a in ANNOTATIONS]
    assert e2["template"]["high_descs"] == [""] * 5
    steps = [text for ann in ANNOTATIONS for text in ann["high_descs"]]
    assert counts.changed == 10 and counts.removed == sum(len(words_of(text)) for text in steps)
    twice, _ = perturb_language(e2, "e1")
    assert twice["language_perturbations"] == ["e2", "e1"]


def test_language_counts_describe_shares() -> None:
    counts = LanguageCounts()
    counts.add("Turn left.", "Turn.")
    counts.add("Go.", "Go.")
    assert counts.describe() == "1/2 instructions changed (50.0%), 1/3 words removed (33.3%)"


def test_perturb_command_writes_the_same_trajectory_with_new_words(tmp_path: Path) -> None:
    source = write_source(tmp_path / "src")
    frames = source.parent / "raw_images"
    frames.mkdir()
    (frames / "000000000.jpg").write_bytes(b"jpeg")
    lines: list[str] = []
    code = perturb_command("e1", [str(tmp_path / "src")], str(tmp_path / "out"), echo=lines.append,
                           show_progress=False)
    assert code == ExitCode.OK and lines[0] == "e1: 5/12 instructions changed (41.7%), 21/75 words removed (28.0%)"
    assert lines[-1].startswith("perturbed 1, skipped 0")
    (written,) = (tmp_path / "out").rglob(TRAJ_FILE_NAME)
    assert written.relative_to(tmp_path / "out") == source.relative_to(tmp_path / "src")
    new, old = load_trajectory(written), load_trajectory(source)
    assert {k: v for k, v in new.items() if k not in ("turk_annotations", "template", "language_perturbations")} == {
        k: v for k, v in old.items() if k not in ("turk_annotations", "template")}
    assert (written.parent / "raw_images" / "000000000.jpg").read_bytes() == b"jpeg"
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]
    code = perturb_command("e1", [str(tmp_path / "src")], str(tmp_path / "out"), echo=lines.append,
                           show_progress=False)
    assert code == ExitCode.OK and lines[-1].startswith("perturbed 0, skipped 1: already_derived 1")


def test_cli_perturb_reports_a_bad_source_and_an_unknown_kind(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    bad = tmp_path / "src" / "x" / "trial_T1"
    bad.mkdir(parents=True)
    (bad / TRAJ_FILE_NAME).write_text("[]")
    with pytest.raises(SystemExit) as stopped:
        main(["perturb", "e2", str(tmp_path / "src"), "--out", str(tmp_path / "out")])
    assert stopped.value.code == ExitCode.FAILED
    assert f"{os.path.relpath(bad / TRAJ_FILE_NAME)}: bad_source: " in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["perturb", "e3", str(tmp_path / "src"), "--out", str(tmp_path / "out")])
    assert stopped.value.code == ExitCode.USAGE
