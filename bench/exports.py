"""Steps per second of reading shuffled training batches from each form of the same data.

    python bench/exports.py ALFRED_DIR LEROBOT_DIR HF_DIR [--batch 32] [--batches 10]
                            [--lerobot-python PY] [--seed 0]

The three forms come from one tree: ALFRED_DIR (trajectory folders, read with
``alfred_gen.data.AlfredDataset``), ``alfred-gen export lerobot ALFRED_DIR --out LEROBOT_DIR``
(read with LeRobot's ``LeRobotDataset``, in the Python given by --lerobot-python or
$ALFRED_GEN_LEROBOT_PYTHON, see .ci/lerobot-venv) and ``alfred-gen export hf ALFRED_DIR --out
HF_DIR`` (read with ``datasets``). Each reader draws the same shuffled step indices, batch by
batch, and decodes every frame to an HxWx3 array (LeRobot: a 3xHxW float tensor, its own output),
as a training loop's data loader would with one worker. Prints one table: steps/s per form and
the ratio to the ALFRED folders, measured in one run, side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

LEROBOT_READER = """
import json, sys, time
from lerobot.datasets.lerobot_dataset import LeRobotDataset
dataset = LeRobotDataset("alfred-gen/bench", root=sys.argv[1])
batches = json.loads(sys.argv[2])
dataset[0]
began = time.perf_counter()
for batch in batches:
    for index in batch:
        item = dataset[index]
        pixels = item["observation.images.rgb"].numel()
print(json.dumps({"seconds": time.perf_counter() - began, "steps": sum(map(len, batches)), "length": len(dataset)}))
"""


def _batches(length: int, batch: int, count: int, seed: int) -> list[list[int]]:
    order = np.random.default_rng(seed).permutation(length)
    return [order[i * batch:(i + 1) * batch].tolist() for i in range(count) if i * batch < length]


def read_alfred(root: Path, batches: list[list[int]]) -> float:
    from alfred_gen.data import AlfredDataset

    dataset = AlfredDataset(root)
    dataset[0]
    pixels = 0
    began = time.perf_counter()
    for batch in batches:
        for index in batch:
            pixels += dataset[index]["image"].size
    return time.perf_counter() - began


def read_hf(root: Path, batches: list[list[int]]) -> float:
    import datasets

    steps = datasets.load_dataset("parquet", data_files=str(root / "data" / "*.parquet"), split="train")
    steps[0]
    pixels = 0
    began = time.perf_counter()
    for batch in batches:
        rows = steps[batch]
        for image in rows["image"]:
            pixels += np.asarray(image.convert("RGB")).size
    return time.perf_counter() - began


def read_lerobot(python: str, root: Path, batches: list[list[int]]) -> float:
    run = subprocess.run([python, "-c", LEROBOT_READER, str(root), json.dumps(batches)],
                         capture_output=True, text=True, timeout=3600)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "LeRobot reader failed")
    return float(json.loads(run.stdout.strip().splitlines()[-1])["seconds"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("alfred_dir", type=Path)
    parser.add_argument("lerobot_dir", type=Path)
    parser.add_argument("hf_dir", type=Path)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lerobot-python", default=os.environ.get("ALFRED_GEN_LEROBOT_PYTHON", ""))
    args = parser.parse_args(argv)
    from alfred_gen.data import AlfredDataset

    length = len(AlfredDataset(args.alfred_dir))
    batches = _batches(length, args.batch, args.batches, args.seed)
    steps = sum(map(len, batches))
    print(f"{length} steps in each form; reading {len(batches)} shuffled batches of {args.batch} ({steps} steps)")
    results: list[tuple[str, float | None, str]] = []
    results.append(("ALFRED folders (AlfredDataset)", read_alfred(args.alfred_dir, batches), ""))
    if args.lerobot_python:
        try:
            seconds = read_lerobot(args.lerobot_python, args.lerobot_dir, batches)
            results.append(("LeRobot v3.0 (LeRobotDataset)", seconds, ""))
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
            results.append(("LeRobot v3.0 (LeRobotDataset)", None, str(error)))
    else:
        results.append(("LeRobot v3.0 (LeRobotDataset)", None, "no --lerobot-python"))
    results.append(("HF parquet (datasets)", read_hf(args.hf_dir, batches), ""))
    base = results[0][1]
    print("| form | steps/s | vs ALFRED folders |")
    print("|---|---|---|")
    for name, seconds, why in results:
        if seconds is None:
            print(f"| {name} | not measured: {why} | |")
        else:
            ratio = f"{(steps / seconds) / (steps / base):.2f}x" if base else ""
            print(f"| {name} | {steps / seconds:.0f} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
