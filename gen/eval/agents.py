"""Agents: the protocol ``eval`` drives, how ``--agent`` names one, and the built-in ones.

An agent is made by a *factory* (a callable without arguments) and has two methods::

    agent.reset(task_info)        # a new episode: task_info is a dict, see below
    action = agent.act(observation)

``task_info`` holds ``task_id``, ``task_type``, ``repeat_idx``, ``split``, ``path``, ``mode``,
``goal`` and ``instructions`` (the annotation's language) and ``traj_data`` (the whole file, as
ALFRED's evaluator hands its models the file; an agent under test reads only the language).
``observation`` is the environment's (:mod:`alfred_gen.env.alfred`); the action is one of the mode's
actions, ``{"action": "Stop"}`` ending the episode.

``--agent`` names a factory as ``module:attribute`` (``my_agents:make_agent``; the working directory
is on the import path) or one of the built-ins:

``expert``
    plays the file's own demonstration: in ``mask`` mode its discrete low actions with the recorded
    masks as predictions, in ``object_id`` mode its low actions' object ids, in ``high_level`` mode
    its ``high_pddl`` planner actions; then Stop. It scores what ``verify`` says of the files.
``random``
    uniform over the mode's actions, an interaction's mask a random rectangle; seeded by the
    episode, so the same run gives the same actions. It bounds the table from below.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from alfred_gen.env.actions import HIGH_ACTIONS, INTERACTIONS, LOW_ACTIONS
from alfred_gen.errors import ExitCode, UserError

#: Built-in agents by name.
BUILTIN = ("expert", "random")


class Agent(Protocol):
    def reset(self, task_info: Mapping[str, Any]) -> None: ...

    def act(self, observation: Mapping[str, Any]) -> Any: ...


AgentFactory = Callable[[], Agent]


class ExpertAgent:
    """The file's own demonstration through the mode's interface (see the module docstring)."""

    def __init__(self) -> None:
        self.queue: list[Any] = []

    def reset(self, task_info: Mapping[str, Any]) -> None:
        from alfred_gen.traj.rle import decode_mask

        traj = task_info["traj_data"]
        mode = task_info["mode"]
        plan = traj.get("plan") or {}
        self.queue = []
        if mode == "high_level":
            for high in plan.get("high_pddl") or ():
                planner = high.get("planner_action") or {}
                name = planner.get("action")
                if name not in HIGH_ACTIONS or name == "Stop":
                    continue
                action: dict[str, Any] = {"action": name}
                if name == "GotoLocation":
                    action["location"] = planner.get("location", "")
                elif name in ("HeatObject", "CoolObject", "CleanObject"):
                    action["receptacle_id"] = planner.get("objectId", "")
                elif name == "PutObject":
                    action["object_id"] = planner.get("objectId", "")
                    action["receptacle_id"] = planner.get("receptacleObjectId", "")
                else:
                    action["object_id"] = planner.get("objectId", "")
                self.queue.append(action)
        else:
            for low in plan.get("low_actions") or ():
                name = (low.get("discrete_action") or {}).get("action", "")
                args = (low.get("discrete_action") or {}).get("args") or {}
                api = low.get("api_action") or {}
                action = {"action": name}
                if name.split("_")[0] in INTERACTIONS:
                    if mode == "mask":
                        action["mask"] = decode_mask(args["mask"]) if "mask" in args else None
                    else:
                        action["object_id"] = api.get("receptacleObjectId") or api.get("objectId", "")
                self.queue.append(action)
        self.queue.append({"action": "Stop"})
        self.queue.reverse()

    def act(self, observation: Mapping[str, Any]) -> Any:
        return self.queue.pop() if self.queue else {"action": "Stop"}


class RandomAgent:
    """Uniform random actions, seeded by the episode (see the module docstring)."""

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.mode = "mask"

    def reset(self, task_info: Mapping[str, Any]) -> None:
        key = f"{task_info.get('task_id')}#{task_info.get('repeat_idx')}"
        self.rng = random.Random(zlib.crc32(key.encode()))
        self.mode = str(task_info.get("mode", "mask"))

    def act(self, observation: Mapping[str, Any]) -> Any:
        if self.mode == "high_level":
            return {"action": self.rng.choice(HIGH_ACTIONS[:-1])}
        name = self.rng.choice(LOW_ACTIONS)
        action: dict[str, Any] = {"action": name}
        if name in INTERACTIONS:
            mask = np.zeros((300, 300), bool)
            x, y = self.rng.randrange(280), self.rng.randrange(280)
            w, h = self.rng.randint(10, 300 - x), self.rng.randint(10, 300 - y)
            mask[y:y + h, x:x + w] = True
            action["mask"] = mask
            action["object_id"] = ""
        return action


class ActionSequenceAgent:
    """Plays an ALFRED leaderboard dump (``tests_actseqs_dump_*.json``): for the k-th episode of a
    task id, the k-th sequence of API actions recorded for it, then Stop."""

    def __init__(self, sequences: Mapping[str, list[list[Mapping[str, Any]]]]) -> None:
        self.sequences = sequences
        self.queue: list[Any] = []

    def reset(self, task_info: Mapping[str, Any]) -> None:
        runs = self.sequences.get(str(task_info.get("task_id")), [])
        index = int(task_info.get("occurrence", 0))
        actions = runs[index] if index < len(runs) else []
        self.queue = [_from_api(a) for a in actions] + [{"action": "Stop"}]
        self.queue.reverse()

    def act(self, observation: Mapping[str, Any]) -> Any:
        return self.queue.pop() if self.queue else {"action": "Stop"}


def _from_api(api: Mapping[str, Any]) -> dict[str, Any]:
    """An ALFRED API action (``to_thor_api_exec``'s output) as an ``object_id``-mode action."""
    name = str(api.get("action", ""))
    action: dict[str, Any] = {"action": name}
    if name in INTERACTIONS:
        action["object_id"] = api.get("receptacleObjectId") or api.get("objectId", "")
    return action


def read_actseqs(path: str) -> dict[str, list[list[Mapping[str, Any]]]]:
    """task_id -> its API-action sequences, in file order, from a leaderboard dump
    (``{"tests_seen": [{"task_id", "api_actions"}], "tests_unseen": [...]}``)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: no such file", ExitCode.NOT_FOUND) from None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise UserError(f"{path}: not an action-sequence file ({' '.join(str(error).split())})",
                        ExitCode.BAD_INPUT) from None
    sequences: dict[str, list[list[Mapping[str, Any]]]] = {}
    if not isinstance(data, dict):
        raise UserError(f"{path}: an action-sequence file is a JSON object of lists", ExitCode.BAD_INPUT)
    for split, entries in data.items():
        if not isinstance(entries, list):
            raise UserError(f"{path}: {split!r} is not a list", ExitCode.BAD_INPUT)
        for entry in entries:
            if not (isinstance(entry, dict) and isinstance(entry.get("task_id"), str)
                    and isinstance(entry.get("api_actions"), list)):
                raise UserError(f"{path}: {split!r} entries need task_id and api_actions", ExitCode.BAD_INPUT)
            sequences.setdefault(entry["task_id"], []).append(
                [a for a in entry["api_actions"] if isinstance(a, dict)])
    return sequences


def load_factory(spec: str) -> AgentFactory:
    """The factory ``spec`` names (a built-in, or ``module:attribute``). Raises UserError(NOT_FOUND)
    with one line when it cannot be found (the run reports it per episode)."""
    if spec == "expert":
        return ExpertAgent
    if spec == "random":
        return RandomAgent
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UserError(f"agent {spec!r}: give module:factory, or one of {', '.join(BUILTIN)}", ExitCode.NOT_FOUND)
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")  # the working directory, as `python -m` has it
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # an agent's module may fail in any way; the run reports it
        raise UserError(f"agent {spec!r}: cannot import {module_name} ({type(error).__name__}: "
                        f"{' '.join(str(error).split())})", ExitCode.NOT_FOUND) from None
    factory: Any = module
    for part in attribute.split("."):
        factory = getattr(factory, part, None)
        if factory is None:
            raise UserError(f"agent {spec!r}: {module_name} has no {attribute}", ExitCode.NOT_FOUND)
    if not callable(factory):
        raise UserError(f"agent {spec!r}: {attribute} is not callable", ExitCode.NOT_FOUND)
    return factory  # type: ignore[no-any-return,unused-ignore]
