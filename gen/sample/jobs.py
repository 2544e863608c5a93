"""The messages between the deciding parent and the workers: a :class:`Job` out, an :class:`Outcome` back.

Both are small frozen dataclasses so they pickle cheaply to worker processes, and so the parent's
bookkeeping (ledger, schedule, loop) and the workers share one vocabulary without importing each
other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from alfred_gen.errors import GenerationReason, JobError
from alfred_gen.sample.feasibility import TaskTuple
from alfred_gen.sample.trial_check import Stamp

Generator = Callable[..., Any]


@dataclass(frozen=True)
class Job:
    """One attempt at a tuple: what a worker needs to generate (and where it will land).

    ``group`` and ``link`` say where the attempt sits in the plan (group g, its primary at link 0
    and its replacements after); ``index`` only pairs the job with its outcome within one run.
    The content of the trial depends on ``task``, ``seed`` and ``trial_id`` alone.
    """

    index: int
    group: int
    link: int
    task: TaskTuple
    attempt: int
    seed: int
    trial_id: str


@dataclass(frozen=True)
class Outcome:
    """A worker's answer for a job: ``reason`` is generate_trajectory's (OK or why not), or a
    :class:`~alfred_gen.errors.JobError` when the job ended before the generator could say."""

    index: int
    ok: bool
    reason: GenerationReason | JobError | str  # a stand-in generator may give its own words
    detail: str = ""
    code: int = 0  #: the exit code of a ``user_error``
    timings: tuple[tuple[str, float], ...] = ()  #: seconds per pipeline phase, if the generator says
    #: the made trial's stamp from the resume check, run by the worker on what it wrote (None: not stamped)
    stamp: Stamp | None = None

