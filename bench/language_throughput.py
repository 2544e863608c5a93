"""Generation throughput with the new language against the old templated text, side by side in one run.

Issue 70 allows the language to cost at most 10% of generation throughput. Each round runs the same
``sample_command`` (same seed, N, workers, frames) twice in fresh processes: once as the code is, and
once with the old language put back (the ``template`` block as the single annotation, no colours,
no facts, no realisations), alternating which goes first, and prints each round's rates and the
ratio of the mean rates. The trees differ only in ``turk_annotations`` (checked and printed).

    python bench/language_throughput.py [--n 20] [--seed 0] [--workers 2] [--rounds 2] [--scenes 1-30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: Run in a fresh process: ``argv`` = arm, out, n, seed, workers, scenes.
_RUNNER = r'''
import sys
from alfred_gen.sample.run import sample_command
arm, out, n, seed, workers, scenes = sys.argv[1:]
if arm == "old":
    import alfred_gen.demo.generate as generate
    from alfred_gen.demo.language.template import turk_annotations

    class _Old:
        def __init__(self, template):
            self.template = template

        def to_json(self, k):
            return turk_annotations(self.template)["anns"][0]

    def old_annotate(task, high_pddl, low_actions, metadata, seed, annotations, colours):
        return [_Old(generate.describe(task, high_pddl, seed))]

    generate.annotate = old_annotate
    generate.painted_colours = lambda *args, **kwargs: {}
sys.exit(sample_command(int(n), out, seed=int(seed), workers=int(workers), scenes=scenes or None,
                        echo=lambda *a, **k: None, progress=False))
'''


def _run(arm: str, out: Path, n: int, seed: int, workers: int, scenes: str) -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-c", _RUNNER, arm, str(out), str(n), str(seed), str(workers), scenes],
                   check=True)
    seconds = time.perf_counter() - began
    made = len(list(out.rglob("traj_data.json")))
    return 60.0 * made / seconds


def _without_language(root: Path) -> dict[str, str]:
    """Every file's bytes (traj_data.json without turk_annotations) by path, to compare the arms."""
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            if path.name == "traj_data.json":
                traj = json.loads(path.read_text())
                traj.pop("turk_annotations", None)
                out[str(path.relative_to(root))] = json.dumps(traj, sort_keys=True)
            else:
                out[str(path.relative_to(root))] = path.read_bytes().hex()[:64] + str(path.stat().st_size)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--scenes", default="", help="restrict rooms, e.g. 1-30 (default: all)")
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"new": [], "old": []}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            order = ("new", "old") if round_ % 2 == 0 else ("old", "new")
            for arm in order:
                out = Path(tmp) / f"{arm}{round_}"
                rates[arm].append(_run(arm, out, args.n, args.seed, args.workers, args.scenes))
                print(f"round {round_ + 1} {arm:>3} language: {rates[arm][-1]:.1f} vetted demos/min", flush=True)
        same = _without_language(Path(tmp) / "new0") == _without_language(Path(tmp) / "old0")
    new, old = statistics.mean(rates["new"]), statistics.mean(rates["old"])
    print(f"mean: new {new:.1f}/min, old {old:.1f}/min, new/old {new / old:.3f} "
          f"(throughput {'drops' if new < old else 'rises'} {abs(100 * (1 - new / old)):.1f}%)")
    print(f"trees equal apart from turk_annotations: {same}")


if __name__ == "__main__":
    main()
