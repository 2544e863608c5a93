"""`alfred-gen eval actthor`: accuracy on contrast sets from a predictions file or an agent.

Fast tests use a hand-made collection (contrast set records and tiny images on disk, laid out as
`actthor contrast` writes them); the slow one runs `actthor triples` and `contrast` on eight lite
rooms and checks the reference agents there: oracle at 100%, random within its interval of chance,
pixel-diff above chance."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from alfred_gen.actthor.contrast import CONTRAST_DIR, SETS3_FILE, SETS4_FILE, write_sets
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.actthor import (
    contrast_digest,
    contrast_sets,
    eval_actthor,
    read_predictions,
    score,
    wilson,
)
from alfred_gen.eval.actthor_pixels import PixelDiffPredictor

#: Sets per size in the hand-made collection: enough for random's interval to be a few points wide.
N_SETS = 300
#: The two trials' actions (a set's candidates come from one before-image, so from one trial).
TRIALS = (("drop", "put", "dirty"), ("pickup", "push", "fill"))
ACTIONS = TRIALS[0] + TRIALS[1]
SIDE = 16  # pixels of the hand-made images


def _image(path: Path, pixels: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels.astype(np.uint8)).save(path)


def _changed(before: np.ndarray, upper: bool, lower: bool, amount: int) -> np.ndarray:
    """``before`` with ``amount`` pixels changed in the upper and/or lower half."""
    after = before.copy()
    for on, rows in ((upper, slice(0, SIDE // 2)), (lower, slice(SIDE // 2, SIDE))):
        if on:
            after[rows][:, :][np.unravel_index(np.arange(amount), (SIDE // 2, SIDE))] ^= 255
    return after


#: What each hand-made action changes: (upper half, lower half, pixels) as the baseline expects.
CHANGES = {"drop": (False, True, 20), "put": (True, True, 20), "pickup": (True, True, 24),
           "push": (True, False, 20), "dirty": (True, False, 4), "fill": (False, True, 3)}


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """N_SETS four-image and N_SETS three-image sets over hand-made images: three candidates from the
    before-image (the target's change and two other actions'), a fourth from 'another room'."""
    root = tmp_path_factory.mktemp("act")
    rng = np.random.default_rng(0)
    foreign = rng.integers(0, 256, (SIDE, SIDE, 3))
    _image(root / "rooms/B/foreign.png", foreign)
    records: dict[int, list[dict]] = {4: [], 3: []}
    for size in (4, 3):
        for n in range(N_SETS):
            before = np.full((SIDE, SIDE, 3), 20 + n % 80)  # far from 128, where x ^ 255 is near x
            stem = f"rooms/A/{size}-{n}"
            _image(root / f"{stem}.png", before)
            trial = TRIALS[n % 2]
            action = trial[n // 2 % 3]
            others = [a for a in trial if a != action]
            images = []
            for a in (action, *others):
                _image(root / f"{stem}-{a}.png", _changed(before, *CHANGES[a]))
                images.append({"image": f"{stem}-{a}.png", "action": a, "scene": "A", "triple": f"A/{n}-{a}"})
            if size == 4:
                images.append({"image": "rooms/B/foreign.png", "action": action, "scene": "B", "triple": f"B/{n}"})
            order = list(rng.permutation(size))
            records[size].append({
                "id": n, "triple": f"A/{n}-{action}", "scene": "A", "room_type": "kitchen", "object_type": "Mug",
                "object_id": "Mug|1", "trial": "held", "action": action, "sentence": f"{action} the mug",
                "before": f"{stem}.png", "candidates": [images[k] for k in order], "true_index": order.index(0),
                "splits": {"rooms": ("train", "valid", "test")[n % 3], "objects": ("train", "test")[n % 2]},
            })
    (root / CONTRAST_DIR).mkdir()
    for size, name in ((4, SETS4_FILE), (3, SETS3_FILE)):
        (root / CONTRAST_DIR / name).write_text("".join(json.dumps(r) + "\n" for r in records[size]))
    return root


def _run(root: Path, tmp_path: Path, **kwargs) -> tuple[ExitCode, list[str], dict]:
    lines: list[str] = []
    out = tmp_path / "results.json"
    code = eval_actthor(str(root), out=str(out), echo=lines.append, show_progress=False, **kwargs)
    return code, lines, json.loads(out.read_text())


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 0) == (0.0, 1.0)


def test_oracle_is_at_the_ceiling_and_random_at_chance(collection: Path, tmp_path: Path) -> None:
    code, lines, results = _run(collection, tmp_path, agent="oracle")
    assert code == ExitCode.OK, lines
    for size in ("4", "3"):
        figures = results["figures"][size]
        assert figures["all"] == {**figures["all"], "sets": N_SETS, "correct": N_SETS, "accuracy": 1.0}
        assert all(g["accuracy"] == 1.0 for g in figures["by_action"].values())
        assert sum(g["sets"] for g in figures["by_split"]["rooms"].values()) == N_SETS
    assert lines[-1].startswith(f"{2 * N_SETS} contrast sets scored"), lines
    code, lines, results = _run(collection, tmp_path, agent="random")
    assert code == ExitCode.OK
    for size, chance in (("4", 0.25), ("3", 1 / 3)):
        low, high = results["figures"][size]["all"]["ci95"]
        assert low <= chance <= high, (size, low, high)
        assert results["figures"][size]["chance"] == pytest.approx(chance)


def test_the_table_has_a_row_per_action_and_split(collection: Path, tmp_path: Path) -> None:
    _code, lines, _results = _run(collection, tmp_path, agent="oracle")
    rows = {line.split("  ")[0].strip(): line for line in lines if line.strip()}
    assert all(action in rows for action in ACTIONS)
    assert rows["all"].split()[1:] == ["100.0", f"({N_SETS})", "100.0", f"({N_SETS})"]
    assert rows["chance"].split()[1:] == ["25.0", "33.3"]
    assert "unseen rooms: test" in rows and "unseen objects: train" in rows


def test_pixel_diff_reads_where_the_image_changed(collection: Path, tmp_path: Path) -> None:
    code, lines, results = _run(collection, tmp_path, agent="pixel-diff")
    assert code == ExitCode.OK, lines
    # The hand-made changes are drawn as the baseline's rules say each action changes the image.
    assert results["figures"]["4"]["all"]["accuracy"] == 1.0
    assert results["figures"]["3"]["all"]["accuracy"] == 1.0
    before = np.zeros((SIDE, SIDE, 3), np.uint8)
    candidates = [_changed(before, *CHANGES["dirty"]), _changed(before, *CHANGES["push"]),
                  np.full((SIDE, SIDE, 3), 255, np.uint8)]
    predictor = PixelDiffPredictor()
    assert predictor.predict(before, "push", candidates, {}) == 1  # a slide on the surface ahead
    assert predictor.predict(before, "dirty", candidates, {}) == 0  # the smallest change in place
    assert predictor.predict(before, "throw", candidates[2:], {}) == 0  # only a foreign one: still an answer


def test_a_results_file_is_a_predictions_file(collection: Path, tmp_path: Path) -> None:
    _code, _lines, first = _run(collection, tmp_path, agent="random")
    again = tmp_path / "again"
    again.mkdir()
    code, _lines, second = _run(collection, again, predictions=str(tmp_path / "results.json"))
    assert code == ExitCode.OK and second["figures"] == first["figures"]
    assert second["predictions"] == first["predictions"] and len(first["predictions"]) == 2 * N_SETS


def test_a_partial_predictions_file_scores_what_it_names(collection: Path, tmp_path: Path) -> None:
    sets = contrast_sets(collection)
    truth = {s.key: s.true_index for s in sets if s.size == 4 and s.record["splits"]["rooms"] == "test"}
    path = tmp_path / "test-split.json"
    path.write_text(json.dumps(truth))
    code, lines, results = _run(collection, tmp_path, predictions=str(path))
    assert code == ExitCode.OK
    assert results["figures"]["4"]["all"]["sets"] == len(truth) and results["figures"]["3"]["all"]["sets"] == 0
    assert results["figures"]["4"]["by_split"]["rooms"]["train"]["sets"] == 0
    assert f"{2 * N_SETS - len(truth)} without a prediction left out" in lines[-1]
    figures = score(sets, {**truth, "4:0": None})  # a failed prediction counts as wrong
    assert figures["4"]["all"]["sets"] == len(truth) + 1


@pytest.mark.parametrize("content, code, words", [
    ('{"4:0": 1, "4:99999": 0}', ExitCode.BAD_INPUT, "other contrast sets"),
    ('{"predictions": {"4:0": 1}, "contrast": "0123456789abcdef"}', ExitCode.BAD_INPUT, "other contrast sets"),
    ('{"4:0": 4}', ExitCode.BAD_INPUT, "not an index 0-3"),
    ('{"3:0": true}', ExitCode.BAD_INPUT, "not an index 0-2"),
    ('{}', ExitCode.BAD_INPUT, "predicts none"),
    ('[1, 2]', ExitCode.BAD_INPUT, "JSON object"),
    ('{"4:0": 1', ExitCode.BAD_INPUT, "not a predictions file"),
    (None, ExitCode.NOT_FOUND, "no such predictions file"),
])
def test_bad_predictions_files_are_refused(collection: Path, tmp_path: Path, content: str | None, code: ExitCode,
                                           words: str) -> None:
    path = tmp_path / "p.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(UserError) as refused:
        read_predictions(path, contrast_sets(collection), contrast_digest(collection))
    assert refused.value.code == code and words in str(refused.value) and "\n" not in str(refused.value)


@pytest.fixture()
def agents_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "act_agents.py").write_text(textwrap.dedent('''
        class Raises:
            def predict(self, before, action, candidates, info):
                raise RuntimeError("model exploded")

        class Eleven:
            def predict(self, before, action, candidates, info):
                return 11

        class Sees:
            def predict(self, before, action, candidates, info):
                assert before.shape == (16, 16, 3) and all(c.shape == before.shape for c in candidates)
                assert "true_index" not in info and "triple" not in info
                return len(candidates) - 1

        def broken():
            raise ValueError("no weights")
        '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("act_agents", None)
    return "act_agents"


@pytest.mark.slow  # fast lane: 13 s on a loaded 2-core machine (session 73 --durations)
def test_agents_that_fail_get_one_line_and_exit_code_1(collection: Path, tmp_path: Path, agents_module: str) -> None:
    for name, reason in (("Raises", "agent_error"), ("Eleven", "bad_prediction")):
        code, lines, results = _run(collection, tmp_path, agent=f"{agents_module}:{name}")
        assert code == ExitCode.FAILED
        failures = [line for line in lines if line.startswith(reason)]
        assert failures == [f"{reason} on {2 * N_SETS} sets (first: 4:0: " + failures[0].split("(first: 4:0: ")[1]]
        assert results["figures"]["4"]["all"]["accuracy"] == 0.0 and len(results["failed"]) == 2 * N_SETS
    code, lines, results = _run(collection, tmp_path, agent=f"{agents_module}:Sees")
    assert code == ExitCode.OK, lines
    with pytest.raises(UserError) as refused:
        _run(collection, tmp_path, agent=f"{agents_module}:broken")
    assert refused.value.code == ExitCode.FAILED and "no weights" in str(refused.value)
    with pytest.raises(UserError) as refused:
        _run(collection, tmp_path, agent="no_such_module:make")
    assert refused.value.code == ExitCode.NOT_FOUND


def test_cli_one_line_and_exit_codes(collection: Path, tmp_path: Path, cli_in_process, agents_module: str) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"4:123456": 0}')
    result = cli_in_process("eval", "actthor", str(collection), "--predictions", str(other))
    assert result.returncode == ExitCode.BAD_INPUT and len(result.stderr.strip().splitlines()) == 1, result
    result = cli_in_process("eval", "actthor", str(collection), "--agent", f"{agents_module}:Raises")
    assert result.returncode == ExitCode.FAILED and "Traceback" not in result.stderr + result.stdout
    assert len([line for line in result.stdout.splitlines() if "model exploded" in line]) == 1
    result = cli_in_process("eval", "actthor", str(tmp_path), "--agent", "oracle")
    assert result.returncode == ExitCode.NOT_FOUND and "actthor contrast" in result.stderr
    result = cli_in_process("eval", "actthor", str(collection))
    assert result.returncode == ExitCode.USAGE
    out = tmp_path / "r.json"
    result = cli_in_process("eval", "actthor", str(collection), "--agent", "oracle", "--out", str(out))
    assert result.returncode == ExitCode.OK and json.loads(out.read_text())["format"] == "alfred-gen-eval-actthor"


# --- eight lite rooms ------------------------------------------------------------------------------
ROOMS = ("1", "2", "21", "26", "201", "222", "227", "301")


@pytest.fixture(scope="module")
def lite_collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from alfred_gen.actthor.triples import parse_scenes, run_triples
    from alfred_gen.scenes.library import simulator

    out = tmp_path_factory.mktemp("act8") / "act"
    run_triples(parse_scenes(list(ROOMS)), out, simulator(), workers=2, show_progress=False)
    write_sets(out, seed=0)
    return out


@pytest.mark.slow
def test_reference_agents_on_eight_lite_rooms(lite_collection: Path, tmp_path: Path) -> None:
    code, lines, oracle = _run(lite_collection, tmp_path, agent="oracle")
    assert code == ExitCode.OK
    assert oracle["figures"]["4"]["all"]["accuracy"] == oracle["figures"]["3"]["all"]["accuracy"] == 1.0
    assert oracle["figures"]["4"]["all"]["sets"] > 100
    splits = oracle["figures"]["4"]["by_split"]
    assert all(splits["rooms"][s]["sets"] > 0 for s in ("train", "valid", "test")), splits
    code, lines, rand = _run(lite_collection, tmp_path, agent="random")
    for size, chance in (("4", 0.25), ("3", 1 / 3)):
        low, high = rand["figures"][size]["all"]["ci95"]
        assert low <= chance <= high, (size, low, high)
    code, lines, pixels = _run(lite_collection, tmp_path, agent="pixel-diff")
    for size, chance in (("4", 0.25), ("3", 1 / 3)):
        assert pixels["figures"][size]["all"]["ci95"][0] > chance, lines  # a non-trivial row
