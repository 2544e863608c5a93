"""Hand-written THOR-shaped scene states for the planner tests (no simulator needed).

Each builder returns (metadata, poses, agent_pose) as the simulator would give them after an
InitialRandomSpawn: ``metadata["objects"]`` with THOR's fields, interaction poses for the fixed
receptacles, and a start pose. Containment is listed both ways and transitively, as THOR does.
"""

from __future__ import annotations

from typing import Any

from alfred_gen.domains.catalogue import OBJECT_TYPES
from alfred_gen.sim.scene import format_object_id


class SceneBuilder:
    """Collects objects with a parent each; ``metadata()`` fills in THOR's containment fields."""

    def __init__(self) -> None:
        self.objects: dict[str, dict[str, Any]] = {}
        self.parent: dict[str, str | None] = {}
        self.poses: dict[str, list[float]] = {}

    def add(self, object_type: str, position: tuple[float, float, float], parent: str | None = None,
            pose: list[float] | None = None, **state: Any) -> str:
        entry = OBJECT_TYPES[object_type]
        object_id = format_object_id(object_type, position)
        self.objects[object_id] = {
            "objectId": object_id,
            "objectType": object_type,
            "name": f"{object_type}_{len(self.objects):04d}",
            "position": {"x": position[0], "y": position[1], "z": position[2]},
            "pickupable": entry.pickupable,
            "receptacle": entry.receptacle,
            "openable": entry.openable,
            "toggleable": entry.toggleable,
            "sliceable": entry.sliceable,
            "isOpen": False,
            "isToggled": False,
            "isSliced": False,
            "isPickedUp": False,
            "isDirty": False,
            "visible": False,
            **state,
        }
        self.parent[object_id] = parent
        if pose is not None:
            self.poses[object_id] = pose
        return object_id

    def metadata(self, agent_pose: list[float]) -> dict[str, Any]:
        objects = {oid: dict(obj) for oid, obj in self.objects.items()}
        for oid in objects:
            chain = []
            parent = self.parent[oid]
            while parent is not None:
                chain.append(parent)
                parent = self.parent[parent]
            objects[oid]["parentReceptacles"] = chain or None
            objects[oid]["receptacleObjectIds"] = None
        for oid, obj in objects.items():
            if obj["receptacle"]:
                inside = sorted(o for o in objects if oid in (objects[o]["parentReceptacles"] or ()))
                obj["receptacleObjectIds"] = inside
        x, z, rotation, horizon = agent_pose
        return {
            "objects": [objects[oid] for oid in sorted(objects, key=lambda o: objects[o]["name"])],
            "agent": {
                "position": {"x": x, "y": 0.9009997, "z": z},
                "rotation": {"x": 0.0, "y": rotation, "z": 0.0},
                "cameraHorizon": horizon,
            },
            "inventoryObjects": [],
            "sceneName": "test",
        }


def kitchen(knife: bool = True) -> tuple[dict[str, Any], dict[str, list[float]], list[float]]:
    """A kitchen: counters, fridge (an apple inside), microwave, sink, table, stove, cabinet, drawer."""
    b = SceneBuilder()
    counter = b.add("CounterTop", (-1.0, 0.95, 0.5), pose=[-0.25, 0.5, 270, 30])
    counter2 = b.add("CounterTop", (1.5, 0.95, -1.5), pose=[1.5, -0.75, 180, 30])
    fridge = b.add("Fridge", (-2.0, 0.0, -1.0), pose=[-1.0, -1.0, 270, 0])
    b.add("Microwave", (1.5, 1.2, -1.6), pose=[1.5, -0.75, 180, 0])
    sink = b.add("Sink", (0.0, 0.9, -1.6))
    basin = _rename(b, b.add("SinkBasin", (0.0, 0.9, -1.6), pose=[0.0, -0.75, 180, 45]), f"{sink}|SinkBasin")
    b.add("Faucet", (0.0, 1.0, -1.9))
    table = b.add("DiningTable", (0.5, 0.0, 1.5), pose=[0.5, 0.5, 0, 30])
    burner = b.add("StoveBurner", (-1.0, 0.9, -1.6), pose=[-1.0, -0.75, 180, 30])
    cabinet = b.add("Cabinet", (-0.5, 0.4, -1.6), pose=[-0.5, -0.75, 180, 60])
    drawer = b.add("Drawer", (1.0, 0.7, 0.5), pose=[0.75, 0.5, 90, 45])
    garbage = b.add("GarbageCan", (2.0, 0.0, 1.0), pose=[1.5, 1.0, 90, 60])
    b.add("Toaster", (-1.5, 1.0, 0.9), counter, pose=[-0.5, 0.75, 270, 30])
    b.add("Apple", (-2.0, 1.2, -1.0), fridge)
    bowl = b.add("Bowl", (-1.0, 1.0, 0.4), counter)
    b.add("Apple", (-1.0, 1.05, 0.4), bowl)
    b.add("Tomato", (0.4, 0.8, 1.5), table)
    b.add("Bread", (0.6, 0.8, 1.6), table)
    b.add("Lettuce", (1.5, 1.0, -1.4), counter2)
    b.add("Potato", (-1.1, 1.0, 0.6), counter)
    b.add("Egg", (0.3, 0.8, 1.4), table)
    b.add("Pot", (-1.0, 0.95, -1.6), burner)
    b.add("Pan", (1.4, 1.0, -1.3), counter2)
    b.add("Plate", (-0.5, 0.3, -1.6), cabinet)
    b.add("Mug", (-0.9, 1.0, 0.7), counter)
    b.add("Mug", (0.7, 0.8, 1.3), table)
    b.add("Cup", (0.0, 0.9, -1.6), basin)
    b.add("Spoon", (1.0, 0.7, 0.5), drawer)
    b.add("DishSponge", (0.1, 0.9, -1.5), basin)
    if knife:
        b.add("Knife", (0.5, 0.8, 1.7), table)
        b.add("ButterKnife", (1.0, 0.7, 0.6), drawer)
    _ = garbage
    agent = [0.0, 0.0, 0, 30]
    return b.metadata(agent), b.poses, agent


def living_room() -> tuple[dict[str, Any], dict[str, list[float]], list[float]]:
    """A living room: sofa, armchair, coffee table, side table with a desk lamp, floor lamp, shelf."""
    b = SceneBuilder()
    sofa = b.add("Sofa", (0.0, 0.0, 2.0), pose=[0.0, 1.0, 0, 30])
    armchair = b.add("ArmChair", (2.0, 0.0, 2.0), pose=[1.5, 1.25, 45 * 0 + 90, 30])
    coffee = b.add("CoffeeTable", (0.0, 0.0, 0.5), pose=[0.0, -0.25, 0, 45])
    side = b.add("SideTable", (-2.0, 0.0, 2.0), pose=[-1.5, 1.25, 270, 30])
    shelf = b.add("Shelf", (2.0, 0.5, -1.0), pose=[1.25, -1.0, 90, 30])
    b.add("DeskLamp", (-2.0, 0.7, 2.1), side)
    b.add("FloorLamp", (-2.0, 0.0, -1.5), None, pose=[-1.25, -1.25, 270, 0])
    b.add("RemoteControl", (0.1, 0.5, 0.5), coffee)
    b.add("RemoteControl", (0.1, 0.5, 2.0), sofa)
    b.add("CellPhone", (2.0, 0.5, 2.0), armchair)
    box = b.add("Box", (2.0, 0.6, -1.0), shelf)
    b.add("KeyChain", (2.0, 0.7, -1.0), box)
    b.add("Book", (-0.2, 0.5, 0.6), coffee)
    b.add("Statue", (2.1, 0.6, -0.8), shelf)
    b.add("Vase", (-2.1, 0.7, 1.9), side)
    b.add("Plate", (0.2, 0.5, 0.4), coffee)
    agent = [0.0, 0.0, 180, 0]
    return b.metadata(agent), b.poses, agent


def bathroom() -> tuple[dict[str, Any], dict[str, list[float]], list[float]]:
    """A bathroom: sink basin, bathtub basin, toilet, cabinet (a cloth inside), counter top."""
    b = SceneBuilder()
    sink = b.add("Sink", (0.0, 0.8, -1.5))
    basin = _rename(b, b.add("SinkBasin", (0.0, 0.8, -1.5), pose=[0.0, -0.75, 180, 45]), f"{sink}|SinkBasin")
    b.add("Faucet", (0.0, 0.9, -1.8))
    tub = b.add("Bathtub", (-1.5, 0.3, 1.0))
    tub_basin = _rename(b, b.add("BathtubBasin", (-1.5, 0.3, 1.0), pose=[-0.5, 1.0, 270, 60]), f"{tub}|BathtubBasin")
    b.add("Faucet", (-1.9, 0.6, 1.0))
    toilet = b.add("Toilet", (1.5, 0.0, -1.0), pose=[0.75, -1.0, 90, 30])
    cabinet = b.add("Cabinet", (0.5, 0.3, -1.5), pose=[0.5, -0.75, 180, 60])
    counter = b.add("CounterTop", (-0.5, 0.8, -1.5), pose=[-0.5, -0.75, 180, 30])
    holder = b.add("HandTowelHolder", (1.0, 1.2, -1.9), pose=[1.0, -1.0, 180, 0])
    b.add("Cloth", (0.5, 0.3, -1.5), cabinet)
    b.add("SoapBar", (1.5, 0.5, -1.0), toilet)
    b.add("SoapBar", (-0.5, 0.9, -1.5), counter)
    b.add("HandTowel", (1.0, 1.2, -1.9), holder)
    b.add("SprayBottle", (-0.6, 0.9, -1.4), counter)
    _ = (basin, tub_basin)
    agent = [0.0, 0.5, 180, 30]
    return b.metadata(agent), b.poses, agent


def _rename(b: SceneBuilder, old: str, new: str) -> str:
    """Give an object a child-part id (``Sink|...|SinkBasin``), as THOR names basins."""
    obj = b.objects.pop(old)
    obj["objectId"] = new
    b.objects[new] = obj
    b.parent[new] = b.parent.pop(old)
    for oid, parent in b.parent.items():
        if parent == old:
            b.parent[oid] = new
    if old in b.poses:
        b.poses[new] = b.poses.pop(old)
    return new
