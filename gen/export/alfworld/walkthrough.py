"""Our high-level plan as ALFWorld commands: the game's ``walkthrough``.

ALFRED's ``high_pddl`` says what happens (pick up this apple, heat it in that microwave, put it in
that fridge) in THOR ids; ALFWorld's engine takes commands naming entities as its demangler shows
them (``take apple 1 from countertop 2``). The translation follows the plan step by step and keeps
the little state ALFWorld's rules need to be obeyed:

- where the agent is: before each interaction the agent goes to the receptacle it acts at
  (``go to fridge 1``) unless it already stands at that receptacle's location; the plan's own
  ``GotoLocation`` steps are where ALFRED walks, and they lead to the same places;
- what each object is in (ALFWorld's ``inReceptacle``): a pick-up names one receptacle the object
  is in (the one of the class ALFRED recorded, else one at the agent's location, else the first);
- which receptacles are open: ALFWorld takes from and puts into an openable receptacle only when it
  is open, so ``open`` comes first (ALFRED's low-level actions open and close around the put or
  pick-up; ALFWorld has no such need to close, so the walkthrough does not);
- what the agent holds: ALFRED's ``HeatObject`` names the microwave, ALFWorld's ``heat`` the object.

A step ALFWorld cannot do is a :class:`NotExportable` with the reason (:class:`ExportReason`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from alfred_gen.export.alfworld.outcomes import ExportReason
from alfred_gen.export.alfworld.problem import escape
from alfred_gen.export.alfworld.room import Room
from alfred_gen.export.alfworld.upstream import AlfworldRules


class NotExportable(Exception):
    """The trajectory cannot be an ALFWorld game: ``reason`` says why, ``detail`` what."""

    def __init__(self, reason: ExportReason, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


#: ALFRED's state-changing actions -> (ALFWorld's verb, the capability it needs, the receptacle class).
_TREATMENTS = {
    "HeatObject": ("heat", "heatable", "Microwave"),
    "CoolObject": ("cool", "coolable", "Fridge"),
    "CleanObject": ("clean", "cleanable", "SinkBasin"),
}

#: High-level actions that do nothing in ALFWorld (walking is done where needed; the end marker).
_PASSIVE = frozenset({"GotoLocation", "NoOp", "End"})


class _Player:
    """The walkthrough being written, with the state ALFWorld's preconditions read."""

    def __init__(self, room: Room, names: Mapping[str, str], rules: AlfworldRules) -> None:
        self.room = room
        self.names = names
        self.rules = rules
        self.commands: list[str] = []
        self.location = room.agent_location
        self.holders = {oid: set(item.receptacles) for oid, item in room.items.items()}
        self.opened = {rid for rid, recep in room.receptacles.items() if recep.opened}
        self.held = ""

    def name(self, thor_id: str) -> str:
        return self.names[escape(thor_id).lower()]

    def receptacle(self, thor_id: str, what: str) -> str:
        """``thor_id`` as a receptacle of the room; NotExportable when ALFWorld has no such one."""
        if thor_id in self.room.receptacles:
            return thor_id
        if thor_id in self.room.items:
            cls = self.room.items[thor_id].object_class
            raise NotExportable(ExportReason.UNPLACEABLE, f"{what}: {thor_id} is a {cls}, not a receptacle in ALFWorld")
        note = next((n for n in self.room.left_out if n.startswith(thor_id + ":")), "")
        if note.endswith("no interaction pose"):
            raise NotExportable(ExportReason.NO_POSE, f"{what}: {note}")
        raise NotExportable(ExportReason.UNPLACEABLE, f"{what}: {note or thor_id + ' is not in the room'}")

    def item(self, thor_id: str, what: str) -> str:
        if thor_id in self.room.items:
            return thor_id
        note = next((n for n in self.room.left_out if n.startswith(thor_id + ":")), "")
        raise NotExportable(ExportReason.UNPLACEABLE, f"{what}: {note or thor_id + ' is not an object in ALFWorld'}")

    def go_to(self, receptacle: str) -> None:
        location = self.room.receptacles[receptacle].location
        if location != self.location:
            self.commands.append(f"go to {self.name(receptacle)}")
            self.location = location

    def open_if_closed(self, receptacle: str) -> None:
        if self.room.receptacles[receptacle].openable and receptacle not in self.opened:
            self.commands.append(f"open {self.name(receptacle)}")
            self.opened.add(receptacle)

    def pick_up(self, action: Mapping[str, Any]) -> None:
        obj = self.item(str(action.get("objectId", "")), "PickupObject")
        holders = sorted(self.holders.get(obj, ()))
        if not holders:
            raise NotExportable(ExportReason.LOOSE_OBJECT, f"PickupObject: {obj} lies in no receptacle ALFWorld knows")
        recorded = (action.get("coordinateReceptacleObjectId") or [""])[0]
        here = [r for r in holders if self.room.receptacles[r].location == self.location]
        of_class = [r for r in holders if self.room.receptacles[r].object_class == recorded]
        source = (of_class or here or holders)[0]
        self.go_to(source)
        self.open_if_closed(source)
        self.commands.append(f"take {self.name(obj)} from {self.name(source)}")
        self.holders[obj].discard(source)
        self.held = obj

    def put(self, action: Mapping[str, Any]) -> None:
        obj = self.item(str(action.get("objectId", "")), "PutObject")
        target = self.receptacle(str(action.get("receptacleObjectId", "")), "PutObject")
        obj_cls, recep_cls = self.room.items[obj].object_class, self.room.receptacles[target].object_class
        if not self.rules.can_contain(recep_cls, obj_cls):
            raise NotExportable(ExportReason.UNPLACEABLE,
                                f"PutObject: ALFWorld's placement table has no {obj_cls} in {recep_cls}")
        self.go_to(target)
        self.open_if_closed(target)
        self.commands.append(f"move {self.name(obj)} to {self.name(target)}")
        self.holders.setdefault(obj, set()).add(target)
        self.held = ""

    def treat(self, action: Mapping[str, Any]) -> None:
        verb, capability, recep_class = _TREATMENTS[str(action["action"])]
        tool = self.receptacle(str(action.get("objectId", "")), str(action["action"]))
        if not self.held:
            raise NotExportable(ExportReason.UNTRANSLATABLE, f"{action['action']}: the agent holds nothing")
        obj_cls = self.room.items[self.held].object_class
        if not self.rules.has(capability, obj_cls):
            raise NotExportable(ExportReason.UNPLACEABLE,
                                f"{action['action']}: a {obj_cls} is not {capability} in ALFWorld")
        if self.room.receptacles[tool].object_class != recep_class:
            raise NotExportable(ExportReason.UNPLACEABLE, f"{action['action']}: ALFWorld does it only with a "
                                f"{recep_class}, not a {self.room.receptacles[tool].object_class}")
        self.go_to(tool)
        self.commands.append(f"{verb} {self.name(self.held)} with {self.name(tool)}")

    def toggle(self, action: Mapping[str, Any]) -> None:
        lamp = self.item(str(action.get("objectId", "")), "ToggleObject")
        item = self.room.items[lamp]
        if not (item.toggleable and self.rules.has("toggleable", item.object_class)):
            raise NotExportable(ExportReason.UNPLACEABLE,
                                f"ToggleObject: a {item.object_class} is not toggleable in ALFWorld")
        holders = sorted(self.holders.get(lamp, ()))
        if not holders:
            raise NotExportable(ExportReason.LAMP_WITHOUT_RECEPTACLE,
                                f"ToggleObject: {lamp} stands in no receptacle, so ALFWorld cannot use it")
        here = [r for r in holders if self.room.receptacles[r].location == self.location]
        self.go_to((here or holders)[0])
        self.commands.append(f"use {self.name(lamp)}")


def walkthrough(high_pddl: Sequence[Mapping[str, Any]], room: Room, names: Mapping[str, str],
                rules: AlfworldRules) -> list[str]:
    """The ALFWorld commands that carry out ``high_pddl`` (ALFRED's high-level plan) in ``room``.

    ``names`` maps the engine's entity ids (escaped, lower case) to the names its demangler gives
    (:func:`alfred_gen.export.alfworld.upstream.demangled_names`). Raises :class:`NotExportable`."""
    player = _Player(room, names, rules)
    for step in high_pddl:
        action = step.get("planner_action") or {}
        kind = str(action.get("action", ""))
        if kind in _PASSIVE:
            continue
        if kind == "PickupObject":
            player.pick_up(action)
        elif kind == "PutObject":
            player.put(action)
        elif kind in _TREATMENTS:
            player.treat(action)
        elif kind == "ToggleObject":
            player.toggle(action)
        elif kind == "SliceObject":
            raise NotExportable(ExportReason.SLICED, "SliceObject: ALFWorld's games have no slicing")
        else:
            raise NotExportable(ExportReason.UNTRANSLATABLE, f"high-level action {kind!r} has no ALFWorld command")
    return player.commands
