"""Placement search of the `lite` world: where on or in a receptacle an object can rest (slots,
free space as THOR judges it, shelf levels, capacity), and putting it there."""

from __future__ import annotations

import math

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.sim import shapes
from alfred_gen.sim.world_containment import Containment
from alfred_gen.sim.world_objects import (
    INSIDE_RECEPTACLES,
    PUT_STEP,
    SHELF_MIN_RISE,
    WorldObject,
    _middle_over,
    footprints_clash,
)

#: Metres (and degrees) the agent's pose may differ from a put point's and still match it (the grid
#: is 0.25 m, turns 90 degrees, looks 15 degrees).
POSE_TOLERANCE = 0.01


def on_drawn_top(receptacle: WorldObject, xs: np.ndarray, zs: np.ndarray, half_x: float,
                 half_z: float) -> tuple[np.ndarray, np.ndarray]:
    """The candidate centres (``xs``, ``zs``) whose footprint (``half_x`` by ``half_z`` either side)
    lies on the part of a fixture's top that is drawn, when any does; else all of them.

    An imported fixture is drawn where THOR's masks of it show it
    (:attr:`~alfred_gen.sim.scene.SceneObject.drawn_margins`, fitted by
    :mod:`alfred_gen.scenes.alfred.fixture_extents`), but its box stays whole, to hold what a start
    state lays on it. Where the drawing stops short of the box, THOR's fixture is not there, and THOR
    puts nothing there: a cup set on FloorPlan26's counter stood half off its drawn front edge, the
    spot nearest the hand on a box 0.38 m deeper than THOR's counter, where THOR's cup stood on the
    counter behind that edge (Spoon-Cup-CounterTop-26: the next put into the cup resolved to the
    counter; held out on the wide sample, rule picks 2064 -> 2065/2104, IoU 0.7172 -> 0.7173, no pick
    lost; measured set unchanged, session 100). Only margins drawn inside the box count; movable
    receptacles have none. Only tops: a fridge's, cabinet's or microwave's drawing
    (:data:`INSIDE_RECEPTACLES`) is its carcass or door seen from outside, and what goes in lies
    inside its box (kept on FloorPlan25's fridge's drawn front, a bowl was put where THOR's later
    mask of it fell on the fridge: a pick lost on the wide sample)."""
    margins = receptacle.drawn_margins
    if (not margins or receptacle.otype.pickupable or min(margins) >= 0.0
            or receptacle.type_name in INSIDE_RECEPTACLES):
        return xs, zs
    lo, hi = receptacle.lo, receptacle.hi
    x0, x1 = lo[0] - min(margins[0], 0.0) + half_x, hi[0] + min(margins[3], 0.0) - half_x
    z0, z1 = lo[2] - min(margins[2], 0.0) + half_z, hi[2] + min(margins[5], 0.0) - half_z
    eps = 1e-9
    on = (xs >= x0 - eps) & (xs <= x1 + eps) & (zs >= z0 - eps) & (zs <= z1 + eps)
    return (xs[on], zs[on]) if on.any() else (xs, zs)


class Placement(Containment):
    """Where an object can go on or in a receptacle, and putting it there."""

    def slot_points(self, receptacle: WorldObject) -> list[tuple[float, float]]:
        """Candidate (x, z) spots on/in a receptacle: a grid over its footprint, one cell per slot."""
        capacity = max(receptacle.otype.capacity, 1)
        sx, _, sz = receptacle.size
        cx, _, cz = receptacle.center
        cols = max(1, min(capacity, round(math.sqrt(capacity * sx / max(sz, 1e-6)))))
        rows = max(1, math.ceil(capacity / cols))
        out = []
        for j in range(rows):
            for i in range(cols):
                out.append((cx - sx / 2 + (i + 0.5) * sx / cols, cz - sz / 2 + (j + 0.5) * sz / rows))
        return out

    def spot_bottom_y(self, receptacle: WorldObject) -> float:
        """Height at which a placed object's box bottom rests in/on this receptacle."""
        lo_y = receptacle.center[1] - receptacle.size[1] / 2
        hi_y = receptacle.center[1] + receptacle.size[1] / 2
        if receptacle.type_name in INSIDE_RECEPTACLES:
            floor = shapes.inner_floor(receptacle.type_name, receptacle.size[1])
            return lo_y + (floor if floor > 0 else min(0.02, receptacle.size[1] / 4))
        return hi_y

    def support_levels(self, receptacle: WorldObject) -> list[float]:
        """Heights a placed object's box bottom can rest at in/on this receptacle, lowest first:
        :meth:`spot_bottom_y`, and inside a container also each height its contents rest at
        (above the floor by :data:`SHELF_MIN_RISE` or more), and the shelves the scene declares for
        it. A THOR fridge has shelves that its PutObject fills as it fills the floor; a restored
        start state shows where some are, an imported room's evidence where the others are."""
        floor = self.spot_bottom_y(receptacle)
        if receptacle.type_name not in INSIDE_RECEPTACLES:
            return [floor]
        levels = [floor]
        resting = [round(self.by_id[child_id].lo[1], 3) for child_id in sorted(receptacle.children)]
        for bottom in [*resting, *self.shelves.get(receptacle.object_id, ())]:
            if bottom >= floor + SHELF_MIN_RISE and all(abs(bottom - level) > SHELF_MIN_RISE for level in levels):
                levels.append(bottom)
        return sorted(levels)

    def put_point(self, receptacle: WorldObject, kind: str, any_type: bool = True) -> tuple[float, float, float] | None:
        """Where THOR put a ``kind`` into ``receptacle`` from the agent's pose now (x, y, z of the put
        object's middle), when the scene knows: the replayed file's own point of that type
        (:meth:`file_put_point`), else the room's (:attr:`SceneObject.put_points`) of that type, else
        (``any_type``) the room's point for any type, else None."""
        own = self.file_put_point(receptacle, kind)
        if own is not None:
            return own
        found = self._points_from_here(self.put_points.get(receptacle.object_id, ()))
        return found.get(kind, found.get("") if any_type else None)

    def file_put_point(self, receptacle: WorldObject, kind: str) -> tuple[float, float, float] | None:
        """Where THOR put a ``kind`` into ``receptacle`` from the agent's pose now in the episode being
        replayed, read from its file's own masks (:attr:`SceneObject.file_put_points`); else None."""
        return self._points_from_here(self.file_put_points.get(receptacle.object_id, ())).get(kind)

    def put_places_here(self, receptacle: WorldObject, kind: str) -> list[tuple[float, float, float]]:
        """The places the room's demos show THOR put a ``kind`` into ``receptacle`` at from the agent's
        pose now, when they show more than one (:attr:`SceneObject.put_places`); else none."""
        flat = self._from_here(self.put_places.get(receptacle.object_id, ())).get(kind, ())
        return [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]

    def put_matches_here(self, receptacle: WorldObject, kind: str
                         ) -> list[tuple[tuple[float, float, float], list[tuple[str, tuple[float, float, float]]]]]:
        """The landings of a ``kind`` the room's demos show in ``receptacle`` from the agent's pose
        now, each with what lay near it then (:attr:`SceneObject.put_matches`): (landing, [(type, position)])."""
        found = []
        for key, (x, z, rotation, horizon, *rest) in self.put_matches.get(receptacle.object_id, ()):
            held, _, near = key.partition("|")
            if held != kind or not self._posed_at(x, z, rotation, horizon):
                continue
            types = near.split(",")
            things = [(t, (rest[3 + 3 * i], rest[4 + 3 * i], rest[5 + 3 * i])) for i, t in enumerate(types)]
            found.append(((rest[0], rest[1], rest[2]), things))
        return found

    def file_put_heading(self, receptacle: WorldObject, kind: str) -> float | None:
        """Which way (THOR's yaw of a world direction) THOR laid a ``kind`` put into ``receptacle``
        from the agent's pose now in the episode being replayed, read from its file's own masks
        (:attr:`SceneObject.file_put_headings`); else None."""
        found = self._from_here(self.file_put_headings.get(receptacle.object_id, ())).get(kind)
        return None if found is None else found[0]

    def put_heading(self, receptacle: WorldObject, kind: str) -> float | None:
        """Which way (THOR's yaw of a world direction) the room's demos show a ``kind`` put into
        ``receptacle`` laid, as a turn from the way the agent faces now
        (:attr:`SceneObject.put_headings`); else None."""
        turns = self.put_headings.get(receptacle.object_id, {}).get(kind)
        return None if turns is None else (float(self.agent.rotation) + 90.0 * turns[0]) % 360.0

    def _points_from_here(self, points: tuple[tuple[str, tuple[float, ...]], ...],
                          ) -> dict[str, tuple[float, float, float]]:
        """Type -> point of the put points declared for the agent's pose now."""
        return {name: (p[0], p[1], p[2]) for name, p in self._from_here(points).items()}

    def _from_here(self, facts: tuple[tuple[str, tuple[float, ...]], ...]) -> dict[str, tuple[float, ...]]:
        """Type -> what follows the pose (x, z, rotation, horizon) of the facts declared for the
        agent's pose now."""
        return {name: tuple(rest) for name, (x, z, rotation, horizon, *rest) in facts
                if self._posed_at(x, z, rotation, horizon)}

    def _posed_at(self, x: float, z: float, rotation: float, horizon: float) -> bool:
        """Whether the agent stands at (x, z) facing ``rotation`` at ``horizon`` now (within
        :data:`POSE_TOLERANCE`): a fact read from a demo holds only from the pose it was read at."""
        a = self.agent
        return (abs(a.x - x) < POSE_TOLERANCE and abs(a.z - z) < POSE_TOLERANCE
                and abs((a.rotation - rotation + 180) % 360 - 180) < POSE_TOLERANCE
                and abs(a.horizon - horizon) < POSE_TOLERANCE)

    def free_spots(self, receptacle: WorldObject, obj: WorldObject | None = None) -> list[tuple[float, float]]:
        """Slot points where ``obj`` (or a point-sized object) would not overlap what is already there.

        Overlap is judged on footprints (x, z) against every object inside the receptacle. If
        nothing is clear but the receptacle still has room (restored scenes put objects anywhere,
        not on slots), the slot farthest from the others is offered.
        """
        points = self.slot_points(receptacle)
        if not receptacle.children:
            return points
        hx, hz = (obj.size[0] / 2, obj.size[2] / 2) if obj is not None else (0.0, 0.0)
        taken = [self.by_id[c] for c in receptacle.children]
        free = [
            p for p in points
            if all(abs(t.center[0] - p[0]) >= t.size[0] / 2 + hx or abs(t.center[2] - p[1]) >= t.size[2] / 2 + hz
                   for t in taken)
        ]
        if free or not self.has_room(receptacle):
            return free
        def clearance(p: tuple[float, float]) -> tuple[float, tuple[float, float]]:
            return min((t.center[0] - p[0]) ** 2 + (t.center[2] - p[1]) ** 2 for t in taken), p

        return [max(points, key=clearance)]

    def put_spots(self, receptacle: WorldObject, obj: WorldObject) -> list[tuple[float, float]]:
        """Where ``obj`` can be put on/in ``receptacle``: judged by free space, as THOR does.

        THOR has no object-count capacity: it places an object wherever its collider fits on the
        receptacle's surface. Candidates are a grid (``PUT_STEP`` apart) of centres that keep the
        object's footprint on the receptacle's (the middle only, when the object is wider); a
        candidate is free unless the footprint overlaps a child's footprint by more than
        ``PUT_OVERLAP`` of each half-extent (bounding boxes are looser than THOR's mesh colliders).
        A sliced object's pieces are objects of their own and take only their own room. One-object
        holders (capacity 1: a stove burner, a coffee machine, a towel holder) keep their one slot,
        as THOR gives them one spawn point. The slots of
        :meth:`free_spots` (capacity based) are added, so whatever fitted before still fits.
        """
        if receptacle.otype.capacity <= 1:  # a one-object holder: a burner, a coffee machine, a hanger
            return self.free_spots(receptacle, obj) if self.has_room(receptacle) else []
        hx, hz = obj.size[0] / 2, obj.size[2] / 2
        px, pz = self.put_grid(receptacle, obj)
        free = np.ones(len(px), bool)
        for child_id in receptacle.children:
            free &= ~footprints_clash(self.by_id[child_id], px, pz, hx, hz)
        spots = [(float(x), float(z)) for x, z in zip(px[free], pz[free])]
        if self.has_room(receptacle):
            spots.extend(p for p in self.free_spots(receptacle, obj) if p not in spots)
        return spots

    def put_grid(self, receptacle: WorldObject, obj: WorldObject) -> tuple[np.ndarray, np.ndarray]:
        """The x and z of every candidate centre (``PUT_STEP`` apart) that keeps ``obj``'s footprint
        on ``receptacle``'s (the middle only, when the object is wider), and on its drawn top when any
        does (:func:`on_drawn_top`), before anything in it is considered (:meth:`put_spots` then drops
        those a child takes)."""
        sx, _, sz = receptacle.size
        cx, _, cz = receptacle.center
        hx, hz = obj.size[0] / 2, obj.size[2] / 2

        def axis(centre: float, size: float, half: float) -> np.ndarray:
            room = size / 2 - half
            if room <= 0:
                return np.array([centre])
            n = int(math.floor(room / PUT_STEP))
            return centre + PUT_STEP * np.arange(-n, n + 1)

        xs, zs = np.meshgrid(axis(cx, sx, hx), axis(cz, sz, hz), indexing="ij")
        return on_drawn_top(receptacle, xs.ravel(), zs.ravel(), hx, hz)

    def has_room(self, receptacle: WorldObject) -> bool:
        """Whether the receptacle holds fewer things than its capacity. Only what it may hold counts:
        a fork its box happens to reach on the counter beside a coffee machine does not take the
        mug's place (in rooms imported from ALFRED, boxes reach further than THOR's meshes). Nor
        does a thing leaning in with its middle outside (a pencil across a mug's rim): THOR put a
        pen in such a mug in 5 train demos."""
        held = sum(1 for c in receptacle.children
                   if catalogue.thor_accepts(self.by_id[c].type_name, receptacle.type_name)
                   and _middle_over(self.by_id[c], receptacle))
        return held < receptacle.otype.capacity

    def place_at_spot(
        self, obj: WorldObject, receptacle: WorldObject, spot: tuple[float, float], bottom: float | None = None
    ) -> None:
        """Put a parentless object at a spot of a receptacle (on its lowest level unless ``bottom``
        names one of :meth:`support_levels`) and link it there."""
        if bottom is None:
            bottom = self.spot_bottom_y(receptacle)
        self.move_to(obj, (spot[0], bottom + obj.size[1] / 2, spot[1]))
        self.attach(obj, receptacle)
