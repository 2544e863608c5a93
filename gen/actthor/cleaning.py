"""The paper's cleaning of raw triples, with every threshold in one place.

A triple is dropped when its action failed, when the object cannot be seen in the after-image
(breaking excepted: in THOR a broken object is replaced by pieces that are not the object), or when
the after-image is not visibly different from the before-image. The paper's pixel distance is the
sum of absolute differences, kept when above zero; lite's frames have no noise, so a difference of
a few pixels is a real change, but one too small to see: the rule here asks for
:attr:`CleaningRules.min_changed_pixels` changed pixels, the same count THOR asks of an object to
call it visible.

"Seen" is counted on the instance frame (at least :attr:`CleaningRules.min_visible_pixels` pixels
of the object), not with metadata ``visible``: THOR's and lite's ``visible`` leave out the object in
the agent's hand, which the after-image of a pick-up shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: Why a triple was dropped (None: kept).
FAILED, NOT_VISIBLE, NO_CHANGE = "failed", "not_visible", "no_change"
REASONS = (FAILED, NOT_VISIBLE, NO_CHANGE)


@dataclass(frozen=True)
class CleaningRules:
    min_visible_pixels: int = 10
    min_changed_pixels: int = 10
    #: Actions whose object may vanish from view and still count (the paper: break).
    visibility_exempt: frozenset[str] = frozenset({"break"})

    def as_dict(self) -> dict[str, Any]:
        return {"min_visible_pixels": self.min_visible_pixels, "min_changed_pixels": self.min_changed_pixels,
                "visibility_exempt": sorted(self.visibility_exempt)}


RULES = CleaningRules()


def drop_reason(triple: Mapping[str, Any], rules: CleaningRules = RULES) -> str | None:
    """Why a triple (its record) is cleaned away, or None when it is kept."""
    if not triple["success"]:
        return FAILED
    if triple["action"] not in rules.visibility_exempt and triple["pixels_after"] < rules.min_visible_pixels:
        return NOT_VISIBLE
    if triple["changed_pixels"] < rules.min_changed_pixels:
        return NO_CHANGE
    return None
