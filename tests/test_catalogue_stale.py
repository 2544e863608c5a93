"""A scene catalogue says which importer made it, and reading one made by other importer code
says so once, on stderr: its rooms still load, but lack what the importer learnt since."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from alfred_gen.scenes.alfred import catalogue_store


@pytest.fixture
def fresh_run(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv(catalogue_store.WARNED_VAR, raising=False)
    yield
    catalogue_store.use_catalogue(None)


def _catalogue_at(path: Path, importer: str | None) -> Path:
    data = catalogue_store.empty_catalogue({"alfred_dir": "x"})
    if importer is None:
        del data["source"]["importer"]
    else:
        data["source"]["importer"] = importer
    catalogue_store.write_catalogue(path, data)
    return path


def test_a_new_catalogue_is_stamped_with_this_importer() -> None:
    data = catalogue_store.empty_catalogue({"alfred_dir": "x"})
    assert data["source"] == {"alfred_dir": "x", "importer": catalogue_store.importer_fingerprint()}
    assert catalogue_store.stale_reason(data) is None


@pytest.mark.parametrize("importer, says", [(None, "earlier version"), ("0123456789abcdef", "0123456789abcdef")])
def test_a_catalogue_from_other_importer_code_is_reported_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fresh_run: None, importer: str | None, says: str) -> None:
    path = _catalogue_at(tmp_path / "old.json", importer)
    catalogue_store.use_catalogue(path)
    assert catalogue_store.load_active() is not None
    assert catalogue_store.load_active() is not None
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert str(path) in lines[0] and says in lines[0] and "import-alfred" in lines[0]


def test_a_catalogue_of_this_importer_is_read_quietly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fresh_run: None) -> None:
    path = _catalogue_at(tmp_path / "new.json", catalogue_store.importer_fingerprint())
    catalogue_store.use_catalogue(path)
    assert catalogue_store.load_active() is not None
    assert capsys.readouterr().err == ""
