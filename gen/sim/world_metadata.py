"""THOR's metadata of the `lite` world: the per-object dicts (cached until an action touches the
object), the object listing, the agent's pose and the inventory, in AI2-THOR 2.1's layout."""

from __future__ import annotations

from typing import Any

from alfred_gen.sim.world_core import WorldCore
from alfred_gen.sim.world_objects import (
    WorldObject,
    _r,
    _xyz,
)


class Metadata(WorldCore):
    """THOR's metadata dicts of objects, the agent and the inventory."""

    def object_metadata(self, obj: WorldObject) -> dict[str, Any]:
        """THOR's per-object metadata dict without ``visible``/``distance`` (cached, read-only)."""
        cached = self._meta_cache.get(obj.object_id)
        if cached is not None:
            return cached
        t = obj.otype
        lo, hi = obj.lo, obj.hi
        corners = [[_r(x), _r(y), _r(z)] for x in (hi[0], lo[0]) for y in (hi[1], lo[1]) for z in (hi[2], lo[2])]
        chain = self.parent_chain(obj)
        held = self.held == obj.object_id
        meta = {
            "objectId": obj.object_id,
            "objectType": obj.type_name,
            "name": obj.name,
            "position": _xyz(obj.position),
            "rotation": _xyz(obj.rotation),
            "axisAlignedBoundingBox": {
                "center": _xyz(obj.center),
                "size": _xyz(obj.size),
                "cornerPoints": corners,
            },
            "pickupable": t.pickupable,
            "receptacle": t.receptacle,
            "openable": t.openable,
            "toggleable": t.toggleable,
            "sliceable": t.sliceable,
            "cookable": t.cookable,
            "dirtyable": t.dirtyable,
            "canFillWithLiquid": t.can_fill_with_liquid,
            "moveable": t.moveable,
            "breakable": t.breakable,
            "isOpen": obj.is_open,
            "isToggled": obj.is_toggled,
            "isSliced": obj.is_sliced,
            "isDirty": obj.is_dirty,
            "isCooked": obj.is_cooked,
            "isFilledWithLiquid": obj.is_filled,
            "isBroken": obj.is_broken,
            "temperature": obj.temperature,
            "isPickedUp": held,
            "parentReceptacles": [p.object_id for p in chain] or None,
            "receptacleObjectIds": [d.object_id for d in self.descendants(obj)] if t.receptacle else None,
        }
        self._meta_cache[obj.object_id] = meta
        return meta

    def listing(self) -> tuple[tuple[dict[str, Any], int], ...]:
        """(metadata dict, row in ``objects``) of every present object, in order; cached."""
        if self._listing is None:
            self._listing = tuple((self.object_metadata(o), o.index) for o in self.objects if o.present)
        return self._listing

    def agent_metadata(self) -> dict[str, Any]:
        a = self.agent
        return {
            "name": "agent",
            "position": _xyz((a.x, a.y, a.z)),
            "rotation": {"x": 0.0, "y": float(a.rotation), "z": 0.0},
            "cameraHorizon": float(a.horizon),
            "isStanding": a.standing,
            "inHighFrictionArea": False,
        }

    def inventory(self) -> list[dict[str, str]]:
        if self.held is None:
            return []
        obj = self.by_id[self.held]
        return [{"objectId": obj.object_id, "objectType": obj.type_name}]
