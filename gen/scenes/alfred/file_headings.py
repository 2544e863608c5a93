"""A replayed file's own headings: which way THOR laid a long thing it put into a sink basin in this
very episode, read from the file's own mask of the object's next sighting from the pose of the put.

Lite keeps the held yaw in a sink basin (:data:`~alfred_gen.sim.put_yaw.TURNED_TYPES`): THOR turns
the object to the basin's yaw, then by quarter turns until its box fits, and which turn fits first
depends on the bowl's colliders and on what already lies there, which lite's boxes do not predict
(session 82: THOR's masks of the pickups after a basin put show a knife, fork, spoon, butter knife,
spatula or ladle along the sight 138 times, across it 49). The file's own mask of the object from
the pose of the put (:func:`~alfred_gen.scenes.alfred.put_facts.put_sightings`, the sighting
:mod:`~alfred_gen.scenes.alfred.file_landings` reads the landing point from) shows which way this
episode's object lies: the mask's long axis on screen is the image of one of the two horizontal
world axes, and where a type has a head (:data:`~alfred_gen.sim.thor_shapes.HEAD_AT`) its wider end,
the head, pulls the mask's centroid off the middle of its extent (the fact head_votes read HEAD_AT
from). In the in-sample mask eval, Spoon-None-DiningTable-20 (T20190909_034703, low 41) lay across
the sight in lite where THOR's 70 px mask runs 39 rows up the frame and 1-4 columns wide, its bowl
at the far end.

:func:`mask_heading` reads that heading; :func:`with_file_headings` gives the receptacles of a
replayed scene their :attr:`~alfred_gen.sim.scene.SceneObject.file_put_headings`, and a put from that
pose turns the object along it (:func:`~alfred_gen.sim.put_yaw.file_yaw`). Over the 238 files of
``../shared/alfred`` 5 puts show one (3 ladles, a spatula, the spoon), and 3 of them turn the held
thing; the IoU of its next pickup (fidelity.masks' compare, completion on) before and after: the
ladle of Ladle-None-Cabinet-16 (T20190908_524851, low 44) 0.015 -> 0.372, the spatula of
Spatula-None-CounterTop-19 (T20190907_850030, low 25) 0.013 -> 0.121, both now under ALFRED's rule
where another object was, and the spoon 0.013 -> 0.107 (it leans on an egg as well,
:mod:`alfred_gen.sim.put_lean`: 0.119, picked); the two ladles of Ladle-None-DiningTable-20 already
lay that way (0.392, 0.215 as before). Like the file's landings, only the scene lookup with
completion on calls it; the held-out fidelity bench never does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import MALFORMED
from alfred_gen.scenes.alfred.file_landings import file_put_sightings
from alfred_gen.scenes.alfred.put_facts import MIN_PIXELS
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.put_lean import long_in_plan
from alfred_gen.sim.scene import ALFRED_CAMERA, Scene
from alfred_gen.sim.thor_shapes import HEAD_AT
from alfred_gen.traj.rle import decode_mask

#: Receptacle types whose file headings are read: sink basins, where lite keeps the held yaw (a
#: microwave's put turns the object by THOR's own loop, :func:`~alfred_gen.sim.put_yaw.turn_for_put`).
HEADING_RECEPTACLES = frozenset({"SinkBasin"})

#: How many times its minor axis the mask's major axis (square roots of the pixel spread's
#: eigenvalues) must be for its long axis to say anything (a thing seen end on is round).
ELONGATED = 2.0

#: Metres either side of the sighted point over which a world axis's image direction is taken (the
#: direction through a point does not depend on its depth along the ray: it points to the axis's
#: vanishing point).
STEP = 0.05


def is_long_type(kind: str) -> bool:
    """Whether a ``kind``'s longer horizontal side is :data:`~alfred_gen.sim.put_lean.LONG_RATIO` times
    its shorter (spoons 5.0; knives, forks, ladles, spatulas, butter knives): what a mask shows the
    heading of."""
    return long_in_plan(catalogue.object_type(kind).size)


def mask_heading(mask: np.ndarray, camera: Camera, kind: str) -> float | None:
    """The world heading (THOR's yaw of a direction: 0 is +z, 90 is +x) of a ``kind``'s long side
    that shows as ``mask`` to ``camera``: along the world axis whose image runs nearest the mask's
    long axis, towards its head for a :data:`HEAD_AT` type (the end the mask's centroid lies off its
    extent's middle), else either way (:func:`~alfred_gen.sim.put_yaw.file_yaw` turns the held
    thing the fewer quarter turns). None for a type not long (:func:`is_long_type`), a mask of fewer
    than :data:`~alfred_gen.scenes.alfred.put_facts.MIN_PIXELS` or not :data:`ELONGATED`. A heading,
    not the object's yaw: which own axis of a thing its box is long in is its room's (a spoon's
    catalogue size is long in own z, FloorPlan20's spoon box in own x)."""
    rows, cols = np.nonzero(mask)
    if not is_long_type(kind) or len(rows) < MIN_PIXELS:
        return None
    pixels = np.stack([cols + 0.5, rows + 0.5], axis=1)
    spread, axes = np.linalg.eigh(np.cov((pixels - pixels.mean(axis=0)).T))
    if spread[1] < ELONGATED ** 2 * max(float(spread[0]), 1e-9):
        return None
    major = axes[:, 1]
    ray = camera.ray(float(pixels[:, 0].mean()), float(pixels[:, 1].mean()))
    seen = camera.position + ray / np.linalg.norm(ray)
    best: tuple[float, float, np.ndarray] | None = None
    for heading, (dx, dz) in ((0.0, (0.0, 1.0)), (90.0, (1.0, 0.0))):
        step = STEP * np.array([dx, 0.0, dz])
        u, v, depth = camera.project(np.stack([seen - step, seen + step]))
        if not (depth > 0).all():
            continue
        image = np.array([u[1] - u[0], v[1] - v[0]])
        image /= max(float(np.linalg.norm(image)), 1e-9)
        fit = abs(float(image @ major))
        if best is None or fit > best[0]:
            best = (fit, heading, image)
    if best is None:
        return None
    _, heading, image = best
    if kind in HEAD_AT:
        along = pixels @ image
        low, high = np.percentile(along, (2.0, 98.0))
        if float(along.mean()) < (low + high) / 2:
            heading += 180.0
    return heading


def file_put_headings(traj: Mapping[str, Any]) -> list[tuple[str, str, tuple[float, float, float, float], float]]:
    """(receptacle id, type, pose of the put, heading) for each put of a long thing into a
    :data:`HEADING_RECEPTACLES` receptacle whose sighting from the pose of the put shows its heading
    (:func:`mask_heading`); none for a malformed file."""
    try:
        sightings, agent_y = file_put_sightings(traj)
        eye = agent_y + ALFRED_CAMERA.height
        out = []
        for receptacle, shown, pose, runs in sightings:
            kind = catalogue.type_of_id(shown)
            if catalogue.type_of_id(receptacle) not in HEADING_RECEPTACLES or kind not in catalogue.OBJECT_TYPES:
                continue
            x, z, rotation, horizon = (float(c) for c in pose)
            camera = Camera(x, eye, z, rotation, horizon, ALFRED_CAMERA.field_of_view)
            heading = mask_heading(decode_mask(runs), camera, kind)
            if heading is not None:
                out.append((receptacle, kind, (x, z, rotation, horizon), heading))
        return out
    except MALFORMED:
        return []


def with_put_headings(scene: Scene, headings: Sequence[tuple[str, str, tuple[float, float, float, float], float]],
                      ) -> Scene:
    """``scene`` with ``headings`` as its receptacles'
    :attr:`~alfred_gen.sim.scene.SceneObject.file_put_headings`; ``scene`` itself when none names a
    receptacle the room holds."""
    own: dict[str, list[tuple[str, tuple[float, ...]]]] = {}
    for receptacle, kind, pose, heading in headings:
        own.setdefault(receptacle, []).append((kind, (*pose, heading)))
    if not any(o.object_id in own for o in scene.objects):
        return scene
    objects = [replace(o, file_put_headings=tuple(own[o.object_id])) if o.object_id in own else o
               for o in scene.objects]
    return replace(scene, objects=objects)


def with_file_headings(scene: Scene, traj: Mapping[str, Any]) -> Scene:
    """``scene`` with ``traj``'s own put headings (:func:`with_put_headings`)."""
    return with_put_headings(scene, file_put_headings(traj))
