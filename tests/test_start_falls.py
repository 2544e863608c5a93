"""Start poses THOR's physics lets fall: the zones an imported room learns from its first pickups'
masks, and SetObjectPoses putting an object posed in one on the floor where it landed."""

from __future__ import annotations

import math
from dataclasses import replace

from alfred_gen.scenes.alfred.sight_facts import SightFact
from alfred_gen.scenes.alfred.start_falls import fall_zones
from alfred_gen.sim import fixtures
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Scene
from alfred_gen.sim.start_falls import FallZone, fallen_zone
from tests.helpers.sim_actions import ok

EYE = (-2.0, 1.575, 1.0)
KNIFE = "Knife_298dd93a"


def _ray_to(point: tuple[float, float, float]) -> tuple[float, float, float]:
    d = [p - e for p, e in zip(point, EYE)]
    n = math.sqrt(sum(c * c for c in d))
    return (d[0] / n, d[1] / n, d[2] / n)


def _first_pickup(name: str, pose: tuple[float, float, float], seen_at: tuple[float, float, float]) -> SightFact:
    """A first pickup of ``name`` posed at ``pose`` whose mask THOR drew at ``seen_at``."""
    return SightFact(f"{name.split('_')[0]}|x", EYE, (_ray_to(seen_at),) * 5, (name, pose, 0.0), action="PickupObject")


def _floorplan25_like() -> list[SightFact]:
    """Knives at the counter's front edge (z 0.54-0.55) seen on the floor 0.1-0.25 m in front of
    it, knives further back (z 0.51-0.53) seen where they were posed (FloorPlan25's demos)."""
    falls = [_first_pickup(KNIFE, (x, 0.849, z), (x, 0.01, z + dz))
             for x, z, dz in ((-2.04, 0.549, 0.25), (-1.54, 0.539, 0.11))]
    stays = [_first_pickup(KNIFE, (x, 0.849, z), (x, 0.849, z)) for x, z in ((-2.04, 0.519), (-1.71, 0.529))]
    return falls + stays


def test_a_knife_posed_past_the_edge_its_falls_show_falls_where_they_landed() -> None:
    zones = fall_zones(_floorplan25_like(), floor_y=0.0)
    assert zones
    zone = fallen_zone(zones, KNIFE, (-1.71, 0.849, 0.549))
    assert zone is not None and zone.shift[0] == 0.0 and 0.1 <= zone.shift[1] <= 0.25
    # behind the edge (between the farthest stay and the nearest fall), another object, another height:
    assert fallen_zone(zones, KNIFE, (-1.71, 0.849, 0.529)) is None
    assert fallen_zone(zones, "ButterKnife_1a2b3c4d", (-1.71, 0.849, 0.549)) is None
    assert fallen_zone(zones, KNIFE, (-1.71, 1.2, 0.549)) is None


def test_a_stay_as_far_out_as_a_fall_or_an_object_on_the_floor_makes_no_zone() -> None:
    fall = _first_pickup(KNIFE, (-2.04, 0.849, 0.549), (-2.04, 0.01, 0.8))
    stay = _first_pickup(KNIFE, (-1.9, 0.849, 0.549), (-1.9, 0.849, 0.549))
    assert fall_zones([fall, stay], floor_y=0.0) == ()
    # a plate on a low shelf: its mask nearer than its origin is no fall
    low = _first_pickup("Plate_a5e935d4", (-2.04, 0.08, 0.3), (-2.04, 0.0, 0.5))
    assert fall_zones([low], floor_y=0.0) == ()


def _with_fall(scene: Scene, name: str) -> tuple[Scene, dict]:
    knife = next(o for o in scene.objects if o.name == name)
    pose = {"objectName": name, "position": dict(zip("xyz", knife.position)),
            "rotation": {"x": 0.0, "y": 0.0, "z": 0.0}}
    x, y, z = knife.position
    zone = FallZone(name, (x - 0.01, y - 0.01, z - 0.01), (x + 0.01, y + 0.01, z + 0.01), (0.0, 0.2))
    return replace(scene, falls=(zone,)), pose


def _posed(plain: Scene, zoned: Scene, name: str, pose: dict) -> tuple[dict, dict]:
    """``name``'s metadata after SetObjectPoses puts it at ``pose`` in ``plain`` and in ``zoned``."""
    found = []
    for scene in (plain, zoned):
        sim = LiteController(scene)
        others = [{"objectName": o["name"], "position": o["position"], "rotation": o["rotation"]}
                  for o in sim.last_event.metadata["objects"] if o["pickupable"] and o["name"] != name]
        ok(sim, "SetObjectPoses", objectPoses=[*others, pose])
        found.append(next(o for o in sim.last_event.metadata["objects"] if o["name"] == name))
    return found[0], found[1]


def test_set_object_poses_drops_an_object_posed_in_a_fall_zone_keeping_its_pose_id() -> None:
    kitchen = fixtures.kitchen()
    name = next(o.name for o in kitchen.objects if o.object_type == "Knife")
    fallen, pose = _with_fall(kitchen, name)
    before, after = _posed(kitchen, fallen, name, pose)
    assert after["objectId"] == before["objectId"]
    assert after["position"]["z"] == before["position"]["z"] + 0.2
    assert after["position"]["y"] < before["position"]["y"] - 0.5
    assert not after["parentReceptacles"] and before["parentReceptacles"]


def test_a_scene_keeps_its_fall_zones_on_disk_and_a_room_without_them_writes_none() -> None:
    kitchen = fixtures.kitchen()
    assert "falls" not in kitchen.to_dict()
    fallen, _ = _with_fall(kitchen, next(o.name for o in kitchen.objects if o.object_type == "Knife"))
    assert Scene.from_dict(fallen.to_dict()).falls == fallen.falls


def test_a_push_zone_moves_an_object_along_its_support_at_its_posed_height_keeping_its_pose_id() -> None:
    kitchen = fixtures.kitchen()
    name = next(o.name for o in kitchen.objects if o.object_type == "Knife")
    fallen, pose = _with_fall(kitchen, name)
    pushed = replace(fallen, falls=tuple(replace(z, to_floor=False) for z in fallen.falls))
    before, after = _posed(kitchen, pushed, name, pose)
    assert after["objectId"] == before["objectId"]
    assert math.isclose(after["position"]["z"], before["position"]["z"] + 0.2)
    assert after["position"]["y"] == before["position"]["y"]
    assert after["parentReceptacles"] == before["parentReceptacles"]
    # on disk a push says so, a fall keeps its four fields
    assert Scene.from_dict(pushed.to_dict()).falls == pushed.falls
    assert len(fallen.falls[0].to_list()) == 4 and pushed.falls[0].to_list()[4] is False
