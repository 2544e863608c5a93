"""A demonstration recorded in THOR is vetted in THOR: a second THOR controller of the same build and
options replays the written file from scratch, and a failure there discards the trial.

No Unity here: both THOR controllers are the real :class:`~alfred_gen.sim.thor.ThorController`
(ALFRED's 2.1.0 adapter profile) over a stand-in for ai2thor's controller that answers from a lite
world of a fixture kitchen named ``FloorPlan1``. So the recording, the adapter and the vet run
through the thor backend's code, and the stand-ins record which controller saw which calls.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from alfred_gen.demo.generate import backend_of, generate_trajectory
from alfred_gen.domains.tasks import make_task
from alfred_gen.errors import GenerationReason
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.jobs import Job
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.workers import JobContext, run_job
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim import fixtures
from alfred_gen.sim.controller import Simulator
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.thor import ThorController, ThorLaunch
from alfred_gen.traj.format import TRAJ_FILE_NAME, load_trajectory

ROOM = dataclasses.replace(fixtures.kitchen(), name="FloorPlan1", scene_num=1)
TASK = make_task("pick_and_place_simple", "Apple", "CounterTop", "", "", False)


class LiteBehindThor:
    """Stands in for ``ai2thor.controller.Controller``: answers from a lite world, records calls.
    ``fail`` names an action it refuses (as THOR refuses an invalid one)."""

    def __init__(self, launch: ThorLaunch, render: bool, fail: str = "") -> None:
        self.launch = launch
        self.fail = fail
        self.calls: list[Any] = []
        self.lite = LiteController(scene_lookup=SceneLibrary(extra=(ROOM,)), render_image=render,
                                   render_object_image=render)
        self.last_event = None

    def reset(self, scene: str) -> Any:
        self.calls.append(("reset", scene))
        self.last_event = self.lite.reset(scene)
        return self.last_event

    def step(self, action: dict[str, Any]) -> Any:
        self.calls.append(dict(action))
        if action["action"] == self.fail:
            raise ValueError(f"Invalid action: {self.fail}")
        self.last_event = self.lite.step(dict(action))
        return self.last_event

    def stop(self) -> None:
        pass


def thor_factory(render: bool, fail: str = "") -> tuple[Any, list[LiteBehindThor]]:
    made: list[LiteBehindThor] = []

    def factory(launch: ThorLaunch) -> LiteBehindThor:
        made.append(LiteBehindThor(launch, render, fail))
        return made[-1]

    return factory, made


def recording_thor() -> tuple[ThorController, list[LiteBehindThor]]:
    factory, made = thor_factory(render=True)
    return ThorController(version="2.1.0", controller_factory=factory, render_seg=True), made


def replayed_actions(calls: list[Any]) -> list[str]:
    """The actions a controller was sent after its last scene setup (``SetObjectPoses`` and the start
    ``TeleportFull``), without the teleports ALFRED's 2.1.0 adapter turns 15-degree looks into."""
    start = max(i for i, call in enumerate(calls) if isinstance(call, dict) and call["action"] == "SetObjectPoses")
    return [call["action"] for call in calls[start + 2:] if isinstance(call, dict) and call["action"] != "TeleportFull"]


def moves_and_interactions(traj: dict[str, Any]) -> list[str]:
    looks = {"LookUp", "LookDown", "TeleportFull"}
    names = [low["api_action"]["action"] for low in traj["plan"]["low_actions"]]
    return [name for name in names if name not in looks]


def test_a_thor_recording_is_not_vetted_in_lite_by_default(tmp_path: Path) -> None:
    recorder, _ = recording_thor()
    assert backend_of(recorder)[0] == "thor"
    with pytest.raises(ValueError, match="vetted in THOR"):
        generate_trajectory(TASK, ROOM, 0, tmp_path, "trial_T1", controller=recorder)


def test_the_vetting_controller_is_a_fresh_thor_one_that_replays_the_written_file(tmp_path: Path) -> None:
    recorder, recording = recording_thor()
    factory, vetting = thor_factory(render=False)
    simulator = Simulator("thor", {"controller_factory": factory, "version": "2.1.0"})
    result = generate_trajectory(TASK, ROOM, 0, tmp_path, "trial_T1", controller=recorder, simulator=simulator,
                                 time_limit=30)
    assert result.ok, result.describe()
    traj = load_trajectory(result.path / TRAJ_FILE_NAME)
    assert traj["generator"]["backend"] == "thor"
    # One THOR controller recorded, another (made for the vet) replayed the file from a reset.
    assert len(recording) == 1 and len(vetting) == 1 and vetting[0] is not recording[0]
    assert vetting[0].calls[0] == ("reset", "FloorPlan1")
    assert replayed_actions(vetting[0].calls) == moves_and_interactions(traj)


def _context(tmp_path: Path, fail: str = "") -> tuple[JobContext, list[LiteBehindThor], list[LiteBehindThor]]:
    recorder, recording = recording_thor()
    factory, vetting = thor_factory(render=False, fail=fail)
    options = SampleOptions(n=2, out=str(tmp_path), backend="thor", scene_set="alfred",
                            backend_options=(("controller_factory", factory), ("version", "2.1.0")))

    def generate(task: Any, scene: Any, *args: Any, **kwargs: Any) -> Any:
        assert scene == "FloorPlan1"  # the THOR room's name, which the stand-in builds from the fixture
        return generate_trajectory(task, ROOM, *args, time_limit=30, **kwargs)

    return JobContext(generate, str(tmp_path), options, controller_factory=lambda: recorder), recording, vetting


def _job(index: int, seed: int) -> Job:
    task = TaskTuple("pick_and_place_simple", 1, "Apple", "CounterTop")
    return Job(index, index, 0, task, 0, seed, f"trial_T{index}")


@pytest.mark.slow  # fast lane: 10 s on a loaded 2-core machine (session 73 --durations)
def test_a_sample_worker_with_the_thor_backend_vets_in_its_own_thor_controller(tmp_path: Path) -> None:
    context, recording, vetting = _context(tmp_path)
    outcomes = [run_job(_job(i, seed), context) for i, seed in enumerate((0, 1))]
    assert [o.ok for o in outcomes] == [True, True], outcomes
    # The worker keeps one vetting controller beside the recording one; every vet starts with a reset.
    assert len(recording) == 1 and len(vetting) == 1 and vetting[0] is not recording[0]
    assert [call for call in vetting[0].calls if isinstance(call, tuple)] == [("reset", "FloorPlan1")] * 2
    assert len(list(tmp_path.rglob(TRAJ_FILE_NAME))) == 2


def test_a_thor_vet_failure_discards_the_trial(tmp_path: Path) -> None:
    context, recording, vetting = _context(tmp_path, fail="PickupObject")
    outcome = run_job(_job(0, 0), context)
    assert not outcome.ok and outcome.reason == GenerationReason.VET_FAILED, outcome
    assert "PickupObject" in outcome.detail
    # Recorded fine in the recording controller, refused in the vetting one: nothing is kept.
    assert any(isinstance(c, dict) and c["action"] == "PickupObject" for c in recording[0].calls)
    assert any(isinstance(c, dict) and c["action"] == "PickupObject" for c in vetting[0].calls)
    assert not list(tmp_path.rglob(TRAJ_FILE_NAME))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tmp")]
