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

:func:`~alfred_gen.scenes.alfred.put_headings.mask_heading` reads that heading;
:func:`with_file_headings` gives the receptacles of a replayed scene their
:attr:`~alfred_gen.sim.scene.SceneObject.file_put_headings`, and a put from that pose turns the
object along it (:func:`~alfred_gen.sim.put_yaw.file_yaw`). Over the 238 files of
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

from alfred_gen.scenes.alfred.evidence import MALFORMED
from alfred_gen.scenes.alfred.file_landings import file_put_sightings
from alfred_gen.scenes.alfred.put_headings import mask_heading, sighting_headings
from alfred_gen.sim.scene import Scene

__all__ = ["file_put_headings", "mask_heading", "with_file_headings", "with_put_headings"]


def file_put_headings(traj: Mapping[str, Any]) -> list[tuple[str, str, tuple[float, float, float, float], float]]:
    """(receptacle id, type, pose of the put, heading) for each put of a long thing into a
    :data:`~alfred_gen.scenes.alfred.put_headings.HEADING_RECEPTACLES` receptacle whose sighting
    from the pose of the put shows its heading
    (:func:`~alfred_gen.scenes.alfred.put_headings.sighting_headings`); none for a malformed file."""
    try:
        return [(f.receptacle, f.kind, f.pose, f.heading) for f in sighting_headings(*file_put_sightings(traj))]
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
