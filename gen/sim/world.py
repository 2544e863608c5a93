"""The dynamic state of the `lite` simulator: where every object is now, what holds what, states.

A :class:`World` starts from a static :class:`~alfred_gen.sim.scene.Scene` on every reset and is
changed only by actions. It keeps THOR 2.1's conventions:

- Object ids keep the position where the object was *spawned* (scene load, InitialRandomSpawn,
  SetObjectPoses); moving an object never renames it.
- Containment is a tree: every object has at most one immediate parent receptacle. THOR's metadata
  reports it transitively (an apple in a bowl on a table lists the bowl and the table in
  ``parentReceptacles``, and both list the apple in ``receptacleObjectIds``), as THOR's trigger
  boxes do; :meth:`World.parent_chain` and :meth:`World.descendants` give both views.
- A held object has no parent; it sits in front of the camera and carries its contents.

Metadata dicts of objects are cached and rebuilt only for objects an action touched, so a step
costs little more than the change it makes. Cached dicts are never mutated after they are handed
out: treat event metadata as read-only.
"""

from __future__ import annotations

import math

import numpy as np

from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import CAMERA_Y_OFFSET, Box, format_object_id
from alfred_gen.sim.world_metadata import Metadata
from alfred_gen.sim.world_navigation import Navigation, segments_hit_boxes
from alfred_gen.sim.world_objects import (
    AGENT_RADIUS,
    BLOCKING_HEIGHT,
    FIELD_OF_VIEW,
    FLOOR_CONTACT,
    HAND_AHEAD,
    HAND_BELOW,
    HORIZON_MAX,
    HORIZON_MIN,
    INITIALLY_OPEN,
    INSIDE_RECEPTACLES,
    PUT_OVERLAP,
    PUT_STEP,
    SHARED_INSIDE,
    SHELF_MIN_RISE,
    AgentState,
    Turn,
    WorldObject,
    footprint_meets,
    overlap_deeper_than,
    quarter_turns,
    turn_horizontal,
    turned_about,
    yaw_residual,
)
from alfred_gen.sim.world_placement import Placement

#: The names callers import from here (the world's things live in :mod:`alfred_gen.sim.world_objects`).
__all__ = [
    "AGENT_RADIUS",
    "BLOCKING_HEIGHT",
    "CAMERA_Y_OFFSET",
    "FIELD_OF_VIEW",
    "FLOOR_CONTACT",
    "HAND_AHEAD",
    "HAND_BELOW",
    "HORIZON_MAX",
    "HORIZON_MIN",
    "INITIALLY_OPEN",
    "INSIDE_RECEPTACLES",
    "PUT_OVERLAP",
    "PUT_STEP",
    "SHARED_INSIDE",
    "SHELF_MIN_RISE",
    "AgentState",
    "Turn",
    "World",
    "WorldObject",
    "footprint_meets",
    "overlap_deeper_than",
    "quarter_turns",
    "segments_hit_boxes",
    "spawn_id",
    "turn_horizontal",
    "turned_about",
    "yaw_residual",
]


class World(Placement, Navigation, Metadata):
    """Objects, containment, states and the agent for one episode of one scene.

    Its parts, one job each: :class:`~alfred_gen.sim.world_core.WorldCore` (state, tree, change
    tracking), :class:`~alfred_gen.sim.world_containment.Containment`,
    :class:`~alfred_gen.sim.world_placement.Placement`, :class:`~alfred_gen.sim.world_navigation.Navigation`
    and :class:`~alfred_gen.sim.world_metadata.Metadata`; here, what joins them: the camera, the
    hand, and the arrays and boxes the renderer and sight read.
    """

    def camera(self, fov: float = FIELD_OF_VIEW, width: int = 300, height: int = 300) -> Camera:
        """The agent's camera: at the agent's x, z and y + camera offset, with its rotation and horizon."""
        a = self.agent
        return Camera(float(a.x), float(a.y + self.camera_y_offset), float(a.z), float(a.rotation), float(a.horizon),
                      fov, width, height)

    def hand_center(self) -> tuple[float, float, float]:
        """Where a held object's box centre sits: ahead of and below the camera."""
        a = self.agent
        yaw = math.radians(a.rotation)
        return (
            a.x + HAND_AHEAD * math.sin(yaw),
            a.y + self.camera_y_offset - HAND_BELOW,
            a.z + HAND_AHEAD * math.cos(yaw),
        )

    def follow_hand(self) -> None:
        """Keep the held object in front of the agent after it moved or turned."""
        if self.held is not None:
            before = self.version
            self.move_to(self.by_id[self.held], self.hand_center())
            self.hand_moves += self.version - before

    def set_color_variation(self, on: bool) -> None:
        """Draw objects in their varied colours (or their types' again); nothing else changes."""
        if bool(on) != self.color_variation:
            self.color_variation = bool(on)
            self.version += 1

    @property
    def scene_version(self) -> int:
        """A version of what is drawn outside the agent's hand: unchanged while only the held object
        (and what it carries) follows the agent, whose boxes the scene layers leave out."""
        return self.version - self.hand_moves

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(centres N×3, half sizes N×3, eligible-for-sight mask N), rows in ``objects`` order.

        Eligible: present, not sliced away, not held (or inside what is held), not shut inside a
        closed fridge/cabinet/drawer/microwave/safe. Rebuilt after :meth:`sight_changed`; moves
        update the centres in place.
        """
        if self._arrays is None:
            objs = self.objects
            centers = np.array([o.center for o in objs], dtype=float).reshape(-1, 3)
            halves = np.array([o.size for o in objs], dtype=float).reshape(-1, 3) / 2.0
            eligible = np.array(
                [o.present and not o.is_sliced and not self.is_held_family(o) and not self.enclosed(o) for o in objs],
                dtype=bool,
            )
            self._arrays = (centers, halves, eligible)
        return self._arrays

    def render_boxes(self) -> list[tuple[str | None, list[Box], str]]:
        """Everything a renderer draws: (object id or None for walls, boxes, type name for colour).

        Walls come first (id None, type ``"Wall"``); then every present object that has not been
        sliced away, in metadata order, with its main box followed by its drawing parts. Objects
        inside a closed receptacle are listed too: the receptacle's box hides them.
        """
        out: list[tuple[str | None, list[Box], str]] = [(None, [w], "Wall") for w in self.scene.walls]
        for o in self.objects:
            if o.present and not o.is_sliced:
                out.append((o.object_id, [o.box(), *o.part_boxes()], o.type_name))
        return out


def spawn_id(obj: WorldObject, single_precision: bool = False) -> str:
    """The THOR id an object gets when spawned where it is now.

    Metadata reports the same unrounded position, so an id can always be recomputed from
    ``metadata["position"]`` and from a recorded ``object_poses`` entry.
    """
    return format_object_id(obj.type_name, tuple(obj.position), single_precision)  # type: ignore[arg-type]  # tuple() over three coordinates: mypy sees tuple[float, ...]
