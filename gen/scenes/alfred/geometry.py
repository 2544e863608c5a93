"""Boxes for the objects of a real THOR room, inferred from what ALFRED's files say about it.

ALFRED ships ids (type + origin position), agent poses and object poses, never extents. A box is
built for every fixture by the passes of :data:`~alfred_gen.scenes.alfred.passes.ROOM_PASSES`, run
in the order that table lists them over one
:class:`~alfred_gen.scenes.alfred.passes.RoomContext`; each is a rule about THOR, none about a
particular room. ``docs/importer.md`` lists them with the evidence each reads and what each buys.
The kinds of work, which the table interleaves (a fit grows a box that a later cut or a
drawing-only opening trims; ``separate_nested`` runs twice):

- **face** and **size**: the room's own THOR asset size when a THOR asset database is given
  (``--thor-db``), else the catalogue's typical size, turned to cover fewer reachable points, its
  origin at the bottom (floor furniture), the top (counters, shelves, burners) or the middle
  (drawers, cabinets); surface heights learnt from the released demos (per receptacle its own
  evidence, else the type's median over all imported rooms); then which way drawers and cabinets
  face and how far they reach (rows, door pairs, shelving units, contents);
- **support**: every (object, receptacle) pair a demo reports is made true for the simulator's
  support rule (the surface at the reported bottoms, the receptacle grown to hold the object, any
  other that would claim it shrunk away), and every object shown at rest lies on something;
- **cut**: what cannot overlap: boxes cut back from every reachable point, stacked drawers no taller
  than their spacing, drawers under a top below it, cabinets over a counter above it, slabs off what
  lies under them, nothing buried in a top;
- **basin** and **drawing**: sink and tub basins as bowls at the counter's height, and openings cut
  from a box's drawing only (:attr:`Block.holes`) where it keeps what it holds;
- **sight**: fixtures cut out of the rays of what each demo saw, rows and frames brought to one front;
- **objects**, **output**, **poses**, **floor**: pickupable objects get the catalogue's size, turned
  by their recorded yaw, with the box bottom at the recorded position, or below it as far as THOR's
  origin convention says (:mod:`alfred_gen.scenes.alfred.loose`,
  :mod:`alfred_gen.scenes.alfred.rest_height`); interaction poses and the margin floor.

Before the passes, a layout file's id that the demos name a centimetre off (an object physics
settles when THOR loads the room) takes the demos' id (:mod:`alfred_gen.scenes.alfred.layout_ids`),
so the room holds one object, not two in one place.

At restore time a second table, :data:`~alfred_gen.scenes.alfred.passes.START_PASSES`
(:func:`~alfred_gen.scenes.alfred.start_fit.fit_to_start_state`), fits the built room to the start
state of the trajectory being replayed. ``without`` (pass names) builds a room with some passes
switched off, to measure what they buy (``bench/alfred_fidelity.py --without``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from alfred_gen.scenes.alfred.evidence import SceneEvidence
from alfred_gen.scenes.alfred.layout_ids import with_layout_ids_matched
from alfred_gen.scenes.alfred.passes import ROOM_PASSES, RoomContext, check_without, run_passes
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import AGENT_Y, Pose, SceneObject


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


def room_geometry(evidence: SceneEvidence, sizes: ThorSizes | None = None, stats: SurfaceStats | None = None,
                  default_agent_y: float = AGENT_Y, without: frozenset[str] = frozenset()) -> RoomGeometry:
    """Fit boxes for every fixture and object ALFRED's files mention in one room: the passes of
    :data:`~alfred_gen.scenes.alfred.passes.ROOM_PASSES` in order, but those named in ``without``
    (ValueError for a name that is no pass or a required one)."""
    evidence = with_layout_ids_matched(evidence)
    c = run_passes(ROOM_PASSES, RoomContext.start(evidence, sizes, stats, default_agent_y), check_without(without))
    return RoomGeometry(c.objects, c.interaction_poses, c.reachable, c.floor_y, c.agent_y, len(c.facts),
                        c.disagreements, c.margin)
