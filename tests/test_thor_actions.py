"""ALFRED's actions adapted per ai2thor version (the version table): looks, puts, teleports,
toggles, scene setup; unsupported versions refused."""

from __future__ import annotations

import copy

import pytest

pytest.importorskip("ai2thor")


from alfred_gen.sim.thor import (
    Refusal,
    adapt_action,
)
from alfred_gen.sim.thor_versions import THOR_2_1, THOR_5, profile_for_version

# ---------------------------------------------------------------------------------------------
# Action adaptation (the version table)
# ---------------------------------------------------------------------------------------------

AGENT_AT_30 = {
    "agent": {
        "position": {"x": 0.25, "y": 0.9, "z": -0.5},
        "rotation": {"x": 0.0, "y": 90.0, "z": 0.0},
        "cameraHorizon": 30.0,
    },
    "objects": [],
}


def test_2_1_looks_are_15_degree_teleports_in_place() -> None:
    (down,) = adapt_action(THOR_2_1, {"action": "LookDown", "forceAction": True}, AGENT_AT_30)
    assert down == {"action": "TeleportFull", "x": 0.25, "y": 0.9, "z": -0.5, "rotation": 90.0, "horizon": 45.0}
    (up,) = adapt_action(THOR_2_1, {"action": "LookUp", "forceAction": True}, AGENT_AT_30)
    assert up["horizon"] == 15.0 and up["action"] == "TeleportFull"


@pytest.mark.parametrize("profile", [THOR_2_1, THOR_5], ids=["2.1", "5"])
def test_looks_past_the_horizon_limits_are_refused_without_reaching_thor(profile) -> None:
    at = copy.deepcopy(AGENT_AT_30)
    at["agent"]["cameraHorizon"] = 60.0
    assert isinstance(adapt_action(profile, {"action": "LookDown"}, at), Refusal)
    at["agent"]["cameraHorizon"] = -30.0
    assert isinstance(adapt_action(profile, {"action": "LookUp"}, at), Refusal)
    assert not isinstance(adapt_action(profile, {"action": "LookDown"}, at), Refusal)


def test_2_1_passes_alfred_actions_through_unchanged() -> None:
    put = {
        "action": "PutObject",
        "objectId": "Book|-00.76|+00.67|+03.08",
        "receptacleObjectId": "ArmChair|+01.83|+00.01|+01.61",
        "forceAction": True,
        "placeStationary": True,
    }
    assert adapt_action(THOR_2_1, put, AGENT_AT_30) == [put]
    toggles = {"action": "SetObjectToggles", "objectToggles": [{"isOn": False, "objectType": "DeskLamp"}]}
    assert adapt_action(THOR_2_1, toggles, AGENT_AT_30) == [toggles]


def test_5x_put_object_names_only_the_receptacle() -> None:
    put = {
        "action": "PutObject",
        "objectId": "Book|1|2|3",
        "receptacleObjectId": "ArmChair|4|5|6",
        "forceAction": True,
        "placeStationary": True,
    }
    assert adapt_action(THOR_5, put, AGENT_AT_30) == [
        {"action": "PutObject", "objectId": "ArmChair|4|5|6", "forceAction": True, "placeStationary": True}
    ]


def test_5x_teleport_uses_dicts_and_standing() -> None:
    teleport = {
        "action": "TeleportFull",
        "horizon": 30,
        "rotateOnTeleport": True,
        "rotation": 180,
        "x": 0.25,
        "y": 0.901,
        "z": -0.5,
    }
    assert adapt_action(THOR_5, teleport, AGENT_AT_30) == [
        {
            "action": "TeleportFull",
            "position": {"x": 0.25, "y": 0.901, "z": -0.5},
            "rotation": {"x": 0.0, "y": 180.0, "z": 0.0},
            "horizon": 30,
            "standing": True,
        }
    ]


def test_5x_looks_use_degrees_and_drop_force_action() -> None:
    assert adapt_action(THOR_5, {"action": "LookUp", "forceAction": True}, AGENT_AT_30) == [
        {"action": "LookUp", "degrees": 15.0}
    ]


def test_5x_toggle_drops_alfred_bookkeeping_arguments() -> None:
    toggle = {
        "action": "ToggleObjectOn",
        "objectId": "Faucet|-00.58|+01.05|+05.10",
        "cleanObjectId": "Cloth|-01.80|+00.04|+04.83",
        "coordinateObjectId": ["Cloth", [-7.2, -7.2, 19.3, 19.3, 0.15, 0.15]],
        "coordinateReceptacleObjectId": ["SinkBasin", [-2.3, -2.3, 19.5, 19.5, 3.9, 3.9]],
        "forceVisible": True,
    }
    assert adapt_action(THOR_5, toggle, AGENT_AT_30) == [
        {"action": "ToggleObjectOn", "objectId": "Faucet|-00.58|+01.05|+05.10"}
    ]


def test_5x_open_object_move_magnitude_is_openness() -> None:
    assert adapt_action(
        THOR_5, {"action": "OpenObject", "objectId": "Fridge|1|2|3", "moveMagnitude": 1.0}, AGENT_AT_30
    ) == [{"action": "OpenObject", "objectId": "Fridge|1|2|3", "openness": 1.0}]


def test_5x_scene_state_actions_become_per_type_set_object_states() -> None:
    metadata = {
        **AGENT_AT_30,
        "objects": [
            {"objectType": "Mug", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Bowl", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Mug", "dirtyable": True, "canFillWithLiquid": True},
            {"objectType": "Bed", "dirtyable": True, "canFillWithLiquid": False},
            {"objectType": "Apple", "dirtyable": False, "canFillWithLiquid": False},
        ],
    }
    dirty = adapt_action(
        THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeDirty", "forceAction": True}, metadata
    )
    assert [s["SetObjectStates"] for s in dirty] == [
        {"objectType": t, "stateChange": "dirtyable", "isDirty": True} for t in ("Bed", "Bowl", "Mug")
    ]
    empty = adapt_action(
        THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeFilled", "forceAction": False}, metadata
    )
    assert [s["SetObjectStates"] for s in empty] == [
        {"objectType": t, "stateChange": "canFillWithLiquid", "isFilledWithLiquid": False} for t in ("Bowl", "Mug")
    ]
    assert isinstance(
        adapt_action(THOR_5, {"action": "SetStateOfAllObjects", "StateChange": "CanBeUsedUp"}, metadata), Refusal
    )
    toggles = adapt_action(
        THOR_5, {"action": "SetObjectToggles", "objectToggles": [{"isOn": False, "objectType": "DeskLamp"}]}, metadata
    )
    assert toggles == [
        {
            "action": "SetObjectStates",
            "SetObjectStates": {"objectType": "DeskLamp", "stateChange": "toggleable", "isToggled": False},
        }
    ]


def test_5x_initial_random_spawn_arguments() -> None:
    spawn = {
        "action": "InitialRandomSpawn",
        "randomSeed": 7,
        "forceVisible": False,
        "numRepeats": [{"objectType": "Apple", "count": 2}],
        "minFreePerReceptacleType": [
            {"objectType": "Microwave", "count": 100000},
            {"objectType": "Fridge", "count": 100000},
        ],
    }
    assert adapt_action(THOR_5, spawn, AGENT_AT_30) == [
        {
            "action": "InitialRandomSpawn",
            "randomSeed": 7,
            "forceVisible": False,
            "numDuplicatesOfType": [{"objectType": "Apple", "count": 2}],
            "excludedReceptacles": ["Fridge", "Microwave"],
        }
    ]
    # ALFRED passes None when it has no repeats or free slots; 5.x gets no such keys at all.
    bare = adapt_action(
        THOR_5,
        {"action": "InitialRandomSpawn", "randomSeed": 1, "numRepeats": None, "minFreePerReceptacleType": None},
        AGENT_AT_30,
    )
    assert bare == [{"action": "InitialRandomSpawn", "randomSeed": 1}]


def test_version_strings_select_profiles() -> None:
    assert profile_for_version("2.1.0") is THOR_2_1
    assert profile_for_version("5.0.0") is THOR_5
    assert profile_for_version("5.3.1") is THOR_5
    for unsupported in ("2.4.1", "3.3.5", "4.3.0", "6.0.0", "dev"):
        assert profile_for_version(unsupported) is None
