"""`lite`: the embedded, headless re-implementation of the AI2-THOR 2.1 behaviour ALFRED relies on.

Usage mirrors ``ai2thor.controller.Controller``::

    from alfred_gen.sim.lite import LiteController
    sim = LiteController(scene)                      # a Scene (or a name, given scene_lookup=)
    event = sim.step({"action": "PickupObject", "objectId": "Apple|+00.10|+00.93|-01.20"})
    event = sim.step(action="MoveAhead")
    event.metadata["lastActionSuccess"], event.metadata["objects"], ...

An unknown action, an unknown or malformed argument, or an unmet precondition gives a failed
event (``lastActionSuccess`` false, the reason in ``errorMessage``) and changes nothing; it never
raises.

Pixels (see :mod:`alfred_gen.sim.pixels`): by default one :class:`~alfred_gen.sim.pixels.PixelSight`
renders the world and serves both visibility (an object is visible when at least 10 of its pixels
are in the 300x300 instance frame and it is within ``visibility_distance``) and the Event's image
fields. The flags ``render_image`` (RGB ``frame``), ``render_depth_image`` (``depth_frame``),
``render_object_image`` (``instance_segmentation_frame``, ``instance_masks``,
``instance_detections2D``, ``color_to_object_id``, ``object_id_to_color``) and
``render_class_image`` (``class_segmentation_frame``, ``class_masks``) switch image fields on and
off (constructor arguments, or Initialize's ``renderImage`` / ``renderDepthImage`` /
``renderObjectImage`` / ``renderInstanceSegmentation`` / ``renderClassImage``). They never change
what the simulator does: with every flag off no image is produced, but visibility is still decided
on pixels (a segmentation-only render, skipped when nothing eligible within reach can be in
view), so the same actions succeed with frames on and off. ``visibility=`` and ``renderer=``
replace either hook (e.g. ``visibility=GeometricVisibility()`` for a render-free stand-in whose
results differ).

``show_dirt`` (off by default) draws dirty objects dirty. It is off because ALFRED's
``pick_clean_then_place_in_recep`` demonstrations start with every dirtyable object dirty, and their
frames must re-render as they were recorded; ACT-Thor's collection turns it on. Filled, broken and
lit (candle, laptop) objects always show their state: no ALFRED-style trajectory reaches those.

Beyond ALFRED's actions, lite has ACT-Thor's (DropHandObject, ThrowObject, DirectionalPush,
BreakObject, DirtyObject, FillObjectWithLiquid, EmptyLiquidFromObject, RemoveFromScene,
PlaceObjectAtPoint) with deterministic outcomes (pushes and throws by force over mass): see
:mod:`alfred_gen.sim.physics_actions`.

What other pieces use:

- ``sim.last_event.metadata``: THOR 2.1 metadata of the current state (read-only dicts).
- ``sim.scene``: the static Scene; ``sim.world``: the live :class:`~alfred_gen.sim.world.World`
  (``world.objects``, ``world.by_id``, ``world.held``, ``world.heated/cooled/cleaned`` — ALFRED's
  env bookkeeping of what a running microwave / a closing fridge / a running faucet affected).
- ``sim.camera()``: camera position (agent y + ``camera_y_offset``, 0.75 as ALFRED initialises
  THOR), yaw, pitch (= horizon), fov, width, height — what a renderer needs.
- ``sim.world.render_boxes()``: ``[(object_id | None, [Box, ...], type_name)]``, walls first.
- ``sim.visibility_state()``: ``(visible, distance)`` arrays over ``world.objects``.
- ``sim.pixels``: the default :class:`~alfred_gen.sim.pixels.PixelSight` (None when both hooks are
  replaced); ``sim.pixels.frames(sim.world, sim.camera())`` renders the current state on demand.
- ``LiteController(visibility=model)``: ``model(world, camera, max_distance) -> (visible,
  distance)``; ``LiteController(renderer=fn)``: ``fn(sim) -> {"frame": ..., "depth_frame": ...,
  "instance_segmentation_frame": ..., "instance_masks": ..., ...}`` called after every step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.actions import AGENT_ACTIONS, ActionFailed, Handler
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.controller import SceneLookup, as_lookup
from alfred_gen.sim.event import Event
from alfred_gen.sim.physics_actions import PHYSICS_ACTIONS
from alfred_gen.sim.pixels import PixelSight
from alfred_gen.sim.put_landing import check_rule
from alfred_gen.sim.scene import GRID_SIZE, Scene
from alfred_gen.sim.setup_actions import SETUP_ACTIONS
from alfred_gen.sim.visibility import PartialSight, Sight, VisibilityModel, visible_among
from alfred_gen.sim.visibility import prepare as prepare_sight
from alfred_gen.sim.world import CAMERA_Y_OFFSET, FIELD_OF_VIEW, World

#: Backend name and version recorded in trajectories.
BACKEND = "lite"
VERSION = "1"

#: Every action lite understands -> (handler, accepted argument names).
ACTIONS: dict[str, tuple[Handler, frozenset[str]]] = {**AGENT_ACTIONS, **PHYSICS_ACTIONS, **SETUP_ACTIONS}

#: Arguments every action accepts (THOR's generic ones).
COMMON_ARGS = frozenset({"action", "forceAction", "sequenceId", "agentId"})

#: A renderer: called with the controller after each step, returns Event image fields by name.
Renderer = Callable[["LiteController"], dict[str, Any]]


class LiteController:
    """An AI2-THOR-shaped controller over the lite world model."""

    def __init__(
        self,
        scene: Scene | str | None = None,
        *,
        width: int = 300,
        height: int = 300,
        render_image: bool = True,
        render_depth_image: bool = False,
        render_object_image: bool = False,
        render_class_image: bool = False,
        grid_size: float = GRID_SIZE,
        visibility_distance: float = 1.5,
        scene_lookup: SceneLookup | Callable[[str], Scene] | None = None,
        visibility: VisibilityModel | None = None,
        renderer: Renderer | None = None,
        camera_y_offset: float = CAMERA_Y_OFFSET,
        field_of_view: float = FIELD_OF_VIEW,
        show_dirt: bool = False,
        landing_rules: Mapping[str, str] | None = None,
    ) -> None:
        if abs(grid_size - GRID_SIZE) > 1e-9:
            raise ValueError(f"lite supports grid_size {GRID_SIZE} only, got {grid_size}")
        self.width = width
        self.height = height
        self.render_image = render_image
        self.render_depth_image = render_depth_image
        self.render_object_image = render_object_image
        self.render_class_image = render_class_image
        self.grid_size = grid_size
        self.visibility_distance = visibility_distance
        self.field_of_view = field_of_view
        self.camera_y_offset = camera_y_offset
        #: The camera asked for (constructor, Initialize); a room declaring its own camera
        #: (:attr:`Scene.camera`) is seen with that one instead while it is loaded.
        self.configured_field_of_view = field_of_view
        self.configured_camera_y_offset = camera_y_offset
        self.scene_lookup = as_lookup(scene_lookup)
        #: Landing rules by receptacle type that override :mod:`~alfred_gen.sim.put_landing`'s
        #: registry (bench/put_landing.py compares rules with them); None: the registry's.
        self.landing_rules: Mapping[str, str] | None = (
            None if landing_rules is None else {t: check_rule(r) for t, r in landing_rules.items()})
        self.pixels: PixelSight | None = (
            PixelSight(show_dirt=show_dirt) if visibility is None or renderer is None else None
        )
        self.visibility: VisibilityModel = visibility or self.pixels  # type: ignore[assignment]  # self.pixels is set whenever a hook is left out
        self.renderer: Renderer | None = renderer or self.pixels.images  # type: ignore[union-attr]  # self.pixels is set whenever a hook is left out
        self._scene: Scene | None = None
        self._world: World | None = None
        self._sight_key: tuple[Any, ...] | None = None
        self._sight: Sight | None = None
        self.last_event: Event | None = None
        self.last_action: dict[str, Any] | None = None
        if scene is not None:
            self.reset(scene)

    # --- THOR's controller interface ------------------------------------------------------------
    @property
    def scene(self) -> Scene:
        """The static Scene of the current episode."""
        if self._scene is None:
            raise RuntimeError("no scene loaded: call reset(scene) first")
        return self._scene

    @property
    def world(self) -> World:
        """The dynamic world state (objects, containment, agent) of the current episode."""
        if self._world is None:
            raise RuntimeError("no scene loaded: call reset(scene) first")
        return self._world

    def reset(self, scene: Scene | str) -> Event:
        """Load a scene (a Scene, or a name for the scene lookup) in its initial state."""
        if isinstance(scene, str):
            if self.scene_lookup is None:
                raise UserError(f"cannot load scene {scene!r} by name: this controller was made without a "
                                "scene lookup", ExitCode.NOT_FOUND)
            scene = self.scene_lookup(scene)
        if not isinstance(scene, Scene):
            raise TypeError(f"reset() takes a Scene or a scene name, got {type(scene).__name__}")
        self._scene = scene
        self._world = World(scene)
        if scene.camera is not None:
            self.field_of_view, self.camera_y_offset = scene.camera.field_of_view, scene.camera.height
        else:
            self.field_of_view = self.configured_field_of_view
            self.camera_y_offset = self.configured_camera_y_offset
        self._world.camera_y_offset = self.camera_y_offset
        self._sight_key = None
        self._sight = None
        self.last_action = {"action": "Reset"}
        self.last_event = self._event("", True, "", None)
        return self.last_event

    def step(self, action: dict[str, Any] | str | None = None, **kwargs: Any) -> Event:
        """Execute one action: ``step({"action": "MoveAhead"})`` or ``step(action="MoveAhead")``."""
        if isinstance(action, dict):
            request = {**action, **kwargs}
        elif isinstance(action, str):
            request = {"action": action, **kwargs}
        elif action is None:
            request = dict(kwargs)
        else:
            request = {"action": action}
        name = request.get("action")
        self.last_action = request
        if self._world is None:
            raise RuntimeError("no scene loaded: call reset(scene) first")
        try:
            entry = ACTIONS.get(name) if isinstance(name, str) else None
            if entry is None:
                raise ActionFailed(f"Unknown action {name!r}")
            handler, accepted = entry
            unknown = sorted(set(request) - accepted - COMMON_ARGS)
            if unknown:
                raise ActionFailed(f"{name} does not take argument(s) {', '.join(map(repr, unknown))}")
            force = request.get("forceAction", False)
            if not isinstance(force, bool):
                raise ActionFailed(f"argument 'forceAction' must be true or false, got {force!r}")
            result = handler(self, request)
        except ActionFailed as failure:
            self.last_event = self._failed_event(str(name), str(failure))
            return self.last_event
        self.last_event = self._event(str(name), True, "", result)
        return self.last_event

    def stop(self) -> None:
        """Release the scene (nothing to shut down: lite runs in-process)."""
        self._world = None
        self._scene = None

    # --- sight ----------------------------------------------------------------------------------
    def camera(self) -> Camera:
        """The current camera: position (agent y + camera offset), yaw, pitch, fov and frame size."""
        return self.world.camera(self.field_of_view, self.width, self.height)

    def visibility_state(self) -> tuple[np.ndarray, np.ndarray]:
        """(visible, distance) over ``world.objects`` for the current state (cached)."""
        return self._state_sight()()

    def _state_sight(self) -> Sight:
        """The current state's visibility, worked out on first call and then kept (one per state)."""
        world = self.world
        a = world.agent
        key = (id(world), world.version, a.x, a.y, a.z, a.rotation, a.horizon, world.camera_y_offset,
               self.visibility_distance, self.field_of_view, self.width, self.height)
        if key != self._sight_key or self._sight is None:
            self._sight = _once(self._compute_visibility())
            self._sight_key = key
        return self._sight

    def _compute_visibility(self) -> Sight:
        """The single place visibility is decided: delegates to the pluggable model."""
        return prepare_sight(self.visibility, self.world, self.camera(), self.visibility_distance)

    # --- events ---------------------------------------------------------------------------------
    def _head(self, name: str, success: bool, error: str, result: Any) -> dict[str, Any]:
        world = self.world
        camera = world.camera(self.field_of_view, self.width, self.height)
        return {
            "agent": world.agent_metadata(),
            "inventoryObjects": world.inventory(),
            "lastAction": name,
            "lastActionSuccess": success,
            "errorMessage": error,
            "actionReturn": result,
            "sceneName": self.scene.name,
            "screenWidth": self.width,
            "screenHeight": self.height,
            "cameraPosition": {"x": camera.x, "y": round(camera.y, 5), "z": camera.z},
            "fov": self.field_of_view,
        }

    def _images(self) -> dict[str, Any] | Callable[[], dict[str, Any]] | None:
        """The step's image fields; lite's own renderer draws RGB and depth when they are first
        read (a probe, a setup step or an action executed again after a rewind draws none)."""
        if self.renderer is None:
            return None
        if self.pixels is not None and self.renderer == self.pixels.images:
            return self.pixels.images_later(self)
        return self.renderer(self)

    def _event(self, name: str, success: bool, error: str, result: Any) -> Event:
        # Images first: when they are drawn now, visibility reuses their render of this state (a
        # deferred frame drawn before visibility is read is reused as well).
        images = self._images()
        head = self._head(name, success, error, result)
        return Event(head, self.world.listing(), self._state_sight(), images)

    def _failed_event(self, name: str, error: str) -> Event:
        """A failed step: the state (and its visibility) is the previous one; only the head differs."""
        return self._event(name, False, error, None)


def _once(sight: Sight) -> Sight:
    """``sight`` worked out on the first call only (an event and the actions share it). Asked for
    some objects only (:func:`~alfred_gen.sim.visibility.visible_among`) before that, it draws just
    those and keeps nothing; after it, it reads the kept answer."""
    done: list[tuple[np.ndarray, np.ndarray]] = []

    def cached() -> tuple[np.ndarray, np.ndarray]:
        if not done:
            done.append(sight())
        return done[0]

    def some(rows: np.ndarray) -> np.ndarray:
        if done:
            return done[0][0] & rows
        return visible_among(sight, rows)

    return PartialSight(cached, some)
