"""One trajectory, end to end: spawn, plan, expand, record, vet, write.

:func:`generate_trajectory` is what the task sampler calls for each (task, scene, seed). It never
leaves a half-written trajectory: everything is recorded into a hidden temporary directory inside
``out_root`` and renamed into ALFRED's layout only after the file passed the schema and a replay
from scratch::

    <out_root>/<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>/<trial_id>/
        traj_data.json
        raw_images/000000000.jpg ...       (unless frames are off)
        pddl_states/problem_0.pddl         the PDDL problem the plan was found for

Steps: reset and ``Initialize`` the scene; ``InitialRandomSpawn`` with the seed; read the spawned
object poses and pick the agent's start pose from the seed; write the ``scene`` block and rebuild
the start state *from that block* with the replay's :func:`~alfred_gen.replay.restore.restore_scene`
(so the demonstration starts exactly where a replay will); encode and solve the PDDL problem; expand
each plan step against the live state and record it; write; vet; rename.

Everything in the file is a function of the inputs: no clock, no host name, no process id. The
same (task, scene, seed, trial id) gives byte-identical ``traj_data.json`` and frames.

Failures come back as a :class:`GenerationResult` whose ``reason`` is one of :data:`REASONS`, so a
sampler can count them. Bad input (an unknown scene or task type) raises UserError as everywhere.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen import __version__
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.demo.expand import Expander, ExpansionError, agent_pose, choose_destination, end_entry, fold_plan
from alfred_gen.demo.language import describe, turk_annotations
from alfred_gen.demo.navigation import NavigationGraph
from alfred_gen.planner.encode import agent_pose_of, encode_problem
from alfred_gen.planner.result import SOLVED, TIMEOUT, UNSOLVABLE
from alfred_gen.planner.solve import DEFAULT_TIME_LIMIT, solve
from alfred_gen.demo.plan import SPAWN_ARGS, interaction_poses
from alfred_gen.sim.scene import Scene, hash_str
from alfred_gen.domains.tasks import TaskSpec, get_task_type
from alfred_gen.traj.format import (
    PDDL_STATES_DIR,
    RAW_IMAGES_DIR,
    TRAJ_FILE_NAME,
    InvalidTrajectoryError,
    save_trajectory,
    trajectory_dir_name,
)

#: Why a generation did not produce a trajectory (``ok`` when it did), roughly in pipeline order.
REASONS = (
    "ok",
    "exists",  # the trajectory directory is already there; it is left untouched
    "spawn_failed",  # InitialRandomSpawn failed for this seed
    "restore_failed",  # the start state could not be rebuilt from its own scene block (a bug)
    "unsolvable",  # the planner proved there is no plan (or the encoder saw why at once)
    "plan_timeout",  # no plan within the time limit
    "plan_error",  # the planner failed otherwise (a planner bug)
    "trivial",  # the goal already holds at the start: nothing to demonstrate
    "expansion_failed",  # a plan step cannot be turned into actions (no path to a pose, no slice in view)
    "action_failed",  # the simulator refused a low action while recording
    "mask_missing",  # an interaction target was not in the frame before the action
    "invalid",  # the trajectory failed the schema (a bug)
    "vet_failed",  # the replay from scratch failed or did not reach the goal
)

#: The agent's camera horizon at the start, as in every released ALFRED trajectory.
START_HORIZON = 30

#: Trial ids: ``trial_`` and a name that is safe as a directory.
_TRIAL_ID = re.compile(r"^trial_[A-Za-z0-9_]+$")

GENERATOR_NAME = "alfred-gen"


@dataclass
class GenerationResult:
    """What :func:`generate_trajectory` did.

    ``ok`` and ``reason`` (one of :data:`REASONS`); ``path`` the trial directory when written (or
    the existing one for ``exists``); ``traj`` the trajectory dict when one was built; ``detail``
    one line saying what went wrong; ``timings`` seconds per phase (never written to disk).
    """

    ok: bool
    reason: str
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
    def __init__(self, reason: str, detail: str = "") -> None:
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


def _resolve_scene(scene: int | str | Scene) -> Scene:
    if isinstance(scene, Scene):
        return scene
    from alfred_gen.replay.restore import resolve_scene
    from alfred_gen.scenes import get_scene, resolve_scene_number

    if isinstance(scene, str) and not scene.strip().isdigit():
        return resolve_scene(scene.strip())
    return get_scene(resolve_scene_number(scene))


def backend_of(controller: Any) -> tuple[str, str]:
    """(backend name, backend version) of a controller, for the ``generator`` block."""
    thor_version = getattr(controller, "ai2thor_version", None)
    if thor_version:
        return "thor", str(thor_version)
    from alfred_gen.sim import lite

    return lite.BACKEND, lite.VERSION


def task_dir_name(task: TaskSpec, scene_num: int) -> str:
    """ALFRED's ``<task_type>-<object>-<mrecep|None>-<recep>-<scene_num>`` for a task."""
    obj = task.object_target + ("Sliced" if task.object_sliced else "")
    return trajectory_dir_name(task.task_type, obj, task.mrecep_target or None,
                               task.parent_target or task.toggle_target, scene_num)


def _step(controller: Any, action: dict[str, Any], reason: str, what: str) -> Any:
    event = controller.step(action)
    if not event.metadata.get("lastActionSuccess", False):
        raise _Failed(reason, f"{what}: {event.metadata.get('errorMessage') or 'failed'}")
    return event


def start_pose(reachable: list[tuple[float, float]], seed: int) -> tuple[float, float, int]:
    """The agent's start (x, z, rotation), a seeded choice among the reachable grid points."""
    points = sorted(reachable)
    if not points:
        raise _Failed("spawn_failed", "the scene has no reachable position")
    rng = random.Random(hash_str(f"alfred-gen start pose {int(seed)}"))
    x, z = points[rng.randrange(len(points))]
    return x, z, 90 * rng.randrange(4)


def _reachable(controller: Any) -> list[tuple[float, float]]:
    event = _step(controller, {"action": "GetReachablePositions"}, "spawn_failed", "GetReachablePositions")
    return [(float(p["x"]), float(p["z"])) for p in event.metadata.get("actionReturn") or ()]


def build_scene_block(
    scene: Scene, task: TaskSpec, seed: int, metadata: Mapping[str, Any], pose: tuple[float, float, int]
) -> dict[str, Any]:
    """The ``scene`` block restoring the spawned state with the agent at ``pose``."""
    from alfred_gen.replay.scripted import object_poses_of

    x, z, rotation = pose
    toggles = [{"isOn": False, "objectType": task.toggle_target}] if task.toggle_target else []
    return {
        "dirty_and_empty": task.task_type == "pick_clean_then_place_in_recep",
        "floor_plan": scene.name,
        "init_action": {
            "action": "TeleportFull",
            "horizon": START_HORIZON,
            "rotateOnTeleport": True,
            "rotation": rotation,
            "x": x,
            "y": float(metadata["agent"]["position"]["y"]),
            "z": z,
        },
        "object_poses": object_poses_of(metadata),
        "object_toggles": toggles,
        "random_seed": int(seed),
        "scene_num": int(scene.scene_num),
    }


def _default_controller(scene: Scene, frames: bool) -> Any:
    from alfred_gen.replay.restore import make_replay_controller, resolve_scene

    def resolver(name: str) -> Scene:
        return scene if name == scene.name else resolve_scene(name)

    return make_replay_controller(render=frames, segmentation=False, scene_resolver=resolver)


def _default_vet_factory(scene: Scene) -> Callable[[], Any]:
    from alfred_gen.replay.restore import make_replay_controller, resolve_scene

    def resolver(name: str) -> Scene:
        return scene if name == scene.name else resolve_scene(name)

    return lambda: make_replay_controller(scene_resolver=resolver)


def generate_trajectory(
    task: TaskSpec,
    scene: int | str | Scene,
    seed: int,
    out_root: str | os.PathLike[str],
    trial_id: str,
    *,
    controller: Any = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    frames: bool = True,
    vet: bool = True,
    vet_controller_factory: Callable[[], Any] | None = None,
) -> GenerationResult:
    """Generate, vet and write one demonstration of ``task`` in ``scene`` from ``seed``.

    ``trial_id`` (``trial_...``) names the trial directory and is the file's ``task_id``: the
    caller derives it from its own seed (no clock). ``controller`` is the simulator to record with
    (default: a lite controller rendering RGB when ``frames``, and the segmentation only before
    interactions); a controller passed in must give ``instance_masks`` in its events (THOR's
    object image on), and RGB frames when ``frames``. ``time_limit`` bounds the planner (seconds).
    ``frames=False`` records without writing JPEGs (the ``images`` index is still written; ``alfred-gen replay`` can
    render the frames later). ``vet=False`` skips the replay check (benchmarks only: unvetted files
    may not reach their goal). ``vet_controller_factory`` gives the simulator for vetting (default:
    a fresh lite controller).

    Returns a :class:`GenerationResult`; ``reason`` is one of :data:`REASONS`. Raises UserError for
    an unknown scene or task type, ValueError for a malformed ``trial_id``.
    """
    check_trial_id(trial_id)
    get_task_type(task.task_type)
    room = _resolve_scene(scene)
    out_root = Path(out_root)
    final_dir = out_root / task_dir_name(task, room.scene_num) / trial_id
    timings: dict[str, float] = {}
    if final_dir.exists():
        return GenerationResult(False, "exists", final_dir, None, f"{final_dir} already exists")
    temp_dir = out_root / f".tmp-{trial_id}"
    try:
        traj, problem_text = _generate(task, room, int(seed), trial_id, controller, time_limit, frames, temp_dir,
                                       timings)
        started = time.perf_counter()
        (temp_dir / PDDL_STATES_DIR).mkdir(parents=True, exist_ok=True)
        (temp_dir / PDDL_STATES_DIR / "problem_0.pddl").write_text(problem_text, encoding="utf-8")
        try:
            save_trajectory(traj, temp_dir / TRAJ_FILE_NAME)
        except InvalidTrajectoryError as error:
            raise _Failed("invalid", str(error)) from None
        timings["write"] = time.perf_counter() - started
        if vet:
            from alfred_gen.replay.vet import vet_trajectory

            started = time.perf_counter()
            factory = vet_controller_factory or _default_vet_factory(room)
            written = json.loads((temp_dir / TRAJ_FILE_NAME).read_bytes())  # vet the file, not the dict
            verdict = vet_trajectory(written, controller_factory=factory, check_schema=False)
            timings["vet"] = time.perf_counter() - started
            if not verdict.ok:
                raise _Failed("vet_failed", verdict.describe())
        if final_dir.exists():
            raise _Failed("exists", f"{final_dir} already exists")
        final_dir.parent.mkdir(parents=True, exist_ok=True)
        os.rename(temp_dir, final_dir)
        return GenerationResult(True, "ok", final_dir, traj, "", timings)
    except _Failed as failure:
        shutil.rmtree(temp_dir, ignore_errors=True)
        path = final_dir if failure.reason == "exists" else None
        return GenerationResult(False, failure.reason, path, None, failure.detail, timings)
    except BaseException:
        shutil.rmtree(temp_dir, ignore_errors=True)
        raise


def _generate(
    task: TaskSpec,
    scene: Scene,
    seed: int,
    trial_id: str,
    controller: Any,
    time_limit: float | None,
    frames: bool,
    temp_dir: Path,
    timings: dict[str, float],
) -> tuple[dict[str, Any], str]:
    """Spawn, plan, expand and record into ``temp_dir``; the trajectory dict and the PDDL problem."""
    from alfred_gen.replay.record import Recorder, RecordingError, event_masks, on_demand_masks
    from alfred_gen.replay.restore import INITIALIZE_ACTION, RestoreError, restore_scene

    started = time.perf_counter()
    masks = event_masks
    if controller is None:
        controller = _default_controller(scene, frames)
        masks = on_demand_masks(controller)  # segmentation only where an interaction needs it
    controller.reset(scene.name)
    _step(controller, dict(INITIALIZE_ACTION), "spawn_failed", "Initialize")
    spawned = _step(controller, {"action": "InitialRandomSpawn", "randomSeed": seed, **SPAWN_ARGS},
                    "spawn_failed", f"InitialRandomSpawn seed {seed}")
    spawned_metadata = spawned.metadata
    pose = start_pose(_reachable(controller), seed)
    scene_block = build_scene_block(scene, task, seed, spawned_metadata, pose)
    try:
        start = restore_scene(controller, scene_block)
    except RestoreError as error:
        raise _Failed("restore_failed", str(error)) from None
    reachable = _reachable(controller)
    timings["spawn"] = time.perf_counter() - started

    started = time.perf_counter()
    metadata = start.metadata
    poses = interaction_poses(scene.interaction_poses, metadata)
    encoded = encode_problem(metadata, task, poses, agent_pose_of(metadata),
                             problem_name=f"{scene.name.lower()}-seed{seed}")
    result = solve(encoded, time_limit=time_limit)
    timings["plan"] = time.perf_counter() - started
    if result.status != SOLVED:
        reason = {UNSOLVABLE: "unsolvable", TIMEOUT: "plan_timeout"}.get(result.status, "plan_error")
        raise _Failed(reason, result.reason)
    try:
        steps = fold_plan(result.plan)
    except ExpansionError as error:
        raise _Failed("expansion_failed", str(error)) from None
    if not steps:
        raise _Failed("trivial", "the goal already holds in the start state")

    started = time.perf_counter()
    if temp_dir.exists():
        shutil.rmtree(temp_dir)  # left over by a crashed run of the same trial
    temp_dir.mkdir(parents=True)
    recorder = Recorder(controller, start, temp_dir / RAW_IMAGES_DIR if frames else None, masks=masks)
    expander = Expander(NavigationGraph(reachable), metadata)
    navigation = expander.navigation
    high_pddl: list[dict[str, Any]] = []
    try:
        for index, step in enumerate(steps):
            following = steps[index + 1] if index + 1 < len(steps) else None
            if step.action == "GotoLocation":
                step = _destination(controller, step, _until_next_walk(steps, index + 1), recorder.metadata, navigation)
            expanded = expander.expand(step, len(high_pddl), recorder.metadata, following)
            if not expanded.low:
                continue  # a walk to where the agent already stands
            high_pddl.append(expanded.high)
            recorder.run(expanded.low)
    except ExpansionError as error:
        raise _Failed("expansion_failed", f"step {len(high_pddl)}: {error}") from None
    except RecordingError as error:
        raise _Failed(error.reason, str(error)) from None
    if not recorder.low_actions:
        raise _Failed("trivial", "the plan needs no action")
    high_pddl.append(end_entry(len(high_pddl)))
    timings["record"] = time.perf_counter() - started

    template = describe(task, high_pddl, seed)
    backend, backend_version = backend_of(controller)
    traj = {
        "generator": {
            "backend": backend,
            "backend_version": backend_version,
            "name": GENERATOR_NAME,
            "seed": seed,
            "version": __version__,
        },
        "images": recorder.images(),
        "pddl_params": task.pddl_params(),
        "plan": {"high_pddl": high_pddl, "low_actions": recorder.low_actions},
        "scene": scene_block,
        "task_id": trial_id,
        "task_type": task.task_type,
        "template": template,
        "turk_annotations": turk_annotations(template),
    }
    return traj, encoded.problem_text


def _until_next_walk(steps: list[Any], start: int) -> list[Any]:
    """The steps from ``start`` up to (not including) the next GotoLocation."""
    end = start
    while end < len(steps) and steps[end].action != "GotoLocation":
        end += 1
    return steps[start:end]


def _teleport(pose: Any, y: float) -> dict[str, Any]:
    return {"action": "TeleportFull", "x": float(pose[0]), "y": y, "z": float(pose[1]),
            "rotation": float(pose[2]), "horizon": float(pose[3]), "rotateOnTeleport": True}


def _destination(controller: Any, walk: Any, following: list[Any], metadata: Mapping[str, Any],
                 navigation: NavigationGraph) -> Any:
    """The walk, or a walk to a better pose: probes candidate poses by teleporting there and back.

    The probes are not part of the demonstration: the agent is put back exactly where it was, so
    the state the next recorded action sees is the one a replay (without probes) will see.
    """
    agent_y = float(metadata["agent"]["position"]["y"])
    camera = metadata.get("cameraPosition") or {}
    eye_height = float(camera["y"]) if "y" in camera else agent_y + 0.675
    origin = agent_pose(metadata)

    def probe(pose: Any) -> Mapping[str, Any] | None:
        event = controller.step(_teleport(pose, agent_y))
        return event.metadata if event.metadata.get("lastActionSuccess", False) else None

    try:
        return choose_destination(walk, following, metadata, navigation, probe, eye_height)
    finally:
        _step(controller, _teleport(origin, agent_y), "expansion_failed", "returning from a probe")


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
    from alfred_gen.domains.tasks import make_task

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
        echo(f"wrote {result.path} ({len(traj['plan']['high_pddl'])} high-level steps, "
             f"{len(traj['plan']['low_actions'])} low actions, {total:.2f} s)")
        return ExitCode.OK
    echo(f"alfred-gen: not generated: {result.describe()}", err=True)
    codes = {"unsolvable": ExitCode.UNSOLVABLE, "plan_timeout": ExitCode.TIMEOUT}
    return codes.get(result.reason, ExitCode.FAILED)
