"""A small valid trajectory in ALFRED's shape, built by hand (no reference data needed)."""

from __future__ import annotations


def make_trajectory() -> dict:
    """A small valid trajectory in ALFRED's shape, built by hand (no reference data needed)."""
    interaction = {
        "mask": [[30050, 3], [30350, 3], [40000, 10], [50000, 5]],
        "bbox": [50, 101, 52, 102],
        "point": [51, 100],
    }
    return {
        "task_id": "trial_T20240101_000000_000001",
        "task_type": "pick_and_place_simple",
        "scene": {
            "floor_plan": "FloorPlan1",
            "scene_num": 1,
            "random_seed": 42,
            "init_action": {
                "action": "TeleportFull", "x": 0.25, "y": 0.9, "z": -1.5,
                "rotation": 90, "horizon": 30, "rotateOnTeleport": True,
            },
            "object_poses": [
                {"objectName": "Apple_1", "position": {"x": 1.0, "y": 0.9, "z": 0.5},
                 "rotation": {"x": 0.0, "y": 270.0, "z": 0.0}},
            ],
            "object_toggles": [{"objectType": "DeskLamp", "isOn": False}],
            "dirty_and_empty": False,
        },
        "plan": {
            "high_pddl": [
                {"high_idx": 0,
                 "planner_action": {"action": "GotoLocation", "location": "loc|1|-6|1|30"},
                 "discrete_action": {"action": "GotoLocation", "args": ["countertop"]}},
                {"high_idx": 1,
                 "planner_action": {"action": "PickupObject", "objectId": "Apple|+01.00|+00.90|+00.50",
                                    "coordinateObjectId": ["Apple", [1.0, 0.9, 0.5]],
                                    "forceVisible": True},
                 "discrete_action": {"action": "PickupObject", "args": ["apple"]}},
                {"high_idx": 2, "planner_action": {"action": "End", "value": 1},
                 "discrete_action": {"action": "NoOp", "args": []}},
            ],
            "low_actions": [
                {"high_idx": 0,
                 "api_action": {"action": "MoveAhead", "forceAction": True, "moveMagnitude": 0.25},
                 "discrete_action": {"action": "MoveAhead_25", "args": {}}},
                {"high_idx": 1,
                 "api_action": {"action": "PickupObject", "objectId": "Apple|+01.00|+00.90|+00.50"},
                 "discrete_action": {"action": "PickupObject", "args": interaction}},
            ],
        },
        "images": [
            {"low_idx": 0, "high_idx": 0, "image_name": "000000000.png"},
            {"low_idx": 1, "high_idx": 1, "image_name": "000000001.png"},
        ],
        "pddl_params": {
            "object_target": "Apple", "object_sliced": False, "parent_target": "CounterTop",
            "toggle_target": "", "mrecep_target": "",
        },
        "template": {"task_desc": "Pick up the apple.", "high_descs": ["Go.", "Pick.", "Done."]},
    }
