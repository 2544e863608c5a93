"""Train / val / test splits by home: every question of a home goes to the home's split.

The paper splits its homes so that no home is in two splits (a model is tested on homes it never
saw). A home's split is a function of its name alone, from a stable hash (not of the set of homes
in a run), so adding homes to a dataset never moves the ones already there: :data:`SPLIT_SHARES`
of the hash range go to train, val and test.
"""

from __future__ import annotations

from alfred_gen.sim.scene import hash_str

#: Splits and their shares of the homes (the paper's are about 84 / 9 / 7 percent).
SPLITS = ("train", "val", "test")
SPLIT_SHARES = (0.8, 0.1, 0.1)


def split_of(home: str) -> str:
    """The split of a home, by name (``LiteHouse5``)."""
    position = (hash_str(f"alfred-gen eqa split {home}") % 10_000) / 10_000.0
    edge = 0.0
    for split, share in zip(SPLITS, SPLIT_SHARES):
        edge += share
        if position < edge:
            return split
    return SPLITS[-1]
