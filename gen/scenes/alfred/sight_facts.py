"""Lines of sight a released demo proves clear: from the camera, through the target's mask, to the target.

Every interaction ALFRED recorded carries the target's instance mask in the 300x300 frame, and
THOR only lets the agent act on what it sees, so the pixels of that mask look at the target with
nothing in between. The agent's pose at that step is known (dead reckoning on the grid) and so is
the camera (:data:`~alfred_gen.sim.scene.ALFRED_CAMERA`, settled from the masks themselves), so
each masked pixel is a ray from a known point that reaches the target unobstructed. A
:class:`SightFact` keeps a few such rays per interaction (:data:`RAYS_PER_MASK`, spread over the
mask) and what the target is: a fixture by id, or a loose object at its recorded start pose
(first interaction with it, before anything moved it). The geometry step
:mod:`alfred_gen.scenes.alfred.sight_cuts` cuts fixtures back out of these rays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.scenes.alfred import upright_plane
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_WIDTH, decode_mask

#: Rays kept per interaction mask (evenly spread over the mask's pixels in row-major order).
RAYS_PER_MASK = 5
#: Rays kept per mask of a type whose open door's place :mod:`~alfred_gen.scenes.alfred.door_hinges`
#: reads from its masks (:attr:`SightFact.door_rays`): an open fridge's mask mostly shows its
#: inside, so :data:`RAYS_PER_MASK` rays seldom meet the door (with them, 3 of the 26 kitchens'
#: fridges had masks that named a layout).
RAYS_PER_DOOR_MASK = 60
#: Types whose masks keep :data:`RAYS_PER_DOOR_MASK` rays: fridges, and cabinets, whose open
#: masks' leaf :func:`~alfred_gen.scenes.alfred.door_hinges.end_vote` reads (with 5 rays, too few met
#: it to tell one end from the other).
DOOR_RAY_TYPES = ("Fridge", "Cabinet")
#: Types whose masks keep how they fill their extent on the upright plane facing the camera
#: (:attr:`SightFact.fill`), which :func:`~alfred_gen.scenes.alfred.faucet_fits.fill_pattern` draws
#: a faucet's slab in, and whose side rays bound that extent (:func:`bound_rays`).
FILL_TYPES = ("Faucet",)
#: Types whose side rays bound their masks at the outer edges of the outermost pixels
#: (:func:`bound_rays`) rather than through the middles of pixels 2% in from each end
#: (:func:`side_rays`): faucets (their fill grid spans that extent) and microwaves, whose top and
#: bottom rays place the drawn top and bottom
#: (:func:`~alfred_gen.scenes.alfred.microwave_fronts.outline_bounds`). Session 95, the wide sample
#: held out: microwaves' masks 0.898 -> 0.902 on the odd FloorPlans (172), 0.911 -> 0.916 on the even
#: ones (243), ALFRED's rule unchanged (FloorPlan12's hung microwave lost 0.07, 25's gained 0.05).
#: Cabinets too, whose shut masks' side rays place the drawn door's front
#: (:func:`~alfred_gen.scenes.alfred.fixture_extents.front_bounds`). Session 96, the wide sample's 36
#: demos that act on a cabinet, held out: cabinets' masks 0.588 -> 0.591 on the odd FloorPlans (66),
#: 0.579 -> 0.582 on the even ones (42), one rule pick won (FloorPlan412's spray bottle under its
#: cabinet), none lost. Fridges lost on both halves (0.908 -> 0.896 odd, 0.910 -> 0.887 even): the
#: bottom ray 2% in places a fridge's front by its foot, and the outermost row moved it out.
EDGE_TYPES = (*FILL_TYPES, "Microwave", "Cabinet")
#: Cells across and up a mask's bounding box that :func:`mask_fill` reads (see
#: :mod:`~alfred_gen.scenes.alfred.faucet_fits` for how the grid was chosen: 5 drew a faucet's
#: thin neck a whole cell wide, 20 follows it).
FILL_GRID = 20


@dataclass(frozen=True)
class SightFact:
    """Rays from ``eye`` that reach ``target`` unobstructed.

    ``loose``: for a pickupable target, (object name, start position, yaw); None for a fixture.
    """

    target: str
    eye: tuple[float, float, float]
    rays: tuple[tuple[float, float, float], ...]
    loose: tuple[str, tuple[float, float, float], float] | None = None
    #: For a sink basin only: rays through the mask's outermost pixels (:func:`edge_rays`), which
    #: :mod:`alfred_gen.scenes.alfred.basin_openings` fits the basin's opening to.
    edges: tuple[tuple[float, float, float], ...] = ()
    #: For a fixture: rays through the mask's leftmost, rightmost, topmost and bottommost pixels
    #: (:func:`side_rays`), None on a side where the mask reaches the frame's border (THOR's object
    #: may go on past it), which :mod:`alfred_gen.scenes.alfred.fixture_extents` fits the drawing to.
    sides: tuple[tuple[float, float, float] | None, ...] = ()
    #: For a fridge only (:data:`DOOR_RAY_TYPES`): :data:`RAYS_PER_DOOR_MASK` rays evenly spread
    #: over the mask, which :mod:`~alfred_gen.scenes.alfred.door_hinges` hangs its door by. Kept
    #: apart from ``rays``, which other passes cut fixtures by.
    door_rays: tuple[tuple[float, float, float], ...] = ()
    #: The interaction's action (``OpenObject``, ``PutObject``, ...): THOR recorded the mask before
    #: acting, so an ``OpenObject`` mask shows its target shut and a ``CloseObject`` one open.
    action: str = ""
    #: For a type of :data:`FILL_TYPES` whose mask lies in the frame but perhaps for its top: the
    #: share of each cell of a :data:`FILL_GRID` square grid over the mask's extent on the upright
    #: plane facing the camera that the mask covers, rows from the top, each from the left
    #: (:func:`mask_fill`).
    fill: tuple[float, ...] = ()
    #: With ``fill``, for a mask the frame's top cuts: the ray through the frame's top row where the
    #: mask meets it (the fill's top row lies there, not at the object's top); None: not cut.
    fill_top: tuple[float, float, float] | None = None
    #: With ``fill``, for a mask the frame's left or right border cuts: the ray through that border's
    #: column where the mask meets it (the fill's column at that end lies there); None: not cut.
    fill_side: tuple[float, float, float] | None = None
    #: Whether ``fill_side`` is on the frame's left border (else its right).
    fill_side_left: bool = False

    def to_list(self) -> list[Any]:
        loose = [self.loose[0], list(self.loose[1]), self.loose[2]] if self.loose else None
        out: list[Any] = [self.target, list(self.eye), [list(r) for r in self.rays], loose]
        if self.edges or self.sides or self.door_rays or self.action or self.fill:
            out.append([list(r) for r in self.edges])
        if self.sides or self.door_rays or self.action or self.fill:
            out.append([list(r) if r is not None else None for r in self.sides])
        if self.door_rays or self.action or self.fill:
            out.append([list(r) for r in self.door_rays])
        if self.action or self.fill:
            out.append(self.action)
        if self.fill:
            out.append(list(self.fill))
        if self.fill_top is not None or self.fill_side is not None:
            out.append(list(self.fill_top) if self.fill_top is not None else None)
        if self.fill_side is not None:
            out += [list(self.fill_side), self.fill_side_left]
        return out

    @staticmethod
    def from_list(data: Sequence[Any]) -> SightFact:
        loose = None
        if data[3]:
            name, position, yaw = data[3]
            loose = (str(name), (float(position[0]), float(position[1]), float(position[2])), float(yaw))
        eye = (float(data[1][0]), float(data[1][1]), float(data[1][2]))
        rays = tuple((float(r[0]), float(r[1]), float(r[2])) for r in data[2])
        edges = tuple((float(r[0]), float(r[1]), float(r[2])) for r in data[4]) if len(data) > 4 else ()
        sides = tuple((float(r[0]), float(r[1]), float(r[2])) if r is not None else None
                      for r in data[5]) if len(data) > 5 else ()
        door = tuple((float(r[0]), float(r[1]), float(r[2])) for r in data[6]) if len(data) > 6 else ()
        action = str(data[7]) if len(data) > 7 else ""
        fill = tuple(float(v) for v in data[8]) if len(data) > 8 else ()
        fill_top = (float(data[9][0]), float(data[9][1]), float(data[9][2])) if len(data) > 9 and data[9] else None
        fill_side = (float(data[10][0]), float(data[10][1]), float(data[10][2])) if len(data) > 10 else None
        side_left = bool(data[11]) if len(data) > 11 else False
        return SightFact(str(data[0]), eye, rays, loose, edges, sides, door, action, fill, fill_top, fill_side,
                         side_left)


def fixture_rays(target: str, sights: Iterable[SightFact]) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(eye, ray) as arrays for each ray of the masks of the fixture ``target`` (facts of a loose
    object of that id left out), in the facts' order."""
    for fact in sights:
        if fact.target != target or fact.loose is not None:
            continue
        eye = np.asarray(fact.eye, dtype=float)
        for ray in fact.rays:
            yield eye, np.asarray(ray, dtype=float)


def _pairs(runs: Any) -> np.ndarray | None:
    """A mask's (start, length) runs as an array, or None when they are empty or do not fit a frame."""
    pairs = np.asarray(runs, dtype=np.int64).reshape(-1, 2)
    if not len(pairs) or (pairs[:, 1] < 1).any() or (pairs[:, 0] < 0).any() \
            or (pairs.sum(axis=1) > FRAME_WIDTH * FRAME_HEIGHT).any():
        return None
    return pairs


def _raw_directions(camera: Camera, indices: np.ndarray) -> np.ndarray:
    """World directions (rows, not yet unit) from the camera through the frame's pixels ``indices``
    (row-major)."""
    right, up, forward = camera.basis()
    cols, rows = camera.pixel_offsets()
    row, col = np.divmod(np.asarray(indices, dtype=np.int64), FRAME_WIDTH)
    return forward + cols[col][:, None] * right + rows[row][:, None] * up


def _directions(camera: Camera, indices: Iterable[int]) -> tuple[tuple[float, float, float], ...]:
    """Unit world directions from the camera through the frame's pixels ``indices`` (row-major),
    rounded as the catalogue stores them (each row's norm taken on its own, as the catalogue's
    facts were: a norm over the whole array differs in the last bit)."""
    raw = _raw_directions(camera, np.fromiter(indices, dtype=np.int64))
    out = [tuple(round(float(c), 5) for c in d / float(np.linalg.norm(d))) for d in raw]
    return tuple(out)  # type: ignore[arg-type]  # each direction has three coordinates


def _mask_picks(runs: Any, count: int) -> np.ndarray | None:
    """Indices of ``count`` pixels of a mask, evenly spread over its pixels; None for bad runs."""
    pairs = _pairs(runs)
    if pairs is None:
        return None
    ends = np.cumsum(pairs[:, 1])  # pixels of the mask up to the end of each run
    ranks = np.unique(((np.arange(count) + 0.5) * int(ends[-1]) / count).astype(np.int64))
    run = np.searchsorted(ends, ranks, side="right")
    return pairs[run, 0] + ranks - (ends[run] - pairs[run, 1])


def mask_rays(runs: Any, camera: Camera, count: int = RAYS_PER_MASK) -> tuple[tuple[float, float, float], ...]:
    """Unit world directions through ``count`` pixels of a mask, evenly spread over its pixels."""
    picks = _mask_picks(runs, count)
    return () if picks is None else _directions(camera, picks.tolist())


def mask_ray_array(runs: Any, camera: Camera, count: int) -> np.ndarray:
    """:func:`mask_rays` as one (n, 3) array, computed at once and not rounded: for casting
    thousands of rays at replay (:mod:`alfred_gen.scenes.alfred.file_sights`), where the rounded
    tuples cost 30 ms a mask."""
    picks = _mask_picks(runs, count)
    if picks is None:
        return np.zeros((0, 3))
    raw = _raw_directions(camera, picks)
    return raw / np.linalg.norm(raw, axis=1)[:, None]


#: Where along the mask's pixels, sorted by column and by row, :func:`edge_rays` looks: near the
#: ends, not at them, so a stray pixel does not stretch the extent.
EDGE_RANKS = (0.02, 0.98)


def edge_rays(runs: Any, camera: Camera) -> tuple[tuple[float, float, float], ...]:
    """Unit world directions through a mask's leftmost, rightmost, topmost and bottommost pixels
    (at :data:`EDGE_RANKS` of its pixels sorted by column, then by row). The evenly spread rays of
    :func:`mask_rays` follow the mask in row-major order, so they miss how far a wide, shallow mask
    (a basin's opening seen from above) reaches to either side."""
    picks = _edge_picks(runs)
    return _directions(camera, [p for p, _ in picks]) if picks else ()


def _edge_picks(runs: Any) -> list[tuple[int, bool]]:
    """(pixel index, whether the mask touches the frame's border on that side) for the leftmost,
    rightmost, topmost and bottommost pixels at :data:`EDGE_RANKS`; empty for a mask that does
    not fit a frame."""
    pairs = _pairs(runs)
    if pairs is None:
        return []
    index = np.concatenate([np.arange(start, start + length) for start, length in pairs.tolist()])
    picks = []
    for key, size in ((index % FRAME_WIDTH, FRAME_WIDTH), (index // FRAME_WIDTH, FRAME_HEIGHT)):
        order = index[np.argsort(key, kind="stable")]
        ends = (int(key.min()) <= 0, int(key.max()) >= size - 1)
        picks += [(int(order[min(len(order) - 1, int(rank * len(order)))]), end)
                  for rank, end in zip(EDGE_RANKS, ends)]
    return picks


def mask_fill(runs: Any, grid: int = FILL_GRID,
              camera: Camera | None = None) -> tuple[tuple[float, ...], int | None, tuple[int, bool] | None]:
    """How a mask fills its bounding box: per cell of a ``grid`` x ``grid`` split of the box, rows
    from the top and each from the left, the share of its pixels in the mask (3 decimals); with a
    ``camera``, of its extent on the upright plane facing the camera's heading, split evenly there
    (:func:`upright_plane.plane_fill`: as a faucet's slab is drawn), else of its box in the frame; for a
    mask the frame's top row cuts, the pixel of that row at the middle of the mask's part of it
    (where the frame cut the object), else None; for a mask the frame's left or right border cuts,
    (the pixel of that border's column at the middle of the mask's part of it, whether it is the
    left border), else None: THOR's bathroom faucets are often seen at the frame's side (every
    switch of FloorPlan406's, 422's, 426's, 427's and 430's). Empty for a mask that does not fit a
    frame, meets the frame's bottom border or both its side borders."""
    pairs = _pairs(runs)
    if pairs is None:
        return (), None, None
    mask = decode_mask(pairs.tolist())
    rows, cols = np.nonzero(mask)
    top, bottom, left, right = int(rows.min()), int(rows.max()) + 1, int(cols.min()), int(cols.max()) + 1
    if bottom >= FRAME_HEIGHT or (left <= 0 and right >= FRAME_WIDTH):
        return (), None, None
    cut = None
    if top <= 0:
        on_top = np.nonzero(mask[0])[0]
        cut = int(on_top[len(on_top) // 2])
    side = None
    if left <= 0 or right >= FRAME_WIDTH:
        column = 0 if left <= 0 else FRAME_WIDTH - 1
        on_side = np.nonzero(mask[:, column])[0]
        side = (int(on_side[len(on_side) // 2]) * FRAME_WIDTH + column, left <= 0)
    if camera is not None:
        shares = upright_plane.plane_fill(camera, mask, grid)
        return tuple(round(float(share), 3) for share in shares.ravel()), cut, side
    out = []
    for a in range(grid):
        r0 = top + (bottom - top) * a // grid
        r1 = max(top + (bottom - top) * (a + 1) // grid, r0 + 1)
        for b in range(grid):
            c0 = left + (right - left) * b // grid
            c1 = max(left + (right - left) * (b + 1) // grid, c0 + 1)
            out.append(round(float(mask[r0:r1, c0:c1].mean()), 3))
    return tuple(out), cut, side


def side_rays(runs: Any, camera: Camera) -> tuple[tuple[float, float, float] | None, ...]:
    """:func:`edge_rays`, with None on each side (left, right, top, bottom) where the mask reaches
    the frame's border: there the mask is cut by the frame, not by the object's outline."""
    picks = _edge_picks(runs)
    if not picks:
        return ()
    rays = _directions(camera, [p for p, _ in picks])
    return tuple(None if border else ray for ray, (_, border) in zip(rays, picks))


#: Types whose :func:`bound_rays` bound the mask's body (:func:`mask_body`), not every pixel of it.
#: FloorPlan12's hung microwave has a part 11 px wide hanging 11 rows below its 250 px wide body in
#: every mask of it; bounded by that part's bottom, lite drew the whole box 11 rows too low there
#: (IoU 0.955 -> 0.882 on the wide sample's 8 masks of it when the side rays moved to the outermost
#: pixels; the 2% ranks of :func:`side_rays` had skipped the part).
BODY_TYPES = ("Microwave",)
#: The least share of its fullest row's (column's) pixels an end row (column) of a mask holds to
#: count as the body's (:func:`mask_body`): a tenth, so that a slanted side (a microwave's side face
#: seen askew, its end columns a few pixels tall) loses no more than a pixel or two.
BODY_SHARE = 0.1


def mask_body(mask: np.ndarray, share: float) -> np.ndarray:
    """``mask`` without its end rows and columns holding fewer than ``share`` of the pixels of its
    fullest row and column: a thin part standing out past the body (a handle, a foot) is dropped, a
    row or column between two of the body's kept. The mask itself when nothing would be left."""
    rows, cols = mask.sum(axis=1), mask.sum(axis=0)
    keep_rows = np.nonzero(rows >= share * rows.max())[0]
    keep_cols = np.nonzero(cols >= share * cols.max())[0]
    body = np.zeros_like(mask)
    body[keep_rows[0]:keep_rows[-1] + 1, keep_cols[0]:keep_cols[-1] + 1] = True
    body &= mask
    return body if body.any() else mask


def outline_rays(kind: str, runs: Any, camera: Camera) -> tuple[tuple[float, float, float] | None, ...]:
    """A fixture's mask's four side rays: at the outer edges of the outermost pixels (of the mask's
    body for :data:`BODY_TYPES`) for the types of :data:`EDGE_TYPES` (:func:`bound_rays`), else
    through pixel middles 2% in (:func:`side_rays`)."""
    if kind not in EDGE_TYPES:
        return side_rays(runs, camera)
    return bound_rays(runs, camera, BODY_SHARE if kind in BODY_TYPES else 0.0)


def bound_rays(runs: Any, camera: Camera, body_share: float = 0.0) -> tuple[tuple[float, float, float] | None, ...]:
    """Unit world directions through the outer edges of a mask's extent on the upright plane
    facing the camera's heading (left, right, top, bottom: :func:`upright_plane.extent`), None on
    each side where the mask reaches the frame's border; empty for a mask that does not fit a frame.
    Each meets any such plane where THOR's outline does, on average: at the outer edge of the
    mask's outermost pixel, not its middle (lite draws a pixel whose middle its shape covers), and
    spans what the mask's :func:`mask_fill` grid spans. A faucet's slab is drawn to these
    (:mod:`~alfred_gen.scenes.alfred.faucet_fits`). With ``body_share``, the extent of the mask's
    :func:`mask_body` (the frame's border is still read from the whole mask)."""
    pairs = _pairs(runs)
    if pairs is None:
        return ()
    mask = decode_mask(pairs.tolist())
    rows, cols = np.nonzero(mask)
    left, right, top, bottom = upright_plane.extent(camera, mask_body(mask, body_share) if body_share else mask)
    across, up = (left + right) / 2.0, (top + bottom) / 2.0
    ends = ((left, up, cols.min() <= 0), (right, up, cols.max() >= FRAME_WIDTH - 1),
            (across, top, rows.min() <= 0), (across, bottom, rows.max() >= FRAME_HEIGHT - 1))
    return tuple(None if border else upright_plane.ray_of(camera, a, b) for a, b, border in ends)


def sight_facts(low_actions: Sequence[Mapping[str, Any]], steps: Sequence[tuple[int, str, list[float]]],
                agent_y: float, start_ids: Mapping[str, tuple[str, tuple[float, float, float], float]],
                is_fixture: Callable[[str], bool]) -> list[SightFact]:
    """The sight facts of one demo: ``steps`` are its interactions (low action index, target id,
    [x, z, rotation, horizon]) by dead reckoning; ``start_ids`` maps the ids of objects at their
    recorded start poses to (name, position, yaw)."""
    out = []
    moved: set[str] = set()
    for index, target, pose in steps:
        low = low_actions[index]
        api = low.get("api_action") or {}
        runs = ((low.get("discrete_action") or {}).get("args") or {}).get("mask")
        loose = None
        if is_fixture(target):
            pass
        elif target in start_ids and target not in moved:
            loose = start_ids[target]
        else:
            target = ""
        if api.get("action") == "PickupObject" and isinstance(api.get("objectId"), str):
            moved.add(api["objectId"])
        if not target or not runs:
            continue
        x, z, rotation, horizon = pose
        camera = Camera(x, agent_y + ALFRED_CAMERA.height, z, rotation, horizon, ALFRED_CAMERA.field_of_view)
        try:
            rays = mask_rays(runs, camera)
        except (ValueError, TypeError):
            continue
        edges = edge_rays(runs, camera) if target.endswith(("|SinkBasin", "|BathtubBasin")) else ()
        door = mask_rays(runs, camera, RAYS_PER_DOOR_MASK) if target.split("|")[0] in DOOR_RAY_TYPES else ()
        sides = () if loose is not None else outline_rays(target.split("|")[0], runs, camera)
        fill, cut, side = mask_fill(runs, FILL_GRID, camera) if loose is None and target.split("|")[0] in FILL_TYPES \
            else ((), None, None)
        fill_top = _directions(camera, [cut])[0] if fill and cut is not None else None
        fill_side = _directions(camera, [side[0]])[0] if fill and side is not None else None
        known = [r for r in sides if r is not None] + [r for r in (fill_top, fill_side) if r is not None]
        if rays and all(math.isfinite(c) for r in rays + edges + door + tuple(known) for c in r):
            eye = (float(x), round(agent_y + ALFRED_CAMERA.height, 5), float(z))
            out.append(SightFact(target, eye, rays, loose, edges, sides, door, str(api.get("action") or ""), fill,
                                 fill_top, fill_side, bool(side[1]) if fill_side is not None and side else False))
    return out
