"""Hand-written trajectories on the fixture kitchen, shared by the replay tests and bench/replay.py.

Each is a real, replayable traj_data.json built by :func:`alfred_gen.replay.scripted.scripted_trajectory`
(``LiteFixtureKitchen`` resolves by name in replay, so the CLI can replay these files too).
"""

from __future__ import annotations

from typing import Any

import copy

from alfred_gen.replay.restore import make_replay_controller, resolve_scene
from alfred_gen.replay.scripted import images_index, scripted_trajectory
from alfred_gen.sim.lite import LiteController
from alfred_gen.tasks import TaskSpec

SCENE = "LiteFixtureKitchen"
MUG = "Mug|00.00|+00.95|+02.10"
MICROWAVE = "Microwave|-02.00|+00.90|+02.23"
COUNTER = "CounterTop|-00.70|00.00|+02.20"
START = {"action": "TeleportFull", "x": 0.0, "y": 0.9009997, "z": 1.5, "rotation": 0, "horizon": 30,
         "rotateOnTeleport": True}


def act(name: str, **args: Any) -> dict[str, Any]:
    return {"action": name, **args}


def heat_mug_actions() -> list[dict[str, Any]]:
    """Take the mug from the counter, heat it in the microwave, put it back on the counter."""
    return [
        act("PickupObject", objectId=MUG), act("RotateLeft"), *[act("MoveAhead")] * 8,
        act("RotateRight"), act("LookUp"), act("LookUp"),
        act("OpenObject", objectId=MICROWAVE),
        act("PutObject", objectId=MUG, receptacleObjectId=MICROWAVE),
        act("CloseObject", objectId=MICROWAVE),
        act("ToggleObjectOn", objectId=MICROWAVE),
        act("ToggleObjectOff", objectId=MICROWAVE),
        act("OpenObject", objectId=MICROWAVE),
        act("PickupObject", objectId=MUG),
        act("CloseObject", objectId=MICROWAVE),
        act("RotateRight"), *[act("MoveAhead")] * 4, act("RotateLeft"), act("LookDown"), act("LookDown"),
        act("PutObject", objectId=MUG, receptacleObjectId=COUNTER),
    ]


#: Index of the OpenObject before the first PutObject into the microwave.
OPEN_MICROWAVE_IDX = 13


def heat_mug_trajectory() -> dict[str, Any]:
    """pick_heat_then_place_in_recep (Mug -> CounterTop) on the fixture kitchen: replays and succeeds."""
    return scripted_trajectory(SCENE, TaskSpec("pick_heat_then_place_in_recep", "Mug", "CounterTop"),
                               heat_mug_actions(), START)


def without_action(traj: dict[str, Any], low_idx: int) -> dict[str, Any]:
    """A copy of ``traj`` with one low action deleted (and its ``images`` index redone)."""
    broken = copy.deepcopy(traj)
    del broken["plan"]["low_actions"][low_idx]
    broken["images"] = images_index(broken["plan"]["low_actions"])
    return broken


def live_renderer(sim: LiteController) -> dict[str, Any]:
    """Images of the live world through lite's box renderer, as a controller ``renderer=``.

    A stand-in until lite fills its Event itself: walls, the room shell and every present object
    (open or closed, with its parts) in the current state, seen from the agent's camera.
    """
    from alfred_gen.sim.camera import Camera
    from alfred_gen.sim.palette import type_color
    from alfred_gen.sim.render import BoxListBuilder, instance_outputs, render
    from alfred_gen.sim.scene import Box

    world = sim.world
    builder = BoxListBuilder()
    wall = builder.owner("Wall")
    for object_id, boxes, kind in world.render_boxes():
        if object_id is None:
            for box in boxes:
                builder.add_box(box, type_color("Wall", "Wall"), wall)
            continue
        obj = world.by_id[object_id]
        index = builder.add_object(kind, object_id, boxes[0], is_open=bool(obj.is_open),
                                   facing=int(round(obj.rotation[1])) % 360)
        for part in boxes[1:]:
            builder.add_box(part, type_color(kind, object_id), index)
    walls = sim.scene.walls
    builder.set_room(Box((min(w.lo[0] for w in walls), sim.scene.floor_y, min(w.lo[2] for w in walls)),
                         (max(w.hi[0] for w in walls), max(w.hi[1] for w in walls), max(w.hi[2] for w in walls))))
    agent = world.agent
    camera = Camera(agent.x, agent.y + world.camera_y_offset, agent.z, float(agent.rotation), float(agent.horizon),
                    sim.field_of_view, sim.width, sim.height)
    frames = render(camera, builder.build())
    instances = instance_outputs(frames.owner, frames.owners)
    return {"frame": frames.rgb, "depth_frame": frames.depth,
            "instance_segmentation_frame": instances.instance_segmentation_frame,
            "instance_masks": instances.instance_masks, "color_to_object_id": instances.color_to_object_id}


def renders_in_event() -> bool:
    """Whether lite's own renderer fills the Event (then :func:`live_renderer` is not needed)."""
    event = make_replay_controller(render=True, segmentation=True).reset(SCENE)
    return event.frame is not None and event.instance_masks is not None


def rendering_controller() -> LiteController:
    """A lite controller giving RGB, depth and segmentation: its own renderer, else the stand-in."""
    if renders_in_event():
        return make_replay_controller(render=True, depth=True, segmentation=True)
    return LiteController(scene_resolver=resolve_scene, renderer=live_renderer)


#: Task type -> procedural scenes to look for a feasible tuple in (room types ALFRED uses for it).
TASK_SCENES = {
    "pick_and_place_simple": (1, 2),
    "pick_two_obj_and_place": (1, 2),
    "look_at_obj_in_light": (201, 301),
    "pick_clean_then_place_in_recep": (1, 2),
    "pick_heat_then_place_in_recep": (1, 2),
    "pick_cool_then_place_in_recep": (1, 2),
    "pick_and_place_with_movable_recep": (1, 2),
}


def generate_example(task_type: str, out: Any, frames: bool) -> tuple[Any, list[str]]:
    """Generate one trajectory of ``task_type`` under ``out`` with the real generator.

    Tries a few feasible tuples and seeds; returns (trial directory or None, what was tried).
    """
    from alfred_gen import feasibility, generate

    tuples = feasibility.feasible_tuples([task_type], TASK_SCENES[task_type])
    tried = []
    for n, t in enumerate(tuples[:: max(1, len(tuples) // 4)][:4]):
        for seed in range(4):
            result = generate.generate_trajectory(
                t.to_task_spec(), t.scene, seed, out, f"trial_T{n}_{seed}", controller=rendering_controller(),
                frames=frames, time_limit=30)
            if result.ok:
                return result.path, tried
            tried.append(f"{t.dir_name()} seed {seed}: {result.describe()}")
    return None, tried
