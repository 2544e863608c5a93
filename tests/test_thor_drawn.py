"""Small pickupables drawn at THOR's size in rooms imported from ALFRED, and as before elsewhere.

THOR's meshes of a watch, a key chain or a spatula cover a fraction of their bounding box; lite
draws them in a shrunk box in imported rooms (:mod:`alfred_gen.sim.thor_drawn`), and leaves
procedural rooms, which have no THOR meshes to match, drawn as they were.
"""

from __future__ import annotations

import pytest

from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, Box, Pose, Scene, SceneObject
from alfred_gen.sim.thor_drawn import DRAWN_SCALE, drawn_scale, shrunk
from tests.helpers.small_rooms import walled_room

COUNTER_TOP = 0.9


def _room(object_type: str, size: tuple[float, float, float], imported: bool) -> Scene:
    """A counter with one ``object_type`` lying on it in front of the agent; ``imported``: the room
    declares ALFRED's camera, as every room imported from ALFRED does."""
    counter = SceneObject("CounterTop", (0.0, COUNTER_TOP, 1.0), Box((-1.0, 0.0, 0.7), (1.0, COUNTER_TOP, 1.3)))
    sx, sy, sz = size
    thing = SceneObject(object_type, (0.0, COUNTER_TOP, 1.0),
                        Box((-sx / 2, COUNTER_TOP, 1.0 - sz / 2), (sx / 2, COUNTER_TOP + sy, 1.0 + sz / 2)),
                        name=f"{object_type}_1", parent=counter.object_id)
    return walled_room([counter, thing], Pose(0.0, 0.25, 0, 30), name="FloorPlan3" if imported else "LitePlan3",
                       camera=ALFRED_CAMERA if imported else None)


def _pixels(object_type: str, size: tuple[float, float, float], imported: bool) -> int:
    sim = LiteController(_room(object_type, size, imported), render_image=False, render_object_image=True)
    event = sim.last_event
    target = next(o["objectId"] for o in event.metadata["objects"] if o["objectType"] == object_type)
    return int(event.instance_masks[target].sum())


def test_only_rooms_imported_from_alfred_say_so() -> None:
    assert _room("Watch", (0.08, 0.04, 0.05), imported=True).from_alfred
    assert not _room("Watch", (0.08, 0.04, 0.05), imported=False).from_alfred


@pytest.mark.parametrize("object_type", sorted(DRAWN_SCALE))
def test_procedural_rooms_draw_every_type_whole(object_type: str) -> None:
    assert drawn_scale(object_type, from_alfred=False) == 1.0
    assert 0.0 < drawn_scale(object_type, from_alfred=True) < 1.0


def test_a_type_thor_draws_as_big_as_its_box_is_drawn_whole_in_imported_rooms() -> None:
    assert drawn_scale("Fridge", from_alfred=True) == 1.0
    assert drawn_scale("CounterTop", from_alfred=True) == 1.0


def test_the_shrunk_box_rests_where_the_box_rests_and_keeps_its_middle() -> None:
    box = Box((1.0, 0.9, 2.0), (1.2, 1.0, 2.4))
    small = shrunk(box, 0.5)
    assert small.lo[1] == pytest.approx(0.9)
    assert small.size == pytest.approx((0.1, 0.05, 0.2))
    assert small.center[0] == pytest.approx(box.center[0])
    assert small.center[2] == pytest.approx(box.center[2])
    assert shrunk(box, 1.0) == box


def _most_shrunk() -> str:
    return min(DRAWN_SCALE, key=lambda t: (DRAWN_SCALE[t], t))


def test_an_imported_room_draws_a_small_pickupable_in_its_shrunk_box(monkeypatch: pytest.MonkeyPatch) -> None:
    object_type = _most_shrunk()
    size = (0.12, 0.04, 0.12)
    drawn = _pixels(object_type, size, imported=True)
    scale = DRAWN_SCALE[object_type]
    monkeypatch.setitem(DRAWN_SCALE, object_type, 1.0)
    whole = _pixels(object_type, size, imported=True)
    assert whole > 0 and drawn > 0
    # Area goes with the square of the scale, within the pixel rounding of a small object.
    assert drawn / whole == pytest.approx(scale * scale, rel=0.35)


def test_a_procedural_room_draws_it_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    object_type = _most_shrunk()
    size = (0.12, 0.04, 0.12)
    drawn = _pixels(object_type, size, imported=False)
    monkeypatch.delitem(DRAWN_SCALE, object_type)
    assert _pixels(object_type, size, imported=False) == drawn
