"""One trajectory, end to end: spawn, plan, expand, record, vet, write.

:func:`generate_trajectory` is what the task sampler calls for each (task, scene, seed). It never
leaves a half-written trajectory: everything is recorded into a hidden temporary directory inside
``out_root`` and renamed into ALFRED's layout only after the file passed the schema and a replay
from scratch::

    <out_root>/<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>/<trial_id>/
        traj_data.json
        raw_images/000000000.jpg ...       (unless frames are off)
        pddl_states/problem_0.pddl         the PDDL problem the plan was found for

Steps: build the start state (:mod:`alfred_gen.demo.start`: spawn from the seed, start pose, the
``scene`` block, the state restored from that block, so the demonstration starts exactly where a
replay will); encode and solve the PDDL problem; expand each plan step against the live state and
record it (:func:`alfred_gen.demo.drive.drive_with_replans`: where to stand is chosen by probes, a walk
whose next steps fail is retried from another pose, the recorder going back to before the walk, and
a plan that picks up something no pose shows is made again without it); write; vet; rename.

Everything in the file is a function of the inputs: no clock, no host name, no process id. The
same (task, scene, seed, trial id) gives byte-identical ``traj_data.json`` and frames.

Failures come back as a :class:`GenerationResult` whose ``reason`` is a
:class:`~alfred_gen.errors.GenerationReason`, so a sampler can count them. Bad input (an unknown
scene or task type) raises UserError as everywhere.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.atomic import AlreadyCommitted, committing_dir
from alfred_gen.demo.drive import NoPlan, plan_and_drive
from alfred_gen.demo.expand import Expander, ExpansionError
from alfred_gen.demo.language import DEFAULT_ANNOTATIONS, annotate, describe
from alfred_gen.demo.language.colour import painted_colours
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.demo.start import StartStateError, encode_start, find_room, make_start_state, recorded_scene_num
from alfred_gen.domains.tasks import TaskSpec, get_task_type, make_task
from alfred_gen.errors import ExitCode, GenerationReason, PlanStatus, UserError, exit_code_of
from alfred_gen.planner.solve import DEFAULT_TIME_LIMIT, check_time_limit
from alfred_gen.replay.record import MaskSource, Recorder, RecordingError, event_masks, on_demand_masks
from alfred_gen.replay.restore import restore_scene
from alfred_gen.replay.vet import TrialRejected, write_vetted_trial
from alfred_gen.scenes.library import simulator as scene_simulator
from alfred_gen.sim.controller import Controller, Simulator
from alfred_gen.sim.scene import Scene
from alfred_gen.traj.format import PDDL_STATES_DIR, RAW_IMAGES_DIR, make_trajectory

#: Trial ids: ``trial_`` and a name that is safe as a directory.
_TRIAL_ID = re.compile(r"^trial_[A-Za-z0-9_]+$")



@dataclass
class GenerationResult:
    """What :func:`generate_trajectory` did.

    ``ok`` and ``reason``; ``path`` the trial directory when written (or
    the existing one for ``exists``); ``traj`` the trajectory dict when one was built; ``detail``
    one line saying what went wrong; ``timings`` seconds per phase (never written to disk).
    """

    ok: bool
    reason: GenerationReason
    path: Path | None = None
    traj: dict[str, Any] | None = None
    detail: str = ""
    timings: dict[str, float] = field(default_factory=dict)

    def describe(self) -> str:
        if self.ok:
            low = len(self.traj["plan"]["low_actions"]) if self.traj else 0
            return f"ok: {self.path} ({low} low actions)"
        return f"{self.reason}: {self.detail}" if self.detail else self.reason


class _Failed(Exception):
    def __init__(self, reason: GenerationReason, detail: str = "") -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = " ".join(detail.split())


def check_trial_id(trial_id: str) -> None:
    """ValueError unless ``trial_id`` is ``trial_`` plus letters, digits and underscores."""
    if not isinstance(trial_id, str) or not _TRIAL_ID.match(trial_id):
        raise ValueError(f"trial id must look like trial_T20190908_051157_836345, got {trial_id!r}")


def default_trial_id(seed: int) -> str:
    """A ``trial_T<8>_<6>_<6>`` id made from a seed's digits (ALFRED's shape, no clock)."""
    digits = f"{abs(int(seed)) % 10**20:020d}"
    return f"trial_T{digits[:8]}_{digits[8:14]}_{digits[14:]}"


def backend_of(controller: Controller) -> tuple[str, str]:
    """(backend name, backend version) of a controller, for the ``generator`` block."""
    thor_version = getattr(controller, "ai2thor_version", None)
    if thor_version:
        return "thor", str(thor_version)
    from alfred_gen.sim import lite

    return lite.BACKEND, lite.VERSION


def _step(controller: Controller, action: dict[str, Any], reason: GenerationReason, what: str) -> Any:
    event = controller.step(action)
    if not event.metadata.get("lastActionSuccess", False):
        raise _Failed(reason, f"{what}: {event.metadata.get('errorMessage') or 'failed'}")
    return event


def generate_trajectory(
    task: TaskSpec,
    scene: int | str | Scene,
    seed: int,
    out_root: str | os.PathLike[str],
    trial_id: str,
    *,
    controller: Controller | None = None,
    simulator: Simulator | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    frames: bool = True,
    vet: bool = True,
    vet_controller: Callable[[], Controller] | None = None,
    annotations: int = DEFAULT_ANNOTATIONS,
) -> GenerationResult:
    """Generate, vet and write one demonstration of ``task`` in ``scene`` from ``seed``.

    ``trial_id`` (``trial_...``) names the trial directory and is the file's ``task_id``: the
    caller derives it from its own seed (no clock). ``controller`` is the simulator to record with
    (default: one from ``simulator`` rendering RGB when ``frames``, and the segmentation only
    before interactions); a controller passed in must give ``instance_masks`` in its events (THOR's
    object image on), and RGB frames when ``frames``. ``simulator`` makes the fresh simulator that
    vets the file: a demonstration is vetted where it was recorded, so a THOR ``controller`` needs
    the THOR simulator of the same build and options (ValueError without one); the default is lite
    with the scene library (and ``scene`` itself when it is a Scene). ``vet_controller`` instead
    hands back the vetting controller (a sampler's worker keeps one THOR controller for vetting
    beside the recording one; every vet resets it to the file's scene).
    ``time_limit`` bounds the planner (seconds). ``frames=False`` records without writing JPEGs (the
    ``images`` index is still written; ``alfred-gen replay`` can render the frames later).
    ``vet=False`` skips the replay check (benchmarks only: unvetted files may not reach their goal).
    ``annotations``: how many generated annotations go to ``turk_annotations`` (:mod:`.language`).

    Returns a :class:`GenerationResult`. Raises UserError for an unknown scene or task type,
    ValueError for a malformed ``trial_id``.
    """
    check_trial_id(trial_id)
    get_task_type(task.task_type)
    room = find_room(scene)
    if simulator is None:
        if vet_controller is None and controller is not None and backend_of(controller)[0] != "lite":
            raise ValueError("a demonstration recorded in THOR is vetted in THOR: pass the THOR simulator to vet with")
        simulator = scene_simulator(extra=(room,) if isinstance(scene, Scene) else ())
    out_root = Path(out_root)
    final_dir = out_root / task.dir_name(recorded_scene_num(room)) / trial_id
    timings: dict[str, float] = {}
    if final_dir.exists():
        return GenerationResult(False, GenerationReason.EXISTS, final_dir, None, f"{final_dir} already exists")
    try:
        with committing_dir(final_dir) as temp_dir:
            traj, problem_text = _generate(
                task, room, int(seed), trial_id, controller, simulator, time_limit, frames, temp_dir, timings,
                annotations
            )
            started = time.perf_counter()
            (temp_dir / PDDL_STATES_DIR).mkdir(parents=True, exist_ok=True)
            (temp_dir / PDDL_STATES_DIR / "problem_0.pddl").write_text(problem_text, encoding="utf-8")
            timings["write"] = time.perf_counter() - started
            started = time.perf_counter()
            vetting = (vet_controller or simulator.open) if vet else None
            try:
                write_vetted_trial(traj, temp_dir, controller_factory=vetting)
            except TrialRejected as rejected:
                raise _Failed(GenerationReason.INVALID if rejected.invalid else GenerationReason.VET_FAILED,
                              rejected.detail) from None
            finally:
                phase = "vet" if vet else "write"  # the file's write and, when vetted, its replay
                timings[phase] = timings.get(phase, 0.0) + time.perf_counter() - started
        return GenerationResult(True, GenerationReason.OK, final_dir, traj, "", timings)
    except AlreadyCommitted:
        return GenerationResult(False, GenerationReason.EXISTS, final_dir, None, f"{final_dir} already exists", timings)
    except _Failed as failure:
        return GenerationResult(False, failure.reason, None, None, failure.detail, timings)


#: How a planner status that is not SOLVED fails a generation.
_PLAN_FAILURES = {
    PlanStatus.UNSOLVABLE: GenerationReason.UNSOLVABLE,
    PlanStatus.TIMEOUT: GenerationReason.PLAN_TIMEOUT,
    PlanStatus.ERROR: GenerationReason.PLAN_ERROR,
}
#: How a solved plan with nothing to run fails a generation.
_NO_PLAN_FAILURES = {"unfoldable": GenerationReason.EXPANSION_FAILED, "trivial": GenerationReason.TRIVIAL}


def _generate(
    task: TaskSpec,
    scene: Scene,
    seed: int,
    trial_id: str,
    controller: Controller | None,
    simulator: Simulator,
    time_limit: float | None,
    frames: bool,
    temp_dir: Path,
    timings: dict[str, float],
    annotations: int = DEFAULT_ANNOTATIONS,
) -> tuple[dict[str, Any], str]:
    """Spawn, plan, expand and record into ``temp_dir``; the trajectory dict and the PDDL problem."""
    started = time.perf_counter()
    masks: MaskSource = event_masks
    if controller is None:
        controller = simulator.open(render=frames)
        masks = on_demand_masks(controller)  # segmentation only where an interaction needs it
    try:
        start = make_start_state(controller, scene, task, seed)
    except StartStateError as error:
        raise _Failed(error.reason, error.detail) from None
    timings["spawn"] = time.perf_counter() - started

    def make_recorder() -> Recorder:
        return Recorder(controller, start.event, temp_dir / RAW_IMAGES_DIR if frames else None, masks=masks,
                        restart=lambda: restore_scene(controller, start.scene_block))

    high_pddl: list[dict[str, Any]] = []
    try:
        recorder, encoded = plan_and_drive(
            controller, lambda hidden: encode_start(start, task, hidden), time_limit,
            lambda: Expander(NavigationGraph(start.reachable), start.metadata), make_recorder, high_pddl, timings)
    except NoPlan as no_plan:
        raise _Failed(_NO_PLAN_FAILURES.get(no_plan.kind) or _PLAN_FAILURES[no_plan.status], no_plan.detail) from None
    except ExpansionError as error:
        raise _Failed(GenerationReason.EXPANSION_FAILED, f"step {len(high_pddl)}: {error}") from None
    except RecordingError as error:
        raise _Failed(error.reason, str(error)) from None
    if not recorder.low_actions:
        raise _Failed(GenerationReason.TRIVIAL, "the plan needs no action")

    started = time.perf_counter()
    template = describe(task, high_pddl, seed)
    backend = backend_of(controller)[0]
    # A lite THOR build (alfred-gen thor-build) draws lite's paint, so its colours are lite's: the
    # same words whichever way lite is driven.
    painter = "lite" if getattr(controller, "lite_build", None) is not None else backend
    colours = painted_colours(recorder.low_actions, start.metadata, painter)
    language = annotate(task, high_pddl, recorder.low_actions, start.metadata, seed, annotations, colours)
    timings["language"] = time.perf_counter() - started
    traj = make_trajectory(
        backend=backend_of(controller), seed=seed, high_pddl=high_pddl, low_actions=recorder.low_actions,
        images=recorder.images(), template=template, task_id=trial_id, task_type=task.task_type,
        scene=start.scene_block, pddl_params=task.pddl_params(),
        turk_annotations={"anns": [ann.to_json(k) for k, ann in enumerate(language)]},
    )
    return traj, encoded.problem_text


# --------------------------------------------------------------------------------------------
# The `alfred-gen generate` command (debugging one trajectory)


def generate_command(
    scene: str,
    seed: int,
    task_type: str,
    object_target: str,
    parent_target: str,
    mrecep_target: str,
    toggle_target: str,
    sliced: bool,
    out: str,
    trial_id: str | None,
    time_limit: float | None,
    frames: bool,
    echo: Callable[..., None] = print,
) -> int:
    """`alfred-gen generate`: one trajectory; prints where it went or why not; the exit code."""
    check_time_limit(time_limit)
    task = make_task(task_type, object_target, parent_target, mrecep_target, toggle_target, sliced)
    trial = trial_id or default_trial_id(seed)
    try:
        check_trial_id(trial)
    except ValueError as error:
        raise UserError(str(error), ExitCode.USAGE) from None
    result = generate_trajectory(task, scene, seed, out, trial, time_limit=time_limit, frames=frames)
    total = sum(result.timings.values())
    if result.ok:
        traj = result.traj or {}
        echo(
            f"wrote {result.path} ({len(traj['plan']['high_pddl'])} high-level steps, "
            f"{len(traj['plan']['low_actions'])} low actions, {total:.2f} s)"
        )
        return ExitCode.OK
    echo(f"alfred-gen: not generated: {result.describe()}", err=True)
    return exit_code_of(result.reason)
