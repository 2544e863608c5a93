"""Grounding through compiled binders (alfred_gen.planner.binder) gives exactly the operators of
stock pyperplan's grounding that can ever apply, on a domain written to stress the binders and on
problems of the procedural scenes."""

from __future__ import annotations

import pytest
from pyperplan import grounding as stock_grounding
from pyperplan.pddl.parser import Parser

from alfred_gen.domains.tasks import make_task
from alfred_gen.planner.binder import MAX_PARAMETERS, binder_source
from alfred_gen.planner.encode import encode_problem
from alfred_gen.planner.grounding import bits, compile_domain, ground_text, parse_domain
from alfred_gen.planner.solve import solve_pddl
from tests.helpers.planner_scenes import bathroom, kitchen, living_room

# Names that are no Python identifiers (hyphens, a keyword, a builtin), a domain constant inside
# atoms, an action over a supertype, a static atom with a repeated variable (checked only once all
# parameters are bound), a static atom over constants only, atoms without arguments, an action
# without parameters and one whose static precondition no fact satisfies.
DOMAIN = """
(define (domain binder-stress)
  (:requirements :strips :typing)
  (:types place thing - object  box - thing)
  (:constants hub - place)
  (:predicates (at-agent ?p - place) (road ?a - place ?b - place) (lies ?t - thing ?p - place)
               (held ?t - thing) (free) (is-open ?b - box) (same ?a - place ?b - place)
               (class ?t - thing) (lamp-on) (power-ok) (never ?p - place))
  (:action move-to
    :parameters (?from - place ?to - place)
    :precondition (and (at-agent ?from) (road ?from ?to))
    :effect (and (at-agent ?to) (not (at-agent ?from))))
  (:action take
    :parameters (?t - thing ?p - place)
    :precondition (and (at-agent ?p) (lies ?t ?p) (free))
    :effect (and (held ?t) (not (lies ?t ?p)) (not (free))))
  (:action drop-at-hub
    :parameters (?t - thing)
    :precondition (and (at-agent hub) (held ?t) (road hub hub))
    :effect (and (lies ?t hub) (free) (not (held ?t))))
  (:action open
    :parameters (?b - box ?p - place)
    :precondition (and (at-agent ?p) (lies ?b ?p) (class ?b) (same ?p ?p))
    :effect (and (is-open ?b)))
  (:action def
    :parameters ()
    :precondition (and (power-ok))
    :effect (and (lamp-on)))
  (:action nowhere
    :parameters (?p - place)
    :precondition (and (never ?p) (at-agent ?p))
    :effect (and (lamp-on))))
"""

PROBLEM = """
(define (problem stress)
  (:domain binder-stress)
  (:objects a b c - place  key - thing  crate chest tin - box)
  (:init (at-agent a) (free) (power-ok)
         (road a b) (road b a) (road b hub) (road hub b) (road hub hub) (road c a)
         (lies key b) (lies crate hub) (lies chest c) (lies tin b)
         (class crate) (class chest) (class tin) (same hub hub) (same c c) (same b c) (same c b))
  (:goal (and (lamp-on) (is-open crate) (lies key hub))))
"""


def _stock_reachable(domain_text: str, problem_text: str) -> dict[str, tuple[set, set, set]]:
    """pyperplan's grounding (without its backward relevance pruning), keeping the operators that
    change something and can ever apply (forward relaxed reachability): name -> (pre, add, del)."""
    parser = Parser(None)
    parser.domInput = domain_text
    parser.probInput = problem_text
    problem = parser.parse_problem(parser.parse_domain(read_from_file=False), read_from_file=False)
    task = stock_grounding.ground(problem, remove_irrelevant_operators=False)
    operators = [op for op in task.operators if op.add_effects or op.del_effects]
    reached = set(task.initial_state)
    grown = True
    while grown:
        grown = False
        for op in operators:
            if op.preconditions <= reached and not op.add_effects <= reached:
                reached |= op.add_effects
                grown = True
    return {
        op.name: (set(op.preconditions), set(op.add_effects), set(op.del_effects))
        for op in operators
        if op.preconditions <= reached
    }


def _ours(domain_text: str, problem_text: str) -> dict[str, tuple[set, set, set]]:
    task = ground_text(domain_text, problem_text)

    def facts(mask: int) -> set[str]:
        return {task.facts[i] for i in bits(mask)}

    return {
        task.operator_name(op): (facts(task.pre_mask[op]), facts(task.add_mask[op]), facts(task.del_mask[op]))
        for op in range(len(task.schema))
    }


def test_binders_ground_what_pyperplan_grounds_on_a_stress_domain() -> None:
    ours = _ours(DOMAIN, PROBLEM)
    assert ours == _stock_reachable(DOMAIN, PROBLEM)
    # the cases the domain was written for did occur
    assert "(drop-at-hub key)" in ours and "(def)" in ours
    assert "(open crate hub)" in ours and "(open chest c)" not in ours  # c is never reached
    assert "(take tin b)" in ours and "(open tin b)" not in ours  # (same b c), (same c b) but no (same b b)
    assert not any(name.startswith("(nowhere") for name in ours)


def test_a_binder_writes_domain_names_only_as_literals() -> None:
    schemas, _ = compile_domain(parse_domain(DOMAIN))
    source = binder_source(next(s for s in schemas if s.name == "move-to"))
    compile(source, "<test>", "exec")
    assert "'at-agent'" in source and "'road'" in source
    assert "at-agent =" not in source and "n_at" not in source


def _scene_problems():
    cases = [
        (kitchen, make_task("pick_heat_then_place_in_recep", "Apple", "CounterTop")),
        (kitchen, make_task("pick_cool_then_place_in_recep", "Tomato", "Microwave", object_sliced=True)),
        (kitchen, make_task("pick_and_place_with_movable_recep", "Apple", "DiningTable", "Pot", object_sliced=True)),
        (kitchen, make_task("pick_two_obj_and_place", "Mug", "Cabinet")),
        (living_room, make_task("look_at_obj_in_light", "RemoteControl", "", "", "DeskLamp")),
        (bathroom, make_task("pick_clean_then_place_in_recep", "Cloth", "BathtubBasin")),
    ]
    for scene, task in cases:
        metadata, poses, agent = scene()
        yield task.task_type, encode_problem(metadata, task, poses, agent)


@pytest.mark.parametrize("name,encoded", list(_scene_problems()), ids=lambda v: v if isinstance(v, str) else "")
def test_binders_ground_what_pyperplan_grounds_on_scene_problems(name, encoded) -> None:
    ours = _ours(encoded.domain_text, encoded.problem_text)
    assert ours and ours == _stock_reachable(encoded.domain_text, encoded.problem_text)


def test_an_action_with_too_many_parameters_is_an_error_with_a_reason() -> None:
    n = MAX_PARAMETERS + 1
    params = " ".join(f"?x{i} - place" for i in range(n))
    domain = f"""
(define (domain wide)
  (:requirements :strips :typing)
  (:types place - object)
  (:predicates (on ?p - place) (done))
  (:action wide :parameters ({params}) :precondition (and (on ?x0)) :effect (and (done))))
"""
    problem = "(define (problem w) (:domain wide) (:objects p - place) (:init (on p)) (:goal (and (done))))"
    result = solve_pddl(domain, problem)
    assert result.status == "error"
    assert f"at most {MAX_PARAMETERS}" in result.reason
