"""Shared fixtures: where the ALFRED reference data is, and the CLI run in this process.

Tests that need the real ALFRED data take the ``alfred_data`` fixture (``alfred_train`` for all the
train demos, found beside it). It skips when the
environment variable ALFRED_DATA is unset (a quick local run). It fails when ALFRED_DATA is set but
the data is missing, because CI sets it and a silent skip there would hide a broken checkout.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from alfred_gen.cli import main

#: Environment variables naming data directories; a relative value is made absolute at start-up.
DATA_VARIABLES = ("ALFRED_DATA", "ALFRED_TRAIN")


def pytest_configure(config: pytest.Config) -> None:
    """Make ``ALFRED_DATA`` (and ``ALFRED_TRAIN``) absolute before any test runs: tests that change
    directory, and the processes they start in another directory, must find the same data as the
    command line meant (``ALFRED_DATA=../shared/alfred`` as the README says CI sets it)."""
    for name in DATA_VARIABLES:
        value = os.environ.get(name)
        if value:
            os.environ[name] = str(Path(value).expanduser().resolve())


@pytest.fixture(scope="session")
def alfred_data() -> Path:
    """Path of $ALFRED_DATA (holding json_2.1.0/ and layouts/); skip if unset, fail if broken."""
    value = os.environ.get("ALFRED_DATA")
    if not value:
        pytest.skip("ALFRED_DATA is not set")
    root = Path(value)
    if not (root / "json_2.1.0").is_dir():
        pytest.fail(f"ALFRED_DATA={value} is set but {root / 'json_2.1.0'} is missing")
    return root


@pytest.fixture(scope="session")
def alfred_train(alfred_data: Path) -> Path:
    """ALFRED's 6,574 train demos without images (``../alfred-train`` beside $ALFRED_DATA, or
    $ALFRED_TRAIN); skip as ``alfred_data`` does, fail when set but missing."""
    root = Path(os.environ.get("ALFRED_TRAIN") or alfred_data.parent / "alfred-train")
    if not (root / "json_2.1.0").is_dir():
        pytest.fail(f"ALFRED_DATA is set but the train demos are missing: {root / 'json_2.1.0'}")
    return root


@pytest.fixture(scope="session")
def released_trajectory_files(alfred_data: Path) -> list[Path]:
    """Every released traj_data.json under $ALFRED_DATA/json_2.1.0, sorted."""
    files = sorted((alfred_data / "json_2.1.0").rglob("traj_data.json"))
    if not files:
        pytest.fail(f"no traj_data.json under {alfred_data / 'json_2.1.0'}")
    return files


@pytest.fixture(autouse=True)
def _no_imported_scene_catalogue(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests never see a developer's imported ALFRED scene catalogue (~/.cache/alfred-gen/...):
    FloorPlanN stays unknown unless a test imports or points at a catalogue itself."""
    from alfred_gen.scenes.alfred import catalogue_store

    catalogue_store.use_catalogue(None)
    monkeypatch.setenv(catalogue_store.ENV_VAR, str(tmp_path_factory.getbasetemp() / "no-scene-catalogue.json"))
    yield
    catalogue_store.use_catalogue(None)


@dataclass
class CliResult:
    """What a command run in this process returned and printed."""

    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def cli_in_process(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """Run the CLI in this process, as the console script does (exit code from SystemExit), so
    caches built by one call (rooms, houses) serve the next."""

    def invoke(*args: str) -> CliResult:
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as stop:
            code = int(stop.code or 0)
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke
