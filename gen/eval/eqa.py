"""``alfred-gen eval eqa``: spawn an agent at EQA's T-10 / T-30 / T-50 starts of every expert path of
an EQA dataset, let it navigate and answer, and score it with the paper's metrics
(:mod:`alfred_gen.eval.eqa_metrics`).

The dataset is what ``alfred-gen eqa questions`` and ``eqa paths`` make: ``DIR/questions.json``
(the questions, their answers and splits) and the trajectories under ``DIR/paths`` (or
``--paths``). An episode is one trajectory and one of its starts (skipped when the path is shorter
than the start's offset). Per episode:

1. the trajectory's start state is restored (its scene block, as ``verify`` does), the target's
   viewing region computed (:mod:`alfred_gen.eval.eqa_region`, once per question and worker) and
   the agent teleported to the start's pose;
2. the agent acts with the navigation actions (:data:`~alfred_gen.eval.eqa_agents.NAV_ACTIONS`)
   until it stops or has taken ``--max-steps`` actions (a choice: 100, twice the farthest start;
   a move into a wall fails and still counts);
3. it answers, ranking the question's answer space: the answers of every accepted question of the
   template in ``questions.json`` (a choice: EQA ranks a global answer vocabulary; per template
   keeps colours apart from rooms);
4. the record is scored (distances along the grid to the viewing region, rooms of the house by
   the agent's positions, the answer's rank).

Whatever goes wrong with one episode is that episode's, never the run's: an agent that cannot be
made, raises, returns an action or answer outside its space, or takes longer than
``--step-timeout`` in one call; a file that cannot be read or restored. Each gets one line
``<path> <start>: <reason>: <detail>``, is counted but not averaged, and the run ends FAILED.
``--out`` keeps every record and the metrics, rewritten atomically after each episode; a rerun with
the same agent resumes it.
"""

from __future__ import annotations

import signal
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from alfred_gen.env.actions import BadAction
from alfred_gen.errors import ExitCode, UserError
from alfred_gen.eval.calls import AgentTimeout, call_with_timeout, one_line
from alfred_gen.eval.eqa_agents import load_eqa_factory, nav_action, ranking_of
from alfred_gen.eval.eqa_metrics import STARTS, all_metrics, answer_rank, table
from alfred_gen.eval.results import read_episodes, write_results
from alfred_gen.sim.controller import Controller, Simulator

#: Format word of a results file.
RESULTS_FORMAT = "alfred-gen-eval-eqa"

#: Default limit of an episode's actions (module docstring, 2).
MAX_STEPS = 100

#: Default seconds an agent's reset(), act() or answer() may take.
STEP_TIMEOUT = 60.0

#: Reasons an episode could not be run as asked.
ERROR_REASONS = ("agent_unavailable", "bad_file", "restore_failed", "agent_error", "bad_action", "timeout",
                 "simulator_error")


#: How many questions' region fields a process keeps (a question's three starts, and the runs of
#: several agents in one process, compute it once).
REGION_CACHE = 256
_REGIONS: dict[str, list[list[float]]] = {}


@dataclass(frozen=True)
class EqaEvalOptions:
    """One run: the agent, the episode rules, the simulator."""

    agent: str
    max_steps: int = MAX_STEPS
    step_timeout: float = STEP_TIMEOUT
    simulator: Simulator | None = None


@dataclass(frozen=True)
class EqaEpisode:
    """One trajectory and one start."""

    path: str
    start: str
    split: str = ""
    template: str = ""
    question_id: str = ""
    home: str = ""

    @property
    def key(self) -> str:
        return f"{self.path}#{self.start}"


# --- the dataset ---------------------------------------------------------------------------------
@dataclass
class EqaDataset:
    """The episodes of a dataset, its answer spaces per template and the train prior."""

    episodes: list[EqaEpisode]
    spaces: dict[str, list[str]]
    prior_by_question: dict[tuple[str, str], dict[str, float]]
    prior_by_template: dict[str, dict[str, float]]

    def prior(self, template: str, question: str) -> dict[str, float]:
        """The train split's answer shares for the question (else its template; else uniform)."""
        found = self.prior_by_question.get((template, question)) or self.prior_by_template.get(template)
        if found:
            return dict(found)
        space = self.spaces.get(template) or []
        return {answer: 1.0 / len(space) for answer in space}


def _shares(counts: Counter[str]) -> dict[str, float]:
    total = sum(counts.values())
    return {answer: count / total for answer, count in sorted(counts.items())}


def load_dataset(directory: str, paths: str | None = None, splits: Sequence[str] | None = None) -> EqaDataset:
    """The episodes and answer spaces of an EQA dataset (module docstring). UserError NOT_FOUND when
    DIR has no questions or no trajectories, BAD_INPUT when none of them is an EQA path."""
    from alfred_gen.eqa.paths import PATHS_DIR
    from alfred_gen.eqa.questions import load_questions
    from alfred_gen.traj.format import parse_trajectory_json, trajectories_under

    data = load_questions(directory)
    accepted = [q for q in data["questions"] if isinstance(q, dict) and q.get("accepted")]
    space_sets: dict[str, set[str]] = {}
    by_question: dict[tuple[str, str], Counter[str]] = {}
    by_template: dict[str, Counter[str]] = {}
    for q in accepted:
        template, answer = str(q.get("template")), str(q.get("answer"))
        space_sets.setdefault(template, set()).add(answer)
        if q.get("split") == "train":
            by_question.setdefault((template, str(q.get("question"))), Counter())[answer] += 1
            by_template.setdefault(template, Counter())[answer] += 1
    root = Path(paths) if paths else Path(directory) / PATHS_DIR
    if not root.is_dir():
        raise UserError(f"{root}: no such directory (run `alfred-gen eqa paths {directory}` first)", ExitCode.NOT_FOUND)
    files, _missing = trajectories_under(root)
    if not files:
        raise UserError(f"{root}: no traj_data.json found (run `alfred-gen eqa paths {directory}` first)",
                        ExitCode.NOT_FOUND)
    episodes: list[EqaEpisode] = []
    eqa_files = 0
    for file in files:
        try:
            traj = parse_trajectory_json(file)
        except UserError:
            episodes.append(EqaEpisode(str(file), "-"))  # reported as a bad file
            continue
        eqa = traj.get("eqa") if isinstance(traj, dict) else None
        if not isinstance(eqa, dict) or not isinstance(eqa.get("spawns"), dict):
            continue
        eqa_files += 1
        split = str(eqa.get("split", ""))
        if splits and split not in splits:
            continue
        template = str(eqa.get("template", ""))
        space_sets.setdefault(template, set()).add(str(eqa.get("answer")))
        for start in STARTS:
            if eqa["spawns"].get(start):
                episodes.append(EqaEpisode(str(file), start, split, template, str(eqa.get("question_id", "")),
                                           str((traj.get("scene") or {}).get("floor_plan", ""))))
    if not eqa_files:
        raise UserError(f"{root}: no trajectory there has an eqa block: not an EQA dataset "
                        "(made by `alfred-gen eqa paths`)", ExitCode.BAD_INPUT)
    if not episodes:
        raise UserError(f"{root}: no episode of split {', '.join(splits or ())}", ExitCode.NOT_FOUND)
    return EqaDataset(episodes, {t: sorted(s) for t, s in sorted(space_sets.items())},
                      {k: _shares(c) for k, c in by_question.items()}, {k: _shares(c) for k, c in by_template.items()})


# --- one episode ---------------------------------------------------------------------------------
class _EpisodeError(Exception):
    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = " ".join(detail.split())


class EqaRunner:
    """One worker's simulator and agent (made on first use), running episodes one by one."""

    def __init__(self, options: EqaEvalOptions, dataset: EqaDataset) -> None:
        self.options = options
        self.dataset = dataset
        self.agent: Any = None
        self.controllers: dict[bool, Controller] = {}
        self.restored: dict[int, dict[str, Any]] = {}  # controller -> the scene block it holds (start pose aside)
        self.scenes: dict[str, Any] = {}

    def _simulator(self) -> Simulator:
        if self.options.simulator is None:
            from alfred_gen.scenes.library import simulator

            return simulator()
        return self.options.simulator

    def _controller(self, rgb: bool) -> Controller:
        simulator = self._simulator()
        render = rgb or simulator.backend != "lite"  # THOR's views need its frames and masks
        if render not in self.controllers:
            self.controllers[render] = simulator.open(render=render, segmentation=simulator.backend != "lite")
        return self.controllers[render]

    def _agent(self) -> Any:
        if self.agent is None:
            self.agent = load_eqa_factory(self.options.agent)()
        return self.agent

    def run(self, episode: EqaEpisode) -> dict[str, Any]:
        """The record of one episode (never raises for what the episode or the agent does)."""
        record: dict[str, Any] = {"key": episode.key, "path": episode.path, "start": episode.start,
                                  "split": episode.split, "template": episode.template,
                                  "question_id": episode.question_id, "steps": 0, "end": "", "reason": "",
                                  "error": ""}
        try:
            self._run(episode, record)
        except _EpisodeError as error:
            record.update(reason=error.reason, error=error.detail, end="error")
            self.restored.clear()  # restore from scratch next time
            if error.reason in ("agent_error", "bad_action", "timeout"):
                self.agent = None  # a fresh one next time: this one may be in any state
        return record

    def _run(self, episode: EqaEpisode, record: dict[str, Any]) -> None:
        from alfred_gen.traj.format import parse_trajectory_json

        try:
            agent = call_with_timeout(self._agent, self.options.step_timeout)
        except AgentTimeout:
            raise _EpisodeError("agent_unavailable", "making the agent took too long") from None
        except UserError as error:
            raise _EpisodeError("agent_unavailable", str(error)) from None
        except Exception as error:
            raise _EpisodeError("agent_unavailable", one_line(error)) from None
        try:
            traj = parse_trajectory_json(episode.path)
            eqa = traj["eqa"]
            spawn = eqa["spawns"][episode.start]
            pose = [float(v) for v in spawn["pose"]]
            target = eqa["target"]
            template, question, truth = str(eqa["template"]), str(eqa["question"]), str(eqa["answer"])
        except UserError as error:
            raise _EpisodeError("bad_file", str(error)) from None
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise _EpisodeError("bad_file", f"no EQA start {episode.start} ({one_line(error)})") from None
        record.update(template=template, question=question, answer_true=truth, home=traj["scene"].get("floor_plan"))
        rgb = bool(getattr(agent, "needs_rgb", True))
        controller = self._controller(rgb)
        field = self._region_field(controller, traj, episode)
        self._teleport(controller, traj, pose)
        space = self.dataset.spaces.get(template) or [truth]
        task_info = {"question": question, "template": template, "answers": list(space),
                     "answer_prior": self.dataset.prior(template, question), "start": episode.start,
                     "max_steps": self.options.max_steps, "split": episode.split,
                     "question_id": episode.question_id, "path": episode.path, "traj_data": traj}
        self._agent_call(lambda: agent.reset(task_info), "reset()")
        positions = [(pose[0], pose[1])]
        observation = self._observation(controller, question, 0, True, rgb)
        stopped = False
        while record["steps"] < self.options.max_steps:
            action = self._agent_call(partial(agent.act, observation), f"act() at step {record['steps']}")
            try:
                name = nav_action(action)
            except BadAction as error:
                raise _EpisodeError("bad_action", f"step {record['steps']}: {error}") from None
            if name == "Stop":
                stopped = True
                break
            from alfred_gen.env.actions import low_api_action

            try:
                event = controller.step(low_api_action(name))
            except Exception as error:
                raise _EpisodeError("simulator_error", one_line(error)) from None
            record["steps"] += 1
            agent_pose = event.metadata["agent"]["position"]
            positions.append((float(agent_pose["x"]), float(agent_pose["z"])))
            observation = self._observation(controller, question, record["steps"],
                                            bool(event.metadata.get("lastActionSuccess")), rgb)
        answer = self._agent_call(partial(agent.answer, observation), "answer()")
        try:
            ranking = ranking_of(answer, space)
        except BadAction as error:
            raise _EpisodeError("bad_action", f"answer: {error}") from None
        record.update(self._scores(field, positions, traj, target.get("room")))
        record.update(end="stop" if stopped else "max_steps", stop=stopped,
                      answer=ranking[0] if ranking else "", correct=bool(ranking) and ranking[0] == truth,
                      rank=answer_rank(ranking, truth, len(space)), answers=len(space))

    def _agent_call(self, call: Callable[[], Any], what: str) -> Any:
        try:
            return call_with_timeout(call, self.options.step_timeout)
        except AgentTimeout:
            raise _EpisodeError("timeout", f"{what} took longer than {self.options.step_timeout:g} s") from None
        except Exception as error:
            raise _EpisodeError("agent_error", f"{what}: {one_line(error)}") from None

    def _observation(self, controller: Controller, question: str, step: int, success: bool,
                     rgb: bool) -> dict[str, Any]:
        import numpy as np

        observation: dict[str, Any] = {"question": question, "step": step, "last_action_success": success}
        if rgb:
            frame = getattr(controller.last_event, "frame", None)
            observation["rgb"] = (np.array(frame, dtype=np.uint8, copy=True) if frame is not None
                                  else np.zeros((300, 300, 3), np.uint8))
        return observation

    def _region_field(self, controller: Controller, traj: Mapping[str, Any], episode: EqaEpisode) -> list[list[float]]:
        """Restore the start state, and the field to the target's viewing region (kept per question)."""
        from alfred_gen.eqa.geodesic import region_field
        from alfred_gen.eqa.homes import view_source
        from alfred_gen.eqa.views import MIN_VIEW_PIXELS
        from alfred_gen.eval.eqa_region import SmallLiteViewSource, small_min_pixels, viewing_region
        from alfred_gen.replay.restore import restore_scene
        from alfred_gen.sim.scene import CAMERA_Y_OFFSET

        block = {k: v for k, v in traj["scene"].items() if k != "init_action"}
        try:
            if self.restored.get(id(controller)) != block:  # navigation moves nothing: the last state holds
                self.restored.pop(id(controller), None)
                restore_scene(controller, traj["scene"])
                self.restored[id(controller)] = block
        except UserError as error:
            raise _EpisodeError("restore_failed", str(error)) from None
        except Exception as error:
            raise _EpisodeError("simulator_error", one_line(error)) from None
        key = f"{episode.path}|{episode.question_id}"
        if key not in _REGIONS:
            eqa = traj["eqa"]
            agent_y = float(traj["scene"]["init_action"]["y"])
            reachable = [(float(x), float(z)) for x, z, _d in eqa["geodesic"]["cells"]]
            stop = (float(eqa["view"]["pose"][0]), float(eqa["view"]["pose"][1]))
            if self._simulator().backend == "lite":
                source: Any = SmallLiteViewSource(controller)
                least = small_min_pixels()
            else:
                source, least = view_source(controller, self._simulator().backend, agent_y), MIN_VIEW_PIXELS
            try:
                region = viewing_region(source, str(eqa["target"]["objectId"]), eqa["target"]["box"], reachable,
                                        agent_y + CAMERA_Y_OFFSET, stop, least)
            except Exception as error:
                raise _EpisodeError("simulator_error", f"viewing region: {one_line(error)}") from None
            if len(_REGIONS) >= REGION_CACHE:
                _REGIONS.clear()
            _REGIONS[key] = region_field(reachable, region)
        return _REGIONS[key]

    def _teleport(self, controller: Controller, traj: Mapping[str, Any], pose: Sequence[float]) -> None:
        action = {"action": "TeleportFull", "x": pose[0], "y": float(traj["scene"]["init_action"]["y"]),
                  "z": pose[1], "rotation": pose[2], "horizon": pose[3], "rotateOnTeleport": True}
        event = controller.step(action)
        if not event.metadata.get("lastActionSuccess"):
            raise _EpisodeError("restore_failed", f"teleport to the start: {event.metadata.get('errorMessage')}")

    def _scores(self, field: Sequence[Sequence[float]], positions: Sequence[tuple[float, float]],
                traj: Mapping[str, Any], target_room: str | None) -> dict[str, Any]:
        from alfred_gen.eqa.geodesic import navigation_scores
        from alfred_gen.scenes.library import find_scene

        try:
            scores = navigation_scores(field, positions)
        except KeyError:
            raise _EpisodeError("simulator_error", "the agent stood off the reachable grid") from None
        name = str(traj["scene"]["floor_plan"])
        if name not in self.scenes:
            if len(self.scenes) >= 4:
                self.scenes.clear()
            self.scenes[name] = find_scene(name)
        scene = self.scenes[name]
        rooms = []
        for x, z in positions:
            room = scene.room_at(x, z)
            rooms.append(room.room_id if room is not None else None)
        inside = [target_room is not None and room == target_room for room in rooms]
        return {"d_0": scores["d_0"], "d_T": scores["d_T"], "d_delta": scores["d_delta"], "d_min": scores["d_min"],
                "r_T": inside[-1], "r_e": any(inside), "region_points": sum(1 for row in field if row[2] == 0)}


# --- worker processes ----------------------------------------------------------------------------
_runner: EqaRunner | None = None


def _init_worker(options: EqaEvalOptions, dataset: EqaDataset) -> None:
    global _runner
    import multiprocessing

    _runner = EqaRunner(options, dataset)
    if multiprocessing.parent_process() is not None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_indexed(job: tuple[int, EqaEpisode]) -> tuple[int, dict[str, Any]]:
    index, episode = job
    assert _runner is not None
    return index, _runner.run(episode)


# --- results file --------------------------------------------------------------------------------
def _settings(options: EqaEvalOptions) -> dict[str, Any]:
    """What a results file must have been made with for a rerun to resume it."""
    return {"agent": options.agent, "max_steps": options.max_steps}


def _read_results(path: Path, options: EqaEvalOptions) -> dict[str, dict[str, Any]]:
    return read_episodes(path, RESULTS_FORMAT, "eval eqa", _settings(options))


def _write_results(path: Path, options: EqaEvalOptions, records: Mapping[str, Mapping[str, Any]]) -> None:
    write_results(path, RESULTS_FORMAT, _settings(options), {"metrics": all_metrics(records.values())}, records)


def eval_eqa(directory: str, options: EqaEvalOptions, *, paths: str | None = None, splits: Sequence[str] | None = None,
             jobs: int = 1, out: str | None = None, echo: Callable[[str], None] = print,
             show_progress: bool = True) -> ExitCode:
    """``alfred-gen eval eqa``: run, print one line per episode that could not be run as asked, the
    paper's table and a summary; write the results file. OK unless an episode failed (FAILED)."""
    from alfred_gen.parallel import run_unordered
    from alfred_gen.progress import progress, shown_path

    if jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {jobs}", ExitCode.USAGE)
    if options.max_steps < 1:
        raise UserError(f"--max-steps must be at least 1, got {options.max_steps}", ExitCode.USAGE)
    if options.step_timeout < 0:
        raise UserError("--step-timeout must not be negative", ExitCode.USAGE)
    load_eqa_factory(options.agent)  # an unknown agent is the run's error, before any work
    dataset = load_dataset(directory, paths, splits)
    results_path = Path(out) if out else None
    records = _read_results(results_path, options) if results_path else {}
    wanted = {episode.key for episode in dataset.episodes}
    records = {key: record for key, record in records.items() if key in wanted}
    todo = [(i, e) for i, e in enumerate(dataset.episodes) if e.key not in records]
    todo.sort(key=lambda job: (job[1].home, job[1].path, job[0]))  # a home's scene is built once per worker
    skipped = len(dataset.episodes) - len(todo)
    began = time.monotonic()
    interrupted = False
    try:
        with progress("eval eqa", len(dataset.episodes), done=skipped, show=show_progress) as bar:
            for _index, record in run_unordered(_run_indexed, todo, jobs, _init_worker, (options, dataset),
                                                     chunksize=3):
                records[record["key"]] = record
                if results_path is not None:
                    _write_results(results_path, options, records)
                bar.update(1)
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.monotonic() - began
    order = {episode.key: i for i, episode in enumerate(dataset.episodes)}
    done = sorted(records.values(), key=lambda r: order.get(r["key"], len(order)))
    errors = [r for r in done if r.get("reason")]
    for record in errors:
        echo(f"{shown_path(record['path'])} {record['start']}: {record['reason']}: {record['error']}")
    metrics = all_metrics(done)
    for line in table(metrics):
        echo(line)
    ends = Counter(r["reason"] or r["end"] for r in done)
    summary = (f"{len(done)} episodes ({skipped} from an earlier run), "
               f"{sum(1 for r in done if r.get('correct'))} answered right; ended by "
               + ", ".join(f"{name} {count}" for name, count in sorted(ends.items())) + f" (in {seconds:.1f} s)")
    if results_path is not None:
        summary += f"; results in {shown_path(results_path)}"
    echo(summary)
    if interrupted:
        raise KeyboardInterrupt
    return ExitCode.FAILED if errors else ExitCode.OK
