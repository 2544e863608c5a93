"""Run by LeRobot's Python (tests/test_export_lerobot.py): load an export with LeRobot's own
``LeRobotDataset`` and write what it gives for a few items to a JSON file, frames to .npy files.

Usage: python lerobot_read.py ROOT OUT_DIR INDEX...
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from lerobot.datasets.lerobot_dataset import LeRobotDataset


def main() -> None:
    root, out = sys.argv[1], Path(sys.argv[2])
    dataset = LeRobotDataset("alfred-gen/test", root=root)
    report: dict = {"episodes": dataset.num_episodes, "frames": dataset.num_frames,
                    "backend": dataset.video_backend, "items": []}
    for index in map(int, sys.argv[3:]):
        item = dataset[index]
        fields = {}
        for key, value in item.items():
            if key.startswith("observation.images."):
                pixels = (value.numpy().transpose(1, 2, 0) * 255.0).round().clip(0, 255).astype(np.uint8)
                np.save(out / f"{index}-{key}.npy", pixels)
            elif isinstance(value, str):
                fields[key] = value
            else:
                fields[key] = value.tolist()
        report["items"].append(fields)
    (out / "report.json").write_text(json.dumps(report))


if __name__ == "__main__":
    main()
