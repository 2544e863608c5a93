"""Shared fixtures: where the ALFRED reference data is.

Tests that need the real ALFRED data take the ``alfred_data`` fixture (``alfred_train`` for all the
train demos, found beside it). It skips when the
environment variable ALFRED_DATA is unset (a quick local run). It fails when ALFRED_DATA is set but
the data is missing, because CI sets it and a silent skip there would hide a broken checkout.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


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
