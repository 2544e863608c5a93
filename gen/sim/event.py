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
with its render cache and read-only. The images may be drawn when first read, like visibility:
lite then hands over a function that draws them from what it took from the state when the step
ended (:meth:`alfred_gen.sim.pixels.PixelSight.images_later`), so a step whose frame nobody reads
(a probe of a pose, a setup step, an action executed again after a rewind) costs no frame.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

import numpy as np

from alfred_gen.sim.visibility import visible_among

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

    __slots__ = ("_head", "_images", "_metadata", "_pending", "_snapshot")

    frame: np.ndarray | None  # one of IMAGE_FIELDS, named here for readers and type checkers

    def __init__(self, head: dict[str, Any], listing: Listing,
                 sight: Callable[[], tuple[np.ndarray, np.ndarray]],
                 images: dict[str, Any] | Callable[[], dict[str, Any]] | None = None) -> None:
        """``sight()`` gives this state's (visible, distance) whenever it is called (the snapshot's
        part that costs pixels, called at most once, on the first read of ``metadata``).
        ``images``: the image fields by name, or a function giving them whenever it is called
        (called at most once, on the first read of any image field)."""
        self._head = head
        self._metadata: dict[str, Any] | None = None
        self._snapshot: tuple[Listing, Callable[[], tuple[np.ndarray, np.ndarray]]] | None = (listing, sight)
        self._images: dict[str, Any] = {}
        self._pending: Callable[[], dict[str, Any]] | None = None
        if callable(images):
            self._pending = images
        elif images:
            self._images = _checked(images)

    def __getattr__(self, name: str) -> Any:
        """An image field (None while its flag is off), drawn on its first read when it was deferred."""
        if name not in IMAGE_FIELDS:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        pending = self._pending
        if pending is not None:
            self._images = _checked(pending() or {})
            self._pending = None
        return self._images.get(name)

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
    def state_metadata(self) -> dict[str, Any]:
        """``metadata`` without the objects' ``visible`` and ``distance``: what a caller that
        follows the objects' states reads (vetting's effect tracker), without drawing visibility's
        pixels; ``metadata`` itself once that has been read. The dicts are shared: read them only."""
        if self._metadata is not None:
            return self._metadata
        assert self._snapshot is not None  # made in __init__, dropped once metadata exists
        state = dict(self._head)
        state["objects"] = [meta for meta, _ in self._snapshot[0]]
        return state

    def visible_among(self, ids: Collection[str]) -> frozenset[str]:
        """Which of ``ids`` are visible: ``metadata``'s ``visible`` for them, drawing only their
        pixels (and what is nearer) when ``metadata`` has not been read yet. For a probe that asks
        about two or three objects of a pose (:func:`alfred_gen.demo.drive.destination_by_probes`)."""
        if self._metadata is not None:
            return frozenset(o["objectId"] for o in self._metadata["objects"] if o["visible"] and o["objectId"] in ids)
        assert self._snapshot is not None  # made in __init__, dropped once metadata exists
        listing, sight = self._snapshot
        rows = np.zeros(len(listing), dtype=bool)
        asked = [(meta["objectId"], row) for meta, row in listing if meta["objectId"] in ids]
        for _, row in asked:
            rows[row] = True
        visible = visible_among(sight, rows)
        return frozenset(oid for oid, row in asked if visible[row])

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
        m = self._head
        return f"<Event {m.get('lastAction')} success={m.get('lastActionSuccess')} scene={m.get('sceneName')}>"


def head_of(event: Any) -> Mapping[str, Any]:
    """A step's own fields (``lastActionSuccess``, ``errorMessage``, ``actionReturn``, ``agent``):
    lite's ``head``, which draws no visibility pixels, or THOR's whole ``metadata``. For callers
    that only check whether a step succeeded (a setup step, a probe's way back, an action executed
    again after a rewind)."""
    head = getattr(event, "head", None)
    return head if isinstance(head, Mapping) else event.metadata


def visible_among_of(event: Any, ids: Collection[str]) -> frozenset[str]:
    """Which of ``ids`` are visible in a step: lite's :meth:`Event.visible_among` (only their
    pixels drawn), THOR's whole ``metadata``."""
    among = getattr(event, "visible_among", None)
    if among is not None:
        return frozenset(among(ids))
    objects = event.metadata.get("objects") or ()
    return frozenset(o["objectId"] for o in objects if o.get("visible") and o["objectId"] in ids)


def state_metadata_of(event: Any) -> Mapping[str, Any]:
    """The objects' states of a step without visibility: lite's ``state_metadata`` (no pixels
    drawn), THOR's whole ``metadata``."""
    state = getattr(event, "state_metadata", None)
    return state if isinstance(state, Mapping) else event.metadata


def _checked(images: dict[str, Any]) -> dict[str, Any]:
    for name in images:
        if name not in IMAGE_FIELDS:
            raise ValueError(f"unknown image field {name!r}")
    return dict(images)
