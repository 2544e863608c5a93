"""Which way a room's sink basin lays a long thing: the heading its demos' masks show, as a turn
from the way the agent faces.

THOR turns an object put into a sink basin to the basin's yaw, then by quarter turns until its box
fits, and which turn fits first depends on the bowl's colliders, which lite's boxes do not model;
lite keeps the held yaw (:data:`~alfred_gen.sim.put_yaw.TURNED_TYPES`). Session 82 turned every
long thing to point the way the agent faces and lost picks (THOR's masks show knives, forks,
spoons, butter knives, spatulas and ladles along the sight 138 times, across it 49), but a room's
own basin mostly lays a type one way: over every train demo whose mask of a long thing's next
sighting from the pose of its basin put shows its heading (213 sightings), the majority of the same
room's other demos for the same type says along or across right 167 times of 192 (87%), "always
along" 154 of 202 (session 92: FloorPlan19's spatulas across 6 of 6, FloorPlan21's forks across 3
of 3 and its knives along 6 of 6).

:func:`sighting_headings` reads each sighting's heading (:func:`mask_heading`, the file's own
headings use it too, :mod:`alfred_gen.scenes.alfred.file_headings`); the importer keeps them
(:class:`HeadingFact`, with the evidence) and gives each basin its majority per type
(:func:`room_put_headings`, :attr:`~alfred_gen.sim.scene.SceneObject.put_headings`), which a put
from any pose turns the held thing to when the replayed file's own masks do not say
(:func:`~alfred_gen.sim.put_yaw.file_yaw`). Turned alone it gained IoU but no pick (a thin strip
turned as THOR laid it but a few pixels beside THOR's misses it where one across it had crossed);
with the long thing landing on its point's line itself (:data:`~alfred_gen.sim.put_landing.CLEAR_RULES`,
where the figures are) the wide sample's pickups after a sink put went 33 -> 34/45, IoU 0.309 -> 0.345.
Imported rooms only: procedural rooms have no evidence, so no receptacle of theirs has headings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from alfred_gen.domains import catalogue
from alfred_gen.scenes.alfred.put_facts import MIN_PIXELS, Sighting
from alfred_gen.sim.camera import Camera
from alfred_gen.sim.put_lean import long_in_plan
from alfred_gen.sim.scene import ALFRED_CAMERA
from alfred_gen.sim.thor_shapes import HEAD_AT
from alfred_gen.traj.rle import decode_mask

#: Receptacle types whose headings are read: sink basins, where lite keeps the held yaw (a
#: microwave's put turns the object by THOR's own loop, :func:`~alfred_gen.sim.put_yaw.turn_for_put`).
HEADING_RECEPTACLES = frozenset({"SinkBasin"})

#: How many times its minor axis the mask's major axis (square roots of the pixel spread's
#: eigenvalues) must be for its long axis to say anything (a thing seen end on is round).
ELONGATED = 2.0

#: Metres either side of the sighted point over which a world axis's image direction is taken (the
#: direction through a point does not depend on its depth along the ray: it points to the axis's
#: vanishing point).
STEP = 0.05


@dataclass(frozen=True)
class HeadingFact:
    """A ``kind`` put into ``receptacle`` from ``pose`` ([x, z, rotation, horizon]) and seen again
    from there lying along ``heading`` (THOR's yaw of a world direction: 0 is +z, 90 is +x)."""

    receptacle: str
    kind: str
    pose: tuple[float, float, float, float]
    heading: float

    def to_list(self) -> list[Any]:
        return [self.receptacle, self.kind, list(self.pose), self.heading]

    @staticmethod
    def from_list(data: Sequence[Any]) -> HeadingFact:
        x, z, rotation, horizon = (float(c) for c in data[2])
        return HeadingFact(str(data[0]), str(data[1]), (x, z, rotation, horizon), float(data[3]))

    @property
    def turns(self) -> int:
        """Quarter turns from the way the agent faced at the put to the heading (0: away along the
        sight, 1: to its right, 2: towards the agent, 3: to its left)."""
        return int(round((self.heading - self.pose[2]) / 90.0)) % 4


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


def sighting_headings(sightings: Sequence[Sighting], agent_y: float) -> list[HeadingFact]:
    """The heading each of ``sightings`` (:func:`~alfred_gen.scenes.alfred.put_facts.put_sightings`)
    of a long thing put into a :data:`HEADING_RECEPTACLES` receptacle shows (:func:`mask_heading`;
    the agent's floor at ``agent_y``)."""
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
            out.append(HeadingFact(receptacle, kind, (x, z, rotation, horizon), heading))
    return out


def room_put_headings(facts: Iterable[HeadingFact]) -> dict[str, tuple[tuple[str, tuple[float, ...]], ...]]:
    """Receptacle id -> (type, (quarter turns from the way the agent faces,)) for each type its
    ``facts`` lay one way more often than the other (along the sight or across it; then, of those,
    the commonest end first, the lesser turn on a tie); a type they lay as often along as across
    has none."""
    by_key: dict[tuple[str, str], list[int]] = {}
    for fact in facts:
        by_key.setdefault((fact.receptacle, fact.kind), []).append(fact.turns)
    out: dict[str, list[tuple[str, tuple[float, ...]]]] = {}
    for (receptacle, kind), turns in sorted(by_key.items()):
        across = sum(t % 2 for t in turns)
        if 2 * across == len(turns):
            continue
        axis = int(2 * across > len(turns))
        ways = Counter(t for t in turns if t % 2 == axis)
        way = min(ways, key=lambda t: (-ways[t], t))
        out.setdefault(receptacle, []).append((kind, (float(way),)))
    return {receptacle: tuple(kinds) for receptacle, kinds in out.items()}
