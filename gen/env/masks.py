"""Which object an interaction mask means: ALFRED's ``va_interact`` rule, kept in
:mod:`alfred_gen.replay.masks` so that the environment and the fidelity measurement
(:mod:`alfred_gen.fidelity.masks`, a rung beside this one) resolve masks by one rule."""

from alfred_gen.replay.masks import (
    ACTION_FLAGS,
    BAD_MASK,
    INTERACTABLE_FLAGS,
    MASK_RULES,
    ranked_candidates,
    resolve_mask,
)

__all__ = ["ACTION_FLAGS", "BAD_MASK", "INTERACTABLE_FLAGS", "MASK_RULES", "ranked_candidates", "resolve_mask"]
