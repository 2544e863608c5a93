"""Numpy z-buffer renderer of axis-aligned boxes: RGB, depth and instance segmentation in one pass.

The `lite` world is made of axis-aligned boxes (furniture parts, objects) inside a rectangular
room, and the agent only turns in 90-degree steps, so the camera's right axis is always a world
axis ``a``. That makes ray/box slab tests *separable*: for the ray of pixel (row, col) the ``a``
slab depends only on the column, the ``y`` slab and the other horizontal (``b``) slab only on the
row. Per box, entry/exit depths are computed per row (N x H) and per column (N x W), vectorised
over all boxes; each box is then z-buffered inside its screen rectangle with a handful of
whole-array operations: ``enter = max(row_enter, col_enter)``, ``exit = min(row_exit,
col_exit)``, hit where ``enter <= exit`` and not behind the buffer. The room's floor, walls and
ceiling are drawn first, analytically, as the point where each ray leaves the room's interior.
Depth is the exact ray/box intersection and, because each ray's forward component is 1, it is
THOR's depth (distance along the view axis, Unity's linear eye depth), not the ray length. Masks,
depth and visibility therefore agree by construction.

Conventions: depth is float32 metres, :data:`FAR_DEPTH` (THOR's 20 m far plane) where nothing is
hit; surfaces nearer than THOR's 0.1 m near plane are clipped. Where two surfaces are at exactly
the same depth, the box later in the list wins (deterministic).

Integration with the simulator (per reset, then per step)::

    # Once per reset: what never moves or changes shape.
    static = BoxListBuilder()
    static.set_room(Box((x0, floor_y, z0), (x1, ceiling_y, z1)))   # owners Floor / Wall / Ceiling
    for wall in walls_not_on_the_room_bounds:                       # L-shaped rooms, partitions
        static.add_box(wall, type_color("Wall", "Wall"), "Wall")
    for obj in fixed_furniture:                                     # not pickupable, not openable
        static.add_object(obj.object_type, obj.object_id, obj.box, facing=front_yaw(obj))
    static_boxes = static.build()

    # Each step whose world changed (cache the BoxList otherwise): what moves or opens.
    dynamic = BoxListBuilder()
    for obj in movable_or_openable_objects:
        box = obj.box.translated(*content_offset(parent.type, parent.box, parent.is_open, parent_facing))
        dynamic.add_object(obj.object_type, obj.object_id, box, is_open=obj.is_open, facing=...)
    boxes = BoxList.concat(static_boxes, dynamic.build())

    camera = sim.camera()   # the agent's camera: y + CAMERA_Y_OFFSET, rotation, horizon, 90 deg
    frames = render(camera, boxes, rgb=want_rgb, depth=want_depth, seg=True)
    out = instance_outputs(frames.owner, boxes.owners)   # THOR's Event segmentation fields
    distances = box_distances(camera.position, object_lo, object_hi)
    visible = visible_owners(out.pixel_counts, distances)   # >= 10 pixels and within 1.5 m

``content_offset`` is non-zero only for the contents of an open drawer (drawn slid out with it);
``front_yaw`` of a receptacle is ``(interaction_pose.rotation + 180) % 360``. Owners are names:
THOR object ids (``Apple|+00.10|+00.90|-01.20``) for simulation objects and plain names (``Floor``,
``Wall``, ``Ceiling``) for structure; :func:`instance_outputs` follows THOR: only ids with ``|``
get instance masks and detections, while every owner gets a segmentation colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import numpy as np

from alfred_gen.sim.camera import FAR_PLANE, NEAR_PLANE, Camera
from alfred_gen.sim.palette import BACKGROUND_COLOR, CEILING_SHADE, SHADE_BY_NORMAL, owner_colors, type_color
from alfred_gen.sim.raster_kernel import extent, fill, paint, shell
from alfred_gen.sim.scene import Box
from alfred_gen.sim.shapes import shape_parts

#: Depth written where no box is hit: THOR's camera far plane (metres).
FAR_DEPTH = np.float32(FAR_PLANE)

#: THOR's visibility rule: enough pixels in the instance frame, and close enough.
MIN_VISIBLE_PIXELS = 10
VISIBILITY_DISTANCE = 1.5


#: Part of a frame: rows ``r0:r1`` and columns ``c0:c1`` as (r0, r1, c0, c1).
Window = tuple[int, int, int, int]

#: Faces of a room shell, in code order: (axis, high side). Index = 2 * axis + high.
ROOM_FACES = ("wall -x", "wall +x", "floor", "ceiling", "wall -z", "wall +z")


@dataclass(frozen=True)
class RoomShell:
    """The inside of a rectangular room: floor, ceiling and four walls, seen from within.

    Drawn analytically (where each ray leaves the room's interior box) before any box, so the
    biggest surfaces in every frame cost almost nothing. ``owner`` and ``color`` are per face in
    :data:`ROOM_FACES` order. Rooms that are not rectangles add their extra walls as boxes.
    """

    lo: tuple[float, float, float]
    hi: tuple[float, float, float]
    owner: tuple[int, int, int, int, int, int]
    color: tuple[tuple[int, int, int], ...]

    def contains(self, point: np.ndarray) -> bool:
        return all(self.lo[k] < point[k] < self.hi[k] for k in range(3))


@dataclass(frozen=True)
class BoxList:
    """The scene of one frame: boxes with owner index and colour, and optionally a room shell.

    Arrays: ``lo``/``hi`` (N, 3) float64, ``owner`` (N,) int32 index into ``owners`` (-1: no
    owner), ``color`` (N, 3) uint8.
    """

    lo: np.ndarray
    hi: np.ndarray
    owner: np.ndarray
    color: np.ndarray
    owners: tuple[str, ...] = ()
    room: RoomShell | None = None

    def __post_init__(self) -> None:
        n = len(self.lo)
        if self.lo.shape != (n, 3) or self.hi.shape != (n, 3):
            raise ValueError("BoxList lo/hi must be (N, 3)")
        if self.owner.shape != (n,) or self.color.shape != (n, 3):
            raise ValueError("BoxList owner must be (N,) and color (N, 3)")
        indices = list(self.owner.tolist()) + (list(self.room.owner) if self.room else [])
        if indices and (max(indices) >= len(self.owners) or min(indices) < -1):
            raise ValueError("BoxList owner index out of range of owners")

    def __len__(self) -> int:
        return len(self.lo)

    @cached_property
    def centers(self) -> np.ndarray:
        return (self.lo + self.hi) / 2.0

    @cached_property
    def half_sizes(self) -> np.ndarray:
        return (self.hi - self.lo) / 2.0

    @staticmethod
    def empty() -> BoxList:
        return BoxList(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, np.int32), np.zeros((0, 3), np.uint8))

    @staticmethod
    def concat(*parts: BoxList) -> BoxList:
        """Several lists as one; owner indices of later lists are shifted past earlier owners.

        Owner names must be unique across the parts (an object is either static or dynamic), and
        at most one part may carry a room shell.
        """
        if not parts:
            return BoxList.empty()
        owners: list[str] = []
        shifted = []
        room = None
        for part in parts:
            offset = len(owners)
            owners.extend(part.owners)
            shifted.append(np.where(part.owner >= 0, part.owner + offset, -1).astype(np.int32))
            if part.room is not None:
                if room is not None:
                    raise ValueError("BoxList.concat: more than one part has a room shell")
                moved = tuple(k + offset if k >= 0 else -1 for k in part.room.owner)
                room = RoomShell(part.room.lo, part.room.hi, moved, part.room.color)  # type: ignore[arg-type]  # the room's owners and colours are per face, six of each
        if len(set(owners)) != len(owners):
            raise ValueError("BoxList.concat: an owner name appears in more than one part")
        return BoxList(
            np.concatenate([p.lo for p in parts]).reshape(-1, 3),
            np.concatenate([p.hi for p in parts]).reshape(-1, 3),
            np.concatenate(shifted),
            np.concatenate([p.color for p in parts]).reshape(-1, 3).astype(np.uint8),
            tuple(owners),
            room,
        )


class BoxListBuilder:
    """Collects boxes, owner names and the room shell, then freezes them into a :class:`BoxList`.

    Objects' render parts are cached (by type, id, box, open state, facing and colour), so
    rebuilding the dynamic part of a scene every step costs microseconds per object.
    """

    def __init__(self) -> None:
        self._chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        self._owners: list[str] = []
        self._owner_index: dict[str, int] = {}
        self._room: RoomShell | None = None

    def owner(self, name: str) -> int:
        """The index of an owner name, registering it on first use (order of first use)."""
        index = self._owner_index.get(name)
        if index is None:
            index = len(self._owners)
            self._owner_index[name] = index
            self._owners.append(name)
        return index

    def _owner_of(self, owner: str | int | None) -> int:
        if isinstance(owner, str):
            return self.owner(owner)
        return -1 if owner is None else int(owner)

    def add(
        self,
        lo: Sequence[float],
        hi: Sequence[float],
        color: Sequence[int],
        owner: str | int | None = None,
    ) -> None:
        """One box; ``owner`` is a name, an index from :meth:`owner`, or None for no owner."""
        self._chunks.append(
            (
                np.array([lo], dtype=np.float64).reshape(1, 3),
                np.array([hi], dtype=np.float64).reshape(1, 3),
                np.array([color], dtype=np.uint8).reshape(1, 3),
                self._owner_of(owner),
            )
        )

    def add_box(self, box: Box, color: Sequence[int], owner: str | int | None = None) -> None:
        self.add(box.lo, box.hi, color, owner)

    def add_object(
        self,
        object_type: str,
        object_id: str,
        box: Box,
        *,
        is_open: bool = False,
        facing: int = 0,
        color: Sequence[int] | None = None,
    ) -> int:
        """An object drawn as its type's shape (:func:`shape_parts`) in its type's colours.

        Every part is owned by ``object_id``. ``facing`` is the yaw (THOR degrees) its front faces.
        Returns the owner index.
        """
        owner_index = self.owner(object_id)
        rows = _shape_rows(object_type, object_id, box, bool(is_open), int(facing), tuple(color) if color else None)
        self._chunks.append((*rows, owner_index))
        return owner_index

    def set_room(
        self,
        interior: Box,
        *,
        floor: str | None = "Floor",
        wall: str | None = "Wall",
        ceiling: str | None = "Ceiling",
    ) -> None:
        """The room's interior box: its floor, four walls and ceiling become the room shell."""
        kinds = ("Wall", "Wall", "Floor", "Ceiling", "Wall", "Wall")
        names = {"Wall": wall, "Floor": floor, "Ceiling": ceiling}
        owners = tuple(self._owner_of(names[kind]) for kind in kinds)
        colors = tuple(type_color(kind, kind) for kind in kinds)
        self._room = RoomShell(interior.lo, interior.hi, owners, colors)  # type: ignore[arg-type]  # the room's owners and colours are per face, six of each

    def build(self) -> BoxList:
        if not self._chunks:
            empty = BoxList.empty()
            return BoxList(empty.lo, empty.hi, empty.owner, empty.color, tuple(self._owners), self._room)
        return BoxList(
            np.concatenate([chunk[0] for chunk in self._chunks]),
            np.concatenate([chunk[1] for chunk in self._chunks]),
            np.concatenate([np.full(len(chunk[0]), chunk[3], np.int32) for chunk in self._chunks]),
            np.concatenate([chunk[2] for chunk in self._chunks]),
            tuple(self._owners),
            self._room,
        )


def forget_shapes() -> None:
    """Drop the cached type shapes (a study that rebinds a shape must not draw the old one);
    :func:`alfred_gen.sim.pixels.forget_shapes` also drops lite's own cache."""
    _shape_rows.cache_clear()


@lru_cache(maxsize=8192)
def _shape_rows(
    object_type: str, object_id: str, box: Box, is_open: bool, facing: int, color: tuple[int, ...] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corners and colours of an object's type's shape (read-only arrays, shared by the cache)."""
    base = color if color is not None else type_color(object_type, object_id)
    return frozen_rows([(part.lo, part.hi, tone.apply(base))
                        for part, tone in shape_parts(object_type, box, is_open=is_open, facing=facing)])


def frozen_rows(rows: Sequence[tuple[object, object, object]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lo, hi, colour) rows of render boxes as three read-only arrays: what a cache of an
    object's rows may hand to every frame (lite's builder here, the world's objects in pixels)."""
    lo = np.array([row[0] for row in rows], dtype=np.float64).reshape(-1, 3)
    hi = np.array([row[1] for row in rows], dtype=np.float64).reshape(-1, 3)
    colors = np.array([row[2] for row in rows], dtype=np.uint8).reshape(-1, 3)
    for array in (lo, hi, colors):
        array.setflags(write=False)
    return lo, hi, colors


@dataclass
class Frames:
    """What one render produced; a modality is None when it was switched off.

    ``rgb`` (H, W, 3) uint8; ``depth`` (H, W) float32 metres along the camera's forward axis,
    :data:`FAR_DEPTH` where nothing is hit; ``owner`` (H, W) int32 index into ``owners``, -1 where
    nothing (or an owner-less box) is seen.
    """

    rgb: np.ndarray | None
    depth: np.ndarray | None
    owner: np.ndarray | None
    owners: tuple[str, ...] = field(default=())


class _View:
    """Per-frame ray geometry of the fast path: the camera's right axis is a world axis ``a``.

    The ray of pixel (row, col) is ``forward + u'[col] * right + v'[row] * up``: its y and b
    (other horizontal axis) components depend on the row only, its a component on the column only.
    """

    __slots__ = ("a_axis", "b_axis", "dir_a", "dir_b", "dir_y", "limits", "near_reach", "origin", "planes")

    def __init__(self, camera: Camera) -> None:
        quadrant = camera.yaw_quadrant
        if quadrant is None:
            raise ValueError(
                f"the lite renderer needs a yaw in 90-degree steps (THOR agents turn by 90), "
                f"got rotation {camera.rotation_deg}"
            )
        right, up, forward = camera.basis()
        self.a_axis = 0 if quadrant in (0, 2) else 2  # camera right: +x, -z, -x, +z
        self.b_axis = 2 - self.a_axis
        cols, rows = camera.pixel_offsets()
        self.origin = camera.position
        self.dir_y = forward[1] + rows * up[1]
        self.dir_b = forward[self.b_axis] + rows * up[self.b_axis]
        self.dir_a = right[self.a_axis] * cols
        # A surface at distance d from the camera is at least d / reach deep along the view axis.
        self.near_reach = NEAR_PLANE * float(np.sqrt(1.0 + cols[-1] ** 2 + rows[0] ** 2))
        # Frustum planes (inward normals) with a pixel of margin, for culling: n . (p - origin) >= limit.
        half_w = abs(cols[0]) + 1.0 / camera.focal
        half_h = abs(rows[0]) + 1.0 / camera.focal
        self.planes = np.stack(
            [forward, -forward, right + half_w * forward, half_w * forward - right,
             up + half_h * forward, half_h * forward - up],
            axis=1,
        )
        self.limits = np.array([NEAR_PLANE, -FAR_PLANE, 0.0, 0.0, 0.0, 0.0])


@lru_cache(maxsize=16)
def _view_of(camera: Camera) -> _View:
    """The ray geometry of a camera, made once per camera: a step draws its frame, the held group's
    window and visibility's window from one pose (read-only arrays, shared)."""
    view = _View(camera)
    for array in (view.dir_y, view.dir_b, view.dir_a, view.planes, view.limits):
        array.setflags(write=False)
    return view


def _cull(view: _View, boxes: BoxList) -> np.ndarray:
    """Indices of boxes that may be inside the view frustum (a box wholly outside a plane is cut)."""
    reach = (boxes.centers - view.origin) @ view.planes + boxes.half_sizes @ np.abs(view.planes)
    return np.flatnonzero((reach >= view.limits).all(axis=1))


def _slab(lo: np.ndarray, hi: np.ndarray, origin: float, direction: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Entry and exit ray parameters of slabs ``[lo, hi]`` (N,) for rays with ``direction`` (L,).

    ``direction`` is monotonic, so rays that run towards +axis form one contiguous run: there the
    entry is the lo plane, elsewhere the hi plane. Multiplying by the inverse beats min/max of two
    divisions. A zero direction gives infinities (inside the slab: all, outside: nothing).
    """
    direction = direction + 0.0  # -0.0 (the centre column of an odd-width image) becomes +0.0
    with np.errstate(divide="ignore"):
        inverse = 1.0 / direction
    positive = np.flatnonzero(direction >= 0)
    n, count = len(lo), len(direction)
    enter = np.empty((n, count), np.float64)
    leave = np.empty((n, count), np.float64)
    near_lo = lo - origin
    near_hi = hi - origin
    if len(positive):
        p = slice(int(positive[0]), int(positive[-1]) + 1)
        with np.errstate(invalid="ignore"):
            np.multiply.outer(near_lo, inverse[p], out=enter[:, p])
            np.multiply.outer(near_hi, inverse[p], out=leave[:, p])
        negatives = [slice(0, p.start), slice(p.stop, count)]
    else:
        negatives = [slice(0, count)]
    for q in negatives:
        if q.stop > q.start:
            np.multiply.outer(near_hi, inverse[q], out=enter[:, q])
            np.multiply.outer(near_lo, inverse[q], out=leave[:, q])
    return enter, leave


def render(
    camera: Camera,
    boxes: BoxList,
    *,
    rgb: bool = True,
    depth: bool = True,
    seg: bool = True,
    window: Window | None = None,
    margin: bool = False,
) -> Frames:
    """Render the scene seen from the camera: RGB, depth and owner index per pixel (any subset).

    Depth is z-depth in metres (:data:`FAR_DEPTH` where nothing is hit); surfaces nearer than the
    near plane or beyond the far plane are clipped, as in THOR's camera. Where two surfaces are at
    exactly the same depth, the box later in the list wins.

    ``window`` (rows ``r0:r1``, columns ``c0:c1``) renders only that part of the frame: depth and
    owners are exactly the full frame's there (every per-pixel value is computed as for the full
    frame, only for fewer pixels), for when only some objects' pixels matter (visibility). Not with
    ``rgb``, as outlines look at the pixel above and to the left, unless ``margin`` says the
    window's first row and column (where they are not the frame's) show nothing, as the row and
    column before them do: then the RGB is the full frame's too (a window padded by one pixel
    around boxes without a room, :func:`outlined_window`).
    """
    view = _view_of(camera)
    n = len(boxes)
    if window is None:
        window = (0, camera.height, 0, camera.width)
    elif rgb and not margin:
        raise ValueError("render: a window gives depth and owners, not RGB (without a margin)")
    # code = 3 * box + face axis (0: a, 1: y, 2: b); 3N + room face; -1 for nothing.
    zbuf, code = _draw_room(view, boxes.room, n, window)
    kept = _cull(view, boxes) if n else np.zeros(0, np.int64)
    if len(kept):
        _rasterise(view, boxes.lo[kept], boxes.hi[kept], kept, zbuf, code, faces=rgb, window=window)
    owner_lookup = None
    if seg:
        room_owner = list(boxes.room.owner) if boxes.room is not None else [-1] * 6
        owner_lookup = np.concatenate(
            [np.repeat(boxes.owner, 3), np.array(room_owner + [-1])]
        ).astype(np.int32)
    rgb_frame, owner_frame = paint(_face_colors(view, boxes) if rgb else None, code, owner_lookup)
    return Frames(rgb=rgb_frame, depth=zbuf if depth else None, owner=owner_frame, owners=boxes.owners)


def _draw_room(view: _View, room: RoomShell | None, n: int, window: Window) -> tuple[np.ndarray, np.ndarray]:
    """Depth and face code buffers of the window, initialised with the room shell (or with nothing)."""
    r0, r1, c0, c1 = window
    height, width = r1 - r0, c1 - c0
    if room is None or not room.contains(view.origin):
        return (
            np.full((height, width), FAR_DEPTH, dtype=np.float32),
            np.full((height, width), -1, dtype=np.int32),
        )
    a, b = view.a_axis, view.b_axis
    lo, hi, origin = room.lo, room.hi, view.origin
    _, exit_y = _slab(np.array([lo[1]]), np.array([hi[1]]), origin[1], view.dir_y)
    _, exit_b = _slab(np.array([lo[b]]), np.array([hi[b]]), origin[b], view.dir_b)
    _, exit_a = _slab(np.array([lo[a]]), np.array([hi[a]]), origin[a], view.dir_a)
    exit_y, exit_b, exit_a = exit_y[0], exit_b[0], exit_a[0]
    through_y = exit_y <= exit_b
    # Beyond the far plane a wall would be clipped; rooms are far smaller, so clamping is enough.
    row_exit = np.minimum(np.where(through_y, exit_y, exit_b), FAR_PLANE).astype(np.float32)
    col_exit = np.minimum(exit_a, FAR_PLANE).astype(np.float32)
    # A ray leaves through the high face of an axis where it runs towards +axis.
    row_code = (3 * n + np.where(through_y, 2 + (view.dir_y > 0), 2 * b + (view.dir_b > 0))).astype(np.int32)
    col_code = (3 * n + 2 * a + (view.dir_a > 0)).astype(np.int32)
    return shell(row_exit[r0:r1], col_exit[c0:c1], row_code[r0:r1], col_code[c0:c1])


def _extent(view: _View, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, ...]:
    """Where the rays of each screen row and column meet boxes ``lo``/``hi`` (N, 3): the entry into
    the y and b slabs per row, the row's entry and exit, the column's (a slab) entry and exit, and
    which rows and columns can show each box at all (the one reading of the screen that both
    drawing and :func:`screen_window` use, so a window never cuts a pixel a frame has). Compiled
    when numba is there (:func:`~alfred_gen.sim.raster_kernel.extent`, the same bits), else
    :func:`_extent_numpy`."""
    found = extent(lo, hi, view.origin, (view.b_axis, view.a_axis), view.dir_y, view.dir_b, view.dir_a, NEAR_PLANE)
    return found if found is not None else _extent_numpy(view, lo, hi)


def _extent_numpy(view: _View, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`_extent` in whole-array operations: the reference."""
    a, b = view.a_axis, view.b_axis
    origin = view.origin
    enter_y, exit_y = _slab(lo[:, 1], hi[:, 1], origin[1], view.dir_y)
    enter_b, exit_b = _slab(lo[:, b], hi[:, b], origin[b], view.dir_b)
    col_enter, col_exit = _slab(lo[:, a], hi[:, a], origin[a], view.dir_a)
    row_enter = np.maximum(enter_y, enter_b)
    row_exit = np.minimum(exit_y, exit_b)
    row_ok = (row_enter <= row_exit) & (row_exit >= NEAR_PLANE)
    # The depth range over usable rows bounds which columns can be hit at all.
    t_min = np.where(row_ok, row_enter, np.inf).min(axis=1)
    t_max = np.where(row_ok, row_exit, -np.inf).max(axis=1)
    col_ok = (col_enter <= col_exit) & (col_enter <= t_max[:, None]) & (col_exit >= t_min[:, None])
    return enter_y, enter_b, row_enter, row_exit, col_enter, col_exit, row_ok, col_ok


def _rasterise(
    view: _View,
    lo: np.ndarray,
    hi: np.ndarray,
    ids: np.ndarray,
    zbuf: np.ndarray,
    code: np.ndarray,
    *,
    faces: bool,
    window: Window,
) -> None:
    """Z-buffer each box inside the screen rectangle where its rows and columns can be hit.

    The rectangles are those of the full frame, cut to the window (the buffers' part of it)."""
    a, b = view.a_axis, view.b_axis
    origin = view.origin
    enter_y, enter_b, row_enter, row_exit, col_enter, col_exit, row_ok, col_ok = _extent(view, lo, hi)

    # Near-plane clipping: a surface nearer than the near plane is not drawn. Only boxes whose
    # (y, b) cross-section comes within reach of the camera can have such pixels; they alone pay
    # for a per-pixel test (the entry may still be beyond the near plane through an a-face).
    gap_y = np.maximum(np.maximum(lo[:, 1] - origin[1], origin[1] - hi[:, 1]), 0.0)
    gap_b = np.maximum(np.maximum(lo[:, b] - origin[b], origin[b] - hi[:, b]), 0.0)
    close = np.hypot(gap_y, gap_b) < view.near_reach

    drawn = np.flatnonzero(row_ok.any(axis=1) & col_ok.any(axis=1))
    if not len(drawn):
        return
    height, width = row_ok.shape[1], col_ok.shape[1]
    w_r0, w_r1, w_c0, w_c1 = window
    r_first = np.maximum(row_ok.argmax(axis=1), w_r0) - w_r0
    r_stop = np.minimum(height - row_ok[:, ::-1].argmax(axis=1), w_r1) - w_r0
    c_first = np.maximum(col_ok.argmax(axis=1), w_c0) - w_c0
    c_stop = np.minimum(width - col_ok[:, ::-1].argmax(axis=1), w_c1) - w_c0
    if (w_r1 - w_r0, w_c1 - w_c0) != (height, width):
        drawn = drawn[(r_first[drawn] < r_stop[drawn]) & (c_first[drawn] < c_stop[drawn])]
        if not len(drawn):
            return
        row_enter, row_exit = row_enter[:, w_r0:w_r1], row_exit[:, w_r0:w_r1]
        enter_y, enter_b = enter_y[:, w_r0:w_r1], enter_b[:, w_r0:w_r1]
        col_enter, col_exit = col_enter[:, w_c0:w_c1], col_exit[:, w_c0:w_c1]

    re32 = row_enter.astype(np.float32)
    rx32 = row_exit.astype(np.float32)
    ce32 = col_enter.astype(np.float32)
    cx32 = col_exit.astype(np.float32)
    base = (3 * ids).astype(np.int32)
    row_code = (enter_y < enter_b).astype(np.int32) + 1 + base[:, None] if faces else None
    in_a_slab = (lo[:, a] <= origin[a]) & (origin[a] <= hi[:, a])
    rects = np.stack([r_first, r_stop, c_first, c_stop], axis=1)
    fill(zbuf, code, drawn, rects, re32, rx32, ce32, cx32, close, in_a_slab, base, row_code, NEAR_PLANE)


def screen_window(camera: Camera, lo: np.ndarray, hi: np.ndarray) -> Window | None:
    """The smallest window outside which boxes ``lo``/``hi`` (N, 3) cover no pixel of the full
    frame (the union of the screen rectangles :func:`render` draws them in); None: no pixel at all."""
    if not len(lo):
        return None
    *_, row_ok, col_ok = _extent(_view_of(camera), lo, hi)
    drawn = row_ok.any(axis=1) & col_ok.any(axis=1)
    if not drawn.any():
        return None
    rows = np.flatnonzero(row_ok[drawn].any(axis=0))
    cols = np.flatnonzero(col_ok[drawn].any(axis=0))
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


def outlined_window(camera: Camera, boxes: BoxList) -> Window | None:
    """The window in which :func:`render` with ``margin`` draws RGB, depth and owners of
    ``boxes`` (no room shell) exactly as the full frame does: their :func:`screen_window` with
    one more row above and column to the left (outside it nothing is drawn, so the outline test
    of the window's first row and column sees what the frame's would). None: no pixel at all."""
    if boxes.room is not None:
        raise ValueError("outlined_window: boxes with a room shell cover every pixel")
    window = screen_window(camera, boxes.lo, boxes.hi)
    if window is None:
        return None
    r0, r1, c0, c1 = window
    return max(0, r0 - 1), r1, max(0, c0 - 1), c1


def _face_colors(view: _View, boxes: BoxList) -> np.ndarray:
    """Colour per face code: (3N + 7, 3) uint8 (painted with outlines by :func:`~alfred_gen.sim.raster_kernel.paint`:
    a darker line where one face meets another makes flat-shaded boxes legible).

    Rows 3k..3k+2: box k's a-, y- and b-face as the camera sees them, i.e. its colour times the
    shade of that face's world normal; then the six room faces seen from inside; last the
    background (code -1).
    """
    n = len(boxes)
    origin = view.origin
    shades = np.empty((n, 3), np.float64)
    for column, axis in enumerate((view.a_axis, 1, view.b_axis)):
        low, high = SHADE_BY_NORMAL[axis]
        shades[:, column] = np.where(origin[axis] < boxes.lo[:, axis], low, high)
    colors = boxes.color.astype(np.float64)[:, None, :] * shades[:, :, None]
    lut = np.empty((3 * n + 7, 3), np.uint8)
    lut[: 3 * n] = np.clip(np.rint(colors), 0, 255).astype(np.uint8).reshape(-1, 3)
    room = boxes.room
    for face in range(6):
        axis, high = divmod(face, 2)
        # Seen from inside, the high wall's normal points to -axis. A ceiling is lit by bounce
        # light, not left as dark as the underside of a table.
        shade = CEILING_SHADE if face == 3 else SHADE_BY_NORMAL[axis][0 if high else 1]
        color = room.color[face] if room is not None else BACKGROUND_COLOR
        lut[3 * n + face] = [min(255, max(0, round(c * shade))) for c in color]
    lut[3 * n + 6] = BACKGROUND_COLOR
    return lut


# ---------------------------------------------------------------------------------------------
# Instance segmentation in THOR's terms


def segmentation_frame(owner: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """(H, W, 3) uint8 instance frame: ``colors[k]`` where owner is k, black where -1."""
    lookup = np.concatenate([np.asarray(colors, np.uint8).reshape(-1, 3), np.zeros((1, 3), np.uint8)])
    return np.take(lookup, owner, axis=0)


def visible_pixel_counts(owner: np.ndarray, n_owners: int | None = None) -> np.ndarray:
    """Pixels per owner index (``np.bincount``), pixels with owner -1 not counted.

    The length is ``n_owners`` when given (pass ``len(boxes.owners)``), else the largest index + 1.
    """
    counts = np.bincount(owner.ravel() + 1, minlength=(n_owners or 0) + 1)[1:]
    return counts[:n_owners] if n_owners is not None else counts


def box_distances(point: Sequence[float] | np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Distance from a point (the camera) to the nearest point of each box (0 inside)."""
    p = np.asarray(point, dtype=np.float64)
    gap = np.maximum(np.maximum(lo - p, p - hi), 0.0)
    return np.sqrt((gap * gap).sum(axis=-1))


def visible_owners(
    counts: np.ndarray,
    distances: np.ndarray,
    *,
    min_pixels: int = MIN_VISIBLE_PIXELS,
    max_distance: float = VISIBILITY_DISTANCE,
) -> np.ndarray:
    """THOR's rule per owner: at least ``min_pixels`` in the frame and within ``max_distance``."""
    return (np.asarray(counts) >= min_pixels) & (np.asarray(distances) <= max_distance)


@dataclass
class InstanceOutputs:
    """THOR's Event fields derived from the instance segmentation."""

    instance_segmentation_frame: np.ndarray
    instance_masks: dict[str, np.ndarray]
    instance_detections2D: dict[str, list[int]]
    color_to_object_id: dict[tuple[int, int, int], str]
    object_id_to_color: dict[str, tuple[int, int, int]]
    #: Pixels per owner index (as :func:`visible_pixel_counts`), for the visibility rule.
    pixel_counts: np.ndarray


def instance_outputs(owner: np.ndarray, owners: Sequence[str], colors: np.ndarray | None = None) -> InstanceOutputs:
    """THOR's segmentation outputs from an owner-index frame and the owner names.

    As in ai2thor, ``color_to_object_id``/``object_id_to_color`` cover every owner (seen or not),
    while ``instance_masks`` and ``instance_detections2D`` only hold simulation objects (ids with
    ``|``) that are in the frame. A detection is ``[x1, y1, x2, y2]`` with THOR's quirk: x are the
    first and last mask columns (inclusive), y are the first and last mask rows PLUS ONE (Unity's
    bottom-up rows flipped with ``height - y``); ALFRED's released bboxes follow exactly this.
    """
    owners = tuple(owners)
    if colors is None:
        colors = owner_colors(owners)
    colors = np.asarray(colors, np.uint8).reshape(-1, 3)
    frame = segmentation_frame(owner, colors)
    color_tuples: list[tuple[int, int, int]] = [(r, g, b) for r, g, b in colors.tolist()]
    object_id_to_color = {name: color_tuples[k] for k, name in enumerate(owners)}
    color_to_object_id = {color_tuples[k]: name for k, name in enumerate(owners)}
    masks: dict[str, np.ndarray] = {}
    detections: dict[str, list[int]] = {}
    counts = visible_pixel_counts(owner, len(owners))
    present = [k for k in np.flatnonzero(counts).tolist() if "|" in owners[k]]
    for k in present:
        name = owners[k]
        mask = owner == k
        row_hits = np.flatnonzero(mask.any(axis=1))
        col_hits = np.flatnonzero(mask.any(axis=0))
        masks[name] = mask
        detections[name] = [int(col_hits[0]), int(row_hits[0]) + 1, int(col_hits[-1]), int(row_hits[-1]) + 1]
    return InstanceOutputs(frame, masks, detections, color_to_object_id, object_id_to_color, counts)


def shell_as_boxes(boxes: BoxList, thickness: float = 0.1) -> BoxList:
    """The same scene with the room shell replaced by six slab boxes (floor, walls, ceiling).

    For brute-force renderers (the bench's alternative, the tests' reference) that only know boxes.
    """
    room = boxes.room
    if room is None:
        return boxes
    lo, hi = np.array(room.lo), np.array(room.hi)
    slabs_lo, slabs_hi = [], []
    for face in range(6):
        axis, high = divmod(face, 2)
        s_lo, s_hi = lo - thickness, hi + thickness
        if high:
            s_lo[axis] = hi[axis]
        else:
            s_hi[axis] = lo[axis]
        slabs_lo.append(s_lo)
        slabs_hi.append(s_hi)
    return BoxList(
        np.concatenate([np.array(slabs_lo), boxes.lo]),
        np.concatenate([np.array(slabs_hi), boxes.hi]),
        np.concatenate([np.array(room.owner, np.int32), boxes.owner]),
        np.concatenate([np.array(room.color, np.uint8), boxes.color]),
        boxes.owners,
    )
