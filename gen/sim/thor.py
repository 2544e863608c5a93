"""The real AI2-THOR backend (``--backend thor``): ai2thor's Controller behind the lite interface.

What this module does:

* **Starting** a THOR build without ever hanging or touching the network. ai2thor looks builds up
  online (5.x: a GitHub commit list and S3 HEAD requests without timeouts; 2.1.0: a download when
  no local executable is set) and then waits for Unity with no time limit (2.1.0's ``queue_get``
  loop, 5.x's blocking ``open()`` of its FIFO). So the build is resolved here first (``--thor-build``
  or ai2thor's own cache under ``~/.ai2thor/releases``), the display is checked (X socket, or the
  Vulkan loader for CloudRendering), the build is handed to ai2thor pinned (5.x never runs its
  ``find_build``), and the start runs under a watchdog. Every failure is one
  :class:`~alfred_gen.errors.UserError` line with exit code BACKEND_UNAVAILABLE.
* **Speaking** ALFRED's action dialect to the installed ai2thor and **normalising** its Events to
  lite's shape: :mod:`alfred_gen.sim.thor_adapt` (pure functions, re-exported here), driven by the
  version table in :mod:`alfred_gen.sim.thor_versions`.
* **Driving** it all behind lite's interface: :class:`ThorController` (reset, step, stop,
  last_event, backend_info), plus :func:`make_thor_controller`, which takes the command line's THOR options.

ai2thor is an optional extra (``pip install 'alfred-gen[thor]'``); this module imports it lazily,
so the fail-fast checks work without it.
"""

from __future__ import annotations

import copy
import ctypes.util
import functools
import glob
import os
import queue
import re
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alfred_gen.errors import ExitCode, UserError
from alfred_gen.sim.thor_adapt import (
    Refusal,
    ThorEvent,
    adapt_action,
    adapt_event,
    masks_from_segmentation,
    normalise_action,
    normalise_metadata,
)
from alfred_gen.sim.thor_versions import PROFILES, VersionProfile, profile_for_version

#: Platforms a user may ask for with --thor-platform (ai2thor.platform class names).
PLATFORMS = ("Linux64", "CloudRendering")

#: Where X servers put their sockets; a module attribute so tests can point it elsewhere.
X11_SOCKET_DIR = "/tmp/.X11-unix"

#: Seconds to wait for a THOR build to answer its first message before giving up.
DEFAULT_STARTUP_TIMEOUT = 120.0

#: The build ALFRED's data was recorded with (shared/alfred README; ALFRED's gen/constants.py).
ALFRED_BUILD_TAG = "201909061227"

INSTALL_HINT = "pip install 'alfred-gen[thor]'"

#: Seconds ai2thor waits for each answer of a started build (ai2thor 5.x's own default is 100).
DEFAULT_STEP_TIMEOUT = 100.0

#: The marker ``alfred-gen thor-build`` writes beside a lite THOR build (alfred_gen.thorbuild):
#: such a build draws on no display and loads lite's rooms by their own names too.
LITE_BUILD_MARKER = "alfred-gen-build.json"
LITE_BUILD_FORMAT = "alfred-gen-thor-build"



class ThorBackendError(UserError):
    """The THOR build is missing, cannot start, or died: one line, exit code BACKEND_UNAVAILABLE."""

    def __init__(self, message: str) -> None:
        super().__init__(message, ExitCode.BACKEND_UNAVAILABLE)


# --------------------------------------------------------------------------------------------
# Finding and starting a build
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThorLaunch:
    """Everything a controller factory needs to start one THOR controller."""

    profile: VersionProfile
    ai2thor_version: str
    executable: Path | None
    platform: str
    x_display: str | None
    width: int
    height: int
    init_params: Mapping[str, Any]
    startup_timeout: float
    #: The scene ai2thor 5.x's Controller loads at start (None: the first the build lists).
    start_scene: str | None = "FloorPlan1"
    step_timeout: float = DEFAULT_STEP_TIMEOUT
    #: The build is lite's (``alfred-gen thor-build``): no display to check.
    lite_build: bool = False


ControllerFactory = Callable[[ThorLaunch], Any]


def installed_ai2thor_version() -> str | None:
    """The installed ai2thor's version, or None when the extra is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ai2thor")
    except PackageNotFoundError:
        return None


def _releases_dir() -> Path:
    """ai2thor's build cache (both 2.1.0 and 5.x use ~/.ai2thor/releases/<name>/<name>)."""
    return Path(os.path.expanduser("~")) / ".ai2thor" / "releases"


def _is_executable_file(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def _executable_in(directory: Path) -> Path | None:
    """A build directory's executable: ai2thor's layout <dir>/<dir name>, else one thor-* file."""
    same_name = directory / directory.name
    if _is_executable_file(same_name):
        return same_name
    candidates = sorted(p for p in directory.glob("thor-*") if _is_executable_file(p))
    return candidates[0] if len(candidates) == 1 else None


def _cached_build_names(profile: VersionProfile, platform: str) -> list[str]:
    """Release directory names ai2thor itself would use for this version and platform."""
    if profile.name == "5":
        try:
            from ai2thor.build import COMMIT_ID
        except Exception:
            COMMIT_ID = None
        return [f"thor-{platform}-{COMMIT_ID}"] if COMMIT_ID else []
    # 2.1.0 names its Linux build thor-<build tag>-Linux64; ALFRED's tag first, then any other.
    found = sorted(Path(p).name for p in glob.glob(str(_releases_dir() / "thor-*-Linux64")))
    preferred = [n for n in found if ALFRED_BUILD_TAG in n]
    return preferred + [n for n in found if n not in preferred]


def find_thor_build(build_path: str | os.PathLike[str] | None, profile: VersionProfile, platform: str) -> Path:
    """The THOR executable to start: ``build_path`` (file or build directory) or ai2thor's cache.

    Never downloads and never asks the network; raises ThorBackendError naming what is missing.
    """
    if build_path:
        path = Path(build_path).expanduser()
        if path.is_dir():
            found = _executable_in(path)
            if found is None:
                raise ThorBackendError(f"--thor-build {path}: no THOR executable in that directory")
            return found.resolve()
        if not path.exists():
            raise ThorBackendError(f"--thor-build {path}: no such file")
        if not _is_executable_file(path):
            raise ThorBackendError(f"--thor-build {path}: not an executable file")
        return path.resolve()
    for name in _cached_build_names(profile, platform):
        found = _executable_in(_releases_dir() / name)
        if found is not None:
            return found.resolve()
    raise ThorBackendError(
        f"no THOR build found (none given, none installed in {_releases_dir()}): pass --thor-build PATH "
        f"to a local AI2-THOR {profile.name} executable; it needs a GPU with an X display (--x-display)"
        + (", or --thor-platform CloudRendering (Vulkan, headless)" if "CloudRendering" in profile.platforms else "")
    )


def lite_build_of(executable: Path) -> dict[str, Any] | None:
    """The marker of a lite THOR build (``alfred-gen thor-build``) beside ``executable``, else None."""
    import json

    marker = executable.parent / LITE_BUILD_MARKER
    try:
        data = json.loads(marker.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != LITE_BUILD_FORMAT:
        return None
    return data


def _display_number(x_display: str) -> str | None:
    """The local display number of ":0", "0", ":1.0"; None for a remote "host:0" display."""
    host, _, rest = x_display.rpartition(":")
    if host:
        return None
    return (rest or x_display).split(".")[0]


def check_display(profile: VersionProfile, platform: str, x_display: str | None) -> str | None:
    """Fail fast when the build would have nothing to render on; returns the X display to use."""
    if platform not in profile.platforms:
        raise ThorBackendError(
            f"--thor-platform {platform} is not available with ai2thor {profile.name} "
            f"(available: {', '.join(profile.platforms)})"
        )
    if platform == "CloudRendering":
        if ctypes.util.find_library("vulkan") is None:
            raise ThorBackendError(
                "--thor-platform CloudRendering needs the Vulkan loader (libvulkan1) and an NVIDIA GPU; "
                "none found on this machine"
            )
        return x_display
    display = x_display or os.environ.get("DISPLAY")
    if not display:
        raise ThorBackendError(
            "no X display for the THOR build: pass --x-display N (an X server with GLX on a GPU)"
            + (" or use --thor-platform CloudRendering" if "CloudRendering" in profile.platforms else "")
        )
    number = _display_number(display)
    if number is not None and not (Path(X11_SOCKET_DIR) / f"X{number}").exists():
        raise ThorBackendError(f"X display {display} is not running (no socket {X11_SOCKET_DIR}/X{number})")
    return display


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


def _run_with_watchdog(start: Callable[[], Any], timeout: float, on_timeout: Callable[[], None], what: str) -> Any:
    """Run ``start`` in a daemon thread; give up after ``timeout`` seconds instead of hanging.

    ai2thor waits for Unity without a limit (2.1.0 loops on a queue; 5.x blocks in open() on its
    FIFO), so only a separate thread can bound it. ``on_timeout`` ends what was started.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = start()
        except BaseException as error:  # reported to the caller below
            outcome["error"] = error

    worker = threading.Thread(target=target, name="thor-start", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        try:
            on_timeout()
        finally:
            worker.join(5.0)
        raise ThorBackendError(f"{what} did not answer within {timeout:g} s (see ~/.ai2thor/log/unity.log)")
    if "error" in outcome:
        error = outcome["error"]
        if isinstance(error, UserError):
            raise error
        raise ThorBackendError(f"{what} failed to start: {_first_line(error)}")
    return outcome["value"]


def _start_ai2thor_5(launch: ThorLaunch) -> Any:
    """A 5.x Controller on the pinned build: its find_build (network lookups) never runs."""
    import ai2thor.build
    import ai2thor.controller
    import ai2thor.platform

    build = ai2thor.build.ExternalBuild(str(launch.executable))
    # ExternalBuild always says Linux64; CloudRendering needs its own launch environment.
    build.platform = getattr(ai2thor.platform, launch.platform)
    started: dict[str, Any] = {}

    class PinnedBuildController(ai2thor.controller.Controller):
        def __init__(self, **kwargs: Any) -> None:
            started["controller"] = self
            super().__init__(**kwargs)

        def find_build(self, local_build: Any, commit_id: Any, branch: Any, platform: Any) -> Any:
            return build

    def start() -> Any:
        # The first scene is loaded inside the constructor, so its answer is read with the start-up
        # limit (a slow start is not a hung step); every later answer gets the step limit.
        controller = PinnedBuildController(
            width=launch.width,
            height=launch.height,
            x_display=launch.x_display,
            scene=launch.start_scene,
            server_start_timeout=launch.startup_timeout,
            server_timeout=max(launch.startup_timeout, launch.step_timeout),
            **dict(launch.init_params),
        )
        controller.server_timeout = launch.step_timeout
        if getattr(controller, "server", None) is not None:
            controller.server.timeout = launch.step_timeout
        return controller

    def abandon() -> None:
        controller = started.get("controller")
        server = getattr(controller, "server", None)
        process = getattr(server, "unity_proc", None)
        if process is not None and process.poll() is None:
            process.kill()
        # Unblock the reader stuck in open() on the FIFO, so the thread ends instead of lingering.
        pipe = getattr(server, "server_pipe_path", None)
        if pipe and os.path.exists(pipe):
            try:
                os.close(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass

    return _run_with_watchdog(start, launch.startup_timeout, abandon, f"THOR build {launch.executable}")


class _DeadlineQueue(queue.Queue):
    """ai2thor 2.1.0's event queue with a time limit: its Controller waits for the build's next
    event by polling this queue every half second without end (``queue_get``); past ``limit``
    seconds of waiting, the poll raises TimeoutError instead (None: no limit, during start-up)."""

    def __init__(self) -> None:
        super().__init__()
        self.limit: float | None = None
        self._since: float | None = None

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        try:
            item = super().get(block, timeout)
        except queue.Empty:
            now = time.monotonic()
            if self._since is None:
                self._since = now
            elif self.limit is not None and now - self._since > self.limit:
                self._since = None
                raise TimeoutError(f"no answer from the THOR build within {self.limit:g} s") from None
            raise
        self._since = None
        return item


def _start_ai2thor_2_1(launch: ThorLaunch) -> Any:
    """A 2.1.0 Controller as ALFRED started it: local_executable_path, then start(x_display=...)."""
    import ai2thor.controller

    controller = ai2thor.controller.Controller(quality="MediumCloseFitShadows")
    controller.local_executable_path = str(launch.executable)  # skips 2.1.0's download_binary
    if launch.lite_build:  # it draws on no display, so none is checked (2.1.0 runs xdpyinfo)
        controller.check_x_display = lambda display: None
    display = (launch.x_display or "").lstrip(":") or None  # 2.1.0 adds the colon itself
    events = _DeadlineQueue()
    controller.request_queue = events  # start() hands it to 2.1.0's server, which fills it
    run_build = controller._start_unity_thread

    def run_build_quietly(*args: Any) -> None:
        """2.1.0 raises in its own thread when the build exits non-zero, printing a traceback;
        the action that was waiting reports it instead (one line)."""
        try:
            run_build(*args)
        except Exception:
            pass

    controller._start_unity_thread = run_build_quietly

    def start() -> Any:
        controller.start(
            x_display=display, player_screen_width=launch.width, player_screen_height=launch.height
        )
        events.limit = launch.step_timeout
        return controller

    def abandon() -> None:
        stop_unity = getattr(controller, "stop_unity", None)
        if stop_unity is not None:
            stop_unity()

    return _run_with_watchdog(start, launch.startup_timeout, abandon, f"THOR build {launch.executable}")


def start_real_controller(launch: ThorLaunch) -> Any:
    """The default controller factory: the installed ai2thor on the resolved build."""
    if launch.profile.name == "5":
        return _start_ai2thor_5(launch)
    return _start_ai2thor_2_1(launch)


# --------------------------------------------------------------------------------------------
# The controller
# --------------------------------------------------------------------------------------------

_SCENE_NAME = re.compile(r"^FloorPlan\d+$")


class ThorController:
    """The lite simulator interface on a real AI2-THOR build (or an injected fake).

    ``version`` selects the adapter profile ("2.1.0", "5.0.0", ...); by default the installed
    ai2thor's. ``controller_factory(launch)`` replaces starting ai2thor (tests pass a recording
    fake); without it the build is resolved and checked first, and starting is bounded by
    ``startup_timeout`` seconds. Construction starts the build, so a missing build fails here.
    """

    def __init__(
        self,
        build_path: str | os.PathLike[str] | None = None,
        platform: str | None = None,
        x_display: str | None = None,
        width: int = 300,
        height: int = 300,
        version: str | None = None,
        render_depth: bool = False,
        render_seg: bool = False,
        controller_factory: ControllerFactory | None = None,
        startup_timeout: float = DEFAULT_STARTUP_TIMEOUT,
        step_timeout: float = DEFAULT_STEP_TIMEOUT,
    ) -> None:
        installed = installed_ai2thor_version()
        if controller_factory is None and installed is None:
            raise ThorBackendError(f"the thor backend needs the ai2thor package: {INSTALL_HINT}")
        chosen = version or installed
        if chosen is None:
            raise ThorBackendError(f"no ai2thor version given and ai2thor is not installed: {INSTALL_HINT}")
        profile = profile_for_version(chosen)
        if profile is None:
            raise ThorBackendError(
                f"ai2thor {chosen} is not supported: install ai2thor==2.1.0 (ALFRED's) or ai2thor 5.x"
            )
        if controller_factory is None and installed is not None and profile_for_version(installed) is not profile:
            raise ThorBackendError(f"ai2thor {chosen} was asked for but ai2thor {installed} is installed")
        if profile.name == "2.1" and (width < 300 or height < 300):
            raise UserError("ai2thor 2.1.0 renders at least 300x300 pixels", ExitCode.USAGE)
        platform = platform or "Linux64"
        if platform not in PLATFORMS:
            raise UserError(f"--thor-platform must be one of {', '.join(PLATFORMS)}", ExitCode.USAGE)

        self.profile = profile
        self.ai2thor_version = chosen
        self.platform = platform
        self.width = width
        self.height = height
        init_params = dict(profile.initialize_params)
        init_params[profile.depth_flag] = bool(render_depth)
        init_params[profile.instance_seg_flag] = bool(render_seg)
        self._init_params = init_params

        executable: Path | None = None
        factory = controller_factory
        self.lite_build: dict[str, Any] | None = None
        if factory is None:
            executable = find_thor_build(build_path, profile, platform)
            self.lite_build = lite_build_of(executable)
            if self.lite_build is None:
                x_display = check_display(profile, platform, x_display)
            else:
                x_display = self._lite_build_display(profile, x_display)
                init_params.pop("fieldOfView", None)  # the lite build keeps each room's camera, as lite
            factory = start_real_controller
        elif build_path:
            executable = Path(build_path)
        self.executable = executable
        launch = ThorLaunch(
            profile=profile,
            ai2thor_version=chosen,
            executable=executable,
            platform=platform,
            x_display=x_display,
            width=width,
            height=height,
            init_params=dict(init_params) if profile.initialize_via == "controller" else {},
            startup_timeout=startup_timeout,
            start_scene=None if self.lite_build is not None else "FloorPlan1",
            step_timeout=step_timeout,
            lite_build=self.lite_build is not None,
        )
        self._controller = factory(launch)
        self.scene: str | None = None
        raw = getattr(self._controller, "last_event", None)
        self.last_event: ThorEvent | None = adapt_event(profile, raw) if raw is not None else None

    def _lite_build_display(self, profile: VersionProfile, x_display: str | None) -> str:
        """A lite build draws on no display, but ai2thor hands every Linux64 build a DISPLAY."""
        line = self.lite_build.get("ai2thor") if self.lite_build else None
        if (line == "5") != (profile.name == "5"):
            raise ThorBackendError(f"this lite THOR build speaks ai2thor {line}, but ai2thor "
                                   f"{self.ai2thor_version} is installed: write one with "
                                   f"`alfred-gen thor-build --version {self.ai2thor_version}`")
        return x_display or os.environ.get("DISPLAY") or ":0"

    # -- the lite interface ------------------------------------------------------------------

    def reset(self, scene: str) -> ThorEvent:
        """Load a THOR floor plan and initialise it as ALFRED did (gridSize 0.25, ...).

        A lite build (``alfred-gen thor-build``) also loads lite's own rooms by name."""
        named = isinstance(scene, str) and (bool(_SCENE_NAME.match(scene)) or
                                            (self.lite_build is not None and bool(scene.strip())))
        if not named:
            raise UserError(f"scene {scene!r} is not a THOR scene: the thor backend loads FloorPlan<N> "
                            "(sample with --scene-set alfred)", ExitCode.NOT_FOUND)
        try:
            raw = self._guarded(lambda: self._controller.reset(scene), "Reset")
            if not raw.metadata.get("lastActionSuccess", True):  # 2.1.0 passes a failed Reset on
                raise _ActionRejected(str(raw.metadata.get("errorMessage") or "Reset failed"))
            if self.profile.initialize_via == "step":
                raw = self._guarded(
                    lambda: self._controller.step({"action": "Initialize", **self._init_params}), "Initialize"
                )
        except _ActionRejected as rejected:  # e.g. 5.x: "Scene ... not contained in build"
            raise UserError(f"THOR could not load {scene}: {rejected.message}", ExitCode.NOT_FOUND) from None
        self.scene = scene
        self.last_event = adapt_event(self.profile, raw)
        return self.last_event

    def step(self, action: Mapping[str, Any] | str | None = None, **kwargs: Any) -> ThorEvent:
        """Execute one action in ALFRED's dialect; a failed or unknown action is a failed Event."""
        requested = normalise_action(action, kwargs)
        if self.last_event is None:
            raise UserError("the thor backend needs reset(scene) before step()", ExitCode.USAGE)
        plan = adapt_action(self.profile, requested, self.last_event.metadata)
        if isinstance(plan, Refusal):
            self.last_event = self._failed(requested["action"], plan.message)
            return self.last_event
        raw = None
        for backend_action in plan:
            try:
                raw = self._guarded(functools.partial(self._controller.step, backend_action),
                                    backend_action["action"])
            except _ActionRejected as rejected:
                self.last_event = self._failed(requested["action"], rejected.message)
                return self.last_event
            if not raw.metadata.get("lastActionSuccess", False):
                break
        event = adapt_event(self.profile, raw)
        event.metadata["lastAction"] = requested["action"]
        self.last_event = event
        return event

    def stop(self) -> None:
        """Stop the THOR build (idempotent)."""
        controller, self._controller = self._controller, None
        if controller is not None and hasattr(controller, "stop"):
            try:
                controller.stop()
            except Exception:
                pass

    def backend_info(self) -> dict[str, Any]:
        """What produced the frames, for the trajectory file."""
        return {
            "backend": "thor",
            "ai2thor_version": self.ai2thor_version,
            "build": str(self.executable) if self.executable is not None else None,
            "platform": self.platform,
            "adapter": self.profile.name,
        }

    def __enter__(self) -> ThorController:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # -- helpers -----------------------------------------------------------------------------

    def _guarded(self, call: Callable[[], Any], what: str) -> Any:
        """Run one backend call; rejected arguments become failed actions, crashes one-line errors."""
        if self._controller is None:
            raise UserError("the thor backend was stopped", ExitCode.USAGE)
        try:
            return call()
        except ValueError as error:  # ai2thor: InvalidAction / InvalidArgument / MissingArguments
            raise _ActionRejected(_first_line(error)) from None
        except UserError:
            raise
        except TimeoutError as error:  # ai2thor's server_timeout: the build stopped answering, or died
            status = self._build_exit_status()
            if status is not None:  # 5.x's FIFO reader waits out its timeout on a dead build's pipe too
                how = "" if status == "unknown" else f" with status {status}"
                raise ThorBackendError(f"THOR build exited{how} during {what}") from None
            raise UserError(f"THOR backend did not answer {what}: {_first_line(error)}", ExitCode.TIMEOUT) from None
        except Exception as error:
            raise ThorBackendError(f"THOR backend failed during {what}: {_first_line(error)}") from None

    def _build_exit_status(self) -> str | None:
        """How the build process ended, when it ended on its own; None while it runs or when
        ai2thor killed it (SIGKILL: what ai2thor 5.x does to a build that stopped answering)."""
        server = getattr(self._controller, "server", None)
        process = getattr(server, "unity_proc", None)
        if process is not None and hasattr(process, "poll"):  # 5.x keeps the Popen
            status = process.poll()
            return None if status is None or status == -signal.SIGKILL else str(status)
        pid = getattr(self._controller, "unity_pid", None)  # 2.1.0 keeps the pid only
        if isinstance(pid, int) and pid > 0:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return "unknown"
        return None

    def _failed(self, action_name: str, message: str) -> ThorEvent:
        """A failed action changes nothing: the last state, with the failure recorded."""
        last = self.last_event
        assert last is not None
        metadata = copy.deepcopy(last.metadata)
        metadata.update(lastAction=action_name, lastActionSuccess=False, errorMessage=message, actionReturn=None)
        return ThorEvent(
            metadata=metadata,
            frame=last.frame,
            depth_frame=last.depth_frame,
            instance_segmentation_frame=last.instance_segmentation_frame,
            instance_masks=last.instance_masks,
            color_to_object_id=last.color_to_object_id,
            object_id_to_color=last.object_id_to_color,
            instance_detections2D=last.instance_detections2D,
            raw=None,
        )


class _ActionRejected(Exception):
    """ai2thor refused an action's name or arguments (it raises ValueError for those)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def make_thor_controller(
    thor_build: str | None = None,
    thor_platform: str | None = None,
    x_display: str | None = None,
    **options: Any,
) -> ThorController:
    """A started ThorController from the CLI options (extra keyword options go to ThorController).

    Unknown keys such as ``backend`` are ignored, so a command can pass all its options through.
    """
    accepted = {"width", "height", "version", "render_depth", "render_seg", "controller_factory", "startup_timeout",
                "step_timeout"}
    extra = {k: v for k, v in options.items() if k in accepted}
    if options.get("thor_timeout") is not None:  # --thor-timeout: one limit for the start and each answer
        extra.setdefault("startup_timeout", float(options["thor_timeout"]))
        extra.setdefault("step_timeout", float(options["thor_timeout"]))
    return ThorController(build_path=thor_build, platform=thor_platform, x_display=x_display, **extra)


__all__ = [
    "PLATFORMS",
    "PROFILES",
    "Refusal",
    "ThorBackendError",
    "ThorController",
    "ThorEvent",
    "ThorLaunch",
    "adapt_action",
    "adapt_event",
    "check_display",
    "find_thor_build",
    "installed_ai2thor_version",
    "make_thor_controller",
    "masks_from_segmentation",
    "normalise_action",
    "normalise_metadata",
    "start_real_controller",
]
