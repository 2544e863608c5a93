"""The schedule: which jobs to start, decided per group of the plan from that group's results alone.

What job j *is* comes from the plan (:mod:`~alfred_gen.sample.plan`); the schedule only says which
of those jobs are needed now. Who runs them (a worker process, this process, a machine elsewhere)
is the executor's business (:mod:`~alfred_gen.sample.workers`), so the schedule never looks at
workers, timing or arrival order.

The chain rule for one tuple of a group: its attempts 0, 1, 2, ... are taken in order and the
chain ends with the first prefix that holds ``need`` successes or ``max_failures`` failures; its
trials are that prefix's successes, and a failed chain hands the slots still empty to the group's
next tuple. A job is started only when it is sure to lie in the prefix whatever the running ones
give: with s successes, f failures and p jobs running before attempt a, a starts only if
``s + p < need`` and ``f + p < max_failures``. So no job runs whose trial the group would not keep,
up to ``need`` jobs of one group run at once, and the prefix (hence the dataset) is the same in
whichever order the results come back.

A worker that dies on a job (killed, out of memory) is never the job's verdict: whether a worker
dies depends on the machine, not on (seed, N), so the job simply runs again, as often as it takes.
Only a job that has killed :data:`MAX_JOB_CRASHES` workers stops the *run* (:class:`JobKeepsCrashing`,
a one-line error): nothing is recorded about the tuple, so the same command continues the very
dataset once the cause (memory, a killer) is gone.

A job whose pipeline raised (a bug in alfred-gen, or the machine: a MemoryError, too many open
files) is no verdict either: counting it as a failed attempt put the tuple's next attempt in the
tree in its place, so the run ended with exit 0 and a tree an uninterrupted run does not make (and
a resumed run, which the ledger does not tell of the exception, would make the attempt after all
and leave one trial too many).
Such a job runs again, up to :data:`MAX_JOB_EXCEPTIONS` tries; then its group stops for this run
with its slots still empty (:meth:`Schedule.left_open`, counted in the summary, exit 1) and keeps
the trials it made, which lie in its prefix whatever that job gives; the same command tries the
job again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from enum import Enum

from alfred_gen.errors import ExitCode, JobError, UserError
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.ledger import Ledger, succeeded
from alfred_gen.sample.plan import LOOKAHEAD, DatasetPlan, groups_for
from alfred_gen.sample.trial_ids import spawn_seed, trial_id

#: Groups the plan grows by beyond what the schedule needs, when it must grow (each growth pays
#: a fixed cost, so it is not done group by group).
GROW_GROUPS = 32

#: Workers one job may take down with it before the run stops (README: "sample: what to expect").
#: Large on purpose: a job is run again after each death, and never recorded as a failure.
MAX_JOB_CRASHES = 50

#: Tries of one job whose pipeline raises before its group stops for this run, slots left empty
#: (module docstring): a second and third try get past a passing cause, a bug raises every time.
MAX_JOB_EXCEPTIONS = 3


class JobKeepsCrashing(UserError):
    """One job killed :data:`MAX_JOB_CRASHES` workers: the run stops (finished work is kept)."""

    def __init__(self, job: Job, detail: str) -> None:
        super().__init__(
            f"stopped: the job for {job.task.dir_name()} ({job.trial_id}) took down its worker "
            f"{MAX_JOB_CRASHES} times (last: {detail}); finished trajectories are kept: free memory "
            "or stop what kills the workers, then run the same command to continue",
            ExitCode.FAILED,
        )


class ChainState(Enum):
    RUNNING = "running"  #: results are still needed (or jobs are running)
    FILLED = "filled"  #: the chain's slots are filled
    FAILED = "failed"  #: the tuple spent its failures with slots still empty


@dataclass
class Walk:
    """Where a chain stands: attempts to start now, successes so far, failures, state."""

    start: list[int]
    successes: list[int]
    failures: int
    state: ChainState


def walk_chain(outcome_of: Callable[[int], bool | None], running: Collection[int], need: int,
               max_failures: int) -> Walk:
    """Apply the chain rule (module docstring) to the known outcomes and the running attempts."""
    successes: list[int] = []
    failures = pending = 0
    start: list[int] = []
    attempt = 0
    while True:
        if len(successes) >= need or failures >= max_failures:
            final = ChainState.FILLED if len(successes) >= need else ChainState.FAILED
            return Walk(start, successes, failures, final if pending == 0 else ChainState.RUNNING)
        known = outcome_of(attempt)
        if known is True:
            successes.append(attempt)
        elif known is False:
            failures += 1
        elif attempt in running:
            pending += 1
        elif len(successes) + pending < need and failures + pending < max_failures:
            start.append(attempt)
            pending += 1
        else:
            return Walk(start, successes, failures, ChainState.RUNNING)
        attempt += 1


@dataclass
class _Chain:
    """One tuple's attempts within a group (link 0: the primary; then the replacements, whose trial
    ids and spawn seeds are salted with the group and link)."""

    task: TaskTuple
    link: int
    need: int
    salt: str = ""
    results: dict[int, bool] = field(default_factory=dict)  #: this run's results
    running: set[int] = field(default_factory=set)
    crashes: Counter = field(default_factory=Counter)
    raised: Counter = field(default_factory=Counter)  #: attempt -> tries whose pipeline raised
    names: dict[int, tuple[int, str]] = field(default_factory=dict)  #: attempt -> (spawn seed, trial id)


@dataclass
class _Group:
    index: int
    size: int
    chains: list[_Chain]
    finished: bool = False
    reached: bool = False  #: the schedule has looked at the group (its trials on disk are checked)
    short: int = 0  #: slots left empty because the group's reserve ran out
    raised_out: bool = False  #: stopped for this run: a job kept raising (MAX_JOB_EXCEPTIONS)


class Schedule:
    """The jobs of one shard of a run, group by group (lowest group first)."""

    def __init__(self, plan: DatasetPlan, n: int, groups: Sequence[int], ledger: Ledger, max_failures: int,
                 on_grow: Callable[[], None] = lambda: None) -> None:
        """``groups``: the shard's groups of a run of ``n`` trials, as if the task space never ran
        out (``range(I, groups_for(n, D), M)``). The plan is grown as the schedule reaches later
        groups (``on_grow`` is called after each growth), so the first job of a large N starts
        after a few dozen primaries are planned, not all of them."""
        self.plan = plan
        self.n = n
        self.ledger = ledger
        self.max_failures = max_failures
        self.on_grow = on_grow
        self.seed = plan.key.seed
        self.scene_set = plan.key.scene_set
        self._groups: dict[int, _Group] = {}
        self._open = list(groups)
        self._next_index = 0
        #: the trials the shard's groups hold; less a group's size when the task space ran out before it
        self.target = sum(plan.group_size(g, n) for g in groups)
        self._plan_end = groups_for(n, plan.key.demos_per_task) + LOOKAHEAD  #: primaries a whole run needs
        self.started: set[str] = set()  #: trial ids of the jobs started (their temp dirs are ours)

    def _group(self, g: int) -> _Group | None:
        """Group g, its primary planned (and the LOOKAHEAD primaries its replacements avoid); None
        when the task space ran out before it (no such group)."""
        group = self._groups.get(g)
        if group is None:
            if len(self.plan.primaries) < min(g + 1 + LOOKAHEAD, self._plan_end):
                if self.plan.extend(min(g + 1 + LOOKAHEAD + GROW_GROUPS, self._plan_end)):
                    self.on_grow()
            if g >= len(self.plan.primaries):
                return None
            size = self.plan.group_size(g, self.n)
            group = self._groups[g] = _Group(g, size, [_Chain(self.plan.primaries[g], 0, size)])
        return group

    def complete_plan(self) -> bool:
        """Grow the plan to what the whole run needs (cheap once the last groups were reached), so a
        finished run leaves the same plan however it was split; True if it grew."""
        return self.plan.extend(self._plan_end)

    # ----------------------------------------------------------------------------------------

    def _names(self, chain: _Chain, attempt: int) -> tuple[int, str]:
        """(spawn seed, trial id) of an attempt of a chain."""
        found = chain.names.get(attempt)
        if found is None:
            found = chain.names[attempt] = (spawn_seed(self.seed, chain.task, attempt, chain.salt),
                                            trial_id(self.seed, chain.task, attempt, self.scene_set, chain.salt))
        return found

    def _walk(self, chain: _Chain) -> Walk:
        def outcome_of(attempt: int) -> bool | None:
            if attempt in chain.results:
                return chain.results[attempt]
            spawn, name = self._names(chain, attempt)
            return self.ledger.known(chain.task, name, spawn)

        return walk_chain(outcome_of, chain.running, chain.need, self.max_failures)

    def _job(self, group: _Group, chain: _Chain, attempt: int) -> Job:
        self._next_index += 1
        spawn, name = self._names(chain, attempt)
        self.started.add(name)
        return Job(self._next_index - 1, group.index, chain.link, chain.task, attempt, spawn, name)

    def _advance(self, group: _Group, free: int) -> list[Job]:
        """Start what the group's current chain allows; move to a replacement when it failed."""
        group.reached = True
        if group.finished:  # stopped since the last call (:meth:`apply`: a job kept raising)
            return []
        while True:
            chain = group.chains[-1]
            walk = self._walk(chain)
            if walk.state == ChainState.RUNNING:
                jobs = [self._job(group, chain, attempt) for attempt in walk.start[:free]]
                chain.running.update(job.attempt for job in jobs)
                return jobs
            if walk.state == ChainState.FILLED:
                group.finished = True
                return []
            empty = chain.need - len(walk.successes)
            tried = [c.task for c in group.chains]
            replacement = self.plan.replacement(group.index, tried)
            if replacement is None:
                group.finished, group.short = True, empty
                return []
            link = chain.link + 1
            group.chains.append(_Chain(replacement, link, empty, salt=f"g{group.index}r{link}"))

    def next_jobs(self, free: int) -> list[Job]:
        """Up to ``free`` jobs to start now, from the lowest groups that need any."""
        jobs: list[Job] = []
        missing: set[int] = set()
        for g in self._open:
            if len(jobs) >= free:
                break
            group = self._group(g)
            if group is None:  # the task space ran out: this and every later group do not exist
                missing.update(g2 for g2 in self._open if g2 >= g)
                self.target -= sum(self.plan.group_size(g2, self.n) for g2 in missing)
                break
            jobs.extend(self._advance(group, free - len(jobs)))
        self._open = [g for g in self._open
                      if g not in missing and not (g in self._groups and self._groups[g].finished)]
        return jobs

    def apply(self, job: Job, outcome: Outcome) -> None:
        """Take a job's result. A worker's death is never a result: the job will be started again
        (JobKeepsCrashing once it has killed MAX_JOB_CRASHES workers); nor is an exception: the
        job is started again, and its group stops for this run after MAX_JOB_EXCEPTIONS tries."""
        group = self._groups[job.group]
        chain = group.chains[job.link]
        chain.running.discard(job.attempt)
        if outcome.reason == JobError.CRASHED:
            chain.crashes[job.attempt] += 1
            if chain.crashes[job.attempt] >= MAX_JOB_CRASHES:
                raise JobKeepsCrashing(job, outcome.detail)
            return
        if outcome.reason == JobError.EXCEPTION:
            chain.raised[job.attempt] += 1
            if chain.raised[job.attempt] >= MAX_JOB_EXCEPTIONS:
                group.finished = group.raised_out = True
            return
        chain.results[job.attempt] = succeeded(outcome)
        self.ledger.apply(job, outcome)

    # ----------------------------------------------------------------------------------------

    def finished(self) -> bool:
        """Every group is filled or has spent its reserve (call after :meth:`next_jobs`)."""
        return not self._open

    def _reached(self) -> list[_Group]:
        # Groups never looked at (a run stopped early) are not checked now: that would read every
        # trial on disk while the user waits for Ctrl-C to take effect.
        return [group for group in self._groups.values() if group.reached]

    def made(self) -> int:
        """Trials of this shard's plan in the tree, in the groups looked at: every finished chain's,
        plus the successes of running chains as far as known."""
        return len(self.trials())

    def trials(self) -> list[str]:
        """Trial ids of every trial the shard's groups looked at keep, as far as known."""
        found: list[str] = []
        for group in self._reached():
            for chain in group.chains:
                found.extend(self._names(chain, attempt)[1] for attempt in self._walk(chain).successes)
        return found

    def failed_tuples(self) -> int:
        """Tuples that spent their failures without making a trial."""
        count = 0
        for group in self._reached():
            for chain in group.chains:
                walk = self._walk(chain)
                count += walk.state == ChainState.FAILED and not walk.successes
        return count

    def short(self) -> int:
        """Slots left empty because a group's tuples all failed and its reserve was spent."""
        return sum(group.short for group in self._groups.values())

    def left_open(self) -> int:
        """Slots of the groups stopped for this run because a job kept raising (module docstring),
        less the trials those groups made."""
        count = 0
        for group in self._groups.values():
            if group.raised_out:
                kept = sum(len(self._walk(chain).successes) for chain in group.chains)
                count += max(0, group.size - kept)
        return count
