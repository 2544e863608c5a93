"""A shut cabinet's mask is its door in rooms imported from ALFRED: its carcass is drawn as
structure (FRONT_ONLY, gen/sim/thor_shapes.py; CARCASS_OWNER, gen/sim/pixels.py)."""

from __future__ import annotations

import numpy as np
import pytest

from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, SceneObject
from alfred_gen.sim.shapes import BODY
from alfred_gen.sim.thor_shapes import carcass_parts, front_parts, open_top_parts
from tests.helpers.sim_actions import oid
from tests.helpers.small_rooms import first_mask, walled_room

#: A base cabinet 0.5 m wide facing +z (towards the agent), its front at z 0.9.
CABINET = Box((-0.25, 0.05, 0.4), (0.25, 0.75, 0.9))


def test_front_and_carcass_split_the_shut_shape() -> None:
    front = front_parts("Cabinet", CABINET, 0)
    carcass = carcass_parts("Cabinet", CABINET, 0)
    assert front and carcass
    assert all(tone is BODY for _, tone in carcass) and not any(tone is BODY for _, tone in front)
    # The door is the front face: nothing of it lies in the back half of the box.
    assert min(b.lo[2] for b, _ in front) > (CABINET.lo[2] + CABINET.hi[2]) / 2


def _cabinet_view(imported: bool) -> tuple[np.ndarray, np.ndarray]:
    """(the cabinet's instance mask, the depth frame), seen from its front and above."""
    from alfred_gen.sim import pixels

    pixels.forget_shapes()
    cabinet = SceneObject("Cabinet", (-0.25, 0.4, 0.65), CABINET)
    room = walled_room([cabinet], Pose(0.0, 1.5, 180, 45), name="FloorPlan3" if imported else "LitePlan3",
                       camera=ALFRED_CAMERA if imported else None)
    sim = LiteController(room, render_image=False, render_object_image=True, render_depth_image=True)
    event = sim.last_event
    return np.asarray(event.instance_masks[oid(sim, "Cabinet")]), np.asarray(event.depth_frame)


def test_an_imported_shut_cabinet_shows_its_door_not_its_top(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels, thor_shapes

    door, depth = _cabinet_view(True)
    monkeypatch.setattr(pixels, "FRONT_ONLY", frozenset())
    monkeypatch.setattr(thor_shapes, "FRONT_ONLY", frozenset())
    whole, whole_depth = _cabinet_view(True)
    # Seen from above, the top lies above the door in the frame: it is drawn still (the depth
    # frame is unchanged) but no part of the cabinet's mask.
    assert 0 < door.sum() < whole.sum()
    assert door.any(axis=1).nonzero()[0].min() > whole.any(axis=1).nonzero()[0].min()
    assert not (door & ~whole).any()
    assert np.allclose(depth, whole_depth)


def test_a_procedural_room_draws_its_cabinet_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels, thor_shapes

    mask, _ = _cabinet_view(False)
    monkeypatch.setattr(pixels, "FRONT_ONLY", frozenset())
    monkeypatch.setattr(thor_shapes, "FRONT_ONLY", frozenset())
    assert (mask == _cabinet_view(False)[0]).all()


#: A wall cabinet: the same box hung 1.5 m higher.
WALL_CABINET = Box((-0.25, 1.55, 0.4), (0.25, 2.25, 0.9))


def test_an_open_base_cabinet_keeps_its_top_a_wall_cabinet_none() -> None:
    top = open_top_parts("Cabinet", CABINET, 0)
    assert len(top) == 1 and top[0][1] is BODY
    (box, _), = top
    # The top panel: at the box's top, across its width, not reaching past its front.
    assert box.hi[1] == pytest.approx(CABINET.hi[1]) and box.lo[1] > CABINET.hi[1] - 0.05
    assert box.hi[2] <= CABINET.hi[2]
    assert open_top_parts("Cabinet", WALL_CABINET, 0) == []


def _open_cabinet_view(position: tuple[float, float, float] = (-0.25, 0.4, 0.65), box: Box = CABINET,
                       horizon: int = 45) -> tuple[np.ndarray, np.ndarray]:
    """(the open cabinet's instance mask, the depth frame), seen from its front (from above for a
    base cabinet at the default horizon)."""
    from alfred_gen.sim import pixels

    pixels.forget_shapes()
    cabinet = SceneObject("Cabinet", position, box)
    room = walled_room([cabinet], Pose(0.0, 1.5, 180, horizon), camera=ALFRED_CAMERA)
    sim = LiteController(room, render_image=False, render_object_image=True, render_depth_image=True)
    target = oid(sim, "Cabinet")
    event = sim.step(action="OpenObject", objectId=target, forceAction=True)
    assert event.metadata["lastActionSuccess"]
    return np.asarray(event.instance_masks[target]), np.asarray(event.depth_frame)


def test_an_imported_open_base_cabinet_hides_its_floor_under_its_top(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    covered, depth = _open_cabinet_view()
    monkeypatch.setattr(pixels, "open_top_parts", lambda *_: [])
    bare, bare_depth = _open_cabinet_view()
    # Seen from above, the floor inside was the cabinet's: the top (no instance) now hides it, and
    # the depth frame sees the top where it saw the floor.
    assert 0 < covered.sum() < bare.sum()
    assert not (covered & ~bare).any()
    assert (depth <= bare_depth + 1e-6).all() and (depth < bare_depth - 1e-3).any()


def test_an_open_wall_cabinet_is_drawn_whole_a_base_cabinet_as_lite_draws_it() -> None:
    from alfred_gen.sim.shapes import DOOR, shape_parts
    from alfred_gen.sim.thor_shapes import open_wall_parts

    assert open_wall_parts("Cabinet", CABINET, 0) is None
    assert open_wall_parts("Fridge", WALL_CABINET, 0) is None
    whole = open_wall_parts("Cabinet", WALL_CABINET, 0)
    bare = shape_parts("Cabinet", WALL_CABINET, is_open=True, facing=0)
    # Lite's open drawing but its door (drawn as THOR stands it: the next test).
    assert whole is not None and all(part in whole for part in bare if part[1] is not DOOR)
    # Its carcass's sides and top, which lite's open drawing leaves off, are its own parts here.
    sides = [b for b, _ in whole if b.hi[1] - b.lo[1] > 0.5 and b.hi[0] - b.lo[0] < 0.05 and b.lo[2] < 0.5]
    assert {round(b.lo[0], 2) for b in sides} == {-0.25, 0.23}
    top = WALL_CABINET.hi[1] - 0.05
    assert any(b.lo[1] > top for b, _ in whole) and not any(b.lo[1] > top for b, _ in bare)


def test_an_imported_open_wall_cabinet_shows_its_inside_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    def view() -> np.ndarray:
        return _open_cabinet_view((-0.25, 1.9, 0.65), WALL_CABINET, horizon=0)[0]

    whole = view()
    monkeypatch.setattr(pixels, "open_parts", lambda *_: None)
    bare = view()
    # Looking up into it, its sides and ceiling are the cabinet's pixels too (THOR's mask has them).
    assert bare.sum() < whole.sum() and not (bare & ~whole).any()


def test_an_imported_open_wall_cabinet_s_leaf_is_thick_and_reaches_past_its_front() -> None:
    """THOR's cabinet doors stand at angles from 60 to 120 degrees by model: a leaf 0.1 m thick at
    square covers their spread, and a wall cabinet's door reaches 1.2 of its front's width (session
    85, masks of open wall cabinets held out). A base cabinet's door stays as lite draws it."""
    from alfred_gen.sim.shapes import DOOR, shape_parts
    from alfred_gen.sim.thor_shapes import open_wall_parts

    wall = open_wall_parts("Cabinet", WALL_CABINET, 0)
    assert wall is not None
    (leaf,) = [b for b, tone in wall if tone is DOOR]
    assert leaf.lo[0] == pytest.approx(-0.25) and leaf.hi[0] == pytest.approx(-0.15)  # inside, from the hinge
    assert leaf.hi[2] == pytest.approx(WALL_CABINET.hi[2] + 0.6)  # square, 1.2 of the front out
    (own,) = [b for b, tone in shape_parts("Cabinet", CABINET, is_open=True, facing=0) if tone is DOOR]
    assert own.hi[0] - own.lo[0] < 0.02 and own.hi[2] == pytest.approx(CABINET.hi[2] + 0.5)


def test_an_open_base_cabinet_keeps_its_side_at_the_hinge_only() -> None:
    from alfred_gen.sim.shapes import shape_parts
    from alfred_gen.sim.thor_shapes import open_base_parts, open_parts

    assert open_base_parts("Cabinet", WALL_CABINET, 0) is None and open_base_parts("Fridge", CABINET, 0) is None
    bare = shape_parts("Cabinet", CABINET, is_open=True, facing=0)
    for mirrored, hinge in ((False, CABINET.lo[0]), (True, CABINET.hi[0])):
        drawn = open_base_parts("Cabinet", CABINET, 0, mirrored)
        assert drawn is not None and drawn == open_parts("Cabinet", CABINET, 0, mirrored)
        lite = shape_parts("Cabinet", CABINET, is_open=True, facing=0, mirrored=mirrored)
        assert all(part in drawn for part in lite)
        # One panel more: the full-height side at the door's hinge end, inside the box.
        (side, _), = [part for part in drawn if part not in lite]
        assert side.hi[0] - side.lo[0] < 0.05 and side.hi[1] - side.lo[1] == pytest.approx(0.7)
        assert hinge in (pytest.approx(side.lo[0]), pytest.approx(side.hi[0]))
        assert CABINET.lo[2] <= side.lo[2] and side.hi[2] <= CABINET.hi[2]
    assert len(bare) + 1 == len(open_base_parts("Cabinet", CABINET, 0) or [])


def test_an_imported_open_base_cabinet_shows_its_hinge_side_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels

    # Seen from its front and to the right of its hinge (low x), so the inner face of that side shows.
    def view() -> np.ndarray:
        return _open_cabinet_view((-0.25, 0.4, 0.65))[0]

    sided = view()
    monkeypatch.setattr(pixels, "open_parts", lambda *_: None)
    bare = view()
    assert bare.sum() < sided.sum()


#: A shut drawer 0.5 m wide, 0.2 m tall and 0.45 m deep facing +z, its front at z 0.9.
DRAWER = Box((-0.25, 0.55, 0.45), (0.25, 0.75, 0.9))


def test_a_shut_drawer_is_its_front_the_box_behind_it_carcass() -> None:
    from alfred_gen.sim.thor_shapes import DRAWER_FRONT, DRAWER_SHUT_CUT

    assert 0 < DRAWER_SHUT_CUT < DRAWER.size[1]
    front = front_parts("Drawer", DRAWER, 0)
    carcass = carcass_parts("Drawer", DRAWER, 0)
    assert front and carcass
    # The front: the box's whole width, from DRAWER_SHUT_CUT above its bottom to its top, DRAWER_FRONT
    # deep at its front face (the knob on it); nothing drawn outside the box.
    assert min(b.lo[2] for b, _ in front) == pytest.approx(DRAWER.hi[2] - DRAWER_FRONT)
    assert max(b.hi[1] for b, _ in front) == pytest.approx(DRAWER.hi[1])
    assert min(b.lo[1] for b, _ in front) == pytest.approx(DRAWER.lo[1] + DRAWER_SHUT_CUT)
    # The carcass is the rest of the box, behind the front, cut alike.
    (box, tone), = carcass
    assert tone is BODY and box.hi[2] == pytest.approx(DRAWER.hi[2] - DRAWER_FRONT)
    assert box.lo == pytest.approx((DRAWER.lo[0], DRAWER.lo[1] + DRAWER_SHUT_CUT, DRAWER.lo[2]))
    # An open drawer slides out whole: no top is kept over it.
    assert open_top_parts("Drawer", DRAWER, 0) == []


def test_an_imported_shut_drawer_shows_its_front_not_its_top(monkeypatch: pytest.MonkeyPatch) -> None:
    from alfred_gen.sim import pixels, thor_shapes

    def view() -> np.ndarray:
        pixels.forget_shapes()
        drawer = SceneObject("Drawer", (0.0, 0.65, 0.7), DRAWER)
        room = walled_room([drawer], Pose(0.0, 1.75, 180, 45), name="FloorPlan303", scene_num=303,
                           room_type="bedroom", camera=ALFRED_CAMERA)
        return first_mask(room, "Drawer")

    front = view()
    monkeypatch.setattr(pixels, "FRONT_ONLY", frozenset({"Cabinet"}))
    monkeypatch.setattr(thor_shapes, "FRONT_ONLY", frozenset({"Cabinet"}))
    whole = view()
    # Seen from above, the drawer's top lay above its front in the frame: no part of its mask now.
    assert 0 < front.sum() < whole.sum()
    assert front.any(axis=1).nonzero()[0].min() > whole.any(axis=1).nonzero()[0].min()
    assert not (front & ~whole).any()
