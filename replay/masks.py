"""Which object an interaction mask means, decided as ALFRED's evaluator decides it.

ALFRED's agents do not name objects: they predict a 300x300 mask, and ``env/thor_env.py``
``va_interact`` turns it into an object id. We follow the same rule, written afresh:

1. every instance with at least one pixel under the mask is a candidate;
2. candidates are ranked by the intersection-over-union of their instance mask with the predicted
   mask, best first; ties go as ALFRED's Python sorts them: the larger overlap first (its
   ``Counter.most_common``), then the instance met first reading the mask's pixels row by row (the
   Counter's insertion order, kept by both stable sorts), so the order never depends on
   dictionary order;
3. the object in the agent's hand is dropped (a held mug covers much of the view; ALFRED drops
   ``inventoryObjects[0]``, the only one THOR lets it hold);
4. objects the action cannot apply to are dropped, and the first one left is the target. With the
   rule ``"affordance"`` (the default) that is the first one that accepts the action by its kind:
   pickupable for PickupObject, a receptacle for PutObject, openable for OpenObject/CloseObject,
   toggleable for ToggleObjectOn/Off, sliceable for SliceObject. With the rule ``"alfred"`` it is
   ALFRED's code to the letter (``prune_by_any_interaction``): the first one that is any of those
   (the bed under a lamp's mask is then the target of ToggleObjectOn, and the step fails);
5. none left is ALFRED's failed step "Bad interact mask. Couldn't locate target object".

The two rules agree in THOR, where the masks are THOR's own; they differ where a simulator draws
the room a little differently from the frames the masks were taken in (lite's imported rooms,
released masks): a neighbour that covers more of the predicted mask wins under ``"alfred"``
even when the action cannot apply to it. Whether the action then succeeds (in reach, open, ...) is
the simulator's call in both.

The instance masks are the Event's ``instance_masks`` ({objectId: HxW bool}) of the frame the agent
saw, i.e. the state before the action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: ALFRED's error text when no interactable object lies under the mask.
BAD_MASK = "Bad interact mask. Couldn't locate target object"

#: The object flags of which one makes an object a candidate (ALFRED's ``prune_by_any_interaction``).
INTERACTABLE_FLAGS = ("pickupable", "receptacle", "openable", "toggleable", "sliceable")

#: The flag an object needs to accept each interaction (the ``"affordance"`` rule).
ACTION_FLAGS = {
    "PickupObject": "pickupable", "PutObject": "receptacle", "OpenObject": "openable", "CloseObject": "openable",
    "ToggleObjectOn": "toggleable", "ToggleObjectOff": "toggleable", "SliceObject": "sliceable",
}

#: The rules of step 4 (see the module docstring).
MASK_RULES = ("affordance", "alfred")


def ranked_candidates(mask: np.ndarray, instance_masks: Mapping[str, np.ndarray]) -> list[tuple[str, float, int]]:
    """(object id, IoU, overlap) of every instance under ``mask``, in ALFRED's order: best IoU first,
    then the larger overlap, then the one whose first pixel under the mask comes first row by row."""
    wanted = np.asarray(mask, dtype=bool)
    area = int(wanted.sum())
    if area == 0:
        return []
    keyed = []
    for object_id, instance in instance_masks.items():
        pixels = np.asarray(instance, dtype=bool)
        if pixels.shape != wanted.shape:
            continue
        under = (pixels & wanted).ravel()
        overlap = int(np.count_nonzero(under))
        if overlap:
            union = area + int(np.count_nonzero(pixels)) - overlap
            first = int(np.argmax(under))  # row-major index of the first pixel met under the mask
            keyed.append(((-overlap / union, -overlap, first), (object_id, overlap / union, overlap)))
    keyed.sort(key=lambda item: item[0])
    return [entry for _key, entry in keyed]


def resolve_mask(mask: np.ndarray, event: Any, action: str = "", rule: str = "affordance") -> str | None:
    """The object id ``mask`` selects for ``action`` in ``event`` (the frame the agent saw), or None."""
    instance_masks = getattr(event, "instance_masks", None) or {}
    metadata = event.metadata
    held = {item.get("objectId") for item in metadata.get("inventoryObjects") or ()}
    objects = {o["objectId"]: o for o in metadata.get("objects") or ()}
    for object_id, _iou, _overlap in ranked_candidates(mask, instance_masks):
        if object_id in held:
            continue
        obj = objects.get(object_id)
        if obj is None:
            continue
        needed = ACTION_FLAGS.get(action) if rule == "affordance" else None
        if (obj.get(needed) if needed else any(obj.get(flag) for flag in INTERACTABLE_FLAGS)):
            return object_id
    return None
