"""Surface heights of fixtures learnt from every imported room, for rooms without evidence of their own.

THOR's ids put a fixture's origin at its base, its top or its middle depending on the asset; how
far above the id a table's or counter's surface is cannot be read from the id. The released demos
say it: an object THOR reported on a receptacle has its bottom on that receptacle's surface. The
median per receptacle type over all rooms is what a room without such a report gets.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from alfred_gen.scenes.alfred.evidence import SceneEvidence, id_position
from alfred_gen.scenes.alfred.fixture_block import origin_on_floor
from alfred_gen.scenes.alfred.support_facts import fixture_ids, resolved_facts
from alfred_gen.sim.scene import AGENT_Y

#: Minimum evidence count before a learnt per-type surface height is trusted.
MIN_SAMPLES = 3


@dataclass
class SurfaceStats:
    """Per (receptacle type, origin on the floor?): median height of the surface above the id's y.

    Learnt from every support fact of every imported room: the bottom of an object THOR reported on
    a receptacle is where that receptacle's surface is.
    """

    offsets: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @staticmethod
    def key(kind: str, floor_origin: bool) -> str:
        return f"{kind}|{'floor' if floor_origin else 'raised'}"

    def offset(self, kind: str, floor_origin: bool) -> float | None:
        k = self.key(kind, floor_origin)
        return self.offsets[k] if self.counts.get(k, 0) >= MIN_SAMPLES else None

    @staticmethod
    def learn(rooms: Iterable[SceneEvidence], default_agent_y: float = AGENT_Y) -> SurfaceStats:
        samples: dict[str, list[float]] = {}
        for evidence in rooms:
            floor_y = evidence.agent_y(default_agent_y) - AGENT_Y
            for fact, target, box in resolved_facts(evidence, fixture_ids(evidence), floor_y):
                ry = id_position(target)[1]
                floor_origin = origin_on_floor(ry, floor_y)
                bottom = box.lo[1]
                samples.setdefault(SurfaceStats.key(fact.receptacle_type, floor_origin), []).append(bottom - ry)
        stats = SurfaceStats()
        for k in sorted(samples):
            stats.offsets[k] = round(statistics.median(samples[k]), 4)
            stats.counts[k] = len(samples[k])
        return stats

    def to_dict(self) -> dict[str, list[float]]:
        return {k: [self.offsets[k], self.counts[k]] for k in sorted(self.offsets)}

    @staticmethod
    def from_dict(data: Mapping[str, list[float]]) -> SurfaceStats:
        stats = SurfaceStats()
        for k, (offset, count) in data.items():
            stats.offsets[k] = float(offset)
            stats.counts[k] = int(count)
        return stats
