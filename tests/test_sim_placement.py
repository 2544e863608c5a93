"""PutObject placement: free space instead of object counts, on the drawn floor of a basin, where
the agent can see it."""

from __future__ import annotations

from alfred_gen.sim import shapes
from alfred_gen.sim import world as world_module
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Box, Pose, Scene, SceneObject
from tests.helpers.small_rooms import walled_room


def _step(sim: LiteController, action: str, **kwargs) -> None:
    event = sim.step(action, **kwargs)
    assert event.metadata["lastActionSuccess"], event.metadata["errorMessage"]


def _room(objects: list[SceneObject], name: str) -> Scene:
    blocking = [o.box for o in objects if o.parent is None and o.box.lo[1] < 0.1]
    return walled_room(objects, Pose(0.0, 0.25, 0, 45), name=name, blocking=blocking)


def test_a_receptacle_takes_more_objects_than_its_count_when_there_is_room() -> None:
    table = SceneObject("SideTable", (0.0, 0.35, 1.0), Box((-0.5, 0.0, 0.7), (0.5, 0.7, 1.3)))
    capacity = 8
    cards = [
        SceneObject("CreditCard", (x, 0.705, 1.2), Box.from_center((x, 0.705, 1.2), (0.05, 0.01, 0.08)),
                    name=f"CreditCard_{i}", parent=table.object_id)
        for i, x in enumerate([-0.45 + 0.06 * k for k in range(capacity)])
    ]
    mug = SceneObject("Mug", (0.8, 0.05, 0.2), Box.from_center((0.8, 0.05, 0.2), (0.12, 0.1, 0.09)))
    sim = LiteController(_room([table, *cards, mug], "LiteTestTable"))
    world = sim.world
    receptacle = world.by_id[table.object_id]
    assert len(receptacle.children) == receptacle.otype.capacity == capacity
    spots = world.put_spots(receptacle, world.by_id[mug.object_id])
    assert spots, "a table with a free half takes another object"
    keep = 1.0 - world_module.PUT_OVERLAP
    for card in cards:  # none lands on a card
        cx, _, cz = card.position
        assert not any(abs(x - cx) < (0.025 + 0.06) * keep and abs(z - cz) < (0.04 + 0.045) * keep for x, z in spots)


def _sink_room() -> Scene:
    # A counter slab thinner than the sink basin built into it (as imported THOR rooms have them).
    counter = SceneObject("CounterTop", (0.0, 0.9, 1.1), Box((-1.0, 0.88, 0.8), (1.0, 0.92, 1.4)))
    basin = SceneObject("SinkBasin", (0.0, 0.845, 1.1), Box((-0.3, 0.75, 0.88), (0.3, 0.94, 1.33)))
    soap = SceneObject("SoapBar", (0.6, 0.935, 1.0), Box.from_center((0.6, 0.935, 1.0), (0.055, 0.025, 0.09)),
                       parent=counter.object_id)
    return _room([counter, basin, soap], "LiteTestSink")


def test_an_object_put_into_a_sink_rests_on_its_drawn_floor_in_sight() -> None:
    sim = LiteController(_sink_room())
    _step(sim, "TeleportFull", x=0.25, y=0.9, z=0.25, rotation=0, horizon=45)
    world = sim.world
    soap = next(o for o in world.objects if o.type_name == "SoapBar")
    basin = next(o for o in world.objects if o.type_name == "SinkBasin")
    _step(sim, "PickupObject", objectId=soap.object_id)
    _step(sim, "PutObject", objectId=soap.object_id, receptacleObjectId=basin.object_id)
    floor_top = min(b.hi[1] for b in shapes.shape_boxes("SinkBasin", basin.box()))
    assert abs((soap.center[1] - soap.size[1] / 2) - floor_top) < 1e-6
    # Put where the agent looks: it can be picked up again from the same pose.
    _step(sim, "PickupObject", objectId=soap.object_id)


def test_a_basin_cuts_the_thinner_counter_around_it() -> None:
    sim = LiteController(_sink_room())
    _step(sim, "TeleportFull", x=0.0, y=0.9, z=0.5, rotation=0, horizon=60)
    visible, _ = sim.visibility_state()
    basin = next(o for o in sim.world.objects if o.type_name == "SinkBasin")
    assert visible[basin.index]


def _mug_holding(thing: str, x: float) -> tuple[LiteController, str, str]:
    """A mug on a table with ``thing`` in it, its middle at ``x`` (the mug's middle is at 0), and a
    pen on the table: (simulator, mug id, pen id)."""
    table = SceneObject("SideTable", (0.0, 0.35, 1.0), Box((-0.5, 0.0, 0.7), (0.5, 0.7, 1.3)))
    mug = SceneObject("Mug", (0.0, 0.7, 1.0), Box.from_center((0.0, 0.75, 1.0), (0.12, 0.1, 0.09)),
                      parent=table.object_id)
    inside = SceneObject(thing, (x, 0.76, 1.0), Box.from_center((x, 0.76, 1.0), (0.18, 0.02, 0.02)),
                         parent=mug.object_id)
    pen = SceneObject("Pen", (0.3, 0.71, 1.2), Box.from_center((0.3, 0.71, 1.2), (0.14, 0.02, 0.02)),
                      parent=table.object_id)
    return LiteController(_room([table, mug, inside, pen], "LiteTestMug")), mug.object_id, pen.object_id


def test_a_thing_leaning_in_a_mug_leaves_room_for_another() -> None:
    """A pencil across a mug's rim (its middle outside the mug) does not fill the mug: THOR put a pen
    into such mugs in 5 train demos. One resting in the middle does (a mug holds one thing)."""
    for middle, room_left in ((0.1, True), (0.0, False)):
        sim, mug_id, pen_id = _mug_holding("Pencil", middle)
        world = sim.world
        mug = world.by_id[mug_id]
        assert len(mug.children) == 1
        assert bool(world.put_spots(mug, world.by_id[pen_id])) is room_left, middle


def _put_from(receptacle: SceneObject, kind: str, size: tuple[float, float, float], horizon: float
              ) -> tuple[LiteController, world_module.WorldObject, tuple[float, float, float]]:
    """A ``kind`` object picked up and put into ``receptacle`` by the agent at (0, 0.25) facing +z
    at ``horizon``: (simulator, the object, where the hand was when it was put)."""
    loose = SceneObject(kind, (0.8, 0.04, -0.8), Box.from_center((0.8, 0.04, -0.8), size))
    sim = LiteController(_room([receptacle, loose], f"LiteTestPut{kind}"))
    thing = sim.world.by_id[loose.object_id]
    _step(sim, "PickupObject", objectId=thing.object_id, forceAction=True)
    _step(sim, "TeleportFull", x=0.0, y=0.9, z=0.25, rotation=0, horizon=horizon)
    hand = sim.world.hand_center()
    _step(sim, "PutObject", objectId=thing.object_id, receptacleObjectId=receptacle.object_id)
    return sim, thing, hand


def test_an_object_put_into_a_bin_at_the_agents_feet_lands_in_sight() -> None:
    """A bin's floor in front of the agent is more than 1.5 m from the eye but within reach as THOR
    measures it (from the agent's vertical axis). Judged from the eye, no spot in the bin counted as
    seen and the object went to the spot nearest the agent, behind the bin's front wall, where the
    agent could not see it again (FloorPlan28's potatoes)."""
    can = SceneObject("GarbageCan", (0.0, 0.0, 0.8), Box((-0.22, 0.0, 0.6), (0.22, 0.43, 0.98)))
    sim, thing, _ = _put_from(can, "Potato", (0.08, 0.08, 0.12), horizon=60)
    eye = sim.camera().position
    assert sum((a - b) ** 2 for a, b in zip(eye, thing.center)) ** 0.5 > sim.visibility_distance
    # Put where the agent looks: it can be picked up again from the same pose.
    _step(sim, "PickupObject", objectId=thing.object_id)


def test_a_thing_put_on_a_counter_lands_ahead_where_the_hand_holds_it() -> None:
    """Among the spots the agent sees, the one nearest the hand (ahead of and below the eye), not
    the eye: nearest the eye, an apple put on a counter landed at the frame's bottom edge and its
    slices out of the frame; THOR's masks show it mid-frame (FloorPlan14)."""
    counter = SceneObject("CounterTop", (0.0, 0.9, 0.8), Box((-0.6, 0.86, 0.35), (0.6, 0.9, 1.25)))
    sim, thing, hand = _put_from(counter, "Apple", (0.1, 0.1, 0.1), horizon=45)
    assert abs(thing.center[2] - hand[2]) <= 0.1 and thing.center[2] - counter.box.lo[2] > 0.2
    _step(sim, "PickupObject", objectId=thing.object_id)


def test_a_put_lands_on_the_part_of_a_fixture_top_that_is_drawn() -> None:
    # A counter whose box reaches 0.4 m past where THOR's masks show its front (drawn margin high z
    # -0.4): the spot nearest the agent on the box is off the drawn top, where THOR has no counter.
    counter = SceneObject("CounterTop", (0.0, 0.9, 1.0), Box((-0.6, 0.88, 0.6), (0.6, 0.92, 1.4)),
                          drawn_margins=(0.0, 0.0, 0.0, 0.0, 0.0, -0.4))
    mug = SceneObject("Mug", (0.8, 0.05, 0.2), Box.from_center((0.8, 0.05, 0.2), (0.12, 0.1, 0.09)))
    world = LiteController(_room([counter, mug], "LiteTestDrawnTop")).world
    receptacle, held = world.by_id[counter.object_id], world.by_id[mug.object_id]
    xs, zs = world.put_grid(receptacle, held)
    assert len(xs) and float(zs.min()) >= 0.6 + 0.045 - 1e-9
    assert float(zs.max()) <= 1.0 - 0.045 + 1e-9, "the whole footprint stays on the drawn top"


def test_a_fixture_drawn_smaller_than_any_footprint_keeps_its_whole_box_for_puts() -> None:
    counter = SceneObject("CounterTop", (0.0, 0.9, 1.0), Box((-0.6, 0.88, 0.6), (0.6, 0.92, 1.4)),
                          drawn_margins=(-0.58, 0.0, 0.0, -0.58, 0.0, 0.0))
    mug = SceneObject("Mug", (0.8, 0.05, 0.2), Box.from_center((0.8, 0.05, 0.2), (0.12, 0.1, 0.09)))
    world = LiteController(_room([counter, mug], "LiteTestThinDrawing")).world
    xs, _ = world.put_grid(world.by_id[counter.object_id], world.by_id[mug.object_id])
    assert abs(float(xs.min()) + 0.5) < 1e-9 and abs(float(xs.max()) - 0.5) < 1e-9, "the grid of the whole box"


def test_a_put_into_a_fridge_keeps_its_whole_box_whatever_its_drawing() -> None:
    fridge = SceneObject("Fridge", (0.0, 0.9, 1.0), Box((-0.4, 0.0, 0.6), (0.4, 1.8, 1.4)),
                         drawn_margins=(0.0, 0.0, 0.0, 0.0, 0.0, -0.3))
    mug = SceneObject("Mug", (0.8, 0.05, 0.2), Box.from_center((0.8, 0.05, 0.2), (0.12, 0.1, 0.09)))
    world = LiteController(_room([fridge, mug], "LiteTestFridgeDrawing")).world
    _, zs = world.put_grid(world.by_id[fridge.object_id], world.by_id[mug.object_id])
    assert float(zs.max()) > 1.1, "the drawing of a fridge is its door, not where its shelves end"
