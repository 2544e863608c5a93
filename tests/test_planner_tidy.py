"""Plan tidying (alfred_gen.planner.postprocess): raw search plans lose pointless detours, and what
comes out is still a valid plan, checked by the independent validator."""

from __future__ import annotations

import pytest
from pyperplan.pddl.parser import Parser

from alfred_gen.planner.domain import domain_text
from alfred_gen.planner.grounding import GroundTask, ground_text, parse_domain
from alfred_gen.planner.postprocess import tidy_plan
from alfred_gen.planner.solve import solve_files
from alfred_gen.planner.validate import check_on_task, validate_plan

# An apple in a bowl on the counter (at l1) must end up on the table (at l2, with a shelf); the
# agent starts at l0.
PROBLEM = """
(define (problem tidy)
  (:domain alfred-household)
  (:objects l0 l1 l2 - location
            counter table shelf - fixed
            apple - item
            bowl - mover
            c_apple c_table - class)
  (:init (atLocation l0) (handEmpty)
         (fixedAt counter l1) (fixedAt table l2) (fixedAt shelf l2)
         (isOpen counter) (isOpen table) (isOpen shelf)
         (canContain counter apple) (canContain table apple) (canContain shelf apple) (canContain bowl apple)
         (inReceptacle apple bowl) (inReceptacle bowl counter) (isWhole apple)
         (isType apple c_apple) (isType table c_table)
         (task_pick_and_place_simple c_apple c_table))
  (:goal (goalReached)))
"""

GOAL = "(goal_pick_and_place_simple apple table c_apple c_table)"


def _task() -> GroundTask:
    return ground_text(domain_text(), PROBLEM)


def _ops(task: GroundTask, names: list[str]) -> list[int]:
    index = {name: op for op, name in enumerate(task.operators)}
    return [index[name] for name in names]


def _names(task: GroundTask, plan: list[int]) -> list[str]:
    return [task.operator_name(op) for op in plan]


def _assert_tidied_to_direct(task: GroundTask, raw: list[int]) -> None:
    assert check_on_task(task, raw).ok
    tidy = tidy_plan(task, raw)
    assert _names(task, tidy) == DIRECT
    assert validate_plan(task.problem, _names(task, tidy)).ok


DIRECT = [
    "(gotolocation l0 l1)",
    "(pickupobjectfrommovable apple bowl counter l1)",
    "(gotolocation l1 l2)",
    "(putobject apple table l2)",
    GOAL,
]


def test_a_pointless_put_down_and_pick_up_again_is_dropped() -> None:
    task = _task()
    raw = _ops(task, [
        "(gotolocation l0 l1)",
        "(pickupobjectfrommovable apple bowl counter l1)",
        "(gotolocation l1 l2)",
        "(putobject apple shelf l2)",
        "(pickupobject apple shelf l2)",  # put down, picked up again: pointless
        "(putobject apple table l2)",
        GOAL,
    ])
    _assert_tidied_to_direct(task, raw)


def test_a_pointless_carry_and_detour_are_dropped() -> None:
    task = _task()
    raw = _ops(task, [
        "(gotolocation l0 l1)",
        "(pickupobjectfrommovable apple bowl counter l1)",
        "(putobjectinmovable apple bowl counter l1)",  # picked up and put back: pointless
        "(pickupobjectfrommovable apple bowl counter l1)",
        "(gotolocation l1 l0)",  # a detour
        "(gotolocation l0 l2)",
        "(putobject apple table l2)",
        GOAL,
    ])
    _assert_tidied_to_direct(task, raw)


def test_a_plan_with_nothing_to_tidy_is_kept() -> None:
    task = _task()
    direct = _ops(task, DIRECT)
    assert tidy_plan(task, direct) == direct


def test_the_task_check_reports_the_first_unmet_precondition_and_the_goal() -> None:
    task = _task()
    wrong = _ops(task, ["(gotolocation l0 l2)", "(pickupobjectfrommovable apple bowl counter l1)"])
    check = check_on_task(task, wrong)
    assert not check.ok and "step 2" in check.message and "(atlocation l1)" in check.message
    short = check_on_task(task, _ops(task, DIRECT[:-1]))
    assert not short.ok and "goal not reached" in short.message and "(goalreached)" in short.message
    assert len(short.states) == len(DIRECT)  # the start state and one per step


def test_solve_files_reads_a_changed_domain_again(tmp_path) -> None:
    """The domain file is kept between problems, but a changed file is read again."""
    domain = tmp_path / "domain.pddl"
    problem = tmp_path / "problem.pddl"
    domain.write_text(domain_text())
    problem.write_text(PROBLEM)
    first = solve_files(domain, problem)
    assert first.solved and first.operators[-1] == GOAL
    # Names written by hand are not alfred-gen's: the plan stands, without ALFRED steps.
    assert first.plan == [] and "not alfred-gen's" in first.reason
    # The same domain without its PickupObjectFromMovable action: the apple stays in the bowl.
    start = domain_text().index("(:action PickupObjectFromMovable")
    end = domain_text().index("(:action", start + 1)
    domain.write_text(domain_text()[:start] + domain_text()[end:])
    again = solve_files(domain, problem)
    assert again.status == "unsolvable"
    missing = solve_files(domain, tmp_path / "missing.pddl")
    assert missing.status == "error" and "missing.pddl" in missing.reason


def test_a_malformed_problem_is_reported_with_pyperplans_parse_error(tmp_path) -> None:
    """The fast problem reader hands anything it does not read to pyperplan's parser, whose message
    the result carries, even for a type that is a list instead of a name."""
    bad = PROBLEM.replace("apple - item", "apple - (item)")
    parser = Parser(None)
    parser.probInput = bad
    with pytest.raises(Exception) as raised:
        parser.parse_problem(parse_domain(domain_text()), read_from_file=False)
    (tmp_path / "domain.pddl").write_text(domain_text())
    (tmp_path / "problem.pddl").write_text(bad)
    result = solve_files(tmp_path / "domain.pddl", tmp_path / "problem.pddl")
    assert result.status == "error" and str(raised.value) in result.reason


def test_solve_files_reads_windows_line_ends_and_refuses_non_utf8(tmp_path) -> None:
    """The problem file is read as bytes and decoded: CRLF line ends and comments plan as LF
    does; a file that is not UTF-8 is an error, not an exception."""
    (tmp_path / "domain.pddl").write_text(domain_text())
    crlf = tmp_path / "crlf.pddl"
    crlf.write_bytes(("; written on Windows\n" + PROBLEM).replace("\n", "\r\n").encode())
    result = solve_files(tmp_path / "domain.pddl", crlf)
    assert result.solved and result.operators[-1] == GOAL
    latin = tmp_path / "latin.pddl"
    latin.write_bytes(PROBLEM.replace("tidy", "caf\xe9").encode("latin-1"))
    refused = solve_files(tmp_path / "domain.pddl", latin)
    assert refused.status == "error" and "cannot read the problem" in refused.reason
