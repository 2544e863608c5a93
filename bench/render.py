"""Benchmark of the `lite` renderer: frames per second in a furnished room at 300x300, and lite's
steps per second with its Event images on and off.

Part 1 builds its own room (floor, four walls, ceiling, ~16 pieces of furniture, ~35 small objects;
no dependency on the scene library), renders it from poses on a grid and prints frames per second
for RGB+depth+segmentation, for segmentation only, and for a naive numpy renderer (every box tested
against every pixel) as the alternative, side by side, with ratios.

Part 2 (end to end) runs ``bench/sim_steps.py``'s seeded random walk (70% navigation, 30%
interactions on visible objects, metadata read every step) through ``LiteController.step`` on the
fixture kitchen and on procedural kitchen 1, with: every image (RGB + depth + instance
segmentation with masks, THOR's fields), RGB only (what recording needs), no images (lite still
renders segmentation for pixel visibility), and the render-free geometric stand-in. Steps per
second by CPU time, with ratios to the no-images mode.

    python bench/render.py [--frames 200] [--size 300] [--naive-frames 5] [--repeats 3] [--steps 300]
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.render import BoxList, BoxListBuilder, render, shell_as_boxes
from alfred_gen.sim.scene import AGENT_Y, CAMERA_Y_OFFSET, Box, format_object_id
from alfred_gen.sim.visibility import GeometricVisibility

CAMERA_HEIGHT = AGENT_Y + CAMERA_Y_OFFSET

FURNITURE = [
    # type, lo, hi, facing, is_open
    ("Fridge", (0.05, 0.0, 4.20), (0.80, 1.80, 4.95), 180, True),
    ("CounterTop", (0.85, 0.0, 4.35), (3.20, 0.92, 5.00), 180, False),
    ("Cabinet", (0.90, 1.40, 4.65), (1.60, 2.10, 5.00), 180, False),
    ("Cabinet", (1.60, 1.40, 4.65), (2.30, 2.10, 5.00), 180, True),
    ("Cabinet", (2.30, 1.40, 4.65), (3.00, 2.10, 5.00), 180, False),
    ("Microwave", (2.40, 0.92, 4.50), (2.88, 1.22, 4.90), 180, False),
    ("SinkBasin", (1.50, 0.74, 4.45), (2.10, 0.921, 4.90), 180, False),
    ("DiningTable", (2.40, 0.0, 2.00), (3.60, 0.76, 3.00), 0, False),
    ("Chair", (2.75, 0.0, 1.45), (3.20, 0.95, 1.90), 0, False),
    ("Chair", (2.75, 0.0, 3.10), (3.20, 0.95, 3.55), 180, False),
    ("Sofa", (5.00, 0.0, 0.80), (5.90, 0.85, 2.80), 270, False),
    ("CoffeeTable", (4.00, 0.0, 1.30), (4.60, 0.45, 2.30), 0, False),
    ("TVStand", (0.05, 0.0, 1.20), (0.50, 0.50, 2.40), 90, False),
    ("Television", (0.15, 0.50, 1.30), (0.25, 1.20, 2.30), 90, False),
    ("SideTable", (5.20, 0.0, 3.00), (5.70, 0.60, 3.50), 270, False),
    ("FloorLamp", (5.30, 0.0, 0.30), (5.60, 1.60, 0.60), 270, False),
    ("HousePlant", (0.20, 0.0, 0.20), (0.60, 0.90, 0.60), 0, False),
    ("GarbageCan", (3.40, 0.0, 4.55), (3.75, 0.50, 4.90), 180, False),
    ("ArmChair", (4.00, 0.0, 3.60), (4.80, 0.90, 4.40), 270, False),
]

SMALL = [
    # type, centre x, base y, centre z, size (x, y, z)
    ("Apple", 1.10, 0.92, 4.60, (0.08, 0.09, 0.08)),
    ("Tomato", 1.25, 0.92, 4.55, (0.08, 0.07, 0.08)),
    ("Bread", 1.00, 0.92, 4.75, (0.25, 0.12, 0.12)),
    ("Lettuce", 2.30, 0.92, 4.60, (0.18, 0.16, 0.18)),
    ("Mug", 2.25, 0.92, 4.85, (0.10, 0.10, 0.10)),
    ("Knife", 1.35, 0.92, 4.45, (0.30, 0.02, 0.04)),
    ("Plate", 0.95, 0.92, 4.48, (0.22, 0.02, 0.22)),
    ("Pot", 3.05, 0.92, 4.55, (0.25, 0.15, 0.25)),
    ("SoapBottle", 2.15, 0.92, 4.90, (0.07, 0.18, 0.07)),
    ("SaltShaker", 2.40, 0.92, 4.45, (0.04, 0.10, 0.04)),
    ("PepperShaker", 2.46, 0.92, 4.45, (0.04, 0.10, 0.04)),
    ("Lettuce", 0.42, 0.70, 4.55, (0.18, 0.16, 0.18)),  # in the fridge
    ("Egg", 0.25, 0.04, 4.50, (0.05, 0.06, 0.05)),
    ("Tomato", 0.60, 1.20, 4.50, (0.08, 0.07, 0.08)),
    ("Apple", 2.70, 0.76, 2.30, (0.08, 0.09, 0.08)),
    ("Plate", 3.00, 0.76, 2.40, (0.22, 0.02, 0.22)),
    ("Cup", 3.30, 0.76, 2.70, (0.08, 0.10, 0.08)),
    ("Fork", 2.80, 0.76, 2.55, (0.18, 0.02, 0.03)),
    ("Spoon", 3.20, 0.76, 2.25, (0.16, 0.02, 0.03)),
    ("Bowl", 3.05, 0.76, 2.75, (0.18, 0.08, 0.18)),
    ("Newspaper", 2.60, 0.76, 2.80, (0.30, 0.02, 0.22)),
    ("Vase", 3.45, 0.76, 2.15, (0.12, 0.25, 0.12)),
    ("RemoteControl", 4.15, 0.45, 1.50, (0.05, 0.02, 0.17)),
    ("Book", 4.35, 0.45, 1.60, (0.18, 0.04, 0.24)),
    ("Laptop", 4.30, 0.45, 2.05, (0.32, 0.22, 0.22)),
    ("CellPhone", 4.50, 0.45, 1.40, (0.07, 0.01, 0.14)),
    ("Statue", 4.10, 0.45, 2.20, (0.08, 0.20, 0.08)),
    ("AlarmClock", 5.35, 0.60, 3.15, (0.14, 0.10, 0.08)),
    ("Book", 5.50, 0.60, 3.30, (0.16, 0.05, 0.22)),
    ("DeskLamp", 5.45, 0.60, 3.40, (0.18, 0.40, 0.18)),
    ("Pillow", 5.45, 0.45, 1.20, (0.40, 0.35, 0.15)),
    ("Pillow", 5.45, 0.45, 2.40, (0.40, 0.35, 0.15)),
    ("KeyChain", 5.30, 0.60, 3.30, (0.05, 0.02, 0.05)),
    ("CreditCard", 2.50, 0.76, 2.10, (0.08, 0.005, 0.05)),
    ("Pen", 4.45, 0.45, 1.80, (0.14, 0.012, 0.012)),
]


def build_room() -> BoxList:
    """The furnished room as one BoxList (structure, furniture and small objects)."""
    builder = BoxListBuilder()
    builder.set_room(Box((0.0, 0.0, 0.0), (6.0, 2.6, 5.0)))
    for object_type, lo, hi, facing, is_open in FURNITURE:
        box = Box(lo, hi)
        builder.add_object(object_type, format_object_id(object_type, box.center), box, is_open=is_open, facing=facing)
    for object_type, x, base, z, size in SMALL:
        box = Box((x - size[0] / 2, base, z - size[2] / 2), (x + size[0] / 2, base + size[1], z + size[2] / 2))
        builder.add_object(object_type, format_object_id(object_type, (x, base, z)), box, is_open=True)
    return builder.build()


def grid_poses(count: int, size: int) -> list[Camera]:
    """Agent poses on a 0.5 m grid, four yaws, horizons -30..60: the lite agent's views."""
    xs = np.arange(1.0, 5.01, 0.5)
    zs = np.arange(0.5, 3.51, 0.5)
    poses = itertools.cycle(itertools.product(xs, zs, (0, 90, 180, 270), (0, 30, 60, -30)))
    cams = []
    for _ in range(count):
        x, z, rot, hor = next(poses)
        cams.append(Camera(float(x), CAMERA_HEIGHT, float(z), rot, hor, width=size, height=size))
    return cams


def naive_render(camera: Camera, boxes: BoxList) -> tuple[np.ndarray, np.ndarray]:
    """The alternative: every box slab-tested against every pixel's ray, z-buffered in numpy.

    Returns depth (inf where nothing) and the index of the box seen (-1 where nothing); a room
    shell must first be turned into boxes with :func:`shell_as_boxes`.
    """
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    dirs = forward[None, None, :] + cols[None, :, None] * right + rows[:, None, None] * up
    origin = camera.position
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / dirs
    depth = np.full(dirs.shape[:2], np.inf)
    index = np.full(dirs.shape[:2], -1)
    for k in range(len(boxes)):
        with np.errstate(invalid="ignore"):
            t1 = (boxes.lo[k] - origin) * inv
            t2 = (boxes.hi[k] - origin) * inv
        enter = np.minimum(t1, t2).max(axis=2)
        leave = np.maximum(t1, t2).min(axis=2)
        hit = (enter <= leave) & (enter >= 0.1) & (enter < depth)
        depth[hit] = enter[hit]
        index[hit] = k
    return depth, index


def time_it(fn, cams, repeats: int) -> tuple[float, float]:
    """Frames per second by CPU time of this process (one core) and by wall clock, best of repeats.

    CPU time is the figure for "frames per second on one core": on a machine shared with other
    jobs the wall clock also counts time spent waiting for the core.
    """
    best_cpu = best_wall = float("inf")
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        for cam in cams:
            fn(cam)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return len(cams) / best_cpu, len(cams) / best_wall


#: LiteController options of the end-to-end modes (part 2).
STEP_MODES = {
    "rgb+depth+seg": lambda: {"render_image": True, "render_depth_image": True, "render_object_image": True},
    "rgb only": lambda: {"render_image": True},
    "no images": lambda: {"render_image": False},
    "geometric, no px": lambda: {"render_image": False, "visibility": GeometricVisibility(),
                                 "renderer": lambda sim: {}},
}


def lite_steps(steps: int, repeats: int) -> None:
    """Part 2: steps per second of LiteController with its images on and off."""
    from sim_steps import random_walk  # bench/ is on sys.path when this file runs as a script

    from alfred_gen.scenes import get_scene
    from alfred_gen.sim import fixtures

    scenes = [fixtures.kitchen(), get_scene(1)]
    print(f"\nlite steps/s with rendering ({steps}-step seeded walk, metadata read every step, best of {repeats})")
    print(f"{'scene':22s} {'mode':18s} {'steps/s (cpu)':>13s}  {'ratio':>8s}  succeeded")
    for scene in scenes:
        figures = {}
        for mode, options in STEP_MODES.items():
            best = min(random_walk(scene, steps, 0, True, **options())[0] for _ in range(repeats))
            _, ok = random_walk(scene, steps, 0, True, **options())
            figures[mode] = (steps / best, ok)
        base = figures["no images"][0]
        for mode, (rate, ok) in figures.items():
            print(f"{scene.name:22s} {mode:18s} {rate:13.1f}  {rate / base:7.2f}x  {ok}/{steps}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=300, help="end-to-end walk length (0: skip part 2)")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--size", type=int, default=300)
    parser.add_argument("--naive-frames", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    boxes = build_room()
    cams = grid_poses(args.frames, args.size)
    for cam in cams[:5]:  # warm caches (ray offsets, bases)
        render(cam, boxes)

    modes = {
        "rgb+depth+seg": lambda c: render(c, boxes, rgb=True, depth=True, seg=True),
        "seg only": lambda c: render(c, boxes, rgb=False, depth=False, seg=True),
        "rgb only": lambda c: render(c, boxes, rgb=True, depth=False, seg=False),
    }
    figures = {name: time_it(fn, cams, args.repeats) for name, fn in modes.items()}
    as_boxes = shell_as_boxes(boxes)
    naive = time_it(lambda c: naive_render(c, as_boxes), cams[: args.naive_frames], 1)

    print(f"room: {len(boxes)} render boxes + room shell, {len(boxes.owners)} owners; "
          f"{args.size}x{args.size}; {args.frames} poses on a grid (4 yaws, horizons -30/0/30/60); "
          f"best of {args.repeats}")
    full_cpu = figures["rgb+depth+seg"][0]
    print(f"{'mode':16s} {'fps (cpu)':>10s} {'fps (wall)':>11s}  ratio (cpu)")
    for name, (cpu, wall) in figures.items():
        print(f"{name:16s} {cpu:10.1f} {wall:11.1f}  {cpu / full_cpu:.2f}x rgb+depth+seg")
    print(f"{'naive numpy':16s} {naive[0]:10.1f} {naive[1]:11.1f}  {naive[0] / full_cpu:.4f}x "
          f"(every box vs every pixel; depth+index only; {args.naive_frames} frames)")
    if args.steps > 0:
        lite_steps(args.steps, args.repeats)

if __name__ == "__main__":
    main()
