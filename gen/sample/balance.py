"""Task-tuple sampling with active balancing, as ALFRED's generator did it.

A dataset sampled uniformly over feasible (task type, scene, object, receptacle, movable receptacle)
tuples is badly skewed: kitchens hold most objects, and pick_and_place_with_movable_recep has more
combinations than all other task types together. ALFRED instead picks each next tuple by looking at
the tuples made so far:

1. For every slot and every value still possible, a weight ``1 / (1 + noise + conditional count)``
   times ``1 / (1 + prior count)``. The conditional count is how often the value was used among the
   made tuples that agree with the other slots' remaining candidates; the prior count is how often
   it was used at all. Here the prior of an object class counts it in every class slot (object,
   movable receptacle, receptacle), so a class that is rare as o and as m is favoured everywhere.
   ``noise`` is a small random integer that keeps the choice from being a fixed cycle.
2. Normalised per slot, each value's lead over the slot's least-wanted value measures how
   under-represented it is. The largest lead over all slots is the largest source of imbalance:
   that slot is fixed to that value.
3. Constraint propagation: the feasible set is filtered by the fixed value, which shrinks every
   other slot's candidates to values that still complete to a feasible tuple. Repeat from 1 until
   one tuple is left.

Tuples recorded as failed, or already holding their demonstrations, are excluded up front; when no
tuple is left the sampler says so (returns None). The sampler is stateless between calls: the same
history, exclusions and seed give the same tuple, which the run loop relies on for determinism.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from alfred_gen.sample.feasibility import TaskTuple

#: Slot names in column order; the three class slots share one vocabulary and one prior.
SLOTS = ("task_type", "object", "mrecep", "receptacle", "scene")
_TASK, _OBJECT, _MRECEP, _RECEP, _SCENE = range(5)
_CLASS_COLUMNS = (_OBJECT, _MRECEP, _RECEP)

#: Upper bound of the random integer added to conditional counts. ALFRED used 10 for a dataset of
#: thousands; a smaller value keeps balancing sharp for runs of a few hundred.
DEFAULT_NOISE = 2


def slot_value(t: TaskTuple, slot: str) -> str | int:
    """The value of a slot of a tuple (``""`` for no movable receptacle)."""
    values: dict[str, str | int] = {
        "task_type": t.task_type, "object": t.object, "mrecep": t.mrecep, "receptacle": t.receptacle,
        "scene": t.scene,
    }
    return values[slot]


def normalised_entropy(counts: Mapping[Any, int] | Sequence[int], n_values: int | None = None) -> float:
    """Shannon entropy of a count distribution divided by its maximum, log(n_values).

    1.0 is perfectly even; 0.0 is everything in one value. ``n_values`` defaults to the number of
    values with a non-zero count; pass the number of possible values to penalise values never used.
    """
    values = [int(c) for c in (counts.values() if isinstance(counts, Mapping) else counts) if int(c) > 0]
    total = sum(values)
    k = n_values if n_values is not None else len(values)
    if total == 0 or k <= 1:
        return 1.0 if total and k <= 1 else 0.0
    entropy = -sum((c / total) * math.log(c / total) for c in values)
    return entropy / math.log(k)


def slot_balance(tuples: Iterable[TaskTuple], possible: Mapping[str, int] | None = None) -> dict[str, float]:
    """Normalised entropy of each slot over ``tuples`` (mrecep over the tuples that have one)."""
    tuples = list(tuples)
    result = {}
    for slot in SLOTS:
        counts = Counter(slot_value(t, slot) for t in tuples if slot_value(t, slot) != "")
        result[slot] = normalised_entropy(counts, (possible or {}).get(slot))
    return result


class BalancedSampler:
    """Active-balancing sampler over a fixed set of feasible tuples.

    ``feasible`` is the whole task space (see :func:`alfred_gen.sample.feasibility.feasible_tuples`).
    Call :meth:`sample` with the tuples made so far (one entry per demonstration, as ALFRED counts)
    and the tuples that may not be proposed again.
    """

    def __init__(self, feasible: Sequence[TaskTuple], noise: int = DEFAULT_NOISE) -> None:
        self.tuples: list[TaskTuple] = sorted(set(feasible), key=TaskTuple.sort_key)
        self.noise = int(noise)
        self._tasks = sorted({t.task_type for t in self.tuples})
        self._scenes = sorted({t.scene for t in self.tuples})
        # Index 0 of the class vocabulary is "" (no movable receptacle).
        self._classes = [""] + sorted({c for t in self.tuples for c in (t.object, t.mrecep, t.receptacle) if c})
        self._task_index = {v: i for i, v in enumerate(self._tasks)}
        self._scene_index = {v: i for i, v in enumerate(self._scenes)}
        self._class_index = {v: i for i, v in enumerate(self._classes)}
        self._row = {t: i for i, t in enumerate(self.tuples)}
        self._table = self.encode(self.tuples)
        self._sizes = (len(self._tasks), len(self._classes), len(self._classes), len(self._classes), len(self._scenes))

    def __len__(self) -> int:
        return len(self.tuples)

    def __contains__(self, task: object) -> bool:
        return task in self._row

    def possible_values(self) -> dict[str, int]:
        """How many distinct values each slot has over the feasible set (mrecep: real classes only)."""
        return {slot: len({slot_value(t, slot) for t in self.tuples} - {""}) for slot in SLOTS}

    def encode(self, tuples: Sequence[TaskTuple]) -> np.ndarray:
        """Rows of vocabulary indices (what :meth:`sample` takes as history); a value outside the
        feasible set's vocabulary becomes -1."""
        table = np.full((len(tuples), 5), -1, dtype=np.int64)
        for i, t in enumerate(tuples):
            table[i, _TASK] = self._task_index.get(t.task_type, -1)
            table[i, _OBJECT] = self._class_index.get(t.object, -1)
            table[i, _MRECEP] = self._class_index.get(t.mrecep, -1)
            table[i, _RECEP] = self._class_index.get(t.receptacle, -1)
            table[i, _SCENE] = self._scene_index.get(t.scene, -1)
        return table

    def _decode(self, row: int) -> TaskTuple:
        return self.tuples[int(row)]

    def open_tuples(self, excluded: Collection[TaskTuple] = ()) -> list[TaskTuple]:
        """Feasible tuples not excluded, sorted."""
        mask = self._open_mask(excluded)
        return [self.tuples[i] for i in np.flatnonzero(mask)]

    def _open_mask(self, excluded: Collection[TaskTuple]) -> np.ndarray:
        mask = np.ones(len(self.tuples), dtype=bool)
        for t in excluded:
            row = self._row.get(t)
            if row is not None:
                mask[row] = False
        return mask

    def sample(
        self, history: Sequence[TaskTuple] | np.ndarray, excluded: Collection[TaskTuple] = (), seed: int = 0
    ) -> TaskTuple | None:
        """The next tuple to generate, or None when every feasible tuple is excluded.

        ``history``: tuples made so far, one entry per demonstration (or their :meth:`encode` rows,
        which a long run keeps instead of re-encoding thousands of tuples per call). ``excluded``:
        tuples recorded as failed or already full. ``seed`` drives the noise and tie-breaking.
        """
        if isinstance(history, np.ndarray):
            made = history.reshape(-1, 5).astype(np.int64, copy=False)
        else:
            made = self.encode(list(history)) if len(history) else np.zeros((0, 5), dtype=np.int64)
        return self.sample_open(made, self._open_mask(excluded), seed)

    def rows_of_task_type(self, task_type: str) -> np.ndarray:
        """A boolean mask over :attr:`tuples`: True where the tuple has this task type."""
        index = self._task_index.get(task_type)
        if index is None:
            return np.zeros(len(self.tuples), dtype=bool)
        return self._table[:, _TASK] == index

    def row(self, task: TaskTuple) -> int:
        """The index of a feasible tuple in :attr:`tuples` (and in an open mask); KeyError if infeasible."""
        return self._row[task]

    def sample_open(self, made: np.ndarray, open_rows: np.ndarray, seed: int) -> TaskTuple | None:
        """:meth:`sample` for a caller that keeps its own state: ``made`` is the history as
        :meth:`encode` rows and ``open_rows`` a boolean mask over :attr:`tuples` (True: may be
        proposed). A plan of thousands of tuples keeps both and updates them per pick, instead of
        re-encoding its history and rebuilding the mask on every call. ``open_rows`` is not changed."""
        mask = open_rows.copy()
        rng = np.random.default_rng(seed)
        class_values = made[:, list(_CLASS_COLUMNS)].ravel()
        class_prior = np.bincount(class_values[class_values > 0], minlength=len(self._classes))
        own_prior = {
            column: np.bincount(made[:, column][made[:, column] >= 0], minlength=self._sizes[column])
            for column in (_TASK, _SCENE)
        }
        while True:
            rows = np.flatnonzero(mask)
            if rows.size == 0:
                return None
            if rows.size == 1:
                return self._decode(rows[0])
            candidates = self._table[rows]
            # present[c][v]: value v of slot c still completes to an open feasible tuple. One extra
            # False entry at the end answers for -1 (a made tuple's value outside the vocabulary).
            present = [
                np.append(np.bincount(candidates[:, c], minlength=self._sizes[c]) > 0, False) for c in range(5)
            ]
            in_domain = [present[c][made[:, c]] for c in range(5)]
            lead_parts: list[tuple[np.ndarray, int, np.ndarray]] = []
            for column in range(5):
                values = np.flatnonzero(present[column][:-1])
                if column == _MRECEP and present[column][0]:
                    # Candidates without a movable receptacle remain: balance m only among tasks
                    # that have one, or every rare m would drag in the movable-receptacle task.
                    continue
                if values.size < 2:
                    continue
                agree = np.ones(len(made), dtype=bool)
                for other in range(5):
                    if other != column:
                        agree &= in_domain[other]
                agreeing = made[agree, column]
                conditional = np.bincount(agreeing[agreeing >= 0], minlength=self._sizes[column])[values]
                prior = (class_prior if column in _CLASS_COLUMNS else own_prior[column])[values]
                noise = rng.integers(0, self.noise + 1, size=values.size)
                weight = 1.0 / (1.0 + noise + conditional) / (1.0 + prior)
                probability = weight / weight.sum()
                lead_parts.append((probability - probability.min(), column, values))
            if not lead_parts:
                return self._decode(rows[int(rng.integers(rows.size))])
            top = max(float(lead.max()) for lead, _, _ in lead_parts)
            ties = [(column, int(value)) for lead, column, values in lead_parts
                    for value in values[lead >= top - 1e-12]]
            column, value = ties[int(rng.integers(len(ties)))]
            mask &= self._table[:, column] == value


def uniform_sample(feasible: Sequence[TaskTuple], count: int, seed: int = 0) -> list[TaskTuple]:
    """``count`` distinct tuples drawn uniformly at random: the baseline active balancing beats."""
    pool = sorted(set(feasible))
    return random.Random(seed).sample(pool, min(count, len(pool)))
