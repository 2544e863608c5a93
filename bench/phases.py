"""Where a `sample` run's time goes: wall and CPU seconds per pipeline phase (``throughput.py --profile``).

The pipeline carries no timers of its own beyond its coarse ``timings``: this module wraps a fixed
list of functions (module attributes and methods, :data:`HOOKS`) for the length of one profiled run
and puts them back afterwards, so the code that is measured is the code that ships and nothing
costs anything when nobody profiles. Time is *exclusive*: a clock charges every interval to the
innermost phase open at that moment, so the rows add up to the run's wall time. A sub-phase
(render, visibility, metadata, JPEG encode) is labelled with the major phase it ran under
(``recording / render``, ``vetting / visibility``), and everything a job did that did not give a
trajectory is moved to ``failed attempts`` when its result comes back.

Runs in this process with one worker (the wrappers do not cross into worker processes).
"""

from __future__ import annotations

import functools
import importlib
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

#: (module, attribute path, phase, major): the functions timed, and the phase each one's time is
#: charged to. Major phases name a step of the data flow; the others are parts of any of them.
HOOKS: tuple[tuple[str, str, str, bool], ...] = (
    ("alfred_gen.sample.run", "dataset_plan", "task space and plan", True),
    ("alfred_gen.demo.generate", "make_start_state", "start state and spawn", True),
    ("alfred_gen.demo.generate", "encode_start", "planning", True),
    ("alfred_gen.demo.drive", "solve", "planning", True),
    ("alfred_gen.demo.drive", "replanned_steps", "planning", True),
    ("alfred_gen.demo.drive", "drive_with_replans", "expansion", True),
    ("alfred_gen.replay.record", "Recorder.step", "recording", True),
    ("alfred_gen.replay.record", "Recorder.rewind", "recording", True),
    ("alfred_gen.demo.generate", "describe", "language", True),
    ("alfred_gen.demo.generate", "annotate", "language", True),
    ("alfred_gen.demo.generate", "painted_colours", "language", True),
    ("alfred_gen.traj.format", "save_trajectory", "writing", True),
    ("alfred_gen.traj.format", "parse_trajectory_json", "vetting", True),
    ("alfred_gen.replay.vet", "vet_trajectory", "vetting", True),
    ("alfred_gen.sim.pixels", "PixelSight._render_full", "render", False),
    ("alfred_gen.sim.pixels", "PixelSight.prepare", "visibility", False),
    ("alfred_gen.sim.pixels", "PixelSight._visibility_frame", "visibility", False),
    ("alfred_gen.sim.world_metadata", "Metadata.listing", "metadata", False),
    ("alfred_gen.sim.lite", "LiteController._head", "metadata", False),
    ("alfred_gen.sim.event", "Event.metadata", "metadata", False),
    ("alfred_gen.replay.record", "encode_jpeg", "JPEG encode", False),
)

#: Sub-phases that draw pixels: their seconds make the render-bound limit.
RENDER_PHASES = ("render", "visibility")

FAILED = "failed attempts"
OTHER = "other (schedule, ledger, job set-up)"


@dataclass
class PhaseClock:
    """Exclusive wall and CPU seconds per phase label, charged to the innermost open phase."""

    wall: Counter = field(default_factory=Counter)
    cpu: Counter = field(default_factory=Counter)
    render_wall: float = 0.0  #: seconds in render/visibility of jobs that made a trajectory
    _stack: list[tuple[str, bool]] = field(default_factory=list)
    _last: tuple[float, float] = (0.0, 0.0)
    _job_wall: Counter | None = None
    _job_cpu: Counter | None = None

    def _charge(self) -> None:
        now = (time.perf_counter(), time.process_time())
        label = self.label()
        wall, cpu = (self._job_wall, self._job_cpu) if self._job_wall is not None else (self.wall, self.cpu)
        assert wall is not None and cpu is not None
        wall[label] += now[0] - self._last[0]
        cpu[label] += now[1] - self._last[1]
        self._last = now

    def label(self) -> str:
        if not self._stack:
            return OTHER
        name, major = self._stack[-1]
        if major:
            return name
        outer = next((n for n, m in reversed(self._stack) if m), None)
        return f"{outer} / {name}" if outer else name

    def start(self) -> None:
        self._last = (time.perf_counter(), time.process_time())

    def stop(self) -> None:
        self._charge()

    @contextmanager
    def phase(self, name: str, major: bool) -> Iterator[None]:
        self._charge()
        self._stack.append((name, major))
        try:
            yield
        finally:
            self._charge()
            self._stack.pop()

    @contextmanager
    def job(self) -> Iterator[dict[str, bool]]:
        """One generation job: its time is kept apart until we know whether it made a trajectory."""
        self._charge()
        self._job_wall, self._job_cpu = Counter(), Counter()
        verdict = {"ok": False}
        try:
            yield verdict
        finally:
            self._charge()
            job_wall, job_cpu = self._job_wall, self._job_cpu
            self._job_wall = self._job_cpu = None
            if verdict["ok"]:
                self.wall.update(job_wall)
                self.cpu.update(job_cpu)
                self.render_wall += sum(v for k, v in job_wall.items() if k.split(" / ")[-1] in RENDER_PHASES)
            else:
                self.wall[FAILED] += sum(job_wall.values())
                self.cpu[FAILED] += sum(job_cpu.values())


def _wrap(clock: PhaseClock, function: Callable[..., Any], name: str, major: bool) -> Callable[..., Any]:
    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        with clock.phase(name, major):
            return function(*args, **kwargs)

    return timed


@contextmanager
def hooked(clock: PhaseClock) -> Iterator[None]:
    """The :data:`HOOKS` wrapped with ``clock`` while the block runs; the originals put back after."""
    undo: list[tuple[Any, str, Any]] = []
    try:
        for module_name, path, name, major in HOOKS:
            owner: Any = importlib.import_module(module_name)
            *outer, attribute = path.split(".")
            for part in outer:
                owner = getattr(owner, part)
            original = owner.__dict__[attribute] if isinstance(owner, type) else getattr(owner, attribute)
            if isinstance(original, property):
                assert original.fget is not None
                replacement: Any = property(_wrap(clock, original.fget, name, major))
            else:
                replacement = _wrap(clock, original, name, major)
            setattr(owner, attribute, replacement)
            undo.append((owner, attribute, original))
        yield
    finally:
        for owner, attribute, original in reversed(undo):
            setattr(owner, attribute, original)


def profiled_generator(clock: PhaseClock) -> Callable[..., Any]:
    """generate_trajectory, each call a job of ``clock`` (its time goes to failed attempts unless ok)."""
    from alfred_gen.demo.generate import generate_trajectory

    def generate(*args: Any, **kwargs: Any) -> Any:
        with clock.job() as verdict:
            result = generate_trajectory(*args, **kwargs)
            verdict["ok"] = bool(result.ok)
        return result

    return generate


def table(clock: PhaseClock) -> list[tuple[str, float, float]]:
    """(phase, share of wall, share of CPU) rows, largest wall share first."""
    wall_total = sum(clock.wall.values()) or 1.0
    cpu_total = sum(clock.cpu.values()) or 1.0
    rows = [(label, clock.wall[label] / wall_total, clock.cpu[label] / cpu_total) for label in clock.wall]
    return sorted(rows, key=lambda row: -row[1])
