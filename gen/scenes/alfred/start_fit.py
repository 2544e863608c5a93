"""Fixtures fitted to what a released trajectory's start state puts in and on them.

A room imported from ALFRED's evidence sizes its fixtures from the demos that walked it, or, where
none did, from what other rooms show of the type. A trajectory's ``scene`` block then poses THOR's
objects where they rest in that room, and those poses are evidence the sizes must agree with: an
object lies on a top, in a basin or in a cabinet, never inside a slab. Each rule here moves a
fixture's box to agree with the poses; none is keyed to a room.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_cuts import free_what_they_cannot_hold
from alfred_gen.sim.scene import Box, SceneObject


def fit_to_start_state(objects: Iterable[SceneObject], posed: list[tuple[str, Box]]) -> dict[str, SceneObject]:
    """The fixtures of ``objects`` whose boxes change to agree with the start state's ``posed``
    (type, box) objects, by id: cut back from what they cannot hold."""
    return free_posed_objects(list(objects), posed)


def free_posed_objects(objects: Iterable[SceneObject], posed: list[tuple[str, Box]]) -> dict[str, SceneObject]:
    """Fixtures cut back from the posed objects they cannot hold, by id (only those that changed)."""
    fixtures = [o for o in objects if not catalogue.object_type(o.object_type).pickupable]
    blocks = [Block(o.object_id, o.object_type, o.position, list(o.box.lo), list(o.box.hi), False) for o in fixtures]
    if not free_what_they_cannot_hold(blocks, posed):
        return {}
    return {o.object_id: replace(o, box=b.box()) for o, b in zip(fixtures, blocks) if b.box() != o.box}
