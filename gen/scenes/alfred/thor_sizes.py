"""Real AI2-THOR object sizes per FloorPlan, read from a THOR asset database at import time.

ProcTHOR's ``asset-database.json`` lists, per object type, every asset with its bounding-box size
(asset frame: x wide, y tall, z deep) and the iTHOR FloorPlans that use it. The importer asks it
"how big is the Dresser of FloorPlan324?" to size receptacles of imported rooms. The database is
only read when the user passes its directory (``--thor-db DIR``); nothing of it is copied into the
project, only the sizes used end up in the user's own scene catalogue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError

ASSET_DATABASE = "asset-database.json"

Size = tuple[float, float, float]


class ThorSizes:
    """Bounding-box sizes of THOR assets by (object type, FloorPlan name)."""

    def __init__(self, by_type_and_scene: dict[tuple[str, str], list[Size]]) -> None:
        self._sizes = by_type_and_scene

    @staticmethod
    def load(directory: str | Path) -> ThorSizes:
        """Read ``DIR/asset-database.json``; UserError NOT_FOUND / BAD_INPUT if missing or malformed."""
        path = Path(directory)
        if path.is_dir():
            path = path / ASSET_DATABASE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise UserError(f"{path}: no THOR asset database here", ExitCode.NOT_FOUND) from None
        except (OSError, ValueError) as error:
            raise UserError(f"{path}: cannot read the THOR asset database ({error})", ExitCode.BAD_INPUT) from None
        if not isinstance(data, dict):
            raise UserError(f"{path}: not a THOR asset database (expected type -> assets)", ExitCode.BAD_INPUT)
        return ThorSizes(_index(data))

    def size(self, object_type: str, floor_plan: str) -> Size | None:
        """The asset size of ``object_type`` in ``floor_plan``: the only asset of that type there, or
        the median-volume one when the room uses several; None if the database does not say."""
        sizes = self._sizes.get((object_type, floor_plan))
        if not sizes:
            return None
        ranked = sorted(sizes, key=lambda s: (s[0] * s[1] * s[2], s))
        return ranked[(len(ranked) - 1) // 2]

    def __len__(self) -> int:
        return len(self._sizes)


def _index(data: dict[str, Any]) -> dict[tuple[str, str], list[Size]]:
    out: dict[tuple[str, str], list[Size]] = {}
    for object_type in sorted(data):
        assets = data[object_type]
        if not isinstance(assets, list):
            continue
        for asset in assets:
            if not isinstance(asset, dict):
                continue
            box: Any = asset.get("boundingBox")
            try:
                size = (float(box["x"]), float(box["y"]), float(box["z"]))
            except (KeyError, TypeError, ValueError):
                continue
            for scene in asset.get("scenes") or ():
                if isinstance(scene, str) and scene.startswith("FloorPlan") and scene[9:].isdigit():
                    out.setdefault((object_type, scene), []).append(size)
    return out
