"""The evidence a fidelity measurement builds THOR rooms from, and the ways it is held out.

A figure about fidelity must come from demonstrations the rooms being tested were not built from
(DESIGN.md, "ALFRED reference data"). :class:`EvidencePool` keeps the room layouts and the facts
of every released demonstration apart, so a room can be built from any subset:

- *in-sample*: every demonstration (what ``alfred-gen scenes import-alfred`` builds; a figure
  measured in these rooms is memory, and is labelled so);
- *held-out folds*: the demonstrations of each room are split into K folds (sorted by path,
  demonstration i in fold i mod K); a demonstration is replayed in its room built from the other
  folds only, and the type-level statistics every room shares (learnt surface heights) are learnt
  from the other folds too;
- *unseen rooms*: the rooms are split into K groups the same way; a demonstration is replayed in
  its room built from its layout files alone (no demonstration of that room), with statistics
  learnt from the rooms of the other groups. Only the replayed demonstration's own ``scene`` block
  completes it, as it completes any imported room at restore time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from alfred_gen.parallel import run_ordered
from alfred_gen.scenes.alfred.evidence import SceneEvidence, TrajectoryFacts
from alfred_gen.scenes.alfred.importer import AlfredSources, read_layout, read_trajectory_facts
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats


@dataclass(frozen=True)
class Released:
    """One released demonstration: where it is and what it says about its room."""

    path: Path
    facts: TrajectoryFacts

    @property
    def room(self) -> int:
        return self.facts.scene_num


@dataclass
class EvidencePool:
    """Layout evidence per room and the facts of every readable released demonstration."""

    layouts: dict[int, SceneEvidence]
    demos: list[Released]
    #: Files that could not be read (or name types the simulator does not know).
    unreadable: list[Path] = field(default_factory=list)

    @staticmethod
    def read(sources: AlfredSources, files: Sequence[Path], workers: int = 1,
             on_read: Callable[[int], None] | None = None) -> EvidencePool:
        """The layouts of every room of ``sources`` and the facts of ``files`` (read in ``workers``
        processes)."""
        layouts: dict[int, SceneEvidence] = {}
        for number in sources.layout_numbers():
            evidence = SceneEvidence(number)
            read_layout(sources.layouts, number, evidence)
            layouts[number] = evidence
        pool = EvidencePool(layouts, [])
        for path, facts in zip(files, run_ordered(read_trajectory_facts, files, workers, chunksize=32)):
            if on_read is not None:
                on_read(1)
            if facts is None:
                pool.unreadable.append(path)
            else:
                pool.demos.append(Released(path, facts))
        pool.demos.sort(key=lambda d: str(d.path))
        return pool

    def rooms_with_demos(self) -> list[int]:
        return sorted({d.room for d in self.demos})

    def room_evidence(self, number: int, demos: Iterable[Released] = ()) -> SceneEvidence:
        """Room ``number``'s layout evidence plus the facts of ``demos`` (a room without layout files
        starts empty)."""
        layout = self.layouts.get(number)
        evidence = SceneEvidence(number)
        if layout is not None:
            evidence.layout_points, evidence.openable, evidence.types_present = (
                layout.layout_points, layout.openable, layout.types_present)
        for demo in demos:
            evidence.add_trajectory(demo.facts)
        return evidence

    def rooms(self, keep: Callable[[Released], bool] = lambda _: True) -> dict[int, SceneEvidence]:
        """Every room's evidence from its layouts and the demonstrations ``keep`` accepts."""
        by_room: dict[int, list[Released]] = {n: [] for n in self.layouts}
        for demo in self.demos:
            if keep(demo):
                by_room.setdefault(demo.room, []).append(demo)
        return {n: self.room_evidence(n, by_room[n]) for n in sorted(by_room)}

    def folds(self, k: int) -> dict[Path, int]:
        """Demonstration path -> fold in [0, k): per room, sorted by path, demonstration i in fold i mod k."""
        out: dict[Path, int] = {}
        seen: dict[int, int] = {}
        for demo in self.demos:  # sorted by path
            index = seen.get(demo.room, 0)
            seen[demo.room] = index + 1
            out[demo.path] = index % k
        return out

    def room_groups(self, k: int) -> dict[int, int]:
        """Room number -> group in [0, k): the rooms with demonstrations, sorted, room i in group i mod k."""
        return {number: i % k for i, number in enumerate(self.rooms_with_demos())}


def layout_fixtures(layout: SceneEvidence) -> set[str]:
    """The fixture ids a room's layout files name: its openable receptacles, and the basins of its
    sinks and bathtubs (THOR names a basin after its sink: ``Sink|...|SinkBasin``)."""
    ids = set(layout.openable)
    ids |= {f"{i}|SinkBasin" for i in layout.openable if i.startswith("Sink|")}
    ids |= {f"{i}|BathtubBasin" for i in layout.openable if i.startswith("Bathtub|")}
    return ids


def unknowable_demos(pool: EvidencePool, known: Callable[[Released], set[str]]) -> list[Released]:
    """The demonstrations that act on a fixture ``known(demo)`` (the fixture ids the room built for
    it can know) does not name: no rule can put that fixture in the room, so they bound the figure."""
    return [d for d in pool.demos if {i for i, _ in d.facts.interaction_poses} - known(d)]


def learnt_stats(rooms: Mapping[int, SceneEvidence]) -> SurfaceStats:
    """The type-level statistics learnt from ``rooms`` (what every room built from them shares)."""
    return SurfaceStats.learn(rooms.values())
