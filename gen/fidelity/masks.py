"""Where lite draws each target, not only whether: THOR's own masks against lite's frames.

A replay passes when each target is visible (10 pixels or more), so it cannot tell that lite draws
an object in the wrong place or at the wrong size. Every interaction of a released demonstration
carries THOR's instance mask of its target (``discrete_action.args.mask``, ALFRED's run-length
encoding; :mod:`alfred_gen.traj.rle`). Here each demonstration is replayed in lite with instance
masks on, and at every interaction, in the frame the agent saw before acting:

- *IoU*: lite's instance mask of the target against THOR's mask;
- *rule*: the object ALFRED's evaluator would pick from THOR's mask in lite's frame
  (``va_interact``: instances under the mask ranked by IoU, the held object ignored, only
  interactable ones kept; :func:`alfred_gen.replay.masks.resolve_mask` with rule ``"alfred"``),
  and whether that is the target. A mask-driven agent fails wherever it is not.

The target is the receptacle for PutObject (its ``receptacleObjectId``; the mask is the
receptacle's) and ``objectId`` otherwise. Once an action fails the replay stops: the frames after
it would not be the demonstration's, so its later interactions are counted as not measured.
Which room a demonstration is replayed in (held out by folds, unseen rooms) is a
:class:`~alfred_gen.fidelity.held_out.RoomJob`, as for the replay figures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.domains.catalogue import type_of_id
from alfred_gen.errors import UserError
from alfred_gen.fidelity.held_out import RoomJob, build_job_room, demo_scene
from alfred_gen.fidelity.measure import load, percent
from alfred_gen.parallel import run_ordered
from alfred_gen.scenes.library import SceneLibrary
from alfred_gen.sim.scene import Scene
from alfred_gen.traj.rle import decode_mask


@dataclass(frozen=True)
class MaskAgreement:
    """One interaction of a released demonstration, THOR's mask against lite's frame before it."""

    path: Path
    low_idx: int
    action: str
    target: str
    iou: float  # lite's instance mask of the target against THOR's mask
    picked: str | None  # what ALFRED's rule picks from THOR's mask in lite's frame
    thor_pixels: int
    lite_pixels: int
    #: lite's mask centroid minus THOR's, (columns, rows) in pixels; None when lite draws none of it
    offset: tuple[float, float] | None = None

    @property
    def right(self) -> bool:
        return self.picked == self.target

    @property
    def object_type(self) -> str:
        return type_of_id(self.target)


@dataclass
class DemoMasks:
    """The interactions of one demonstration: measured ones, and how many were not (replay stopped)."""

    path: Path
    measured: list[MaskAgreement]
    unmeasured: int = 0
    error: str = ""


def target_of(api_action: Mapping[str, Any]) -> str | None:
    """The object an interaction's mask shows: the receptacle of a PutObject, else ``objectId``."""
    target = api_action.get("receptacleObjectId") if api_action.get("action") == "PutObject" else None
    target = target or api_action.get("objectId")
    return target if isinstance(target, str) else None


def thor_mask(low: Mapping[str, Any]) -> np.ndarray | None:
    """THOR's recorded instance mask of ``low``'s target, None when it carries none."""
    runs = ((low.get("discrete_action") or {}).get("args") or {}).get("mask")
    if not isinstance(runs, list) or not runs:
        return None
    return decode_mask(runs)


def compare(path: Path, low_idx: int, low: Mapping[str, Any], event: Any) -> MaskAgreement | None:
    """THOR's mask of ``low`` against ``event`` (lite's frame before the action); None when the
    action names no object or carries no mask."""
    from alfred_gen.replay.masks import resolve_mask

    api = low.get("api_action") or {}
    target = target_of(api)
    thor = thor_mask(low)
    if target is None or thor is None:
        return None
    instances = getattr(event, "instance_masks", None) or {}
    lite = instances.get(target)
    thor_pixels = int(thor.sum())
    offset: tuple[float, float] | None = None
    if lite is None or lite.shape != thor.shape:
        iou, lite_pixels = 0.0, 0
    else:
        lite_pixels = int(np.count_nonzero(lite))
        overlap = int(np.count_nonzero(lite & thor))
        union = thor_pixels + lite_pixels - overlap
        iou = overlap / union if union else 0.0
        if lite_pixels:
            (lr, lc), (tr, tc) = _centroid(lite), _centroid(thor)
            offset = (lc - tc, lr - tr)
    action = str(api.get("action", ""))
    picked = resolve_mask(thor, event, action, rule="alfred")
    return MaskAgreement(path, low_idx, action, target, iou, picked, thor_pixels, lite_pixels, offset)


def _centroid(mask: np.ndarray) -> tuple[float, float]:
    rows, cols = np.nonzero(mask)
    return float(rows.mean()), float(cols.mean())


def demo_masks(traj: Mapping[str, Any], scene: Scene, path: Path) -> DemoMasks:
    """Replay ``traj`` in ``scene`` (lite, instance masks on) and compare every interaction's mask."""
    from alfred_gen.replay.execute import execute_low_actions
    from alfred_gen.replay.restore import RestoreError, restore_scene
    from alfred_gen.sim.lite import LiteController

    lows = traj["plan"]["low_actions"]
    wanted = [i for i, low in enumerate(lows) if target_of(low.get("api_action") or {}) and thor_mask(low) is not None]
    out = DemoMasks(path, [])
    # The room of the figure as the job made it (completed from the file only when the job says so).
    sim = LiteController(scene_lookup=SceneLibrary(extra=(scene,), complete=False), render_image=False,
                         render_object_image=True)
    try:
        before = restore_scene(sim, traj["scene"])
    except (RestoreError, UserError, ValueError, KeyError) as error:
        out.unmeasured, out.error = len(wanted), f"restore: {error}"
        return out
    state = {"before": before}
    todo = set(wanted)

    def on_step(low_idx: int, api_action: Mapping[str, Any], event: Any) -> None:
        if low_idx in todo:
            found = compare(path, low_idx, lows[low_idx], state["before"])
            if found is not None:
                out.measured.append(found)
        state["before"] = event

    run = execute_low_actions(sim, lows, before, on_step=on_step)
    if run.failures:
        out.error = run.failures[0].describe()
    out.unmeasured = len(wanted) - len(out.measured)
    return out


def mask_job(job: RoomJob) -> list[DemoMasks]:
    """Build the job's room and measure each of its demonstrations in it (completed from each
    replayed file when the job says so, :attr:`~alfred_gen.fidelity.held_out.RoomJob.complete`)."""
    room, build_error = build_job_room(job)
    results = []
    for path in job.paths:
        try:
            traj = load(path)
            if room is None:
                raise ValueError(build_error)
            scene = demo_scene(job, room, traj)
        except (OSError, ValueError, KeyError, TypeError) as error:
            results.append(DemoMasks(path, [], 0, f"{type(error).__name__}: {error}"))
            continue
        results.append(demo_masks(traj, scene, path))
    return results


def run_mask_jobs(jobs: Sequence[RoomJob], workers: int = 1,
                  on_done: Callable[[int], None] | None = None) -> list[DemoMasks]:
    """Every job (in ``workers`` processes when more than one); results in job order."""
    merged: list[DemoMasks] = []
    for job, result in zip(jobs, run_ordered(mask_job, jobs, workers)):
        merged += result
        if on_done is not None:
            on_done(len(job.paths))
    return merged


# --------------------------------------------------------------------------------------------
# Report


def records(demos: Sequence[DemoMasks]) -> list[dict[str, Any]]:
    """One plain dict per measured interaction (for JSON), and one per demo whose replay stopped,
    so a shape or placement change can be studied without measuring again."""
    out: list[dict[str, Any]] = []
    for demo in demos:
        for a in demo.measured:
            out.append({"path": str(a.path), "low_idx": a.low_idx, "action": a.action, "target": a.target,
                        "iou": round(a.iou, 6), "picked": a.picked, "thor_pixels": a.thor_pixels,
                        "lite_pixels": a.lite_pixels,
                        "offset": None if a.offset is None else [round(v, 3) for v in a.offset]})
        if demo.error:
            out.append({"path": str(demo.path), "stopped": demo.error, "unmeasured": demo.unmeasured})
    return out


def _row(name: str, items: Sequence[MaskAgreement]) -> str:
    ious = np.asarray([a.iou for a in items])
    right = sum(a.right for a in items)
    drawn = [a.offset for a in items if a.offset is not None]
    if drawn:
        size = f"{float(np.median([a.lite_pixels / a.thor_pixels for a in items if a.lite_pixels])):.2f}"
        du = f"{float(np.median([o[0] for o in drawn])):+.0f}"
        dv = f"{float(np.median([o[1] for o in drawn])):+.0f}"
    else:
        size = du = dv = "-"
    return (f"| {name} | {len(items)} | {ious.mean():.3f} | {np.median(ious):.3f} | {(ious >= 0.5).mean():.0%} | "
            f"{(ious == 0).mean():.0%} | {right}/{len(items)} = {percent(right, len(items))} | {size} | {du}, {dv} |")


def mask_report(demos: Sequence[DemoMasks], name: str = "masks", *, by_type: int = 40) -> list[str]:
    """Lines: the per-action table, the per-type table (``by_type`` worst types by mean IoU, all
    when negative), the rule's misses by what it picked instead, and two summary lines last:
    ``<name>_iou: X`` and ``<name>_rule: Y%``. Rows also give, over the interactions where lite
    draws the target at all, the median ratio of lite's pixels to THOR's and the median shift of
    lite's mask centroid from THOR's (drawn too small or large, too far left/right/up/down)."""
    items = [a for d in demos for a in d.measured]
    unmeasured = sum(d.unmeasured for d in demos)
    lines = [f"interactions measured: {len(items)} in {len(demos)} demos"
             f" ({unmeasured} not measured: the replay stopped before them)"]
    if not items:
        return [*lines, f"{name}_iou: 0.000", f"{name}_rule: 0.0%"]
    header = ["| {} | n | mean IoU | median | IoU>=0.5 | IoU=0 | rule picks the target | lite/THOR pixels "
              "| lite-THOR centroid (px) |", "|---|---|---|---|---|---|---|---|---|"]
    groups: dict[str, list[MaskAgreement]] = defaultdict(list)
    for a in items:
        groups[a.action].append(a)
    lines += [header[0].format("action"), header[1]]
    lines += [_row(k, v) for k, v in sorted(groups.items())]
    lines.append(_row("all", items))
    types: dict[str, list[MaskAgreement]] = defaultdict(list)
    for a in items:
        types[a.object_type].append(a)
    ordered = sorted(types.items(), key=lambda kv: (float(np.mean([a.iou for a in kv[1]])), kv[0]))
    shown = ordered if by_type < 0 else ordered[:by_type]
    lines += ["", f"by target type, lowest mean IoU first ({len(shown)} of {len(types)}):",
              header[0].format("type"), header[1]]
    lines += [_row(k, v) for k, v in shown]
    misses: dict[tuple[str, str], int] = defaultdict(int)
    for a in items:
        if not a.right:
            misses[(a.object_type, type_of_id(a.picked) if a.picked else "nothing")] += 1
    if misses:
        worst = sorted(misses.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        lines.append("rule misses (target type <- picked instead): "
                     + ", ".join(f"{t} <- {p} {c}" for (t, p), c in worst))
    right = sum(a.right for a in items)
    lines.append(f"{name}_iou: {float(np.mean([a.iou for a in items])):.3f}")
    lines.append(f"{name}_rule: {percent(right, len(items))} ({right}/{len(items)})")
    return lines
