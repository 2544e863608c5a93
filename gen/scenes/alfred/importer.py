"""Importing real THOR rooms from an ALFRED checkout: ``alfred-gen scenes import-alfred``.

An ALFRED checkout holds the 120 room layouts and, if downloaded, the released trajectories. Both
shapes are accepted:

- the full repository: ``ALFRED_DIR/gen/layouts/`` and ``ALFRED_DIR/data/json_2.1.0/``;
- a partial copy: ``ALFRED_DIR/layouts/`` and ``ALFRED_DIR/json_2.1.0/`` (as ``../shared/alfred``).

Trajectories are optional; layouts are not. Every trajectory found adds what it proves about its
room (:mod:`alfred_gen.scenes.alfred.evidence`): object names and poses, fixtures used, points
walked, which receptacle held what. :mod:`alfred_gen.scenes.alfred.geometry` turns the evidence
into boxes. The rooms are named as THOR names them (``FloorPlan10``) and written to a scene
catalogue (:mod:`alfred_gen.scenes.alfred.catalogue_store`) that ``get_scene`` and the lite simulator
read: after an import, a lite controller made with the scene library loads ``FloorPlan10`` by name.

Python use::

    from alfred_gen.scenes.alfred.importer import import_alfred
    summary = import_alfred("~/alfred", out="scenes.json", thor_db="procthor/databases")
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from alfred_gen.domains import catalogue
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.parallel import run_ordered
from alfred_gen.progress import progress
from alfred_gen.scenes.alfred import catalogue_store
from alfred_gen.scenes.alfred.evidence import SceneEvidence, TrajectoryFacts, trajectory_facts, type_of_name
from alfred_gen.scenes.alfred.fixture_rules import FixtureRule, learn_fixture_rules, with_rule_fixtures
from alfred_gen.scenes.alfred.floor import margin_points, scene_footprints
from alfred_gen.scenes.alfred.geometry import RoomGeometry, room_geometry
from alfred_gen.scenes.alfred.loose import loose_box
from alfred_gen.scenes.alfred.memory import peak_memory_mb
from alfred_gen.scenes.alfred.put_headings import room_put_headings
from alfred_gen.scenes.alfred.put_points import put_matches_by_pose, put_points_and_places
from alfred_gen.scenes.alfred.rest_height import FITTED_TYPES, origin_height, rested
from alfred_gen.scenes.alfred.shelves import learnt_shelves, receptacle_shelves
from alfred_gen.scenes.alfred.slice_layouts import room_slice_layouts
from alfred_gen.scenes.alfred.start_falls import fall_zones
from alfred_gen.scenes.alfred.start_fit import fit_to_start_state
from alfred_gen.scenes.alfred.surface_stats import SurfaceStats
from alfred_gen.scenes.alfred.thor_sizes import ThorSizes
from alfred_gen.sim.scene import (
    AGENT_Y,
    ALFRED_CAMERA,
    Box,
    Scene,
    SceneObject,
    format_object_id,
    grid_key,
    room_type_of,
)
from alfred_gen.traj.format import TRAJ_FILE_NAME, parse_trajectory_json

#: Height of the walls drawn around an imported room (they only bound it; ALFRED gives no walls).
WALL_HEIGHT = 2.8
WALL_THICKNESS = 0.1


@dataclass(frozen=True)
class AlfredSources:
    """Where an ALFRED checkout keeps its layouts and its released trajectories."""

    root: Path
    layouts: Path
    trajectory_files: tuple[Path, ...]

    def layout_numbers(self) -> list[int]:
        """Scene numbers with a ``FloorPlanN-layout.npy``, sorted."""
        numbers = []
        for path in self.layouts.glob("FloorPlan*-layout.npy"):
            digits = path.name[len("FloorPlan"):-len("-layout.npy")]
            if digits.isdigit():
                numbers.append(int(digits))
        return sorted(numbers)


def find_sources(alfred_dir: str | Path) -> AlfredSources:
    """Locate layouts and trajectories in a full or partial ALFRED checkout.

    Raises UserError NOT_FOUND if the directory does not exist or holds no layouts (nothing to read).
    """
    root = Path(alfred_dir).expanduser()
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (expected an ALFRED checkout)", ExitCode.NOT_FOUND)
    layouts = next((d for d in (root / "gen" / "layouts", root / "layouts") if d.is_dir()
                    and any(d.glob("FloorPlan*-layout.npy"))), None)
    if layouts is None:
        raise UserError(f"{root}: no ALFRED layouts (gen/layouts/ or layouts/ with FloorPlanN-layout.npy)",
                        ExitCode.NOT_FOUND)
    json_roots = [d for d in (root / "data" / "json_2.1.0", root / "json_2.1.0") if d.is_dir()]
    files = sorted({p for d in json_roots for p in d.rglob(TRAJ_FILE_NAME) if p.is_file()})
    return AlfredSources(root, layouts, tuple(files))


def read_layout(layouts: Path, scene_num: int, evidence: SceneEvidence) -> None:
    """Fill ``evidence`` from ``FloorPlanN-layout.npy``, ``-openable.json`` and ``-objects.json``."""
    import numpy as np

    stem = layouts / f"FloorPlan{scene_num}"
    try:
        points = np.load(f"{stem}-layout.npy")
        evidence.layout_points = [(float(x), float(z)) for x, z in np.asarray(points, dtype=float).reshape(-1, 2)]
        openable_path = Path(f"{stem}-openable.json")
        if openable_path.exists():
            openable = json.loads(openable_path.read_text())
            evidence.openable = {str(k): [float(v) for v in pose] for k, pose in sorted(openable.items())}
        objects_path = Path(f"{stem}-objects.json")
        if objects_path.exists():
            evidence.types_present = sorted(str(t) for t in json.loads(objects_path.read_text()))
    except (OSError, ValueError, TypeError) as error:
        raise UserError(f"{stem}: unreadable ALFRED layout ({error})", ExitCode.BAD_INPUT) from None


def _known_types(facts: TrajectoryFacts) -> bool:
    """Whether every object a trajectory names has a type the simulator knows."""
    names = [type_of_name(n) for n, _, _ in facts.object_poses]
    return all(t in catalogue.OBJECT_TYPES for t in names + [catalogue.type_of_id(i) for i in facts.static_ids])


def read_trajectory_facts(path: Path) -> TrajectoryFacts | None:
    """The facts of one traj_data.json, or None if it cannot be read (counted, not fatal)."""
    try:
        traj = parse_trajectory_json(path)
        facts = trajectory_facts(traj)
    except (UserError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None
    return facts if _known_types(facts) else None


# --------------------------------------------------------------------------------------------
# Evidence -> Scene


def _room_walls(objects: list[SceneObject], points: list[tuple[float, float]], floor_y: float) -> tuple[Box, ...]:
    """Four thin walls 0.5 m outside everything known (ALFRED gives no walls; nothing is occluded)."""
    xs = [x for x, _ in points] + [c for o in objects for c in (o.box.lo[0], o.box.hi[0])]
    zs = [z for _, z in points] + [c for o in objects for c in (o.box.lo[2], o.box.hi[2])]
    if not xs:
        xs, zs = [0.0], [0.0]
    x0, x1, z0, z1 = min(xs) - 0.5, max(xs) + 0.5, min(zs) - 0.5, max(zs) + 0.5
    t, lo, hi = WALL_THICKNESS, floor_y, floor_y + WALL_HEIGHT
    return (
        Box((x0 - t, lo, z1), (x1 + t, hi, z1 + t)),
        Box((x0 - t, lo, z0 - t), (x1 + t, hi, z0)),
        Box((x1, lo, z0), (x1 + t, hi, z1)),
        Box((x0 - t, lo, z0), (x0, hi, z1)),
    )


def _within(walls: Sequence[Box], boxes: Sequence[Box]) -> bool:
    """Whether ``boxes`` lie inside the rectangle the four walls of :func:`_room_walls` enclose."""
    if len(walls) != 4:
        return True
    x0, x1 = walls[3].hi[0], walls[2].lo[0]
    z0, z1 = walls[1].hi[2], walls[0].lo[2]
    return all(x0 <= b.lo[0] and b.hi[0] <= x1 and z0 <= b.lo[2] and b.hi[2] <= z1 for b in boxes)


def thor_id(object_type: str, position: tuple[float, float, float]) -> str:
    """The id THOR gives an object at a position it reported (single-precision rounding)."""
    return format_object_id(object_type, position, single_precision=True)


def _unique_ids(objects: list[SceneObject]) -> list[SceneObject]:
    """Objects with distinct ids: a pickupable whose id another already has (two objects seen at one
    spot in different demos) moves 1 cm along x until its id is free, as THOR's spawns keep ids unique."""
    taken: set[str] = set()
    out = []
    for obj in objects:
        if obj.object_id in taken:
            dx = 0.0
            while thor_id(obj.object_type, (obj.position[0] + dx, obj.position[1], obj.position[2])) in taken:
                dx += 0.01
            position = (obj.position[0] + dx, obj.position[1], obj.position[2])
            obj = SceneObject(obj.object_type, position, obj.box.translated(dx, 0.0, 0.0), name=obj.name,
                              object_id=thor_id(obj.object_type, position), rotation=obj.rotation)
        taken.add(obj.object_id)
        out.append(obj)
    return out


def _with_parents(scene: Scene) -> Scene:
    """Set each pickupable's starting receptacle the way the simulator's SetObjectPoses would."""
    from alfred_gen.sim.lite import LiteController

    poses = [{"objectName": o.name, "position": dict(zip("xyz", o.position)),
              "rotation": dict(zip("xyz", o.rotation))}
             for o in scene.objects if catalogue.object_type(o.object_type).pickupable]
    sim = LiteController(scene, render_image=False)
    event = sim.step({"action": "SetObjectPoses", "objectPoses": poses})
    if not event.metadata["lastActionSuccess"]:
        return scene
    parents = {o.name: o.parent for o in sim.world.objects if o.otype.pickupable}
    ids = {o.object_id for o in scene.objects}
    for obj in scene.objects:
        if catalogue.object_type(obj.object_type).pickupable and parents.get(obj.name) in ids:
            obj.parent = parents[obj.name]
    return scene


def scene_from_geometry(evidence: SceneEvidence, geometry: RoomGeometry, stats: SurfaceStats | None = None) -> Scene:
    """The Scene of one imported room (``stats``: what other rooms show, for a fridge without evidence)."""
    objects = _unique_ids(geometry.objects)
    shelves = receptacle_shelves(objects, evidence.objects, geometry.floor_y)
    shelves.update(learnt_shelves(objects, shelves, stats, geometry.floor_y))
    objects = [replace(o, shelves=shelves[o.object_id]) if o.object_id in shelves else o for o in objects]
    puts, places = put_points_and_places(objects, evidence.puts, geometry.agent_y + ALFRED_CAMERA.height)
    objects = [replace(o, put_points=puts[o.object_id]) if o.object_id in puts else o for o in objects]
    objects = [replace(o, put_places=places[o.object_id]) if o.object_id in places else o for o in objects]
    matches = put_matches_by_pose(objects, evidence.puts)
    objects = [replace(o, put_matches=matches[o.object_id]) if o.object_id in matches else o for o in objects]
    headings = room_put_headings(evidence.headings)
    objects = [replace(o, put_headings=headings[o.object_id]) if o.object_id in headings else o for o in objects]
    scene = Scene(
        name=evidence.name,
        scene_num=evidence.scene_num,
        room_type=room_type_of(evidence.scene_num),
        walls=_room_walls(objects, geometry.reachable, geometry.floor_y),
        reachable=tuple(geometry.reachable),
        objects=objects,
        interaction_poses=dict(sorted(geometry.interaction_poses.items())),
        floor_y=geometry.floor_y,
        agent_y=geometry.agent_y,
        camera=ALFRED_CAMERA,
        float32_ids=True,
        margin=tuple(geometry.margin),
    )
    # The falls are added once the parents are set: a pickupable's starting receptacle is the one
    # its pose names, as ALFRED's planner has it.
    return replace(_with_parents(scene), falls=fall_zones(evidence.sights, geometry.floor_y),
                   slice_layouts=room_slice_layouts(evidence.slices))


def build_scene(evidence: SceneEvidence, sizes: ThorSizes | None = None, stats: SurfaceStats | None = None,
                without: frozenset[str] = frozenset()) -> Scene:
    """The Scene ALFRED's evidence describes (see :mod:`alfred_gen.scenes.alfred.geometry`), built
    without the passes named in ``without`` (:mod:`alfred_gen.scenes.alfred.passes`)."""
    return scene_from_geometry(evidence, room_geometry(evidence, sizes, stats, without=without), stats)


def alfred_layout_scene(root: str | Path, scene_num: int, object_poses: list[dict[str, Any]] | None = None,
                        object_ids: Iterable[str] = (), agent_y: float = AGENT_Y,
                        extra_reachable: Iterable[tuple[float, float]] = ()) -> Scene:
    """A Scene from ALFRED's layout files of FloorPlan``scene_num`` plus what a caller knows.

    ``root`` holds ``layouts/`` (or ``gen/layouts/``). ``object_poses`` (a trajectory's
    ``scene.object_poses``) adds one object per distinct name; ``object_ids`` adds the fixtures
    (lamps, faucets) named by id; ``extra_reachable`` adds agent points the layout file misses.
    Kept for callers that build one room without a catalogue (the simulator's tests).
    """
    sources_root = Path(root)
    layouts = next((d for d in (sources_root / "layouts", sources_root / "gen" / "layouts") if d.is_dir()),
                   sources_root / "layouts")
    evidence = SceneEvidence(int(scene_num))
    read_layout(layouts, int(scene_num), evidence)
    evidence.agent_ys = [float(agent_y)]
    facts = TrajectoryFacts(int(scene_num), float(agent_y), list(extra_reachable),
                            [(str(p["objectName"]), (float(p["position"]["x"]), float(p["position"]["y"]),
                                                     float(p["position"]["z"])),
                              float((p.get("rotation") or {}).get("y", 0.0))) for p in object_poses or ()],
                            sorted({i for i in object_ids if _is_fixture(i)}), [])
    evidence.add_trajectory(facts)
    evidence.agent_ys = [float(agent_y)]
    evidence.trajectories = 0
    return build_scene(evidence)


def _is_fixture(object_id: str) -> bool:
    from alfred_gen.scenes.alfred.evidence import is_static_id

    return is_static_id(object_id)


# --------------------------------------------------------------------------------------------
# Completing a catalogue room for one released trajectory's start state


def complete_for_start_state(scene: Scene, scene_block: Mapping[str, Any],
                             without: frozenset[str] = frozenset()) -> Scene:
    """``scene`` plus what a trajectory's ``scene`` block proves it has: every object it names (THOR
    rooms hold all of them; a catalogue only those its demos named) and its start point, with the
    margin floor round it (:func:`~alfred_gen.scenes.alfred.floor.margin_points`); and no
    fixture disagreeing with where the objects are posed (see
    :func:`~alfred_gen.scenes.alfred.start_fit.fit_to_start_state`, but the passes named in
    ``without``).

    Objects are added at their first recorded pose with the catalogue's size (a cardboard box at the
    origin height its poses show, :mod:`~alfred_gen.scenes.alfred.rest_height`). Unknown types and
    malformed entries are left for SetObjectPoses to report.
    """
    names = {o.name for o in scene.objects}
    listed: list[tuple[str, tuple[float, float, float], float]] = []
    poses_of: dict[str, list[tuple[tuple[float, float, float], float]]] = {}
    for pose in scene_block.get("object_poses") or ():
        try:
            name = str(pose["objectName"])
            p = pose["position"]
            position = (float(p["x"]), float(p["y"]), float(p["z"]))
            yaw = float((pose.get("rotation") or {}).get("y", 0.0))
        except (KeyError, TypeError, ValueError):
            continue
        if type_of_name(name) in catalogue.OBJECT_TYPES:
            listed.append((name, position, yaw))
            poses_of.setdefault(name, []).append((position, yaw))
    fixtures = [o.box for o in scene.objects if not catalogue.object_type(o.object_type).pickupable]
    heights = {name: origin_height(type_of_name(name), poses, fixtures, scene.floor_y)
               for name, poses in poses_of.items() if type_of_name(name) in FITTED_TYPES}
    added: list[SceneObject] = []
    posed: list[tuple[str, Box]] = []
    for name, position, yaw in listed:
        kind = type_of_name(name)
        box = rested(loose_box(kind, position, yaw, scene.floor_y), position, heights.get(name), scene.floor_y)
        posed.append((kind, box))
        if name in names:
            continue
        names.add(name)
        added.append(SceneObject(kind, position, box, name=name, object_id=thor_id(kind, position),
                                 rotation=(0.0, yaw, 0.0)))
    reachable = list(scene.reachable)
    init = scene_block.get("init_action") or {}
    try:
        start = (float(init["x"]), float(init["z"]))
    except (KeyError, TypeError, ValueError):
        start = None
    if start is not None and grid_key(*start) not in {grid_key(x, z) for x, z in reachable}:
        reachable.append(start)
    freed = fit_to_start_state(scene.objects, posed, without)
    if not added and not freed and len(reachable) == len(scene.reachable):
        return scene
    objects = _unique_ids([freed.get(o.object_id, o) for o in scene.objects] + added)
    margin = scene.margin
    if start is not None and len(reachable) > len(scene.reachable):
        # The start is floor like any walked point: the points one step from it are margin floor
        # where no fixture stands (two held-out demos of FloorPlan208 step off a start no other
        # demo stood on, onto floor no fixture is near).
        known = {grid_key(x, z) for x, z in (*reachable, *margin)}
        fixtures = list(scene_footprints(objects).values())
        margin = margin + tuple(p for p in margin_points([start], fixtures, scene.floor_y) if grid_key(*p) not in known)
    walls = scene.walls
    new_floor = [Box((x, scene.floor_y, z), (x, scene.floor_y, z)) for x, z in reachable[len(scene.reachable):]]
    if (added or new_floor) and not _within(walls, [o.box for o in added] + new_floor):
        # The walls stand 0.5 m outside everything known; the start state makes more known (a kettle
        # in a wall cabinet no layout file names, a plunger by the wall of a room known only from
        # its layout files, a start no demo stood on), and a wall through them hid them from the
        # agent or barred its way.
        walls = _room_walls(objects, reachable, scene.floor_y)
    return replace(scene, walls=walls, reachable=tuple(reachable), objects=objects, margin=margin)


# --------------------------------------------------------------------------------------------
# The import


@dataclass
class ImportSummary:
    """What an import did."""

    path: Path | None
    scenes: int = 0
    scenes_with_trajectories: int = 0
    trajectories: int = 0
    unreadable: int = 0
    objects: int = 0
    added_points: int = 0
    support_facts: int = 0
    support_disagreements: int = 0
    margin_points: int = 0
    seconds: float = 0.0
    #: Peak resident memory in MB: (the importing process, its largest worker).
    peak_mb: tuple[float, float] = (0.0, 0.0)
    workers: int = 1
    unreadable_files: list[str] = field(default_factory=list)

    def describe(self) -> str:
        text = (f"imported {self.scenes} scenes ({self.scenes_with_trajectories} with trajectories, "
                f"{self.trajectories} trajectories read"
                + (f", {self.unreadable} unreadable" if self.unreadable else "")
                + f"), {self.objects} objects, {self.added_points} reachable points added from walked paths, "
                f"{self.margin_points} margin points, "
                f"{self.support_facts - self.support_disagreements}/{self.support_facts} support facts honoured")
        if self.path is not None:
            text += f" -> {self.path}"
        memory = f"peak memory {self.peak_mb[0]:.0f} MB"
        if self.workers > 1:
            memory += f" (largest of {self.workers} workers {self.peak_mb[1]:.0f} MB)"
        return text + f" (in {self.seconds:.1f} s, {memory})"


def gather_evidence(sources: AlfredSources, *, on_read: Callable[[int], None] | None = None,
                    summary: ImportSummary | None = None, workers: int = 1) -> dict[int, SceneEvidence]:
    """Layouts and trajectories of a checkout, folded per room (in file order, whatever the number
    of ``workers`` reading them); rooms without layouts are kept if trajectories describe them.
    ``on_read(n)`` is called as trajectories are read."""
    rooms: dict[int, SceneEvidence] = {}
    for number in sources.layout_numbers():
        evidence = SceneEvidence(number)
        read_layout(sources.layouts, number, evidence)
        rooms[number] = evidence
    files = sources.trajectory_files
    for path, facts in zip(files, run_ordered(read_trajectory_facts, files, workers, chunksize=32)):
        if on_read is not None:
            on_read(1)
        if facts is None or not _valid_scene_number(facts.scene_num):
            if summary is not None:
                summary.unreadable += 1
                summary.unreadable_files.append(str(path))
            continue
        rooms.setdefault(facts.scene_num, SceneEvidence(facts.scene_num)).add_trajectory(facts)
        if summary is not None:
            summary.trajectories += 1
    return dict(sorted(rooms.items()))


def _valid_scene_number(number: int) -> bool:
    try:
        room_type_of(number)
    except ValueError:
        return False
    return True


def _room_entry(job: tuple[SceneEvidence, ThorSizes | None, SurfaceStats]) -> tuple[Scene, RoomGeometry]:
    evidence, sizes, stats = job
    geometry = room_geometry(evidence, sizes, stats)
    return scene_from_geometry(evidence, geometry, stats), geometry


def build_catalogue(rooms: Mapping[int, SceneEvidence], sizes: ThorSizes | None, source: dict[str, Any],
                    summary: ImportSummary | None = None, workers: int = 1,
                    on_built: Callable[[int], None] | None = None,
                    rules: Mapping[str, FixtureRule] | None = None) -> dict[str, Any]:
    """A scene catalogue (catalogue_store format) of every room, fitted in ``workers`` processes.
    A room without any demonstration also gets the fixtures its layout files list as present by
    ``rules`` (default: learnt from the rooms with demonstrations,
    :mod:`~alfred_gen.scenes.alfred.fixture_rules`); the others are built as the evidence says."""
    stats = SurfaceStats.learn(rooms.values())
    data = catalogue_store.empty_catalogue(source)
    data["surface_stats"] = stats.to_dict()
    rules = learn_fixture_rules(rooms.values()) if rules is None else rules
    ruled = {number: with_rule_fixtures(evidence, rules) for number, evidence in rooms.items()}
    jobs = [(ruled[number][0], sizes, stats) for number in rooms]
    for evidence, (scene, geometry) in zip(rooms.values(), run_ordered(_room_entry, jobs, workers)):
        if on_built is not None:
            on_built(1)
        layout_keys = {grid_key(x, z) for x, z in evidence.layout_points}
        added = sum(1 for x, z in scene.reachable if grid_key(x, z) not in layout_keys)
        info = {
            "room_type": scene.room_type,
            "trajectories": evidence.trajectories,
            "objects": len(scene.objects),
            "reachable": len(scene.reachable),
            "margin": len(scene.margin),
            "added_points": added,
            "support_facts": geometry.support_facts,
            "support_disagreements": geometry.support_disagreements,
        }
        placed = ruled[evidence.scene_num][1]
        if placed:  # rooms without demonstrations, and twin-sink faucets (fixture_twins); others unchanged
            info["rule_fixtures"] = placed
        data["scenes"][scene.name] = {"scene": scene.to_dict(), "info": info, "evidence": evidence.to_dict()}
        if summary is not None:
            summary.scenes += 1
            summary.scenes_with_trajectories += evidence.trajectories > 0
            summary.objects += len(scene.objects)
            summary.added_points += added
            summary.margin_points += len(scene.margin)
            summary.support_facts += geometry.support_facts
            summary.support_disagreements += geometry.support_disagreements
    return data


def import_alfred(alfred_dir: str | Path, out: str | Path | None = None, thor_db: str | Path | None = None,
                  *, show_progress: bool = False, write: bool = True, workers: int = 1
                  ) -> tuple[dict[str, Any], ImportSummary]:
    """Import every room of an ALFRED checkout, reading and fitting in ``workers`` processes (the
    catalogue is the same whatever their number); write it to ``out`` (default: the active catalogue
    path) unless ``write`` is false. Returns (catalogue, summary)."""
    began = time.monotonic()
    sources = find_sources(alfred_dir)
    sizes = ThorSizes.load(thor_db) if thor_db is not None else None
    path = Path(out) if out is not None else catalogue_store.active_catalogue_path()
    summary = ImportSummary(path if write else None)
    with progress("reading trajectories", len(sources.trajectory_files), show=show_progress) as bar:
        rooms = gather_evidence(sources, on_read=bar.update, summary=summary, workers=workers)
    source = {"alfred_dir": str(sources.root), "layouts": str(sources.layouts),
              "trajectory_files": len(sources.trajectory_files), "thor_db": thor_db is not None}
    with progress("fitting rooms", len(rooms), show=show_progress) as bar:
        data = build_catalogue(rooms, sizes, source, summary, workers, on_built=bar.update)
    if write:
        catalogue_store.write_catalogue(path, data)
    summary.seconds = time.monotonic() - began
    summary.peak_mb = peak_memory_mb()
    summary.workers = max(1, workers)
    return data, summary


def import_command(alfred_dir: str, out: str | None, thor_db: str | None, echo: Callable[..., None] = print,
                   workers: int = 1) -> int:
    """``alfred-gen scenes import-alfred``: import, print the summary, return the exit code."""
    _, summary = import_alfred(alfred_dir, out, thor_db, show_progress=True, workers=workers)
    echo(summary.describe())
    return ExitCode.OK
