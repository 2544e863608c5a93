"""The ALFRED importer as one ordered table of passes: what runs, in what order, on what evidence.

A room is built by :func:`~alfred_gen.scenes.alfred.geometry.room_geometry` running
:data:`ROOM_PASSES` over one :class:`RoomContext` (the room's evidence, its fixtures' blocks, the
support facts, the objects demos show at rest, the proven floor, ...). A room is fitted to one
released trajectory's start state at restore time by
:func:`~alfred_gen.scenes.alfred.start_fit.fit_to_start_state` running :data:`START_PASSES` over a
:class:`StartContext`. :data:`PASSES` is both, in the order they run. The order IS the table: the
passes are interleaved (a cut, then a fit that grows a box back, then a drawing-only opening), and a
pass that runs twice (``separate_nested``) is listed twice.

Every entry names the rule function it calls (each a type-level rule about THOR that cites its
counts in its own docstring), the evidence it reads and one line on what it fixes. A pass that is
not ``required`` can be switched off (``without``), to measure what it buys
(``bench/alfred_fidelity.py --without PASS``, figures in ``docs/importer.md``); the required ones
make what later passes work on (the blocks, the objects' boxes, the scene's objects).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred import (
    bare_boards,
    basin_openings,
    blade_sides,
    board_openings,
    built_ins,
    door_hinges,
    double_doors,
    faucet_fits,
    fixture_cuts,
    fixture_extents,
    fixture_sizing,
    fridge_fronts,
    hutch_boards,
    lamp_heights,
    microwave_fronts,
    shelf_levels,
    sight_cuts,
    start_fit,
    support_fit,
    toilet_tanks,
    tub_floors,
)
from alfred_gen.scenes.alfred.cart_frames import frame_parts
from alfred_gen.scenes.alfred.drawer_trays import open_tray
from alfred_gen.scenes.alfred.evidence import SceneEvidence, type_of_name
from alfred_gen.scenes.alfred.fixture_block import Block
from alfred_gen.scenes.alfred.floor import margin_points, proven_floor
from alfred_gen.scenes.alfred.loose import Shift, loose_box, loose_shifts
from alfred_gen.scenes.alfred.mask_heights import handle_parts
from alfred_gen.scenes.alfred.rest_height import origin_height, rested
from alfred_gen.scenes.alfred.seat_backs import rest_parts
from alfred_gen.scenes.alfred.shelf_backs import back_parts
from alfred_gen.scenes.alfred.support_facts import fixture_ids, resolved_facts
from alfred_gen.scenes.alfred.support_fit import Floor
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import AGENT_Y, ALFRED_CAMERA, Box, Pose, SceneObject, format_object_id, room_type_of
from alfred_gen.sim.world import CAMERA_Y_OFFSET

C = TypeVar("C")


@dataclass(frozen=True)
class Pass(Generic[C]):
    """One step of the importer: ``run`` adapts the context to ``rule``'s arguments."""

    name: str
    stage: str
    rule: Callable[..., Any]
    run: Callable[[C], object]
    evidence: str
    fixes: str
    #: Later passes need what it makes; it cannot be switched off.
    required: bool = False

    @property
    def function(self) -> str:
        """The rule's module and name, as the doc's table shows it (``built_ins.limit_stacks``)."""
        return f"{self.rule.__module__.rsplit('.', 1)[-1]}.{self.rule.__name__}"


@dataclass
class RoomContext:
    """What the passes building one room read and change (:data:`ROOM_PASSES`)."""

    evidence: SceneEvidence
    sizes: ThorSizes | None
    stats: SurfaceStats | None
    agent_y: float
    floor_y: float
    #: The proven floor: layout points, points walked, interaction poses.
    reachable: list[tuple[float, float]]
    #: The fixtures' ids, in the evidence's order (the order of :attr:`ordered`).
    static_ids: list[str]
    #: Per fixture, the agent poses it was used from (``openable.json``'s first).
    poses_of: dict[str, list[list[float]]]
    #: The support facts, each with its fixture's id and the reported object's box.
    facts: list[tuple[Any, str, Box]]
    #: Per fixture, the middles of what THOR reported in or on it.
    contents: dict[str, list[tuple[float, float, float]]]
    #: Per fixture, the poses its first box is faced from (the face passes reorder them).
    facing_poses: dict[str, list[list[float]]]
    #: Where the agent stood and its camera's height: no fit grows a fixture over it.
    floor: Floor
    blocks: dict[str, Block] = field(default_factory=dict)
    ordered: list[Block] = field(default_factory=list)
    #: Loose objects' box shifts (own frame) that the content and clearance facts prove.
    shifts: dict[str, Shift] = field(default_factory=dict)
    #: (type, box) of every object demos show at rest, every recorded pose.
    resting_of: list[tuple[str, Box]] = field(default_factory=list)
    #: Fixture supports still disagreeing with THOR after :func:`support_fit.fit_support_facts`.
    disagreements: int = 0
    #: Per fixture, points it must keep inside (what rests on or in it) when cut for sight lines.
    kept: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    #: Loose object name -> height of its origin over its base that its poses show.
    heights: dict[str, float | None] = field(default_factory=dict)
    objects: list[SceneObject] = field(default_factory=list)
    interaction_poses: dict[str, Pose] = field(default_factory=dict)
    margin: list[tuple[float, float]] = field(default_factory=list)

    @staticmethod
    def start(evidence: SceneEvidence, sizes: ThorSizes | None, stats: SurfaceStats | None,
              default_agent_y: float = AGENT_Y) -> RoomContext:
        """The context before any pass: the evidence read into floor, fixtures, poses and facts."""
        agent_y = evidence.agent_y(default_agent_y)
        floor_y = agent_y - AGENT_Y
        reachable = proven_floor(evidence)
        static_ids = fixture_ids(evidence)
        poses_of = {oid: ([evidence.openable[oid]] if oid in evidence.openable else [])
                    + evidence.used_from.get(oid, []) for oid in static_ids}
        facts = resolved_facts(evidence, static_ids, floor_y)
        contents: dict[str, list[tuple[float, float, float]]] = {}
        for _, target, box in facts:
            contents.setdefault(target, []).append(box.center)
        floor = Floor(tuple(reachable), agent_y + CAMERA_Y_OFFSET)
        return RoomContext(evidence, sizes, stats, agent_y, floor_y, reachable, static_ids, poses_of, list(facts),
                           contents, dict(poses_of), floor)

    def block_for(self, oid: str, poses: list[list[float]]) -> Block:
        """A fixture's first box faced from ``poses`` (steps 1 and 2 of the module docstring)."""
        return fixture_sizing.initial_block(oid, self.floor_y, self.evidence.name, self.sizes, self.stats, poses,
                                            self.reachable, self.evidence.layout_points)

    @property
    def resting(self) -> list[Box]:
        return [box for _, box in self.resting_of]

    @property
    def pickupable_resting(self) -> list[tuple[str, Box]]:
        return [(k, b) for k, b in self.resting_of if catalogue.object_type(k).pickupable]


@dataclass
class StartContext:
    """What the passes fitting a built room to one start state read and change (:data:`START_PASSES`)."""

    #: The room's objects as built.
    objects: list[SceneObject]
    #: (type, box) of every object the start state poses.
    posed: list[tuple[str, Box]]
    #: Fixtures whose boxes changed, by id (each pass sees the earlier ones' changes).
    fitted: dict[str, SceneObject] = field(default_factory=dict)

    @property
    def loose(self) -> list[tuple[str, Box]]:
        return [(kind, box) for kind, box in self.posed if catalogue.object_type(kind).pickupable]


def run_passes(passes: Iterable[Pass[C]], context: C, without: frozenset[str] = frozenset()) -> C:
    """Run ``passes`` in order on ``context``, skipping those named in ``without``; returns ``context``."""
    for step in passes:
        if step.name not in without:
            step.run(context)
    return context


def switchable_names() -> list[str]:
    """The names of the passes ``without`` may name, in table order, each once."""
    return list(dict.fromkeys(p.name for p in PASSES if not p.required))


def check_without(names: Iterable[str]) -> frozenset[str]:
    """``names`` as a set, or ValueError (one line, listing the valid names) if one is no pass or a
    required one."""
    valid = switchable_names()
    required = {p.name for p in PASSES if p.required}
    wanted = [n.strip() for n in names if n.strip()]
    for name in wanted:
        if name in required:
            raise ValueError(f"pass {name!r} is required (later passes need what it makes); "
                             f"passes that can be switched off: {', '.join(valid)}")
        if name not in valid:
            raise ValueError(f"no pass named {name!r}; passes: {', '.join(valid)}")
    return frozenset(wanted)


# --------------------------------------------------------------------------------------------
# Adapters: each pass's rule called with the context's pieces.


def _drawers_face_their_rows(c: RoomContext) -> None:
    c.facing_poses = fixture_sizing.drawers_face_their_rows(c.facing_poses)


def _faced_by_contents(c: RoomContext) -> None:
    c.facing_poses = fixture_sizing.faced_by_contents(c.facing_poses, c.contents, c.block_for)


def _toilets_face_from_their_tanks(c: RoomContext) -> None:
    c.facing_poses = toilet_tanks.toilets_face_from_their_tanks(c.facing_poses, c.evidence.objects)


def _initial_blocks(c: RoomContext) -> None:
    c.blocks = {oid: c.block_for(oid, c.facing_poses[oid]) for oid in c.static_ids}
    c.ordered = [c.blocks[oid] for oid in c.static_ids]


def _one_shelving_unit(c: RoomContext) -> None:
    fixture_sizing.one_shelving_unit(c.ordered, {oid: len(poses) for oid, poses in c.poses_of.items()})


def _loose_shifts(c: RoomContext) -> None:
    c.shifts = loose_shifts(c.evidence.contents, c.evidence.clearances, c.floor_y)


def _resting_objects(c: RoomContext) -> None:
    c.resting_of = [
        (type_of_name(name), loose_box(type_of_name(name), position, yaw, c.floor_y, c.shifts.get(name)))
        for name in sorted(c.evidence.objects)
        for position, yaw in c.evidence.objects[name]
    ]


def _fit_support_facts(c: RoomContext) -> None:
    c.disagreements = support_fit.fit_support_facts(c.blocks, c.facts, floor=c.floor)


def _supported_points(c: RoomContext) -> None:
    c.kept = sight_cuts.supported_points(c.ordered, c.pickupable_resting)


def _rest_heights(c: RoomContext) -> None:
    fixture_boxes = [block.box() for block in c.ordered]
    c.heights = {name: origin_height(type_of_name(name), c.evidence.objects[name], fixture_boxes, c.floor_y)
                 for name in sorted(c.evidence.objects)}


def _handles(block: Block, floor_plan: str) -> tuple[Box, ...]:
    """A faucet's handles (:func:`handle_parts`), unless its slab is drawn in its masks' pattern
    (:func:`~alfred_gen.scenes.alfred.faucet_fits.fill_pattern`), which shows them where THOR has them."""
    return () if block.drawn_pattern else handle_parts(block, floor_plan)


def _fixture_objects(c: RoomContext) -> None:
    origins = sorted({position for poses in c.evidence.objects.values() for position, _ in poses})
    c.objects = [SceneObject(block.kind, block.position, block.box(), object_id=block.object_id,
                             rotation=(0.0, float(block.facing), 0.0), holes=tuple(block.holes),
                             parts=(_handles(block, c.evidence.name) + back_parts(block, c.ordered)
                                    + frame_parts(block) + rest_parts(block, origins) + tuple(block.drawn_parts)),
                             open_tray=open_tray(block, c.evidence.name), hinge=block.hinge,
                             double_door=block.double_door,
                             drawn_margins=block.drawn_margins, shut_margins=block.shut_margins,
                             drawn_pattern=block.drawn_pattern,
                             opening=block.opening)
                 for block in c.ordered]


def _loose_objects(c: RoomContext) -> None:
    for name in sorted(c.evidence.objects):
        position, yaw = c.evidence.objects[name][0]
        kind = type_of_name(name)
        box = rested(loose_box(kind, position, yaw, c.floor_y, c.shifts.get(name)), position, c.heights.get(name),
                     c.floor_y)
        c.objects.append(SceneObject(kind, position, box, name=name, object_id=format_object_id(kind, position, True),
                                     rotation=(0.0, yaw, 0.0)))


def _front_poses(c: RoomContext) -> None:
    fronts = {oid: fixture_sizing.front_pose(oid, c.poses_of[oid]) for oid in c.static_ids}
    c.interaction_poses = {oid: Pose.from_list(pose) for oid, pose in fronts.items() if pose is not None}


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


def _missing_poses(c: RoomContext) -> None:
    c.interaction_poses.update(missing_poses([b for b in c.ordered if b.object_id not in c.interaction_poses],
                                             c.ordered, c.reachable, c.agent_y))


def _margin(c: RoomContext) -> None:
    c.margin = margin_points(c.reachable, c.ordered, c.floor_y)


def _on_ordered(rule: Callable[[list[Block]], object]) -> Callable[[RoomContext], None]:
    """The adapter of a rule that takes the fixtures' blocks alone."""
    def run(c: RoomContext) -> None:
        rule(c.ordered)
    return run


def _on_ordered_resting(rule: Callable[[list[Block], list[Box]], object]) -> Callable[[RoomContext], None]:
    """The adapter of a rule that takes the blocks and the boxes of what demos show at rest."""
    def run(c: RoomContext) -> None:
        rule(c.ordered, c.resting)
    return run


def _on_blocks_facts(rule: Callable[[dict[str, Block], list[Any]], object]) -> Callable[[RoomContext], None]:
    """The adapter of a rule that takes the blocks by id and the support facts."""
    def run(c: RoomContext) -> None:
        rule(c.blocks, c.facts)
    return run


def _on_ordered_kept(rule: Callable[[list[Block], dict[str, list[tuple[float, float, float]]]], object]
                     ) -> Callable[[RoomContext], None]:
    def run(c: RoomContext) -> None:
        rule(c.ordered, c.kept)
    return run


# Evidence names used in the table (short, so the doc's table stays readable).
_POSES = "interaction poses (layout openable.json, demos' poses)"
_CONTENTS = "support facts (what THOR reported in/on each fixture)"
_RESTING = "objects demos show at rest (every recorded pose)"
_IDS = "fixture ids (positions) and types"
_FLOOR = "proven floor (layout points, walked points, poses)"
_SIGHTS = "sight facts (what each demo's interactions saw)"

#: The passes building a room, in the order :func:`~alfred_gen.scenes.alfred.geometry.room_geometry`
#: runs them.
ROOM_PASSES: tuple[Pass[RoomContext], ...] = (
    Pass("drawers_face_their_rows", "face", fixture_sizing.drawers_face_their_rows, _drawers_face_their_rows,
         _POSES + ", " + _IDS, "a drawer opened from beside it faces across its row, not along the counter"),
    Pass("faced_by_contents", "face", fixture_sizing.faced_by_contents, _faced_by_contents, _POSES + ", " + _CONTENTS,
         "a cabinet faces the way that holds most of what THOR reported in it"),
    Pass("toilets_face_from_their_tanks", "face", toilet_tanks.toilets_face_from_their_tanks,
         _toilets_face_from_their_tanks, _RESTING + ", " + _IDS,
         "a toilet faces away from its tank, where its demos stand things on it"),
    Pass("initial_blocks", "size", fixture_sizing.initial_block, _initial_blocks,
         "THOR sizes or catalogue, learnt surface heights, poses, layout points",
         "every fixture's first box: size, turn, front and height (steps 1-2)", required=True),
    Pass("one_shelving_unit", "size", fixture_sizing.one_shelving_unit, _one_shelving_unit, _IDS + ", " + _POSES,
         "the boards of one shelving unit share one footprint and front"),
    Pass("split_door_pairs", "size", fixture_sizing.split_door_pairs, _on_ordered(fixture_sizing.split_door_pairs),
         _IDS, "each door of a double-door cabinet gets its half of the carcass"),
    Pass("faucets_to_their_masks", "size", faucet_fits.faucets_to_their_masks,
         lambda c: faucet_fits.faucets_to_their_masks(c.ordered, c.evidence.sights, c.evidence.name), _SIGHTS,
         "a kitchen faucet stands where the rays of THOR's masks of it meet"),
    Pass("loose_shifts", "objects", loose_shifts, _loose_shifts, "content and clearance facts of loose objects",
         "a loose object's box shifted off its origin as the demos prove"),
    Pass("resting_objects", "objects", loose_box, _resting_objects, _RESTING,
         "the boxes of the objects at rest that later passes fit fixtures to", required=True),
    Pass("spans_toward_contents", "size", fixture_sizing.spans_toward_contents,
         lambda c: fixture_sizing.spans_toward_contents(c.ordered, c.resting_of),
         _RESTING, "a single cabinet reaches from its hinge to the side its contents prove"),
    Pass("neighbours_meet", "size", fixture_sizing.neighbours_meet, _on_ordered(fixture_sizing.neighbours_meet), _IDS,
         "two cabinets of one row that overlap are cut apart between their doors"),
    Pass("fit_surface_tops", "support", support_fit.fit_surface_tops, _on_blocks_facts(support_fit.fit_surface_tops),
         _CONTENTS, "a receptacle's surface is where what THOR reported on it has its bottom"),
    Pass("limit_stacks", "cut", built_ins.limit_stacks, _on_ordered(built_ins.limit_stacks), _IDS,
         "stacked drawers and cabinets no taller (side by side: no wider) than their spacing"),
    Pass("flush_drawer_fronts", "cut", built_ins.flush_drawer_fronts, _on_ordered(built_ins.flush_drawer_fronts),
         _IDS, "a drawer over or under a cabinet of one run is flush with its door"),
    Pass("tops_over_drawers", "cut", built_ins.tops_over_drawers,
         lambda c: built_ins.tops_over_drawers(c.ordered, {target for _, target, _ in c.facts}),
         _IDS + ", " + _CONTENTS,
         "a dresser, desk or table top lies just above its drawers"),
    Pass("clear_reachable", "cut", fixture_cuts.clear_reachable,
         lambda c: fixture_cuts.clear_reachable(c.ordered, c.reachable, c.floor_y, c.resting), _FLOOR + ", " + _RESTING,
         "no box stands where the agent stood"),
    Pass("separate_nested", "cut", built_ins.separate_nested, _on_ordered(built_ins.separate_nested), _IDS,
         "drawers and cabinets in furniture stay below its top; wall cabinets above the counter"),
    Pass("expose_fronts", "cut", built_ins.expose_fronts, _on_ordered(built_ins.expose_fronts), _IDS,
         "furniture round drawers and cabinets is cut back behind their fronts"),
    Pass("tubs_cover_their_contents", "cut", built_ins.tubs_cover_their_contents,
         _on_blocks_facts(built_ins.tubs_cover_their_contents), _CONTENTS,
         "a tub's basin reaches over everything THOR reported in it, before slabs are cut"),
    Pass("cut_around", "cut", fixture_cuts.cut_around, lambda c: fixture_cuts.cut_around(c.ordered, c.resting, c.facts),
         _RESTING + ", " + _IDS + ", " + _CONTENTS,
         "counter slabs and cabinets hang over nothing but what belongs under them (a cabinet not over what "
         "rests no lower than what THOR reported in it)"),
    Pass("bowls_above_cupboard_contents", "cut", built_ins.bowls_above_cupboard_contents,
         _on_ordered_resting(built_ins.bowls_above_cupboard_contents), _RESTING,
         "a sink basin's bowl lies above what is kept in the cupboard under it"),
    Pass("free_what_they_cannot_hold", "cut", fixture_cuts.free_what_they_cannot_hold,
         lambda c: fixture_cuts.free_what_they_cannot_hold(c.ordered, c.pickupable_resting),
         _RESTING + ", placement table", "a fixture does not contain what it may not hold (a plunger by a toilet)"),
    Pass("settle_objects", "cut", fixture_cuts.settle_objects, _on_ordered_resting(fixture_cuts.settle_objects),
         _RESTING, "no object at rest is buried in a fixture's top or floor"),
    Pass("separate_nested", "cut", built_ins.separate_nested, _on_ordered(built_ins.separate_nested), _IDS,
         "again, after the cuts and settling moved tops"),
    Pass("fit_support_facts", "support", support_fit.fit_support_facts, _fit_support_facts, _CONTENTS + ", " + _FLOOR,
         "the simulator's support rule agrees with every fact THOR reported"),
    Pass("fit_resting_objects", "support", support_fit.fit_resting_objects,
         lambda c: support_fit.fit_resting_objects(c.blocks, c.pickupable_resting, c.floor), _RESTING + ", " + _FLOOR,
         "every object at rest lies in or on some receptacle, never inside solid furniture"),
    Pass("basins_reach_counters", "basin", built_ins.basins_reach_counters,
         _on_ordered(built_ins.basins_reach_counters), _IDS,
         "a basin set into a counter has its rim at the counter's top"),
    Pass("tub_floors_in_view", "basin", tub_floors.tub_floors_in_view,
         lambda c: tub_floors.tub_floors_in_view(c.ordered, c.resting, c.floor_y), _RESTING,
         "a bathtub's floor is drawn where things rest in it, never under the room's floor (drawing only)"),
    Pass("tubs_to_their_masks", "basin", basin_openings.tubs_to_their_masks,
         lambda c: basin_openings.tubs_to_their_masks(c.ordered, c.evidence.sights, c.resting),
         _SIGHTS + ", " + _RESTING,
         "a bathtub basin is drawn open where THOR's masks of it show its inside, its rim where that opening "
         "is centred on the tub, the rest decked over at the rim, its drawing grown to hold that opening where "
         "it reaches past the box (drawing only)"),
    Pass("basins_to_their_masks", "basin", basin_openings.basins_to_their_masks,
         lambda c: basin_openings.basins_to_their_masks(c.ordered, c.evidence.sights, c.resting,
                                                        room_type_of(c.evidence.scene_num)),
         _SIGHTS + ", " + _RESTING, "a sink basin's footprint is its opening where THOR's masks of it show it; "
         "the rest of its box is drawn decked over at the rim"),
    Pass("basins_are_bowls", "basin", built_ins.basins_are_bowls, _on_ordered(built_ins.basins_are_bowls), _IDS,
         "a sink basin is a bowl under its rim, not a box to the floor"),
    Pass("bathroom_bowls_shallow", "basin", basin_openings.bathroom_bowls_shallow,
         lambda c: basin_openings.bathroom_bowls_shallow(c.ordered, c.resting, room_type_of(c.evidence.scene_num)),
         _IDS + ", " + _RESTING, "a bathroom's basin is a shallow bowl, its floor at the id"),
    Pass("rims_at_counters", "basin", built_ins.rims_at_counters, _on_ordered(built_ins.rims_at_counters), _IDS,
         "a basin is drawn no higher than the counter round it (drawing only)"),
    Pass("bowls_cut_out_of_cabinets", "basin", built_ins.bowls_cut_out_of_cabinets,
         _on_ordered(built_ins.bowls_cut_out_of_cabinets), _IDS,
         "a cabinet under a sink is drawn open round the bowl (drawing only)"),
    Pass("open_over_walked_floor", "drawing", fixture_cuts.open_over_walked_floor,
         lambda c: fixture_cuts.open_over_walked_floor(c.ordered, c.reachable, c.floor_y), _FLOOR,
         "floor the agent walks is cut out of the drawing of boxes a fit grew back over it"),
    Pass("open_over_cupboard_fronts", "drawing", fixture_cuts.open_over_cupboard_fronts,
         _on_ordered_resting(fixture_cuts.open_over_cupboard_fronts), _IDS + ", " + _RESTING,
         "a counter slab is drawn only to its overhang in front of the cupboards under it"),
    Pass("supported_points", "sight", sight_cuts.supported_points, _supported_points, _RESTING,
         "the points sight cuts must keep inside each fixture (what rests on or in it)"),
    Pass("clear_sight_lines", "sight", sight_cuts.clear_sight_lines,
         lambda c: sight_cuts.clear_sight_lines(c.ordered, c.evidence.sights, c.floor_y, c.kept, c.shifts), _SIGHTS,
         "fixtures are cut out of the rays of what each demo saw (a drawer seen open: up to its slid-out tray)"),
    Pass("boards_share_their_frame", "sight", sight_cuts.boards_share_their_frame,
         _on_ordered_kept(sight_cuts.boards_share_their_frame), _IDS + ", " + _RESTING,
         "every board of a shelving unit comes to its most cut-back board's front"),
    Pass("drawers_share_their_row_front", "sight", sight_cuts.drawers_share_their_row_front,
         _on_ordered_kept(sight_cuts.drawers_share_their_row_front), _IDS + ", " + _RESTING,
         "every drawer of a row comes to its most cut-back drawer's front"),
    Pass("hinge_pairs_at_their_masks", "size", door_hinges.hinge_pairs_at_their_masks,
         lambda c: door_hinges.hinge_pairs_at_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a double door whose open masks show its leaves at the middle hangs them there"),
    Pass("hinge_single_doors_at_their_masks", "size", door_hinges.hinge_single_doors_at_their_masks,
         lambda c: door_hinges.hinge_single_doors_at_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a fridge whose open masks show its door at one end hangs it there, else a door at each end; "
         "a single cabinet's door hangs at the end its open masks show"),
    Pass("extents_to_their_masks", "drawing", fixture_extents.extents_to_their_masks,
         lambda c: fixture_extents.extents_to_their_masks(c.ordered, c.evidence.sights, c.resting),
         _SIGHTS + ", " + _RESTING,
         "furniture and drawers are drawn as wide (tables: as deep) as THOR's masks of them show; "
         "cabinets to their door in the masks of them shut, out past the frame's border as far as those masks reach"),
    Pass("shelves_to_their_compartments", "drawing", shelf_levels.shelves_to_their_compartments,
         lambda c: shelf_levels.shelves_to_their_compartments(c.ordered, c.evidence.sights, c.floor_y), _SIGHTS,
         "a shelving unit whose masks show each compartment one board lower than its id is drawn so"),
    Pass("hinge_drawn_cabinets_at_their_masks", "drawing", door_hinges.hinge_drawn_cabinets_at_their_masks,
         lambda c: door_hinges.hinge_drawn_cabinets_at_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a single cabinet whose drawing its shut masks moved hangs its door where its open masks show "
         "it on the drawn box; a double door whose shut drawing reaches past its box votes again on it; "
         "a hung door is drawn open as far as its shut drawing reaches at its free end"),
    Pass("doubles_at_their_masks", "drawing", double_doors.doubles_at_their_masks,
         lambda c: double_doors.doubles_at_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a single cabinet whose open masks show a leaf at each end is drawn as a double door, "
         "open across its shut drawing's front"),
    Pass("fridge_fronts_to_their_masks", "drawing", fridge_fronts.fronts_to_their_masks,
         lambda c: fridge_fronts.fronts_to_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a fridge's front is drawn where THOR's masks of it shut meet the floor, its sides as far as they reach"),
    Pass("microwave_outlines_to_their_masks", "drawing", microwave_fronts.outlines_to_their_masks,
         lambda c: microwave_fronts.outlines_to_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a microwave is drawn as wide and as tall as THOR's masks of it shut show"),
    Pass("lamps_to_their_masks", "drawing", lamp_heights.lamps_to_their_masks,
         lambda c: lamp_heights.lamps_to_their_masks(c.ordered, c.evidence.sights), _SIGHTS,
         "a desk lamp is drawn as tall as THOR's masks of it show (at least as tall as masks the frame's top cuts)"),
    Pass("faucets_drawn_to_their_masks", "drawing", faucet_fits.faucets_drawn_to_their_masks,
         lambda c: faucet_fits.faucets_drawn_to_their_masks(c.ordered, c.evidence.sights, c.evidence.name), _SIGHTS,
         "a kitchen faucet is drawn as wide and as tall as THOR's masks of it show"),
    Pass("backs_its_masks_miss", "drawing", bare_boards.backs_its_masks_miss,
         lambda c: bare_boards.backs_its_masks_miss(c.ordered, c.evidence.sights), _SIGHTS,
         "a shelf board whose own masks meet its drawing and never its compartment's back is drawn without "
         "the back (drawing only)"),
    Pass("boards_drawn_by_their_host", "drawing", hutch_boards.boards_drawn_by_their_host,
         lambda c: hutch_boards.boards_drawn_by_their_host(c.ordered, c.evidence.sights), _SIGHTS,
         "a shelf board no mask of its own shows, which a desk's masks cover, is drawn as part of the desk"),
    Pass("openings_over_boards", "drawing", board_openings.openings_over_boards,
         lambda c: board_openings.openings_over_boards(c.ordered, c.evidence.sights), _SIGHTS,
         "a shelf board set in a topped piece of furniture is drawn in an opening out through its side, up to "
         "where half or more of the rays of its own masks entered that side (FloorPlan313's side table; "
         "drawing only)"),
    Pass("rest_heights", "objects", origin_height, _rest_heights, _RESTING + ", fixture boxes",
         "a loose object's box sits as far below its origin as its poses show"),
    Pass("fixture_objects", "output", SceneObject, _fixture_objects, "the blocks, " + _RESTING,
         "the fixtures as the scene's objects", required=True),
    Pass("loose_objects", "output", rested, _loose_objects, "objects' first recorded pose",
         "the loose objects at their first pose, rested", required=True),
    Pass("blades_to_their_masks", "drawing", blade_sides.blades_to_their_masks,
         lambda c: blade_sides.blades_to_their_masks(c.objects, c.evidence.sights), _SIGHTS,
         "a knife is drawn lying to the side (or standing) where THOR's masks of it in the room show it"),
    Pass("front_poses", "poses", fixture_sizing.front_pose, _front_poses, _POSES,
         "each fixture's interaction pose: the one that shows its front", required=True),
    Pass("missing_poses", "poses", missing_poses, _missing_poses, _FLOOR + ", the boxes",
         "fixtures no pose names get the best view of their box"),
    Pass("margin_points", "floor", margin_points, _margin, _FLOOR + ", the boxes",
         "the points one step from the proven floor where no fixture stands"),
)


def _start_fixtures_freed(c: StartContext) -> None:
    c.fitted.update(start_fit.free_posed_objects(c.objects, c.posed))


def _start(rule: Callable[[list[SceneObject], list[tuple[str, Box]], dict[str, SceneObject]], dict[str, SceneObject]],
           loose: bool) -> Callable[[StartContext], None]:
    """The adapter of a start-state rule: the room's objects, the posed (or only the loose posed)
    objects and the earlier passes' changes; its changes join them."""
    def run(c: StartContext) -> None:
        c.fitted.update(rule(c.objects, c.loose if loose else c.posed, c.fitted))
    return run


_POSED = "the start state's object poses"
_LOOSE = "the start state's poses of pickupable objects"

#: The passes fitting a built room to one trajectory's start state, at restore time, in order.
START_PASSES: tuple[Pass[StartContext], ...] = (
    Pass("free_posed_objects", "start", start_fit.free_posed_objects, _start_fixtures_freed,
         _POSED + ", placement table", "fixtures are cut back from posed objects they may not hold"),
    Pass("slabs_off_posed", "start", start_fit.slabs_off_posed, _start(start_fit.slabs_off_posed, False), _POSED,
         "counter slabs are cut off what lies under them outside a cupboard"),
    Pass("floors_under_posed", "start", start_fit.floors_under_posed, _start(start_fit.floors_under_posed, False),
         _POSED, "a basin's floor comes down to what lies in it"),
    Pass("parts_under_posed", "start", start_fit.parts_under_posed, _start(start_fit.parts_under_posed, True), _LOOSE,
         "drawers and cabinets are cut below what lies over their id"),
    Pass("tops_under_posed", "start", start_fit.tops_under_posed, _start(start_fit.tops_under_posed, True), _LOOSE,
         "a top comes down to what rests on it"),
    Pass("tops_reach_posed", "start", start_fit.tops_reach_posed, _start(start_fit.tops_reach_posed, True), _LOOSE,
         "an open top grows to hold what rests just past its edge"),
    Pass("desks_end_before_posed", "start", start_fit.desks_end_before_posed,
         _start(start_fit.desks_end_before_posed, True), _LOOSE,
         "a desk ends before what lies on the floor past its end"),
    Pass("drawings_hold_posed", "start", fixture_extents.drawings_hold_posed,
         _start(fixture_extents.drawings_hold_posed, False), _POSED,
         "a cabinet drawn to its shut masks is drawn round what the start state puts in it"),
)

#: Every pass, build time then restore time, in the order they run.
PASSES: tuple[Pass[Any], ...] = (*ROOM_PASSES, *START_PASSES)


def table_rows(passes: Sequence[Pass[Any]] = PASSES) -> list[tuple[str, str, str, str, str]]:
    """(name, stage, function, evidence, fixes) per pass, in order: what ``docs/importer.md`` lists."""
    return [(p.name, p.stage, p.function, p.evidence, p.fixes + (" (required)" if p.required else ""))
            for p in passes]
