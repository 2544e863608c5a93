"""A task type added as data only: an entry in a registry file (``$ALFRED_GEN_TASKS``), with no code
change, is sampled, planned, replayed and its goal conditions counted (issue 65, item 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alfred_gen.domains.tasks import ENV_VAR, get_task_type, task_type_names
from alfred_gen.errors import ExitCode, UserError

NEW = "pick_clean_then_cool_then_place_in_recep"

#: The whole task type: slots, rooms, tools, the PDDL goal and ALFRED-style goal conditions.
ENTRY = {
    "task_types": {
        NEW: {
            "description": "Wash an object, cool it in a fridge, then put it in or on a receptacle.",
            "slots": ["object", "parent"],
            "room_types": ["kitchen"],
            "slice_variant": False,
            "tools": ["canClean", "canCool"],
            "goal": {
                "parameters": [["?o", "item"], ["?r", "thing"]],
                "precondition": ["(isType ?o {object})", "(isType ?r {parent})", "(isClean ?o)", "(isCool ?o)",
                                 "(inReceptacle ?o ?r)"],
                "sliced": [],
            },
            "conditions": [
                {"test": "inside", "what": "object", "into": "parent"},
                {"test": "changed", "effect": "cleaned", "what": "object"},
                {"test": "changed", "effect": "cooled", "what": "object"},
                {"test": "changed_inside", "effect": "cooled", "what": "object", "into": "parent"},
            ],
        }
    }
}


@pytest.fixture
def registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "more-tasks.json"
    path.write_text(json.dumps(ENTRY), encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(path))
    return path


def test_the_packaged_registry_does_not_know_the_new_type() -> None:
    assert NEW not in task_type_names()


def test_a_registry_file_adds_a_task_type_to_the_domain(registry: Path) -> None:
    from alfred_gen.planner.domain import domain_text

    assert task_type_names()[-1] == NEW and len(task_type_names()) == 8
    assert f"(:action {get_task_type(NEW).goal_action_name()}" in domain_text()


def test_an_added_task_type_is_sampled_planned_replayed_and_counted(registry: Path, tmp_path: Path) -> None:
    from alfred_gen.replay.goals import goal_conditions, task_from_trajectory
    from alfred_gen.replay.restore import restore_trajectory
    from alfred_gen.replay.vet import vet_trajectory
    from alfred_gen.sample.run import sample_command
    from alfred_gen.scenes.library import simulator
    from alfred_gen.traj.format import load_trajectory

    out = tmp_path / "out"
    lines: list[str] = []
    code = sample_command(n=1, out=str(out), seed=1, workers=1, task_types=NEW, scenes="1-2", demos_per_task=1,
                          frames=False, echo=lambda *a, **k: lines.append(" ".join(map(str, a))), progress=False)
    assert code == ExitCode.OK, lines
    files = sorted(out.rglob("traj_data.json"))
    assert len(files) == 1 and files[0].parent.parent.name.startswith(f"{NEW}-")
    traj = load_trajectory(files[0])
    assert traj["task_type"] == NEW
    assert traj["scene"]["dirty_and_empty"] is True, "a goal asking for a cleaned object starts dirty"
    steps = [step["discrete_action"]["action"] for step in traj["plan"]["high_pddl"]]
    assert "CleanObject" in steps and "CoolObject" in steps

    lite = simulator("lite", {})
    verdict = vet_trajectory(traj, controller_factory=lite.open, check_schema=True)
    assert verdict.ok, verdict.describe()
    assert (verdict.goal.satisfied, verdict.goal.total) == (4, 4)

    task = task_from_trajectory(traj)
    start = restore_trajectory(lite.open(), traj)
    counted = goal_conditions(task, start.metadata, start_metadata=start.metadata)
    obj, parent = task.object_target, task.parent_target
    assert (counted.satisfied, counted.total) == (0, 4)
    assert counted.missing == [f"{obj} in/on {parent}", f"{obj} cleaned", f"{obj} cooled",
                               f"the cooled {obj} in/on {parent}"]


def test_a_malformed_registry_file_is_one_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = json.loads(json.dumps(ENTRY))
    bad["task_types"][NEW]["conditions"] = [{"test": "juggled", "what": "object"}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(path))
    with pytest.raises(UserError) as caught:
        task_type_names()
    assert caught.value.code == ExitCode.BAD_INPUT and "juggled" in str(caught.value)
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing.json"))
    with pytest.raises(UserError) as missing:
        task_type_names()
    assert missing.value.code == ExitCode.NOT_FOUND


def test_a_type_whose_goal_asks_for_a_cleaned_object_starts_dirty_as_alfred_sets_clean_tasks_up(
        registry: Path) -> None:
    """``dirty_and_empty`` in the scene block follows the goal conditions, not a task type's name."""
    starts_dirty = {name for name in task_type_names() if get_task_type(name).starts_dirty}
    assert starts_dirty == {"pick_clean_then_place_in_recep", NEW}
