"""Rooms (rung 3): the procedural rooms (``procedural/``) and houses (``houses/``), real THOR rooms imported from ALFRED
(``alfred/``), and finding any of them by name (:mod:`~alfred_gen.scenes.library`: ``find_scene``,
the :class:`~alfred_gen.scenes.library.SceneLibrary` lookup simulators are made with, and
``simulator()``); ``grid`` (reachable points, interaction poses), ``listing``, ``show``, ``topdown``
and ``view`` serve ``alfred-gen scenes``.

``get_scene(7)`` / ``get_scene("LitePlan7")`` returns the procedural kitchen 7 as a
:class:`alfred_gen.sim.scene.Scene`; ``scene_numbers()`` lists the 120 numbers.
``get_scene("LiteHouse5")`` (or ``get_house(5)``) returns procedural house 5.
"""

from alfred_gen.scenes.library import (
    get_house,
    get_scene,
    resolve_house_number,
    resolve_scene_number,
    scene_numbers,
    scene_range,
)

__all__ = ["get_house", "get_scene", "resolve_house_number", "resolve_scene_number", "scene_numbers", "scene_range"]
