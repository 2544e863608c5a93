"""Containment rules of the `lite` world: linking an object into a receptacle and out of it, what a
closed fridge, cabinet, drawer, microwave or safe hides, and what counts as held."""

from __future__ import annotations

from alfred_gen.sim.world_core import WorldCore
from alfred_gen.sim.world_objects import (
    SHARED_INSIDE,
    WorldObject,
    overlap_deeper_than,
)


class Containment(WorldCore):
    """Attaching and detaching, and who is enclosed or held (THOR's containment rules)."""

    def attach(self, obj: WorldObject, receptacle: WorldObject) -> None:
        """Make ``receptacle`` the immediate parent of a parentless object."""
        assert obj.parent is None, obj.object_id
        self._link(obj, receptacle)
        self.touch_family(obj)
        self.sight_changed()

    def detach(self, obj: WorldObject) -> None:
        """Take an object out of its parent (it keeps its own contents); it, and what leaned on it
        (:mod:`alfred_gen.sim.put_lean`), lie level again."""
        if obj.parent is None:
            return
        self.touch_family(obj)
        for leaning in [obj, *(self.by_id[c] for c in self.by_id[obj.parent].children)]:
            if leaning.lean and (leaning is obj or leaning.leans_on == obj.object_id):  # nothing holds it up now
                leaning.lean, leaning.leans_on = (), None
                self.touch(leaning)
        self.by_id[obj.parent].children.remove(obj.object_id)
        obj.parent = None
        self.touch_family(obj)
        self.sight_changed()

    def enclosed(self, obj: WorldObject) -> bool:
        """Whether a closed fridge/cabinet/drawer/microwave/safe hides the object.

        Not when a loose object reaches into an open receptacle of the same type beside it: THOR's
        double-door cabinets are two cabinets around one inside, and what lies across the two is
        seen and taken through either door (the released demos open one and take a plate whose
        middle is between the two doors' ids; lite's support rule had put it in the other). Whether
        the agent sees it is then up to the pixels.
        """
        closed = [p for p in self.parent_chain(obj) if p.otype.encloses and not p.is_open]
        if not closed:
            return False
        return not obj.otype.pickupable or not any(self._reaches_into_open(obj, p) for p in closed)

    def _reaches_into_open(self, obj: WorldObject, closed: WorldObject) -> bool:
        return any(other is not closed and other.is_open and other.type_name == closed.type_name and other.present
                   and not other.is_sliced and overlap_deeper_than(obj, other, SHARED_INSIDE) for other in self.objects)

    def is_held_family(self, obj: WorldObject) -> bool:
        """Whether the object is held, or inside what is held."""
        if self.held is None:
            return False
        if obj.object_id == self.held:
            return True
        return any(p.object_id == self.held for p in self.parent_chain(obj))
