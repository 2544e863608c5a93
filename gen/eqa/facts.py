"""What EQA's programs read about a home: its rooms and its named objects, with boxes, views, colours.

The paper runs its programs over a house's annotations (rooms, objects, their boxes and colours).
Ours are read from the simulator in the home's initial state (no random spawn: a question is about
the home as it is built), with lite's per-instance colours on:

- rooms: a house's rooms (:attr:`alfred_gen.sim.scene.Scene.rooms`); a single room is one room of
  its own type;
- objects: every object of the metadata with its THOR type, the vocabulary's word for it (None
  when the type is left out), its axis-aligned box, the room holding its box's centre (None in a
  doorway), and whether it is shut inside a closed receptacle (``hidden``: never asked about);
- for the objects a single-target question may be about (named, not hidden, and the only one of
  its word in the home or in its room): the best view (:mod:`.views`) and the colour read there
  (:mod:`.colors`). The others get neither: no template needs them.

Facts are plain data (``to_dict`` / ``from_dict``) so that ``eqa questions`` keeps them per home
on disk and ``eqa paths`` reuses the views without searching again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from alfred_gen.eqa.colors import ColorReading
from alfred_gen.eqa.views import View, ViewSource, best_view, color_at
from alfred_gen.eqa.vocabulary import Vocabulary
from alfred_gen.replay.restore import INITIALIZE_ACTION
from alfred_gen.sim.controller import Controller
from alfred_gen.sim.scene import CAMERA_Y_OFFSET, Scene

#: Bumped when facts are computed differently: files of another version are computed again.
FACTS_VERSION = 1


class FactsError(Exception):
    """The home could not be set up in the simulator (a setup action failed): one line why."""


@dataclass
class ObjectFact:
    """One object of a home as the programs see it."""

    object_id: str
    object_type: str
    word: str | None
    room: str | None
    lo: tuple[float, float, float]
    hi: tuple[float, float, float]
    hidden: bool = False
    view: View | None = None
    color: ColorReading | None = None

    @property
    def center(self) -> tuple[float, float, float]:
        return (
            (self.lo[0] + self.hi[0]) / 2.0, (self.lo[1] + self.hi[1]) / 2.0, (self.lo[2] + self.hi[2]) / 2.0,
        )

    @property
    def asked(self) -> bool:
        """Whether a question may name this object (a word, and not shut away)."""
        return self.word is not None and not self.hidden

    def box(self) -> list[list[float]]:
        return [list(self.lo), list(self.hi)]

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "objectId": self.object_id, "objectType": self.object_type, "word": self.word, "room": self.room,
            "box": self.box(), "hidden": self.hidden,
        }
        if self.view is not None:
            data["view"] = self.view.to_dict()
        if self.color is not None:
            data["color"] = self.color.to_dict()
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ObjectFact:
        lo, hi = data["box"]
        color = data.get("color")
        return ObjectFact(
            str(data["objectId"]), str(data["objectType"]), data.get("word"), data.get("room"),
            (float(lo[0]), float(lo[1]), float(lo[2])), (float(hi[0]), float(hi[1]), float(hi[2])),
            bool(data.get("hidden", False)),
            View.from_dict(data["view"]) if data.get("view") else None,
            ColorReading(color["name"], tuple((str(n), float(s)) for n, s in color["shares"])) if color else None,
        )


@dataclass(frozen=True)
class RoomFact:
    """One room of a home: its id (``kitchen_1``) and type (``kitchen``).

    ``also`` holds the room's other types when it has more than one, as SUNCG's open-plan rooms do
    (a kitchen that is also a dining room). The EQA engine asks nothing by room about such a room
    (:mod:`.programs`); a house's open-plan rooms carry them (``Room.also``), and a room without
    them is written as before."""

    room_id: str
    room_type: str
    also: tuple[str, ...] = ()

    @property
    def types(self) -> tuple[str, ...]:
        """Every type of the room, its own first."""
        return (self.room_type, *self.also)

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.room_id, "type": self.room_type}
        if self.also:
            entry["also"] = list(self.also)
        return entry

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> RoomFact:
        return RoomFact(str(data["id"]), str(data["type"]), tuple(str(t) for t in data.get("also", ())))


@dataclass
class HomeFacts:
    """A home (a house, or a single room): its rooms, objects and reachable points."""

    scene: str
    scene_num: int
    is_house: bool
    agent_y: float
    floor_y: float
    rooms: list[RoomFact]
    objects: list[ObjectFact]
    reachable: list[tuple[float, float]] = field(default_factory=list)
    color_variation: bool = True
    version: int = FACTS_VERSION

    def room(self, room_id: str) -> RoomFact:
        for room in self.rooms:
            if room.room_id == room_id:
                return room
        raise KeyError(room_id)

    def object(self, object_id: str) -> ObjectFact:
        for obj in self.objects:
            if obj.object_id == object_id:
                return obj
        raise KeyError(object_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version, "scene": self.scene, "scene_num": self.scene_num, "is_house": self.is_house,
            "agent_y": self.agent_y, "floor_y": self.floor_y, "color_variation": self.color_variation,
            "rooms": [r.to_dict() for r in self.rooms],
            "objects": [o.to_dict() for o in self.objects],
            "reachable": [list(p) for p in self.reachable],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> HomeFacts:
        return HomeFacts(
            str(data["scene"]), int(data["scene_num"]), bool(data["is_house"]), float(data["agent_y"]),
            float(data["floor_y"]), [RoomFact.from_dict(r) for r in data["rooms"]],
            [ObjectFact.from_dict(o) for o in data["objects"]],
            [(float(x), float(z)) for x, z in data.get("reachable", ())],
            bool(data.get("color_variation", True)), int(data.get("version", 0)),
        )


# --------------------------------------------------------------------------------------------
# Reading a home from the simulator


def open_home(controller: Controller, scene_name: str, *, color_variation: bool) -> Any:
    """Reset to the home's initial state as ALFRED's replay initialises THOR, with lite's
    per-instance colours when asked for; the event after the last setup step."""
    controller.reset(scene_name)
    event = _setup(controller, dict(INITIALIZE_ACTION), "Initialize")
    if color_variation:
        event = _setup(controller, {"action": "SetColorVariation", "enabled": True}, "SetColorVariation")
    return event


def _setup(controller: Controller, action: dict[str, Any], what: str) -> Any:
    event = controller.step(action)
    if not event.metadata.get("lastActionSuccess", False):
        raise FactsError(f"{what} failed: {event.metadata.get('errorMessage') or 'no reason given'}")
    return event


def reachable_of(controller: Controller) -> list[tuple[float, float]]:
    """The agent's reachable points now (``GetReachablePositions``), sorted."""
    event = _setup(controller, {"action": "GetReachablePositions"}, "GetReachablePositions")
    return sorted((float(p["x"]), float(p["z"])) for p in event.metadata.get("actionReturn") or ())


def _box_of(obj: Mapping[str, Any]) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
    box = obj["axisAlignedBoundingBox"]
    center, size = box["center"], box["size"]
    lo = (center["x"] - size["x"] / 2, center["y"] - size["y"] / 2, center["z"] - size["z"] / 2)
    hi = (center["x"] + size["x"] / 2, center["y"] + size["y"] / 2, center["z"] + size["z"] / 2)
    return (round(lo[0], 4), round(lo[1], 4), round(lo[2], 4)), (round(hi[0], 4), round(hi[1], 4), round(hi[2], 4))


def shut_in(obj: Mapping[str, Any], by_id: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether an object lies inside a closed openable receptacle (fridge, cabinet, drawer, ...)."""
    for parent_id in obj.get("parentReceptacles") or ():
        parent = by_id.get(parent_id)
        if parent is not None and parent.get("openable") and not parent.get("isOpen"):
            return True
    return False


def home_rooms(scene: Scene) -> list[RoomFact]:
    """A house's rooms, or a single room as one room of its own type (id ``<type>_1``)."""
    if scene.is_house:
        return [RoomFact(r.room_id, r.room_type, r.also) for r in scene.rooms]
    return [RoomFact(f"{scene.room_type}_1", scene.room_type)]


def object_facts(metadata: Mapping[str, Any], scene: Scene, vocabulary: Vocabulary) -> list[ObjectFact]:
    """Every object of the metadata as an :class:`ObjectFact` (no views yet), in metadata order."""
    objects = [o for o in metadata.get("objects") or () if not o.get("isSliced")]
    by_id = {o["objectId"]: o for o in objects}
    single_room = None if scene.is_house else home_rooms(scene)[0].room_id
    facts = []
    for obj in objects:
        lo, hi = _box_of(obj)
        if single_room is not None:
            room_id: str | None = single_room
        else:
            room = scene.room_at((lo[0] + hi[0]) / 2.0, (lo[2] + hi[2]) / 2.0)
            room_id = room.room_id if room is not None else None
        word = vocabulary.word_of(obj["objectType"])
        facts.append(ObjectFact(obj["objectId"], obj["objectType"], word.word if word else None, room_id, lo, hi,
                                shut_in(obj, by_id)))
    return facts


def needs_view(obj: ObjectFact, objects: Sequence[ObjectFact]) -> bool:
    """Whether a single-target question may be about ``obj``: it may be named, and it is the only
    object of its word in the home or in its room (hidden ones count: "the cup" must be one cup)."""
    if not obj.asked:
        return False
    in_home = sum(1 for o in objects if o.word == obj.word)
    in_room = sum(1 for o in objects if o.word == obj.word and o.room == obj.room)
    return in_home == 1 or (obj.room is not None and in_room == 1)


def collect_facts(controller: Controller, scene: Scene, vocabulary: Vocabulary, source: ViewSource, *,
                  color_variation: bool = True) -> HomeFacts:
    """The facts of ``scene`` read from ``controller`` (module docstring); ``source`` gives the
    pixels of the view search (made for this controller). FactsError if a setup step fails."""
    event = open_home(controller, scene.name, color_variation=color_variation)
    metadata = event.metadata
    agent_y = float(metadata["agent"]["position"]["y"])
    reachable = reachable_of(controller)
    objects = object_facts(metadata, scene, vocabulary)
    camera_y = agent_y + CAMERA_Y_OFFSET
    for obj in objects:
        if needs_view(obj, objects):
            obj.view = best_view(source, obj.object_id, obj.lo, obj.hi, reachable, camera_y)
            if obj.view is not None:
                obj.color = color_at(source, obj.view, obj.object_id)
    return HomeFacts(scene.name, scene.scene_num, scene.is_house, agent_y, scene.floor_y, home_rooms(scene), objects,
                     reachable, color_variation)


def word_counts(objects: Sequence[ObjectFact], room: str | None = None) -> Counter[str]:
    """How many objects of each word the home (or one room of it) holds, hidden ones included."""
    return Counter(o.word for o in objects if o.word is not None and (room is None or o.room == room))
