"""Stepping lite in tests: assert an action succeeds, or fails with a message and changes nothing."""

from __future__ import annotations

import json
import random

from alfred_gen.sim.lite import LiteController

VOLATILE = ("lastAction", "lastActionSuccess", "errorMessage", "actionReturn")


def state(sim: LiteController) -> str:
    """The metadata minus what describes the last action itself."""
    meta = {k: v for k, v in sim.last_event.metadata.items() if k not in VOLATILE}
    return json.dumps(meta, sort_keys=True)


def ok(sim: LiteController, action: dict | str, **kwargs):
    event = sim.step(action, **kwargs)
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]
    assert event.metadata["errorMessage"] == ""
    return event


def fails(sim: LiteController, action: dict | str, expect: str = "", **kwargs) -> str:
    before = state(sim)
    event = sim.step(action, **kwargs)
    assert event.metadata["lastActionSuccess"] is False
    message = event.metadata["errorMessage"]
    assert message
    assert expect.lower() in message.lower(), message
    assert state(sim) == before, "a failed action changed the state"
    return message


def oid(sim: LiteController, kind: str) -> str:
    ids = [o["objectId"] for o in sim.last_event.metadata["objects"] if o["objectType"] == kind]
    assert ids, kind
    return ids[0]


def obj(sim: LiteController, object_id: str) -> dict:
    return next(o for o in sim.last_event.metadata["objects"] if o["objectId"] == object_id)


def go(sim: LiteController, x: float, z: float, rotation: int, horizon: float = 30) -> None:
    ok(sim, "TeleportFull", x=x, y=0.9, z=z, rotation=rotation, horizon=horizon)


def agent_pose(sim: LiteController) -> tuple[float, float, float, float]:
    a = sim.last_event.metadata["agent"]
    return (a["position"]["x"], a["position"]["z"], a["rotation"]["y"], a["cameraHorizon"])


def random_step(sim: LiteController, rng: random.Random):
    """One step of a seeded random walk: a move or turn (60%), else an interaction with an object in
    view (None when nothing is in view). The lazy-frame and lazy-sight tests walk with it."""
    if rng.random() < 0.6:
        return sim.step({"action": rng.choice(["MoveAhead", "RotateLeft", "RotateRight", "LookDown", "LookUp"])})
    visible, _ = sim.visibility_state()
    ids = [o.object_id for o, v in zip(sim.world.objects, visible.tolist(), strict=True) if v]
    if not ids:
        return None
    return sim.step({"action": rng.choice(["PickupObject", "PutObject", "OpenObject", "CloseObject"]),
                     "objectId": rng.choice(ids)})


def put_held_at_yaw(sim: LiteController, kind: str, yaw: float, pose: tuple[float, float, float, float],
                    receptacle_id: str) -> float:
    """Hold the room's ``kind`` at ``yaw`` (taken off where it lies), put it into ``receptacle_id``
    from ``pose`` (x, z, rotation, horizon); its yaw after."""
    world = sim.world
    thing = world.by_id[oid(sim, kind)]
    world.detach(thing)
    world.set_rotation(thing, yaw)
    world.held = thing.object_id
    world.sight_changed()
    go(sim, pose[0], pose[1], int(pose[2]), pose[3])
    ok(sim, "PutObject", objectId=thing.object_id, receptacleObjectId=receptacle_id)
    return thing.rotation[1]
