"""`alfred-gen derive` on released ALFRED demos, in rooms imported with `scenes import-alfred`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alfred_gen.derive.outcomes import DERIVE_NOT_APPLICABLE, DeriveReason
from alfred_gen.derive.run import derive_command
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.alfred import catalogue_store
from alfred_gen.scenes.alfred.importer import import_alfred
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

#: One released demo of each of these task types (the first in path order).
TASK_TYPES = ("pick_heat_then_place_in_recep", "pick_two_obj_and_place", "look_at_obj_in_light")


@pytest.fixture(scope="module")
def released(alfred_data: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path], Path]:
    catalogue = tmp_path_factory.mktemp("catalogue") / "alfred.json"
    import_alfred(alfred_data, catalogue)
    files = sorted((alfred_data / "json_2.1.0").rglob(TRAJ_FILE_NAME))
    picked = [next(p for p in files if p.parent.parent.name.startswith(t + "-")) for t in TASK_TYPES]
    sources = tmp_path_factory.mktemp("released")
    for path in picked:  # a directory holding only these (links, nothing copied)
        target = sources / path.parent.parent.name / path.parent.name
        target.mkdir(parents=True)
        (target / TRAJ_FILE_NAME).symlink_to(path)
    return catalogue, picked, sources


@pytest.mark.parametrize("variant", ["nav-only", "rev-1"])
def test_released_demos_give_vetted_derived_demos_with_every_annotation(released, tmp_path: Path, variant: str) -> None:
    catalogue, picked, sources = released
    catalogue_store.use_catalogue(catalogue)
    lines: list[str] = []
    derive_command(variant, [str(sources)], str(tmp_path), simulator=simulator(), echo=lines.append,
                   show_progress=False, jobs=2)
    skipped = {line.split(": ")[1] for line in lines[:-1]}
    assert skipped <= {str(r) for r in DERIVE_NOT_APPLICABLE | {DeriveReason.SOURCE_DOES_NOT_REPLAY}}, lines
    made = sorted(tmp_path.rglob(TRAJ_FILE_NAME))
    assert len(made) >= (3 if variant == "nav-only" else 1), lines
    for path in made:
        derived = load_trajectory(path)
        source = json.loads(next(p for p in picked if p.parent.name == path.parent.name).read_text())
        assert vet_trajectory(derived, controller_factory=simulator().open).ok
        kept = derived["derived_from"]["source_high_idx"]
        for new, old in zip(derived["turk_annotations"]["anns"], source["turk_annotations"]["anns"], strict=True):
            assert new["source_task_desc"] == old["task_desc"]
            assert [line for line, k in zip(new["high_descs"], kept) if k is not None] == [
                old["high_descs"][k] for k in kept if k is not None]
