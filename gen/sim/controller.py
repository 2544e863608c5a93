"""The one simulator interface, how a controller finds scenes, and how to make one.

Everything above the simulators (replay, one demonstration, the sampler, the dataset families)
talks to a :class:`Controller`: AI2-THOR's controller shape, which the embedded ``lite`` simulator
and the ``thor`` adapter both have. Code that needs a simulator of its own (a worker process, a
fresh one to vet a file) is handed a :class:`Simulator`: a small, picklable recipe (backend, its
options, the scene lookup) whose :meth:`Simulator.open` makes a controller. So a worker process,
or a Ray task on another machine, builds the same simulator the parent would.

The simulator knows no scene library: a lite controller gets the way to find a scene by name
(:class:`SceneLookup`) when it is made. The scene library above provides one
(:class:`alfred_gen.scenes.library.SceneLibrary`); tests hand in a dict's ``__getitem__`` or a
lambda.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from alfred_gen.errors import ExitCode, UserError

if TYPE_CHECKING:
    from alfred_gen.sim.scene import Scene

#: The backends, in the order ``--backend`` lists them.
BACKENDS = ("lite", "thor")


@runtime_checkable
class EventLike(Protocol):
    """What a step returns: THOR's Event shape (``metadata`` plus optional image fields)."""

    @property
    def metadata(self) -> dict[str, Any]: ...


@runtime_checkable
class Controller(Protocol):
    """An AI2-THOR-shaped simulator: ``lite`` (:class:`alfred_gen.sim.lite.LiteController`) and
    ``thor`` (:class:`alfred_gen.sim.thor.ThorController`) both satisfy it."""

    last_event: Any

    def reset(self, scene: Any) -> Any:
        """Load a scene (a name, or for lite a Scene) in its initial state; the first Event."""

    def step(self, action: Any = None, **kwargs: Any) -> Any:
        """Execute one action dict (``{"action": "MoveAhead"}``); a failed action is a failed Event."""

    def stop(self) -> None:
        """Release the simulator."""


class SceneLookup(Protocol):
    """How a lite controller finds a scene by name (handed to it when it is made)."""

    def __call__(self, name: str) -> Scene:
        """The Scene called ``name``; UserError(NOT_FOUND) if there is none."""

    def for_start_state(self, name: str, start: Mapping[str, Any],
                        trajectory: Mapping[str, Any] | None = None) -> Scene:
        """The Scene called ``name`` as a recorded start state needs it. ``start`` is that state
        (ALFRED's ``scene`` block): a room known only from evidence may lack objects or start
        points the state proves it has, and a lookup may complete it from there. ``trajectory``,
        when given, is the whole file being replayed: a lookup may also complete the room with the
        fixtures its actions name."""


@dataclass(frozen=True)
class FileEvidence:
    """What a scene lookup took from a replayed file itself, beyond its start state: a user
    re-rendering a released demonstration should know which parts of the room its own masks
    placed, since such a replay is not a replay in the room alone (``--no-complete`` is)."""

    #: Ids of the fixtures the file names and the room lacked, created at their ids' positions.
    completed: tuple[str, ...] = ()
    #: Loose objects drawn lower because the file's masks see over them.
    lowered: int = 0
    #: Things posed where the file's first sight shows THOR pushed them.
    pushes: int = 0
    #: Places where the file's masks show THOR put a thing into a receptacle.
    landings: int = 0
    #: Headings a long thing put into a sink basin takes from the file's masks.
    headings: int = 0

    def uses(self) -> tuple[str, ...]:
        """The evidence beyond completion, in words (``("put landings 2", "pushes 1")``); empty when none."""
        counts = (("put landings", self.landings), ("put headings", self.headings),
                  ("objects lowered for sight lines", self.lowered), ("pushes", self.pushes))
        return tuple(f"{words} {n}" for words, n in counts if n)


@dataclass(frozen=True)
class PlainLookup:
    """A :class:`SceneLookup` from a plain ``name -> Scene`` function (fixtures, tests): the start
    state changes nothing."""

    find: Callable[[str], Scene]

    def __call__(self, name: str) -> Scene:
        return self.find(name)

    def for_start_state(self, name: str, start: Mapping[str, Any],
                        trajectory: Mapping[str, Any] | None = None) -> Scene:
        return self.find(name)


def as_lookup(lookup: SceneLookup | Callable[[str], Scene] | None) -> SceneLookup | None:
    """``lookup`` as a :class:`SceneLookup` (a plain function is wrapped)."""
    if lookup is None or hasattr(lookup, "for_start_state"):
        return lookup  # type: ignore[return-value]  # has the protocol's two methods
    return PlainLookup(lookup)


def make_controller(backend: str = "lite", **options: Any) -> Controller:
    """A controller for the named backend: ``lite`` (embedded, default) or ``thor`` (ai2thor).

    ``options`` go to the backend's constructor (for lite: ``scene``, ``width``, ``height``,
    ``visibility_distance``, ``scene_lookup``, ``visibility``, ``renderer``, ...; for thor: see
    :func:`alfred_gen.sim.thor.make_thor_controller`).
    """
    if backend == "lite":
        from alfred_gen.sim.lite import LiteController

        return LiteController(**options)
    if backend == "thor":
        from alfred_gen.sim.thor import make_thor_controller

        return make_thor_controller(**options)
    raise UserError(f"unknown simulator backend {backend!r} (choose {' or '.join(BACKENDS)})", ExitCode.USAGE)


@dataclass(frozen=True)
class Simulator:
    """A recipe for a controller: which backend, its options, and the scene lookup (lite).

    Picklable (when its lookup is), so it crosses process boundaries; :meth:`open` makes a fresh
    controller wherever it is called. ``options`` are backend options as the command line gives
    them (THOR's ``thor_build``, ``thor_platform``, ``x_display``); lite takes none from there.
    """

    backend: str = "lite"
    options: Mapping[str, Any] = field(default_factory=dict)
    scenes: SceneLookup | None = None

    def open(self, *, render: bool = False, depth: bool = False, segmentation: bool = False,
             **extra: Any) -> Controller:
        """A fresh controller. ``render`` asks for RGB frames, ``depth`` and ``segmentation`` for
        those images (lite's ``render_image`` / ``render_depth_image`` / ``render_object_image``,
        THOR's ``render_depth`` / ``render_seg``): vetting asks for none and never pays for pixels.
        ``extra`` goes to the backend as is (lite's ``renderer=``, ``visibility=``)."""
        options = {**self.options, **extra}
        if self.backend == "lite":
            options.setdefault("scene_lookup", self.scenes)
            options.setdefault("render_image", render)
            options.setdefault("render_depth_image", depth)
            options.setdefault("render_object_image", segmentation)
        else:
            options.setdefault("render_depth", depth)
            options.setdefault("render_seg", segmentation)
        return make_controller(self.backend, **options)
