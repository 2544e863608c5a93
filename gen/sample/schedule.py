"""The deterministic rule that decides job k, whatever order results arrive in.

Job k is decided from a fixed prefix of results, jobs ``0 .. p-1`` with ``p >= k - window`` (waiting
for them if needed), counting the jobs in between as if they will succeed. Which prefix is used
depends only on results, never on when they came, so the same seed gives the same jobs, the same
trial ids and byte-identical trees. A job is only started while (trajectories made in the prefix) +
(jobs after it) < N, so even if every job in flight succeeds the target is never passed.
"""

from __future__ import annotations

from alfred_gen.errors import ScheduleVerdict
from alfred_gen.sample.jobs import Job, Outcome
from alfred_gen.sample.ledger import Ledger


def decide_job(k: int, jobs: list[Job], outcomes: dict[int, Outcome], ledger: Ledger, target: int, window: int,
               accounted: int) -> tuple[int, Job | ScheduleVerdict]:
    """Decide job ``k`` from the smallest usable prefix of results (see the module docstring).

    Returns the new accounted prefix and a Job, or a :class:`~alfred_gen.errors.ScheduleVerdict`:
    WAIT (a needed result is not back yet), DONE (the target is reached) or EXHAUSTED (no tuple left).
    """
    def advance() -> bool:
        nonlocal accounted
        if accounted not in outcomes:
            return False
        ledger.apply(jobs[accounted], outcomes[accounted])
        accounted += 1
        return True

    while accounted < k - window:
        if not advance():
            return accounted, ScheduleVerdict.WAIT
    while True:
        in_flight = k - accounted
        if ledger.made + in_flight >= target:
            if in_flight == 0:
                return accounted, ScheduleVerdict.DONE
            if not advance():
                return accounted, ScheduleVerdict.WAIT
            continue
        job = ledger.next_job(k, jobs[accounted:k])
        if job is not None:
            return accounted, job
        if in_flight == 0:
            return accounted, ScheduleVerdict.EXHAUSTED
        if not advance():
            return accounted, ScheduleVerdict.WAIT

