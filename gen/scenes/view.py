"""What the agent sees from a pose in a (static) scene, through the `lite` renderer.

The scene is turned into the renderer's box list as the simulator draws it at load time: walls,
then every object as its type's shape (closed), plus its drawing parts. Used by
``alfred-gen scenes show --pose`` and to check interaction poses by pixels (a target is visible
when at least 10 pixels of it are in the instance frame and it is within 1.5 m).
"""

from __future__ import annotations

from alfred_gen.sim.scene import Box, Pose, Scene


def scene_boxes(scene: Scene):  # -> alfred_gen.sim.render.BoxList
    """The renderer's BoxList of a scene in its initial state (everything closed)."""
    from alfred_gen.sim.palette import type_color
    from alfred_gen.sim.render import BoxListBuilder

    builder = BoxListBuilder()
    wall_owner = builder.owner("Wall")
    for wall in scene.walls:
        builder.add_box(wall, type_color("Wall", "Wall"), wall_owner)
    for obj in scene.objects:
        facing = int(round(obj.rotation[1])) % 360
        index = builder.add_object(obj.object_type, obj.object_id, obj.box, facing=facing)
        for part in obj.parts:
            builder.add_box(part, type_color(obj.object_type, obj.object_id), index)
    lo_x = min(w.lo[0] for w in scene.walls)
    hi_x = max(w.hi[0] for w in scene.walls)
    lo_z = min(w.lo[2] for w in scene.walls)
    hi_z = max(w.hi[2] for w in scene.walls)
    height = max(w.hi[1] for w in scene.walls)
    builder.set_room(Box((lo_x, scene.floor_y, lo_z), (hi_x, height, hi_z)))
    return builder.build()


def camera_for(scene: Scene, pose: Pose):  # -> alfred_gen.sim.camera.Camera
    from alfred_gen.scenes.grid import CAMERA_OFFSET
    from alfred_gen.sim.camera import Camera

    return Camera(pose.x, scene.agent_y + CAMERA_OFFSET, pose.z, float(pose.rotation), float(pose.horizon))


def render_view(scene: Scene, pose: Pose, boxes=None):  # -> alfred_gen.sim.render.Frames
    """RGB, depth and owner frames of the view from ``pose``."""
    from alfred_gen.sim.render import render

    return render(camera_for(scene, pose), boxes if boxes is not None else scene_boxes(scene))


def target_pixels(scene: Scene, pose: Pose, object_id: str, boxes=None) -> int:
    """How many pixels of ``object_id`` the view from ``pose`` shows."""
    import numpy as np

    frames = render_view(scene, pose, boxes)
    owners = list(frames.owners)
    if object_id not in owners:
        return 0
    return int(np.count_nonzero(frames.owner == owners.index(object_id)))
