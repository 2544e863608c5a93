"""Completing an imported THOR room from the trajectory being replayed: the fixtures it names.

A room built from ALFRED's layout files alone cannot know where a faucet, a desk lamp or a garbage
can stands: no layout file names them. But a released trajectory names every object it acts on by
THOR's id, and THOR's ids are the object's position to the centimetre
(``DeskLamp|-02.30|+00.87|+00.75``). So, replaying a file, the room can be completed from the file
itself: every fixture the file's ``low_actions`` or ``high_pddl`` name (``objectId``,
``receptacleObjectId``) that the room lacks is made at its id's position, with its type's size
(the room's THOR asset with ``--thor-db``, else the catalogue's), oriented and placed vertically by
the same first step the importer uses for a fixture known from evidence
(:func:`~alfred_gen.scenes.alfred.fixture_sizing.initial_block`, its front towards where the file
stands to use it), resting on what lies below it, before the first action.

Pickupable objects need none of this (the ``scene`` block's ``object_poses`` already completes
them, :func:`~alfred_gen.scenes.alfred.importer.complete_for_start_state`); ``object_toggles``
name types only, never a position, so they complete nothing. A room that already holds every
named fixture is returned as it is (the same object), so rooms with evidence replay as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.drawer_trays import open_tray
from alfred_gen.scenes.alfred.evidence import MALFORMED, is_static_id, trajectory_facts
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_cuts import OVERHEAD, clear_reachable
from alfred_gen.scenes.alfred.fixture_sizing import front_pose, initial_block
from alfred_gen.scenes.alfred.layout_ids import renamed_to_file_ids, with_ids_renamed
from alfred_gen.scenes.alfred.mask_heights import handle_parts
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import Box, Pose, Scene, SceneObject, grid_key

#: A trajectory's optional top-level key (our own) listing the ids of fixtures its room was completed
#: with from the file it was derived from (``alfred-gen derive``): a replay completes them too.
COMPLETED_OBJECTS_KEY = "completed_objects"
#: How far below a fixture's base the top of what holds it may be and still be what it rests on (m).
REST_GAP = 0.15
#: How far a base may sink into the top below it (ids are rounded to the centimetre).
REST_SINK = 0.03
#: The thinnest piece of a fixture cut back from a completed one standing on the floor (m).
MIN_LEFT = 0.05


def named_fixtures(traj: Mapping[str, Any]) -> tuple[list[str], dict[str, list[list[float]]]]:
    """The fixture ids a trajectory acts on (sorted), and the agent poses it acts on each from.

    Also the ids under :data:`COMPLETED_OBJECTS_KEY` (a file derived from one whose room was
    completed). A malformed trajectory names none (its replay reports what is wrong with it)."""
    try:
        facts = trajectory_facts(traj)
    except MALFORMED:
        return [], {}
    poses: dict[str, list[list[float]]] = {}
    for object_id, pose in facts.interaction_poses:
        poses.setdefault(object_id, []).append(list(pose))
    listed = traj.get(COMPLETED_OBJECTS_KEY)
    ids = set(facts.static_ids)
    if isinstance(listed, list):
        ids.update(i for i in listed if is_static_id(i))
    return sorted(ids), poses


def _walked(traj: Mapping[str, Any]) -> list[tuple[float, float]]:
    """The floor points the file's own moves prove reachable (none for a malformed file)."""
    try:
        return [(float(x), float(z)) for x, z in trajectory_facts(traj).points]
    except MALFORMED:
        return []


def _rest(block: Block, fixtures: Sequence[Box], floor_y: float) -> None:
    """Lower (or raise) a fixture not standing on the floor onto the top of what lies below its
    middle, when that top is within :data:`REST_GAP` below its base (or :data:`REST_SINK` above)."""
    if block.floor_origin:
        return
    x, z = (block.lo[0] + block.hi[0]) / 2, (block.lo[2] + block.hi[2]) / 2
    base = block.lo[1]
    tops = [b.hi[1] for b in fixtures
            if b.lo[0] <= x <= b.hi[0] and b.lo[2] <= z <= b.hi[2] and base - REST_GAP <= b.hi[1] <= base + REST_SINK]
    top = max(tops) if tops else None
    if top is None or top <= floor_y:
        return
    height = block.hi[1] - block.lo[1]
    block.lo[1], block.hi[1] = top, top + height


def _make_room(objects: Sequence[SceneObject], blocks: Sequence[Block], floor_y: float) -> dict[str, SceneObject]:
    """Fixtures standing on the floor cut back from each completed fixture standing on the floor
    (id -> the cut object): its id says where THOR stood it, so a box that reaches over its
    footprint (a layout-only cabinet of the catalogue's size, not fitted to any evidence) is wrong
    there. Without this, FloorPlan11's completed garbage can stood inside a counter cabinet's box
    and no put into it was visible. A fixture whose own id lies inside the completed one is left."""
    out: dict[str, SceneObject] = {}
    for block in blocks:
        if not block.floor_origin:
            continue
        box = block.box()
        for obj in objects:
            current = out.get(obj.object_id, obj)
            other = current.box
            if (catalogue.object_type(obj.object_type).pickupable or other.lo[1] > floor_y + OVERHEAD
                    or not _overlap(box, other) or box.over_footprint(obj.position[0], obj.position[2])):
                continue
            cut = _cut_back(other, box, obj.position)
            if cut is not None:
                out[obj.object_id] = replace(current, box=cut)
    return out


def _cut_back(box: Box, away: Box, position: Sequence[float]) -> Box | None:
    """``box`` cut back along one side to ``away``'s face, on a side of ``away`` its id
    (``position``) is on, losing the least; None when its id is over ``away`` or the piece left
    would be thinner than :data:`MIN_LEFT`."""
    options = []
    for axis in (0, 2):
        if position[axis] <= away.lo[axis] and away.lo[axis] - box.lo[axis] >= MIN_LEFT:
            options.append((box.hi[axis] - away.lo[axis], axis, 1, away.lo[axis]))
        if position[axis] >= away.hi[axis] and box.hi[axis] - away.hi[axis] >= MIN_LEFT:
            options.append((away.hi[axis] - box.lo[axis], axis, 0, away.hi[axis]))
    if not options:
        return None
    _, axis, side, value = min(options)
    corners = [list(box.lo), list(box.hi)]
    corners[side][axis] = value
    return Box((corners[0][0], corners[0][1], corners[0][2]), (corners[1][0], corners[1][1], corners[1][2]))


def _overlap(a: Box, b: Box) -> bool:
    return a.lo[0] < b.hi[0] and b.lo[0] < a.hi[0] and a.lo[2] < b.hi[2] and b.lo[2] < a.hi[2]


def complete_from_file(scene: Scene, traj: Mapping[str, Any], sizes: ThorSizes | None = None,
                       walked_floor: bool = True) -> tuple[Scene, tuple[str, ...]]:
    """``scene`` with every fixture ``traj`` names and the room lacks, and (``walked_floor``) the
    floor points its own moves prove reachable, and the ids completed (sorted).

    ``walked_floor`` is for a room whose floor is known only from its layout files (a room no
    demonstration was imported with, or one built on the fly): there the file's walk is the only
    evidence of the floor THOR's agent stood on. A catalogue room built with demonstrations knows
    its floor (every point they walked, and the margin round it), so the scene lookup turns it off
    there (:class:`~alfred_gen.scenes.library.SceneLibrary`) and a walk off that floor still fails
    ``verify``. The walked points are dead reckoning of the file's own moves: the file cannot prove
    them, it assumes them, so adding them everywhere would let any move through.

    A fixture of the room that the file names by an id a centimetre off (FloorPlan208's ottoman,
    whose layout-file id is not the demos') takes the file's id
    (:func:`~alfred_gen.scenes.alfred.layout_ids.renamed_to_file_ids`) rather than a twin.

    Returns ``scene`` itself (and no ids) when nothing is missing or renamed."""
    ids, poses_of = named_fixtures(traj)
    renamed = renamed_to_file_ids(scene.objects, ids)
    if renamed:
        scene = with_ids_renamed(scene, renamed)
    present = {o.object_id for o in scene.objects}
    missing = [i for i in ids if i not in present]
    known = {grid_key(x, z) for x, z in scene.reachable}
    walked = [p for p in _walked(traj) if grid_key(*p) not in known] if walked_floor else []
    walked = list(dict((grid_key(*p), p) for p in walked).values())
    if not missing and not walked:
        return scene, ()
    from alfred_gen.scenes.alfred.importer import _room_walls, _within

    reachable = list(scene.reachable) + walked
    fixtures = [o.box for o in scene.objects if not catalogue.object_type(o.object_type).pickupable]
    blocks = []
    for object_id in missing:
        block = initial_block(object_id, scene.floor_y, scene.name, sizes, None, poses_of.get(object_id, []),
                              reachable, reachable)
        _rest(block, fixtures, scene.floor_y)
        blocks.append(block)
    clear_reachable(blocks, reachable, scene.floor_y)
    cut = _make_room(scene.objects, blocks, scene.floor_y)
    added = [SceneObject(b.kind, b.position, b.box(), object_id=b.object_id, rotation=(0.0, float(b.facing), 0.0),
                         parts=handle_parts(b, scene.name), open_tray=open_tray(b, scene.name))
             for b in blocks]
    interaction_poses = dict(scene.interaction_poses)
    for object_id in missing:
        pose = front_pose(object_id, poses_of.get(object_id, []))
        if pose is not None and object_id not in interaction_poses:
            interaction_poses[object_id] = Pose.from_list(pose)
    objects = [cut.get(o.object_id, o) for o in scene.objects] + added
    walls = scene.walls
    floor = [Box((x, scene.floor_y, z), (x, scene.floor_y, z)) for x, z in walked]
    if not _within(walls, [o.box for o in added] + floor):
        walls = _room_walls(objects, reachable, scene.floor_y)
    completed = replace(scene, walls=walls, reachable=tuple(reachable), objects=objects,
                        interaction_poses=interaction_poses)
    return completed, tuple(missing)
