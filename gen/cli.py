"""The `alfred-gen` command line: parses options and calls one library function per command.

No pipeline logic lives here; every command body is a function a Python user can call directly.
Commands import their pipeline only when they run, so ``alfred-gen --help`` and one-shot commands
start fast.

:func:`main` is the one error boundary: a UserError is one line and its exit code; an OSError (an
output path that cannot be written: a file in the way, a read-only directory, a full disk) is one
line and BAD_INPUT; anything else is a bug, reported in one line with exit code INTERNAL
(``--debug`` or ``ALFRED_GEN_DEBUG=1`` shows the traceback).
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

import click

from alfred_gen import __version__
from alfred_gen.errors import ExitCode, UserError, caused_by_interrupt, describe_os_error, exit_code_table

if TYPE_CHECKING:
    from alfred_gen.sim.controller import Simulator

EPILOG = "Exit codes:\n\n\b\n" + exit_code_table()

#: Environment variable that turns on --debug (tracebacks for internal errors).
DEBUG_ENV = "ALFRED_GEN_DEBUG"

#: Whether --debug was given (set by the group's callback, read by the error boundary).
_debug_flag = [False]

#: The simulator backends and THOR's rendering platforms (alfred_gen.sim.controller.BACKENDS and
#: alfred_gen.sim.thor.PLATFORMS; listed here so that parsing options imports no simulator code,
#: and a test keeps them equal).
BACKENDS = ("lite", "thor")
THOR_PLATFORMS = ("Linux64", "CloudRendering")


class OutputPath(click.Path):
    """A path the command writes (``--out``, ``--charts``...): one that exists as the wrong kind (a
    file where a directory goes, or the reverse) is an output that cannot be written, which is
    BAD_INPUT in every command (as ``/dev/null`` or a read-only directory is), not a usage error."""

    def fail(self, message: str, param: click.Parameter | None = None, ctx: click.Context | None = None) -> NoReturn:
        name = param.opts[0] if param is not None and param.opts else "output"
        raise UserError(f"{name}: {message} (cannot write there)", ExitCode.BAD_INPUT)


def not_empty(context: click.Context, parameter: click.Parameter, value: Any) -> Any:
    """An option naming a path must name one: ``--out ""`` would otherwise mean the working directory."""
    if isinstance(value, str) and not value.strip():
        raise click.BadParameter("must name a path, got an empty string")
    return value


def thor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options --backend, --thor-build, --thor-platform, --x-display, --thor-timeout: the command receives
    ``backend`` and the THOR ones, and hands :func:`simulator_for` what they say."""
    decorators = [
        click.option("--backend", type=click.Choice(BACKENDS), default="lite", show_default=True,
                     help="Simulator: embedded 'lite', or 'thor' (needs ai2thor and a THOR build)."),
        click.option("--thor-build", type=click.Path(), envvar="ALFRED_GEN_THOR_BUILD", default=None,
                     help="Local AI2-THOR executable or build directory (else ai2thor's ~/.ai2thor cache)."),
        click.option("--thor-platform", type=click.Choice(THOR_PLATFORMS), default=None,
                     help="THOR rendering platform: Linux64 (X display, default) or CloudRendering (5.x, headless)."),
        click.option("--x-display", default=None,
                     help="X display for the THOR build, e.g. 0 or :1 (default: $DISPLAY)."),
        click.option("--thor-timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Seconds to wait for the THOR build to start and for each answer "
                          "(default 120 and 100); past it: exit 7 at start, 6 later."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def backend_options(backend: str, thor: dict[str, Any]) -> dict[str, Any]:
    """The THOR options (--thor-build, --thor-platform, --x-display, --thor-timeout) that were set, for the thor
    backend; lite takes none."""
    if backend != "thor":
        return {}
    return {name: value for name, value in thor.items() if value is not None}


def simulator_for(backend: str, thor: dict[str, Any], complete: bool = True) -> Simulator:
    """The simulator recipe the options name, with the scene library as its lookup (completing
    imported rooms from the replayed file unless ``complete`` is false: ``--no-complete``)."""
    from alfred_gen.scenes.library import simulator

    return simulator(backend, backend_options(backend, thor), complete=complete)


#: ``--no-complete`` of the commands that replay files (replay, verify, derive, eval alfred).
no_complete_option = click.option(
    "--no-complete", is_flag=True,
    help="Replay imported THOR rooms as the catalogue has them: do not add the fixtures the file acts on "
         "and the room lacks (made at their ids' positions), and do not use the file's own masks (where "
         "THOR put things, what it saw past).")


def task_options(command: Any) -> Any:
    """The options naming one task in one start state, shared by `plan` and `generate`."""
    options = [
        click.option("--scene", required=True,
                     help="Scene number (1-30, 201-230, 301-330, 401-430), LitePlanN, LiteHouseN (1-999) "
                          "or FloorPlanN."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Seed of the spawn (InitialRandomSpawn) and the start pose."),
        click.option("--task", "task_type", required=True, help="Task type, e.g. pick_heat_then_place_in_recep."),
        click.option("--object", "object_target", required=True, help="Object class to pick up, e.g. Apple."),
        click.option("--receptacle", "parent_target", default="",
                     help="Destination receptacle class (the lamp for look_at)."),
        click.option("--mrecep", default="", help="Movable receptacle class (pick_and_place_with_movable_recep)."),
        click.option("--toggle", default="", help="Lamp class (look_at_obj_in_light)."),
        click.option("--sliced", is_flag=True, help="The object must be a slice (cut with a knife first)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.group(epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="alfred-gen")
@click.option("--scenes-catalogue", type=click.Path(dir_okay=False),
              help="Imported ALFRED scene catalogue for FloorPlanN rooms (default: $ALFRED_GEN_SCENES, "
                   "else ~/.cache/alfred-gen/scenes/alfred.json).")
@click.option("--debug", is_flag=True, envvar=DEBUG_ENV,
              help=f"Show the Python traceback of an internal error (also ${DEBUG_ENV}=1).")
def cli(scenes_catalogue: str | None, debug: bool) -> None:
    """Generate, replay and check ALFRED-style expert demonstrations.

    \b
    Examples:
      alfred-gen sample --n 20 --workers 2 --out out/
      alfred-gen stats out/ --charts out-charts/
      alfred-gen verify out/ --jobs 2
      alfred-gen validate out/
    """
    _debug_flag[0] = debug  # main() reads it when an error reaches it
    if scenes_catalogue:
        from alfred_gen.scenes.alfred.catalogue_store import use_catalogue

        use_catalogue(scenes_catalogue)


@cli.command(epilog=EPILOG)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
def validate(paths: tuple[str, ...]) -> None:
    """Check traj_data.json files (or directories of them) against the trajectory schema.

    Prints one line per invalid file and a summary; exits 0 only if every file is valid.

    \b
    Example:
      alfred-gen validate out/ alfred/data/json_2.1.0
    """
    from alfred_gen.traj.validate import validate_paths

    sys.exit(validate_paths(paths, echo=click.echo))


@cli.command(epilog=EPILOG)
@task_options
@click.option("--pddl-out", type=OutputPath(dir_okay=False), callback=not_empty,
              help="Write the PDDL problem here (and X.domain.pddl).")
@click.option("--time-limit", type=float, default=30.0, show_default=True, help="Planner time limit in seconds.")
def plan(scene: str, seed: int, task_type: str, object_target: str, parent_target: str, mrecep: str, toggle: str,
         sliced: bool, pddl_out: str | None, time_limit: float) -> None:
    """Plan a task in a scene and print the high-level plan, or why there is none.

    \b
    Example:
      alfred-gen plan --scene 1 --seed 3 --task pick_heat_then_place_in_recep --object Apple --receptacle CounterTop
    """
    from alfred_gen.demo.plan import plan_command

    sys.exit(plan_command(scene, seed, task_type, object_target, parent_target, mrecep, toggle, sliced, pddl_out,
                          time_limit, echo=click.echo))


@cli.group(epilog=EPILOG)
def scenes() -> None:
    """The built-in procedural rooms (LitePlanN) and houses (LiteHouseN): list them, draw one;
    import real ALFRED rooms."""


@scenes.command("list", epilog=EPILOG)
@click.option("--room-type", type=click.Choice(["kitchen", "living_room", "bedroom", "bathroom"]),
              help="Only rooms of this type.")
@click.option("--houses", is_flag=True, help="List the procedural houses (LiteHouseN) instead of the rooms.")
@click.option("--range", "house_range", help="Houses to list, e.g. 1-100 or 3,7,20-30 (default: 1-100).")
@click.option("--min-area", type=float, help="House filter: least internal area in m2 (default 45).")
@click.option("--max-area", type=float, help="House filter: most internal area in m2 (default 200).")
@click.option("--require", multiple=True,
              help="House filter: room types a house must have, comma-separated "
                   "(default kitchen,living_room,bedroom).")
@click.option("--min-coverage", type=float,
              help="House filter: least share of the bounding rectangle the rooms cover (default 1/3).")
@click.option("--accepted-only", is_flag=True, help="Only the houses the house filter accepts.")
def scenes_list(room_type: str | None, houses: bool, house_range: str | None, min_area: float | None,
                max_area: float | None, require: tuple[str, ...], min_coverage: float | None,
                accepted_only: bool) -> None:
    """Print number, name, room type, size, reachable points, receptacles and objects of each room;
    with --houses, each house's rooms, area, doorways, reachable points, objects and what the house
    filter says of it.

    \b
    Example:
      alfred-gen scenes list --room-type kitchen
      alfred-gen scenes list --houses --range 1-20 --require kitchen,bathroom
    """
    from alfred_gen.scenes.listing import scenes_list_command

    sys.exit(scenes_list_command(
        echo=click.echo, note=lambda text: click.echo(text, err=True), room_type=room_type, houses=houses,
        house_range=house_range, min_area=min_area, max_area=max_area, require=require or None,
        min_coverage=min_coverage, accepted_only=accepted_only,
    ))


@scenes.command("import-alfred", epilog=EPILOG)
@click.argument("alfred_dir", type=click.Path())
@click.option("--out", type=OutputPath(dir_okay=False), callback=not_empty,
              help="Catalogue file to write (default: --scenes-catalogue, $ALFRED_GEN_SCENES, else "
                   "~/.cache/alfred-gen/scenes/alfred.json).")
@click.option("--thor-db", type=click.Path(file_okay=False), callback=not_empty,
              help="Directory holding THOR's asset-database.json (ProcTHOR): real furniture sizes.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes reading trajectories and fitting rooms (same catalogue for any number).")
def scenes_import_alfred(alfred_dir: str, out: str | None, thor_db: str | None, workers: int) -> None:
    """Import the real THOR rooms (FloorPlanN) of an ALFRED checkout: its layouts (gen/layouts or
    layouts) and every released trajectory found (data/json_2.1.0 or json_2.1.0). The lite backend
    then loads them by name.

    \b
    Example:
      alfred-gen scenes import-alfred ~/alfred --thor-db ~/procthor/databases --workers 2
    """
    from alfred_gen.scenes.alfred.importer import import_command

    sys.exit(import_command(alfred_dir, out, thor_db, echo=click.echo, workers=workers))


@scenes.command("show", epilog=EPILOG)
@click.argument("scene")
@click.option("--out", required=True, type=OutputPath(dir_okay=False), callback=not_empty,
              help="PNG file for the top-down map.")
@click.option("--pose", help="x,z,rotation,horizon: also render the view from this pose (to OUT-view.png).")
def scenes_show(scene: str, out: str, pose: str | None) -> None:
    """Draw a top-down map of SCENE (a number, LitePlanN or LiteHouseN): walls, furniture,
    receptacles, reachable grid, interaction poses; for a house also its rooms and doorways.

    \b
    Example:
      alfred-gen scenes show 7 --out kitchen7.png --pose 0.5,-1.0,180,30
      alfred-gen scenes show LiteHouse3 --out house3.png
    """
    from alfred_gen.scenes.show import show_command

    sys.exit(show_command(scene, out, pose, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("traj", type=click.Path())
@click.option("--depth", is_flag=True, help="Also write depth_images/ (16-bit PNG, millimetres).")
@click.option("--seg", is_flag=True, help="Also write instance_masks/ (RGB PNG) and their color_to_object_id.json.")
@click.option("--out", type=OutputPath(file_okay=False), callback=not_empty,
              help="Write frames here (default: the trajectory's directory).")
@no_complete_option
@thor_options
def replay(traj: str, depth: bool, seg: bool, out: str | None, no_complete: bool, backend: str, **thor: Any) -> None:
    """Re-execute a trajectory (a traj_data.json or its directory) and write the frames its
    `images` list names; print failing steps and goal conditions. Exits 1 if the replay fails,
    in which case nothing on disk is changed.

    \b
    Example:
      alfred-gen replay out/pick_heat_then_place_in_recep-Mug-None-CounterTop-1/trial_T1 --depth --seg
    """
    from alfred_gen.replay.rerender import replay_command

    sys.exit(replay_command(traj, out, simulator=simulator_for(backend, thor, not no_complete), depth=depth, seg=seg,
                            echo=click.echo))


@cli.command("thor-build", epilog=EPILOG)
@click.option("--version", "version", type=click.Choice(["5", "2.1.0"]), default="5", show_default=True,
              help="The ai2thor line the build speaks (its Controller's protocol and metadata layout).")
@click.option("--out", required=True, type=click.Path(file_okay=False), callback=not_empty,
              help="Directory to write the build into.")
def thor_build(version: str, out: str) -> None:
    """Write lite as an AI2-THOR build: an executable that ai2thor's own Controller launches
    (local_executable_path) and drives over THOR's protocol, with no GPU or display; use it with
    --backend thor --thor-build OUT.

    \b
    Example:
      alfred-gen thor-build --version 5 --out builds/lite5
    """
    from alfred_gen.thorbuild.write import build_command

    sys.exit(build_command(version, out, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@no_complete_option
@thor_options
def verify(directory: str, jobs: int, no_complete: bool, backend: str, **thor: Any) -> None:
    """Replay every traj_data.json under DIRECTORY from scratch: every action must succeed and the
    goal must hold. Prints one line per failed trajectory and a summary by reason; exits 1 if any fail.

    \b
    Example:
      alfred-gen verify out/ --jobs 2
    """
    from alfred_gen.replay.verify import verify_directory

    sys.exit(verify_directory(directory, simulator=simulator_for(backend, thor, not no_complete), jobs=jobs,
                              echo=click.echo))


@cli.command(epilog=EPILOG)
@task_options
@click.option("--out", required=True, type=OutputPath(file_okay=False), callback=not_empty,
              help="Output root directory.")
@click.option("--trial", "trial_id", help="Trial id (trial_...); default: derived from --seed.")
@click.option("--no-frames", is_flag=True, help="Do not write raw_images/ (the images index is kept).")
@click.option("--time-limit", type=float, default=30.0, show_default=True, help="Planner time limit in seconds.")
def generate(
    scene: str,
    seed: int,
    task_type: str,
    object_target: str,
    parent_target: str,
    mrecep: str,
    toggle: str,
    sliced: bool,
    out: str,
    trial_id: str | None,
    no_frames: bool,
    time_limit: float,
) -> None:
    """Generate one vetted trajectory into OUT/<task dir>/<trial>/ (for debugging; the sampler makes many).

    \b
    Example:
      alfred-gen generate --scene 1 --seed 3 --task pick_heat_then_place_in_recep --object Apple \\
          --receptacle CounterTop --out out/
    """
    from alfred_gen.demo.generate import generate_command

    sys.exit(
        generate_command(
            scene,
            seed,
            task_type,
            object_target,
            parent_target,
            mrecep,
            toggle,
            sliced,
            out,
            trial_id,
            time_limit,
            not no_frames,
            echo=click.echo,
        )
    )


@cli.command(epilog=EPILOG)
@click.option(
    "--n",
    "n",
    type=int,
    required=True,
    help="How many vetted trajectories the output should hold (all shards together).",
)
@click.option("--out", required=True, type=OutputPath(file_okay=False), callback=not_empty,
              help="Output root directory.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed: tuples, spawn seeds, trial ids.")
@click.option("--workers", type=int,
              help="Worker processes (one simulator each; default 1); with --executor ray, Ray tasks at once "
                   "(default: the cluster's CPUs).")
@click.option("--task-types", multiple=True, help="Comma-separated task types (default: all seven).")
@click.option("--scenes", multiple=True, help="Comma-separated scenes or ranges, e.g. 1-30,201 (default: all).")
@click.option("--demos-per-task", type=int, default=3, show_default=True, help="Demonstrations per task tuple.")
@click.option("--shard", help="I/M: this job's part of the work (0 <= I < M), for cluster job arrays.")
@thor_options
@click.option("--no-frames", is_flag=True, help="Do not write raw_images/ (the images index is kept).")
@click.option(
    "--scene-set",
    type=click.Choice(["lite", "alfred", "houses"]),
    default="lite",
    show_default=True,
    help="Rooms to sample: lite's procedural LitePlanN, real THOR rooms (FloorPlanN) imported with "
    "`alfred-gen scenes import-alfred` (needed for --backend thor), or lite's procedural houses "
    "(LiteHouseN; --scenes then names house numbers; default: those of 1-100 the house filter accepts).",
)
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="Who runs the jobs: this machine's worker processes, or Ray tasks (needs the ray extra) on "
                   "a Ray started here or on the cluster --ray-address names. The same dataset either way.")
@click.option("--ray-address", help="With --executor ray: auto (the cluster this node belongs to) or HOST:PORT "
                                    "of its head (default: RAY_ADDRESS, else a Ray started on this machine).")
@click.option("--annotations", type=click.IntRange(min=1), default=3, show_default=True,
              help="Generated annotations per demonstration (differently seeded realisations).")
def sample(
    n: int,
    out: str,
    seed: int,
    workers: int | None,
    task_types: tuple[str, ...],
    scenes: tuple[str, ...],
    demos_per_task: int,
    shard: str | None,
    backend: str,
    no_frames: bool,
    scene_set: str,
    executor: str,
    ray_address: str | None,
    annotations: int,
    **thor: Any,
) -> None:
    """Generate N balanced, vetted trajectories into OUT (resumable: run it again to continue).

    \b
    Example:
      alfred-gen sample --n 14 --out out/ --workers 2 --demos-per-task 1
      alfred-gen sample --n 8055 --out out/ --executor ray --ray-address auto
    """
    from alfred_gen.sample.run import sample_command

    sys.exit(
        sample_command(
            n,
            out,
            seed,
            workers,
            task_types,
            scenes,
            demos_per_task,
            shard,
            backend,
            not no_frames,
            echo=click.echo,
            backend_options=backend_options(backend, thor),
            scene_set=scene_set,
            executor=executor,
            ray_address=ray_address,
            annotations=annotations,
        )
    )


@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--charts", type=OutputPath(file_okay=False), callback=not_empty,
              help="Also write PNG bar charts into this directory.")
def stats(directory: str, charts: str | None) -> None:
    """Count trajectories by task type, object, receptacle, scene and room type, with slot balance.

    \b
    Example:
      alfred-gen stats out/ --charts out-charts/
    """
    from alfred_gen.sample.stats import stats_command

    sys.exit(stats_command(directory, charts, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--out", type=OutputPath(),
              help="FILE.mp4 for one trajectory, or a directory (DIR/<task dir>/<trial>.mp4); "
                   "default: video.mp4 beside each traj_data.json.")
@click.option("--fps", type=click.IntRange(min=1, max=60), default=5, show_default=True, help="Frames per second.")
@click.option("--masks", is_flag=True, help="Outline each interaction mask on the frame where it is used.")
@click.option("--depth", is_flag=True, help="Add a depth panel (re-rendered if depth_images/ is missing).")
@click.option("--seg", is_flag=True, help="Add a segmentation panel (re-rendered if instance_masks/ is missing).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@thor_options
def video(paths: tuple[str, ...], out: str | None, fps: int, masks: bool, depth: bool, seg: bool, jobs: int,
          backend: str, **thor: Any) -> None:
    """Write an annotated H.264 MP4 per trajectory (files, trial directories or trees of them):
    each frame captioned with the running subgoal's instruction and the low action, a subgoal
    timeline along the bottom. Frames missing on disk are re-rendered by replaying. Needs the
    `video` extra (PyAV).

    \b
    Example:
      alfred-gen video out/pick_heat_then_place_in_recep-Mug-None-CounterTop-1/trial_T1 --masks --out heat.mp4
    """
    from alfred_gen.export.video import VideoOptions, video_command

    options = VideoOptions(fps=fps, masks=masks, depth=depth, seg=seg)
    sys.exit(video_command(paths, out, options, simulator=simulator_for(backend, thor), jobs=jobs, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--out", required=True, type=OutputPath(file_okay=False),
              help="Site directory to write (replaced whole if it is a site from an earlier build).")
@click.option("--serve", type=click.IntRange(min=0, max=65535), default=None,
              help="After building, serve the site on 127.0.0.1:PORT until Ctrl-C.")
@click.option("--vet", is_flag=True, help="Replay every trajectory to give its vetted status now (slower).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@thor_options
def view(directory: str, out: str, serve: int | None, vet: bool, jobs: int, backend: str, **thor: Any) -> None:
    """Build a static site to browse the trajectories under DIRECTORY in a web browser: an index
    with thumbnails, filters and balance charts, and a page per trajectory with a frame player,
    subgoal timeline, masks, depth and segmentation, the room map with the walked path, and the
    PDDL problem and plan. Open SITE/index.html (no server needed) or use --serve.

    \b
    Example:
      alfred-gen view out/ --out out-site/
    """
    from alfred_gen.export.view.site import view_command

    simulator = simulator_for(backend, thor) if vet else None
    sys.exit(view_command(directory, out, serve=serve, vet_with=simulator, jobs=jobs, echo=click.echo))


@cli.group(epilog=EPILOG)
def actthor() -> None:
    """ACT-Thor: before/action/after triples, contrast sets of after-images, their splits and tables."""


@actthor.command("triples", epilog=EPILOG)
@click.option("--scenes", multiple=True, help="Comma-separated scenes or ranges, e.g. 1-30,201 (default: all 120).")
@click.option("--scene-set", type=click.Choice(["lite", "alfred"]), default="lite", show_default=True,
              help="Procedural LitePlanN rooms, or real THOR rooms (FloorPlanN; imported ALFRED rooms in lite).")
@click.option("--out", required=True, type=OutputPath(file_okay=False), help="Output directory.")
@click.option("--workers", type=int, default=1, show_default=True, help="Worker processes (one simulator each).")
@thor_options
def actthor_triples(scenes: tuple[str, ...], scene_set: str, out: str, workers: int, backend: str,
                    **thor: Any) -> None:
    """Collect before/action/after triples: every pickupable object, held and placed on the room's
    largest surface, every action it affords; images, boxes, success, visibility, pixel difference,
    a sentence, and the cleaning verdict. Resumable: rooms already done are kept.

    \b
    Example:
      alfred-gen actthor triples --scenes 1-30,201-230,301-330,401-430 --workers 2 --out act/
    """
    from alfred_gen.actthor.triples import triples_command

    sys.exit(triples_command(scenes, out, scene_set=scene_set, workers=workers, backend=backend,
                             backend_options=backend_options(backend, thor), echo=click.echo))


@actthor.command("contrast", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the draws and shuffles.")
@click.option("--held-out-objects", default=None,
              help="Comma-separated object types of the unseen-object test split (default: Laptop,Cup,Book).")
def actthor_contrast(directory: str, seed: int, held_out_objects: str | None) -> None:
    """Build contrast sets (four and three after-images) with unseen-room and unseen-object splits,
    written to DIRECTORY/contrast/ as JSON lines.

    \b
    Example:
      alfred-gen actthor contrast act/ --seed 0
    """
    from alfred_gen.actthor.contrast import contrast_command

    sys.exit(contrast_command(directory, seed, held_out_objects, echo=click.echo))


@actthor.command("stats", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--json", "json_out", type=OutputPath(dir_okay=False), help="Also write the tables as JSON here.")
def actthor_stats(directory: str, json_out: str | None) -> None:
    """Print the paper's tables for a collection: data size, actions, contrast sets, splits.

    \b
    Example:
      alfred-gen actthor stats act/
    """
    from alfred_gen.actthor.stats import stats_command

    sys.exit(stats_command(directory, json_out, echo=click.echo))


@actthor.command("sheets", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--out", required=True, type=OutputPath(file_okay=False), help="Directory for the PNG sheets.")
@click.option("--n", "n", type=int, default=10, show_default=True, help="How many sets, drawn by --seed (0: all).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the draw.")
@click.option("--three", is_flag=True, help="Sheets of the three-image sets instead of the four-image ones.")
def actthor_sheets(directory: str, out: str, n: int, seed: int, three: bool) -> None:
    """Write contact sheets (before, action, candidates, the true one framed) of contrast sets.

    \b
    Example:
      alfred-gen actthor sheets act/ --n 10 --seed 0 --out act-sheets/
    """
    from alfred_gen.actthor.sheets import sheets_command

    sys.exit(sheets_command(directory, out, n, seed, three, echo=click.echo))


@cli.group(epilog=EPILOG)
def eqa() -> None:
    """Embodied Question Answering: questions by functional programs over homes, the entropy
    filter, and shortest-path expert trajectories."""


@eqa.command("questions", epilog=EPILOG)
@click.option("--houses", help="Houses: numbers, LiteHouseN or ranges, e.g. 1-200 (those the house filter accepts).")
@click.option("--rooms", help="Single rooms: LitePlan numbers or ranges (1-30,201), or FloorPlanN with --backend thor; "
                              "only the templates that name no room run there.")
@click.option("--out", required=True, type=OutputPath(file_okay=False), help="Output directory.")
@click.option("--templates", help="Comma-separated templates (default: all nine).")
@click.option("--limit", type=click.IntRange(min=1), help="Stop after this many homes with facts, in order.")
@click.option("--min-entropy", type=float, default=0.5, show_default=True,
              help="Keep a question when its normalised answer entropy over homes is at least this ...")
@click.option("--min-homes", type=click.IntRange(min=1), default=4, show_default=True,
              help="... and at least this many homes ask it.")
@click.option("--no-house-filter", is_flag=True, help="Use every house, not only those the house filter accepts.")
@click.option("--all-questions", is_flag=True,
              help="Keep every question the vocabulary allows, not only those the paper's engine keeps "
                   "(its blacklists, volume cut and once-among-unique-rooms rule; docs/eqa.md).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@thor_options
def eqa_questions(houses: str | None, rooms: str | None, out: str, templates: str | None, limit: int | None,
                  min_entropy: float, min_homes: int, no_house_filter: bool, all_questions: bool, jobs: int,
                  backend: str, **thor: Any) -> None:
    """Run every template's program over the homes, sampled as the paper's engine samples them
    (unless --all-questions), and filter the questions by answer entropy; writes OUT/questions.json
    (every question, accepted or not) and OUT/facts/ (per home: rooms, objects, best views,
    colours; reused by later runs).

    \b
    Example:
      alfred-gen eqa questions --houses 1-330 --limit 200 --jobs 2 --out eqa/
    """
    from alfred_gen.eqa.entropy import FilterRule
    from alfred_gen.eqa.questions import QuestionOptions, homes_from_options, parse_templates, questions_command
    from alfred_gen.scenes.houses.filter import HouseFilter

    options = QuestionOptions(homes_from_options(houses, rooms), parse_templates(templates),
                              FilterRule(min_entropy, min_homes), None if no_house_filter else HouseFilter(), limit,
                              backend, all_questions)
    sys.exit(questions_command(options, out, simulator=simulator_for(backend, thor), jobs=jobs, echo=click.echo))


@eqa.command("stats", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--charts", type=OutputPath(file_okay=False),
              help="Directory for the PNG charts (default DIRECTORY/charts).")
@click.option("--no-charts", is_flag=True, help="Print the tables only.")
def eqa_stats(directory: str, charts: str | None, no_charts: bool) -> None:
    """Print questions asked and accepted per template, the answer distributions before and after
    the filter, and the split statistics beside the paper's; write one answer chart per template.

    \b
    Example:
      alfred-gen eqa stats eqa/ --charts eqa-charts/
    """
    from alfred_gen.eqa.stats import stats_command

    sys.exit(stats_command(directory, "" if no_charts else charts, echo=click.echo))


@eqa.command("paths", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--out", type=OutputPath(file_okay=False), help="Output root (default DIRECTORY/paths).")
@click.option("--min-spawn-distance", type=float, default=5.0, show_default=True,
              help="The expert starts at least this far (metres along the grid) from where it stops.")
@click.option("--no-frames", is_flag=True, help="Do not write raw_images/ (the images index is kept).")
@click.option("--depth", is_flag=True, help="Also write depth_images/.")
@click.option("--seg", is_flag=True, help="Also write instance_masks/.")
@click.option("--split", "splits", help="Only the questions of these splits (comma-separated: train,val,test; "
                                        "default all).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@thor_options
def eqa_paths(directory: str, out: str | None, min_spawn_distance: float, no_frames: bool, depth: bool, seg: bool,
              splits: str | None, jobs: int, backend: str, **thor: Any) -> None:
    """Write the expert's shortest path, from a far spawn to the pose that best shows the target,
    for every accepted single-target question (location, color, color_room, preposition), in
    ALFRED's format with an eqa block (answer, T-10/T-30/T-50 starts, geodesic distances); each is
    vetted by replay before it is kept.

    \b
    Example:
      alfred-gen eqa paths eqa/ --jobs 2
      alfred-gen verify eqa/paths --jobs 2
    """
    from alfred_gen.eqa.paths import PathOptions, parse_splits, paths_command

    options = PathOptions(frames=not no_frames, depth=depth, seg=seg, min_spawn_distance=min_spawn_distance,
                          splits=parse_splits(splits))
    sys.exit(paths_command(directory, out, simulator=simulator_for(backend, thor), options=options, jobs=jobs,
                           echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("variant", type=click.Choice(["nav-only", "rev-1", "rev-n"]))
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("--out", required=True, type=OutputPath(file_okay=False), help="Output root directory (one per variant).")
@click.option("--reverse", type=click.Choice(["replay", "shortest"]), default="replay", show_default=True,
              help="How REV walks back: the paper's reversal of the recorded navigation, or a shortest walk "
                   "planned by our navigator (goes around what now blocks the way).")
@click.option("--threshold", type=float, default=1.25, show_default=True,
              help="Success distance in metres from the target position (the paper also reports 0.5).")
@click.option("--n-back", type=click.IntRange(min=2), default=2, show_default=True,
              help="rev-n: how many earlier destinations to walk back to.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@no_complete_option
@thor_options
def derive(variant: str, sources: tuple[str, ...], out: str, reverse: str, threshold: float, n_back: int,
           jobs: int, no_complete: bool, backend: str, **thor: Any) -> None:
    """Derive ALFRED-L's task structures from trajectories (files or directories of them): NAV-ONLY
    keeps only the walks; REV-1 / REV-n walk back to one / several earlier destinations after the
    end. Each derived trajectory is re-rendered, vetted by replay and written as ALFRED's layout;
    a source the variant does not apply to is skipped with its reason.

    Released ALFRED demos need their rooms: `scenes import-alfred`, then `--scenes-catalogue`
    before `derive` (docs/alfred-l.md).

    \b
    Examples:
      alfred-gen derive nav-only out/ --out alfred-l/nav_only --jobs 2
      alfred-gen derive rev-n out/ --out alfred-l/rev_n --n-back 3 --reverse shortest
    """
    from alfred_gen.derive.run import derive_command

    sys.exit(derive_command(variant, sources, out, simulator=simulator_for(backend, thor, not no_complete),
                            reverse=reverse, threshold=threshold, n_back=n_back, jobs=jobs, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("kind", type=click.Choice(["e1", "e2"]))
@click.argument("sources", nargs=-1, required=True, type=click.Path())
@click.option("--out", required=True, type=OutputPath(file_okay=False), help="Output root directory.")
def perturb(kind: str, sources: tuple[str, ...], out: str) -> None:
    """Write the same trajectories with perturbed language: E1 removes directional and spatial
    words and phrases from every instruction, E2 drops the step-by-step instructions and keeps the
    goal. Prints the share of instructions changed and of words removed.

    \b
    Example:
      alfred-gen perturb e1 alfred-l/rev_1 --out alfred-l/rev_1_e1
    """
    from alfred_gen.derive.perturb import perturb_command

    sys.exit(perturb_command(kind, sources, out, echo=click.echo))


@cli.group(epilog=EPILOG)
def export() -> None:
    """Trajectories in other forms: ALFWorld text games, LeRobot and Hugging Face datasets."""


@export.command("alfworld", epilog=EPILOG)
@click.argument("src", type=click.Path())
@click.option("--out", required=True, type=OutputPath(file_okay=False),
              help="Directory of the games (ALFRED's layout).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the choices ALFWorld makes at random (the task sentence's template).")
def export_alfworld(src: str, out: str, seed: int) -> None:
    """Write every trajectory under SRC as an ALFWorld text game (traj_data.json, initial_state.pddl,
    game.tw-pddl with our plan as its walkthrough) into OUT, restoring each start state in lite.
    Prints what was skipped and why (tasks ALFWorld cannot hold), then a summary. Needs the
    alfworld extra: pip install 'alfred-gen[alfworld]'. Released ALFRED demos export in rooms
    imported with `scenes import-alfred` (give the catalogue with --scenes-catalogue before `export`).

    \b
    Example:
      alfred-gen export alfworld out/ --out games/
    """
    from alfred_gen.export.alfworld.export import export_command
    from alfred_gen.scenes.library import simulator

    sys.exit(export_command(src, out, simulator=simulator(), seed=seed, echo=click.echo))


@export.command("lerobot", epilog=EPILOG)
@click.argument("src", type=click.Path())
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Dataset root (LeRobot's root=).")
@click.option("--fps", type=click.IntRange(min=1), default=5, show_default=True,
              help="Frames per second of the videos.")
@click.option("--depth", is_flag=True, help="Also write observation.images.depth (grey video, lossy).")
@click.option("--seg", is_flag=True, help="Also write observation.images.seg (instance colours, lossy).")
def export_lerobot(src: str, out: str, fps: int, depth: bool, seg: bool) -> None:
    """Write every trajectory under SRC as a LeRobotDataset v3.0 into OUT, one episode per
    trajectory and annotation, which LeRobotDataset(repo_id, root=OUT) loads. Resumes (a cache
    under OUT/.alfred-gen-cache); prints skipped trajectories with their reason, then a summary.
    Needs the lerobot extra: pip install 'alfred-gen[lerobot]'.

    \b
    Example:
      alfred-gen export lerobot out/ --out lerobot/ --fps 5
    """
    from alfred_gen.export.lerobot import LeRobotOptions
    from alfred_gen.export.lerobot import export_lerobot as run
    from alfred_gen.scenes.library import simulator

    sys.exit(run(src, out, LeRobotOptions(fps=fps, depth=depth, seg=seg), simulator=simulator(), echo=click.echo))


@export.command("hf", epilog=EPILOG)
@click.argument("src", type=click.Path())
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Dataset directory (parquet shards and a card).")
def export_hf(src: str, out: str) -> None:
    """Write every trajectory under SRC as a Hugging Face dataset into OUT: one row per step
    (image, action, mask, instruction, ids) in data/, one per episode in episodes/, and a dataset
    card README.md; load_dataset("parquet", data_files=...) or load_dataset(OUT) reads it. Needs
    the hf extra: pip install 'alfred-gen[hf]'.

    \b
    Example:
      alfred-gen export hf out/ --out hf/
    """
    from alfred_gen.export.hf import export_hf as run
    from alfred_gen.scenes.library import simulator

    sys.exit(run(src, out, simulator=simulator(), echo=click.echo))


@export.command("alfworld-check", epilog=EPILOG)
@click.argument("games", type=click.Path())
@click.option("--expert", is_flag=True, help="Also let ALFWorld's handcoded expert play every game (slow).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the expert's random choices.")
def export_alfworld_check(games: str, expert: bool, jobs: int, seed: int) -> None:
    """Check games with ALFWorld's own code: its loader must collect every game, and each game's
    walkthrough must be admissible step by step and win in its engine. Exits 1 if any game fails.

    \b
    Example:
      alfred-gen export alfworld-check games/ --expert --jobs 2
    """
    from alfred_gen.export.alfworld.check import check_command

    sys.exit(check_command(games, expert=expert, jobs=jobs, seed=seed, echo=click.echo))



@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--out", required=True, type=click.Path(dir_okay=False), callback=not_empty,
              help="The split file to write (ALFRED's oct21.json shape).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the room and trajectory draws.")
@click.option("--sizes", help="Shares of the trajectories, e.g. valid_seen=0.05,tests_unseen=0.1 (train takes the "
                              "rest; default ALFRED's proportions).")
def splits(directory: str, out: str, seed: int, sizes: str | None) -> None:
    """Write ALFRED's split file (train, valid_seen, valid_unseen, tests_seen, tests_unseen; one entry
    per annotation) for the trajectories under DIRECTORY; the rooms of the unseen splits are held out
    of the others (for imported FloorPlans, ALFRED's own unseen rooms).

    \b
    Example:
      alfred-gen splits out/ --out out/splits.json --seed 0
    """
    from alfred_gen.traj.splits import splits_command

    sys.exit(splits_command(directory, out, seed=seed, sizes=sizes, echo=click.echo))


@cli.group("eval", epilog=EPILOG)
def eval_group() -> None:
    """Roll agents out in the environment (alfred_gen.env) and score them with each paper's metrics."""


@eval_group.command("alfred", epilog=EPILOG)
@click.argument("source", type=click.Path())
@click.option("--agent", help="Agent factory as module:function, or a built-in: expert, random.")
@click.option("--actseqs", type=click.Path(dir_okay=False),
              help="Score an ALFRED leaderboard action-sequence file (tests_actseqs_dump_*.json) instead of an agent.")
@click.option("--split", help="With a split file: only this split (default: every split but train).")
@click.option("--data", "data_root", type=click.Path(file_okay=False),
              help="With a split file: where its tasks are (default: the split file's directory).")
@click.option("--mode", type=click.Choice(["mask", "object_id", "high_level"]), default="mask", show_default=True,
              help="How the agent acts: ALFRED's masks, object ids, or high-level PDDL actions.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--out", type=click.Path(dir_okay=False), callback=not_empty,
              help="Results file (episodes and metrics), rewritten after each episode; a rerun resumes it.")
@click.option("--step-timeout", type=float, default=60.0, show_default=True,
              help="Seconds the agent's reset() or act() may take before the episode fails.")
@click.option("--mask-rule", type=click.Choice(["affordance", "alfred"]), default="affordance", show_default=True,
              help="Which object under a mask is the target: the best IoU that accepts the action, or "
                   "the best that accepts any action (ALFRED's code).")
@click.option("--within", type=click.FloatRange(min=0), default=None,
              help="ALFRED-L: metres from a derived task's destination that count as arrived "
                   "(default: each file's goal block, 1.25 as derive writes it).")
@click.option("--language", type=click.Choice(["e1", "e2"]), multiple=True,
              help="ALFRED-L: perturb the language the agent gets first (e1: no spatial words, "
                   "e2: no step-by-step lines); repeat to combine.")
@no_complete_option
@thor_options
def eval_alfred(source: str, agent: str | None, actseqs: str | None, split: str | None, data_root: str | None,
                mode: str, jobs: int, out: str | None, step_timeout: float, mask_rule: str, within: float | None,
                language: tuple[str, ...], no_complete: bool, backend: str, **thor: Any) -> None:
    """Run an agent on every episode (trajectory and annotation) of SOURCE (a directory, a
    traj_data.json or a split file) with ALFRED's rules (1,000 steps, 10 failed actions) and print
    ALFRED's metrics: success rate, goal-condition success, and their path-length-weighted versions,
    per task type and split. Derived trajectories (ALFRED-L) are scored by their goal blocks and also
    tabled per structure and language.

    \b
    Examples:
      alfred-gen eval alfred out/ --agent expert --jobs 2
      alfred-gen eval alfred out/splits.json --split valid_seen --agent my_agent:make --out results.json
      alfred-gen eval alfred alfred-l/ --agent my_agent:make --within 1.25 --language e1
    """
    from alfred_gen.eval.run import EvalOptions
    from alfred_gen.eval.run import eval_alfred as run_eval

    if (agent is None) == (actseqs is None):
        raise click.UsageError("give one of --agent or --actseqs")
    options = EvalOptions(agent or "", mode=mode, step_timeout=step_timeout,
                          simulator=simulator_for(backend, thor, not no_complete), actseqs=actseqs,
                          mask_rule=mask_rule, within=within, language=language)
    sys.exit(run_eval(source, options, split=split, data_root=data_root, jobs=jobs, out=out, echo=click.echo))


@eval_group.command("actthor", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--predictions", type=click.Path(dir_okay=False),
              help="JSON of set key ('4:12': sets4.jsonl id 12) -> chosen candidate index.")
@click.option("--agent", help="Agent factory as module:function, or a built-in: random, oracle, pixel-diff.")
@click.option("--out", type=OutputPath(dir_okay=False), callback=not_empty,
              help="Results file (figures and predictions by set key).")
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds the agent's predict() may take on one set before the set counts as failed.")
def eval_actthor(directory: str, predictions: str | None, agent: str | None, out: str | None,
                 timeout: float) -> None:
    """Score ACT-Thor predictions on the contrast sets of DIRECTORY (`actthor contrast`): accuracy per
    action and per split (unseen rooms, unseen objects), on four- and three-image sets.

    \b
    Examples:
      alfred-gen eval actthor act/ --agent pixel-diff --out act-pixel-diff.json
      alfred-gen eval actthor act/ --predictions my_predictions.json
    """
    from alfred_gen.eval.actthor import eval_actthor as run_eval

    if (predictions is None) == (agent is None):
        raise click.UsageError("give one of --predictions or --agent")
    sys.exit(run_eval(directory, predictions=predictions, agent=agent, out=out, timeout=timeout, echo=click.echo))


@eval_group.command("eqa", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--agent", required=True,
              help="Agent factory as module:function, or a built-in: expert, random, forward.")
@click.option("--paths", "paths_root", type=click.Path(file_okay=False),
              help="Where the expert paths are (default DIRECTORY/paths).")
@click.option("--split", "splits", help="Only these splits (comma-separated: train,val,test; default all).")
@click.option("--max-steps", type=click.IntRange(min=1), default=100, show_default=True,
              help="Actions an episode may take before the agent must answer.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--out", type=click.Path(dir_okay=False), callback=not_empty,
              help="Results file (episodes and metrics), rewritten after each episode; a rerun resumes it.")
@click.option("--step-timeout", type=float, default=60.0, show_default=True,
              help="Seconds the agent's reset(), act() or answer() may take before the episode fails.")
@thor_options
def eval_eqa(directory: str, agent: str, paths_root: str | None, splits: str | None, max_steps: int, jobs: int,
             out: str | None, step_timeout: float, backend: str, **thor: Any) -> None:
    """Spawn an agent at the T-10, T-30 and T-50 starts of every expert path of an EQA dataset
    (`eqa questions` + `eqa paths`), let it navigate (MoveAhead, RotateLeft, RotateRight, Stop) and
    answer, and print EQA's metrics: d_T, d_delta and d_min to the target's viewing region, %r_T,
    %r_e, %stop, answer accuracy and mean rank, per start, split and template.

    \b
    Examples:
      alfred-gen eval eqa eqa/ --agent expert --jobs 2
      alfred-gen eval eqa eqa/ --agent my_agent:make --split test --out results.json
    """
    from alfred_gen.eqa.paths import parse_splits
    from alfred_gen.eval.eqa import EqaEvalOptions
    from alfred_gen.eval.eqa import eval_eqa as run_eval

    options = EqaEvalOptions(agent, max_steps=max_steps, step_timeout=step_timeout,
                             simulator=simulator_for(backend, thor))
    sys.exit(run_eval(directory, options, paths=paths_root, splits=parse_splits(splits) if splits else None,
                      jobs=jobs, out=out, echo=click.echo))


def _debugging() -> bool:
    return _debug_flag[0] or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


@cli.group(epilog=EPILOG)
def annotate() -> None:
    """People's language, as ALFRED collected it: task pages to annotate, vote pages, answers imported."""


@annotate.command("export", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False), callback=not_empty,
              help="Directory for the HIT pages (hits.jsonl lists them).")
@click.option("--per-hit", type=int, default=1, show_default=True, help="Demonstrations per HIT page.")
def annotate_export(directory: str, out: str, per_hit: int) -> None:
    """Write a task page per --per-hit demos of DIRECTORY: frames, subgoals, a goal and one line per
    subgoal to write; answers come out as JSON lines (offline, or posted as an external question).

    \b
    Example:
      alfred-gen annotate export out/ --out hits/ --per-hit 3
    """
    from alfred_gen.annotate.hits import write_pages

    sys.exit(write_pages(directory, out, per_hit, "task", echo=click.echo))


@annotate.command("vote", epilog=EPILOG)
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--out", required=True, type=click.Path(file_okay=False), callback=not_empty,
              help="Directory for the vote pages (hits.jsonl lists them).")
@click.option("--per-hit", type=int, default=1, show_default=True, help="Demonstrations per vote page.")
def annotate_vote(directory: str, out: str, per_hit: int) -> None:
    """Write vote pages: each demo of DIRECTORY with its annotations, to tick those that fit.

    \b
    Example:
      alfred-gen annotate vote out/ --out votes/
    """
    from alfred_gen.annotate.hits import write_pages

    sys.exit(write_pages(directory, out, per_hit, "vote", echo=click.echo))


@annotate.command("import", epilog=EPILOG)
@click.argument("answers", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.argument("directory", type=click.Path(file_okay=False))
def annotate_import(answers: tuple[str, ...], directory: str) -> None:
    """Merge answers and votes (JSON lines from the pages) into DIRECTORY's turk_annotations;
    one line per refused answer.

    \b
    Example:
      alfred-gen annotate import answers.jsonl votes.jsonl out/
    """
    from alfred_gen.annotate.answers import import_answers

    sys.exit(import_answers(list(answers), directory, echo=click.echo))


def _sigterm_as_ctrl_c() -> Callable[[], None]:
    """From here on SIGTERM stops the command as Ctrl-C does (one line, exit INTERRUPTED, finished
    work kept), in every phase: start-up, planning, running (a command may install its own handler
    for a phase; it restores this one after). A worker forked from this process that inherited the
    handler dies of SIGTERM as it would have without it. Returns the undo (main thread only)."""
    parent = os.getpid()

    def handler(signum: int, frame: Any) -> None:
        if os.getpid() != parent:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread (an embedding program): leave its signals alone
        return lambda: None
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _redeliver_lost_interrupt(previous_hook)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)
        sys.unraisablehook = previous_hook

    return restore


#: Seconds after a lost interrupt (see :func:`_redeliver_lost_interrupt`) before it is delivered again.
REDELIVER_SECONDS = 0.01


def _redeliver_lost_interrupt(previous: Callable[[Any], object]) -> Callable[[Any], None]:
    """An unraisable-exception hook that never lets Ctrl-C or SIGTERM be lost.

    Python prints and drops an exception raised in a weakref callback or a ``__del__`` ("Exception
    ignored in ..."). Our KeyboardInterrupt is dropped too when the signal lands there (importlib's
    module-lock callbacks run all through start-up), and the command then ran on to its end with
    exit 0. This hook says nothing of it and, from a thread a moment later, has the main thread run
    SIGTERM's handler again, so the interrupt is raised in ordinary code. Once a command has
    restored the default handler, :func:`_thread.interrupt_main` does nothing."""
    def hook(unraisable: Any) -> None:
        if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
            timer = threading.Timer(REDELIVER_SECONDS, _thread.interrupt_main, (signal.SIGTERM,))
            timer.daemon = True
            timer.start()
            return
        previous(unraisable)

    return hook


def _exit_interrupted() -> NoReturn:
    """One line and exit INTERRUPTED.

    CPython 3.11 remembers a KeyboardInterrupt that escaped code run by ``exec`` of a string (as
    ``dataclasses`` and ``namedtuple`` build their methods) even once it is caught, and under
    ``python -m`` then ends the process by SIGINT (-2) rather than with our code. Evaluating a
    string again clears that memory (its evaluation resets the flag before it runs)."""
    click.echo("alfred-gen: interrupted", err=True)
    exec("pass")  # see the docstring: not a no-op
    sys.exit(ExitCode.INTERRUPTED)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point and the one error boundary: a UserError is one line and its exit
    code, Ctrl-C or SIGTERM is INTERRUPTED, and any other exception is a bug: one line, exit
    INTERNAL (with the traceback under ``--debug``)."""
    _debug_flag[0] = False
    restore_sigterm: Callable[[], None] = lambda: None  # noqa: E731 - replaced once the handler is in
    try:
        # Installed inside the try: a SIGTERM the instant after it is in is still caught below.
        restore_sigterm = _sigterm_as_ctrl_c()
        cli.main(args=argv, prog_name="alfred-gen", standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except click.ClickException as usage:
        usage.show()
        sys.exit(ExitCode.USAGE)
    except click.exceptions.Abort:
        _exit_interrupted()
    except UserError as error:
        click.echo(f"alfred-gen: error: {error}", err=True)
        sys.exit(error.code)
    except KeyboardInterrupt:
        _exit_interrupted()
    except OSError as error:  # a path that cannot be written (a file in the way, read-only, full)
        if _debugging():
            traceback.print_exc()
        click.echo(f"alfred-gen: error: {describe_os_error(error)}", err=True)
        sys.exit(ExitCode.BAD_INPUT)
    except Exception as error:  # the error boundary: a bug, never a traceback unless asked
        if caused_by_interrupt(error):  # an interrupt Python re-raised as another exception
            _exit_interrupted()
        if _debugging():
            traceback.print_exc()
        message = " ".join(str(error).split())
        click.echo(
            f"alfred-gen: internal error: {type(error).__name__}: {message} "
            "(please report it; --debug shows the traceback)",
            err=True,
        )
        sys.exit(ExitCode.INTERNAL)
    finally:
        restore_sigterm()


if __name__ == "__main__":
    main()
