"""ACT-Thor: triples of two small kitchens, their cleaning, the contrast-set rules on the whole output,
splits, tables, contact sheets, determinism and bad input."""

from __future__ import annotations

import dataclasses
import filecmp
import json
import os
from pathlib import Path

import pytest

from alfred_gen.actthor import contrast
from alfred_gen.actthor.actions import HELD, PLACED, actions_for, api_actions
from alfred_gen.actthor.cleaning import drop_reason
from alfred_gen.actthor.language import sentence, words
from alfred_gen.actthor.sheets import sheets_command
from alfred_gen.actthor.stats import compute, render
from alfred_gen.actthor.triples import TRIPLES_FILE, parse_scenes, run_triples
from alfred_gen.cli import main
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.library import simulator
from alfred_gen.sim import fixtures

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

ROOMS = ("LiteFixtureKitchen", "LiteFixtureKitchenB")


def recipe():
    """Lite with a second kitchen (the fixture kitchen under another name) so that sets can draw
    their fourth candidate from another room."""
    other = dataclasses.replace(fixtures.kitchen(), name="LiteFixtureKitchenB")
    return simulator(extra=(other,))


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("act") / "act"
    run_triples(list(ROOMS), out, recipe(), workers=2, show_progress=False)
    contrast.write_sets(out, seed=3)
    return out


def triples_of(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / TRIPLES_FILE).read_text().splitlines()]


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_words_and_sentences() -> None:
    assert words("RemoteControl") == "remote control" and words("CD") == "CD" and words("CounterTop") == "counter"
    assert sentence("drop", "Mug", "DiningTable", "DiningTable") == "The robot dropped the mug onto the table."
    assert sentence("throw", "Mug", "CounterTop", None) == "The robot threw the mug onto the floor."
    assert sentence("toggle", "Laptop", "Desk", toggled_on=False) == "The robot turned the laptop off."


def test_each_trial_tries_its_actions_and_what_the_object_affords() -> None:
    mug = {"objectId": "Mug|1", "dirtyable": True, "canFillWithLiquid": True, "breakable": True}
    assert actions_for(HELD, mug) == ["drop", "throw", "put", "dirty", "fill", "break"]
    assert actions_for(PLACED, mug) == ["pickup", "push", "pull", "dirty", "fill", "break"]
    laptop = {"objectId": "Laptop|1", "openable": True, "toggleable": True, "isToggled": True}
    assert actions_for(PLACED, laptop) == ["pickup", "push", "pull", "open", "close", "toggle"]
    assert api_actions("toggle", laptop, "Desk|1")[0]["action"] == "ToggleObjectOff"
    push, pull = (api_actions(a, mug, "Desk|1")[0] for a in ("push", "pull"))
    assert push["pushAngle"] == 0 and pull["pushAngle"] == 180 and push["moveMagnitude"] > pull["moveMagnitude"]


def test_every_object_gets_both_trials_from_one_spot(collection: Path) -> None:
    room = json.loads((collection / "rooms" / "LiteFixtureKitchen" / "room.json").read_text())
    assert room["skipped"] == []
    pickupable = room["objects"]
    befores = {t["before_image"] for t in room["triples"]}
    assert len(befores) == 2 * pickupable
    assert all(t["same_before"] for t in room["triples"])  # every action started from the same state
    assert {t["surface_type"] for t in room["triples"]} == {room["surface"]["objectType"]}
    for t in room["triples"]:
        assert (collection / t["before_image"]).is_file()
        assert (t["after_image"] is not None) == t["success"]
        if t["success"]:
            assert (collection / t["after_image"]).is_file()
        assert t["kept"] == (drop_reason(t) is None) and t["dropped_because"] == drop_reason(t)
        if t["kept"] and t["action"] != "break":
            assert t["after_box"] is not None and t["pixels_after"] >= 10
    assert {t["action"] for t in room["triples"] if t["kept"]} >= {
        "drop", "throw", "put", "pickup", "push", "pull", "dirty", "fill", "break"}


def test_failed_and_unchanged_triples_are_cleaned_away(collection: Path) -> None:
    triples = triples_of(collection)
    assert all(t["dropped_because"] == "failed" and t["error"] for t in triples if not t["success"])
    assert all(t["changed_pixels"] == 0 for t in triples if not t["success"])  # a failure changes nothing
    assert all(t["changed_pixels"] >= 10 and t["success"] for t in triples if t["kept"])
    record = {"success": True, "action": "push", "pixels_after": 40, "changed_pixels": 300}
    assert drop_reason(record) is None
    assert drop_reason({**record, "success": False}) == "failed"
    assert drop_reason({**record, "pixels_after": 9}) == "not_visible"
    assert drop_reason({**record, "pixels_after": 0, "action": "break"}) is None  # break is exempt
    assert drop_reason({**record, "changed_pixels": 9}) == "no_change"


def test_every_contrast_set_keeps_the_rules(collection: Path) -> None:
    triples = triples_of(collection)
    sets4 = contrast.load_sets(collection, contrast.SETS4_FILE)
    sets3 = contrast.load_sets(collection, contrast.SETS3_FILE)
    assert sets4 and len(sets3) >= len(sets4)
    assert contrast.violations(triples, sets4, sets3) == []
    assert {s["true_index"] for s in sets4} == {0, 1, 2, 3}  # the true one is shuffled


def test_the_rule_check_catches_broken_sets(collection: Path) -> None:
    triples = triples_of(collection)
    sets4 = contrast.load_sets(collection, contrast.SETS4_FILE)
    record = sets4[0]
    by_id = {t["id"]: t for t in triples}
    target = by_id[record["triple"]]
    wrong_index = {**record, "true_index": (record["true_index"] + 1) % 4}
    assert any("true_index" in p for p in contrast.violations(triples, [wrong_index], []))
    same_room = next(t for t in triples if t["kept"] and t["scene"] == target["scene"]
                     and t["before_image"] != target["before_image"] and t["action"] == target["action"])
    fourth = next(k for k, c in enumerate(record["candidates"]) if by_id[c["triple"]]["scene"] != target["scene"])
    candidates = list(record["candidates"])
    candidates[fourth] = {**candidates[fourth], "triple": same_room["id"], "image": same_room["after_image"]}
    assert any("another room" in p for p in contrast.violations(triples, [{**record, "candidates": candidates}], []))
    opposite = {"push": "pull", "pull": "push", "put": "throw", "throw": "put"}
    pair = next(s for s in sets4 if s["action"] in opposite)
    twin = next(t for t in triples if t["kept"] and t["before_image"] == pair["before"]
                and t["action"] == opposite[pair["action"]])
    k = next(k for k, c in enumerate(pair["candidates"]) if k != pair["true_index"]
             and by_id[c["triple"]]["before_image"] == pair["before"])
    candidates = list(pair["candidates"])
    candidates[k] = {**candidates[k], "triple": twin["id"], "image": twin["after_image"]}
    assert any("put with throw" in p for p in contrast.violations(triples, [{**pair, "candidates": candidates}], []))
    wrong_split = {**record, "splits": {"rooms": "test", "objects": record["splits"]["objects"]}}
    assert any("unseen-room" in p for p in contrast.violations(triples, [wrong_split], []))


def test_splits_follow_room_index_and_held_out_objects() -> None:
    assert [contrast.room_split(n) for n in (1, 20, 21, 25, 26, 30, 201, 230, 422)] == [
        "train", "train", "valid", "valid", "test", "test", "train", "test", "valid"]
    triples = [{"before_image": f"b{k}", "object_type": t} for k, t in enumerate(["Cup", "Mug"] * 50)]
    splits = contrast.object_splits(triples, ("Cup",), seed=1)
    assert all(splits[f"b{k}"] == "test" for k in range(0, 100, 2))
    others = [splits[f"b{k}"] for k in range(1, 100, 2)]
    assert set(others) == {"train", "valid"} and 3 <= others.count("valid") <= 20


def test_same_seed_same_bytes_whatever_the_workers(collection: Path, tmp_path: Path) -> None:
    again = tmp_path / "act"
    run_triples(list(ROOMS), again, recipe(), workers=1, show_progress=False)
    contrast.write_sets(again, seed=3)
    assert tree(again) == tree(collection)
    contrast.write_sets(again, seed=4)
    assert (again / "contrast" / contrast.SETS4_FILE).read_bytes() != (
        collection / "contrast" / contrast.SETS4_FILE).read_bytes()


def test_a_finished_room_is_kept_when_the_run_is_resumed(collection: Path, tmp_path: Path) -> None:
    out = tmp_path / "act"
    run_triples([ROOMS[0]], out, recipe(), workers=1, show_progress=False)
    room = out / "rooms" / ROOMS[0] / "room.json"
    stamp = room.stat().st_mtime_ns
    summary = run_triples(list(ROOMS), out, recipe(), workers=1, show_progress=False)
    assert summary.existed == 1 and summary.rooms == 1 and room.stat().st_mtime_ns == stamp
    assert (out / TRIPLES_FILE).read_bytes() == (collection / TRIPLES_FILE).read_bytes()


def test_a_run_killed_mid_write_resumes_to_the_uninterrupted_tree(collection: Path, tmp_path: Path) -> None:
    # kill -9 while a frame, a room's record or the index was being written leaves its temporary
    # file (atomic.TEMP_FILE_SUFFIX) beside it, and the room without its room.json.
    out = tmp_path / "act"
    run_triples(list(ROOMS), out, recipe(), workers=1, show_progress=False)
    contrast.write_sets(out, seed=3)
    room = out / "rooms" / ROOMS[1]
    (room / "room.json").unlink()
    (room / ".00-held.jpg.k1ll3d.tmp").write_bytes(b"half a jpeg")
    (room / ".room.json.k1ll3d.tmp").write_text("{")
    (out / f".{TRIPLES_FILE}.k1ll3d.tmp").write_text("half")
    summary = run_triples(list(ROOMS), out, recipe(), workers=1, show_progress=False)
    assert summary.existed == 1 and summary.rooms == 1
    assert tree(out) == tree(collection)


def test_stats_count_the_collection(collection: Path) -> None:
    stats = compute(collection)
    triples = triples_of(collection)
    assert stats["table1"]["raw"]["triples"] == len(triples)
    assert stats["table1"]["cleaned"]["triples"] == sum(t["kept"] for t in triples)
    assert stats["table1"]["raw"]["rooms"] == 2
    sets4 = contrast.load_sets(collection, contrast.SETS4_FILE)
    assert stats["table5"]["sets4"] == len(sets4)
    assert sum(stats["splits"]["objects"].values()) == len(sets4)
    assert sum(row["kept"] for row in stats["table2"].values()) == stats["table1"]["cleaned"]["triples"]
    text = "\n".join(render(stats))
    assert "Table 1" in text and "Table 7" in text
    assert "13958" in text and "4451" in text  # the paper's figures beside ours


def test_pushes_and_throws_move_objects_by_how_heavy_they_are(collection: Path) -> None:
    # issue 67: lite pushes and throws by force over mass, so distances differ from object to object
    triples = [t for t in triples_of(collection) if t["kept"]]
    for action in ("push", "throw"):
        moved = [t["moved_m"] for t in triples if t["action"] == action]
        assert moved and all(m > 0 for m in moved)
    pushes = {t["object_type"]: t["moved_m"] for t in triples if t["action"] == "push"}
    assert len(set(pushes.values())) > 1
    assert all(t["moved_m"] == 0 for t in triples if t["action"] in ("dirty", "fill", "toggle"))
    moved = compute(collection)["distances"]
    assert moved["push"]["triples"] == sum(t["action"] == "push" for t in triples)
    assert moved["push"]["min"] < moved["push"]["max"]


def test_contact_sheets_are_written_and_repeatable(collection: Path, tmp_path: Path) -> None:
    assert sheets_command(str(collection), str(tmp_path / "a"), n=2, seed=5, echo=lambda *a: None) == 0
    assert sheets_command(str(collection), str(tmp_path / "b"), n=2, seed=5, echo=lambda *a: None) == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(names) == 2 and all(n.endswith(".png") for n in names)
    assert not filecmp.dircmp(tmp_path / "a", tmp_path / "b").diff_files


def test_scene_lists() -> None:
    assert parse_scenes("1-3,LitePlan201") == ["LitePlan1", "LitePlan2", "LitePlan3", "LitePlan201"]
    assert parse_scenes(["7"], "alfred") == ["FloorPlan7"]
    assert len(parse_scenes(None)) == 120
    with pytest.raises(UserError) as error:
        parse_scenes("999")
    assert error.value.code == ExitCode.NOT_FOUND


@pytest.mark.parametrize("argv, code, words_in_message", [
    (["actthor", "contrast", "{empty}"], ExitCode.NOT_FOUND, "triples.jsonl"),
    (["actthor", "contrast", "{broken}"], ExitCode.BAD_INPUT, "not a triple record"),
    (["actthor", "stats", "{empty}"], ExitCode.NOT_FOUND, "triples.jsonl"),
    (["actthor", "sheets", "{empty}", "--out", "{empty}/s"], ExitCode.NOT_FOUND, "contrast"),
    (["actthor", "triples", "--scenes", "999", "--out", "{empty}/x"], ExitCode.NOT_FOUND, "unknown scene"),
    (["actthor", "contrast", "{broken}", "--held-out-objects", "Fridge"], ExitCode.NOT_FOUND, "Fridge"),
])
def test_bad_input_is_one_line_and_an_exit_code(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                 argv: list[str], code: ExitCode, words_in_message: str) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / TRIPLES_FILE).write_text('{"id": "x"}\n')
    args = [a.format(empty=empty, broken=broken) for a in argv]
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == code
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words_in_message in err and "Traceback" not in err


@pytest.mark.skipif(not os.environ.get("ACTTHOR_DATA"), reason="ACTTHOR_DATA (a full collection) is not set")
def test_every_set_of_a_full_collection_keeps_the_rules() -> None:
    """Run on the 120-room output: ACTTHOR_DATA=DIR after `actthor triples` and `actthor contrast`."""
    out = Path(os.environ["ACTTHOR_DATA"])
    info = json.loads((out / "contrast" / contrast.INFO_FILE).read_text())
    triples = contrast.load_triples(out)
    sets4 = contrast.load_sets(out, contrast.SETS4_FILE)
    sets3 = contrast.load_sets(out, contrast.SETS3_FILE)
    assert len(sets4) == info["sets4"] and len(sets3) == info["sets3"]
    assert contrast.violations(triples, sets4, sets3, info["held_out_objects"]) == []
