"""A replayed file's own headings (issue 62): a long thing put into a sink basin lies the way its
own next mask from the pose of the put shows, with completion on only."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.file_headings import mask_heading, with_put_headings
from alfred_gen.sim import fixtures
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.lite import LiteController
from alfred_gen.sim.scene import ALFRED_CAMERA, SceneObject
from alfred_gen.sim.world_objects import turn_horizontal
from alfred_gen.traj.rle import FRAME_HEIGHT, FRAME_WIDTH
from tests.helpers.sim_actions import put_held_at_yaw

EYE = (0.0, 0.9 + ALFRED_CAMERA.height, 0.0)


def _camera() -> Camera:
    return Camera(EYE[0], EYE[1], EYE[2], 0.0, 45.0, ALFRED_CAMERA.field_of_view)


def _spoon_mask(yaw: float) -> np.ndarray:
    """A spoon (its head, the own +x third, as wide as its box; its handle a third as wide) lying at
    ``yaw`` on the floor 1.5 m under the eye, where a camera looking down 45 degrees sees it, drawn as
    the screen rectangles round its two parts."""
    sx, height, sz = catalogue.object_type("Spoon").size
    length, width = max(sx, sz), min(sx, sz)
    middle = np.array([0.0, EYE[1] - 1.5, 1.5])
    mask = np.zeros((FRAME_HEIGHT, FRAME_WIDTH), bool)
    camera = _camera()
    for x0, x1, half in ((length / 2 - 0.3 * length, length / 2, width / 2),
                         (-length / 2, length / 2 - 0.3 * length, 0.15 * width)):
        corners = []
        for x in (x0, x1):
            for z in (-half, half):
                dx, dz = turn_horizontal(x, z, round(yaw / 90.0))
                for y in (0.0, height):
                    corners.append(middle + np.array([dx, y, dz]))
        u, v, _ = camera.project(np.array(corners))
        mask[int(v.min()):int(np.ceil(v.max())), int(u.min()):int(np.ceil(u.max()))] = True
    return mask


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, 270.0])
def test_a_spoons_mask_shows_which_way_its_head_points(yaw: float) -> None:
    # The drawn spoon's head is its own +x end: at yaw 0 it points to +x (heading 90), a quarter
    # turn on to -z (heading 180).
    assert mask_heading(_spoon_mask(yaw), _camera(), "Spoon") == (yaw + 90.0) % 360.0


def test_no_heading_from_a_round_mask_a_small_one_or_a_round_type() -> None:
    camera = _camera()
    square = np.zeros((FRAME_HEIGHT, FRAME_WIDTH), bool)
    square[140:160, 140:160] = True
    assert mask_heading(square, camera, "Spoon") is None  # seen end on: no long axis
    assert mask_heading(_spoon_mask(90.0), camera, "Apple") is None  # not a long type
    few = np.zeros((FRAME_HEIGHT, FRAME_WIDTH), bool)
    few[140:160, 150] = True  # 20 px
    assert mask_heading(few, camera, "Spoon") is None


POSE = (-0.5, 1.25, 0.0, 45.0)


def _put_the_knife(heading: float, pose: tuple[float, float, float, float] = POSE,
                   held_yaw: float = 0.0) -> float:
    """The kitchen as an imported room whose sink basin's file shows a knife put from :data:`POSE`
    lying along ``heading``: hold the knife (its box long in z at yaw 0) at ``held_yaw``, put it into
    the basin from ``pose``; its yaw after."""
    scene = replace(fixtures.kitchen(), camera=ALFRED_CAMERA)
    basin = next(o for o in scene.objects if o.object_type == "SinkBasin")
    own = with_put_headings(scene, [(basin.object_id, "Knife", POSE, heading)])
    declared = own.object(basin.object_id)
    assert declared.file_put_headings == (("Knife", (*POSE, heading)),)
    assert SceneObject.from_dict(json.loads(json.dumps(declared.to_dict()))) == declared
    assert with_put_headings(scene, [("Sink|+09.00|+00.00|+09.00|SinkBasin", "Knife", POSE, heading)]) is scene
    sim = LiteController(own)
    return put_held_at_yaw(sim, "Knife", held_yaw, pose, basin.object_id)


def test_a_put_from_the_files_pose_turns_a_long_thing_along_the_files_heading() -> None:
    assert _put_the_knife(90.0) == 90.0  # along x: a quarter turn
    assert _put_the_knife(0.0) == 0.0  # already along z
    # A knife's mask does not tell its ends apart: the fewer quarter turns.
    assert _put_the_knife(180.0) == 0.0
    assert _put_the_knife(180.0, held_yaw=90.0) == 180.0
    # From another pose the file says nothing: the held yaw stays, as lite keeps it in a basin.
    assert _put_the_knife(90.0, pose=(-0.5, 1.25, 0.0, 30.0)) == 0.0
