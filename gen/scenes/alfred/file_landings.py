"""A replayed file's own landings: where THOR put things into a fridge, a sink basin or a microwave
in this very episode, read from the file's own masks, before the room's points.

An imported room knows where THOR put each type into each fridge, basin and microwave from each pose
(:attr:`~alfred_gen.sim.scene.SceneObject.put_points`): the median (a fridge's: the densest cluster)
of what its demos' masks show (:func:`~alfred_gen.scenes.alfred.put_points.put_points_by_pose`). But
THOR's first fitting spot also depends on what already lies in the receptacle, so demos from one
pose disagree, and a point made of other demos can lie where this episode's object did not: in the
in-sample mask eval (session 89) Lettuce-None-DiningTable-24's lettuce went to the fridge's bottom
shelf (0.18 m) where the room's point is the 0.64 m shelf, and the later pickup's recorded mask
resolved to another object.

Replaying a file, its own put facts (:func:`~alfred_gen.scenes.alfred.put_facts.put_facts`: a put
and the next interaction showing the object from the same pose) are THOR's landings of this episode,
so :func:`with_file_landings` gives them precedence over the room's points for the same receptacle,
pose and type; the room's other points stay. A fridge's ``point`` rule then ranks its places by
the file's point; a sink basin's rule lands the object exactly on its line of sight
(:func:`~alfred_gen.sim.put_landing.file_landing`). Only the scene lookup of replay, verify, derive and
``eval alfred`` with completion on calls it
(:meth:`~alfred_gen.scenes.library.SceneLibrary.for_start_state`); the held-out fidelity bench builds
its rooms itself and never does (a mask measured against itself would say nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from alfred_gen.scenes.alfred.evidence import MALFORMED, interaction_steps
from alfred_gen.scenes.alfred.put_facts import PutFact, Sighting, put_sightings, sighting_facts
from alfred_gen.scenes.alfred.put_points import put_points_by_pose
from alfred_gen.sim.scene import ALFRED_CAMERA, Scene


def file_put_sightings(traj: Mapping[str, Any]) -> tuple[list[Sighting], float]:
    """``traj``'s put sightings (:func:`~alfred_gen.scenes.alfred.put_facts.put_sightings`, its
    interactions' poses by dead reckoning) and the agent's floor height; raises one of
    :data:`~alfred_gen.scenes.alfred.evidence.MALFORMED` for a malformed file."""
    scene = traj["scene"]
    low_actions = (traj.get("plan") or {}).get("low_actions") or []
    steps = interaction_steps(scene, low_actions)[1]
    return put_sightings(low_actions, steps), float(scene["init_action"].get("y", 0.0))


def file_put_facts(traj: Mapping[str, Any]) -> list[PutFact]:
    """The put facts ``traj``'s own masks show, read as the importer reads a demo's
    (:func:`~alfred_gen.scenes.alfred.evidence.trajectory_facts`' ``puts``, without the rest of its
    facts); none for a malformed file."""
    try:
        return sighting_facts(*file_put_sightings(traj))
    except MALFORMED:
        return []


def with_put_facts(scene: Scene, facts: Sequence[PutFact]) -> Scene:
    """``scene`` with ``facts`` as its receptacles' :attr:`~alfred_gen.sim.scene.SceneObject.file_put_points`
    (grouped as the importer groups a room's, typed points only: the any-type points stand for types
    the file never put from that pose, which the room's demos know better); ``scene`` itself when
    no fact lies inside a receptacle the room holds. A microwave's fact stands alone here: the room's
    points need a repeated landing (:data:`~alfred_gen.scenes.alfred.put_points.REPEAT_TYPES`), but a
    file's own fact is THOR's landing in this very episode."""
    own = put_points_by_pose(scene.objects, facts, scene.agent_y + ALFRED_CAMERA.height, repeated=False) \
        if facts else {}
    if not own:
        return scene
    objects = [replace(o, file_put_points=tuple(p for p in own[o.object_id] if p[0])) if o.object_id in own else o
               for o in scene.objects]
    return replace(scene, objects=objects)


def with_file_landings(scene: Scene, traj: Mapping[str, Any]) -> Scene:
    """``scene`` with ``traj``'s own put facts (:func:`with_put_facts`)."""
    return with_put_facts(scene, file_put_facts(traj))
