"""Benchmark of the generated language against ALFRED's people, side by side in one run.

For a set of generated demos (``--dir DIR``, or ``--n N`` made here with ``alfred-gen sample --n N
--seed S``) and for the shared ALFRED demos' human annotations (``$ALFRED_DATA``), prints:

- annotations per demo;
- vocabulary: distinct lower-cased words over all goals and step lines;
- tokens per step line (mean), and the share of step lines that are distinct;
- directional and spatial share: the share of tokens ALFRED-L's E1 removes
  (:func:`alfred_gen.derive.perturb.remove_spatial`), over goals and step lines; ALFRED-L's paper
  reports 81% of instructions changed by E1, printed beside ours;
- per-annotation diversity: over demos with two or more annotations, the share of step lines that
  differ between two annotations of the same demo, and the mean Jaccard distance of their word sets;
- the issue's targets, each with its verdict: vocabulary >= 600, distinct step lines >= 90%, tokens
  per step line >= 9, directional/spatial share within 10 points of ALFRED's;
- the cost of the language: the new annotations' time per demo next to the old templated text's,
  as a share of the generation time per demo measured in the same run (``--n`` only).

Only generated annotations (assignment ids ``template``, ``template_1``...) count on our side.

    python bench/language.py [--n 200 | --dir DIR [--reannotate]] [--seed 0] [--workers 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from alfred_gen.demo.language import annotate, describe, is_generated
from alfred_gen.demo.language.colour import painted_colours
from alfred_gen.derive.perturb import LanguageCounts, remove_spatial, words_of
from alfred_gen.replay.goals import task_from_trajectory
from alfred_gen.replay.restore import restore_scene
from alfred_gen.sample.options import SampleOptions
from alfred_gen.sample.run import run_sample
from alfred_gen.scenes.library import simulator as scene_simulator

#: ALFRED-L's figure for E1 (share of instructions it changes, as the paper reports it).
PAPER_E1_SHARE = 81.0


@dataclass
class Figures:
    demos: int = 0
    annotations: int = 0
    vocabulary: set[str] = field(default_factory=set)
    step_lines: list[str] = field(default_factory=list)
    spatial: LanguageCounts = field(default_factory=LanguageCounts)
    differing: list[float] = field(default_factory=list)
    jaccard: list[float] = field(default_factory=list)

    def add(self, anns: Sequence[Mapping[str, Any]]) -> None:
        self.demos += 1
        self.annotations += len(anns)
        for ann in anns:
            texts = [str(ann.get("task_desc", "")), *(str(line) for line in ann.get("high_descs") or ())]
            for text in texts:
                self.vocabulary.update(w.lower() for w in words_of(text))
                self.spatial.add(text, remove_spatial(text))
            self.step_lines.extend(str(line) for line in ann.get("high_descs") or ())
        for a, b in itertools.combinations(anns, 2):
            pairs = list(zip(a.get("high_descs") or (), b.get("high_descs") or ()))
            if pairs:
                self.differing.append(sum(x != y for x, y in pairs) / len(pairs))
            wa = {w.lower() for line in a.get("high_descs") or () for w in words_of(str(line))}
            wb = {w.lower() for line in b.get("high_descs") or () for w in words_of(str(line))}
            if wa | wb:
                self.jaccard.append(1.0 - len(wa & wb) / len(wa | wb))

    def tokens_per_line(self) -> float:
        return statistics.fmean(len(words_of(line)) for line in self.step_lines) if self.step_lines else 0.0

    def distinct_share(self) -> float:
        return 100.0 * len(set(self.step_lines)) / len(self.step_lines) if self.step_lines else 0.0

    def spatial_share(self) -> float:
        return 100.0 * self.spatial.removed / self.spatial.tokens if self.spatial.tokens else 0.0

    def changed_share(self) -> float:
        return 100.0 * self.spatial.changed / self.spatial.instructions if self.spatial.instructions else 0.0

    def rows(self) -> list[str]:
        diff = f"{100 * statistics.fmean(self.differing):.1f}%" if self.differing else "-"
        jac = f"{statistics.fmean(self.jaccard):.2f}" if self.jaccard else "-"
        return [
            f"{self.demos}", f"{self.annotations} ({self.annotations / max(1, self.demos):.2f}/demo)",
            f"{len(self.vocabulary)}", f"{self.tokens_per_line():.1f}",
            f"{len(set(self.step_lines))}/{len(self.step_lines)} ({self.distinct_share():.1f}%)",
            f"{self.spatial_share():.1f}%", f"{self.changed_share():.1f}%", diff, jac,
        ]


LABELS = ["demos", "annotations", "vocabulary (words)", "tokens per step line", "distinct step lines",
          "directional/spatial tokens (E1 removes)", "instructions E1 changes", "lines differing between anns",
          "word-set Jaccard distance between anns"]


def trajectories(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("traj_data.json") if not any(part.startswith(".") for part in p.parts))


def ours(paths: Iterable[Path], reannotate: bool = False) -> Figures:
    """Figures of the generated annotations of ``paths``; with ``reannotate``, of the annotations
    this code writes for the same demos (the start state restored, the language made again: what
    generating them now would write, as the language depends only on the demo and its seed)."""
    figures = Figures()
    controller = scene_simulator().open() if reannotate else None
    for path in paths:
        traj = json.loads(path.read_text())
        if controller is None:
            figures.add([a for a in traj["turk_annotations"]["anns"] if is_generated(a)])
            continue
        metadata = restore_scene(controller, traj["scene"]).metadata
        low = traj["plan"]["low_actions"]
        anns = annotate(task_from_trajectory(traj), traj["plan"]["high_pddl"], low, metadata,
                        int(traj["generator"]["seed"]), 3, painted_colours(low, metadata))
        figures.add([ann.to_json(k) for k, ann in enumerate(anns)])
    return figures


def alfreds(root: Path) -> Figures:
    figures = Figures()
    for path in trajectories(root / "json_2.1.0"):
        traj = json.loads(path.read_text())
        figures.add(list(traj["turk_annotations"]["anns"]))
    return figures


def language_cost(paths: Sequence[Path]) -> tuple[float, float]:
    """Seconds per demo of the new annotations (colours, facts, three realisations) and of the old
    templated text, on the same demos (the start state restored first, not timed)."""
    controller = scene_simulator().open()
    new = old = 0.0
    for path in paths:
        traj = json.loads(path.read_text())
        metadata = restore_scene(controller, traj["scene"]).metadata
        task, high, low = task_from_trajectory(traj), traj["plan"]["high_pddl"], traj["plan"]["low_actions"]
        seed = int(traj["generator"]["seed"])
        began = time.perf_counter()
        annotate(task, high, low, metadata, seed, 3, painted_colours(low, metadata))
        new += time.perf_counter() - began
        began = time.perf_counter()
        describe(task, high, seed)
        old += time.perf_counter() - began
    return new / max(1, len(paths)), old / max(1, len(paths))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=200, help="demos to generate (default 200)")
    parser.add_argument("--dir", help="measure the demos under this directory instead of generating")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--keep", help="generate under this directory (kept) instead of a temporary one")
    parser.add_argument("--reannotate", action="store_true",
                        help="with --dir: measure the language this code writes for those demos")
    args = parser.parse_args()
    alfred = os.environ.get("ALFRED_DATA")
    if not alfred or not Path(alfred).is_dir():
        sys.exit("bench/language.py: set ALFRED_DATA to the shared ALFRED data (ALFRED's side of the table)")
    seconds_per_demo = None
    with tempfile.TemporaryDirectory() as scratch:
        if args.dir:
            root = Path(args.dir)
        else:
            root = Path(args.keep) if args.keep else Path(scratch) / "out"
            began = time.perf_counter()
            summary = run_sample(SampleOptions(n=args.n, out=root, seed=args.seed, workers=args.workers))
            seconds = time.perf_counter() - began
            seconds_per_demo = seconds * args.workers / max(1, summary.made_now)
            print(f"generated {summary.made_now} demos in {seconds:.0f} s with {args.workers} worker(s) "
                  f"(alfred-gen sample --n {args.n} --seed {args.seed})")
        paths = trajectories(root)
        mine, theirs = ours(paths, args.reannotate), alfreds(Path(alfred))
        if args.reannotate:
            print(f"language made again by this code for the {len(paths)} demos under {root}")
        print(f"{'':42} {'generated':>22} {'ALFRED (people)':>22}")
        for label, a, b in zip(LABELS, mine.rows(), theirs.rows()):
            print(f"{label:42} {a:>22} {b:>22}")
        print(f"{'ALFRED-L paper: instructions E1 changes':42} {'':>22} {PAPER_E1_SHARE:>21.1f}%")
        gap = abs(mine.spatial_share() - theirs.spatial_share())
        targets = [
            ("annotations per demo == 3", mine.annotations == 3 * mine.demos),
            ("vocabulary >= 600 words", len(mine.vocabulary) >= 600),
            ("distinct step lines >= 90%", mine.distinct_share() >= 90.0),
            ("tokens per step line >= 9", mine.tokens_per_line() >= 9.0),
            (f"directional/spatial share within 10 points of ALFRED's (gap {gap:.1f})", gap <= 10.0),
        ]
        for text, ok in targets:
            print(f"target: {text}: {'met' if ok else 'NOT met'}")
        sample = paths[: min(40, len(paths))]
        new, old = language_cost(sample)
        line = (f"language cost per demo ({len(sample)} demos): new {1000 * new:.1f} ms, "
                f"old templates {1000 * old:.2f} ms")
        if seconds_per_demo:
            line += (f"; generation {seconds_per_demo:.2f} s per demo per worker, so the new language costs "
                     f"{100 * (new - old) / seconds_per_demo:.2f}% of generation time more than the old")
        print(line)


if __name__ == "__main__":
    main()
