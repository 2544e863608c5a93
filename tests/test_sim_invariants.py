"""Invariants under long random action sequences, and determinism across processes."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from alfred_gen.domains import catalogue
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from tests.helpers import run_python

pytestmark = pytest.mark.slow  # fast lane: 69 s on a loaded 2-core machine (session 73 --durations)

VOLATILE = ("lastAction", "lastActionSuccess", "errorMessage", "actionReturn")
NAVIGATION = ["MoveAhead", "MoveBack", "MoveLeft", "MoveRight", "RotateLeft", "RotateRight", "LookUp", "LookDown"]
INTERACTIONS = ["PickupObject", "PutObject", "OpenObject", "CloseObject", "ToggleObjectOn", "ToggleObjectOff",
                "SliceObject", "CleanObject", "DropHandObject"]
SCENES = [fixtures.kitchen, fixtures.bedroom, fixtures.divided_room]
#: Which metadata flag makes an object a sensible target of each interaction (the random policy
#: mostly picks sensible targets, so the sequences change the world and do not only fail).
CAPABILITY = {"PickupObject": "pickupable", "PutObject": "receptacle", "OpenObject": "openable",
              "CloseObject": "openable", "ToggleObjectOn": "toggleable", "ToggleObjectOff": "toggleable",
              "SliceObject": "sliceable", "CleanObject": "dirtyable"}


def state_json(metadata: dict) -> str:
    return json.dumps({k: v for k, v in metadata.items() if k not in VOLATILE}, sort_keys=True)


def make_action(sim: LiteController, choice: int, target: int, rng_seed: int) -> dict:
    """An action from small integers: navigation, an interaction on some object, or a teleport."""
    objects = sim.last_event.metadata["objects"]
    kind = choice % 20
    held = sim.last_event.metadata["inventoryObjects"]
    if kind in (9, 10) and target % 5:  # usually pick up with an empty hand, put with a full one
        kind = 10 if held else 9
    capability = CAPABILITY.get(INTERACTIONS[kind - 9]) if 9 <= kind < 18 else None
    visible = [
        o["objectId"] for o in objects
        if o["visible"] and (capability is None or o[capability])
        and (kind != 10 or not held or catalogue.can_place(held[0]["objectType"], o["objectType"]))
    ]
    pool = visible if visible and target % 3 else [o["objectId"] for o in objects] + ["Ghost|+00.00|+00.00|+00.00"]
    object_id = pool[target % len(pool)]
    if kind < 9:
        return {"action": NAVIGATION[kind % len(NAVIGATION)]}
    if kind < 18:
        name = INTERACTIONS[kind - 9]
        if name == "DropHandObject":
            return {"action": name}
        if name == "PutObject":
            held = sim.last_event.metadata["inventoryObjects"]
            return {"action": name, "objectId": held[0]["objectId"] if held else object_id,
                    "receptacleObjectId": object_id, "forceAction": True, "placeStationary": True}
        return {"action": name, "objectId": object_id}
    if kind == 18:
        poses = [sim.scene.interaction_poses[k] for k in sorted(sim.scene.interaction_poses)]
        if target % 2 and poses:  # where the receptacles can be reached
            pose = poses[rng_seed % len(poses)]
            return {"action": "TeleportFull", "x": pose.x, "y": 0.9, "z": pose.z, "rotation": pose.rotation,
                    "horizon": pose.horizon}
        points = sim.scene.reachable
        x, z = points[rng_seed % len(points)]
        return {"action": "TeleportFull", "x": x, "y": 0.9, "z": z, "rotation": 90 * (target % 4),
                "horizon": [-30, 0, 30, 60][rng_seed % 4]}
    return {"action": "InitialRandomSpawn", "randomSeed": rng_seed}


def check_invariants(sim: LiteController) -> None:
    meta = sim.last_event.metadata
    objects = meta["objects"]
    by_id = {o["objectId"]: o for o in objects}
    assert len(by_id) == len(objects), "object ids are unique"
    held = [o for o in objects if o["isPickedUp"]]
    assert len(held) == len(meta["inventoryObjects"]) <= 1
    if held:
        assert held[0]["objectId"] == meta["inventoryObjects"][0]["objectId"]
        assert held[0]["parentReceptacles"] is None, "a held object has no parent"
    for o in objects:
        parents = o["parentReceptacles"] or []
        assert len(parents) == len(set(parents))
        for p in parents:
            assert o["objectId"] in by_id[p]["receptacleObjectIds"], (o["objectId"], p)
        if o["receptacle"]:
            for inside in o["receptacleObjectIds"]:
                assert o["objectId"] in (by_id[inside]["parentReceptacles"] or []), (inside, o["objectId"])
        else:
            assert o["receptacleObjectIds"] is None
        if o["visible"]:
            assert o["distance"] <= sim.visibility_distance + 1e-9
            assert not o["isSliced"] and not o["isPickedUp"]
            for p in parents:
                t = catalogue.object_type(by_id[p]["objectType"])
                assert not (t.encloses and not by_id[p]["isOpen"]), "contents of a closed receptacle are hidden"
        if o["isSliced"]:
            assert o["parentReceptacles"] is None and not o["receptacleObjectIds"]
    # World level: every object sits in at most one place, and links agree both ways.
    world = sim.world
    placed: dict[str, str] = {}
    for r in world.objects:
        for child in r.children:
            assert child not in placed, f"{child} is in two places"
            placed[child] = r.object_id
            assert world.by_id[child].parent == r.object_id
    for o in world.objects:
        if o.parent is not None:
            assert placed[o.object_id] == o.parent
        assert not (o.object_id == world.held and o.parent is not None)


def run(scene_index: int, steps: list[tuple[int, int, int]], check: bool = True) -> list[str]:
    sim = LiteController(SCENES[scene_index % len(SCENES)]())
    outputs = [json.dumps(sim.last_event.metadata, sort_keys=True)]
    for choice, target, seed in steps:
        before = state_json(sim.last_event.metadata)
        action = make_action(sim, choice, target, seed)
        event = sim.step(action)
        meta = event.metadata
        if not meta["lastActionSuccess"]:
            assert meta["errorMessage"]
            assert state_json(meta) == before, f"failed {action} changed the state"
        if check:
            check_invariants(sim)
        outputs.append(json.dumps(meta, sort_keys=True))
    return outputs


step_lists = st.lists(
    st.tuples(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 1_000)), min_size=1, max_size=80
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene_index=st.integers(0, 2), steps=step_lists)
def test_invariants_hold_under_random_actions(scene_index: int, steps: list[tuple[int, int, int]]) -> None:
    run(scene_index, steps)


def _seeded_steps(seed: int, n: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    # Mostly interactions on visible objects, so the world keeps changing.
    return [(rng.choice([0, 2, 4, 5, 6, 9, 9, 10, 10, 11, 12, 13, 14, 15, 16, 17, 18, 18]), rng.randrange(1, 10_000),
             rng.randrange(1000)) for _ in range(n)]


@pytest.mark.slow  # ~11 s each on a busy 2-core machine (the fast lane's --durations)
def test_long_seeded_sequences_keep_invariants_and_succeed_often() -> None:
    for scene_index in range(3):
        outputs = run(scene_index, _seeded_steps(scene_index, 400))
        events = [json.loads(o) for o in outputs[1:]]
        changed = [e["lastAction"] for e in events if e["lastActionSuccess"] and e["lastAction"] in INTERACTIONS]
        # The walk really changes the world (picks up, puts, opens...), it does not only fail.
        assert len(changed) >= 10 and {"PickupObject", "PutObject"} <= set(changed)


def test_same_actions_same_bytes() -> None:
    steps = _seeded_steps(7, 200)
    assert run(0, steps, check=False) == run(0, steps, check=False)


_SCRIPT = """
import hashlib
from tests.test_sim_invariants import run, _seeded_steps
digest = hashlib.sha256()
for index in range(3):
    for line in run(index, _seeded_steps(100 + index, 120), check=False):
        digest.update(line.encode())
print(digest.hexdigest())
"""


def test_byte_identical_across_processes_and_hash_seeds() -> None:
    digests = {run_python(_SCRIPT, env={"PYTHONHASHSEED": hash_seed}).stdout.strip() for hash_seed in ("0", "1")}
    local = hashlib.sha256()
    for index in range(3):
        for line in run(index, _seeded_steps(100 + index, 120), check=False):
            local.update(line.encode())
    digests.add(local.hexdigest())
    assert len(digests) == 1, digests
