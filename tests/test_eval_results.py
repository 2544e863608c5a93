"""The results file every `eval` command resumes: same settings resume, other settings or another
command's file are refused with the table's codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.results import read_episodes, write_results


def test_a_results_file_resumes_only_with_the_settings_it_was_made_with(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    assert read_episodes(path, "fmt", "eval x", {"agent": "a"}) == {}  # nothing yet
    records = {"b#0": {"success": True}, "a#0": {"success": False}}
    write_results(path, "fmt", {"agent": "a", "mode": "mask"}, {"metrics": {"n": 2}}, records)
    assert list(json.loads(path.read_text())["episodes"]) == ["a#0", "b#0"]  # sorted: same bytes on resume
    assert read_episodes(path, "fmt", "eval x", {"agent": "a", "mode": "mask"}) == records
    with pytest.raises(UserError) as other:
        read_episodes(path, "fmt", "eval x", {"agent": "a", "mode": "object_id"})
    assert other.value.code == ExitCode.USAGE and "choose another --out" in str(other.value)
    with pytest.raises(UserError) as foreign:
        read_episodes(path, "other-fmt", "eval y", {"agent": "a"})
    assert foreign.value.code == ExitCode.BAD_INPUT and "eval y" in str(foreign.value)
    path.write_text("{not json")
    with pytest.raises(UserError) as broken:
        read_episodes(path, "fmt", "eval x", {"agent": "a"})
    assert broken.value.code == ExitCode.BAD_INPUT


def test_a_setting_older_files_did_not_record_takes_its_old_value(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"format": "fmt", "agent": "a", "episodes": {"k": {}}}))
    assert read_episodes(path, "fmt", "eval x", {"agent": "a", "language": []}, absent={"language": []}) == {"k": {}}
    with pytest.raises(UserError):
        read_episodes(path, "fmt", "eval x", {"agent": "a", "language": ["e1"]}, absent={"language": []})
