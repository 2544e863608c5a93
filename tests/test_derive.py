"""ALFRED-L's derived tasks (alfred_gen.derive): the reversal rule, choosing destinations, the
success threshold, and `alfred-gen derive` end to end on a source in the fixture kitchen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from alfred_gen.cli import main
from alfred_gen.derive.outcomes import DeriveReason
from alfred_gen.derive.reverse import NotReversibleError, reverse_action_names, reverse_low_actions
from alfred_gen.derive.run import DeriveOptions, derive_command
from alfred_gen.derive.source import Destination, choose_destinations, destinations_of, subgoals_of
from alfred_gen.derive.variants import NotApplicable, Variant, derived_language, nav_only, walk_back
from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.replay.goals import (
    PositionGoal,
    TrajectoryGoal,
    trajectory_goal,
    trajectory_goal_status,
    within_threshold,
)
from alfred_gen.replay.vet import vet_trajectory
from alfred_gen.scenes.library import simulator
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory
from tests.helpers.derive_sources import ANNOTATIONS, END_XZ, MICROWAVE_XZ, walk_source, write_source

#: Minutes of generation, real data or subprocesses: outside the fast lane (README "Tests").
pytestmark = pytest.mark.slow

TASK = TaskSpec("pick_heat_then_place_in_recep", "Mug", "CounterTop")


def _entry(name: str, discrete: str | None = None, **args) -> dict:
    return {"high_idx": 0, "api_action": {"action": name, **args},
            "discrete_action": {"action": discrete or name, "args": {}}}


# --- the reversal rule --------------------------------------------------------------------------
def test_reversal_rule_on_the_papers_example() -> None:
    forward = ["MoveAhead", "MoveAhead", "PickupObject", "RotateLeft", "MoveAhead", "LookDown"]
    assert reverse_action_names(forward) == [
        "RotateRight", "RotateRight", "LookUp", "MoveAhead", "RotateRight", "MoveAhead", "MoveAhead"]


def test_reversal_of_recorded_entries_keeps_their_arguments_and_swaps_discrete_names() -> None:
    entries = [
        _entry("MoveAhead", "MoveAhead_25", forceAction=True, moveMagnitude=0.25),
        _entry("PickupObject", objectId="Apple|+01.00|+00.90|+00.50"),
        _entry("RotateLeft", "RotateLeft_90", forceAction=True),
        _entry("LookDown", "LookDown_15", forceAction=True),
    ]
    back = reverse_low_actions(entries, 7)
    assert [(a.api_action["action"], a.discrete) for a in back] == [
        ("RotateRight", "RotateRight_90"), ("RotateRight", "RotateRight_90"), ("LookUp", "LookUp_15"),
        ("RotateRight", "RotateRight_90"), ("MoveAhead", "MoveAhead_25")]
    assert back[-1].api_action == {"action": "MoveAhead", "forceAction": True, "moveMagnitude": 0.25}
    assert all(a.high_idx == 7 and a.target == "" for a in back)
    assert entries[2]["api_action"]["action"] == "RotateLeft"  # the source is not changed
    further = reverse_low_actions(entries[2:], 8, turn_around=False)  # a second walk back: no half turn
    assert [a.api_action["action"] for a in further] == ["LookUp", "RotateRight"]


def test_reversal_refuses_a_teleport() -> None:
    with pytest.raises(NotReversibleError):
        reverse_action_names(["MoveAhead", "TeleportFull"])
    with pytest.raises(NotReversibleError):
        reverse_low_actions([_entry("Teleport", x=1.0)], 0)


def test_reversal_walks_the_agent_back_to_where_it_was_facing_the_other_way() -> None:
    """The rule on the fixture kitchen: after the walk to the microwave and its reversal the agent
    stands where it started that walk, turned round, with the camera tilted as it was."""
    from alfred_gen.replay.restore import restore_scene

    traj = walk_source()
    walk = [low for low in traj["plan"]["low_actions"] if low["high_idx"] == 1]
    controller = simulator().open()
    event = restore_scene(controller, traj["scene"])
    before = event.metadata["agent"]
    for entry in [*walk, *[{"api_action": a.api_action} for a in reverse_low_actions(walk, 0)]]:
        event = controller.step(dict(entry["api_action"]))
        assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    after = event.metadata["agent"]
    assert after["position"] == before["position"]
    assert after["rotation"]["y"] == (before["rotation"]["y"] + 180) % 360
    assert after["cameraHorizon"] == before["cameraHorizon"]


# --- the success threshold ----------------------------------------------------------------------
def test_success_threshold_includes_five_steps_and_nothing_beyond() -> None:
    assert within_threshold(5 * 0.25, 1.25)
    assert within_threshold(1.25 + 1e-9, 1.25)  # float noise of a simulator position
    assert not within_threshold(1.26, 1.25)
    assert within_threshold(0.5, 0.5) and not within_threshold(0.75, 0.5)  # the paper's 0.5 m


def test_position_goal_counts_as_one_condition_beside_the_task_or_alone() -> None:
    goal = PositionGoal(1.0, -2.0, 1.25)
    at = {"agent": {"position": {"x": 1.0, "y": 0.9, "z": -0.75}}, "objects": []}  # 1.25 m away
    away = {"agent": {"position": {"x": 2.5, "y": 0.9, "z": -2.0}}, "objects": []}  # 1.5 m away
    alone = TrajectoryGoal(task_conditions=False, position=goal)
    assert trajectory_goal_status(alone, TASK, at).done
    status = trajectory_goal_status(alone, TASK, away)
    assert (status.satisfied, status.total) == (0, 1) and "1.50 m away" in status.missing[0]
    with_task = trajectory_goal_status(TrajectoryGoal(True, goal), TASK, at)
    assert (with_task.satisfied, with_task.total) == (1, 4)  # the heat task's 3 conditions fail here


def test_goal_block_is_read_from_the_trajectory_and_checked() -> None:
    assert trajectory_goal({}) == TrajectoryGoal(True, None)
    block = {"goal": {"task_conditions": False, "agent_position": {"x": 1, "z": 2, "within": 0.5}}}
    assert trajectory_goal(block) == TrajectoryGoal(False, PositionGoal(1.0, 2.0, 0.5))
    for bad in ({"task_conditions": "no"}, {"task_conditions": True, "agent_position": {"x": 1}}):
        with pytest.raises(UserError) as caught:
            trajectory_goal({"goal": bad})
        assert caught.value.code == ExitCode.BAD_INPUT


def test_vet_checks_a_stored_position_goal() -> None:
    traj = walk_source()
    open_lite = simulator().open
    traj["goal"] = {"task_conditions": True, "agent_position": {"x": END_XZ[0], "z": END_XZ[1], "within": 1.25}}
    result = vet_trajectory(traj, controller_factory=open_lite)
    assert result.ok and (result.goal.satisfied, result.goal.total) == (4, 4)
    traj["goal"]["agent_position"] = {"x": MICROWAVE_XZ[0], "z": MICROWAVE_XZ[1], "within": 1.25}
    result = vet_trajectory(traj, controller_factory=open_lite)
    assert not result.ok and result.reason == "goal_unsatisfied" and "agent within" in result.error


# --- destinations and plans ---------------------------------------------------------------------
def _poses(traj: dict) -> list:
    poses: dict[int, tuple] = {}

    def seen(low_idx, api_action, event) -> None:
        agent = event.metadata["agent"]
        poses[low_idx] = (agent["position"]["x"], agent["position"]["z"], agent["rotation"]["y"],
                          agent["cameraHorizon"])

    assert vet_trajectory(traj, controller_factory=simulator().open, on_step=seen).ok
    return [poses[i] for i in range(len(poses))]


def test_destinations_are_where_walks_end() -> None:
    traj = walk_source()
    destinations = destinations_of(subgoals_of(traj), _poses(traj))
    assert [(d.high_idx, d.args, d.pose[:2]) for d in destinations] == [
        (1, ("microwave",), MICROWAVE_XZ), (3, ("countertop",), END_XZ)]


def _dest(high_idx: int, x: float) -> Destination:
    return Destination(high_idx, ("sinkbasin",), (x, 0.0, 0.0, 30.0), high_idx)


def test_choose_destinations_goes_back_in_time_and_skips_near_ones() -> None:
    walks = [_dest(0, 5.0), _dest(2, 1.0), _dest(4, 3.0), _dest(6, 0.0)]
    final = (0.0, 0.0, 0.0, 30.0)
    assert [d.high_idx for d in choose_destinations(walks, final, 1, 1.25)] == [4]
    # the walk at x=1.0 is within 1.25 m of the end: standing still would pass, so it is skipped
    assert [d.high_idx for d in choose_destinations(walks, final, 2, 1.25)] == [4, 0]
    assert [d.high_idx for d in choose_destinations(walks, final, 3, 0.5)] == [4, 2, 0]
    assert choose_destinations(walks, final, 3, 1.25) is None
    assert choose_destinations(walks, final, 1, 5.0) is None
    assert [d.high_idx for d in choose_destinations(walks, final, 1, 4.0)] == [0]


def test_rev_n_walks_back_to_destinations_near_each_other_but_not_to_the_same_spot() -> None:
    # issue 67: ALFRED-L's REV-n share (28.3% of NAV-ONLY) needs destinations that are far from the
    # end only; the rule before it also wanted them far from each other (14.7% on ALFRED's demos)
    final = (0.0, 0.0, 0.0, 30.0)
    near_each_other = [_dest(0, 3.0), _dest(2, 3.5), _dest(4, 0.25)]
    assert [d.high_idx for d in choose_destinations(near_each_other, final, 2, 1.25)] == [2, 0]
    same_spot = [_dest(0, 3.0), _dest(2, 3.0), _dest(4, 0.25)]
    assert choose_destinations(same_spot, final, 2, 1.25) is None
    later = same_spot + [_dest(6, 4.0)]
    assert [d.high_idx for d in choose_destinations(later, final, 2, 1.25)] == [6, 2]
    assert choose_destinations(later, final, 3, 1.25) is None  # the walk at 0 stands where 2 does


def test_nav_only_keeps_walks_and_their_instructions() -> None:
    traj = walk_source()
    plan = nav_only(traj)
    assert [s.source_high_idx for s in plan.subgoals] == [1, 3] and not plan.task_conditions
    assert [a.api_action["action"] for a in plan.subgoals[0].actions][:2] == ["RotateLeft", "MoveAhead"]
    template, anns = derived_language(traj, plan, TASK)
    assert anns["anns"][0]["high_descs"] == [ANNOTATIONS[0]["high_descs"][1], ANNOTATIONS[0]["high_descs"][3]]
    assert anns["anns"][0]["source_task_desc"] == ANNOTATIONS[0]["task_desc"]
    assert anns["anns"][0]["task_desc"].endswith(" the counter.")  # the goal is the last destination
    assert template["high_descs"] == ["Template step 1.", "Template step 3."]


def test_nav_only_without_a_walk_is_not_applicable() -> None:
    traj = walk_source()
    traj["plan"]["high_pddl"] = [h for h in traj["plan"]["high_pddl"]
                                 if h["discrete_action"]["action"] != "GotoLocation"]
    with pytest.raises(NotApplicable) as caught:
        nav_only(traj)
    assert caught.value.reason == DeriveReason.NO_NAVIGATION


def test_rev_1_appends_the_reversed_walk_and_its_instruction() -> None:
    traj = walk_source()
    plan = walk_back(traj, _poses(traj), 1)
    assert [s.source_high_idx for s in plan.subgoals] == [0, 1, 2, 3, 4, None]
    back = plan.subgoals[-1]
    assert back.target.high_idx == 1
    expected = reverse_low_actions([low for low in traj["plan"]["low_actions"] if low["high_idx"] in (2, 3, 4)], 0)
    assert [a.api_action for a in back.actions] == [a.api_action for a in expected]
    template, anns = derived_language(traj, plan, TASK)
    line = back.instruction
    assert line.endswith("the microwave.") and all(ann["high_descs"][-1] == line for ann in anns["anns"])
    assert anns["anns"][1]["task_desc"] == f"{ANNOTATIONS[1]['task_desc']} Then {line[0].lower()}{line[1:]}"
    assert template["high_descs"][-1] == line


def test_rev_is_not_applicable_without_an_earlier_destination_beyond_the_threshold() -> None:
    traj = walk_source()
    poses = _poses(traj)
    with pytest.raises(NotApplicable) as caught:
        walk_back(traj, poses, 1, threshold=2.5)  # the microwave is 2 m from the end
    assert caught.value.reason == DeriveReason.NO_EARLIER_DESTINATION
    with pytest.raises(NotApplicable):
        walk_back(traj, poses, 2, variant=Variant.REV_N)  # the microwave is the only one


def test_misaligned_annotation_is_reported() -> None:
    from alfred_gen.derive.variants import MisalignedAnnotation

    traj = walk_source()
    traj["turk_annotations"]["anns"][1]["high_descs"].pop()
    with pytest.raises(MisalignedAnnotation, match="annotation 1 has 4 step instructions for 5 subgoals"):
        derived_language(traj, nav_only(traj), TASK)


def test_options_are_checked() -> None:
    for bad in (dict(reverse="teleport"), dict(threshold=0.0), dict(variant=Variant.REV_N, n_back=1)):
        with pytest.raises(UserError) as caught:
            DeriveOptions(**{"variant": Variant.REV_1, **bad})
        assert caught.value.code == ExitCode.USAGE


# --- alfred-gen derive ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("sources")
    write_source(root)
    return root


def _derive(variant: str, sources: Path, out: Path, **options) -> tuple[int, list[str]]:
    lines: list[str] = []
    code = derive_command(variant, [str(sources)], str(out), simulator=simulator(), echo=lines.append,
                          show_progress=False, **options)
    return code, lines


def _only(out: Path) -> Path:
    (path,) = sorted(out.rglob(TRAJ_FILE_NAME))
    return path


@pytest.mark.parametrize("variant, reverse", [("nav-only", "replay"), ("rev-1", "replay"), ("rev-1", "shortest")])
def test_derive_writes_a_vetted_rendered_trajectory(sources: Path, tmp_path: Path, variant: str, reverse: str) -> None:
    code, lines = _derive(variant, sources, tmp_path, reverse=reverse)
    assert code == ExitCode.OK and lines[-1].startswith("derived 1, skipped 0"), lines
    path = _only(tmp_path)
    traj = load_trajectory(path)
    assert path.parent.name == "trial_T20000101_000000_000001"
    assert traj["derived_from"]["variant"] == variant and traj["derived_from"]["task_id"] == path.parent.name
    frames = sorted((path.parent / "raw_images").iterdir())
    assert len(frames) == len(traj["images"]) + 1 == len(traj["plan"]["low_actions"]) + 1  # + the unlisted final
    position = traj["goal"]["agent_position"]
    assert (position["x"], position["z"]) == (END_XZ if variant == "nav-only" else MICROWAVE_XZ)
    assert traj["goal"]["task_conditions"] == (variant != "nav-only")
    verdict = vet_trajectory(traj, controller_factory=simulator().open)
    assert verdict.ok and verdict.goal.total == (1 if variant == "nav-only" else 4)
    lows = traj["plan"]["low_actions"]
    if variant == "nav-only":
        assert all(low["api_action"]["action"] in ("MoveAhead", "RotateLeft", "RotateRight", "LookUp", "LookDown")
                   for low in lows)
    else:
        masks = [low for low in lows if low["discrete_action"]["args"]]
        assert len(masks) == 10  # every interaction's mask taken again from the new frames
        assert traj["plan"]["high_pddl"][-2]["discrete_action"] == {"action": "GotoLocation", "args": ["microwave"]}


def test_derive_is_deterministic_and_resumable(sources: Path, tmp_path: Path) -> None:
    _derive("rev-1", sources, tmp_path / "a")
    _derive("rev-1", sources, tmp_path / "b", jobs=2)
    a, b = _only(tmp_path / "a"), _only(tmp_path / "b")
    assert a.read_bytes() == b.read_bytes()
    assert [f.read_bytes() for f in sorted((a.parent / "raw_images").iterdir())] == [
        f.read_bytes() for f in sorted((b.parent / "raw_images").iterdir())]
    code, lines = _derive("rev-1", sources, tmp_path / "a")  # again: nothing to do
    assert code == ExitCode.OK and lines[-1].startswith("derived 0, skipped 1: already_derived 1")
    assert not [p for p in (tmp_path / "a").iterdir() if p.name.startswith(".")]  # no leftovers


def test_derive_skips_with_reasons_and_fails_only_for_bad_sources(sources: Path, tmp_path: Path) -> None:
    code, lines = _derive("rev-n", sources, tmp_path / "n")
    assert code == ExitCode.OK and "no_earlier_destination: fewer than 2 earlier destinations" in lines[0]
    assert lines[-1].startswith("derived 0, skipped 1: no_earlier_destination 1")
    code, lines = _derive("rev-1", sources, tmp_path / "t", threshold=2.5)
    assert code == ExitCode.OK and "no earlier destination more than 2.5 m from the end" in lines[0]
    bad = tmp_path / "bad" / "x" / "trial_T1"
    bad.mkdir(parents=True)
    (bad / TRAJ_FILE_NAME).write_text('{"task_id": ')
    code, lines = _derive("nav-only", bad.parent.parent, tmp_path / "o")
    assert code == ExitCode.FAILED and ": bad_source: " in lines[0] and "truncated" in lines[0]
    assert not (tmp_path / "o").exists() or not list((tmp_path / "o").rglob(TRAJ_FILE_NAME))


def test_a_source_that_does_not_replay_is_skipped_with_the_reason(tmp_path: Path) -> None:
    traj = walk_source()
    del traj["plan"]["low_actions"][0]  # never picks the mug up: the PutObject fails
    from tests.helpers.scripted import images_index

    traj["images"] = images_index(traj["plan"]["low_actions"])
    write_source(tmp_path / "src", traj)
    code, lines = _derive("nav-only", tmp_path / "src", tmp_path / "out")
    assert code == ExitCode.FAILED and ": source_does_not_replay: action_failed: " in lines[0]


def test_derived_trajectories_are_not_derived_again(sources: Path, tmp_path: Path) -> None:
    _derive("nav-only", sources, tmp_path / "nav")
    code, lines = _derive("rev-1", tmp_path / "nav", tmp_path / "rev")
    assert code == ExitCode.FAILED and "already derived (nav-only)" in lines[0]


def test_cli_derive_then_verify_and_replay(sources: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "rev"
    with pytest.raises(SystemExit) as stopped:
        main(["derive", "rev-1", str(sources), "--out", str(out), "--reverse", "shortest"])
    assert stopped.value.code == ExitCode.OK
    with pytest.raises(SystemExit) as stopped:
        main(["verify", str(out)])
    assert stopped.value.code == ExitCode.OK and "1 ok, 0 failed" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["replay", str(_only(out)), "--out", str(tmp_path / "frames")])
    assert stopped.value.code == ExitCode.OK and "goal: 4/4 goal conditions" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stopped:
        main(["derive", "rev-n", str(sources), "--out", str(out), "--n-back", "1"])
    assert stopped.value.code == ExitCode.USAGE


def test_a_broken_position_goal_fails_verify(sources: Path, tmp_path: Path) -> None:
    _derive("nav-only", sources, tmp_path)
    path = _only(tmp_path)
    traj = json.loads(path.read_text())
    traj["goal"]["agent_position"]["x"] += 2.0
    path.write_text(json.dumps(traj))
    with pytest.raises(SystemExit) as stopped:
        main(["verify", str(tmp_path)])
    assert stopped.value.code == ExitCode.FAILED

