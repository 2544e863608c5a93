"""``alfred-gen eval alfred``: roll an agent out over every episode and score it with ALFRED's metrics.

Each episode (a trajectory and one annotation, :mod:`alfred_gen.env.episodes`) runs in an
:class:`~alfred_gen.env.alfred.AlfredEnv` with ALFRED's rules, in worker processes with ``--jobs``
(each with its own simulator and its own agent, made once and reset per episode). Whatever goes
wrong with one episode is that episode's failure, never the run's: an agent that cannot be made,
that raises, that returns an action outside the mode's space, or whose ``reset`` / ``act`` takes
longer than the per-step timeout; a file that cannot be read or whose start state cannot be rebuilt.
Each such episode gets one line ``<path> #<r>: <reason>: <detail>``, counts as failed, and the run
goes on.

With ``--out``, the results file (every episode's record, and the metrics of those so far) is
rewritten atomically after every episode, so a run that is stopped (Ctrl-C) keeps what it scored and
a rerun with the same ``--out`` skips the episodes already in it (same agent and mode only).
"""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from alfred_gen.env.actions import BadAction
from alfred_gen.env.episodes import Episode, episodes_from
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.agents import ActionSequenceAgent, AgentFactory, load_factory
from alfred_gen.eval.alfred_l import alfred_l_labels, alfred_l_metrics, alfred_l_table
from alfred_gen.eval.calls import AgentTimeout, call_with_timeout, one_line
from alfred_gen.eval.metrics import all_metrics, episode_scores, table
from alfred_gen.eval.results import read_episodes, write_results
from alfred_gen.sim.controller import Simulator

#: Format word of a results file.
RESULTS_FORMAT = "alfred-gen-eval-alfred"

#: Default seconds an agent's reset() or act() may take.
STEP_TIMEOUT = 60.0

#: Reasons an episode ended, besides the agent's Stop.
END_STOP, END_MAX_STEPS, END_MAX_FAILS = "stop", "max_steps", "max_fails"
#: Reasons that are errors (the episode could not be run as asked), in the order they are checked.
ERROR_REASONS = ("agent_unavailable", "bad_file", "restore_failed", "agent_error", "bad_action", "timeout",
                 "simulator_error")


@dataclass(frozen=True)
class EvalOptions:
    """What one run is: the agent, the mode, the episode rules and the simulator."""

    agent: str
    mode: str = "mask"
    step_timeout: float = STEP_TIMEOUT
    simulator: Simulator | None = None
    actseqs: str | None = None  # a leaderboard action-sequence file played instead of an agent
    mask_rule: str = "affordance"  # how a mask picks its object (alfred_gen.env.masks)
    within: float | None = None  # success distance (m) of derived tasks' destinations; None: the file's
    language: tuple[str, ...] = ()  # ALFRED-L's perturbations applied to the language first ("e1", "e2")


class Runner:
    """One worker's environment and agent (made on first use), running episodes one by one."""

    def __init__(self, options: EvalOptions) -> None:
        self.options = options
        self.env: Any = None
        self.agent: Any = None
        self.factory: AgentFactory | None = None
        self.factory_error = ""

    def _env(self) -> Any:
        if self.env is None:
            from alfred_gen.env.alfred import AlfredEnv

            self.env = AlfredEnv(None, mode=self.options.mode, simulator=self.options.simulator,
                                 mask_rule=self.options.mask_rule, within=self.options.within)
        return self.env

    def _agent(self) -> Any:
        if self.agent is None:
            if self.options.actseqs is not None:
                from alfred_gen.eval.agents import read_actseqs

                self.agent = ActionSequenceAgent(read_actseqs(self.options.actseqs))
                return self.agent
            if self.factory is None:
                self.factory = load_factory(self.options.agent)
            self.agent = self.factory()
        return self.agent

    def run(self, episode: Episode, occurrence: int = 0) -> dict[str, Any]:
        """The record of one episode (never raises for anything the episode or agent does)."""
        record: dict[str, Any] = {"key": episode.key, "path": episode.path, "repeat_idx": episode.repeat_idx,
                                  "split": episode.split, "task_id": "", "task_type": "", "success": False,
                                  "goal_conditions_met": 0, "goal_conditions_total": 0, "steps": 0,
                                  "failed_actions": 0, "expert_length": 0, "end": "", "reason": "", "error": "",
                                  "variant": "", "language": "", "goal_distance": None}
        try:
            agent = call_with_timeout(self._agent, self.options.step_timeout)
        except AgentTimeout:
            return self._failed(record, "agent_unavailable", "making the agent took too long")
        except UserError as error:
            return self._failed(record, "agent_unavailable", str(error))
        except Exception as error:
            return self._failed(record, "agent_unavailable", one_line(error))
        env = self._env()
        try:
            observation, info = env.reset(options={"trajectory": self._trajectory(episode),
                                                   "annotation": episode.repeat_idx})
        except UserError as error:
            from alfred_gen.replay.restore import RestoreError

            reason = "restore_failed" if isinstance(error, RestoreError) else "bad_file"
            return self._failed(record, reason, str(error))
        except Exception as error:
            return self._failed(record, "simulator_error", one_line(error))
        record.update(task_id=info["task_id"], task_type=info["task_type"], expert_length=info["expert_length"],
                      **alfred_l_labels(env.traj))
        self._progress(record, info)
        traj = env.traj
        task_info = {"task_id": info["task_id"], "task_type": info["task_type"], "repeat_idx": episode.repeat_idx,
                     "split": episode.split, "path": episode.path, "mode": self.options.mode,
                     "goal": observation["goal"], "instructions": observation["instructions"].split("\n"),
                     "traj_data": traj, "occurrence": occurrence}
        try:
            call_with_timeout(lambda: agent.reset(task_info), self.options.step_timeout)
        except AgentTimeout:
            return self._agent_failed(record, "timeout", f"reset() took longer than {self.options.step_timeout:g} s")
        except Exception as error:
            return self._agent_failed(record, "agent_error", f"reset(): {one_line(error)}")
        while True:
            try:
                action = call_with_timeout(partial(agent.act, observation), self.options.step_timeout)
            except AgentTimeout:
                return self._agent_failed(record, "timeout",
                                          f"act() took longer than {self.options.step_timeout:g} s at step "
                                          f"{record['steps']}")
            except Exception as error:
                return self._agent_failed(record, "agent_error", f"act() at step {record['steps']}: {one_line(error)}")
            try:
                observation, _reward, terminated, truncated, info = env.step(action)
            except (BadAction, TypeError) as error:
                return self._agent_failed(record, "bad_action",
                                          f"step {record['steps']}: {' '.join(str(error).split())[:200]}")
            except Exception as error:
                return self._failed(record, "simulator_error", one_line(error))
            self._progress(record, info)
            if terminated:
                record["end"] = END_STOP
                break
            if truncated:
                record["end"] = END_MAX_STEPS if info["steps"] >= env.max_steps else END_MAX_FAILS
                break
        return self._scored(record)

    def _trajectory(self, episode: Episode) -> Any:
        """What the environment resets to: the file, or with ``language`` its perturbed copy."""
        if not self.options.language:
            return episode.path
        from alfred_gen.derive.perturb import perturb_language
        from alfred_gen.traj.format import load_trajectory

        traj = load_trajectory(episode.path)
        for kind in self.options.language:
            traj, _counts = perturb_language(traj, kind)
        return traj

    def _progress(self, record: dict[str, Any], info: Mapping[str, Any]) -> None:
        record["goal_distance"] = info.get("goal_distance")
        record.update(success=bool(info["success"]), goal_conditions_met=int(info["goal_conditions_met"]),
                      goal_conditions_total=int(info["goal_conditions_total"]), steps=int(info["steps"]),
                      failed_actions=int(info["failed_actions"]), error=str(info.get("errorMessage", "")))

    def _scored(self, record: dict[str, Any]) -> dict[str, Any]:
        record.update(episode_scores(record["success"], record["goal_conditions_met"],
                                     record["goal_conditions_total"], record["expert_length"], record["steps"]))
        return record

    def _failed(self, record: dict[str, Any], reason: str, detail: str) -> dict[str, Any]:
        record.update(success=False, reason=reason, error=" ".join(detail.split()), end="error")
        return self._scored(record)

    def _agent_failed(self, record: dict[str, Any], reason: str, detail: str) -> dict[str, Any]:
        self.agent = None  # a new one for the next episode: this one may be in any state
        record["success"] = False
        return self._failed(record, reason, detail)


# --- worker processes ------------------------------------------------------------------------------
_runner: Runner | None = None


def _init_worker(options: EvalOptions) -> None:
    global _runner
    _runner = Runner(options)
    signal.signal(signal.SIGINT, signal.SIG_IGN) if _is_pool_worker() else None


def _is_pool_worker() -> bool:
    import multiprocessing

    return multiprocessing.parent_process() is not None


def _run_indexed(job: tuple[int, Episode, int]) -> tuple[int, dict[str, Any]]:
    index, episode, occurrence = job
    assert _runner is not None
    return index, _runner.run(episode, occurrence)


# --- results file ----------------------------------------------------------------------------------
def _settings(options: EvalOptions) -> dict[str, Any]:
    """What a results file must have been made with for a rerun to resume it."""
    return {"agent": options.actseqs or options.agent, "mode": options.mode, "mask_rule": options.mask_rule,
            "within": options.within, "language": list(options.language)}


def _read_results(path: Path, options: EvalOptions) -> dict[str, dict[str, Any]]:
    return read_episodes(path, RESULTS_FORMAT, "eval alfred", _settings(options), absent={"language": []})


def _write_results(path: Path, options: EvalOptions, records: Mapping[str, Mapping[str, Any]]) -> None:
    write_results(path, RESULTS_FORMAT, _settings(options),
                  {"metrics": all_metrics(records.values()), "alfred_l": alfred_l_metrics(records.values())}, records)


def _with_occurrences(episodes: Sequence[Episode], actseqs: str | None) -> list[tuple[Episode, int]]:
    """The episodes to run, each with its occurrence among those of the same trajectory (which of a
    leaderboard dump's sequences for that task id it plays); with an action-sequence file, only the
    trajectories it names."""
    if actseqs is None:
        return [(e, 0) for e in episodes]
    from alfred_gen.eval.agents import read_actseqs
    from alfred_gen.traj.format import parse_trajectory_json

    named = read_actseqs(actseqs)
    chosen: list[tuple[Episode, int]] = []
    seen: dict[str, int] = {}
    for episode in episodes:
        try:
            task_id = str(parse_trajectory_json(episode.path).get("task_id"))
        except (UserError, AttributeError):
            continue
        if task_id in named and seen.get(task_id, 0) < len(named[task_id]):
            chosen.append((episode, seen.get(task_id, 0)))
            seen[task_id] = seen.get(task_id, 0) + 1
    if not chosen:
        raise UserError(f"{actseqs}: names no task_id of the trajectories given", ExitCode.NOT_FOUND)
    return chosen


def eval_alfred(
    source: str,
    options: EvalOptions,
    *,
    split: str | None = None,
    data_root: str | None = None,
    jobs: int = 1,
    out: str | None = None,
    echo: Callable[[str], None] = print,
    show_progress: bool = True,
) -> ExitCode:
    """``alfred-gen eval alfred``: run, print one line per episode that could not be run as asked,
    the metrics table and a summary; write the results file. OK unless an episode failed with an
    error reason (FAILED)."""
    from alfred_gen.parallel import run_unordered
    from alfred_gen.progress import progress, shown_path

    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    if options.actseqs is not None:  # API actions name objects by id
        options = replace(options, mode="object_id")
    if options.step_timeout < 0:
        raise UserError("--step-timeout must not be negative", ExitCode.USAGE)
    if options.within is not None and not options.within >= 0:
        raise UserError(f"--within must be a distance in metres >= 0, got {options.within}", ExitCode.USAGE)
    from alfred_gen.derive.perturb import KINDS

    if any(kind not in KINDS for kind in options.language):
        raise UserError(f"--language: one of {', '.join(KINDS)}, got {', '.join(options.language)}", ExitCode.USAGE)
    work = _with_occurrences(episodes_from(source, split=split, data_root=data_root), options.actseqs)
    results_path = Path(out) if out else None
    records: dict[str, dict[str, Any]] = _read_results(results_path, options) if results_path else {}
    wanted = {episode.key for episode, _ in work}
    records = {key: record for key, record in records.items() if key in wanted}
    todo = [(i, episode, occurrence) for i, (episode, occurrence) in enumerate(work) if episode.key not in records]
    skipped = len(work) - len(todo)
    began = time.monotonic()
    interrupted = False
    try:
        with progress("evaluating", len(work), done=skipped, show=show_progress) as bar:
            for _index, record in run_unordered(_run_indexed, todo, jobs, _init_worker, (options,)):
                records[record["key"]] = record
                if results_path is not None:
                    _write_results(results_path, options, records)
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.monotonic() - began
    order = {episode.key: i for i, (episode, _) in enumerate(work)}
    done = sorted(records.values(), key=lambda r: order.get(r["key"], len(order)))
    errors = [r for r in done if r.get("reason")]
    for record in errors:
        echo(f"{shown_path(record['path'])} #{record['repeat_idx']}: {record['reason']}: {record['error']}")
    metrics = all_metrics(done)
    for line in table(metrics):
        echo(line)
    derived = alfred_l_metrics(done)
    if derived["derived_episodes"]:
        echo("")
        for line in alfred_l_table(derived, options.within):
            echo(line)
    ends: dict[str, int] = {}
    for record in done:
        ends[record["end"] if not record.get("reason") else record["reason"]] = ends.get(
            record["end"] if not record.get("reason") else record["reason"], 0) + 1
    summary = (f"{len(done)} episodes scored ({skipped} from an earlier run), "
               f"{metrics['all']['successes']} succeeded; ended by "
               + ", ".join(f"{name} {count}" for name, count in sorted(ends.items()))
               + f" (in {seconds:.1f} s)")
    if results_path is not None:
        summary += f"; results in {shown_path(results_path)}"
    echo(summary)
    if interrupted:
        raise KeyboardInterrupt
    return ExitCode.FAILED if errors else ExitCode.OK
