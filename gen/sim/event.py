"""The result of one simulator step, shaped like ``ai2thor.server.Event``.

``metadata`` has THOR 2.1's layout. It is assembled on first access from an immutable snapshot
taken when the step ended (cached per-object dicts plus this step's visibility, whose pixels are
drawn only then: see :meth:`alfred_gen.sim.pixels.PixelSight.prepare`), so stepping stays cheap
for callers that only look at some events; ``head`` gives the step's own fields (success, error,
agent) without working out visibility. The dicts are shared with the
simulator's caches: read them, do not modify them (copy first if you must).

Image fields have THOR's meanings and are None while their flag is off (see
:mod:`alfred_gen.sim.lite`): ``frame`` (H x W x 3 uint8 RGB), ``depth_frame`` (H x W float32,
metres along the view axis), ``instance_segmentation_frame`` (H x W x 3 uint8), ``instance_masks``
({objectId: H x W bool}, objects in view only), ``instance_detections2D`` ({objectId: [x1, y1,
x2, y2]}), ``color_to_object_id`` / ``object_id_to_color`` (every id and structure name),
``class_segmentation_frame`` and ``class_masks`` ({objectType: mask}). lite's arrays are shared
with its render cache and read-only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

#: Fields a renderer may fill, with the names ``ai2thor.server.Event`` uses.
IMAGE_FIELDS = (
    "frame",
    "depth_frame",
    "instance_segmentation_frame",
    "instance_masks",
    "color_to_object_id",
    "object_id_to_color",
    "instance_detections2D",
    "class_segmentation_frame",
    "class_masks",
)


#: Per object: its cached metadata dict and its row in the visibility arrays.
Listing = tuple[tuple[dict[str, Any], int], ...]


class Event:
    """One step's outcome: ``metadata`` plus optional images."""

    __slots__ = ("_head", "_metadata", "_snapshot", *IMAGE_FIELDS)

    frame: np.ndarray | None  # one of IMAGE_FIELDS, named here for readers and type checkers

    def __init__(self, head: dict[str, Any], listing: Listing,
                 sight: Callable[[], tuple[np.ndarray, np.ndarray]], images: dict[str, Any] | None = None) -> None:
        """``sight()`` gives this state's (visible, distance) whenever it is called (the snapshot's
        part that costs pixels, called at most once, on the first read of ``metadata``)."""
        self._head = head
        self._metadata: dict[str, Any] | None = None
        self._snapshot: tuple[Listing, Callable[[], tuple[np.ndarray, np.ndarray]]] | None = (listing, sight)
        for name in IMAGE_FIELDS:
            setattr(self, name, None)
        if images:
            for name, value in images.items():
                if name not in IMAGE_FIELDS:
                    raise ValueError(f"unknown image field {name!r}")
                setattr(self, name, value)

    @property
    def metadata(self) -> dict[str, Any]:
        if self._metadata is None:
            assert self._snapshot is not None  # made in __init__, dropped once metadata exists
            listing, sight = self._snapshot
            visible, distance = sight()
            vis = visible.tolist()
            dist = np.round(distance, 5).tolist()
            objects = [dict(meta, visible=vis[row], distance=dist[row]) for meta, row in listing]
            metadata = dict(self._head)
            metadata["objects"] = objects
            self._metadata = metadata
            self._snapshot = None
        return self._metadata

    @property
    def head(self) -> dict[str, Any]:
        """``metadata`` without ``objects`` (``lastActionSuccess``, ``errorMessage``, ``agent`` ...):
        what a caller that only checks the step reads, without drawing visibility's pixels."""
        return self._head

    # Convenience mirrors of ai2thor.server.Event.
    @property
    def cv2img(self) -> np.ndarray | None:
        return None if self.frame is None else self.frame[..., ::-1]

    def __repr__(self) -> str:
        m = self.metadata
        return f"<Event {m.get('lastAction')} success={m.get('lastActionSuccess')} scene={m.get('sceneName')}>"
