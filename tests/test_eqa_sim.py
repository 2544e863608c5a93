"""What EQA adds below it: lite's opt-in per-instance colours, an object's pixels from any pose,
the scene block's color_variation key, and view goals checked by replay."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.eqa.views import LiteViewSource, SteppedViewSource, best_view, candidate_poses
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.replay.goals import TrajectoryGoal, ViewGoal, goal_block, trajectory_goal, trajectory_goal_status
from alfred_gen.replay.restore import restore_scene
from alfred_gen.scenes.library import get_house, simulator
from alfred_gen.sim.palette import TYPE_FINISHES, type_color, varied_color
from alfred_gen.sim.scene import CAMERA_Y_OFFSET, Pose

HOUSE = "LiteHouse5"


@pytest.fixture(scope="module")
def house():
    return get_house(HOUSE)


def _frame(controller, pose: Pose):
    event = controller.step({"action": "TeleportFull", "x": pose.x, "y": 0.9009997, "z": pose.z,
                             "rotation": pose.rotation, "horizon": pose.horizon})
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    return event


def _sofa_pose(scene) -> tuple[str, Pose]:
    sofa = next(o for o in scene.objects if o.object_type == "Sofa")
    return sofa.object_id, scene.interaction_poses.get(sofa.object_id) or Pose(*scene.reachable[0], 0, 30)


def test_colour_variation_is_off_unless_asked_and_changes_only_colours(house) -> None:
    controller = simulator().open(render=True, segmentation=True)
    controller.reset(HOUSE)
    sofa_id, pose = _sofa_pose(house)
    plain = _frame(controller, pose)
    plain_rgb, plain_seg = plain.frame.copy(), plain.instance_segmentation_frame.copy()
    controller.reset(HOUSE)
    switched_off = controller.step({"action": "SetColorVariation", "enabled": False})
    assert switched_off.metadata["lastActionSuccess"]
    assert np.array_equal(_frame(controller, pose).frame, plain_rgb)  # off: byte for byte as before
    varied = controller.step({"action": "SetColorVariation", "enabled": True})
    assert varied.metadata["lastActionSuccess"]
    event = _frame(controller, pose)
    assert np.array_equal(event.instance_segmentation_frame, plain_seg)  # the same pixels per object
    masks = event.instance_masks
    for object_id, mask in masks.items():
        object_type = object_id.split("|")[0]
        if object_type in TYPE_FINISHES or not mask.any() or object_type in ("Wall", "Floor", "Ceiling"):
            continue
        assert np.array_equal(event.frame[mask], plain_rgb[mask]), object_type  # no finishes: its colour kept
    sofa = masks[sofa_id]
    assert sofa.any() and not np.array_equal(event.frame[sofa], plain_rgb[sofa])  # a sofa takes a finish
    assert event.metadata["objects"] == plain.metadata["objects"]  # nothing but pixels changes
    bad = controller.step({"action": "SetColorVariation", "enabled": "yes"})
    assert not bad.metadata["lastActionSuccess"]


def test_varied_colours_are_stable_finishes() -> None:
    assert varied_color("Sofa", "Sofa|+01.00|+00.00|-02.00") == varied_color("Sofa", "Sofa|+01.00|+00.00|-02.00")
    assert varied_color("Apple", "Apple|+01.00|+00.90|-02.00") == type_color("Apple", "Apple|+01.00|+00.90|-02.00")
    sofas = {varied_color("Sofa", f"Sofa|+0{i}.00|+00.00|-02.00") for i in range(10)}
    assert len(sofas) > 3  # sofas of many colours, unlike their type colour


def test_the_scene_block_key_restores_the_colours(house) -> None:
    controller = simulator().open(render=True)
    _, pose = _sofa_pose(house)
    block = {"floor_plan": HOUSE, "scene_num": house.scene_num, "random_seed": 0, "object_poses": [],
             "object_toggles": [], "dirty_and_empty": False,
             "init_action": {"action": "TeleportFull", "x": pose.x, "y": 0.9009997, "z": pose.z,
                             "rotation": pose.rotation, "horizon": pose.horizon, "rotateOnTeleport": True}}
    plain = restore_scene(controller, block).frame.copy()
    varied = restore_scene(controller, {**block, "color_variation": True}).frame.copy()
    assert np.array_equal(restore_scene(controller, {**block, "color_variation": False}).frame, plain)
    assert not np.array_equal(varied, plain)
    with pytest.raises(UserError) as caught:
        restore_scene(controller, {**block, "color_variation": "yes"})
    assert caught.value.code == ExitCode.BAD_INPUT


@pytest.mark.slow  # ~11 s each on a busy 2-core machine (the fast lane's --durations)
def test_object_pixels_from_any_pose_equal_the_full_frame(house) -> None:
    fast = simulator().open()
    fast.reset(HOUSE)
    fast.step({"action": "SetColorVariation", "enabled": True})
    full = simulator().open(render=True, segmentation=True)
    full.reset(HOUSE)
    full.step({"action": "SetColorVariation", "enabled": True})
    lite, stepped = LiteViewSource(fast), SteppedViewSource(full, 0.9009997)
    camera_y = 0.9009997 + CAMERA_Y_OFFSET
    checked = 0
    for obj in [o for o in house.objects if o.object_type in ("Sofa", "Fridge", "Bed", "Toilet", "Laptop")]:
        lo, hi = obj.box.lo, obj.box.hi
        for _, pose in candidate_poses(lo, hi, house.reachable, camera_y)[:12]:
            mask_a, rgb_a = lite.object_pixels(pose, obj.object_id, rgb=True)
            mask_b, rgb_b = stepped.object_pixels(pose, obj.object_id, rgb=True)
            assert np.array_equal(mask_a, mask_b), (obj.object_id, pose)
            if mask_a.any():
                assert np.array_equal(rgb_a[mask_a], rgb_b[mask_b])
                checked += 1
    assert checked > 10


def test_the_best_view_is_the_candidate_with_most_pixels(house) -> None:
    controller = simulator().open()
    controller.reset(HOUSE)
    source = LiteViewSource(controller)
    fridge = next(o for o in house.objects if o.object_type == "Fridge")
    camera_y = 0.9009997 + CAMERA_Y_OFFSET
    view = best_view(source, fridge.object_id, fridge.box.lo, fridge.box.hi, house.reachable, camera_y)
    assert view is not None
    candidates = [pose for _, pose in candidate_poses(fridge.box.lo, fridge.box.hi, house.reachable, camera_y)]
    counts = [int(source.object_pixels(pose, fridge.object_id)[0].sum()) for pose in candidates]
    assert view.pixels >= max(counts)  # at least the best centred candidate (refinement may add tilts)
    tried = {(p.x, p.z, p.rotation) for p in candidates}
    assert (view.pose.x, view.pose.z, view.pose.rotation) in tried
    assert int(source.object_pixels(view.pose, fridge.object_id)[0].sum()) == view.pixels


def test_a_view_goal_pins_rotation_and_horizon() -> None:
    at = {"agent": {"position": {"x": 1.0, "y": 0.9, "z": 2.0}, "rotation": {"y": 90.0}, "cameraHorizon": 30.0}}
    goal = ViewGoal(90.0, 30.0)
    assert goal.holds(at)
    assert ViewGoal(450.0, 30.0).holds(at)  # rotations modulo 360
    assert not ViewGoal(90.0, 15.0).holds(at) and not ViewGoal(180.0, 30.0).holds(at)
    block = goal_block(False, None, goal)
    assert trajectory_goal({"goal": block}) == TrajectoryGoal(False, None, goal)
    task = TaskSpec.from_pddl_params("eqa_color", {"object_target": "Sofa"})
    status = trajectory_goal_status(TrajectoryGoal(False, None, ViewGoal(0.0, 30.0)), task, at)
    assert (status.satisfied, status.total) == (0, 1) and "turned to 0" in status.missing[0]
    with pytest.raises(UserError) as caught:
        trajectory_goal({"goal": {"task_conditions": False, "agent_view": {"rotation": 90}}})
    assert caught.value.code == ExitCode.BAD_INPUT


def test_object_view_of_an_object_out_of_view_renders_nothing(house, monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    rendered = []
    original = pixels.render_state
    monkeypatch.setattr(pixels, "render_state", lambda *a, **k: rendered.append(1) or original(*a, **k))
    controller = simulator().open()
    controller.reset(HOUSE)
    fridge = next(o for o in house.objects if o.object_type == "Fridge")
    fx, _, fz = fridge.box.center
    x, z = max(house.reachable, key=lambda p: (p[0] - fx) ** 2 + (p[1] - fz) ** 2)
    facing_away = (90 * round(math.degrees(math.atan2(fx - x, fz - z)) / 90) + 180) % 360
    camera = dataclasses.replace(controller.camera(), x=x, z=z, rotation_deg=float(facing_away), horizon_deg=0.0)
    rendered.clear()  # the reset's own visibility render
    mask, rgb = controller.pixels.object_view(controller.world, camera, fridge.object_id)
    assert not mask.any() and rgb is None and not rendered
    bearing = math.degrees(math.atan2(fx - x, fz - z))
    toward = dataclasses.replace(camera, rotation_deg=float(90 * round(bearing / 90) % 360))
    controller.pixels.object_view(controller.world, toward, fridge.object_id)
    assert rendered  # the same call renders when the object may be in view


def test_a_restored_eqa_start_shows_the_home_as_built() -> None:
    """The facts' views are taken in the home as built; a path's start is restored from its scene
    block. Both must draw the same frame, furniture with parts (a dresser and its drawers) included."""
    from alfred_gen.eqa.facts import open_home
    from alfred_gen.eqa.paths import pickupable_poses
    from alfred_gen.scenes import get_house

    # A home with a dresser, and the pose its builder chose to face it (derived: houses change).
    number = next(n for n in range(12, 40) if any(o.object_type == "Dresser" for o in get_house(n).objects))
    scene = get_house(number)
    dresser_id = next(o.object_id for o in scene.objects if o.object_type == "Dresser")
    controller = simulator().open(render=True, segmentation=True)
    event = open_home(controller, scene.name, color_variation=True)
    names = {o["name"]: o for o in event.metadata["objects"]}
    poses = pickupable_poses(event.metadata)
    assert poses and all(names[p["objectName"]]["pickupable"] for p in poses)
    assert len(poses) == sum(1 for o in event.metadata["objects"] if o["pickupable"] and not o.get("isSliced"))
    pose = scene.interaction_poses[dresser_id]
    built = _frame(controller, pose)
    block = {"floor_plan": scene.name, "scene_num": scene.scene_num, "random_seed": 0, "object_poses": poses,
             "object_toggles": [], "dirty_and_empty": False, "color_variation": True,
             "init_action": {"action": "TeleportFull", "x": pose.x, "y": 0.9009997, "z": pose.z,
                             "rotation": pose.rotation, "horizon": pose.horizon, "rotateOnTeleport": True}}
    restored = restore_scene(controller, block)
    assert built.instance_masks[dresser_id].sum() > 1000
    assert np.array_equal(restored.frame, built.frame)
