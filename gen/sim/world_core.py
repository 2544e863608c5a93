"""The state of one `lite` episode: its objects by id, the containment tree (who is in what), the
agent, and the change tracking that keeps cached metadata and sight arrays honest.

:class:`WorldCore` is what the world's other parts (``world_containment``, ``world_placement``,
``world_navigation``, ``world_metadata``) build on; :class:`~alfred_gen.sim.world.World` joins them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.sim.scene import CAMERA_Y_OFFSET, Scene, grid_key
from alfred_gen.sim.world_objects import (
    AgentState,
    WorldObject,
    quarter_turns,
    turn_horizontal,
)


class WorldCore:
    """The state every part of the world reads: objects, the containment tree, the agent, versions."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.objects: list[WorldObject] = []
        self.by_id: dict[str, WorldObject] = {}
        self.held: str | None = None
        self.camera_y_offset = CAMERA_Y_OFFSET
        #: Shelf heights of fixed receptacles the scene declares (:attr:`SceneObject.shelves`).
        self.shelves = {so.object_id: so.shelves for so in scene.objects if so.shelves}
        #: Where THOR put things into fixed receptacles, by pose (:attr:`SceneObject.put_points`).
        self.put_points = {so.object_id: so.put_points for so in scene.objects if so.put_points}
        #: The same from the replayed file's own masks (:attr:`SceneObject.file_put_points`).
        self.file_put_points = {so.object_id: so.file_put_points for so in scene.objects if so.file_put_points}
        #: The places the room's demos show THOR put one type at from one pose (:attr:`SceneObject.put_places`).
        self.put_places = {so.object_id: so.put_places for so in scene.objects if so.put_places}
        #: The landings the room's demos show with what lay near them (:attr:`SceneObject.put_matches`).
        self.put_matches = {so.object_id: so.put_matches for so in scene.objects if so.put_matches}
        #: Which way THOR laid long things there (:attr:`SceneObject.file_put_headings`).
        self.file_put_headings = {so.object_id: so.file_put_headings for so in scene.objects if so.file_put_headings}
        #: Which way the room's demos show long things laid there (:attr:`SceneObject.put_headings`).
        self.put_headings = {so.object_id: dict(so.put_headings) for so in scene.objects if so.put_headings}
        for so in scene.objects:
            obj = WorldObject(so.object_id, so.object_type, so.name, so.position, so.rotation, so.box, so.parts,
                              so.holes, so.open_tray, so.drawn_margins, so.blade_across, so.drawn_pattern,
                              so.opening, so.shut_margins)
            self._register(obj)
        for so in scene.objects:
            if so.parent:
                if so.parent not in self.by_id:
                    raise ValueError(f"scene {scene.name}: {so.object_id} has unknown parent {so.parent}")
                self._link(self.by_id[so.object_id], self.by_id[so.parent])
        self.reachable: dict[tuple[int, int], tuple[float, float]] = {}
        for x, z in scene.reachable:
            self.reachable.setdefault(grid_key(x, z), (float(x), float(z)))
        self.wall_lo = np.array([w.lo for w in scene.walls], dtype=float).reshape(-1, 3)
        self.wall_hi = np.array([w.hi for w in scene.walls], dtype=float).reshape(-1, 3)
        start = scene.start
        if start is not None:
            self.agent = AgentState(start.x, scene.agent_y, start.z, start.rotation % 360, float(start.horizon))
        else:
            first = min(self.reachable.values()) if self.reachable else (0.0, 0.0)
            self.agent = AgentState(first[0], scene.agent_y, first[1], 0, 0.0)
        #: Points the agent may step onto besides the reachable ones (:attr:`Scene.margin`).
        self.margin = {grid_key(x, z) for x, z in scene.margin} - set(self.reachable)
        for x, z in scene.margin:
            self.reachable.setdefault(grid_key(x, z), (float(x), float(z)))
        self.basin_of_faucet = self._pair_faucets_with_basins()
        self._meta_cache: dict[str, dict[str, Any]] = {}
        self._listing: tuple[tuple[dict[str, Any], int], ...] | None = None
        self._arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: Bumped whenever any object changes (geometry or state); visibility caches key on it.
        self.version = 0
        #: How many of those bumps came from the held object following the agent: nothing drawn in
        #: the scene changes then (the held group is drawn apart, per camera), so the renderer's
        #: scene layers key on ``version - hand_moves`` (:attr:`scene_version`).
        self.hand_moves = 0
        #: Whether objects are drawn in their varied colours (lite's ``SetColorVariation``, off by
        #: default so that every frame recorded without it re-renders as it was).
        self.color_variation = False
        #: Objects ALFRED would count as heated / cooled / cleaned (its env's bookkeeping), in order.
        self.heated: list[str] = []
        self.cooled: list[str] = []
        self.cleaned: list[str] = []

    def _register(self, obj: WorldObject) -> None:
        if obj.object_id in self.by_id:
            raise ValueError(f"duplicate object id {obj.object_id}")
        obj.index = len(self.objects)
        self.objects.append(obj)
        self.by_id[obj.object_id] = obj
        self._arrays = None
        self._listing = None

    def add_object(self, obj: WorldObject) -> None:
        """Add a new object (a slice, a duplicate) at the end of the object list."""
        self._register(obj)
        self.version += 1

    def rename(self, obj: WorldObject, new_id: str) -> None:
        """Give an object a new id (after a spawn moved it), keeping links consistent."""
        if new_id == obj.object_id:
            return
        if new_id in self.by_id:
            raise ValueError(f"object id {new_id} already exists")
        old = obj.object_id
        self.touch_family(obj)
        del self.by_id[old]
        obj.object_id = new_id
        self.by_id[new_id] = obj
        if obj.parent is not None:
            siblings = self.by_id[obj.parent].children
            siblings[siblings.index(old)] = new_id
        for child_id in obj.children:
            self.by_id[child_id].parent = new_id
        if self.held == old:
            self.held = new_id
        self._meta_cache.pop(old, None)
        self.touch_family(obj)

    def get(self, object_id: str) -> WorldObject | None:
        obj = self.by_id.get(object_id)
        return obj if obj is not None and obj.present else None

    def touch(self, obj: WorldObject) -> None:
        """Forget the cached metadata of one object after it changed."""
        self._meta_cache.pop(obj.object_id, None)
        self._listing = None
        self.version += 1

    def sight_changed(self) -> None:
        """Something changed who may be seen (containment, an open door, presence, a box size)."""
        self._arrays = None
        self.version += 1

    def touch_family(self, obj: WorldObject) -> None:
        """Forget cached metadata of an object, its ancestors and descendants (containment views)."""
        self.touch(obj)
        for other in self.parent_chain(obj):
            self.touch(other)
        for other in self.descendants(obj):
            self.touch(other)

    def parent_chain(self, obj: WorldObject) -> list[WorldObject]:
        """Receptacles containing ``obj``, innermost first."""
        chain = []
        parent = obj.parent
        while parent is not None:
            p = self.by_id[parent]
            chain.append(p)
            parent = p.parent
        return chain

    def descendants(self, obj: WorldObject) -> list[WorldObject]:
        """Everything inside ``obj``, depth first in insertion order."""
        out: list[WorldObject] = []
        stack = list(reversed(obj.children))
        while stack:
            child = self.by_id[stack.pop()]
            out.append(child)
            stack.extend(reversed(child.children))
        return out

    def _link(self, obj: WorldObject, receptacle: WorldObject) -> None:
        obj.parent = receptacle.object_id
        receptacle.children.append(obj.object_id)

    def move_to(self, obj: WorldObject, center: tuple[float, float, float]) -> None:
        """Move an object (and everything inside it) so its box is centred on ``center``."""
        dx, dy, dz = (n - c for n, c in zip(center, obj.center))
        if dx == 0 and dy == 0 and dz == 0:
            return
        arrays = self._arrays
        for o in [obj, *self.descendants(obj)]:
            o.center = [o.center[0] + dx, o.center[1] + dy, o.center[2] + dz]
            o.position = [o.center[i] + o.offset[i] for i in range(3)]
            if arrays is not None:
                arrays[0][o.index] = o.center
            self.touch(o)

    def set_rotation(self, obj: WorldObject, yaw: float) -> None:
        """Rotate an object about y in quarter turns: an odd turn swaps its box's x and z extents, and
        the origin turns with the box (a Box's origin off its middle stays on the same side of it)."""
        turns = (quarter_turns(yaw) - quarter_turns(obj.rotation[1])) % 4
        obj.rotation = (obj.rotation[0], float(yaw) % 360.0, obj.rotation[2])
        if turns:
            if turns % 2:
                sx, sy, sz = obj.size
                obj.size = (sz, sy, sx)
            ox, oy, oz = obj.offset
            ox, oz = turn_horizontal(ox, oz, turns)
            obj.offset = (ox, oy, oz)
            self.sight_changed()
        self.touch(obj)

    def _pair_faucets_with_basins(self) -> dict[str, str]:
        """Each faucet runs into the nearest sink or bathtub basin (:func:`catalogue.faucet_basins`)."""
        return catalogue.faucet_basins((o.object_id, o.type_name, o.center[0], o.center[2]) for o in self.objects)
