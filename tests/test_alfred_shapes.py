"""Occluders drawn closer to THOR's objects: what released ALFRED demos see past a statue or a bottle.

THOR decides visibility with rays against an object's colliders, which follow a statue's figure or a
bottle's neck; a full bounding box hides a card or a tomato slice that THOR showed (released demos
pick them up from there). The lite shapes give those types a narrower upper part.
"""

from __future__ import annotations

import math

import pytest

from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import Box, Pose, Scene, SceneObject
from alfred_gen.sim.shapes import (
    DOOR,
    ROUND_IN_PLAN,
    ROUND_INSET,
    drawn_box,
    hinged_at_high_end,
    shape_boxes,
    shape_parts,
)
from tests.helpers.small_rooms import walled_room

COUNTER_TOP = 0.9
#: A type lite draws as its whole box (an alarm clock), to compare the shaped types with.
BLOCK = "AlarmClock"


def _scene(occluder_type: str, size: tuple[float, float, float], card_x: float, gap: float) -> Scene:
    """A counter with ``occluder_type`` standing on it and a credit card lying ``gap`` behind it."""
    counter = SceneObject("CounterTop", (0.0, COUNTER_TOP, 1.0), Box((-1.0, 0.0, 0.7), (1.0, COUNTER_TOP, 1.3)))
    sx, sy, sz = size
    occluder = SceneObject(occluder_type, (0.0, COUNTER_TOP, 1.0),
                           Box((-sx / 2, COUNTER_TOP, 1.0 - sz / 2), (sx / 2, COUNTER_TOP + sy, 1.0 + sz / 2)),
                           name=f"{occluder_type}_1", parent=counter.object_id)
    card_at = (card_x, COUNTER_TOP + 0.002, 1.0 + sz / 2 + gap)
    card = SceneObject("CreditCard", card_at, Box.from_center(card_at, (0.086, 0.004, 0.054)), name="CreditCard_1",
                       parent=counter.object_id)
    return _kitchen("LiteTestOccluder", [counter, occluder, card], Pose(0.0, 0.25, 0, 30))


def _kitchen(name: str, objects: list[SceneObject], start: Pose) -> Scene:
    """A 3 m square kitchen holding ``objects`` (the first one a fixture the agent walks round)."""
    return walled_room(objects, start, name=name)


def _card_visible(occluder_type: str, size: tuple[float, float, float], card_x: float, gap: float = 0.04) -> bool:
    sim = LiteController(_scene(occluder_type, size, card_x, gap), render_image=False)
    card = next(o for o in sim.last_event.metadata["objects"] if o["objectType"] == "CreditCard")
    return bool(card["visible"])


@pytest.mark.parametrize(
    "occluder_type, size, gap",
    [
        ("Statue", (0.2, 0.35, 0.15), 0.04),  # beside the figure
        ("SoapBottle", (0.12, 0.24, 0.1), 0.25),  # seen over the body, beside the neck
        ("Kettle", (0.25, 0.25, 0.2), 0.2),  # seen over the body, beside the handle and lid
        ("TissueBox", (0.25, 0.2, 0.13), 0.2),  # seen over the box, beside the tissue
    ],
)
def test_a_card_behind_a_statue_or_bottle_is_seen_past_its_narrow_top(
    occluder_type: str, size: tuple[float, float, float], gap: float
) -> None:
    # A solid block of the same size hides the card entirely; the figure does not.
    card_x = size[0] / 2 - 0.045
    assert not _card_visible(BLOCK, size, card_x, gap)
    assert _card_visible(occluder_type, size, card_x, gap)


def test_a_card_straight_behind_a_statue_stays_hidden() -> None:
    # The figure is narrower, not absent: what lies right behind its middle is hidden.
    assert not _card_visible("Statue", (0.2, 0.35, 0.15), 0.0)


@pytest.mark.parametrize("round_type", ["Kettle", "Candle", "Pillow", "SprayBottle"])
def test_a_card_beside_a_round_things_corner_is_seen_past_its_body(round_type: str) -> None:
    # THOR's kettles, pots and cups, candles and spray bottles are round in plan, its pillows
    # rounded at the edges: a card lying where the back corner of their bounding box would hide it
    # is seen past the body. A block of the same size hides it, and the round body still hides a
    # card straight behind its middle.
    size = (0.2, 0.19, 0.2)
    card_x = size[0] / 2 - 0.007  # the card (8.6 cm wide) reaches 5 cm in behind the box's side
    assert not _card_visible(BLOCK, size, card_x, gap=0.005)
    assert _card_visible(round_type, size, card_x, gap=0.005)
    assert not _card_visible(round_type, size, 0.0, gap=0.005)


@pytest.mark.parametrize("object_type", sorted(ROUND_IN_PLAN))
def test_round_things_are_drawn_inside_their_box(object_type: str) -> None:
    box = Box((0.0, 0.9, 1.0), (0.2, 1.1, 1.3))
    drawn = [part for part in shape_boxes(object_type, box) if part.lo[1] < box.hi[1]]
    lo_x, hi_x = min(p.lo[0] for p in drawn), max(p.hi[0] for p in drawn)
    lo_z, hi_z = min(p.lo[2] for p in drawn), max(p.hi[2] for p in drawn)
    assert (lo_x, hi_x) == pytest.approx((0.2 * ROUND_INSET, 0.2 * (1 - ROUND_INSET)))
    assert (lo_z, hi_z) == pytest.approx((1.0 + 0.3 * ROUND_INSET, 1.3 - 0.3 * ROUND_INSET))
    assert drawn_box(object_type, box) != box
    assert drawn_box(BLOCK, box) == box


@pytest.mark.parametrize(
    "occluder_type, size, card_x, gap",
    [
        ("Lettuce", (0.2, 0.25, 0.2), 0.08, 0.12),  # behind the lettuce's shoulder
        ("Bread", (0.3, 0.14, 0.16), 0.0, 0.1),  # behind the loaf's crown
    ],
)
def test_a_card_behind_a_rounded_top_is_seen_over_it(occluder_type: str, size: tuple[float, float, float],
                                                      card_x: float, gap: float) -> None:
    # THOR's lettuces and loaves are rounded: a card a little behind one is seen over its top,
    # which a block of the same size (or a block with a crust on top) hid.
    assert not _card_visible(BLOCK, size, card_x, gap)
    assert _card_visible(occluder_type, size, card_x, gap)


@pytest.mark.parametrize("object_type", ["Lettuce", "Vase", "Bread"])
def test_rounded_things_are_narrower_at_the_top_than_at_their_widest(object_type: str) -> None:
    box = Box((0.0, 0.0, 0.0), (0.2, 0.3, 0.2))
    parts = shape_boxes(object_type, box)
    top = max(parts, key=lambda b: b.hi[1])
    widest = max(parts, key=lambda b: b.size[0])
    assert top.hi[1] == pytest.approx(box.hi[1]) and widest.hi[1] < box.hi[1]
    assert top.size[0] < 0.7 * widest.size[0] and top.size[2] < 0.7 * widest.size[2]


def test_a_roll_behind_a_faucet_is_seen_past_its_spout() -> None:
    # THOR's faucet is a thin neck in the middle of a box that reaches out to its handles: a thing
    # standing behind one end of the box is seen (a block hides it), one behind the middle is not.
    size = (0.27, 0.22, 0.24)
    off_middle = size[0] / 2 - 0.045
    assert not _card_visible(BLOCK, size, off_middle, gap=0.01)
    assert _card_visible("Faucet", size, off_middle, gap=0.01)
    assert not _card_visible("Faucet", (0.27, 0.22, 0.1), 0.0, gap=0.0)


@pytest.mark.parametrize("object_type", ["Statue", "SoapBottle", "WineBottle", "Glassbottle", "Kettle"])
def test_figure_and_neck_are_narrower_than_the_base_and_stay_in_the_box(object_type: str) -> None:
    box = Box((0.0, 0.0, 0.0), (0.2, 0.3, 0.1))
    parts = shape_boxes(object_type, box)
    assert len(parts) == 2
    base, top = sorted(parts, key=lambda b: b.lo[1])
    assert base.lo[1] == box.lo[1] and top.hi[1] == pytest.approx(box.hi[1])
    assert top.size[0] < base.size[0] and top.size[2] < base.size[2]
    for part in parts:
        assert all(box.lo[a] - 1e-9 <= part.lo[a] and part.hi[a] <= box.hi[a] + 1e-9 for a in range(3))


@pytest.mark.parametrize("facing", [0, 90, 180, 270])
def test_an_open_microwaves_door_hangs_on_the_agents_left(facing: int) -> None:
    # THOR's microwaves open to the left of their control panel, whichever way they face.
    box = Box((-0.25, 0.9, -0.2), (0.25, 1.2, 0.2)) if facing in (0, 180) else Box((-0.2, 0.9, -0.25), (0.2, 1.2, 0.25))
    mirrored = hinged_at_high_end("Microwave", box, (0.0, 1.05, 0.0), facing)
    door = next(part for part, tone in shape_parts("Microwave", box, True, facing, mirrored) if tone is DOOR)
    agent_yaw = math.radians((facing + 180) % 360)  # the agent faces the microwave's front
    left = (-math.cos(agent_yaw), math.sin(agent_yaw))  # x, z of the agent's left hand
    door_x, door_z = (door.lo[0] + door.hi[0]) / 2, (door.lo[2] + door.hi[2]) / 2
    assert door_x * left[0] + door_z * left[1] > 0.15


def test_a_card_straight_behind_a_tissue_box_stays_hidden() -> None:
    # The tissue sticking out of the box still hides what lies right behind its middle.
    assert not _card_visible("TissueBox", (0.25, 0.2, 0.13), 0.0, gap=0.2)


def test_a_card_just_behind_a_salt_shaker_is_seen_either_side_of_it() -> None:
    # THOR's salt shaker fills the middle of its box: a card lying against its back shows on both
    # sides, where a block of the same size hid it.
    size = (0.08, 0.11, 0.08)
    assert not _card_visible(BLOCK, size, 0.0, gap=0.005)
    assert _card_visible("SaltShaker", size, 0.0, gap=0.005)


def _seen_in_cabinet(cabinet: SceneObject, thing: SceneObject, start: Pose, open_it: bool) -> bool:
    """Whether the agent at ``start`` sees ``thing`` lying in ``cabinet``, after opening it or not."""
    sim = LiteController(_kitchen("LiteTestCabinet", [cabinet, thing], start), render_image=False)
    event = sim.last_event
    if open_it:
        event = sim.step(action="OpenObject", objectId=cabinet.object_id, forceAction=True)
        assert event.metadata["lastActionSuccess"]
    return bool(next(o for o in event.metadata["objects"] if o["objectId"] == thing.object_id)["visible"])


def _bowl_in_cabinet_visible(open_it: bool) -> bool:
    """A bowl on the floor of a base cabinet (front facing the agent 0.25 m away, looking down 30
    degrees)."""
    cabinet = SceneObject("Cabinet", (0.0, 0.38, -0.3), Box((-0.2, 0.02, -0.6), (0.2, 0.74, 0.0)))
    bowl_at = (0.0, 0.09, -0.31)
    bowl = SceneObject("Bowl", bowl_at, Box.from_center(bowl_at, (0.2, 0.08, 0.2)), name="Bowl_1",
                       parent=cabinet.object_id)
    return _seen_in_cabinet(cabinet, bowl, Pose(0.0, 0.25, 180, 30), open_it)


def _bottle_in_wall_cabinet_visible(open_it: bool) -> bool:
    """A spray bottle in a wall cabinet (front facing +x, 1.75 m up), the agent standing below and
    beside it looking up 30 degrees (FloorPlan405's cabinet over its toilet)."""
    cabinet = SceneObject("Cabinet", (-0.14, 2.1, 0.38), Box((-0.74, 1.75, 0.02), (-0.14, 2.45, 0.38)),
                          rotation=(0.0, 90.0, 0.0))
    at = (-0.30, 1.895, 0.185)
    bottle = SceneObject("SprayBottle", at, Box.from_center(at, (0.06, 0.25, 0.11)), name="SprayBottle_1",
                         parent=cabinet.object_id)
    return _seen_in_cabinet(cabinet, bottle, Pose(0.25, -0.75, 0, -30), open_it)


def test_a_bottle_in_an_open_wall_cabinet_is_seen_past_where_its_side_would_stand() -> None:
    # One carcass holds a row of THOR's cabinet doors: from below and beside an open wall cabinet
    # the agent sees in past where the side of its box would be (a side panel there hid it).
    assert _bottle_in_wall_cabinet_visible(open_it=True)
    assert not _bottle_in_wall_cabinet_visible(open_it=False)


def test_a_bowl_in_an_open_base_cabinet_is_seen_past_the_doors_top_edge() -> None:
    # THOR's cabinet is a door on the counter's carcass: standing before an open one, the agent
    # looks down into it over where a top panel at the box's top would be (released demos pick a
    # bowl up from there). A closed cabinet keeps its top and hides the bowl.
    assert _bowl_in_cabinet_visible(open_it=True)
    assert not _bowl_in_cabinet_visible(open_it=False)
    box = Box((0.0, 0.0, 0.0), (0.4, 0.7, 0.6))
    assert any(part.lo[1] > 0.6 and part.size[0] > 0.3 for part in shape_boxes("Cabinet", box, False))
    assert not any(part.lo[1] > 0.6 and part.size[0] > 0.3 for part in shape_boxes("Cabinet", box, True))
    # Open, the back, the floor and the door are left; closed, the whole carcass and the door.
    assert len(shape_boxes("Cabinet", box, True)) == 3 and len(shape_boxes("Cabinet", box, False)) > 5
