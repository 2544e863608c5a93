"""A top-down map of a Scene, drawn with Pillow: for people checking a room by eye.

Drawn, bottom to top: the floor (the area inside the walls), walls and the door leaf, furniture
boxes coloured by type (lower things first, so a microwave shows on its counter), pickupable
objects as small outlined boxes, the reachable grid as dots, interaction poses as arrows (the
agent's facing) with a thin line to their target, the start pose as a larger arrow, and labels
on every receptacle. x grows to the right and z upwards, as seen from above.

A house is drawn the same way at a smaller scale, with each room's floor tinted by its type (an
open-plan room's with diagonal stripes of its other types' tints, and ``+type`` in its label), its
doorways as open gaps outlined in the door colour, and a label per room (id and floor area).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFont

from alfred_gen.atomic import write_png
from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.scenes.listing import room_size
from alfred_gen.scenes.procedural.build import needs_pose
from alfred_gen.sim.scene import Pose, Scene, hash_str

PIXELS_PER_METRE = 140
#: Houses are larger: drawn at this scale instead.
HOUSE_PIXELS_PER_METRE = 100
MARGIN = 60
TITLE_HEIGHT = 28

FLOOR = (236, 230, 216)
WALL = (90, 90, 96)
DOOR = (150, 104, 60)
GRID_DOT = (60, 120, 220)
POSE = (214, 60, 40)
START = (20, 150, 60)
TEXT = (20, 20, 20)
DOORWAY = (232, 176, 96)

#: Floor tint of a house's rooms by type: one for each of ``HOUSE_ROOM_TYPES``, all different, so a
#: reader of the map tells a dining room from the kitchen beside it.
ROOM_FLOORS = {
    "kitchen": (242, 230, 204),
    "living_room": (232, 238, 214),
    "bedroom": (226, 230, 244),
    "bathroom": (218, 238, 238),
    "dining_room": (244, 222, 214),
    "gym": (236, 226, 242),
    "garage": (222, 222, 222),
}

#: Things whose bottom is at least this high hang on a wall: drawn as outlines over what stands below.
WALL_MOUNTED = 1.0


#: Width and spacing (pixels) of the stripes that mark an open-plan room's other types.
STRIPE_WIDTH = 8
STRIPE_SPACING = 24


def _stripes(image: Image.Image, outline: list[tuple[float, float]], tint: tuple[int, int, int]) -> None:
    """Diagonal stripes of ``tint`` over the polygon ``outline`` (pixels), clipped to it."""
    inside = Image.new("L", image.size, 0)
    ImageDraw.Draw(inside).polygon(outline, fill=255)
    lines = Image.new("L", image.size, 0)
    pen = ImageDraw.Draw(lines)
    width, height = image.size
    for start in range(-height, width, STRIPE_SPACING):
        pen.line([(start, 0), (start + height, height)], fill=255, width=STRIPE_WIDTH)
    mask = ImageChops.multiply(inside, lines)
    image.paste(tint, (0, 0, width, height), mask)


def _type_color(object_type: str, object_id: str) -> tuple[int, int, int]:
    """The renderer's colour for the type when available, so maps and frames agree."""
    try:
        from alfred_gen.sim.palette import type_color

        return tuple(type_color(object_type, object_id))  # type: ignore[return-value]  # tuple() over three channels: mypy sees tuple[int, ...]
    except Exception:  # the renderer's palette is optional here
        value = hash_str(object_type)
        return (80 + value % 150, 80 + (value >> 8) % 150, 80 + (value >> 16) % 150)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1 has only the small bitmap font
        return ImageFont.load_default()


def map_extent(scene: Scene) -> tuple[float, float, float, float]:
    """(x0, x1, z0, z1): the floor area the map shows, in metres (walls and every object)."""
    boxes = list(scene.walls) + [o.box for o in scene.objects]
    return (min(b.lo[0] for b in boxes), max(b.hi[0] for b in boxes),
            min(b.lo[2] for b in boxes), max(b.hi[2] for b in boxes))


def map_scale(scene: Scene) -> float:
    """Pixels per metre of a scene's map (houses are drawn smaller than single rooms)."""
    return HOUSE_PIXELS_PER_METRE if scene.is_house else PIXELS_PER_METRE


def map_pixel(extent: tuple[float, float, float, float], x: float, z: float,
              scale: float = PIXELS_PER_METRE) -> tuple[float, float]:
    """Where the floor point (x, z) lies on the map of a scene with this :func:`map_extent` and
    :func:`map_scale`, in pixels (others draw on the map with it: the dataset browser's walked path)."""
    x0, _, _, z1 = extent
    return (MARGIN + (x - x0) * scale, TITLE_HEIGHT + MARGIN + (z1 - z) * scale)


def draw_map(scene: Scene) -> Image.Image:
    """The map image of a scene."""
    extent = map_extent(scene)
    x0, x1, z0, z1 = extent
    scale = map_scale(scene)
    width = int((x1 - x0) * scale) + 2 * MARGIN
    height = int((z1 - z0) * scale) + 2 * MARGIN + TITLE_HEIGHT
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)

    def px(x: float, z: float) -> tuple[float, float]:
        return map_pixel(extent, x, z, scale)

    def rect(lo: tuple[float, ...], hi: tuple[float, ...]) -> list[float]:
        ax, az = px(lo[0], hi[2])
        bx, bz = px(hi[0], lo[2])
        return [ax, az, max(ax, bx), max(az, bz)]

    draw.rectangle(rect((x0, 0, z0), (x1, 0, z1)), fill=FLOOR)
    _outside_to_white(draw, scene, rect, x0, x1, z0, z1)
    for room in scene.rooms:
        outline = [px(x, z) for x, z in room.floor]
        draw.polygon(outline, fill=ROOM_FLOORS.get(room.room_type, FLOOR))
        for other in room.also:
            _stripes(image, outline, ROOM_FLOORS.get(other, FLOOR))
    for wall in sorted(scene.walls, key=lambda w: (w.hi[1] - w.lo[1], w.lo)):
        door_leaf = wall.lo[1] <= 0.5 and wall.hi[1] - wall.lo[1] <= 2.2
        draw.rectangle(rect(wall.lo, wall.hi), fill=DOOR if door_leaf else WALL)
    for doorway in scene.doorways:  # open: the floor shows through, the lintel above is left out
        draw.rectangle(rect(doorway.box.lo, doorway.box.hi), fill=FLOOR, outline=DOORWAY, width=3)

    small = _font(11)
    label_font = _font(12)
    fixed = [o for o in scene.objects if not OBJECT_TYPES.get(o.object_type, _NOT_PICKUPABLE).pickupable]
    loose = [o for o in scene.objects if OBJECT_TYPES.get(o.object_type, _NOT_PICKUPABLE).pickupable]
    for obj in sorted(fixed, key=lambda o: (o.box.hi[1], o.object_id)):
        color = _type_color(obj.object_type, obj.object_id)
        if obj.box.lo[1] >= WALL_MOUNTED:  # upper cabinets, shelves on the wall: outline only
            draw.rectangle(rect(obj.box.lo, obj.box.hi), outline=_shade(color, 0.7), width=2)
            continue
        for part in obj.parts:
            draw.rectangle(rect(part.lo, part.hi), fill=_shade(color, 0.8), outline=(60, 60, 60))
        draw.rectangle(rect(obj.box.lo, obj.box.hi), fill=color, outline=(40, 40, 40))
    for obj in sorted(loose, key=lambda o: o.object_id):
        draw.rectangle(
            rect(obj.box.lo, obj.box.hi), fill=_type_color(obj.object_type, obj.object_id), outline=(0, 0, 0)
        )

    for x, z in scene.reachable:
        cx, cz = px(x, z)
        draw.ellipse([cx - 2, cz - 2, cx + 2, cz + 2], fill=GRID_DOT)
    by_id = {o.object_id: o for o in scene.objects}
    for object_id, pose in sorted(scene.interaction_poses.items()):
        target = by_id.get(object_id)
        if target is not None:
            tx, tz = target.box.center[0], target.box.center[2]
            draw.line([px(pose.x, pose.z), px(tx, tz)], fill=(230, 160, 150), width=1)
        _arrow(draw, px(pose.x, pose.z), pose, POSE, 14)
    if scene.start is not None:
        _arrow(draw, px(scene.start.x, scene.start.z), scene.start, START, 24, width=4)

    for obj in sorted(fixed, key=lambda o: o.object_id):
        if not needs_pose(obj):
            continue
        cx, cz = px(obj.box.center[0], obj.box.center[2])
        text = obj.object_type
        left, top, right, bottom = draw.textbbox((0, 0), text, font=small)
        w, h = right - left, bottom - top
        draw.rectangle([cx - w / 2 - 2, cz - h / 2 - 2, cx + w / 2 + 2, cz + h / 2 + 2], fill=(255, 255, 255))
        draw.text((cx - w / 2 - left, cz - h / 2 - top), text, fill=TEXT, font=small)

    room_font = _font(15)
    for room in scene.rooms:
        cx, cz = px(*room.center)
        text = f"{room.room_id}{''.join(f' +{t}' for t in room.also)}  {room.area:.1f} m2"
        left, top, right, bottom = draw.textbbox((0, 0), text, font=room_font)
        w, h = right - left, bottom - top
        draw.rectangle([cx - w / 2 - 4, cz - h / 2 - 4, cx + w / 2 + 4, cz + h / 2 + 4],
                       fill=(255, 255, 255), outline=TEXT, width=2)
        draw.text((cx - w / 2 - left, cz - h / 2 - top), text, fill=TEXT, font=room_font)

    size_x, size_z = room_size(scene)
    kind = scene.room_type
    if scene.is_house:
        area = sum(r.area for r in scene.rooms)
        kind = f"house of {len(scene.rooms)} rooms, {area:.1f} m2, {len(scene.doorways)} doorways"
    title = (
        f"{scene.name}  {kind}  {size_x:.2f} x {size_z:.2f} m  "
        f"reachable {len(scene.reachable)}  poses {len(scene.interaction_poses)}  objects {len(scene.objects)}"
    )
    draw.text((8, 6), title, fill=TEXT, font=label_font)
    return image


class _NotPickupable:
    pickupable = False
    receptacle = False
    toggleable = False


_NOT_PICKUPABLE = _NotPickupable()


def _shade(color: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    return tuple(int(c * factor) for c in color)  # type: ignore[return-value]  # tuple() over three channels: mypy sees tuple[int, ...]


def _arrow(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    pose: Pose,
    color: tuple[int, int, int],
    length: float,
    width: int = 2,
) -> None:
    """An arrow from ``at`` in the pose's facing (rotation 0 = +z = up on the map)."""
    angle = math.radians(pose.rotation)
    dx, dz = math.sin(angle), -math.cos(angle)  # screen y grows downwards
    tip = (at[0] + dx * length, at[1] + dz * length)
    draw.line([at, tip], fill=color, width=width)
    for side in (-1, 1):
        back = math.radians(pose.rotation + 180 + side * 30)
        draw.line(
            [tip, (tip[0] + math.sin(back) * length * 0.4, tip[1] - math.cos(back) * length * 0.4)],
            fill=color,
            width=width,
        )
    draw.ellipse([at[0] - 3, at[1] - 3, at[0] + 3, at[1] + 3], fill=color)


def _outside_to_white(
    draw: ImageDraw.ImageDraw, scene: Scene, rect, x0: float, x1: float, z0: float, z1: float
) -> None:
    """Blank the floor colour outside the walls (the cut-out corner of an L-shaped room).

    The room's floor is what the walls enclose; cells of a coarse raster that no wall separates
    from the image border are outside. Done on a 5 cm raster by flood fill from the border.
    """
    step = 0.05
    nx = int(math.ceil((x1 - x0) / step))
    nz = int(math.ceil((z1 - z0) / step))
    solid = [[False] * nz for _ in range(nx)]
    for wall in scene.walls:
        if wall.hi[1] - wall.lo[1] < 2.0 and wall.lo[1] > 0.5:
            continue  # lintel above the door: the door leaf closes the gap below
        # Cells whose centres lie in the wall (walls are several cells thick, so none leak).
        i0 = max(0, math.ceil((wall.lo[0] - x0) / step - 0.5))
        i1 = min(nx - 1, math.floor((wall.hi[0] - x0) / step - 0.5))
        k0 = max(0, math.ceil((wall.lo[2] - z0) / step - 0.5))
        k1 = min(nz - 1, math.floor((wall.hi[2] - z0) / step - 0.5))
        for i in range(i0, i1 + 1):
            for k in range(k0, k1 + 1):
                solid[i][k] = True
    outside = [[False] * nz for _ in range(nx)]
    stack = [(i, k) for i in range(nx) for k in (0, nz - 1)] + [(i, k) for i in (0, nx - 1) for k in range(nz)]
    while stack:
        i, k = stack.pop()
        if not (0 <= i < nx and 0 <= k < nz) or outside[i][k] or solid[i][k]:
            continue
        outside[i][k] = True
        stack.extend(((i + 1, k), (i - 1, k), (i, k + 1), (i, k - 1)))
    for i in range(nx):
        for k in range(nz):
            if outside[i][k]:
                lo = (x0 + i * step, 0.0, z0 + k * step)
                hi = (x0 + (i + 1) * step, 0.0, z0 + (k + 1) * step)
                draw.rectangle(rect(lo, hi), fill=(255, 255, 255))


def save_map(scene: Scene, out: str | os.PathLike[str]) -> Path:
    """Draw the map and write it atomically as PNG (temp file in the same folder, then rename)."""
    path = Path(out)
    image = draw_map(scene)
    write_png(image, path)
    return path
