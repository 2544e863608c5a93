"""The `alfred-gen` command line: parses options and calls one library function per command.

No pipeline logic lives here; every command body is a function a Python user can call directly.
Commands import their pipeline only when they run, so ``alfred-gen --help`` and one-shot commands
start fast.

:func:`main` is the one error boundary: a UserError is one line and its exit code; anything else
is a bug, reported in one line with exit code INTERNAL (``--debug`` or ``ALFRED_GEN_DEBUG=1``
shows the traceback).
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from alfred_gen import __version__
from alfred_gen.errors import ExitCode, UserError, exit_code_table

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


def thor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Options --backend, --thor-build, --thor-platform, --x-display: the command receives
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
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def backend_options(backend: str, thor: dict[str, Any]) -> dict[str, Any]:
    """The THOR options (--thor-build, --thor-platform, --x-display) that were set, for the thor
    backend; lite takes none."""
    if backend != "thor":
        return {}
    return {name: value for name, value in thor.items() if value is not None}


def simulator_for(backend: str, thor: dict[str, Any]) -> Simulator:
    """The simulator recipe the options name, with the scene library as its lookup."""
    from alfred_gen.scenes.library import simulator

    return simulator(backend, backend_options(backend, thor))


def task_options(command: Any) -> Any:
    """The options naming one task in one start state, shared by `plan` and `generate`."""
    options = [
        click.option("--scene", required=True, help="Scene number (1-30, 201-230, 301-330, 401-430) or LitePlanN."),
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
@click.option("--pddl-out", type=click.Path(dir_okay=False), help="Write the PDDL problem here (and X.domain.pddl).")
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
    """The built-in procedural rooms (LitePlanN): list them, draw one; import real ALFRED rooms."""


@scenes.command("list", epilog=EPILOG)
@click.option("--room-type", type=click.Choice(["kitchen", "living_room", "bedroom", "bathroom"]),
              help="Only rooms of this type.")
def scenes_list(room_type: str | None) -> None:
    """Print number, name, room type, size, reachable points, receptacles and objects of each room.

    \b
    Example:
      alfred-gen scenes list --room-type kitchen
    """
    from alfred_gen.scenes.listing import list_scenes

    sys.exit(list_scenes(echo=click.echo, room_type=room_type, note=lambda text: click.echo(text, err=True)))


@scenes.command("import-alfred", epilog=EPILOG)
@click.argument("alfred_dir", type=click.Path())
@click.option("--out", type=click.Path(dir_okay=False),
              help="Catalogue file to write (default: --scenes-catalogue, $ALFRED_GEN_SCENES, else "
                   "~/.cache/alfred-gen/scenes/alfred.json).")
@click.option("--thor-db", type=click.Path(file_okay=False),
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
@click.option("--out", required=True, type=click.Path(dir_okay=False), help="PNG file for the top-down map.")
@click.option("--pose", help="x,z,rotation,horizon: also render the view from this pose (to OUT-view.png).")
def scenes_show(scene: str, out: str, pose: str | None) -> None:
    """Draw a top-down map of SCENE (a number or LitePlanN): walls, furniture, receptacles,
    reachable grid, interaction poses.

    \b
    Example:
      alfred-gen scenes show 7 --out kitchen7.png --pose 0.5,-1.0,180,30
    """
    from alfred_gen.scenes.show import show_command

    sys.exit(show_command(scene, out, pose, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("traj", type=click.Path())
@click.option("--depth", is_flag=True, help="Also write depth_images/ (16-bit PNG, millimetres).")
@click.option("--seg", is_flag=True, help="Also write instance_masks/ (RGB PNG) and their color_to_object_id.json.")
@click.option("--out", type=click.Path(file_okay=False),
              help="Write frames here (default: the trajectory's directory).")
@thor_options
def replay(traj: str, depth: bool, seg: bool, out: str | None, backend: str, **thor: Any) -> None:
    """Re-execute a trajectory (a traj_data.json or its directory) and write the frames its
    `images` list names; print failing steps and goal conditions. Exits 1 if the replay fails,
    in which case nothing on disk is changed.

    \b
    Example:
      alfred-gen replay out/pick_heat_then_place_in_recep-Mug-None-CounterTop-1/trial_T1 --depth --seg
    """
    from alfred_gen.replay.rerender import replay_command

    sys.exit(replay_command(traj, out, simulator=simulator_for(backend, thor), depth=depth, seg=seg, echo=click.echo))


@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@thor_options
def verify(directory: str, jobs: int, backend: str, **thor: Any) -> None:
    """Replay every traj_data.json under DIRECTORY from scratch: every action must succeed and the
    goal must hold. Prints one line per failed trajectory and a summary by reason; exits 1 if any fail.

    \b
    Example:
      alfred-gen verify out/ --jobs 2
    """
    from alfred_gen.replay.verify import verify_directory

    sys.exit(verify_directory(directory, simulator=simulator_for(backend, thor), jobs=jobs, echo=click.echo))


@cli.command(epilog=EPILOG)
@task_options
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output root directory.")
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
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output root directory.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed: tuples, spawn seeds, trial ids.")
@click.option("--workers", type=int, default=1, show_default=True, help="Worker processes (one simulator each).")
@click.option("--task-types", multiple=True, help="Comma-separated task types (default: all seven).")
@click.option("--scenes", multiple=True, help="Comma-separated scenes or ranges, e.g. 1-30,201 (default: all).")
@click.option("--demos-per-task", type=int, default=3, show_default=True, help="Demonstrations per task tuple.")
@click.option("--shard", help="I/M: this job's part of the work (0 <= I < M), for cluster job arrays.")
@thor_options
@click.option("--no-frames", is_flag=True, help="Do not write raw_images/ (the images index is kept).")
@click.option(
    "--scene-set",
    type=click.Choice(["lite", "alfred"]),
    default="lite",
    show_default=True,
    help="Rooms to sample: lite's procedural LitePlanN, or real THOR rooms (FloorPlanN) imported with "
    "`alfred-gen scenes import-alfred` (needed for --backend thor).",
)
def sample(
    n: int,
    out: str,
    seed: int,
    workers: int,
    task_types: tuple[str, ...],
    scenes: tuple[str, ...],
    demos_per_task: int,
    shard: str | None,
    backend: str,
    no_frames: bool,
    scene_set: str,
    **thor: Any,
) -> None:
    """Generate N balanced, vetted trajectories into OUT (resumable: run it again to continue).

    \b
    Example:
      alfred-gen sample --n 14 --out out/ --workers 2 --demos-per-task 1
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
        )
    )


@cli.command(epilog=EPILOG)
@click.argument("directory", type=click.Path())
@click.option("--charts", type=click.Path(file_okay=False), help="Also write PNG bar charts into this directory.")
def stats(directory: str, charts: str | None) -> None:
    """Count trajectories by task type, object, receptacle, scene and room type, with slot balance.

    \b
    Example:
      alfred-gen stats out/ --charts out-charts/
    """
    from alfred_gen.sample.stats import stats_command

    sys.exit(stats_command(directory, charts, echo=click.echo))


def _debugging() -> bool:
    return _debug_flag[0] or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no")


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point and the one error boundary: a UserError is one line and its exit
    code, Ctrl-C is INTERRUPTED, and any other exception is a bug: one line, exit INTERNAL (with the
    traceback under ``--debug``)."""
    _debug_flag[0] = False
    try:
        cli.main(args=argv, prog_name="alfred-gen", standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except click.ClickException as usage:
        usage.show()
        sys.exit(ExitCode.USAGE)
    except click.exceptions.Abort:
        click.echo("alfred-gen: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except UserError as error:
        click.echo(f"alfred-gen: error: {error}", err=True)
        sys.exit(error.code)
    except KeyboardInterrupt:
        click.echo("alfred-gen: interrupted", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except Exception as error:  # the error boundary: a bug, never a traceback unless asked
        if _debugging():
            traceback.print_exc()
        message = " ".join(str(error).split())
        click.echo(
            f"alfred-gen: internal error: {type(error).__name__}: {message} "
            "(please report it; --debug shows the traceback)",
            err=True,
        )
        sys.exit(ExitCode.INTERNAL)


if __name__ == "__main__":
    main()
