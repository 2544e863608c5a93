"""Where the agent can stand, and from where it can see a thing: the reachable grid and interaction poses.

The reachable grid is THOR's: points on the absolute 0.25 m lattice where the agent's body (a
circle of radius 0.2 m on the floor) touches neither a wall nor any furniture standing on the floor,
restricted to the largest 4-connected component (as THOR's GetReachablePositions floods from the
agent). Interaction poses play the part of ALFRED's ``openable.json``: for each receptacle (and each
switchable fixture) one grid pose from which it is in view, within reach and not hidden.

Visibility here is geometric, one function (:func:`visible_points`): sample points on the faces of
the target's box that face the camera; a point counts when it lies inside the 90 degree field of
view and the straight segment from the camera to it crosses no other box. The target must also be
within :data:`VISIBILITY_DISTANCE` of the camera, measured to the nearest point of its box: stricter
than the simulator, which measures from the agent's vertical axis (:mod:`alfred_gen.sim.visibility`;
``axis_reach=True`` measures as it does). The simulator decides visibility by pixels; this check is
the scene builder's conservative stand-in, so a pose it picks shows the target over a good part of
the frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache

import networkx as nx
import numpy as np

from alfred_gen.sim.scene import AGENT_Y, GRID_SIZE, Box, Pose, SceneCamera, grid_key

#: Radius of the agent's body on the floor plane, as procedural rooms' reachable grids are built
#: against their furniture. THOR 2.1's agent is 0.175 m (:data:`alfred_gen.sim.world.AGENT_RADIUS`,
#: which lite's floor-object test uses); the procedural rooms keep 0.2 so their layouts stay as built.
AGENT_RADIUS = 0.2

#: Height of the camera above the agent's body origin: ALFRED initialises THOR with cameraY=0.75,
#: and the `lite` simulator (alfred_gen.sim.scene.CAMERA_Y_OFFSET) uses the same.
CAMERA_OFFSET = 0.75

#: Anything whose bottom is below this height blocks the agent's body.
AGENT_HEIGHT = 1.8

#: THOR's interaction / visibility distance, camera to nearest point of the object's box.
VISIBILITY_DISTANCE = 1.5

#: Half field of view (degrees) of the square 90 degree camera; points within the margin count.
HALF_FOV = 45.0
FOV_MARGIN = 0.92

#: Camera horizons tried for an interaction pose, most preferred first (ALFRED uses 30, 0, -30).
HORIZONS = (30, 0, -30, 45, 60, 15)
ROTATIONS = (0, 90, 180, 270)

#: Sample points per face edge (n x n per visible face).
SAMPLES_PER_EDGE = 3


def camera_position(x: float, z: float, agent_y: float = AGENT_Y) -> np.ndarray:
    """The camera's world position for an agent standing at (x, z)."""
    return np.array([x, agent_y + CAMERA_OFFSET, z])


def camera_axes(rotation: float, horizon: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(forward, right, up) unit vectors of the camera: rotation 0 faces +z, positive horizon looks down."""
    r = math.radians(rotation)
    h = math.radians(horizon)
    forward = np.array([math.sin(r) * math.cos(h), -math.sin(h), math.cos(r) * math.cos(h)])
    right = np.array([math.cos(r), 0.0, -math.sin(r)])
    up = np.array([math.sin(r) * math.sin(h), math.cos(h), math.cos(r) * math.sin(h)])
    return forward, right, up


@lru_cache(maxsize=512)
def face_samples(box: Box) -> tuple[np.ndarray, np.ndarray]:
    """Points spread over all six faces of ``box`` and each point's outward face normal (P x 3 each).

    A regular n x n grid per face, inset from the face edges, so a point on a face shared with a
    neighbour (a drawer front flush with a counter) is not counted as hidden by it. Which faces a
    camera sees is decided per camera from the normals (:func:`_visibility`).
    """
    lo = np.asarray(box.lo, dtype=float)
    hi = np.asarray(box.hi, dtype=float)
    ticks = (np.arange(SAMPLES_PER_EDGE) + 0.5) / SAMPLES_PER_EDGE
    points = []
    normals = []
    for axis in range(3):
        a, b = [k for k in range(3) if k != axis]
        ua = lo[a] + (hi[a] - lo[a]) * ticks
        ub = lo[b] + (hi[b] - lo[b]) * ticks
        grid_a, grid_b = np.meshgrid(ua, ub, indexing="ij")
        for plane, sign in ((lo[axis], -1.0), (hi[axis], 1.0)):
            face = np.empty((grid_a.size, 3))
            face[:, axis] = plane
            face[:, a] = grid_a.ravel()
            face[:, b] = grid_b.ravel()
            normal = np.zeros((grid_a.size, 3))
            normal[:, axis] = sign
            points.append(face)
            normals.append(normal)
    all_points, all_normals = np.concatenate(points), np.concatenate(normals)
    all_points.setflags(write=False)  # cached: shared by every caller
    all_normals.setflags(write=False)
    return all_points, all_normals


def _segments_blocked(starts: np.ndarray, ends: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """For cameras ``starts`` (K x 3) and points ``ends`` (P x 3): whether each segment start->end
    passes through any box (lo[j], hi[j]); a K x P boolean array.

    Slab test, vectorised over cameras x points x boxes. The segment stops 2 cm short of its end
    point so that the face the point lies on (or a box it rests against) does not hide it. Boxes
    containing the camera are ignored.
    """
    k, p = len(starts), len(ends)
    if len(lo) == 0 or k == 0 or p == 0:
        return np.zeros((k, p), dtype=bool)
    inside = np.all((starts[:, None, :] > lo[None, :, :]) & (starts[:, None, :] < hi[None, :, :]), axis=2)  # (K, J)
    direction = ends[None, :, :] - starts[:, None, :]  # (K, P, 3)
    length = np.linalg.norm(direction, axis=2)
    t_end = 1.0 - np.minimum(0.02 / np.maximum(length, 1e-9), 0.5)  # (K, P)
    safe = np.where(direction == 0.0, 1e-12, direction)
    inv = 1.0 / safe
    t0 = (lo[None, None, :, :] - starts[:, None, None, :]) * inv[:, :, None, :]  # (K, P, J, 3)
    t1 = (hi[None, None, :, :] - starts[:, None, None, :]) * inv[:, :, None, :]
    enter = np.minimum(t0, t1).max(axis=3)
    leave = np.maximum(t0, t1).min(axis=3)
    hit = (enter < leave) & (leave > 0.0) & (enter < t_end[:, :, None]) & ~inside[:, None, :]
    return hit.any(axis=2)


def occluder_arrays(boxes: Iterable[Box], shrink: float = 1e-3) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) arrays of occluding boxes, shrunk slightly so that touching faces do not occlude."""
    items = list(boxes)
    if not items:
        return np.empty((0, 3)), np.empty((0, 3))
    lo = np.array([b.lo for b in items], dtype=float) + shrink
    hi = np.array([b.hi for b in items], dtype=float) - shrink
    return lo, hi


@lru_cache(maxsize=64)
def _view_axes(rotation: int, horizon: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return camera_axes(rotation, horizon)


def in_view(rel: np.ndarray, rotation: int, horizon: int) -> np.ndarray:
    """Which camera-relative points (... x 3) fall inside the 90 degree square field of view."""
    forward, right, up = _view_axes(int(rotation), int(horizon))
    depth = rel @ forward
    limit = depth * math.tan(math.radians(HALF_FOV)) * FOV_MARGIN
    return (depth > 0.05) & (np.abs(rel @ right) <= limit) & (np.abs(rel @ up) <= limit)


def front_normal(facing: float) -> tuple[float, float, float]:
    """Outward normal of the front face of something whose front faces yaw ``facing``."""
    quarter = int(round(facing / 90.0)) % 4
    return ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0), (0.0, 0.0, -1.0), (-1.0, 0.0, 0.0))[quarter]


def _visibility(
    cameras: np.ndarray, target: Box, occluders: tuple[np.ndarray, np.ndarray],
    front: tuple[float, float, float] | None, axis_reach: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For each camera: which target sample points face it and are not hidden (K x P), how many
    face it (K), the points relative to each camera (K x P x 3), whether the target's nearest
    point is within :data:`VISIBILITY_DISTANCE` (K), and how squarely each point's face is turned
    to the camera (cosine, K x P). With ``front``, only the face with that outward normal is
    sampled. ``axis_reach``: reach measured as the simulator measures it, from the agent's vertical
    axis (:mod:`alfred_gen.sim.visibility`), not from the camera."""
    samples, normals = face_samples(target)
    if front is not None:
        keep = np.all(np.isclose(normals, np.asarray(front)), axis=1)
        samples, normals = samples[keep], normals[keep]
    lo_t = np.asarray(target.lo)
    hi_t = np.asarray(target.hi)
    gap = cameras - np.clip(cameras, lo_t, hi_t)
    if axis_reach:  # the axis runs from the floor up to the camera: below the eye, only x and z count
        gap[:, 1] = np.minimum(gap[:, 1], 0.0)
    in_reach = np.linalg.norm(gap, axis=1) <= VISIBILITY_DISTANCE
    rel = samples[None, :, :] - cameras[:, None, :]
    towards = np.einsum("kpc,pc->kp", -rel, normals)
    facing = towards > 1e-9
    # Only boxes inside the hull of cameras and target can cut a segment between them.
    lo_o, hi_o = occluders
    if len(lo_o):
        span_lo = np.minimum(cameras.min(axis=0), lo_t)
        span_hi = np.maximum(cameras.max(axis=0), hi_t)
        near = np.all((lo_o < span_hi) & (hi_o > span_lo), axis=1)
        lo_o, hi_o = lo_o[near], hi_o[near]
    clear = facing & ~_segments_blocked(cameras, samples, lo_o, hi_o)
    cosine = np.maximum(towards, 0.0) / np.maximum(np.linalg.norm(rel, axis=2), 1e-9)
    return clear, facing.sum(axis=1), rel, in_reach, cosine


def visible_points(
    pose: Pose,
    target: Box,
    occluders: tuple[np.ndarray, np.ndarray],
    agent_y: float = AGENT_Y,
    front: tuple[float, float, float] | None = None,
) -> tuple[int, int]:
    """THE visibility check: (visible sample points, sample points on faces towards the camera).

    A sample point is visible when its face is turned to the camera, it lies in the field of
    view, and no occluder cuts the segment to it. Nothing is visible when the nearest point of
    the target's box is beyond the visibility distance. ``occluders`` (from
    :func:`occluder_arrays`) must not include the target itself. ``front`` (an outward normal,
    see :func:`front_normal`) restricts the check to that face: a drawer, cabinet or fridge is
    opened from the front, so its front must be in view.
    """
    camera = camera_position(pose.x, pose.z, agent_y)[None, :]
    clear, facing, rel, in_reach, _ = _visibility(camera, target, occluders, front)
    if not in_reach[0]:
        return 0, int(facing[0])
    seen = clear[0] & in_view(rel[0], pose.rotation, pose.horizon)
    return int(np.count_nonzero(seen)), int(facing[0])


#: A pose counts as seeing the target when at least this many sample points are visible ...
MIN_VISIBLE_POINTS = 3
#: ... and at least this share of the points on faces towards the camera.
MIN_VISIBLE_SHARE = 0.15


def is_visible(
    pose: Pose,
    target: Box,
    occluders: tuple[np.ndarray, np.ndarray],
    agent_y: float = AGENT_Y,
    front: tuple[float, float, float] | None = None,
) -> bool:
    """Whether ``target`` counts as visible from ``pose`` (see :func:`visible_points`)."""
    seen, total = visible_points(pose, target, occluders, agent_y, front)
    return seen >= MIN_VISIBLE_POINTS and seen >= MIN_VISIBLE_SHARE * total


def best_interaction_pose(
    target: Box,
    reachable: Sequence[tuple[float, float]],
    occluders: tuple[np.ndarray, np.ndarray],
    agent_y: float = AGENT_Y,
    max_candidates: int = 16,
    front: tuple[float, float, float] | None = None,
    camera: SceneCamera | None = None,
    axis_reach: bool = False,
) -> Pose | None:
    """The grid pose from which ``target`` is best seen, or None if it is seen from nowhere.

    Candidates are the reachable points nearest to the target's footprint, with every rotation
    and every horizon in :data:`HORIZONS`; a candidate must pass :func:`is_visible` (computed here
    for all candidates at once, by the same rules). The score favours the share of the target in
    view (each sample point weighted by how squarely its face is seen), then a horizon ALFRED would
    use (30, 0, -30), then standing about half a metre from it; ties break on the pose values, so
    the result is deterministic. ``camera``: the room's own camera (field of view, height above
    the agent) instead of the simulator's 90 degrees at :data:`CAMERA_OFFSET`. ``axis_reach``:
    measure reach from the agent's vertical axis, as the simulator does, instead of the stricter
    camera distance the procedural rooms' poses are chosen by (a cloth on the floor half a metre
    away is 1.6 m from the eye, yet THOR and lite let the agent take it).
    """
    if len(reachable) == 0:
        return None
    points = np.asarray(reachable, dtype=float)
    lo = np.asarray(target.lo)
    hi = np.asarray(target.hi)
    floor_distance = np.linalg.norm(points - np.clip(points, lo[[0, 2]], hi[[0, 2]]), axis=1)
    order = np.lexsort((points[:, 1], points[:, 0], np.round(floor_distance, 6)))
    order = np.array([i for i in order if floor_distance[i] <= VISIBILITY_DISTANCE][:max_candidates], dtype=int)
    best: tuple[tuple[float, ...], Pose] | None = None
    # Nearest candidates first; further ones only when those give no clear view.
    for batch in (order[:GOOD_BATCH], order[GOOD_BATCH:]):
        if len(batch) == 0:
            break
        found = _best_in_batch(target, points[batch], floor_distance[batch], occluders, agent_y, front, camera,
                               axis_reach)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
        if best is not None and best[0][0] >= GOOD_SCORE:
            break
    return best[1] if best else None


#: The views tried from each candidate point: every rotation with every horizon.
_VIEW_ROTATIONS = np.array([r for r in ROTATIONS for _ in HORIZONS], dtype=float)
_VIEW_HORIZONS = np.array([h for _ in ROTATIONS for h in HORIZONS], dtype=float)
_VIEW_RANKS = np.array([rank for _ in ROTATIONS for rank in range(len(HORIZONS))], dtype=float)


@lru_cache(maxsize=1)
def _all_view_axes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(forward, right, up) of every view, each V x 3."""
    axes = [camera_axes(r, h) for r, h in zip(_VIEW_ROTATIONS, _VIEW_HORIZONS)]
    return tuple(np.array([a[i] for a in axes]) for i in range(3))  # type: ignore[return-value]  # tuple() over three coordinates: mypy sees tuple[float, ...]


#: Candidates tried first, and the score that makes trying further ones unnecessary.
GOOD_BATCH = 6
GOOD_SCORE = 0.25


def _best_in_batch(
    target: Box,
    chosen: np.ndarray,
    floor_distance: np.ndarray,
    occluders: tuple[np.ndarray, np.ndarray],
    agent_y: float,
    front: tuple[float, float, float] | None,
    camera: SceneCamera | None = None,
    axis_reach: bool = False,
) -> tuple[tuple[float, ...], Pose] | None:
    """The best (score, pose) over these candidate points, all rotations and horizons."""
    height, half_fov = (camera.height, camera.field_of_view / 2.0) if camera is not None else (CAMERA_OFFSET, HALF_FOV)
    cameras = np.column_stack([chosen[:, 0], np.full(len(chosen), agent_y + height), chosen[:, 1]])
    clear, facing, rel, in_reach, cosine = _visibility(cameras, target, occluders, front, axis_reach)
    usable = in_reach & (clear.sum(axis=1) >= MIN_VISIBLE_POINTS)
    if not usable.any():
        return None
    # Every (rotation, horizon) at once: V views; points in view per candidate and view (K x V).
    forward, right, up = _all_view_axes()
    depth = rel @ forward.T  # (K, P, V)
    limit = depth * (math.tan(math.radians(half_fov)) * FOV_MARGIN)
    inside = (depth > 0.05) & (np.abs(rel @ right.T) <= limit) & (np.abs(rel @ up.T) <= limit)
    seen = (inside & clear[:, :, None]).sum(axis=1)
    ok = usable[:, None] & (seen >= MIN_VISIBLE_POINTS) & (seen >= MIN_VISIBLE_SHARE * facing[:, None])
    if not ok.any():
        return None
    rotations, ranks = _VIEW_ROTATIONS, _VIEW_RANKS
    # The share of the target in view, each point weighted by how squarely its face is seen, so
    # a grazing look along a fridge door scores below a view of the door from in front.
    share = ((inside & clear[:, :, None]) * cosine[:, :, None]).sum(axis=1) / np.maximum(facing, 1)[:, None]
    spacing = np.abs(floor_distance - 0.55)[:, None]
    score = np.round(share - 0.08 * ranks[None, :] - 0.25 * spacing, 6)
    k_index, v_index = np.nonzero(ok)
    keys = (
        -_VIEW_HORIZONS[v_index], -rotations[v_index], -chosen[k_index, 1], -chosen[k_index, 0], score[k_index, v_index]
    )
    pick = np.lexsort(keys)[-1]  # lexsort: last key is primary; take the maximum
    k, v = int(k_index[pick]), int(v_index[pick])
    pose = Pose(float(chosen[k, 0]), float(chosen[k, 1]), int(rotations[v]), int(_VIEW_HORIZONS[v]))
    best = ((float(score[k, v]), -pose.x, -pose.z, -pose.rotation, -pose.horizon), pose)
    return best


def reachable_grid(
    floor_rects: Sequence[tuple[float, float, float, float]],
    obstacles: Sequence[tuple[float, float, float, float]],
    radius: float = AGENT_RADIUS,
) -> list[tuple[float, float]]:
    """Points of the 0.25 m lattice where the agent fits, largest 4-connected component, sorted.

    ``floor_rects`` tile the free floor (x0, z0, x1, z1); ``obstacles`` are floor footprints of
    anything that blocks the body. A point fits when its circle of ``radius`` lies on the floor
    and overlaps no obstacle.
    """
    if not floor_rects:
        return []
    floors = np.asarray(floor_rects, dtype=float)
    x_min, z_min = floors[:, 0].min(), floors[:, 1].min()
    x_max, z_max = floors[:, 2].max(), floors[:, 3].max()
    xs = np.arange(math.ceil(x_min / GRID_SIZE), math.floor(x_max / GRID_SIZE) + 1) * GRID_SIZE
    zs = np.arange(math.ceil(z_min / GRID_SIZE), math.floor(z_max / GRID_SIZE) + 1) * GRID_SIZE
    gx, gz = np.meshgrid(xs, zs, indexing="ij")
    px, pz = gx.ravel(), gz.ravel()
    eps = 1e-6
    # On the floor: the circle's bounding square inside the union of floor rectangles. For the
    # (at most two) rectangles of an L this is exact enough: check the centre lies in a rectangle
    # and the four axis extremes do too.
    def on_floor(qx: np.ndarray, qz: np.ndarray) -> np.ndarray:
        inside = np.zeros(qx.shape, dtype=bool)
        for x0, z0, x1, z1 in floors:
            inside |= (qx >= x0 - eps) & (qx <= x1 + eps) & (qz >= z0 - eps) & (qz <= z1 + eps)
        return inside

    ok = on_floor(px, pz)
    for dx, dz in ((radius, 0), (-radius, 0), (0, radius), (0, -radius)):
        ok &= on_floor(px + dx, pz + dz)
    # Reflex corners of an L: the circle must also clear the corner point itself.
    ok &= _clear_of_floor_holes(px, pz, floors, radius)
    if len(obstacles):
        obs = np.asarray(obstacles, dtype=float)
        cx = np.clip(px[:, None], obs[None, :, 0], obs[None, :, 2])
        cz = np.clip(pz[:, None], obs[None, :, 1], obs[None, :, 3])
        dist2 = (px[:, None] - cx) ** 2 + (pz[:, None] - cz) ** 2
        ok &= np.all(dist2 >= (radius - eps) ** 2, axis=1)
    points = sorted((round(float(x), 4) + 0.0, round(float(z), 4) + 0.0) for x, z in zip(px[ok], pz[ok]))
    return largest_component(points)


def _clear_of_floor_holes(px: np.ndarray, pz: np.ndarray, floors: np.ndarray, radius: float) -> np.ndarray:
    """Points whose circle contains no corner of a floor rectangle that is not a corner of the floor
    hull: for an L-shaped floor this keeps the body off the inner (reflex) corner."""
    if len(floors) < 2:
        return np.ones(px.shape, dtype=bool)
    corners = set()
    for x0, z0, x1, z1 in floors:
        corners.update({(x0, z0), (x0, z1), (x1, z0), (x1, z1)})
    x_min, z_min = floors[:, 0].min(), floors[:, 1].min()
    x_max, z_max = floors[:, 2].max(), floors[:, 3].max()
    ok = np.ones(px.shape, dtype=bool)
    for cx, cz in sorted(corners):
        on_hull_corner = cx in (x_min, x_max) and cz in (z_min, z_max)
        if on_hull_corner:
            continue
        ok &= (px - cx) ** 2 + (pz - cz) ** 2 >= radius**2 - 1e-9
    return ok


def largest_component(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The largest 4-connected component of grid points (ties: the one with the smallest point)."""
    keys = {grid_key(x, z): (x, z) for x, z in points}
    graph = grid_graph(points)
    if graph.number_of_nodes() == 0:
        return []
    components = [sorted(c) for c in nx.connected_components(graph)]
    components.sort(key=lambda c: (-len(c), c[0]))
    return sorted(keys[k] for k in components[0])


def grid_graph(points: Sequence[tuple[float, float]]) -> nx.Graph:
    """The 4-neighbour graph of grid points, nodes keyed by :func:`grid_key`."""
    graph = nx.Graph()
    keys = sorted({grid_key(x, z) for x, z in points})
    graph.add_nodes_from(keys)
    present = set(keys)
    for i, j in keys:
        for neighbour in ((i + 1, j), (i, j + 1)):
            if neighbour in present:
                graph.add_edge((i, j), neighbour)
    return graph
