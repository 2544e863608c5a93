"""``alfred-gen eval actthor``: ACT-Thor's accuracy on contrast sets, from a predictions file or an agent.

A contrast set (``alfred-gen actthor contrast``) is a before-image, an action and three or four
candidate after-images, one of them true (``true_index``). A model scores the share of sets where it
picks the true one: ACT-Thor's accuracy (Hanna et al., COLING 2022), per action, per split of the
unseen-room and unseen-object splits, on the four-image and the three-image sets.

Sets are named by a **set key**, ``"<size>:<id>"`` (``"4:12"`` is line ``id`` 12 of
``contrast/sets4.jsonl``, ``"3:12"`` of ``sets3.jsonl``): the two files number their sets
separately.

**Predictions file** (``--predictions FILE``): JSON, an object mapping set keys to the chosen
candidate index (0-based, as ``true_index``)::

    {"4:0": 2, "4:1": 0, "3:0": 1}

or an object with that mapping under ``"predictions"`` and, optionally, ``"contrast"``: the digest
of the sets the predictions were made for (:func:`contrast_digest`; the results file of a run has
both, so it can be scored again as a predictions file). Sets the file does not name are left out of
the figures (the summary says how many), so a file may cover one split only. A file naming a set
the collection does not have, or made for other sets (another digest), or naming none of them, is
refused with one line and exit code 3 (BAD_INPUT); a missing file is 4 (NOT_FOUND).

**Agent** (``--agent NAME|module:factory``): the factory (no arguments) makes an object with::

    index = agent.predict(before, action, candidates, info)

``before`` and each candidate are RGB images (H x W x 3 uint8 numpy arrays), ``action`` is
ACT-Thor's action word (``"push"``), ``info`` holds ``key``, ``size``, ``sentence``, ``object_type``,
``scene``, ``room_type`` and ``splits`` (never the answer, nor which triple a candidate came from).
A prediction that is not an index of a candidate, an agent that raises or takes longer than
``--timeout`` seconds on a set gets that set wrong; the run goes on, prints one line per kind of
failure (how many sets, the first one and why) and ends with exit code 1 (FAILED). An agent that
cannot be imported or made is one line and exit code 4 or 1.

Built-in agents: ``random`` (uniform, seeded by the set key: chance is 25% on four images and 33%
on three), ``oracle`` (reads ``true_index``: 100%, a check of the scoring) and ``pixel-diff``
(:mod:`alfred_gen.eval.actthor_pixels`, a training-free baseline).

The results file (``--out``, written atomically) holds the predictions by set key, the digest of
the sets, and the figures: accuracy with its 95% Wilson interval, over all sets, per action and per
split, for each set size.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
import zlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from alfred_gen.actthor.actions import ACTION_NAMES
from alfred_gen.actthor.contrast import CONTRAST_DIR, SETS3_FILE, SETS4_FILE, SPLITS, load_sets
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.calls import AgentTimeout, call_with_timeout, one_line

#: Format word of a results file.
RESULTS_FORMAT = "alfred-gen-eval-actthor"
#: Set sizes, and the file of each.
SET_FILES = {4: SETS4_FILE, 3: SETS3_FILE}
#: Built-in agents by name.
BUILTIN = ("random", "oracle", "pixel-diff")
#: The splits' kinds (contrast sets label both).
SPLIT_KINDS = ("rooms", "objects")
#: z of the two-sided 95% interval.
Z95 = 1.959964
#: Default seconds an agent may take on one set.
PREDICT_TIMEOUT = 60.0


@dataclass(frozen=True)
class ContrastSet:
    """One set: its key, size and record (as ``actthor contrast`` wrote it)."""

    key: str
    size: int
    record: Mapping[str, Any]

    @property
    def true_index(self) -> int:
        return int(self.record["true_index"])

    def info(self) -> dict[str, Any]:
        """What an agent may know besides the images and the action (never the answer)."""
        r = self.record
        return {"key": self.key, "size": self.size, "sentence": r.get("sentence", ""),
                "object_type": r.get("object_type", ""), "scene": r.get("scene", ""),
                "room_type": r.get("room_type"), "splits": dict(r.get("splits") or {})}


def contrast_sets(directory: Path) -> list[ContrastSet]:
    """Every set of a collection, four-image sets first; UserError when there are none."""
    sets = [ContrastSet(f"{size}:{record['id']}", size, record)
            for size, name in SET_FILES.items() for record in load_sets(directory, name)]
    if not sets:
        raise UserError(f"{directory}: no contrast sets (run `alfred-gen actthor contrast` on more rooms)",
                        ExitCode.NOT_FOUND)
    return sets


def contrast_digest(directory: Path) -> str:
    """A short digest of the set files: predictions made for other sets carry another one."""
    digest = hashlib.sha256()
    for name in SET_FILES.values():
        digest.update((directory / CONTRAST_DIR / name).read_bytes())
    return digest.hexdigest()[:16]


# --- predictions files -----------------------------------------------------------------------------
def read_predictions(path: str | Path, sets: Sequence[ContrastSet], digest: str) -> dict[str, int]:
    """Set key -> chosen index, from a predictions file (module docstring); UserError with one line
    when the file is missing, malformed, or made for other sets."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such predictions file", ExitCode.NOT_FOUND) from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UserError(f"{path}: not a predictions file ({' '.join(str(error).split())})",
                        ExitCode.BAD_INPUT) from None
    if isinstance(data, dict) and isinstance(data.get("predictions"), dict):
        made_for = data.get("contrast")
        if made_for is not None and made_for != digest:
            raise UserError(f"{path}: predictions for other contrast sets (digest {made_for}, these are {digest})",
                            ExitCode.BAD_INPUT)
        data = data["predictions"]
    if not isinstance(data, dict):
        raise UserError(f"{path}: a predictions file is a JSON object of set key -> index", ExitCode.BAD_INPUT)
    sizes = {s.key: s.size for s in sets}
    unknown = [key for key in data if key not in sizes]
    if unknown:
        raise UserError(f"{path}: predictions for other contrast sets ({len(unknown)} keys name no set here, "
                        f"e.g. {unknown[0]!r}; keys are '<size>:<id>' of contrast/sets4.jsonl and sets3.jsonl)",
                        ExitCode.BAD_INPUT)
    out: dict[str, int] = {}
    for key, value in data.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < sizes[key]:
            raise UserError(f"{path}: prediction {key!r} is {value!r}, not an index 0-{sizes[key] - 1}",
                            ExitCode.BAD_INPUT)
        out[key] = value
    if not out:
        raise UserError(f"{path}: predicts none of these contrast sets", ExitCode.BAD_INPUT)
    return out


# --- agents ----------------------------------------------------------------------------------------
class RandomPredictor:
    """Uniform over the candidates, seeded by the set key (same sets, same predictions)."""

    needs_images = False

    def predict(self, before: Any, action: str, candidates: Sequence[Any], info: Mapping[str, Any]) -> int:
        return random.Random(zlib.crc32(str(info["key"]).encode())).randrange(len(candidates))


class OraclePredictor:
    """Reads the answer: 100% whatever the images, a check that the scoring reads what it should."""

    needs_images = False

    def __init__(self, truth: Mapping[str, int]) -> None:
        self.truth = truth

    def predict(self, before: Any, action: str, candidates: Sequence[Any], info: Mapping[str, Any]) -> int:
        return self.truth[str(info["key"])]


def make_agent(spec: str, sets: Sequence[ContrastSet]) -> Any:
    """The agent ``spec`` names: a built-in, or ``module:factory`` (UserError NOT_FOUND when it
    cannot be imported; FAILED when the factory raises)."""
    if spec == "random":
        return RandomPredictor()
    if spec == "oracle":
        return OraclePredictor({s.key: s.true_index for s in sets})
    if spec == "pixel-diff":
        from alfred_gen.eval.actthor_pixels import PixelDiffPredictor

        return PixelDiffPredictor()
    from alfred_gen.eval.agents import load_factory

    if ":" not in spec:
        raise UserError(f"agent {spec!r}: give module:factory, or one of {', '.join(BUILTIN)}", ExitCode.NOT_FOUND)
    factory = load_factory(spec)
    try:
        agent = factory()
    except Exception as error:  # the agent's own code may fail in any way
        raise UserError(f"agent {spec!r}: making it failed ({one_line(error)})", ExitCode.FAILED) from None
    if not callable(getattr(agent, "predict", None)):
        raise UserError(f"agent {spec!r}: the object it makes has no predict(before, action, candidates, info)",
                        ExitCode.FAILED)
    return agent


def load_image(directory: Path, relative: str) -> np.ndarray:
    """An image of the collection as an H x W x 3 uint8 array (UserError when it is missing)."""
    from PIL import Image

    path = directory / relative
    try:
        with Image.open(path) as image:
            return np.asarray(image.convert("RGB"))
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: unreadable image ({' '.join(str(error).split())})", ExitCode.BAD_INPUT) from None


@dataclass
class AgentFailures:
    """Sets an agent failed on, by reason: how many and the first one's line."""

    counts: Counter[str]
    first: dict[str, str]

    def add(self, reason: str, line: str) -> None:
        self.counts[reason] += 1
        self.first.setdefault(reason, line)

    def lines(self) -> list[str]:
        return [f"{reason} on {self.counts[reason]} sets (first: {self.first[reason]})"
                for reason in sorted(self.counts)]


def predict_all(directory: Path, sets: Sequence[ContrastSet], agent: Any, *, timeout: float = PREDICT_TIMEOUT,
                show_progress: bool = True) -> tuple[dict[str, int | None], AgentFailures]:
    """Ask ``agent`` about every set: set key -> index (None where it failed), and its failures."""
    from alfred_gen.progress import progress

    needs_images = bool(getattr(agent, "needs_images", True))
    predictions: dict[str, int | None] = {}
    failures = AgentFailures(Counter(), {})
    with progress("predicting", len(sets), show=show_progress) as bar:
        for s in sets:
            record = s.record
            if needs_images:
                before = load_image(directory, record["before"])
                candidates: list[Any] = [load_image(directory, c["image"]) for c in record["candidates"]]
            else:
                before, candidates = None, [None] * s.size
            action, info = str(record["action"]), s.info()
            try:
                answer = call_with_timeout(partial(agent.predict, before, action, candidates, info), timeout)
            except AgentTimeout:
                failures.add("timeout", f"{s.key}: predict() took longer than {timeout:g} s")
                answer = None
            except Exception as error:  # the agent's own code may fail in any way
                failures.add("agent_error", f"{s.key}: {one_line(error)}")
                answer = None
            else:
                if isinstance(answer, np.integer):
                    answer = int(answer)
                if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < s.size:
                    failures.add("bad_prediction", f"{s.key}: {answer!r} is not an index 0-{s.size - 1}")
                    answer = None
            predictions[s.key] = answer
            bar.update(1)
    return predictions, failures


# --- figures ---------------------------------------------------------------------------------------
def wilson(correct: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) without trials."""
    if n == 0:
        return 0.0, 1.0
    p = correct / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def group(hits: Sequence[bool]) -> dict[str, Any]:
    """Accuracy of a group of scored sets, with the count and the 95% interval."""
    n, correct = len(hits), sum(hits)
    low, high = wilson(correct, n)
    return {"sets": n, "correct": correct, "accuracy": correct / n if n else 0.0, "ci95": [low, high]}


def score(sets: Sequence[ContrastSet], predictions: Mapping[str, int | None]) -> dict[str, Any]:
    """The figures of the predicted sets (a None prediction is wrong; an absent one is left out):
    per set size, over all sets, per action and per split of each kind."""
    figures: dict[str, Any] = {}
    for size in SET_FILES:
        scored = [(s, predictions[s.key] == s.true_index) for s in sets if s.size == size and s.key in predictions]
        actions = [a for a in ACTION_NAMES if any(s.record["action"] == a for s, _ in scored)]
        figures[str(size)] = {
            "chance": 1 / size,
            "all": group([hit for _, hit in scored]),
            "by_action": {a: group([hit for s, hit in scored if s.record["action"] == a]) for a in actions},
            "by_split": {kind: {split: group([hit for s, hit in scored if s.record["splits"][kind] == split])
                                for split in SPLITS} for kind in SPLIT_KINDS},
        }
    return figures


def _cell(figure: Mapping[str, Any] | None) -> str:
    if not figure or not figure["sets"]:
        return "-"
    return f"{100 * figure['accuracy']:5.1f} ({figure['sets']})"


def table(figures: Mapping[str, Any], agent: str) -> list[str]:
    """The figures as text, shaped as ACT-Thor's results: accuracy (%) per action and per split,
    four- and three-image sets side by side, the count of sets in brackets."""
    four, three = figures["4"], figures["3"]
    rows: list[tuple[str, str, str]] = []
    for action in ACTION_NAMES:
        if action in four["by_action"] or action in three["by_action"]:
            rows.append((action, _cell(four["by_action"].get(action)), _cell(three["by_action"].get(action))))
    rows.append(("all", _cell(four["all"]), _cell(three["all"])))
    low4, high4 = four["all"]["ci95"]
    low3, high3 = three["all"]["ci95"]
    rows.append(("95% interval", f"{100 * low4:.1f}-{100 * high4:.1f}", f"{100 * low3:.1f}-{100 * high3:.1f}"))
    rows.append(("chance", f"{100 * four['chance']:.1f}", f"{100 * three['chance']:.1f}"))
    rows.append(("", "", ""))
    for kind in SPLIT_KINDS:
        for split in SPLITS:
            rows.append((f"unseen {kind}: {split}", _cell(four["by_split"][kind][split]),
                         _cell(three["by_split"][kind][split])))
    width = max(len(r[0]) for r in rows)
    lines = [f"ACT-Thor accuracy of {agent}, % (sets)", f"{'':{width}s}  {'4 images':>12s}  {'3 images':>12s}"]
    lines += [f"{name:{width}s}  {a:>12s}  {b:>12s}" if name else "" for name, a, b in rows]
    return lines


# --- the command -----------------------------------------------------------------------------------
def eval_actthor(
    directory: str,
    *,
    predictions: str | None = None,
    agent: str | None = None,
    out: str | None = None,
    timeout: float = PREDICT_TIMEOUT,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen eval actthor``: score a predictions file or an agent on the contrast sets of
    ``directory``; print the failures, the table and a summary; write the results file. OK, or
    FAILED when the agent failed on some sets."""
    from alfred_gen.atomic import write_text
    from alfred_gen.progress import shown_path

    if (predictions is None) == (agent is None):
        raise UserError("give one of --predictions or --agent", ExitCode.USAGE)
    if timeout < 0:
        raise UserError("--timeout must not be negative", ExitCode.USAGE)
    root = Path(directory)
    if not root.is_dir():
        raise UserError(f"{directory}: no such directory", ExitCode.NOT_FOUND)
    sets = contrast_sets(root)
    digest = contrast_digest(root)
    began = time.monotonic()
    failures = AgentFailures(Counter(), {})
    if predictions is not None:
        chosen: dict[str, int | None] = dict(read_predictions(predictions, sets, digest))
        name = f"predictions {shown_path(predictions)}"
    else:
        assert agent is not None
        chosen, failures = predict_all(root, sets, make_agent(agent, sets), timeout=timeout,
                                       show_progress=show_progress)
        name = agent
    figures = score(sets, chosen)
    for line in failures.lines():
        echo(line)
    for line in table(figures, name):
        echo(line)
    left_out = len(sets) - len(chosen)
    summary = (f"{len(chosen)} contrast sets scored ({figures['4']['all']['sets']} of four images, "
               f"{figures['3']['all']['sets']} of three)")
    if left_out:
        summary += f", {left_out} without a prediction left out"
    if failures.counts:
        summary += f", {sum(failures.counts.values())} failed by the agent"
    summary += f" in {time.monotonic() - began:.1f} s"
    if out is not None:
        payload = {"format": RESULTS_FORMAT, "agent": agent, "predictions_file": predictions, "contrast": digest,
                   "figures": figures, "predictions": {k: v for k, v in chosen.items() if v is not None},
                   "failed": sorted(k for k, v in chosen.items() if v is None)}
        write_text(out, json.dumps(payload, indent=1, sort_keys=True) + "\n")
        summary += f"; results in {shown_path(out)}"
    echo(summary)
    return ExitCode.FAILED if failures.counts else ExitCode.OK
