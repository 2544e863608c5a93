"""The planner's entry points: PDDL text (or an encoded problem) in, a validated PlanResult out.

Pipeline: quick unsolvability verdict from the encoder -> parse (pyperplan's parser) -> ground
(:mod:`alfred_gen.planner.grounding`) -> search (FF by default) -> validate the plan on the grounded
task -> read it back as ALFRED steps with THOR ids. A plan that fails validation is never returned:
the result is then an ``error`` (a bug in the planner, reported with the reason).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from alfred_gen.errors import ExitCode, PlanStatus, UserError
from alfred_gen.planner import names
from alfred_gen.planner.grounding import GroundTask, ground_text
from alfred_gen.planner.heuristic import HEURISTICS
from alfred_gen.planner.postprocess import tidy_plan
from alfred_gen.planner.result import PlanResult, steps_of
from alfred_gen.planner.search import SEARCHES, SearchTimeout
from alfred_gen.planner.validate import check_on_task

if TYPE_CHECKING:  # the encoder (and the scene code it imports) is not needed to plan from files
    from alfred_gen.planner.encode import EncodedProblem

#: Default time limit of one planner call, in seconds.
DEFAULT_TIME_LIMIT = 30.0

#: The largest time limit taken (a day): more is a typo, and would overflow the clock arithmetic.
MAX_TIME_LIMIT = 86400.0


def check_time_limit(time_limit: float | None) -> None:
    """UserError USAGE unless ``time_limit`` is None or a number of seconds in (0, a day]:
    NaN would never time out and a negative limit always would."""
    if time_limit is None:
        return
    if not (isinstance(time_limit, (int, float)) and 0 < time_limit <= MAX_TIME_LIMIT):
        raise UserError(f"--time-limit must be a number of seconds above 0 and at most {MAX_TIME_LIMIT:g}, "
                        f"got {time_limit}", ExitCode.USAGE)


def solve_task(
    task: GroundTask,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    search: str = "ff",
    heuristic: str = "hff",
    thor_id: Callable[[str], str] = names.object_id,
    pose: Callable[[str], list[float]] = names.pose_of_location,
    started: float | None = None,
    tidy: bool = True,
) -> PlanResult:
    """Search a grounded task, tidy the plan (:mod:`alfred_gen.planner.postprocess`), check it on
    the grounded task (:func:`~alfred_gen.planner.validate.check_on_task`) and read it as ALFRED
    steps."""
    started = time.perf_counter() if started is None else started
    deadline = None if time_limit is None else started + time_limit
    if search not in SEARCHES:
        raise ValueError(f"unknown search {search!r} (known: {', '.join(SEARCHES)})")
    if heuristic not in HEURISTICS:
        raise ValueError(f"unknown heuristic {heuristic!r} (known: {', '.join(HEURISTICS)})")
    try:
        outcome = SEARCHES[search](task, HEURISTICS[heuristic](task), deadline)
    except SearchTimeout:
        return PlanResult(
            PlanStatus.TIMEOUT, reason=f"no plan found within {time_limit:g} s", time=time.perf_counter() - started
        )
    if outcome.plan is None:
        if outcome.exhausted:
            why = "the goal cannot be reached from the start state"
            status = PlanStatus.UNSOLVABLE
        else:
            why = "; ".join(outcome.notes) or "search failed"
            status = PlanStatus.ERROR
        return PlanResult(
            status, reason=why, expanded=outcome.expanded, time=time.perf_counter() - started, search=outcome.search
        )
    plan = tidy_plan(task, outcome.plan) if tidy else outcome.plan
    operators = [task.operator_name(op) for op in plan]
    check = check_on_task(task, plan)
    if not check.ok:
        return PlanResult(
            PlanStatus.ERROR,
            reason=f"planner bug: plan failed validation: {check.message}",
            expanded=outcome.expanded,
            time=time.perf_counter() - started,
            operators=operators,
            search=outcome.search,
        )
    states = [task.state_view(state) for state in check.states]
    reason = ""
    try:
        readings = [(task.schema[op], task.args[op], text) for op, text in zip(plan, operators)]
        steps = steps_of(readings, thor_id, pose, states)
    except ValueError as error:  # a problem written by hand or by another tool
        steps, reason = [], f"no ALFRED steps: the plan's names are not alfred-gen's ({error})"
    return PlanResult(
        PlanStatus.SOLVED,
        plan=steps,
        reason=reason,
        expanded=outcome.expanded,
        time=time.perf_counter() - started,
        operators=operators,
        search=outcome.search,
    )


def solve_pddl(
    domain_text: str,
    problem_text: str,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    search: str = "ff",
    heuristic: str = "hff",
    thor_id: Callable[[str], str] = names.object_id,
    pose: Callable[[str], list[float]] = names.pose_of_location,
) -> PlanResult:
    """Plan for a PDDL domain and problem given as text (end to end: parse, ground, search)."""
    started = time.perf_counter()
    try:
        task = ground_text(domain_text, problem_text)
    except Exception as error:  # pyperplan raises plain exceptions on bad PDDL
        return PlanResult(
            PlanStatus.ERROR, reason=f"cannot parse or ground the problem: {error}", time=time.perf_counter() - started
        )
    return solve_task(task, time_limit, search, heuristic, thor_id, pose, started)


def solve_files(
    domain_file: str | os.PathLike[str],
    problem_file: str | os.PathLike[str],
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    search: str = "ff",
    heuristic: str = "hff",
) -> PlanResult:
    """Plan for a PDDL domain file and problem file (end to end: read, parse, ground, search).

    Many problems share one domain file: its text is read again only when the file changes (its
    size, modification time or inode), as the generator keeps one domain text for all its
    problems; the parsed domain is cached by that text (:func:`~alfred_gen.planner.grounding.parse_domain`).
    """
    started = time.perf_counter()
    try:
        domain_text = _domain_text(os.fspath(domain_file))
        with open(problem_file, "rb", buffering=0) as file:  # one read; a third faster than text mode
            problem_text = file.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return PlanResult(
            PlanStatus.ERROR, reason=f"cannot read the problem: {error}", time=time.perf_counter() - started
        )
    result = solve_pddl(domain_text, problem_text, time_limit, search, heuristic)
    result.time = time.perf_counter() - started
    return result


_DOMAIN_TEXTS: dict[str, tuple[tuple[int, int, int], str]] = {}


def _domain_text(path: str) -> str:
    """The text of a domain file, read again only when its size, mtime or inode changed."""
    stat = os.stat(path)
    signature = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
    cached = _DOMAIN_TEXTS.get(path)
    if cached is not None and cached[0] == signature:
        return cached[1]
    with open(path, encoding="utf-8") as file:
        text = file.read()
    _DOMAIN_TEXTS[path] = (signature, text)
    return text


def solve(
    encoded: EncodedProblem,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    search: str = "ff",
    heuristic: str = "hff",
) -> PlanResult:
    """Plan for an encoded task; the encoder's quick verdict short-cuts the search."""
    started = time.perf_counter()
    if encoded.unsolvable_reason:
        return PlanResult(PlanStatus.UNSOLVABLE, reason=encoded.unsolvable_reason, time=time.perf_counter() - started)
    result = solve_pddl(
        encoded.domain_text, encoded.problem_text, time_limit, search, heuristic, encoded.thor_id, encoded.pose
    )
    result.time = time.perf_counter() - started
    return result
