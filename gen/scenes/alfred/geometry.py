"""Boxes for the objects of a real THOR room, inferred from what ALFRED's files say about it.

ALFRED ships ids (type + origin position), agent poses and object poses, never extents. A box is
built for every fixture in four general steps, each a rule about THOR, none about a particular room:

1. **Size and orientation.** The room's own THOR asset size when a THOR asset database is given
   (``--thor-db``), else the catalogue's typical size. Assets have their front along their local x
   axis, so the box is turned a quarter when that covers fewer reachable agent points (furniture
   never stands where the agent can), or, on a tie, when the agent faces the object along x from
   its interaction pose.
2. **Where the origin is.** Furniture and appliances standing on the floor have their origin at
   the bottom; counter tops, shelves and burners at (about) the top surface; drawers and cabinets
   at their middle. Surface heights are *learnt* from the released demos: an object THOR reported
   lying on a receptacle has its bottom on that receptacle's surface (pickupable objects' origins
   are at their base in THOR 2.1: a mug's origin is 0.005 m above the dresser top it stands on).
   Per type, the median over all imported demos gives the surface height above the id for rooms
   without such evidence; per receptacle, its own evidence wins.
3. **What cannot overlap.** A box standing on the floor is cut back from every reachable point;
   stacked drawers are no taller than their spacing; a drawer or cabinet under a table top, dresser
   top or counter stays below its surface, one above a counter stays above it.
4. **THOR's word on support.** Every (object, receptacle) pair a demo reports is made true for the
   simulator's support rule: the receptacle grows to hold the object, and any other receptacle that
   would claim it shrinks away from it.

Pickupable objects get the catalogue's size, turned by their recorded yaw, with the box bottom at
the recorded position, or below it as far as THOR's origin convention says; horizontally around the
origin as the demos prove (:mod:`alfred_gen.scenes.alfred.loose`).

The steps live in their own modules: the shared block (:mod:`~alfred_gen.scenes.alfred.fixture_block`),
support facts and learnt heights (:mod:`~alfred_gen.scenes.alfred.support_facts`,
:mod:`~alfred_gen.scenes.alfred.surface_stats`), step 1-2 (:mod:`~alfred_gen.scenes.alfred.fixture_sizing`),
step 3 (:mod:`~alfred_gen.scenes.alfred.built_ins`, :mod:`~alfred_gen.scenes.alfred.fixture_cuts`) and
step 4 (:mod:`~alfred_gen.scenes.alfred.support_fit`). This module runs them in order for one room.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.built_ins import (
    basins_are_bowls,
    basins_reach_counters,
    bowls_above_cupboard_contents,
    bowls_cut_out_of_cabinets,
    expose_fronts,
    flush_drawer_fronts,
    limit_stacks,
    rims_at_counters,
    separate_nested,
    tops_over_drawers,
    tubs_cover_their_contents,
)
from alfred_gen.scenes.alfred.evidence import SceneEvidence, type_of_name
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.fixture_cuts import (
    clear_reachable,
    cut_around,
    free_what_they_cannot_hold,
    open_over_cupboard_fronts,
    open_over_walked_floor,
    settle_objects,
)
from alfred_gen.scenes.alfred.fixture_sizing import (
    drawers_face_their_rows,
    faced_by_contents,
    front_pose,
    initial_block,
    neighbours_meet,
    one_shelving_unit,
    spans_toward_contents,
    split_door_pairs,
)
from alfred_gen.scenes.alfred.floor import margin_points, proven_floor
from alfred_gen.scenes.alfred.loose import loose_box, loose_shifts
from alfred_gen.scenes.alfred.rest_height import origin_height, rested
from alfred_gen.scenes.alfred.sight_cuts import (
    boards_share_their_frame,
    clear_sight_lines,
    drawers_share_their_row_front,
    supported_points,
)
from alfred_gen.scenes.alfred.support_facts import fixture_ids, resolved_facts
from alfred_gen.scenes.alfred.support_fit import Floor, fit_resting_objects, fit_support_facts, fit_surface_tops
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import AGENT_Y, ALFRED_CAMERA, Pose, SceneObject, format_object_id
from alfred_gen.sim.world import CAMERA_Y_OFFSET


@dataclass
class RoomGeometry:
    """The fitted objects of one room and how well the evidence was honoured."""

    objects: list[SceneObject]
    interaction_poses: dict[str, Pose]
    reachable: list[tuple[float, float]]
    floor_y: float
    agent_y: float
    support_facts: int = 0
    support_disagreements: int = 0
    #: Points beside the proven floor where no fixture stands (:mod:`alfred_gen.scenes.alfred.floor`).
    margin: list[tuple[float, float]] = field(default_factory=list)


def missing_poses(blocks: list[Block], all_blocks: list[Block], reachable: list[tuple[float, float]],
                  agent_y: float) -> dict[str, Pose]:
    """Interaction poses for fixtures ALFRED's layout gives none (stove burners, lamps, towel
    holders): the scene library's best view of the box with ALFRED's camera, the other fixtures
    occluding."""
    from alfred_gen.scenes.grid import best_interaction_pose, occluder_arrays

    out: dict[str, Pose] = {}
    for block in blocks:
        occluders = occluder_arrays([b.box() for b in all_blocks if b is not block])
        pose = best_interaction_pose(block.box(), reachable, occluders, agent_y, camera=ALFRED_CAMERA)
        if pose is not None:
            out[block.object_id] = pose
    return out


def room_geometry(evidence: SceneEvidence, sizes: ThorSizes | None = None, stats: SurfaceStats | None = None,
                  default_agent_y: float = AGENT_Y) -> RoomGeometry:
    """Fit boxes for every fixture and object ALFRED's files mention in one room."""
    agent_y = evidence.agent_y(default_agent_y)
    floor_y = agent_y - AGENT_Y
    floor_plan = evidence.name
    reachable = proven_floor(evidence)
    static_ids = fixture_ids(evidence)
    poses_of = {oid: ([evidence.openable[oid]] if oid in evidence.openable else []) + evidence.used_from.get(oid, [])
                for oid in static_ids}
    facts = resolved_facts(evidence, static_ids, floor_y)
    contents: dict[str, list[tuple[float, float, float]]] = {}
    for _, target, box in facts:
        contents.setdefault(target, []).append(box.center)

    def block_for(oid: str, poses: list[list[float]]) -> Block:
        return initial_block(oid, floor_y, floor_plan, sizes, stats, poses, reachable, evidence.layout_points)

    facing_poses = faced_by_contents(drawers_face_their_rows(poses_of), contents, block_for)
    blocks = {oid: block_for(oid, facing_poses[oid]) for oid in static_ids}
    ordered = [blocks[oid] for oid in static_ids]
    one_shelving_unit(ordered, {oid: len(poses) for oid, poses in poses_of.items()})
    split_door_pairs(ordered)
    shifts = loose_shifts(evidence.contents, evidence.clearances, floor_y)
    resting_of = [
        (type_of_name(name), loose_box(type_of_name(name), position, yaw, floor_y, shifts.get(name)))
        for name in sorted(evidence.objects)
        for position, yaw in evidence.objects[name]
    ]
    resting = [box for _, box in resting_of]
    spans_toward_contents(ordered, resting_of)
    neighbours_meet(ordered)
    fit_surface_tops(blocks, facts)
    limit_stacks(ordered)
    flush_drawer_fronts(ordered)
    tops_over_drawers(ordered, {target for _, target, _ in facts})
    clear_reachable(ordered, reachable, floor_y, resting)
    separate_nested(ordered)
    expose_fronts(ordered)
    tubs_cover_their_contents(blocks, facts)
    cut_around(ordered, resting)
    bowls_above_cupboard_contents(ordered, resting)
    pickupable_resting = [(k, b) for k, b in resting_of if catalogue.object_type(k).pickupable]
    free_what_they_cannot_hold(ordered, pickupable_resting)
    settle_objects(ordered, resting)
    separate_nested(ordered)
    floor = Floor(tuple(reachable), agent_y + CAMERA_Y_OFFSET)
    disagreements = fit_support_facts(blocks, facts, floor=floor)
    fit_resting_objects(blocks, pickupable_resting, floor)
    basins_reach_counters(ordered)
    basins_are_bowls(ordered)
    rims_at_counters(ordered)
    bowls_cut_out_of_cabinets(ordered)
    open_over_walked_floor(ordered, reachable, floor_y)
    open_over_cupboard_fronts(ordered, resting)
    kept = supported_points(ordered, pickupable_resting)
    clear_sight_lines(ordered, evidence.sights, floor_y, kept, shifts)
    boards_share_their_frame(ordered, kept)
    drawers_share_their_row_front(ordered, kept)
    objects: list[SceneObject] = []
    for block in ordered:
        objects.append(
            SceneObject(
                block.kind,
                block.position,
                block.box(),
                object_id=block.object_id,
                rotation=(0.0, float(block.facing), 0.0),
                holes=tuple(block.holes),
            )
        )
    fixture_boxes = [block.box() for block in ordered]
    for name in sorted(evidence.objects):
        position, yaw = evidence.objects[name][0]
        kind = type_of_name(name)
        height = origin_height(kind, evidence.objects[name], fixture_boxes, floor_y)
        box = rested(loose_box(kind, position, yaw, floor_y, shifts.get(name)), position, height, floor_y)
        objects.append(SceneObject(kind, position, box, name=name, object_id=format_object_id(kind, position, True),
                                   rotation=(0.0, yaw, 0.0)))
    fronts = {oid: front_pose(oid, poses_of[oid]) for oid in static_ids}
    interaction_poses = {oid: Pose.from_list(pose) for oid, pose in fronts.items() if pose is not None}
    interaction_poses.update(
        missing_poses([b for b in ordered if b.object_id not in interaction_poses], ordered, reachable, agent_y)
    )
    margin = margin_points(reachable, ordered, floor_y)
    return RoomGeometry(objects, interaction_poses, reachable, floor_y, agent_y, len(facts), disagreements, margin)
