"""A small walled room round a few objects, as the simulator's and the importer's tests build one to
see how lite draws a fixture: walls just outside a rectangle, the floor grid reachable wherever the
agent's footprint clears what stands there."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Box, Pose, Scene, SceneCamera, SceneObject
from tests.helpers.sim_actions import oid

#: The rectangle most of these rooms stand on (x0, x1, z0, z1 metres): 3 m square about the origin.
SQUARE = (-1.5, 1.5, -1.5, 1.5)


def walled_room(objects: Sequence[SceneObject], start: Pose, *, name: str = "FloorPlan3", scene_num: int = 3,
                room_type: str = "kitchen", bounds: tuple[float, float, float, float] = SQUARE,
                blocking: Sequence[Box] | None = None, camera: SceneCamera | None = None) -> Scene:
    """A room holding ``objects`` inside walls round ``bounds``, the agent at ``start``; the floor grid
    is reachable but where the ``blocking`` boxes stand (by default the first object's box)."""
    x0, x1, z0, z1 = bounds
    obstacles = [objects[0].box] if blocking is None else list(blocking)
    return Scene(name=name, scene_num=scene_num, room_type=room_type, walls=tuple(fixtures.room_walls(x0, x1, z0, z1)),
                 reachable=fixtures.reachable_grid(x0, x1, z0, z1, obstacles), objects=list(objects), start=start,
                 camera=camera)


def first_mask(room: Scene, object_type: str) -> np.ndarray:
    """Lite's instance mask of the room's first object of ``object_type``, seen from its start (all
    False where lite draws none of it)."""
    sim = LiteController(room, render_image=False, render_object_image=True)
    event = sim.last_event
    shape = (event.metadata["screenHeight"], event.metadata["screenWidth"])
    return np.asarray(event.instance_masks.get(oid(sim, object_type), np.zeros(shape, dtype=bool)))
