"""Which end of a flat model holds its head, from where its mask's pixels gather
(:mod:`alfred_gen.fidelity.head_fit`), on synthetic masks cast with ALFRED's camera."""

from __future__ import annotations

import numpy as np
import pytest

from alfred_gen.fidelity.camera_fit import MaskObservation
from alfred_gen.fidelity.head_fit import head_direction, head_offset, head_votes
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.world import quarter_turns, turn_horizontal

ORIGIN = (0.0, 0.9, 1.0)
AGENT = (0.0, 0.9, 0.0)


def _spatula_points(yaw: float) -> np.ndarray:
    """A blade (dense, 6 cm wide) at the model's own -x end of a thin handle, turned by ``yaw``."""
    own = [(x, z) for x in np.linspace(-0.15, -0.05, 21) for z in np.linspace(-0.03, 0.03, 13)]
    own += [(x, 0.0) for x in np.linspace(-0.05, 0.15, 21)]
    turns = quarter_turns(yaw)
    world = [turn_horizontal(x, z, turns) for x, z in own]
    return np.array([(ORIGIN[0] + x, ORIGIN[1], ORIGIN[2] + z) for x, z in world])


def _observation(yaw: float, kind: str = "Spatula") -> MaskObservation:
    camera = Camera(AGENT[0], AGENT[1] + ALFRED_CAMERA.height, AGENT[2], 0.0, 45.0, ALFRED_CAMERA.field_of_view)
    u, v, _ = camera.project(_spatula_points(yaw))
    cols, rows = np.floor(u).astype(int), np.floor(v).astype(int)
    return MaskObservation(AGENT, 0.0, 45.0, ORIGIN, (float(u.mean()), float(v.mean())),
                           (int(cols.min()), int(rows.min()), int(cols.max()), int(rows.max())),
                           f"{kind}|+00.00|+00.90|+01.00", yaw)


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0])
def test_the_head_is_found_at_the_models_own_end_whatever_its_yaw(yaw: float) -> None:
    offset = head_offset(_observation(yaw))
    assert offset is not None
    assert offset[0] < -0.005 and abs(offset[1]) < abs(offset[0])


def test_a_yaw_off_the_quarter_turns_is_not_read() -> None:
    assert head_offset(_observation(40.0)) is None


def test_votes_are_counted_per_type_and_decide_the_direction() -> None:
    votes = head_votes([_observation(0.0), _observation(90.0), _observation(180.0, "Ladle")], ["Spatula"])
    assert set(votes) == {"Spatula"}
    assert votes["Spatula"][:2] == (0, 2)
    assert head_direction(votes["Spatula"]) == (-1, 0)


def test_an_undecided_type_has_no_direction() -> None:
    assert head_direction((10, 9, 3, 4)) is None
    assert head_direction((0, 0, 1, 9)) == (0, -1)


def test_a_frame_point_cast_onto_a_plane_projects_back_to_it() -> None:
    camera = Camera(0.3, 1.5, -0.4, 90.0, 30.0, ALFRED_CAMERA.field_of_view)
    point = camera.on_plane(120.5, 200.5, 0.9)
    assert point is not None and point[1] == pytest.approx(0.9)
    u, v, depth = camera.project(np.array([point]))
    assert (u[0], v[0]) == (pytest.approx(120.5), pytest.approx(200.5)) and depth[0] > 0
    assert camera.on_plane(150.0, 10.0, 0.9) is not None  # looking down 30 degrees, the top row still goes down
    assert Camera(0.0, 1.5, 0.0, 0.0, 0.0, 60.0).on_plane(150.0, 20.0, 0.9) is None  # above the horizon
