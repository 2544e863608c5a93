"""One ALFWorld game from one trajectory and its restored start state: the three files.

A game directory holds, as ALFWorld's own data does:

- ``traj_data.json``: the trajectory, byte for byte (ALFWorld reads ``task_type``, ``pddl_params``
  and, for human goals, ``turk_annotations``);
- ``initial_state.pddl``: the room and the goal (:mod:`.problem`);
- ``game.tw-pddl``: JSON ``{"pddl_domain", "grammar", "pddl_problem", "solvable", "walkthrough"}``:
  ALFWorld's domain, its grammar with ``UNKNOWN GOAL`` replaced by the task sentence, the problem,
  ``solvable`` true (the walkthrough is a solution), and our plan as ALFWorld commands.

The task sentence is one of ALFWorld's templates for the task type, filled in with the task's
classes in lower case, as ALFWorld's own generator writes it; where ALFWorld picks the template at
random, the export picks it from its seed and the trajectory's id, so a game is the same bytes for
the same seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from alfred_gen.domains.tasks import TaskSpec
from alfred_gen.export.alfworld.outcomes import ExportReason
from alfred_gen.export.alfworld.problem import escape, problem_text
from alfred_gen.export.alfworld.room import Box, Room, read_room, recorded_receptacles
from alfred_gen.export.alfworld.upstream import AlfworldRules, demangled_names
from alfred_gen.export.alfworld.walkthrough import NotExportable, walkthrough
from alfred_gen.sim.scene import hash_str

GAME_FILE = "game.tw-pddl"
PROBLEM_FILE = "initial_state.pddl"
#: What ALFWorld's grammar says where the game's task sentence goes.
GOAL_PLACEHOLDER = "UNKNOWN GOAL"


@dataclass(frozen=True)
class Game:
    """The files of one game (besides the trajectory itself) and its walkthrough."""

    problem: str
    game: str
    walkthrough: list[str]
    task_sentence: str


def task_of(traj: Mapping[str, Any]) -> TaskSpec:
    """The trajectory's task (``task_type`` plus ``pddl_params``)."""
    return TaskSpec.from_pddl_params(str(traj["task_type"]), dict(traj["pddl_params"]))


def check_task(task: TaskSpec, rules: AlfworldRules) -> None:
    """NotExportable if ALFWorld has no game for the task, whatever the room."""
    if task.task_type == "pick_and_place_with_movable_recep":
        raise NotExportable(ExportReason.MOVABLE_RECEPTACLE,
                            "ALFWorld's loader skips tasks with a movable receptacle")
    if task.object_sliced:
        raise NotExportable(ExportReason.SLICED, "ALFWorld's loader skips slice tasks")
    if task.task_type not in rules.task_types or task.task_type not in rules.goals:
        raise NotExportable(ExportReason.UNKNOWN_TASK, f"ALFWorld has no games of task type {task.task_type}")
    needed = [task.object_target] + ([task.toggle_target] if task.toggle_target else [])
    for cls in needed:
        if cls not in rules.object_classes:
            raise NotExportable(ExportReason.UNPLACEABLE, f"ALFWorld has no object class {cls}")
    if task.parent_target and task.parent_target not in rules.receptacle_classes:
        raise NotExportable(ExportReason.UNPLACEABLE, f"ALFWorld has no receptacle class {task.parent_target}")


def task_sentence(task: TaskSpec, rules: AlfworldRules, seed: int, trial: str) -> str:
    """One of ALFWorld's sentences for the task, chosen from ``seed`` and the trial id."""
    templates = list(rules.goals[task.task_type]["templates"])
    rng = random.Random(hash_str(f"alfred-gen alfworld task sentence {int(seed)} {trial}"))
    template = str(templates[rng.randrange(len(templates))])
    return template.format(obj=task.object_target.lower(), recep=task.parent_target.lower(),
                           toggle=task.toggle_target.lower(), mrecep=task.mrecep_target.lower())


def entity_ids(room: Room) -> list[str]:
    """Every entity of the problem that a fact names, as ALFWorld's engine holds it (lower case)."""
    names = [escape(oid) for oid in (*room.receptacles, *room.items)]
    names += [escape(location) for location in room.locations]
    return sorted(name.lower() for name in names)


def build_game(
    traj: Mapping[str, Any],
    metadata: Mapping[str, Any],
    poses: Mapping[str, Sequence[float]],
    agent_pose: Sequence[float],
    rules: AlfworldRules,
    seed: int = 0,
    boxes: Mapping[str, Box] | None = None,
) -> Game:
    """The game of ``traj`` whose start state is ``metadata`` (interaction ``poses`` of the room's
    receptacles, the agent at ``agent_pose``, ``boxes`` of its fixed things by id, see
    :func:`~alfred_gen.export.alfworld.room.read_room`). Raises :class:`NotExportable`."""
    task = task_of(traj)
    check_task(task, rules)
    room = read_room(metadata, poses, agent_pose, rules, recorded_receptacles(traj["plan"]["high_pddl"]), boxes)
    commands = walkthrough(traj["plan"]["high_pddl"], room, demangled_names(entity_ids(room)), rules)
    trial = str(traj.get("task_id", ""))
    problem = problem_text(room, task, rules, f"plan_{trial}")
    sentence = task_sentence(task, rules, seed, trial)
    game = {
        "pddl_domain": rules.domain,
        "grammar": rules.grammar.replace(GOAL_PLACEHOLDER, sentence),
        "pddl_problem": problem,
        "solvable": True,
        "walkthrough": commands,
    }
    return Game(problem, json.dumps(game) + "\n", commands, sentence)
