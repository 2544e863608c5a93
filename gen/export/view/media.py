"""The pictures of the site: frames linked in, depth made visible, thumbnails, room maps.

Frames are hard-linked from the trajectory's folders into the site (no bytes copied, so a 100-demo
site builds in seconds and takes no extra disk space); where a hard link is impossible (another
file system) they are copied. Either way the site holds its own files: it can be moved, served or
zipped on its own. Depth PNGs hold 16-bit millimetres, which a browser shows almost black, so they
are drawn on the video's colour ramp instead (:func:`alfred_gen.export.annotate.depth_to_rgb`).

Room maps are the top-down maps of ``alfred-gen scenes show`` (:mod:`alfred_gen.scenes.topdown`),
one per room, with the agent's path drawn over them by the page from pixel positions computed here.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from alfred_gen.atomic import write_bytes
from alfred_gen.export.annotate import depth_to_rgb
from alfred_gen.export.frame_source import KINDS
from alfred_gen.export.storyboard import AgentPose
from alfred_gen.replay.images import decode_depth

THUMBNAIL_SIZE = 96
THUMBNAIL_QUALITY = 80


def link_or_copy(source: Path, target: Path) -> None:
    """Hard-link ``source`` at ``target`` (replacing it), or copy it where links are impossible."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def publish_frames(trajectory_dir: Path, stems: Sequence[str], kinds: set[str], out_dir: Path) -> None:
    """Put every frame of ``kinds`` into ``out_dir/<kind>/`` under its stem: RGB and segmentation
    linked as they are, depth converted to a coloured PNG."""
    for kind in sorted(kinds):
        folder, suffix = KINDS[kind]
        for stem in dict.fromkeys(stems):
            source = trajectory_dir / folder / f"{stem}{suffix}"
            target = out_dir / kind / f"{stem}{suffix}"
            if kind == "depth":
                picture = Image.fromarray(depth_to_rgb(decode_depth(source.read_bytes())), "RGB")
                buffer = io.BytesIO()
                picture.save(buffer, "PNG")
                write_bytes(target, buffer.getvalue(), durable=False)
            else:
                link_or_copy(source, target)


def write_thumbnail(frame: Path, target: Path) -> None:
    """A small square JPEG of a frame for the index (the index shows hundreds at once)."""
    with Image.open(frame) as image:
        small = image.convert("RGB").resize((THUMBNAIL_SIZE, THUMBNAIL_SIZE), Image.Resampling.BILINEAR)
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=THUMBNAIL_QUALITY, optimize=False, progressive=False)
    write_bytes(target, buffer.getvalue(), durable=False)


@dataclass(frozen=True)
class RoomMap:
    """A room's map in the site: its file (relative to the site) and size, and how floor points map
    to its pixels (``px = origin_x + x * scale``, ``py = origin_y - z * scale``)."""

    src: str
    width: int
    height: int
    origin_x: float
    origin_y: float
    scale: float

    def pixel(self, x: float, z: float) -> tuple[float, float]:
        return (round(self.origin_x + x * self.scale, 1), round(self.origin_y - z * self.scale, 1))

    def path(self, poses: Sequence[AgentPose]) -> list[list[float]]:
        """``[px, py, rotation]`` of each pose."""
        return [[*self.pixel(pose.x, pose.z), pose.rotation] for pose in poses]


_maps: dict[tuple[str, str], RoomMap | None] = {}


def room_map(scene_name: str, site: Path) -> RoomMap | None:
    """The map of the room a trajectory names, drawn into ``site/maps/`` once per room and process;
    None when no room of that name is known here (a FloorPlan without an imported catalogue)."""
    key = (str(site), scene_name)
    if key not in _maps:
        _maps[key] = _draw_room_map(scene_name, site)
    return _maps[key]


def _draw_room_map(scene_name: str, site: Path) -> RoomMap | None:
    from alfred_gen.atomic import write_png
    from alfred_gen.errors import UserError
    from alfred_gen.scenes.library import find_scene
    from alfred_gen.scenes.topdown import draw_map, map_extent, map_pixel, map_scale

    try:
        scene = find_scene(scene_name)
    except UserError:
        return None
    image = draw_map(scene)
    name = "".join(c if c.isalnum() or c in "_-" else "_" for c in scene_name)
    target = site / "maps" / f"{name}.png"
    if not target.exists():
        write_png(image, target)
    scale = map_scale(scene)
    origin_x, origin_y = map_pixel(map_extent(scene), 0.0, 0.0, scale)
    return RoomMap(f"maps/{name}.png", image.width, image.height, origin_x, origin_y, scale)
