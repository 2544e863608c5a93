"""Pixels for the `lite` simulator: the renderer behind every Event's images and behind visibility.

One :class:`PixelSight` per controller turns the live :class:`~alfred_gen.sim.world.World` into the
renderer's box list and serves two hooks of :class:`~alfred_gen.sim.lite.LiteController`:

- as the *visibility model* (``sight(world, camera, max_distance)``): an object is visible when it
  is eligible (present, not held, not shut inside a closed receptacle), within ``max_distance`` by
  :func:`~alfred_gen.sim.visibility.reach_distances`, and at least :data:`MIN_VISIBLE_PIXELS` of
  its pixels are in the instance frame of a 300x300 view (:data:`VISIBILITY_SIZE`);
- as the *renderer* (``sight.images(sim)``): THOR's Event image fields for the flags that are on.

Why visibility is always computed from pixels: which actions succeed must not depend on whether a
caller asked for frames, or a trajectory recorded with frames could fail to replay without them.
So the 'no frames' mode (``render_image=False`` and no depth / object image) only skips producing
RGB, depth and the instance outputs; the segmentation needed for visibility is still rendered, at
a fixed 300x300 whatever the frame size, and only when some eligible object is within reach (a
step in the middle of a room renders nothing). That visibility-only render leaves out every box
that lies wholly farther from the camera than the farthest candidate object: such a box cannot
cover a candidate's pixels, so the candidates' pixel counts, and hence visibility, are exactly
those of the full frame (``tests/test_sim_render.py`` checks it).

What is drawn (see :mod:`alfred_gen.sim.render` for the renderer's own contract):

- The room shell (floor, four walls, ceiling) from the walls' inner faces; walls that do not lie
  on the room's bounding rectangle (partitions, the corner of an L-shaped room, the pieces around
  a doorway whose door leaf is recessed) are drawn as boxes.
- Every present object as its type's shape (:func:`~alfred_gen.sim.shapes.shape_parts`) with its
  open state, plus its drawing parts (render rows are cached per object state). A receptacle's
  front faces the scene's declared yaw (``rotation``); scenes that declare none (fixtures, scenes
  built from ALFRED layouts: every posed object at yaw 0) face it towards its interaction pose,
  ``(pose.rotation + 180) % 360``. Contents of an open drawer are drawn slid out with it.
- Furniture (not pickupable, not openable) is carved where a smaller object overlaps its box (a
  sink basin set in a sink, a cabinet in a full-height counter, a book sunk into a bed): see
  :func:`_carves`. THOR's meshes are hollow there; a solid box would hide the nested object.
- In a room imported from ALFRED, a sink basin's walls are hugged from outside by a skirt drawn as
  no instance (:mod:`alfred_gen.sim.basin_skirts`): THOR's mask of a basin is its bowl's inside.
  Likewise a shut cabinet's carcass round its door (:data:`CARCASS_OWNER`): THOR's mask of a shut
  cabinet is its door; and the top over an open base cabinet, where THOR's counter stands. An open
  wall cabinet there is drawn whole, its sides and top its own (:func:`~alfred_gen.sim.thor_shapes.open_wall_parts`),
  an open base cabinet with its side at the hinge (:func:`~alfred_gen.sim.thor_shapes.open_base_parts`).
- Objects shut inside a closed fridge, cabinet, drawer, microwave, safe or box are not drawn.
- The held object (with what it carries) is drawn as THOR shows it: at the bottom middle of the
  view, in front of everything. It is composited over the scene frame in every modality (RGB,
  depth, segmentation), so masks, depth and visibility stay consistent with what a person sees;
  it is placed ~0.5 m ahead with its centre at 90% of the image height and its largest extent
  covering at most :data:`HAND_MAX_SPAN` of the height (a large object is drawn farther away),
  and it never pierces furniture. Kept that low and small, it hides the target of no interaction
  pose of the procedural rooms (measured: every pickupable type held at every receptacle pose of
  25 rooms, 9,936 cases; centred at 80% and up to 30% of the height it hid 182 of them, a pot or
  a box over a garbage can or a burner). The held object itself is never ``visible``. In a room
  imported from ALFRED a held pot, pan or plate is drawn as large as THOR draws it
  (:mod:`alfred_gen.sim.thor_held`): THOR's masks of the receptacle it is put on have its hole.

Renders are cached per (world, ``world.version``, camera pose and intrinsics): the visibility hook
and the image fields of one state share one render when the frame size is 300x300. The arrays an
Event carries are that cache's, so they are read-only (copy before drawing on a frame).

Cost (``bench/render.py``, ``bench/sim_steps.py``): a visibility-only render is ~2-3 ms, a full
RGB + depth + segmentation frame with THOR's instance outputs ~3-4 ms per step at 300x300.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from alfred_gen.sim import render as render_module
from alfred_gen.sim.basin_skirts import SKIRT, SKIRT_OWNER, SKIRTED, deck_boxes, skirt_boxes
from alfred_gen.sim.camera import Camera as RenderCamera
from alfred_gen.sim.palette import GRIME, GRIME_SHARE, owner_colors, type_color, varied_color
from alfred_gen.sim.put_lean import ramp
from alfred_gen.sim.render import (
    FAR_DEPTH,
    MIN_VISIBLE_PIXELS,
    BoxList,
    BoxListBuilder,
    Frames,
    Window,
    box_distances,
    frozen_rows,
    instance_outputs,
    outlined_window,
    render,
    screen_window,
    visible_pixel_counts,
)
from alfred_gen.sim.scene import Box, Scene
from alfred_gen.sim.shapes import (
    LEFT_HINGED,
    SIDE_HINGED,
    Swing,
    broken_parts,
    content_offset,
    door_pair,
    hinged_at_high_end,
    shape_parts,
    state_parts,
)
from alfred_gen.sim.thor_drawn import drawn_scale, shrunk
from alfred_gen.sim.thor_held import HELD_SPAN
from alfred_gen.sim.thor_shapes import (
    FRONT_ONLY,
    carcass_parts,
    drawn_under,
    lone_cap,
    open_parts,
    open_top_parts,
    thor_parts,
    thor_shaped,
    thor_swing,
)
from alfred_gen.sim.turned_rows import turned
from alfred_gen.sim.visibility import PartialSight, Sight, reach_distances
from alfred_gen.sim.visibility import known as _known
from alfred_gen.sim.world import World, WorldObject

if TYPE_CHECKING:
    from alfred_gen.sim.lite import LiteController

#: Visibility is decided on a frame of this size, whatever size the Event's frames have.
VISIBILITY_SIZE = 300
#: The held object: distance ahead of the camera (metres) and the image row of its centre
#: (fraction of the height from the top), and the largest share of the image height it may cover.
HAND_DISTANCE = 0.5
HAND_ROW = 0.9
HAND_MAX_SPAN = 0.15
#: A box is left out of a visibility-only render when it is this much farther than every candidate.
CULL_MARGIN = 1e-3
#: Overlap (metres, on every axis) from which an object carves room for itself in fixed furniture.
CARVE_MIN_OVERLAP = 0.002
#: Furniture whose contents are reached from the front, not from above (a mug under the spout).
FRONT_OPEN = frozenset({"CoffeeMachine"})
#: Open basins built into furniture: they cut the furniture they overlap, never the reverse.
OPEN_BASINS = frozenset({"SinkBasin", "BathtubBasin"})
#: Seats drawn with parts above their box (an imported room's armchair or sofa, its back rest and
#: arms over the seat, :mod:`alfred_gen.scenes.alfred.seat_backs`): what rests on the seat carves
#: them too, up and out through the seat's front, so a remote lying where lite draws the back rest
#: (THOR's is thinner than the box's back share) is drawn, and seen, in front of it.
CARVED_AS_DRAWN = frozenset({"ArmChair", "Sofa"})
#: Boards set inside an imported room's furniture with a top over them (a side table's inner shelf):
#: seen, as a drawer is, through the furniture's front, so they carve room out through the side they
#: face, not up through the top. Carved up, FloorPlan313's side table lost its whole top over its
#: shelf (the alarm clock and credit cards on it floating, the table 1,127 pixels where THOR's mask of
#: it at the Put had 10,121). A lamp a board meets is still carved up: FloorPlan320's desk lamp, carved
#: through its front, drew 10,740 pixels against THOR's 6,065 (IoU 0.556 -> 0.521).
FRONT_SEEN = frozenset({"Shelf"})
#: The furniture :data:`FRONT_SEEN` boards are set in, under its top.
TOPPED_FURNITURE = frozenset({"SideTable", "Desk", "TVStand", "Dresser", "DiningTable", "CoffeeTable"})


def _carved_box(obj: WorldObject) -> Box:
    """The box a carvable object is carved in: its box, and for :data:`CARVED_AS_DRAWN` the hull
    of its box and its drawing parts."""
    box = obj.box()
    if obj.type_name not in CARVED_AS_DRAWN or not obj.parts:
        return box
    boxes = [box, *obj.part_boxes()]
    lo = tuple(min(b.lo[a] for b in boxes) for a in range(3))
    hi = tuple(max(b.hi[a] for b in boxes) for a in range(3))
    return Box(lo, hi)  # type: ignore[arg-type]  # three coordinates each


#: Owner names of the room structure (THOR's segmentation also colours them).
STRUCTURE = ("Floor", "Wall", "Ceiling")

_EPS = 1e-6


# ---------------------------------------------------------------------------------------------
# The room shell and which way furniture faces


def room_layout(scene: Scene) -> tuple[Box | None, list[Box]]:
    """The room's interior box (floor to top of the walls) and the walls drawn as boxes.

    For each of the four sides, the walls lying on the bounding rectangle of all walls and thin
    across that side are the side's boundary walls; the shell's face on that side is their
    outermost inner face, and boundary walls whose inner face is exactly there are absorbed into
    the shell. Every other wall (partitions, an L's inner corner, wall pieces standing proud of a
    recessed door leaf) is drawn as a box. No walls: no shell.
    """
    walls = list(scene.walls)
    if not walls:
        return None, []
    lo = [min(w.lo[k] for w in walls) for k in range(3)]
    hi = [max(w.hi[k] for w in walls) for k in range(3)]
    interior_lo = [lo[0], scene.floor_y, lo[2]]
    interior_hi = [hi[0], hi[1], hi[2]]
    absorbed: set[int] = set()
    for axis in (0, 2):
        other = 2 - axis
        for high in (False, True):
            side = []
            for index, wall in enumerate(walls):
                thin = wall.size[axis] <= wall.size[other]
                on_side = wall.hi[axis] >= hi[axis] - _EPS if high else wall.lo[axis] <= lo[axis] + _EPS
                if thin and on_side:
                    side.append((wall.lo[axis] if high else wall.hi[axis], index))
            if not side:
                continue
            face = max(f for f, _ in side) if high else min(f for f, _ in side)
            if high:
                interior_hi[axis] = face
            else:
                interior_lo[axis] = face
            absorbed.update(index for f, index in side if abs(f - face) <= _EPS)
    interior = Box(tuple(interior_lo), tuple(interior_hi))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
    return interior, [w for index, w in enumerate(walls) if index not in absorbed]


def scene_facings(scene: Scene) -> dict[str, int]:
    """Front yaw per scene object id, for objects whose shape has a front.

    A scene that declares facings (some object with an interaction pose has a non-zero yaw, as the
    procedural library does) is trusted; otherwise a posed object faces its interaction pose.
    """
    posed = [o for o in scene.objects if o.object_id in scene.interaction_poses]
    declared = any(_quarter(o.rotation[1]) != 0 for o in posed)
    facings = {o.object_id: _quarter(o.rotation[1]) for o in scene.objects}
    if not declared:
        for o in posed:
            facings[o.object_id] = (scene.interaction_poses[o.object_id].rotation + 180) % 360
    return facings


def scene_mirrored(scene: Scene, facings: dict[str, int]) -> frozenset[str]:
    """Ids of the scene's side-hinged objects whose door hangs at the high end of their front
    (:func:`~alfred_gen.sim.shapes.hinged_at_high_end`, with pairs found by
    :func:`~alfred_gen.sim.shapes.door_pair`; an object's own :attr:`~alfred_gen.sim.scene.SceneObject.hinge`
    wins)."""
    hinged = [o for o in scene.objects if o.object_type in SIDE_HINGED or o.object_type in LEFT_HINGED or o.hinge]
    mirrored = set()
    for obj in hinged:
        facing = facings.get(obj.object_id, 0)
        if obj.hinge:
            if obj.hinge > 0:
                mirrored.add(obj.object_id)
            continue
        paired = any(
            other is not obj and other.object_type == obj.object_type and facings.get(other.object_id, 0) == facing
            and door_pair(other.position, obj.position)
            for other in hinged
        )
        if hinged_at_high_end(obj.object_type, obj.box, obj.position, facing, paired):
            mirrored.add(obj.object_id)
    return frozenset(mirrored)


def scene_swings(scene: Scene) -> dict[str, Swing]:
    """How an imported room's fridges, microwaves and double-door cabinets stand their open doors, by id
    (:func:`~alfred_gen.sim.thor_shapes.thor_swing`); none in a procedural room."""
    if not scene.from_alfred:
        return {}
    swings = {o.object_id: thor_swing(o.object_type, o.hinge, o.double_door) for o in scene.objects}
    return {k: v for k, v in swings.items() if v is not None}


def _quarter(yaw: float) -> int:
    return int(round(float(yaw) / 90.0)) % 4 * 90


def facing_of(obj: WorldObject, facings: dict[str, int]) -> int:
    """The yaw an object's front faces: its own for pickupables, else the scene's (``facings``)."""
    if obj.otype.pickupable:
        return _quarter(obj.rotation[1])
    return facings.get(obj.object_id, _quarter(obj.rotation[1]))


# ---------------------------------------------------------------------------------------------
# Objects as rows of boxes, with carving


def subtract_box(lo: np.ndarray, hi: np.ndarray, cut_lo: np.ndarray,
                 cut_hi: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Box ``[lo, hi]`` minus box ``[cut_lo, cut_hi]`` as at most six disjoint boxes."""
    inter_lo = np.maximum(lo, cut_lo)
    inter_hi = np.minimum(hi, cut_hi)
    if (inter_hi - inter_lo <= _EPS).any():
        return [(lo, hi)]
    pieces = []
    rest_lo, rest_hi = lo.copy(), hi.copy()
    for axis in (0, 1, 2):
        if inter_lo[axis] - rest_lo[axis] > _EPS:
            piece_hi = rest_hi.copy()
            piece_hi[axis] = inter_lo[axis]
            pieces.append((rest_lo.copy(), piece_hi))
        if rest_hi[axis] - inter_hi[axis] > _EPS:
            piece_lo = rest_lo.copy()
            piece_lo[axis] = inter_hi[axis]
            pieces.append((piece_lo, rest_hi.copy()))
        rest_lo[axis], rest_hi[axis] = inter_lo[axis], inter_hi[axis]
    return pieces


@dataclass(frozen=True)
class Look:
    """How an object's state shows beyond its shape: dirt, liquid, shards, a light.

    THOR swaps materials and meshes for these states; lite draws a dirty object's colours mixed
    with :data:`~alfred_gen.sim.palette.GRIME`, a filled one with its liquid
    (:func:`~alfred_gen.sim.shapes.state_parts`), a broken one as shards
    (:func:`~alfred_gen.sim.shapes.broken_parts`), a lit candle or a switched-on laptop lit.
    """

    dirty: bool = False
    liquid: str | None = None
    broken: bool = False
    lit: bool = False


#: Pickupable types whose look changes with ``isToggled`` (furniture, lamps and appliances keep
#: theirs, so frames of ALFRED's tasks, which switch those, stay as they were).
LIT_TYPES = frozenset({"Candle", "Laptop"})


def look_of(obj: WorldObject, show_dirt: bool) -> Look | None:
    """The look of an object's state; None when it looks as its plain shape."""
    look = Look(
        dirty=show_dirt and obj.is_dirty,
        liquid=(obj.liquid or "water") if obj.is_filled else None,
        broken=obj.is_broken,
        lit=obj.is_toggled and obj.type_name in LIT_TYPES,
    )
    return None if look == Look() else look


@lru_cache(maxsize=8192)
def _object_rows(
    object_type: str,
    object_id: str,
    box: Box,
    is_open: bool,
    facing: int,
    parts: tuple[Box, ...],
    cuts: tuple[Box, ...],
    look: Look | None = None,
    varied: bool = False,
    mirrored: bool = False,
    open_tray: tuple[float, ...] = (),
    thor: bool = False,
    swing: Swing | None = None,
    across: tuple[float, ...] = (),
    pattern: tuple[float, ...] = (),
    alone: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Corners and colours of an object's render boxes: its type's shape (or its look's: shards,
    liquid, a flame), its drawing parts, minus cuts. ``varied``: the object's colour under colour
    variation (:func:`~alfred_gen.sim.palette.varied_color`) instead of its type's; ``mirrored``:
    its shape drawn with its door on the other side (:func:`~alfred_gen.sim.shapes.hinged_at_high_end`);
    ``open_tray``: an open drawer's tray drawn wider and taller (:func:`~alfred_gen.sim.shapes.shape_parts`);
    ``thor``: in a room imported from ALFRED, the shape THOR's mesh covers where one is known
    (:func:`~alfred_gen.sim.thor_shapes.thor_parts`); ``swing``: how its open doors stand there
    (:func:`scene_swings`); ``across``: a fallen blade's own-z band there
    (:attr:`~alfred_gen.sim.scene.SceneObject.blade_across`); ``pattern``: the parts of its slab
    drawn there (:attr:`~alfred_gen.sim.scene.SceneObject.drawn_pattern`); ``alone``: a slice no longer
    in its row (:data:`~alfred_gen.sim.thor_shapes.LONE_CAPS`)."""
    base = varied_color(object_type, object_id) if varied else type_color(object_type, object_id)
    if look is not None and look.broken:
        shape = broken_parts(box, facing)
    else:
        if not thor:
            thor_shape = None
        elif is_open:
            thor_shape = open_parts(object_type, box, facing, mirrored, swing)
        else:
            thor_shape = thor_parts(object_type, box, facing, across, pattern, object_id, alone)
        shape = thor_shape if thor_shape is not None else shape_parts(
            object_type, box, is_open=is_open, facing=facing, mirrored=mirrored, open_tray=open_tray, swing=swing)
        if look is not None:
            shape += state_parts(object_type, box, facing, liquid=look.liquid, lit=look.lit, is_open=is_open)
    rows = [(np.array(part.lo, float), np.array(part.hi, float), tone.apply(base)) for part, tone in shape]
    rows += [(np.array(part.lo, float), np.array(part.hi, float), base) for part in parts]
    if look is not None and look.dirty:
        rows = [(lo, hi, _grimy(color)) for lo, hi, color in rows]
    return frozen_rows(_minus_cuts(rows, cuts))


def _minus_cuts(rows: list[tuple[np.ndarray, np.ndarray, tuple[int, int, int]]],
                cuts: tuple[Box, ...]) -> list[tuple[np.ndarray, np.ndarray, tuple[int, int, int]]]:
    """``rows`` (lo, hi, colour) with every box of ``cuts`` taken out of them."""
    for cut in cuts:
        cut_lo, cut_hi = np.array(cut.lo, float), np.array(cut.hi, float)
        rows = [(p_lo, p_hi, color) for lo, hi, color in rows for p_lo, p_hi in subtract_box(lo, hi, cut_lo, cut_hi)]
    return rows


def forget_shapes() -> None:
    """Drop every cached shape, lite's and the plain renderer's: a study that rebinds a type's shape
    (``bench/shape_fit.py``, ``bench/round_shapes.py``) must not draw the shapes cached before it."""
    _object_rows.cache_clear()
    _carcass_boxes_cut.cache_clear()
    render_module.forget_shapes()


def _grimy(color: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = (round(c * (1.0 - GRIME_SHARE) + d * GRIME_SHARE) for c, d in zip(color, GRIME))
    return (r, g, b)


def _rows_of(
    obj: WorldObject, facing: int, offset: tuple[float, float, float] = (0.0, 0.0, 0.0), cuts: tuple[Box, ...] = (),
    look: Look | None = None, varied: bool = False, mirrored: bool = False, scale: float = 1.0,
    thor: bool = False, swing: Swing | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``scale``: the object drawn in its box shrunk by it (:func:`~alfred_gen.sim.thor_drawn.shrunk`);
    ``thor``: in the shape THOR's mesh covers, where one is known (an imported room); ``swing``:
    how its open doors stand (:func:`scene_swings`)."""
    box = shrunk(obj.drawn_box(), scale)
    parts = tuple(obj.part_boxes()) if obj.parts else ()
    if offset != (0.0, 0.0, 0.0):
        box = box.translated(*offset)
        parts = tuple(p.translated(*offset) for p in parts)
    elif obj.holes:
        cuts = cuts + obj.holes
    # Only objects THOR draws in their own shape carry the flag, so every other cache key stays as it was.
    shaped = thor and thor_shaped(obj.type_name, obj.lies_as_cut, obj.object_id)
    extra: dict[str, Any] = {"thor": True} if shaped else {}
    if "thor" in extra and not obj.lies_as_cut and lone_cap(obj.type_name, obj.object_id):
        extra["alone"] = True
    if swing is not None:
        extra["swing"] = swing
    if "thor" in extra and obj.blade_across:
        extra["across"] = obj.blade_across
    if "thor" in extra and obj.drawn_pattern:
        extra["pattern"] = obj.drawn_pattern
    if obj.open_tray and obj.is_open:
        return _object_rows(obj.type_name, obj.object_id, box, True, facing, parts, cuts, look, varied,
                            mirrored=mirrored, open_tray=obj.open_tray, **extra)
    if mirrored:
        return _object_rows(obj.type_name, obj.object_id, box, bool(obj.is_open), facing, parts, cuts, look, varied,
                            mirrored=True, **extra)
    if varied:
        return _object_rows(obj.type_name, obj.object_id, box, bool(obj.is_open), facing, parts, cuts, look, True,
                            **extra)
    if look is None:  # the plain call, so the cache keys of plain objects stay as they were
        return _object_rows(obj.type_name, obj.object_id, box, bool(obj.is_open), facing, parts, cuts, **extra)
    return _object_rows(obj.type_name, obj.object_id, box, bool(obj.is_open), facing, parts, cuts, look, **extra)


def _carves(
    drawn: list[WorldObject], carvable: list[WorldObject], facings: dict[str, int], from_alfred: bool = False
) -> dict[int, tuple[Box, ...]]:
    """Cuts per carvable furniture (by object index): room for what overlaps its box.

    Scenes are boxes, and some sources nest them: a sink basin inside a sink's box, a cabinet or a
    drawer inside a full-height counter, a book sunk into a bed a few centimetres. THOR's meshes
    are hollow or cut out there, so the nested object is seen. A carvable object (furniture: not
    pickupable, not openable) therefore loses, in every render part, the overlap with each drawn
    object that is not inside an openable receptacle, extended up to the furniture's top (for
    what is seen from above: a basin, a book) or, for an openable nested object, out through the
    side its front faces (a drawer or a cabinet door in a counter); a coffee machine is open at
    its own front. Of two overlapping boxes the smaller is the nested one (by footprint when one is an open basin).
    In an imported room (``from_alfred``) a board nested in furniture with a top over it
    (:data:`FRONT_SEEN`, :data:`TOPPED_FURNITURE`) carves out through its front too.
    """
    if not carvable or not drawn:
        return {}
    a_boxes = [_carved_box(o) for o in carvable]
    a_lo = np.array([b.lo for b in a_boxes])
    a_hi = np.array([b.hi for b in a_boxes])
    b_lo = np.array([o.lo for o in drawn])
    if from_alfred:  # a thin thing's strip drawn under its box carves what it rests in as deep
        b_lo[:, 1] -= [drawn_under(o.type_name, o.box()) for o in drawn]
    b_hi = np.array([o.hi for o in drawn])
    overlap = np.minimum(a_hi[:, None, :], b_hi[None, :, :]) - np.maximum(a_lo[:, None, :], b_lo[None, :, :])
    a_volume = np.prod(a_hi - a_lo, axis=1)
    b_volume = np.prod(b_hi - b_lo, axis=1)
    # The smaller of two overlapping boxes is the nested one: only it carves the other.
    # Between an open basin and furniture (a sink and the counter slab around it, thinner than the
    # sink), the one with the smaller footprint is the nested one: the basin's opening is what the
    # counter is cut out for, while a faucet standing on the sink's rim stays whole.
    a_area = (a_hi[:, 0] - a_lo[:, 0]) * (a_hi[:, 2] - a_lo[:, 2])
    b_area = (b_hi[:, 0] - b_lo[:, 0]) * (b_hi[:, 2] - b_lo[:, 2])
    a_basin = np.array([o.type_name in OPEN_BASINS for o in carvable])
    b_basin = np.array([o.type_name in OPEN_BASINS for o in drawn])
    b_furniture = np.array([not (o.otype.pickupable or o.otype.openable) for o in drawn])
    by_footprint = (a_basin[:, None] | b_basin[None, :]) & b_furniture[None, :]
    nested = np.where(by_footprint, b_area[None, :] < a_area[:, None], b_volume[None, :] < a_volume[:, None])
    hits = np.argwhere((overlap > CARVE_MIN_OVERLAP).all(axis=2) & nested)
    cuts: dict[int, list[Box]] = {}
    for ia, ib in hits.tolist():
        a, b = carvable[ia], drawn[ib]
        if a is b:
            continue
        lo, hi = list(b_lo[ib]), list(b.hi)
        if b.otype.openable or a.type_name in FRONT_OPEN or (
                from_alfred and b.type_name in FRONT_SEEN and a.type_name in TOPPED_FURNITURE):
            _out_through_front(lo, hi, facing_of(a if a.type_name in FRONT_OPEN else b, facings), a.lo, a.hi)
        else:
            hi[1] = max(hi[1], a_boxes[ia].hi[1] + 0.01)
            if a.type_name in CARVED_AS_DRAWN and a.parts:  # and out through the seat's front, past the back rest
                _out_through_front(lo, hi, facing_of(a, facings), a_boxes[ia].lo, a_boxes[ia].hi)
        cuts.setdefault(a.index, []).append(Box(tuple(lo), tuple(hi)))  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
    return {k: tuple(v) for k, v in cuts.items()}


def _out_through_front(lo: list[float], hi: list[float], facing: int, box_lo: Sequence[float],
                       box_hi: Sequence[float]) -> None:
    """Stretch the cut ``lo``-``hi`` 1 cm past the side of the box ``box_lo``-``box_hi`` that a front
    facing ``facing`` (degrees, THOR's yaw) looks out of, so what the cut holds is seen from there."""
    quarter = facing // 90
    axis = 2 if quarter in (0, 2) else 0
    if quarter in (0, 1):
        hi[axis] = max(hi[axis], box_hi[axis] + 0.01)
    else:
        lo[axis] = min(lo[axis], box_lo[axis] - 0.01)


def _inside_openable(world: World, obj: WorldObject) -> bool:
    return any(p.otype.openable for p in world.parent_chain(obj))


def _drawn_offset(world: World, obj: WorldObject, facings: dict[str, int]) -> tuple[float, float, float]:
    """Where an object is drawn relative to its box: slid out with the open drawers it is in."""
    dx = dy = dz = 0.0
    for parent in world.parent_chain(obj):
        if parent.type_name == "Drawer" and parent.is_open:
            ox, oy, oz = content_offset(parent.type_name, parent.box(), True, facing_of(parent, facings))
            dx, dy, dz = dx + ox, dy + oy, dz + oz
    return (dx, dy, dz)


# ---------------------------------------------------------------------------------------------
# One state of the world as box lists


@dataclass
class _Structure:
    """Per scene: the room shell and the walls drawn as boxes, the objects' front yaws and the ids
    of those drawn mirrored (:func:`scene_mirrored`)."""

    scene: Scene
    boxes: BoxList
    facings: dict[str, int]
    mirrored: frozenset[str] = frozenset()
    #: How the open doors of an imported room's fridges and microwaves stand (:func:`scene_swings`).
    swings: dict[str, Swing] = field(default_factory=dict)


def _build_structure(scene: Scene) -> _Structure:
    interior, drawn_walls = room_layout(scene)
    builder = BoxListBuilder()
    for name in STRUCTURE:
        builder.owner(name)
    if interior is not None:
        builder.set_room(interior)
    wall_color = type_color("Wall", "Wall")
    for wall in drawn_walls:
        builder.add_box(wall, wall_color, "Wall")
    facings = scene_facings(scene)
    return _Structure(scene, builder.build(), facings, scene_mirrored(scene, facings), scene_swings(scene))


@dataclass
class _Layers:
    """The world at one version: the scene's boxes, the held group, and every owner name."""

    scene_boxes: BoxList
    #: The held object and its visible contents at their world boxes (placed per camera).
    held: list[WorldObject]
    owners: tuple[str, ...]
    #: Segmentation colour per owner (stable per object id).
    colors: np.ndarray
    #: Owner index of each world object's id (-1 when the object is not listed), by ``obj.index``.
    owner_of_object: np.ndarray
    facings: dict[str, int]
    #: Whether dirty objects look dirty (see :class:`PixelSight`).
    show_dirt: bool = False
    #: Whether objects take their varied colours (the world's ``color_variation``).
    varied: bool = False
    #: The share of the frame's height the held group's largest extent covers as THOR draws it
    #: (:data:`~alfred_gen.sim.thor_held.HELD_SPAN` of the held object's type, in a room imported
    #: from ALFRED); None: lite's own small drawing (:data:`HAND_MAX_SPAN`).
    held_span: float | None = None


@lru_cache(maxsize=64)
def _colors_for(owners: tuple[str, ...]) -> np.ndarray:
    colors = owner_colors(owners)
    colors.setflags(write=False)
    return colors


def _build_layers(world: World, structure: _Structure, show_dirt: bool = False) -> _Layers:
    _, _, eligible = world.arrays()
    eligible_list = eligible.tolist()
    facings = structure.facings
    owners = list(structure.boxes.owners)
    held: list[WorldObject] = []
    drawn: list[tuple[WorldObject, int]] = []
    for obj in world.objects:
        if not obj.present:
            continue
        owners.append(obj.object_id)
        if obj.is_sliced:
            continue
        if world.is_held_family(obj):
            if not world.enclosed(obj):
                held.append(obj)
            continue
        if eligible_list[obj.index]:  # else shut inside a closed receptacle
            drawn.append((obj, len(owners) - 1))
    from_alfred = structure.scene.from_alfred
    carvable = [o for o, _ in drawn if not (o.otype.pickupable or o.otype.openable)]
    cutters = [o for o, _ in drawn if not _inside_openable(world, o)]
    cuts = _carves(cutters, carvable, facings, from_alfred)
    chunks = [(structure.boxes.lo, structure.boxes.hi, structure.boxes.color, structure.boxes.owner)]
    ownerless: dict[str, int] = {}
    for obj, owner in drawn:
        offset = _drawn_offset(world, obj, facings) if obj.parent is not None else (0.0, 0.0, 0.0)
        look = look_of(obj, show_dirt)
        own_cuts = (*cuts.get(obj.index, ()), *_over_rim(obj)) if from_alfred else cuts.get(obj.index, ())
        lo, hi, colors = _rows_of(obj, facing_of(obj, facings), offset, own_cuts, look,
                                  world.color_variation, obj.object_id in structure.mirrored,
                                  drawn_scale(obj.type_name, from_alfred), thor=from_alfred,
                                  swing=structure.swings.get(obj.object_id))
        if obj.lean:  # a long thing resting on a taller one (:mod:`alfred_gen.sim.put_lean`)
            lo, hi, colors = ramp(lo, hi, colors, obj.box().translated(*offset), obj.lean)
        if obj.cut_turn and obj.lies_as_cut:  # a slice turned with its whole (:mod:`alfred_gen.sim.turned_rows`)
            middle = (obj.center[0] + offset[0], obj.center[2] + offset[2])
            lo, hi, colors = turned(lo, hi, colors, middle, obj.cut_turn)
        chunks.append((lo, hi, colors, np.full(len(lo), owner, np.int32)))
        if from_alfred and offset == (0.0, 0.0, 0.0):
            for name, (lo, hi, colors) in _ownerless_rows(obj, facing_of(obj, facings), (*obj.holes, *own_cuts)):
                if name not in ownerless:
                    owners.append(name)
                    ownerless[name] = len(owners) - 1
                chunks.append((lo, hi, colors, np.full(len(lo), ownerless[name], np.int32)))
    boxes = BoxList(
        np.concatenate([c[0] for c in chunks]).reshape(-1, 3),
        np.concatenate([c[1] for c in chunks]).reshape(-1, 3),
        np.concatenate([c[3] for c in chunks]).astype(np.int32),
        np.concatenate([c[2] for c in chunks]).reshape(-1, 3),
        tuple(owners),
        structure.boxes.room,
    )
    index_of = {name: k for k, name in enumerate(boxes.owners)}
    owner_of_object = np.array(
        [index_of.get(o.object_id, -1) if o.present else -1 for o in world.objects], dtype=np.int64
    )
    held_span = HELD_SPAN.get(world.by_id[world.held].type_name) if from_alfred and world.held else None
    return _Layers(boxes, held, boxes.owners, _colors_for(boxes.owners), owner_of_object, facings, show_dirt,
                   world.color_variation, held_span)


Rows = tuple[np.ndarray, np.ndarray, np.ndarray]


def _boxes_minus_cuts(parts: Iterable[tuple[Box, tuple[int, int, int]]], cuts: tuple[Box, ...]) -> Rows:
    """Render rows of coloured ``parts``, with every box of ``cuts`` taken out of them."""
    rows = [(np.array(b.lo, float), np.array(b.hi, float), color) for b, color in parts]
    return frozen_rows(_minus_cuts(rows, cuts))


@lru_cache(maxsize=256)
def _skirt_boxes_cut(box: Box, color: tuple[int, int, int], cuts: tuple[Box, ...],
                     opening: tuple[float, ...] = ()) -> Rows:
    """The skirt's rows round ``box`` in ``color``, and the deck round its ``opening``, minus
    ``cuts`` (cached: the skirt is static)."""
    return _boxes_minus_cuts(((b, color) for b in [*skirt_boxes(box), *deck_boxes(box, opening)]), cuts)


#: The owner a shut cabinet's carcass is drawn under in an imported room
#: (:data:`~alfred_gen.sim.thor_shapes.FRONT_ONLY`): no ``|``, so it is no instance, as THOR's
#: counter or wall unit round the door is none of the cabinet's.
CARCASS_OWNER = "CabinetCarcass"


@lru_cache(maxsize=1024)
def _carcass_boxes_cut(object_type: str, box: Box, facing: int, color: tuple[int, int, int],
                       cuts: tuple[Box, ...], is_open: bool = False) -> Rows:
    """The carcass's rows round a shut cabinet's door in ``box`` (``is_open``: the top over an open
    base cabinet, :func:`~alfred_gen.sim.thor_shapes.open_top_parts`), minus ``cuts`` (cached: static)."""
    parts = (open_top_parts if is_open else carcass_parts)(object_type, box, facing)
    return _boxes_minus_cuts(((b, tone.apply(color)) for b, tone in parts), cuts)


#: Basins drawn no higher than the rim of their drawn opening (:func:`_over_rim`).
CUT_AT_RIM = frozenset({"BathtubBasin"})


def _over_rim(obj: WorldObject) -> tuple[Box, ...]:
    """A cut over ``obj``'s drawn box (and its skirt) above the rim of its drawn opening, for
    :data:`CUT_AT_RIM`: a tub's rim is fitted where its masks' opening lies
    (:func:`~alfred_gen.scenes.alfred.basin_openings.centred_rim`), under the top of the box the
    importer gave it, and the walls standing over the deck were drawn as the basin, where THOR's
    are the ``Bathtub``'s (FloorPlan410's two tub puts, held out: IoU 0.43-0.49, lite 2.0-2.2 times
    THOR's pixels; 0.65-0.73 cut)."""
    if obj.type_name not in CUT_AT_RIM or len(obj.opening) != 5:
        return ()
    drawn = obj.drawn_box()
    (x0, _, z0), (x1, top, z1) = drawn.lo, drawn.hi
    rim = obj.opening[4]
    if rim >= top:
        return ()
    reach = 2.0 * SKIRT
    return (Box((x0 - reach, rim, z0 - reach), (x1 + reach, top + reach, z1 + reach)),)


def _ownerless_rows(obj: WorldObject, facing: int, cuts: tuple[Box, ...]) -> list[tuple[str, Rows]]:
    """What an imported room draws round ``obj`` under an owner that is no instance, because THOR
    draws it as part of another object, cut where ``obj``'s drawing is: a sink basin's skirt
    (:mod:`alfred_gen.sim.basin_skirts`, owner :data:`~alfred_gen.sim.basin_skirts.SKIRT_OWNER`)
    and a shut cabinet's carcass round its door (:func:`~alfred_gen.sim.thor_shapes.carcass_parts`,
    in its drawing's box, owner :data:`CARCASS_OWNER`), or the top over an open base cabinet
    (:func:`~alfred_gen.sim.thor_shapes.open_top_parts`, the counter THOR draws over it)."""
    color = type_color(obj.type_name, obj.object_id)
    if obj.type_name in SKIRTED:
        return [(SKIRT_OWNER, _skirt_boxes_cut(obj.drawn_box(), color, cuts, obj.opening))]
    if obj.type_name in FRONT_ONLY:
        box = shrunk(obj.drawn_box(), drawn_scale(obj.type_name, True))
        rows = _carcass_boxes_cut(obj.type_name, box, facing, color, cuts, bool(obj.is_open))
        return [(CARCASS_OWNER, rows)] if len(rows[0]) else []
    return []


def _held_boxes(layers: _Layers, camera: RenderCamera) -> BoxList | None:
    """The held group moved to the bottom middle of the view, as a box list over all owners."""
    if not layers.held:
        return None
    lo = np.array([o.lo for o in layers.held]).min(axis=0)
    hi = np.array([o.hi for o in layers.held]).max(axis=0)
    span = float((hi - lo).max())
    tan_half = math.tan(math.radians(camera.fov_deg) / 2.0)
    # Largest extent covers span * focal / d pixels: THOR's share of the height where it is known,
    # else within HAND_MAX_SPAN of it.
    if layers.held_span is not None:
        distance = span / (2.0 * tan_half * layers.held_span)
    else:
        distance = max(HAND_DISTANCE, span / (2.0 * tan_half * HAND_MAX_SPAN))
    _right, up, forward = camera.basis()
    row_offset = (0.5 - HAND_ROW) * 2.0 * tan_half  # image-plane y of the target row at depth 1
    target = camera.position + distance * (forward + row_offset * up)
    shift = tuple(float(v) for v in target - (lo + hi) / 2.0)
    index_of = {name: k for k, name in enumerate(layers.owners)}
    chunks = []
    for obj in layers.held:
        b_lo, b_hi, colors = _rows_of(obj, facing_of(obj, layers.facings), shift,  # type: ignore[arg-type]  # shift is built from a 3-vector, so it has three items
                                      look=look_of(obj, layers.show_dirt), varied=layers.varied)
        chunks.append((b_lo, b_hi, colors, np.full(len(b_lo), index_of[obj.object_id], np.int32)))
    return BoxList(
        np.concatenate([c[0] for c in chunks]),
        np.concatenate([c[1] for c in chunks]),
        np.concatenate([c[3] for c in chunks]),
        np.concatenate([c[2] for c in chunks]),
        layers.owners,
    )


# ---------------------------------------------------------------------------------------------
# Rendering a state


def render_camera(camera: RenderCamera, size: tuple[int, int] | None = None) -> RenderCamera:
    """The simulator's camera, optionally at another frame size."""
    if size is None:
        return camera
    return replace(camera, width=int(size[0]), height=int(size[1]))


def render_state(
    layers: _Layers, camera: RenderCamera, *, rgb: bool, depth: bool, scene_boxes: BoxList | None = None,
    window: Window | None = None, held: BoxList | bool | None = True,
) -> Frames:
    """One frame of a world state: the scene, then the held group composited in front of it.

    ``window``: only that part of the frame (owners and depth, no RGB; see :func:`render`).
    ``held``: the held group's boxes when the caller has them (True: work them out here)."""
    frames = render(
        camera, scene_boxes if scene_boxes is not None else layers.scene_boxes, rgb=rgb, depth=True, seg=True,
        window=window,
    )
    if held is True:
        held = _held_boxes(layers, camera)
    if isinstance(held, BoxList):
        # A full frame draws the held group in the window it covers (with the outline margin);
        # elsewhere it has no pixel, so nothing is composited there.
        part = window if window is not None else outlined_window(camera, held)
        if part is not None:
            hand = render(camera, held, rgb=rgb, depth=True, seg=True, window=part, margin=window is None)
            assert hand.depth is not None and hand.owner is not None and frames.owner is not None
            assert frames.depth is not None
            over = hand.depth < FAR_DEPTH
            cut = (slice(None), slice(None)) if window is not None else (slice(*part[:2]), slice(*part[2:]))
            np.copyto(frames.owner[cut], hand.owner, where=over)
            np.copyto(frames.depth[cut], hand.depth, where=over)
            if rgb:
                assert frames.rgb is not None and hand.rgb is not None  # asked for
                np.copyto(frames.rgb[cut], hand.rgb, where=over[:, :, None])
    if not depth:
        frames.depth = None
    for array in (frames.rgb, frames.depth, frames.owner):
        if array is not None:
            array.setflags(write=False)
    return frames


def in_frustum(camera: RenderCamera, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per box: whether it may reach into the camera's view (False: wholly outside a side plane
    or behind the camera), with a pixel of margin, so a box judged outside has no pixel."""
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    half_w = float(np.abs(cols).max()) + 1.0 / camera.focal
    half_h = float(np.abs(rows).max()) + 1.0 / camera.focal
    planes = np.stack(
        [forward, right + half_w * forward, half_w * forward - right, up + half_h * forward, half_h * forward - up]
    )
    centers, halves = (lo + hi) / 2.0, (hi - lo) / 2.0
    reach = (centers - camera.position) @ planes.T + halves @ np.abs(planes).T
    return (reach >= 0.0).all(axis=1)


@dataclass
class _Rendered:
    key: tuple[Any, ...]
    frames: Frames
    instances: Any = None
    classes: Any = None


class PixelSight:
    """Renders a lite world and derives visibility and THOR's image fields from the same pixels.

    ``min_pixels`` is THOR's threshold of pixels in the instance frame; ``visibility_size`` the
    side of the square frame visibility is decided on. ``show_dirt`` draws dirty objects dirty
    (:class:`Look`); it is off by default because every ALFRED ``pick_clean_then_place_in_recep``
    demonstration makes all dirtyable objects dirty at its start (``dirty_and_empty``), and frames
    recorded before lite drew dirt must re-render byte for byte. Filled, broken and lit looks need
    no switch: no ALFRED-style trajectory reaches those states.
    """

    def __init__(self, min_pixels: int = MIN_VISIBLE_PIXELS, visibility_size: int = VISIBILITY_SIZE,
                 show_dirt: bool = False) -> None:
        self.min_pixels = min_pixels
        self.visibility_size = visibility_size
        self.show_dirt = show_dirt
        self._world: World | None = None
        self._structure: _Structure | None = None
        self._layers: _Layers | None = None
        self._layers_version = -1
        self._full: _Rendered | None = None
        self._held_kept: tuple[World, tuple[Any, ...], BoxList | None] | None = None
        #: Counters for tests and benchmarks: renders made, by kind.
        self.renders = {"full": 0, "visibility": 0, "skipped": 0}

    # --- box lists --------------------------------------------------------------------------
    def layers(self, world: World) -> _Layers:
        """The box lists of the world's current state (cached per world and version)."""
        if self._world is not world or self._structure is None or self._structure.scene is not world.scene:
            self._world = world
            self._structure = _build_structure(world.scene)
            self._layers = None
            self._full = None
        # The layers leave the held group out, so its following the agent does not change them:
        # keyed on the scene version (a long walk carrying something costs no rebuild per step).
        if self._layers is None or self._layers_version != world.scene_version:
            self._layers = _build_layers(world, self._structure, self.show_dirt)
            self._layers_version = world.scene_version
        return self._layers

    def _key(self, world: World, camera: RenderCamera) -> tuple[Any, ...]:
        return (id(world), world.version, camera)

    def frames(
        self,
        world: World,
        camera: RenderCamera,
        *,
        rgb: bool = True,
        depth: bool = True,
        size: tuple[int, int] | None = None,
    ) -> _Rendered:
        """The full render (scene + held object) of the current state, cached per state and camera."""
        cam = render_camera(camera, size)
        cached = self._cached(self._key(world, cam), rgb, depth)
        if cached is not None:
            return cached
        layers = self.layers(world)
        return self._render_full(self._key(world, cam), layers, cam, self._held(world, layers, cam), rgb, depth)

    def _held(self, world: World, layers: _Layers, camera: RenderCamera) -> BoxList | None:
        """:func:`_held_boxes` of the current state, kept for the step: its frame and its visibility
        place the held group for the same camera (the state's key, as for a frame; the world kept
        with it, so its id is not reused)."""
        key = (self._key(world, camera), id(layers))
        kept = self._held_kept
        if kept is not None and kept[0] is world and kept[1] == key:
            return kept[2]
        held = _held_boxes(layers, camera)
        self._held_kept = (world, key, held)
        return held

    def _cached(self, key: tuple[Any, ...], rgb: bool, depth: bool) -> _Rendered | None:
        """The full render kept for ``key`` if it has what is asked for."""
        cached = self._full
        if (
            cached is not None
            and cached.key == key
            and (cached.frames.rgb is not None or not rgb)
            and (cached.frames.depth is not None or not depth)
        ):
            return cached
        return None

    def _render_full(self, key: tuple[Any, ...], layers: _Layers, camera: RenderCamera, held: BoxList | None,
                     rgb: bool, depth: bool) -> _Rendered:
        """Render a state from what was taken from it (its layers, the held group placed for
        ``camera``) and keep it as the full render of ``key``."""
        cached = self._full
        if cached is not None and cached.key == key:  # upgrade: ask for what the cache had too
            rgb = rgb or cached.frames.rgb is not None
            depth = depth or cached.frames.depth is not None
        self.renders["full"] += 1
        self._full = _Rendered(key, render_state(layers, camera, rgb=rgb, depth=depth, held=held))
        return self._full

    # --- the visibility model ---------------------------------------------------------------
    def __call__(self, world: World, camera: RenderCamera, max_distance: float) -> tuple[np.ndarray, np.ndarray]:
        """(visible, distance) over ``world.objects``: pixels in the instance frame and reach."""
        return self.prepare(world, camera, max_distance)()

    def prepare(self, world: World, camera: RenderCamera, max_distance: float) -> Sight:
        """:meth:`__call__` in two halves: what reads the live world now, the pixels when called.

        A navigation step's visibility is seldom looked at (vetting reads it only before an
        interaction and at the end), so the controller asks for it when a step ends and draws its
        pixels only if someone wants them. The world mutates in place, so everything taken from it
        (candidates, distances, the layers of this version, the held group placed for this
        camera, a frame already rendered) is taken here; the returned function draws only from
        those, so it gives the same answer whenever it is called.
        """
        centers, halves, eligible = world.arrays()
        lo, hi = centers - halves, centers + halves
        distance = reach_distances(world, camera, lo, hi)
        candidates = eligible & (distance <= max_distance)
        if not candidates.any():
            self.renders["skipped"] += 1
            return _known(candidates, distance)
        size = (self.visibility_size, self.visibility_size)
        cam = render_camera(camera, size)
        layers = self.layers(world)
        owner_rows = layers.owner_of_object
        cached = self._full
        if cached is not None and cached.key == self._key(world, cam):
            assert cached.frames.owner is not None  # a cached frame always has its owners
            return _known(self._seen(layers, cached.frames.owner, candidates), distance)
        candidate_owners = owner_rows[candidates]
        held = self._held(world, layers, cam)
        key = self._key(world, cam)

        def seen(among: np.ndarray, owners: np.ndarray) -> np.ndarray:
            """Visible of the candidates ``among`` (whose owners are ``owners``); False elsewhere."""
            assert world is not None  # kept alive with the key: its id is not reused meanwhile
            rendered = self._cached(key, rgb=False, depth=False)
            if rendered is not None:  # the step's frame was drawn since (a deferred frame read first)
                assert rendered.frames.owner is not None
                return self._seen(layers, rendered.frames.owner, among)
            if not among.any():
                return among
            owner_frame = self._visibility_frame(layers, cam, owners, held)
            if owner_frame is None:  # no candidate can be in view: nothing to render
                return np.zeros_like(among)
            return self._seen(layers, owner_frame, among)

        def pixels() -> tuple[np.ndarray, np.ndarray]:
            return seen(candidates, candidate_owners), distance

        def some(rows: np.ndarray) -> np.ndarray:
            # The asked objects' pixels are those of the full visibility frame: the frame left out
            # only boxes farther than every asked one and the screen outside their window.
            among = candidates & rows
            return seen(among, owner_rows[among])

        return PartialSight(pixels, some)

    def _seen(self, layers: _Layers, owner_frame: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        owner_rows = layers.owner_of_object
        counts = visible_pixel_counts(owner_frame, len(layers.owners))
        pixels = np.where(owner_rows >= 0, counts[np.maximum(owner_rows, 0)], 0)
        return candidates & (pixels >= self.min_pixels)

    def _visibility_frame(
        self, layers: _Layers, camera: RenderCamera, candidate_owners: np.ndarray, held: BoxList | None
    ) -> np.ndarray | None:
        """Owner frame with every box farther than all candidates left out (same candidate pixels).

        ``held``: the held group placed for ``camera`` (:func:`_held_boxes`). None when no box of a
        candidate reaches into the view frustum (then none has a pixel).
        """
        boxes = scene = layers.scene_boxes
        wanted = np.isin(boxes.owner, candidate_owners[candidate_owners >= 0])
        wanted[wanted] = in_frustum(camera, boxes.lo[wanted], boxes.hi[wanted])
        if not wanted.any():
            self.renders["skipped"] += 1
            return None
        origin = camera.position
        if wanted.any():
            corner = np.maximum(np.abs(boxes.lo[wanted] - origin), np.abs(boxes.hi[wanted] - origin))
            farthest = float(np.sqrt((corner * corner).sum(axis=1)).max())
            keep = box_distances(origin, boxes.lo, boxes.hi) <= farthest + CULL_MARGIN
            boxes = BoxList(
                boxes.lo[keep], boxes.hi[keep], boxes.owner[keep], boxes.color[keep], boxes.owners, boxes.room
            )
        # Only the candidates' pixels are counted: render just the part of the frame they (and
        # the held group, drawn over them) can reach; those pixels are the full frame's exactly.
        parts = [screen_window(camera, scene.lo[wanted], scene.hi[wanted])]
        if held is not None:
            parts.append(screen_window(camera, held.lo, held.hi))
        found = [part for part in parts if part is not None]
        if not found:  # no candidate (nor the held group) covers a pixel: all counts are 0
            self.renders["skipped"] += 1
            return None
        window = (min(w[0] for w in found), max(w[1] for w in found), min(w[2] for w in found),
                  max(w[3] for w in found))
        self.renders["visibility"] += 1
        frames = render_state(layers, camera, rgb=False, depth=False, scene_boxes=boxes, window=window, held=held)
        assert frames.owner is not None
        return frames.owner

    # --- one object from any pose -----------------------------------------------------------
    def object_view(
        self, world: World, camera: RenderCamera, object_id: str, *, rgb: bool = False
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """One object's pixels seen from ``camera`` (any pose, not only the agent's): its mask
        (H x W bool) and, with ``rgb``, a frame whose colours are the full frame's under that mask.

        For searches over many poses (EQA's best view of a target): the render leaves out every
        box that lies wholly farther from the camera than the object's farthest point (such a
        box cannot cover a pixel of it), so the mask and its colours are exactly those of the full
        frame at that pose, at a fraction of the cost. Nothing is rendered when no box of the
        object reaches into the view. KeyError for an id the world does not draw.
        """
        layers = self.layers(world)
        owner = layers.owners.index(object_id)
        boxes = layers.scene_boxes
        empty = np.zeros((camera.height, camera.width), dtype=bool)
        mine = boxes.owner == owner
        if not mine.any():
            return empty, None
        mine[mine] = in_frustum(camera, boxes.lo[mine], boxes.hi[mine])
        if not mine.any():
            return empty, None
        origin = camera.position
        corner = np.maximum(np.abs(boxes.lo[mine] - origin), np.abs(boxes.hi[mine] - origin))
        farthest = float(np.sqrt((corner * corner).sum(axis=1)).max())
        keep = box_distances(origin, boxes.lo, boxes.hi) <= farthest + CULL_MARGIN
        near = BoxList(boxes.lo[keep], boxes.hi[keep], boxes.owner[keep], boxes.color[keep], boxes.owners, boxes.room)
        frames = render_state(layers, camera, rgb=rgb, depth=False, scene_boxes=near)
        assert frames.owner is not None
        return frames.owner == owner, frames.rgb

    # --- the renderer hook ------------------------------------------------------------------
    def images_later(self, sim: LiteController) -> dict[str, Any] | Callable[[], dict[str, Any]]:
        """:meth:`images`, drawn only when called: RGB and depth frames are deferred (an Event draws
        them when first read), everything it needs from the live world taken now; the frame is
        the one :meth:`images` gives (the same render, kept as the full render of its state, so
        visibility read later counts its pixels). With segmentation fields on: :meth:`images` now."""
        want_rgb = bool(sim.render_image)
        want_depth = bool(sim.render_depth_image)
        if sim.render_object_image or getattr(sim, "render_class_image", False) or not (want_rgb or want_depth):
            return self.images(sim)
        world = sim.world
        camera = sim.camera()
        key = self._key(world, camera)
        layers = self.layers(world)
        held = self._held(world, layers, camera)

        def draw() -> dict[str, Any]:
            assert world is not None  # kept alive with the key: its id is not reused meanwhile
            rendered = self._cached(key, want_rgb, want_depth)
            if rendered is None:
                rendered = self._render_full(key, layers, camera, held, want_rgb, want_depth)
            out: dict[str, Any] = {}
            if want_rgb:
                out["frame"] = rendered.frames.rgb
            if want_depth:
                out["depth_frame"] = rendered.frames.depth
            return out

        return draw

    def images(self, sim: LiteController) -> dict[str, Any]:
        """THOR's Event image fields for the controller's render flags (empty when all are off)."""
        want_rgb = bool(sim.render_image)
        want_depth = bool(sim.render_depth_image)
        want_objects = bool(sim.render_object_image)
        want_classes = bool(getattr(sim, "render_class_image", False))
        if not (want_rgb or want_depth or want_objects or want_classes):
            return {}
        world = sim.world
        rendered = self.frames(world, sim.camera(), rgb=want_rgb, depth=want_depth)
        frames = rendered.frames
        out: dict[str, Any] = {}
        if want_rgb:
            out["frame"] = frames.rgb
        if want_depth:
            out["depth_frame"] = frames.depth
        if want_objects or want_classes:
            layers = self.layers(world)
        if want_objects:
            assert frames.owner is not None  # objects are wanted, so the owner frame was rendered
            if rendered.instances is None:
                rendered.instances = instance_outputs(frames.owner, layers.owners, layers.colors)
                rendered.instances.instance_segmentation_frame.setflags(write=False)
                for mask in rendered.instances.instance_masks.values():
                    mask.setflags(write=False)
            inst = rendered.instances
            out.update(
                instance_segmentation_frame=inst.instance_segmentation_frame,
                instance_masks=inst.instance_masks,
                instance_detections2D=inst.instance_detections2D,
                color_to_object_id=inst.color_to_object_id,
                object_id_to_color=inst.object_id_to_color,
            )
        if want_classes:
            if rendered.classes is None:
                assert frames.owner is not None
                rendered.classes = class_outputs(frames.owner, layers.owners, _owner_types(world, layers.owners))
            out.update(class_segmentation_frame=rendered.classes[0], class_masks=rendered.classes[1])
        return out


def _owner_types(world: World, owners: tuple[str, ...]) -> tuple[str, ...]:
    by_id = world.by_id
    return tuple(by_id[name].type_name if name in by_id else name for name in owners)


def class_outputs(
    owner: np.ndarray, owners: tuple[str, ...], types: tuple[str, ...]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """THOR's class segmentation: one colour per object type, and a mask per type in the frame."""
    classes = tuple(sorted(set(types)))
    class_index = {name: k for k, name in enumerate(classes)}
    colors = _colors_for(tuple("class:" + c for c in classes))
    owner_class = np.array([class_index[t] for t in types] + [-1], dtype=np.int64)
    class_frame_index = owner_class[owner]  # owner -1 indexes the appended -1
    lookup = np.concatenate([colors, np.zeros((1, 3), np.uint8)])
    frame = np.take(lookup, class_frame_index, axis=0)
    counts = np.bincount(class_frame_index.ravel() + 1, minlength=len(classes) + 1)[1:]
    masks = {classes[k]: class_frame_index == k for k in np.flatnonzero(counts).tolist()}
    return frame, masks
