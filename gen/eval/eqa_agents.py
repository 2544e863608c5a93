"""EQA agents: what ``eval eqa`` asks of one, and the built-in reference agents.

An agent is made by a factory (a callable without arguments) and has three methods::

    agent.reset(task_info)            # a new episode
    action = agent.act(observation)   # "MoveAhead", "RotateLeft", "RotateRight" or "Stop"
    ranking = agent.answer(observation)

``task_info`` holds ``question``, ``template``, ``answers`` (the answer space: a sorted list),
``answer_prior`` (answer -> share among the train split's questions asked the same way, else of
its template: training data, which any agent may use), ``start`` (``T-10``, ``T-30`` or
``T-50``), ``max_steps``, ``split``, ``question_id``, ``path`` and ``traj_data`` (the whole file,
as ``eval alfred`` hands it: only the built-in expert reads it). ``observation`` has ``question``,
``step`` (actions taken), ``last_action_success`` and ``rgb`` (300x300x3 uint8; absent when the
agent has ``needs_rgb = False``, which spares the renderer). An action is a name (ALFRED's
``MoveAhead_25`` spellings and ``<<stop>>`` too), an index into :data:`NAV_ACTIONS`, or a dict
with ``action``. ``answer`` is called once, when navigation ends, and returns the answers ranked
best first (a list), one answer (a string), or scores (a dict answer -> score, highest first).

Built-in agents (``--agent NAME``):

``expert``
    the expert's own shortest path from the start (its MoveAhead / Rotate actions from the start's
    index on), then Stop; answers the true answer (an oracle). It bounds the table from above.
``random``
    a random walk of as many actions as the start is from the end (10, 30 or 50), each uniform over
    MoveAhead, RotateLeft and RotateRight, then Stop; ranks the answers by drawing them from the
    train prior without replacement: the language-only baseline, whose accuracy is the prior's
    probability of the true answer on average.
``forward``
    MoveAhead for as many actions as the start is from the end, stopping early at the first move
    that fails (a wall); answers as ``random`` does.

Both random agents are seeded by the episode, so a run gives the same actions every time.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from alfred_gen.env.actions import BadAction, action_name
from alfred_gen.errors import ExitCode, UserError

#: The navigation actions (the index of an integer action).
NAV_ACTIONS = ("MoveAhead", "RotateLeft", "RotateRight", "Stop")

#: Built-in agents by name.
BUILTIN = ("expert", "random", "forward")


class EqaAgent(Protocol):
    def reset(self, task_info: Mapping[str, Any]) -> None: ...

    def act(self, observation: Mapping[str, Any]) -> Any: ...

    def answer(self, observation: Mapping[str, Any]) -> Any: ...


EqaAgentFactory = Callable[[], EqaAgent]


def nav_action(action: Any) -> str:
    """The navigation action an agent returned, by name; BadAction for anything else."""
    fields = action if isinstance(action, Mapping) else {"action": action}
    return action_name(fields.get("action"), NAV_ACTIONS)


def ranking_of(answer: Any, space: Sequence[str]) -> list[str]:
    """An agent's answer as a ranking (best first) of answers of ``space``; BadAction for an
    answer of another kind or outside the space."""
    allowed = set(space)
    if isinstance(answer, str):
        ranked = [answer]
    elif isinstance(answer, Mapping):
        try:
            scored = [(float(score), str(name)) for name, score in answer.items()]
        except (TypeError, ValueError):
            raise BadAction("answer scores must be numbers") from None
        if any(math.isnan(score) for score, _ in scored):
            raise BadAction("answer scores must not be NaN")
        ranked = [name for _score, name in sorted(scored, key=lambda item: (-item[0], item[1]))]
    elif isinstance(answer, (list, tuple)):
        ranked = [a for a in answer]
    else:
        raise BadAction(f"an answer is a string, a ranked list or a dict of scores, got {type(answer).__name__}")
    for name in ranked:
        if not isinstance(name, str) or name not in allowed:
            raise BadAction(f"answer {name!r} is not in the question's answer space")
    if len(set(ranked)) != len(ranked):
        raise BadAction("an answer ranking names an answer twice")
    return ranked


def _rng(task_info: Mapping[str, Any]) -> random.Random:
    key = f"{task_info.get('question_id')}#{task_info.get('start')}"
    return random.Random(zlib.crc32(key.encode()))


def prior_ranking(prior: Mapping[str, float], space: Sequence[str], rng: random.Random) -> list[str]:
    """The answers drawn one by one from ``prior`` without replacement (so the first is a draw
    from the prior); answers of zero weight follow in random order."""
    keyed = []
    for name in space:
        weight = float(prior.get(name, 0.0))
        draw = rng.random()
        key = -math.log(1.0 - draw) / weight if weight > 0 else math.inf  # exponential race: first = a draw
        keyed.append((key, rng.random(), name))
    return [name for _key, _tie, name in sorted(keyed)]


def _budget(task_info: Mapping[str, Any]) -> int:
    start = str(task_info.get("start", "T-10"))
    try:
        return int(start.split("-", 1)[1])
    except (IndexError, ValueError):
        return 10


class ExpertAgent:
    """The expert's shortest path and an oracle answerer (module docstring)."""

    needs_rgb = False

    def __init__(self) -> None:
        self.queue: list[str] = []
        self.truth = ""

    def reset(self, task_info: Mapping[str, Any]) -> None:
        traj = task_info["traj_data"]
        eqa = traj["eqa"]
        first = int(eqa["spawns"][task_info["start"]]["low_idx"])
        names = [low["api_action"]["action"] for low in traj["plan"]["low_actions"][first:]]
        self.queue = [n for n in names if n in NAV_ACTIONS] + ["Stop"]
        self.queue.reverse()
        self.truth = str(eqa["answer"])

    def act(self, observation: Mapping[str, Any]) -> Any:
        return self.queue.pop() if self.queue else "Stop"

    def answer(self, observation: Mapping[str, Any]) -> Any:
        return [self.truth]


class RandomAgent:
    """A random walk and the train prior's answers (module docstring)."""

    needs_rgb = False

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.left = 0
        self.ranking: list[str] = []

    def reset(self, task_info: Mapping[str, Any]) -> None:
        self.rng = _rng(task_info)
        self.ranking = prior_ranking(task_info.get("answer_prior") or {}, task_info["answers"], self.rng)
        self.left = _budget(task_info)

    def act(self, observation: Mapping[str, Any]) -> Any:
        if self.left <= 0:
            return "Stop"
        self.left -= 1
        return self.rng.choice(NAV_ACTIONS[:3])

    def answer(self, observation: Mapping[str, Any]) -> Any:
        return self.ranking


class ForwardAgent(RandomAgent):
    """MoveAhead until the budget is spent or a move fails; the train prior's answers."""

    def act(self, observation: Mapping[str, Any]) -> Any:
        if self.left <= 0 or (observation.get("step", 0) > 0 and not observation.get("last_action_success", True)):
            return "Stop"
        self.left -= 1
        return "MoveAhead"


def load_eqa_factory(spec: str) -> EqaAgentFactory:
    """The factory ``spec`` names: a built-in (:data:`BUILTIN`) or ``module:attribute``. Raises
    UserError(NOT_FOUND) in one line when it cannot be found."""
    builtins: dict[str, EqaAgentFactory] = {"expert": ExpertAgent, "random": RandomAgent, "forward": ForwardAgent}
    if spec in builtins:
        return builtins[spec]
    if ":" not in spec:
        raise UserError(f"agent {spec!r}: give module:factory, or one of {', '.join(BUILTIN)}", ExitCode.NOT_FOUND)
    from alfred_gen.eval.agents import load_factory

    return load_factory(spec)  # type: ignore[return-value]  # checked by use: an EQA agent has answer()
