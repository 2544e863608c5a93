"""A put into an imported microwave turns the object as THOR's PlaceObject does (issue 69)."""

from __future__ import annotations

import copy
from dataclasses import replace
from types import SimpleNamespace

from alfred_gen.sim import fixtures, put_yaw
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.thor_shapes import thor_shaped
from alfred_gen.sim.world_objects import WorldObject
from tests.helpers.sim_actions import go, oid, ok


def _put_the_knife_in(kind: str, imported: bool, yaw: float) -> tuple[tuple[float, float, float], float]:
    """Turn the kitchen's ``kind`` (a microwave or a fridge) to ``yaw``, hold the knife a quarter
    turn off it, put the knife in (opened) and return the knife's box size and yaw after the put."""
    scene = fixtures.kitchen()
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA) if imported else scene)
    world = sim.world
    receptacle = world.by_id[oid(sim, kind)]
    receptacle.rotation = (0.0, yaw, 0.0)
    if kind == "Fridge":
        go(sim, 1.25, 1.0, 90, 0)
    else:
        go(sim, -2.0, 1.5, 0, 30)
    ok(sim, "OpenObject", objectId=receptacle.object_id)
    knife = world.by_id[oid(sim, "Knife")]
    world.detach(knife)
    world.set_rotation(knife, yaw + 90.0)
    world.held = knife.object_id
    world.sight_changed()
    ok(sim, "PutObject", objectId=knife.object_id, receptacleObjectId=receptacle.object_id)
    return knife.size, knife.rotation[1]


def test_a_long_thing_put_into_an_imported_microwave_lies_along_its_axes() -> None:
    # The kitchen's knife is long along its own z. Held a quarter turn off the microwave, THOR
    # first turns it to the microwave's yaw, where it fits: its long side ends along the
    # microwave's own z.
    size, yaw = _put_the_knife_in("Microwave", imported=True, yaw=0.0)
    assert yaw == 0.0 and size[2] > 0.3 > size[0]
    size, yaw = _put_the_knife_in("Microwave", imported=True, yaw=90.0)
    assert yaw == 90.0 and size[0] > 0.3 > size[2]


def test_a_procedural_room_and_an_imported_fridge_keep_the_held_yaw() -> None:
    size, yaw = _put_the_knife_in("Microwave", imported=False, yaw=0.0)
    assert yaw == 90.0 and size[0] > 0.3 > size[2]
    size, yaw = _put_the_knife_in("Fridge", imported=True, yaw=0.0)
    assert yaw == 90.0 and size[0] > 0.3 > size[2]


def _thing(kind: str, size: tuple[float, float, float], yaw: float) -> SimpleNamespace:
    return SimpleNamespace(type_name=kind, size=size, rotation=(0.0, yaw, 0.0))


def test_thors_turns_start_at_the_receptacles_yaw() -> None:
    assert put_yaw.thor_yaws(_thing("Fridge", (1, 1, 1), 270.0)) == [270.0, 0.0, 90.0, 180.0]


def test_the_footprint_swaps_on_an_odd_quarter_turn() -> None:
    knife = _thing("Knife", (0.33, 0.05, 0.01), 0.0)
    assert put_yaw.footprint_at(knife, 180.0) == (0.33, 0.01)
    assert put_yaw.footprint_at(knife, 90.0) == (0.01, 0.33)
    assert put_yaw.footprint_at(knife, 269.0) == (0.01, 0.33)


def test_a_turn_fits_only_when_the_footprint_lies_within_the_receptacles() -> None:
    microwave = _thing("Microwave", (0.4, 0.3, 0.3), 0.0)
    assert put_yaw.fits_inside(microwave, (0.35, 0.1))
    assert not put_yaw.fits_inside(microwave, (0.1, 0.35))


def test_only_microwaves_of_imported_rooms_turn_what_is_put_in() -> None:
    imported = SimpleNamespace(scene=SimpleNamespace(from_alfred=True))
    procedural = SimpleNamespace(scene=SimpleNamespace(from_alfred=False))
    assert put_yaw.turns_on_put(imported, _thing("Microwave", (1, 1, 1), 0.0))
    assert not put_yaw.turns_on_put(imported, _thing("Fridge", (1, 1, 1), 0.0))
    assert not put_yaw.turns_on_put(imported, _thing("SinkBasin", (1, 1, 1), 0.0))
    assert not put_yaw.turns_on_put(procedural, _thing("Microwave", (1, 1, 1), 0.0))


def _put_an_apple_slice_into_the_microwave(imported: bool) -> tuple[WorldObject, WorldObject]:
    """Cut the kitchen's apple (at yaw 0, the microwave too), put its first slice into the opened
    microwave and return the slice as it was cut (a copy) and after the put."""
    from alfred_gen.sim.actions import make_slices

    scene = fixtures.kitchen()
    sim = LiteController(replace(scene, camera=ALFRED_CAMERA) if imported else scene)
    world = sim.world
    microwave = world.by_id[oid(sim, "Microwave")]
    microwave.rotation = (0.0, 0.0, 0.0)
    apple = world.by_id[oid(sim, "Apple")]
    world.set_rotation(apple, 0.0)
    piece = make_slices(world, apple)[0]
    as_cut = copy.copy(piece)
    go(sim, -2.0, 1.5, 0, 30)
    ok(sim, "OpenObject", objectId=microwave.object_id)
    ok(sim, "PickupObject", objectId=piece.object_id, forceAction=True)
    ok(sim, "PutObject", objectId=piece.object_id, receptacleObjectId=microwave.object_id)
    return as_cut, piece


def test_an_apple_slice_put_into_an_imported_microwave_shows_its_face_at_the_door() -> None:
    # Lite cuts an apple along its own x, so a slice is thin along x at the apple's yaw; THOR's own
    # frame of the slice is thin along z, and THOR turns it to the microwave's axes, its face to the
    # door (the microwave at yaw 0 faces along z here, as the agent standing at z 1.5 sees it).
    as_cut, piece = _put_an_apple_slice_into_the_microwave(imported=True)
    assert as_cut.size[0] < as_cut.size[2]
    assert piece.size[2] < piece.size[0]


def test_a_slice_put_into_an_imported_microwave_is_drawn_trimmed_as_in_its_row() -> None:
    # Face to the door, THOR's slice shows its round face as in its row, not lite's whole slab:
    # an imported room draws it trimmed (SLICE_FACES) again; a procedural room's stays whole.
    _, piece = _put_an_apple_slice_into_the_microwave(imported=True)
    assert piece.lies_as_cut and thor_shaped(piece.type_name, piece.lies_as_cut)
    _, piece = _put_an_apple_slice_into_the_microwave(imported=False)
    assert not piece.lies_as_cut


def test_a_thing_standing_out_of_an_imported_receptacle_at_its_held_yaw_takes_thors_turns() -> None:
    # A pan (0.28 by 0.43 m) held handle back over a basin 0.38 m deep would stand out behind it:
    # THOR never places it there, so its quarter turns decide; across the basin it fits (lite's
    # box is axis-aligned: its size is the footprint at the yaw it has).
    imported = SimpleNamespace(scene=SimpleNamespace(from_alfred=True))
    procedural = SimpleNamespace(scene=SimpleNamespace(from_alfred=False))
    basin = _thing("SinkBasin", (0.93, 0.24, 0.38), 0.0)
    assert put_yaw.overhangs(imported, basin, _thing("Pan", (0.28, 0.05, 0.43), 0.0))
    assert not put_yaw.overhangs(imported, basin, _thing("Pan", (0.43, 0.05, 0.28), 90.0))
    assert not put_yaw.overhangs(procedural, basin, _thing("Pan", (0.28, 0.05, 0.43), 0.0))
