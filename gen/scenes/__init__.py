"""Scene library: procedural rooms for the embedded simulator, and importers of real ALFRED scenes.

``get_scene(7)`` / ``get_scene("LitePlan7")`` returns the procedural kitchen 7 as a
:class:`alfred_gen.sim.scene.Scene`; ``scene_numbers()`` lists the 120 numbers.
"""

from alfred_gen.scenes.library import get_scene, resolve_scene_number, scene_numbers

__all__ = ["get_scene", "resolve_scene_number", "scene_numbers"]
