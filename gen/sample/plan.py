"""The plan of a dataset: which task tuple fills which trials, fixed by (seed, options) alone.

A dataset is a function of the seed, N and the options that shape it (task types, scenes, scene
set, demonstrations per tuple). The plan makes that so by construction, whoever runs the jobs
(one process, a pool, shards of a cluster array, a resumed run) and in whatever order:

- **Groups.** Trials are planned in groups of ``demos_per_task`` (D) slots: group g holds slots
  ``g*D .. g*D+D-1``; the last group of a run may hold fewer. Each group has one task tuple, its
  *primary*. The primaries are a stream drawn by active balancing (:mod:`~alfred_gen.sample.balance`)
  in which the history is the earlier primaries, each counted D times: balancing is decided from
  the plan of trials, not from outcomes. So the stream depends on the seed and the task space only,
  and a larger N extends it without changing its first groups.
- **Chains.** A group fills its slots from its primary's attempts 0, 1, 2, ... in order, until the
  slots are filled or the tuple has failed ``max_failures`` times (ALFRED's rule); the slots still
  empty then go to the group's first replacement tuple, and so on. Each attempt's spawn seed and
  trial id are hashed from (seed, tuple, attempt) (:mod:`~alfred_gen.sample.trial_ids`) and its
  outcome depends on nothing else, so everything a group writes is a function of (seed, options, g
  and the group's size) alone (see :mod:`~alfred_gen.sample.schedule` for the chain rule).
- **Replacements.** A failed group's next tuple is chosen by active balancing too, against the
  plan's primaries up to a little beyond the group (:data:`LOOKAHEAD`), at first of the primary's
  task type, from the tuples that are none of those primaries. It depends on the group and its
  own failures only, not on N, so a larger N extends the same dataset. A group tries at most
  :data:`MAX_REPLACEMENTS` replacements. A replacement's attempts get
  trial ids and spawn seeds salted with the group (:func:`~alfred_gen.sample.trial_ids.trial_id`), so
  even when it coincides with another group's tuple no two jobs ever write the same trial; such a
  tuple then holds more than D trials (rare: it takes a failed tuple, and a coincidence).
- **Shards** take whole groups: shard I of M owns the groups with ``g % M == I``, so the shards of
  a run make exactly the unsharded dataset.

Building the task space takes seconds (every room is built); the plan is saved in the output
directory (:mod:`~alfred_gen.sample.disk_state`) so that a resumed run starts at once. The stream of
primaries is computed as far as a run needs it (the schedule grows it as it reaches later groups,
:mod:`~alfred_gen.sample.schedule`): each primary costs tens of milliseconds over a space of tens of
thousands of tuples, so planning all of a large N first would delay the first job by minutes, and
a prefix of the stream is the same whenever it is computed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

import numpy as np

from alfred_gen.sample.balance import BalancedSampler
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.trial_ids import derive_int

#: Version of the saved plan's layout (a file of another version is rebuilt, not read).
PLAN_FORMAT = 1

#: Tuples a group tries after its primary before it stays short: groups do not share what failed
#: (that would make a group depend on another's outcomes), so a task space where everything fails
#: is tried a bounded number of times per group.
MAX_REPLACEMENTS = 5

#: Replacements that keep the primary's task type (when the space has another tuple of it); later
#: ones may take any type, since a task type that keeps failing in these rooms (a fridge the
#: recorder cannot see into, say) would otherwise leave the group short.
SAME_TYPE_REPLACEMENTS = 2

#: Primaries beyond a group that its replacements avoid, so that a replacement seldom is a later
#: group's tuple too. The plan computes this many primaries past the run's last group, so a
#: replacement never depends on N.
LOOKAHEAD = 64


@dataclass(frozen=True)
class PlanKey:
    """The options that shape a dataset, apart from N: the plan's identity."""

    seed: int
    task_types: tuple[str, ...]
    scenes: tuple[int, ...]
    scene_set: str
    demos_per_task: int

    def fingerprint(self) -> str:
        """16 hex digits naming the saved plan (``plan-<fingerprint>.json``)."""
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def groups_for(n: int, demos_per_task: int) -> int:
    """How many groups N trials take (the last may be partial)."""
    return -(-int(n) // int(demos_per_task))


class DatasetPlan:
    """The primaries of a dataset (a prefix of the stream, grown on demand) and its replacements.

    ``space`` is every feasible tuple of the key's task types and scenes. ``primaries`` is the
    stream computed so far; ``complete`` says the stream has ended (every tuple of the space is a
    primary), so no group beyond it exists.
    """

    def __init__(self, key: PlanKey, space: Sequence[TaskTuple] = (), primaries: Sequence[TaskTuple] = (),
                 complete: bool = False, space_names: Sequence[str] | None = None) -> None:
        self.key = key
        self._space = sorted(set(space), key=TaskTuple.sort_key) if space_names is None else None
        self._space_names = list(space_names) if space_names is not None else None
        self._names_of_space: list[str] | None = None  #: the space's directory names, made once
        self.primaries: list[TaskTuple] = list(primaries)
        self.complete = complete
        #: (encoded history, open-tuple mask, primaries encoded so far): see _stream_state
        self._state: tuple[np.ndarray, np.ndarray, int] | None = None

    @property
    def space(self) -> list[TaskTuple]:
        """Every feasible tuple, sorted. A plan read back from disk keeps the names and parses
        them only when asked (to grow the plan or find a replacement), so a resumed run starts fast."""
        if self._space is None:
            parsed = [TaskTuple.from_dir_name(name) for name in self._space_names or ()]
            self._space = sorted({t for t in parsed if t is not None}, key=TaskTuple.sort_key)
        return self._space

    # ----------------------------------------------------------------------------------------
    # The stream of primaries

    @cached_property
    def sampler(self) -> BalancedSampler:
        """The balancing sampler over the whole space (built only when the plan must grow or a
        group needs a replacement, so that a resumed run does not pay for it)."""
        return BalancedSampler(self.space)

    def _stream_seed(self, index: int) -> int:
        return derive_int("plan", self.key.seed, index)

    def extend(self, groups: int) -> bool:
        """Grow the stream to ``groups`` primaries (fewer if the space runs out); True if it grew."""
        if len(self.primaries) >= groups or self.complete:
            return False
        sampler = self.sampler
        demos = self.key.demos_per_task
        groups = min(groups, len(sampler) + 1)  # the stream ends when the space does
        history, open_rows = self._stream_state(groups * demos)
        while len(self.primaries) < groups:
            index = len(self.primaries)
            picked = sampler.sample_open(history[: index * demos], open_rows, self._stream_seed(index))
            if picked is None:
                self.complete = True
                break
            self.primaries.append(picked)
            history[index * demos:(index + 1) * demos] = sampler.encode([picked])[0]
            open_rows[sampler.row(picked)] = False
        self._state = (history, open_rows, len(self.primaries))
        return True

    def _stream_state(self, rows: int) -> tuple[np.ndarray, np.ndarray]:
        """The history of the primaries as encoded rows (room for ``rows``) and the open-tuple mask,
        kept between calls: a run grows its plan a little at a time as it reaches later groups, and
        each growth must cost what its new primaries cost, not what the whole plan does."""
        sampler = self.sampler
        demos = self.key.demos_per_task
        history, open_rows, encoded = self._state or (np.zeros((0, 5), dtype=np.int64),
                                                      np.ones(len(sampler), dtype=bool), 0)
        if len(history) < rows:  # grown by doubling, so copies cost O(N) over a whole run
            grown = np.zeros((max(rows, 2 * len(history)), 5), dtype=np.int64)
            grown[: len(history)] = history
            history = grown
        for i in range(encoded, len(self.primaries)):
            task = self.primaries[i]
            history[i * demos:(i + 1) * demos] = sampler.encode([task])[0]
            open_rows[sampler.row(task)] = False
        self._state = (history, open_rows, len(self.primaries))
        return history, open_rows

    # ----------------------------------------------------------------------------------------
    # Groups of a run of N trials

    def group_count(self, n: int) -> int:
        """The groups a run of N trials has (fewer than N/D when the space ran out)."""
        return min(groups_for(n, self.key.demos_per_task), len(self.primaries))

    def group_size(self, group: int, n: int) -> int:
        """How many trials group ``group`` of a run of N trials holds."""
        demos = self.key.demos_per_task
        return max(0, min(demos, int(n) - group * demos))

    def shard_groups(self, n: int, shard: tuple[int, int]) -> list[int]:
        """The groups shard ``(I, M)`` owns: every M-th, starting at I."""
        index, count = shard
        return list(range(index, self.group_count(n), count))

    def shard_share(self, n: int, shard: tuple[int, int]) -> int:
        """How many of N trials are the shard's: those of the groups it would own if the task space
        never ran out (what it is asked to make)."""
        index, count = shard
        return sum(self.group_size(g, n) for g in range(index, groups_for(n, self.key.demos_per_task), count))

    # ----------------------------------------------------------------------------------------
    # Replacements

    def replacement(self, group: int, tried: Sequence[TaskTuple]) -> TaskTuple | None:
        """The next tuple of group ``group`` after the tuples ``tried`` in it (its primary first)
        failed; None when no tuple is left to try.

        Active balancing over the tuples that are no primary of the groups up to ``group`` +
        :data:`LOOKAHEAD` (nor tried here); the first :data:`SAME_TYPE_REPLACEMENTS` of the
        primary's task type when there is one: the task types are the slot whose balance matters
        most, and the plan balanced them already. The
        history is those primaries and the tuples tried here, so that successive tries spread out.
        Everything here depends on the group and its own failures, never on N or on other groups'
        outcomes. In a task space the lookahead has used up, a later group's primary is taken (that
        tuple then gets trials of both groups).
        After :data:`MAX_REPLACEMENTS` replacements the group stays short.
        """
        if len(tried) > MAX_REPLACEMENTS:
            return None
        sampler = self.sampler
        demos = self.key.demos_per_task
        ahead = self.primaries[: group + 1 + LOOKAHEAD]
        failed = set(tried)
        # The tuples tried here count as used, so that the next try looks elsewhere (another scene,
        # another object) rather than next to what just failed.
        history = sampler.encode([t for t in [*ahead, *tried[1:]] for _ in range(demos)])
        seed = derive_int("replace", self.key.seed, group, len(tried))
        same_type = sampler.rows_of_task_type(self.primaries[group].task_type)
        keep_type = len(tried) <= SAME_TYPE_REPLACEMENTS
        for excluded in (set(ahead) | failed, set(self.primaries[: group + 1]) | failed):
            open_rows = np.ones(len(sampler), dtype=bool)
            open_rows[[sampler.row(t) for t in excluded]] = False
            for rows in ((open_rows & same_type, open_rows) if keep_type else (open_rows,)):
                if rows.any():
                    return sampler.sample_open(history, rows, seed)
        return None

    # ----------------------------------------------------------------------------------------
    # Saving

    def to_json(self) -> dict[str, Any]:
        """What is saved: the key, the space and the primaries as task directory names."""
        return {
            "format": PLAN_FORMAT,
            "key": asdict(self.key),
            "complete": self.complete,
            "primaries": [t.dir_name() for t in self.primaries],
            "space": self._space_names if self._space is None else self._space_dir_names(self._space),
        }

    def _space_dir_names(self, space: list[TaskTuple]) -> list[str]:
        """The directory names of the space (tens of thousands): worked out once, as a run saves its
        plan more than once and the space never changes."""
        if self._names_of_space is None:
            self._names_of_space = [t.dir_name() for t in space]
        return self._names_of_space

    @staticmethod
    def from_json(data: Any, key: PlanKey) -> DatasetPlan | None:
        """The plan saved as :meth:`to_json`, or None if it is not one for ``key`` (or is damaged)."""
        try:
            same_key = json.loads(json.dumps(data["key"])) == json.loads(json.dumps(asdict(key)))
            if data["format"] != PLAN_FORMAT or not same_key:
                return None
            names = [str(name) for name in data["space"]]
            primary_names = [str(name) for name in data["primaries"]]
            complete = data["complete"]
        except (KeyError, TypeError, ValueError):
            return None
        primaries = [TaskTuple.from_dir_name(name) for name in primary_names]
        if None in primaries or not isinstance(complete, bool):
            return None
        if len(set(primary_names)) != len(primary_names) or not set(names).issuperset(primary_names):
            return None
        return DatasetPlan(key, (), [t for t in primaries if t], complete, space_names=names)
