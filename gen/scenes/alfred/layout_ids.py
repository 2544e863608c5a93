"""A layout file's id and a demo's id a centimetre apart, of one type, name one object.

THOR 2.1 makes an object's id from its position when the scene loads, rounded to the centimetre. A
fixture built into the room (a cabinet, a counter top) loads where it always does, so its id never
changes; an object physics settles when the scene loads (an ottoman) can come to rest a centimetre
differently from one load to the next, and its id with it. ALFRED's layout files were written from
one load and the demos recorded from others: FloorPlan208's ottoman is ``Ottoman|-00.58|+00.00|+01.05``
in its ``openable.json`` and ``Ottoman|-00.58|+00.01|+01.05`` in all 15 train demos that name it.
Taken as two fixtures, the room held two ottomans in one place: the one only the layout names
(absent from THOR when the demos were recorded) drawn over the one they act on, so ALFRED's mask
rule picked the wrong one whenever a demo put something on it, and a task generated there could
name an id THOR does not have.

So a layout id that no demo names becomes the id the demos name for the same object
(:func:`matched_layout_ids`): one of the same type, not in the layout itself, at most a centimetre
off in each coordinate, and the only such. Over the 6,574 train demos and ALFRED's 120 layouts this
pairs FloorPlan208's ottoman alone. Two layout ids a centimetre apart are both THOR's (the two
doors of FloorPlan13's cabinet ``-00.64|+00.39|+05.58`` and ``+05.60``): an id in the layout is never
renamed into another one. Only imported rooms are built here, so procedural rooms are untouched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.sim.scene import Scene, SceneObject

#: How far apart (metres, in each coordinate) two ids of one type may lie and name one object: THOR
#: rounds ids to the centimetre, so one centimetre, with room for the rounding of the float.
SAME_OBJECT = 0.0101


def _near(a: str, b: str) -> bool:
    return (a.count("|") == b.count("|") and catalogue.type_of_id(a) == catalogue.type_of_id(b)
            and all(abs(p - q) <= SAME_OBJECT for p, q in zip(id_position(a), id_position(b))))


def matched_layout_ids(layout_ids: Iterable[str], named: Iterable[str]) -> dict[str, str]:
    """Layout id -> the demos' id of the same object, for each id of ``layout_ids`` that ``named``
    (the ids the demos name) lacks and that exactly one named id outside the layout lies within
    :data:`SAME_OBJECT` of (sorted by layout id)."""
    layout = sorted(set(layout_ids))
    named_ids = set(named)
    outside = sorted(named_ids - set(layout))
    matched: dict[str, str] = {}
    for layout_id in layout:
        if layout_id in named_ids:
            continue
        near = [i for i in outside if _near(layout_id, i)]
        if len(near) == 1:
            matched[layout_id] = near[0]
    taken = Counter(matched.values())
    return {k: v for k, v in matched.items() if taken[v] == 1}


def with_layout_ids_matched(evidence: SceneEvidence) -> SceneEvidence:
    """``evidence`` with each layout id the demos name otherwise (:func:`matched_layout_ids`)
    renamed to theirs, keeping its interaction pose; ``evidence`` itself when there is none (it is
    never changed in place: a pool of evidence builds many rooms from it)."""
    matched = matched_layout_ids(evidence.openable, evidence.static_ids)
    if not matched:
        return evidence
    openable = {matched.get(k, k): v for k, v in evidence.openable.items()}
    return replace(evidence, openable=dict(sorted(openable.items())))


def renamed_to_file_ids(objects: Sequence[SceneObject], named: Iterable[str]) -> dict[str, str]:
    """Room object id -> the id a replayed file names the same object by (:func:`matched_layout_ids`
    with the room's fixture ids as the layout: a room built from layout files alone holds the layout's
    id of FloorPlan208's ottoman, the demo names its own)."""
    ids = [o.object_id for o in objects if o.object_id and not catalogue.object_type(o.object_type).pickupable]
    return matched_layout_ids(ids, named)


def with_ids_renamed(scene: Scene, renamed: Mapping[str, str]) -> Scene:
    """``scene`` with the ids in ``renamed`` renamed: the objects', the parents naming them, and
    the interaction poses'."""
    objects = [replace(o, object_id=renamed.get(o.object_id, o.object_id),
                       parent=renamed.get(o.parent, o.parent) if o.parent is not None else None)
               for o in scene.objects]
    poses = {renamed.get(k, k): v for k, v in scene.interaction_poses.items()}
    return replace(scene, objects=objects, interaction_poses=poses)
