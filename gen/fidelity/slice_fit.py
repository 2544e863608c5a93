"""Where THOR 2.1 lays an object's slices, settled from the released masks.

The cast of one slice pickup's mask into its whole's own frame is the importer's
(:mod:`alfred_gen.scenes.alfred.slice_facts`, which also gives each room its own loaf,
:mod:`alfred_gen.scenes.alfred.slice_layouts`). :func:`slice_positions` gathers those points for one
demo and :func:`slice_layout` fits ``first + (k - 1) * step`` to them per type
(:data:`alfred_gen.sim.actions.SLICE_LAYOUT` is the result for ALFRED's train set).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from alfred_gen.scenes.alfred.evidence import interaction_steps, start_ids_of, start_poses
from alfred_gen.scenes.alfred.slice_facts import slice_facts, slice_line

#: (slice number, own x, own z) of one slice's cast mask centroid off the whole's origin (metres).
SlicePoint = tuple[int, float, float]


def slice_positions(traj: Mapping[str, Any]) -> dict[str, list[SlicePoint]]:
    """Sliced type -> where the first pickup of each of its slices saw it, in one demonstration."""
    scene = traj["scene"]
    start = start_ids_of(start_poses(scene))
    low_actions = traj["plan"]["low_actions"]
    _, steps = interaction_steps(scene, low_actions)
    out: dict[str, list[SlicePoint]] = {}
    for fact in slice_facts(low_actions, steps, float(scene["init_action"]["y"]), start):
        out.setdefault(fact.kind, []).append((fact.number, fact.own_x, fact.own_z))
    return out


def slice_layout(points: Iterable[SlicePoint], along_x: bool = False) -> tuple[float, float, int]:
    """(first, step, count): the line ``first + (k - 1) * step`` through the per-slice medians of
    ``points`` along the whole's own z (or x), each median weighted by how many points it has."""
    return slice_line((number, own_x if along_x else own_z) for number, own_x, own_z in points)
