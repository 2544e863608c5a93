"""Scene library: procedural rooms and houses for the embedded simulator, and importers of real ALFRED scenes.

``get_scene(7)`` / ``get_scene("LitePlan7")`` returns the procedural kitchen 7 as a
:class:`alfred_gen.sim.scene.Scene`; ``scene_numbers()`` lists the 120 numbers.
``get_scene("LiteHouse5")`` (or ``get_house(5)``) returns procedural house 5.
"""

from alfred_gen.scenes.library import get_house, get_scene, resolve_house_number, resolve_scene_number, scene_numbers

__all__ = ["get_house", "get_scene", "resolve_house_number", "resolve_scene_number", "scene_numbers"]
