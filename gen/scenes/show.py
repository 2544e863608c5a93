"""`alfred-gen scenes show N --out map.png [--pose x,z,rotation,horizon]`: draw a room.

Writes the top-down map; with ``--pose`` also the agent's rendered view from that pose, beside the
map as ``<name>-view.png``. Files are written atomically. Bad input (an unknown scene, a malformed
pose, a pose off the room's grid) is a one-line UserError.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from alfred_gen.atomic import write_png
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.scenes.grid import HORIZONS, ROTATIONS
from alfred_gen.sim.scene import Pose, Scene, grid_key

#: Rooms span tens of metres; a larger coordinate is a typo (and the trajectory schema's bound).
MAX_METRES = 1000.0


def parse_pose(text: str) -> Pose:
    """``x,z,rotation,horizon`` (ALFRED's openable.json order) as a Pose; UserError if malformed."""
    fields = [f.strip() for f in text.split(",")]
    if len(fields) != 4:
        raise UserError(f"--pose {text!r}: expected x,z,rotation,horizon (four numbers)", ExitCode.USAGE)
    try:
        x, z, rotation, horizon = (float(f) for f in fields)
    except ValueError:
        raise UserError(f"--pose {text!r}: expected four numbers x,z,rotation,horizon", ExitCode.USAGE) from None
    if not all(math.isfinite(v) for v in (x, z, rotation, horizon)):
        raise UserError(f"--pose {text!r}: values must be finite", ExitCode.USAGE)
    if not (abs(x) <= MAX_METRES and abs(z) <= MAX_METRES):
        raise UserError(f"--pose {text!r}: x and z are metres, at most {MAX_METRES:g} from the origin", ExitCode.USAGE)
    if rotation % 90 != 0:
        raise UserError(f"--pose {text!r}: rotation must be one of {', '.join(map(str, ROTATIONS))}", ExitCode.USAGE)
    if not -30 <= horizon <= 60:
        raise UserError(
            f"--pose {text!r}: horizon must lie in [-30, 60] (e.g. {', '.join(map(str, HORIZONS))})", ExitCode.USAGE
        )
    return Pose(x, z, int(rotation) % 360, int(horizon) if horizon == int(horizon) else horizon)  # type: ignore[arg-type]  # Pose.horizon takes a float horizon between the 15-degree steps too


def check_on_grid(scene: Scene, pose: Pose) -> None:
    """UserError NOT_FOUND unless the pose stands on one of the scene's reachable points."""
    points = {grid_key(x, z): (x, z) for x, z in scene.reachable}
    point = points.get(grid_key(pose.x, pose.z))
    if point is None or abs(point[0] - pose.x) > 1e-3 or abs(point[1] - pose.z) > 1e-3:
        raise UserError(f"--pose ({pose.x}, {pose.z}) is not a reachable point of {scene.name}", ExitCode.NOT_FOUND)


def view_path(out: Path) -> Path:
    """Where the rendered view goes next to the map: ``map.png`` -> ``map-view.png``."""
    return out.with_name(f"{out.stem}-view{out.suffix or '.png'}")


def save_view(scene: Scene, pose: Pose, out: Path, scale: int = 2) -> Path:
    """Render the view from ``pose`` (300 x 300, scaled up for looking at) and write it atomically."""
    from PIL import Image

    from alfred_gen.scenes.view import render_view

    frames = render_view(scene, pose)
    image = Image.fromarray(frames.rgb)
    if scale > 1:
        image = image.resize((image.width * scale, image.height * scale), Image.Resampling.NEAREST)
    write_png(image, out)
    return out


def show_command(scene_ref: str, out: str, pose_text: str | None, echo: Callable[[str], None]) -> int:
    """Draw the map of a scene (and the view from a pose); returns the exit code."""
    from alfred_gen.scenes.library import get_scene
    from alfred_gen.scenes.topdown import save_map

    pose = parse_pose(pose_text) if pose_text else None
    scene = get_scene(scene_ref)
    if pose is not None:
        check_on_grid(scene, pose)
    path = Path(out)
    try:
        save_map(scene, path)
        echo(f"wrote {path}")
        if pose is not None:
            view = save_view(scene, pose, view_path(path))
            echo(f"wrote {view}")
    except OSError as error:
        raise UserError(f"cannot write {path}: {error}", ExitCode.BAD_INPUT) from error
    return ExitCode.OK
